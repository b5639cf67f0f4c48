/* The virtual device's image formats (common/image_format.h). The list is the OpenCL 2.0 full
 * profile's minimum for reading and writing without sRGB and depth: every backend the profile
 * admits has each of them for every image type. */
#include "common/image_format.h"

#define EACH_TYPE(order)                                                                                 \
  {order, CL_UNORM_INT8}, {order, CL_UNORM_INT16}, {order, CL_SNORM_INT8}, {order, CL_SNORM_INT16},      \
      {order, CL_SIGNED_INT8}, {order, CL_SIGNED_INT16}, {order, CL_SIGNED_INT32},                       \
      {order, CL_UNSIGNED_INT8}, {order, CL_UNSIGNED_INT16}, {order, CL_UNSIGNED_INT32},                 \
      {order, CL_HALF_FLOAT}, {order, CL_FLOAT}

const cl_image_format hg_image_formats[] = {
    EACH_TYPE(CL_RGBA), {CL_BGRA, CL_UNORM_INT8}, EACH_TYPE(CL_R), EACH_TYPE(CL_RG),
};
const unsigned hg_image_format_count = sizeof hg_image_formats / sizeof hg_image_formats[0];

bool hg_image_format_supported(const cl_image_format *f) {
  for (unsigned i = 0; f && i < hg_image_format_count; i++)
    if (hg_image_formats[i].image_channel_order == f->image_channel_order &&
        hg_image_formats[i].image_channel_data_type == f->image_channel_data_type)
      return true;
  return false;
}

unsigned hg_image_channel_count(cl_channel_order order) {
  switch (order) {
  case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: return 1;
  case CL_RG: case CL_RA: return 2;
  case CL_RGBA: case CL_BGRA: case CL_ARGB: return 4;
  default: return 0;
  }
}

unsigned hg_image_channel_size(cl_channel_type type) {
  switch (type) {
  case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT: return 2;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  default: return 0;
  }
}

size_t hg_image_pixel_size(const cl_image_format *f) {
  if (!hg_image_format_supported(f))
    return 0;
  return (size_t)hg_image_channel_count(f->image_channel_order) * hg_image_channel_size(f->image_channel_data_type);
}

bool hg_sampler_bits(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter, uint32_t *bits) {
  uint32_t b = normalized == CL_TRUE ? HG_SAMPLER_NORMALIZED_COORDS : 0;
  if (normalized != CL_TRUE && normalized != CL_FALSE)
    return false;
  switch (addressing) {
  case CL_ADDRESS_NONE: b |= HG_SAMPLER_ADDRESS_NONE; break;
  case CL_ADDRESS_CLAMP_TO_EDGE: b |= HG_SAMPLER_ADDRESS_CLAMP_TO_EDGE; break;
  case CL_ADDRESS_CLAMP: b |= HG_SAMPLER_ADDRESS_CLAMP; break;
  case CL_ADDRESS_REPEAT: b |= HG_SAMPLER_ADDRESS_REPEAT; break;
  case CL_ADDRESS_MIRRORED_REPEAT: b |= HG_SAMPLER_ADDRESS_MIRRORED_REPEAT; break;
  default: return false;
  }
  switch (filter) {
  case CL_FILTER_NEAREST: b |= HG_SAMPLER_FILTER_NEAREST; break;
  case CL_FILTER_LINEAR: b |= HG_SAMPLER_FILTER_LINEAR; break;
  default: return false;
  }
  *bits = b;
  return true;
}
