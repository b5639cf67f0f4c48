/* Area conversions: convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn](src) between every pair of the ten
 * scalar types, against host references computed exactly: every source value is exact in long
 * double; integer results by wrap-around or clamping, float-to-integer by the exact rounding
 * functions, integer/double-to-float by the host FPU in the requested rounding mode (each such
 * conversion is one correctly rounded IEEE operation). Out-of-range results without _sat are
 * implementation-defined and not checked. */
#include "suite.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef long double ld;
enum { T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_LONG, T_ULONG, T_FLOAT, T_DOUBLE, NUM_T };
static const char *const TN[NUM_T] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"};
static const size_t TS[NUM_T] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
static bool is_fp(int t) { return t >= T_FLOAT; }
static bool is_signed(int t) { return t == T_CHAR || t == T_SHORT || t == T_INT || t == T_LONG; }
static ld tmin(int t) { return is_signed(t) ? -ldexpl(1, (int)TS[t] * 8 - 1) : 0; }
static ld tmax(int t) { return is_signed(t) ? ldexpl(1, (int)TS[t] * 8 - 1) - 1 : ldexpl(1, (int)TS[t] * 8) - 1; }

#define MODES 5
static const char *const MODE_SUFFIX[MODES] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const int MODE_FE[MODES] = {-1, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
#define N_CONV 8192

static ld load(const unsigned char *p, int t) {
  switch (t) {
  case T_CHAR: return *(const int8_t *)p;
  case T_UCHAR: return *(const uint8_t *)p;
  case T_SHORT: { int16_t v; memcpy(&v, p, 2); return v; }
  case T_USHORT: { uint16_t v; memcpy(&v, p, 2); return v; }
  case T_INT: { int32_t v; memcpy(&v, p, 4); return v; }
  case T_UINT: { uint32_t v; memcpy(&v, p, 4); return v; }
  case T_LONG: { int64_t v; memcpy(&v, p, 8); return (ld)v; }
  case T_ULONG: { uint64_t v; memcpy(&v, p, 8); return (ld)v; }
  case T_FLOAT: { float v; memcpy(&v, p, 4); return v; }
  default: { double v; memcpy(&v, p, 8); return v; }
  }
}

/* Stores an integer-valued v in the destination's bits (two's complement wrap-around). */
static void store_int(unsigned char *p, int t, ld v) {
  uint64_t bits = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
  memcpy(p, &bits, TS[t]); /* little-endian: the low bytes */
}

/* Floating conversion of an exact value in the requested rounding mode (default: rte). */
static void store_fp(unsigned char *p, int dst, int src, const unsigned char *raw, int mode) {
  int fe = MODE_FE[mode] < 0 ? FE_TONEAREST : MODE_FE[mode];
  int saved = fegetround();
  fesetround(fe);
  volatile float f = 0;
  volatile double d = 0;
  switch (src) {
  case T_LONG: { volatile int64_t v; memcpy((void *)&v, raw, 8); f = (float)v; d = (double)v; break; }
  case T_ULONG: { volatile uint64_t v; memcpy((void *)&v, raw, 8); f = (float)v; d = (double)v; break; }
  case T_DOUBLE: { volatile double v; memcpy((void *)&v, raw, 8); f = (float)v; d = v; break; }
  default: { volatile ld v = load(raw, src); f = (float)v; d = (double)v; break; } /* exact in both, or <= 32 bits */
  }
  if (src == T_INT || src == T_UINT) { /* 32-bit integers: exact in double, one rounding to float */
    volatile double v = (double)load(raw, src);
    f = (float)v;
  }
  fesetround(saved);
  if (dst == T_FLOAT)
    memcpy(p, (const void *)&f, 4);
  else
    memcpy(p, (const void *)&d, 8);
}

static ld round_mode(ld v, int mode, bool to_int_default_rtz) {
  switch (mode) {
  case 0: return to_int_default_rtz ? truncl(v) : nearbyintl(v);
  case 1: return nearbyintl(v); /* the default mode of the host is round-to-nearest-even */
  case 2: return truncl(v);
  case 3: return ceill(v);
  default: return floorl(v);
  }
}

/* The reference of one variant; returns false when the result is implementation-defined. */
static bool reference(int src, int dst, const unsigned char *raw, int mode, bool sat, unsigned char *out) {
  ld v = load(raw, src);
  if (is_fp(dst)) {
    store_fp(out, dst, src, raw, mode);
    return true;
  }
  if (is_fp(src)) {
    if (isnan(v)) {
      if (!sat)
        return false;
      store_int(out, dst, 0);
      return true;
    }
    ld r = round_mode(v, mode, true);
    if (r < tmin(dst) || r > tmax(dst)) {
      if (!sat)
        return false;
      r = r < tmin(dst) ? tmin(dst) : tmax(dst);
    }
    store_int(out, dst, r);
    return true;
  }
  if (sat)
    v = v < tmin(dst) ? tmin(dst) : v > tmax(dst) ? tmax(dst) : v;
  store_int(out, dst, v);
  return true;
}

static bool fp_equal(const unsigned char *a, const unsigned char *b, int t) {
  ld x = load(a, t), y = load(b, t);
  if (isnan(x) && isnan(y))
    return true;
  return memcmp(a, b, TS[t]) == 0;
}

static bool is_sub_float(const unsigned char *p, int t) {
  if (t != T_FLOAT)
    return false;
  ld v = load(p, t);
  return v != 0 && isfinite(v) && fabsl(v) < FLT_MIN;
}

static void gen_input(int src, unsigned char *p, int dst) {
  uint32_t r = suite_rand() % 8;
  if (!is_fp(src) || r < 3) {
    uint64_t bits = suite_rand64();
    if (is_fp(src) && r == 0) /* exponents near the integer ranges */
      bits = 0;
    if (bits != 0 || !is_fp(src)) {
      memcpy(p, &bits, TS[src]);
      return;
    }
  }
  /* near integers of the destination's range, and half-way points */
  static const double FRAC[] = {0, 0.5, -0.5, 0.25, 0.75, 1e-7, -1e-7, 0.4999999};
  ld base;
  if (is_fp(dst) || r == 3)
    base = ldexpl(suite_uniform(-1, 1), (int)(suite_rand() % 70));
  else if (r == 4) /* around the destination's limits */
    base = ((suite_rand() & 1) ? tmax(dst) : tmin(dst)) + (ld)((int)(suite_rand() % 5) - 2);
  else
    base = tmin(dst) + truncl((tmax(dst) - tmin(dst)) * (ld)suite_uniform(0, 1));
  ld v = truncl(base) + FRAC[suite_rand() % 8];
  if (src == T_FLOAT) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else {
    double d = (double)v;
    memcpy(p, &d, 8);
  }
}

/* Conversions from every source type to every destination: one kernel per pair (all variants
 * of rounding and saturation), the whole area one program. */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new(S.fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", "");
  size_t cap = 8192;
  char *s = malloc(cap), name[48];
  for (int src = 0; src < NUM_T; src++)
    for (int dst = 0; dst < NUM_T; dst++) {
      if ((src == T_DOUBLE || dst == T_DOUBLE) && !S.fp64)
        continue;
      size_t used = 0;
      snprintf(name, sizeof name, "cv_%s_to_%s", TN[src], TN[dst]);
      used += (size_t)snprintf(s + used, cap - used, "__kernel void %s(__global const %s *a", name, TN[src]);
      int variants = is_fp(dst) ? MODES : 2 * MODES;
      for (int v = 0; v < variants; v++)
        used += (size_t)snprintf(s + used, cap - used, ", __global %s *o%d", TN[dst], v);
      used += (size_t)snprintf(s + used, cap - used, ") {\n  size_t i = get_global_id(0);\n");
      for (int v = 0; v < variants; v++)
        used += (size_t)snprintf(s + used, cap - used, "  o%d[i] = convert_%s%s%s(a[i]);\n", v, TN[dst],
                                 v >= MODES ? "_sat" : "", MODE_SUFFIX[v % MODES]);
      snprintf(s + used, cap - used, "}\n");
      suite_batch_add(b, name, "%s", s);
    }
  free(s);
  return b;
}

static void run_conv(const void *arg) {
  int src = (int)(intptr_t)arg / NUM_T, dst = (int)(intptr_t)arg % NUM_T;
  if ((src == T_DOUBLE || dst == T_DOUBLE) && !S.fp64) {
    suite_skip("no cl_khr_fp64");
    return;
  }
  char kname[48];
  snprintf(kname, sizeof kname, "cv_%s_to_%s", TN[src], TN[dst]);
  cl_kernel k = suite_batch_kernel(batch(), kname);
  if (!k)
    return;
  int variants = is_fp(dst) ? MODES : 2 * MODES;
  size_t n = N_CONV, ss = TS[src], ds = TS[dst];
  unsigned char *in = malloc(n * ss), *out = malloc(n * ds * (size_t)variants);
  for (size_t i = 0; i < n; i++)
    gen_input(src, in + i * ss, dst);
  cl_mem mi = suite_buffer(n * ss, in), mo[10] = {0};
  for (int v = 0; v < variants; v++)
    mo[v] = suite_buffer(n * ds, NULL);
  bool ok = !suite_failed() && clSetKernelArg(k, 0, sizeof mi, &mi) == CL_SUCCESS;
  for (int v = 0; ok && v < variants; v++)
    ok = clSetKernelArg(k, (cl_uint)v + 1, sizeof mo[v], &mo[v]) == CL_SUCCESS;
  if (!ok && !suite_failed())
    suite_fail("clSetKernelArg failed");
  if (ok && suite_run1(k, n, 64))
    for (int v = 0; v < variants && !suite_failed(); v++)
      suite_read(mo[v], out + (size_t)v * n * ds, n * ds);
  size_t bad = 0;
  for (int v = 0; ok && !suite_failed() && v < variants; v++) {
    bool sat = v >= MODES;
    int mode = v % MODES;
    for (size_t i = 0; i < n; i++) {
      unsigned char want[8], want0[8];
      const unsigned char *got = out + ((size_t)v * n + i) * ds;
      if (!reference(src, dst, in + i * ss, mode, sat, want))
        continue;
      bool good = is_fp(dst) ? fp_equal(got, want, dst) : memcmp(got, want, ds) == 0;
      if (!good && !S.fp32_denorm) { /* no denormals promised: flushed inputs and results pass too */
        if (is_sub_float(want, dst) && load(got, dst) == 0)
          good = true;
        if (is_sub_float(in + i * ss, src)) {
          unsigned char zero[8] = {0};
          if (signbit(load(in + i * ss, src)))
            zero[3] = 0x80;
          if (reference(src, dst, zero, mode, sat, want0))
            good = is_fp(dst) ? fp_equal(got, want0, dst) : memcmp(got, want0, ds) == 0;
        }
      }
      if (!good && bad++ == 0) {
        uint64_t gi = 0, wi = 0, ii = 0;
        memcpy(&gi, got, ds), memcpy(&wi, want, ds), memcpy(&ii, in + i * ss, ss);
        suite_fail("convert_%s%s%s((%s)%.21Lg, bits 0x%llx) gave bits 0x%llx (%.21Lg), expected 0x%llx (%.21Lg)",
                   TN[dst], sat ? "_sat" : "", MODE_SUFFIX[mode], TN[src], load(in + i * ss, src),
                   (unsigned long long)ii, (unsigned long long)gi, load(got, dst), (unsigned long long)wi,
                   load(want, dst));
      }
    }
  }
  if (bad > 1)
    suite_fail("%zu results wrong", bad);
  clReleaseMemObject(mi);
  for (int v = 0; v < variants; v++)
    if (mo[v])
      clReleaseMemObject(mo[v]);
  clReleaseKernel(k);
  free(in);
  free(out);
}

/* The saturating float -> integer conversions at every vector width: the RISC-V backend once
 * gave lane 1 of convert_uint3_sat(float3) 0xffffffff for negative and fractional inputs (LLVM
 * 15's llvm.fptoui.sat on <3 x float>; CTS conversions -3). Default rounding, each lane against
 * the scalar reference. */
static const int VEC_W[] = {2, 3, 4, 8, 16};
#define VEC_N 960 /* a multiple of every width */

static void run_vector_sat(const void *arg) {
  int src = (int)(intptr_t)arg;
  if (src == T_DOUBLE && !S.fp64) {
    suite_skip("no cl_khr_fp64");
    return;
  }
  static suite_batch *b[2];
  suite_batch **bb = &b[src == T_DOUBLE];
  if (!*bb) {
    *bb = suite_batch_new(src == T_DOUBLE ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", "");
    for (int dst = 0; dst < T_FLOAT; dst++)
      for (size_t w = 0; w < sizeof VEC_W / sizeof *VEC_W; w++) {
        char name[48];
        snprintf(name, sizeof name, "vs_%s_%s%d", TN[src], TN[dst], VEC_W[w]);
        suite_batch_add(*bb, name,
                        "__kernel void %s(__global const %s *a, __global %s *o) {\n"
                        "  size_t i = get_global_id(0);\n  vstore%d(convert_%s%d_sat(vload%d(i, a)), i, o); }\n",
                        name, TN[src], TN[dst], VEC_W[w], TN[dst], VEC_W[w], VEC_W[w]);
      }
  }
  size_t ss = TS[src];
  unsigned char *in = malloc(VEC_N * ss), *out = malloc(VEC_N * 8), want[8];
  static const double special[] = {-1.0, 0.5, -0.5, -0.0, 1e30, -1e30, 4294967296.0, 65536.5, -129.0, 3e9};
  for (int dst = 0; dst < T_FLOAT && !suite_failed(); dst++) {
    for (size_t i = 0; i < VEC_N; i++) {
      if (i % 3 == 1) { /* the specials land in every lane of every width */
        double v = special[(i / 3) % (sizeof special / sizeof *special)];
        float f = (float)v;
        if (src == T_FLOAT)
          memcpy(in + i * ss, &f, 4);
        else
          memcpy(in + i * ss, &v, 8);
      } else {
        gen_input(src, in + i * ss, dst);
      }
    }
    cl_mem mi = suite_buffer(VEC_N * ss, in), mo = suite_buffer(VEC_N * TS[dst], NULL);
    for (size_t w = 0; w < sizeof VEC_W / sizeof *VEC_W && !suite_failed(); w++) {
      char name[48];
      snprintf(name, sizeof name, "vs_%s_%s%d", TN[src], TN[dst], VEC_W[w]);
      cl_kernel k = suite_batch_kernel(*bb, name);
      if (!k)
        break;
      bool ok = clSetKernelArg(k, 0, sizeof mi, &mi) == CL_SUCCESS && clSetKernelArg(k, 1, sizeof mo, &mo) == CL_SUCCESS;
      if (!ok)
        suite_fail("clSetKernelArg failed");
      if (ok && suite_run1(k, VEC_N / (size_t)VEC_W[w], 0))
        suite_read(mo, out, VEC_N * TS[dst]);
      for (size_t i = 0; ok && !suite_failed() && i < VEC_N; i++) {
        reference(src, dst, in + i * ss, 0, true, want);
        if (memcmp(out + i * TS[dst], want, TS[dst])) {
          uint64_t gi = 0, wi = 0;
          memcpy(&gi, out + i * TS[dst], TS[dst]), memcpy(&wi, want, TS[dst]);
          suite_fail("convert_%s%d_sat(%s%d) lane %zu of vector %zu: (%s)%.21Lg gave 0x%llx, expected 0x%llx", TN[dst],
                     VEC_W[w], TN[src], VEC_W[w], i % (size_t)VEC_W[w], i / (size_t)VEC_W[w], TN[src],
                     load(in + i * ss, src), (unsigned long long)gi, (unsigned long long)wi);
        }
      }
      clReleaseKernel(k);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
  }
  free(in);
  free(out);
}

/* double -> float in every rounding mode for values in float's subnormal range, built with
 * -cl-denorms-are-zero (which allows flushing, never requires it): each result is the correctly
 * rounded float or a zero of the input's sign. PoCL 3.1 given the option rounds such a value up
 * (rtp) or down (rtn) to the smallest subnormal, 0x1p-149 for 0x1.fffffcp-127 (CTS conversions
 * float_rtp_double / float_rtn_double failed through hetGPU, whose device reports no float
 * denormals, so the CTS passes the option). */
static void run_subnormal_float_daz(const void *arg) {
  (void)arg;
  if (!S.fp64) {
    suite_skip("no cl_khr_fp64");
    return;
  }
  static suite_batch *b;
  if (!b) {
    b = suite_batch_new("#pragma OPENCL EXTENSION cl_khr_fp64 : enable", "-cl-denorms-are-zero");
    suite_batch_add(b, "cv_dsub", "__kernel void cv_dsub(__global const double *a, __global float *o) {\n"
                                  "  size_t i = get_global_id(0), n = get_global_size(0);\n"
                                  "  o[i] = convert_float(a[i]); o[n + i] = convert_float_rte(a[i]);\n"
                                  "  o[2 * n + i] = convert_float_rtz(a[i]); o[3 * n + i] = convert_float_rtp(a[i]);\n"
                                  "  o[4 * n + i] = convert_float_rtn(a[i]);\n}\n");
  }
  cl_kernel k = suite_batch_kernel(b, "cv_dsub");
  if (!k)
    return;
  enum { N = 4096 };
  double *in = malloc(N * sizeof *in);
  float *out = malloc(MODES * N * sizeof *out);
  for (size_t i = 0; i < N; i++) { /* exact float subnormals, values between them, and the edges */
    double m = suite_uniform(0.5, 1.0), v = ldexp(m, -126 - (int)(suite_rand() % 25));
    if (i % 3 == 0)
      v = (double)(float)v;
    if (i % 97 == 0)
      v = i % 2 ? 0x1.fffffcp-127 : 0x1p-149;
    in[i] = suite_rand() & 1 ? -v : v;
  }
  cl_mem mi = suite_buffer(N * sizeof *in, in), mo = suite_buffer(MODES * N * sizeof *out, NULL);
  if (!suite_failed() && suite_args(k, 2, sizeof mi, &mi, sizeof mo, &mo) && suite_run1(k, N, 64) &&
      suite_read(mo, out, MODES * N * sizeof *out)) {
    size_t bad = 0;
    for (int mode = 0; mode < MODES; mode++)
      for (size_t i = 0; i < N; i++) {
        unsigned char want[8];
        reference(T_DOUBLE, T_FLOAT, (const unsigned char *)&in[i], mode, false, want);
        float got = out[(size_t)mode * N + i], w;
        memcpy(&w, want, 4);
        bool flushed = got == 0 && !signbit(got) == !signbit(in[i]);
        if (memcmp(&got, &w, 4) && !flushed && bad++ == 0)
          suite_fail("convert_float%s((double)%a) under -cl-denorms-are-zero gave %a, expected %a or a zero",
                     MODE_SUFFIX[mode], in[i], got, w);
      }
    if (bad > 1)
      suite_fail("%zu results wrong", bad);
  }
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  clReleaseKernel(k);
  free(in);
  free(out);
}

__attribute__((constructor)) static void register_conversions(void) {
  suite_register("conversions", "subnormal_float_from_double_denorms_are_zero", run_subnormal_float_daz, NULL);
  suite_register("conversions", "vector_sat_from_float", run_vector_sat, (const void *)(intptr_t)T_FLOAT);
  suite_register("conversions", "vector_sat_from_double", run_vector_sat, (const void *)(intptr_t)T_DOUBLE);
  static char names[NUM_T * NUM_T][32];
  for (int s = 0; s < NUM_T; s++)
    for (int d = 0; d < NUM_T; d++) {
      snprintf(names[s * NUM_T + d], 32, "%s_to_%s", TN[s], TN[d]);
      suite_register("conversions", names[s * NUM_T + d], run_conv, (const void *)(intptr_t)(s * NUM_T + d));
    }
}
