/* IR -> OpenCL C: builtins whose vendor implementations deviate from the OpenCL C specification
 * on some backend (docs/virtual-device.md, "Vendor deviations the lowering corrects"). A call
 * of one of them goes to a small helper emitted in the preamble, only for the element types and
 * widths the module uses. Each helper is right whichever vendor runs it: it keeps the vendor's
 * builtin for the ordinary inputs and gives the specification's value where vendors were seen to
 * differ (or computes the result itself where a guard cannot make it exact). Conditions are
 * ternaries, which OpenCL C applies lane by lane (select) to vectors, so vector forms stay
 * branch-free. */
#include <stdio.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/opencl_c_internal.h"

#define TB 64

static const unsigned k_lanes[OC_LANE_KINDS] = {1, 2, 3, 4, 8, 16};

/* A binary double-vector function computed lane by lane (k_templates below). */
static const char k_lanes_binary[] =
    "static inline $F hg_$B_$F($F x, $F y) {\n"
    "  union { $F v; double e[vec_step($F)]; } a, b, r;\n"
    "  a.v = x;\n  b.v = y;\n"
    "  for (int i = 0; i < vec_step($F); i++) r.e[i] = $B(a.e[i], b.e[i]);\n"
    "  return r.v;\n"
    "}\n";

/* The same for a double vector and an int vector (pown, rootn). */
static const char k_lanes_int_exponent[] =
    "static inline $F hg_$B_$F($F x, $N n) {\n"
    "  union { $F v; double e[vec_step($F)]; } a, r;\n"
    "  union { $N v; int e[vec_step($F)]; } b;\n"
    "  a.v = x;\n  b.v = n;\n"
    "  for (int i = 0; i < vec_step($F); i++) r.e[i] = $B(a.e[i], b.e[i]);\n"
    "  return r.v;\n"
    "}\n";

/* Templates: $F the value type ("float4"), $I the integer type a comparison of $F gives
 * ("int4", "long4"; "int" for scalars), $N int of the same width ("int4"), $L / $U long / ulong
 * of the same width, $S the width suffix ("4", "" for scalars), $B the builtin's name. */
