/* Pipelined submission: many back-to-back kernels and transfers on in-order and out-of-order
 * queues, from several threads at once, with every result checked against a host model of
 * the same steps. Also: a failed wait-list event in the middle of a pipelined chain, event
 * status order on an in-order queue, profiling times in order, a profiling and a plain queue
 * taking turns on one buffer, and releasing a queue with pipelined work still pending. No timing
 * assertions. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

static const char *src =
    "__kernel void advance(__global uint *a, uint k) {\n"
    "  size_t i = get_global_id(0); a[i] = a[i] * 3u + k + (uint)i; }\n"
    "__kernel void addto(__global uint *dst, __global const uint *src) {\n"
    "  size_t i = get_global_id(0); dst[i] += src[i]; }\n";

enum { WORDS = 1024, STEPS = 60, THREADS = 4 };

static void model_step(cl_uint *a, size_t n, cl_uint k) {
  for (size_t i = 0; i < n; i++)
    a[i] = a[i] * 3u + k + (cl_uint)i;
}

static cl_uint xorshift(cl_uint *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

typedef struct worker_arg {
  cl_context ctx;
  cl_program prog;
  cl_command_queue shared; /* an in-order queue several threads enqueue on */
  cl_uint seed;
  int failures;
  char why[256];
} worker_arg;

#define WFAIL(w, ...)                                     \
  do {                                                    \
    (w)->failures++;                                      \
    snprintf((w)->why, sizeof (w)->why, __VA_ARGS__);     \
    goto done;                                            \
  } while (0)
#define WCL(w, expr)                                                     \
  do {                                                                   \
    cl_int e_ = (expr);                                                  \
    if (e_ != CL_SUCCESS)                                                \
      WFAIL(w, "%s:%d %s returned %d", __FILE__, __LINE__, #expr, e_);  \
  } while (0)

/* One thread: a chain of writes, kernels, copies, fills and reads on an in-order queue (its own
 * or the shared one), with only the final read blocking, checked against the model. */
static void in_order_chain(worker_arg *w, cl_command_queue q) {
  cl_int err;
  cl_uint s = w->seed;
  cl_uint *model = malloc(WORDS * sizeof *model), *host = malloc(WORDS * sizeof *host);
  cl_uint *in[4], *out = malloc(WORDS * sizeof *out);
  for (int i = 0; i < 4; i++)
    in[i] = malloc(WORDS * sizeof *in[i]);
  cl_kernel step = clCreateKernel(w->prog, "advance", &err);
  cl_mem a = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
  cl_mem b = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
  if (!step || !a || !b || !model || !host || !out)
    WFAIL(w, "set-up failed");
  WCL(w, clSetKernelArg(step, 0, sizeof a, &a));
  for (size_t i = 0; i < WORDS; i++)
    model[i] = host[i] = xorshift(&s);
  WCL(w, clEnqueueWriteBuffer(q, a, CL_FALSE, 0, WORDS * sizeof(cl_uint), host, 0, NULL, NULL));
  const size_t global = WORDS;
  int next_in = 0;
  for (int t = 0; t < STEPS; t++) {
    cl_uint k = xorshift(&s);
    WCL(w, clSetKernelArg(step, 1, sizeof k, &k)); /* the enqueue captures it */
    WCL(w, clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 0, NULL, NULL));
    model_step(model, WORDS, k);
    switch (xorshift(&s) % 5) {
    case 0: { /* overwrite a random range from a host array that stays untouched until the end */
      size_t off = xorshift(&s) % WORDS, len = 1 + xorshift(&s) % (WORDS - off);
      cl_uint *h = in[next_in++ % 4];
      for (size_t i = 0; i < len; i++)
        h[i] = model[off + i] = xorshift(&s);
      WCL(w, clEnqueueWriteBuffer(q, a, CL_FALSE, off * sizeof(cl_uint), len * sizeof(cl_uint), h, 0, NULL, NULL));
      if (next_in % 4 == 0) /* about to reuse an array: its writes must be done */
        WCL(w, clFinish(q));
      break;
    }
    case 1: /* through the other buffer and back */
      WCL(w, clEnqueueCopyBuffer(q, a, b, 0, 0, WORDS * sizeof(cl_uint), 0, NULL, NULL));
      WCL(w, clEnqueueCopyBuffer(q, b, a, 0, 0, WORDS * sizeof(cl_uint), 0, NULL, NULL));
      break;
    case 2: { /* fill a range */
      size_t off = xorshift(&s) % WORDS, len = 1 + xorshift(&s) % (WORDS - off);
      cl_uint pattern = xorshift(&s);
      WCL(w, clEnqueueFillBuffer(q, a, &pattern, sizeof pattern, off * sizeof(cl_uint), len * sizeof(cl_uint), 0,
                                 NULL, NULL));
      for (size_t i = 0; i < len; i++)
        model[off + i] = pattern;
      break;
    }
    case 3: { /* a non-blocking read of the state so far, checked after a wait on its event */
      cl_event ev;
      for (size_t i = 0; i < WORDS; i++)
        out[i] = 0xdeadbeefu;
      WCL(w, clEnqueueReadBuffer(q, a, CL_FALSE, 0, WORDS * sizeof(cl_uint), out, 0, NULL, &ev));
      WCL(w, clWaitForEvents(1, &ev));
      clReleaseEvent(ev);
      for (size_t i = 0; i < WORDS; i++)
        if (out[i] != model[i])
          WFAIL(w, "step %d: word %zu is %u, expected %u", t, i, out[i], model[i]);
      break;
    }
    default:
      break;
    }
  }
  for (size_t i = 0; i < WORDS; i++)
    host[i] = 0xdeadbeefu;
  WCL(w, clEnqueueReadBuffer(q, a, CL_TRUE, 0, WORDS * sizeof(cl_uint), host, 0, NULL, NULL));
  for (size_t i = 0; i < WORDS; i++)
    if (host[i] != model[i])
      WFAIL(w, "final word %zu is %u, expected %u", i, host[i], model[i]);
done:
  clFinish(q); /* nothing may still use the host arrays */
  if (a)
    clReleaseMemObject(a);
  if (b)
    clReleaseMemObject(b);
  if (step)
    clReleaseKernel(step);
  free(model);
  free(host);
  free(out);
  for (int i = 0; i < 4; i++)
    free(in[i]);
}

