/* Constants: scalar and vector constants as IR constant values (one 64-bit word a lane:
 * integers zero-extended two's complement bits, floating point the IEEE bits of the lane
 * type, the null pointer 0), and global variable initializers as bytes with relocations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

uint64_t hg_f64_to_f16_bits(double d) {
  /* round to nearest even, IEEE binary16 */
  uint64_t b;
  memcpy(&b, &d, 8);
  uint64_t sign = (b >> 48) & 0x8000;
  int exp = (int)((b >> 52) & 0x7ff);
  uint64_t man = b & 0xfffffffffffffULL;
  if (exp == 0x7ff) return sign | 0x7c00 | (man ? 0x200 | (man >> 42) : 0);
  int e = exp - 1023 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) { /* subnormal half or zero */
    if (e < -10) return sign;
    man |= 1ULL << 52;
    int shift = 42 + 1 - e;
    uint64_t h = man >> shift, rem = man & ((1ULL << shift) - 1), halfway = 1ULL << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1))) h++;
    return sign | h;
  }
  uint64_t h = ((uint64_t)e << 10) | (man >> 42);
  uint64_t rem = man & ((1ULL << 42) - 1), halfway = 1ULL << 41;
  if (rem > halfway || (rem == halfway && (h & 1))) h++; /* may carry into the exponent: right */
  return sign | h;
}

/* The bits of a scalar constant (int, fp, null pointer), zero-extended to 64. */
static uint64_t scalar_bits(hg_xlate *x, LLVMValueRef c) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (LLVMIsUndef(c) || LLVMIsPoison(c) || LLVMIsNull(c)) return 0;
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    if (!LLVMIsAConstantInt(c)) hg_xlate_fail(x, "unsupported integer constant expression");
    unsigned w = LLVMGetIntTypeWidth(t);
    uint64_t v = LLVMConstIntGetZExtValue(c);
    return w >= 64 ? v : v & ((1ULL << w) - 1);
  }
  case LLVMHalfTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind: {
    if (!LLVMIsAConstantFP(c)) hg_xlate_fail(x, "unsupported floating-point constant expression");
    unsigned w = LLVMGetTypeKind(t) == LLVMHalfTypeKind ? 16 : LLVMGetTypeKind(t) == LLVMFloatTypeKind ? 32 : 64;
    /* a constant bitcast folds to the exact bits (NaN payloads included) */
    LLVMValueRef i = LLVMConstBitCast(c, LLVMIntTypeInContext(x->ctx, w));
    if (LLVMIsAConstantInt(i)) return LLVMConstIntGetZExtValue(i);
    LLVMBool loses;
    double d = LLVMConstRealGetDouble(c, &loses);
    if (w == 64) {
      uint64_t b;
      memcpy(&b, &d, 8);
      return b;
    }
    if (w == 32) {
      float f = (float)d;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
    }
    return hg_f64_to_f16_bits(d);
  }
  default: hg_xlate_fail(x, "unsupported constant");
  }
}

uint32_t hg_xlate_const(hg_xlate *x, LLVMValueRef c) {
  hg_ir_type t = hg_xlate_type(x, LLVMTypeOf(c));
  if (LLVMIsUndef(c) || LLVMIsPoison(c)) return hg_ir_add_undef(x->f, t);
  uint64_t lanes[16] = {0};
  if (t.lanes > 1) {
    if (!LLVMIsNull(c))
      for (unsigned i = 0; i < t.lanes; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(c, i);
        if (!e) hg_xlate_fail(x, "unsupported vector constant");
        lanes[i] = scalar_bits(x, e);
      }
  } else if (t.scalar == HG_IR_PTR) {
    if (!LLVMIsNull(c)) hg_xlate_fail(x, "unsupported pointer constant");
  } else {
    lanes[0] = scalar_bits(x, c);
  }
  return hg_ir_add_const(x->f, t, lanes);
}

/* Integer constants are made as LLVM constants (uniqued by LLVM), so the per-function value
 * cache gives each distinct constant one IR value. */
uint32_t hg_xlate_const_int(hg_xlate *x, hg_ir_type t, uint64_t v) {
  unsigned bits = t.scalar == HG_IR_BOOL ? 1 : hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8;
  LLVMTypeRef it = LLVMIntTypeInContext(x->ctx, bits);
  LLVMValueRef c = LLVMConstInt(it, v, 0);
  if (t.lanes > 1) {
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < t.lanes; i++) lanes[i] = c;
    c = LLVMConstVector(lanes, t.lanes);
  }
  return hg_xlate_operand(x, c);
}

