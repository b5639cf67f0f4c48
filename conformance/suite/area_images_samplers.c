/* Area images_samplers: read_image{f,i,ui} with float coordinates through samplers, against the
 * host reference of the specification's addressing and filtering (images_sample.c). Every valid
 * combination of addressing mode x filter x normalized coordinates on 1D, 2D and 3D images
 * (REPEAT and MIRRORED_REPEAT need normalized coordinates, and NONE is only defined inside the
 * image: combinations the specification leaves undefined are not run), coordinates fractional,
 * negative and out of range; samplers made by clCreateSampler and
 * clCreateSamplerWithProperties, and inline samplers at program and kernel scope.
 *
 * Tolerances: nearest filtering returns one texel, exact but for the normalized conversion's
 * 1.5 ulp, and coordinates are kept 0.02 texel from the texel boundaries, where the device's
 * float s * width may round to either side. Linear filtering: 0.005 absolute per channel for
 * texels in [-1, 1] (scaled by the largest texel magnitude when above 1), the CTS's MAX_ERR for
 * its kernel_read_write linear tests, at the coordinate or 1/256 texel around it on each axis:
 * the specification leaves the weights' precision to the implementation (GPUs use 8-bit
 * fractions). */
#include "images_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
} mode;

static const char *addressing_name(cl_addressing_mode a) {
  switch (a) {
  case CL_ADDRESS_NONE: return "none";
  case CL_ADDRESS_CLAMP_TO_EDGE: return "clamp_to_edge";
  case CL_ADDRESS_CLAMP: return "clamp";
  case CL_ADDRESS_REPEAT: return "repeat";
  default: return "mirrored_repeat";
  }
}

static const char *addressing_clk(cl_addressing_mode a) {
  switch (a) {
  case CL_ADDRESS_NONE: return "CLK_ADDRESS_NONE";
  case CL_ADDRESS_CLAMP_TO_EDGE: return "CLK_ADDRESS_CLAMP_TO_EDGE";
  case CL_ADDRESS_CLAMP: return "CLK_ADDRESS_CLAMP";
  case CL_ADDRESS_REPEAT: return "CLK_ADDRESS_REPEAT";
  default: return "CLK_ADDRESS_MIRRORED_REPEAT";
  }
}

