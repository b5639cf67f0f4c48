/* Shared by spir*.c: the state of one module's lowering to SPIR bitcode. */
#ifndef HETGPU_LOWERING_SPIR_INTERNAL_H
#define HETGPU_LOWERING_SPIR_INTERNAL_H

#include "lowering/llvm_unit.h"
#include "lowering/spir.h"

/* LLVM's calling conventions of SPIR functions and kernels */
#define HG_SPIR_FUNC_CC 75
#define HG_SPIR_KERNEL_CC 76

typedef hg_llvm_unit hg_spir; /* the module being lowered (lowering/llvm_unit.h) */

/* Lowers one call_builtin (NULL with a message when the builtin is the OpenCL C back end's). */
LLVMValueRef hg_spir_builtin(hg_spir *s, const hg_ir_inst *in);
/* Calls the vendor library's function `mangled` (declared on first use) with spir_func's
 * convention; convergent for functions every work-item of a group must reach together. */
LLVMValueRef hg_spir_call(hg_spir *s, const char *mangled, LLVMTypeRef ret, LLVMValueRef *args, unsigned n,
                          bool convergent);

/* Work-item arithmetic that crosses a barrier is computed again after it, for a vendor that keeps
 * such values per work-item in memory (spir_recompute.c); *changed says whether any was. False
 * when out of memory. */
bool hg_spir_recompute_after_barriers(LLVMModuleRef mod, bool *changed);

/* In a kernel on vectors of 32 bytes or more with a loop and no barrier, the private values
 * forwarded and each vector constant an addition in a loop takes loaded at the entry, so that
 * the code generator keeps the additions' order (spir_loop_constants.c); *changed says whether
 * any kernel was. False when out of memory or when LLVM's passes failed. */
bool hg_spir_load_loop_constants(LLVMModuleRef mod, bool *changed);

#endif
