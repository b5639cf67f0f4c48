/* Exit tests on the next value of a shifting counter (lowering/llvm_latch_tests.h).
 *
 * `for (s = n / 2; s > 0; s >>= 1)`, the tree reduction of nearly every GPU kernel, leaves LLVM's
 * -O2 as a header phi p with s = p >> 1 and a latch test on p itself (`p u< 4`: instcombine folds
 * `(p >> 1 >> 1) != 0` that way). Both p and s then live through the body and the latch copies
 * one into the other; NVIDIA's assembler made the bench's reduce 0.8% slower than NVIDIA's own
 * build with it, and 2.6% faster than that build with the test asked of s (`s u< 2`, one counter:
 * docs/ptx-backend.md). For unsigned x and s = x >> k: x u< m * 2^k iff s u< m, and
 * x u> m * 2^k + 2^k - 1 iff s u> m. */
#include "lowering/llvm_latch_tests.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether a shift is `exact` (poison when it drops set bits: the loop's last step may be, unused
 * where the test asked the counter; LLVM 15's C API has no getter for the flag). */
static bool exact(LLVMValueRef shift) {
  char *text = LLVMPrintValueToString(shift);
  bool is = text && strstr(text, " exact ");
  LLVMDisposeMessage(text);
  return is;
}

/* The incoming value of `phi` that is phi >> k (k constant, in phi's block), or NULL; the block it
 * comes from in *latch. */
static LLVMValueRef shifted_step(LLVMValueRef phi, unsigned width, unsigned *k, LLVMBasicBlockRef *latch) {
  for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    if (!LLVMIsABinaryOperator(v) || LLVMGetInstructionOpcode(v) != LLVMLShr || LLVMGetOperand(v, 0) != phi ||
        LLVMGetInstructionParent(v) != LLVMGetInstructionParent(phi) || !LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
      continue;
    unsigned long long shift = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1));
    if (shift == 0 || shift >= width || exact(v))
      continue;
    *k = (unsigned)shift;
    *latch = LLVMGetIncomingBlock(phi, i);
    return v;
  }
  return NULL;
}

/* Whether `def` comes before `use` in their one block. */
static bool precedes(LLVMValueRef def, LLVMValueRef use) {
  for (LLVMValueRef i = LLVMGetNextInstruction(def); i; i = LLVMGetNextInstruction(i))
    if (i == use)
      return true;
  return false;
}

static void rewrite_test(LLVMValueRef cmp) {
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
  LLVMValueRef phi = LLVMGetOperand(cmp, 0), bound = LLVMGetOperand(cmp, 1);
  if ((pred != LLVMIntULT && pred != LLVMIntUGT) || !LLVMIsAPHINode(phi) || !LLVMIsAConstantInt(bound))
    return;
  LLVMTypeRef type = LLVMTypeOf(phi);
  unsigned width = LLVMGetIntTypeWidth(type), k;
  LLVMBasicBlockRef latch;
  if (width > 64)
    return;
  LLVMValueRef step = shifted_step(phi, width, &k, &latch);
  /* in the latch the step flows from, which the header (the step's block) dominates, and after
   * the step where the latch is the header itself */
  LLVMBasicBlockRef at = LLVMGetInstructionParent(cmp);
  if (!step || at != latch || (at == LLVMGetInstructionParent(step) && !precedes(step, cmp)))
    return;
  uint64_t c = LLVMConstIntGetZExtValue(bound), low = (UINT64_C(1) << k) - 1;
  if ((pred == LLVMIntULT && (c & low) != 0) || (pred == LLVMIntUGT && (c & low) != low))
    return;
  LLVMSetOperand(cmp, 0, step);
  LLVMSetOperand(cmp, 1, LLVMConstInt(type, c >> k, 0));
}

void hg_llvm_latch_tests_on_next(LLVMModuleRef mod) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAICmpInst(in) && LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) == LLVMIntegerTypeKind)
          rewrite_test(in);
}
