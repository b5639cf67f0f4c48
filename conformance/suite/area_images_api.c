/* Area images_api: the host's image calls (like the CTS's clCopyImage, clFillImage,
 * clReadWriteImage and image info suites). Every image type with every required format and
 * random sizes: creation with host data and clGetImageInfo; writes and reads of random regions
 * with random host pitches against a host model of every pixel; copies image->image,
 * image->buffer, buffer->image; fills with a random color against the test's own conversion
 * (images_model.c); maps for reading and writing. */
#include "images_model.h"

#include <stdlib.h>
#include <string.h>

static const cl_mem_object_type TYPES[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                           CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                           CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
#define NUM_TYPES 6

static size_t rnd(size_t n) { return n ? (size_t)(suite_rand64() % n) : 0; }

/* A crash would cost the rest of the area: PoCL 3.1 itself dies (SIGSEGV) in clEnqueueFillImage
 * and clEnqueueCopyImageToBuffer on a 1D buffer image (docs/conformance.md), so those tests skip
 * on PoCL directly; through hetGPU they run. */
static bool pocl_crashes(cl_mem_object_type type, const char *call) {
  if (type != CL_MEM_OBJECT_IMAGE1D_BUFFER || !strstr(S.platform_name, "Portable Computing Language"))
    return false;
  suite_skip("PoCL 3.1 crashes in %s on a 1D buffer image", call);
  return true;
}

/* Host memory of a region with pitches: the y step is the slice pitch for a 1D array (its layer),
 * the row pitch otherwise; z steps by the slice pitch. */
typedef struct {
  size_t row, slice, ystep, zstep, bytes;
} host_layout;

/* Random pitches (whole pixels); for clCreateImage (`multiple`) the slice pitch is a multiple of
 * the row pitch, as its host_ptr rules require. */
static bool layer_gap; /* 1D arrays: a slice pitch beyond the row pitch (set by one test) */

static host_layout random_layout(const im_shape *s, const size_t region[3], bool multiple) {
  size_t px = im_pixel_bytes(&s->fmt);
  host_layout h = {region[0] * px + rnd(3) * px, 0, 0, 0, 0};
  size_t extra = multiple ? rnd(2) * h.row : rnd(3) * px;
  if (s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) /* layers a row pitch apart; pitch_1d_array_layers: more */
    h.slice = h.row + (layer_gap ? (multiple ? h.row : extra + px) : 0), h.ystep = h.slice;
  else if (s->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || s->type == CL_MEM_OBJECT_IMAGE3D)
    h.ystep = h.row, h.slice = h.row * region[1] + extra, h.zstep = h.slice;
  else
    h.ystep = h.row;
  h.bytes = (region[2] - 1) * h.zstep + (region[1] - 1) * h.ystep + region[0] * px;
  return h;
}

/* A random box inside the shape. */
static void random_box(const im_shape *s, size_t origin[3], size_t region[3]) {
  size_t dim[3] = {s->w, s->h, s->d};
  for (int i = 0; i < 3; i++) {
    region[i] = 1 + rnd(dim[i]);
    origin[i] = rnd(dim[i] - region[i] + 1);
  }
}

/* Copies a box between the packed model and host memory of a layout (to_model: host -> model). */
static void move_box(const im_shape *s, uint8_t *model, const size_t origin[3], const size_t region[3], uint8_t *host,
                     const host_layout *h, bool to_model) {
  size_t px = im_pixel_bytes(&s->fmt);
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++) {
      uint8_t *m = im_at(s, model, origin[0], origin[1] + y, origin[2] + z), *p = host + z * h->zstep + y * h->ystep;
      if (to_model)
        memcpy(m, p, region[0] * px);
      else
        memcpy(p, m, region[0] * px);
    }
}

/* Compares a box of host memory with the model; fails the test naming the first pixel. */
static bool same_box(const im_shape *s, uint8_t *model, const size_t origin[3], const size_t region[3],
                     const uint8_t *host, const host_layout *h, const char *what) {
  size_t px = im_pixel_bytes(&s->fmt);
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      for (size_t x = 0; x < region[0]; x++) {
        const uint8_t *m = im_at(s, model, origin[0] + x, origin[1] + y, origin[2] + z),
                      *p = host + z * h->zstep + y * h->ystep + x * px;
        if (memcmp(m, p, px)) {
          suite_fail("%s: %s %s %zux%zux%zu, pixel (%zu,%zu,%zu): byte 0x%02x, expected 0x%02x", what,
                     im_type_name(s->type), im_format_name(&s->fmt), s->w, s->h, s->d, origin[0] + x, origin[1] + y,
                     origin[2] + z, p[0], m[0]);
          return false;
        }
      }
  return true;
}

