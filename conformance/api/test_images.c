/* Image and sampler objects through the API (docs/images.md): creation of every type and its
 * errors, clGetImageInfo, the format list, samplers, and the host commands on images checked
 * against a model of the image kept here (writes and reads with pitches and sub-regions, copies
 * between images and buffers, fills against a conversion written here, maps, a 1D buffer image
 * sharing its buffer). Runs against PoCL too (HETGPU_TEST_PLATFORM=Portable), the reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* False (and the test skipped) when the device has no images; then hetGPU must refuse them. */
static bool images_supported(void) {
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
  if (!images)
    hg_test_skip("CL_DEVICE_IMAGE_SUPPORT is false: not every backend has images yet");
  return images;
}

/* While the device has no images: zero formats, image and sampler creation refused. */
HG_TEST(refused_without_images) {
  cl_bool images = CL_TRUE;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  if (images) {
    hg_test_skip("the device has images");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_uint n = 77;
  CHECK_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
  CHECK(n == 0);
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 16};
  cl_int err = CL_SUCCESS;
  CHECK(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err) == NULL && err == CL_INVALID_OPERATION);
  CHECK(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err) == NULL &&
        err == CL_INVALID_OPERATION);
  err = CL_SUCCESS;
  cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  CHECK(clCreateSamplerWithProperties(ctx, sp, &err) == NULL && err == CL_INVALID_OPERATION);
  clReleaseContext(ctx);
}

static const cl_mem_object_type all_types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE3D,       CL_MEM_OBJECT_IMAGE1D_BUFFER};

HG_TEST(format_list) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  for (unsigned t = 0; t < 6; t++) {
    cl_uint n = 0;
    CHECK_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, all_types[t], 0, NULL, &n));
    cl_image_format *list = calloc(n, sizeof *list);
    CHECK_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, all_types[t], n, list, NULL));
    bool rgba8 = false, rf = false;
    for (cl_uint i = 0; i < n; i++) {
      rgba8 |= list[i].image_channel_order == CL_RGBA && list[i].image_channel_data_type == CL_UNORM_INT8;
      rf |= list[i].image_channel_order == CL_R && list[i].image_channel_data_type == CL_FLOAT;
    }
    CHECK(rgba8 && rf);
    free(list);
  }
  cl_uint n;
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, NULL, &n), CL_INVALID_VALUE);
  cl_image_format one;
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, &one, &n), CL_INVALID_VALUE);
  clReleaseContext(ctx);
}

/* ---- creation ---- */

static cl_mem make(cl_context ctx, cl_mem_flags flags, cl_channel_order o, cl_channel_type t, cl_image_desc d,
                   void *host, cl_int *err) {
  cl_image_format f = {o, t};
  return clCreateImage(ctx, flags, &f, &d, host, err);
}

