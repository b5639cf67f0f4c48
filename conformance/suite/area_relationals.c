/* Area relationals: comparison and classification builtins on float and double scalars
 * (1/0 results) and float4 (-1/0 per component), select and bitselect, any/all. */
#include "suite.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const FN[] = {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
                                 "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered", "signbit"};
#define NFN 14
#define NREL 2048

static int ref(int f, double a, double b, bool dbl) {
  switch (f) {
  case 0: return a == b;
  case 1: return a != b || isnan(a) || isnan(b);
  case 2: return isgreater(a, b);
  case 3: return isgreaterequal(a, b);
  case 4: return isless(a, b);
  case 5: return islessequal(a, b);
  case 6: return islessgreater(a, b);
  case 7: return isfinite(a) != 0;
  case 8: return isinf(a) != 0;
  case 9: return isnan(a) != 0;
  case 10: return dbl ? isnormal(a) : isnormal((float)a);
  case 11: return !isnan(a) && !isnan(b);
  case 12: return isnan(a) || isnan(b);
  default: return signbit(a) != 0;
  }
}

static void gen(double *a, double *b, size_t n) {
  static const double SP[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-40, 3.4e38, 1e-310};
  for (size_t i = 0; i < n; i++) {
    a[i] = (suite_rand() & 3) ? suite_uniform(-10, 10) : SP[suite_rand() % 10];
    b[i] = (suite_rand() & 3) == 0 ? a[i] : (suite_rand() & 3) ? suite_uniform(-10, 10) : SP[suite_rand() % 10];
  }
}

static const char SELECT_SRC[] =
      "__kernel void r_select(__global const int4 *a, __global const int4 *b, __global int4 *o) {\n"
      "  size_t i = get_global_id(0);\n  int4 x = a[i], y = b[i];\n"
      "  o[4 * i] = select(x, y, x < y);\n  o[4 * i + 1] = bitselect(x, y, x ^ y);\n"
      "  o[4 * i + 2] = (int4)(any(x), all(x), any(x < y), all(x < y));\n  o[4 * i + 3] = select(x, y, (uint4)(0x80000000u, 0, 0xffffffffu, 1));\n}\n";

static const char *const MODE[] = {"float", "double", "float4"};

/* The expression of function f in mode m (0 float, 1 double, 2 component 1 of a float4: -1/0). */
static void rel_expr(int f, int mode, char *expr, size_t size) {
  bool unary = (f >= 7 && f <= 10) || f == 13;
  if (mode == 2)
    snprintf(expr, size, unary ? "%s((float4)(c, a, b, a)).s1" : "%s((float4)(c, a, b, a), (float4)(b, b, a, c)).s1", FN[f]);
  else
    snprintf(expr, size, unary ? "%s(a)" : "%s(a, b)", FN[f]);
}

/* Every comparison as one program (one build for the area). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new(S.fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", "");
  for (int m = 0; m < 3; m++)
    for (int f = 0; f < NFN; f++) {
      if (m == 1 && !S.fp64)
        continue;
      char expr[160], name[48];
      rel_expr(f, m, expr, sizeof expr);
      snprintf(name, sizeof name, "r_%s_%s", FN[f], MODE[m]);
      suite_eval_add(b, name, m == 1 ? "double" : "float", "int", expr);
    }
  suite_batch_add(b, "r_select", "%s", SELECT_SRC);
  return b;
}

static void run_rel(const void *arg) {
  int f = (int)(intptr_t)arg % NFN, mode = (int)(intptr_t)arg / NFN; /* 0 float, 1 double, 2 float4 */
  bool dbl = mode == 1;
  if (dbl && !S.fp64) { suite_skip("no cl_khr_fp64"); return; }
  double a[NREL], b[NREL], c[NREL] = {0}, o[NREL];
  gen(a, b, NREL);
  char expr[160], name[48];
  rel_expr(f, mode, expr, sizeof expr);
  snprintf(name, sizeof name, "r_%s_%s", FN[f], MODE[mode]);
  if (!dbl) for (size_t i = 0; i < NREL; i++) a[i] = (float)a[i], b[i] = (float)b[i];
  if (!suite_eval_kernel(batch(), name, dbl ? "double" : "float", "int", a, b, c, o, NREL))
    return;
  for (size_t i = 0; i < NREL; i++) {
    int want = ref(f, a[i], b[i], dbl);
    if (!dbl && !S.fp32_denorm && f == 10 && a[i] != 0 && fabs(a[i]) < 1.17549435e-38)
      continue;
    if (mode == 2) want = want ? -1 : 0;
    if ((int)o[i] != want) {
      suite_fail("%s a=%.9g b=%.9g: %d, expected %d", expr, a[i], b[i], (int)o[i], want);
      return;
    }
  }
}

