/* The device has no images: zero supported formats, image creation refused as the
 * specification says for a context whose devices do not support images. */
#include "harness.h"

HG_TEST(no_image_formats) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL supports images");
    return;
  }
  cl_bool images = CL_TRUE;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  CHECK(images == CL_FALSE);
  cl_context ctx = hg_test_context();
  cl_uint n = 77;
  CHECK_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
  CHECK(n == 0);
  cl_image_format fmt[4];
  CHECK_CL(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D, 4, fmt, &n));
  CHECK(n == 0);
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, fmt, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, NULL, &n), CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetSupportedImageFormats((cl_context)hg_test_device, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
            CL_INVALID_CONTEXT);
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 16};
  cl_int err = CL_SUCCESS;
  CHECK(clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err) == NULL && err == CL_INVALID_OPERATION);
  CHECK(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err) == NULL &&
        err == CL_INVALID_OPERATION);
  clReleaseContext(ctx);
}
