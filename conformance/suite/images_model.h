/* The host side of the image areas (images_api, images_kernel, images_samplers): the test's
 * own model of image formats, of the conversions the OpenCL C specification gives for reading
 * and writing each channel type, of an image's pixels, and of sampling (images_sample.c).
 * Written from the specification, independently of the driver (nothing from common/). */
#ifndef HETGPU_SUITE_IMAGES_MODEL_H
#define HETGPU_SUITE_IMAGES_MODEL_H

#include "suite.h"

/* How a kernel reads and writes a format: read_imagef/write_imagef, ..i, ..ui. */
typedef enum { IM_FLOAT, IM_INT, IM_UINT } im_kind;

/* The virtual device's formats (docs/images.md): OpenCL 2.0's minimum list without sRGB, depth,
 * CL_RG (PoCL 3.1 has none) and CL_SNORM_INT8 (NVIDIA has none), for every image type. The
 * tests run each format of this list the device offers; images_api/required_formats checks it
 * offers all. CL_SNORM_INT8 conversions stay in the model (images_model.c) for devices that have it. */
extern const cl_image_format im_required_formats[];
extern const int im_required_count;

unsigned im_channels(const cl_image_format *f);
unsigned im_channel_bytes(const cl_image_format *f);
size_t im_pixel_bytes(const cl_image_format *f);
im_kind im_kind_of(const cl_image_format *f);
bool im_normalized(const cl_image_format *f);
bool im_has_alpha(const cl_image_format *f);
/* "CL_RGBA/CL_UNORM_INT8" into a static buffer (one of four, rotating). */
const char *im_format_name(const cl_image_format *f);
const char *im_type_name(cl_mem_object_type t);

/* Half precision, by hand: exact decoding; encoding with round-to-nearest-even or toward zero
 * (the two roundings the specification allows when a float is stored in a half image). */
double im_half_to_double(uint16_t h);
uint16_t im_half_from_double(double v, bool toward_zero);

/* Random pixels for a format: any bits for integer and normalized types; finite values for half
 * and float (|v| <= float_range, sometimes tiny), so comparisons are meaningful. */
void im_random_pixels(const cl_image_format *f, uint8_t *dst, size_t pixels, double float_range);

/* What read_imagef / read_imagei / read_imageui return for one stored pixel: RGBA, a missing
 * channel 0 and a missing alpha 1 (OpenCL C: image channel mapping). */
void im_read_float(const cl_image_format *f, const uint8_t *px, double rgba[4]);
void im_read_int(const cl_image_format *f, const uint8_t *px, int64_t rgba[4]);
/* Whether a float read_imagef returned matches the exact value: normalized conversions may be
 * 1.5 ulp off (0 and the ends exact), half and float conversions are exact. */
bool im_float_read_ok(const cl_image_format *f, double exact, float got);

/* The pixel write_imagef / clEnqueueFillImage should store for an RGBA float color: round to
 * nearest even with saturation (NaN as 0) for normalized types, nearest even for half. */
void im_pack_float(const cl_image_format *f, const float rgba[4], uint8_t *px);
/* write_imagei / write_imageui: saturated to the channel type (unsigned colors as uint32_t). */
void im_pack_int(const cl_image_format *f, const int32_t rgba[4], uint8_t *px);
/* Whether a stored pixel is one the specification allows for the float color: normalized within
 * 0.6 of the exact scaled value, half rounded to nearest even or toward zero (subnormals may
 * flush to zero), float exact. `why` gets the channel and values when not. */
bool im_float_write_ok(const cl_image_format *f, const float rgba[4], const uint8_t *px, char *why, size_t why_size);

/* ---- images on the device and their host models ---- */

/* Whether the device offers a format for an image type (clGetSupportedImageFormats with
 * CL_MEM_READ_WRITE, asked once per type). The tests run the required formats the device has;
 * images_api/required_formats reports the missing ones. */
/* True (the test skipped, saying why) when the device reports no image support. */
bool im_no_images(void);
bool im_supported(cl_mem_object_type type, const cl_image_format *f);

/* The size of an image in the generic (x, y, z) space: 1D array's y is the layer, 2D array's z. */
typedef struct {
  cl_mem_object_type type;
  cl_image_format fmt;
  size_t w, h, d; /* 1 where the type has no such dimension */
} im_shape;

/* Random sizes for a type: a few work-groups' worth, small enough to run every format. */
im_shape im_random_shape(cl_mem_object_type type, const cl_image_format *f, size_t max_edge);
size_t im_shape_pixels(const im_shape *s);
/* The image_desc of a shape (image_width... as clCreateImage wants them). */
cl_image_desc im_desc(const im_shape *s, size_t row_pitch, size_t slice_pitch, cl_mem buffer);
/* origin/region triples of the generic box (x, y, z) + (w, h, d). */
void im_box(const im_shape *s, const size_t at[3], const size_t size[3], size_t origin[3], size_t region[3]);
/* Creates an image of a shape, with `init` (packed, w*h*d pixels) or poisoned with 0xA5 bytes
 * when init is NULL; a 1D buffer image gets its own buffer, returned in *buffer. Fails the test
 * and returns NULL on error. */
cl_mem im_create(const im_shape *s, cl_mem_flags flags, const void *init, cl_mem *buffer);
/* Reads the whole image packed (w*h*d pixels). */
bool im_read_all(cl_mem img, const im_shape *s, void *dst);
/* Pixel x,y,z of a packed host copy. */
static inline uint8_t *im_at(const im_shape *s, uint8_t *base, size_t x, size_t y, size_t z) {
  return base + ((z * s->h + y) * s->w + x) * im_pixel_bytes(&s->fmt);
}

/* The specification's sampling of a packed host image (images_sample.c), in double precision:
 * the addressing mode, the filter and normalized coordinates of a sampler at coordinate c
 * (c[0..dims-1] used; 1, 2 or 3 dims: 1D, 2D, 3D; 1D and 2D arrays: the layer in the next
 * coordinate). Float result for read_imagef; for the
 * integer kinds only nearest filtering applies and the result is exact. */
typedef struct {
  bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
} im_sampler;
void im_sample_float(const im_shape *s, const uint8_t *pixels, const im_sampler *smp, const float *c, double out[4]);
void im_sample_int(const im_shape *s, const uint8_t *pixels, const im_sampler *smp, const float *c, int64_t out[4]);
/* For nearest sampling: how far a coordinate is, in texels, from the nearest texel boundary on
 * each axis after addressing (the tests keep away from boundaries, where float rounding of the
 * device's s * width may pick either neighbour); the minimum over the axes, an array's layer
 * coordinate included (its distance from the halves, where rint may go either way). */
double im_boundary_distance(const im_shape *s, const im_sampler *smp, const float *c);

#endif
