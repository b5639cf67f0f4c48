/* OpenCL C builtins (call_builtin "name") on RISC-V: work-item functions read the work-group
 * and work-item records; integer, common, relational, geometric, vector-data, conversion,
 * atomic and fence builtins are inline LLVM IR; math builtins call the device runtime
 * (devices/riscv/runtime) by convention `hg_rt_<name>f` (float), `hg_rt_<name>` (double),
 * one scalar function per builtin, vectors lane by lane; half arguments go through float.
 * An unsupported builtin fails the build with its name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/codegen_internal.h"

typedef struct bctx {
  hg_rv_cg *g;
  const hg_ir_inst *in;
  const char *name;
  unsigned n;            /* operands */
  LLVMValueRef a[8];     /* operand values */
  hg_ir_type at[8];      /* operand types */
  hg_ir_type rt;         /* result type */
  LLVMTypeRef T;         /* result LLVM type */
} bctx;

static LLVMValueRef ci32(hg_rv_cg *g, uint64_t v) { return LLVMConstInt(g->i32, v, 0); }
static LLVMValueRef ci64(hg_rv_cg *g, uint64_t v) { return LLVMConstInt(g->i64, v, 0); }
static bool is_float(hg_ir_type t) { return t.scalar == HG_IR_F16 || t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64; }
static bool arg_unsigned(bctx *x, unsigned i) { return (x->in->flags >> i) & 1; }

/* A scalar operand splatted to n lanes (OpenCL's mixed scalar/vector forms, e.g. min(v, s)). */
static LLVMValueRef splat(hg_rv_cg *g, LLVMValueRef v, unsigned lanes) {
  if (lanes <= 1 || LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind)
    return v;
  LLVMValueRef u = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(v), lanes));
  u = LLVMBuildInsertElement(g->B, u, v, ci32(g, 0), "");
  LLVMValueRef zeros[16];
  for (unsigned i = 0; i < lanes; i++)
    zeros[i] = ci32(g, 0);
  return LLVMBuildShuffleVector(g->B, u, LLVMGetUndef(LLVMTypeOf(u)), LLVMConstVector(zeros, lanes), "");
}

static LLVMValueRef lane(hg_rv_cg *g, LLVMValueRef v, unsigned l) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return v;
  return LLVMBuildExtractElement(g->B, v, ci32(g, l), "");
}

static LLVMValueRef constf(hg_rv_cg *g, hg_ir_type t, double v) {
  LLVMValueRef s = LLVMConstReal(hg_rv_scalar_type(g, (hg_ir_scalar)t.scalar), v);
  if (t.lanes <= 1)
    return s;
  LLVMValueRef l[16];
  for (unsigned i = 0; i < t.lanes; i++)
    l[i] = s;
  return LLVMConstVector(l, t.lanes);
}

static LLVMValueRef consti(hg_rv_cg *g, hg_ir_type t, uint64_t v) {
  LLVMValueRef s = LLVMConstInt(hg_rv_scalar_type(g, (hg_ir_scalar)t.scalar), v, 0);
  if (t.lanes <= 1)
    return s;
  LLVMValueRef l[16];
  for (unsigned i = 0; i < t.lanes; i++)
    l[i] = s;
  return LLVMConstVector(l, t.lanes);
}

/* ---- work-item functions -------------------------------------------------------------------- */

/* word `base + dim` of a record, or `dflt` when dim >= 3 */
static LLVMValueRef dim_word(hg_rv_cg *g, LLVMValueRef rec, unsigned base, LLVMValueRef dim, uint64_t dflt) {
  LLVMValueRef d = LLVMBuildZExt(g->B, dim, g->i64, "");
  LLVMValueRef ok = LLVMBuildICmp(g->B, LLVMIntULT, d, ci64(g, 3), "");
  LLVMValueRef idx = LLVMBuildAdd(g->B, LLVMBuildSelect(g->B, ok, d, ci64(g, 0), ""), ci64(g, base), "");
  LLVMValueRef v = LLVMBuildLoad2(g->B, g->i64, LLVMBuildGEP2(g->B, g->i64, rec, &idx, 1, ""), "");
  return LLVMBuildSelect(g->B, ok, v, ci64(g, dflt), "");
}

static LLVMValueRef word_at(hg_rv_cg *g, LLVMValueRef rec, unsigned w) {
  LLVMValueRef idx = ci64(g, w);
  return LLVMBuildLoad2(g->B, g->i64, LLVMBuildGEP2(g->B, g->i64, rec, &idx, 1, ""), "");
}

