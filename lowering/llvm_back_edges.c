/* Loop back edges taken on true (lowering/llvm_back_edges.h).
 *
 * A loop's latch `br i1 %done, label %exit, label %header` (the equality exit test LLVM's
 * indvars writes) leaves NVPTX two branches an iteration, `@%p bra exit; bra.uni header`: its
 * block placement would fall through to the exit by reversing the branch, and NVPTX cannot
 * reverse a branch condition once selected. NVIDIA's own PTX ends each loop with one conditional
 * branch back (`@%p bra header`). Here such a branch asks the inverse question and swaps its
 * targets, which is the same branch whatever the layout; what the layout then gets is the
 * single back edge. A back edge is a branch to its own block, or to one placed before it where
 * the other target is placed after it (the blocks in source order, as lowering/ptx.c's unroll
 * hints take them; the exit of a one-block loop may be placed before it). */
#include "lowering/llvm_back_edges.h"

#include <stdbool.h>

static LLVMIntPredicate inverse(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntUGT: return LLVMIntULE;
  case LLVMIntULE: return LLVMIntUGT;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntSGE: return LLVMIntSLT;
  default: return LLVMIntSGE; /* LLVMIntSLT */
  }
}

/* Whether `target` is placed at or before `bb` in their function. */
static bool at_or_before(LLVMBasicBlockRef target, LLVMBasicBlockRef bb) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(LLVMGetBasicBlockParent(bb)); b; b = LLVMGetNextBasicBlock(b)) {
    if (b == target)
      return true;
    if (b == bb)
      return false;
  }
  return false;
}

static void turn(LLVMBuilderRef B, LLVMValueRef br) {
  LLVMValueRef cmp = LLVMGetCondition(br);
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(br), on_true = LLVMGetSuccessor(br, 0),
                    on_false = LLVMGetSuccessor(br, 1);
  if (!LLVMIsAICmpInst(cmp) || LLVMGetNextUse(LLVMGetFirstUse(cmp)) || on_true == bb)
    return;
  /* the placement scans last: only for branches that could turn */
  if (on_false != bb && !(at_or_before(on_false, bb) && !at_or_before(on_true, bb)))
    return;
  LLVMPositionBuilderBefore(B, cmp);
  LLVMValueRef inv = LLVMBuildICmp(B, inverse(LLVMGetICmpPredicate(cmp)), LLVMGetOperand(cmp, 0),
                                   LLVMGetOperand(cmp, 1), "");
  LLVMSetCondition(br, inv);
  LLVMInstructionEraseFromParent(cmp);
  LLVMSetSuccessor(br, 0, on_false);
  LLVMSetSuccessor(br, 1, on_true);
}

void hg_llvm_back_edges_on_true(LLVMModuleRef mod) {
  LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
      if (term && LLVMIsABranchInst(term) && LLVMIsConditional(term))
        turn(B, term);
    }
  LLVMDisposeBuilder(B);
}
