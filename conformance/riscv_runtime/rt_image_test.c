/* The device runtime's image functions (devices/riscv/runtime/rt_image.rvc) built for the host
 * from the same sources and checked against references written here from the OpenCL 3.0
 * specification's text, independently of the runtime's code:
 *  - conversions, exactly: every UNORM/SNORM 8/16 value and every half pattern read back;
 *    float -> UNORM/SNORM/half (round to nearest even, saturated) and the integer saturations
 *    written, for edge and random values;
 *  - sampling: every image type, addressing mode, normalized or not, nearest and linear, with
 *    random and boundary coordinates, against the specification's formulas evaluated in double
 *    (the coordinate scaling s * w in float, as the formulas state it for float coordinates);
 *    nearest results exactly, linear within 1e-5 absolute on [-1, 1] texels;
 *  - border colors of CLK_ADDRESS_CLAMP for R and RGBA, channel orders R/RG/RGBA/BGRA,
 *    integer-coordinate reads, and writes outside the image dropped.
 * Prints "N passed, M failed". HG_RT_SEED sets the random seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/runtime/rt_all.rvc"

static unsigned passed, failed;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void) {
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return rng * 2685821657736338717ull;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(next_rand() >> 11) * 0x1p-53; }

static void check(int ok, const char *what, unsigned *bad) {
  if (!ok && (*bad)++ < 5)
    printf("  mismatch: %s\n", what);
}
static void verdict(const char *name, unsigned bad, unsigned total) {
  printf("%-40s %u checks, %u wrong\n", name, total, bad);
  if (bad) failed++;
  else passed++;
}

/* ---- reference conversions ---------------------------------------------------------------- */

static float ref_half_to_float(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (float)((h & 0x8000) ? -v : v);
}

/* The half nearest to f, ties to the even pattern; beyond the largest half by half an ulp:
 * infinity. Found by search over the ordered positive patterns. */
static uint16_t ref_float_to_half(float f) {
  if (isnan(f))
    return 0x7e00;
  uint16_t sign = signbit(f) ? 0x8000 : 0;
  double a = fabs((double)f);
  if (a >= 65520.0)
    return sign | 0x7c00;
  uint16_t lo = 0, hi = 0x7bff;
  while (lo < hi) { /* largest pattern <= a */
    uint16_t mid = (uint16_t)((lo + hi + 1) / 2);
    if (ref_half_to_float(mid) <= a) lo = mid;
    else hi = (uint16_t)(mid - 1);
  }
  if (lo == 0x7bff || ref_half_to_float(lo) == a)
    return sign | lo;
  double d0 = a - ref_half_to_float(lo), d1 = ref_half_to_float((uint16_t)(lo + 1)) - a;
  return sign | (d0 < d1 || (d0 == d1 && !(lo & 1)) ? lo : (uint16_t)(lo + 1));
}

/* convert_<T>_sat_rte(x) for x a float: NaN 0, saturation, ties to even (nearbyint: the host's
 * default rounding mode is to nearest even). */
static long ref_sat_rte(float x, long lo, long hi) {
  if (isnan(x)) return 0;
  double r = nearbyint((double)x);
  return r < lo ? lo : r > hi ? hi : (long)r;
}

/* ---- a host image ----------------------------------------------------------------------------- */

typedef struct himg {
  hg_rt_image d;
  uint8_t *px;
} himg;

static unsigned chan_size(uint32_t t) {
  switch (t) {
  case HG_RT_TYPE_SNORM_INT8: case HG_RT_TYPE_UNORM_INT8: case HG_RT_TYPE_SIGNED_INT8: case HG_RT_TYPE_UNSIGNED_INT8:
    return 1;
  case HG_RT_TYPE_SIGNED_INT32: case HG_RT_TYPE_UNSIGNED_INT32: case HG_RT_TYPE_FLOAT: return 4;
  default: return 2;
  }
}
static unsigned chan_count(uint32_t o) { return o == HG_RT_ORDER_R ? 1 : o == HG_RT_ORDER_RG ? 2 : 4; }