static bool same_all(const im_shape *s, cl_mem img, uint8_t *model, const char *what) {
  size_t n = im_shape_pixels(s) * im_pixel_bytes(&s->fmt);
  uint8_t *back = malloc(n);
  size_t origin[3] = {0, 0, 0}, region[3] = {s->w, s->h, s->d};
  host_layout h = {s->w * im_pixel_bytes(&s->fmt), 0, s->w * im_pixel_bytes(&s->fmt), s->w * s->h * im_pixel_bytes(&s->fmt), n};
  bool ok = im_read_all(img, s, back) && same_box(s, model, origin, region, back, &h, what);
  free(back);
  return ok;
}

/* ---- formats ---- */

SUITE_TEST(images_api, required_formats) {
  if (im_no_images())
    return;
  static const cl_mem_flags FLAGS[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE};
  for (int t = 0; t < NUM_TYPES; t++)
    for (int fl = 0; fl < 3; fl++) {
      cl_uint n = 0;
      CL_OK(clGetSupportedImageFormats(S.ctx, FLAGS[fl], TYPES[t], 0, NULL, &n));
      cl_image_format *got = calloc(n + 1, sizeof *got);
      cl_uint n2 = 0;
      cl_int err = clGetSupportedImageFormats(S.ctx, FLAGS[fl], TYPES[t], n, got, &n2);
      for (int i = 0; err == CL_SUCCESS && i < im_required_count && !suite_failed(); i++) {
        bool found = false;
        for (cl_uint j = 0; j < n; j++)
          found |= got[j].image_channel_order == im_required_formats[i].image_channel_order &&
                   got[j].image_channel_data_type == im_required_formats[i].image_channel_data_type;
        if (!found)
          suite_fail("%s images, flags 0x%llx: %s is not among the %u supported formats", im_type_name(TYPES[t]),
                     (unsigned long long)FLAGS[fl], im_format_name(&im_required_formats[i]), n);
      }
      free(got);
      if (err != CL_SUCCESS || n2 != n)
        suite_fail("clGetSupportedImageFormats: %d, %u formats then %u", err, n, n2);
      if (suite_failed())
        return;
    }
}

/* ---- per-type tests: registered for every type below ---- */

/* Creation from host data with random pitches (a 1D buffer image: its buffer written first),
 * clGetImageInfo, and the contents read back. */
static void create_and_info(const void *arg) {
  cl_mem_object_type type = *(const cl_mem_object_type *)arg;
  if (im_no_images())
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    if (!im_supported(type, &im_required_formats[f]))
      continue;
    im_shape s = im_random_shape(type, &im_required_formats[f], 24);
    size_t px = im_pixel_bytes(&s.fmt), origin[3] = {0, 0, 0}, region[3] = {s.w, s.h, s.d};
    host_layout h = random_layout(&s, region, true);
    uint8_t *host = malloc(h.bytes), *model = malloc(im_shape_pixels(&s) * px);
    suite_fill(host, h.bytes);
    move_box(&s, model, origin, region, host, &h, true);
    cl_int err;
    cl_mem buf = NULL, img;
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
      buf = suite_buffer(s.w * px, model);
      cl_image_desc d = im_desc(&s, 0, 0, buf);
      img = clCreateImage(S.ctx, CL_MEM_READ_WRITE, &s.fmt, &d, NULL, &err);
    } else {
      cl_image_desc d = im_desc(&s, h.row, h.slice, NULL);
      img = clCreateImage(S.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &s.fmt, &d, host, &err);
    }
    if (err != CL_SUCCESS)
      suite_fail("clCreateImage(%s %s %zux%zux%zu, row pitch %zu, slice pitch %zu): %d", im_type_name(type),
                 im_format_name(&s.fmt), s.w, s.h, s.d, h.row, h.slice, err);
    else {
      cl_image_format fmt;
      size_t elem = 0, row = 0, slice = 0, w = 0, hh = 9, d = 9, arr = 9;
      cl_mem ib = (cl_mem)1;
      cl_uint mips = 9, samples = 9;
      cl_mem_object_type mt = 0;
      clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof fmt, &fmt, NULL);
      clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof elem, &elem, NULL);
      clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL);
      clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, NULL);
      clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof w, &w, NULL);
      clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof hh, &hh, NULL);
      clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof d, &d, NULL);
      clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof arr, &arr, NULL);
      clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof ib, &ib, NULL);
      clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof mips, &mips, NULL);
      clGetImageInfo(img, CL_IMAGE_NUM_SAMPLES, sizeof samples, &samples, NULL);
      clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof mt, &mt, NULL);
      bool arr1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY, arr2 = type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
      bool two = type == CL_MEM_OBJECT_IMAGE2D || arr2 || type == CL_MEM_OBJECT_IMAGE3D;
      size_t want_h = two ? s.h : 0, want_d = type == CL_MEM_OBJECT_IMAGE3D ? s.d : 0,
             want_arr = arr1 ? s.h : arr2 ? s.d : 0;
      bool sliced = arr1 || arr2 || type == CL_MEM_OBJECT_IMAGE3D;
      size_t min_slice = arr1 ? row : row * s.h;
      if (fmt.image_channel_order != s.fmt.image_channel_order || fmt.image_channel_data_type != s.fmt.image_channel_data_type)
        suite_fail("%s %s: CL_IMAGE_FORMAT gives %s", im_type_name(type), im_format_name(&s.fmt), im_format_name(&fmt));
      else if (elem != px || w != s.w || hh != want_h || d != want_d || arr != want_arr || mt != type)
        suite_fail("%s %s %zux%zux%zu: element size %zu, width %zu, height %zu, depth %zu, array size %zu, type 0x%x",
                   im_type_name(type), im_format_name(&s.fmt), s.w, s.h, s.d, elem, w, hh, d, arr, (unsigned)mt);
      else if (row < s.w * px || (sliced ? slice < min_slice : slice != 0))
        suite_fail("%s %s %zux%zux%zu: row pitch %zu, slice pitch %zu", im_type_name(type), im_format_name(&s.fmt),
                   s.w, s.h, s.d, row, slice);
      else if (ib != buf || mips != 0 || samples != 0)
        suite_fail("%s %s: CL_IMAGE_BUFFER %p (expected %p), mip levels %u, samples %u", im_type_name(type),
                   im_format_name(&s.fmt), (void *)ib, (void *)buf, mips, samples);
      else
        same_all(&s, img, model, "created from host data");
      clReleaseMemObject(img);
    }
    if (buf)
      clReleaseMemObject(buf);
    free(host), free(model);
  }
}