static LLVMValueRef work_item(bctx *x) {
  hg_rv_cg *g = x->g;
  const char *n = x->name;
  LLVMValueRef d = x->n ? x->a[0] : ci32(g, 0);
  LLVMValueRef r = NULL;
  if (!strcmp(n, "get_work_dim"))
    r = word_at(g, g->wg, HG_RV_WG_WORK_DIM);
  else if (!strcmp(n, "get_local_id"))
    r = dim_word(g, g->wi, 0, d, 0);
  else if (!strcmp(n, "get_group_id"))
    r = dim_word(g, g->wg, HG_RV_WG_GROUP_ID, d, 0);
  else if (!strcmp(n, "get_local_size"))
    r = dim_word(g, g->wg, HG_RV_WG_LOCAL, d, 1);
  else if (!strcmp(n, "get_enqueued_local_size"))
    r = dim_word(g, g->wg, HG_RV_WG_ENQ_LOCAL, d, 1);
  else if (!strcmp(n, "get_global_size"))
    r = dim_word(g, g->wg, HG_RV_WG_GLOBAL, d, 1);
  else if (!strcmp(n, "get_num_groups"))
    r = dim_word(g, g->wg, HG_RV_WG_GROUPS, d, 1);
  else if (!strcmp(n, "get_global_offset"))
    r = dim_word(g, g->wg, HG_RV_WG_OFFSET, d, 0);
  else if (!strcmp(n, "get_global_id")) {
    LLVMValueRef grp = dim_word(g, g->wg, HG_RV_WG_GROUP_ID, d, 0);
    LLVMValueRef enq = dim_word(g, g->wg, HG_RV_WG_ENQ_LOCAL, d, 0);
    LLVMValueRef lid = dim_word(g, g->wi, 0, d, 0);
    LLVMValueRef off = dim_word(g, g->wg, HG_RV_WG_OFFSET, d, 0);
    r = LLVMBuildAdd(g->B, LLVMBuildAdd(g->B, LLVMBuildMul(g->B, grp, enq, ""), lid, ""), off, "");
  } else if (!strcmp(n, "get_local_linear_id")) {
    r = ci64(g, 0);
    for (int k = 2; k >= 0; k--)
      r = LLVMBuildAdd(g->B, LLVMBuildMul(g->B, r, word_at(g, g->wg, HG_RV_WG_LOCAL + k), ""), word_at(g, g->wi, k),
                       "");
  } else if (!strcmp(n, "get_global_linear_id")) {
    r = ci64(g, 0);
    for (int k = 2; k >= 0; k--) {
      LLVMValueRef gid = LLVMBuildAdd(g->B, LLVMBuildMul(g->B, word_at(g, g->wg, HG_RV_WG_GROUP_ID + k),
                                                          word_at(g, g->wg, HG_RV_WG_ENQ_LOCAL + k), ""),
                                      word_at(g, g->wi, k), "");
      r = LLVMBuildAdd(g->B, LLVMBuildMul(g->B, r, word_at(g, g->wg, HG_RV_WG_GLOBAL + k), ""), gid, "");
    }
  } else {
    return NULL;
  }
  LLVMTypeRef T = x->T;
  return LLVMGetIntTypeWidth(T) < 64 ? LLVMBuildTrunc(g->B, r, T, "") : r;
}

/* ---- math through the runtime ------------------------------------------------------------------ */

/* Math builtins computed by the runtime: result and float operands share the element type,
 * except the integer operands/results named here. */
