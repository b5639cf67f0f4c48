/* The image descriptor a RISC-V kernel receives for an image argument (docs/riscv-runtime.md,
 * "Images"): the backend writes one per image argument into the launch's argument area
 * (backend_launch.c), the code generator passes its address to the runtime's image functions
 * (rt_image.rvc) and reads the get_image_* answers from it. Shared by the device runtime
 * (freestanding) and the host, hence plain numbers instead of <CL/cl.h>; the backend checks
 * them against the CL_* values at compile time. */
#ifndef HETGPU_DEVICES_RISCV_RUNTIME_RT_IMAGE_H
#define HETGPU_DEVICES_RISCV_RUNTIME_RT_IMAGE_H

#include <stdint.h>

/* Pixel (x, y, z) is at base + x * pixel_size + y * row_pitch + z * slice_pitch, z being the
 * depth of a 3D image or the layer of an array (a 1D array's layer pitch is its row pitch). */
typedef struct hg_rt_image {
  uint64_t base;        /* 0: address of pixel (0, 0, 0) */
  uint64_t row_pitch;   /* 8 */
  uint64_t slice_pitch; /* 16: 3D slice or array layer */
  int32_t width;        /* 24 */
  int32_t height;       /* 28: 1 for 1D images and 1D arrays */
  int32_t depth;        /* 32: 1 except 3D */
  int32_t array_size;   /* 36: layers of an array, 1 otherwise */
  uint32_t order;       /* 40: CL_R ... (HG_RT_ORDER_*) */
  uint32_t type;        /* 44: CL_UNORM_INT8 ... (HG_RT_TYPE_*) */
  uint32_t pixel_size;  /* 48: bytes */
  uint32_t channels;    /* 52: 1, 2 or 4 */
  uint32_t dim;         /* 56: hg_ir_image_dim of the memory object (HG_RT_DIM_*) */
  uint32_t reserved;    /* 60 */
} hg_rt_image;

enum { HG_RT_IMAGE_BYTES = 64 };

/* Field offsets the code generator loads from. */
enum {
  HG_RT_IMG_WIDTH = 24, HG_RT_IMG_HEIGHT = 28, HG_RT_IMG_DEPTH = 32, HG_RT_IMG_ARRAY_SIZE = 36,
  HG_RT_IMG_ORDER = 40, HG_RT_IMG_TYPE = 44,
};

/* The image's dimensionality as the IR names it (ir/ir.h hg_ir_image_dim, same numbers). */
enum {
  HG_RT_DIM_1D = 1, HG_RT_DIM_1D_BUFFER, HG_RT_DIM_1D_ARRAY, HG_RT_DIM_2D, HG_RT_DIM_2D_ARRAY, HG_RT_DIM_3D,
};

/* cl_channel_order / cl_channel_type values of the supported formats (CL/cl.h). */
enum {
  HG_RT_ORDER_R = 0x10B0, HG_RT_ORDER_RG = 0x10B2, HG_RT_ORDER_RGBA = 0x10B5, HG_RT_ORDER_BGRA = 0x10B6,
};
enum {
  HG_RT_TYPE_SNORM_INT8 = 0x10D0, HG_RT_TYPE_SNORM_INT16 = 0x10D1, HG_RT_TYPE_UNORM_INT8 = 0x10D2,
  HG_RT_TYPE_UNORM_INT16 = 0x10D3, HG_RT_TYPE_SIGNED_INT8 = 0x10D7, HG_RT_TYPE_SIGNED_INT16 = 0x10D8,
  HG_RT_TYPE_SIGNED_INT32 = 0x10D9, HG_RT_TYPE_UNSIGNED_INT8 = 0x10DA, HG_RT_TYPE_UNSIGNED_INT16 = 0x10DB,
  HG_RT_TYPE_UNSIGNED_INT32 = 0x10DC, HG_RT_TYPE_HALF_FLOAT = 0x10DD, HG_RT_TYPE_FLOAT = 0x10DE,
};

/* The sampler a read without one uses: unnormalized, no addressing, nearest (CLK_* bits). */
#define HG_RT_SAMPLER_NONE 0x10u

/* Entry points (rt_image.rvc). dim: the IR type's dimensionality (how coordinates are read:
 * (x), (x, layer), (x, y), (x, y, layer), (x, y, z)); unused coordinates are 0. Results and
 * colors are 4 lanes in memory (RGBA). read_imagei and read_imageui share the int forms: the
 * channel type decides sign or zero extension. */
void hg_rt_image_readf(const hg_rt_image *img, uint32_t sampler, int dim, float x, float y, float z, float *out);
void hg_rt_image_readf_int(const hg_rt_image *img, uint32_t sampler, int dim, int x, int y, int z, float *out);
void hg_rt_image_readi(const hg_rt_image *img, uint32_t sampler, int dim, float x, float y, float z, int32_t *out);
void hg_rt_image_readi_int(const hg_rt_image *img, uint32_t sampler, int dim, int x, int y, int z, int32_t *out);
void hg_rt_image_writef(const hg_rt_image *img, int dim, int x, int y, int z, const float *color);
void hg_rt_image_writei(const hg_rt_image *img, int dim, int x, int y, int z, const int32_t *color);

#endif
