/* Image memory objects: clCreateImage and its older and newer forms, clGetImageInfo. An image
 * is a cl_mem with an hg_mem_image; its storage allocates through the backends' image_alloc in
 * the packed layout (docs/images.md), except a 1D buffer image, which is a view of its buffer's
 * storage. Commands on images are enqueue_image.c's; maps enqueue_map.c's. */
#include <stdlib.h>
#include <string.h>

#include "common/image_format.h"
#include "common/log.h"
#include "devices/profile.h"
#include "platform/context_objects.h"
#include "platform/info.h"
#include "platform/mem.h"
#include "platform/mem_image.h"
#include "platform/platform.h"

/* ---- the format and the description ---- */

static bool order_known(cl_channel_order o) {
  return (o >= CL_R && o <= CL_LUMINANCE) || (o >= CL_Rx && o <= CL_ABGR) || o == CL_DEPTH || o == CL_sRGB ||
         o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA;
}

/* A format OpenCL defines (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR otherwise), supported or not. */
static bool format_valid(const cl_image_format *f) {
  if (!f || !order_known(f->image_channel_order))
    return false;
  cl_channel_type t = f->image_channel_data_type;
  cl_channel_order o = f->image_channel_order;
  if (t < CL_SNORM_INT8 || t > CL_UNORM_INT_101010_2)
    return false;
  bool packed = t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
  if (packed)
    return o == CL_RGB || o == CL_RGBx;
  if (t == CL_UNORM_INT_101010_2)
    return o == CL_RGBA;
  if (o == CL_RGB || o == CL_RGBx)
    return false; /* only the packed types */
  bool norm_or_float = t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
                       t == CL_HALF_FLOAT || t == CL_FLOAT;
  if (o == CL_INTENSITY || o == CL_LUMINANCE)
    return norm_or_float;
  if (o == CL_DEPTH)
    return t == CL_UNORM_INT16 || t == CL_FLOAT;
  if (o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA)
    return t == CL_UNORM_INT8;
  if (o == CL_BGRA || o == CL_ARGB || o == CL_ABGR)
    return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
  return true;
}

/* The profile's limits on one image's dimensions (CL_INVALID_IMAGE_SIZE past them, or 0). */
static cl_int size_check(const cl_image_desc *d) {
  size_t w = d->image_width, h = d->image_height, depth = d->image_depth, n = d->image_array_size;
  size_t max_w = HG_PROFILE_IMAGE2D_MAX_WIDTH, max_h = 1, max_d = 1, max_n = 1;
  bool need_h = false, need_d = false, need_n = false;
  switch (d->image_type) {
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: max_w = HG_PROFILE_IMAGE_MAX_BUFFER_SIZE; break;
  case CL_MEM_OBJECT_IMAGE1D: break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: max_n = HG_PROFILE_IMAGE_MAX_ARRAY_SIZE, need_n = true; break;
  case CL_MEM_OBJECT_IMAGE2D: max_h = HG_PROFILE_IMAGE2D_MAX_HEIGHT, need_h = true; break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    max_h = HG_PROFILE_IMAGE2D_MAX_HEIGHT, need_h = true;
    max_n = HG_PROFILE_IMAGE_MAX_ARRAY_SIZE, need_n = true;
    break;
  default: /* 3D */
    max_w = HG_PROFILE_IMAGE3D_MAX_WIDTH, max_h = HG_PROFILE_IMAGE3D_MAX_HEIGHT, need_h = true;
    max_d = HG_PROFILE_IMAGE3D_MAX_DEPTH, need_d = true;
  }
  if (w == 0 || w > max_w || (need_h && (h == 0 || h > max_h)) || (need_d && (depth == 0 || depth > max_d)) ||
      (need_n && (n == 0 || n > max_n)))
    return CL_INVALID_IMAGE_SIZE;
  return CL_SUCCESS;
}

static bool type_valid(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
         t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

/* The packed layout of a valid description. */
static void layout_make(const cl_image_desc *d, const cl_image_format *f, hg_image_layout *l) {
  cl_mem_object_type t = d->image_type;
  *l = (hg_image_layout){.type = t, .format = *f, .width = d->image_width, .height = 1, .depth = 1, .array_size = 1};
  if (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D)
    l->height = d->image_height;
  if (t == CL_MEM_OBJECT_IMAGE3D)
    l->depth = d->image_depth;
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    l->array_size = d->image_array_size;
  l->pixel_size = hg_image_pixel_size(f);
  l->row_pitch = l->width * l->pixel_size;
  l->slice_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY                                   ? l->row_pitch
                   : t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D ? l->row_pitch * l->height
                                                                                    : 0;
  size_t ext[3];
  hg_image_extent(l, ext);
  l->size = l->row_pitch * ext[1] * ext[2];
}

/* The host memory's pitches (application's image_row_pitch and image_slice_pitch, zeros
 * replaced) as steps between rows and slices of the rectangle; CL_INVALID_IMAGE_DESCRIPTOR
 * when they break the rules. */
static cl_int host_pitches(const cl_image_desc *d, const hg_image_layout *l, bool has_ptr, size_t *row,
                           size_t *slice) {
  size_t rp = d->image_row_pitch, sp = d->image_slice_pitch;
  if (!has_ptr && (rp || sp))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (rp && (rp < l->row_pitch || rp % l->pixel_size))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!rp)
    rp = l->row_pitch;
  bool layered = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || l->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                 l->type == CL_MEM_OBJECT_IMAGE3D;
  size_t min_sp = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rp : rp * l->height;
  if (layered && sp && (sp < min_sp || sp % rp))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!layered || !sp)
    sp = min_sp;
  /* a 1D array's layers are the rectangle's rows */
  *row = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sp : rp;
  *slice = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sp * l->array_size : sp;
  return CL_SUCCESS;
}