/* One thread: independent chains on an out-of-order queue, ordered by explicit wait lists only,
 * then one result buffer adding them all. */
static void out_of_order_chains(worker_arg *w, cl_command_queue q) {
  enum { CHAINS = 4, LEN = 15 };
  cl_int err;
  cl_uint s = w->seed ^ 0x9e3779b9u;
  cl_uint *model = calloc((size_t)CHAINS * WORDS, sizeof *model), *host = malloc(WORDS * sizeof *host);
  cl_uint *init = malloc((size_t)CHAINS * WORDS * sizeof *init);
  cl_mem bufs[CHAINS] = {0}, sum = NULL;
  cl_kernel steps[CHAINS] = {0}, addto = clCreateKernel(w->prog, "addto", &err);
  cl_event last[CHAINS] = {0};
  for (int c = 0; c < CHAINS; c++) {
    bufs[c] = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
    steps[c] = clCreateKernel(w->prog, "advance", &err);
    if (!bufs[c] || !steps[c])
      WFAIL(w, "set-up failed");
    WCL(w, clSetKernelArg(steps[c], 0, sizeof bufs[c], &bufs[c]));
  }
  sum = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
  if (!sum || !addto || !model || !host || !init)
    WFAIL(w, "set-up failed");
  for (int c = 0; c < CHAINS; c++) {
    cl_uint *m = model + (size_t)c * WORDS;
    for (size_t i = 0; i < WORDS; i++)
      m[i] = init[(size_t)c * WORDS + i] = xorshift(&s);
    WCL(w, clEnqueueWriteBuffer(q, bufs[c], CL_FALSE, 0, WORDS * sizeof(cl_uint), init + (size_t)c * WORDS, 0, NULL,
                                &last[c]));
  }
  const size_t global = WORDS;
  for (int t = 0; t < LEN; t++) {
    for (int c = 0; c < CHAINS; c++) {
      cl_uint k = xorshift(&s);
      cl_event ev;
      WCL(w, clSetKernelArg(steps[c], 1, sizeof k, &k));
      WCL(w, clEnqueueNDRangeKernel(q, steps[c], 1, NULL, &global, NULL, 1, &last[c], &ev));
      clReleaseEvent(last[c]);
      last[c] = ev;
      model_step(model + (size_t)c * WORDS, WORDS, k);
    }
  }
  cl_uint zero = 0;
  cl_event zeroed, prev;
  WCL(w, clEnqueueFillBuffer(q, sum, &zero, sizeof zero, 0, WORDS * sizeof(cl_uint), 0, NULL, &zeroed));
  prev = zeroed;
  WCL(w, clSetKernelArg(addto, 0, sizeof sum, &sum));
  for (int c = 0; c < CHAINS; c++) {
    cl_event deps[2] = {prev, last[c]}, ev;
    WCL(w, clSetKernelArg(addto, 1, sizeof bufs[c], &bufs[c]));
    WCL(w, clEnqueueNDRangeKernel(q, addto, 1, NULL, &global, NULL, 2, deps, &ev));
    clReleaseEvent(prev);
    prev = ev;
  }
  for (size_t i = 0; i < WORDS; i++)
    host[i] = 0xdeadbeefu;
  WCL(w, clEnqueueReadBuffer(q, sum, CL_TRUE, 0, WORDS * sizeof(cl_uint), host, 1, &prev, NULL));
  clReleaseEvent(prev);
  for (size_t i = 0; i < WORDS; i++) {
    cl_uint want = 0;
    for (int c = 0; c < CHAINS; c++)
      want += model[(size_t)c * WORDS + i];
    if (host[i] != want)
      WFAIL(w, "out-of-order sum word %zu is %u, expected %u", i, host[i], want);
  }
done:
  clFinish(q);
  for (int c = 0; c < CHAINS; c++) {
    if (last[c])
      clReleaseEvent(last[c]);
    if (bufs[c])
      clReleaseMemObject(bufs[c]);
    if (steps[c])
      clReleaseKernel(steps[c]);
  }
  if (sum)
    clReleaseMemObject(sum);
  if (addto)
    clReleaseKernel(addto);
  free(model);
  free(host);
  free(init);
}

