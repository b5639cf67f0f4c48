/* Area images_kernel: kernels reading and writing images (like the CTS's kernel_read_write and
 * image_streams). Every image type with every required format the device has and random sizes:
 * reads with read_imagef/i/ui at every pixel with integer coordinates, without a sampler and
 * with a nearest unnormalized sampler, against the test's own conversion of the stored pixel
 * (images_model.c); writes of random colors at every pixel of a poisoned image, read back and
 * checked exactly (integer formats, saturated) or within the specification's rounding (normalized:
 * 0.6 of the exact value; half: nearest even or toward zero); writes to 3D images only with
 * cl_khr_3d_image_writes; the image query builtins. Work spreads over several work-groups. */
#include "images_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  cl_mem_object_type type;
  const char *name, *cl_type; /* test name part, OpenCL C type */
  const char *coord;          /* integer coordinate from x, y, z (1D array: y is the layer) */
} image_type;

static const image_type TYPES[] = {
    {CL_MEM_OBJECT_IMAGE1D, "1d", "image1d_t", "x"},
    {CL_MEM_OBJECT_IMAGE1D_BUFFER, "1d_buffer", "image1d_buffer_t", "x"},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1d_array", "image1d_array_t", "(int2)(x, y)"},
    {CL_MEM_OBJECT_IMAGE2D, "2d", "image2d_t", "(int2)(x, y)"},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2d_array", "image2d_array_t", "(int4)(x, y, z, 0)"},
    {CL_MEM_OBJECT_IMAGE3D, "3d", "image3d_t", "(int4)(x, y, z, 0)"},
};
#define NUM_TYPES 6
static const char *const KIND_SUFFIX[] = {"f", "i", "ui"}, *const KIND_VEC[] = {"float4", "int4", "uint4"};

static bool has_3d_writes(void) {
  char exts[8192] = "";
  clGetDeviceInfo(S.device, CL_DEVICE_EXTENSIONS, sizeof exts, exts, NULL);
  for (char *p = exts; (p = strstr(p, "cl_khr_3d_image_writes")); p++)
    if ((p == exts || p[-1] == ' ') && (p[22] == ' ' || p[22] == 0))
      return true;
  return false;
}

/* Every item finds its pixel from its global id; items past the image return (the NDRange is
 * rounded up to whole work-groups). */
#define PIXEL_PROLOGUE                                                                                       \
  "  int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);\n"               \
  "  if (x >= (int)w || y >= (int)h || z >= (int)d) return;\n"                                              \
  "  size_t i = ((size_t)z * h + (size_t)y) * w + (size_t)x;\n"

static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("__constant sampler_t ik_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | "
                      "CLK_FILTER_NEAREST;\n",
                      "");
  for (int t = 0; t < NUM_TYPES; t++) {
    const image_type *it = &TYPES[t];
    bool buffer = it->type == CL_MEM_OBJECT_IMAGE1D_BUFFER; /* no sampler reads of 1D buffer images */
    for (int k = 0; k < 3; k++) {
      char name[64];
      snprintf(name, sizeof name, "ik_read_%s_%s", it->name, KIND_SUFFIX[k]);
      suite_batch_add(b, name,
                      "__kernel void %s(read_only %s im, __global %s *o, uint w, uint h, uint d) {\n" PIXEL_PROLOGUE
                      "  o[2 * i] = read_image%s(im, %s);\n  o[2 * i + 1] = read_image%s(im, %s%s);\n}\n",
                      name, it->cl_type, KIND_VEC[k], KIND_SUFFIX[k], it->coord, KIND_SUFFIX[k],
                      buffer ? "" : "ik_nearest, ", it->coord);
      if (it->type == CL_MEM_OBJECT_IMAGE3D)
        continue; /* 3D writes: their own batch, with the extension */
      snprintf(name, sizeof name, "ik_write_%s_%s", it->name, KIND_SUFFIX[k]);
      suite_batch_add(b, name,
                      "__kernel void %s(write_only %s im, __global const %s *c, uint w, uint h, uint d) {\n"
                      PIXEL_PROLOGUE "  write_image%s(im, %s, c[i]);\n}\n",
                      name, it->cl_type, KIND_VEC[k], KIND_SUFFIX[k], it->coord);
    }
    /* copies image -> image through a sampler argument (2D and 2D array) */
    if (it->type == CL_MEM_OBJECT_IMAGE2D || it->type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
      for (int k = 0; k < 3; k++) {
        char cname[64];
        snprintf(cname, sizeof cname, "ik_copy_%s_%s", it->name, KIND_SUFFIX[k]);
        suite_batch_add(b, cname,
                        "__kernel void %s(read_only %s src, write_only %s dst, sampler_t s, uint w, uint h, uint d) {\n"
                        PIXEL_PROLOGUE "  write_image%s(dst, %s, read_image%s(src, s, %s));\n}\n",
                        cname, it->cl_type, it->cl_type, KIND_SUFFIX[k], it->coord, KIND_SUFFIX[k], it->coord);
      }
    /* queries: every item writes all of them (8 ints) */
    char name[64];
    snprintf(name, sizeof name, "ik_query_%s", it->name);
    bool two = it->type == CL_MEM_OBJECT_IMAGE2D || it->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
               it->type == CL_MEM_OBJECT_IMAGE3D;
    bool arr = it->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || it->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    const char *dim = it->type == CL_MEM_OBJECT_IMAGE3D ? "  int4 dm = get_image_dim(im); o[8 * i + 6] = dm.z; o[8 * i + 7] = dm.x + dm.y * 65536 + dm.w;\n"
                      : two ? "  int2 dm = get_image_dim(im); o[8 * i + 6] = 0; o[8 * i + 7] = dm.x + dm.y * 65536;\n"
                            : "  o[8 * i + 6] = 0; o[8 * i + 7] = 0;\n";
    suite_batch_add(b, name,
                    "__kernel void %s(read_only %s im, __global int *o) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  o[8 * i] = get_image_width(im);\n  o[8 * i + 1] = %s;\n  o[8 * i + 2] = %s;\n"
                    "  o[8 * i + 3] = %s;\n  o[8 * i + 4] = get_image_channel_order(im);\n"
                    "  o[8 * i + 5] = get_image_channel_data_type(im);\n%s}\n",
                    name, it->cl_type, two ? "get_image_height(im)" : "0",
                    it->type == CL_MEM_OBJECT_IMAGE3D ? "get_image_depth(im)" : "0",
                    arr ? "(int)get_image_array_size(im)" : "0", dim);
  }
  return b;
}

