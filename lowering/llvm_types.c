/* LLVM types -> IR types, sizes from the module's DataLayout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

static bool scalar_of(LLVMTypeRef t, hg_ir_type *out) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    switch (LLVMGetIntTypeWidth(t)) {
    case 1: *out = hg_ir_ty(HG_IR_BOOL, 1); return true;
    case 8: *out = hg_ir_ty(HG_IR_I8, 1); return true;
    case 16: *out = hg_ir_ty(HG_IR_I16, 1); return true;
    case 32: *out = hg_ir_ty(HG_IR_I32, 1); return true;
    case 64: *out = hg_ir_ty(HG_IR_I64, 1); return true;
    default: { /* odd widths (InstCombine narrows switch conditions to i3 and the like) live in
                * the next wider integer, zero-extended: see llvm_function.c */
      unsigned w = LLVMGetIntTypeWidth(t);
      if (w > 64) return false;
      *out = hg_ir_ty(w < 8 ? HG_IR_I8 : w < 16 ? HG_IR_I16 : w < 32 ? HG_IR_I32 : HG_IR_I64, 1);
      return true;
    }
    }
  case LLVMHalfTypeKind: *out = hg_ir_ty(HG_IR_F16, 1); return true;
  case LLVMFloatTypeKind: *out = hg_ir_ty(HG_IR_F32, 1); return true;
  case LLVMDoubleTypeKind: *out = hg_ir_ty(HG_IR_F64, 1); return true;
  case LLVMPointerTypeKind: {
    unsigned as = LLVMGetPointerAddressSpace(t);
    if (as > HG_AS_GENERIC) return false;
    *out = hg_ir_ptr_ty((hg_ir_addrspace)as);
    return true;
  }
  default: return false;
  }
}

unsigned hg_odd_int_width(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) return 0;
  unsigned w = LLVMGetIntTypeWidth(t);
  return (w == 1 || w == 8 || w == 16 || w == 32 || w >= 64) ? 0 : w;
}

bool hg_xlate_type_ok(LLVMTypeRef t, hg_ir_type *out) {
  if (LLVMGetTypeKind(t) == LLVMVoidTypeKind) {
    *out = hg_ir_ty(HG_IR_VOID, 1);
    return true;
  }
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    unsigned n = LLVMGetVectorSize(t);
    if (hg_odd_int_width(LLVMGetElementType(t))) return false;
    if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) return false;
    if (!scalar_of(LLVMGetElementType(t), out) || out->scalar == HG_IR_PTR) return false;
    out->lanes = (uint8_t)n;
    return true;
  }
  return scalar_of(t, out);
}

hg_ir_type hg_xlate_type(hg_xlate *x, LLVMTypeRef t) {
  hg_ir_type r;
  if (!hg_xlate_type_ok(t, &r)) {
    char *s = LLVMPrintTypeToString(t);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    LLVMDisposeMessage(s);
    hg_xlate_fail(x, "unsupported type '%s'", buf);
  }
  if (r.scalar == HG_IR_F64) x->m->uses_fp64 = true;
  if (r.scalar == HG_IR_F16) x->m->uses_fp16 = true;
  return r;
}

uint64_t hg_type_size(hg_xlate *x, LLVMTypeRef t) { return LLVMABISizeOfType(x->td, t); }
uint32_t hg_type_align(hg_xlate *x, LLVMTypeRef t) { return LLVMABIAlignmentOfType(x->td, t); }

char *hg_type_spelling(LLVMTypeRef t, bool is_unsigned) {
  unsigned lanes = 1;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    lanes = LLVMGetVectorSize(t);
    t = LLVMGetElementType(t);
  }
  const char *base = "?";
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    switch (LLVMGetIntTypeWidth(t)) {
    case 8: base = is_unsigned ? "uchar" : "char"; break;
    case 16: base = is_unsigned ? "ushort" : "short"; break;
    case 32: base = is_unsigned ? "uint" : "int"; break;
    case 64: base = is_unsigned ? "ulong" : "long"; break;
    }
    break;
  case LLVMHalfTypeKind: base = "half"; break;
  case LLVMFloatTypeKind: base = "float"; break;
  case LLVMDoubleTypeKind: base = "double"; break;
  default: break;
  }
  char buf[32];
  if (lanes > 1) snprintf(buf, sizeof buf, "%s%u", base, lanes);
  else snprintf(buf, sizeof buf, "%s", base);
  return strdup(buf);
}
