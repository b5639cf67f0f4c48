/* Before LLVM's -O2 in the front end: loops nested in a loop that reaches a barrier are marked
 * not to be unrolled (lowering/llvm_barrier_loops.c says why). */
#ifndef HETGPU_LOWERING_LLVM_BARRIER_LOOPS_H
#define HETGPU_LOWERING_LLVM_BARRIER_LOOPS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* False when out of memory (the module is then unchanged or partly marked: still valid). */
bool hg_llvm_keep_loops_in_barrier_loops(LLVMModuleRef mod);

#endif
