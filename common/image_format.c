/* The virtual device's image formats (common/image_format.h): the OpenCL 3.0 full profile's
 * minimum (CL_RGBA with 9 types, CL_BGRA CL_UNORM_INT8), CL_RGBA with CL_SNORM_INT16, and CL_R
 * with the same 11 types. Every backend must have each of them for every image type, so two of
 * OpenCL 2.0's are left out: CL_RG (PoCL 3.1 has no CL_RG format) and CL_SNORM_INT8 (NVIDIA's
 * OpenCL has none). */
#include "common/image_format.h"

#include <math.h>
#include <string.h>

#define EACH_TYPE(order)                                                                                 \
  {order, CL_UNORM_INT8}, {order, CL_UNORM_INT16}, {order, CL_SNORM_INT16},      \
      {order, CL_SIGNED_INT8}, {order, CL_SIGNED_INT16}, {order, CL_SIGNED_INT32},                       \
      {order, CL_UNSIGNED_INT8}, {order, CL_UNSIGNED_INT16}, {order, CL_UNSIGNED_INT32},                 \
      {order, CL_HALF_FLOAT}, {order, CL_FLOAT}

const cl_image_format hg_image_formats[] = {
    EACH_TYPE(CL_RGBA), {CL_BGRA, CL_UNORM_INT8}, EACH_TYPE(CL_R),
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

/* ---- clEnqueueFillImage's pixel (OpenCL 3.0, "Conversion Rules": write_imagef/i/ui) ---- */

/* A float to the nearest integer in [lo, hi], ties to even; NaN gives 0 (the _sat_rte
 * conversions). */
static double norm_sat_rte(float f, double scale, double lo, double hi) {
  if (isnan(f))
    return 0;
  double v = rint((double)f * scale);
  return v < lo ? lo : v > hi ? hi : v;
}

/* IEEE half of a float, rounded to nearest even (overflow to infinity, NaN kept quiet). */
static uint16_t half_rte(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, mant = x & 0x7fffffu;
  if (exp == 0xff)
    return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31)
    return (uint16_t)(sign | 0x7c00u);
  uint32_t h, rem, halfway;
  if (e <= 0) { /* a half subnormal (or zero): the implicit bit joins the dropped ones */
    if (e < -10)
      return (uint16_t)sign;
    mant |= 0x800000u;
    unsigned shift = (unsigned)(14 - e);
    h = mant >> shift;
    rem = mant & ((1u << shift) - 1);
    halfway = 1u << (shift - 1);
  } else {
    h = ((uint32_t)e << 10) | (mant >> 13);
    rem = mant & 0x1fffu;
    halfway = 0x1000u;
  }
  if (rem > halfway || (rem == halfway && (h & 1)))
    h++; /* a carry into the exponent is right, up to infinity */
  return (uint16_t)(sign | h);
}

/* One channel of the pixel from channel c of the color. */
static void pack_channel(cl_channel_type type, const void *color, unsigned c, uint8_t *out) {
  const float *f = color;
  const int32_t *i = color;
  const uint32_t *u = color;
  union {
    uint8_t u8;
    int8_t s8;
    uint16_t u16;
    int16_t s16;
    uint32_t u32;
    int32_t s32;
    float f32;
  } v;
  switch (type) {
  case CL_UNORM_INT8: v.u8 = (uint8_t)norm_sat_rte(f[c], 255.0, 0, 255); break;
  case CL_UNORM_INT16: v.u16 = (uint16_t)norm_sat_rte(f[c], 65535.0, 0, 65535); break;
  case CL_SNORM_INT8: v.s8 = (int8_t)norm_sat_rte(f[c], 127.0, -128, 127); break;
  case CL_SNORM_INT16: v.s16 = (int16_t)norm_sat_rte(f[c], 32767.0, -32768, 32767); break;
  case CL_HALF_FLOAT: v.u16 = half_rte(f[c]); break;
  case CL_FLOAT: v.f32 = f[c]; break;
  case CL_SIGNED_INT8: v.s8 = (int8_t)(i[c] < INT8_MIN ? INT8_MIN : i[c] > INT8_MAX ? INT8_MAX : i[c]); break;
  case CL_SIGNED_INT16: v.s16 = (int16_t)(i[c] < INT16_MIN ? INT16_MIN : i[c] > INT16_MAX ? INT16_MAX : i[c]); break;
  case CL_SIGNED_INT32: v.s32 = i[c]; break;
  case CL_UNSIGNED_INT8: v.u8 = (uint8_t)(u[c] > UINT8_MAX ? UINT8_MAX : u[c]); break;
  case CL_UNSIGNED_INT16: v.u16 = (uint16_t)(u[c] > UINT16_MAX ? UINT16_MAX : u[c]); break;
  case CL_UNSIGNED_INT32: v.u32 = u[c]; break;
  default: return;
  }
  memcpy(out, &v, hg_image_channel_size(type));
}

void hg_image_pack_color(const cl_image_format *f, const void *color, uint8_t *pixel) {
  /* the color is RGBA; the order says which of its channels are stored, in what order */
  static const unsigned r[] = {0}, rg[] = {0, 1}, rgba[] = {0, 1, 2, 3}, bgra[] = {2, 1, 0, 3};
  const unsigned *from = f->image_channel_order == CL_BGRA ? bgra
                         : f->image_channel_order == CL_RG ? rg
                         : f->image_channel_order == CL_R  ? r
                                                           : rgba;
  unsigned n = hg_image_channel_count(f->image_channel_order), size = hg_image_channel_size(f->image_channel_data_type);
  for (unsigned k = 0; k < n && k < 4; k++)
    pack_channel(f->image_channel_data_type, color, from[k], pixel + k * size);
}
