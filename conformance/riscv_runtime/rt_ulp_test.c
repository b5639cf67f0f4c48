/* Accuracy test of the RISC-V device runtime, built for the host from the same sources
 * (devices/riscv/runtime/rt_all.rvc): every function, float and double, against glibc's long
 * double functions (64-bit significand: 11 bits beyond double), on special values, all pairs of
 * special values for two-argument functions, and fresh random inputs (uniform in a typical range
 * and random bit patterns over every exponent). Reports the max error in ulp per function next
 * to the OpenCL 1.2 full-profile limit. HG_RT_SAMPLES sets the random inputs per function
 * (default 20000), HG_RT_SEED the seed (default: time). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devices/riscv/runtime/rt_all.rvc"

/* ---------- random inputs ---------- */
static uint64_t rng_state;
static uint64_t rnd64(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static double rnd_unit(void) { return (double)(rnd64() >> 11) * 0x1p-53; }
static double rnd_bits_d(void) {
  /* any finite or infinite double; NaNs are rare, they come from the special list */
  for (;;) {
    double d;
    uint64_t u = rnd64();
    memcpy(&d, &u, 8);
    if (!isnan(d)) return d;
  }
}
static float rnd_bits_f(void) {
  for (;;) {
    float f;
    uint32_t u = (uint32_t)rnd64();
    memcpy(&f, &u, 4);
    if (!isnan(f)) return f;
  }
}
/* log-uniform magnitude in [2^-lo, 2^hi], random sign */
static double rnd_log(int lo, int hi) {
  double e = -lo + rnd_unit() * (hi + lo);
  double v = ldexp(1.0 + rnd_unit(), (int)floor(e));
  return (rnd64() & 1) ? -v : v;
}

static const double SPECIAL_D[] = {
    0.0, -0.0, 0x1p-1074, -0x1p-1074, 0x1.fffffffffffffp-1023, 0x1p-1022, -0x1p-1022, 0x1p-60, -0x1p-30,
    0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 2.5, 3.0, -3.0, 0.25, 0.75, -0.75, 10.0, -10.5, 100.0,
    0x1.921fb54442d18p+0, -0x1.921fb54442d18p+1, 0x1.fffffffffffffp-1, 0x1.0000000000001p+0, 171.5, 172.0,
    -170.5, -171.5, 709.78, 709.79, -745.1, -745.2, 1e22, 0x1p52, 0x1p53 + 2, 1e300, -1e300,
    0x1.fffffffffffffp+1023, -0x1.fffffffffffffp+1023, INFINITY, -INFINITY, NAN, 27.0, 6.0, 0.8, 1.2, 1e-300,
    0x1.74f88c6f42434p+1014, 0x1.7p+1014, 0x1p+1014 /* lgamma finite where x log x overflows */};
#define NSPECIAL_D (sizeof SPECIAL_D / sizeof SPECIAL_D[0])
static const float SPECIAL_F[] = {
    0.0f, -0.0f, 0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f, 0x1p-126f, -0x1p-126f, 0x1p-30f, 0.5f, -0.5f, 1.0f,
    -1.0f, 1.5f, -1.5f, 2.0f, -2.0f, 2.5f, 3.0f, -3.0f, 0.25f, 0.75f, 10.0f, -10.5f, 100.0f, 0x1.921fb6p+0f,
    -0x1.921fb6p+1f, 0x1.fffffep-1f, 0x1.000002p+0f, 35.0f, 36.0f, -34.5f, 88.72f, 88.73f, -103.9f, -104.0f,
    1e22f, 0x1p23f, 0x1p24f, 0x1.fffffep+127f, -0x1.fffffep+127f, INFINITY, -INFINITY, NAN, 9.2f, 1e-30f};
#define NSPECIAL_F (sizeof SPECIAL_F / sizeof SPECIAL_F[0])

/* ---------- error in ulp, OpenCL's definition: ulp of the exact result in the result type ---------- */
static long double as_ld_inf(long double v, int maxexp) {
  return isinf(v) ? copysignl(ldexpl(1.0L, maxexp), v) : v;
}
/* mant: significand bits - 1 (52 or 23), minexp: exponent of the smallest subnormal, maxexp 1024/128 */
static double ulp_err(long double got, long double ref, int mant, int minexp, int maxexp) {
  if (isnan(ref)) return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got)) return INFINITY;
  /* an exact result beyond MAX + half an ulp rounds to infinity */
  if (fabsl(ref) >= ldexpl(1.0L, maxexp) - ldexpl(1.0L, maxexp - mant - 2)) ref = copysignl(INFINITY, ref);
  long double g = as_ld_inf(got, maxexp), r = as_ld_inf(ref, maxexp);
  if (g == r) {
    if (g == 0 && !!signbit(got) != !!signbit(ref)) return INFINITY;
    return 0.0;
  }
  int e = 0;
  if (r != 0) frexpl(r, &e);
  int ue = e - 1 - mant;
  if (ue < minexp || r == 0) ue = minexp;
  return (double)(fabsl(g - r) / ldexpl(1.0L, ue));
}
static double err_d(double got, long double ref) { return ulp_err(got, ref, 52, -1074, 1024); }
static double err_f(float got, long double ref) { return ulp_err(got, ref, 23, -149, 128); }

