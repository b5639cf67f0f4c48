/* A loop ID for llvm.loop metadata: a node whose first operand is itself, then the hints. */
#ifndef HETGPU_LOWERING_LLVM_LOOP_ID_H
#define HETGPU_LOWERING_LLVM_LOOP_ID_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

/* hints[0] is overwritten (the place of the self reference); hints[1 .. n) are the hints. */
static inline LLVMMetadataRef hg_llvm_loop_id(LLVMContextRef C, LLVMMetadataRef *hints, unsigned n) {
  LLVMMetadataRef self = LLVMTemporaryMDNode(C, NULL, 0);
  hints[0] = self;
  LLVMMetadataRef id = LLVMMDNodeInContext2(C, hints, n);
  LLVMMetadataReplaceAllUsesWith(self, id); /* a loop's ID names itself */
  return id;
}

#endif