static LLVMValueRef runtime_math(bctx *x) {
  hg_rv_cg *g = x->g;
  hg_ir_type et = x->rt;
  for (unsigned i = 0; i < x->n; i++)
    if (is_float(x->at[i]))
      et = x->at[i];
  if (!is_float(et))
    return NULL;
  /* pointer outputs (frexp, modf, remquo, sincos, fract, lgamma_r): not lowered yet */
  for (unsigned i = 0; i < x->n; i++)
    if (x->at[i].scalar == HG_IR_PTR)
      return hg_rv_fail(g, "math builtin %s with a pointer argument is not supported on riscv yet", x->name);
  const char *n = x->name;
  if (!strncmp(n, "native_", 7))
    n += 7;
  else if (!strncmp(n, "half_", 5))
    n += 5;
  bool dbl = et.scalar == HG_IR_F64;
  LLVMTypeRef st = dbl ? g->f64 : g->f32;
  char fname[96];
  snprintf(fname, sizeof fname, "hg_rt_%s%s", n, dbl ? "" : "f");
  unsigned lanes = x->rt.lanes > 1 ? x->rt.lanes : 1;
  for (unsigned i = 0; i < x->n; i++)
    if (x->at[i].lanes > lanes)
      lanes = x->at[i].lanes;
  LLVMValueRef res = lanes > 1 ? LLVMGetUndef(x->T) : NULL;
  for (unsigned l = 0; l < lanes; l++) {
    LLVMValueRef args[8];
    for (unsigned i = 0; i < x->n; i++) {
      args[i] = lane(g, x->a[i], l);
      if (x->at[i].scalar == HG_IR_F16)
        args[i] = LLVMBuildFPExt(g->B, args[i], st, "");
    }
    LLVMTypeRef rst = hg_rv_scalar_type(g, (hg_ir_scalar)x->rt.scalar);
    bool half_res = x->rt.scalar == HG_IR_F16;
    LLVMValueRef r = hg_rv_call_external(g, fname, half_res ? st : rst, args, x->n);
    if (half_res)
      r = LLVMBuildFPTrunc(g->B, r, g->f16, "");
    if (lanes == 1)
      return r;
    res = LLVMBuildInsertElement(g->B, res, r, ci32(g, l), "");
  }
  return res;
}

/* ---- integer and common functions ---------------------------------------------------------------- */

static LLVMValueRef imin(hg_rv_cg *g, LLVMValueRef a, LLVMValueRef b, bool u) {
  return LLVMBuildSelect(g->B, LLVMBuildICmp(g->B, u ? LLVMIntULT : LLVMIntSLT, a, b, ""), a, b, "");
}
static LLVMValueRef imax(hg_rv_cg *g, LLVMValueRef a, LLVMValueRef b, bool u) {
  return LLVMBuildSelect(g->B, LLVMBuildICmp(g->B, u ? LLVMIntUGT : LLVMIntSGT, a, b, ""), a, b, "");
}

static LLVMValueRef intrin1(bctx *x, const char *name, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return hg_rv_intrinsic(x->g, name, &t, 1, &v, 1);
}
static LLVMValueRef intrin2(bctx *x, const char *name, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef args[2] = {a, b};
  return hg_rv_intrinsic(x->g, name, &t, 1, args, 2);
}

/* mul_hi: the high half of the double-width product */
static LLVMValueRef mul_hi(bctx *x, LLVMValueRef a, LLVMValueRef b, bool u) {
  hg_rv_cg *g = x->g;
  unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)x->rt.scalar) * 8;
  LLVMTypeRef wide = LLVMIntTypeInContext(g->C, 2 * w);
  if (x->rt.lanes > 1)
    wide = LLVMVectorType(wide, x->rt.lanes);
  LLVMValueRef A = u ? LLVMBuildZExt(g->B, a, wide, "") : LLVMBuildSExt(g->B, a, wide, "");
  LLVMValueRef Bv = u ? LLVMBuildZExt(g->B, b, wide, "") : LLVMBuildSExt(g->B, b, wide, "");
  hg_ir_type wt = x->rt;
  LLVMValueRef sh = LLVMConstInt(LLVMIntTypeInContext(g->C, 2 * w), w, 0);
  if (wt.lanes > 1) {
    LLVMValueRef l[16];
    for (unsigned i = 0; i < wt.lanes; i++)
      l[i] = sh;
    sh = LLVMConstVector(l, wt.lanes);
  }
  return LLVMBuildTrunc(g->B, LLVMBuildLShr(g->B, LLVMBuildMul(g->B, A, Bv, ""), sh, ""), x->T, "");
}

