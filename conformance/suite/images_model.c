/* Formats and conversions of the image areas' host model (images_model.h), from the OpenCL C
 * specification's conversion rules for image channel data types. */
#include "images_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EACH_TYPE(order)                                                                                          \
  {order, CL_UNORM_INT8}, {order, CL_UNORM_INT16}, {order, CL_SNORM_INT16},                                       \
      {order, CL_SIGNED_INT8}, {order, CL_SIGNED_INT16}, {order, CL_SIGNED_INT32}, {order, CL_UNSIGNED_INT8},     \
      {order, CL_UNSIGNED_INT16}, {order, CL_UNSIGNED_INT32}, {order, CL_HALF_FLOAT}, {order, CL_FLOAT}
const cl_image_format im_required_formats[] = {EACH_TYPE(CL_RGBA), {CL_BGRA, CL_UNORM_INT8}, EACH_TYPE(CL_R)};
const int im_required_count = (int)(sizeof im_required_formats / sizeof im_required_formats[0]);

unsigned im_channels(const cl_image_format *f) {
  switch (f->image_channel_order) {
  case CL_R: case CL_A: return 1;
  case CL_RG: case CL_RA: return 2;
  case CL_RGBA: case CL_BGRA: case CL_ARGB: return 4;
  default: return 0;
  }
}

unsigned im_channel_bytes(const cl_image_format *f) {
  switch (f->image_channel_data_type) {
  case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT: return 2;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  default: return 0;
  }
}

size_t im_pixel_bytes(const cl_image_format *f) { return (size_t)im_channels(f) * im_channel_bytes(f); }

im_kind im_kind_of(const cl_image_format *f) {
  switch (f->image_channel_data_type) {
  case CL_SIGNED_INT8: case CL_SIGNED_INT16: case CL_SIGNED_INT32: return IM_INT;
  case CL_UNSIGNED_INT8: case CL_UNSIGNED_INT16: case CL_UNSIGNED_INT32: return IM_UINT;
  default: return IM_FLOAT;
  }
}

bool im_normalized(const cl_image_format *f) {
  cl_channel_type t = f->image_channel_data_type;
  return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16;
}

bool im_has_alpha(const cl_image_format *f) {
  cl_channel_order o = f->image_channel_order;
  return o == CL_RGBA || o == CL_BGRA || o == CL_ARGB || o == CL_A || o == CL_RA;
}

static const char *order_name(cl_channel_order o) {
  switch (o) {
  case CL_R: return "CL_R"; case CL_RG: return "CL_RG"; case CL_RGBA: return "CL_RGBA"; case CL_BGRA: return "CL_BGRA";
  case CL_A: return "CL_A"; case CL_RA: return "CL_RA"; case CL_ARGB: return "CL_ARGB";
  default: return "order?";
  }
}

static const char *type_name(cl_channel_type t) {
  switch (t) {
  case CL_UNORM_INT8: return "UNORM_INT8"; case CL_UNORM_INT16: return "UNORM_INT16";
  case CL_SNORM_INT8: return "SNORM_INT8"; case CL_SNORM_INT16: return "SNORM_INT16";
  case CL_SIGNED_INT8: return "SIGNED_INT8"; case CL_SIGNED_INT16: return "SIGNED_INT16";
  case CL_SIGNED_INT32: return "SIGNED_INT32"; case CL_UNSIGNED_INT8: return "UNSIGNED_INT8";
  case CL_UNSIGNED_INT16: return "UNSIGNED_INT16"; case CL_UNSIGNED_INT32: return "UNSIGNED_INT32";
  case CL_HALF_FLOAT: return "HALF_FLOAT"; case CL_FLOAT: return "FLOAT";
  default: return "type?";
  }
}

const char *im_format_name(const cl_image_format *f) {
  static char bufs[4][64];
  static int next;
  char *b = bufs[next++ & 3];
  snprintf(b, 64, "%s/%s", order_name(f->image_channel_order), type_name(f->image_channel_data_type));
  return b;
}

const char *im_type_name(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D: return "1D";
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "1D buffer";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "1D array";
  case CL_MEM_OBJECT_IMAGE2D: return "2D";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "2D array";
  case CL_MEM_OBJECT_IMAGE3D: return "3D";
  default: return "image?";
  }
}

/* ---- half precision ---- */

double im_half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 31)
    return m ? NAN : sign * INFINITY;
  if (e == 0)
    return sign * ldexp(m, -24);
  return sign * ldexp(1024 + m, e - 25);
}

