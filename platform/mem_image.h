/* Images inside the platform: their coordinates and the rules every image command shares
 * (platform/image_region.c), used by mem_image.c, enqueue_image.c, enqueue_map.c and kernel.c. */
#ifndef HETGPU_PLATFORM_MEM_IMAGE_H
#define HETGPU_PLATFORM_MEM_IMAGE_H

#include "platform/mem_object.h"

/* The image's size in the host API's coordinates: pixels, rows (a 1D array's layers), slices
 * (a 2D array's layers); 1 where the type has no such dimension. */
void hg_image_extent(const hg_image_layout *l, size_t ext[3]);
/* origin and region of a command on the image: CL_INVALID_VALUE when NULL, a region with a 0,
 * or outside the image (which also enforces the 1D/2D rules on origin[1,2] and region[1,2]). */
cl_int hg_image_region_check(cl_mem image, const size_t *origin, const size_t *region);
/* The host side's pitches of a read or write of `region` of an image of this type: the step
 * between rows of the rectangle (a 1D array's: between its layers, the slice pitch) and
 * between its slices, the application's zeros replaced by packed values; CL_INVALID_VALUE
 * when one is smaller than the region needs. */
cl_int hg_image_host_pitches(const hg_image_layout *l, const size_t region[3], size_t row_pitch, size_t slice_pitch,
                             size_t *rect_row, size_t *rect_slice);
/* An image argument of a command on a queue of context `ctx`: CL_INVALID_MEM_OBJECT when it is
 * not an image, CL_INVALID_CONTEXT. */
cl_int hg_enqueue_check_image(cl_context ctx, cl_mem mem);
/* The pitches the application sees of a mapping with these rectangle pitches (clEnqueueMapImage's
 * image_row_pitch and image_slice_pitch). */
void hg_image_map_pitches(const hg_image_layout *l, size_t rect_row, size_t rect_slice, size_t *row_pitch,
                          size_t *slice_pitch);

/* The image side of a backend rectangle (devices/backend.h): origin in OpenCL's image coordinates
 * with x in bytes, the pitches of the packed layout; a 1D buffer image's side is a buffer's,
 * from `base` (where its pixels start in the buffer's allocation). */
void hg_image_rect_side(cl_mem image, const size_t origin[3], size_t base, size_t out_origin[3], size_t *row_pitch,
                        size_t *slice_pitch);

#endif
