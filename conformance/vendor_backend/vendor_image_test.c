/* Images on the vendor backend, through the operations table (docs/images.md, "Backends"):
 * limits.images, image_alloc of every type, whole and rect transfers against a host model of
 * the packed bytes, image-image and image-buffer copies (buffer sides packed and not), the
 * asynchronous forms through tokens, the operations images refuse, and launches with image and
 * sampler arguments (a 2D image read through two samplers, 1D buffer images at aligned and
 * misaligned offsets read and written) compared with host computations. Random data and sizes
 * from the caller's generator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_internal.h"
#include "vendor_image_test.h"

static unsigned *checks_, *fails_;
#define CHECK(c, ...)                                                                                                  \
  do {                                                                                                                 \
    (*checks_)++;                                                                                                      \
    if (!(c)) {                                                                                                        \
      (*fails_)++;                                                                                                     \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                      \
      printf(__VA_ARGS__);                                                                                             \
      printf("\n");                                                                                                    \
    }                                                                                                                  \
  } while (0)

static uint64_t (*rnd)(void);
static size_t rr(size_t lo, size_t hi) { return lo + rnd() % (hi - lo + 1); }
static void fill_rand(void *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    ((unsigned char *)p)[i] = (unsigned char)rnd();
}

/* The layout image_alloc takes, as the platform computes it. */
static hg_image_layout make_layout(cl_mem_object_type type, cl_image_format f, size_t w, size_t h, size_t d,
                                   size_t layers) {
  hg_image_layout l = {.type = type, .format = f, .width = w, .height = 1, .depth = 1, .array_size = 1};
  if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D)
    l.height = h;
  if (type == CL_MEM_OBJECT_IMAGE3D)
    l.depth = d;
  if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    l.array_size = layers;
  l.pixel_size = hg_image_pixel_size(&f);
  l.row_pitch = w * l.pixel_size;
  l.slice_pitch = type == CL_MEM_OBJECT_IMAGE1D_ARRAY                                         ? l.row_pitch
                  : type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D ? l.row_pitch * l.height
                                                                                          : 0;
  size_t rows = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? layers : l.height;
  size_t slices = type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? layers : l.depth;
  l.size = l.row_pitch * rows * slices;
  return l;
}

/* The whole image in image coordinates, x in bytes. */
static void extent(const hg_image_layout *l, size_t e[3]) {
  e[0] = l->row_pitch;
  e[1] = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? l->array_size : l->height;
  e[2] = l->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? l->array_size : l->depth;
}

/* A random box inside the image, x in whole pixels. */
static void rand_box(const hg_image_layout *l, size_t origin[3], size_t region[3]) {
  size_t e[3];
  extent(l, e);
  size_t ps = l->pixel_size, w = e[0] / ps;
  region[0] = rr(1, w) * ps;
  origin[0] = rr(0, w - region[0] / ps) * ps;
  for (int i = 1; i < 3; i++) {
    region[i] = rr(1, e[i]);
    origin[i] = rr(0, e[i] - region[i]);
  }
}

/* Copies a box between two byte arrays with their own origins and pitches. */
static void box_copy(unsigned char *dst, const size_t dorg[3], size_t drow, size_t dslice, const unsigned char *src,
                     const size_t sorg[3], size_t srow, size_t sslice, const size_t region[3]) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memcpy(dst + (dorg[2] + z) * dslice + (dorg[1] + y) * drow + dorg[0],
             src + (sorg[2] + z) * sslice + (sorg[1] + y) * srow + sorg[0], region[0]);
}

/* The model's pitches: a 1D array's layers are rows. */
static void model_pitches(const hg_image_layout *l, size_t *row, size_t *slice) {
  size_t e[3];
  extent(l, e);
  *row = l->row_pitch;
  *slice = l->row_pitch * e[1];
}

static bool read_matches(hg_backend *be, hg_dev_mem *m, const hg_image_layout *l, const unsigned char *model) {
  unsigned char *out = malloc(l->size);
  memset(out, 0xA5, l->size);
  cl_int e = be->ops->mem_read(be, m, 0, l->size, out);
  bool ok = e == CL_SUCCESS && !memcmp(out, model, l->size);
  free(out);
  return ok;
}

