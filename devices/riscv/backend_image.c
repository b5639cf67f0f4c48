/* Images on the RISC-V backend (docs/images.md, docs/riscv-backend.md "Images"): an image is a
 * DRAM allocation of its packed layout, the memory operations treat it as bytes (backend.c
 * addresses an image side of a rect operation with the layout's pitches), and a kernel gets a
 * descriptor of it per launch (devices/riscv/runtime/rt_image.h) that the runtime's image
 * functions read. */
#include <string.h>

#include "common/image_format.h"
#include "devices/riscv/backend_internal.h"
#include "devices/riscv/runtime/rt_image.h"
#include "ir/ir.h"

/* The runtime spells the CL values as numbers (it is built without <CL/cl.h>). */
_Static_assert(HG_RT_ORDER_R == CL_R && HG_RT_ORDER_RG == CL_RG && HG_RT_ORDER_RGBA == CL_RGBA &&
                   HG_RT_ORDER_BGRA == CL_BGRA,
               "channel orders");
_Static_assert(HG_RT_TYPE_SNORM_INT8 == CL_SNORM_INT8 && HG_RT_TYPE_SNORM_INT16 == CL_SNORM_INT16 &&
                   HG_RT_TYPE_UNORM_INT8 == CL_UNORM_INT8 && HG_RT_TYPE_UNORM_INT16 == CL_UNORM_INT16 &&
                   HG_RT_TYPE_SIGNED_INT8 == CL_SIGNED_INT8 && HG_RT_TYPE_SIGNED_INT16 == CL_SIGNED_INT16 &&
                   HG_RT_TYPE_SIGNED_INT32 == CL_SIGNED_INT32 && HG_RT_TYPE_UNSIGNED_INT8 == CL_UNSIGNED_INT8 &&
                   HG_RT_TYPE_UNSIGNED_INT16 == CL_UNSIGNED_INT16 &&
                   HG_RT_TYPE_UNSIGNED_INT32 == CL_UNSIGNED_INT32 && HG_RT_TYPE_HALF_FLOAT == CL_HALF_FLOAT &&
                   HG_RT_TYPE_FLOAT == CL_FLOAT,
               "channel types");
_Static_assert((int)HG_RT_DIM_1D == (int)HG_IMAGE_1D && (int)HG_RT_DIM_1D_BUFFER == (int)HG_IMAGE_1D_BUFFER &&
                   (int)HG_RT_DIM_1D_ARRAY == (int)HG_IMAGE_1D_ARRAY && (int)HG_RT_DIM_2D == (int)HG_IMAGE_2D &&
                   (int)HG_RT_DIM_2D_ARRAY == (int)HG_IMAGE_2D_ARRAY && (int)HG_RT_DIM_3D == (int)HG_IMAGE_3D,
               "dimensionalities");
_Static_assert(sizeof(hg_rt_image) == HG_RT_IMAGE_BYTES, "descriptor size");

cl_int hg_rv_image_alloc(hg_backend *be, const hg_image_layout *layout, hg_dev_mem **out) {
  *out = NULL;
  if (!layout || !layout->size)
    return CL_INVALID_VALUE;
  cl_int rc = hg_rv_mem_alloc(be, layout->size, out);
  if (rc == CL_SUCCESS) {
    (*out)->is_image = true;
    (*out)->image = *layout;
  }
  return rc;
}

static uint32_t dim_of(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D: return HG_RT_DIM_1D;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: return HG_RT_DIM_1D_BUFFER;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: return HG_RT_DIM_1D_ARRAY;
  case CL_MEM_OBJECT_IMAGE2D: return HG_RT_DIM_2D;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return HG_RT_DIM_2D_ARRAY;
  default: return HG_RT_DIM_3D;
  }
}

void hg_rv_image_descriptor(const hg_launch_arg *a, uint64_t pixels, void *out) {
  const hg_image_layout *l = a->image;
  hg_rt_image d = {0};
  d.base = pixels;
  d.row_pitch = l->row_pitch;
  d.slice_pitch = l->slice_pitch;
  d.width = (int32_t)l->width;
  d.height = (int32_t)(l->height ? l->height : 1);
  d.depth = (int32_t)(l->depth ? l->depth : 1);
  d.array_size = (int32_t)(l->array_size ? l->array_size : 1);
  d.order = l->format.image_channel_order;
  d.type = l->format.image_channel_data_type;
  d.pixel_size = (uint32_t)l->pixel_size;
  d.channels = hg_image_channel_count(l->format.image_channel_order);
  d.dim = dim_of(l->type);
  memcpy(out, &d, sizeof d);
}