/* The packed contents of host memory with these pitches (malloc'd). */
static void *pack_host(const hg_image_layout *l, const void *host, size_t row, size_t slice) {
  uint8_t *packed = malloc(l->size);
  if (!packed)
    return NULL;
  size_t ext[3];
  hg_image_extent(l, ext);
  for (size_t z = 0; z < ext[2]; z++)
    for (size_t y = 0; y < ext[1]; y++)
      memcpy(packed + (z * ext[1] + y) * l->row_pitch, (const uint8_t *)host + z * slice + y * row, l->row_pitch);
  return packed;
}

/* Every check of clCreateImage in one place; fills the layout and the flags the image gets. */
static cl_int image_check(cl_context context, const cl_mem_properties *properties, cl_mem_flags *flags,
                          const cl_image_format *format, const cl_image_desc *desc, void *host_ptr,
                          hg_image_layout *layout) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (!hg_profile_images())
    return CL_INVALID_OPERATION;
  if (properties && properties[0] != 0)
    return CL_INVALID_PROPERTY; /* no image property is offered */
  if (!hg_mem_flags_valid(*flags))
    return CL_INVALID_VALUE;
  if (!format_valid(format))
    return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  if (!desc || !type_valid(desc->image_type) || desc->num_mip_levels || desc->num_samples)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  cl_mem buffer = desc->mem_object;
  bool from_buffer = desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if (from_buffer != (buffer != NULL)) /* no image from another image, no image2d_from_buffer */
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (from_buffer && (!hg_object_is(buffer, HG_OBJ_MEM) || buffer->image || buffer->context != context))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  if (from_buffer) {
    cl_mem_flags inherited = hg_mem_flags_from_buffer(buffer->flags, *flags);
    if (!inherited)
      return CL_INVALID_VALUE;
    *flags = inherited;
  }
  if (!hg_image_format_supported(format))
    return CL_IMAGE_FORMAT_NOT_SUPPORTED;
  cl_int err = size_check(desc);
  if (err != CL_SUCCESS)
    return err;
  layout_make(desc, format, layout);
  if (layout->size > hg_profile_max_mem_alloc_size())
    return CL_INVALID_IMAGE_SIZE;
  if (from_buffer) {
    if (desc->image_row_pitch || desc->image_slice_pitch)
      return CL_INVALID_IMAGE_DESCRIPTOR;
    if (layout->size > buffer->size)
      return CL_INVALID_IMAGE_SIZE;
    if (host_ptr)
      return CL_INVALID_HOST_PTR;
    return CL_SUCCESS;
  }
  bool wants_ptr = *flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_ptr != (host_ptr != NULL))
    return CL_INVALID_HOST_PTR;
  size_t row, slice;
  return host_pitches(desc, layout, host_ptr != NULL, &row, &slice);
}

/* ---- creation ---- */