/* Random writes (blocking and not) and reads of random boxes with random host pitches. */
static void write_read(const void *arg) {
  cl_mem_object_type type = *(const cl_mem_object_type *)arg;
  if (im_no_images())
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    if (!im_supported(type, &im_required_formats[f]))
      continue;
    im_shape s = im_random_shape(type, &im_required_formats[f], 24);
    size_t bytes = im_shape_pixels(&s) * im_pixel_bytes(&s.fmt);
    uint8_t *model = malloc(bytes);
    suite_fill(model, bytes);
    cl_mem buf, img = im_create(&s, CL_MEM_READ_WRITE, model, &buf);
    for (int op = 0; img && op < 8 && !suite_failed(); op++) {
      size_t origin[3], region[3];
      random_box(&s, origin, region);
      host_layout h = random_layout(&s, region, false);
      uint8_t *host = malloc(h.bytes);
      suite_fill(host, h.bytes);
      cl_int err;
      if (op % 2 == 0) {
        bool blocking = rnd(2);
        err = clEnqueueWriteImage(S.q, img, blocking, origin, region, h.row, h.slice, host, 0, NULL, NULL);
        if (err == CL_SUCCESS && !blocking)
          err = clFinish(S.q);
        move_box(&s, model, origin, region, host, &h, true);
        if (err != CL_SUCCESS)
          suite_fail("clEnqueueWriteImage(%s %s, origin %zu,%zu,%zu region %zu,%zu,%zu, pitches %zu %zu): %d",
                     im_type_name(type), im_format_name(&s.fmt), origin[0], origin[1], origin[2], region[0],
                     region[1], region[2], h.row, h.slice, err);
      } else {
        err = clEnqueueReadImage(S.q, img, CL_TRUE, origin, region, h.row, h.slice, host, 0, NULL, NULL);
        if (err != CL_SUCCESS)
          suite_fail("clEnqueueReadImage(%s %s, origin %zu,%zu,%zu region %zu,%zu,%zu, pitches %zu %zu): %d",
                     im_type_name(type), im_format_name(&s.fmt), origin[0], origin[1], origin[2], region[0],
                     region[1], region[2], h.row, h.slice, err);
        else
          same_box(&s, model, origin, region, host, &h, "read of a region");
      }
      free(host);
    }
    if (img && !suite_failed())
      same_all(&s, img, model, "after random writes");
    if (img)
      clReleaseMemObject(img);
    if (buf)
      clReleaseMemObject(buf);
    free(model);
  }
}

/* Copies between two images of the same shape and format, and within one image between boxes
 * that do not overlap; image -> buffer and buffer -> image at random buffer offsets. */