static const char *const k_templates[OC_FIX_COUNT] = {
    /* fract(+-0) = +-0 with *iptr = +-0, fract(+-inf) = +-0 with *iptr = +-inf, NaN both
     * (PoCL 3.1 and NVIDIA return +0 for -0) */
    [OC_FIX_FRACT] =
        "static inline $F hg_fract_$F($F x, __private $F *ip) {\n"
        "  $F r = fract(x, ip);\n"
        "  $I special = isnan(x) | isinf(x) | (x == ($F)0);\n"
        "  *ip = special ? x : *ip;\n"
        "  return special ? (isnan(x) ? x : copysign(($F)0, x)) : r;\n"
        "}\n",
    /* the sign of gamma(x), as the C library gives it: -1 for -0 and for negative non-integers
     * with an odd floor, 1 everywhere else (positive x, +0, poles, infinities, NaN); NVIDIA
     * gives 0 for x = 1 */
    [OC_FIX_LGAMMA_R] =
        "static inline $F hg_lgamma_r_$F($F x, __private $N *signp) {\n"
        "  $F r = lgamma_r(x, signp);\n"
        "  $F fl = floor(x);\n"
        "  $I neg = ((x == ($F)0) & signbit(x)) | ((x < ($F)0) & (fl != x) & (fl != ($F)2 * floor(x * ($F)0.5)));\n"
        "  *signp = convert_$N(neg) ? ($N)(-1) : ($N)1;\n"
        "  return r;\n"
        "}\n",
    /* FP_ILOGB0 = INT_MIN and FP_ILOGBNAN = INT_MAX, the values of the OpenCL C headers the
     * front end compiles against (NVIDIA gives INT_MIN for NaN); ilogb(+-inf) = INT_MAX */
    [OC_FIX_ILOGB] =
        "static inline $N hg_ilogb_$F($F x) {\n"
        "  $N r = ilogb(x);\n"
        "  r = convert_$N(isnan(x) | isinf(x)) ? ($N)INT_MAX : r;\n"
        "  return convert_$N(x == ($F)0) ? ($N)INT_MIN : r;\n"
        "}\n",
    /* convert_<integer>_sat of NaN is 0 (NVIDIA gives the type's minimum): the argument of the
     * vendor's conversion, NaN replaced by 0 */
    [OC_FIX_NAN_TO_ZERO] = "static inline $F hg_nan0_$F($F x) { return isnan(x) ? ($F)0 : x; }\n",
    /* 64-bit mad_sat computed exactly (NVIDIA's is wrong): the 128-bit product from mul_hi and
     * the low product, plus c with its carry, saturated when the high half is not the sign
     * extension of the low one. Both signednesses share the bit: see mad_sat_template. */
    [OC_FIX_MAD_SAT] =
        "static inline $L hg_mad_sat_$L($L a, $L b, $L c) {\n"
        "  $U lo = as_$U(a) * as_$U(b), uc = as_$U(c), sum = lo + uc;\n"
        "  $U carry = ((lo & uc) | ((lo | uc) & ~sum)) >> 63;\n"
        "  $L hi = as_$L(as_$U(mul_hi(a, b)) + as_$U(c >> 63) + carry), s = as_$L(sum);\n"
        "  return hi == (s >> 63) ? s : (hi >> 63) ^ ($L)LONG_MAX;\n"
        "}\n",
    /* smoothstep in double by the specification's formula (NVIDIA's is off by ~1e-8 relative) */
    [OC_FIX_SMOOTHSTEP] =
        "static inline $F hg_smoothstep_$F($F e0, $F e1, $F x) {\n"
        "  $F t = clamp((x - e0) / (e1 - e0), ($F)0, ($F)1);\n"
        "  return t * t * (($F)3 - ($F)2 * t);\n"
        "}\n",
    /* exp10 under relaxed math: a vendor's exp2(x * log2(10)) loses the rounding error of a
     * product up to 133, which exp2 magnifies to ~50 ulp. Reduce first: 10^x = 2^n * 10^r with
     * r = x - n * log10(2) through two fmas (log10(2) in two parts; fma is never reassociated
     * by fast math), so exp2 sees |r * log2(10)| <= 0.5 and ldexp scales exactly. */
    [OC_FIX_EXP10_RELAXED] =
        "static inline $F hg_exp10_$F($F x) {\n"
        "  $F n = rint(x * ($F)0x1.a934fp+1f);\n"
        "  $F r = fma(-n, ($F)0x1.344136p-2f, x);\n"
        "  r = fma(-n, ($F)-0x1.ec10cp-27f, r);\n"
        "  return ldexp(exp2(r * ($F)0x1.a934fp+1f), convert_$N_sat(n));\n"
        "}\n",
    /* The zeros of the pi functions carry the signs the specification gives (PoCL 3.1 and
     * NVIDIA were seen to give the other): sinpi(n) = copysign(0, n) for integers n,
     * cospi(n + 0.5) = +0, tanpi(n) = copysign(0, n) for even n and copysign(0, -n) for odd,
     * atanpi(+-0) = +-0. */
    [OC_FIX_SINPI] =
        "static inline $F hg_sinpi_$F($F x) {\n"
        "  return (isfinite(x) & (x == rint(x))) ? copysign(($F)0, x) : sinpi(x);\n"
        "}\n",
    [OC_FIX_COSPI] =
        "static inline $F hg_cospi_$F($F x) {\n"
        "  return (isfinite(x) & (x - floor(x) == ($F)0.5)) ? ($F)0 : cospi(x);\n"
        "}\n",
    [OC_FIX_TANPI] =
        "static inline $F hg_tanpi_$F($F x) {\n"
        "  $F h = x * ($F)0.5;\n"
        "  $F z = copysign(($F)0, (h != floor(h)) ? -x : x);\n"
        "  return (isfinite(x) & (x == rint(x))) ? z : tanpi(x);\n"
        "}\n",
    [OC_FIX_ATANPI] = "static inline $F hg_atanpi_$F($F x) { return x == ($F)0 ? x : atanpi(x); }\n",
    /* double vectors lane by lane with the scalar function: PoCL 3.1's double8 fmod, pow,
     * powr, pown, rootn, remainder, remquo and frexp give wrong results in lanes of ordinary
     * inputs when another lane holds a subnormal or a huge value (5.5 fmod 2 = 0; pow to inf for 0; frexp's exponent 0 for
     * a subnormal: CTS math_brute_force, vector size 8, PoCL directly too); the scalar ones are
     * right. $B is the builtin. */
    [OC_FIX_FMOD_VECTOR] = k_lanes_binary,
    [OC_FIX_POW_VECTOR] = k_lanes_binary,
    [OC_FIX_POWR_VECTOR] = k_lanes_binary,
    [OC_FIX_REMAINDER_VECTOR] = k_lanes_binary,
    [OC_FIX_POWN_VECTOR] = k_lanes_int_exponent,
    [OC_FIX_ROOTN_VECTOR] = k_lanes_int_exponent,
    [OC_FIX_FREXP_VECTOR] =
        "static inline $F hg_frexp_$F($F x, __private $N *ep) {\n"
        "  union { $F v; double e[vec_step($F)]; } a, r;\n"
        "  union { $N v; int e[vec_step($F)]; } q;\n"
        "  a.v = x;\n"
        "  for (int i = 0; i < vec_step($F); i++) r.e[i] = frexp(a.e[i], &q.e[i]);\n"
        "  *ep = q.v;\n"
        "  return r.v;\n"
        "}\n",
    [OC_FIX_REMQUO_VECTOR] =
        "static inline $F hg_remquo_$F($F x, $F y, __private $N *qp) {\n"
        "  union { $F v; double e[vec_step($F)]; } a, b, r;\n"
        "  union { $N v; int e[vec_step($F)]; } q;\n"
        "  a.v = x;\n  b.v = y;\n"
        "  for (int i = 0; i < vec_step($F); i++) r.e[i] = remquo(a.e[i], b.e[i], &q.e[i]);\n"
        "  *qp = q.v;\n"
        "  return r.v;\n"
        "}\n",
    /* a vector with one exponent: the vector helper (OC_FIX_LDEXP, registered with it) */
    [OC_FIX_LDEXP_SPLAT] = "static inline $F hg_ldexp_splat_$F($F x, int m) { return hg_ldexp_$F(x, ($N)(m)); }\n",
};