static void *thread_main(void *p) {
  worker_arg *w = p;
  cl_int err;
  cl_command_queue own = clCreateCommandQueueWithProperties(w->ctx, hg_test_device, NULL, &err);
  cl_queue_properties ooo_props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue ooo = clCreateCommandQueueWithProperties(w->ctx, hg_test_device, ooo_props, &err);
  if (!own) {
    w->failures++;
    snprintf(w->why, sizeof w->why, "queue creation failed");
    return NULL;
  }
  in_order_chain(w, own);
  if (!w->failures)
    in_order_chain(w, w->shared);
  if (!w->failures && ooo)
    out_of_order_chains(w, ooo);
  clReleaseCommandQueue(own);
  if (ooo)
    clReleaseCommandQueue(ooo);
  return NULL;
}

HG_TEST(threads_pipelined_chains) {
  cl_context ctx = hg_test_context();
  cl_program prog = hg_test_build(ctx, src, "");
  cl_command_queue shared = hg_test_queue(ctx, 0);
  worker_arg args[THREADS];
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; i++) {
    args[i] = (worker_arg){.ctx = ctx, .prog = prog, .shared = shared, .seed = hg_test_rand() | 1u};
    CHECK(pthread_create(&threads[i], NULL, thread_main, &args[i]) == 0);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(threads[i], NULL);
  for (int i = 0; i < THREADS; i++)
    CHECK_MSG(args[i].failures == 0, "thread %d: %s", i, args[i].why);
  clReleaseCommandQueue(shared);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}

static cl_int status_of(cl_event e) {
  cl_int st = 1234;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return st;
}

/* A failed user event in the wait list of one kernel in the middle of a pipelined chain: that
 * kernel fails (and does nothing), the others before and after it run. */