uint16_t im_half_from_double(double v, bool toward_zero) {
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  double a = fabs(v);
  if (isnan(v))
    return 0x7E00;
  if (isinf(a))
    return sign | 0x7C00;
  if (a == 0)
    return sign;
  int e;
  frexp(a, &e);
  int exp = e - 1 < -14 ? -14 : e - 1; /* a in [2^exp, 2^(exp+1)), or the subnormal range */
  double step = ldexp(1.0, exp - 10);
  double n = a / step; /* exact: a power-of-two scaling */
  double r = toward_zero ? floor(n) : n - floor(n) == 0.5 ? (fmod(floor(n), 2) == 0 ? floor(n) : floor(n) + 1)
                                                           : floor(n + 0.5);
  double q = r * step;
  if (q > 65504)
    return toward_zero ? (sign | 0x7BFF) : (sign | 0x7C00);
  if (q < ldexp(1.0, -14))
    return sign | (uint16_t)(q / ldexp(1.0, -24));
  int qe;
  double m = frexp(q, &qe); /* q = m * 2^qe, m in [0.5, 1) */
  return sign | (uint16_t)((qe - 1 + 15) << 10) | (uint16_t)((m * 2 - 1) * 1024);
}

/* ---- random pixels ---- */

static float random_float(double range) {
  switch (suite_rand() % 8) {
  case 0: return (float)suite_uniform(-1e-3, 1e-3) * (float)range;
  case 1: return (float)(suite_rand() % 5) - 2.0f; /* exact small integers, 0 included */
  default: return (float)suite_uniform(-range, range);
  }
}

void im_random_pixels(const cl_image_format *f, uint8_t *dst, size_t pixels, double float_range) {
  size_t n = pixels * im_channels(f);
  switch (f->image_channel_data_type) {
  case CL_FLOAT:
    for (size_t i = 0; i < n; i++) {
      float v = random_float(float_range);
      memcpy(dst + 4 * i, &v, 4);
    }
    break;
  case CL_HALF_FLOAT:
    for (size_t i = 0; i < n; i++) {
      double r = float_range > 60000 ? 60000 : float_range;
      uint16_t h = suite_rand() % 4 == 0 ? (uint16_t)(suite_rand() & 0x83FF) /* subnormal or zero */
                                         : im_half_from_double(random_float(r), false);
      memcpy(dst + 2 * i, &h, 2);
    }
    break;
  default:
    suite_fill(dst, n * im_channel_bytes(f));
  }
}

/* ---- reading ---- */

/* Channel c (0..channels-1, in memory order) of a pixel, as a double (normalized types
 * converted) and as an integer. */
static double channel_float(const cl_image_format *f, const uint8_t *px, unsigned c) {
  switch (f->image_channel_data_type) {
  case CL_UNORM_INT8: return px[c] / 255.0;
  case CL_SNORM_INT8: return fmax(-1.0, (int8_t)px[c] / 127.0);
  case CL_UNORM_INT16: { uint16_t v; memcpy(&v, px + 2 * c, 2); return v / 65535.0; }
  case CL_SNORM_INT16: { int16_t v; memcpy(&v, px + 2 * c, 2); return fmax(-1.0, v / 32767.0); }
  case CL_HALF_FLOAT: { uint16_t v; memcpy(&v, px + 2 * c, 2); return im_half_to_double(v); }
  case CL_FLOAT: { float v; memcpy(&v, px + 4 * c, 4); return v; }
  default: return NAN;
  }
}

static int64_t channel_int(const cl_image_format *f, const uint8_t *px, unsigned c) {
  switch (f->image_channel_data_type) {
  case CL_SIGNED_INT8: return (int8_t)px[c];
  case CL_UNSIGNED_INT8: return px[c];
  case CL_SIGNED_INT16: { int16_t v; memcpy(&v, px + 2 * c, 2); return v; }
  case CL_UNSIGNED_INT16: { uint16_t v; memcpy(&v, px + 2 * c, 2); return v; }
  case CL_SIGNED_INT32: { int32_t v; memcpy(&v, px + 4 * c, 4); return v; }
  case CL_UNSIGNED_INT32: { uint32_t v; memcpy(&v, px + 4 * c, 4); return v; }
  default: return 0;
  }
}

/* Which RGBA component the memory channel c of an order is. */
static int component_of(const cl_image_format *f, unsigned c) {
  if (f->image_channel_order == CL_BGRA)
    return (int)"\2\1\0\3"[c];
  return (int)c; /* CL_R, CL_RG, CL_RGBA */
}

void im_read_float(const cl_image_format *f, const uint8_t *px, double rgba[4]) {
  rgba[0] = rgba[1] = rgba[2] = 0, rgba[3] = 1;
  for (unsigned c = 0; c < im_channels(f); c++)
    rgba[component_of(f, c)] = channel_float(f, px, c);
}

void im_read_int(const cl_image_format *f, const uint8_t *px, int64_t rgba[4]) {
  rgba[0] = rgba[1] = rgba[2] = 0, rgba[3] = 1;
  for (unsigned c = 0; c < im_channels(f); c++)
    rgba[component_of(f, c)] = channel_int(f, px, c);
}