static const char *type_name(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D: return "1D";
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "1D buffer";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "1D array";
  case CL_MEM_OBJECT_IMAGE2D: return "2D";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "2D array";
  default: return "3D";
  }
}

/* Whether the vendor lists the format for images of this type and flags. */
static bool vendor_has_format(hg_backend *be, cl_mem_object_type type, cl_mem_flags flags, const cl_image_format *f) {
  cl_context ctx = hg_vendor_of(be)->context;
  cl_image_format have[512];
  cl_uint n = 0;
  if (VCL(ctx)->clGetSupportedImageFormats(ctx, flags, type, 512, have, &n) != CL_SUCCESS)
    return false;
  for (cl_uint i = 0; i < n && i < 512; i++)
    if (have[i].image_channel_order == f->image_channel_order &&
        have[i].image_channel_data_type == f->image_channel_data_type)
      return true;
  return false;
}

/* A random profile format the vendor has for this type (the profile's list may hold formats a
 * vendor lacks: then limits.images is false, and the operations are still tested on the rest). */
static bool pick_format(hg_backend *be, cl_mem_object_type type, cl_image_format *f) {
  for (int tries = 0; tries < 64; tries++) {
    *f = hg_image_formats[rr(0, hg_image_format_count - 1)];
    if (vendor_has_format(be, type, CL_MEM_READ_WRITE, f))
      return true;
  }
  return false;
}

static const cl_mem_object_type all_types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                               CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                               CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};

/* limits.images against the vendor's own answers: never true with a profile format missing;
 * true when the device has images, every format and the profile's limits (PoCL's are). */
static void check_images_limit(hg_backend *be) {
  cl_device_id dev = hg_vendor_of(be)->device;
  cl_bool support = CL_FALSE;
  VCL(dev)->clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL);
  const cl_image_format *missing = NULL;
  for (size_t t = 0; t < sizeof all_types / sizeof all_types[0]; t++)
    for (unsigned i = 0; i < hg_image_format_count; i++) {
      const cl_image_format *f = &hg_image_formats[i];
      bool writes = all_types[t] != CL_MEM_OBJECT_IMAGE3D;
      if (!missing && (!vendor_has_format(be, all_types[t], CL_MEM_READ_ONLY, f) ||
                       (writes && !vendor_has_format(be, all_types[t], CL_MEM_WRITE_ONLY, f))))
        missing = f;
    }
  if (missing)
    printf("  the vendor lacks the profile's format 0x%x/0x%x\n", (unsigned)missing->image_channel_order,
           (unsigned)missing->image_channel_data_type);
  CHECK(!be->limits.images || (support && !missing), "limits.images true without images or a format");
  if (strstr(be->platform_name, "Portable Computing Language") && support && !missing)
    CHECK(be->limits.images, "PoCL has every format and the limits: images");
}