HG_TEST(failed_dependency_mid_chain) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL fails the commands after a failed one on an in-order queue too");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_program prog = hg_test_build(ctx, src, "");
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_kernel step = clCreateKernel(prog, "advance", &err);
  CHECK_CL(err);
  cl_uint host[WORDS], model[WORDS];
  hg_test_fill_random(host, sizeof host);
  memcpy(model, host, sizeof host);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(step, 0, sizeof a, &a));
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  const size_t global = WORDS;
  enum { N = 12, FAILING = 5 };
  cl_event ev[N];
  for (int i = 0; i < N; i++) {
    cl_uint k = hg_test_rand();
    CHECK_CL(clSetKernelArg(step, 1, sizeof k, &k));
    if (i == FAILING)
      CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 1, &gate, &ev[i]));
    else
      CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 0, NULL, &ev[i]));
    if (i != FAILING)
      model_step(model, WORDS, k);
  }
  /* nothing from the gated kernel on may have completed: the queue is in order */
  for (int i = FAILING; i < N; i++)
    CHECK(status_of(ev[i]) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(gate, -77));
  CHECK_ERR(clWaitForEvents(N, ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  for (int i = 0; i < N; i++)
    CHECK_MSG(status_of(ev[i]) == (i == FAILING ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_COMPLETE),
              "event %d status %d", i, status_of(ev[i]));
  /* a blocking read whose wait list holds the failed event fails; without it, it reads */
  CHECK_ERR(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof host, host, 1, &ev[FAILING], NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  memset(host, 0xab, sizeof host);
  CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  for (size_t i = 0; i < WORDS; i++)
    CHECK_MSG(host[i] == model[i], "word %zu is %u, expected %u", i, host[i], model[i]);
  for (int i = 0; i < N; i++)
    clReleaseEvent(ev[i]);
  clReleaseEvent(gate);
  clReleaseMemObject(a);
  clReleaseKernel(step);
  clReleaseCommandQueue(q);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}

typedef struct order_probe {
  cl_event *events;
  int index;
  atomic_int *violations, *calls;
} order_probe;

static void CL_CALLBACK check_earlier_complete(cl_event e, cl_int status, void *data) {
  order_probe *p = data;
  for (int i = 0; i < p->index; i++)
    if (status_of(p->events[i]) != CL_COMPLETE)
      atomic_fetch_add(p->violations, 1);
  atomic_fetch_add(p->calls, 1);
}

/* Pipelined commands of an in-order queue complete in order, and their profiling times are
 * ordered: QUEUED <= SUBMIT <= START <= END <= COMPLETE. */
HG_TEST(in_order_completion_and_profiling) {
  cl_context ctx = hg_test_context();
  cl_program prog = hg_test_build(ctx, src, "");
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_int err;
  cl_kernel step = clCreateKernel(prog, "advance", &err);
  CHECK_CL(err);
  cl_uint host[WORDS];
  hg_test_fill_random(host, sizeof host);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(step, 0, sizeof a, &a));
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  enum { N = 40 };
  cl_event ev[N];
  order_probe probes[N];
  atomic_int violations = 0, calls = 0;
  const size_t global = WORDS;
  /* the first command waits for the gate, so the rest pile up behind it */
  CHECK_CL(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof host, host, 1, &gate, &ev[0]));
  for (int i = 1; i < N; i++) {
    cl_uint k = (cl_uint)i;
    CHECK_CL(clSetKernelArg(step, 1, sizeof k, &k));
    if (i % 7 == 3)
      CHECK_CL(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev[i]));
    else if (i % 7 == 5)
      CHECK_CL(clEnqueueReadBuffer(q, a, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev[i]));
    else
      CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 0, NULL, &ev[i]));
  }
  for (int i = 0; i < N; i++) {
    probes[i] = (order_probe){.events = ev, .index = i, .violations = &violations, .calls = &calls};
    CHECK_CL(clSetEventCallback(ev[i], CL_COMPLETE, check_earlier_complete, &probes[i]));
  }
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clFinish(q));
  while (atomic_load(&calls) < N)
    ;
  CHECK_MSG(atomic_load(&violations) == 0, "%d completions before an earlier command's", atomic_load(&violations));
  static const cl_profiling_info order[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                            CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                            CL_PROFILING_COMMAND_COMPLETE};
  cl_ulong prev_end = 0;
  for (int i = 0; i < N; i++) {
    cl_ulong t[5];
    for (int j = 0; j < 5; j++)
      CHECK_CL(clGetEventProfilingInfo(ev[i], order[j], sizeof t[j], &t[j], NULL));
    for (int j = 1; j < 5; j++)
      CHECK_MSG(t[j - 1] <= t[j], "event %d: profiling time %d (%llu) after time %d (%llu)", i, j - 1,
                (unsigned long long)t[j - 1], j, (unsigned long long)t[j]);
    /* an in-order queue runs each command after the previous one ended */
    CHECK_MSG(t[2] >= prev_end, "event %d started at %llu, before event %d ended at %llu", i,
              (unsigned long long)t[2], i - 1, (unsigned long long)prev_end);
    prev_end = t[3];
  }
  for (int i = 0; i < N; i++)
    clReleaseEvent(ev[i]);
  clReleaseEvent(gate);
  clReleaseMemObject(a);
  clReleaseKernel(step);
  clReleaseCommandQueue(q);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}