/* ldexp(x, n) with one rounding: PoCL 3.1 rounds a result in the subnormal range twice
 * (ldexp(0x1.0afffep-80f, -62) = 0x1.0cp-142, not 0x1.0ap-142; near-halfway cases of float3 and
 * wider vectors and of every double vector often, scalars for some exponents). Products with
 * powers of two that stay normal are exact, so x is scaled by 2^127 (2^-126) while n is past
 * what one power of two holds, at most twice after n is clamped to where every result is already
 * infinite or zero, and the one rounding is the last product, by 2^n as bits (subnormal below
 * 2^-126). A step down taken early makes x subnormal only where the result rounds to zero
 * anyway. */
static const char k_ldexp_float[] =
    "static inline $F hg_ldexp_$F($F x, $N n) {\n"
    "  n = clamp(n, ($N)(-300), ($N)300);\n"
    "  for (int s = 0; s < 2; s++) {\n"
    "    $N up = n > ($N)127, down = n < ($N)(-149);\n"
    "    x = up ? x * 0x1p127f : x;\n    n = up ? n - ($N)127 : n;\n"
    "    x = down ? x * 0x1p-126f : x;\n    n = down ? n + ($N)126 : n;\n"
    "  }\n"
    "  uint$S bits = n >= ($N)(-126) ? as_uint$S(n + ($N)127) << 23 : (uint$S)1 << as_uint$S(n + ($N)149);\n"
    "  return x * as_$F(bits);\n"
    "}\n";
static const char k_ldexp_double[] =
    "static inline $F hg_ldexp_$F($F x, $N m) {\n"
    "  $L n = convert_$L(clamp(m, ($N)(-2100), ($N)2100));\n"
    "  for (int s = 0; s < 2; s++) {\n"
    "    $I up = convert_$I(n > ($L)1023), down = convert_$I(n < ($L)(-1074));\n"
    "    x = up ? x * 0x1p1023 : x;\n    n = up ? n - ($L)1023 : n;\n"
    "    x = down ? x * 0x1p-1022 : x;\n    n = down ? n + ($L)1022 : n;\n"
    "  }\n"
    "  $U bits = n >= ($L)(-1022) ? as_$U(n + ($L)1023) << 52 : ($U)1 << as_$U(n + ($L)1074);\n"
    "  return x * as_$F(bits);\n"
    "}\n";

/* The unsigned 64-bit form of OC_FIX_MAD_SAT: overflow when the high half or the carry is set. */
static const char k_mad_sat_unsigned[] =
    "static inline $U hg_mad_sat_$U($U a, $U b, $U c) {\n"
    "  $U lo = a * b, sum = lo + c;\n"
    "  $U carry = ((lo & c) | ((lo | c) & ~sum)) >> 63;\n"
    "  return (mul_hi(a, b) | carry) != ($U)0 ? ($U)ULONG_MAX : sum;\n"
    "}\n";

