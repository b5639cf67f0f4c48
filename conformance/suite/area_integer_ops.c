/* Area integer_ops: operators and integer builtins on every integer type, against exact host
 * references (128-bit arithmetic, then wrapped to the type). One kernel per type computes every
 * operation; each operation is its own test. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

static const char *const IT[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"};
static const char *const OPS[] = {"add", "sub", "mul", "div", "rem", "and", "or", "xor", "not", "shl", "shr",
                                  "neg", "eq", "lt", "mul_hi", "mad_hi", "add_sat", "sub_sat", "hadd", "rhadd",
                                  "clz", "popcount", "rotate", "abs", "abs_diff", "min", "max", "clamp", "mad_sat"};
static const char *const EXPR[] = {"a + b", "a - b", "a * b", "a / b", "a % b", "a & b", "a | b", "a ^ b", "~a",
                                   "a << (b & (T)(8 * sizeof(T) - 1))", "a >> (b & (T)(8 * sizeof(T) - 1))", "-a", "(T)(a == b)", "(T)(a < b)", "mul_hi(a, b)",
                                   "mad_hi(a, b, c)", "add_sat(a, b)", "sub_sat(a, b)", "hadd(a, b)", "rhadd(a, b)",
                                   "clz(a)", "popcount(a)", "rotate(a, b)", "(T)abs(a)", "(T)abs_diff(a, b)",
                                   "min(a, b)", "max(a, b)", "clamp(a, min(b, c), max(b, c))", "mad_sat(a, b, c)"};
#define NUM_OPS 29
#define N_INT 4096

typedef __int128 i128;
typedef unsigned __int128 u128;

static int bits(int t) { return 8 << (t / 2); }
static bool sgn(int t) { return (t & 1) == 0; }
static i128 tmin(int t) { return sgn(t) ? -((i128)1 << (bits(t) - 1)) : 0; }
static i128 tmax(int t) { return sgn(t) ? ((i128)1 << (bits(t) - 1)) - 1 : ((i128)1 << bits(t)) - 1; }
static uint64_t mask(int t) { return bits(t) == 64 ? ~0ull : (1ull << bits(t)) - 1; }
static i128 value(int t, uint64_t raw) {
  raw &= mask(t);
  if (sgn(t) && (raw >> (bits(t) - 1)) & 1)
    return (i128)raw - ((i128)1 << bits(t));
  return (i128)raw;
}
static uint64_t wrap(int t, i128 v) { return (uint64_t)v & mask(t); }
static i128 sat(int t, i128 v) { return v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v; }
static i128 floordiv2(i128 v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

static uint64_t reference(int op, int t, uint64_t ra, uint64_t rb, uint64_t rc) {
  i128 a = value(t, ra), b = value(t, rb), c = value(t, rc);
  int n = bits(t);
  uint64_t ua = ra & mask(t);
  switch (op) {
  case 0: return wrap(t, a + b);
  case 1: return wrap(t, a - b);
  case 2: return wrap(t, (i128)((u128)a * (u128)b));
  case 3: return wrap(t, a / b); /* C truncation, as OpenCL */
  case 4: return wrap(t, a % b);
  case 5: return wrap(t, a & b);
  case 6: return wrap(t, a | b);
  case 7: return wrap(t, a ^ b);
  case 8: return wrap(t, ~a);
  case 9: return wrap(t, (i128)((u128)ua << (rb & (uint64_t)(n - 1))));
  case 10: return wrap(t, a >> (rb & (uint64_t)(n - 1))); /* arithmetic for signed */
  case 11: return wrap(t, -a);
  case 12: return a == b;
  case 13: return a < b;
  case 14:
  case 15: {
    i128 hi;
    if (n == 64 && !sgn(t))
      hi = (i128)(((u128)a * (u128)b) >> 64);
    else if (n == 64) {
      /* signed 64 x 64: the product fits in 128 bits */
      i128 p = a * b;
      hi = p >> 64;
    } else
      hi = (a * b) >> n;
    return wrap(t, op == 14 ? hi : hi + c);
  }
  case 16: return wrap(t, sat(t, a + b));
  case 17: return wrap(t, sat(t, a - b));
  case 18: return wrap(t, floordiv2(a + b));
  case 19: return wrap(t, floordiv2(a + b + 1));
  case 20: {
    int z = 0;
    for (int i = n - 1; i >= 0 && !((ua >> i) & 1); i--)
      z++;
    return (uint64_t)z;
  }
  case 21: return (uint64_t)__builtin_popcountll(ua);
  case 22: {
    int s = (int)(rb & (uint64_t)(n - 1));
    return s == 0 ? ua : wrap(t, (i128)((ua << s) | (ua >> (n - s))));
  }
  case 23: return wrap(t, a < 0 ? -a : a);
  case 24: return wrap(t, a > b ? a - b : b - a);
  case 25: return wrap(t, a < b ? a : b);
  case 26: return wrap(t, a > b ? a : b);
  case 27: {
    i128 lo = b < c ? b : c, hi = b < c ? c : b;
    return wrap(t, a < lo ? lo : a > hi ? hi : a);
  }
  default: {
    if (n == 64 && !sgn(t)) {
      u128 p = (u128)a * (u128)b + (u128)c;
      return p > (u128)tmax(t) ? ~0ull : (uint64_t)p;
    }
    if (n == 64) {
      /* |a*b| < 2^126: exact in i128, and adding c cannot overflow */
      return wrap(t, sat(t, a * b + c));
    }
    return wrap(t, sat(t, a * b + c));
  }
  }
}