/* A profiling queue and a plain one on the same buffer, each command waiting for the previous
 * one's event on the other queue (the vendor backend runs the two kinds on different vendor
 * queues): results against the host model, every profiled time in order. */
HG_TEST(profiling_and_plain_queues_interleaved) {
  cl_context ctx = hg_test_context();
  cl_program prog = hg_test_build(ctx, src, "");
  cl_command_queue qs[2] = {hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE), hg_test_queue(ctx, 0)};
  cl_int err;
  cl_kernel step = clCreateKernel(prog, "advance", &err);
  CHECK_CL(err);
  enum { N = 48 };
  static cl_uint model[WORDS], host[WORDS], snap[N][WORDS];
  hg_test_fill_random(model, sizeof model);
  memcpy(host, model, sizeof host);
  memset(snap, 0xa5, sizeof snap);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(step, 0, sizeof a, &a));
  cl_event ev[N + 1];
  CHECK_CL(clEnqueueWriteBuffer(qs[0], a, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev[0]));
  static cl_uint want[N][WORDS];
  const size_t global = WORDS;
  for (int i = 1; i <= N; i++) {
    cl_command_queue q = qs[(i + (int)(hg_test_rand() & 1)) & 1];
    if (i % 4 == 0) {
      CHECK_CL(clEnqueueReadBuffer(q, a, CL_FALSE, 0, sizeof host, snap[i - 1], 1, &ev[i - 1], &ev[i]));
      memcpy(want[i - 1], model, sizeof model);
    } else {
      cl_uint k = hg_test_rand();
      CHECK_CL(clSetKernelArg(step, 1, sizeof k, &k));
      CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 1, &ev[i - 1], &ev[i]));
      model_step(model, WORDS, k);
    }
    CHECK_CL(clFlush(q));
  }
  CHECK_CL(clEnqueueReadBuffer(qs[1], a, CL_TRUE, 0, sizeof host, host, 1, &ev[N], NULL));
  CHECK_CL(clFinish(qs[0]));
  CHECK_MSG(memcmp(host, model, sizeof host) == 0, "final contents differ from the host model");
  for (int i = 3; i < N; i += 4)
    CHECK_MSG(memcmp(snap[i], want[i], sizeof want[i]) == 0, "read %d differs from the host model", i);
  for (int i = 0; i <= N; i++) {
    cl_command_queue q;
    CHECK_CL(clGetEventInfo(ev[i], CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    if (q == qs[0]) {
      cl_ulong t[4];
      static const cl_profiling_info order[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                                CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
      for (int j = 0; j < 4; j++)
        CHECK_CL(clGetEventProfilingInfo(ev[i], order[j], sizeof t[j], &t[j], NULL));
      for (int j = 1; j < 4; j++)
        CHECK_MSG(t[j - 1] <= t[j], "event %d: profiling time %d after time %d", i, j - 1, j);
    } else {
      cl_ulong t;
      CHECK_MSG(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof t, &t, NULL) ==
                    CL_PROFILING_INFO_NOT_AVAILABLE,
                "event %d of the plain queue has profiling times", i);
    }
    clReleaseEvent(ev[i]);
  }
  clReleaseMemObject(a);
  clReleaseKernel(step);
  clReleaseCommandQueue(qs[0]);
  clReleaseCommandQueue(qs[1]);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}

static cl_ulong now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (cl_ulong)t.tv_sec * 1000000000ull + (cl_ulong)t.tv_nsec;
}

static void CL_CALLBACK count_complete(cl_event e, cl_int status, void *data) {
  (void)e;
  if (status == CL_COMPLETE)
    atomic_fetch_add((atomic_int *)data, 1);
}

