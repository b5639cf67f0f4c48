/* OpenCL C builtins as inline LLVM IR (lowering/llvm_builtins.h). Operand and result types are
 * those of the builtin's signature (hg_ir_builtin_check runs first); vectors are LLVM vectors
 * and the scalar forms of mixed calls are splatted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/builtins.h"
#include "lowering/llvm_builtins.h"

typedef hg_llvm_builtin_call bctx;

static LLVMValueRef ci32(hg_llvm_emit *e, uint64_t v) { return LLVMConstInt(e->i32, v, 0); }
static LLVMValueRef ci64(hg_llvm_emit *e, uint64_t v) { return LLVMConstInt(e->i64, v, 0); }
#define is_float hg_llvm_is_float
#define arg_unsigned hg_llvm_arg_unsigned

/* A scalar operand splatted to n lanes (OpenCL's mixed scalar/vector forms, e.g. min(v, s)). */
static LLVMValueRef splat(hg_llvm_emit *e, LLVMValueRef v, unsigned lanes) {
  if (lanes <= 1 || LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind)
    return v;
  LLVMValueRef u = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(v), lanes));
  u = LLVMBuildInsertElement(e->B, u, v, ci32(e, 0), "");
  LLVMValueRef zeros[16];
  for (unsigned i = 0; i < lanes; i++)
    zeros[i] = ci32(e, 0);
  return LLVMBuildShuffleVector(e->B, u, LLVMGetUndef(LLVMTypeOf(u)), LLVMConstVector(zeros, lanes), "");
}

LLVMValueRef hg_llvm_splat_const(LLVMValueRef c, unsigned lanes) {
  if (lanes <= 1)
    return c;
  LLVMValueRef l[16];
  for (unsigned i = 0; i < lanes; i++)
    l[i] = c;
  return LLVMConstVector(l, lanes);
}
#define splat_const hg_llvm_splat_const
#define lane hg_llvm_lane

LLVMValueRef hg_llvm_lane(hg_llvm_emit *e, LLVMValueRef v, unsigned l) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return v;
  return LLVMBuildExtractElement(e->B, v, ci32(e, l), "");
}

static LLVMValueRef constf(hg_llvm_emit *e, hg_ir_type t, double v) {
  return splat_const(LLVMConstReal(hg_llvm_scalar_type(e, (hg_ir_scalar)t.scalar, 0), v), t.lanes);
}

static LLVMValueRef consti(hg_llvm_emit *e, hg_ir_type t, uint64_t v) {
  return splat_const(LLVMConstInt(hg_llvm_scalar_type(e, (hg_ir_scalar)t.scalar, 0), v, 0), t.lanes);
}

/* ---- integer and common functions ---------------------------------------------------------------- */

static LLVMValueRef imin(hg_llvm_emit *e, LLVMValueRef a, LLVMValueRef b, bool u) {
  return LLVMBuildSelect(e->B, LLVMBuildICmp(e->B, u ? LLVMIntULT : LLVMIntSLT, a, b, ""), a, b, "");
}
static LLVMValueRef imax(hg_llvm_emit *e, LLVMValueRef a, LLVMValueRef b, bool u) {
  return LLVMBuildSelect(e->B, LLVMBuildICmp(e->B, u ? LLVMIntUGT : LLVMIntSGT, a, b, ""), a, b, "");
}

static LLVMValueRef intrin1(bctx *x, const char *name, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return hg_llvm_intrinsic(x->e, name, &t, 1, &v, 1);
}
static LLVMValueRef intrin2(bctx *x, const char *name, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef args[2] = {a, b};
  return hg_llvm_intrinsic(x->e, name, &t, 1, args, 2);
}
static LLVMValueRef intrin3(bctx *x, const char *name, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef args[3] = {a, b, c};
  return hg_llvm_intrinsic(x->e, name, &t, 1, args, 3);
}

/* mul_hi: the high half of the double-width product */
static LLVMValueRef mul_hi(bctx *x, LLVMValueRef a, LLVMValueRef b, bool u) {
  hg_llvm_emit *e = x->e;
  unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)x->rt.scalar) * 8;
  LLVMTypeRef wide = LLVMIntTypeInContext(e->C, 2 * w);
  if (x->rt.lanes > 1)
    wide = LLVMVectorType(wide, x->rt.lanes);
  LLVMValueRef A = u ? LLVMBuildZExt(e->B, a, wide, "") : LLVMBuildSExt(e->B, a, wide, "");
  LLVMValueRef Bv = u ? LLVMBuildZExt(e->B, b, wide, "") : LLVMBuildSExt(e->B, b, wide, "");
  hg_ir_type wt = x->rt;
  LLVMValueRef sh = LLVMConstInt(LLVMIntTypeInContext(e->C, 2 * w), w, 0);
  if (wt.lanes > 1) {
    LLVMValueRef l[16];
    for (unsigned i = 0; i < wt.lanes; i++)
      l[i] = sh;
    sh = LLVMConstVector(l, wt.lanes);
  }
  return LLVMBuildTrunc(e->B, LLVMBuildLShr(e->B, LLVMBuildMul(e->B, A, Bv, ""), sh, ""), x->T, "");
}

