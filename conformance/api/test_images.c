/* The device has no images nor pipes: zero supported formats, image, sampler and pipe creation
 * refused as the specification says for a context whose devices do not support them. */
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
  err = CL_SUCCESS; /* the entry points of OpenCL 2.0 must set errcode_ret too (CTS api consistency_pipes) */
  cl_sampler_properties sp[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  CHECK(clCreateSamplerWithProperties(ctx, sp, &err) == NULL && err == CL_INVALID_OPERATION);
  clReleaseContext(ctx);
}

/* No device of the context supports pipes (CL_DEVICE_PIPE_SUPPORT false): clCreatePipe fails
 * with CL_INVALID_OPERATION and says so through errcode_ret. */
HG_TEST(no_pipes) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU's own answers");
    return;
  }
  cl_bool pipes = CL_TRUE;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_PIPE_SUPPORT, sizeof pipes, &pipes, NULL));
  CHECK(pipes == CL_FALSE);
  cl_context ctx = hg_test_context();
  cl_int err = CL_SUCCESS;
  CHECK(clCreatePipe(ctx, CL_MEM_READ_WRITE, 4, 16, NULL, &err) == NULL && err == CL_INVALID_OPERATION);
  clReleaseContext(ctx);
}
