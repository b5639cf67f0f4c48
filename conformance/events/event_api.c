/* Event entry points: user events, queries, reference counts, waiting, callbacks, profiling,
 * markers/barriers' argument rules, and the native-kernel entry point. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static cl_int status_of(cl_event e) {
  cl_int st = 1234;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return st;
}

HG_TEST(user_event_basics) {
  cl_context ctx = hg_test_context();
  cl_int err = -1;
  cl_event u = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  cl_command_queue q = (cl_command_queue)(uintptr_t)1;
  CHECK_CL(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
  CHECK(q == NULL);
  cl_context c = NULL;
  CHECK_CL(clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof c, &c, NULL));
  CHECK(c == ctx);
  cl_command_type t = 0;
  CHECK_CL(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_COMMAND_USER);
  CHECK(status_of(u) == CL_SUBMITTED);
  cl_uint refs = 0;
  CHECK_CL(clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  CHECK_ERR(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
  CHECK_ERR(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
  CHECK_ERR(clSetUserEventStatus(u, 7), CL_INVALID_VALUE);
  CHECK(status_of(u) == CL_SUBMITTED);
  CHECK_CL(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(status_of(u) == CL_COMPLETE);
  CHECK_ERR(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  CHECK_ERR(clSetUserEventStatus(u, -5), CL_INVALID_OPERATION);
  CHECK_CL(clWaitForEvents(1, &u));
  cl_ulong ts;
  CHECK_ERR(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof ts, &ts, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  CHECK_CL(clReleaseEvent(u));

  /* A failed user event. */
  u = clCreateUserEvent(ctx, NULL);
  CHECK(u != NULL);
  CHECK_CL(clSetUserEventStatus(u, -1234));
  CHECK(status_of(u) == -1234);
  CHECK_ERR(clWaitForEvents(1, &u), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_CL(clReleaseEvent(u));

  CHECK(clCreateUserEvent(NULL, &err) == NULL);
  CHECK(err == CL_INVALID_CONTEXT);
  CHECK_ERR(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
  /* Not a user event. */
  cl_command_queue qq = hg_test_queue(ctx, 0);
  cl_event m;
  CHECK_CL(clEnqueueMarkerWithWaitList(qq, 0, NULL, &m));
  CHECK_ERR(clSetUserEventStatus(m, CL_COMPLETE), CL_INVALID_EVENT);
  CHECK_CL(clWaitForEvents(1, &m));
  CHECK_CL(clReleaseEvent(m));
  clReleaseCommandQueue(qq);
  clReleaseContext(ctx);
}

HG_TEST(event_info_and_refcount) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_event m, b;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
  CHECK_CL(clEnqueueBarrierWithWaitList(q, 0, NULL, &b));
  CHECK_CL(clFinish(q));
  cl_command_queue eq = NULL;
  CHECK_CL(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
  CHECK(eq == q);
  cl_context c = NULL;
  CHECK_CL(clGetEventInfo(m, CL_EVENT_CONTEXT, sizeof c, &c, NULL));
  CHECK(c == ctx);
  cl_command_type t = 0;
  CHECK_CL(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_COMMAND_MARKER);
  CHECK_CL(clGetEventInfo(b, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_COMMAND_BARRIER);
  CHECK(status_of(m) == CL_COMPLETE);
  cl_uint refs;
  CHECK_CL(clRetainEvent(m));
  CHECK_CL(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  CHECK_CL(clReleaseEvent(m));
  CHECK_CL(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  size_t n = 0;
  CHECK_CL(clGetEventInfo(m, CL_EVENT_COMMAND_EXECUTION_STATUS, 0, NULL, &n));
  CHECK(n == sizeof(cl_int));
  CHECK_ERR(clGetEventInfo(m, 0x7fff, sizeof t, &t, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetEventInfo(m, CL_EVENT_CONTEXT, sizeof c - 1, &c, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetEventInfo(NULL, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_INVALID_EVENT);
  CHECK_ERR(clRetainEvent(NULL), CL_INVALID_EVENT);
  CHECK_ERR(clReleaseEvent(NULL), CL_INVALID_EVENT);
  if (hg_test_is_hetgpu())
    CHECK_ERR(clRetainEvent((cl_event)q), CL_INVALID_EVENT);
  CHECK_CL(clReleaseEvent(m));
  CHECK_CL(clReleaseEvent(b));
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(wait_for_events_errors) {
  cl_context ctx = hg_test_context(), ctx2 = hg_test_context();
  cl_event u1 = clCreateUserEvent(ctx, NULL), u2 = clCreateUserEvent(ctx2, NULL);
  CHECK_ERR(clWaitForEvents(0, &u1), CL_INVALID_VALUE);
  CHECK_ERR(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
  cl_event with_null[2] = {u1, NULL};
  CHECK_ERR(clWaitForEvents(2, with_null), CL_INVALID_EVENT);
  cl_event mixed[2] = {u1, u2};
  CHECK_ERR(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
  CHECK_CL(clSetUserEventStatus(u1, CL_COMPLETE));
  CHECK_CL(clSetUserEventStatus(u2, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &u1));
  clReleaseEvent(u1);
  clReleaseEvent(u2);
  clReleaseContext(ctx);
  clReleaseContext(ctx2);
}

typedef struct cb_counts {
  atomic_int submitted, running, complete, total;
  atomic_int complete_status; /* status the CL_COMPLETE callback received */
} cb_counts;

static void CL_CALLBACK count_cb(cl_event e, cl_int status, void *data) {
  cb_counts *c = data;
  if (status == CL_SUBMITTED)
    atomic_fetch_add(&c->submitted, 1);
  else if (status == CL_RUNNING)
    atomic_fetch_add(&c->running, 1);
  else {
    atomic_fetch_add(&c->complete, 1);
    atomic_store(&c->complete_status, status);
  }
  atomic_fetch_add(&c->total, 1);
}

static void wait_total(cb_counts *c, int want) {
  while (atomic_load(&c->total) < want)
    ;
}

HG_TEST(callbacks_once_each) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_event gate = clCreateUserEvent(ctx, NULL), m;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &gate, &m));
  cb_counts c = {0};
  CHECK_CL(clSetEventCallback(m, CL_SUBMITTED, count_cb, &c));
  CHECK_CL(clSetEventCallback(m, CL_RUNNING, count_cb, &c));
  CHECK_CL(clSetEventCallback(m, CL_COMPLETE, count_cb, &c));
  CHECK_CL(clSetEventCallback(m, CL_COMPLETE, count_cb, &c));
  CHECK(atomic_load(&c.complete) == 0);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &m));
  wait_total(&c, 4);
  /* Registered after completion: called at once. */
  CHECK_CL(clSetEventCallback(m, CL_SUBMITTED, count_cb, &c));
  CHECK_CL(clSetEventCallback(m, CL_COMPLETE, count_cb, &c));
  wait_total(&c, 6);
  CHECK(atomic_load(&c.submitted) == 2);
  CHECK(atomic_load(&c.running) == 1);
  CHECK(atomic_load(&c.complete) == 3);
  CHECK(atomic_load(&c.complete_status) == CL_COMPLETE);
  /* Callbacks on user events too. */
  cb_counts uc = {0};
  cl_event u = clCreateUserEvent(ctx, NULL);
  CHECK_CL(clSetEventCallback(u, CL_COMPLETE, count_cb, &uc));
  CHECK_CL(clSetEventCallback(u, CL_SUBMITTED, count_cb, &uc));
  wait_total(&uc, 1); /* already submitted */
  CHECK(atomic_load(&uc.complete) == 0);
  CHECK_CL(clSetUserEventStatus(u, CL_COMPLETE));
  wait_total(&uc, 2);
  CHECK(atomic_load(&uc.complete) == 1);
  CHECK(atomic_load(&uc.submitted) == 1);
  /* Argument errors. */
  CHECK_ERR(clSetEventCallback(NULL, CL_COMPLETE, count_cb, &c), CL_INVALID_EVENT);
  CHECK_ERR(clSetEventCallback(m, CL_COMPLETE, NULL, &c), CL_INVALID_VALUE);
  CHECK_ERR(clSetEventCallback(m, CL_QUEUED, count_cb, &c), CL_INVALID_VALUE);
  CHECK_ERR(clSetEventCallback(m, 77, count_cb, &c), CL_INVALID_VALUE);
  CHECK(atomic_load(&c.total) == 6);
  clReleaseEvent(u);
  clReleaseEvent(m);
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(failed_event_callbacks) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL never calls CL_COMPLETE callbacks of a user event set to an error");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_event u = clCreateUserEvent(ctx, NULL);
  cb_counts c = {0};
  CHECK_CL(clSetEventCallback(u, CL_COMPLETE, count_cb, &c));
  CHECK_CL(clSetUserEventStatus(u, -42));
  wait_total(&c, 1);
  CHECK(atomic_load(&c.complete_status) == -42);
  /* After the failure: at once, with the error. */
  CHECK_CL(clSetEventCallback(u, CL_COMPLETE, count_cb, &c));
  wait_total(&c, 2);
  CHECK(atomic_load(&c.complete_status) == -42);
  CHECK(atomic_load(&c.complete) == 2);
  clReleaseEvent(u);
  clReleaseContext(ctx);
}

HG_TEST(profiling_timestamps) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_event gate = clCreateUserEvent(ctx, NULL);
  enum { N = 16 };
  cl_event ev[N];
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &gate, &ev[0]));
  for (int i = 1; i < N; i++)
    CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev[i]));
  cl_ulong t;
  /* Not complete yet. */
  CHECK_ERR(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(N, ev));
  const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                     CL_PROFILING_COMMAND_COMPLETE};
  cl_ulong prev_end = 0;
  for (int i = 0; i < N; i++) {
    cl_ulong ts[5];
    for (int k = 0; k < 5; k++) {
      size_t n = 0;
      CHECK_CL(clGetEventProfilingInfo(ev[i], names[k], sizeof ts[k], &ts[k], &n));
      CHECK(n == sizeof(cl_ulong));
    }
    for (int k = 1; k < 5; k++)
      CHECK_MSG(ts[k - 1] <= ts[k], "event %d: timestamp %d (%llu) > timestamp %d (%llu)", i, k - 1,
                (unsigned long long)ts[k - 1], k, (unsigned long long)ts[k]);
    CHECK(ts[0] > 0);
    /* In order: each starts after the previous ended. */
    CHECK(ts[2] >= prev_end);
    prev_end = ts[3];
  }
  CHECK_ERR(clGetEventProfilingInfo(ev[0], 0x7fff, sizeof t, &t, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_END, sizeof t - 1, &t, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL), CL_INVALID_EVENT);
  for (int i = 0; i < N; i++)
    clReleaseEvent(ev[i]);
  clReleaseCommandQueue(q);

  /* Without CL_QUEUE_PROFILING_ENABLE. */
  q = hg_test_queue(ctx, 0);
  cl_event m;
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
  CHECK_CL(clWaitForEvents(1, &m));
  CHECK_ERR(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  clReleaseEvent(m);
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(marker_barrier_arguments) {
  cl_context ctx = hg_test_context(), ctx2 = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_event u = clCreateUserEvent(ctx, NULL), other = clCreateUserEvent(ctx2, NULL), e = NULL;
  CHECK_ERR(clEnqueueMarkerWithWaitList(NULL, 0, NULL, &e), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, NULL, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, &u, &e), CL_INVALID_EVENT_WAIT_LIST);
  cl_event bad[2] = {u, NULL};
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 2, bad, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &other, &e), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueBarrierWithWaitList(NULL, 0, NULL, &e), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 1, NULL, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 0, &u, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 2, bad, &e), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueBarrierWithWaitList(q, 1, &other, &e), CL_INVALID_CONTEXT);
  CHECK(e == NULL);
  CHECK_ERR(clEnqueueMarker(NULL, &e), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueBarrier(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueWaitForEvents(NULL, 1, &u), CL_INVALID_COMMAND_QUEUE);
  if (hg_test_is_hetgpu()) { /* PoCL answers CL_INVALID_EVENT_WAIT_LIST; the spec says CL_INVALID_VALUE */
    CHECK_ERR(clEnqueueWaitForEvents(q, 0, &u), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWaitForEvents(q, 1, NULL), CL_INVALID_VALUE);
  }
  if (hg_test_is_hetgpu()) { /* PoCL answers CL_INVALID_EVENT_WAIT_LIST for the first */
    CHECK_ERR(clEnqueueWaitForEvents(q, 2, bad), CL_INVALID_EVENT);
  }
  CHECK_ERR(clEnqueueWaitForEvents(q, 1, &other), CL_INVALID_CONTEXT);
  /* Valid forms, including no event out. */
  CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, NULL));
  CHECK_CL(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
  CHECK_CL(clEnqueueMarker(q, &e));
  cl_command_type t = 0;
  CHECK_CL(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_COMMAND_MARKER);
  CHECK_CL(clFinish(q));
  CHECK(status_of(e) == CL_COMPLETE);
  clReleaseEvent(e);
  CHECK_CL(clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_CL(clSetUserEventStatus(other, CL_COMPLETE));
  clReleaseEvent(u);
  clReleaseEvent(other);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  clReleaseContext(ctx2);
}

/* A status query alone brings a command to CL_COMPLETE (as hashcat waits for its kernels:
 * polling the status, asleep in between), with its results and profiling times in place:
 * launches of a kernel with local memory and a barrier, each step's input the previous step's
 * output, polled and never waited for. */
static const char *poll_src =
    "__kernel void poll_step(__global const uint *in, __global uint *out, __local uint *tile, uint k) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);\n"
    "  tile[l] = in[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = tile[n - 1 - l] * 2654435761u + k + tile[l]; }\n";

static void poll_until_final(cl_event e) {
  cl_int st;
  do {
    st = status_of(e);
  } while (st > CL_COMPLETE);
  CHECK_MSG(st == CL_COMPLETE, "status %d", st);
}

HG_TEST(status_polled_to_complete) {
  enum { GROUP = 64, WORDS = GROUP * 37, STEPS = 24 };
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_program prog = hg_test_build(ctx, poll_src, "");
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "poll_step", &err);
  CHECK_CL(err);
  cl_uint *host = malloc(WORDS * sizeof *host), *want = malloc(WORDS * sizeof *want),
          *next = malloc(WORDS * sizeof *next), *got = malloc(WORDS * sizeof *got);
  hg_test_fill_random(host, WORDS * sizeof *host);
  for (int i = 0; i < WORDS; i++)
    want[i] = host[i];
  cl_mem buf[2];
  buf[0] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, WORDS * sizeof *host, host, &err);
  CHECK_CL(err);
  memset(host, 0xA5, WORDS * sizeof *host); /* the second buffer starts poisoned */
  buf[1] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, WORDS * sizeof *host, host, &err);
  CHECK_CL(err);
  cl_event ev[STEPS];
  size_t global = WORDS, local = GROUP;
  for (int s = 0; s < STEPS; s++) {
    cl_uint kk = (cl_uint)s * 7u + 1u;
    CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &buf[s % 2]));
    CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &buf[(s + 1) % 2]));
    CHECK_CL(clSetKernelArg(k, 2, GROUP * sizeof(cl_uint), NULL));
    CHECK_CL(clSetKernelArg(k, 3, sizeof kk, &kk));
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev[s]));
    for (int g = 0; g < WORDS / GROUP; g++)
      for (int l = 0; l < GROUP; l++)
        next[g * GROUP + l] = want[g * GROUP + GROUP - 1 - l] * 2654435761u + kk + want[g * GROUP + l];
    memcpy(want, next, WORDS * sizeof *want);
  }
  CHECK_CL(clFlush(q));
  poll_until_final(ev[STEPS - 1]);
  cl_ulong prev_end = 0;
  for (int s = 0; s < STEPS; s++) {
    CHECK(status_of(ev[s]) == CL_COMPLETE); /* in order: every earlier launch ended too */
    cl_ulong start = 0, end = 0;
    CHECK_CL(clGetEventProfilingInfo(ev[s], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK_CL(clGetEventProfilingInfo(ev[s], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(start <= end && start >= prev_end);
    prev_end = end;
    clReleaseEvent(ev[s]);
  }
  memset(got, 0x5A, WORDS * sizeof *got);
  cl_event read;
  CHECK_CL(clEnqueueReadBuffer(q, buf[STEPS % 2], CL_FALSE, 0, WORDS * sizeof *got, got, 0, NULL, &read));
  CHECK_CL(clFlush(q));
  poll_until_final(read);
  int wrong = 0;
  for (int i = 0; i < WORDS; i++)
    wrong += got[i] != want[i];
  CHECK_MSG(wrong == 0, "%d of %d words differ from the host's", wrong, WORDS);
  clReleaseEvent(read);
  clReleaseMemObject(buf[0]);
  clReleaseMemObject(buf[1]);
  free(host);
  free(want);
  free(next);
  free(got);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static void CL_CALLBACK native_fn(void *args) {}

HG_TEST(native_kernel) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  int arg = 1;
  CHECK_ERR(clEnqueueNativeKernel(NULL, native_fn, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  cl_device_exec_capabilities caps = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL));
  if (!(caps & CL_EXEC_NATIVE_KERNEL)) {
    CHECK_ERR(clEnqueueNativeKernel(q, native_fn, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL),
              CL_INVALID_OPERATION);
  }
  if (hg_test_is_hetgpu()) {
    CHECK_ERR(clEnqueueNativeKernel(q, NULL, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, native_fn, NULL, 4, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueNativeKernel(q, native_fn, &arg, sizeof arg, 0, NULL, NULL, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
