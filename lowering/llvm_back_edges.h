/* Before NVPTX code generation: a loop's conditional back edge is the branch's true side
 * (lowering/llvm_back_edges.c says why). */
#ifndef HETGPU_LOWERING_LLVM_BACK_EDGES_H
#define HETGPU_LOWERING_LLVM_BACK_EDGES_H

#include <llvm-c/Core.h>

void hg_llvm_back_edges_on_true(LLVMModuleRef mod);

#endif