static LLVMValueRef integer_fn(bctx *x) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  const char *n = x->name;
  if (is_float(x->rt) || x->rt.scalar == HG_IR_PTR || x->rt.scalar == HG_IR_VOID || !x->n)
    return NULL;
  for (unsigned i = 0; i < x->n; i++)
    if (is_float(x->at[i]) || x->at[i].scalar == HG_IR_PTR)
      return NULL;
  bool u = arg_unsigned(x, 0);
  unsigned L = x->rt.lanes;
  LLVMValueRef a = splat(e, x->a[0], L), b = x->n > 1 ? splat(e, x->a[1], L) : NULL,
               c = x->n > 2 ? splat(e, x->a[2], L) : NULL;
  if (!strcmp(n, "min")) return imin(e, a, b, u);
  if (!strcmp(n, "max")) return imax(e, a, b, u);
  if (!strcmp(n, "clamp")) return imin(e, imax(e, a, b, u), c, u);
  if (!strcmp(n, "abs")) {
    if (u) return a;
    LLVMValueRef neg = LLVMBuildNeg(B, a, "");
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, consti(e, x->rt, 0), ""), neg, a, "");
  }
  if (!strcmp(n, "abs_diff"))
    return LLVMBuildSub(B, imax(e, a, b, u), imin(e, a, b, u), "");
  if (!strcmp(n, "clz")) return intrin2(x, "llvm.ctlz", a, LLVMConstInt(e->i1, 0, 0));
  if (!strcmp(n, "ctz")) return intrin2(x, "llvm.cttz", a, LLVMConstInt(e->i1, 0, 0));
  if (!strcmp(n, "popcount")) return intrin1(x, "llvm.ctpop", a);
  if (!strcmp(n, "add_sat")) return intrin2(x, u ? "llvm.uadd.sat" : "llvm.sadd.sat", a, b);
  if (!strcmp(n, "sub_sat")) return intrin2(x, u ? "llvm.usub.sat" : "llvm.ssub.sat", a, b);
  if (!strcmp(n, "rotate")) {
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[3] = {a, a, b};
    return hg_llvm_intrinsic(e, "llvm.fshl", &t, 1, args, 3);
  }
  if (!strcmp(n, "mul_hi")) return mul_hi(x, a, b, u);
  if (!strcmp(n, "mad_hi")) return LLVMBuildAdd(B, mul_hi(x, a, b, u), c, "");
  if (!strcmp(n, "mul24")) return LLVMBuildMul(B, a, b, "");
  if (!strcmp(n, "mad24")) return LLVMBuildAdd(B, LLVMBuildMul(B, a, b, ""), c, "");
  if (!strcmp(n, "hadd") || !strcmp(n, "rhadd")) {
    /* (a >> 1) + (b >> 1) + ((a & b) & 1) or ((a | b) & 1) for rhadd: no overflow */
    LLVMValueRef one = consti(e, x->rt, 1);
    LLVMValueRef ha = u ? LLVMBuildLShr(B, a, one, "") : LLVMBuildAShr(B, a, one, "");
    LLVMValueRef hb = u ? LLVMBuildLShr(B, b, one, "") : LLVMBuildAShr(B, b, one, "");
    LLVMValueRef lo = n[0] == 'r' ? LLVMBuildOr(B, a, b, "") : LLVMBuildAnd(B, a, b, "");
    return LLVMBuildAdd(B, LLVMBuildAdd(B, ha, hb, ""), LLVMBuildAnd(B, lo, one, ""), "");
  }
  if (!strcmp(n, "mad_sat")) {
    /* exact in the double width (a*b + c fits there), then clamped */
    unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)x->rt.scalar) * 8;
    LLVMTypeRef ws = LLVMIntTypeInContext(e->C, 2 * w), wide = L > 1 ? LLVMVectorType(ws, L) : ws;
    LLVMValueRef A = u ? LLVMBuildZExt(B, a, wide, "") : LLVMBuildSExt(B, a, wide, "");
    LLVMValueRef Bv = u ? LLVMBuildZExt(B, b, wide, "") : LLVMBuildSExt(B, b, wide, "");
    LLVMValueRef Cv = u ? LLVMBuildZExt(B, c, wide, "") : LLVMBuildSExt(B, c, wide, "");
    LLVMValueRef s = LLVMBuildAdd(B, LLVMBuildMul(B, A, Bv, ""), Cv, "");
    LLVMValueRef one = LLVMConstInt(ws, 1, 0);
    LLVMValueRef maxv = u ? LLVMConstSub(LLVMConstShl(one, LLVMConstInt(ws, w, 0)), one)
                          : LLVMConstSub(LLVMConstShl(one, LLVMConstInt(ws, w - 1, 0)), one);
    LLVMValueRef minv = u ? LLVMConstInt(ws, 0, 0) : LLVMConstNeg(LLVMConstShl(one, LLVMConstInt(ws, w - 1, 0)));
    s = imin(e, s, splat_const(maxv, L), u);
    if (!u)
      s = imax(e, s, splat_const(minv, L), false);
    return LLVMBuildTrunc(B, s, x->T, "");
  }
  if (!strcmp(n, "upsample")) {
    unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)x->at[0].scalar) * 8;
    LLVMValueRef hi = LLVMBuildZExt(B, a, x->T, ""), lo = LLVMBuildZExt(B, b, x->T, "");
    return LLVMBuildOr(B, LLVMBuildShl(B, hi, consti(e, x->rt, w), ""), lo, "");
  }
  return NULL;
}

/* dot(u, v) of L lanes, summed in lane order, each product and sum fused where the target fuses
 * them faster (llvm.fmuladd, as mad: the error bounds of both allow either; a product and a
 * separate sum cost NVIDIA two instructions where its own build has one FMA: the bench's nbody) */
static LLVMValueRef dot_lanes(bctx *x, LLVMValueRef u, LLVMValueRef v, unsigned L) {
  LLVMValueRef s = NULL;
  for (unsigned l = 0; l < (L ? L : 1); l++) {
    LLVMValueRef ul = lane(x->e, u, l), vl = lane(x->e, v, l);
    s = s ? intrin3(x, "llvm.fmuladd", ul, vl, s) : LLVMBuildFMul(x->e->B, ul, vl, "");
  }
  return s;
}

/* p (up to 4 lanes) scaled by a power of two, exactly, so that dot(p, p) neither overflows nor
 * loses precision to underflow; *undo is the inverse factor (for length). Float: dot >= inf ->
 * 2^-66 (4 * (FLT_MAX 2^-66)^2 < FLT_MAX), dot < FLT_MIN -> 2^86 (the smallest subnormal's
 * square becomes normal); double: 2^-514 and 2^563 by the same reasoning. An infinite lane
 * keeps dot infinite after scaling: the caller decides what that means. */
static LLVMValueRef overflow_safe(bctx *x, LLVMValueRef p, unsigned L, LLVMValueRef *undo) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  bool dbl = x->at[0].scalar == HG_IR_F64;
  LLVMTypeRef st = dbl ? e->f64 : e->f32;
  LLVMValueRef s = dot_lanes(x, p, p, L);
  LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOEQ, s, LLVMConstReal(st, __builtin_inf()), "");
  LLVMValueRef tiny = LLVMBuildFCmp(B, LLVMRealOLT, s, LLVMConstReal(st, dbl ? 0x1p-1022 : 0x1p-126), "");
  int down = dbl ? -514 : -66, up = dbl ? 563 : 86;
  LLVMValueRef one = LLVMConstReal(st, 1.0);
  LLVMValueRef f = LLVMBuildSelect(B, big, LLVMConstReal(st, __builtin_ldexp(1.0, down)),
                                   LLVMBuildSelect(B, tiny, LLVMConstReal(st, __builtin_ldexp(1.0, up)), one, ""), "");
  *undo = LLVMBuildSelect(B, big, LLVMConstReal(st, __builtin_ldexp(1.0, -down)),
                          LLVMBuildSelect(B, tiny, LLVMConstReal(st, __builtin_ldexp(1.0, -up)), one, ""), "");
  return LLVMBuildFMul(B, p, splat(e, f, L), "");
}

/* normalize as the specification describes it: p / |p| with |p| from an overflow-safe dot (a
 * division, so a one-lane vector gives exactly +-1: sqrt(x * x) = |x|); infinite lanes become
 * +-1 and the others +-0 first; an all-zero p is returned as it is; a NaN lane gives NaNs. */