static LLVMValueRef integer_fn(bctx *x) {
  hg_rv_cg *g = x->g;
  LLVMBuilderRef B = g->B;
  const char *n = x->name;
  if (is_float(x->rt) || x->rt.scalar == HG_IR_PTR || x->rt.scalar == HG_IR_VOID || !x->n)
    return NULL;
  for (unsigned i = 0; i < x->n; i++)
    if (is_float(x->at[i]) || x->at[i].scalar == HG_IR_PTR)
      return NULL;
  bool u = arg_unsigned(x, 0);
  unsigned L = x->rt.lanes;
  LLVMValueRef a = splat(g, x->a[0], L), b = x->n > 1 ? splat(g, x->a[1], L) : NULL,
               c = x->n > 2 ? splat(g, x->a[2], L) : NULL;
  if (!strcmp(n, "min")) return imin(g, a, b, u);
  if (!strcmp(n, "max")) return imax(g, a, b, u);
  if (!strcmp(n, "clamp")) return imin(g, imax(g, a, b, u), c, u);
  if (!strcmp(n, "abs")) {
    if (u) return a;
    LLVMValueRef neg = LLVMBuildNeg(B, a, "");
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, consti(g, x->rt, 0), ""), neg, a, "");
  }
  if (!strcmp(n, "abs_diff"))
    return LLVMBuildSub(B, imax(g, a, b, u), imin(g, a, b, u), "");
  if (!strcmp(n, "clz")) return intrin2(x, "llvm.ctlz", a, LLVMConstInt(g->i1, 0, 0));
  if (!strcmp(n, "ctz")) return intrin2(x, "llvm.cttz", a, LLVMConstInt(g->i1, 0, 0));
  if (!strcmp(n, "popcount")) return intrin1(x, "llvm.ctpop", a);
  if (!strcmp(n, "add_sat")) return intrin2(x, u ? "llvm.uadd.sat" : "llvm.sadd.sat", a, b);
  if (!strcmp(n, "sub_sat")) return intrin2(x, u ? "llvm.usub.sat" : "llvm.ssub.sat", a, b);
  if (!strcmp(n, "rotate")) {
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[3] = {a, a, b};
    return hg_rv_intrinsic(g, "llvm.fshl", &t, 1, args, 3);
  }
  if (!strcmp(n, "mul_hi")) return mul_hi(x, a, b, u);
  if (!strcmp(n, "mad_hi")) return LLVMBuildAdd(B, mul_hi(x, a, b, u), c, "");
  if (!strcmp(n, "mul24")) return LLVMBuildMul(B, a, b, "");
  if (!strcmp(n, "mad24")) return LLVMBuildAdd(B, LLVMBuildMul(B, a, b, ""), c, "");
  if (!strcmp(n, "hadd") || !strcmp(n, "rhadd")) {
    /* (a >> 1) + (b >> 1) + ((a & b) & 1) or ((a | b) & 1) for rhadd: no overflow */
    LLVMValueRef one = consti(g, x->rt, 1);
    LLVMValueRef ha = u ? LLVMBuildLShr(B, a, one, "") : LLVMBuildAShr(B, a, one, "");
    LLVMValueRef hb = u ? LLVMBuildLShr(B, b, one, "") : LLVMBuildAShr(B, b, one, "");
    LLVMValueRef lo = n[0] == 'r' ? LLVMBuildOr(B, a, b, "") : LLVMBuildAnd(B, a, b, "");
    return LLVMBuildAdd(B, LLVMBuildAdd(B, ha, hb, ""), LLVMBuildAnd(B, lo, one, ""), "");
  }
  if (!strcmp(n, "mad_sat")) {
    /* through the double width, then clamped */
    unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)x->rt.scalar) * 8;
    if (w == 64)
      return NULL;
    LLVMTypeRef wide = LLVMIntTypeInContext(g->C, 2 * w);
    if (L > 1) wide = LLVMVectorType(wide, L);
    LLVMValueRef A = u ? LLVMBuildZExt(B, a, wide, "") : LLVMBuildSExt(B, a, wide, "");
    LLVMValueRef Bv = u ? LLVMBuildZExt(B, b, wide, "") : LLVMBuildSExt(B, b, wide, "");
    LLVMValueRef Cv = u ? LLVMBuildZExt(B, c, wide, "") : LLVMBuildSExt(B, c, wide, "");
    LLVMValueRef s = LLVMBuildAdd(B, LLVMBuildMul(B, A, Bv, ""), Cv, "");
    hg_ir_type wt = {(uint8_t)(x->rt.scalar + 1), x->rt.lanes, 0, 0};
    uint64_t maxv = u ? (w == 8 ? 0xFF : w == 16 ? 0xFFFF : 0xFFFFFFFFull)
                      : (w == 8 ? 0x7F : w == 16 ? 0x7FFF : 0x7FFFFFFFull);
    int64_t minv = u ? 0 : (w == 8 ? -128 : w == 16 ? -32768 : -2147483648ll);
    s = imin(g, s, consti(g, wt, maxv), u);
    s = imax(g, s, consti(g, wt, (uint64_t)minv), u);
    return LLVMBuildTrunc(B, s, x->T, "");
  }
  if (!strcmp(n, "upsample")) {
    unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)x->at[0].scalar) * 8;
    LLVMValueRef hi = LLVMBuildZExt(B, a, x->T, ""), lo = LLVMBuildZExt(B, b, x->T, "");
    return LLVMBuildOr(B, LLVMBuildShl(B, hi, consti(g, x->rt, w), ""), lo, "");
  }
  return NULL;
}