/* ---------- reference functions not in libm ---------- */
static const long double PI_L = 3.141592653589793238462643383279502884L;
static long double r_sinpi(long double x) {
  if (isinf(x) || isnan(x)) return NAN;
  long double n = rintl(x), r = x - n; /* exact, |r| <= 1/2 */
  long double s = sinl(PI_L * r);
  if (fmodl(n, 2.0L) != 0) s = -s;
  if (s == 0) return copysignl(0.0L, x);
  return s;
}
static long double r_cospi(long double x) {
  if (isinf(x) || isnan(x)) return NAN;
  long double n = rintl(x), r = fabsl(x - n);
  long double c = r > 0.25L ? sinl(PI_L * (0.5L - r)) : cosl(PI_L * r);
  if (fmodl(n, 2.0L) != 0) c = -c;
  if (c == 0) return 0.0L;
  return c;
}
static long double r_tanpi(long double x) {
  if (isinf(x) || isnan(x)) return NAN;
  long double s = r_sinpi(x), c = r_cospi(x);
  if (s == 0) return c > 0 ? copysignl(0.0L, x) : copysignl(0.0L, -x);
  if (c == 0) {
    long double n = floorl(x);
    return fmodl(n, 2.0L) == 0 ? INFINITY : -INFINITY;
  }
  return s / c;
}
static long double r_acospi(long double x) { return acosl(x) / PI_L; }
static long double r_asinpi(long double x) { return asinl(x) / PI_L; }
static long double r_atanpi(long double x) { return atanl(x) / PI_L; }
static long double r_atan2pi(long double y, long double x) { return atan2l(y, x) / PI_L; }
static long double r_rsqrt(long double x) { return 1.0L / sqrtl(x); }
static long double r_fdim(long double x, long double y) { return fdiml(x, y); }
static long double r_maxmag(long double x, long double y) {
  if (fabsl(x) > fabsl(y)) return x;
  if (fabsl(y) > fabsl(x)) return y;
  return fmaxl(x, y);
}
static long double r_minmag(long double x, long double y) {
  if (fabsl(x) < fabsl(y)) return x;
  if (fabsl(y) < fabsl(x)) return y;
  return fminl(x, y);
}
static long double r_powr(long double x, long double y) {
  if (isnan(x) || isnan(y) || x < 0) return NAN;
  if (x == 0) return (y == 0) ? NAN : (y < 0 ? INFINITY : 0.0L);
  if (isinf(x)) return (y == 0) ? NAN : (y < 0 ? 0.0L : INFINITY);
  if (x == 1) return isinf(y) ? NAN : 1.0L;
  return powl(x, y);
}
static long double r_pown(long double x, int n) { return powl(x, (long double)n); }
static long double r_rootn(long double x, int n) {
  if (n == 0 || isnan(x)) return NAN;
  int odd = n & 1;
  if (x < 0 && !odd) return NAN;
  if (x == 0) return n < 0 ? (odd ? copysignl(INFINITY, x) : INFINITY) : (odd ? x : 0.0L);
  long double r = powl(fabsl(x), 1.0L / (long double)n);
  return x < 0 ? -r : r;
}
static long double r_ldexp(long double x, int n) { return ldexpl(x, n); }
/* lgamma: no OpenCL limit; measured as absolute error in ulp of max(|ref|, 1) */
static double err_lgamma(long double got, long double ref, int mant) {
  if (isnan(ref) || isinf(ref) || isnan(got) || isinf(got))
    return mant == 52 ? ulp_err(got, ref, 52, -1074, 1024) : ulp_err(got, ref, 23, -149, 128);
  long double m = fabsl(ref) > 1 ? fabsl(ref) : 1.0L;
  int e;
  frexpl(m, &e);
  return (double)(fabsl(got - ref) / ldexpl(1.0L, e - 1 - mant));
}