static suite_batch *batch_3d_writes(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n", "");
  for (int k = 0; k < 3; k++) {
    char name[64];
    snprintf(name, sizeof name, "ik_write_3d_%s", KIND_SUFFIX[k]);
    suite_batch_add(b, name,
                    "__kernel void %s(write_only image3d_t im, __global const %s *c, uint w, uint h, uint d) {\n"
                    PIXEL_PROLOGUE "  write_image%s(im, (int4)(x, y, z, 0), c[i]);\n}\n",
                    name, KIND_VEC[k], KIND_SUFFIX[k]);
  }
  return b;
}

/* Runs a pixel kernel (arguments set but w, h, d) over the shape in groups of 8x2x1. */
static bool run_pixels(cl_kernel k, cl_uint first_size_arg, const im_shape *s) {
  cl_uint w = (cl_uint)s->w, h = (cl_uint)s->h, d = (cl_uint)s->d;
  size_t local[3] = {8, 2, 1}, global[3] = {(s->w + 7) / 8 * 8, (s->h + 1) / 2 * 2, s->d};
  if (clSetKernelArg(k, first_size_arg, 4, &w) != CL_SUCCESS || clSetKernelArg(k, first_size_arg + 1, 4, &h) != CL_SUCCESS ||
      clSetKernelArg(k, first_size_arg + 2, 4, &d) != CL_SUCCESS) {
    suite_fail("clSetKernelArg of the sizes failed");
    return false;
  }
  return suite_run(k, 3, global, local);
}

/* The tests of a type leave CL_R/CL_HALF_FLOAT to read_r_half and write_r_half, which run it on
 * every type: PoCL 3.1 reads and writes that one format wrongly, and an exception for it should
 * not hide the other formats. */
static bool is_r_half(const cl_image_format *f) {
  return f->image_channel_order == CL_R && f->image_channel_data_type == CL_HALF_FLOAT;
}