static LLVMValueRef normalize(bctx *x, LLVMValueRef a, unsigned L) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  hg_ir_type t = x->at[0];
  LLVMValueRef undo;
  LLVMValueRef p = overflow_safe(x, a, L, &undo);
  LLVMValueRef inf = constf(e, (hg_ir_type){t.scalar, 1, 0, 0}, __builtin_inf());
  LLVMValueRef has_inf = LLVMBuildFCmp(B, LLVMRealOEQ, dot_lanes(x, p, p, L), inf, "");
  LLVMValueRef is_inf = LLVMBuildFCmp(B, LLVMRealOEQ, intrin1(x, "llvm.fabs", a), splat(e, inf, L), "");
  LLVMValueRef unit = intrin2(x, "llvm.copysign", LLVMBuildSelect(B, is_inf, constf(e, t, 1), constf(e, t, 0), ""), a);
  p = LLVMBuildSelect(B, has_inf, unit, p, "");
  LLVMValueRef s = dot_lanes(x, p, p, L);
  LLVMValueRef r = LLVMBuildFDiv(B, p, splat(e, intrin1(x, "llvm.sqrt", s), L), "");
  return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, s, LLVMConstNull(LLVMTypeOf(s)), ""), a, r, "");
}

/* float common, geometric and the math functions simple enough to be inline */
/* ldexp(a, n) with one rounding, as the OpenCL C back end's helper computes it
 * (lowering/opencl_c_fix.c, k_ldexp_float, which says why): n clamped to where every result is
 * infinite or zero already, a scaled by 2^emax or 2^-emin (exact) while n is past one power of
 * two, at most twice, then one product with 2^n built from its bits. */
static LLVMValueRef ldexp_exact(bctx *x, LLVMValueRef a, LLVMValueRef n) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  hg_ir_type t = x->at[0];
  bool dbl = t.scalar == HG_IR_F64;
  hg_ir_type it = hg_ir_ty(dbl ? HG_IR_I64 : HG_IR_I32, t.lanes);
  int emax = dbl ? 1023 : 127, emin = dbl ? 1022 : 126, sub = dbl ? 1074 : 149, lim = dbl ? 2100 : 300;
  if (dbl)
    n = LLVMBuildSExt(B, n, hg_llvm_type(e, it), "");
  LLVMValueRef lo = consti(e, it, (uint64_t)-lim), hi = consti(e, it, (uint64_t)lim);
  n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, n, lo, ""), lo, n, "");
  n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, n, hi, ""), hi, n, "");
  for (int step = 0; step < 2; step++) {
    LLVMValueRef up = LLVMBuildICmp(B, LLVMIntSGT, n, consti(e, it, (uint64_t)emax), "");
    a = LLVMBuildSelect(B, up, LLVMBuildFMul(B, a, constf(e, t, dbl ? 0x1p1023 : 0x1p127), ""), a, "");
    n = LLVMBuildSelect(B, up, LLVMBuildSub(B, n, consti(e, it, (uint64_t)emax), ""), n, "");
    LLVMValueRef down = LLVMBuildICmp(B, LLVMIntSLT, n, consti(e, it, (uint64_t)-sub), "");
    a = LLVMBuildSelect(B, down, LLVMBuildFMul(B, a, constf(e, t, dbl ? 0x1p-1022 : 0x1p-126), ""), a, "");
    n = LLVMBuildSelect(B, down, LLVMBuildAdd(B, n, consti(e, it, (uint64_t)emin), ""), n, "");
  }
  LLVMValueRef normal = LLVMBuildICmp(B, LLVMIntSGE, n, consti(e, it, (uint64_t)-emin), "");
  LLVMValueRef bits_normal = LLVMBuildShl(B, LLVMBuildAdd(B, n, consti(e, it, (uint64_t)emax), ""),
                                          consti(e, it, dbl ? 52 : 23), "");
  /* a shift past the width is poison: the lanes that do not use it shift by 0 */
  LLVMValueRef amount = LLVMBuildAdd(B, n, consti(e, it, (uint64_t)sub), "");
  amount = LLVMBuildSelect(B, normal, consti(e, it, 0), amount, "");
  LLVMValueRef bits = LLVMBuildSelect(B, normal, bits_normal, LLVMBuildShl(B, consti(e, it, 1), amount, ""), "");
  return LLVMBuildFMul(B, a, LLVMBuildBitCast(B, bits, hg_llvm_type(e, t), ""), "");
}