static himg make(int dim, int w, int h, int d, int layers, uint32_t order, uint32_t type) {
  himg im = {{0}, NULL};
  im.d.width = w, im.d.height = h, im.d.depth = d, im.d.array_size = layers;
  im.d.order = order, im.d.type = type, im.d.channels = chan_count(order);
  im.d.pixel_size = chan_count(order) * chan_size(type), im.d.dim = (uint32_t)dim;
  im.d.row_pitch = (uint64_t)w * im.d.pixel_size;
  /* a 1D array's layers are rows, a 2D array's and a 3D image's slices */
  im.d.slice_pitch = dim == HG_RT_DIM_1D_ARRAY ? im.d.row_pitch : im.d.row_pitch * (uint64_t)h;
  size_t n = im.d.slice_pitch * (size_t)(dim == HG_RT_DIM_3D ? d : layers);
  if (dim == HG_RT_DIM_1D || dim == HG_RT_DIM_2D || dim == HG_RT_DIM_1D_BUFFER)
    n = im.d.row_pitch * (size_t)h;
  im.px = malloc(n);
  for (size_t i = 0; i < n; i++)
    im.px[i] = (uint8_t)next_rand();
  if (type == HG_RT_TYPE_FLOAT) /* finite values in [-1, 1] */
    for (size_t i = 0; i + 4 <= n; i += 4) {
      float f = (float)uniform(-1, 1);
      memcpy(im.px + i, &f, 4);
    }
  if (type == HG_RT_TYPE_HALF_FLOAT)
    for (size_t i = 0; i + 2 <= n; i += 2) {
      uint16_t h = ref_float_to_half((float)uniform(-1, 1));
      memcpy(im.px + i, &h, 2);
    }
  im.d.base = (uint64_t)(uintptr_t)im.px;
  return im;
}

/* The reference texel: stored channels (little-endian) mapped by the order, missing channels
 * (0, 0, 0, 1); border color outside. */
static void ref_texel(const himg *im, long x, long y, long z, long zn, double *out) {
  const hg_rt_image *d = &im->d;
  int alpha = d->order == HG_RT_ORDER_RGBA || d->order == HG_RT_ORDER_BGRA;
  if (x < 0 || x >= d->width || y < 0 || y >= d->height || z < 0 || z >= zn) {
    out[0] = out[1] = out[2] = 0, out[3] = alpha ? 0 : 1;
    return;
  }
  const uint8_t *p = im->px + x * d->pixel_size + y * d->row_pitch + z * d->slice_pitch;
  unsigned cs = chan_size(d->type);
  double st[4];
  for (unsigned c = 0; c < chan_count(d->order); c++) {
    uint32_t v = 0;
    memcpy(&v, p + c * cs, cs);
    switch (d->type) {
    case HG_RT_TYPE_UNORM_INT8: st[c] = (float)(v / 255.0); break;
    case HG_RT_TYPE_UNORM_INT16: st[c] = (float)(v / 65535.0); break;
    case HG_RT_TYPE_SNORM_INT8: st[c] = fmax(-1.0, (float)((int8_t)v / 127.0)); break;
    case HG_RT_TYPE_SNORM_INT16: st[c] = fmax(-1.0, (float)((int16_t)v / 32767.0)); break;
    case HG_RT_TYPE_HALF_FLOAT: st[c] = ref_half_to_float((uint16_t)v); break;
    case HG_RT_TYPE_FLOAT: { float f; memcpy(&f, &v, 4); st[c] = f; break; }
    case HG_RT_TYPE_SIGNED_INT8: st[c] = (int8_t)v; break;
    case HG_RT_TYPE_SIGNED_INT16: st[c] = (int16_t)v; break;
    case HG_RT_TYPE_SIGNED_INT32: st[c] = (int32_t)v; break;
    default: st[c] = v; break;
    }
  }
  double r[4] = {0, 0, 0, 1};
  switch (d->order) {
  case HG_RT_ORDER_R: r[0] = st[0]; break;
  case HG_RT_ORDER_RG: r[0] = st[0], r[1] = st[1]; break;
  case HG_RT_ORDER_RGBA: memcpy(r, st, sizeof r); break;
  default: r[0] = st[2], r[1] = st[1], r[2] = st[0], r[3] = st[3]; break; /* BGRA */
  }
  memcpy(out, r, sizeof r);
}