/* Reads of every pixel of every format of a type. */
static void reads_of(const image_type *it, bool r_half) {
  if (im_no_images())
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    const cl_image_format *fmt = &im_required_formats[f];
    if (!im_supported(it->type, fmt) || r_half != is_r_half(fmt))
      continue;
    im_shape s = im_random_shape(it->type, fmt, 24);
    size_t n = im_shape_pixels(&s), px = im_pixel_bytes(fmt);
    uint8_t *pixels = malloc(n * px);
    im_random_pixels(fmt, pixels, n, 1000);
    im_kind kind = im_kind_of(fmt);
    char name[64];
    snprintf(name, sizeof name, "ik_read_%s_%s", it->name, KIND_SUFFIX[kind]);
    cl_kernel k = suite_batch_kernel(batch(), name);
    cl_mem buf, img = k ? im_create(&s, CL_MEM_READ_ONLY, pixels, &buf) : NULL;
    cl_mem out = img ? suite_buffer(n * 2 * 16, NULL) : NULL;
    void *o = malloc(n * 2 * 16);
    if (out && suite_args(k, 2, sizeof img, &img, sizeof out, &out) && run_pixels(k, 2, &s) && suite_read(out, o, n * 32))
      for (size_t i = 0; i < 2 * n && !suite_failed(); i++) {
        size_t p = i / 2, x = p % s.w, y = p / s.w % s.h, z = p / (s.w * s.h);
        const char *how = i % 2 ? "with a nearest sampler" : "without a sampler";
        if (kind == IM_FLOAT) {
          double want[4];
          im_read_float(fmt, pixels + p * px, want);
          const float *got = (const float *)o + 4 * i;
          for (int c = 0; c < 4; c++)
            if (!im_float_read_ok(fmt, want[c], got[c])) {
              suite_fail("read_imagef %s of %s %s %zux%zux%zu at (%zu,%zu,%zu): channel %d is %a, expected %a", how,
                         im_type_name(s.type), im_format_name(fmt), s.w, s.h, s.d, x, y, z, c, got[c], want[c]);
              break;
            }
        } else {
          int64_t want[4];
          im_read_int(fmt, pixels + p * px, want);
          const int32_t *got = (const int32_t *)o + 4 * i;
          /* a missing alpha of an integer format is read_int_missing_alpha's (PoCL 3.1 gives 0) */
          int channels = im_has_alpha(fmt) ? 4 : 3;
          for (int c = 0; c < channels; c++)
            if (got[c] != (int32_t)want[c]) {
              suite_fail("read_image%s %s of %s %s %zux%zux%zu at (%zu,%zu,%zu): channel %d is %d, expected %d",
                         KIND_SUFFIX[kind], how, im_type_name(s.type), im_format_name(fmt), s.w, s.h, s.d, x, y, z, c,
                         got[c], (int32_t)want[c]);
              break;
            }
        }
      }
    cl_mem all[] = {img, buf, out};
    for (int j = 0; j < 3; j++)
      if (all[j])
        clReleaseMemObject(all[j]);
    if (k)
      clReleaseKernel(k);
    free(pixels), free(o);
  }
}

/* A random color for a write of a format's kind: normalized types a little past their range,
 * half values of every magnitude, integers of every size (saturation included). */
static void random_color(const cl_image_format *f, void *c4) {
  for (int c = 0; c < 4; c++) {
    if (im_kind_of(f) != IM_FLOAT) {
      uint32_t v = suite_rand() >> (suite_rand() % 32);
      ((int32_t *)c4)[c] = im_kind_of(f) == IM_INT && suite_rand() % 2 ? -(int32_t)(v >> 1) : (int32_t)v;
      continue;
    }
    float v;
    switch (f->image_channel_data_type) {
    case CL_UNORM_INT8: case CL_UNORM_INT16: v = (float)suite_uniform(-0.2, 1.2); break;
    case CL_SNORM_INT8: case CL_SNORM_INT16: v = (float)suite_uniform(-1.0, 1.2); break;
    case CL_HALF_FLOAT: /* subnormal halves to past 65504, where nearest even overflows to inf */
      v = suite_rand() % 16 == 0 ? (float)suite_uniform(65504, 70000) * (suite_rand() % 2 ? 1.0f : -1.0f)
                                 : (float)ldexp(suite_uniform(-1, 1), (int)(suite_rand() % 36) - 20);
      break;
    default: v = (float)ldexp(suite_uniform(-1, 1), (int)(suite_rand() % 60) - 30); break;
    }
    ((float *)c4)[c] = v;
  }
}

/* read_imagei/ui of an integer CL_R (and CL_RG) image give alpha 1 (OpenCL C's channel
 * mapping: (r, 0, 0, 1)), 2D, with and without a sampler. */
