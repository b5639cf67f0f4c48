/* Released handles of every type are rejected with the type's CL_INVALID_* code, through the
 * ICD loader (which reads the handle's dispatch pointer before the driver sees the call). */
#include "harness.h"

HG_TEST(released_handles_rejected) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("released-handle checks are hetGPU behaviour (undefined in the specification)");
    return;
  }
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
  CHECK_CL(err);
  cl_mem sub;
  cl_buffer_region region = {0, 1024};
  sub = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_CL(err);
  cl_event user = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  cl_event marker;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker));
  CHECK_CL(clFinish(q));
  const char *src = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }";
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
  cl_kernel kern = clCreateKernel(prog, "k", &err);
  CHECK_CL(err);

  CHECK_CL(clReleaseKernel(kern));
  CHECK_ERR(clRetainKernel(kern), CL_INVALID_KERNEL);
  CHECK_ERR(clSetKernelArg(kern, 0, sizeof buf, &buf), CL_INVALID_KERNEL);
  CHECK_CL(clReleaseProgram(prog));
  CHECK_ERR(clRetainProgram(prog), CL_INVALID_PROGRAM);
  CHECK_ERR(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  CHECK_CL(clSetUserEventStatus(user, CL_COMPLETE));
  CHECK_CL(clReleaseEvent(user));
  CHECK_CL(clReleaseEvent(marker));
  CHECK_ERR(clRetainEvent(marker), CL_INVALID_EVENT);
  CHECK_ERR(clWaitForEvents(1, &user), CL_INVALID_EVENT);
  CHECK_CL(clReleaseMemObject(sub));
  CHECK_CL(clReleaseMemObject(buf));
  CHECK_ERR(clRetainMemObject(buf), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clRetainMemObject(sub), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK_ERR(clRetainCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clFinish(q), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clReleaseContext(ctx));
  CHECK_ERR(clRetainContext(ctx), CL_INVALID_CONTEXT);
  size_t size;
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, 0, NULL, &size), CL_INVALID_CONTEXT);
}

/* Handles of the wrong type get the code of the expected type. */
HG_TEST(wrong_type_handles_rejected) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL does not check handle types");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  CHECK_ERR(clRetainMemObject((cl_mem)q), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clRetainKernel((cl_kernel)ctx), CL_INVALID_KERNEL);
  CHECK_ERR(clRetainProgram((cl_program)q), CL_INVALID_PROGRAM);
  CHECK_ERR(clRetainEvent((cl_event)ctx), CL_INVALID_EVENT);
  CHECK_ERR(clFinish((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clRetainContext((cl_context)q), CL_INVALID_CONTEXT);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