static LLVMValueRef float_fn(bctx *x) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  const char *n = x->name;
  if (!x->n || !is_float(x->at[0]))
    return NULL;
  hg_ir_type t = x->at[0];
  unsigned L = t.lanes;
  LLVMValueRef a = x->a[0], b = x->n > 1 ? splat(e, x->a[1], L) : NULL, c = x->n > 2 ? splat(e, x->a[2], L) : NULL;
  if (!strcmp(n, "fabs")) return intrin1(x, "llvm.fabs", a);
  if (!strcmp(n, "ldexp") && t.scalar != HG_IR_F16) return ldexp_exact(x, a, b);
  if (!strcmp(n, "sqrt") || !strcmp(n, "native_sqrt") || !strcmp(n, "half_sqrt")) return intrin1(x, "llvm.sqrt", a);
  if (!strcmp(n, "fmin") || (!strcmp(n, "min") && is_float(x->rt))) return intrin2(x, "llvm.minnum", a, b);
  if (!strcmp(n, "fmax") || (!strcmp(n, "max") && is_float(x->rt))) return intrin2(x, "llvm.maxnum", a, b);
  if (!strcmp(n, "copysign")) return intrin2(x, "llvm.copysign", a, b);
  if (!strcmp(n, "fma")) return intrin3(x, "llvm.fma", a, b, c);
  if (!strcmp(n, "mad")) return intrin3(x, "llvm.fmuladd", a, b, c);
  if (!strcmp(n, "clamp")) return intrin2(x, "llvm.minnum", intrin2(x, "llvm.maxnum", a, b), c);
  if (!strcmp(n, "mix")) return LLVMBuildFAdd(B, a, LLVMBuildFMul(B, LLVMBuildFSub(B, b, a, ""), c, ""), "");
  if (!strcmp(n, "step")) {
    /* step(edge, x): x < edge ? 0 : 1 ; edge may be scalar */
    LLVMValueRef edge = splat(e, x->a[0], x->rt.lanes), v = x->a[1];
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, v, edge, ""), constf(e, x->rt, 0), constf(e, x->rt, 1), "");
  }
  if (!strcmp(n, "smoothstep")) {
    LLVMValueRef e0 = splat(e, x->a[0], x->rt.lanes), e1 = splat(e, x->a[1], x->rt.lanes), v = x->a[2];
    LLVMValueRef tt = LLVMBuildFDiv(B, LLVMBuildFSub(B, v, e0, ""), LLVMBuildFSub(B, e1, e0, ""), "");
    tt = intrin2(x, "llvm.minnum", intrin2(x, "llvm.maxnum", tt, constf(e, x->rt, 0)), constf(e, x->rt, 1));
    LLVMValueRef p = LLVMBuildFSub(B, constf(e, x->rt, 3), LLVMBuildFMul(B, constf(e, x->rt, 2), tt, ""), "");
    return LLVMBuildFMul(B, LLVMBuildFMul(B, tt, tt, ""), p, "");
  }
  if (!strcmp(n, "degrees")) return LLVMBuildFMul(B, a, constf(e, t, 57.295779513082320876798154814105), "");
  if (!strcmp(n, "radians")) return LLVMBuildFMul(B, a, constf(e, t, 0.017453292519943295769236907684886), "");
  if (!strcmp(n, "sign")) {
    LLVMValueRef one = intrin2(x, "llvm.copysign", constf(e, t, 1), a);
    LLVMValueRef r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, a, constf(e, t, 0), ""), a, one, "");
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, a, a, ""), constf(e, t, 0), r, "");
  }
  if (!strcmp(n, "maxmag") || !strcmp(n, "minmag")) {
    LLVMValueRef fa = intrin1(x, "llvm.fabs", a), fb = intrin1(x, "llvm.fabs", b);
    bool mx = n[1] == 'a';
    LLVMValueRef pick = LLVMBuildFCmp(B, mx ? LLVMRealOGT : LLVMRealOLT, fa, fb, "");
    LLVMValueRef other = LLVMBuildFCmp(B, mx ? LLVMRealOLT : LLVMRealOGT, fa, fb, "");
    LLVMValueRef dflt = intrin2(x, mx ? "llvm.maxnum" : "llvm.minnum", a, b);
    return LLVMBuildSelect(B, pick, a, LLVMBuildSelect(B, other, b, dflt, ""), "");
  }
  /* geometric (half ones would need cl_khr_fp16, which the device does not have) */
  bool geometric = !strcmp(n, "dot") || strstr(n, "length") || strstr(n, "distance") || strstr(n, "normalize") ||
                   !strcmp(n, "cross");
  if (geometric && t.scalar == HG_IR_F16)
    return hg_llvm_fail(e, "half %s is not supported on riscv", n);
  if (!strcmp(n, "dot")) return dot_lanes(x, a, b, L);
  bool len = !strcmp(n, "length") || !strcmp(n, "fast_length");
  bool dist = !strcmp(n, "distance") || !strcmp(n, "fast_distance");
  if (len || dist) {
    LLVMValueRef p = dist ? LLVMBuildFSub(B, a, b, "") : a;
    if (L <= 1)
      return intrin1(x, "llvm.fabs", p); /* sqrt(p * p) without its overflow */
    LLVMValueRef undo;
    p = overflow_safe(x, p, L, &undo);
    return LLVMBuildFMul(B, intrin1(x, "llvm.sqrt", dot_lanes(x, p, p, L)), undo, "");
  }
  if (!strcmp(n, "normalize") || !strcmp(n, "fast_normalize")) return normalize(x, a, L);
  if (!strcmp(n, "cross")) {
    static const unsigned i1[3] = {1, 2, 0}, i2[3] = {2, 0, 1};
    LLVMValueRef r = LLVMGetUndef(x->T);
    for (unsigned l = 0; l < 3; l++) {
      LLVMValueRef p = LLVMBuildFMul(B, lane(e, a, i1[l]), lane(e, b, i2[l]), "");
      LLVMValueRef q = LLVMBuildFMul(B, lane(e, a, i2[l]), lane(e, b, i1[l]), "");
      r = LLVMBuildInsertElement(B, r, LLVMBuildFSub(B, p, q, ""), ci32(e, l), "");
    }
    if (L == 4)
      r = LLVMBuildInsertElement(B, r, LLVMConstReal(hg_llvm_scalar_type(e, (hg_ir_scalar)t.scalar, 0), 0), ci32(e, 3), "");
    return r;
  }
  return NULL;
}

/* ---- relational ----------------------------------------------------------------------------------- */

/* A bool (vector) as OpenCL wants it: scalars 1/0 (int), vectors -1/0 of the result type. */
static LLVMValueRef rel_result(bctx *x, LLVMValueRef cond) {
  if (x->rt.lanes > 1)
    return LLVMBuildSExt(x->e->B, cond, x->T, "");
  return LLVMBuildZExt(x->e->B, cond, x->T, "");
}

