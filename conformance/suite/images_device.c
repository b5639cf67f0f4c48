/* Images on the device for the image areas (images_model.h): random shapes, descriptors,
 * creation with contents or poison, whole reads. */
#include "images_model.h"

#include <stdlib.h>
#include <string.h>

bool im_no_images(void) {
  cl_bool yes = CL_FALSE;
  clGetDeviceInfo(S.device, CL_DEVICE_IMAGE_SUPPORT, sizeof yes, &yes, NULL);
  if (!yes)
    suite_skip("the device reports no image support");
  return !yes;
}

bool im_supported(cl_mem_object_type type, const cl_image_format *f) {
  static struct {
    cl_mem_object_type type;
    cl_uint n;
    cl_image_format fmts[256];
  } cache[8];
  static int cached;
  int i = 0;
  while (i < cached && cache[i].type != type)
    i++;
  if (i == cached && cached < 8) {
    cache[i].type = type, cache[i].n = 0;
    if (clGetSupportedImageFormats(S.ctx, CL_MEM_READ_WRITE, type, 256, cache[i].fmts, &cache[i].n) != CL_SUCCESS)
      cache[i].n = 0;
    if (cache[i].n > 256)
      cache[i].n = 256;
    cached++;
  }
  for (cl_uint j = 0; i < cached && j < cache[i].n; j++)
    if (cache[i].fmts[j].image_channel_order == f->image_channel_order &&
        cache[i].fmts[j].image_channel_data_type == f->image_channel_data_type)
      return true;
  return false;
}

static size_t between(size_t lo, size_t hi) { return lo + suite_rand() % (hi - lo + 1); }

im_shape im_random_shape(cl_mem_object_type type, const cl_image_format *f, size_t max_edge) {
  im_shape s = {type, *f, 1, 1, 1};
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: s.w = between(max_edge, max_edge * max_edge / 2); break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: s.w = between(max_edge / 2, max_edge * 4), s.h = between(2, 9); break;
  case CL_MEM_OBJECT_IMAGE2D: s.w = between(max_edge / 2, max_edge), s.h = between(max_edge / 2, max_edge); break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    s.w = between(max_edge / 4, max_edge / 2), s.h = between(max_edge / 4, max_edge / 2), s.d = between(2, 6);
    break;
  default: /* 3D */
    s.w = between(max_edge / 4, max_edge / 2), s.h = between(max_edge / 4, max_edge / 2), s.d = between(2, 8);
  }
  return s;
}

size_t im_shape_pixels(const im_shape *s) { return s->w * s->h * s->d; }

cl_image_desc im_desc(const im_shape *s, size_t row_pitch, size_t slice_pitch, cl_mem buffer) {
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = s->type;
  d.image_width = s->w;
  d.image_row_pitch = row_pitch;
  d.image_slice_pitch = slice_pitch;
  d.buffer = buffer;
  switch (s->type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: d.image_array_size = s->h; break;
  case CL_MEM_OBJECT_IMAGE2D: d.image_height = s->h; break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: d.image_height = s->h, d.image_array_size = s->d; break;
  case CL_MEM_OBJECT_IMAGE3D: d.image_height = s->h, d.image_depth = s->d; break;
  default: break;
  }
  return d;
}

void im_box(const im_shape *s, const size_t at[3], const size_t size[3], size_t origin[3], size_t region[3]) {
  (void)s; /* the generic space is OpenCL's own: 1D array's layer is origin[1], 2D array's origin[2] */
  for (int i = 0; i < 3; i++)
    origin[i] = at[i], region[i] = size[i];
}

cl_mem im_create(const im_shape *s, cl_mem_flags flags, const void *init, cl_mem *buffer) {
  cl_int err;
  size_t px = im_pixel_bytes(&s->fmt), bytes = im_shape_pixels(s) * px;
  cl_mem buf = NULL;
  if (buffer)
    *buffer = NULL;
  if (s->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    buf = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
      suite_fail("clCreateBuffer for a 1D buffer image (%zu bytes): %d", bytes, err);
      return NULL;
    }
  }
  cl_image_desc d = im_desc(s, 0, 0, buf);
  cl_mem img = clCreateImage(S.ctx, flags, &s->fmt, &d, NULL, &err);
  if (buf && buffer)
    *buffer = buf;
  else if (buf)
    clReleaseMemObject(buf); /* the image keeps its buffer */
  if (err != CL_SUCCESS) {
    suite_fail("clCreateImage(%s %s %zux%zux%zu): %d", im_type_name(s->type), im_format_name(&s->fmt), s->w, s->h,
               s->d, err);
    return NULL;
  }
  void *poison = NULL;
  if (!init) {
    poison = malloc(bytes);
    memset(poison, 0xA5, bytes);
  }
  size_t origin[3] = {0, 0, 0}, region[3] = {s->w, s->h, s->d};
  err = clEnqueueWriteImage(S.q, img, CL_TRUE, origin, region, 0, 0, init ? init : poison, 0, NULL, NULL);
  free(poison);
  if (err != CL_SUCCESS) {
    suite_fail("clEnqueueWriteImage of the whole %s image: %d", im_type_name(s->type), err);
    clReleaseMemObject(img);
    return NULL;
  }
  return img;
}

bool im_read_all(cl_mem img, const im_shape *s, void *dst) {
  size_t origin[3] = {0, 0, 0}, region[3] = {s->w, s->h, s->d};
  cl_int err = clEnqueueReadImage(S.q, img, CL_TRUE, origin, region, 0, 0, dst, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    suite_fail("clEnqueueReadImage of the whole %s image: %d", im_type_name(s->type), err);
    return false;
  }
  return true;
}
