/* Execution order: in-order queues run each command after the previous one; out-of-order
 * queues run commands as their dependencies allow, with markers and barriers that wait for
 * everything enqueued before them. Order is observed without timing: each command's
 * CL_COMPLETE callback checks that every command it must follow is already complete. */
#include <stdatomic.h>
#include <stdlib.h>

#include "harness.h"

static cl_int status_of(cl_event e) {
  cl_int st = 1234;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return st;
}

typedef struct order_check {
  cl_event *must_follow;
  int count;
  atomic_int violations;
  atomic_int calls;
} order_check;

static void CL_CALLBACK check_followed(cl_event e, cl_int status, void *data) {
  order_check *oc = data;
  for (int i = 0; i < oc->count; i++)
    if (status_of(oc->must_follow[i]) != CL_COMPLETE)
      atomic_fetch_add(&oc->violations, 1);
  atomic_fetch_add(&oc->calls, 1);
}

static void wait_calls(atomic_int *calls, int want) {
  /* Callbacks may run after clWaitForEvents returns on other platforms: wait for them. */
  while (atomic_load(calls) < want)
    ;
}

HG_TEST(in_order_chain) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  enum { N = 200 };
  cl_event ev[N];
  order_check oc[N];
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &gate, &ev[0]));
  for (int i = 1; i < N; i++) {
    /* Mix markers, barriers and marker-with-list; all must run in order. */
    switch (hg_test_rand() % 3) {
    case 0: CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev[i])); break;
    case 1: CHECK_CL(clEnqueueBarrierWithWaitList(q, 0, NULL, &ev[i])); break;
    default: CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &ev[hg_test_rand() % i], &ev[i])); break;
    }
  }
  for (int i = 0; i < N; i++) {
    oc[i].must_follow = ev;
    oc[i].count = i;
    atomic_init(&oc[i].violations, 0);
    atomic_init(&oc[i].calls, 0);
    CHECK_CL(clSetEventCallback(ev[i], CL_COMPLETE, check_followed, &oc[i]));
  }
  /* Nothing can finish before the gate opens. */
  for (int i = 0; i < N; i++)
    CHECK(status_of(ev[i]) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clFinish(q));
  for (int i = 0; i < N; i++) {
    CHECK(status_of(ev[i]) == CL_COMPLETE);
    wait_calls(&oc[i].calls, 1);
    CHECK_MSG(atomic_load(&oc[i].violations) == 0, "command %d completed before an earlier one", i);
    CHECK(atomic_load(&oc[i].calls) == 1);
    clReleaseEvent(ev[i]);
  }
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static bool has_ooo(void) {
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL);
  return (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

HG_TEST(out_of_order_independent) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL's markers wait for every earlier command on out-of-order queues");
    return;
  }
  if (!has_ooo()) {
    hg_test_skip("no out-of-order queues");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err;
  cl_event u1 = clCreateUserEvent(ctx, &err), u2 = clCreateUserEvent(ctx, &err);
  cl_event a, b;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &u1, &a));
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &u2, &b));
  /* b was enqueued after a but does not depend on it: it completes while a waits. */
  CHECK_CL(clSetUserEventStatus(u2, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &b));
  CHECK(status_of(a) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(u1, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &a));
  clReleaseEvent(a);
  clReleaseEvent(b);
  clReleaseEvent(u1);
  clReleaseEvent(u2);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(out_of_order_barriers) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL's markers wait for every earlier command on out-of-order queues");
    return;
  }
  if (!has_ooo()) {
    hg_test_skip("no out-of-order queues");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int err;
  for (int round = 0; round < 20; round++) {
    enum { K = 8 };
    cl_event gates[K], before[K], barrier, marker_all, after[K];
    for (int i = 0; i < K; i++) {
      gates[i] = clCreateUserEvent(ctx, &err);
      CHECK_CL(err);
      CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &gates[i], &before[i]));
    }
    /* A marker with an empty list waits for all of them but does not hold back later work. */
    CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker_all));
    /* The barrier waits for everything before it; everything after waits for the barrier. */
    if (round % 2)
      CHECK_CL(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier));
    else
      CHECK_CL(clEnqueueBarrierWithWaitList(q, K, before, &barrier));
    for (int i = 0; i < K; i++)
      CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &after[i]));
    /* Open the gates in random order except one; nothing past the barrier may complete. */
    int last = (int)(hg_test_rand() % K);
    for (int i = 0; i < K; i++)
      if (i != last)
        CHECK_CL(clSetUserEventStatus(gates[i], CL_COMPLETE));
    for (int i = 0; i < K; i++)
      if (i != last)
        CHECK_CL(clWaitForEvents(1, &before[i]));
    CHECK(status_of(marker_all) > CL_COMPLETE);
    CHECK(status_of(barrier) > CL_COMPLETE);
    for (int i = 0; i < K; i++)
      CHECK(status_of(after[i]) > CL_COMPLETE);
    CHECK_CL(clSetUserEventStatus(gates[last], CL_COMPLETE));
    CHECK_CL(clWaitForEvents(K, after));
    CHECK(status_of(barrier) == CL_COMPLETE);
    CHECK_CL(clWaitForEvents(1, &marker_all));
    for (int i = 0; i < K; i++) {
      clReleaseEvent(gates[i]);
      clReleaseEvent(before[i]);
      clReleaseEvent(after[i]);
    }
    clReleaseEvent(barrier);
    clReleaseEvent(marker_all);
  }
  /* The deprecated forms: clEnqueueBarrier and clEnqueueWaitForEvents hold back later work,
   * clEnqueueMarker waits for everything before it. */
  cl_event g = clCreateUserEvent(ctx, &err), first, m, later;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &g, &first));
  CHECK_CL(clEnqueueBarrier(q));
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &later));
  CHECK_CL(clEnqueueMarker(q, &m));
  CHECK(status_of(later) > CL_COMPLETE);
  CHECK(status_of(m) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(g, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &m));
  CHECK(status_of(later) == CL_COMPLETE);
  cl_event g2 = clCreateUserEvent(ctx, &err), after2;
  CHECK_CL(clEnqueueWaitForEvents(q, 1, &g2));
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &after2));
  CHECK(status_of(after2) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(g2, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &after2));
  CHECK_CL(clFinish(q));
  clReleaseEvent(g);
  clReleaseEvent(g2);
  clReleaseEvent(first);
  clReleaseEvent(m);
  clReleaseEvent(later);
  clReleaseEvent(after2);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