static LLVMValueRef relational(bctx *x) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  const char *n = x->name;
  static const struct {
    const char *name;
    LLVMRealPredicate p;
  } cmp[] = {{"isequal", LLVMRealOEQ},   {"isnotequal", LLVMRealUNE}, {"isgreater", LLVMRealOGT},
             {"isgreaterequal", LLVMRealOGE}, {"isless", LLVMRealOLT}, {"islessequal", LLVMRealOLE},
             {"islessgreater", LLVMRealONE},  {"isordered", LLVMRealORD}, {"isunordered", LLVMRealUNO}};
  for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++)
    if (!strcmp(n, cmp[i].name) && x->n == 2)
      return rel_result(x, LLVMBuildFCmp(B, cmp[i].p, x->a[0], x->a[1], ""));
  if (x->n == 1 && is_float(x->at[0])) {
    LLVMValueRef a = x->a[0];
    hg_ir_type t = x->at[0];
    LLVMValueRef fa = intrin1(x, "llvm.fabs", a);
    double inf = __builtin_inf();
    double minn = t.scalar == HG_IR_F64 ? 2.2250738585072014e-308 : t.scalar == HG_IR_F32 ? 1.17549435e-38 : 6.103515625e-05;
    if (!strcmp(n, "isnan")) return rel_result(x, LLVMBuildFCmp(B, LLVMRealUNO, a, a, ""));
    if (!strcmp(n, "isinf")) return rel_result(x, LLVMBuildFCmp(B, LLVMRealOEQ, fa, constf(e, t, inf), ""));
    if (!strcmp(n, "isfinite")) return rel_result(x, LLVMBuildFCmp(B, LLVMRealOLT, fa, constf(e, t, inf), ""));
    if (!strcmp(n, "isnormal"))
      return rel_result(x, LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOLT, fa, constf(e, t, inf), ""),
                                        LLVMBuildFCmp(B, LLVMRealOGE, fa, constf(e, t, minn), ""), ""));
    if (!strcmp(n, "signbit")) {
      unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8;
      LLVMTypeRef it = LLVMIntTypeInContext(e->C, w);
      if (t.lanes > 1) it = LLVMVectorType(it, t.lanes);
      LLVMValueRef bits = LLVMBuildBitCast(B, a, it, "");
      return rel_result(x, LLVMBuildICmp(B, LLVMIntSLT, bits, LLVMConstNull(it), ""));
    }
  }
  if ((!strcmp(n, "any") || !strcmp(n, "all")) && x->n == 1) {
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, x->a[0], LLVMConstNull(LLVMTypeOf(x->a[0])), "");
    LLVMValueRef r = lane(e, neg, 0);
    for (unsigned l = 1; l < x->at[0].lanes; l++)
      r = n[1] == 'n' ? LLVMBuildOr(B, r, lane(e, neg, l), "") : LLVMBuildAnd(B, r, lane(e, neg, l), "");
    return LLVMBuildZExt(B, r, x->T, "");
  }
  if (!strcmp(n, "bitselect") && x->n == 3) {
    /* (a & ~c) | (b & c), on the bits */
    hg_ir_type t = x->rt;
    LLVMTypeRef it = x->T;
    if (is_float(t)) {
      it = LLVMIntTypeInContext(e->C, hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8);
      if (t.lanes > 1) it = LLVMVectorType(it, t.lanes);
    }
    LLVMValueRef a = LLVMBuildBitCast(B, x->a[0], it, ""), b = LLVMBuildBitCast(B, x->a[1], it, ""),
                 c = LLVMBuildBitCast(B, x->a[2], it, "");
    LLVMValueRef r = LLVMBuildOr(B, LLVMBuildAnd(B, a, LLVMBuildNot(B, c, ""), ""), LLVMBuildAnd(B, b, c, ""), "");
    return LLVMBuildBitCast(B, r, x->T, "");
  }
  if (!strcmp(n, "select") && x->n == 3) {
    /* scalars: c != 0; vectors: the most significant bit of each lane of c */
    LLVMValueRef c = x->a[2];
    LLVMValueRef cond = x->at[2].lanes > 1 ? LLVMBuildICmp(B, LLVMIntSLT, c, LLVMConstNull(LLVMTypeOf(c)), "")
                                           : LLVMBuildICmp(B, LLVMIntNE, c, LLVMConstNull(LLVMTypeOf(c)), "");
    return LLVMBuildSelect(B, cond, x->a[1], x->a[0], "");
  }
  return NULL;
}

static bool isdigit_str(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return false;
  return true;
}

/* ---- vector data ------------------------------------------------------------------------------------- */

static LLVMValueRef vector_data(bctx *x) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  const char *n = x->name;
  if (!strncmp(n, "vload", 5) && isdigit_str(n + 5)) {
    /* vloadN(offset, p): N elements at p + offset * N */
    unsigned N = x->rt.lanes;
    hg_ir_type et = {x->rt.scalar, 1, 0, 0};
    unsigned es = hg_ir_scalar_bytes((hg_ir_scalar)et.scalar);
    LLVMValueRef off = LLVMBuildMul(B, LLVMBuildZExt(B, x->a[0], e->i64, ""), ci64(e, (uint64_t)N * es), "");
    LLVMValueRef p = LLVMBuildGEP2(B, e->i8, x->a[1], &off, 1, "");
    LLVMValueRef l = LLVMBuildLoad2(B, x->T, p, "");
    LLVMSetAlignment(l, es);
    return l;
  }
  if (!strncmp(n, "vstore", 6) && isdigit_str(n + 6)) {
    /* vstoreN(data, offset, p) */
    hg_ir_type dt = x->at[0];
    unsigned es = hg_ir_scalar_bytes((hg_ir_scalar)dt.scalar);
    LLVMValueRef off = LLVMBuildMul(B, LLVMBuildZExt(B, x->a[1], e->i64, ""), ci64(e, (uint64_t)dt.lanes * es), "");
    LLVMValueRef p = LLVMBuildGEP2(B, e->i8, x->a[2], &off, 1, "");
    LLVMValueRef s = LLVMBuildStore(B, x->a[0], p);
    LLVMSetAlignment(s, es);
    return s;
  }
  if ((!strcmp(n, "shuffle") && x->n == 2) || (!strcmp(n, "shuffle2") && x->n == 3)) {
    /* result lane i = (x ++ y)[mask[i] % (N or 2N)]: only the low bits of each mask element
     * count, N a power of two, so a lane index is always in range */
    bool two = x->n == 3;
    unsigned N = x->at[0].lanes, M = x->rt.lanes;
    LLVMValueRef mask = x->a[two ? 2 : 1], r = LLVMGetUndef(x->T);
    for (unsigned i = 0; i < M; i++) {
      LLVMValueRef idx = LLVMBuildZExtOrBitCast(B, lane(e, mask, i), e->i64, "");
      idx = LLVMBuildAnd(B, idx, ci64(e, (two ? 2 * N : N) - 1), "");
      LLVMValueRef v = LLVMBuildExtractElement(B, x->a[0], LLVMBuildAnd(B, idx, ci64(e, N - 1), ""), "");
      if (two) {
        LLVMValueRef w = LLVMBuildExtractElement(B, x->a[1], LLVMBuildAnd(B, idx, ci64(e, N - 1), ""), "");
        v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGE, idx, ci64(e, N), ""), w, v, "");
      }
      r = LLVMBuildInsertElement(B, r, v, ci32(e, i), "");
    }
    return r;
  }
  return NULL;
}

/* ---- rounding to integral values, inline (no Zfa on the cores, no libm) ------------------------ */

typedef enum { RND_TRUNC, RND_FLOOR, RND_CEIL, RND_RINT, RND_ROUND } rnd_mode;

static LLVMTypeRef int_like(hg_llvm_emit *e, LLVMTypeRef ft) {
  bool vec = LLVMGetTypeKind(ft) == LLVMVectorTypeKind;
  LLVMTypeRef st = vec ? LLVMGetElementType(ft) : ft;
  LLVMTypeRef it = LLVMIntTypeInContext(e->C, LLVMGetTypeKind(st) == LLVMDoubleTypeKind ? 64 : LLVMGetTypeKind(st) == LLVMHalfTypeKind ? 16 : 32);
  return vec ? LLVMVectorType(it, LLVMGetVectorSize(ft)) : it;
}

static LLVMValueRef fconst_like(hg_llvm_emit *e, LLVMTypeRef ft, double v) {
  bool vec = LLVMGetTypeKind(ft) == LLVMVectorTypeKind;
  LLVMValueRef c = LLVMConstReal(vec ? LLVMGetElementType(ft) : ft, v);
  return vec ? splat_const(c, LLVMGetVectorSize(ft)) : c;
}

/* f32/f64 (scalar or vector): values of magnitude >= 2^23 / 2^52, infinities and NaNs are
 * already integral and pass through; the others go through an integer of the same width. */