static void copies(const void *arg) {
  cl_mem_object_type type = *(const cl_mem_object_type *)arg;
  if (im_no_images() || pocl_crashes(type, "clEnqueueCopyImageToBuffer"))
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    if (!im_supported(type, &im_required_formats[f]))
      continue;
    im_shape s = im_random_shape(type, &im_required_formats[f], 24);
    size_t px = im_pixel_bytes(&s.fmt), bytes = im_shape_pixels(&s) * px;
    uint8_t *ma = malloc(bytes), *mb = malloc(bytes);
    suite_fill(ma, bytes), suite_fill(mb, bytes);
    cl_mem ba, bb, a = im_create(&s, CL_MEM_READ_WRITE, ma, &ba), b = im_create(&s, CL_MEM_READ_WRITE, mb, &bb);
    for (int op = 0; a && b && op < 6 && !suite_failed(); op++) {
      size_t so[3], reg[3], dummy[3], dor[3];
      random_box(&s, so, reg);
      size_t dim[3] = {s.w, s.h, s.d};
      for (int i = 0; i < 3; i++)
        dor[i] = rnd(dim[i] - reg[i] + 1);
      (void)dummy;
      bool ab = op % 2 == 0;
      cl_mem src = ab ? a : b, dst = ab ? b : a;
      uint8_t *msrc = ab ? ma : mb, *mdst = ab ? mb : ma;
      /* clEnqueueCopyImage lists 1D, 2D, 3D, 1D array and 2D array images: a 1D buffer image's
       * copies are only those to and from buffers below */
      cl_int err = type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? CL_SUCCESS
                                                        : clEnqueueCopyImage(S.q, src, dst, so, dor, reg, 0, NULL, NULL);
      if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        src = dst, msrc = mdst; /* nothing copied: what follows works on dst alone */
      else if (err != CL_SUCCESS) {
        suite_fail("clEnqueueCopyImage(%s %s, %zu,%zu,%zu -> %zu,%zu,%zu, region %zu,%zu,%zu): %d", im_type_name(type),
                   im_format_name(&s.fmt), so[0], so[1], so[2], dor[0], dor[1], dor[2], reg[0], reg[1], reg[2], err);
        break;
      }
      for (size_t z = 0; z < reg[2] && msrc != mdst; z++)
        for (size_t y = 0; y < reg[1]; y++)
          memcpy(im_at(&s, mdst, dor[0], dor[1] + y, dor[2] + z), im_at(&s, msrc, so[0], so[1] + y, so[2] + z), reg[0] * px);
      /* image -> buffer -> image: the box goes to a buffer at a random pixel offset and back to
       * another place of the same image */
      size_t off = rnd(16) * px, packed = reg[0] * reg[1] * reg[2] * px;
      uint8_t *bufhost = malloc(off + packed);
      cl_mem mbuf = suite_buffer(off + packed, NULL);
      if (!mbuf) {
        free(bufhost);
        break;
      }
      err = clEnqueueCopyImageToBuffer(S.q, dst, mbuf, dor, reg, off, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(S.q, mbuf, CL_TRUE, 0, off + packed, bufhost, 0, NULL, NULL);
      host_layout h = {reg[0] * px, reg[0] * reg[1] * px, reg[0] * px, reg[0] * reg[1] * px, packed};
      if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        h.ystep = h.row; /* packed: a layer after the other */
      if (err != CL_SUCCESS)
        suite_fail("clEnqueueCopyImageToBuffer(%s %s): %d", im_type_name(type), im_format_name(&s.fmt), err);
      else if (same_box(&s, mdst, dor, reg, bufhost + off, &h, "image copied to a buffer")) {
        size_t to[3];
        for (int i = 0; i < 3; i++)
          to[i] = rnd(dim[i] - reg[i] + 1);
        err = clEnqueueCopyBufferToImage(S.q, mbuf, src, off, to, reg, 0, NULL, NULL);
        if (err != CL_SUCCESS)
          suite_fail("clEnqueueCopyBufferToImage(%s %s): %d", im_type_name(type), im_format_name(&s.fmt), err);
        move_box(&s, msrc, to, reg, bufhost + off, &h, true);
      }
      clReleaseMemObject(mbuf);
      free(bufhost);
    }
    if (a && b && !suite_failed() && same_all(&s, a, ma, "after copies (first image)"))
      same_all(&s, b, mb, "after copies (second image)");
    cl_mem all[] = {a, b, ba, bb};
    for (int i = 0; i < 4; i++)
      if (all[i])
        clReleaseMemObject(all[i]);
    free(ma), free(mb);
  }
}

/* clEnqueueFillImage with a random color over a random box: each pixel inside is the color
 * converted as the specification says (checked by the test's own conversion), outside unchanged. */
