/* Before NVPTX code generation: the memsets LLVM's NVPTX back end would expand into a loop of
 * byte stores become loops of the widest stores their destination's alignment allows
 * (lowering/llvm_memset_loops.c says why). */
#ifndef HETGPU_LOWERING_LLVM_MEMSET_LOOPS_H
#define HETGPU_LOWERING_LLVM_MEMSET_LOOPS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

/* Replaces each such memset by a call to an always-inline loop (private destinations addressed
 * in private_space, the target's address space of an alloca's memory); true when it replaced any,
 * and the caller then runs LLVM's always-inline pass. */
bool hg_llvm_memset_loops(LLVMModuleRef mod, unsigned private_space);

/* Deletes the loops' functions once inlined. */
void hg_llvm_memset_loops_drop(LLVMModuleRef mod);

#endif