static LLVMValueRef round_integral(bctx *x, LLVMValueRef v, rnd_mode mode) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  LLVMTypeRef ft = LLVMTypeOf(v), it = int_like(e, ft);
  bool dbl = LLVMGetIntTypeWidth(LLVMGetTypeKind(it) == LLVMVectorTypeKind ? LLVMGetElementType(it) : it) == 64;
  LLVMValueRef big = fconst_like(e, ft, dbl ? 4503599627370496.0 : 8388608.0);
  LLVMValueRef av = intrin1(x, "llvm.fabs", v);
  LLVMValueRef small = LLVMBuildFCmp(B, LLVMRealOLT, av, big, "");
  LLVMValueRef t;
  if (mode == RND_RINT) {
    t = LLVMBuildFSub(B, LLVMBuildFAdd(B, av, big, ""), big, ""); /* rounds to nearest even */
  } else {
    t = LLVMBuildSIToFP(B, LLVMBuildFPToSI(B, v, it, ""), ft, ""); /* truncated */
    LLVMValueRef one = fconst_like(e, ft, 1.0);
    if (mode == RND_FLOOR)
      t = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGT, t, v, ""), LLVMBuildFSub(B, t, one, ""), t, "");
    else if (mode == RND_CEIL)
      t = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, t, v, ""), LLVMBuildFAdd(B, t, one, ""), t, "");
    else if (mode == RND_ROUND) {
      LLVMValueRef frac = intrin1(x, "llvm.fabs", LLVMBuildFSub(B, v, t, ""));
      LLVMValueRef away = LLVMBuildFAdd(B, t, intrin2(x, "llvm.copysign", one, v), "");
      t = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGE, frac, fconst_like(e, ft, 0.5), ""), away, t, "");
    }
  }
  t = intrin2(x, "llvm.copysign", t, v); /* keeps -0 and the sign of results that round to 0 */
  return LLVMBuildSelect(B, small, t, v, "");
}

static LLVMValueRef rounding_fn(bctx *x) {
  static const struct {
    const char *name;
    rnd_mode mode;
  } t[] = {{"trunc", RND_TRUNC}, {"floor", RND_FLOOR}, {"ceil", RND_CEIL}, {"rint", RND_RINT}, {"round", RND_ROUND}};
  if (x->n != 1 || !is_float(x->at[0]) || x->at[0].scalar == HG_IR_F16)
    return NULL;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcmp(x->name, t[i].name))
      return round_integral(x, x->a[0], t[i].mode);
  return NULL;
}

/* Bits of r minus or plus one, as a float: the neighbour of smaller or larger magnitude. */
static LLVMValueRef step_bits(hg_llvm_emit *e, LLVMValueRef r, bool grow) {
  LLVMTypeRef ft = LLVMTypeOf(r), it = int_like(e, ft);
  bool vec = LLVMGetTypeKind(it) == LLVMVectorTypeKind;
  LLVMValueRef one = splat_const(LLVMConstInt(vec ? LLVMGetElementType(it) : it, 1, 0), vec ? LLVMGetVectorSize(it) : 1);
  LLVMValueRef bits = LLVMBuildBitCast(e->B, r, it, "");
  bits = grow ? LLVMBuildAdd(e->B, bits, one, "") : LLVMBuildSub(e->B, bits, one, "");
  return LLVMBuildBitCast(e->B, bits, ft, "");
}

/* The next float above (up) or below r, lane-wise; zero steps to the smallest subnormal. */
static LLVMValueRef nudge(hg_llvm_emit *e, LLVMValueRef r, bool up) {
  LLVMBuilderRef B = e->B;
  LLVMTypeRef ft = LLVMTypeOf(r);
  LLVMValueRef zero = fconst_like(e, ft, 0.0);
  LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOGT, r, zero, "");
  LLVMValueRef neg = LLVMBuildFCmp(B, LLVMRealOLT, r, zero, "");
  LLVMValueRef grow = up ? pos : neg;
  LLVMValueRef n = LLVMBuildSelect(B, grow, step_bits(e, r, true), step_bits(e, r, false), "");
  bool dbl = LLVMGetTypeKind(LLVMGetTypeKind(ft) == LLVMVectorTypeKind ? LLVMGetElementType(ft) : ft) == LLVMDoubleTypeKind;
  double tiny = dbl ? 4.9406564584124654e-324 : 1.4012984643248171e-45;
  LLVMValueRef t = fconst_like(e, ft, up ? tiny : -tiny);
  return LLVMBuildSelect(B, LLVMBuildOr(B, pos, neg, ""), n, t, "");
}

/* r (rounded to nearest) corrected to rounding mode m ('z', 'p', 'n') given whether it lies
 * above (gt) or below (lt) the exact value. NaNs compare false both ways and stay. */
static LLVMValueRef directed(hg_llvm_emit *e, LLVMValueRef r, LLVMValueRef gt, LLVMValueRef lt, char m) {
  LLVMBuilderRef B = e->B;
  if (m == 'p')
    return LLVMBuildSelect(B, lt, nudge(e, r, true), r, "");
  if (m == 'n')
    return LLVMBuildSelect(B, gt, nudge(e, r, false), r, "");
  LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOGT, r, fconst_like(e, LLVMTypeOf(r), 0.0), "");
  LLVMValueRef neg = LLVMBuildFCmp(B, LLVMRealOLT, r, fconst_like(e, LLVMTypeOf(r), 0.0), "");
  /* the magnitude overshoots (never for zero) */
  LLVMValueRef over = LLVMBuildOr(B, LLVMBuildAnd(B, pos, gt, ""), LLVMBuildAnd(B, neg, lt, ""), "");
  return LLVMBuildSelect(B, over, step_bits(e, r, false), r, "");
}

/* ---- conversions ----------------------------------------------------------------------------------------- */