SUITE_TEST(images_kernel, read_int_missing_alpha) {
  if (im_no_images())
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    const cl_image_format *fmt = &im_required_formats[f];
    im_kind kind = im_kind_of(fmt);
    if (kind == IM_FLOAT || im_has_alpha(fmt) || !im_supported(CL_MEM_OBJECT_IMAGE2D, fmt))
      continue;
    im_shape s = im_random_shape(CL_MEM_OBJECT_IMAGE2D, fmt, 16);
    size_t n = im_shape_pixels(&s);
    char name[64];
    snprintf(name, sizeof name, "ik_read_2d_%s", KIND_SUFFIX[kind]);
    cl_kernel k = suite_batch_kernel(batch(), name);
    cl_mem buf, img = k ? im_create(&s, CL_MEM_READ_ONLY, NULL, &buf) : NULL;
    cl_mem out = img ? suite_buffer(n * 32, NULL) : NULL;
    int32_t *o = malloc(n * 32);
    if (out && suite_args(k, 2, sizeof img, &img, sizeof out, &out) && run_pixels(k, 2, &s) && suite_read(out, o, n * 32))
      for (size_t i = 0; i < 2 * n; i++)
        if (o[4 * i + 3] != 1) {
          suite_fail("read_image%s %s of 2D %s: alpha is %d, expected 1", KIND_SUFFIX[kind],
                     i % 2 ? "with a nearest sampler" : "without a sampler", im_format_name(fmt), o[4 * i + 3]);
          break;
        }
    cl_mem all[] = {img, buf, out};
    for (int j = 0; j < 3; j++)
      if (all[j])
        clReleaseMemObject(all[j]);
    if (k)
      clReleaseKernel(k);
    free(o);
  }
}

/* Writes of a random color at every pixel of a poisoned image of every format of a type. */
static void writes_of(const image_type *it, bool r_half) {
  if (im_no_images())
    return;
  bool three = it->type == CL_MEM_OBJECT_IMAGE3D;
  if (three && !has_3d_writes()) {
    suite_skip("no cl_khr_3d_image_writes");
    return;
  }
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    const cl_image_format *fmt = &im_required_formats[f];
    if (!im_supported(it->type, fmt) || r_half != is_r_half(fmt))
      continue;
    im_shape s = im_random_shape(it->type, fmt, 24);
    size_t n = im_shape_pixels(&s), px = im_pixel_bytes(fmt);
    uint8_t *colors = malloc(n * 16), *back = malloc(n * px);
    for (size_t i = 0; i < n; i++)
      random_color(fmt, colors + 16 * i);
    im_kind kind = im_kind_of(fmt);
    char name[64];
    snprintf(name, sizeof name, "ik_write_%s_%s", it->name, KIND_SUFFIX[kind]);
    cl_kernel k = suite_batch_kernel(three ? batch_3d_writes() : batch(), name);
    cl_mem buf, img = k ? im_create(&s, CL_MEM_WRITE_ONLY, NULL, &buf) : NULL;
    cl_mem in = img ? suite_buffer(n * 16, colors) : NULL;
    if (in && suite_args(k, 2, sizeof img, &img, sizeof in, &in) && run_pixels(k, 2, &s) && im_read_all(img, &s, back))
      for (size_t p = 0; p < n && !suite_failed(); p++) {
        size_t x = p % s.w, y = p / s.w % s.h, z = p / (s.w * s.h);
        char why[160] = "wrong bytes";
        bool ok;
        if (kind == IM_FLOAT)
          ok = im_float_write_ok(fmt, (const float *)(colors + 16 * p), back + p * px, why, sizeof why);
        else {
          uint8_t want[16];
          im_pack_int(fmt, (const int32_t *)(colors + 16 * p), want);
          ok = !memcmp(want, back + p * px, px);
          if (!ok) {
            const int32_t *c = (const int32_t *)(colors + 16 * p);
            snprintf(why, sizeof why, "color (%d, %d, %d, %d) stored as 0x%02x%02x.., expected 0x%02x%02x..", c[0], c[1],
                     c[2], c[3], back[p * px], back[p * px + 1], want[0], want[1]);
          }
        }
        if (!ok)
          suite_fail("write_image%s to %s %s %zux%zux%zu at (%zu,%zu,%zu): %s", KIND_SUFFIX[kind], im_type_name(s.type),
                     im_format_name(fmt), s.w, s.h, s.d, x, y, z, why);
      }
    cl_mem all[] = {img, buf, in};
    for (int j = 0; j < 3; j++)
      if (all[j])
        clReleaseMemObject(all[j]);
    if (k)
      clReleaseKernel(k);
    free(colors), free(back);
  }
}

static void reads(const void *arg) { reads_of(arg, false); }
static void writes(const void *arg) { writes_of(arg, false); }

SUITE_TEST(images_kernel, read_r_half) {
  for (int t = 0; t < NUM_TYPES && !suite_failed(); t++)
    reads_of(&TYPES[t], true);
}

SUITE_TEST(images_kernel, write_r_half) {
  for (int t = 0; t < NUM_TYPES && !suite_failed(); t++)
    if (TYPES[t].type != CL_MEM_OBJECT_IMAGE3D || has_3d_writes())
      writes_of(&TYPES[t], true);
}