HG_TEST(create_errors) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 8};
  cl_image_format good = {CL_RGBA, CL_UNORM_INT8}, bad = {0x1234, CL_UNORM_INT8};
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, NULL, &d2, NULL, &err) && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &bad, &d2, NULL, &err) && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, NULL, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(!clCreateImage((cl_context)hg_test_device, CL_MEM_READ_WRITE, &good, &d2, NULL, &err) &&
        err == CL_INVALID_CONTEXT);
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, &good, &d2, NULL, &err) && err == CL_INVALID_VALUE);
  cl_image_desc d = d2;
  d.image_type = CL_MEM_OBJECT_BUFFER;
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2;
  d.num_mip_levels = 1;
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2;
  d.image_width = 1u << 20;
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  /* host pointer rules */
  uint8_t host[16 * 8 * 4 * 2];
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d2, host, &err) && err == CL_INVALID_HOST_PTR);
  CHECK(!clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &good, &d2, NULL, &err) && err == CL_INVALID_HOST_PTR);
  d = d2;
  d.image_row_pitch = 16 * 4 + 1; /* not a multiple of the pixel */
  CHECK(!clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &good, &d, host, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 16 * 4;
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  /* an image from a buffer only of the 1D buffer type */
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
  CHECK_CL(err);
  d = d2;
  d.mem_object = buf;
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc db = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 4096 / 4 + 1, .mem_object = buf};
  CHECK(!clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &db, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  db.image_width = 64;
  CHECK(!clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &good, &db, host, &err) && err == CL_INVALID_VALUE);
  clReleaseMemObject(buf);
  /* no sub-buffer of an image; an image is no buffer for buffer commands */
  cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &good, &d2, NULL, &err);
  CHECK_CL(err);
  cl_buffer_region r = {0, 64};
  CHECK(!clCreateSubBuffer(img, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) &&
        err == CL_INVALID_MEM_OBJECT);
  cl_command_queue q = hg_test_queue(ctx, 0);
  CHECK_ERR(clEnqueueReadBuffer(q, img, CL_TRUE, 0, 4, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  size_t info;
  CHECK_ERR(clGetImageInfo(img, 0x7777, sizeof info, &info, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(img);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static size_t image_size(cl_mem m, cl_image_info p) {
  size_t v = 7777;
  if (clGetImageInfo(m, p, sizeof v, &v, NULL) != CL_SUCCESS)
    hg_test_fail(__FILE__, __LINE__, "clGetImageInfo(0x%x) failed", (unsigned)p);
  return v;
}

HG_TEST(image_info) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_int err;
  struct {
    cl_image_desc d;
    size_t height, depth, array, slice;
  } cases[] = {
      {{.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 40}, 0, 0, 0, 0},
      {{.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 40, .image_array_size = 3}, 0, 0, 3, 40 * 8},
      {{.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 40, .image_height = 5}, 5, 0, 0, 0},
      {{.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 40, .image_height = 5, .image_array_size = 2},
       5, 0, 2, 40 * 8 * 5},
      {{.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 40, .image_height = 5, .image_depth = 3}, 5, 3, 0,
       40 * 8 * 5},
  };
  for (unsigned i = 0; i < 5; i++) {
    cl_mem m = make(ctx, CL_MEM_READ_ONLY, CL_RGBA, CL_HALF_FLOAT, cases[i].d, NULL, &err);
    CHECK_CL(err);
    cl_image_format f;
    CHECK_CL(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, NULL));
    CHECK(f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_HALF_FLOAT);
    CHECK(image_size(m, CL_IMAGE_ELEMENT_SIZE) == 8);
    CHECK(image_size(m, CL_IMAGE_WIDTH) == 40);
    CHECK(image_size(m, CL_IMAGE_ROW_PITCH) == 40 * 8);
    CHECK(image_size(m, CL_IMAGE_HEIGHT) == cases[i].height);
    CHECK(image_size(m, CL_IMAGE_DEPTH) == cases[i].depth);
    CHECK(image_size(m, CL_IMAGE_ARRAY_SIZE) == cases[i].array);
    CHECK(image_size(m, CL_IMAGE_SLICE_PITCH) == cases[i].slice);
    cl_mem b = (cl_mem)1;
    CHECK_CL(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof b, &b, NULL));
    CHECK(b == NULL);
    cl_uint levels = 9;
    CHECK_CL(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof levels, &levels, NULL));
    CHECK(levels == 0);
    cl_mem_object_type t;
    CHECK_CL(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL));
    CHECK(t == cases[i].d.image_type);
    size_t size;
    CHECK_CL(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size >= 40 * 8);
    clReleaseMemObject(m);
  }
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
  CHECK_CL(err);
  cl_image_desc db = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 100, .mem_object = buf};
  cl_mem m = make(ctx, 0, CL_R, CL_FLOAT, db, NULL, &err);
  CHECK_CL(err);
  cl_mem b = NULL, assoc = NULL;
  CHECK_CL(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof b, &b, NULL));
  CHECK_CL(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CHECK(b == buf && assoc == buf);
  clReleaseMemObject(m);
  clReleaseMemObject(buf);
  buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  CHECK_ERR(clGetImageInfo(buf, CL_IMAGE_WIDTH, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(buf);
  clReleaseContext(ctx);
}

HG_TEST(samplers) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
  CHECK_CL(err);
  cl_bool norm;
  cl_addressing_mode am;
  cl_filter_mode fm;
  cl_uint refs;
  cl_context c;
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL));
  CHECK(norm == CL_TRUE && am == CL_ADDRESS_REPEAT && fm == CL_FILTER_LINEAR && c == ctx);
  CHECK_CL(clRetainSampler(s));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  size_t n = 9;
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &n));
  CHECK(n == 0);
  CHECK_CL(clReleaseSampler(s));
  CHECK_CL(clReleaseSampler(s));
  CHECK(!clCreateSampler(ctx, CL_TRUE, 0x7777, CL_FILTER_LINEAR, &err) && err == CL_INVALID_VALUE);
  CHECK(!clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &err) && err == CL_INVALID_VALUE);
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST,
                                   0};
  s = clCreateSamplerWithProperties(ctx, props, &err);
  CHECK_CL(err);
  cl_sampler_properties got[8];
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof got, got, &n));
  CHECK(n == sizeof props && !memcmp(got, props, sizeof props));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_CLAMP); /* the default */
  clReleaseSampler(s);
  cl_sampler_properties dup[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  CHECK(!clCreateSamplerWithProperties(ctx, dup, &err) && err == CL_INVALID_VALUE);
  cl_sampler_properties unknown[] = {0x7777, 1, 0};
  CHECK(!clCreateSamplerWithProperties(ctx, unknown, &err) && err == CL_INVALID_VALUE);
  CHECK_ERR(clRetainSampler((cl_sampler)ctx), CL_INVALID_SAMPLER);
  CHECK_ERR(clGetSamplerInfo(s == NULL ? NULL : (cl_sampler)ctx, CL_SAMPLER_CONTEXT, 0, NULL, NULL),
            CL_INVALID_SAMPLER);
  clReleaseContext(ctx);
}

