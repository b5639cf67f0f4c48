/* Dependencies between queues: completion in dependency order across two queues, user events
 * gating another queue, and failure propagating through wait lists. */
#include <stdatomic.h>
#include <stdlib.h>

#include "harness.h"

static cl_int status_of(cl_event e) {
  cl_int st = 1234;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return st;
}

typedef struct dep_check {
  cl_event preds[2];
  int npreds;
  atomic_int violations, calls;
} dep_check;

static void CL_CALLBACK check_preds(cl_event e, cl_int status, void *data) {
  dep_check *d = data;
  for (int i = 0; i < d->npreds; i++)
    if (status_of(d->preds[i]) != CL_COMPLETE)
      atomic_fetch_add(&d->violations, 1);
  atomic_fetch_add(&d->calls, 1);
}

/* A random DAG over two queues (and both kinds of queue): every node waits on up to two earlier
 * nodes from either queue; its CL_COMPLETE callback checks that they completed first. */
HG_TEST(two_queue_dependency_order) {
  cl_context ctx = hg_test_context();
  cl_command_queue qs[2] = {hg_test_queue(ctx, 0), hg_test_queue(ctx, 0)};
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL);
  if (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    clReleaseCommandQueue(qs[1]);
    qs[1] = hg_test_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  }
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  enum { N = 300 };
  cl_event ev[N];
  dep_check *dc = calloc(N, sizeof *dc);
  for (int i = 0; i < N; i++) {
    dc[i].npreds = 0;
    if (i == 0) {
      dc[i].preds[dc[i].npreds++] = gate;
    } else {
      int k = 1 + (int)(hg_test_rand() % 2);
      for (int j = 0; j < k; j++)
        dc[i].preds[dc[i].npreds++] = ev[hg_test_rand() % i];
    }
    CHECK_CL(clEnqueueMarkerWithWaitList(qs[hg_test_rand() % 2], (cl_uint)dc[i].npreds, dc[i].preds, &ev[i]));
    CHECK_CL(clSetEventCallback(ev[i], CL_COMPLETE, check_preds, &dc[i]));
  }
  CHECK_CL(clFlush(qs[0]));
  CHECK_CL(clFlush(qs[1]));
  CHECK(status_of(ev[0]) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(N, ev));
  for (int i = 0; i < N; i++) {
    while (atomic_load(&dc[i].calls) < 1)
      ;
    CHECK_MSG(atomic_load(&dc[i].violations) == 0, "event %d completed before a dependency", i);
    CHECK(atomic_load(&dc[i].calls) == 1);
    CHECK(status_of(ev[i]) == CL_COMPLETE);
  }
  for (int i = 0; i < N; i++)
    clReleaseEvent(ev[i]);
  free(dc);
  clReleaseEvent(gate);
  clFinish(qs[0]);
  clFinish(qs[1]);
  clReleaseCommandQueue(qs[0]);
  clReleaseCommandQueue(qs[1]);
  clReleaseContext(ctx);
}

HG_TEST(user_event_gates_other_queue) {
  cl_context ctx = hg_test_context();
  cl_command_queue q1 = hg_test_queue(ctx, 0), q2 = hg_test_queue(ctx, 0);
  cl_int err;
  cl_event u = clCreateUserEvent(ctx, &err);
  cl_event on_q2, after_q2, q1_free;
  CHECK_CL(clEnqueueMarkerWithWaitList(q2, 1, &u, &on_q2));
  CHECK_CL(clEnqueueMarkerWithWaitList(q2, 0, NULL, &after_q2));
  /* q1 is not held back by q2's gate. */
  CHECK_CL(clEnqueueMarkerWithWaitList(q1, 0, NULL, &q1_free));
  CHECK_CL(clFinish(q1));
  CHECK(status_of(q1_free) == CL_COMPLETE);
  CHECK(status_of(on_q2) > CL_COMPLETE);
  CHECK(status_of(after_q2) > CL_COMPLETE);
  /* A command on q1 waiting for q2's gated marker. */
  cl_event cross;
  CHECK_CL(clEnqueueMarkerWithWaitList(q1, 1, &after_q2, &cross));
  CHECK(status_of(cross) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_CL(clFinish(q1));
  CHECK(status_of(cross) == CL_COMPLETE);
  CHECK(status_of(on_q2) == CL_COMPLETE);
  CHECK(status_of(after_q2) == CL_COMPLETE);
  clReleaseEvent(u);
  clReleaseEvent(on_q2);
  clReleaseEvent(after_q2);
  clReleaseEvent(q1_free);
  clReleaseEvent(cross);
  clReleaseCommandQueue(q1);
  clReleaseCommandQueue(q2);
  clReleaseContext(ctx);
}

HG_TEST(failed_user_event_propagates) {
  cl_context ctx = hg_test_context();
  cl_command_queue q1 = hg_test_queue(ctx, 0), q2 = hg_test_queue(ctx, 0);
  cl_int err;
  cl_event u = clCreateUserEvent(ctx, &err);
  cl_event direct, chained, cross;
  CHECK_CL(clEnqueueMarkerWithWaitList(q1, 1, &u, &direct));
  CHECK_CL(clEnqueueMarkerWithWaitList(q1, 1, &direct, &chained));
  CHECK_CL(clEnqueueMarkerWithWaitList(q2, 1, &chained, &cross));
  CHECK_CL(clSetUserEventStatus(u, -77));
  CHECK_ERR(clWaitForEvents(1, &direct), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_ERR(clWaitForEvents(1, &cross), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_event both[2] = {direct, chained};
  CHECK_ERR(clWaitForEvents(2, both), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status_of(direct) < 0);
  CHECK(status_of(chained) < 0);
  CHECK(status_of(cross) < 0);
  if (hg_test_is_hetgpu()) {
    CHECK(status_of(direct) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(status_of(cross) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* Only wait lists propagate failure: the in-order successor with no list still runs. */
    cl_event next;
    CHECK_CL(clEnqueueMarkerWithWaitList(q1, 0, NULL, &next));
    CHECK_CL(clWaitForEvents(1, &next));
    clReleaseEvent(next);
    cl_ulong t;
    CHECK_ERR(clGetEventProfilingInfo(direct, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
              CL_PROFILING_INFO_NOT_AVAILABLE);
  }
  CHECK_CL(clFinish(q1));
  CHECK_CL(clFinish(q2));
  clReleaseEvent(u);
  clReleaseEvent(direct);
  clReleaseEvent(chained);
  clReleaseEvent(cross);
  clReleaseCommandQueue(q1);
  clReleaseCommandQueue(q2);
  clReleaseContext(ctx);
}