static cl_mem image_create(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                           const cl_image_format *format, const cl_image_desc *desc, void *host_ptr,
                           cl_int *errcode_ret) {
  hg_image_layout layout;
  cl_mem mem = NULL;
  void *packed = NULL;
  cl_int err = image_check(context, properties, &flags, format, desc, host_ptr, &layout);
  if (err != CL_SUCCESS)
    goto fail;
  if (!(mem = hg_mem_new(context, flags, layout.size)) || !(mem->image = calloc(1, sizeof *mem->image))) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  hg_mem_image *im = mem->image;
  im->layout = layout;
  im->format = *format;
  im->desc = *desc;
  if (properties) {
    if (!(mem->properties = malloc(sizeof *properties))) {
      err = CL_OUT_OF_HOST_MEMORY;
      goto fail;
    }
    mem->properties[0] = 0;
    mem->num_properties = 1;
  }
  cl_mem buffer = desc->mem_object;
  if (layout.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) { /* a view of the buffer's bytes */
    mem->parent = buffer;
    mem->origin = buffer->origin;
    mem->storage = buffer->storage;
    if (buffer->host_ptr)
      mem->host_ptr = buffer->host_ptr;
    if ((err = hg_context_track(context, mem, CL_OBJECT_MEM_HETGPU)) != CL_SUCCESS)
      goto fail;
    hg_mem_retain(buffer);
  } else {
    host_pitches(desc, &layout, host_ptr != NULL, &im->host_row_pitch, &im->host_slice_pitch);
    if (flags & CL_MEM_USE_HOST_PTR)
      mem->host_ptr = host_ptr;
    if (host_ptr && !(packed = pack_host(&layout, host_ptr, im->host_row_pitch, im->host_slice_pitch))) {
      err = CL_OUT_OF_HOST_MEMORY;
      goto fail;
    }
    /* inside the placement gate, as buffers: a migration moves the new image or finds it there */
    hg_backend *be = hg_placement_enter(&context->placement);
    err = hg_mem_storage_create_image(&im->layout, be, packed, &mem->storage);
    if (err == CL_SUCCESS && (err = hg_context_track(context, mem, CL_OBJECT_MEM_HETGPU)) != CL_SUCCESS) {
      hg_mem_storage_destroy(mem->storage);
      mem->storage = NULL;
    }
    hg_placement_leave(&context->placement);
    free(packed);
    packed = NULL;
    if (err != CL_SUCCESS)
      goto fail;
  }
  hg_context_retain(context);
  hg_object_init(&mem->obj, HG_OBJ_MEM);
  HG_LOG(HG_LOG_MEM, "image %p: type 0x%x, %zu x %zu x %zu (%zu layers), %zu bytes, flags 0x%llx", (void *)mem,
         (unsigned)layout.type, layout.width, layout.height, layout.depth, layout.array_size, layout.size,
         (unsigned long long)flags);
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return mem;

fail:
  if (mem) {
    pthread_mutex_destroy(&mem->lock);
    free(mem->properties);
    free(mem->image);
    free(mem);
  }
  HG_LOG(HG_LOG_API, "clCreateImage: error %d", err);
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                              const cl_image_format *image_format, const cl_image_desc *image_desc,
                                              void *host_ptr, cl_int *errcode_ret) {
  return image_create(context, NULL, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                                                            cl_mem_flags flags, const cl_image_format *image_format,
                                                            const cl_image_desc *image_desc, void *host_ptr,
                                                            cl_int *errcode_ret) {
  return image_create(context, properties, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = image_width, .image_height = image_height,
                     .image_row_pitch = image_row_pitch};
  return image_create(context, NULL, flags, image_format, &d, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  if (image_depth <= 1 && hg_object_is(context, HG_OBJ_CONTEXT) && hg_profile_images()) {
    HG_SET_ERR(errcode_ret, CL_INVALID_IMAGE_SIZE); /* OpenCL 1.1: a 3D image has a depth > 1 */
    return NULL;
  }
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = image_width, .image_height = image_height,
                     .image_depth = image_depth, .image_row_pitch = image_row_pitch,
                     .image_slice_pitch = image_slice_pitch};
  return image_create(context, NULL, flags, image_format, &d, host_ptr, errcode_ret);
}

/* ---- queries ---- */

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                               void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_MEM(image, CL_INVALID_MEM_OBJECT);
  if (!image->image)
    return CL_INVALID_MEM_OBJECT;
  const hg_mem_image *im = image->image;
  const hg_image_layout *l = &im->layout;
  cl_mem_object_type t = l->type;
  bool use_host = image->host_ptr && !hg_mem_is_buffer_image(image);
  switch (param_name) {
  case CL_IMAGE_FORMAT:
    HG_INFO_VALUE(cl_image_format, im->format);
  case CL_IMAGE_ELEMENT_SIZE:
    HG_INFO_VALUE(size_t, l->pixel_size);
  case CL_IMAGE_ROW_PITCH: /* of the application's memory where the image uses it */
    HG_INFO_VALUE(size_t, use_host && t != CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->host_row_pitch : l->row_pitch);
  case CL_IMAGE_SLICE_PITCH: {
    size_t sp = l->slice_pitch;
    if (use_host && t == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      sp = im->host_row_pitch; /* the step between its layers */
    else if (use_host && sp)
      sp = im->host_slice_pitch;
    HG_INFO_VALUE(size_t, sp);
  }
  case CL_IMAGE_WIDTH:
    HG_INFO_VALUE(size_t, l->width);
  case CL_IMAGE_HEIGHT:
    HG_INFO_VALUE(size_t, t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D
                              ? l->height
                              : 0);
  case CL_IMAGE_DEPTH:
    HG_INFO_VALUE(size_t, t == CL_MEM_OBJECT_IMAGE3D ? l->depth : 0);
  case CL_IMAGE_ARRAY_SIZE:
    HG_INFO_VALUE(size_t, t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? l->array_size : 0);
  case CL_IMAGE_BUFFER:
    HG_INFO_VALUE(cl_mem, hg_mem_is_buffer_image(image) ? image->parent : NULL);
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    HG_INFO_VALUE(cl_uint, 0);
  default:
    return CL_INVALID_VALUE;
  }
}