/* ---- commands, against a model ---- */

/* The model of an image: its packed bytes, in the host API's coordinates (x, rows, slices). */
typedef struct model {
  size_t ext[3], ps;
  uint8_t *bytes;
} model;

static uint8_t *model_at(const model *m, size_t x, size_t y, size_t z) {
  return m->bytes + ((z * m->ext[1] + y) * m->ext[0] + x) * m->ps;
}

/* Copies a region between the model and host memory with rect pitches (to_model: host -> model). */
static void model_rect(model *m, const size_t *o, const size_t *r, uint8_t *host, size_t row, size_t slice,
                       bool to_model) {
  for (size_t z = 0; z < r[2]; z++)
    for (size_t y = 0; y < r[1]; y++) {
      uint8_t *h = host + z * slice + y * row, *p = model_at(m, o[0], o[1] + y, o[2] + z);
      memcpy(to_model ? p : h, to_model ? h : p, r[0] * m->ps);
    }
}

static bool model_same(cl_command_queue q, cl_mem img, const model *m) {
  size_t bytes = m->ext[0] * m->ext[1] * m->ext[2] * m->ps;
  uint8_t *got = malloc(bytes);
  size_t origin[3] = {0, 0, 0};
  bool same = clEnqueueReadImage(q, img, CL_TRUE, origin, m->ext, 0, 0, got, 0, NULL, NULL) == CL_SUCCESS &&
              !memcmp(got, m->bytes, bytes);
  free(got);
  return same;
}

static cl_image_desc desc_of(cl_mem_object_type t, size_t w, size_t h, size_t d) {
  cl_image_desc desc = {.image_type = t, .image_width = w};
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    desc.image_array_size = h;
  if (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D)
    desc.image_height = h;
  if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    desc.image_array_size = d;
  if (t == CL_MEM_OBJECT_IMAGE3D)
    desc.image_depth = d;
  return desc;
}

/* Write the whole image from pitched host memory (COPY_HOST_PTR), then random sub-regions with
 * random pitches; read back sub-regions and the whole, each compared with the model. */