/* ---- the specification's addressing and filtering, in double ---------------------------------- */

static long clampl(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }
static long ffloor(double x) { return isnan(x) ? 0 : x >= 2147483647.0 ? 2147483647L : x <= -2147483648.0 ? -2147483648L : (long)floor(x); }

/* nearest: the index (CLAMP may give -1 or n: border) */
static long ref_nearest(float s, long n, unsigned mode, int norm) {
  if (norm && mode == 0x6) {
    double u = (double)((s - floorf(s)) * (float)n);
    long i = ffloor(u);
    if (i > n - 1) i -= n;
    return i;
  }
  if (norm && mode == 0x8) {
    double sp = fabs((double)s - 2.0 * nearbyint(0.5 * (double)s));
    long i = ffloor((double)((float)sp * (float)n));
    return i < n - 1 ? i : n - 1;
  }
  double u = norm ? (double)(s * (float)n) : (double)s;
  long i = ffloor(u);
  return mode == 0x4 ? clampl(i, -1, n) : clampl(i, 0, n - 1); /* NONE: only inside is tested */
}

static void ref_linear(float s, long n, unsigned mode, int norm, long *i0, long *i1, double *a) {
  double u;
  if (norm && mode == 0x6)
    u = (double)((s - floorf(s)) * (float)n);
  else if (norm && mode == 0x8)
    u = (double)((float)fabs((double)s - 2.0 * nearbyint(0.5 * (double)s)) * (float)n);
  else
    u = norm ? (double)(s * (float)n) : (double)s;
  long j = ffloor(u - 0.5);
  *a = (u - 0.5) - floor(u - 0.5);
  *i0 = j, *i1 = j + 1;
  if (norm && mode == 0x6) {
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (norm && mode == 0x8) {
    *i0 = *i0 < 0 ? 0 : *i0;
    *i1 = *i1 > n - 1 ? n - 1 : *i1;
  } else if (mode == 0x4) {
    *i0 = clampl(*i0, -1, n), *i1 = clampl(*i1, -1, n);
  } else {
    *i0 = clampl(*i0, 0, n - 1), *i1 = clampl(*i1, 0, n - 1);
  }
}

static void ref_read(const himg *im, uint32_t sampler, int dim, const float *c, double *out) {
  const hg_rt_image *d = &im->d;
  int axes = dim == HG_RT_DIM_3D ? 3 : dim == HG_RT_DIM_2D || dim == HG_RT_DIM_2D_ARRAY ? 2 : 1;
  int layer_at = dim == HG_RT_DIM_1D_ARRAY ? 1 : dim == HG_RT_DIM_2D_ARRAY ? 2 : -1;
  long n[3] = {d->width, axes >= 2 ? d->height : 1, dim == HG_RT_DIM_3D ? d->depth : layer_at >= 0 ? d->array_size : 1};
  unsigned mode = sampler & 0xE;
  int norm = sampler & 1, linear = (sampler & 0x20) != 0;
  long lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  double a[3] = {0, 0, 0};
  for (int k = 0; k < axes; k++) {
    if (linear) ref_linear(c[k], n[k], mode, norm, &lo[k], &hi[k], &a[k]);
    else lo[k] = hi[k] = ref_nearest(c[k], n[k], mode, norm);
  }
  if (layer_at >= 0) /* clamp(rint(v), 0, d - 1) */
    lo[2] = hi[2] = clampl(ffloor(nearbyint(c[layer_at])), 0, n[2] - 1);
  double acc[4] = {0, 0, 0, 0};
  for (int k = 0; k < (axes >= 3 && linear ? 2 : 1); k++)
    for (int j = 0; j < (axes >= 2 && linear ? 2 : 1); j++)
      for (int i = 0; i < (linear ? 2 : 1); i++) {
        double w = (i ? a[0] : 1 - a[0]) * (axes >= 2 ? (j ? a[1] : 1 - a[1]) : 1) *
                   (axes >= 3 ? (k ? a[2] : 1 - a[2]) : 1);
        if (!linear) w = 1;
        double t[4];
        ref_texel(im, i ? hi[0] : lo[0], j ? hi[1] : lo[1], k ? hi[2] : lo[2], n[2], t);
        for (int q = 0; q < 4; q++) acc[q] += w * t[q];
      }
  memcpy(out, acc, sizeof acc);
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void test_read_conversions(void) {
  struct { uint32_t type; unsigned n; } ts[] = {{HG_RT_TYPE_UNORM_INT8, 256}, {HG_RT_TYPE_SNORM_INT8, 256},
      {HG_RT_TYPE_UNORM_INT16, 65536}, {HG_RT_TYPE_SNORM_INT16, 65536}, {HG_RT_TYPE_HALF_FLOAT, 65536}};
  for (unsigned t = 0; t < 5; t++) {
    unsigned bad = 0;
    himg im = make(HG_RT_DIM_1D, (int)ts[t].n, 1, 1, 1, HG_RT_ORDER_R, ts[t].type);
    for (unsigned v = 0; v < ts[t].n; v++)
      memcpy(im.px + v * im.d.pixel_size, &v, im.d.pixel_size);
    for (unsigned v = 0; v < ts[t].n; v++) {
      float out[4];
      double ref[4];
      hg_rt_image_readf_int(&im.d, HG_RT_SAMPLER_NONE, HG_RT_DIM_1D, (int)v, 0, 0, out);
      ref_texel(&im, v, 0, 0, 1, ref);
      char what[96];
      snprintf(what, sizeof what, "type %#x value %#x: %a, expected %a", ts[t].type, v, out[0], ref[0]);
      int same = (isnan(out[0]) && isnan(ref[0])) || (out[0] == (float)ref[0] && !!signbit(out[0]) == !!signbit(ref[0]));
      check(same && out[1] == 0 && out[2] == 0 && out[3] == 1, what, &bad);
    }
    char name[64];
    snprintf(name, sizeof name, "read conversion %#x (all values)", ts[t].type);
    verdict(name, bad, ts[t].n);
    free(im.px);
  }
}

static float edge_or_random(unsigned i) {
  static const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f / 255, 1.5f / 255, 2.5f / 255, 0.5f / 127,
                                -0.5f / 127, 1.5f / 127, 0.5f / 65535, 2.5f / 65535, 1e-8f, -1e-8f, 2.0f,
                                -2.0f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN, 65504.0f, 65519.99f, 65520.0f,
                                5.9604645e-8f, 2.9802322e-8f, 8.940697e-8f, 6.1035156e-5f, 0.33333334f};
  unsigned ne = sizeof edges / sizeof *edges;
  if (i < ne) return edges[i];
  switch (next_rand() % 3) {
  case 0: return (float)uniform(-1.5, 1.5);
  case 1: return (float)((int)(next_rand() % 600) - 300) / (next_rand() % 2 ? 254.0f : 510.0f); /* near ties */
  default: { uint32_t b = (uint32_t)next_rand(); float f; memcpy(&f, &b, 4); return f; }
  }
}

static void test_write_conversions(void) {
  uint32_t types[] = {HG_RT_TYPE_UNORM_INT8, HG_RT_TYPE_UNORM_INT16, HG_RT_TYPE_SNORM_INT8,
                      HG_RT_TYPE_SNORM_INT16, HG_RT_TYPE_HALF_FLOAT, HG_RT_TYPE_FLOAT};
  for (unsigned t = 0; t < 6; t++) {
    unsigned bad = 0, N = 200000;
    himg im = make(HG_RT_DIM_2D, 1, 1, 1, 1, HG_RT_ORDER_RGBA, types[t]);
    for (unsigned i = 0; i < N; i++) {
      float col[4];
      for (int c = 0; c < 4; c++) col[c] = edge_or_random(i * 4 + (unsigned)c < 29 ? i * 4 + (unsigned)c : 1000);
      hg_rt_image_writef(&im.d, HG_RT_DIM_2D, 0, 0, 0, col);
      for (int c = 0; c < 4; c++) {
        uint32_t got = 0, want;
        memcpy(&got, im.px + c * chan_size(types[t]), chan_size(types[t]));
        float x = col[c];
        switch (types[t]) {
        case HG_RT_TYPE_UNORM_INT8: want = (uint32_t)ref_sat_rte(x * 255.0f, 0, 255); break;
        case HG_RT_TYPE_UNORM_INT16: want = (uint32_t)ref_sat_rte(x * 65535.0f, 0, 65535); break;
        case HG_RT_TYPE_SNORM_INT8: want = (uint32_t)ref_sat_rte(x * 127.0f, -128, 127) & 0xff; break;
        case HG_RT_TYPE_SNORM_INT16: want = (uint32_t)ref_sat_rte(x * 32767.0f, -32768, 32767) & 0xffff; break;
        case HG_RT_TYPE_HALF_FLOAT: want = ref_float_to_half(x); if (isnan(x)) got = (got & 0x7c00) == 0x7c00 && (got & 0x3ff) ? 0x7e00 : got; break;
        default: memcpy(&want, &x, 4); break;
        }
        char what[96];
        snprintf(what, sizeof what, "type %#x write %a: %#x, expected %#x", types[t], x, got, want);
        check(got == want, what, &bad);
      }
    }
    char name[64];
    snprintf(name, sizeof name, "write_imagef conversion %#x", types[t]);
    verdict(name, bad, N * 4);
    free(im.px);
  }
  /* integer writes saturate (write_imagei to signed, write_imageui to unsigned channels) */
  uint32_t itypes[] = {HG_RT_TYPE_SIGNED_INT8, HG_RT_TYPE_SIGNED_INT16, HG_RT_TYPE_SIGNED_INT32,
                       HG_RT_TYPE_UNSIGNED_INT8, HG_RT_TYPE_UNSIGNED_INT16, HG_RT_TYPE_UNSIGNED_INT32};
  for (unsigned t = 0; t < 6; t++) {
    unsigned bad = 0, N = 50000;
    himg im = make(HG_RT_DIM_2D, 1, 1, 1, 1, HG_RT_ORDER_RGBA, itypes[t]);
    for (unsigned i = 0; i < N; i++) {
      int32_t col[4];
      for (int c = 0; c < 4; c++) {
        uint64_t r = next_rand();
        col[c] = r % 3 == 0 ? (int32_t)(r >> 32) : (int32_t)((r >> 32) % 140000) - 70000;
      }
      hg_rt_image_writei(&im.d, HG_RT_DIM_2D, 0, 0, 0, col);
      int32_t back[4];
      hg_rt_image_readi_int(&im.d, HG_RT_SAMPLER_NONE, HG_RT_DIM_2D, 0, 0, 0, back);
      for (int c = 0; c < 4; c++) {
        long v = col[c], want;
        uint32_t u = (uint32_t)col[c];
        switch (itypes[t]) {
        case HG_RT_TYPE_SIGNED_INT8: want = clampl(v, -128, 127); break;
        case HG_RT_TYPE_SIGNED_INT16: want = clampl(v, -32768, 32767); break;
        case HG_RT_TYPE_UNSIGNED_INT8: want = u > 255 ? 255 : u; break;
        case HG_RT_TYPE_UNSIGNED_INT16: want = u > 65535 ? 65535 : u; break;
        default: want = v; break;
        }
        char what[96];
        snprintf(what, sizeof what, "type %#x write %ld: read back %d, expected %ld", itypes[t], v, back[c], want);
        check((int32_t)want == back[c], what, &bad);
      }
    }
    char name[64];
    snprintf(name, sizeof name, "write_image{i,ui} saturation %#x", itypes[t]);
    verdict(name, bad, N * 4);
    free(im.px);
  }
}

/* A coordinate along an axis of n texels: random, exact texel edges and centres, out of range. */
static float coord(long n, int norm) {
  double v;
  switch (next_rand() % 4) {
  case 0: v = (double)(long)(next_rand() % (uint64_t)(3 * n + 1)) - n; break;          /* texel edges */
  case 1: v = (double)(long)(next_rand() % (uint64_t)(3 * n + 1)) - n + 0.5; break;    /* centres */
  default: v = uniform(-1.5 * n, 2.5 * n); break;
  }
  return norm ? (float)(v / n) : (float)v;
}

static void test_sampling(void) {
  int dims[] = {HG_RT_DIM_1D, HG_RT_DIM_1D_ARRAY, HG_RT_DIM_2D, HG_RT_DIM_2D_ARRAY, HG_RT_DIM_3D};
  const char *dname[] = {"1d", "1d_array", "2d", "2d_array", "3d"};
  unsigned modes[] = {0x0, 0x2, 0x4, 0x6, 0x8};
  struct { uint32_t order, type; } fmts[] = {{HG_RT_ORDER_RGBA, HG_RT_TYPE_FLOAT}, {HG_RT_ORDER_R, HG_RT_TYPE_UNORM_INT8},
                                            {HG_RT_ORDER_BGRA, HG_RT_TYPE_UNORM_INT8}, {HG_RT_ORDER_RG, HG_RT_TYPE_SNORM_INT16},
                                            {HG_RT_ORDER_RGBA, HG_RT_TYPE_HALF_FLOAT}};
  for (unsigned di = 0; di < 5; di++) {
    unsigned bad = 0, total = 0;
    double worst = 0;
    for (unsigned fi = 0; fi < 5; fi++) {
      himg im = make(dims[di], 5 + (int)(next_rand() % 4), 3 + (int)(next_rand() % 4), 4, 3, fmts[fi].order,
                     fmts[fi].type);
      if (dims[di] != HG_RT_DIM_2D && dims[di] != HG_RT_DIM_2D_ARRAY && dims[di] != HG_RT_DIM_3D)
        im.d.height = 1;
      if (dims[di] != HG_RT_DIM_3D)
        im.d.depth = 1;
      int axes = dims[di] == HG_RT_DIM_3D ? 3 : dims[di] == HG_RT_DIM_2D || dims[di] == HG_RT_DIM_2D_ARRAY ? 2 : 1;
      long n[3] = {im.d.width, im.d.height, dims[di] == HG_RT_DIM_3D ? im.d.depth : im.d.array_size};
      for (unsigned mi = 0; mi < 5; mi++)
        for (int norm = 0; norm < 2; norm++)
          for (int lin = 0; lin < 2; lin++) {
            if (!norm && modes[mi] >= 0x6) continue; /* repeat modes need normalized coordinates */
            uint32_t sampler = (uint32_t)norm | modes[mi] | (lin ? 0x20u : 0x10u);
            for (unsigned k = 0; k < 400; k++) {
              float c[3] = {0, 0, 0};
              for (int a = 0; a < axes; a++) c[a] = coord(n[a], norm);
              if (axes < 3 && dims[di] != HG_RT_DIM_1D) /* the layer: unnormalized, rounded, clamped */
                c[axes] = (float)uniform(-1.5, n[2] + 0.5);
              if (modes[mi] == 0x0) /* CLK_ADDRESS_NONE: only coordinates whose texels are inside */
                for (int a = 0; a < axes; a++) {
                  double lo = lin ? 0.5 : 0.0, hi = lin ? n[a] - 0.5 : n[a] - 0.001;
                  double u = uniform(lo, hi);
                  c[a] = norm ? (float)(u / n[a]) : (float)u;
                }
              float out[4];
              double ref[4];
              hg_rt_image_readf(&im.d, sampler, dims[di], c[0], c[1], c[2], out);
              ref_read(&im, sampler, dims[di], c, ref);
              double err = 0;
              for (int q = 0; q < 4; q++) err = fmax(err, fabs(out[q] - ref[q]));
              worst = lin ? fmax(worst, err) : worst;
              char what[200];
              snprintf(what, sizeof what, "%s fmt %u sampler %#x coord (%a, %a, %a): (%g %g %g %g) expected (%g %g %g %g)",
                       dname[di], fi, sampler, c[0], c[1], c[2], out[0], out[1], out[2], out[3], ref[0], ref[1], ref[2], ref[3]);
              check(lin ? err <= 1e-5 : err == 0, what, &bad);
              total++;
            }
          }
      free(im.px);
    }
    char name[64];
    snprintf(name, sizeof name, "sampling %s (linear max error %.1e)", dname[di], worst);
    verdict(name, bad, total);
  }
}

static void test_int_coords_and_borders(void) {
  unsigned bad = 0, total = 0;
  /* integer coordinates with CLK_ADDRESS_CLAMP: the border; R gives alpha 1, RGBA alpha 0 */
  himg r = make(HG_RT_DIM_2D, 4, 3, 1, 1, HG_RT_ORDER_R, HG_RT_TYPE_SIGNED_INT16);
  himg rgba = make(HG_RT_DIM_2D, 4, 3, 1, 1, HG_RT_ORDER_RGBA, HG_RT_TYPE_UNSIGNED_INT8);
  for (int y = -2; y < 5; y++)
    for (int x = -2; x < 6; x++) {
      int32_t o1[4], o2[4];
      double e1[4], e2[4];
      hg_rt_image_readi_int(&r.d, 0x14, HG_RT_DIM_2D, x, y, 0, o1);
      hg_rt_image_readi_int(&rgba.d, 0x14, HG_RT_DIM_2D, x, y, 0, o2);
      ref_texel(&r, x, y, 0, 1, e1);
      ref_texel(&rgba, x, y, 0, 1, e2);
      for (int q = 0; q < 4; q++) {
        check(o1[q] == (int32_t)e1[q], "int coords, R SIGNED_INT16, CLAMP", &bad);
        check(o2[q] == (int32_t)e2[q], "int coords, RGBA UNSIGNED_INT8, CLAMP", &bad);
        total += 2;
      }
      /* CLAMP_TO_EDGE with float coordinates through read_imagei: nearest */
      int32_t o3[4];
      double e3[4];
      float c[3] = {(float)x + 0.25f, (float)y + 0.75f, 0};
      hg_rt_image_readi(&rgba.d, 0x12 | 0x20, HG_RT_DIM_2D, c[0], c[1], 0, o3); /* linear asked: nearest used */
      ref_read(&rgba, 0x12, HG_RT_DIM_2D, c, e3);
      for (int q = 0; q < 4; q++, total++)
        check(o3[q] == (int32_t)e3[q], "read_imagei float coords CLAMP_TO_EDGE", &bad);
    }
  /* writes outside the image change nothing */
  size_t bytes = rgba.d.row_pitch * 3;
  uint8_t *before = malloc(bytes);
  memcpy(before, rgba.px, bytes);
  int32_t col[4] = {1, 2, 3, 4};
  int outside[][2] = {{-1, 0}, {4, 0}, {0, -1}, {0, 3}, {1000000, 7}};
  for (int i = 0; i < 5; i++)
    hg_rt_image_writei(&rgba.d, HG_RT_DIM_2D, outside[i][0], outside[i][1], 0, col);
  check(!memcmp(before, rgba.px, bytes), "writes outside the image are dropped", &bad);
  total++;
  free(before);
  free(r.px);
  free(rgba.px);
  verdict("integer coordinates, borders, writes outside", bad, total);
}

int main(void) {
  const char *seed = getenv("HG_RT_SEED");
  if (seed && *seed)
    rng = strtoull(seed, NULL, 0) | 1;
  test_read_conversions();
  test_write_conversions();
  test_sampling();
  test_int_coords_and_borders();
  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