bool im_float_read_ok(const cl_image_format *f, double exact, float got) {
  if (!im_normalized(f))
    return (double)got == exact || (isnan(exact) && isnan(got));
  if (exact == 0 || exact == 1 || exact == -1)
    return (double)got == exact;
  double ulp = ldexp(1.0, ilogb(exact) - 23);
  return fabs((double)got - exact) <= 1.5 * ulp;
}

/* ---- writing ---- */

/* The exact scaled value of a float for a normalized type, clamped to the type's range, and the
 * scale's limits. */
static double norm_scaled(cl_channel_type t, float v, double *lo, double *hi) {
  double scale;
  switch (t) {
  case CL_UNORM_INT8: scale = 255, *lo = 0, *hi = 255; break;
  case CL_UNORM_INT16: scale = 65535, *lo = 0, *hi = 65535; break;
  case CL_SNORM_INT8: scale = 127, *lo = -128, *hi = 127; break;
  default: scale = 32767, *lo = -32768, *hi = 32767; break; /* CL_SNORM_INT16 */
  }
  double x = isnan(v) ? 0 : (double)v * scale;
  return x < *lo ? *lo : x > *hi ? *hi : x;
}

static double round_even(double x) {
  double f = floor(x), d = x - f;
  if (d > 0.5 || (d == 0.5 && fmod(f, 2) != 0))
    return f + 1;
  return f;
}

static void put_channel(const cl_image_format *f, uint8_t *px, unsigned c, int64_t v) {
  unsigned n = im_channel_bytes(f);
  uint32_t u = (uint32_t)v; /* little-endian: the low bytes */
  memcpy(px + n * c, &u, n);
}

void im_pack_float(const cl_image_format *f, const float rgba[4], uint8_t *px) {
  for (unsigned c = 0; c < im_channels(f); c++) {
    float v = rgba[component_of(f, c)];
    if (f->image_channel_data_type == CL_FLOAT)
      memcpy(px + 4 * c, &v, 4);
    else if (f->image_channel_data_type == CL_HALF_FLOAT) {
      uint16_t h = im_half_from_double(v, false);
      memcpy(px + 2 * c, &h, 2);
    } else {
      double lo, hi;
      put_channel(f, px, c, (int64_t)round_even(norm_scaled(f->image_channel_data_type, v, &lo, &hi)));
    }
  }
}

void im_pack_int(const cl_image_format *f, const int32_t rgba[4], uint8_t *px) {
  for (unsigned c = 0; c < im_channels(f); c++) {
    int64_t v = rgba[component_of(f, c)], u = (uint32_t)rgba[component_of(f, c)];
    switch (f->image_channel_data_type) {
    case CL_SIGNED_INT8: v = v < -128 ? -128 : v > 127 ? 127 : v; break;
    case CL_SIGNED_INT16: v = v < -32768 ? -32768 : v > 32767 ? 32767 : v; break;
    case CL_UNSIGNED_INT8: v = u > 255 ? 255 : u; break;
    case CL_UNSIGNED_INT16: v = u > 65535 ? 65535 : u; break;
    default: break; /* 32-bit: stored as is */
    }
    put_channel(f, px, c, v);
  }
}

bool im_float_write_ok(const cl_image_format *f, const float rgba[4], const uint8_t *px, char *why, size_t why_size) {
  for (unsigned c = 0; c < im_channels(f); c++) {
    float v = rgba[component_of(f, c)];
    const char *comp = &"RGBA"[component_of(f, c)];
    if (f->image_channel_data_type == CL_FLOAT) {
      float got;
      memcpy(&got, px + 4 * c, 4);
      if (memcmp(&got, &v, 4) != 0) {
        snprintf(why, why_size, "%.1s stored %a for %a", comp, got, v);
        return false;
      }
    } else if (f->image_channel_data_type == CL_HALF_FLOAT) {
      uint16_t got, rte = im_half_from_double(v, false), rtz = im_half_from_double(v, true);
      memcpy(&got, px + 2 * c, 2);
      bool flushed = (got & 0x7FFF) == 0 && fabs(v) < ldexp(1.0, -14);
      if (got != rte && got != rtz && !flushed) {
        snprintf(why, why_size, "%.1s stored half 0x%04x for %a (nearest even 0x%04x)", comp, got, v, rte);
        return false;
      }
    } else {
      double lo, hi, exact = norm_scaled(f->image_channel_data_type, v, &lo, &hi);
      int64_t got;
      switch (f->image_channel_data_type) {
      case CL_UNORM_INT8: got = px[c]; break;
      case CL_SNORM_INT8: got = (int8_t)px[c]; break;
      case CL_UNORM_INT16: { uint16_t u; memcpy(&u, px + 2 * c, 2); got = u; break; }
      default: { int16_t s; memcpy(&s, px + 2 * c, 2); got = s; break; }
      }
      if (fabs((double)got - exact) > 0.6) {
        snprintf(why, why_size, "%.1s stored %lld for %a (exact %.4f)", comp, (long long)got, v, exact);
        return false;
      }
    }
  }
  return true;
}