/* Launches nobody waits for complete in the background: a burst of launches with events and
 * callbacks on a plain queue (the vendor backend runs them without an event each, completed
 * through one marker, and its worker waits for the device once submissions pause), then only
 * status polls, no wait, flush or finish: every event reaches CL_COMPLETE and every callback
 * runs, and the buffer holds the host model's result. The poll gives up after a minute (a
 * hang, not a time limit). */
HG_TEST(events_complete_without_waits) {
  cl_context ctx = hg_test_context();
  cl_program prog = hg_test_build(ctx, src, "");
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_kernel step = clCreateKernel(prog, "advance", &err);
  CHECK_CL(err);
  enum { N = 300 };
  static cl_uint host[WORDS], model[WORDS];
  hg_test_fill_random(host, sizeof host);
  memcpy(model, host, sizeof host);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(step, 0, sizeof a, &a));
  static cl_event ev[N];
  atomic_int completed = 0;
  const size_t global = WORDS;
  for (int i = 0; i < N; i++) {
    cl_uint k = hg_test_rand();
    CHECK_CL(clSetKernelArg(step, 1, sizeof k, &k));
    CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 0, NULL, &ev[i]));
    CHECK_CL(clSetEventCallback(ev[i], CL_COMPLETE, count_complete, &completed));
    model_step(model, WORDS, k);
  }
  cl_ulong deadline = now_ns() + 60ull * 1000000000ull;
  cl_int status = CL_QUEUED;
  while (now_ns() < deadline &&
         (status != CL_COMPLETE || atomic_load(&completed) < N)) {
    CHECK_CL(clGetEventInfo(ev[N - 1], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    struct timespec pause = {0, 200000};
    nanosleep(&pause, NULL);
  }
  CHECK_MSG(status == CL_COMPLETE, "the last launch's event is %d a minute after the burst", status);
  CHECK_MSG(atomic_load(&completed) == N, "%d of %d completion callbacks ran", atomic_load(&completed), N);
  for (int i = 0; i < N; i++) {
    CHECK_CL(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK_MSG(status == CL_COMPLETE, "event %d is %d", i, status);
    clReleaseEvent(ev[i]);
  }
  memset(host, 0, sizeof host);
  CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  CHECK_MSG(memcmp(host, model, sizeof host) == 0, "contents differ from the host model");
  clReleaseMemObject(a);
  clReleaseKernel(step);
  clReleaseCommandQueue(q);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}

/* An in-order queue and the advance kernel bound to a buffer of random words, which model holds
 * too; advance_launch runs it once with a fresh constant and applies the same to the model. */
typedef struct advance_rig {
  cl_context ctx;
  cl_program prog;
  cl_command_queue q;
  cl_kernel step;
  cl_mem a;
} advance_rig;

static cl_int advance_rig_make(advance_rig *r, cl_uint *model) {
  cl_int err;
  r->ctx = hg_test_context();
  r->prog = hg_test_build(r->ctx, src, "");
  r->q = hg_test_queue(r->ctx, 0);
  r->step = clCreateKernel(r->prog, "advance", &err);
  if (err != CL_SUCCESS)
    return err;
  hg_test_fill_random(model, WORDS * sizeof *model);
  r->a = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, WORDS * sizeof *model, model, &err);
  return err != CL_SUCCESS ? err : clSetKernelArg(r->step, 0, sizeof r->a, &r->a);
}

/* Releases what is left of the rig (the parts a test released itself are NULL). */
static void advance_rig_release(advance_rig *r) {
  if (r->a)
    clReleaseMemObject(r->a);
  clReleaseKernel(r->step);
  clReleaseProgram(r->prog);
  if (r->q)
    clReleaseCommandQueue(r->q);
  clReleaseContext(r->ctx);
}

static cl_int advance_launch(advance_rig *r, cl_uint *model, const size_t *local) {
  const size_t global = WORDS;
  cl_uint k = hg_test_rand();
  cl_int err = clSetKernelArg(r->step, 1, sizeof k, &k);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(r->q, r->step, 1, NULL, &global, local, 0, NULL, NULL);
  model_step(model, WORDS, k);
  return err;
}

/* Releasing a queue with pipelined work pending: the work still completes, with its results. */
HG_TEST(release_with_pipelined_work) {
  advance_rig r;
  cl_uint host[WORDS], model[WORDS];
  CHECK_CL(advance_rig_make(&r, model));
  for (int i = 0; i < 30; i++)
    CHECK_CL(advance_launch(&r, model, NULL));
  cl_event done;
  memset(host, 0, sizeof host);
  CHECK_CL(clEnqueueReadBuffer(r.q, r.a, CL_FALSE, 0, sizeof host, host, 0, NULL, &done));
  clReleaseCommandQueue(r.q);
  r.q = NULL;
  CHECK_CL(clWaitForEvents(1, &done));
  for (size_t i = 0; i < WORDS; i++)
    CHECK_MSG(host[i] == model[i], "word %zu is %u, expected %u", i, host[i], model[i]);
  clReleaseEvent(done);
  advance_rig_release(&r);
}

static void CL_CALLBACK mark_destroyed(cl_mem m, void *data) {
  (void)m;
  atomic_store((atomic_int *)data, 1);
}

static void CL_CALLBACK mark_context_destroyed(cl_context c, void *data) {
  (void)c;
  atomic_store((atomic_int *)data, 1);
}

/* Bursts of launches each waited for with clFinish, as benchmarks run them. clFinish returns
 * with the launches' memory left for later (the queue's spent list) but their references to
 * buffers dropped: a buffer released right after is deleted in that release (its destructor
 * has run when clReleaseMemObject returns). Once the application released everything, the
 * spent commands' holds go too and the context is deleted (its destructor runs, on the queue's
 * worker: waited for here, up to 20 s). The results are checked against the host model. */
HG_TEST(finish_after_bursts_releases_everything) {
  atomic_int buffer_gone = 0, context_gone = 0;
  advance_rig r;
  cl_uint host[WORDS], model[WORDS];
  CHECK_CL(advance_rig_make(&r, model));
  CHECK_CL(clSetContextDestructorCallback(r.ctx, mark_context_destroyed, &context_gone));
  CHECK_CL(clSetMemObjectDestructorCallback(r.a, mark_destroyed, &buffer_gone));
  for (int burst = 0; burst < 5; burst++) {
    for (int i = 0; i < 20; i++)
      CHECK_CL(advance_launch(&r, model, NULL));
    CHECK_CL(clFinish(r.q));
  }
  memset(host, 0xA5, sizeof host);
  CHECK_CL(clEnqueueReadBuffer(r.q, r.a, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  for (size_t i = 0; i < WORDS; i++)
    CHECK_MSG(host[i] == model[i], "word %zu is %u, expected %u", i, host[i], model[i]);
  CHECK_CL(clSetKernelArg(r.step, 0, sizeof(cl_mem), NULL)); /* the kernel's own reference */
  clReleaseMemObject(r.a);
  r.a = NULL;
  if (hg_test_is_hetgpu()) /* hetGPU's design; the specification only says "once the commands finished" */
    CHECK_MSG(atomic_load(&buffer_gone), "the buffer outlived its last release after clFinish");
  advance_rig_release(&r);
  for (int ms = 0; ms < 20000 && !atomic_load(&context_gone); ms += 5)
    nanosleep(&(struct timespec){0, 5000000}, NULL);
  CHECK_MSG(atomic_load(&context_gone), "the context was not deleted 20 s after its last release");
}

/* Launches nobody asked an event for have none until something must wait for them: a clFinish
 * from another thread at any point of a burst, a map (a synchronous command) after the burst,
 * and a clFinish while the burst still waits behind a user event. Results against the model. */
typedef struct finisher_arg {
  cl_command_queue q;
  atomic_bool stop;
  int errors;
} finisher_arg;

static void *finish_repeatedly(void *p) {
  finisher_arg *f = p;
  while (!atomic_load(&f->stop))
    if (clFinish(f->q) != CL_SUCCESS)
      f->errors++;
  return NULL;
}

static void *finish_once(void *p) {
  finisher_arg *f = p;
  if (clFinish(f->q) != CL_SUCCESS)
    f->errors++;
  atomic_store(&f->stop, true);
  return NULL;
}

HG_TEST(waits_on_launches_without_events) {
  advance_rig r;
  cl_uint host[WORDS], model[WORDS];
  CHECK_CL(advance_rig_make(&r, model));
  const size_t local = 64;
  cl_int err;
  finisher_arg f = {.q = r.q};
  pthread_t finisher;
  CHECK(pthread_create(&finisher, NULL, finish_repeatedly, &f) == 0);
  for (int burst = 0; burst < 8; burst++) {
    for (int i = 0; i < 1 + burst * 5; i++)
      CHECK_CL(advance_launch(&r, model, &local));
    cl_uint *mapped = clEnqueueMapBuffer(r.q, r.a, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
    CHECK_CL(err);
    for (size_t i = 0; i < WORDS; i++)
      CHECK_MSG(mapped[i] == model[i], "burst %d: word %zu is %u, expected %u", burst, i, mapped[i], model[i]);
    CHECK_CL(clEnqueueUnmapMemObject(r.q, r.a, mapped, 0, NULL, NULL));
  }
  atomic_store(&f.stop, true);
  pthread_join(finisher, NULL);
  CHECK_MSG(f.errors == 0, "clFinish failed %d times", f.errors);

  /* the burst waits behind a user event while another thread's clFinish waits for its end */
  cl_event gate = clCreateUserEvent(r.ctx, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueMarkerWithWaitList(r.q, 1, &gate, NULL));
  for (int i = 0; i < 10; i++)
    CHECK_CL(advance_launch(&r, model, &local));
  finisher_arg once = {.q = r.q};
  CHECK(pthread_create(&finisher, NULL, finish_once, &once) == 0);
  nanosleep(&(struct timespec){0, 20000000}, NULL);
  CHECK_MSG(!atomic_load(&once.stop), "clFinish returned while the burst still waited for its user event");
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  pthread_join(finisher, NULL);
  CHECK_MSG(once.errors == 0, "clFinish failed");
  memset(host, 0xA5, sizeof host);
  CHECK_CL(clEnqueueReadBuffer(r.q, r.a, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  for (size_t i = 0; i < WORDS; i++)
    CHECK_MSG(host[i] == model[i], "after the gate: word %zu is %u, expected %u", i, host[i], model[i]);
  clReleaseEvent(gate);
  advance_rig_release(&r);
}

/* Each launch's profiled END - START is its run, not 0: launches a kernel's first ones, which
 * run synchronously in the stoppable form, and the plain ones submitted after them alike (the
 * synchronous ones read END = START once they ran where they were submitted). The kernel loops
 * long enough per work-item that no device does it in no time; the results are checked. */
HG_TEST(profiled_kernels_take_time) {
  static const char *busy = "__kernel void busy(__global uint *a, uint n) {\n"
                            "  size_t i = get_global_id(0); uint x = a[i];\n"
                            "  for (uint k = 0; k < n; k++) x = x * 1664525u + 1013904223u + k;\n"
                            "  a[i] = x; }\n";
  enum { ITEMS = 4096, LOOPS = 2000, LAUNCHES = 12 };
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_program prog = hg_test_build(ctx, busy, "");
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "busy", &err);
  CHECK_CL(err);
  cl_uint *model = malloc(ITEMS * sizeof *model), *got = malloc(ITEMS * sizeof *got);
  hg_test_fill_random(model, ITEMS * sizeof *model);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, ITEMS * sizeof *model, model, &err);
  CHECK_CL(err);
  cl_uint n = LOOPS;
  CHECK_CL(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK_CL(clSetKernelArg(k, 1, sizeof n, &n));
  cl_event ev[LAUNCHES];
  size_t global = ITEMS, local = 64;
  for (int i = 0; i < LAUNCHES; i++)
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev[i]));
  CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, ITEMS * sizeof *got, got, 0, NULL, NULL));
  for (int i = 0; i < LAUNCHES; i++)
    for (size_t w = 0; w < ITEMS; w++)
      for (cl_uint j = 0; j < LOOPS; j++)
        model[w] = model[w] * 1664525u + 1013904223u + j;
  CHECK_MSG(memcmp(got, model, ITEMS * sizeof *got) == 0, "results differ from the host model");
  for (int i = 0; i < LAUNCHES; i++) {
    cl_ulong start = 0, end = 0;
    CHECK_CL(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK_CL(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK_MSG(end > start, "launch %d: START %llu, END %llu", i, (unsigned long long)start, (unsigned long long)end);
    clReleaseEvent(ev[i]);
  }
  free(model);
  free(got);
  clReleaseMemObject(a);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