/* The 16 valid modes. */
#define NUM_MODES 16
static mode MODES[NUM_MODES];
static void make_modes(void) {
  static const cl_addressing_mode A[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                         CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  int n = 0;
  for (int a = 0; a < 5; a++)
    for (int norm = 0; norm < 2; norm++)
      for (int f = 0; f < 2; f++) {
        if (a >= 3 && !norm)
          continue; /* repeat modes: normalized coordinates only */
        MODES[n++] = (mode){norm != 0, A[a], f ? CL_FILTER_LINEAR : CL_FILTER_NEAREST};
      }
}

static const char *const KIND_SUFFIX[] = {"f", "i", "ui"}, *const KIND_VEC[] = {"float4", "int4", "uint4"};
static const char *const DIM_TYPE[] = {"", "image1d_t", "image2d_t", "image3d_t"};
static const char *const DIM_COORD[] = {"", "c[i].x", "c[i].xy", "(float4)(c[i].xyz, 0.0f)"};

static const char *sampler_bits(const mode *m) {
  static char b[4][128];
  static int next;
  char *s = b[next++ & 3];
  snprintf(s, 128, "%s | %s | %s", m->normalized ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE",
           addressing_clk(m->addressing), m->filter == CL_FILTER_LINEAR ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST");
  return s;
}

/* Sampler-argument kernels for every dimension and kind; inline-sampler kernels (2D, float) for
 * every mode at program scope (is_global_<m>) and at kernel scope (is_local_<m>). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  make_modes();
  b = suite_batch_new("", "");
  for (int d = 1; d <= 3; d++)
    for (int k = 0; k < 3; k++) {
      char name[64];
      snprintf(name, sizeof name, "is_arg_%dd_%s", d, KIND_SUFFIX[k]);
      suite_batch_add(b, name,
                      "__kernel void %s(read_only %s im, sampler_t s, __global const float4 *c, __global %s *o) {\n"
                      "  size_t i = get_global_id(0);\n  o[i] = read_image%s(im, s, %s);\n}\n",
                      name, DIM_TYPE[d], KIND_VEC[k], KIND_SUFFIX[k], DIM_COORD[d]);
    }
  for (int a = 1; a <= 2; a++)
    for (int k = 0; k < 3; k++) {
      char name[64];
      snprintf(name, sizeof name, "is_arg_%dda_%s", a, KIND_SUFFIX[k]);
      suite_batch_add(b, name,
                      "__kernel void %s(read_only %s im, sampler_t s, __global const float4 *c, __global %s *o) {\n"
                      "  size_t i = get_global_id(0);\n  o[i] = read_image%s(im, s, %s);\n}\n",
                      name, a == 1 ? "image1d_array_t" : "image2d_array_t", KIND_VEC[k], KIND_SUFFIX[k],
                      a == 1 ? "c[i].xy" : "c[i]");
    }
  for (int m = 0; m < NUM_MODES; m++) {
    char name[64];
    snprintf(name, sizeof name, "is_global_%d", m);
    suite_batch_add(b, name,
                    "__constant sampler_t is_sampler_%d = %s;\n"
                    "__kernel void %s(read_only image2d_t im, __global const float4 *c, __global float4 *o) {\n"
                    "  size_t i = get_global_id(0);\n  o[i] = read_imagef(im, is_sampler_%d, c[i].xy);\n}\n",
                    m, sampler_bits(&MODES[m]), name, m);
    snprintf(name, sizeof name, "is_local_%d", m);
    suite_batch_add(b, name,
                    "__kernel void %s(read_only image2d_t im, __global const float4 *c, __global float4 *o) {\n"
                    "  const sampler_t s = %s;\n"
                    "  size_t i = get_global_id(0);\n  o[i] = read_imagef(im, s, c[i].xy);\n}\n",
                    name, sampler_bits(&MODES[m]));
  }
  return b;
}

/* One coordinate for an axis of n texels: where the mode is defined, fractional, often outside
 * the image for the clamping and repeating modes; nearest keeps 0.02 texel from boundaries. */
static float axis_coord(const mode *m, size_t n) {
  double lo, hi;
  bool linear = m->filter == CL_FILTER_LINEAR;
  switch (m->addressing) {
  case CL_ADDRESS_NONE: lo = linear ? 0.5 : 0, hi = linear ? (double)n - 0.5 : (double)n; break;
  case CL_ADDRESS_CLAMP_TO_EDGE: case CL_ADDRESS_CLAMP: lo = -3, hi = (double)n + 3; break;
  default: lo = -2.0 * (double)n - 3, hi = 3.0 * (double)n + 3; break;
  }
  double u = suite_uniform(lo, hi);
  if (linear && suite_rand() % 8 == 0)
    u = floor(u) + (suite_rand() % 2 ? 0.5 : 0); /* texel centres and edges: exact weights */
  if (u < lo)
    u = lo;
  return m->normalized ? (float)(u / (double)n) : (float)u;
}

static const cl_image_format FLOAT_FORMATS[] = {
    {CL_RGBA, CL_UNORM_INT8}, {CL_BGRA, CL_UNORM_INT8}, {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_SNORM_INT16},
    {CL_R, CL_SNORM_INT16},   {CL_R, CL_UNORM_INT8},    {CL_RGBA, CL_HALF_FLOAT},  {CL_RGBA, CL_FLOAT},
    {CL_R, CL_FLOAT}};
static const cl_image_format INT_FORMATS[] = {
    {CL_RGBA, CL_UNSIGNED_INT8}, {CL_R, CL_SIGNED_INT16}, {CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_UNSIGNED_INT32},
    {CL_R, CL_UNSIGNED_INT8}};
#define COORDS 512

static cl_sampler make_sampler(const mode *m, bool with_properties) {
  cl_int err;
  cl_sampler s;
  if (with_properties) {
    cl_sampler_properties p[] = {CL_SAMPLER_NORMALIZED_COORDS, m->normalized ? CL_TRUE : CL_FALSE,
                                 CL_SAMPLER_ADDRESSING_MODE, m->addressing, CL_SAMPLER_FILTER_MODE, m->filter, 0};
    s = clCreateSamplerWithProperties(S.ctx, p, &err);
  } else
    s = clCreateSampler(S.ctx, m->normalized ? CL_TRUE : CL_FALSE, m->addressing, m->filter, &err);
  if (err != CL_SUCCESS) {
    suite_fail("%s: %d", with_properties ? "clCreateSamplerWithProperties" : "clCreateSampler", err);
    return NULL;
  }
  cl_bool norm = 9;
  cl_addressing_mode a = 0;
  cl_filter_mode f = 0;
  clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL);
  clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof a, &a, NULL);
  clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof f, &f, NULL);
  if (norm != (m->normalized ? CL_TRUE : CL_FALSE) || a != m->addressing || f != m->filter)
    suite_fail("clGetSamplerInfo: normalized %u, addressing 0x%x, filter 0x%x; created with %d, 0x%x, 0x%x", norm,
               (unsigned)a, (unsigned)f, m->normalized, (unsigned)m->addressing, (unsigned)m->filter);
  return s;
}