/* Images passed from kernel to kernel: A -> B -> C by two launches of a copy kernel (read through
 * a nearest sampler argument, written back), 2D and 2D array, every format; C must hold A's
 * pixels (a normalized or half value read and written back is the same value; snorm's most
 * negative code reads as -1.0 and comes back one higher). */
SUITE_TEST(images_kernel, copy_chain) {
  if (im_no_images())
    return;
  cl_int err;
  cl_sampler smp = clCreateSampler(S.ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  REQUIRE(err == CL_SUCCESS, "clCreateSampler: %d", err);
  for (int t = 0; t < NUM_TYPES && !suite_failed(); t++) {
    const image_type *it = &TYPES[t];
    if (it->type != CL_MEM_OBJECT_IMAGE2D && it->type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
      continue;
    for (int f = 0; f < im_required_count && !suite_failed(); f++) {
      const cl_image_format *fmt = &im_required_formats[f];
      if (!im_supported(it->type, fmt) || is_r_half(fmt)) /* read_r_half and write_r_half's */
        continue;
      im_shape s = im_random_shape(it->type, fmt, 24);
      size_t n = im_shape_pixels(&s), px = im_pixel_bytes(fmt);
      uint8_t *pixels = malloc(n * px), *want = malloc(n * px), *back = malloc(n * px);
      im_random_pixels(fmt, pixels, n, 1000);
      memcpy(want, pixels, n * px);
      for (size_t i = 0; i < n * im_channels(fmt); i++)
        if (fmt->image_channel_data_type == CL_SNORM_INT8 && want[i] == 0x80)
          want[i] = 0x81;
        else if (fmt->image_channel_data_type == CL_SNORM_INT16 && want[2 * i] == 0 && want[2 * i + 1] == 0x80)
          want[2 * i] = 1;
      char name[64];
      snprintf(name, sizeof name, "ik_copy_%s_%s", it->name, KIND_SUFFIX[im_kind_of(fmt)]);
      cl_kernel k = suite_batch_kernel(batch(), name);
      cl_mem a = k ? im_create(&s, CL_MEM_READ_WRITE, pixels, NULL) : NULL;
      cl_mem b = a ? im_create(&s, CL_MEM_READ_WRITE, NULL, NULL) : NULL, c = b ? im_create(&s, CL_MEM_READ_WRITE, NULL, NULL) : NULL;
      if (c && suite_args(k, 3, sizeof a, &a, sizeof b, &b, sizeof smp, &smp) && run_pixels(k, 3, &s) &&
          suite_args(k, 2, sizeof b, &b, sizeof c, &c) && run_pixels(k, 3, &s) && im_read_all(c, &s, back))
        for (size_t p = 0; p < n; p++)
          if (memcmp(back + p * px, want + p * px, px)) {
            suite_fail("%s %s %zux%zux%zu copied twice by kernels: pixel %zu (%zu,%zu,%zu) bytes 0x%02x%02x.., expected "
                       "0x%02x%02x..", im_type_name(s.type), im_format_name(fmt), s.w, s.h, s.d, p, p % s.w,
                       p / s.w % s.h, p / (s.w * s.h), back[p * px], back[p * px + 1], want[p * px], want[p * px + 1]);
            break;
          }
      cl_mem all[] = {a, b, c};
      for (int j = 0; j < 3; j++)
        if (all[j])
          clReleaseMemObject(all[j]);
      if (k)
        clReleaseKernel(k);
      free(pixels), free(want), free(back);
    }
  }
  clReleaseSampler(smp);
}

/* clGetKernelArgInfo of image and sampler arguments (-cl-kernel-arg-info; no write_only 3D image:
 * the extension may be absent): type names, access
 * qualifiers read_only / write_only, the global address space images live in. */
SUITE_TEST(images_kernel, kernel_arg_info) {
  if (im_no_images())
    return;
  static const char SRC[] =
      "__kernel void ik_info(read_only image2d_t a, read_only image3d_t b, sampler_t s, read_only image1d_buffer_t c,\n"
      "                      write_only image2d_array_t d, __global float4 *o) {\n"
      "  o[0] = read_imagef(a, s, (int2)(0, 0)) + read_imagef(c, 0);\n"
      "  write_imagef(d, (int4)(0), o[1]);\n}\n";
  cl_program p = suite_build(SRC, "-cl-kernel-arg-info");
  cl_kernel k = p ? suite_kernel(p, "ik_info") : NULL;
  static const struct {
    const char *type;
    cl_kernel_arg_access_qualifier access;
  } want[] = {{"image2d_t", CL_KERNEL_ARG_ACCESS_READ_ONLY}, {"image3d_t", CL_KERNEL_ARG_ACCESS_READ_ONLY},
              {"sampler_t", CL_KERNEL_ARG_ACCESS_NONE},       {"image1d_buffer_t", CL_KERNEL_ARG_ACCESS_READ_ONLY},
              {"image2d_array_t", CL_KERNEL_ARG_ACCESS_WRITE_ONLY}};
  for (cl_uint i = 0; k && i < 5 && !suite_failed(); i++) {
    char type[64] = "";
    cl_kernel_arg_access_qualifier access = 0;
    cl_kernel_arg_address_qualifier space = 0;
    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL);
    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, NULL);
    if (strcmp(type, want[i].type) || access != want[i].access)
      suite_fail("argument %u: type '%s', access 0x%x; expected '%s', 0x%x", i, type, (unsigned)access, want[i].type,
                 (unsigned)want[i].access);
    else if (i != 2 && space != CL_KERNEL_ARG_ADDRESS_GLOBAL)
      suite_fail("argument %u (%s): address qualifier 0x%x, expected CL_KERNEL_ARG_ADDRESS_GLOBAL", i, type, (unsigned)space);
  }
  if (k)
    clReleaseKernel(k);
  if (p)
    clReleaseProgram(p);
}

