/* The rules of a snapshot's images and samplers (minor 2; docs/snapshot-format.md sections 3.8
 * and 3.9): each image's description is one the virtual device's profile allows (a format of
 * common/image_format.c's list, sizes within common/profile_limits.h), its packed size follows
 * from it, a 1D buffer image lies inside its buffer; each sampler's bits are valid and agree
 * with the property list it keeps. */
#include "snapshot/format.h"

#include "common/image_format.h"
#include "common/profile_limits.h"

#include <string.h>

static bool string_ok(const char *s) { return !s || strnlen(s, HG_SNAP_MAX_STRING) < HG_SNAP_MAX_STRING; }

/* The profile's limits of a type, and which of height, depth and array size it has. */
typedef struct image_limits {
  uint64_t max_w, max_h, max_d, max_n;
  bool has_h, has_d, has_n;
} image_limits;

static bool limits_of(uint32_t type, image_limits *l) {
  *l = (image_limits){.max_w = HG_PROFILE_IMAGE2D_MAX_WIDTH};
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D: return true;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: l->max_w = HG_PROFILE_IMAGE_MAX_BUFFER_SIZE; return true;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: l->max_n = HG_PROFILE_IMAGE_MAX_ARRAY_SIZE, l->has_n = true; return true;
  case CL_MEM_OBJECT_IMAGE2D: l->max_h = HG_PROFILE_IMAGE2D_MAX_HEIGHT, l->has_h = true; return true;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    l->max_h = HG_PROFILE_IMAGE2D_MAX_HEIGHT, l->has_h = true;
    l->max_n = HG_PROFILE_IMAGE_MAX_ARRAY_SIZE, l->has_n = true;
    return true;
  case CL_MEM_OBJECT_IMAGE3D:
    l->max_w = HG_PROFILE_IMAGE3D_MAX_WIDTH;
    l->max_h = HG_PROFILE_IMAGE3D_MAX_HEIGHT, l->has_h = true;
    l->max_d = HG_PROFILE_IMAGE3D_MAX_DEPTH, l->has_d = true;
    return true;
  default: return false;
  }
}

/* A size the type has: 1..max; one it has not: 0 (as clGetImageInfo reports it). */
static bool dim_ok(uint64_t v, bool has, uint64_t max) { return has ? v >= 1 && v <= max : v == 0; }

static uint64_t pixel_size_of(const hg_snap_image *im) {
  cl_image_format f = {.image_channel_order = im->channel_order, .image_channel_data_type = im->channel_type};
  return hg_image_format_supported(&f) ? hg_image_pixel_size(&f) : 0;
}

uint64_t hg_snap_image_packed_size(const hg_snap_image *im) {
  image_limits l;
  uint64_t px = pixel_size_of(im);
  if (!px || !limits_of(im->type, &l) || im->width == 0 || im->width > l.max_w || !dim_ok(im->height, l.has_h, l.max_h) ||
      !dim_ok(im->depth, l.has_d, l.max_d) || !dim_ok(im->array_size, l.has_n, l.max_n))
    return 0;
  /* every factor is at most 2^16 and px at most 16: no overflow */
  uint64_t h = l.has_h ? im->height : 1, d = l.has_d ? im->depth : 1, n = l.has_n ? im->array_size : 1;
  return im->width * px * h * d * n;
}

/* The pitches clGetImageInfo reports: the packed ones, or (CL_MEM_USE_HOST_PTR: the
 * application's memory's) at least those, multiples of the pixel and row. */