/* The border color's alpha for orders without alpha (CL_R, CL_RG: (0, 0, 0, 1)) is
 * clamp_border_alpha's to check, which sets this; the other tests leave alpha out under CLAMP
 * for those orders (PoCL 3.1 gives 0, and an exception should not hide the rest). */
static bool check_border_alpha;

/* Whether a linear-filtered result is within tol of the reference at c or at c moved by 1/256
 * texel either way on any sampled axis: hardware filters with 8-bit weight fractions, which is
 * such a move of the sample point (the CTS retries nearby offsets for the same reason). A shift
 * of 0.05 texel, a real addressing error, is still far outside. */
static bool linear_matches(const im_shape *s, const uint8_t *pixels, const im_sampler *hs, const float *c, int dims,
                           const float *got, int channels, double tol) {
  size_t size[3] = {s->w, s->h, s->d};
  int combos = 1;
  for (int a = 0; a < dims; a++)
    combos *= 3;
  for (int k = 0; k < combos; k++) {
    float moved[4] = {c[0], c[1], c[2], c[3]};
    for (int a = 0, code = k; a < dims; a++, code /= 3) {
      double step = (code % 3 - 1) / 256.0;
      moved[a] = (float)((double)c[a] + (hs->normalized ? step / (double)size[a] : step));
    }
    double want[4];
    im_sample_float(s, pixels, hs, moved, want);
    int ch = 0;
    while (ch < channels && fabs((double)got[ch] - want[ch]) <= tol)
      ch++;
    if (ch == channels)
      return true;
  }
  return false;
}

/* Samples COORDS random coordinates of a random image of one format through kernel k (its
 * arguments: image, [sampler,] coordinates, results) and compares with the host reference. */