/* ---------- the function table ---------- */
typedef long double (*ref1_t)(long double);
typedef long double (*ref2_t)(long double, long double);
typedef struct fn1 {
  const char *name;
  double (*d)(double);
  float (*f)(float);
  ref1_t ref;
  double lim_f, lim_d;
  double lo, hi; /* typical range for uniform samples */
  double (*rd)(double); /* optional correctly rounded reference of the type itself */
  float (*rf)(float);
} fn1;
typedef struct fn2 {
  const char *name;
  double (*d)(double, double);
  float (*f)(float, float);
  ref2_t ref;
  double lim_f, lim_d;
  double lo, hi;
  double (*rd)(double, double);
  float (*rf)(float, float);
  int zero_sign_free; /* fmin & co: either zero may be returned for (+0, -0) */
} fn2;

#define F1(n, lf, ld, lo, hi) {#n, hg_rt_##n, hg_rt_##n##f, n##l, lf, ld, lo, hi}
#define F1R(n, r, lf, ld, lo, hi) {#n, hg_rt_##n, hg_rt_##n##f, r, lf, ld, lo, hi}
static const fn1 FN1[] = {
    F1(acos, 4, 4, -1, 1),          F1(acosh, 4, 4, 1, 10),        F1R(acospi, r_acospi, 5, 5, -1, 1),
    F1(asin, 4, 4, -1, 1),          F1(asinh, 4, 4, -10, 10),      F1R(asinpi, r_asinpi, 5, 5, -1, 1),
    F1(atan, 5, 5, -10, 10),        F1(atanh, 5, 5, -1, 1),        F1R(atanpi, r_atanpi, 5, 5, -10, 10),
    F1(cbrt, 2, 2, -100, 100),      F1(ceil, 0, 0, -100, 100),     F1(cos, 4, 4, -100, 100),
    F1(cosh, 4, 4, -20, 20),        F1R(cospi, r_cospi, 4, 4, -10, 10), F1(erfc, 16, 16, -3, 10),
    F1(erf, 16, 16, -4, 4),         F1(exp, 3, 3, -50, 50),        F1(exp2, 3, 3, -50, 50),
    F1(exp10, 3, 3, -20, 20),       F1(expm1, 3, 3, -2, 2),        F1(fabs, 0, 0, -100, 100),
    F1(floor, 0, 0, -100, 100),     F1(log, 3, 3, 0, 100),         F1(log2, 3, 3, 0, 100),
    F1(log10, 3, 3, 0, 100),        F1(log1p, 2, 2, -1, 3),        F1(logb, 0, 0, -100, 100),
    F1(rint, 0, 0, -100, 100),      F1(round, 0, 0, -100, 100),    F1R(rsqrt, r_rsqrt, 2, 2, 0, 100),
    F1(sin, 4, 4, -100, 100),       F1(sinh, 4, 4, -20, 20),       F1R(sinpi, r_sinpi, 4, 4, -10, 10),
    {"sqrt", hg_rt_sqrt, hg_rt_sqrtf, sqrtl, 3, 0, 0, 100, sqrt, sqrtf},         F1(tan, 5, 5, -100, 100),      F1(tanh, 5, 5, -10, 10),
    F1R(tanpi, r_tanpi, 6, 6, -10, 10), F1(tgamma, 16, 16, -20, 30), F1(trunc, 0, 0, -100, 100),
    F1(lgamma, 16, 16, -20, 30),
};
#define F2(n, lf, ld, lo, hi) {#n, hg_rt_##n, hg_rt_##n##f, n##l, lf, ld, lo, hi}
#define F2R(n, r, lf, ld, lo, hi) {#n, hg_rt_##n, hg_rt_##n##f, r, lf, ld, lo, hi}
static const fn2 FN2[] = {
    F2(atan2, 6, 6, -10, 10), F2R(atan2pi, r_atan2pi, 6, 6, -10, 10), F2(copysign, 0, 0, -10, 10),
    {"fdim", hg_rt_fdim, hg_rt_fdimf, r_fdim, 0, 0, -10, 10, fdim, fdimf, 0}, {"fmax", hg_rt_fmax, hg_rt_fmaxf, fmaxl, 0, 0, -10, 10, 0, 0, 1},
    {"fmin", hg_rt_fmin, hg_rt_fminf, fminl, 0, 0, -10, 10, 0, 0, 1},
    F2(fmod, 0, 0, -100, 100),        F2(hypot, 4, 4, -100, 100),   {"maxmag", hg_rt_maxmag, hg_rt_maxmagf, r_maxmag, 0, 0, -10, 10, 0, 0, 1},
    {"minmag", hg_rt_minmag, hg_rt_minmagf, r_minmag, 0, 0, -10, 10, 0, 0, 1},
    {"nextafter", hg_rt_nextafter, hg_rt_nextafterf, nextafterl, 0, 0, -10, 10, nextafter, nextafterf, 0}, F2(pow, 16, 16, 0, 10),
    F2R(powr, r_powr, 16, 16, 0, 10), F2(remainder, 0, 0, -100, 100),
};

static unsigned long n_pass, n_fail;
static int verbose;