SUITE_TEST(relationals, select_bitselect_any_all) {
  size_t n = 512;
  cl_kernel k = suite_batch_kernel(batch(), "r_select");
  if (!k) return;
  int32_t *a = malloc(n * 16), *b = malloc(n * 16), *o = malloc(n * 64);
  suite_fill(a, n * 16), suite_fill(b, n * 16);
  cl_mem ma = suite_buffer(n * 16, a), mb = suite_buffer(n * 16, b), mo = suite_buffer(n * 64, NULL);
  if (!suite_failed() && suite_args(k, 3, sizeof ma, &ma, sizeof mb, &mb, sizeof mo, &mo) && suite_run1(k, n, 64) && suite_read(mo, o, n * 64))
    for (size_t i = 0; i < n && !suite_failed(); i++) {
      const int32_t *x = a + 4 * i, *y = b + 4 * i, *r = o + 16 * i;
      int anyx = 0, allx = 1, anylt = 0, alllt = 1;
      for (int j = 0; j < 4; j++) {
        anyx |= x[j] < 0, allx &= x[j] < 0, anylt |= x[j] < y[j], alllt &= x[j] < y[j];
        if (r[j] != (x[j] < y[j] ? y[j] : x[j])) suite_fail("select item %zu", i);
        if ((uint32_t)r[4 + j] != (((uint32_t)x[j] & ~((uint32_t)x[j] ^ (uint32_t)y[j])) | ((uint32_t)y[j] & ((uint32_t)x[j] ^ (uint32_t)y[j])))) suite_fail("bitselect item %zu", i);
      }
      if (r[8] != anyx || r[9] != allx || r[10] != anylt || r[11] != alllt) suite_fail("any/all item %zu", i);
      int32_t want[4] = {y[0], x[1], y[2], x[3]};
      if (memcmp(r + 12, want, 16)) suite_fail("select by the most significant bit, item %zu", i);
    }
  free(a), free(b), free(o);
  cl_mem ms[] = {ma, mb, mo};
  for (int j = 0; j < 3; j++) if (ms[j]) clReleaseMemObject(ms[j]);
  clReleaseKernel(k);
}

/* shuffle and shuffle2: only the low bits of each mask element count (log2 of the lane count,
 * of twice it for shuffle2), so the random masks also test that the high bits are ignored. */
static const char SHUFFLE_SRC[] =
    "__kernel void r_shuffle(__global const uint8 *a, __global const uint8 *b, __global const uint16 *m,\n"
    "                        __global const uchar16 *c, __global const uchar16 *cm, __global uint16 *o,\n"
    "                        __global uchar16 *oc, __global float2 *of) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o[2 * i] = shuffle(a[i], m[i]);\n"
    "  o[2 * i + 1] = shuffle2(a[i], b[i], m[i]);\n"
    "  oc[i] = shuffle(c[i], cm[i]);\n"
    "  of[i] = shuffle2(as_float4(a[i].lo), as_float4(b[i].hi), m[i].s37);\n"
    "}\n";

SUITE_TEST(relationals, shuffle_shuffle2) {
  size_t n = 1024;
  cl_program p = suite_build(SHUFFLE_SRC, "");
  cl_kernel k = p ? suite_kernel(p, "r_shuffle") : NULL;
  if (p) clReleaseProgram(p);
  if (!k) return;
  uint32_t *a = malloc(n * 32), *b = malloc(n * 32), *m = malloc(n * 64), *o = malloc(n * 128), *of = malloc(n * 8);
  uint8_t *c = malloc(n * 16), *cm = malloc(n * 16), *oc = malloc(n * 16);
  suite_fill(a, n * 32), suite_fill(b, n * 32), suite_fill(m, n * 64), suite_fill(c, n * 16), suite_fill(cm, n * 16);
  for (size_t i = 0; i < n * 8; i++) { /* finite floats for the float2 form: clear the top exponent bit */
    a[i] &= 0xbfffffffu;
    b[i] &= 0xbfffffffu;
  }
  cl_mem ma = suite_buffer(n * 32, a), mb = suite_buffer(n * 32, b), mm = suite_buffer(n * 64, m), mc = suite_buffer(n * 16, c),
         mcm = suite_buffer(n * 16, cm), mo = suite_buffer(n * 128, NULL), moc = suite_buffer(n * 16, NULL), mof = suite_buffer(n * 8, NULL);
  if (!suite_failed() &&
      suite_args(k, 8, sizeof ma, &ma, sizeof mb, &mb, sizeof mm, &mm, sizeof mc, &mc, sizeof mcm, &mcm, sizeof mo, &mo,
                 sizeof moc, &moc, sizeof mof, &mof) &&
      suite_run1(k, n, 64) && suite_read(mo, o, n * 128) && suite_read(moc, oc, n * 16) && suite_read(mof, of, n * 8))
    for (size_t i = 0; i < n && !suite_failed(); i++) {
      const uint32_t *x = a + 8 * i, *y = b + 8 * i, *mk = m + 16 * i;
      for (int j = 0; j < 16; j++) {
        uint32_t k2 = mk[j] % 16;
        if (o[32 * i + j] != x[mk[j] % 8]) suite_fail("shuffle(uint8, uint16) item %zu lane %d", i, j);
        if (o[32 * i + 16 + j] != (k2 < 8 ? x[k2] : y[k2 - 8])) suite_fail("shuffle2(uint8, uint8, uint16) item %zu lane %d", i, j);
        if (oc[16 * i + j] != c[16 * i + cm[16 * i + j] % 16]) suite_fail("shuffle(uchar16, uchar16) item %zu lane %d", i, j);
      }
      for (int j = 0; j < 2; j++) {
        uint32_t k3 = mk[j ? 7 : 3] % 8; /* of x.lo (lanes 0-3) ++ y.hi (lanes 4-7) */
        if (of[2 * i + j] != (k3 < 4 ? x[k3] : y[k3])) suite_fail("shuffle2(float4, float4, uint2) item %zu lane %d", i, j);
      }
    }
  free(a), free(b), free(m), free(o), free(of), free(c), free(cm), free(oc);
  cl_mem ms[] = {ma, mb, mm, mc, mcm, mo, moc, mof};
  for (int j = 0; j < 8; j++) if (ms[j]) clReleaseMemObject(ms[j]);
  clReleaseKernel(k);
}

__attribute__((constructor)) static void register_relationals(void) {
  static char names[3 * NFN][40];
  for (int m = 0; m < 3; m++)
    for (int f = 0; f < NFN; f++) {
      snprintf(names[m * NFN + f], 40, "%s_%s", FN[f], MODE[m]);
      suite_register("relationals", names[m * NFN + f], run_rel, (const void *)(intptr_t)(m * NFN + f));
    }
}