static void sample_format(cl_kernel k, cl_sampler smp, int dims, bool array, const mode *m, const cl_image_format *fmt,
                          const char *what) {
  static const cl_mem_object_type T[] = {0, CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D};
  im_shape s = {array ? (dims == 1 ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE2D_ARRAY) : T[dims], *fmt, 1, 1, 1};
  s.w = dims == 1 ? 5 + suite_rand() % 40 : dims == 2 ? 3 + suite_rand() % 18 : 2 + suite_rand() % 9;
  if (dims >= 2)
    s.h = dims == 2 ? 3 + suite_rand() % 18 : 2 + suite_rand() % 9;
  if (dims == 3)
    s.d = 2 + suite_rand() % 9;
  size_t layers = 2 + suite_rand() % 5;
  if (array && dims == 1)
    s.h = layers;
  else if (array)
    s.d = layers;
  size_t n = im_shape_pixels(&s), px = im_pixel_bytes(fmt);
  uint8_t *pixels = malloc(n * px);
  im_random_pixels(fmt, pixels, n, 1.0);
  double biggest = 1;
  for (size_t p = 0; p < n; p++) {
    double v[4];
    im_read_float(fmt, pixels + p * px, v);
    for (int c = 0; c < 4; c++)
      biggest = fmax(biggest, fabs(v[c]));
  }
  float *coords = malloc(COORDS * 16);
  im_sampler hs = {m->normalized, m->addressing, m->filter};
  size_t dim[3] = {s.w, s.h, s.d};
  for (int i = 0; i < COORDS; i++) {
    float *c = coords + 4 * i;
    do {
      c[0] = c[1] = c[2] = c[3] = 0;
      for (int a = 0; a < dims; a++)
        c[a] = axis_coord(m, dim[a]);
      if (array) { /* the layer: rint, clamped; in and out of range, never near a half */
        double l;
        do
          l = suite_uniform(-1.8, (double)layers + 0.8);
        while (fabs(l - floor(l) - 0.5) < 0.05);
        c[dims] = (float)l;
      }
    } while (m->filter == CL_FILTER_NEAREST && im_boundary_distance(&s, &hs, c) < 0.02);
  }
  im_kind kind = im_kind_of(fmt);
  cl_mem buf, img = im_create(&s, CL_MEM_READ_ONLY, pixels, &buf);
  cl_mem in = img ? suite_buffer(COORDS * 16, coords) : NULL, out = in ? suite_buffer(COORDS * 16, NULL) : NULL;
  uint8_t *o = malloc(COORDS * 16);
  cl_uint a = 0;
  bool ok = out && clSetKernelArg(k, a++, sizeof img, &img) == CL_SUCCESS &&
            (!smp || clSetKernelArg(k, a++, sizeof smp, &smp) == CL_SUCCESS) &&
            clSetKernelArg(k, a++, sizeof in, &in) == CL_SUCCESS && clSetKernelArg(k, a++, sizeof out, &out) == CL_SUCCESS;
  if (out && !ok)
    suite_fail("clSetKernelArg failed");
  if (ok && suite_run1(k, COORDS, 64) && suite_read(out, o, COORDS * 16))
    for (int i = 0; i < COORDS && !suite_failed(); i++) {
      const float *c = coords + 4 * i;
      char at[96];
      snprintf(at, sizeof at, "(%a, %a, %a)", c[0], c[1], c[2]);
      if (kind == IM_FLOAT) {
        double want[4];
        im_sample_float(&s, pixels, &hs, c, want);
        const float *got = (const float *)o + 4 * i;
        bool skip_alpha = m->addressing == CL_ADDRESS_CLAMP && !im_has_alpha(fmt) && !check_border_alpha;
        int channels = skip_alpha ? 3 : 4;
        if (m->filter == CL_FILTER_LINEAR && !linear_matches(&s, pixels, &hs, c, dims, got, channels, 0.005 * biggest))
          for (int ch = 0; ch < channels; ch++) /* to name the channel */
            if (fabs((double)got[ch] - want[ch]) > 0.005 * biggest || ch == channels - 1) {
              suite_fail("%s, %s %zux%zux%zu at %s: channel %d is %.7g, expected %.7g (none of the coordinates 1/256 "
                         "texel around matches either)", what, im_format_name(fmt), s.w, s.h, s.d, at, ch, got[ch], want[ch]);
              break;
            }
        for (int ch = 0; ch < channels && m->filter == CL_FILTER_NEAREST; ch++) {
          bool good = im_float_read_ok(fmt, want[ch], got[ch]);
          if (!good) {
            suite_fail("%s, %s %zux%zux%zu at %s: channel %d is %.7g, expected %.7g", what, im_format_name(fmt), s.w,
                       s.h, s.d, at, ch, got[ch], want[ch]);
            break;
          }
        }
      } else {
        int64_t want[4];
        im_sample_int(&s, pixels, &hs, c, want);
        const int32_t *got = (const int32_t *)o + 4 * i;
        /* alpha of an alpha-less integer format: images_kernel/read_int_missing_alpha's */
        for (int ch = 0; ch < (im_has_alpha(fmt) ? 4 : 3); ch++)
          if (got[ch] != (int32_t)want[ch]) {
            suite_fail("%s, %s %zux%zux%zu at %s: channel %d is %d, expected %d", what, im_format_name(fmt), s.w, s.h,
                       s.d, at, ch, got[ch], (int32_t)want[ch]);
            break;
          }
      }
    }
  cl_mem all[] = {img, buf, in, out};
  for (int j = 0; j < 4; j++)
    if (all[j])
      clReleaseMemObject(all[j]);
  free(pixels), free(coords), free(o);
}

typedef struct {
  int mode, dims;
} mode_test;

/* One mode on one dimension: every float format (and the integer ones under nearest filtering),
 * the sampler made alternately by clCreateSampler and clCreateSamplerWithProperties. */