/* Every transfer on one image of this type, against the model. */
static void test_type(hg_backend *be, cl_mem_object_type type) {
  const hg_backend_ops *o = be->ops;
  cl_image_format f;
  if (!pick_format(be, type, &f))
    return;
  hg_image_layout l = make_layout(type, f, rr(1, 70), rr(1, 20), rr(1, 6), rr(1, 5));
  const char *tn = type_name(type);
  hg_dev_mem *a = NULL, *b = NULL, *buf = NULL;
  cl_int e = o->image_alloc(be, &l, &a);
  CHECK(e == CL_SUCCESS && a, "%s: image_alloc %d", tn, e);
  if (!a)
    return;
  unsigned char *model = malloc(l.size), *tmp;
  fill_rand(model, l.size);
  CHECK(o->mem_write(be, a, 0, l.size, model) == CL_SUCCESS, "%s: whole write", tn);
  CHECK(read_matches(be, a, &l, model), "%s: whole read back (%zu bytes, pixel %zu)", tn, l.size, l.pixel_size);
  if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) { /* a buffer: the buffer operations apply */
    o->mem_free(be, a);
    free(model);
    return;
  }
  /* what images refuse, with the contents untouched */
  uint32_t pattern = 0x12345678;
  CHECK(o->mem_fill(be, a, 0, l.size, &pattern, 4) == CL_INVALID_OPERATION, "%s: fill refused", tn);
  tmp = malloc(l.size);
  if (l.size > 1)
    CHECK(o->mem_read(be, a, 0, l.size - 1, tmp) == CL_INVALID_OPERATION, "%s: partial read refused", tn);
  CHECK(o->mem_host_map(be, a, false) == NULL && o->mem_host_address(be, a) == NULL, "%s: no host address", tn);
  free(tmp);
  CHECK(read_matches(be, a, &l, model), "%s: untouched by the refusals", tn);

  size_t mrow, mslice;
  model_pitches(&l, &mrow, &mslice);
  for (int round = 0; round < 4; round++) {
    /* a rect write from host memory with its own pitches */
    hg_rect r = {0};
    rand_box(&l, r.dst_origin, r.region);
    for (int i = 0; i < 3; i++)
      r.src_origin[i] = rr(0, 3);
    r.src_row_pitch = r.src_origin[0] + r.region[0] + rr(0, 9);
    r.src_slice_pitch = r.src_row_pitch * (r.src_origin[1] + r.region[1] + rr(0, 2));
    size_t host_size = (r.src_origin[2] + r.region[2]) * r.src_slice_pitch;
    unsigned char *host = malloc(host_size);
    fill_rand(host, host_size);
    CHECK(o->mem_write_rect(be, a, &r, host) == CL_SUCCESS, "%s: rect write", tn);
    box_copy(model, r.dst_origin, mrow, mslice, host, r.src_origin, r.src_row_pitch, r.src_slice_pitch, r.region);
    CHECK(read_matches(be, a, &l, model), "%s: after the rect write", tn);
    free(host);
    /* a rect read into host memory with its own pitches; the rest of it untouched */
    hg_rect q = {0};
    rand_box(&l, q.src_origin, q.region);
    for (int i = 0; i < 3; i++)
      q.dst_origin[i] = rr(0, 3);
    q.dst_row_pitch = q.dst_origin[0] + q.region[0] + rr(0, 9);
    q.dst_slice_pitch = q.dst_row_pitch * (q.dst_origin[1] + q.region[1] + rr(0, 2));
    host_size = (q.dst_origin[2] + q.region[2]) * q.dst_slice_pitch;
    host = malloc(host_size);
    unsigned char *want = malloc(host_size);
    memset(host, 0x5A, host_size);
    memset(want, 0x5A, host_size);
    box_copy(want, q.dst_origin, q.dst_row_pitch, q.dst_slice_pitch, model, q.src_origin, mrow, mslice, q.region);
    cl_int re = o->mem_read_rect(be, a, &q, host);
    size_t at = 0;
    while (at < host_size && host[at] == want[at])
      at++;
    CHECK(re == CL_SUCCESS && at == host_size,
          "%s: rect read (%d): origin %zu,%zu,%zu region %zu,%zu,%zu pitches %zu,%zu at %zu,%zu,%zu: byte %zu of %zu",
          tn, re, q.src_origin[0], q.src_origin[1], q.src_origin[2], q.region[0], q.region[1], q.region[2],
          q.dst_row_pitch, q.dst_slice_pitch, q.dst_origin[0], q.dst_origin[1], q.dst_origin[2], at, host_size);
    free(host);
    free(want);
  }
  /* x off the pixels: refused */
  if (l.pixel_size > 1) {
    hg_rect bad = {.region = {1, 1, 1}, .dst_row_pitch = 1, .dst_slice_pitch = 1};
    unsigned char one;
    CHECK(o->mem_read_rect(be, a, &bad, &one) == CL_INVALID_VALUE, "%s: rect x off the pixels", tn);
  }

  /* image -> image: whole, then a box */
  CHECK(o->image_alloc(be, &l, &b) == CL_SUCCESS && b, "%s: second image", tn);
  unsigned char *model_b = malloc(l.size);
  memcpy(model_b, model, l.size);
  CHECK(b && o->mem_copy(be, a, 0, b, 0, l.size) == CL_SUCCESS, "%s: whole copy", tn);
  CHECK(b && read_matches(be, b, &l, model_b), "%s: after the whole copy", tn);
  fill_rand(model_b, l.size);
  CHECK(b && o->mem_write(be, b, 0, l.size, model_b) == CL_SUCCESS, "%s: write b", tn);
  hg_rect c = {0};
  rand_box(&l, c.src_origin, c.region);
  size_t e3[3];
  extent(&l, e3);
  for (int i = 0; i < 3; i++)
    c.dst_origin[i] = rr(0, e3[i] - c.region[i]);
  c.dst_origin[0] -= c.dst_origin[0] % l.pixel_size;
  CHECK(b && o->mem_copy_rect(be, a, b, &c) == CL_SUCCESS, "%s: image->image rect", tn);
  box_copy(model_b, c.dst_origin, mrow, mslice, model, c.src_origin, mrow, mslice, c.region);
  CHECK(b && read_matches(be, b, &l, model_b), "%s: after the image->image rect", tn);

  /* image <-> buffer: whole at an offset, then boxes with the buffer side packed and not */
  size_t pad = rr(0, 64), buf_size = l.size * 2 + pad + 4096;
  CHECK(o->mem_alloc(be, buf_size, &buf) == CL_SUCCESS, "%s: buffer", tn);
  unsigned char *model_buf = malloc(buf_size);
  fill_rand(model_buf, buf_size);
  o->mem_write(be, buf, 0, buf_size, model_buf);
  CHECK(o->mem_copy(be, a, 0, buf, pad, l.size) == CL_SUCCESS, "%s: whole image->buffer", tn);
  memcpy(model_buf + pad, model, l.size);
  CHECK(o->mem_copy(be, a, 0, buf, buf_size - l.size + 1, l.size) == CL_INVALID_VALUE, "%s: past the buffer", tn);
  for (int round = 0; round < 4; round++) {
    bool packed = round < 2, to_buffer = round % 2 == 0;
    hg_rect r = {0};
    size_t *image_origin = to_buffer ? r.src_origin : r.dst_origin;
    size_t *buf_origin = to_buffer ? r.dst_origin : r.src_origin;
    rand_box(&l, image_origin, r.region);
    size_t row = packed ? r.region[0] : r.region[0] + rr(1, 9);
    size_t slice = packed ? r.region[0] * r.region[1] : row * (r.region[1] + rr(0, 2));
    if (to_buffer) {
      r.dst_row_pitch = row;
      r.dst_slice_pitch = slice;
    } else {
      r.src_row_pitch = row;
      r.src_slice_pitch = slice;
    }
    if (packed) {
      buf_origin[0] = rr(0, 100); /* an offset, as the platform gives it */
    } else {
      buf_origin[0] = rr(0, row - r.region[0]);
      buf_origin[1] = rr(0, 2);
      buf_origin[2] = rr(0, 1);
    }
    size_t end = buf_origin[2] * slice + buf_origin[1] * row + buf_origin[0] + (r.region[2] - 1) * slice +
                 (r.region[1] - 1) * row + r.region[0];
    if (end > buf_size)
      continue;
    if (to_buffer) {
      cl_int ce = o->mem_copy_rect(be, a, buf, &r);
      CHECK(ce == CL_SUCCESS, "%s: image->buffer rect (packed %d): %d", tn, packed, ce);
      box_copy(model_buf, buf_origin, row, slice, model, image_origin, mrow, mslice, r.region);
      unsigned char *out = malloc(buf_size);
      CHECK(o->mem_read(be, buf, 0, buf_size, out) == CL_SUCCESS && !memcmp(out, model_buf, buf_size),
            "%s: buffer after image->buffer rect (packed %d)", tn, packed);
      free(out);
    } else {
      cl_int ce = o->mem_copy_rect(be, buf, a, &r);
      CHECK(ce == CL_SUCCESS, "%s: buffer->image rect (packed %d): %d", tn, packed, ce);
      box_copy(model, image_origin, mrow, mslice, model_buf, buf_origin, row, slice, r.region);
      CHECK(read_matches(be, a, &l, model), "%s: image after buffer->image rect (packed %d)", tn, packed);
    }
  }
  CHECK(o->mem_copy(be, buf, pad, b, 0, l.size) == CL_SUCCESS, "%s: whole buffer->image", tn);
  CHECK(b && read_matches(be, b, &l, model_buf + pad), "%s: after the whole buffer->image", tn);

  /* the asynchronous forms: an untimed write and a timed rect read, through their tokens */
  hg_token *t1 = NULL, *t2 = NULL;
  fill_rand(model, l.size);
  CHECK(o->mem_write_async(be, a, 0, l.size, model, false, &t1) == CL_SUCCESS && t1, "%s: async write", tn);
  hg_rect q = {.region = {l.row_pitch, e3[1], e3[2]}, .dst_row_pitch = l.row_pitch, .dst_slice_pitch = mslice};
  unsigned char *out = malloc(l.size);
  CHECK(o->mem_read_rect_async(be, a, &q, out, true, &t2) == CL_SUCCESS && t2, "%s: async rect read", tn);
  uint64_t start = 0, endt = 0;
  CHECK(!t2 || o->token_wait(be, t2, &start, &endt) == CL_SUCCESS, "%s: rect read token", tn);
  CHECK(!t1 || o->token_wait(be, t1, NULL, NULL) == CL_SUCCESS, "%s: write token", tn);
  CHECK(!memcmp(out, model, l.size), "%s: async round trip", tn);
  if (t1)
    o->token_release(be, t1);
  if (t2)
    o->token_release(be, t2);
  hg_token *t3 = NULL;
  CHECK(o->mem_copy_rect_async(be, a, buf, &(hg_rect){.region = {l.row_pitch, e3[1], e3[2]},
                                                      .dst_row_pitch = l.row_pitch + 3,
                                                      .dst_slice_pitch = (l.row_pitch + 3) * e3[1]},
                               false, &t3) == CL_SUCCESS,
        "%s: async staged image->buffer", tn);
  CHECK(!t3 || o->token_wait(be, t3, NULL, NULL) == CL_SUCCESS, "%s: staged token", tn);
  if (t3)
    o->token_release(be, t3);
  memset(out, 0, l.size);
  hg_rect back = {.region = {l.row_pitch, e3[1], e3[2]}, .src_row_pitch = l.row_pitch + 3,
                  .src_slice_pitch = (l.row_pitch + 3) * e3[1], .dst_row_pitch = l.row_pitch, .dst_slice_pitch = mslice};
  CHECK(o->mem_read_rect(be, buf, &back, out) == CL_SUCCESS && !memcmp(out, model, l.size),
        "%s: staged image->buffer contents", tn);
  hg_token *t4 = NULL;
  CHECK(o->mem_fill_async(be, a, 0, 4, &pattern, 4, false, &t4) == CL_INVALID_OPERATION && !t4,
        "%s: async fill refused", tn);
  free(out);
  free(model_buf);
  free(model_b);
  free(model);
  o->mem_free(be, buf);
  o->mem_free(be, b);
  o->mem_free(be, a);
}