static LLVMValueRef convert(bctx *x) {
  hg_llvm_emit *e = x->e;
  LLVMBuilderRef B = e->B;
  const char *n = x->name;
  if (!strncmp(n, "as_", 3))
    return LLVMBuildBitCast(B, x->a[0], x->T, "");
  if (strncmp(n, "convert_", 8) || x->n != 1)
    return NULL;
  bool sat = strstr(n, "_sat") != NULL;
  const char *rm = NULL;
  const char *r = strrchr(n, '_');
  if (r && (!strcmp(r, "_rte") || !strcmp(r, "_rtz") || !strcmp(r, "_rtp") || !strcmp(r, "_rtn")))
    rm = r + 1;
  hg_ir_type from = x->at[0], to = x->rt;
  LLVMValueRef a = x->a[0];
  bool fu = arg_unsigned(x, 0);
  /* the destination's signedness is in the name: convert_u... */
  bool tu = n[8] == 'u';
  if (is_float(from) && is_float(to)) {
    if (to.scalar == from.scalar) return a;
    if (hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) > hg_ir_scalar_bytes((hg_ir_scalar)from.scalar))
      return LLVMBuildFPExt(B, a, x->T, "");
    LLVMValueRef r = LLVMBuildFPTrunc(B, a, x->T, "");
    if (!rm || !strcmp(rm, "rte"))
      return r;
    if (to.scalar == HG_IR_F16)
      return hg_llvm_fail(e, "%s: directed rounding to half is not supported on riscv yet", n);
    LLVMValueRef back = LLVMBuildFPExt(B, r, LLVMTypeOf(a), "");
    return directed(e, r, LLVMBuildFCmp(B, LLVMRealOGT, back, a, ""), LLVMBuildFCmp(B, LLVMRealOLT, back, a, ""), rm[2]);
  }
  if (is_float(from)) {
    /* float -> integer: rounding first (default rtz), then saturating or plain conversion */
    if (from.scalar == HG_IR_F16) {
      LLVMTypeRef ft = from.lanes > 1 ? LLVMVectorType(e->f32, from.lanes) : e->f32;
      a = LLVMBuildFPExt(B, a, ft, "");
    }
    if (rm && !strcmp(rm, "rte")) a = round_integral(x, a, RND_RINT);
    else if (rm && !strcmp(rm, "rtp")) a = round_integral(x, a, RND_CEIL);
    else if (rm && !strcmp(rm, "rtn")) a = round_integral(x, a, RND_FLOOR);
    if (sat && tu && hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) == 4) {
      /* through 64 bits, clamped: on RV64 LLVM 15 lowers fptoui.sat to i32 as fcvt.wu, whose
       * result the hardware sign-extends, and then packs two lanes of a vector into one 64-bit
       * register as if it were zero-extended: lane 1 of convert_uint3_sat took lane 0's sign
       * bits (CTS conversions -3, suite conversions/vector_sat_from_float) */
      LLVMTypeRef wide = to.lanes > 1 ? LLVMVectorType(e->i64, to.lanes) : e->i64;
      LLVMTypeRef ov[2] = {wide, LLVMTypeOf(a)};
      LLVMValueRef w = hg_llvm_intrinsic(e, "llvm.fptoui.sat", ov, 2, &a, 1);
      LLVMValueRef lim = LLVMConstInt(e->i64, 0xffffffffull, 0);
      LLVMValueRef mm[2] = {w, to.lanes > 1 ? LLVMConstVector((LLVMValueRef[16]){lim, lim, lim, lim, lim, lim, lim, lim,
                                                                                 lim, lim, lim, lim, lim, lim, lim, lim},
                                                               to.lanes)
                                            : lim};
      return LLVMBuildTrunc(B, hg_llvm_intrinsic(e, "llvm.umin", &wide, 1, mm, 2), x->T, "");
    }
    if (sat) {
      LLVMTypeRef ov[2] = {x->T, LLVMTypeOf(a)};
      return hg_llvm_intrinsic(e, tu ? "llvm.fptoui.sat" : "llvm.fptosi.sat", ov, 2, &a, 1);
    }
    return tu ? LLVMBuildFPToUI(B, a, x->T, "") : LLVMBuildFPToSI(B, a, x->T, "");
  }
  if (is_float(to)) {
    LLVMValueRef r = fu ? LLVMBuildUIToFP(B, a, x->T, "") : LLVMBuildSIToFP(B, a, x->T, "");
    unsigned fw = hg_ir_scalar_bytes((hg_ir_scalar)from.scalar) * 8;
    if (!rm || !strcmp(rm, "rte") || (to.scalar == HG_IR_F64 && fw <= 32) || (to.scalar == HG_IR_F32 && fw <= 16))
      return r; /* exact, or round to nearest */
    if (to.scalar == HG_IR_F16)
      return hg_llvm_fail(e, "%s: directed rounding to half is not supported on riscv yet", n);
    LLVMValueRef gt, lt;
    if (fw <= 32) {
      /* exact in double: compare there */
      LLVMTypeRef dt = to.lanes > 1 ? LLVMVectorType(e->f64, to.lanes) : e->f64;
      LLVMValueRef d = fu ? LLVMBuildUIToFP(B, a, dt, "") : LLVMBuildSIToFP(B, a, dt, "");
      LLVMValueRef back = LLVMBuildFPExt(B, r, dt, "");
      gt = LLVMBuildFCmp(B, LLVMRealOGT, back, d, "");
      lt = LLVMBuildFCmp(B, LLVMRealOLT, back, d, "");
    } else {
      /* 64-bit: r back to an integer (exact: integral and, below 2^63 / 2^64, in range) */
      LLVMValueRef lim = fconst_like(e, x->T, fu ? 18446744073709551616.0 : 9223372036854775808.0);
      LLVMValueRef huge = LLVMBuildFCmp(B, LLVMRealOGE, r, lim, "");
      LLVMValueRef safe = LLVMBuildSelect(B, huge, fconst_like(e, x->T, 0.0), r, "");
      LLVMValueRef y = fu ? LLVMBuildFPToUI(B, safe, LLVMTypeOf(a), "") : LLVMBuildFPToSI(B, safe, LLVMTypeOf(a), "");
      gt = LLVMBuildOr(B, huge, LLVMBuildICmp(B, fu ? LLVMIntUGT : LLVMIntSGT, y, a, ""), "");
      lt = LLVMBuildAnd(B, LLVMBuildNot(B, huge, ""), LLVMBuildICmp(B, fu ? LLVMIntULT : LLVMIntSLT, y, a, ""), "");
    }
    return directed(e, r, gt, lt, rm[2]);
  }
  /* integer -> integer */
  unsigned fw = hg_ir_scalar_bytes((hg_ir_scalar)from.scalar) * 8, tw = hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) * 8;
  if (sat) {
    /* clamp in the wider of the two widths (one more bit when signedness differs) */
    unsigned w = (fw > tw ? fw : tw) + 1;
    LLVMTypeRef wt = LLVMIntTypeInContext(e->C, w);
    if (to.lanes > 1) wt = LLVMVectorType(wt, to.lanes);
    LLVMValueRef v = fu ? LLVMBuildZExt(B, a, wt, "") : LLVMBuildSExt(B, a, wt, "");
    LLVMTypeRef ws = LLVMIntTypeInContext(e->C, w);
    unsigned long long maxv = tu ? (tw == 64 ? ~0ull : (1ull << tw) - 1) : (1ull << (tw - 1)) - 1;
    LLVMValueRef hi = LLVMConstInt(ws, maxv, 0);
    LLVMValueRef lo = tu ? LLVMConstInt(ws, 0, 0) : LLVMConstNeg(LLVMConstInt(ws, 1ull << (tw - 1), 0));
    if (tw == 64 && !tu)
      lo = LLVMConstNeg(LLVMConstZExt(LLVMConstInt(e->i64, 1ull << 63, 0), ws));
    if (to.lanes > 1) {
      hi = LLVMConstVector((LLVMValueRef[16]){hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi}, to.lanes);
      lo = LLVMConstVector((LLVMValueRef[16]){lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo}, to.lanes);
    }
    v = imin(e, imax(e, v, lo, false), hi, false);
    return LLVMBuildTrunc(B, v, x->T, "");
  }
  if (tw == fw) return a;
  if (tw < fw) return LLVMBuildTrunc(B, a, x->T, "");
  return fu ? LLVMBuildZExt(B, a, x->T, "") : LLVMBuildSExt(B, a, x->T, "");
}

