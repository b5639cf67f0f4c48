/* A deterministic sample of runtime calls whose result bits are hashed per function: compiled
 * into the riscv64 driver (rt_diff_device.c, linked with the runtime object) and into the host
 * test (rt_diff_test.c, with the runtime built from the same sources). Both must print the same
 * lines "name hash". Freestanding: no libc. Needs the hg_rt_* prototypes in scope. */
#ifndef HG_RT_SAMPLE_H
#define HG_RT_SAMPLE_H

#include <stdint.h>

#define RT_SAMPLE_N 3000

typedef struct rt_sample_rng {
  uint64_t s;
} rt_sample_rng;
static uint64_t rt_sample_next(rt_sample_rng *r) {
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return r->s;
}
static double rt_sample_d(rt_sample_rng *r, int i, double lo, double hi) {
  uint64_t u = rt_sample_next(r);
  if (i % 3 == 0) { /* any bit pattern */
    union { uint64_t u; double d; } v = {u};
    return v.d;
  }
  double t = (double)(u >> 11) * 0x1p-53;
  return lo + (hi - lo) * t;
}
static float rt_sample_f(rt_sample_rng *r, int i, double lo, double hi) {
  uint64_t u = rt_sample_next(r);
  if (i % 3 == 0) {
    union { uint32_t u; float f; } v = {(uint32_t)u};
    return v.f;
  }
  double t = (double)(u >> 11) * 0x1p-53;
  return (float)(lo + (hi - lo) * t);
}

typedef struct rt_hash {
  uint64_t h;
} rt_hash;
static void rt_hash_u64(rt_hash *h, uint64_t v) {
  for (int i = 0; i < 8; i++) {
    h->h ^= (v >> (8 * i)) & 0xff;
    h->h *= 0x100000001b3ull;
  }
}
static void rt_hash_d(rt_hash *h, double d) {
  union { double d; uint64_t u; } v = {d};
  if (d != d) v.u = 0x7ff8000000000000ull; /* NaN payloads are not compared */
  rt_hash_u64(h, v.u);
}
static void rt_hash_f(rt_hash *h, float f) {
  union { float f; uint32_t u; } v = {f};
  if (f != f) v.u = 0x7fc00000u;
  rt_hash_u64(h, v.u);
}

/* emit(name, hash, ctx) once per function, in a fixed order */
typedef void (*rt_sample_emit)(const char *name, uint64_t hash, void *ctx);