static void fill_formats(cl_mem_object_type type, bool normalized) {
  if (im_no_images())
    return;
  if (pocl_crashes(type, "clEnqueueFillImage"))
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    if (!im_supported(type, &im_required_formats[f]) || im_normalized(&im_required_formats[f]) != normalized)
      continue;
    im_shape s = im_random_shape(type, &im_required_formats[f], 24);
    size_t px = im_pixel_bytes(&s.fmt), bytes = im_shape_pixels(&s) * px;
    uint8_t *model = malloc(bytes), *back = malloc(bytes);
    suite_fill(model, bytes);
    cl_mem buf, img = im_create(&s, CL_MEM_READ_WRITE, model, &buf);
    for (int op = 0; img && op < 3 && !suite_failed(); op++) {
      size_t origin[3], region[3];
      random_box(&s, origin, region);
      union { float f[4]; int32_t i[4]; } color;
      im_kind kind = im_kind_of(&s.fmt);
      for (int c = 0; c < 4; c++) {
        if (kind == IM_FLOAT)
          color.f[c] = im_normalized(&s.fmt) ? (float)suite_uniform(-1.3, 1.3) : (float)suite_uniform(-300, 300);
        else
          color.i[c] = (int32_t)(suite_rand() >> rnd(32)) * (kind == IM_INT && rnd(2) ? -1 : 1);
      }
      cl_int err = clEnqueueFillImage(S.q, img, &color, origin, region, 0, NULL, NULL);
      if (err != CL_SUCCESS) {
        suite_fail("clEnqueueFillImage(%s %s): %d", im_type_name(type), im_format_name(&s.fmt), err);
        break;
      }
      if (!im_read_all(img, &s, back))
        break;
      uint8_t want[16];
      if (kind != IM_FLOAT)
        im_pack_int(&s.fmt, color.i, want);
      for (size_t z = 0; z < s.d && !suite_failed(); z++)
        for (size_t y = 0; y < s.h && !suite_failed(); y++)
          for (size_t x = 0; x < s.w && !suite_failed(); x++) {
            uint8_t *got = im_at(&s, back, x, y, z), *m = im_at(&s, model, x, y, z);
            bool inside = x >= origin[0] && x < origin[0] + region[0] && y >= origin[1] && y < origin[1] + region[1] &&
                          z >= origin[2] && z < origin[2] + region[2];
            char why[160] = "";
            bool ok = !inside ? !memcmp(got, m, px)
                              : kind == IM_FLOAT ? im_float_write_ok(&s.fmt, color.f, got, why, sizeof why)
                                                 : !memcmp(got, want, px);
            if (!ok)
              suite_fail("fill of %s %s, pixel (%zu,%zu,%zu) %s the box: %s%s", im_type_name(type),
                         im_format_name(&s.fmt), x, y, z, inside ? "inside" : "outside",
                         why[0] ? why : "wrong bytes", kind != IM_FLOAT && inside ? " (integer color, saturated)" : "");
          }
      memcpy(model, back, bytes); /* the checked contents are the model from here */
    }
    if (img)
      clReleaseMemObject(img);
    if (buf)
      clReleaseMemObject(buf);
    free(model), free(back);
  }
}

/* fill: integer, half and float formats; fill_normalized: the normalized ones (their rounding) */
static void fills(const void *arg) { fill_formats(*(const cl_mem_object_type *)arg, false); }
static void fills_normalized(const void *arg) { fill_formats(*(const cl_mem_object_type *)arg, true); }

/* clEnqueueMapImage of a random box for reading (compared with the model through the returned
 * pitches) and for writing (new random pixels, then the whole image read back). */
static void maps(const void *arg) {
  cl_mem_object_type type = *(const cl_mem_object_type *)arg;
  if (im_no_images())
    return;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    if (!im_supported(type, &im_required_formats[f]))
      continue;
    im_shape s = im_random_shape(type, &im_required_formats[f], 24);
    size_t px = im_pixel_bytes(&s.fmt), bytes = im_shape_pixels(&s) * px;
    uint8_t *model = malloc(bytes);
    suite_fill(model, bytes);
    cl_mem buf, img = im_create(&s, CL_MEM_READ_WRITE, model, &buf);
    for (int op = 0; img && op < 4 && !suite_failed(); op++) {
      size_t origin[3], region[3], row = 0, slice = 0;
      random_box(&s, origin, region);
      bool write = op % 2 == 1;
      cl_int err;
      uint8_t *p = clEnqueueMapImage(S.q, img, CL_TRUE, write ? CL_MAP_WRITE : CL_MAP_READ, origin, region, &row,
                                     &slice, 0, NULL, NULL, &err);
      if (err != CL_SUCCESS || !p) {
        suite_fail("clEnqueueMapImage(%s %s, %s): %d", im_type_name(type), im_format_name(&s.fmt),
                   write ? "write" : "read", err);
        break;
      }
      host_layout h = {row, slice, type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row, slice, 0};
      if (write) {
        for (size_t z = 0; z < region[2]; z++)
          for (size_t y = 0; y < region[1]; y++)
            suite_fill(p + z * h.zstep + y * h.ystep, region[0] * px);
        move_box(&s, model, origin, region, p, &h, true);
      } else
        same_box(&s, model, origin, region, p, &h, "mapped for reading");
      err = clEnqueueUnmapMemObject(S.q, img, p, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clFinish(S.q);
      if (err != CL_SUCCESS)
        suite_fail("clEnqueueUnmapMemObject: %d", err);
    }
    if (img && !suite_failed())
      same_all(&s, img, model, "after maps");
    if (img)
      clReleaseMemObject(img);
    if (buf)
      clReleaseMemObject(buf);
    free(model);
  }
}