/* Mask bit of an element kind (0: float or long, 1: double or ulong) and a width. */
static unsigned fix_bit(unsigned kind, unsigned lanes) { return 1u << (kind * OC_LANE_KINDS + oc_lane_kind(lanes)); }

static void expand(oc_buf *out, const char *tpl, bool dbl, unsigned lanes, const char *builtin) {
  char sfx[12] = "", f[TB], i[TB], n[TB], l[TB], u[TB];
  if (lanes > 1) snprintf(sfx, sizeof sfx, "%u", lanes);
  snprintf(f, sizeof f, "%s%s", dbl ? "double" : "float", sfx);
  snprintf(i, sizeof i, "%s%s", lanes > 1 && dbl ? "long" : "int", sfx);
  snprintf(n, sizeof n, "int%s", sfx);
  snprintf(l, sizeof l, "long%s", sfx);
  snprintf(u, sizeof u, "ulong%s", sfx);
  for (const char *p = tpl; *p; p++) {
    const char *v = NULL;
    if (*p == '$') switch (p[1]) {
      case 'F': v = f; break;
      case 'I': v = i; break;
      case 'N': v = n; break;
      case 'L': v = l; break;
      case 'U': v = u; break;
      case 'S': v = sfx; break;
      case 'B': v = builtin; break;
      default: break;
      }
    if (v) {
      oc_puts(out, v);
      p++;
    } else {
      oc_printf(out, "%c", *p);
    }
  }
}

/* The builtin each lane-by-lane helper calls ($B) */
static const char *const k_lane_builtins[OC_FIX_COUNT] = {
    [OC_FIX_FMOD_VECTOR] = "fmod", [OC_FIX_POW_VECTOR] = "pow", [OC_FIX_POWR_VECTOR] = "powr",
    [OC_FIX_REMAINDER_VECTOR] = "remainder", [OC_FIX_POWN_VECTOR] = "pown", [OC_FIX_ROOTN_VECTOR] = "rootn"};

void oc_emit_fix_helpers(oc_ctx *c, oc_buf *out) {
  for (unsigned fx = 0; fx < OC_FIX_COUNT; fx++)
    for (unsigned kind = 0; kind < 2; kind++)
      for (unsigned k = 0; k < OC_LANE_KINDS; k++) {
        if (!(c->fix_mask[fx] & fix_bit(kind, k_lanes[k]))) continue;
        const char *tpl = fx == OC_FIX_MAD_SAT && kind ? k_mad_sat_unsigned
                          : fx == OC_FIX_LDEXP    ? (kind ? k_ldexp_double : k_ldexp_float)
                                                  : k_templates[fx];
        expand(out, tpl, kind == 1, k_lanes[k], k_lane_builtins[fx] ? k_lane_builtins[fx] : "");
      }
}

static unsigned lanes_of(hg_ir_type t) { return t.lanes ? t.lanes : 1; }
static bool is_fp(hg_ir_type t) { return t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64; }

/* "float4" / "double" for a floating-point type. */
static const char *fp_name(hg_ir_type t, char *b, size_t n) {
  unsigned lanes = lanes_of(t);
  const char *e = t.scalar == HG_IR_F64 ? "double" : "float";
  if (lanes > 1) snprintf(b, n, "%s%u", e, lanes);
  else snprintf(b, n, "%s", e);
  return b;
}

static bool is_int_type_name(const char *t) {
  return strncmp(t, "float", 5) && strncmp(t, "double", 6) && strncmp(t, "half", 4);
}

static const struct {
  const char *name;
  enum oc_fix fix;
} k_pi_zero[] = {{"sinpi", OC_FIX_SINPI}, {"cospi", OC_FIX_COSPI}, {"tanpi", OC_FIX_TANPI}, {"atanpi", OC_FIX_ATANPI}};

static hg_ir_type operand_type(const hg_ir_function *f, const hg_ir_inst *in, uint32_t i) {
  return i < in->num_operands && in->operands[i] < f->num_values ? f->values[in->operands[i]].type : hg_ir_ty(HG_IR_VOID, 1);
}

/* The correction call `in` of builtin `name` needs (OC_FIX_FRACT and OC_FIX_LGAMMA_R are the
 * out-pointer calls of oc_emit_fixed_out_call), or OC_FIX_COUNT for none. */