static void sampler_argument(const void *arg) {
  const mode_test *t = arg;
  const mode *m = &MODES[t->mode];
  if (im_no_images())
    return;
  int nf = (int)(sizeof FLOAT_FORMATS / sizeof FLOAT_FORMATS[0]), ni = (int)(sizeof INT_FORMATS / sizeof INT_FORMATS[0]);
  static const cl_mem_object_type T[] = {0, CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D};
  for (int f = 0; f < nf + ni && !suite_failed(); f++) {
    const cl_image_format *fmt = f < nf ? &FLOAT_FORMATS[f] : &INT_FORMATS[f - nf];
    if (!im_supported(T[t->dims], fmt) || (f >= nf && m->filter == CL_FILTER_LINEAR))
      continue;
    char name[64], what[160];
    snprintf(name, sizeof name, "is_arg_%dd_%s", t->dims, KIND_SUFFIX[im_kind_of(fmt)]);
    cl_kernel k = suite_batch_kernel(batch(), name);
    cl_sampler smp = k ? make_sampler(m, f % 2) : NULL;
    snprintf(what, sizeof what, "read_image%s through a sampler argument (%s) %s", KIND_SUFFIX[im_kind_of(fmt)],
             f % 2 ? "clCreateSamplerWithProperties" : "clCreateSampler", sampler_bits(m));
    if (smp)
      sample_format(k, smp, t->dims, false, m, fmt, what);
    if (smp)
      clReleaseSampler(smp);
    if (k)
      clReleaseKernel(k);
  }
}

/* Inline samplers: every mode written in the source, at program scope or in the kernel, 2D. */
static void inline_samplers(bool program_scope) {
  if (im_no_images())
    return;
  batch();
  static const cl_image_format fmts[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_FLOAT}};
  for (int m = 0; m < NUM_MODES && !suite_failed(); m++)
    for (int f = 0; f < 2 && !suite_failed(); f++) {
      if (!im_supported(CL_MEM_OBJECT_IMAGE2D, &fmts[f]))
        continue;
      char name[64], what[160];
      snprintf(name, sizeof name, "is_%s_%d", program_scope ? "global" : "local", m);
      snprintf(what, sizeof what, "read_imagef through an inline sampler at %s scope %s",
               program_scope ? "program" : "kernel", sampler_bits(&MODES[m]));
      cl_kernel k = suite_batch_kernel(batch(), name);
      if (k) {
        sample_format(k, NULL, 2, false, &MODES[m], &fmts[f], what);
        clReleaseKernel(k);
      }
    }
}

/* CLAMP's border color for CL_R, whose alpha is 1: nearest and linear, 1D to 3D. */
SUITE_TEST(images_samplers, clamp_border_alpha) {
  if (im_no_images())
    return;
  batch();
  static const cl_image_format fmts[] = {{CL_R, CL_UNORM_INT8}, {CL_R, CL_FLOAT}, {CL_R, CL_SNORM_INT16}};
  static const cl_mem_object_type T[] = {0, CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D};
  check_border_alpha = true;
  for (int m = 0; m < NUM_MODES && !suite_failed(); m++)
    for (int d = 1; d <= 3 && MODES[m].addressing == CL_ADDRESS_CLAMP && !suite_failed(); d++)
      for (int f = 0; f < 3 && !suite_failed(); f++) {
        if (!im_supported(T[d], &fmts[f]))
          continue;
        char name[64], what[160];
        snprintf(name, sizeof name, "is_arg_%dd_f", d);
        cl_kernel k = suite_batch_kernel(batch(), name);
        cl_sampler smp = k ? make_sampler(&MODES[m], false) : NULL;
        snprintf(what, sizeof what, "border color through %s", sampler_bits(&MODES[m]));
        if (smp) {
          sample_format(k, smp, d, false, &MODES[m], &fmts[f], what);
          clReleaseSampler(smp);
        }
        if (k)
          clReleaseKernel(k);
      }
  check_border_alpha = false;
}

/* 1D and 2D arrays: every mode on the sampled coordinates, the layer rounded to nearest and
 * clamped (both in and out of range; never normalized), a float and an integer format (nearest)
 * each; the normalized modes in tests of their own (PoCL 3.1 gets them wrong). */