/* A 16x1 CL_RGBA/CL_FLOAT image whose pixel i is (tag, i, -tag, 1). */
static cl_mem tagged_image(float tag) {
  float px[16 * 4];
  for (int i = 0; i < 16; i++)
    px[4 * i] = tag, px[4 * i + 1] = (float)i, px[4 * i + 2] = -tag, px[4 * i + 3] = 1;
  im_shape s = {CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_FLOAT}, 16, 1, 1};
  return im_create(&s, CL_MEM_READ_WRITE, px, NULL);
}

/* As many image arguments as the device reports (CL_DEVICE_MAX_READ_IMAGE_ARGS read_only, then
 * CL_DEVICE_MAX_WRITE_IMAGE_ARGS write_only, as far as CL_DEVICE_MAX_PARAMETER_SIZE holds them
 * beside one buffer), each read or written at 16 pixels by 16 items in 4 groups. */
SUITE_TEST(images_kernel, max_image_args) {
  if (im_no_images())
    return;
  cl_uint max_read = 0, max_write = 0;
  size_t max_param = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof max_read, &max_read, NULL);
  clGetDeviceInfo(S.device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof max_write, &max_write, NULL);
  clGetDeviceInfo(S.device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof max_param, &max_param, NULL);
  size_t fit = max_param / sizeof(cl_mem) - 1;
  for (int write = 0; write < 2 && !suite_failed(); write++) {
    size_t n = write ? max_write : max_read;
    if (n > fit)
      n = fit;
    REQUIRE(n >= 8, "CL_DEVICE_MAX_%s_IMAGE_ARGS is %zu", write ? "WRITE" : "READ", n);
    size_t cap = 64 * n + 4096, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len, "__kernel void ik_many(");
    for (size_t k = 0; k < n; k++)
      len += (size_t)snprintf(src + len, cap - len, "%s image2d_t m%zu, ", write ? "write_only" : "read_only", k);
    len += (size_t)snprintf(src + len, cap - len, "__global float4 *o) {\n  int i = (int)get_global_id(0);\n");
    for (size_t k = 0; k < n; k++)
      len += (size_t)(write ? snprintf(src + len, cap - len, "  write_imagef(m%zu, (int2)(i, 0), (float4)(%zu.0f, i, o[i].x, 1.0f));\n", k, k)
                            : snprintf(src + len, cap - len, "  o[%zu * 16 + i] = read_imagef(m%zu, (int2)(i, 0));\n", k, k));
    snprintf(src + len, cap - len, "}\n");
    cl_program p = suite_build(src, "");
    cl_kernel k = p ? suite_kernel(p, "ik_many") : NULL;
    cl_mem *imgs = calloc(n, sizeof *imgs);
    float *o = malloc(n * 16 * 16), *px = malloc(16 * 16);
    cl_mem out = k ? suite_buffer(n * 16 * 16, NULL) : NULL;
    bool ok = out != NULL;
    if (ok && write) { /* o[i].x = 0.5 for the written colors */
      float half[16 * 4] = {0};
      for (int i = 0; i < 16; i++)
        half[4 * i] = 0.5f;
      ok = clEnqueueWriteBuffer(S.q, out, CL_TRUE, 0, sizeof half, half, 0, NULL, NULL) == CL_SUCCESS;
    }
    for (size_t j = 0; ok && j < n; j++)
      ok = (imgs[j] = tagged_image(write ? -7.0f : (float)j + 0.25f)) != NULL &&
           clSetKernelArg(k, (cl_uint)j, sizeof imgs[j], &imgs[j]) == CL_SUCCESS;
    if (ok && clSetKernelArg(k, (cl_uint)n, sizeof out, &out) == CL_SUCCESS && suite_run1(k, 16, 4)) {
      if (!write && suite_read(out, o, n * 16 * 16))
        for (size_t j = 0; j < n * 16 && !suite_failed(); j++) {
          size_t img = j / 16, i = j % 16;
          float want[4] = {(float)img + 0.25f, (float)i, -((float)img + 0.25f), 1};
          if (memcmp(o + 4 * j, want, sizeof want))
            suite_fail("read image argument %zu of %zu, pixel %zu: (%g, %g, %g, %g)", img, n, i, o[4 * j], o[4 * j + 1],
                       o[4 * j + 2], o[4 * j + 3]);
        }
      for (size_t j = 0; write && j < n && !suite_failed(); j++) {
        size_t origin[3] = {0, 0, 0}, region[3] = {16, 1, 1};
        CL_OK(clEnqueueReadImage(S.q, imgs[j], CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
        for (int i = 0; i < 16; i++)
          if (px[4 * i] != (float)j || px[4 * i + 1] != (float)i || px[4 * i + 2] != 0.5f || px[4 * i + 3] != 1)
            suite_fail("write image argument %zu of %zu, pixel %d: (%g, %g, %g, %g)", j, n, i, px[4 * i], px[4 * i + 1],
                       px[4 * i + 2], px[4 * i + 3]);
      }
    } else if (k && !suite_failed())
      suite_fail("setting %zu image arguments failed", n);
    for (size_t j = 0; j < n; j++)
      if (imgs[j])
        clReleaseMemObject(imgs[j]);
    if (out)
      clReleaseMemObject(out);
    if (k)
      clReleaseKernel(k);
    if (p)
      clReleaseProgram(p);
    free(imgs), free(o), free(px), free(src);
  }
}

