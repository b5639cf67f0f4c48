/* The coordinates of image commands (platform/mem_image.h). The host API names a 1D array's
 * layers by origin[1] and a 2D array's by origin[2]: rows and slices of a rectangle, as the
 * packed layout holds them (devices/backend.h). */
#include "platform/mem_image.h"

#include "platform/mem_enqueue.h"

void hg_image_extent(const hg_image_layout *l, size_t ext[3]) {
  ext[0] = l->width;
  ext[1] = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? l->array_size : l->height;
  ext[2] = l->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? l->array_size : l->depth;
}

cl_int hg_image_region_check(cl_mem image, const size_t *origin, const size_t *region) {
  if (!origin || !region)
    return CL_INVALID_VALUE;
  size_t ext[3];
  hg_image_extent(&image->image->layout, ext);
  for (unsigned d = 0; d < 3; d++)
    if (!region[d] || origin[d] > ext[d] || region[d] > ext[d] - origin[d])
      return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int hg_image_host_pitches(const hg_image_layout *l, const size_t region[3], size_t row_pitch, size_t slice_pitch,
                             size_t *rect_row, size_t *rect_slice) {
  size_t row = region[0] * l->pixel_size;
  if (row_pitch == 0)
    row_pitch = row;
  else if (row_pitch < row)
    return CL_INVALID_VALUE;
  switch (l->type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: /* each layer is an image of its own: slice_pitch apart */
    if (slice_pitch == 0)
      slice_pitch = row_pitch;
    else if (slice_pitch < row_pitch)
      return CL_INVALID_VALUE;
    *rect_row = slice_pitch;
    *rect_slice = slice_pitch * region[1];
    return CL_SUCCESS;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    if (slice_pitch == 0)
      slice_pitch = row_pitch * region[1];
    else if (slice_pitch < row_pitch * region[1])
      return CL_INVALID_VALUE;
    *rect_row = row_pitch;
    *rect_slice = slice_pitch;
    return CL_SUCCESS;
  default: /* one slice: the slice pitch is not used */
    *rect_row = row_pitch;
    *rect_slice = row_pitch * region[1];
    return CL_SUCCESS;
  }
}

void hg_image_map_pitches(const hg_image_layout *l, size_t rect_row, size_t rect_slice, size_t *row_pitch,
                          size_t *slice_pitch) {
  switch (l->type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    *row_pitch = rect_row;
    *slice_pitch = rect_row;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    *row_pitch = rect_row;
    *slice_pitch = rect_slice;
    break;
  default:
    *row_pitch = rect_row;
    *slice_pitch = 0;
  }
}

cl_int hg_enqueue_check_image(cl_context ctx, cl_mem mem) {
  HG_CHECK_MEM(mem, CL_INVALID_MEM_OBJECT);
  if (!mem->image)
    return CL_INVALID_MEM_OBJECT;
  if (mem->context != ctx)
    return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

void hg_image_rect_side(cl_mem image, const size_t origin[3], size_t base, size_t out_origin[3], size_t *row_pitch,
                        size_t *slice_pitch) {
  const hg_image_layout *l = &image->image->layout;
  size_t ext[3];
  hg_image_extent(l, ext);
  out_origin[0] = origin[0] * l->pixel_size;
  out_origin[1] = origin[1];
  out_origin[2] = origin[2];
  if (hg_mem_is_buffer_image(image))
    out_origin[0] += base;
  *row_pitch = l->row_pitch;
  *slice_pitch = l->row_pitch * ext[1];
}
