/* F and D against IEEE 754 references: results and fflags for every operation over special
 * values (zeros, subnormals, infinities, quiet and signaling NaNs, ties) in every rounding mode
 * (static and dynamic), NaN boxing, canonical NaNs, fmin/fmax rules, fcvt saturation, fclass,
 * compare flags, fcsr/frm/fflags access. The host references are written here, independently
 * of devices/riscv/sim/fp.h; fixed known answers pin the edge cases. */
#include <fenv.h>
#include <math.h>

#include "enc.h"
#include "util.h"

enum { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };
#define BOX(b) (0xffffffff00000000ull | (uint32_t)(b))
#define CN_S 0x7fc00000u
#define CN_D 0x7ff8000000000000ull

typedef struct fcase {
  uint64_t a[8];
  uint64_t r0, r1;
  int want_illegal;
  char what[112];
} fcase;

static hg_t_prog prog;
static fcase *cases;
static size_t ncases, cap;

/* fmv f1..f3 <- a1..a3, frm <- a4, the operation, result -> a0, fflags -> a1 */
static void add(uint32_t insn, int fp_dest, uint64_t a1, uint64_t a2, uint64_t a3, unsigned frm, uint64_t r0,
                uint64_t flags, const char *what) {
  uint32_t w[9];
  size_t n = 0;
  w[n++] = FMV_D_X(1, A1);
  w[n++] = FMV_D_X(2, A2);
  w[n++] = FMV_D_X(3, A3);
  w[n++] = CSRRW(X0, 0x002, A4);
  w[n++] = insn;
  if (fp_dest) w[n++] = FMV_X_D(A0, 0);
  w[n++] = CSRRS(A1, 0x001, X0);
  w[n++] = ECALL;
  size_t i = hg_t_case(&prog, w, n);
  if (i >= cap) {
    cap = cap ? cap * 2 : 1024;
    cases = realloc(cases, cap * sizeof *cases);
  }
  fcase *c = &cases[i];
  memset(c, 0, sizeof *c);
  c->a[1] = a1;
  c->a[2] = a2;
  c->a[3] = a3;
  c->a[4] = frm;
  c->a[7] = 93;
  c->r0 = r0;
  c->r1 = flags;
  snprintf(c->what, sizeof c->what, "%s", what);
  ncases = i + 1;
}

