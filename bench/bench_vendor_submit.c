/* bench-vendor-submit: what each part of hetGPU's submission path costs on a vendor platform,
 * measured on the vendor directly: wall time per launch of a short kernel launched back to
 * back, adding one ingredient at a time (arguments set per launch, an event per launch, a
 * flush per launch, a profiling queue, a thread waiting for each event in order as hetGPU's
 * completion did, or polling markers as it does now, flushes batched; the closing clFinish alone
 * after the device settled), and what the layer above the vendor might change around the same
 * launches (host memory written between them, a zero global offset, more buffers in the
 * context). hetGPU's own figures for the same launches are printed last when the hetGPU platform
 * is visible too.
 * Usage: bench-vendor-submit [PLATFORM_SUBSTRING] (default "NVIDIA"). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"


enum { LAUNCHES = 400, W = 1024 };

static const char *src =
    "__kernel void stencil(__global const float *in, __global float *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)\n"
    "    out[y * w + x] = 0.2f * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);\n"
    "  else out[y * w + x] = in[y * w + x]; }\n";

typedef struct setup {
  cl_context ctx;
  cl_device_id dev;
  cl_kernel k;
  cl_mem in, out;
  int w;
} setup;

typedef struct mode {
  const char *name;
  bool args_each, event_each, flush_each, profiling, waiter;
  int marker_every; /* no event per launch: a marker after every this many, which the waiter waits for */
  bool callback;    /* the waiter sleeps until the vendor's completion callback wakes it */
  int poll_us;      /* the waiter polls each event's status, asleep this long between queries */
  int flush_every;  /* a clFlush after every this many launches (flush_each: after each) */
  int settle_ms;    /* asleep this long before the clFinish, which then only completes */
  int touch_kb;     /* host memory written between launches, fresh lines each time (how much
                       the vendor's enqueue suffers from what a layer above it touches) */
  bool zero_offset; /* a global offset of zeros passed, where the others pass NULL */
} mode;

/* The memory touch_kb rows write: cycled through, so each launch sees lines it did not just use. */
enum { TOUCH_BYTES = 8 << 20 };
static unsigned char *touch_area;
static size_t touch_at;

static void touch(int kb) {
  size_t n = (size_t)kb << 10;
  if (touch_at + n > TOUCH_BYTES)
    touch_at = 0;
  memset(touch_area + touch_at, (int)(touch_at >> 10), n);
  touch_at += n;
}

typedef struct waiter_state {
  cl_event *ev;
  int n, step;
  bool callback;
  int poll_us;
} waiter_state;

typedef struct wake {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool done;
} wake;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *arg) {
  (void)ev, (void)status;
  wake *w = arg;
  pthread_mutex_lock(&w->lock);
  w->done = true;
  pthread_cond_signal(&w->cond);
  pthread_mutex_unlock(&w->lock);
}

/* Sleeps between status queries of an event until it completes (no thread blocked in the
 * vendor's wait). */
static void poll_until_complete(cl_event ev, int poll_us) {
  for (;;) {
    cl_int status;
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    if (status <= CL_COMPLETE)
      return;
    struct timespec ts = {0, poll_us * 1000L};
    nanosleep(&ts, NULL);
  }
}

/* Waits for each event (or each marker) in order and releases it, as hetGPU's completion does:
 * in the vendor's clWaitForEvents, asleep until its completion callback, or polling. */
static void *waiter_main(void *arg) {
  waiter_state *w = arg;
  for (int i = w->step - 1; i < w->n; i += w->step) {
    while (!__atomic_load_n(&w->ev[i], __ATOMIC_ACQUIRE))
      ;
    if (w->callback) {
      wake k = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
      CHECK(clSetEventCallback(w->ev[i], CL_COMPLETE, on_complete, &k));
      pthread_mutex_lock(&k.lock);
      while (!k.done)
        pthread_cond_wait(&k.cond, &k.lock);
      pthread_mutex_unlock(&k.lock);
    } else if (w->poll_us) {
      poll_until_complete(w->ev[i], w->poll_us);
    } else {
      CHECK(clWaitForEvents(1, &w->ev[i]));
    }
    clReleaseEvent(w->ev[i]);
  }
  return NULL;
}