/* ---- atomics and fences --------------------------------------------------------------------------------------- */

static LLVMValueRef legacy_atomic(bctx *x) {
  hg_llvm_emit *e = x->e;
  const char *n = x->name;
  if (!strncmp(n, "atomic_", 7)) n += 7;
  else if (!strncmp(n, "atom_", 5)) n += 5;
  else return NULL;
  if (!x->n || x->at[0].scalar != HG_IR_PTR)
    return NULL;
  bool u = x->n > 1 && arg_unsigned(x, 1);
  LLVMValueRef p = x->a[0];
  LLVMAtomicOrdering o = LLVMAtomicOrderingSequentiallyConsistent;
  if (!strcmp(n, "cmpxchg") && x->n == 3) {
    LLVMValueRef r = LLVMBuildAtomicCmpXchg(e->B, p, x->a[1], x->a[2], o, o, 0);
    return LLVMBuildExtractValue(e->B, r, 0, "");
  }
  if ((!strcmp(n, "inc") || !strcmp(n, "dec")) && x->n == 1)
    return LLVMBuildAtomicRMW(e->B, n[0] == 'i' ? LLVMAtomicRMWBinOpAdd : LLVMAtomicRMWBinOpSub, p, consti(e, x->rt, 1),
                              o, 0);
  if (x->n != 2)
    return NULL;
  static const struct {
    const char *name;
    LLVMAtomicRMWBinOp op, uop;
  } t[] = {{"add", LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpAdd},   {"sub", LLVMAtomicRMWBinOpSub, LLVMAtomicRMWBinOpSub},
           {"xchg", LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpXchg}, {"and", LLVMAtomicRMWBinOpAnd, LLVMAtomicRMWBinOpAnd},
           {"or", LLVMAtomicRMWBinOpOr, LLVMAtomicRMWBinOpOr},       {"xor", LLVMAtomicRMWBinOpXor, LLVMAtomicRMWBinOpXor},
           {"min", LLVMAtomicRMWBinOpMin, LLVMAtomicRMWBinOpUMin},   {"max", LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMax}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcmp(n, t[i].name))
      return LLVMBuildAtomicRMW(e->B, u ? t[i].uop : t[i].op, p, x->a[1], o, 0);
  return NULL;
}

/* Fills x from call_builtin `in`; false (with e->failed) when its operands are not those of
 * the builtin's signature. */
static bool read_call(hg_llvm_emit *e, const hg_ir_inst *in, bctx *x) {
  *x = (bctx){.e = e, .in = in};
  /* every lowering below trusts the operand and result types of the builtin's signature: a
   * call outside it (a module that skipped the verifier) is a build error, never a crash */
  char why[256];
  if (!hg_ir_builtin_check(e->m, e->f, in, why, sizeof why)) {
    hg_llvm_fail(e, "%s", why);
    return false;
  }
  x->name = e->m->strings[in->imm[0]];
  if (in->num_operands > 64) {
    hg_llvm_fail(e, "builtin %s: too many operands", x->name);
    return false;
  }
  x->n = in->num_operands;
  for (unsigned i = 0; i < x->n; i++) {
    x->a[i] = hg_llvm_value(e, in->operands[i]);
    x->at[i] = e->f->values[in->operands[i]].type;
  }
  x->rt = in->type;
  x->T = in->type.scalar == HG_IR_VOID ? e->voidt : hg_llvm_type(e, in->type);
  return !e->failed;
}

/* The math functions computed inline, exactly: one intrinsic each, and ldexp (ldexp_exact). */
static bool math_is_intrinsic(const char *n) {
  static const char *const names[] = {"fabs", "sqrt", "fmin", "fmax", "copysign", "fma", "ldexp"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(n, names[i]))
      return true;
  return false;
}

LLVMValueRef hg_llvm_inline_builtin(hg_llvm_emit *e, const hg_ir_inst *in) {
  const char *name = e->m->strings[in->imm[0]];
  switch (hg_ir_builtin_family_of(name)) {
  case HG_IR_BF_INTEGER:
  case HG_IR_BF_COMMON:
  case HG_IR_BF_GEOMETRIC:
  case HG_IR_BF_RELATIONAL:
  case HG_IR_BF_ATOMIC: break;
  case HG_IR_BF_MATH:
    if (math_is_intrinsic(name))
      break;
    return NULL;
  default: return NULL;
  }
  bctx x;
  if (!read_call(e, in, &x))
    return NULL;
  LLVMValueRef r = legacy_atomic(&x);
  if (!r) r = relational(&x);
  if (!r) r = integer_fn(&x);
  if (!r && !e->failed) r = float_fn(&x);
  return e->failed ? NULL : r;
}

LLVMValueRef hg_llvm_builtin(hg_llvm_emit *e, const hg_ir_inst *in, const hg_llvm_builtin_hooks *h) {
  bctx x;
  if (!read_call(e, in, &x))
    return NULL;
  const char *n = x.name;
  LLVMValueRef r = h->first ? h->first(&x) : NULL;
  if (e->failed) return NULL;
  if (!r && (!strcmp(n, "mem_fence") || !strcmp(n, "read_mem_fence") || !strcmp(n, "write_mem_fence") ||
             !strcmp(n, "atomic_work_item_fence")))
    return LLVMBuildFence(e->B, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  if (!r && !strcmp(n, "prefetch"))
    return LLVMGetUndef(e->i32);
  if (!r) r = legacy_atomic(&x);
  if (e->failed) return NULL;
  if (!r) r = vector_data(&x);
  if (e->failed) return NULL;
  if (!r) r = convert(&x);
  if (e->failed) return NULL;
  if (!r) r = relational(&x);
  if (!r) r = integer_fn(&x);
  if (!r) r = rounding_fn(&x);
  if (!r) r = float_fn(&x);
  if (e->failed) return NULL;
  if (!r && h->last) r = h->last(&x);
  if (!r && !e->failed)
    return hg_llvm_fail(e, "builtin %s is not supported by the %s back end yet", n, h->target);
  return r;
}