HG_TEST(write_read_regions) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  for (unsigned t = 0; t < 5; t++) {
    cl_mem_object_type type = all_types[t];
    size_t w = 37, h = type == CL_MEM_OBJECT_IMAGE1D ? 1 : 11,
           d = type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D ? 5 : 1;
    model m = {{w, h, d}, 4, NULL};
    m.bytes = malloc(w * h * d * 4);
    /* the initial contents with a pitch of 3 extra pixels per row */
    size_t row = (w + 3) * 4, slice = row * h;
    uint8_t *init = malloc(slice * d);
    hg_test_fill_random(init, slice * d);
    size_t zero[3] = {0, 0, 0};
    cl_image_desc desc = desc_of(type, w, h, d);
    desc.image_row_pitch = row;
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
      desc.image_slice_pitch = row; /* its layers are a row apart */
      model_rect(&m, zero, m.ext, init, row, row * h, true);
    } else {
      if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D)
        desc.image_slice_pitch = slice;
      model_rect(&m, zero, m.ext, init, row, slice, true);
    }
    cl_int err;
    cl_mem img = make(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNSIGNED_INT8, desc, init, &err);
    CHECK_CL(err);
    if (err != CL_SUCCESS)
      continue;
    CHECK(model_same(q, img, &m));
    for (unsigned k = 0; k < 6; k++) {
      size_t o[3], r[3];
      for (unsigned i = 0; i < 3; i++) {
        o[i] = hg_test_rand() % m.ext[i];
        r[i] = 1 + hg_test_rand() % (m.ext[i] - o[i]);
      }
      size_t hrow = r[0] * 4 + (hg_test_rand() % 3) * 4, hslice = hrow * r[1] + (hg_test_rand() % 2) * hrow;
      size_t app_row = hrow, app_slice = hslice;
      if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) { /* the host's layers are slice_pitch apart */
        app_row = r[0] * 4;
        app_slice = hrow;
        hslice = hrow * r[1];
      } else if (type != CL_MEM_OBJECT_IMAGE2D_ARRAY && type != CL_MEM_OBJECT_IMAGE3D) {
        app_slice = 0;
        hslice = hrow * r[1];
      }
      uint8_t *data = malloc(hslice * r[2]);
      hg_test_fill_random(data, hslice * r[2]);
      CHECK_CL(clEnqueueWriteImage(q, img, CL_TRUE, o, r, app_row, app_slice, data, 0, NULL, NULL));
      model_rect(&m, o, r, data, hrow, hslice, true);
      memset(data, 0, hslice * r[2]);
      CHECK_CL(clEnqueueReadImage(q, img, CL_TRUE, o, r, app_row, app_slice, data, 0, NULL, NULL));
      uint8_t *want = calloc(1, hslice * r[2]);
      model_rect(&m, o, r, want, hrow, hslice, false);
      for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
          CHECK(!memcmp(data + z * hslice + y * hrow, want + z * hslice + y * hrow, r[0] * 4));
      free(want);
      free(data);
    }
    CHECK(model_same(q, img, &m));
    /* the region rules */
    uint8_t px[64];
    size_t o[3] = {w, 0, 0}, r[3] = {1, 1, 1}, r0[3] = {0, 1, 1};
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, zero, r0, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, zero, r, 2, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, zero, r, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t past[3] = {0, m.ext[1], 0}, past2[3] = {0, 0, m.ext[2]};
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, past, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueReadImage(q, img, CL_TRUE, past2, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(img);
    free(init);
    free(m.bytes);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(host_access_flags) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8, 1);
  cl_mem none = make(ctx, CL_MEM_HOST_NO_ACCESS, CL_R, CL_FLOAT, d, NULL, &err);
  CHECK_CL(err);
  cl_mem wo = make(ctx, CL_MEM_HOST_WRITE_ONLY, CL_R, CL_FLOAT, d, NULL, &err);
  CHECK_CL(err);
  float px[64];
  size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1}, rp, sp;
  CHECK_ERR(clEnqueueReadImage(q, none, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueWriteImage(q, none, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueReadImage(q, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_CL(clEnqueueWriteImage(q, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
  CHECK(!clEnqueueMapImage(q, wo, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &err) &&
        err == CL_INVALID_OPERATION);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
  CHECK_ERR(clEnqueueReadImage(q, buf, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(buf);
  clReleaseMemObject(none);
  clReleaseMemObject(wo);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(copies) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  size_t w = 29, h = 13;
  model a = {{w, h, 1}, 8, malloc(w * h * 8)}, b = {{w, h, 1}, 8, malloc(w * h * 8)};
  hg_test_fill_random(a.bytes, w * h * 8);
  hg_test_fill_random(b.bytes, w * h * 8);
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, w, h, 1);
  cl_mem ia = make(ctx, CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNSIGNED_INT16, d, a.bytes, &err);
  CHECK_CL(err);
  cl_mem ib = make(ctx, CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNSIGNED_INT16, d, b.bytes, &err);
  CHECK_CL(err);
  size_t so[3] = {3, 2, 0}, dst[3] = {10, 5, 0}, r[3] = {15, 7, 1};
  CHECK_CL(clEnqueueCopyImage(q, ia, ib, so, dst, r, 0, NULL, NULL));
  for (size_t y = 0; y < r[1]; y++)
    memcpy(model_at(&b, dst[0], dst[1] + y, 0), model_at(&a, so[0], so[1] + y, 0), r[0] * 8);
  CHECK(model_same(q, ib, &b));
  /* within one image, apart */
  size_t s2[3] = {0, 0, 0}, d2[3] = {14, 6, 0}, r2[3] = {14, 6, 1};
  CHECK_CL(clEnqueueCopyImage(q, ib, ib, s2, d2, r2, 0, NULL, NULL));
  for (size_t y = 0; y < r2[1]; y++)
    memmove(model_at(&b, d2[0], d2[1] + y, 0), model_at(&b, s2[0], s2[1] + y, 0), r2[0] * 8);
  CHECK(model_same(q, ib, &b));
  size_t d3[3] = {1, 1, 0};
  CHECK_ERR(clEnqueueCopyImage(q, ib, ib, s2, d3, r2, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  cl_mem other = make(ctx, 0, CL_RGBA, CL_HALF_FLOAT, d, NULL, &err); /* same pixel size, other format */
  CHECK_CL(err);
  CHECK_ERR(clEnqueueCopyImage(q, ia, other, s2, s2, r2, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  /* image -> buffer -> image */
  size_t bytes = r[0] * r[1] * 8;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes + 24, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueCopyImageToBuffer(q, ia, buf, so, r, 24, 0, NULL, NULL));
  uint8_t *got = malloc(bytes);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 24, bytes, got, 0, NULL, NULL));
  for (size_t y = 0; y < r[1]; y++)
    CHECK(!memcmp(got + y * r[0] * 8, model_at(&a, so[0], so[1] + y, 0), r[0] * 8));
  CHECK_ERR(clEnqueueCopyImageToBuffer(q, ia, buf, so, r, 32, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t at[3] = {0, 0, 0};
  CHECK_CL(clEnqueueCopyBufferToImage(q, buf, ib, 24, at, r, 0, NULL, NULL));
  for (size_t y = 0; y < r[1]; y++)
    memcpy(model_at(&b, 0, y, 0), got + y * r[0] * 8, r[0] * 8);
  CHECK(model_same(q, ib, &b));
  CHECK_ERR(clEnqueueCopyBufferToImage(q, ia, ib, 0, at, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyImageToBuffer(q, buf, buf, at, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  free(got);
  clReleaseMemObject(buf);
  clReleaseMemObject(other);
  clReleaseMemObject(ia);
  clReleaseMemObject(ib);
  free(a.bytes);
  free(b.bytes);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static bool format_listed(cl_context ctx, cl_channel_order o, cl_channel_type t) {
  cl_image_format list[256];
  cl_uint n = 0;
  clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D_ARRAY, 256, list, &n);
  for (cl_uint i = 0; i < n && i < 256; i++)
    if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
      return true;
  return false;
}

/* ---- fill: against the specification's conversions, written here ---- */

static double rte_sat(double v, double lo, double hi) {
  if (isnan(v))
    return 0;
  v = nearbyint(v);
  return v < lo ? lo : v > hi ? hi : v;
}

/* IEEE half by the definition: the nearest of the representable values, ties to the even one. */
static uint16_t half_ref(float f) {
  if (isnan(f))
    return 0x7e00;
  uint16_t sign = signbit(f) ? 0x8000 : 0;
  double a = fabs((double)f);
  if (a >= 65520.0)
    return sign | 0x7c00;
  int e;
  frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  int exp = e - 1 < -14 ? -14 : e - 1;
  double q = a / ldexp(1.0, exp - 10), n = nearbyint(q); /* units of the last place */
  uint32_t units = (uint32_t)n;
  if (exp == -14 && units < 1024)
    return sign | (uint16_t)units; /* subnormal (or carried into the smallest normal) */
  if (units >= 2048) {
    units /= 2;
    exp++;
  }
  return sign | (uint16_t)(((exp + 15) << 10) | (units - 1024));
}

HG_TEST(fill) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  const float fc[4] = {0.25f, -0.7f, 1.5f, 0.50196f};
  const int32_t ic[4] = {-300, 100, 70000, -5};
  const uint32_t uc[4] = {300, 7, 70000, 255};
  struct {
    cl_channel_order o;
    cl_channel_type t;
  } formats[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_BGRA, CL_UNORM_INT8}, {CL_RGBA, CL_SNORM_INT16},
                 {CL_RG, CL_HALF_FLOAT},   {CL_R, CL_FLOAT},         {CL_RGBA, CL_SIGNED_INT8},
                 {CL_RG, CL_UNSIGNED_INT16}, {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_SNORM_INT8},
                 {CL_RGBA, CL_SIGNED_INT32}};
  for (unsigned k = 0; k < sizeof formats / sizeof formats[0]; k++) {
    cl_channel_type t = formats[k].t;
    if (!format_listed(ctx, formats[k].o, t))
      continue; /* a vendor's own list (PoCL's) may lack it */
    unsigned n = formats[k].o == CL_R ? 1 : formats[k].o == CL_RG ? 2 : 4;
    uint8_t want[16];
    size_t ps = 0;
    for (unsigned c = 0; c < n; c++) {
      unsigned from = formats[k].o == CL_BGRA ? (unsigned[]){2, 1, 0, 3}[c] : c;
      union {
        uint8_t u8;
        int8_t s8;
        uint16_t u16;
        int16_t s16;
        int32_t s32;
        float f;
      } v;
      size_t cs;
      switch (t) {
      case CL_UNORM_INT8: v.u8 = (uint8_t)rte_sat(fc[from] * 255.0, 0, 255), cs = 1; break;
      case CL_UNORM_INT16: v.u16 = (uint16_t)rte_sat(fc[from] * 65535.0, 0, 65535), cs = 2; break;
      case CL_SNORM_INT8: v.s8 = (int8_t)rte_sat(fc[from] * 127.0, -128, 127), cs = 1; break;
      case CL_SNORM_INT16: v.s16 = (int16_t)rte_sat(fc[from] * 32767.0, -32768, 32767), cs = 2; break;
      case CL_HALF_FLOAT: v.u16 = half_ref(fc[from]), cs = 2; break;
      case CL_FLOAT: v.f = fc[from], cs = 4; break;
      case CL_SIGNED_INT8: v.s8 = (int8_t)rte_sat(ic[from], -128, 127), cs = 1; break;
      case CL_SIGNED_INT32: v.s32 = ic[from], cs = 4; break;
      default: v.u16 = (uint16_t)(uc[from] > 65535 ? 65535 : uc[from]), cs = 2; break; /* CL_UNSIGNED_INT16 */
      }
      memcpy(want + ps, &v, cs);
      ps += cs;
    }
    const void *color = t == CL_SIGNED_INT8 || t == CL_SIGNED_INT32 ? (const void *)ic
                        : t == CL_UNSIGNED_INT16                    ? (const void *)uc
                                                                    : (const void *)fc;
    cl_int err;
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 7, 3);
    size_t total = 9 * 7 * 3 * ps;
    uint8_t *init = malloc(total), *got = malloc(total);
    hg_test_fill_random(init, total);
    cl_mem img = make(ctx, CL_MEM_COPY_HOST_PTR, formats[k].o, t, d, init, &err);
    CHECK_CL(err);
    size_t o[3] = {2, 1, 1}, r[3] = {5, 4, 2}, all[3] = {9, 7, 3}, zero[3] = {0, 0, 0};
    CHECK_CL(clEnqueueFillImage(q, img, color, o, r, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadImage(q, img, CL_TRUE, zero, all, 0, 0, got, 0, NULL, NULL));
    for (size_t z = 0; z < 3; z++)
      for (size_t y = 0; y < 7; y++)
        for (size_t x = 0; x < 9; x++) {
          size_t at = ((z * 7 + y) * 9 + x) * ps;
          bool in = x >= o[0] && x < o[0] + r[0] && y >= o[1] && y < o[1] + r[1] && z >= o[2] && z < o[2] + r[2];
          if (memcmp(got + at, in ? want : init + at, ps)) {
            hg_test_fail(__FILE__, __LINE__, "format %u: pixel (%zu, %zu, %zu) differs", k, x, y, z);
            x = y = z = 99;
          }
        }
    CHECK_ERR(clEnqueueFillImage(q, img, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(img);
    free(init);
    free(got);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(map_unmap) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  size_t w = 21, h = 6, dep = 4;
  model m = {{w, h, dep}, 2, malloc(w * h * dep * 2)};
  hg_test_fill_random(m.bytes, w * h * dep * 2);
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE3D, w, h, dep);
  cl_mem img = make(ctx, CL_MEM_COPY_HOST_PTR, CL_R, CL_HALF_FLOAT, d, m.bytes, &err);
  CHECK_CL(err);
  size_t o[3] = {4, 1, 1}, r[3] = {10, 4, 2}, rp = 0, sp = 0;
  uint8_t *p = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(p && rp >= r[0] * 2 && sp >= rp * r[1]);
  if (p) {
    for (size_t z = 0; z < r[2]; z++)
      for (size_t y = 0; y < r[1]; y++) {
        CHECK(!memcmp(p + z * sp + y * rp, model_at(&m, o[0], o[1] + y, o[2] + z), r[0] * 2));
        hg_test_fill_random(p + z * sp + y * rp, r[0] * 2);
        memcpy(model_at(&m, o[0], o[1] + y, o[2] + z), p + z * sp + y * rp, r[0] * 2);
      }
    cl_uint count = 0;
    CHECK_CL(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 1);
    CHECK_CL(clEnqueueUnmapMemObject(q, img, p, 0, NULL, NULL));
  }
  CHECK(model_same(q, img, &m));
  /* write-invalidate: every byte of the region written */
  p = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, o, r, &rp, &sp, 0, NULL, NULL, &err);
  CHECK_CL(err);
  if (p) {
    for (size_t z = 0; z < r[2]; z++)
      for (size_t y = 0; y < r[1]; y++) {
        memset(p + z * sp + y * rp, (int)(z * 16 + y), r[0] * 2);
        memset(model_at(&m, o[0], o[1] + y, o[2] + z), (int)(z * 16 + y), r[0] * 2);
      }
    CHECK_CL(clEnqueueUnmapMemObject(q, img, p, 0, NULL, NULL));
  }
  CHECK(model_same(q, img, &m));
  CHECK(!clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &err) &&
        err == CL_INVALID_VALUE);
  clReleaseMemObject(img);
  free(m.bytes);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A 1D buffer image and its buffer are the same bytes: a write through either is seen by the
 * other. */
HG_TEST(buffer_image_shares_its_buffer) {
  if (!images_supported())
    return;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  size_t n = 300;
  uint32_t *data = malloc(n * 4), *got = malloc(n * 4);
  hg_test_fill_random(data, n * 4);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, data, &err);
  CHECK_CL(err);
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = n, .mem_object = buf};
  cl_mem img = make(ctx, 0, CL_R, CL_UNSIGNED_INT32, d, NULL, &err);
  CHECK_CL(err);
  cl_mem_flags flags = 0;
  CHECK_CL(clGetMemObjectInfo(img, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  CHECK(flags & CL_MEM_READ_WRITE); /* inherited */
  size_t zero[3] = {0, 0, 0}, all[3] = {n, 1, 1};
  CHECK_CL(clEnqueueReadImage(q, img, CL_TRUE, zero, all, 0, 0, got, 0, NULL, NULL));
  CHECK(!memcmp(got, data, n * 4));
  uint32_t v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  size_t o[3] = {50, 0, 0}, r[3] = {10, 1, 1};
  CHECK_CL(clEnqueueWriteImage(q, img, CL_TRUE, o, r, 0, 0, v, 0, NULL, NULL));
  memcpy(data + 50, v, sizeof v);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  CHECK(!memcmp(got, data, n * 4));
  CHECK_CL(clEnqueueWriteBuffer(q, buf, CL_TRUE, 400, sizeof v, v, 0, NULL, NULL));
  memcpy(data + 100, v, sizeof v);
  size_t rp = 0;
  uint32_t *p = clEnqueueMapImage(q, img, CL_TRUE, CL_MAP_READ, zero, all, &rp, NULL, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(p && !memcmp(p, data, n * 4) && rp == n * 4);
  if (p)
    CHECK_CL(clEnqueueUnmapMemObject(q, img, p, 0, NULL, NULL));
  cl_image_desc bad = d;
  bad.image_width = n;
  cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * 4, NULL, &err);
  bad.mem_object = ro;
  CHECK(!make(ctx, CL_MEM_WRITE_ONLY, CL_R, CL_UNSIGNED_INT32, bad, NULL, &err) && err == CL_INVALID_VALUE);
  clReleaseMemObject(ro);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
  free(data);
  free(got);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