/* ---- launches ---- */

static const char *image_kernels =
    "kernel void read2d(read_only image2d_t im, sampler_t s, global float4 *out, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * w + x] = read_imagef(im, s, (int2)(x - 1, y + 1));\n"
    "}\n"
    "kernel void write2d(write_only image2d_t im) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  write_imageui(im, (int2)(x, y), (uint4)(x, y, x + y, 7));\n"
    "}\n"
    "kernel void read1db(read_only image1d_buffer_t im, global uint4 *out) {\n"
    "  int x = get_global_id(0);\n"
    "  out[x] = read_imageui(im, x);\n"
    "}\n"
    "kernel void write1db(write_only image1d_buffer_t im) {\n"
    "  int x = get_global_id(0);\n"
    "  write_imageui(im, x, (uint4)(x, x + 1, x + 2, x + 3));\n"
    "}\n";

static hg_dev_kernel *kernel_of(hg_backend *be, hg_dev_program *p, const char *name) {
  hg_dev_kernel *k = NULL;
  CHECK(be->ops->kernel_create(be, p, name, &k) == CL_SUCCESS && k, "kernel %s", name);
  return k;
}

static size_t clampi(long v, size_t n) { return v < 0 ? 0 : (size_t)v >= n ? n - 1 : (size_t)v; }