static void report(const char *name, const char *type, double maxerr, double lim, const char *worst) {
  int ok = maxerr <= lim;
  printf("%-10s %-6s max %10.4g ulp  limit %4g  %s%s%s\n", name, type, maxerr, lim, ok ? "ok" : "FAIL",
         ok ? "" : "  worst at ", ok ? "" : worst);
  if (ok) n_pass++;
  else n_fail++;
}

typedef struct acc {
  double max;
  char worst[160];
} acc;
static void acc_add_d(acc *a, double e, double x, double y, double got, long double ref) {
  if (e > a->max || (isnan(e) && !isnan(a->max))) {
    a->max = e;
    snprintf(a->worst, sizeof a->worst, "x=%a y=%a got=%a ref=%La", x, y, got, ref);
  }
}

static long samples = 20000;

/* inputs for one-argument tests: i < nspecial -> specials, then uniform, then bit patterns */
static double input_d(long i, double lo, double hi) {
  if (i < (long)NSPECIAL_D) return SPECIAL_D[i];
  long j = i - NSPECIAL_D;
  switch (j % 4) {
  case 0: return lo + (hi - lo) * rnd_unit();
  case 1: return rnd_bits_d();
  case 2: return rnd_log(30, 12);
  default: return (double)(int)(lo + (hi - lo) * rnd_unit()) + (rnd64() & 1 ? 0.5 : ldexp(rnd_unit(), -40));
  }
}
static float input_f(long i, double lo, double hi) {
  if (i < (long)NSPECIAL_F) return SPECIAL_F[i];
  long j = i - NSPECIAL_F;
  switch (j % 4) {
  case 0: return (float)(lo + (hi - lo) * rnd_unit());
  case 1: return rnd_bits_f();
  case 2: return (float)rnd_log(30, 12);
  default: return (float)((double)(int)(lo + (hi - lo) * rnd_unit()) + (rnd64() & 1 ? 0.5 : ldexp(rnd_unit(), -15)));
  }
}

/* inputs in the hard places of each function: near multiples of pi/2 for huge trig arguments,
 * near the overflow and underflow thresholds, near poles and zeros, subnormals */
static double hard_d(const char *n) {
  double u = rnd_unit(), sgn = (rnd64() & 1) ? -1.0 : 1.0;
  if (!strcmp(n, "sin") || !strcmp(n, "cos") || !strcmp(n, "tan")) {
    long double k = floorl(ldexpl((long double)rnd_unit(), (int)(rnd64() % 1000)));
    double x = (double)(k * 1.570796326794896619231321691639751442L);
    if (rnd64() % 8 == 0) x = 0x1.6ac5b262ca1ffp+849; /* a worst case of the reduction */
    return sgn * x;
  }
  if (!strcmp(n, "sinpi") || !strcmp(n, "cospi") || !strcmp(n, "tanpi"))
    return sgn * (floor(ldexp(u, (int)(rnd64() % 60))) * 0.5 + ldexp(rnd_unit() - 0.5, -(int)(rnd64() % 60)));
  if (!strncmp(n, "exp", 3) || !strcmp(n, "sinh") || !strcmp(n, "cosh")) {
    double lim = !strcmp(n, "exp2") ? 1024 : !strcmp(n, "exp10") ? 308.25 : 709.78;
    double low = !strcmp(n, "exp2") ? -1075 : !strcmp(n, "exp10") ? -323.6 : -745.13;
    return (rnd64() & 1) ? lim - u * 2 : low + u * 40;
  }
  if (!strncmp(n, "log", 3) || !strcmp(n, "acosh")) return 1.0 + ldexp(rnd_unit() - 0.5, -(int)(rnd64() % 50));
  if (!strcmp(n, "erfc") || !strcmp(n, "erf")) return (rnd64() & 1) ? 20 + 7.3 * u : 0.4 + 2 * u;
  if (!strcmp(n, "tgamma") || !strcmp(n, "lgamma")) {
    switch (rnd64() % 4) {
    case 0: return -(double)(rnd64() % 180) - ldexp(u, -(int)(rnd64() % 40)); /* near poles */
    case 1: return 170 + 2 * u;
    case 2: return ldexp(u, -(int)(rnd64() % 1070));
    default: return -190 * u;
    }
  }
  if (!strcmp(n, "cbrt") || !strcmp(n, "rsqrt") || !strcmp(n, "sqrt")) return sgn * ldexp(u, -1022 - (int)(rnd64() % 52));
  if (!strncmp(n, "a", 1)) return sgn * (1.0 - ldexp(u, -(int)(rnd64() % 53)));
  return sgn * ldexp(u, (int)(rnd64() % 2100) - 1074);
}