static enum oc_fix fix_of(const hg_ir_function *f, const hg_ir_inst *in, const char *name, bool relaxed_math) {
  if (!in->num_operands) return OC_FIX_COUNT;
  hg_ir_type t0 = operand_type(f, in, 0), rt = in->type;
  if ((!strcmp(name, "fract") || !strcmp(name, "lgamma_r")) && in->num_operands == 2 && is_fp(t0) &&
      operand_type(f, in, 1).scalar == HG_IR_PTR)
    return name[0] == 'f' ? OC_FIX_FRACT : OC_FIX_LGAMMA_R;
  if (!strcmp(name, "ilogb") && in->num_operands == 1 && is_fp(t0)) return OC_FIX_ILOGB;
  if (!strcmp(name, "mad_sat") && in->num_operands == 3 && rt.scalar == HG_IR_I64) return OC_FIX_MAD_SAT;
  if (!strcmp(name, "smoothstep") && in->num_operands == 3 && rt.scalar == HG_IR_F64) return OC_FIX_SMOOTHSTEP;
  if (!strcmp(name, "exp10") && in->num_operands == 1 && t0.scalar == HG_IR_F32 && relaxed_math)
    return OC_FIX_EXP10_RELAXED;
  for (size_t i = 0; i < sizeof k_pi_zero / sizeof *k_pi_zero; i++)
    if (!strcmp(name, k_pi_zero[i].name) && in->num_operands == 1 && is_fp(t0)) return k_pi_zero[i].fix;
  if (t0.scalar == HG_IR_F64 && lanes_of(t0) > 1 && in->num_operands == 2 &&
      lanes_of(operand_type(f, in, 1)) == lanes_of(t0)) { /* double vectors lane by lane */
    static const struct { const char *name; enum oc_fix fix; } lane_by_lane[] = {
        {"fmod", OC_FIX_FMOD_VECTOR}, {"pow", OC_FIX_POW_VECTOR},   {"powr", OC_FIX_POWR_VECTOR},
        {"pown", OC_FIX_POWN_VECTOR}, {"rootn", OC_FIX_ROOTN_VECTOR}, {"remainder", OC_FIX_REMAINDER_VECTOR}};
    for (size_t i = 0; i < sizeof lane_by_lane / sizeof *lane_by_lane; i++)
      if (!strcmp(name, lane_by_lane[i].name)) return lane_by_lane[i].fix;
  }
  if (!strcmp(name, "ldexp") && in->num_operands == 2 && is_fp(t0))
    return lanes_of(t0) > 1 && lanes_of(operand_type(f, in, 1)) == 1 ? OC_FIX_LDEXP_SPLAT : OC_FIX_LDEXP;
  if (!strcmp(name, "frexp") && in->num_operands == 2 && t0.scalar == HG_IR_F64 && lanes_of(t0) > 1 &&
      operand_type(f, in, 1).scalar == HG_IR_PTR)
    return OC_FIX_FREXP_VECTOR;
  if (!strcmp(name, "remquo") && in->num_operands == 3 && t0.scalar == HG_IR_F64 && lanes_of(t0) > 1 &&
      operand_type(f, in, 2).scalar == HG_IR_PTR)
    return OC_FIX_REMQUO_VECTOR;
  char dst[TB];
  bool sat = false;
  if (in->num_operands == 1 && is_fp(t0) && hg_ir_builtin_parse_convert(name, dst, sizeof dst, &sat, NULL) && sat &&
      is_int_type_name(dst))
    return OC_FIX_NAN_TO_ZERO;
  return OC_FIX_COUNT;
}

bool hg_lower_opencl_c_corrects(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in) {
  if (in->op != HG_OP_CALL_BUILTIN || !in->num_imm || in->imm[0] >= m->num_strings) return false;
  return fix_of(f, in, m->strings[in->imm[0]], oc_relaxed_math(m)) != OC_FIX_COUNT;
}

/* The corrections whose builtin writes a result through a pointer (oc_emit_fixed_out_call). */
static bool writes_through_pointer(enum oc_fix fix) {
  return fix == OC_FIX_FRACT || fix == OC_FIX_LGAMMA_R || fix == OC_FIX_FREXP_VECTOR || fix == OC_FIX_REMQUO_VECTOR;
}