/* clEnqueueCopyImage between image types: 2D <-> 3D, 2D <-> 2D array, 2D array <-> 3D. A 2D
 * image's box is one slice or layer of the other; everything is a box in the generic (x, y, z)
 * space, where a 2D array's layer and a 3D image's slice are both z. */
SUITE_TEST(images_api, copy_across_types) {
  if (im_no_images())
    return;
  static const cl_mem_object_type PAIRS[][2] = {
      {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D},       {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D},
      {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE2D},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}, {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY}};
  for (int pr = 0; pr < 6 && !suite_failed(); pr++)
    for (int f = 0; f < im_required_count && !suite_failed(); f++) {
      const cl_image_format *fmt = &im_required_formats[f];
      if (!im_supported(PAIRS[pr][0], fmt) || !im_supported(PAIRS[pr][1], fmt) || rnd(3))
        continue; /* a third of the formats per pair */
      im_shape a = im_random_shape(PAIRS[pr][0], fmt, 24), b = im_random_shape(PAIRS[pr][1], fmt, 24);
      size_t px = im_pixel_bytes(fmt), na = im_shape_pixels(&a) * px, nb = im_shape_pixels(&b) * px;
      uint8_t *ma = malloc(na), *mb = malloc(nb);
      suite_fill(ma, na), suite_fill(mb, nb);
      cl_mem ia = im_create(&a, CL_MEM_READ_WRITE, ma, NULL), ib = ia ? im_create(&b, CL_MEM_READ_WRITE, mb, NULL) : NULL;
      bool flat = a.type == CL_MEM_OBJECT_IMAGE2D || b.type == CL_MEM_OBJECT_IMAGE2D;
      size_t reg[3] = {1 + rnd(a.w < b.w ? a.w : b.w), 1 + rnd(a.h < b.h ? a.h : b.h),
                       flat ? 1 : 1 + rnd(a.d < b.d ? a.d : b.d)};
      size_t so[3] = {rnd(a.w - reg[0] + 1), rnd(a.h - reg[1] + 1), rnd(a.d - reg[2] + 1)};
      size_t dor[3] = {rnd(b.w - reg[0] + 1), rnd(b.h - reg[1] + 1), rnd(b.d - reg[2] + 1)};
      cl_int err = ib ? clEnqueueCopyImage(S.q, ia, ib, so, dor, reg, 0, NULL, NULL) : CL_SUCCESS;
      if (err != CL_SUCCESS)
        suite_fail("clEnqueueCopyImage(%s -> %s, %s, region %zu,%zu,%zu): %d", im_type_name(a.type),
                   im_type_name(b.type), im_format_name(fmt), reg[0], reg[1], reg[2], err);
      else if (ib) {
        for (size_t z = 0; z < reg[2]; z++)
          for (size_t y = 0; y < reg[1]; y++)
            memcpy(im_at(&b, mb, dor[0], dor[1] + y, dor[2] + z), im_at(&a, ma, so[0], so[1] + y, so[2] + z), reg[0] * px);
        char what[96];
        snprintf(what, sizeof what, "after a copy from a %s image", im_type_name(a.type));
        same_all(&b, ib, mb, what);
      }
      if (ia)
        clReleaseMemObject(ia);
      if (ib)
        clReleaseMemObject(ib);
      free(ma), free(mb);
    }
}

/* A 1D buffer image and its buffer share their contents: buffer writes and copies are seen
 * through the image, image writes through the buffer. With `sub`, the image is made
 * over a sub-buffer at a random multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN, and the parent
 * buffer is what the host writes and reads. */
