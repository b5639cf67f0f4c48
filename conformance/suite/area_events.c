/* Area events: ordering through events. Wait lists across two queues (a chain of commands
 * alternating between them, each waiting for the previous one), user events holding kernels
 * back until they are set (and terminating them when set to an error), markers and barriers
 * on in-order and out-of-order queues, event callbacks (every status, registered before and
 * after completion), event info, and clWaitForEvents over many events. Results are checked
 * with non-commutative updates, so a command that ran out of order shows. The error codes of
 * each call are the platform team's tests (conformance/events, queues). */
#include "suite.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ev_affine: x[i] = x[i] * a + b (with a odd and the steps in a fixed order, the result tells
 * whether every step ran, once, in order). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("", "");
  suite_batch_add(b, "ev_affine", "__kernel void ev_affine(__global uint *x, uint a, uint b) {\n"
                                  "  size_t i = get_global_id(0);\n  x[i] = x[i] * a + b;\n}\n");
  suite_batch_add(b, "ev_spin", "__kernel void ev_spin(__global uint *x, uint rounds) {\n"
                                "  size_t i = get_global_id(0);\n  uint v = x[i];\n"
                                "  for (uint r = 0; r < rounds; r++) v = v * 1664525u + 1013904223u;\n  x[i] = v;\n}\n");
  return b;
}

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static cl_command_queue new_queue(cl_command_queue_properties props) {
  cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(S.ctx, S.device, props ? p : NULL, &err);
  if (err != CL_SUCCESS)
    suite_fail("clCreateCommandQueueWithProperties(0x%llx): %d", (unsigned long long)props, err);
  return q;
}

static bool ooo_supported(void) {
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL);
  return (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

/* Enqueues ev_affine(m, a, b) on q after the wait list; k's arguments are set here (a kernel's
 * arguments are captured at enqueue). */
static cl_int affine(cl_command_queue q, cl_kernel k, cl_mem m, uint32_t a, uint32_t b, size_t n, cl_uint nw,
                     const cl_event *wl, cl_event *ev) {
  cl_int err = clSetKernelArg(k, 0, sizeof m, &m);
  if (err == CL_SUCCESS) err = clSetKernelArg(k, 1, 4, &a);
  if (err == CL_SUCCESS) err = clSetKernelArg(k, 2, 4, &b);
  if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, nw, wl, ev);
  return err;
}

static bool check_words(const uint32_t *got, const uint32_t *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      suite_fail("%s: word %zu is 0x%x, expected 0x%x", what, i, got[i], want[i]);
      return false;
    }
  return true;
}

/* A chain of 40 steps alternating between two in-order queues, each waiting for the previous
 * step's event; writes, kernels and copies; nothing waits on the host until the end. */