/* ---- host references ---- */
static float f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t b32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static double f64(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static uint64_t b64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }
static uint32_t unbox(uint64_t r) { return (uint32_t)(r >> 32) == 0xffffffffu ? (uint32_t)r : CN_S; }
static unsigned host_flags(void) {
  int e = fetestexcept(FE_ALL_EXCEPT);
  return (e & FE_INEXACT ? NX : 0) | (e & FE_UNDERFLOW ? UF : 0) | (e & FE_OVERFLOW ? OF : 0) |
         (e & FE_DIVBYZERO ? DZ : 0) | (e & FE_INVALID ? NV : 0);
}
static const int host_rm[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

enum op { ADD_, SUB_, MUL_, DIV_, SQRT_, MADD_, MSUB_, NMSUB_, NMADD_, NOPS_ARITH };
static const char *const opname[] = {"fadd", "fsub", "fmul", "fdiv", "fsqrt", "fmadd", "fmsub", "fnmsub", "fnmadd"};

static uint32_t enc_arith(enum op o, int dbl, unsigned rm) {
  static const unsigned f7[] = {0x00, 0x04, 0x08, 0x0c, 0x2c};
  if (o <= SQRT_) return enc_r(0x53, rm, f7[o] | (unsigned)dbl, 0, 1, o == SQRT_ ? 0 : 2);
  return enc_r4(0x43 + 4 * (unsigned)(o - MADD_), (unsigned)dbl, rm, 0, 1, 2, 3);
}

static volatile double vd1, vd2, vd3;
static volatile float vs1, vs2, vs3;

static void ref_arith(enum op o, int dbl, uint64_t a1, uint64_t a2, uint64_t a3, unsigned rm, uint64_t *res,
                      unsigned *fl) {
  fesetround(host_rm[rm]);
  feclearexcept(FE_ALL_EXCEPT);
  unsigned extra = 0;
  if (dbl) {
    vd1 = f64(a1); vd2 = f64(a2); vd3 = f64(a3);
    double r;
    switch (o) {
    case ADD_: r = vd1 + vd2; break;
    case SUB_: r = vd1 - vd2; break;
    case MUL_: r = vd1 * vd2; break;
    case DIV_: r = vd1 / vd2; break;
    case SQRT_: r = sqrt(vd1); break;
    case MADD_: r = fma(vd1, vd2, vd3); break;
    case MSUB_: r = fma(vd1, vd2, -vd3); break;
    case NMSUB_: r = fma(-vd1, vd2, vd3); break;
    default: r = fma(-vd1, vd2, -vd3); break;
    }
    if (o >= MADD_ && ((isinf(f64(a1)) && f64(a2) == 0) || (f64(a1) == 0 && isinf(f64(a2))))) extra = NV;
    *res = isnan(r) ? CN_D : b64(r);
  } else {
    uint32_t x = unbox(a1), y = unbox(a2), z = unbox(a3);
    vs1 = f32(x); vs2 = f32(y); vs3 = f32(z);
    float r;
    switch (o) {
    case ADD_: r = vs1 + vs2; break;
    case SUB_: r = vs1 - vs2; break;
    case MUL_: r = vs1 * vs2; break;
    case DIV_: r = vs1 / vs2; break;
    case SQRT_: r = sqrtf(vs1); break;
    case MADD_: r = fmaf(vs1, vs2, vs3); break;
    case MSUB_: r = fmaf(vs1, vs2, -vs3); break;
    case NMSUB_: r = fmaf(-vs1, vs2, vs3); break;
    default: r = fmaf(-vs1, vs2, -vs3); break;
    }
    if (o >= MADD_ && ((isinf(f32(x)) && f32(y) == 0) || (f32(x) == 0 && isinf(f32(y))))) extra = NV;
    *res = BOX(isnan(r) ? CN_S : b32(r));
  }
  *fl = host_flags() | extra;
  fesetround(FE_TONEAREST);
  feclearexcept(FE_ALL_EXCEPT);
}

static const uint32_t sv[] = {0, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x40200000, 0x00800000, 0x007fffff,
                              0x00000001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fc12345,
                              0xffc00000, 0x7f800001, 0x7fa00000, 0x40400000, 0x3eaaaaab, 0x3f800001, 0x4b000001,
                              0x33800000, 0x34000000, 0x0c000000};
static const uint64_t dv[] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                              0x3ff8000000000000ull, 0x4004000000000000ull, 0x0010000000000000ull,
                              0x000fffffffffffffull, 1, 0x7fefffffffffffffull, 0xffefffffffffffffull,
                              0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                              0x7ff8000000012345ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
                              0x7ff4000000000000ull, 0x4008000000000000ull, 0x3fd5555555555555ull,
                              0x3ff0000000000001ull, 0x4330000000000001ull, 0x3ca0000000000000ull,
                              0x3cb0000000000000ull, 0x0180000000000000ull};
#define NSV (sizeof sv / sizeof sv[0])
#define NDV (sizeof dv / sizeof dv[0])

static uint64_t pick_s(void) {
  uint64_t r = hg_t_rand();
  if ((r & 7) == 0) return r >> 3;            /* improperly boxed: reads as the canonical NaN */
  if ((r & 7) < 5) return BOX(sv[(r >> 8) % NSV]);
  return BOX((uint32_t)hg_t_rand());
}
static uint64_t pick_d(void) {
  uint64_t r = hg_t_rand();
  if ((r & 3) < 3) return dv[(r >> 8) % NDV];
  return hg_t_rand();
}

static void build_arith(void) {
  char what[112];
  for (int dbl = 0; dbl < 2; dbl++)
    for (int o = 0; o < NOPS_ARITH; o++)
      for (int k = 0; k < 220; k++) {
        uint64_t a1 = dbl ? pick_d() : pick_s(), a2 = dbl ? pick_d() : pick_s(), a3 = dbl ? pick_d() : pick_s();
        unsigned rm = (unsigned)hg_t_rand() % 4;
        int dyn = k & 1;
        unsigned frm = dyn ? rm : (unsigned)(hg_t_rand() % 4);
        uint64_t res;
        unsigned fl;
        ref_arith((enum op)o, dbl, a1, a2, a3, rm, &res, &fl);
        snprintf(what, sizeof what, "%s.%c rm=%u%s (%#" PRIx64 ", %#" PRIx64 ", %#" PRIx64 ")", opname[o],
                 dbl ? 'd' : 's', rm, dyn ? " dyn" : "", a1, a2, a3);
        add(enc_arith((enum op)o, dbl, dyn ? 7 : rm), 1, a1, a2, a3, frm, res, fl, what);
      }
}