static void buffer_sharing(bool sub) {
  if (im_no_images())
    return;
  cl_uint align_bits = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  size_t align = align_bits / 8 ? align_bits / 8 : 128;
  for (int f = 0; f < im_required_count && !suite_failed(); f++) {
    const cl_image_format *fmt = &im_required_formats[f];
    if (!im_supported(CL_MEM_OBJECT_IMAGE1D_BUFFER, fmt))
      continue;
    im_shape s = {CL_MEM_OBJECT_IMAGE1D_BUFFER, *fmt, 64 + rnd(400), 1, 1};
    size_t px = im_pixel_bytes(fmt), bytes = s.w * px, off = sub ? align * (1 + rnd(4)) : 0, total = off + bytes + (sub ? 64 : 0);
    uint8_t *model = malloc(total), *back = malloc(total);
    suite_fill(model, total);
    cl_int err = CL_SUCCESS;
    cl_mem parent = suite_buffer(total, model), buf = parent, img = NULL;
    if (parent && sub) {
      cl_buffer_region r = {off, bytes};
      buf = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
      if (err != CL_SUCCESS)
        suite_fail("clCreateSubBuffer(%zu, %zu): %d", off, bytes, err), buf = NULL;
    }
    if (buf) {
      cl_image_desc d = im_desc(&s, 0, 0, buf);
      img = clCreateImage(S.ctx, CL_MEM_READ_WRITE, fmt, &d, NULL, &err);
      if (err != CL_SUCCESS)
        suite_fail("clCreateImage(1D buffer %s over a %sbuffer): %d", im_format_name(fmt), sub ? "sub-" : "", err), img = NULL;
    }
    size_t origin[3] = {0, 0, 0}, region[3] = {s.w, 1, 1};
    host_layout h = {bytes, 0, bytes, 0, bytes};
    /* 1: the buffer's bytes through the image */
    if (img && im_read_all(img, &s, back))
      same_box(&s, model + off, origin, region, back, &h, "buffer contents read through the image");
    /* 2: a write through the image, seen in the buffer */
    size_t at[3] = {rnd(s.w / 2), 0, 0}, size[3] = {1 + rnd(s.w / 2), 1, 1};
    uint8_t *chunk = malloc(size[0] * px);
    suite_fill(chunk, size[0] * px);
    if (img && !suite_failed()) {
      err = clEnqueueWriteImage(S.q, img, CL_TRUE, at, size, 0, 0, chunk, 0, NULL, NULL);
      memcpy(model + off + at[0] * px, chunk, size[0] * px);
      if (err != CL_SUCCESS)
        suite_fail("clEnqueueWriteImage of a 1D buffer image: %d", err);
      else if (suite_read(parent, back, total)) {
        host_layout whole = {total, 0, total, 0, total};
        im_shape flat = {CL_MEM_OBJECT_IMAGE1D, {CL_R, CL_UNSIGNED_INT8}, total, 1, 1};
        size_t all[3] = {total, 1, 1};
        same_box(&flat, model, origin, all, back, &whole, "buffer after a write through its image");
      }
    }
    /* 3: a buffer copy into the buffer, seen through the image */
    if (img && !suite_failed()) {
      suite_fill(chunk, size[0] * px);
      cl_mem src = suite_buffer(size[0] * px, chunk);
      size_t to = rnd(s.w - size[0] + 1) * px;
      err = src ? clEnqueueCopyBuffer(S.q, src, buf, 0, to, size[0] * px, 0, NULL, NULL) : CL_SUCCESS;
      memcpy(model + off + to, chunk, size[0] * px);
      if (err != CL_SUCCESS)
        suite_fail("clEnqueueCopyBuffer into the image's buffer: %d", err);
      else if (src && im_read_all(img, &s, back))
        same_box(&s, model + off, origin, region, back, &h, "image after a copy into its buffer");
      if (src)
        clReleaseMemObject(src);
    }
    free(chunk);
    if (img)
      clReleaseMemObject(img);
    if (buf && buf != parent)
      clReleaseMemObject(buf);
    if (parent)
      clReleaseMemObject(parent);
    free(model), free(back);
  }
}

SUITE_TEST(images_api, buffer_image_sharing) { buffer_sharing(false); }
SUITE_TEST(images_api, buffer_image_sharing_sub_buffer) { buffer_sharing(true); }

/* CL_MEM_USE_HOST_PTR images of every type but 1D buffer (random pitches, slice pitch a multiple
 * of the row pitch): after a write through the API, a map returns a pointer into the
 * application's memory (host_ptr plus the origin's offset at the creation pitches, the
 * specification's rule for such images) holding the latest bits; a write through that map is
 * read back. CL_MEM_ALLOC_HOST_PTR images are created and read back too. */