/* the float versions of the threshold cases */
static float hard_f(const char *n) {
  double u = rnd_unit();
  if (!strncmp(n, "exp", 3) || !strcmp(n, "sinh") || !strcmp(n, "cosh")) {
    double lim = !strcmp(n, "exp2") ? 128 : !strcmp(n, "exp10") ? 38.53 : !strncmp(n, "exp", 3) ? 88.72 : 89.41;
    double low = !strcmp(n, "exp2") ? -150 : !strcmp(n, "exp10") ? -45.15 : -103.97;
    return (float)((rnd64() & 1) ? lim - u * 2 : low + u * 10);
  }
  if (!strcmp(n, "erfc")) return (float)(8 + 2.2 * u);
  if (!strcmp(n, "tgamma")) return (float)((rnd64() & 1) ? 33 + 3 * u : -(double)(rnd64() % 40) - ldexp(u, -(int)(rnd64() % 20)));
  if (!strcmp(n, "cbrt") || !strcmp(n, "rsqrt") || !strcmp(n, "sqrt")) return (float)ldexp(u, -126 - (int)(rnd64() % 23));
  return (float)hard_d(n);
}

static void test_fn1(const fn1 *t) {
  int is_lg = !strcmp(t->name, "lgamma");
  acc ad = {0, ""}, af = {0, ""};
  long n = (long)NSPECIAL_D + samples;
  for (long i = 0; i < n; i++) {
    double x = (i >= (long)NSPECIAL_D && i % 5 == 4) ? hard_d(t->name) : input_d(i, t->lo, t->hi);
    long double ref = t->rd ? t->rd(x) : t->ref((long double)x);
    double got = t->d(x);
    double e = is_lg ? err_lgamma(got, ref, 52) : err_d(got, ref);
    acc_add_d(&ad, e, x, 0, got, ref);
  }
  n = (long)NSPECIAL_F + samples;
  for (long i = 0; i < n; i++) {
    float x = (i >= (long)NSPECIAL_F && i % 5 == 4) ? hard_f(t->name) : input_f(i, t->lo, t->hi);
    long double ref = t->rf ? t->rf(x) : t->ref((long double)x);
    float got = t->f(x);
    double e = is_lg ? err_lgamma(got, ref, 23) : err_f(got, ref);
    acc_add_d(&af, e, x, 0, got, ref);
  }
  report(t->name, "double", ad.max, t->lim_d, ad.worst);
  report(t->name, "float", af.max, t->lim_f, af.worst);
}

static long double ref2_d(const fn2 *t, double x, double y) { return t->rd ? t->rd(x, y) : t->ref(x, y); }
static long double ref2_f(const fn2 *t, float x, float y) { return t->rf ? t->rf(x, y) : t->ref(x, y); }
static double err2(const fn2 *t, double x, double y, double got, long double ref, int isf) {
  if (t->zero_sign_free && x == 0 && y == 0 && got == 0 && ref == 0) return 0;
  return isf ? err_f((float)got, ref) : err_d(got, ref);
}
static void test_fn2(const fn2 *t) {
  acc ad = {0, ""}, af = {0, ""};
  for (size_t i = 0; i < NSPECIAL_D; i++)
    for (size_t j = 0; j < NSPECIAL_D; j++) {
      double x = SPECIAL_D[i], y = SPECIAL_D[j];
      long double ref = ref2_d(t, x, y);
      double got = t->d(x, y);
      acc_add_d(&ad, err2(t, x, y, got, ref, 0), x, y, got, ref);
    }
  for (long i = 0; i < samples; i++) {
    double x = input_d(NSPECIAL_D + i, t->lo, t->hi), y = input_d(NSPECIAL_D + (i * 7 + rnd64() % 4), t->lo, t->hi);
    if (rnd64() % 8 == 0) y = x * (1.0 + ldexp(rnd_unit() - 0.5, -20)); /* close pairs */
    if (t->name[0] == 'p' && i % 4 == 3) { /* pow near 1, and results near the range ends */
      x = 1.0 + ldexp(rnd_unit() - 0.5, -(int)(rnd64() % 50));
      y = (rnd_unit() - 0.5) * ldexp(1.0, (int)(rnd64() % 60));
      if (i % 8 == 7) {
        x = 0.5 + 8 * rnd_unit();
        y = ((rnd64() & 1) ? 1023.9 : -1074.5) / log2(x) * (1 + ldexp(rnd_unit() - 0.5, -10));
      }
    }
    long double ref = ref2_d(t, x, y);
    double got = t->d(x, y);
    acc_add_d(&ad, err2(t, x, y, got, ref, 0), x, y, got, ref);
  }
  for (size_t i = 0; i < NSPECIAL_F; i++)
    for (size_t j = 0; j < NSPECIAL_F; j++) {
      float x = SPECIAL_F[i], y = SPECIAL_F[j];
      long double ref = ref2_f(t, x, y);
      float got = t->f(x, y);
      acc_add_d(&af, err2(t, x, y, got, ref, 1), x, y, got, ref);
    }
  for (long i = 0; i < samples; i++) {
    float x = input_f(NSPECIAL_F + i, t->lo, t->hi), y = input_f(NSPECIAL_F + (i * 7 + rnd64() % 4), t->lo, t->hi);
    if (rnd64() % 8 == 0) y = (float)(x * (1.0 + ldexp(rnd_unit() - 0.5, -10)));
    long double ref = ref2_f(t, x, y);
    float got = t->f(x, y);
    acc_add_d(&af, err2(t, x, y, got, ref, 1), x, y, got, ref);
  }
  report(t->name, "double", ad.max, t->lim_d, ad.worst);
  report(t->name, "float", af.max, t->lim_f, af.worst);
}