SUITE_TEST(events, wait_lists_across_queues) {
  size_t n = 4096, bytes = n * 4;
  cl_command_queue q2 = new_queue(0);
  cl_kernel k1 = q2 ? suite_batch_kernel(batch(), "ev_affine") : NULL, k2 = k1 ? suite_batch_kernel(batch(), "ev_affine") : NULL;
  uint32_t *model = malloc(bytes), *init = malloc(bytes), *back = malloc(bytes);
  suite_fill(init, bytes);
  memcpy(model, init, bytes);
  cl_mem m = suite_buffer(bytes, NULL), m2 = suite_buffer(bytes, NULL);
  cl_event prev = NULL, evs[64];
  int ne = 0;
  if (!k2 || !m || !m2)
    goto out;
  CL_OK(clEnqueueWriteBuffer(q2, m, CL_FALSE, 0, bytes, init, 0, NULL, &evs[ne]));
  prev = evs[ne++];
  for (int s = 0; s < 40 && !suite_failed(); s++) {
    cl_command_queue q = (s & 1) ? q2 : S.q;
    cl_kernel k = (s & 1) ? k2 : k1;
    cl_event ev = NULL;
    cl_int err;
    if (s % 10 == 9) { /* a copy there and back in the middle of the chain */
      err = clEnqueueCopyBuffer(q, m, m2, 0, 0, bytes, 1, &prev, &ev);
      if (err == CL_SUCCESS) {
        cl_event mid = ev;
        err = clEnqueueCopyBuffer(q == S.q ? q2 : S.q, m2, m, 0, 0, bytes, 1, &mid, &ev);
        clReleaseEvent(mid);
      }
    } else {
      uint32_t a = 2 * suite_rand() + 1, b = suite_rand();
      err = affine(q, k, m, a, b, n, 1, &prev, &ev);
      for (size_t i = 0; i < n; i++)
        model[i] = model[i] * a + b;
    }
    if (err != CL_SUCCESS) {
      suite_fail("step %d: %d", s, err);
      break;
    }
    clFlush(q);
    evs[ne++] = ev;
    prev = ev;
  }
  if (!suite_failed()) {
    CL_OK(clEnqueueReadBuffer(q2, m, CL_FALSE, 0, bytes, back, 1, &prev, NULL));
    CL_OK(clFinish(q2));
    cl_int st = 0;
    clGetEventInfo(prev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (st != CL_COMPLETE)
      suite_fail("the last step's event status is %d after the read that waited for it", st);
    else
      check_words(back, model, n, "after 40 steps across two queues");
  }
out:
  clFinish(S.q);
  for (int i = 0; i < ne; i++)
    clReleaseEvent(evs[i]);
  if (k1) clReleaseKernel(k1);
  if (k2) clReleaseKernel(k2);
  if (m) clReleaseMemObject(m);
  if (m2) clReleaseMemObject(m2);
  if (q2) clReleaseCommandQueue(q2);
  free(model), free(init), free(back);
}

/* A user event holds a kernel (and everything after it on that in-order queue) back. */
SUITE_TEST(events, user_event_gates_kernel) {
  size_t n = 2048, bytes = n * 4;
  cl_int err;
  cl_event user = clCreateUserEvent(S.ctx, &err);
  CL_OK(err);
  cl_command_queue q2 = new_queue(0);
  cl_kernel k = q2 ? suite_batch_kernel(batch(), "ev_affine") : NULL;
  uint32_t *init = malloc(bytes), *back = malloc(bytes), *model = malloc(bytes);
  suite_fill(init, bytes);
  memcpy(model, init, bytes);
  cl_mem m = suite_buffer(bytes, init);
  cl_event ek = NULL, er = NULL;
  if (!k || !m)
    goto out;
  cl_int st = 0;
  clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  cl_command_type ct = 0;
  clGetEventInfo(user, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
  cl_command_queue uq = (cl_command_queue)1;
  clGetEventInfo(user, CL_EVENT_COMMAND_QUEUE, sizeof uq, &uq, NULL);
  REQUIRE(st == CL_SUBMITTED && ct == CL_COMMAND_USER && uq == NULL, "new user event: status %d, type 0x%x, queue %p", st, ct,
          (void *)uq);
  uint32_t a = 2 * suite_rand() + 1, b = suite_rand();
  CL_OK(affine(q2, k, m, a, b, n, 1, &user, &ek));
  CL_OK(clEnqueueReadBuffer(q2, m, CL_FALSE, 0, bytes, back, 0, NULL, &er));
  CL_OK(clFlush(q2));
  for (size_t i = 0; i < n; i++)
    model[i] = model[i] * a + b;
  sleep_ms(100); /* time enough to run, were the kernel not held back */
  clGetEventInfo(ek, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  cl_int st2 = 0;
  clGetEventInfo(er, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st2, &st2, NULL);
  if (st == CL_COMPLETE || st < 0 || st2 == CL_COMPLETE) {
    suite_fail("before the user event is set: kernel status %d, read status %d", st, st2);
    clSetUserEventStatus(user, CL_COMPLETE);
    goto out;
  }
  /* the buffer still holds the initial data (read on the other queue) */
  uint32_t *now = malloc(bytes);
  if (clEnqueueReadBuffer(S.q, m, CL_TRUE, 0, bytes, now, 0, NULL, NULL) == CL_SUCCESS)
    check_words(now, init, n, "buffer while the kernel waits for the user event");
  free(now);
  CL_OK(clSetUserEventStatus(user, CL_COMPLETE));
  CL_OK(clWaitForEvents(1, &er));
  clGetEventInfo(ek, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  if (st != CL_COMPLETE)
    suite_fail("kernel status %d after the read behind it completed", st);
  else
    check_words(back, model, n, "after the user event was set");
out:
  if (ek) clReleaseEvent(ek);
  if (er) clReleaseEvent(er);
  clReleaseEvent(user);
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
  if (q2) { clFinish(q2); clReleaseCommandQueue(q2); }
  free(init), free(back), free(model);
}

/* A user event set to an error terminates the commands waiting for it: they never run and
 * waiting for them reports the failure. */
SUITE_TEST(events, user_event_error_terminates) {
  size_t n = 1024, bytes = n * 4;
  cl_int err;
  cl_event user = clCreateUserEvent(S.ctx, &err);
  CL_OK(err);
  cl_command_queue q2 = new_queue(0);
  cl_kernel k = q2 ? suite_batch_kernel(batch(), "ev_affine") : NULL;
  uint32_t *init = malloc(bytes), *back = malloc(bytes);
  suite_fill(init, bytes);
  cl_mem m = suite_buffer(bytes, init);
  cl_event ek = NULL;
  if (k && m) {
    err = affine(q2, k, m, 3, 1, n, 1, &user, &ek);
    if (err != CL_SUCCESS)
      suite_fail("enqueue: %d", err);
    else {
      clFlush(q2);
      CL_OK(clSetUserEventStatus(user, -1234));
      err = clWaitForEvents(1, &ek);
      cl_int st = 0;
      clGetEventInfo(ek, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
      if (err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        suite_fail("clWaitForEvents on a command behind a failed user event: %d, expected "
                   "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
                   err);
      else if (st >= 0)
        suite_fail("status of a command behind a failed user event: %d (expected an error)", st);
      else if (clEnqueueReadBuffer(S.q, m, CL_TRUE, 0, bytes, back, 0, NULL, NULL) == CL_SUCCESS)
        check_words(back, init, n, "buffer of a terminated kernel");
    }
  }
  if (ek) clReleaseEvent(ek);
  clReleaseEvent(user);
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
  if (q2) clReleaseCommandQueue(q2);
  free(init), free(back);
}

/* Markers and barriers. In order: a marker completes after everything before it. Out of order
 * (when supported): a barrier separates two kernels that would otherwise be free to swap. */
SUITE_TEST(events, markers_and_barriers) {
  size_t n = 4096, bytes = n * 4;
  cl_kernel k = suite_batch_kernel(batch(), "ev_affine");
  uint32_t *model = malloc(bytes), *back = malloc(bytes);
  suite_fill(model, bytes);
  cl_mem m = suite_buffer(bytes, model);
  cl_event evs[8] = {0}, marker = NULL;
  cl_command_queue ooo = NULL;
  if (!k || !m)
    goto out;
  for (int s = 0; s < 8; s++) {
    uint32_t a = 2 * suite_rand() + 1, b = suite_rand();
    CL_OK(affine(S.q, k, m, a, b, n, 0, NULL, &evs[s]));
    for (size_t i = 0; i < n; i++)
      model[i] = model[i] * a + b;
  }
  CL_OK(clEnqueueMarkerWithWaitList(S.q, 0, NULL, &marker));
  CL_OK(clWaitForEvents(1, &marker));
  for (int s = 0; s < 8; s++) {
    cl_int st = 0;
    clGetEventInfo(evs[s], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    REQUIRE(st == CL_COMPLETE, "kernel %d before a marker: status %d once the marker completed", s, st);
  }
  cl_command_type ct = 0;
  clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
  REQUIRE(ct == CL_COMMAND_MARKER, "marker event's command type 0x%x", ct);
  if (!suite_read(m, back, bytes) || !check_words(back, model, n, "after 8 kernels and a marker"))
    goto out;
  if (!ooo_supported())
    goto out;
  ooo = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  if (!ooo)
    goto out;
  /* out of order: kernel, barrier, kernel, barrier... ; then a marker waiting for everything */
  for (int s = 0; s < 10; s++) {
    uint32_t a = 2 * suite_rand() + 1, b = suite_rand();
    CL_OK(affine(ooo, k, m, a, b, n, 0, NULL, NULL));
    CL_OK(clEnqueueBarrierWithWaitList(ooo, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
      model[i] = model[i] * a + b;
  }
  cl_event last = NULL;
  CL_OK(clEnqueueMarkerWithWaitList(ooo, 0, NULL, &last));
  CL_OK(clEnqueueReadBuffer(ooo, m, CL_FALSE, 0, bytes, back, 1, &last, NULL));
  CL_OK(clFinish(ooo));
  clReleaseEvent(last);
  check_words(back, model, n, "out-of-order queue with barriers");
  /* out of order with explicit event chains and a barrier that waits for a list */
  if (!suite_failed()) {
    cl_event e1 = NULL, e2 = NULL, e3 = NULL, bar = NULL;
    uint32_t a1 = 5, b1 = suite_rand(), a2 = 7, b2 = suite_rand(), a3 = 9, b3 = suite_rand();
    CL_OK(affine(ooo, k, m, a1, b1, n, 0, NULL, &e1));
    CL_OK(affine(ooo, k, m, a2, b2, n, 1, &e1, &e2));
    CL_OK(clEnqueueBarrierWithWaitList(ooo, 1, &e2, &bar));
    CL_OK(affine(ooo, k, m, a3, b3, n, 0, NULL, &e3));
    CL_OK(clEnqueueReadBuffer(ooo, m, CL_TRUE, 0, bytes, back, 1, &e3, NULL));
    for (size_t i = 0; i < n; i++)
      model[i] = ((model[i] * a1 + b1) * a2 + b2) * a3 + b3;
    check_words(back, model, n, "out-of-order chain through events and a barrier");
    clReleaseEvent(e1), clReleaseEvent(e2), clReleaseEvent(e3), clReleaseEvent(bar);
  }
out:
  for (int s = 0; s < 8; s++)
    if (evs[s]) clReleaseEvent(evs[s]);
  if (marker) clReleaseEvent(marker);
  if (ooo) clReleaseCommandQueue(ooo);
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
  free(model), free(back);
}

/* ---- callbacks ---- */
#define MAX_CB 64
static atomic_int cb_count[MAX_CB][3]; /* per event: CL_COMPLETE, CL_RUNNING, CL_SUBMITTED */
static atomic_int cb_bad;
static void CL_CALLBACK on_event(cl_event e, cl_int status, void *user) {
  int idx = (int)(intptr_t)user / 4, want = (int)(intptr_t)user % 4;
  (void)e;
  if (idx < 0 || idx >= MAX_CB || want > 2) {
    atomic_fetch_add(&cb_bad, 1);
    return;
  }
  /* the status given is the one registered for, or an error */
  if (status != want && status >= 0)
    atomic_fetch_add(&cb_bad, 1);
  atomic_fetch_add(&cb_count[idx][want], 1);
}

SUITE_TEST(events, callbacks) {
  size_t n = 1024, bytes = n * 4;
  int ne = 24;
  cl_kernel k = suite_batch_kernel(batch(), "ev_spin");
  cl_mem m = suite_buffer(bytes, NULL);
  cl_event evs[24] = {0};
  cl_int err;
  cl_event user = clCreateUserEvent(S.ctx, &err);
  memset(cb_count, 0, sizeof cb_count);
  atomic_store(&cb_bad, 0);
  if (!k || !m || err != CL_SUCCESS)
    goto out;
  /* kernels behind a user event, callbacks for all three statuses registered before they run */
  for (int i = 0; i < ne; i++) {
    cl_uint rounds = 1000;
    if (!suite_args(k, 2, sizeof m, &m, sizeof rounds, &rounds))
      goto out;
    CL_OK(clEnqueueNDRangeKernel(S.q, k, 1, NULL, &n, NULL, i == 0 ? 1 : 0, i == 0 ? &user : NULL, &evs[i]));
    CL_OK(clSetEventCallback(evs[i], CL_COMPLETE, on_event, (void *)(intptr_t)(4 * i + CL_COMPLETE)));
    CL_OK(clSetEventCallback(evs[i], CL_RUNNING, on_event, (void *)(intptr_t)(4 * i + CL_RUNNING)));
    CL_OK(clSetEventCallback(evs[i], CL_SUBMITTED, on_event, (void *)(intptr_t)(4 * i + CL_SUBMITTED)));
  }
  CL_OK(clSetEventCallback(user, CL_COMPLETE, on_event, (void *)(intptr_t)(4 * 30 + CL_COMPLETE)));
  CL_OK(clFlush(S.q));
  if (atomic_load(&cb_count[0][CL_COMPLETE]) != 0)
    suite_fail("completion callback of a kernel held back by a user event ran");
  CL_OK(clSetUserEventStatus(user, CL_COMPLETE));
  CL_OK(clFinish(S.q));
  /* callbacks may run on another thread a little after the events complete: allow 20 s */
  for (int w = 0; w < 2000; w++) {
    bool all = atomic_load(&cb_count[30][CL_COMPLETE]) >= 1;
    for (int i = 0; i < ne; i++)
      all &= atomic_load(&cb_count[i][CL_COMPLETE]) >= 1 && atomic_load(&cb_count[i][CL_RUNNING]) >= 1 &&
             atomic_load(&cb_count[i][CL_SUBMITTED]) >= 1;
    if (all)
      break;
    sleep_ms(10);
  }
  /* registered after completion: runs as well */
  CL_OK(clSetEventCallback(evs[0], CL_COMPLETE, on_event, (void *)(intptr_t)(4 * 31 + CL_COMPLETE)));
  for (int w = 0; w < 2000 && atomic_load(&cb_count[31][CL_COMPLETE]) < 1; w++)
    sleep_ms(10);
  sleep_ms(20); /* a late duplicate would show in the counts */
  for (int i = 0; i < ne; i++)
    for (int s = 0; s < 3; s++)
      if (atomic_load(&cb_count[i][s]) != 1) {
        suite_fail("event %d: the callback for status %d ran %d times", i, s, atomic_load(&cb_count[i][s]));
        goto out;
      }
  if (atomic_load(&cb_count[30][CL_COMPLETE]) != 1)
    suite_fail("user event's completion callback ran %d times", atomic_load(&cb_count[30][CL_COMPLETE]));
  else if (atomic_load(&cb_count[31][CL_COMPLETE]) != 1)
    suite_fail("a callback registered on a completed event ran %d times", atomic_load(&cb_count[31][CL_COMPLETE]));
  else if (atomic_load(&cb_bad))
    suite_fail("%d callbacks got a status other than the one registered for", atomic_load(&cb_bad));
out:
  clFinish(S.q);
  for (int i = 0; i < ne; i++)
    if (evs[i]) clReleaseEvent(evs[i]);
  if (user) clReleaseEvent(user);
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
}

/* The info of each kind of command's event. */
SUITE_TEST(events, event_info) {
  size_t n = 256, bytes = n * 4;
  cl_kernel k = suite_batch_kernel(batch(), "ev_affine");
  uint32_t *host = malloc(bytes);
  suite_fill(host, bytes);
  cl_mem m = suite_buffer(bytes, host), m2 = suite_buffer(bytes, NULL);
  cl_event e[9] = {0};
  cl_int err = CL_SUCCESS;
  if (!k || !m || !m2)
    goto out;
  uint32_t pat = 7;
  static const cl_command_type T[9] = {CL_COMMAND_WRITE_BUFFER, CL_COMMAND_NDRANGE_KERNEL, CL_COMMAND_COPY_BUFFER,
                                       CL_COMMAND_FILL_BUFFER,  CL_COMMAND_READ_BUFFER,    CL_COMMAND_MAP_BUFFER,
                                       CL_COMMAND_UNMAP_MEM_OBJECT, CL_COMMAND_MARKER,     CL_COMMAND_BARRIER};
  err = clEnqueueWriteBuffer(S.q, m, CL_FALSE, 0, bytes, host, 0, NULL, &e[0]);
  if (!err) err = affine(S.q, k, m, 3, 4, n, 0, NULL, &e[1]);
  if (!err) err = clEnqueueCopyBuffer(S.q, m, m2, 0, 0, bytes, 0, NULL, &e[2]);
  if (!err) err = clEnqueueFillBuffer(S.q, m, &pat, 4, 0, bytes, 0, NULL, &e[3]);
  if (!err) err = clEnqueueReadBuffer(S.q, m2, CL_FALSE, 0, bytes, host, 0, NULL, &e[4]);
  void *p = NULL;
  if (!err) p = clEnqueueMapBuffer(S.q, m, CL_FALSE, CL_MAP_READ, 0, bytes, 0, NULL, &e[5], &err);
  if (!err) err = clEnqueueUnmapMemObject(S.q, m, p, 0, NULL, &e[6]);
  if (!err) err = clEnqueueMarkerWithWaitList(S.q, 0, NULL, &e[7]);
  if (!err) err = clEnqueueBarrierWithWaitList(S.q, 0, NULL, &e[8]);
  if (err != CL_SUCCESS) {
    suite_fail("enqueueing the commands: %d", err);
    goto out;
  }
  CL_OK(clWaitForEvents(9, e));
  for (int i = 0; i < 9; i++) {
    cl_command_type ct = 0;
    cl_command_queue q = NULL;
    cl_context c = NULL;
    cl_int st = 0;
    cl_uint refs = 0;
    clGetEventInfo(e[i], CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
    clGetEventInfo(e[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL);
    clGetEventInfo(e[i], CL_EVENT_CONTEXT, sizeof c, &c, NULL);
    clGetEventInfo(e[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    clGetEventInfo(e[i], CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    if (ct != T[i] || q != S.q || c != S.ctx || st != CL_COMPLETE || refs < 1) {
      suite_fail("event %d: type 0x%x (expected 0x%x), queue %d, context %d, status %d, references %u", i, ct, T[i],
                 q == S.q, c == S.ctx, st, refs);
      break;
    }
  }
  if (!suite_failed()) {
    CL_OK(clRetainEvent(e[1]));
    cl_uint refs = 0;
    clGetEventInfo(e[1], CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    CL_OK(clReleaseEvent(e[1]));
    cl_uint refs2 = 0;
    clGetEventInfo(e[1], CL_EVENT_REFERENCE_COUNT, sizeof refs2, &refs2, NULL);
    if (refs2 + 1 != refs)
      suite_fail("event reference count %u after a retain, %u after the release", refs, refs2);
  }
out:
  for (int i = 0; i < 9; i++)
    if (e[i]) clReleaseEvent(e[i]);
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
  if (m2) clReleaseMemObject(m2);
  free(host);
}

/* 64 independent kernels on two queues, one clWaitForEvents for all of them. */
SUITE_TEST(events, wait_for_many_events) {
  int nb = 64;
  size_t n = 512, bytes = n * 4;
  cl_command_queue q2 = new_queue(0);
  cl_kernel k = q2 ? suite_batch_kernel(batch(), "ev_affine") : NULL;
  cl_mem *bufs = calloc((size_t)nb, sizeof *bufs);
  cl_event *evs = calloc((size_t)nb, sizeof *evs);
  uint32_t **init = calloc((size_t)nb, sizeof *init), *back = malloc(bytes);
  uint32_t *as = calloc((size_t)nb, 4), *bs = calloc((size_t)nb, 4);
  int made = 0;
  for (; k && made < nb; made++) {
    init[made] = malloc(bytes);
    suite_fill(init[made], bytes);
    bufs[made] = suite_buffer(bytes, init[made]);
    as[made] = 2 * suite_rand() + 1, bs[made] = suite_rand();
    if (!bufs[made] || affine(made & 1 ? q2 : S.q, k, bufs[made], as[made], bs[made], n, 0, NULL, &evs[made]) != CL_SUCCESS) {
      suite_fail("enqueue %d failed", made);
      made++;
      break;
    }
  }
  if (!suite_failed() && k) {
    clFlush(S.q), clFlush(q2);
    CL_OK(clWaitForEvents((cl_uint)nb, evs));
    for (int j = 0; j < nb && !suite_failed(); j++) {
      cl_int st = 0;
      clGetEventInfo(evs[j], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
      if (st != CL_COMPLETE) {
        suite_fail("event %d: status %d after clWaitForEvents", j, st);
        break;
      }
      if (!suite_read(bufs[j], back, bytes))
        break;
      for (size_t i = 0; i < n; i++)
        if (back[i] != init[j][i] * as[j] + bs[j]) {
          suite_fail("kernel %d, item %zu: 0x%x", j, i, back[i]);
          break;
        }
    }
  }
  for (int j = 0; j < made; j++) {
    if (evs[j]) clReleaseEvent(evs[j]);
    if (bufs[j]) clReleaseMemObject(bufs[j]);
    free(init[j]);
  }
  if (k) clReleaseKernel(k);
  if (q2) clReleaseCommandQueue(q2);
  free(bufs), free(evs), free(init), free(back), free(as), free(bs);
}