static bool pitches_ok(const hg_snap_image *im, uint64_t px) {
  uint64_t row = im->width * px, slice = 0;
  if (im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    slice = row;
  else if (im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || im->type == CL_MEM_OBJECT_IMAGE3D)
    slice = row * im->height;
  if (!(im->flags & CL_MEM_USE_HOST_PTR))
    return im->row_pitch == row && im->slice_pitch == slice;
  if (im->row_pitch < row || im->row_pitch % px)
    return false;
  return slice ? im->slice_pitch >= slice && im->slice_pitch % px == 0 : im->slice_pitch == 0;
}

static bool check_image(const hg_snapshot *s, uint32_t i, char *err, size_t n) {
  const hg_snap_image *im = &s->images[i];
  if (im->id != s->num_buffers + i)
    return hg_snap_errf(err, n, "image %u: mem id %u is not %u (the buffers' count plus its index)", i, im->id,
                        s->num_buffers + i);
  if (!string_ok(im->label))
    return hg_snap_errf(err, n, "image %u: label too long", i);
  image_limits l;
  if (!limits_of(im->type, &l))
    return hg_snap_errf(err, n, "image %u: type 0x%x is not an image type", i, im->type);
  uint64_t px = pixel_size_of(im);
  if (!px)
    return hg_snap_errf(err, n, "image %u: format (order 0x%x, type 0x%x) is not one the device supports", i,
                        im->channel_order, im->channel_type);
  uint64_t packed = hg_snap_image_packed_size(im);
  if (!packed)
    return hg_snap_errf(err, n, "image %u: sizes %llu x %llu x %llu, %llu layers: not allowed for its type", i,
                        (unsigned long long)im->width, (unsigned long long)im->height,
                        (unsigned long long)im->depth, (unsigned long long)im->array_size);
  if (im->size != packed)
    return hg_snap_errf(err, n, "image %u: %llu bytes of contents, its description packs into %llu", i,
                        (unsigned long long)im->size, (unsigned long long)packed);
  if (!pitches_ok(im, px))
    return hg_snap_errf(err, n, "image %u: row pitch %llu / slice pitch %llu do not fit its layout", i,
                        (unsigned long long)im->row_pitch, (unsigned long long)im->slice_pitch);
  if (im->type != CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (im->buffer != HG_SNAP_NONE || !im->data)
      return hg_snap_errf(err, n, "image %u: a buffer, or no contents, for an image of its own storage", i);
    return true;
  }
  if (im->data)
    return hg_snap_errf(err, n, "image %u: a 1D buffer image with contents of its own", i);
  if (im->buffer >= s->num_buffers)
    return hg_snap_errf(err, n, "image %u: buffer %u out of range", i, im->buffer);
  if (im->size > s->buffers[im->buffer].size)
    return hg_snap_errf(err, n, "image %u: %llu bytes do not fit in buffer %u (%llu bytes)", i,
                        (unsigned long long)im->size, im->buffer, (unsigned long long)s->buffers[im->buffer].size);
  return true;
}

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int b = 7; b >= 0; b--)
    v = v << 8 | p[b];
  return v;
}

/* The property list: name/value pairs of the three sampler properties, each at most once, then
 * 0; the bits they give (OpenCL 3.0 defaults for those left out) equal to the record's. */
static bool properties_ok(const hg_snap_sampler *sm) {
  if (sm->num_properties == 0)
    return true;
  if (sm->num_properties % 2 == 0 || sm->num_properties > 7 || !sm->properties ||
      le64(sm->properties + 8 * (sm->num_properties - 1)) != 0)
    return false;
  uint64_t norm = CL_TRUE, addr = CL_ADDRESS_CLAMP, filter = CL_FILTER_NEAREST;
  unsigned seen = 0;
  for (uint32_t p = 0; p + 1 < sm->num_properties; p += 2) {
    uint64_t name = le64(sm->properties + 8 * p), value = le64(sm->properties + 8 * (p + 1));
    unsigned which = name == CL_SAMPLER_NORMALIZED_COORDS ? 1 : name == CL_SAMPLER_ADDRESSING_MODE ? 2
                                                         : name == CL_SAMPLER_FILTER_MODE          ? 4
                                                                                                    : 0;
    if (!which || (seen & which) || value > UINT32_MAX)
      return false;
    seen |= which;
    *(which == 1 ? &norm : which == 2 ? &addr : &filter) = value;
  }
  uint32_t bits;
  return hg_sampler_bits((cl_bool)norm, (cl_addressing_mode)addr, (cl_filter_mode)filter, &bits) && bits == sm->bits;
}

/* HG_SAMPLER_* bits that some clCreateSampler call gives. */
static bool bits_ok(uint32_t bits) {
  uint32_t addr = bits & HG_SAMPLER_ADDRESS_MASK, filter = bits & (HG_SAMPLER_FILTER_NEAREST | HG_SAMPLER_FILTER_LINEAR);
  return !(bits & ~HG_SAMPLER_VALID_BITS) && addr <= HG_SAMPLER_ADDRESS_MIRRORED_REPEAT &&
         (filter == HG_SAMPLER_FILTER_NEAREST || filter == HG_SAMPLER_FILTER_LINEAR);
}

bool hg_snap_check_images(const hg_snapshot *s, char *err, size_t n) {
  if ((s->num_images && !s->images) || (s->num_samplers && !s->samplers))
    return hg_snap_errf(err, n, "an image or sampler count without its array");
  if (s->num_images > HG_SNAP_NONE - 1 - s->num_buffers)
    return hg_snap_errf(err, n, "more buffers and images than mem ids");
  for (uint32_t i = 0; i < s->num_images; i++)
    if (!check_image(s, i, err, n))
      return false;
  for (uint32_t i = 0; i < s->num_samplers; i++) {
    const hg_snap_sampler *sm = &s->samplers[i];
    if (sm->id != i)
      return hg_snap_errf(err, n, "sampler %u: id %u is not its index", i, sm->id);
    if (!string_ok(sm->label))
      return hg_snap_errf(err, n, "sampler %u: label too long", i);
    if (!bits_ok(sm->bits))
      return hg_snap_errf(err, n, "sampler %u: bits 0x%x are not a sampler's", i, sm->bits);
    if (!properties_ok(sm))
      return hg_snap_errf(err, n, "sampler %u: properties malformed or not those of its bits", i);
  }
  return true;
}
