/* Blocking calls from event callbacks (issue 12 row 11). The specification leaves clFinish,
 * clWaitForEvents and blocking enqueues inside a callback undefined; hetGPU runs callbacks on
 * the thread that drives the queue, so such a call waiting for that queue could never return.
 * It fails with CL_INVALID_OPERATION instead, on every backend; a wait that needs nothing from
 * the calling thread (the callback's own, already complete event; a queue whose commands were
 * released by a user event) still works. Every wait runs under an alarm: a hang fails the test. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_alarm.h"

typedef struct inside {
  cl_command_queue q;
  cl_mem buf;
  cl_event later;        /* a command of the same queue that cannot have run yet */
  cl_int finish, wait_later, wait_self, blocking_read, calls;
} inside;

static void CL_CALLBACK block_inside(cl_event ev, cl_int status, void *data) {
  inside *in = data;
  int word = 0;
  in->finish = clFinish(in->q);
  in->wait_later = clWaitForEvents(1, &in->later);
  in->wait_self = status == CL_COMPLETE ? clWaitForEvents(1, &ev) : CL_SUCCESS;
  in->blocking_read = clEnqueueReadBuffer(in->q, in->buf, CL_TRUE, 0, sizeof word, &word, 0, NULL, NULL);
  in->calls++;
}

static const char *source = "__kernel void inc(__global int *p) { p[get_global_id(0)] += 1; }\n";

/* Runs one command whose callback (for `when`) makes the blocking calls, with a later command
 * of the same queue held back by a user event; `kernel` picks a kernel launch, else a write. */
static void check_callback(cl_command_queue_properties props, cl_int when, bool kernel) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, props);
  cl_int err;
  int host[64] = {0};
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_CL(err);
  cl_program prog = NULL;
  cl_kernel k = NULL;
  if (kernel) {
    hg_alarm(300, "clBuildProgram");
    prog = hg_test_build(ctx, source, NULL);
    CHECK(prog);
    k = clCreateKernel(prog, "inc", &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  }
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  inside in = {.q = q, .buf = buf, .calls = 0};
  cl_event first;
  size_t global = 64;
  hg_alarm(120, "a callback making blocking calls");
  /* first waits on the gate too, so its callback is registered before it can run */
  if (kernel)
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &gate, &first));
  else
    CHECK_CL(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof host, host, 1, &gate, &first));
  int word = 7;
  CHECK_CL(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof word, &word, 1, &gate, &in.later));
  CHECK_CL(clSetEventCallback(first, when, block_inside, &in));
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &first));
  CHECK_CL(clFinish(q));
  hg_alarm(0, "");
  CHECK_MSG(in.calls == 1, "callback called %d times", in.calls);
  CHECK_MSG(in.finish == CL_INVALID_OPERATION, "clFinish in the callback: %d", in.finish);
  CHECK_MSG(in.blocking_read == CL_INVALID_OPERATION, "blocking read in the callback: %d", in.blocking_read);
  /* in order, the later command waits for the callback's thread; out of order it may be done */
  bool in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK_MSG(in.wait_later == CL_INVALID_OPERATION || (!in_order && in.wait_later == CL_SUCCESS),
            "clWaitForEvents on a later command of the queue in the callback: %d", in.wait_later);
  CHECK_MSG(in.wait_self == CL_SUCCESS, "clWaitForEvents on the callback's own complete event: %d", in.wait_self);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  bool first_word_ok = host[0] == 7 || (!in_order && kernel && host[0] == 8);
  CHECK_MSG(first_word_ok && host[1] == (kernel ? 1 : 0), "the queue's commands after the callback: %d %d", host[0],
            host[1]);
  clReleaseEvent(first);
  clReleaseEvent(in.later);
  clReleaseEvent(gate);
  if (k)
    clReleaseKernel(k);
  if (prog)
    clReleaseProgram(prog);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(finish_in_complete_callback_of_a_write) { check_callback(0, CL_COMPLETE, false); }
HG_TEST(finish_in_complete_callback_of_a_kernel) { check_callback(0, CL_COMPLETE, true); }
HG_TEST(finish_in_running_callback_of_a_kernel) { check_callback(0, CL_RUNNING, true); }
HG_TEST(finish_in_callback_out_of_order_queue) {
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL);
  if (!(p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    hg_test_skip("no out-of-order queues");
    return;
  }
  check_callback(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_COMPLETE, true);
}

typedef struct user_inside {
  cl_command_queue q;
  cl_int finish;
} user_inside;

static void CL_CALLBACK finish_from_user_event(cl_event ev, cl_int status, void *data) {
  (void)ev, (void)status;
  user_inside *u = data;
  u->finish = clFinish(u->q);
}

/* A user event's callback runs on the application's thread, which drives no queue: clFinish
 * there waits for the commands the user event released, and returns. */
HG_TEST(finish_in_user_event_callback_waits) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  int host[16] = {0}, word = 5;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_CL(err);
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof word, &word, 1, &gate, NULL));
  user_inside u = {.q = q, .finish = 1};
  CHECK_CL(clSetEventCallback(gate, CL_COMPLETE, finish_from_user_event, &u));
  hg_alarm(120, "clFinish in a user event's callback");
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clFinish(q));
  hg_alarm(0, "");
  CHECK_MSG(u.finish == CL_SUCCESS, "clFinish in the user event's callback: %d", u.finish);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  CHECK(host[0] == 5);
  clReleaseEvent(gate);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