static void build_known(void) {
  /* rounding of a tie: 1 + 2^-53 */
  uint64_t one = 0x3ff0000000000000ull, h = 0x3ca0000000000000ull;
  add(enc_arith(ADD_, 1, 0), 1, one, h, 0, 0, one, NX, "1 + 2^-53 RNE");
  add(enc_arith(ADD_, 1, 3), 1, one, h, 0, 0, one + 1, NX, "1 + 2^-53 RUP");
  add(enc_arith(ADD_, 1, 7), 1, one, h, 0, 3, one + 1, NX, "1 + 2^-53 dynamic RUP");
  add(enc_arith(ADD_, 1, 1), 1, one | (1ull << 63), h | (1ull << 63), 0, 0, one | (1ull << 63), NX, "-1 - 2^-53 RTZ");
  add(enc_arith(ADD_, 1, 2), 1, one | (1ull << 63), h | (1ull << 63), 0, 0, (one + 1) | (1ull << 63), NX, "-1 - 2^-53 RDN");
  /* exceptions */
  add(enc_arith(DIV_, 1, 0), 1, one, 0, 0, 0, 0x7ff0000000000000ull, DZ, "1/0");
  add(enc_arith(DIV_, 1, 0), 1, 0, 0, 0, 0, CN_D, NV, "0/0 canonical NaN");
  add(enc_arith(SQRT_, 1, 0), 1, one | (1ull << 63), 0, 0, 0, CN_D, NV, "sqrt(-1)");
  add(enc_arith(MUL_, 1, 0), 1, 0x7fefffffffffffffull, 0x4000000000000000ull, 0, 0, 0x7ff0000000000000ull, OF | NX, "overflow");
  add(enc_arith(MUL_, 1, 1), 1, 0x7fefffffffffffffull, 0x4000000000000000ull, 0, 0, 0x7fefffffffffffffull, OF | NX, "overflow RTZ");
  add(enc_arith(MUL_, 1, 0), 1, 0x0010000000000000ull, 0x3fe0000000000000ull, 0, 0, 0x0008000000000000ull, 0, "exact subnormal: no UF");
  add(enc_arith(DIV_, 1, 0), 1, 0x0010000000000000ull, 0x4008000000000000ull, 0, 0, 0x0005555555555555ull, UF | NX, "tiny inexact: UF");
  add(enc_arith(ADD_, 1, 0), 1, 0x7ff8000000012345ull, one, 0, 0, CN_D, 0, "qNaN payload not propagated");
  add(enc_arith(ADD_, 1, 0), 1, 0x7ff0000000000001ull, one, 0, 0, CN_D, NV, "sNaN input raises NV");
  add(enc_arith(MADD_, 1, 0), 1, 0x7ff0000000000000ull, 0, CN_D, 0, CN_D, NV, "fma inf*0+qNaN raises NV");
  /* fused: (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105 exactly (an unfused multiply-add gives 0) */
  add(enc_arith(MADD_, 1, 0), 1, 0x3ff0000000000001ull, 0x3fefffffffffffffull, 0xbff0000000000000ull, 0,
      0x3c9ffffffffffffeull, 0, "fma is fused");
  /* single precision: NaN boxing */
  add(enc_arith(ADD_, 0, 0), 1, 0x000000003f800000ull, BOX(0x3f800000), 0, 0, BOX(CN_S), 0, "unboxed input is NaN");
  add(enc_r(0x53, 0, 0x10, 0, 1, 2), 1, 0x3f800000ull, BOX(0x80000000), 0, 0, BOX(0xffc00000), 0, "fsgnj.s unboxed");
  add(enc_r(0x53, 0, 0x70, A0, 1, 0), 0, 0x12345678bf800000ull, 0, 0, 0, 0xffffffffbf800000ull, 0, "fmv.x.w sign-extends, no unbox");
  add(enc_r(0x53, 0, 0x78, 0, A1, 0), 1, 0x123456783f800000ull, 0, 0, 0, BOX(0x3f800000), 0, "fmv.w.x boxes");
  add(enc_r(0x53, 0, 0x20, 0, 1, 1), 1, 0x7ff0000000000001ull, 0, 0, 0, BOX(CN_S), NV, "fcvt.s.d sNaN");
  add(enc_r(0x53, 0, 0x20, 0, 1, 1), 1, 0x47f0000000000000ull, 0, 0, 0, BOX(0x7f800000), OF | NX, "fcvt.s.d overflow");
  add(enc_r(0x53, 1, 0x20, 0, 1, 1), 1, 0x47f0000000000000ull, 0, 0, 0, BOX(0x7f7fffff), OF | NX, "fcvt.s.d overflow RTZ");
  add(enc_r(0x53, 0, 0x21, 0, 1, 0), 1, BOX(0x7fa00000), 0, 0, 0, CN_D, NV, "fcvt.d.s sNaN");
  add(enc_r(0x53, 0, 0x21, 0, 1, 0), 1, BOX(0x00000001), 0, 0, 0, 0x36a0000000000000ull, 0, "fcvt.d.s subnormal exact");
  /* fmin / fmax */
  struct { int dbl, max; uint64_t a, b, r; unsigned fl; const char *n; } mm[] = {
      {1, 0, CN_D, one, one, 0, "fmin(qNaN, 1)"}, {1, 1, one, CN_D, one, 0, "fmax(1, qNaN)"},
      {1, 0, 0x7ff0000000000001ull, one, one, NV, "fmin(sNaN, 1)"}, {1, 0, CN_D, 0xfff8000000000000ull, CN_D, 0, "fmin(NaN, NaN)"},
      {1, 0, 0, 1ull << 63, 1ull << 63, 0, "fmin(+0, -0)"}, {1, 1, 1ull << 63, 0, 0, 0, "fmax(-0, +0)"},
      {1, 1, 0xfff0000000000000ull, one, one, 0, "fmax(-inf, 1)"},
      {0, 0, BOX(CN_S), BOX(0x3f800000), BOX(0x3f800000), 0, "fmin.s(qNaN, 1)"},
      {0, 1, BOX(0x7f800001), BOX(0xbf800000), BOX(0xbf800000), NV, "fmax.s(sNaN, -1)"},
      {0, 0, BOX(0x80000000), BOX(0), BOX(0x80000000), 0, "fmin.s(-0, +0)"},
      {0, 1, 0x1234ull, 0x5678ull, BOX(CN_S), 0, "fmax.s two unboxed"},
  };
  for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++)
    add(enc_r(0x53, (unsigned)mm[i].max, 0x14 | (unsigned)mm[i].dbl, 0, 1, 2), 1, mm[i].a, mm[i].b, 0, 0, mm[i].r, mm[i].fl, mm[i].n);
  /* compares */
  struct { int dbl; unsigned f3; uint64_t a, b, r; unsigned fl; const char *n; } cmp[] = {
      {1, 2, CN_D, CN_D, 0, 0, "feq qNaN: quiet"}, {1, 2, 0x7ff0000000000001ull, one, 0, NV, "feq sNaN: NV"},
      {1, 1, CN_D, one, 0, NV, "flt qNaN: NV"}, {1, 0, one, CN_D, 0, NV, "fle qNaN: NV"},
      {1, 2, 0, 1ull << 63, 1, 0, "feq +0 -0"}, {1, 1, 1ull << 63, 0, 0, 0, "flt -0 +0"}, {1, 0, 1ull << 63, 0, 1, 0, "fle -0 +0"},
      {0, 1, BOX(0xbf800000), BOX(0x3f800000), 1, 0, "flt.s -1 1"}, {0, 2, 0x3f800000ull, 0x3f800000ull, 0, 0, "feq.s unboxed"},
  };
  for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++)
    add(enc_r(0x53, cmp[i].f3, 0x50 | (unsigned)cmp[i].dbl, A0, 1, 2), 0, cmp[i].a, cmp[i].b, 0, 0, cmp[i].r, cmp[i].fl, cmp[i].n);
  /* fclass */
  struct { int dbl; uint64_t v; unsigned cls; } fc[] = {
      {1, 0xfff0000000000000ull, 0}, {1, 0xbff0000000000000ull, 1}, {1, 0x800fffffffffffffull, 2}, {1, 1ull << 63, 3},
      {1, 0, 4}, {1, 1, 5}, {1, one, 6}, {1, 0x7ff0000000000000ull, 7}, {1, 0x7ff0000000000001ull, 8}, {1, CN_D, 9},
      {0, BOX(0xff800000), 0}, {0, BOX(0xbf800000), 1}, {0, BOX(0x807fffff), 2}, {0, BOX(0x80000000), 3}, {0, BOX(0), 4},
      {0, BOX(1), 5}, {0, BOX(0x3f800000), 6}, {0, BOX(0x7f800000), 7}, {0, BOX(0x7f800001), 8}, {0, BOX(CN_S), 9},
      {0, 0x3f800000ull, 9},
  };
  for (size_t i = 0; i < sizeof fc / sizeof fc[0]; i++) {
    char n[64];
    snprintf(n, sizeof n, "fclass.%c %#" PRIx64, fc[i].dbl ? 'd' : 's', fc[i].v);
    add(enc_r(0x53, 1, 0x70 | (unsigned)fc[i].dbl, A0, 1, 0), 0, fc[i].v, 0, 0, 0, 1ull << fc[i].cls, 0, n);
  }
  /* fcvt to integer: saturation, rounding, flags; W results sign-extend (also unsigned) */
  struct { int dbl; unsigned kind, rm; uint64_t v, r; unsigned fl; const char *n; } cv[] = {
      {1, 0, 0, CN_D, 0x7fffffffull, NV, "fcvt.w.d NaN"},
      {1, 0, 0, 0x41e65a0bc0000000ull, 0x7fffffffull, NV, "fcvt.w.d 3e9"},
      {1, 0, 0, 0xc1e65a0bc0000000ull, 0xffffffff80000000ull, NV, "fcvt.w.d -3e9"},
      {1, 0, 0, 0xfff0000000000000ull, 0xffffffff80000000ull, NV, "fcvt.w.d -inf"},
      {1, 0, 0, 0x3ff8000000000000ull, 2, NX, "fcvt.w.d 1.5 RNE"},
      {1, 0, 0, 0x4004000000000000ull, 2, NX, "fcvt.w.d 2.5 RNE"},
      {1, 0, 4, 0x4004000000000000ull, 3, NX, "fcvt.w.d 2.5 RMM"},
      {1, 0, 4, 0xc004000000000000ull, (uint64_t)-3, NX, "fcvt.w.d -2.5 RMM"},
      {1, 0, 1, 0xbff8000000000000ull, (uint64_t)-1, NX, "fcvt.w.d -1.5 RTZ"},
      {1, 0, 2, 0xbff8000000000000ull, (uint64_t)-2, NX, "fcvt.w.d -1.5 RDN"},
      {1, 0, 3, 0x3ff8000000000000ull, 2, NX, "fcvt.w.d 1.5 RUP"},
      {1, 0, 1, 0x41dfffffffc00000ull, 0x7fffffffull, 0, "fcvt.w.d 2^31-1 exact"},
      {1, 0, 1, 0x41dfffffffe00000ull, 0x7fffffffull, NX, "fcvt.w.d 2^31-0.5 RTZ"},
      {1, 0, 3, 0x41dfffffffe00000ull, 0x7fffffffull, NV, "fcvt.w.d 2^31-0.5 RUP overflows"},
      {1, 1, 0, 0xbff0000000000000ull, 0, NV, "fcvt.wu.d -1"},
      {1, 1, 1, 0xbfe0000000000000ull, 0, NX, "fcvt.wu.d -0.5 RTZ"},
      {1, 1, 0, 0x41edcd6500000000ull, 0xffffffffee6b2800ull, 0, "fcvt.wu.d 4e9 sign-extends"},
      {1, 1, 0, CN_D, ~0ull, NV, "fcvt.wu.d NaN"},
      {1, 2, 0, 0x43e0000000000000ull, 0x7fffffffffffffffull, NV, "fcvt.l.d 2^63"},
      {1, 2, 0, 0xc3e0000000000000ull, 0x8000000000000000ull, 0, "fcvt.l.d -2^63 exact"},
      {1, 3, 0, 0x43f0000000000000ull, ~0ull, NV, "fcvt.lu.d 2^64"},
      {1, 3, 0, 0x43efffffffffffffull, 0xfffffffffffff800ull, 0, "fcvt.lu.d below 2^64"},
      {1, 3, 0, 0x7ff0000000000000ull, ~0ull, NV, "fcvt.lu.d inf"},
      {1, 3, 0, 0xfff0000000000000ull, 0, NV, "fcvt.lu.d -inf"},
      {0, 0, 0, BOX(0x7f800001), 0x7fffffffull, NV, "fcvt.w.s sNaN"},
      {0, 2, 0, BOX(0xff800000), 0x8000000000000000ull, NV, "fcvt.l.s -inf"},
      {0, 0, 4, BOX(0x3f000000), 1, NX, "fcvt.w.s 0.5 RMM"},
      {0, 0, 0, BOX(0x3f000000), 0, NX, "fcvt.w.s 0.5 RNE"},
      {0, 1, 0, 0x3f800000ull, ~0ull, NV, "fcvt.wu.s unboxed = NaN"},
  };
  for (size_t i = 0; i < sizeof cv / sizeof cv[0]; i++)
    add(enc_r(0x53, cv[i].rm, 0x60 | (unsigned)cv[i].dbl, A0, 1, cv[i].kind), 0, cv[i].v, 0, 0, 0, cv[i].r, cv[i].fl, cv[i].n);
  /* integer -> float: rounding mode applies */
  add(enc_r(0x53, 0, 0x68, 0, A1, 0), 1, 16777217, 0, 0, 0, BOX(0x4b800000), NX, "fcvt.s.w 2^24+1 RNE");
  add(enc_r(0x53, 3, 0x68, 0, A1, 0), 1, 16777217, 0, 0, 0, BOX(0x4b800001), NX, "fcvt.s.w 2^24+1 RUP");
  add(enc_r(0x53, 0, 0x68, 0, A1, 1), 1, 0xffffffffull, 0, 0, 0, BOX(0x4f800000), NX, "fcvt.s.wu 2^32-1");
  add(enc_r(0x53, 0, 0x69, 0, A1, 3), 1, ~0ull, 0, 0, 0, 0x43f0000000000000ull, NX, "fcvt.d.lu 2^64-1");
  add(enc_r(0x53, 1, 0x69, 0, A1, 3), 1, ~0ull, 0, 0, 0, 0x43efffffffffffffull, NX, "fcvt.d.lu 2^64-1 RTZ");
  add(enc_r(0x53, 0, 0x69, 0, A1, 2), 1, (uint64_t)-5, 0, 0, 0, 0xc014000000000000ull, 0, "fcvt.d.l -5");
  add(enc_r(0x53, 0, 0x69, 0, A1, 0), 1, 0x1ffffffffull, 0, 0, 0, 0xbff0000000000000ull, 0, "fcvt.d.w uses low 32 bits");
  /* sign injection (D) */
  add(enc_r(0x53, 0, 0x11, 0, 1, 2), 1, one, 1ull << 63, 0, 0, one | 1ull << 63, 0, "fsgnj.d");
  add(enc_r(0x53, 1, 0x11, 0, 1, 2), 1, one, 1ull << 63, 0, 0, one, 0, "fsgnjn.d");
  add(enc_r(0x53, 2, 0x11, 0, 1, 2), 1, one | 1ull << 63, 1ull << 63, 0, 0, one, 0, "fsgnjx.d");
  add(enc_r(0x53, 2, 0x10, 0, 1, 2), 1, BOX(0xbf800000), BOX(0x80000000), 0, 0, BOX(0x3f800000), 0, "fsgnjx.s");
  add(enc_r(0x53, 0, 0x11, 0, 1, 2), 1, 0x7ff0000000000001ull, 1ull << 63, 0, 0, 0xfff0000000000001ull, 0, "fsgnj keeps sNaN, no NV");
}

