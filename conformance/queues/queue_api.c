/* Command queue entry points: creation (both forms), every property rule, queries, reference
 * counting, flush/finish, and release with commands still pending. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static cl_command_queue_properties device_host_queue_props(void) {
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL);
  return p;
}

HG_TEST(create_with_properties_valid) {
  cl_context ctx = hg_test_context();
  cl_command_queue_properties supported = device_host_queue_props();
  cl_command_queue_properties variants[] = {0, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                            CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
  for (int i = 0; i < 4; i++) {
    if ((variants[i] & supported) != variants[i])
      continue;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, variants[i], 0};
    cl_int err = -1;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, hg_test_device, props, &err);
    CHECK_CL(err);
    CHECK(q != NULL);
    cl_context qctx = NULL;
    cl_device_id qdev = NULL;
    cl_uint refs = 0;
    cl_command_queue_properties qp = 99;
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL));
    CHECK(qctx == ctx);
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL));
    CHECK(qdev == hg_test_device);
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 1);
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
    CHECK(qp == variants[i]);
    size_t n = 0;
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &n));
    CHECK(n == sizeof props);
    cl_queue_properties back[3] = {7, 7, 7};
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, NULL));
    CHECK(memcmp(back, props, sizeof props) == 0);
    cl_command_queue dq = (cl_command_queue)(uintptr_t)1;
    CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, NULL));
    CHECK(dq == NULL);
    if (hg_test_is_hetgpu()) {
      cl_uint size;
      CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof size, &size, NULL), CL_INVALID_COMMAND_QUEUE);
    }
    CHECK_CL(clFinish(q));
    CHECK_CL(clReleaseCommandQueue(q));
  }
  /* NULL properties: in-order, no profiling, empty properties array. errcode_ret may be NULL. */
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, hg_test_device, NULL, NULL);
  CHECK(q != NULL);
  cl_command_queue_properties qp = 99;
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
  CHECK(qp == 0);
  size_t n = 99;
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &n));
  CHECK(n == 0);
  CHECK_CL(clReleaseCommandQueue(q));
  /* An empty list (just the terminator) is valid too. */
  cl_queue_properties empty[] = {0};
  cl_int err;
  q = clCreateCommandQueueWithProperties(ctx, hg_test_device, empty, &err);
  CHECK_CL(err);
  CHECK_CL(clReleaseCommandQueue(q));
  clReleaseContext(ctx);
}