static void set_args(setup *s) {
  CHECK(clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
  CHECK(clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
  CHECK(clSetKernelArg(s->k, 2, sizeof s->w, &s->w));
  CHECK(clSetKernelArg(s->k, 3, sizeof s->w, &s->w));
}

/* Best wall seconds per launch of LAUNCHES back to back then clFinish (less the settling
 * sleep); *enqueue_s: in the same round, per launch until the last enqueue returned (the
 * submitting thread's share), *finish_s: per launch in the closing clFinish. */
static double run_mode(setup *s, const mode *m, double *enqueue_s, double *finish_s) {
  cl_int err;
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, m->profiling ? CL_QUEUE_PROFILING_ENABLE : 0, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(s->ctx, s->dev, props, &err);
  CHECK(err);
  size_t global[2] = {W, W}, local[2] = {16, 16}, zeros[2] = {0, 0};
  const size_t *offset = m->zero_offset ? zeros : NULL;
  set_args(s);
  for (int i = 0; i < 5; i++) /* warm-up */
    CHECK(clEnqueueNDRangeKernel(q, s->k, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clFinish(q));
  double best = 1e9;
  for (int round = 0; round < 3; round++) {
    cl_event *ev = calloc(LAUNCHES, sizeof *ev);
    int step = m->marker_every ? m->marker_every : 1;
    waiter_state ws = {ev, LAUNCHES, step, m->callback, m->poll_us};
    pthread_t th;
    if (m->waiter)
      pthread_create(&th, NULL, waiter_main, &ws);
    double t0 = bench_now_s();
    for (int i = 0; i < LAUNCHES; i++) {
      if (m->args_each)
        set_args(s);
      if (m->touch_kb)
        touch(m->touch_kb);
      cl_event e = NULL;
      CHECK(clEnqueueNDRangeKernel(q, s->k, 2, offset, global, local, 0, NULL, m->event_each ? &e : NULL));
      if (m->marker_every && i % step == step - 1)
        CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &e));
      if (m->flush_each || (m->flush_every && i % m->flush_every == m->flush_every - 1))
        CHECK(clFlush(q));
      if (e)
        __atomic_store_n(&ev[i], e, __ATOMIC_RELEASE);
    }
    double submitted = bench_now_s();
    if (m->settle_ms) {
      struct timespec ts = {m->settle_ms / 1000, (m->settle_ms % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    }
    double finishing = bench_now_s();
    CHECK(clFinish(q));
    if (m->waiter)
      pthread_join(th, NULL);
    double end = bench_now_s();
    double t = (end - t0 - (finishing - submitted)) / LAUNCHES;
    if (!m->waiter)
      for (int i = 0; i < LAUNCHES; i++)
        if (ev[i])
          clReleaseEvent(ev[i]);
    free(ev);
    if (t < best) {
      best = t;
      *enqueue_s = (submitted - t0) / LAUNCHES;
      *finish_s = (end - finishing) / LAUNCHES;
    }
  }
  clReleaseCommandQueue(q);
  return best;
}

static bool open_platform(const char *want, setup *s) {
  cl_platform_id platform = bench_find_platform(want);
  if (!platform)
    return false;
  cl_int err;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &s->dev, NULL));
  s->ctx = clCreateContext(NULL, 1, &s->dev, NULL, NULL, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(s->ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &s->dev, "", NULL, NULL));
  s->k = clCreateKernel(p, "stencil", &err);
  CHECK(err);
  clReleaseProgram(p);
  s->in = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, (size_t)W * W * 4, NULL, &err);
  CHECK(err);
  s->out = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, (size_t)W * W * 4, NULL, &err);
  CHECK(err);
  s->w = W;
  return true;
}