SUITE_TEST(images_api, host_ptr_flags) {
  if (im_no_images())
    return;
  for (int t = 0; t < NUM_TYPES && !suite_failed(); t++) {
    cl_mem_object_type type = TYPES[t];
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
      continue;
    for (int f = 0; f < im_required_count && !suite_failed(); f++) {
      const cl_image_format *fmt = &im_required_formats[f];
      if (!im_supported(type, fmt) || rnd(3))
        continue; /* a third of the formats per type */
      im_shape s = im_random_shape(type, fmt, 24);
      size_t px = im_pixel_bytes(fmt), origin0[3] = {0, 0, 0}, whole[3] = {s.w, s.h, s.d};
      host_layout h = random_layout(&s, whole, true);
      uint8_t *host = malloc(h.bytes), *model = malloc(im_shape_pixels(&s) * px);
      suite_fill(host, h.bytes);
      move_box(&s, model, origin0, whole, host, &h, true);
      cl_image_desc d = im_desc(&s, h.row, h.slice, NULL);
      cl_int err;
      cl_mem img = clCreateImage(S.ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, fmt, &d, host, &err);
      if (err != CL_SUCCESS) {
        suite_fail("clCreateImage(%s %s, CL_MEM_USE_HOST_PTR): %d", im_type_name(type), im_format_name(fmt), err);
        free(host), free(model);
        break;
      }
      if (same_all(&s, img, model, "a CL_MEM_USE_HOST_PTR image")) {
        size_t origin[3], region[3];
        random_box(&s, origin, region);
        /* the new pixels packed: a 1D array's layers a row apart, 2D array and 3D slices a slice
         * apart; 1D and 2D images take no slice pitch */
        size_t prow = region[0] * px;
        bool arr1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY, flat = type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE2D;
        host_layout packed = {prow, flat ? 0 : arr1 ? prow : prow * region[1], prow, prow * region[1], 0};
        uint8_t *chunk = malloc(region[0] * region[1] * region[2] * px);
        suite_fill(chunk, region[0] * region[1] * region[2] * px);
        err = clEnqueueWriteImage(S.q, img, CL_TRUE, origin, region, packed.row, packed.slice, chunk, 0, NULL, NULL);
        move_box(&s, model, origin, region, chunk, &packed, true);
        size_t row = 0, slice = 0;
        uint8_t *p = err == CL_SUCCESS ? clEnqueueMapImage(S.q, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin, region,
                                                           &row, &slice, 0, NULL, NULL, &err)
                                       : NULL;
        uint8_t *expect = host + origin[2] * h.zstep + origin[1] * h.ystep + origin[0] * px;
        if (err != CL_SUCCESS || !p)
          suite_fail("%s %s, CL_MEM_USE_HOST_PTR: write or map: %d", im_type_name(type), im_format_name(fmt), err);
        else {
          if (p != expect)
            suite_fail("%s %s, CL_MEM_USE_HOST_PTR: the map returned %p, not host_ptr + %td (%p)", im_type_name(type),
                       im_format_name(fmt), (void *)p, expect - host, (void *)expect);
          else
            same_box(&s, model, origin, region, expect, &h, "host_ptr memory of a mapped CL_MEM_USE_HOST_PTR image");
          /* a write through the map (at the returned pitches), then everything read back */
          host_layout mh = {row, slice, type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row, slice, 0};
          for (size_t z = 0; z < region[2]; z++)
            for (size_t y = 0; y < region[1]; y++)
              suite_fill(p + z * mh.zstep + y * mh.ystep, region[0] * px);
          move_box(&s, model, origin, region, p, &mh, true);
          err = clEnqueueUnmapMemObject(S.q, img, p, 0, NULL, NULL);
          if (err == CL_SUCCESS)
            err = clFinish(S.q);
          if (err != CL_SUCCESS)
            suite_fail("clEnqueueUnmapMemObject: %d", err);
          else
            same_all(&s, img, model, "a CL_MEM_USE_HOST_PTR image after a write through its map");
        }
        free(chunk);
      }
      clReleaseMemObject(img);
      /* CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR: created with the same contents */
      img = clCreateImage(S.ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, fmt, &d, host, &err);
      if (err != CL_SUCCESS)
        suite_fail("clCreateImage(%s %s, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR): %d", im_type_name(type),
                   im_format_name(fmt), err);
      else {
        move_box(&s, model, origin0, whole, host, &h, true);
        same_all(&s, img, model, "a CL_MEM_ALLOC_HOST_PTR image");
        clReleaseMemObject(img);
      }
      free(host), free(model);
    }
  }
}

/* 1D arrays whose layers are further apart in host memory than a row: the slice pitch, not the
 * row pitch, steps between layers (clCreateImage's image_slice_pitch, the transfers' slice_pitch). */
SUITE_TEST(images_api, pitch_1d_array_layers) {
  static const cl_mem_object_type type = CL_MEM_OBJECT_IMAGE1D_ARRAY;
  layer_gap = true;
  create_and_info(&type);
  if (!suite_failed())
    write_read(&type);
  layer_gap = false;
}

/* Every per-type test for every type: images_api/<test>_<type>. */
__attribute__((constructor)) static void register_per_type(void) {
  static const char *const TYPE_NAMES[] = {"1d", "1d_buffer", "1d_array", "2d", "2d_array", "3d"};
  static const struct { const char *name; suite_fn fn; } TESTS[] = {
      {"create_info", create_and_info}, {"write_read", write_read}, {"copy", copies},
      {"fill", fills},                  {"fill_normalized", fills_normalized}, {"map", maps}};
  static char names[6][NUM_TYPES][40];
  for (int t = 0; t < 6; t++)
    for (int i = 0; i < NUM_TYPES; i++) {
      snprintf(names[t][i], sizeof names[t][i], "%s_%s", TESTS[t].name, TYPE_NAMES[i]);
      suite_register("images_api", names[t][i], TESTS[t].fn, &TYPES[i]);
    }
}