#define RT_SAMPLE_D1(fn, lo, hi)                                                                    \
  do {                                                                                             \
    rt_hash h = {0xcbf29ce484222325ull};                                                           \
    for (int i = 0; i < RT_SAMPLE_N; i++) rt_hash_d(&h, hg_rt_##fn(rt_sample_d(&r, i, lo, hi)));   \
    emit(#fn, h.h, ctx);                                                                           \
    rt_hash hf = {0xcbf29ce484222325ull};                                                          \
    for (int i = 0; i < RT_SAMPLE_N; i++) rt_hash_f(&hf, hg_rt_##fn##f(rt_sample_f(&r, i, lo, hi))); \
    emit(#fn "f", hf.h, ctx);                                                                      \
  } while (0)
#define RT_SAMPLE_D2(fn, lo, hi)                                                                    \
  do {                                                                                             \
    rt_hash h = {0xcbf29ce484222325ull};                                                           \
    for (int i = 0; i < RT_SAMPLE_N; i++) {                                                        \
      double x = rt_sample_d(&r, i, lo, hi), y = rt_sample_d(&r, i, lo, hi);                       \
      rt_hash_d(&h, hg_rt_##fn(x, y));                                                             \
    }                                                                                              \
    emit(#fn, h.h, ctx);                                                                           \
    rt_hash hf = {0xcbf29ce484222325ull};                                                          \
    for (int i = 0; i < RT_SAMPLE_N; i++) {                                                        \
      float x = rt_sample_f(&r, i, lo, hi), y = rt_sample_f(&r, i, lo, hi);                        \
      rt_hash_f(&hf, hg_rt_##fn##f(x, y));                                                         \
    }                                                                                              \
    emit(#fn "f", hf.h, ctx);                                                                      \
  } while (0)

static void rt_sample_run(rt_sample_emit emit, void *ctx) {
  rt_sample_rng r = {0x9e3779b97f4a7c15ull};
  RT_SAMPLE_D1(sin, -1e6, 1e6);
  RT_SAMPLE_D1(cos, -10, 10);
  RT_SAMPLE_D1(tan, -10, 10);
  RT_SAMPLE_D1(sinpi, -10, 10);
  RT_SAMPLE_D1(asin, -1, 1);
  RT_SAMPLE_D1(acos, -1, 1);
  RT_SAMPLE_D1(atan, -10, 10);
  RT_SAMPLE_D1(exp, -750, 710);
  RT_SAMPLE_D1(exp2, -1100, 1030);
  RT_SAMPLE_D1(exp10, -330, 310);
  RT_SAMPLE_D1(expm1, -5, 5);
  RT_SAMPLE_D1(log, 0, 100);
  RT_SAMPLE_D1(log2, 0, 100);
  RT_SAMPLE_D1(log10, 0, 100);
  RT_SAMPLE_D1(log1p, -1, 10);
  RT_SAMPLE_D1(sinh, -30, 30);
  RT_SAMPLE_D1(cosh, -30, 30);
  RT_SAMPLE_D1(tanh, -10, 10);
  RT_SAMPLE_D1(asinh, -10, 10);
  RT_SAMPLE_D1(acosh, 1, 10);
  RT_SAMPLE_D1(atanh, -1, 1);
  RT_SAMPLE_D1(cbrt, -100, 100);
  RT_SAMPLE_D1(sqrt, 0, 100);
  RT_SAMPLE_D1(rsqrt, 0, 100);
  RT_SAMPLE_D1(erf, -5, 5);
  RT_SAMPLE_D1(erfc, -3, 28);
  RT_SAMPLE_D1(tgamma, -30, 30);
  RT_SAMPLE_D1(lgamma, -30, 30);
  RT_SAMPLE_D1(floor, -1e3, 1e3);
  RT_SAMPLE_D1(rint, -1e3, 1e3);
  RT_SAMPLE_D1(round, -1e3, 1e3);
  RT_SAMPLE_D1(logb, -1e3, 1e3);
  RT_SAMPLE_D2(pow, 0, 10);
  RT_SAMPLE_D2(powr, 0, 10);
  RT_SAMPLE_D2(atan2, -10, 10);
  RT_SAMPLE_D2(hypot, -1e3, 1e3);
  RT_SAMPLE_D2(fmod, -1e3, 1e3);
  RT_SAMPLE_D2(remainder, -1e3, 1e3);
  RT_SAMPLE_D2(fmin, -10, 10);
  RT_SAMPLE_D2(fmax, -10, 10);
  RT_SAMPLE_D2(nextafter, -10, 10);
  RT_SAMPLE_D2(fdim, -10, 10);
  {
    rt_hash h = {0xcbf29ce484222325ull};
    for (int i = 0; i < RT_SAMPLE_N; i++) {
      double x = rt_sample_d(&r, i, -100, 100), y = rt_sample_d(&r, i, -10, 10), z = rt_sample_d(&r, i, -100, 100);
      rt_hash_d(&h, hg_rt_fma(x, y, z));
      int q, e;
      rt_hash_d(&h, hg_rt_remquo(x, y, &q));
      rt_hash_u64(&h, (uint64_t)(int64_t)q);
      rt_hash_d(&h, hg_rt_frexp(x, &e));
      rt_hash_u64(&h, (uint64_t)(int64_t)e);
      double c;
      rt_hash_d(&h, hg_rt_sincos(z * 1e5, &c));
      rt_hash_d(&h, c);
      rt_hash_d(&h, hg_rt_ldexp(x, (int)(rt_sample_next(&r) % 4400) - 2200));
      rt_hash_d(&h, hg_rt_pown(x, (int)(rt_sample_next(&r) % 60) - 30));
      rt_hash_d(&h, hg_rt_rootn(x, (int)(rt_sample_next(&r) % 20) - 10));
      rt_hash_u64(&h, (uint64_t)(int64_t)hg_rt_ilogb(x));
    }
    emit("mixed", h.h, ctx);
    rt_hash hf = {0xcbf29ce484222325ull};
    for (int i = 0; i < RT_SAMPLE_N; i++) {
      float x = rt_sample_f(&r, i, -100, 100), y = rt_sample_f(&r, i, -10, 10), z = rt_sample_f(&r, i, -100, 100);
      rt_hash_f(&hf, hg_rt_fmaf(x, y, z));
      int q;
      rt_hash_f(&hf, hg_rt_remquof(x, y, &q));
      rt_hash_u64(&hf, (uint64_t)(int64_t)q);
      float c;
      rt_hash_f(&hf, hg_rt_sincosf(z * 1e5f, &c));
      rt_hash_f(&hf, c);
      rt_hash_f(&hf, hg_rt_sqrtf(x));
      rt_hash_f(&hf, hg_rt_ldexpf(x, (int)(rt_sample_next(&r) % 600) - 300));
      rt_hash_f(&hf, hg_rt_pownf(x, (int)(rt_sample_next(&r) % 60) - 30));
    }
    emit("mixedf", hf.h, ctx);
  }
}

#endif