/* fcsr, frm, fflags, and an invalid frm with a dynamic rounding mode */
static void build_csr(void) {
  uint32_t w[8] = {ADDI(A1, X0, 0x7f), CSRRW(A0, 0x003, A1), CSRRS(A0, 0x002, X0), CSRRS(A1, 0x001, X0), ECALL};
  size_t i = hg_t_case(&prog, w, 5);
  cases = realloc(cases, (cap = cap > i + 8 ? cap : i + 1024) * sizeof *cases);
  memset(&cases[i], 0, sizeof cases[i]);
  cases[i].a[7] = 93;
  cases[i].r0 = 3;
  cases[i].r1 = 0x1f;
  snprintf(cases[i].what, sizeof cases[i].what, "fcsr write splits into frm and fflags");
  ncases = i + 1;
  uint32_t w2[4] = {ADDI(A4, X0, 5), CSRRW(X0, 0x002, A4), enc_arith(ADD_, 1, 7), ECALL};
  i = hg_t_case(&prog, w2, 4);
  memset(&cases[i], 0, sizeof cases[i]);
  cases[i].a[7] = 93;
  cases[i].want_illegal = 1;
  snprintf(cases[i].what, sizeof cases[i].what, "dynamic rounding with frm=5 is illegal");
  ncases = i + 1;
  uint32_t w3[5] = {ADDI(A4, X0, 5), CSRRW(X0, 0x002, A4), enc_arith(ADD_, 1, 1), CSRRS(A0, 0x002, X0), ECALL};
  i = hg_t_case(&prog, w3, 5);
  memset(&cases[i], 0, sizeof cases[i]);
  cases[i].a[7] = 93;
  cases[i].r0 = 5;
  snprintf(cases[i].what, sizeof cases[i].what, "static rounding with frm=5 is fine");
  ncases = i + 1;
  /* flags accrue across instructions and are cleared by a write */
  uint32_t w4[8] = {FMV_D_X(1, A1), FMV_D_X(2, A2), enc_arith(DIV_, 1, 0), enc_arith(DIV_, 1, 0) | 0, CSRRW(A0, 0x001, X0),
                    CSRRS(A1, 0x001, X0), ECALL};
  w4[3] = enc_r(0x53, 0, 0x0d, 0, 2, 2); /* 0/0 */
  i = hg_t_case(&prog, w4, 7);
  memset(&cases[i], 0, sizeof cases[i]);
  cases[i].a[1] = 0x3ff0000000000000ull;
  cases[i].a[2] = 0;
  cases[i].a[7] = 93;
  cases[i].r0 = DZ | NV;
  cases[i].r1 = 0;
  snprintf(cases[i].what, sizeof cases[i].what, "flags accrue, csrrw clears");
  ncases = i + 1;
}