/* read2d through a clamp-to-edge and a clamp sampler (border (0,0,0,0) for RGBA). */
static void test_read2d(hg_backend *be, hg_dev_kernel *k) {
  const hg_backend_ops *o = be->ops;
  size_t w = rr(3, 40), h = rr(3, 30);
  hg_image_layout l = make_layout(CL_MEM_OBJECT_IMAGE2D, (cl_image_format){CL_RGBA, CL_UNORM_INT8}, w, h, 1, 1);
  hg_dev_mem *im = NULL, *out = NULL;
  CHECK(o->image_alloc(be, &l, &im) == CL_SUCCESS, "read2d image");
  CHECK(o->mem_alloc(be, w * h * 16, &out) == CL_SUCCESS, "read2d out");
  if (!im || !out)
    return;
  unsigned char *pix = malloc(l.size);
  fill_rand(pix, l.size);
  o->mem_write(be, im, 0, l.size, pix);
  float *res = malloc(w * h * 16);
  for (int pass = 0; pass < 4; pass++) {
    bool edge = pass % 2 == 0;
    uint32_t bits = HG_SAMPLER_FILTER_NEAREST | (edge ? HG_SAMPLER_ADDRESS_CLAMP_TO_EDGE : HG_SAMPLER_ADDRESS_CLAMP);
    int wi = (int)w;
    hg_launch_arg args[4] = {{.kind = HG_ARG_IMAGE, .mem = im, .image = &l},
                             {.kind = HG_ARG_SAMPLER, .size = 4, .value = &bits},
                             {.kind = HG_ARG_BUFFER, .mem = out},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &wi}};
    hg_launch ln = {.work_dim = 2, .global_size = {w, h, 1}, .num_args = 4, .args = args};
    CHECK(o->kernel_launch(be, k, &ln, NULL) == CL_SUCCESS, "read2d launch");
    memset(res, 0, w * h * 16);
    o->mem_read(be, out, 0, w * h * 16, res);
    size_t bad = 0;
    for (size_t y = 0; y < h; y++)
      for (size_t x = 0; x < w; x++) {
        long sx = (long)x - 1, sy = (long)y + 1;
        bool outside = sx < 0 || sy >= (long)h;
        for (int ch = 0; ch < 4; ch++) {
          float want = !edge && outside ? 0.0f : pix[(clampi(sy, h) * w + clampi(sx, w)) * 4 + ch] / 255.0f;
          if (fabsf(res[(y * w + x) * 4 + ch] - want) > 1e-6f)
            bad++;
        }
      }
    CHECK(!bad, "read2d (%s): %zu channels wrong of %zu", edge ? "clamp to edge" : "clamp", bad, w * h * 4);
  }
  hg_vendor_backend *vb = hg_vendor_of(be);
  CHECK(vb->samplers[HG_SAMPLER_FILTER_NEAREST | HG_SAMPLER_ADDRESS_CLAMP] &&
            vb->samplers[HG_SAMPLER_FILTER_NEAREST | HG_SAMPLER_ADDRESS_CLAMP_TO_EDGE],
        "one vendor sampler per value");
  uint32_t bad_bits = 0x40;
  hg_launch_arg args[4] = {{.kind = HG_ARG_IMAGE, .mem = im, .image = &l},
                           {.kind = HG_ARG_SAMPLER, .size = 4, .value = &bad_bits},
                           {.kind = HG_ARG_BUFFER, .mem = out},
                           {.kind = HG_ARG_VALUE, .size = 4, .value = &(int){1}}};
  hg_launch ln = {.work_dim = 2, .global_size = {w, h, 1}, .num_args = 4, .args = args};
  CHECK(o->kernel_launch(be, k, &ln, NULL) == CL_INVALID_SAMPLER, "bad sampler bits refused");
  args[0].mem = out; /* a buffer where an image goes */
  args[1].value = &(uint32_t){HG_SAMPLER_FILTER_NEAREST};
  CHECK(o->kernel_launch(be, k, &ln, NULL) == CL_INVALID_MEM_OBJECT, "buffer as a 2D image refused");
  free(res);
  free(pix);
  o->mem_free(be, out);
  o->mem_free(be, im);
}