bool oc_fix_call_for(oc_ctx *c, const hg_ir_inst *in, const char *name, oc_fix_call *fx) {
  memset(fx, 0, sizeof *fx);
  enum oc_fix fix = fix_of(c->f, in, name, c->relaxed_math);
  if (fix == OC_FIX_COUNT || writes_through_pointer(fix)) return false;
  hg_ir_type t0 = oc_vtype(c, in->operands[0]), rt = in->type;
  unsigned lanes = lanes_of(t0);
  char tb[TB];
  switch (fix) {
  case OC_FIX_MAD_SAT: {
    bool is_unsigned = in->flags & 1;
    c->fix_mask[fix] |= fix_bit(is_unsigned, lanes_of(rt));
    if (lanes_of(rt) > 1) snprintf(fx->callee, sizeof fx->callee, "hg_mad_sat_%s%u", is_unsigned ? "ulong" : "long", rt.lanes);
    else snprintf(fx->callee, sizeof fx->callee, "hg_mad_sat_%s", is_unsigned ? "ulong" : "long");
    return true;
  }
  case OC_FIX_SMOOTHSTEP:
    /* the edges may be scalars beside a vector x: each argument is cast to the result type */
    c->fix_mask[fix] |= fix_bit(1, lanes_of(rt));
    snprintf(fx->callee, sizeof fx->callee, "hg_smoothstep_%s", fp_name(rt, tb, sizeof tb));
    snprintf(fx->arg_open, sizeof fx->arg_open, "(%s)(", tb);
    return true;
  case OC_FIX_NAN_TO_ZERO:
    c->fix_mask[fix] |= fix_bit(t0.scalar == HG_IR_F64, lanes);
    snprintf(fx->arg_open, sizeof fx->arg_open, "hg_nan0_%s(", fp_name(t0, tb, sizeof tb));
    return true;
  case OC_FIX_LDEXP_SPLAT:
    c->fix_mask[fix] |= fix_bit(t0.scalar == HG_IR_F64, lanes);
    c->fix_mask[OC_FIX_LDEXP] |= fix_bit(t0.scalar == HG_IR_F64, lanes); /* what it calls */
    snprintf(fx->callee, sizeof fx->callee, "hg_ldexp_splat_%s", fp_name(t0, tb, sizeof tb));
    return true;
  default: /* a helper named after the builtin and the argument's type */
    c->fix_mask[fix] |= fix_bit(t0.scalar == HG_IR_F64, lanes);
    snprintf(fx->callee, sizeof fx->callee, "hg_%s_%s", name, fp_name(t0, tb, sizeof tb));
    return true;
  }
}

/* fract, lgamma_r and the double-vector frexp and remquo write through a pointer (their last
 * operand) in any address space, and OpenCL C 1.2 has no generic one: the helper writes a
 * private temporary, stored through the call's pointer after (vstore3 for 3 lanes, which writes
 * exactly the 3 elements). */
bool oc_emit_fixed_out_call(oc_ctx *c, const hg_ir_inst *in, const char *name) {
  enum oc_fix which = fix_of(c->f, in, name, c->relaxed_math);
  if (!writes_through_pointer(which)) return false;
  bool fract = which == OC_FIX_FRACT;
  uint32_t out = in->num_operands - 1; /* the pointer */
  hg_ir_type t = oc_vtype(c, in->operands[0]);
  unsigned lanes = lanes_of(t);
  c->fix_mask[which] |= fix_bit(t.scalar == HG_IR_F64, lanes);
  char ft[TB], ot[TB];
  fp_name(t, ft, sizeof ft);
  const char *elem = fract ? (t.scalar == HG_IR_F64 ? "double" : "float") : "int";
  if (lanes > 1) snprintf(ot, sizeof ot, "%s%u", elem, lanes);
  else snprintf(ot, sizeof ot, "%s", elem);
  unsigned k = c->tmp_counter++;
  oc_printf(c->body, "  { %s hg_fx%u = (%s)(0); ", ot, k, ot);
  if (in->id != HG_IR_NONE && in->type.scalar != HG_IR_VOID) {
    oc_res(c, c->body, in);
    oc_puts(c->body, " = ");
  }
  oc_printf(c->body, "hg_%s_%s(", name, ft);
  for (uint32_t i = 0; i < out; i++) {
    oc_value_f(c, c->body, in->operands[i]);
    oc_puts(c->body, ", ");
  }
  oc_printf(c->body, "&hg_fx%u); ", k);
  if (lanes == 3) {
    oc_printf(c->body, "vstore3(hg_fx%u, 0, ", k);
    oc_ptr_as(c, c->body, in->operands[out], elem, false);
    oc_puts(c->body, "); }\n");
  } else {
    oc_puts(c->body, "*");
    oc_ptr_as(c, c->body, in->operands[out], ot, false);
    oc_printf(c->body, " = hg_fx%u; }\n", k);
  }
  return true;
}