/* A constant pointer expression: global + constant byte offset. */
static void resolve_pointer(hg_xlate *x, LLVMValueRef c, uint32_t *global, int64_t *addend) {
  if (LLVMIsAGlobalVariable(c)) {
    if (!hg_ptr_map_get(&x->globals, c, global)) hg_xlate_fail(x, "pointer to an unknown global");
    return;
  }
  if (LLVMIsAFunction(c)) hg_xlate_fail(x, "function pointers are not supported");
  if (!LLVMIsAConstantExpr(c)) hg_xlate_fail(x, "unsupported pointer initializer");
  switch (LLVMGetConstOpcode(c)) {
  case LLVMBitCast:
  case LLVMAddrSpaceCast: resolve_pointer(x, LLVMGetOperand(c, 0), global, addend); return;
  case LLVMGetElementPtr: {
    resolve_pointer(x, LLVMGetOperand(c, 0), global, addend);
    LLVMTypeRef t = LLVMGetGEPSourceElementType(c);
    unsigned n = (unsigned)LLVMGetNumOperands(c);
    for (unsigned i = 1; i < n; i++) {
      LLVMValueRef idx = LLVMGetOperand(c, i);
      if (!LLVMIsAConstantInt(idx)) hg_xlate_fail(x, "unsupported pointer initializer index");
      int64_t v = LLVMConstIntGetSExtValue(idx);
      if (i == 1) {
        *addend += v * (int64_t)hg_type_size(x, t);
      } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        *addend += (int64_t)LLVMOffsetOfElement(x->td, t, (unsigned)v);
        t = LLVMStructGetTypeAtIndex(t, (unsigned)v);
      } else {
        t = LLVMGetElementType(t);
        *addend += v * (int64_t)hg_type_size(x, t);
      }
    }
    return;
  }
  default: hg_xlate_fail(x, "unsupported constant expression in an initializer");
  }
}

static void write_bytes(hg_xlate *x, LLVMValueRef c, LLVMTypeRef t, hg_ir_global *g, uint64_t off) {
  if (LLVMIsNull(c) || LLVMIsUndef(c) || LLVMIsPoison(c)) return; /* zeros already */
  uint64_t size = hg_type_size(x, t);
  if (off + size > g->size) hg_xlate_fail(x, "initializer larger than its variable");
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
  case LLVMHalfTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind: {
    uint64_t b = scalar_bits(x, c);
    unsigned n = LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? (LLVMGetIntTypeWidth(t) + 7) / 8
                                                           : (unsigned)LLVMStoreSizeOfType(x->td, t);
    for (unsigned i = 0; i < n && i < 8; i++) g->init[off + i] = (uint8_t)(b >> (8 * i));
    return;
  }
  case LLVMPointerTypeKind: {
    uint32_t target;
    int64_t addend = 0;
    resolve_pointer(x, c, &target, &addend);
    g->relocs = realloc(g->relocs, (g->num_relocs + 1) * sizeof *g->relocs);
    if (!g->relocs) abort();
    g->relocs[g->num_relocs++] = (struct hg_ir_reloc){(uint32_t)off, target, addend};
    return;
  }
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: {
    LLVMTypeRef et = LLVMGetElementType(t);
    unsigned n = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetArrayLength(t) : LLVMGetVectorSize(t);
    uint64_t stride = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? hg_type_size(x, et) : LLVMStoreSizeOfType(x->td, et);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef e = LLVMGetAggregateElement(c, i);
      if (!e) hg_xlate_fail(x, "unsupported aggregate initializer");
      write_bytes(x, e, et, g, off + i * stride);
    }
    return;
  }
  case LLVMStructTypeKind: {
    unsigned n = LLVMCountStructElementTypes(t);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef e = LLVMGetAggregateElement(c, i);
      if (!e) hg_xlate_fail(x, "unsupported struct initializer");
      write_bytes(x, e, LLVMStructGetTypeAtIndex(t, i), g, off + LLVMOffsetOfElement(x->td, t, i));
    }
    return;
  }
  default: hg_xlate_fail(x, "unsupported initializer type");
  }
}

void hg_xlate_global_init(hg_xlate *x, LLVMValueRef init, hg_ir_global *g) {
  g->init = calloc(g->size ? g->size : 1, 1);
  if (!g->init) abort();
  write_bytes(x, init, LLVMTypeOf(init), g, 0);
  g->has_init = true;
}