/* CL_DEVICE_MAX_SAMPLERS sampler arguments in one kernel, each of another unnormalized nearest
 * mode and each used (the coordinates inside the image, where those modes agree). */
SUITE_TEST(images_kernel, max_samplers) {
  if (im_no_images())
    return;
  cl_uint n = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_MAX_SAMPLERS, sizeof n, &n, NULL);
  REQUIRE(n >= 16, "CL_DEVICE_MAX_SAMPLERS is %u, the full profile's minimum is 16", n);
  char src[16384];
  size_t len = (size_t)snprintf(src, sizeof src, "__kernel void ik_samplers(read_only image2d_t im, ");
  for (cl_uint k = 0; k < n && len < sizeof src - 256; k++)
    len += (size_t)snprintf(src + len, sizeof src - len, "sampler_t s%u, ", k);
  len += (size_t)snprintf(src + len, sizeof src - len, "__global float4 *o) {\n  int i = (int)get_global_id(0);\n");
  for (cl_uint k = 0; k < n && len < sizeof src - 256; k++)
    len += (size_t)snprintf(src + len, sizeof src - len, "  o[%u * 16 + i] = read_imagef(im, s%u, (float2)(i + 0.5f, 0.5f));\n", k, k);
  snprintf(src + len, sizeof src - len, "}\n");
  cl_program p = suite_build(src, "");
  cl_kernel k = p ? suite_kernel(p, "ik_samplers") : NULL;
  cl_mem img = k ? tagged_image(3.0f) : NULL, out = img ? suite_buffer(n * 16 * 16, NULL) : NULL;
  cl_sampler *smp = calloc(n, sizeof *smp);
  static const cl_addressing_mode A[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP};
  bool ok = out && clSetKernelArg(k, 0, sizeof img, &img) == CL_SUCCESS &&
            clSetKernelArg(k, n + 1, sizeof out, &out) == CL_SUCCESS;
  for (cl_uint j = 0; ok && j < n; j++) {
    cl_int err;
    smp[j] = clCreateSampler(S.ctx, CL_FALSE, A[j % 3], CL_FILTER_NEAREST, &err);
    ok = err == CL_SUCCESS && clSetKernelArg(k, j + 1, sizeof smp[j], &smp[j]) == CL_SUCCESS;
  }
  float *o = malloc(n * 16 * 16);
  if (out && !ok)
    suite_fail("creating or setting %u samplers failed", n);
  else if (ok && suite_run1(k, 16, 4) && suite_read(out, o, n * 16 * 16))
    for (size_t j = 0; j < n * 16 && !suite_failed(); j++)
      if (o[4 * j] != 3.0f || o[4 * j + 1] != (float)(j % 16) || o[4 * j + 2] != -3.0f || o[4 * j + 3] != 1)
        suite_fail("sampler argument %zu of %u, pixel %zu: (%g, %g, %g, %g)", j / 16, n, j % 16, o[4 * j], o[4 * j + 1],
                   o[4 * j + 2], o[4 * j + 3]);
  for (cl_uint j = 0; j < n; j++)
    if (smp[j])
      clReleaseSampler(smp[j]);
  if (img)
    clReleaseMemObject(img);
  if (out)
    clReleaseMemObject(out);
  if (k)
    clReleaseKernel(k);
  if (p)
    clReleaseProgram(p);
  free(smp), free(o);
}

