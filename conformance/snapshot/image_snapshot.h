/* Snapshots with images and samplers (minor 2), built in memory (image_snapshot.c). */
#ifndef HETGPU_TEST_IMAGE_SNAPSHOT_H
#define HETGPU_TEST_IMAGE_SNAPSHOT_H

#include "random_snapshot.h"

#include <stdbool.h>

/* Buffers 0 (256 bytes) and 1 (64 bytes); program 0 with kernel k_img(read_only image2d_t,
 * write_only image1d_buffer_t, sampler_t, global int*); image 0 (mem id 2): 4 x 3 RGBA
 * UNORM_INT8, read-only, contents of its own; image 1 (mem id 3): a 1D buffer image of 16
 * RGBA UNORM_INT8 pixels over buffer 0, write-only; with `extra` image 2 (mem id 4): a 1D
 * array of R FLOAT. Sampler 0 (bits only), sampler 1 (a property list). Kernel 0 is k_img
 * with arguments image 2, image 3, sampler 1, buffer 1. Images 0 and 1 have NULL labels. */
test_snapshot *test_snapshot_images(bool extra);
/* The encoded IR of the k_img module (malloc'd). */
uint8_t *test_image_ir_binary(size_t *size);

#endif
