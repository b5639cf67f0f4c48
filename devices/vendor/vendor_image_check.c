/* Whether a vendor device can give the virtual device's images (docs/images.md, "The profile"):
 * image support, the profile's image limits, and every format of common/image_format.h for
 * every image type with the access flags kernels use it with. The first thing missing is
 * logged, and the backend then reports no images (the platform does not admit it). */
#include <stdlib.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"
#include "common/profile_limits.h"

static bool limit_at_least(hg_vendor_backend *vb, cl_device_info what, const char *name, size_t want, bool uint) {
  cl_uint u = 0;
  size_t z = 0;
  cl_int err = uint ? VCL(vb->device)->clGetDeviceInfo(vb->device, what, sizeof u, &u, NULL)
                    : VCL(vb->device)->clGetDeviceInfo(vb->device, what, sizeof z, &z, NULL);
  size_t have = uint ? u : z;
  if (err == CL_SUCCESS && have >= want)
    return true;
  HG_LOG(HG_LOG_BACKEND, "%s: no images: CL_DEVICE_%s is %zu (%d), the profile needs %zu", vb->base.name, name, have,
         err, want);
  return false;
}

/* Every profile format among the vendor's for this type and flags. */
static bool formats_supported(hg_vendor_backend *vb, cl_mem_object_type type, cl_mem_flags flags) {
  cl_uint n = 0;
  cl_int err = VCL(vb->context)->clGetSupportedImageFormats(vb->context, flags, type, 0, NULL, &n);
  cl_image_format *have = err == CL_SUCCESS && n ? calloc(n, sizeof *have) : NULL;
  if (have)
    err = VCL(vb->context)->clGetSupportedImageFormats(vb->context, flags, type, n, have, NULL);
  bool ok = have && err == CL_SUCCESS;
  for (unsigned f = 0; ok && f < hg_image_format_count; f++) {
    const cl_image_format *want = &hg_image_formats[f];
    cl_uint i = 0;
    while (i < n && !(have[i].image_channel_order == want->image_channel_order &&
                      have[i].image_channel_data_type == want->image_channel_data_type))
      i++;
    if (i == n) {
      HG_LOG(HG_LOG_BACKEND, "%s: no images: format 0x%x/0x%x missing for type 0x%x, flags 0x%llx", vb->base.name,
             (unsigned)want->image_channel_order, (unsigned)want->image_channel_data_type, (unsigned)type,
             (unsigned long long)flags);
      ok = false;
    }
  }
  if (!have)
    HG_LOG(HG_LOG_BACKEND, "%s: no images: no formats for type 0x%x, flags 0x%llx (%d)", vb->base.name,
           (unsigned)type, (unsigned long long)flags, err);
  free(have);
  return ok;
}

/* Whether the vendor makes a 1D buffer image over a sub-buffer (at its base alignment). */
static bool views_of_sub_buffers(hg_vendor_backend *vb) {
  size_t align = vb->base.limits.mem_base_addr_align_bits / 8 ? vb->base.limits.mem_base_addr_align_bits / 8 : 1;
  cl_int err = CL_SUCCESS;
  cl_mem buffer = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, 2 * align + 64, NULL, &err);
  cl_buffer_region region = {align, align + 64};
  cl_mem sub = buffer ? VCL(buffer)->clCreateSubBuffer(buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) : NULL;
  cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16, .buffer = sub};
  cl_mem image = sub ? VCL(vb->context)->clCreateImage(vb->context, CL_MEM_READ_WRITE, &format, &desc, NULL, &err) : NULL;
  if (!image)
    HG_LOG(HG_LOG_BACKEND, "%s: no 1D buffer images over sub-buffers (%d): such arguments at offsets run on copies",
           vb->base.name, err);
  if (image)
    VCL(image)->clReleaseMemObject(image);
  if (sub)
    VCL(sub)->clReleaseMemObject(sub);
  if (buffer)
    VCL(buffer)->clReleaseMemObject(buffer);
  return image != NULL;
}

bool hg_vendor_images_supported(hg_vendor_backend *vb) {
  cl_bool support = CL_FALSE;
  if (VCL(vb->device)->clGetDeviceInfo(vb->device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL) !=
          CL_SUCCESS ||
      !support) {
    HG_LOG(HG_LOG_BACKEND, "%s: no images: CL_DEVICE_IMAGE_SUPPORT false", vb->base.name);
    return false;
  }
  vb->image_views_of_sub_buffers = views_of_sub_buffers(vb);
  static const struct {
    cl_device_info what;
    const char *name;
    size_t want;
    bool uint;
  } limits[] = {
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, "IMAGE2D_MAX_WIDTH", HG_PROFILE_IMAGE2D_MAX_WIDTH, false},
      {CL_DEVICE_IMAGE2D_MAX_HEIGHT, "IMAGE2D_MAX_HEIGHT", HG_PROFILE_IMAGE2D_MAX_HEIGHT, false},
      {CL_DEVICE_IMAGE3D_MAX_WIDTH, "IMAGE3D_MAX_WIDTH", HG_PROFILE_IMAGE3D_MAX_WIDTH, false},
      {CL_DEVICE_IMAGE3D_MAX_HEIGHT, "IMAGE3D_MAX_HEIGHT", HG_PROFILE_IMAGE3D_MAX_HEIGHT, false},
      {CL_DEVICE_IMAGE3D_MAX_DEPTH, "IMAGE3D_MAX_DEPTH", HG_PROFILE_IMAGE3D_MAX_DEPTH, false},
      {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, "IMAGE_MAX_BUFFER_SIZE", HG_PROFILE_IMAGE_MAX_BUFFER_SIZE, false},
      {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "IMAGE_MAX_ARRAY_SIZE", HG_PROFILE_IMAGE_MAX_ARRAY_SIZE, false},
      {CL_DEVICE_MAX_READ_IMAGE_ARGS, "MAX_READ_IMAGE_ARGS", HG_PROFILE_MAX_READ_IMAGE_ARGS, true},
      {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, "MAX_WRITE_IMAGE_ARGS", HG_PROFILE_MAX_WRITE_IMAGE_ARGS, true},
      {CL_DEVICE_MAX_SAMPLERS, "MAX_SAMPLERS", HG_PROFILE_MAX_SAMPLERS, true},
  };
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
    if (!limit_at_least(vb, limits[i].what, limits[i].name, limits[i].want, limits[i].uint))
      return false;
  /* kernels read every type and write every type but 3D (the profile has no 3D writes); the
   * allocations are read-write images but 3D ones, read-only (vendor_image.c) */
  static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                             CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                             CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    if (!formats_supported(vb, types[t], CL_MEM_READ_ONLY))
      return false;
    if (types[t] != CL_MEM_OBJECT_IMAGE3D && (!formats_supported(vb, types[t], CL_MEM_WRITE_ONLY) ||
                                              !formats_supported(vb, types[t], CL_MEM_READ_WRITE)))
      return false;
  }
  return true;
}