static void arrays(int dims, bool normalized) {
  if (im_no_images())
    return;
  batch();
  static const cl_image_format fmts[] = {{CL_RGBA, CL_UNORM_INT16}, {CL_R, CL_FLOAT}, {CL_RGBA, CL_SIGNED_INT16}};
  cl_mem_object_type type = dims == 1 ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE2D_ARRAY;
  for (int m = 0; m < NUM_MODES && !suite_failed(); m++)
    for (int f = 0; f < 3 && !suite_failed(); f++) {
      if (!im_supported(type, &fmts[f]) || (im_kind_of(&fmts[f]) != IM_FLOAT && MODES[m].filter == CL_FILTER_LINEAR) ||
          MODES[m].normalized != normalized)
        continue;
      char name[64], what[160];
      snprintf(name, sizeof name, "is_arg_%dda_%s", dims, KIND_SUFFIX[im_kind_of(&fmts[f])]);
      cl_kernel k = suite_batch_kernel(batch(), name);
      cl_sampler smp = k ? make_sampler(&MODES[m], (m + f) % 2) : NULL;
      snprintf(what, sizeof what, "read_image%s of a %s through %s", KIND_SUFFIX[im_kind_of(&fmts[f])],
               im_type_name(type), sampler_bits(&MODES[m]));
      if (smp) {
        sample_format(k, smp, dims, true, &MODES[m], &fmts[f], what);
        clReleaseSampler(smp);
      }
      if (k)
        clReleaseKernel(k);
    }
}

SUITE_TEST(images_samplers, array_1d) { arrays(1, false); }
SUITE_TEST(images_samplers, array_2d) { arrays(2, false); }
SUITE_TEST(images_samplers, array_1d_normalized) { arrays(1, true); }
SUITE_TEST(images_samplers, array_2d_normalized) { arrays(2, true); }

SUITE_TEST(images_samplers, inline_program_scope) { inline_samplers(true); }
SUITE_TEST(images_samplers, inline_kernel_scope) { inline_samplers(false); }

/* clGetSamplerInfo of both creation calls: reference count, context, the properties array. */
SUITE_TEST(images_samplers, sampler_info) {
  if (im_no_images())
    return;
  make_modes();
  for (int i = 0; i < NUM_MODES && !suite_failed(); i++) {
    cl_sampler s = make_sampler(&MODES[i], i % 2);
    if (!s)
      return;
    cl_uint refs = 0;
    cl_context ctx = NULL;
    cl_sampler_properties props[8] = {0};
    size_t props_size = 0;
    clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err = clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof props, props, &props_size);
    if (refs != 1 || ctx != S.ctx)
      suite_fail("sampler %d: reference count %u, context %p (expected 1, %p)", i, refs, (void *)ctx, (void *)S.ctx);
    else if (err != CL_SUCCESS)
      suite_fail("clGetSamplerInfo(CL_SAMPLER_PROPERTIES): %d", err);
    else if (i % 2 == 0 && props_size != 0 && !(props_size == sizeof props[0] && props[0] == 0))
      suite_fail("clCreateSampler's sampler reports %zu bytes of properties", props_size);
    else if (i % 2 == 1 && (props_size != 7 * sizeof props[0] || props[6] != 0))
      suite_fail("clCreateSamplerWithProperties' sampler reports %zu bytes of properties", props_size);
    clRetainSampler(s);
    clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    if (refs != 2 && !suite_failed())
      suite_fail("after clRetainSampler the reference count is %u", refs);
    clReleaseSampler(s);
    clReleaseSampler(s);
  }
}

/* images_samplers/<addressing>_<filter>_<normalized|unnormalized>_<dims>d */
__attribute__((constructor)) static void register_modes(void) {
  make_modes();
  static mode_test args[NUM_MODES][3];
  static char names[NUM_MODES][3][64];
  for (int m = 0; m < NUM_MODES; m++)
    for (int d = 1; d <= 3; d++) {
      args[m][d - 1] = (mode_test){m, d};
      snprintf(names[m][d - 1], 64, "%s_%s_%s_%dd", addressing_name(MODES[m].addressing),
               MODES[m].filter == CL_FILTER_LINEAR ? "linear" : "nearest",
               MODES[m].normalized ? "normalized" : "unnormalized", d);
      suite_register("images_samplers", names[m][d - 1], sampler_argument, &args[m][d - 1]);
    }
}