/* fma / mad against the correctly rounded libm fma */
static void test_fma(void) {
  acc ad = {0, ""}, af = {0, ""}, md = {0, ""}, mf = {0, ""};
  for (long i = 0; i < samples; i++) {
    double a = input_d(i, -10, 10), b = input_d(i / 3, -10, 10), c = input_d(i / 7, -100, 100);
    double ref = fma(a, b, c);
    acc_add_d(&ad, err_d(hg_rt_fma(a, b, c), ref), a, b, hg_rt_fma(a, b, c), ref);
    acc_add_d(&md, err_d(hg_rt_mad(a, b, c), ref), a, b, hg_rt_mad(a, b, c), ref);
    float fa = input_f(i, -10, 10), fb = input_f(i / 3, -10, 10), fc = input_f(i / 7, -100, 100);
    float fr = fmaf(fa, fb, fc);
    acc_add_d(&af, err_f(hg_rt_fmaf(fa, fb, fc), fr), fa, fb, hg_rt_fmaf(fa, fb, fc), fr);
    acc_add_d(&mf, err_f(hg_rt_madf(fa, fb, fc), fr), fa, fb, hg_rt_madf(fa, fb, fc), fr);
  }
  report("fma", "double", ad.max, 0, ad.worst);
  report("fma", "float", af.max, 0, af.worst);
  report("mad", "double", md.max, 0, md.worst);
  report("mad", "float", mf.max, 0, mf.worst);
}

/* (x, int) functions: ldexp, pown, rootn */
static void test_int_arg(const char *name, double (*d)(double, int), float (*f)(float, int),
                         long double (*ref)(long double, int), double lim) {
  acc ad = {0, ""}, af = {0, ""};
  static const int NS[] = {0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 10, -11, 100, 1023, -1074, 2000, -2000, INT_MAX, INT_MIN};
  for (long i = 0; i < (long)NSPECIAL_D + samples; i++) {
    double x = input_d(i, 0, 10);
    int n = i % 3 == 0 ? NS[rnd64() % 20] : (int)(rnd64() % 41) - 20;
    if (!strcmp(name, "ldexp") && i % 3 == 1) n = (int)(rnd64() % 4400) - 2200;
    long double r = ref == r_ldexp ? (long double)ldexp(x, n) : ref(x, n);
    double got = d(x, n);
    acc_add_d(&ad, err_d(got, r), x, n, got, r);
  }
  for (long i = 0; i < (long)NSPECIAL_F + samples; i++) {
    float x = input_f(i, 0, 10);
    int n = i % 3 == 0 ? NS[rnd64() % 20] : (int)(rnd64() % 41) - 20;
    if (!strcmp(name, "ldexp") && i % 3 == 1) n = (int)(rnd64() % 600) - 300;
    long double r = ref == r_ldexp ? (long double)ldexpf(x, n) : ref(x, n);
    float got = f(x, n);
    acc_add_d(&af, err_f(got, r), x, n, got, r);
  }
  report(name, "double", ad.max, lim, ad.worst);
  report(name, "float", af.max, lim, af.worst);
}

static void check(const char *name, const char *type, int ok, const char *detail) {
  report(name, type, ok ? 0 : INFINITY, 0, detail);
}

/* fract as the OpenCL C specification defines it: the formula, and its special cases for zeros
 * and infinities */
static long double ref_fract(long double x, long double *ip, long double below_one, int isf) {
  if (isnan(x) || isinf(x)) {
    *ip = x;
    return isnan(x) ? x : copysignl(0.0L, x);
  }
  long double i, f = modfl(x, &i);
  if (f == 0)
    f = x == 0 ? x : 0.0L; /* fract(+-0) = +-0 (the spec's special case); other integral x: x - floor(x) = +0 */
  if (f < 0) {
    f = isf ? (long double)(float)(1.0f + (float)f) : (long double)(1.0 + (double)f);
    i -= 1;
    if (f >= 1) f = below_one;
  }
  *ip = i;
  return f;
}

