/* Instruction flags LLVM 15's C API cannot read: fast-math 'contract' (or 'fast') on fmul, fadd
 * and fsub, and 'nsw' / 'nuw' on add, sub, mul and shl (what OpenCL C leaves undefined: signed
 * overflow). They are read from printed text: every instruction that may carry one is cloned,
 * flags and all, into a function of a module of its own, its operands made undef, and that
 * function is printed once: one short line per clone, in order ("  %3 = add nsw i32 undef,
 * undef"). Printing the kernels themselves would cost their whole text (2.5 MB and 100 ms for
 * hashcat's -m 0), and printing anything of a module first walks all of it for its types (once
 * per function: 15 s for hashcat's integer kernels; 27 ms for -m 0 with the clones there).
 * A line that cannot be read gives no flags: they only allow. */
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

static bool reads_wrap(LLVMOpcode opc) { return opc == LLVMAdd || opc == LLVMSub || opc == LLVMMul || opc == LLVMShl; }
static bool reads_contract(LLVMOpcode opc) { return opc == LLVMFMul || opc == LLVMFAdd || opc == LLVMFSub; }

/* The flags among the words after the opcode on a printed line ("nsw nuw i32 ..."). */
static uint32_t line_flags(const char *p, bool fp) {
  static const char *const fmf[] = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"};
  uint32_t flags = 0;
  for (;;) {
    while (*p == ' ')
      p++;
    size_t n = strcspn(p, " ,\n");
    if (!fp && n == 3 && !strncmp(p, "nsw", 3))
      flags |= HG_XLATE_NSW;
    else if (!fp && n == 3 && !strncmp(p, "nuw", 3))
      flags |= HG_XLATE_NUW;
    else if (fp && ((n == 4 && !strncmp(p, "fast", 4)) || (n == 8 && !strncmp(p, "contract", 8))))
      flags |= HG_XLATE_CONTRACT;
    else {
      bool other_fmf = false;
      for (size_t i = 0; fp && i < sizeof fmf / sizeof *fmf; i++)
        other_fmf |= strlen(fmf[i]) == n && !strncmp(p, fmf[i], n);
      if (!other_fmf)
        return flags;
    }
    p += n;
  }
}

/* The flags on the printed line of instruction `in` (an opcode this file reads). */
static uint32_t flags_of_line(LLVMValueRef in, const char *line) {
  static const struct { LLVMOpcode opc; const char *word; } words[] = {
      {LLVMAdd, "add "}, {LLVMSub, "sub "}, {LLVMMul, "mul "}, {LLVMShl, "shl "},
      {LLVMFAdd, "fadd "}, {LLVMFSub, "fsub "}, {LLVMFMul, "fmul "}};
  const char *p = strstr(line, " = ");
  const char *eol = strchr(line, '\n');
  if (!p || (eol && p > eol))
    return 0;
  p += 3;
  LLVMOpcode opc = LLVMGetInstructionOpcode(in);
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (words[i].opc == opc && !strncmp(p, words[i].word, strlen(words[i].word)))
      return line_flags(p + strlen(words[i].word), reads_contract(opc));
  return 0;
}

void hg_xlate_read_inst_flags(hg_xlate *x) {
  hg_ptr_map_free(&x->inst_flags);
  LLVMTypeRef void_fn = LLVMFunctionType(LLVMVoidTypeInContext(x->ctx), NULL, 0, 0);
  LLVMModuleRef side = LLVMModuleCreateWithNameInContext("hg.read_flags", x->ctx);
  LLVMValueRef scratch = LLVMAddFunction(side, "hg.read_flags", void_fn);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(x->ctx, scratch, "");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(x->ctx);
  LLVMPositionBuilderAtEnd(b, entry);
  size_t n = 0, cap = 0;
  LLVMValueRef *read = NULL; /* read[k]: the instruction whose clone is the k-th line */
  for (LLVMValueRef fn = LLVMGetFirstFunction(x->mod); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        LLVMOpcode opc = LLVMGetInstructionOpcode(in);
        if (!reads_wrap(opc) && (x->contract_all || !reads_contract(opc)))
          continue;
        if (n == cap) {
          LLVMValueRef *grown = realloc(read, (cap = cap ? cap * 2 : 256) * sizeof *read);
          if (!grown)
            break;
          read = grown;
        }
        LLVMValueRef clone = LLVMInstructionClone(in);
        for (int i = 0; i < LLVMGetNumOperands(clone); i++)
          LLVMSetOperand(clone, (unsigned)i, LLVMGetUndef(LLVMTypeOf(LLVMGetOperand(clone, (unsigned)i))));
        LLVMInsertIntoBuilder(b, clone);
        read[n++] = in;
      }
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  char *text = n ? LLVMPrintValueToString(scratch) : NULL;
  const char *line = text ? strchr(text, '{') : NULL;
  for (size_t k = 0; line && k < n;) {
    line = strchr(line, '\n');
    if (line && !strncmp(++line, "  %", 3)) { /* a clone's line (the ret's has no result) */
      uint32_t flags = flags_of_line(read[k], line);
      if (flags)
        hg_ptr_map_put(&x->inst_flags, read[k], flags);
      k++;
    }
  }
  if (text)
    LLVMDisposeMessage(text);
  LLVMDisposeModule(side);
  free(read);
}