int main(void) {
  hg_t_seed(0xf00dull ^ (uint64_t)time(NULL));
  build_arith();
  build_known();
  build_csr();
  hg_sim_machine *m;
  CHECK(hg_sim_create(NULL, &m) == HG_SIM_OK, "create");
  CHECK(hg_t_load(m, &prog) == HG_SIM_OK, "load");
  hg_sim_job *jobs = calloc(ncases, sizeof *jobs);
  hg_sim_job_result *res = calloc(ncases, sizeof *res);
  for (size_t i = 0; i < ncases; i++) {
    jobs[i].pc = hg_t_case_pc(i);
    memcpy(jobs[i].a, cases[i].a, sizeof jobs[i].a);
  }
  /* one job per launch where a job faults on purpose; the rest in one launch */
  for (size_t i = 0; i < ncases; i++) {
    if (!cases[i].want_illegal) continue;
    hg_sim_launch l1 = {.jobs = &jobs[i], .njobs = 1, .results = &res[i]};
    int rc = hg_sim_run(m, &l1);
    CHECK(rc == HG_SIM_EFAULT && l1.fault.kind == HG_SIM_FAULT_ILLEGAL && l1.fault.pc == jobs[i].pc + 8,
          "%s: rc %d kind %d pc %#" PRIx64, cases[i].what, rc, l1.fault.kind, l1.fault.pc);
    jobs[i].pc = hg_t_case_pc(0);
    memcpy(jobs[i].a, cases[0].a, sizeof jobs[i].a);
    cases[i] = cases[0];
  }
  hg_sim_launch l = {.jobs = jobs, .njobs = ncases, .results = res};
  int rc = hg_sim_run(m, &l);
  CHECK(rc == HG_SIM_OK, "launch rc %d (%s at pc %#" PRIx64 ", job %zu)", rc, hg_sim_fault_name(l.fault.kind), l.fault.pc,
        l.fault.job);
  for (size_t i = 0; i < ncases; i++) {
    CHECK(res[i].status == HG_SIM_JOB_DONE, "%s: status %d", cases[i].what, res[i].status);
    CHECK(res[i].ret[0] == cases[i].r0 && res[i].ret[1] == cases[i].r1,
          "%s: got %#" PRIx64 " flags %#" PRIx64 ", expected %#" PRIx64 " flags %#" PRIx64, cases[i].what, res[i].ret[0],
          res[i].ret[1], cases[i].r0, cases[i].r1);
  }
  printf("%zu FP cases\n", ncases);
  free(jobs);
  free(res);
  hg_sim_destroy(m);
  free(prog.words);
  free(cases);
  return hg_t_finish();
}