static void test_write2d(hg_backend *be, hg_dev_kernel *k) {
  const hg_backend_ops *o = be->ops;
  size_t w = rr(1, 50), h = rr(1, 20);
  hg_image_layout l = make_layout(CL_MEM_OBJECT_IMAGE2D, (cl_image_format){CL_RGBA, CL_UNSIGNED_INT16}, w, h, 1, 1);
  hg_dev_mem *im = NULL;
  CHECK(o->image_alloc(be, &l, &im) == CL_SUCCESS, "write2d image");
  if (!im)
    return;
  hg_launch_arg arg = {.kind = HG_ARG_IMAGE, .mem = im, .image = &l};
  hg_launch ln = {.work_dim = 2, .global_size = {w, h, 1}, .num_args = 1, .args = &arg};
  hg_token *t = NULL;
  CHECK(o->kernel_launch_async(be, k, &ln, false, &t) == CL_SUCCESS, "write2d async launch");
  uint16_t *px = malloc(l.size);
  CHECK(o->mem_read(be, im, 0, l.size, px) == CL_SUCCESS, "write2d read");
  if (t) {
    CHECK(o->token_wait(be, t, NULL, NULL) == CL_SUCCESS, "write2d token");
    o->token_release(be, t);
  }
  size_t bad = 0;
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++) {
      uint16_t *p = px + (y * w + x) * 4;
      bad += p[0] != x || p[1] != y || p[2] != x + y || p[3] != 7;
    }
  CHECK(!bad, "write2d: %zu pixels wrong of %zu", bad, w * h);
  free(px);
  o->mem_free(be, im);
}

