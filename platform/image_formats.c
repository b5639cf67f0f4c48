/* clGetSupportedImageFormats: the virtual device's one list (common/image_format.c), the same for
 * every image type and flag; none while the device has no images (hg_profile_images). */
#include "common/image_format.h"
#include "devices/profile.h"
#include "platform/object.h"
#include "platform/platform.h"

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type, cl_uint num_entries,
                                                           cl_image_format *image_formats,
                                                           cl_uint *num_image_formats) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
                             CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |
                             CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE;
  if (flags & ~known)
    return CL_INVALID_VALUE;
  switch (image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    break;
  default:
    return CL_INVALID_VALUE;
  }
  if (num_entries == 0 && image_formats)
    return CL_INVALID_VALUE;
  cl_uint count = hg_profile_images() ? hg_image_format_count : 0;
  for (cl_uint i = 0; image_formats && i < count && i < num_entries; i++)
    image_formats[i] = hg_image_formats[i];
  if (num_image_formats)
    *num_image_formats = count;
  return CL_SUCCESS;
}