int main(int argc, char **argv) {
  const char *want = argc > 1 ? argv[1] : "NVIDIA";
  setup s = {0};
  touch_area = calloc(1, TOUCH_BYTES);
  if (!touch_area)
    return 1;
  if (!open_platform(want, &s)) {
    fprintf(stderr, "no platform '%s'\n", want);
    return 1;
  }
  const mode modes[] = {
      {"baseline (args once, no events)", false, false, false, false, false},
      {"+ arguments set per launch", true, false, false, false, false},
      {"+ an event per launch", true, true, false, false, false},
      {"+ clFlush per launch", true, true, true, false, false},
      {"+ profiling queue", true, true, true, true, false},
      {"+ a thread waiting each event", true, true, true, true, true},
      {"events + waiter, no flush", true, true, false, true, true},
      {"+ waiter woken by callbacks", true, true, true, true, true, 0, true},
      {"no profiling, flush, event + waiter", true, true, true, false, true},
      {"the same, a marker each 8 launches", true, false, true, false, true, 8},
      {"the same, woken by callbacks", true, false, true, false, true, 8, true},
      {"a marker each 8, callbacks, no flush", true, false, false, false, true, 8, true},
      /* hetGPU's untimed launches: no event, a flush each, a marker when someone waits */
      {"args, no events, flush per launch", true, false, true, false, false},
      {"args, no events, a flush each 4", true, false, false, false, false, 0, false, 0, 4},
      {"args, no events, a flush each 16", true, false, false, false, false, 0, false, 0, 16},
      {"args, no events, a flush each 64", true, false, false, false, false, 0, false, 0, 64},
      {"args, no events, a flush each 256", true, false, false, false, false, 0, false, 0, 256},
      {"flush per launch, marker each 64 waited", true, false, true, false, true, 64},
      {"flush per launch, marker each 64 polled", true, false, true, false, true, 64, false, 100},
      {"flush per launch, marker each 8 polled", true, false, true, false, true, 8, false, 100},
      {"flush each 16, marker each 64 polled", true, false, false, false, true, 64, false, 100, 16},
      {"args, no events, settled 20 ms", true, false, false, false, false, 0, false, 0, 0, 20},
      {.name = "flush each 16, a zero global offset", .args_each = true, .flush_every = 16, .zero_offset = true},
      {.name = "flush each 16, 2 KB written per launch", .args_each = true, .flush_every = 16, .touch_kb = 2},
      {.name = "flush each 16, 8 KB written per launch", .args_each = true, .flush_every = 16, .touch_kb = 8},
      {.name = "flush each 16, 32 KB written per launch", .args_each = true, .flush_every = 16, .touch_kb = 32},
      /* NVIDIA's enqueue drifts over a run (4.8-7.2 us early, 6-8.5 late, H200): the last
       * row repeats the second for the rows measured late, hetGPU's among them */
      {.name = "args, no events (again, for the drift)", .args_each = true},
  };
  printf("%-40s %12s %12s %12s\n", "vendor submission path", "us/launch", "of it enqueue", "clFinish");
  double enq, fin;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    double t = run_mode(&s, &modes[i], &enq, &fin);
    printf("%-40s %12.2f %12.2f %12.2f\n", modes[i].name, t * 1e6, enq * 1e6, fin * 1e6);
  }
  /* whether the vendor's enqueue costs more in a context with many buffers (hetGPU's has its
   * own besides the application's) */
  enum { EXTRA_BUFFERS = 256 };
  cl_mem extra[EXTRA_BUFFERS];
  cl_int err;
  cl_command_queue fill = clCreateCommandQueueWithProperties(s.ctx, s.dev, NULL, &err);
  CHECK(err);
  const unsigned char byte = 1;
  for (int i = 0; i < EXTRA_BUFFERS; i++) { /* written once: resident on the device */
    extra[i] = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    CHECK(err);
    CHECK(clEnqueueFillBuffer(fill, extra[i], &byte, 1, 0, 1 << 20, 0, NULL, NULL));
  }
  CHECK(clFinish(fill));
  clReleaseCommandQueue(fill);
  const mode crowded = {.name = "flush each 16, 256 more buffers", .args_each = true, .flush_every = 16};
  double t = run_mode(&s, &crowded, &enq, &fin);
  printf("%-40s %12.2f %12.2f %12.2f\n", crowded.name, t * 1e6, enq * 1e6, fin * 1e6);
  for (int i = 0; i < EXTRA_BUFFERS; i++)
    clReleaseMemObject(extra[i]);
  setup h = {0};
  if (open_platform("hetGPU", &h)) {
    const mode hetgpu[] = {{"hetGPU (args once, no events)", false, false, false, false, false},
                           {"hetGPU, settled 20 ms", false, false, false, false, false, 0, false, 0, 0, 20}};
    for (size_t i = 0; i < sizeof hetgpu / sizeof hetgpu[0]; i++) {
      double t = run_mode(&h, &hetgpu[i], &enq, &fin);
      printf("%-40s %12.2f %12.2f %12.2f\n", hetgpu[i].name, t * 1e6, enq * 1e6, fin * 1e6);
    }
  }
  return 0;
}