HG_TEST(create_with_properties_invalid) {
  cl_context ctx = hg_test_context();
  cl_int err = 0;
  CHECK(clCreateCommandQueueWithProperties(NULL, hg_test_device, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  if (hg_test_is_hetgpu()) { /* PoCL does not check handle types */
    CHECK(clCreateCommandQueueWithProperties((cl_context)hg_test_device, hg_test_device, NULL, &err) == NULL);
    CHECK(err == CL_INVALID_CONTEXT);
  }
  CHECK(clCreateCommandQueueWithProperties(ctx, NULL, NULL, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  if (hg_test_is_hetgpu()) {
    /* A handle that is not a device at all (the ICD loader would crash on it elsewhere). */
    CHECK(clCreateCommandQueueWithProperties(ctx, (cl_device_id)ctx, NULL, &err) == NULL);
    CHECK(err == CL_INVALID_DEVICE);
  }
  cl_queue_properties unknown_name[] = {0x7777, 1, 0};
  CHECK(clCreateCommandQueueWithProperties(ctx, hg_test_device, unknown_name, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  cl_queue_properties unknown_bits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0};
  CHECK(clCreateCommandQueueWithProperties(ctx, hg_test_device, unknown_bits, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  if (hg_test_is_hetgpu()) { /* PoCL accepts CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE */
    cl_queue_properties size_alone[] = {CL_QUEUE_SIZE, 1024, 0};
    CHECK(clCreateCommandQueueWithProperties(ctx, hg_test_device, size_alone, &err) == NULL);
    CHECK(err == CL_INVALID_VALUE);
  }
  cl_queue_properties default_without_device[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE_DEFAULT, 0};
  if (hg_test_is_hetgpu()) { /* PoCL accepts ON_DEVICE_DEFAULT without ON_DEVICE */
    CHECK(clCreateCommandQueueWithProperties(ctx, hg_test_device, default_without_device, &err) == NULL);
    CHECK(err == CL_INVALID_VALUE);
  }
  cl_command_queue_properties on_device = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof on_device, &on_device, NULL);
  if (!on_device && hg_test_is_hetgpu()) { /* PoCL exits on CL_QUEUE_ON_DEVICE */
    cl_queue_properties dev[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
    CHECK(clCreateCommandQueueWithProperties(ctx, hg_test_device, dev, &err) == NULL);
    CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
    cl_queue_properties dev_size[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, CL_QUEUE_SIZE, 1024, 0};
    CHECK(clCreateCommandQueueWithProperties(ctx, hg_test_device, dev_size, &err) == NULL);
    CHECK(err == CL_INVALID_QUEUE_PROPERTIES);
  }
  clReleaseContext(ctx);
}

HG_TEST(create_deprecated_form) {
  cl_context ctx = hg_test_context();
  cl_int err = -1;
  cl_command_queue q = clCreateCommandQueue(ctx, hg_test_device, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK_CL(err);
  cl_command_queue_properties qp = 0;
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
  CHECK(qp == CL_QUEUE_PROFILING_ENABLE);
  size_t n = 99;
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &n));
  CHECK(n == 0);
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK(clCreateCommandQueue(NULL, hg_test_device, 0, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK(clCreateCommandQueue(ctx, NULL, 0, &err) == NULL);
  CHECK(err == CL_INVALID_DEVICE);
  CHECK(clCreateCommandQueue(ctx, hg_test_device, (cl_command_queue_properties)1 << 40, &err) == NULL);
  CHECK(err == CL_INVALID_VALUE);
  clReleaseContext(ctx);
}

HG_TEST(info_errors) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_context c;
  CHECK_ERR(clGetCommandQueueInfo(q, 0x7fff, sizeof c, &c, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c - 1, &c, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, sizeof c, &c, NULL), CL_INVALID_COMMAND_QUEUE);
  size_t n = 0;
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 0, NULL, &n));
  CHECK(n == sizeof(cl_context));
  CHECK_CL(clReleaseCommandQueue(q));
  clReleaseContext(ctx);
}

HG_TEST(retain_release) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_uint refs = 0;
  CHECK_CL(clRetainCommandQueue(q));
  CHECK_CL(clRetainCommandQueue(q));
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 3);
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK_ERR(clRetainCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  if (hg_test_is_hetgpu())
    CHECK_ERR(clRetainCommandQueue((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  clReleaseContext(ctx);
}

HG_TEST(flush_finish) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  CHECK_CL(clFlush(q));
  CHECK_CL(clFinish(q));
  cl_event m;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
  CHECK_CL(clFlush(q));
  CHECK_CL(clFinish(q));
  cl_int st = -99;
  CHECK_CL(clGetEventInfo(m, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK(st == CL_COMPLETE);
  CHECK_CL(clReleaseEvent(m));
  CHECK_ERR(clFlush(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
  if (hg_test_is_hetgpu())
    CHECK_ERR(clFinish((cl_command_queue)ctx), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clReleaseCommandQueue(q));
  clReleaseContext(ctx);
}

HG_TEST(set_property_deprecated) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_command_queue_properties old;
  CHECK_ERR(clSetCommandQueueProperty(NULL, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_INVALID_COMMAND_QUEUE);
  if (hg_test_is_hetgpu())
    CHECK_ERR(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_INVALID_OPERATION);
  CHECK_CL(clReleaseCommandQueue(q));
  clReleaseContext(ctx);
}

HG_TEST(set_default_device_queue) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  CHECK_ERR(clSetDefaultDeviceCommandQueue(NULL, hg_test_device, q), CL_INVALID_CONTEXT);
  if (hg_test_is_hetgpu()) /* PoCL answers CL_INVALID_OPERATION before checking the device */
    CHECK_ERR(clSetDefaultDeviceCommandQueue(ctx, NULL, q), CL_INVALID_DEVICE);
  if (hg_test_is_hetgpu())
    CHECK_ERR(clSetDefaultDeviceCommandQueue(ctx, hg_test_device, q), CL_INVALID_OPERATION);
  CHECK_CL(clReleaseCommandQueue(q));
  clReleaseContext(ctx);
}

/* Releasing a queue whose commands still wait: they run once unblocked, and their events stay
 * usable after the queue's last reference is gone. */
HG_TEST(release_with_pending_commands) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  enum { N = 32 };
  cl_event ev[N];
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &gate, &ev[0]));
  for (int i = 1; i < N; i++)
    CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev[i]));
  CHECK_CL(clReleaseCommandQueue(q));
  cl_int st;
  CHECK_CL(clGetEventInfo(ev[N - 1], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK(st != CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(N, ev));
  for (int i = 0; i < N; i++) {
    CHECK_CL(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_COMPLETE);
    cl_command_queue eq = NULL;
    CHECK_CL(clGetEventInfo(ev[i], CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
    CHECK(eq == q);
    CHECK_CL(clReleaseEvent(ev[i]));
  }
  CHECK_CL(clReleaseEvent(gate));
  clReleaseContext(ctx);
}