/* float common, geometric and the math functions simple enough to be inline */
static LLVMValueRef float_fn(bctx *x) {
  hg_rv_cg *g = x->g;
  LLVMBuilderRef B = g->B;
  const char *n = x->name;
  if (!x->n || !is_float(x->at[0]))
    return NULL;
  hg_ir_type t = x->at[0];
  unsigned L = t.lanes;
  LLVMValueRef a = x->a[0], b = x->n > 1 ? splat(g, x->a[1], L) : NULL, c = x->n > 2 ? splat(g, x->a[2], L) : NULL;
  if (!strcmp(n, "fabs")) return intrin1(x, "llvm.fabs", a);
  if (!strcmp(n, "sqrt") || !strcmp(n, "native_sqrt") || !strcmp(n, "half_sqrt")) return intrin1(x, "llvm.sqrt", a);
  if (!strcmp(n, "fmin") || (!strcmp(n, "min") && is_float(x->rt))) return intrin2(x, "llvm.minnum", a, b);
  if (!strcmp(n, "fmax") || (!strcmp(n, "max") && is_float(x->rt))) return intrin2(x, "llvm.maxnum", a, b);
  if (!strcmp(n, "copysign")) return intrin2(x, "llvm.copysign", a, b);
  if (!strcmp(n, "fma")) {
    LLVMTypeRef tt = LLVMTypeOf(a);
    LLVMValueRef args[3] = {a, b, c};
    return hg_rv_intrinsic(g, "llvm.fma", &tt, 1, args, 3);
  }
  if (!strcmp(n, "mad")) return LLVMBuildFAdd(B, LLVMBuildFMul(B, a, b, ""), c, "");
  if (!strcmp(n, "clamp")) return intrin2(x, "llvm.minnum", intrin2(x, "llvm.maxnum", a, b), c);
  if (!strcmp(n, "mix")) return LLVMBuildFAdd(B, a, LLVMBuildFMul(B, LLVMBuildFSub(B, b, a, ""), c, ""), "");
  if (!strcmp(n, "step")) {
    /* step(edge, x): x < edge ? 0 : 1 ; edge may be scalar */
    LLVMValueRef e = splat(g, x->a[0], x->rt.lanes), v = x->a[1];
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOLT, v, e, ""), constf(g, x->rt, 0), constf(g, x->rt, 1), "");
  }
  if (!strcmp(n, "smoothstep")) {
    LLVMValueRef e0 = splat(g, x->a[0], x->rt.lanes), e1 = splat(g, x->a[1], x->rt.lanes), v = x->a[2];
    LLVMValueRef tt = LLVMBuildFDiv(B, LLVMBuildFSub(B, v, e0, ""), LLVMBuildFSub(B, e1, e0, ""), "");
    tt = intrin2(x, "llvm.minnum", intrin2(x, "llvm.maxnum", tt, constf(g, x->rt, 0)), constf(g, x->rt, 1));
    LLVMValueRef p = LLVMBuildFSub(B, constf(g, x->rt, 3), LLVMBuildFMul(B, constf(g, x->rt, 2), tt, ""), "");
    return LLVMBuildFMul(B, LLVMBuildFMul(B, tt, tt, ""), p, "");
  }
  if (!strcmp(n, "degrees")) return LLVMBuildFMul(B, a, constf(g, t, 57.295779513082320876798154814105), "");
  if (!strcmp(n, "radians")) return LLVMBuildFMul(B, a, constf(g, t, 0.017453292519943295769236907684886), "");
  if (!strcmp(n, "sign")) {
    LLVMValueRef one = intrin2(x, "llvm.copysign", constf(g, t, 1), a);
    LLVMValueRef r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, a, constf(g, t, 0), ""), a, one, "");
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, a, a, ""), constf(g, t, 0), r, "");
  }
  if (!strcmp(n, "maxmag") || !strcmp(n, "minmag")) {
    LLVMValueRef fa = intrin1(x, "llvm.fabs", a), fb = intrin1(x, "llvm.fabs", b);
    bool mx = n[1] == 'a';
    LLVMValueRef pick = LLVMBuildFCmp(B, mx ? LLVMRealOGT : LLVMRealOLT, fa, fb, "");
    LLVMValueRef other = LLVMBuildFCmp(B, mx ? LLVMRealOLT : LLVMRealOGT, fa, fb, "");
    LLVMValueRef dflt = intrin2(x, mx ? "llvm.maxnum" : "llvm.minnum", a, b);
    return LLVMBuildSelect(B, pick, a, LLVMBuildSelect(B, other, b, dflt, ""), "");
  }
  /* geometric */
  bool dot = !strcmp(n, "dot"), len = !strcmp(n, "length") || !strcmp(n, "fast_length");
  bool dist = !strcmp(n, "distance") || !strcmp(n, "fast_distance");
  if (dot || len || dist) {
    LLVMValueRef u = a, v = dot ? b : a;
    if (dist)
      u = v = LLVMBuildFSub(B, a, b, "");
    LLVMValueRef s = NULL;
    for (unsigned l = 0; l < (L ? L : 1); l++) {
      LLVMValueRef p = LLVMBuildFMul(B, lane(g, u, l), lane(g, v, l), "");
      s = s ? LLVMBuildFAdd(B, s, p, "") : p;
    }
    return dot ? s : intrin1(x, "llvm.sqrt", s);
  }
  if (!strcmp(n, "normalize") || !strcmp(n, "fast_normalize")) {
    LLVMValueRef s = NULL;
    for (unsigned l = 0; l < (L ? L : 1); l++) {
      LLVMValueRef e = lane(g, a, l);
      LLVMValueRef p = LLVMBuildFMul(B, e, e, "");
      s = s ? LLVMBuildFAdd(B, s, p, "") : p;
    }
    LLVMValueRef inv = LLVMBuildFDiv(B, LLVMConstReal(LLVMTypeOf(s), 1.0), intrin1(x, "llvm.sqrt", s), "");
    LLVMValueRef r = LLVMBuildFMul(B, a, splat(g, inv, L), "");
    /* a zero vector stays zero */
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, s, LLVMConstReal(LLVMTypeOf(s), 0), ""), a, r, "");
  }
  if (!strcmp(n, "cross")) {
    static const unsigned i1[3] = {1, 2, 0}, i2[3] = {2, 0, 1};
    LLVMValueRef r = LLVMGetUndef(x->T);
    for (unsigned l = 0; l < 3; l++) {
      LLVMValueRef p = LLVMBuildFMul(B, lane(g, a, i1[l]), lane(g, b, i2[l]), "");
      LLVMValueRef q = LLVMBuildFMul(B, lane(g, a, i2[l]), lane(g, b, i1[l]), "");
      r = LLVMBuildInsertElement(B, r, LLVMBuildFSub(B, p, q, ""), ci32(g, l), "");
    }
    if (L == 4)
      r = LLVMBuildInsertElement(B, r, LLVMConstReal(hg_rv_scalar_type(g, (hg_ir_scalar)t.scalar), 0), ci32(g, 3), "");
    return r;
  }
  return NULL;
}

