/* Internal helpers of the RISC-V device runtime (device side; also compiled for the host by the
 * tests). Freestanding C11: no libc, no libm. Every FP operation here must round once, in
 * round-to-nearest-even, exactly as written: the runtime is built with -ffp-contract=off and
 * without fast-math, so (a + b) - b is never folded and a * b + c never becomes an fma unless
 * rt_fma says so. */
#ifndef HG_RT_INTERNAL_H
#define HG_RT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define RT_API __attribute__((used))
#define RT_INLINE static inline __attribute__((always_inline))

typedef struct rt_dd {
  double hi, lo;
} rt_dd;

RT_INLINE uint64_t rt_bits(double x) {
  union { double d; uint64_t u; } v = {x};
  return v.u;
}
RT_INLINE double rt_from_bits(uint64_t u) {
  union { uint64_t u; double d; } v = {u};
  return v.d;
}
RT_INLINE uint32_t rt_bitsf(float x) {
  union { float f; uint32_t u; } v = {x};
  return v.u;
}
RT_INLINE float rt_from_bitsf(uint32_t u) {
  union { uint32_t u; float f; } v = {u};
  return v.f;
}

/* Native instructions: fsgnj*, fmadd, fsqrt, fmin/fmax (RISC-V F/D 2.2 semantics: a NaN operand
 * is ignored, two NaNs give the canonical NaN, -0 < +0). */
#define rt_fabs(x) __builtin_fabs(x)
#define rt_copysign(x, y) __builtin_copysign((x), (y))
#define rt_fma(a, b, c) __builtin_fma((a), (b), (c))
#define rt_sqrt(x) __builtin_sqrt(x)

/* fmin/fmax: the RISC-V instructions on the device; on the host (tests) the same semantics in C,
 * since libm's fmin treats signaling NaNs differently (IEEE 754-2008 minNum). */
#if defined(__riscv)
#define rt_fmin(x, y) __builtin_fmin((x), (y))
#define rt_fmax(x, y) __builtin_fmax((x), (y))
#define rt_fminf(x, y) __builtin_fminf((x), (y))
#define rt_fmaxf(x, y) __builtin_fmaxf((x), (y))
#else
#define RT_HOST_MINMAX(name, T, U, BITS, pick_lt)                                                   \
  static inline T name(T x, T y) {                                                                 \
    if (x != x) return (y != y) ? (T)__builtin_nan("") : y;                                        \
    if (y != y) return x;                                                                          \
    if (x == y) { /* equal: +-0 pairs resolve by sign, -0 < +0 */                                   \
      union { T f; U u; } a = {x}, b = {y};                                                        \
      a.u = pick_lt ? (a.u | b.u) : (a.u & b.u);                                                   \
      return a.f;                                                                                  \
    }                                                                                              \
    return pick_lt ? (x < y ? x : y) : (x > y ? x : y);                                            \
  }
RT_HOST_MINMAX(rt_fmin, double, uint64_t, 64, 1)
RT_HOST_MINMAX(rt_fmax, double, uint64_t, 64, 0)
RT_HOST_MINMAX(rt_fminf, float, uint32_t, 32, 1)
RT_HOST_MINMAX(rt_fmaxf, float, uint32_t, 32, 0)
#endif

#define RT_INF __builtin_inf()
#define RT_NAN __builtin_nan("")
#define RT_INFF __builtin_inff()
#define RT_NANF __builtin_nanf("")

RT_INLINE int rt_isnan(double x) { return x != x; }
RT_INLINE int rt_isinf(double x) { return rt_fabs(x) == RT_INF; }
RT_INLINE int rt_isfinite(double x) { return rt_fabs(x) < RT_INF; }
/* biased exponent field */
RT_INLINE int rt_expfield(double x) { return (int)((rt_bits(x) >> 52) & 0x7ff); }

/* ---- double-double arithmetic ---- */
RT_INLINE rt_dd rt_two_sum(double a, double b) {
  double s = a + b, bb = s - a;
  rt_dd r = {s, (a - (s - bb)) + (b - bb)};
  return r;
}
/* requires |a| >= |b| (or a == 0) */
RT_INLINE rt_dd rt_fast_two_sum(double a, double b) {
  double s = a + b;
  rt_dd r = {s, b - (s - a)};
  return r;
}
RT_INLINE rt_dd rt_two_prod(double a, double b) {
  double p = a * b;
  rt_dd r = {p, rt_fma(a, b, -p)};
  return r;
}
RT_INLINE rt_dd rt_dd_add(rt_dd a, rt_dd b) {
  rt_dd s = rt_two_sum(a.hi, b.hi);
  s.lo += a.lo + b.lo;
  return rt_fast_two_sum(s.hi, s.lo);
}
RT_INLINE rt_dd rt_dd_add_d(rt_dd a, double b) {
  rt_dd s = rt_two_sum(a.hi, b);
  s.lo += a.lo;
  return rt_fast_two_sum(s.hi, s.lo);
}
RT_INLINE rt_dd rt_dd_mul(rt_dd a, rt_dd b) {
  rt_dd p = rt_two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return rt_fast_two_sum(p.hi, p.lo);
}
RT_INLINE rt_dd rt_dd_mul_d(rt_dd a, double b) {
  rt_dd p = rt_two_prod(a.hi, b);
  p.lo += a.lo * b;
  return rt_fast_two_sum(p.hi, p.lo);
}
RT_INLINE rt_dd rt_dd_neg(rt_dd a) {
  rt_dd r = {-a.hi, -a.lo};
  return r;
}
RT_INLINE rt_dd rt_dd_make(double hi, double lo) {
  rt_dd r = {hi, lo};
  return r;
}

/* ---- shared cores (defined in the .rvc files; all static, one translation unit) ---- */
static double rt_ldexp_core(double x, int n);
static double rt_rint_core(double x);
static double rt_trunc_core(double x);
static double rt_floor_core(double x);
static double rt_exp_core(double hi, double lo, int *k);
static double rt_exp_dd(rt_dd z);
static rt_dd rt_log_dd(double x);
static rt_dd rt_log1p_dd(double xh, double xl);
static rt_dd rt_atan_dd(double th, double tl);
static rt_dd rt_atan2_dd(double y, double x);
static int rt_rem_pio2(double x, rt_dd *r);
static double rt_sin_kernel(rt_dd r);
static double rt_cos_kernel(rt_dd r);
static double rt_sinpi_core(double x, int want_cos);

#include "rt_tables.h"

#endif
