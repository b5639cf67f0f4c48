/* clGetSupportedImageFormats: the virtual device supports no images (CL_DEVICE_IMAGE_SUPPORT is
 * CL_FALSE), so every valid query reports zero formats; the other image entry points are in
 * icd/unsupported.c. */
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
  if (num_image_formats)
    *num_image_formats = 0;
  return CL_SUCCESS;
}
