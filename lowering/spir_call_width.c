/* The widest vector the SPIR back end passes by value to PoCL's library (lowering/spir.h): part
 * of a SPIR binary's cache key, so it is asked before anything is lowered, outside the LLVM part. */
#include "lowering/spir.h"

unsigned hg_spir_call_vector_bytes(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") ? 64 : __builtin_cpu_supports("avx") ? 32 : 16;
#else
  return 16;
#endif
}