static uint64_t *results[8];
static uint64_t *inputs[8][3];
static bool tried[8];

/* One kernel per type computing every operation, all eight in one program. */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("", "");
  for (int t = 0; t < 8; t++) {
    char *src = malloc(16384), name[32];
    size_t u = (size_t)snprintf(src, 16384,
                                "#define T %s\n__kernel void k_%s(__global const T *A, __global const T *B, __global const T *C, __global T *o) {\n"
                                "  size_t i = get_global_id(0), n = get_global_size(0);\n  T a = A[i], b = B[i], c = C[i];\n",
                                IT[t], IT[t]);
    for (int op = 0; op < NUM_OPS; op++)
      u += (size_t)snprintf(src + u, 16384 - u, "  o[%d * n + i] = %s;\n", op, EXPR[op]);
    snprintf(src + u, 16384 - u, "}\n#undef T\n");
    snprintf(name, sizeof name, "k_%s", IT[t]);
    suite_batch_add(b, name, "%s", src);
    free(src);
  }
  return b;
}

static bool compute(int t) {
  if (tried[t])
    return results[t] != NULL;
  tried[t] = true;
  size_t es = (size_t)bits(t) / 8, n = N_INT;
  char kname[32];
  snprintf(kname, sizeof kname, "k_%s", IT[t]);
  cl_kernel k = suite_batch_kernel(batch(), kname);
  if (!k)
    return false;
  unsigned char *in[3], *out = malloc(n * es * NUM_OPS);
  for (int j = 0; j < 3; j++) {
    in[j] = malloc(n * es);
    suite_fill(in[j], n * es);
  }
  /* small and extreme values too; no division by 0 nor MIN / -1 */
  for (size_t i = 0; i < n; i++) {
    for (int j = 0; j < 3; j++) {
      uint64_t v = 0;
      memcpy(&v, in[j] + i * es, es);
      uint32_t r = suite_rand() % 8;
      if (r == 0) v = suite_rand() % 5;
      if (r == 1) v = (uint64_t)-(int64_t)(suite_rand() % 5);
      if (r == 2) v = (uint64_t)(suite_rand() & 1 ? tmax(t) : tmin(t));
      memcpy(in[j] + i * es, &v, es);
    }
    uint64_t a = 0, b = 0;
    memcpy(&a, in[0] + i * es, es);
    memcpy(&b, in[1] + i * es, es);
    if (value(t, b) == 0 || (sgn(t) && value(t, a) == tmin(t) && value(t, b) == -1)) {
      b = 3;
      memcpy(in[1] + i * es, &b, es);
    }
  }
  cl_mem m[3], mo = suite_buffer(n * es * NUM_OPS, NULL);
  for (int j = 0; j < 3; j++)
    m[j] = suite_buffer(n * es, in[j]);
  bool ok = !suite_failed() && suite_args(k, 4, sizeof m[0], &m[0], sizeof m[1], &m[1], sizeof m[2], &m[2], sizeof mo, &mo) &&
            suite_run1(k, n, 64) && suite_read(mo, out, n * es * NUM_OPS);
  if (ok) {
    results[t] = malloc(n * NUM_OPS * 8);
    for (size_t i = 0; i < n * NUM_OPS; i++) {
      results[t][i] = 0;
      memcpy(&results[t][i], out + i * es, es);
    }
    for (int j = 0; j < 3; j++) {
      inputs[t][j] = malloc(n * 8);
      for (size_t i = 0; i < n; i++) {
        inputs[t][j][i] = 0;
        memcpy(&inputs[t][j][i], in[j] + i * es, es);
      }
    }
  }
  for (int j = 0; j < 3; j++) {
    free(in[j]);
    if (m[j]) clReleaseMemObject(m[j]);
  }
  if (mo) clReleaseMemObject(mo);
  free(out);
  clReleaseKernel(k);
  return ok;
}

static void run_int(const void *arg) {
  int t = (int)(intptr_t)arg / NUM_OPS, op = (int)(intptr_t)arg % NUM_OPS;
  if (!compute(t)) {
    if (!suite_failed())
      suite_fail("the %s kernel did not run", IT[t]);
    return;
  }
  size_t bad = 0;
  for (size_t i = 0; i < N_INT; i++) {
    uint64_t a = inputs[t][0][i], b = inputs[t][1][i], c = inputs[t][2][i];
    uint64_t got = results[t][(size_t)op * N_INT + i], want = reference(op, t, a, b, c);
    if (got != want && bad++ == 0)
      suite_fail("%s(%s) a=0x%llx b=0x%llx c=0x%llx: got 0x%llx, expected 0x%llx", OPS[op], IT[t],
                 (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, (unsigned long long)got,
                 (unsigned long long)want);
  }
  if (bad > 1)
    suite_fail("%zu wrong", bad);
}

__attribute__((constructor)) static void register_integer_ops(void) {
  static char names[8 * NUM_OPS][32];
  for (int t = 0; t < 8; t++)
    for (int op = 0; op < NUM_OPS; op++) {
      snprintf(names[t * NUM_OPS + op], 32, "%s_%s", OPS[op], IT[t]);
      suite_register("integer_ops", names[t * NUM_OPS + op], run_int, (const void *)(intptr_t)(t * NUM_OPS + op));
    }
}