/* get_image_width/height/depth/array_size/channel_order/channel_data_type/dim of every type,
 * three formats each, from 64 items in 4 groups. */
static void queries(const void *arg) {
  const image_type *it = arg;
  if (im_no_images())
    return;
  /* a crash would cost the rest of the area */
  if (it->type == CL_MEM_OBJECT_IMAGE1D_BUFFER && strstr(S.platform_name, "Portable Computing Language")) {
    suite_skip("PoCL 3.1 aborts: its kernel library lacks get_image_channel_order(image1d_buffer_t)");
    return;
  }
  char name[64];
  snprintf(name, sizeof name, "ik_query_%s", it->name);
  cl_kernel k = suite_batch_kernel(batch(), name);
  for (int rep = 0; k && rep < 3 && !suite_failed(); rep++) {
    const cl_image_format *fmt;
    do
      fmt = &im_required_formats[suite_rand() % (unsigned)im_required_count];
    while (!im_supported(it->type, fmt));
    im_shape s = im_random_shape(it->type, fmt, 24);
    cl_mem buf, img = im_create(&s, CL_MEM_READ_ONLY, NULL, &buf), out = img ? suite_buffer(64 * 32, NULL) : NULL;
    int32_t o[64 * 8];
    bool arr1 = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY, arr2 = s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    bool three = s.type == CL_MEM_OBJECT_IMAGE3D, two = s.type == CL_MEM_OBJECT_IMAGE2D || arr2 || three;
    int32_t want[8] = {(int32_t)s.w, two ? (int32_t)s.h : 0, three ? (int32_t)s.d : 0,
                       arr1 ? (int32_t)s.h : arr2 ? (int32_t)s.d : 0, (int32_t)fmt->image_channel_order,
                       (int32_t)fmt->image_channel_data_type, three ? (int32_t)s.d : 0,
                       two ? (int32_t)(s.w + s.h * 65536) : 0};
    if (out && suite_args(k, 2, sizeof img, &img, sizeof out, &out) && suite_run1(k, 64, 16) && suite_read(out, o, sizeof o))
      for (int i = 0; i < 64 && !suite_failed(); i++)
        for (int j = 0; j < 8; j++)
          if (o[8 * i + j] != want[j]) {
            static const char *const what[] = {"width", "height", "depth", "array size", "channel order",
                                               "channel data type", "get_image_dim().z", "get_image_dim().x + .y * 65536 (+ .w)"};
            suite_fail("%s %s %zux%zux%zu, item %d: %s is %d (0x%x), expected %d (0x%x)", im_type_name(s.type),
                       im_format_name(fmt), s.w, s.h, s.d, i, what[j], o[8 * i + j], o[8 * i + j], want[j], want[j]);
            break;
          }
    cl_mem all[] = {img, buf, out};
    for (int j = 0; j < 3; j++)
      if (all[j])
        clReleaseMemObject(all[j]);
  }
  if (k)
    clReleaseKernel(k);
}

/* images_kernel/{read,write,query}_<type>: the reads, then the writes, then the queries, 1D
 * buffer images last (a crash costs the area's remaining tests, and PoCL 3.1's kernel library
 * aborts on get_image_channel_order of an image1d_buffer_t). */
__attribute__((constructor)) static void register_per_type(void) {
  static const char *const WHAT[] = {"read", "write", "query"};
  static const suite_fn FN[] = {reads, writes, queries};
  static char names[3][NUM_TYPES][40];
  for (int w = 0; w < 3; w++)
    for (int i = 0; i < NUM_TYPES; i++) {
      int t = i == NUM_TYPES - 1 ? 1 : i < 1 ? i : i + 1; /* 1D, 1D array ... 3D, then 1D buffer */
      snprintf(names[w][t], 40, "%s_%s", WHAT[w], TYPES[t].name);
      suite_register("images_kernel", names[w][t], FN[w], &TYPES[t]);
    }
}
