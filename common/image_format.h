/* The image formats and sampler encoding of the virtual device (docs/images.md): the one list
 * of formats every backend must support for the profile to admit it, the size of a pixel, and
 * the bits a sampler is passed as. Here, in the bottom folder, because the platform, the
 * backends, the lowerings and the tests all need the same answers. */
#ifndef HETGPU_COMMON_IMAGE_FORMAT_H
#define HETGPU_COMMON_IMAGE_FORMAT_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A sampler as kernels receive it: OpenCL C's CLK_* values (clang's __translate_sampler_initializer
 * argument), one uint32_t. */
#define HG_SAMPLER_NORMALIZED_COORDS 0x1u
#define HG_SAMPLER_ADDRESS_MASK 0xEu
#define HG_SAMPLER_ADDRESS_NONE 0x0u
#define HG_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2u
#define HG_SAMPLER_ADDRESS_CLAMP 0x4u
#define HG_SAMPLER_ADDRESS_REPEAT 0x6u
#define HG_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8u
#define HG_SAMPLER_FILTER_NEAREST 0x10u
#define HG_SAMPLER_FILTER_LINEAR 0x20u
#define HG_SAMPLER_VALID_BITS 0x3Fu

/* The formats the virtual device supports, the same for every image type and access flag. */
extern const cl_image_format hg_image_formats[];
extern const unsigned hg_image_format_count;
bool hg_image_format_supported(const cl_image_format *f);
/* Channels of an order (CL_R: 1 ... CL_RGBA: 4); 0 for an order the device does not know. */
unsigned hg_image_channel_count(cl_channel_order order);
/* Bytes of one channel; 0 for a type the device does not know. */
unsigned hg_image_channel_size(cl_channel_type type);
/* Bytes of one pixel of a supported format; 0 for any other. */
size_t hg_image_pixel_size(const cl_image_format *f);
/* The pixel clEnqueueFillImage writes: `color` is a float[4] (normalized and float types),
 * int32_t[4] (signed integer types) or uint32_t[4] (unsigned), RGBA; the result is pixel_size
 * bytes in the format, converted as the specification's write_image functions do. */
void hg_image_pack_color(const cl_image_format *f, const void *color, uint8_t *pixel);
/* A sampler's CL_SAMPLER_* properties as HG_SAMPLER_* bits; false when one is not valid. */
bool hg_sampler_bits(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter, uint32_t *bits);

#endif