/* 1D buffer images over a buffer at offsets the vendor's sub-buffers take and ones they do not. */
static void test_1d_buffer(hg_backend *be, hg_dev_kernel *rd, hg_dev_kernel *wr) {
  const hg_backend_ops *o = be->ops;
  hg_dev_mem *buf = NULL, *out = NULL;
  size_t align = (be->limits.mem_base_addr_align_bits / 8) ? be->limits.mem_base_addr_align_bits / 8 : 1;
  size_t w = rr(1, 300), size = w * 4 + 2 * align + 64;
  CHECK(o->mem_alloc(be, size, &buf) == CL_SUCCESS && o->mem_alloc(be, w * 16, &out) == CL_SUCCESS, "1db buffers");
  if (!buf || !out)
    return;
  unsigned char *model = malloc(size);
  uint32_t *res = malloc(w * 16);
  size_t offsets[3] = {0, align, 16};
  for (int i = 0; i < 3; i++) {
    size_t off = offsets[i];
    hg_image_layout l = make_layout(CL_MEM_OBJECT_IMAGE1D_BUFFER, (cl_image_format){CL_RGBA, CL_UNSIGNED_INT8}, w, 1,
                                    1, 1);
    fill_rand(model, size);
    o->mem_write(be, buf, 0, size, model);
    hg_launch_arg args[2] = {{.kind = HG_ARG_IMAGE, .mem = buf, .image = &l, .offset = off},
                             {.kind = HG_ARG_BUFFER, .mem = out}};
    hg_launch ln = {.work_dim = 1, .global_size = {w, 1, 1}, .num_args = 2, .args = args};
    for (int twice = 0; twice < 2; twice++)
      CHECK(o->kernel_launch(be, rd, &ln, NULL) == CL_SUCCESS, "read1db launch at %zu", off);
    o->mem_read(be, out, 0, w * 16, res);
    size_t bad = 0;
    for (size_t x = 0; x < w * 4; x++)
      bad += res[x] != model[off + x];
    CHECK(!bad, "read1db at offset %zu: %zu channels wrong", off, bad);
    if (!wr) /* PoCL 3.1 crashes in its enqueue of a kernel writing an image1d_buffer_t */
      continue;
    ln.num_args = 1;
    CHECK(o->kernel_launch(be, wr, &ln, NULL) == CL_SUCCESS, "write1db launch at %zu", off);
    for (size_t x = 0; x < w; x++)
      for (int c = 0; c < 4; c++)
        model[off + x * 4 + c] = (unsigned char)(x + c > 255 ? 255 : x + c); /* write_imageui saturates */
    unsigned char *got = malloc(size);
    CHECK(o->mem_read(be, buf, 0, size, got) == CL_SUCCESS && !memcmp(got, model, size),
          "write1db at offset %zu (the rest untouched)", off);
    free(got);
  }
  /* the views are cached: one per aligned offset (the misaligned one ran on a copy) */
  unsigned views = 0;
  for (hg_vendor_view *v = buf->views; v; v = v->next)
    views++;
  unsigned want = hg_vendor_of(be)->image_views_of_sub_buffers ? (align > 16 ? 2u : 3u) : 1u;
  CHECK(views == want, "%u cached 1D buffer images, %u expected", views, want);
  /* out of range: refused */
  hg_image_layout big = make_layout(CL_MEM_OBJECT_IMAGE1D_BUFFER, (cl_image_format){CL_RGBA, CL_UNSIGNED_INT8},
                                    size, 1, 1, 1);
  hg_launch_arg args[2] = {{.kind = HG_ARG_IMAGE, .mem = buf, .image = &big}, {.kind = HG_ARG_BUFFER, .mem = out}};
  hg_launch ln = {.work_dim = 1, .global_size = {1, 1, 1}, .num_args = 2, .args = args};
  CHECK(o->kernel_launch(be, rd, &ln, NULL) == CL_INVALID_MEM_OBJECT, "1D buffer image past its buffer refused");
  free(res);
  free(model);
  o->mem_free(be, out);
  o->mem_free(be, buf);
}

