/* Area commonfns: clamp, degrees, radians, max, min, mix, step, smoothstep, sign in float and
 * double against host references (exact where the result is exact, a few ulps otherwise). */
#include "suite.h"

#include <math.h>
#include <string.h>

#define NC 2048
typedef struct { const char *name, *expr; double tol; } cfn; /* tol: relative error allowed */
static const cfn CF[] = {
    {"clamp", "clamp(a, fmin(b, c), fmax(b, c))", 0}, {"degrees", "degrees(a)", 3e-7}, {"radians", "radians(a)", 3e-7},
    {"max", "max(a, b)", 0}, {"min", "min(a, b)", 0}, {"mix", "mix(a, b, c * c)", 1e-5},
    {"step", "step(b, a)", 0}, {"smoothstep", "smoothstep(fmin(b, c), fmax(b, c) + 1, a)", 1e-5}, {"sign", "sign(a)", 0}};

static double ref(int f, double a, double b, double c) {
  switch (f) {
  case 0: return fmin(fmax(a, fmin(b, c)), fmax(b, c));
  case 1: return a * (180.0 / M_PI);
  case 2: return a * (M_PI / 180.0);
  case 3: return fmax(a, b);
  case 4: return fmin(a, b);
  case 5: return a + (b - a) * (c * c);
  case 6: return a < b ? 0.0 : 1.0;
  case 7: { double e0 = fmin(b, c), e1 = fmax(b, c) + 1, t = fmin(fmax((a - e0) / (e1 - e0), 0.0), 1.0); return t * t * (3 - 2 * t); }
  default: return a > 0 ? 1.0 : a < 0 ? -1.0 : a;
  }
}

/* Every function in both types as one program (one build for the area). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new(S.fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", "");
  for (int f = 0; f < 9; f++)
    for (int d = 0; d < (S.fp64 ? 2 : 1); d++) {
      char name[48];
      snprintf(name, sizeof name, "c_%s_%s", CF[f].name, d ? "double" : "float");
      suite_eval_add(b, name, d ? "double" : "float", d ? "double" : "float", CF[f].expr);
    }
  return b;
}

static void run_common(const void *arg) {
  int f = (int)(intptr_t)arg / 2;
  bool dbl = (int)(intptr_t)arg % 2;
  if (dbl && !S.fp64) { suite_skip("no cl_khr_fp64"); return; }
  double a[NC], b[NC], c[NC], o[NC];
  for (size_t i = 0; i < NC; i++) {
    a[i] = suite_uniform(-100, 100), b[i] = suite_uniform(-100, 100), c[i] = suite_uniform(-1, 1);
    if (!dbl) a[i] = (float)a[i], b[i] = (float)b[i], c[i] = (float)c[i];
  }
  char name[48];
  snprintf(name, sizeof name, "c_%s_%s", CF[f].name, dbl ? "double" : "float");
  if (!suite_eval_kernel(batch(), name, dbl ? "double" : "float", dbl ? "double" : "float", a, b, c, o, NC))
    return;
  for (size_t i = 0; i < NC; i++) {
    double want = ref(f, a[i], b[i], c[i]);
    if (!dbl && CF[f].tol == 0) want = (float)want;
    double tol = CF[f].tol * (dbl ? 1e-8 : 1) * fmax(fmax(1.0, fabs(want)), fmax(fabs(a[i]), fabs(b[i])));
    if (!(fabs(o[i] - want) <= tol)) {
      suite_fail("%s a=%.9g b=%.9g c=%.9g: %.17g, expected %.17g", CF[f].expr, a[i], b[i], c[i], o[i], want);
      return;
    }
  }
}

__attribute__((constructor)) static void register_commonfns(void) {
  static char names[18][32];
  for (int f = 0; f < 9; f++)
    for (int d = 0; d < 2; d++) {
      snprintf(names[f * 2 + d], 32, "%s_%s", CF[f].name, d ? "double" : "float");
      suite_register("commonfns", names[f * 2 + d], run_common, (const void *)(intptr_t)(f * 2 + d));
    }
}
