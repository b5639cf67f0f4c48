/* Area geometrics: dot, cross, length, distance, normalize and the fast_ forms on float2/3/4
 * (and double4), against host sums in double with error bounds of a few ulps per term. */
#include "suite.h"

#include <math.h>
#include <string.h>

#define NG 1024
typedef struct { const char *name, *expr; int w; bool dbl; double tol; } gfn;
static const gfn GF[] = {
    {"dot_float4", "dot((float4)(a, b, c, a * b), (float4)(c, a, b, 1.5f))", 4, false, 1e-6},
    {"dot_float3", "dot((float3)(a, b, c), (float3)(c, a, b))", 3, false, 1e-6},
    {"dot_double4", "dot((double4)(a, b, c, a * b), (double4)(c, a, b, 1.5))", 4, true, 1e-14},
    {"cross_float3", "cross((float3)(a, b, c), (float3)(c, a, b)).y", 3, false, 1e-6},
    {"cross_float4", "cross((float4)(a, b, c, 9.0f), (float4)(c, a, b, 7.0f)).z", 4, false, 1e-6},
    {"length_float2", "length((float2)(a, b))", 2, false, 1e-6},
    {"length_float4", "length((float4)(a, b, c, 1.0f))", 4, false, 1e-6},
    {"distance_float3", "distance((float3)(a, b, c), (float3)(c, 2.0f, a))", 3, false, 1e-6},
    {"normalize_float3", "normalize((float3)(a, b, c)).x", 3, false, 1e-6},
    {"length_double3", "length((double3)(a, b, c))", 3, true, 1e-14},
    {"fast_length_float4", "fast_length((float4)(a, b, c, 1.0f))", 4, false, 1e-3},
    {"fast_normalize_float2", "fast_normalize((float2)(a, b)).y", 2, false, 1e-3},
};

static double ref(int f, double a, double b, double c, double *scale) {
  switch (f) {
  case 0: case 2: *scale = fabs(a * c) + fabs(b * a) + fabs(c * b) + fabs(a * b * 1.5); return a * c + b * a + c * b + a * b * 1.5;
  case 1: *scale = fabs(a * c) + fabs(b * a) + fabs(c * b); return a * c + b * a + c * b;
  case 3: *scale = fabs(c * c) + fabs(a * b); return c * c - a * b;
  case 4: *scale = fabs(a * a) + fabs(b * c); return a * a - b * c;
  case 5: *scale = hypot(a, b); return *scale;
  case 6: case 10: *scale = sqrt(a * a + b * b + c * c + 1); return *scale;
  case 7: *scale = sqrt((a - c) * (a - c) + (b - 2) * (b - 2) + (c - a) * (c - a)); return *scale;
  case 8: *scale = 1; return a / sqrt(a * a + b * b + c * c);
  case 9: *scale = sqrt(a * a + b * b + c * c); return *scale;
  default: *scale = 1; return b / hypot(a, b);
  }
}

/* Every case as one program (one build for the area). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new(S.fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", "");
  for (size_t f = 0; f < sizeof GF / sizeof GF[0]; f++) {
    if (GF[f].dbl && !S.fp64)
      continue;
    char name[48];
    snprintf(name, sizeof name, "g_%s", GF[f].name);
    const char *t = GF[f].dbl ? "double" : "float";
    suite_eval_add(b, name, t, t, GF[f].expr);
  }
  return b;
}

static void run_geo(const void *arg) {
  int f = (int)(intptr_t)arg;
  if (GF[f].dbl && !S.fp64) { suite_skip("no cl_khr_fp64"); return; }
  double a[NG], b[NG], c[NG], o[NG];
  for (size_t i = 0; i < NG; i++) {
    a[i] = suite_uniform(-50, 50), b[i] = suite_uniform(-50, 50), c[i] = suite_uniform(-50, 50);
    if (!GF[f].dbl) a[i] = (float)a[i], b[i] = (float)b[i], c[i] = (float)c[i];
  }
  char name[48];
  snprintf(name, sizeof name, "g_%s", GF[f].name);
  if (!suite_eval_kernel(batch(), name, GF[f].dbl ? "double" : "float", GF[f].dbl ? "double" : "float", a, b, c, o, NG))
    return;
  for (size_t i = 0; i < NG; i++) {
    double scale, want = ref(f, a[i], b[i], c[i], &scale);
    double tol = GF[f].tol * (GF[f].w + 2) * fmax(scale, 1e-30);
    if (!(fabs(o[i] - want) <= tol)) {
      suite_fail("%s a=%.9g b=%.9g c=%.9g: %.17g, expected %.17g", GF[f].expr, a[i], b[i], c[i], o[i], want);
      return;
    }
  }
}

__attribute__((constructor)) static void register_geometrics(void) {
  for (size_t f = 0; f < sizeof GF / sizeof GF[0]; f++)
    suite_register("geometrics", GF[f].name, run_geo, (const void *)(intptr_t)f);
}