void hg_vendor_image_tests(hg_backend *be, const char **source, uint64_t (*random)(void), unsigned *checks,
                           unsigned *fails) {
  checks_ = checks;
  fails_ = fails;
  rnd = random;
  printf("  images: %s\n", be->limits.images ? "yes" : "no");
  check_images_limit(be);
  cl_device_id dev = hg_vendor_of(be)->device;
  cl_bool support = CL_FALSE;
  VCL(dev)->clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL);
  if (!support)
    return;
  for (int round = 0; round < 3; round++)
    for (size_t t = 0; t < sizeof all_types / sizeof all_types[0]; t++)
      test_type(be, all_types[t]);
  hg_image_layout bad = make_layout(CL_MEM_OBJECT_IMAGE2D, (cl_image_format){CL_RGBA, CL_UNORM_INT8}, 4, 4, 1, 1);
  bad.size++;
  hg_dev_mem *m = (hg_dev_mem *)1;
  CHECK(be->ops->image_alloc(be, &bad, &m) == CL_INVALID_IMAGE_DESCRIPTOR && !m, "inconsistent layout refused");

  *source = image_kernels;
  hg_dev_program *p = NULL;
  char *log = NULL;
  cl_int e = be->ops->program_build(be, NULL, NULL, NULL, &p, &log);
  CHECK(e == CL_SUCCESS && p, "image kernels build %d: %s", e, log ? log : "");
  free(log);
  if (!p)
    return;
  hg_dev_kernel *r2 = kernel_of(be, p, "read2d"), *w2 = kernel_of(be, p, "write2d");
  hg_dev_kernel *r1 = kernel_of(be, p, "read1db"), *w1 = kernel_of(be, p, "write1db");
  if (r2)
    test_read2d(be, r2);
  if (w2)
    test_write2d(be, w2);
  if (r1)
    test_1d_buffer(be, r1, strstr(be->platform_name, "Portable Computing Language") ? NULL : w1);
  be->ops->kernel_free(be, r2);
  be->ops->kernel_free(be, w2);
  be->ops->kernel_free(be, r1);
  be->ops->kernel_free(be, w1);
  be->ops->program_free(be, p);
}