/* ---- relational ----------------------------------------------------------------------------------- */

/* A bool (vector) as OpenCL wants it: scalars 1/0 (int), vectors -1/0 of the result type. */
static LLVMValueRef rel_result(bctx *x, LLVMValueRef cond) {
  if (x->rt.lanes > 1)
    return LLVMBuildSExt(x->g->B, cond, x->T, "");
  return LLVMBuildZExt(x->g->B, cond, x->T, "");
}

static LLVMValueRef relational(bctx *x) {
  hg_rv_cg *g = x->g;
  LLVMBuilderRef B = g->B;
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
    if (!strcmp(n, "isinf")) return rel_result(x, LLVMBuildFCmp(B, LLVMRealOEQ, fa, constf(g, t, inf), ""));
    if (!strcmp(n, "isfinite")) return rel_result(x, LLVMBuildFCmp(B, LLVMRealOLT, fa, constf(g, t, inf), ""));
    if (!strcmp(n, "isnormal"))
      return rel_result(x, LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOLT, fa, constf(g, t, inf), ""),
                                        LLVMBuildFCmp(B, LLVMRealOGE, fa, constf(g, t, minn), ""), ""));
    if (!strcmp(n, "signbit")) {
      unsigned w = hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8;
      LLVMTypeRef it = LLVMIntTypeInContext(g->C, w);
      if (t.lanes > 1) it = LLVMVectorType(it, t.lanes);
      LLVMValueRef bits = LLVMBuildBitCast(B, a, it, "");
      return rel_result(x, LLVMBuildICmp(B, LLVMIntSLT, bits, LLVMConstNull(it), ""));
    }
  }
  if ((!strcmp(n, "any") || !strcmp(n, "all")) && x->n == 1) {
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, x->a[0], LLVMConstNull(LLVMTypeOf(x->a[0])), "");
    LLVMValueRef r = lane(g, neg, 0);
    for (unsigned l = 1; l < x->at[0].lanes; l++)
      r = n[1] == 'n' ? LLVMBuildOr(B, r, lane(g, neg, l), "") : LLVMBuildAnd(B, r, lane(g, neg, l), "");
    return LLVMBuildZExt(B, r, x->T, "");
  }
  if (!strcmp(n, "bitselect") && x->n == 3) {
    /* (a & ~c) | (b & c), on the bits */
    hg_ir_type t = x->rt;
    LLVMTypeRef it = x->T;
    if (is_float(t)) {
      it = LLVMIntTypeInContext(g->C, hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8);
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
  hg_rv_cg *g = x->g;
  LLVMBuilderRef B = g->B;
  const char *n = x->name;
  if (!strncmp(n, "vload", 5) && isdigit_str(n + 5)) {
    /* vloadN(offset, p): N elements at p + offset * N */
    unsigned N = x->rt.lanes;
    hg_ir_type et = {x->rt.scalar, 1, 0, 0};
    unsigned es = hg_ir_scalar_bytes((hg_ir_scalar)et.scalar);
    LLVMValueRef off = LLVMBuildMul(B, LLVMBuildZExt(B, x->a[0], g->i64, ""), ci64(g, (uint64_t)N * es), "");
    LLVMValueRef p = LLVMBuildGEP2(B, g->i8, x->a[1], &off, 1, "");
    LLVMValueRef l = LLVMBuildLoad2(B, x->T, p, "");
    LLVMSetAlignment(l, es);
    return l;
  }
  if (!strncmp(n, "vstore", 6) && isdigit_str(n + 6)) {
    /* vstoreN(data, offset, p) */
    hg_ir_type dt = x->at[0];
    unsigned es = hg_ir_scalar_bytes((hg_ir_scalar)dt.scalar);
    LLVMValueRef off = LLVMBuildMul(B, LLVMBuildZExt(B, x->a[1], g->i64, ""), ci64(g, (uint64_t)dt.lanes * es), "");
    LLVMValueRef p = LLVMBuildGEP2(B, g->i8, x->a[2], &off, 1, "");
    LLVMValueRef s = LLVMBuildStore(B, x->a[0], p);
    LLVMSetAlignment(s, es);
    return s;
  }
  return NULL;
}

/* ---- conversions ----------------------------------------------------------------------------------------- */

static LLVMValueRef convert(bctx *x) {
  hg_rv_cg *g = x->g;
  LLVMBuilderRef B = g->B;
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
    if (rm && strcmp(rm, "rte") && hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) < hg_ir_scalar_bytes((hg_ir_scalar)from.scalar))
      return hg_rv_fail(g, "%s: directed rounding of floating-point narrowing is not supported on riscv yet", n);
    if (to.scalar == from.scalar) return a;
    return hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) > hg_ir_scalar_bytes((hg_ir_scalar)from.scalar)
               ? LLVMBuildFPExt(B, a, x->T, "")
               : LLVMBuildFPTrunc(B, a, x->T, "");
  }
  if (is_float(from)) {
    /* float -> integer: rounding first (default rtz), then saturating or plain conversion */
    if (rm && !strcmp(rm, "rte")) a = intrin1(x, "llvm.rint", a);
    else if (rm && !strcmp(rm, "rtp")) a = intrin1(x, "llvm.ceil", a);
    else if (rm && !strcmp(rm, "rtn")) a = intrin1(x, "llvm.floor", a);
    if (sat) {
      LLVMTypeRef ov[2] = {x->T, LLVMTypeOf(a)};
      return hg_rv_intrinsic(g, tu ? "llvm.fptoui.sat" : "llvm.fptosi.sat", ov, 2, &a, 1);
    }
    return tu ? LLVMBuildFPToUI(B, a, x->T, "") : LLVMBuildFPToSI(B, a, x->T, "");
  }
  if (is_float(to)) {
    if (rm && strcmp(rm, "rte"))
      return hg_rv_fail(g, "%s: directed rounding of integer to float is not supported on riscv yet", n);
    return fu ? LLVMBuildUIToFP(B, a, x->T, "") : LLVMBuildSIToFP(B, a, x->T, "");
  }
  /* integer -> integer */
  unsigned fw = hg_ir_scalar_bytes((hg_ir_scalar)from.scalar) * 8, tw = hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) * 8;
  if (sat) {
    /* clamp in the wider of the two widths (one more bit when signedness differs) */
    unsigned w = (fw > tw ? fw : tw) + 1;
    LLVMTypeRef wt = LLVMIntTypeInContext(g->C, w);
    if (to.lanes > 1) wt = LLVMVectorType(wt, to.lanes);
    LLVMValueRef v = fu ? LLVMBuildZExt(B, a, wt, "") : LLVMBuildSExt(B, a, wt, "");
    LLVMTypeRef ws = LLVMIntTypeInContext(g->C, w);
    unsigned long long maxv = tu ? (tw == 64 ? ~0ull : (1ull << tw) - 1) : (1ull << (tw - 1)) - 1;
    LLVMValueRef hi = LLVMConstInt(ws, maxv, 0);
    LLVMValueRef lo = tu ? LLVMConstInt(ws, 0, 0) : LLVMConstNeg(LLVMConstInt(ws, 1ull << (tw - 1), 0));
    if (tw == 64 && !tu)
      lo = LLVMConstNeg(LLVMConstZExt(LLVMConstInt(g->i64, 1ull << 63, 0), ws));
    if (to.lanes > 1) {
      hi = LLVMConstVector((LLVMValueRef[16]){hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi}, to.lanes);
      lo = LLVMConstVector((LLVMValueRef[16]){lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo}, to.lanes);
    }
    v = imin(g, imax(g, v, lo, false), hi, false);
    return LLVMBuildTrunc(B, v, x->T, "");
  }
  if (tw == fw) return a;
  if (tw < fw) return LLVMBuildTrunc(B, a, x->T, "");
  return fu ? LLVMBuildZExt(B, a, x->T, "") : LLVMBuildSExt(B, a, x->T, "");
}