static int same_d(double a, long double b) { return (isnan(a) && isnan(b)) || (a == b && !!signbit(a) == !!signbit(b)); }

/* functions with pointer results, ilogb, nan */
static void test_pointer_fns(void) {
  int ok_frexp = 1, ok_modf = 1, ok_fract = 1, ok_remquo = 1, ok_ilogb = 1, ok_sign = 1;
  int okf_frexp = 1, okf_modf = 1, okf_fract = 1, okf_remquo = 1, okf_ilogb = 1, okf_sign = 1;
  char b_frexp[160] = "", b_modf[160] = "", b_fract[160] = "", b_remquo[160] = "", b_ilogb[160] = "", b_sign[160] = "";
  char bf_frexp[160] = "", bf_modf[160] = "", bf_fract[160] = "", bf_remquo[160] = "", bf_ilogb[160] = "", bf_sign[160] = "";
  acc sc_d = {0, ""}, sc_f = {0, ""};
  for (long i = 0; i < (long)NSPECIAL_D + samples; i++) {
    double x = input_d(i, -100, 100), y = input_d(NSPECIAL_D + (i * 13 % (samples + 1)), -10, 10);
    if (i < (long)NSPECIAL_D) y = SPECIAL_D[(i * 7) % NSPECIAL_D];
    int e1, e2;
    double m1 = hg_rt_frexp(x, &e1);
    long double m2 = frexpl(x, &e2);
    if (!same_d(m1, m2) || (isfinite(x) && e1 != e2)) { ok_frexp = 0; snprintf(b_frexp, sizeof b_frexp, "frexp %a", x); }
    double ip1;
    long double ip2;
    double f1 = hg_rt_modf(x, &ip1);
    long double f2 = modfl(x, &ip2);
    if (!same_d(f1, f2) || !same_d(ip1, ip2)) { ok_modf = 0; snprintf(b_modf, sizeof b_modf, "modf %a", x); }
    double fl;
    double fr = hg_rt_fract(x, &fl);
    long double fl_ref;
    long double fr_ref = ref_fract(x, &fl_ref, 0x1.fffffffffffffp-1L, 0);
    if (!same_d(fr, fr_ref) || !same_d(fl, fl_ref)) { ok_fract = 0; snprintf(b_fract, sizeof b_fract, "fract %a", x); }
    int q1, q2;
    double r1 = hg_rt_remquo(x, y, &q1);
    long double r2 = remquol(x, y, &q2);
    if (!same_d(r1, r2)) { ok_remquo = 0; snprintf(b_remquo, sizeof b_remquo, "remquo %a %a", x, y); }
    if (!isnan(r2) && ((abs(q1) & 7) != (abs(q2) & 7) || ((q1 < 0) != (q2 < 0) && (q1 & 7)))) {
      ok_remquo = 0;
      snprintf(b_remquo, sizeof b_remquo, "remquo quo %a %a %d %d", x, y, q1, q2);
    }
    int il = hg_rt_ilogb(x);
    int il_ref = isnan(x) || isinf(x) ? INT_MAX : x == 0 ? INT_MIN : ilogbl(x);
    if (il != il_ref) { ok_ilogb = 0; snprintf(b_ilogb, sizeof b_ilogb, "ilogb %a", x); }
    double c;
    double s = hg_rt_sincos(x, &c);
    acc_add_d(&sc_d, err_d(s, sinl(x)), x, 0, s, sinl(x));
    acc_add_d(&sc_d, err_d(c, cosl(x)), x, 1, c, cosl(x));
    int sg1, sg2;
    double lg1 = hg_rt_lgamma_r(x, &sg1);
    long double lg2 = lgammal_r(x, &sg2);
    if (isfinite(lg2) && isfinite(lg1) && sg1 != sg2) { ok_sign = 0; snprintf(b_sign, sizeof b_sign, "lgamma_r sign %a", x); }
    (void)lg1;
  }
  for (long i = 0; i < (long)NSPECIAL_F + samples; i++) {
    float x = input_f(i, -100, 100), y = input_f(NSPECIAL_F + (i * 13 % (samples + 1)), -10, 10);
    if (i < (long)NSPECIAL_F) y = SPECIAL_F[(i * 7) % NSPECIAL_F];
    int e1, e2;
    float m1 = hg_rt_frexpf(x, &e1);
    long double m2 = frexpl(x, &e2);
    if (!same_d(m1, m2) || (isfinite(x) && e1 != e2)) { okf_frexp = 0; snprintf(bf_frexp, sizeof bf_frexp, "frexpf %a", x); }
    float ip1;
    long double ip2;
    float f1 = hg_rt_modff(x, &ip1);
    long double f2 = modfl(x, &ip2);
    if (!same_d(f1, f2) || !same_d(ip1, ip2)) { okf_modf = 0; snprintf(bf_modf, sizeof bf_modf, "modff %a", x); }
    float fl;
    float fr = hg_rt_fractf(x, &fl);
    long double fl_ref;
    long double fr_ref = ref_fract(x, &fl_ref, 0x1.fffffep-1L, 1);
    if (!same_d(fr, fr_ref) || !same_d(fl, fl_ref)) { okf_fract = 0; snprintf(bf_fract, sizeof bf_fract, "fractf %a", x); }
    int q1, q2;
    float r1 = hg_rt_remquof(x, y, &q1);
    long double r2 = remquol(x, y, &q2);
    if (!same_d(r1, r2)) { okf_remquo = 0; snprintf(bf_remquo, sizeof bf_remquo, "remquof %a %a", x, y); }
    if (!isnan(r2) && ((abs(q1) & 7) != (abs(q2) & 7) || ((q1 < 0) != (q2 < 0) && (q1 & 7)))) {
      okf_remquo = 0;
      snprintf(bf_remquo, sizeof bf_remquo, "remquof quo %a %a %d %d", x, y, q1, q2);
    }
    int il = hg_rt_ilogbf(x);
    int il_ref = isnan(x) || isinf(x) ? INT_MAX : x == 0 ? INT_MIN : ilogbl(x);
    if (il != il_ref) { okf_ilogb = 0; snprintf(bf_ilogb, sizeof bf_ilogb, "ilogbf %a", x); }
    float c;
    float s = hg_rt_sincosf(x, &c);
    acc_add_d(&sc_f, err_f(s, sinl(x)), x, 0, s, sinl(x));
    acc_add_d(&sc_f, err_f(c, cosl(x)), x, 1, c, cosl(x));
    int sg1, sg2;
    float lg1 = hg_rt_lgamma_rf(x, &sg1);
    long double lg2 = lgammal_r(x, &sg2);
    if (isfinite(lg2) && isfinite(lg1) && sg1 != sg2) { okf_sign = 0; snprintf(bf_sign, sizeof bf_sign, "lgamma_rf sign %a", x); }
  }
  check("frexp", "double", ok_frexp, b_frexp);
  check("frexp", "float", okf_frexp, bf_frexp);
  check("modf", "double", ok_modf, b_modf);
  check("modf", "float", okf_modf, bf_modf);
  check("fract", "double", ok_fract, b_fract);
  check("fract", "float", okf_fract, bf_fract);
  check("remquo", "double", ok_remquo, b_remquo);
  check("remquo", "float", okf_remquo, bf_remquo);
  check("ilogb", "double", ok_ilogb, b_ilogb);
  check("ilogb", "float", okf_ilogb, bf_ilogb);
  check("lgamma_r", "double", ok_sign, b_sign);
  check("lgamma_r", "float", okf_sign, bf_sign);
  report("sincos", "double", sc_d.max, 4, sc_d.worst);
  report("sincos", "float", sc_f.max, 4, sc_f.worst);
  double nd = hg_rt_nan(5);
  uint64_t nb;
  memcpy(&nb, &nd, 8);
  check("nan", "double", isnan(nd) && nb == 0x7ff8000000000005ull, "nan(5)");
  float nf = hg_rt_nanf(5);
  uint32_t nfb;
  memcpy(&nfb, &nf, 4);
  check("nan", "float", isnan(nf) && nfb == 0x7fc00005u, "nanf(5)");
}

int main(int argc, char **argv) {
  const char *s = getenv("HG_RT_SAMPLES");
  if (s) samples = atol(s);
  const char *seed = getenv("HG_RT_SEED");
  rng_state = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) * 2654435761u + 1;
  if (!rng_state) rng_state = 1;
  verbose = argc > 1;
  printf("seed %llu, %ld random inputs per function and type\n", (unsigned long long)rng_state, samples);
  for (size_t i = 0; i < sizeof FN1 / sizeof FN1[0]; i++) test_fn1(&FN1[i]);
  for (size_t i = 0; i < sizeof FN2 / sizeof FN2[0]; i++) test_fn2(&FN2[i]);
  test_fma();
  test_int_arg("ldexp", hg_rt_ldexp, hg_rt_ldexpf, r_ldexp, 0); /* exact-result checks below */
  test_int_arg("pown", hg_rt_pown, hg_rt_pownf, r_pown, 16);
  test_int_arg("rootn", hg_rt_rootn, hg_rt_rootnf, r_rootn, 16);
  test_pointer_fns();
  printf("%lu passed, %lu failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