/* ---- atomics and fences --------------------------------------------------------------------------------------- */

static LLVMValueRef legacy_atomic(bctx *x) {
  hg_rv_cg *g = x->g;
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
    LLVMValueRef r = LLVMBuildAtomicCmpXchg(g->B, p, x->a[1], x->a[2], o, o, 0);
    return LLVMBuildExtractValue(g->B, r, 0, "");
  }
  if ((!strcmp(n, "inc") || !strcmp(n, "dec")) && x->n == 1)
    return LLVMBuildAtomicRMW(g->B, n[0] == 'i' ? LLVMAtomicRMWBinOpAdd : LLVMAtomicRMWBinOpSub, p, consti(g, x->rt, 1),
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
      return LLVMBuildAtomicRMW(g->B, u ? t[i].uop : t[i].op, p, x->a[1], o, 0);
  return NULL;
}

LLVMValueRef hg_rv_builtin(hg_rv_cg *g, const hg_ir_inst *in) {
  bctx x = {.g = g, .in = in};
  if (!in->num_imm || in->imm[0] >= g->m->num_strings)
    return hg_rv_fail(g, "call_builtin without a name");
  x.name = g->m->strings[in->imm[0]];
  if (in->num_operands > 8)
    return hg_rv_fail(g, "builtin %s: too many operands", x.name);
  x.n = in->num_operands;
  for (unsigned i = 0; i < x.n; i++) {
    x.a[i] = hg_rv_value(g, in->operands[i]);
    x.at[i] = g->f->values[in->operands[i]].type;
  }
  if (g->failed)
    return NULL;
  x.rt = in->type;
  x.T = in->type.scalar == HG_IR_VOID ? g->voidt : hg_rv_type(g, in->type);
  const char *n = x.name;
  LLVMValueRef r = NULL;
  if (!strncmp(n, "get_", 4))
    r = work_item(&x);
  if (!r && (!strcmp(n, "mem_fence") || !strcmp(n, "read_mem_fence") || !strcmp(n, "write_mem_fence") ||
             !strcmp(n, "atomic_work_item_fence")))
    return LLVMBuildFence(g->B, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  if (!r && !strcmp(n, "prefetch"))
    return LLVMGetUndef(g->i32);
  if (!r) r = legacy_atomic(&x);
  if (g->failed) return NULL;
  if (!r) r = vector_data(&x);
  if (!r) r = convert(&x);
  if (g->failed) return NULL;
  if (!r) r = relational(&x);
  if (!r) r = integer_fn(&x);
  if (!r) r = float_fn(&x);
  if (g->failed) return NULL;
  if (!r) r = runtime_math(&x);
  if (!r && !g->failed)
    return hg_rv_fail(g, "builtin %s is not supported by the riscv backend yet", n);
  return r;
}
