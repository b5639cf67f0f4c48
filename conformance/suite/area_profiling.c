/* Area profiling: the timestamps of commands on a profiling queue. For kernels and for every
 * kind of transfer: all four (five with CL_PROFILING_COMMAND_COMPLETE) are there, nonzero and
 * ordered QUEUED <= SUBMIT <= START <= END <= COMPLETE; on an in-order queue a command starts
 * after the previous one ended; the device's duration of a command fits within the host time
 * spent waiting for it (plausible, with a generous margin: no speed is asserted); where the
 * platform has a host timer, clGetDeviceAndHostTimer brackets the QUEUED time. Profiling info
 * of a queue without profiling, or of a user event, is CL_PROFILING_INFO_NOT_AVAILABLE. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("", "");
  suite_batch_add(b, "pr_work", "__kernel void pr_work(__global uint *x, uint rounds) {\n"
                                "  size_t i = get_global_id(0);\n  uint v = x[i];\n"
                                "  for (uint r = 0; r < rounds; r++) v = v * 1664525u + 1013904223u;\n  x[i] = v;\n}\n");
  return b;
}

static uint32_t lcg(uint32_t v, uint32_t rounds) {
  for (uint32_t r = 0; r < rounds; r++)
    v = v * 1664525u + 1013904223u;
  return v;
}

static double host_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static cl_command_queue profiling_queue(void) {
  cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(S.ctx, S.device, p, &err);
  if (err != CL_SUCCESS)
    suite_fail("profiling queue: %d", err);
  return q;
}

typedef struct {
  cl_ulong t[5]; /* queued, submit, start, end, complete */
} stamps;

/* Reads and checks one event's timestamps. */
static bool get_stamps(cl_event e, const char *what, stamps *s) {
  static const cl_profiling_info P[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                         CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                         CL_PROFILING_COMMAND_COMPLETE};
  static const char *const N[5] = {"QUEUED", "SUBMIT", "START", "END", "COMPLETE"};
  for (int i = 0; i < 5; i++) {
    size_t rs = 0;
    cl_int err = clGetEventProfilingInfo(e, P[i], sizeof s->t[i], &s->t[i], &rs);
    if (err != CL_SUCCESS || rs != sizeof(cl_ulong)) {
      suite_fail("%s: CL_PROFILING_COMMAND_%s: %d (%zu bytes)", what, N[i], err, rs);
      return false;
    }
    if (s->t[i] == 0) {
      suite_fail("%s: CL_PROFILING_COMMAND_%s is 0", what, N[i]);
      return false;
    }
    if (i > 0 && s->t[i] < s->t[i - 1]) {
      suite_fail("%s: %s %llu < %s %llu", what, N[i], (unsigned long long)s->t[i], N[i - 1], (unsigned long long)s->t[i - 1]);
      return false;
    }
  }
  return true;
}

SUITE_TEST(profiling, kernel_timestamps) {
  cl_command_queue q = profiling_queue();
  cl_kernel k = q ? suite_batch_kernel(batch(), "pr_work") : NULL;
  size_t n = 64 * 1024, bytes = n * 4;
  uint32_t *init = malloc(bytes), *back = malloc(bytes), rounds = 200;
  suite_fill(init, bytes);
  cl_mem m = suite_buffer(bytes, init);
  cl_ulong res = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof res, &res, NULL);
  if (!k || !m)
    goto out;
  REQUIRE(res > 0, "CL_DEVICE_PROFILING_TIMER_RESOLUTION is 0");
  if (!suite_args(k, 2, sizeof m, &m, sizeof rounds, &rounds))
    goto out;
  cl_event e = NULL;
  double h0 = host_ns();
  CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &e));
  CL_OK(clWaitForEvents(1, &e));
  double h1 = host_ns();
  stamps s;
  if (get_stamps(e, "kernel", &s)) {
    double dur = (double)(s.t[3] - s.t[2]), span = (double)(s.t[3] - s.t[0]);
    /* plausible: the device cannot have worked longer than the host waited (margin for clocks) */
    if (dur > (h1 - h0) * 1.5 + 5e6 || span > (h1 - h0) * 1.5 + 5e6)
      suite_fail("kernel: START..END %.0f ns and QUEUED..END %.0f ns, but the host waited only %.0f ns", dur, span, h1 - h0);
    else if (dur == 0 && res > 1000000)
      suite_fail("kernel took 0 ns at a resolution of %llu ns", (unsigned long long)res);
  }
  clReleaseEvent(e);
  if (!suite_failed() && suite_read(m, back, bytes))
    for (size_t i = 0; i < n; i++)
      if (back[i] != lcg(init[i], rounds)) {
        suite_fail("the profiled kernel's item %zu is wrong", i);
        break;
      }
out:
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
  if (q) clReleaseCommandQueue(q);
  free(init), free(back);
}

/* Every kind of transfer, a kernel and a marker in one in-order queue: each one's timestamps
 * are ordered, and each starts after the previous one ended. */
SUITE_TEST(profiling, transfer_timestamps_in_order) {
  cl_command_queue q = profiling_queue();
  cl_kernel k = q ? suite_batch_kernel(batch(), "pr_work") : NULL;
  size_t n = 256 * 1024, bytes = n * 4;
  uint32_t *host = malloc(bytes), rounds = 3, pat = 0x12345678;
  suite_fill(host, bytes);
  cl_int err;
  cl_mem a = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err), b = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_event e[8] = {0};
  static const char *const WHAT[8] = {"write", "kernel", "copy", "fill", "read", "map", "unmap", "rect read"};
  if (!k || !a || !b)
    goto out;
  size_t org[3] = {0, 0, 0}, reg[3] = {256, 64, 1};
  void *p = NULL;
  err = clEnqueueWriteBuffer(q, a, CL_FALSE, 0, bytes, host, 0, NULL, &e[0]);
  if (!err) err = clSetKernelArg(k, 0, sizeof a, &a);
  if (!err) err = clSetKernelArg(k, 1, sizeof rounds, &rounds);
  if (!err) err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &e[1]);
  if (!err) err = clEnqueueCopyBuffer(q, a, b, 0, 0, bytes, 0, NULL, &e[2]);
  if (!err) err = clEnqueueFillBuffer(q, a, &pat, 4, 0, bytes, 0, NULL, &e[3]);
  if (!err) err = clEnqueueReadBuffer(q, b, CL_FALSE, 0, bytes, host, 0, NULL, &e[4]);
  if (!err) p = clEnqueueMapBuffer(q, a, CL_FALSE, CL_MAP_READ, 0, bytes, 0, NULL, &e[5], &err);
  if (!err) err = clEnqueueUnmapMemObject(q, a, p, 0, NULL, &e[6]);
  if (!err) err = clEnqueueReadBufferRect(q, b, CL_FALSE, org, org, reg, 1024, 0, 256, 0, host, 0, NULL, &e[7]);
  if (err != CL_SUCCESS) {
    suite_fail("enqueueing: %d", err);
    goto out;
  }
  CL_OK(clFinish(q));
  stamps prev = {{0}}, s;
  for (int i = 0; i < 8; i++) {
    if (!get_stamps(e[i], WHAT[i], &s))
      break;
    if (i > 0 && s.t[2] < prev.t[3]) {
      suite_fail("in-order queue: %s started at %llu before %s ended at %llu", WHAT[i], (unsigned long long)s.t[2],
                 WHAT[i - 1], (unsigned long long)prev.t[3]);
      break;
    }
    prev = s;
  }
out:
  for (int i = 0; i < 8; i++)
    if (e[i]) clReleaseEvent(e[i]);
  if (k) clReleaseKernel(k);
  if (a) clReleaseMemObject(a);
  if (b) clReleaseMemObject(b);
  if (q) clReleaseCommandQueue(q);
  free(host);
}

/* Markers on a profiling queue have timestamps too; a user event and a command of a queue
 * without profiling have none. */
SUITE_TEST(profiling, not_available_cases) {
  cl_command_queue q = profiling_queue();
  if (!q)
    return;
  cl_event mk = NULL, plain = NULL;
  cl_int err;
  cl_event user = clCreateUserEvent(S.ctx, &err);
  CL_OK(err);
  uint32_t pat = 1;
  cl_mem m = suite_buffer(4096, NULL);
  if (m && clEnqueueFillBuffer(q, m, &pat, 4, 0, 4096, 0, NULL, NULL) == CL_SUCCESS &&
      clEnqueueMarkerWithWaitList(q, 0, NULL, &mk) == CL_SUCCESS && clWaitForEvents(1, &mk) == CL_SUCCESS) {
    stamps s;
    get_stamps(mk, "marker", &s);
  } else if (!suite_failed())
    suite_fail("marker on a profiling queue failed");
  cl_ulong t = 0;
  if (!suite_failed()) {
    err = clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL);
    if (err != CL_PROFILING_INFO_NOT_AVAILABLE)
      suite_fail("profiling info of a user event: %d, expected CL_PROFILING_INFO_NOT_AVAILABLE", err);
  }
  if (!suite_failed() && m && clEnqueueFillBuffer(S.q, m, &pat, 4, 0, 4096, 0, NULL, &plain) == CL_SUCCESS &&
      clWaitForEvents(1, &plain) == CL_SUCCESS) {
    err = clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL);
    if (err != CL_PROFILING_INFO_NOT_AVAILABLE)
      suite_fail("profiling info on a queue without profiling: %d, expected CL_PROFILING_INFO_NOT_AVAILABLE", err);
  }
  clSetUserEventStatus(user, CL_COMPLETE);
  clReleaseEvent(user);
  if (mk) clReleaseEvent(mk);
  if (plain) clReleaseEvent(plain);
  if (m) clReleaseMemObject(m);
  clReleaseCommandQueue(q);
}

/* Many kernels back to back: every event's timestamps ordered and the sequence monotonic; the
 * device timer, where clGetDeviceAndHostTimer works, brackets each QUEUED time. */
SUITE_TEST(profiling, sequence_and_device_timer) {
  cl_command_queue q = profiling_queue();
  cl_kernel k = q ? suite_batch_kernel(batch(), "pr_work") : NULL;
  size_t n = 8192, bytes = n * 4;
  cl_mem m = suite_buffer(bytes, NULL);
  uint32_t rounds = 50;
  cl_event e[32] = {0};
  cl_ulong before[32], after[32];
  bool have_timer = true;
  cl_ulong hres = 0;
  clGetPlatformInfo(S.platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof hres, &hres, NULL);
  if (!k || !m || !suite_args(k, 2, sizeof m, &m, sizeof rounds, &rounds))
    goto out;
  for (int i = 0; i < 32; i++) {
    cl_ulong host = 0;
    if (have_timer && (hres == 0 || clGetDeviceAndHostTimer(S.device, &before[i], &host) != CL_SUCCESS))
      have_timer = false;
    CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &e[i]));
    if (have_timer && clGetDeviceAndHostTimer(S.device, &after[i], &host) != CL_SUCCESS)
      have_timer = false;
  }
  CL_OK(clFinish(q));
  stamps prev = {{0}}, s;
  for (int i = 0; i < 32; i++) {
    char what[32];
    snprintf(what, sizeof what, "kernel %d", i);
    if (!get_stamps(e[i], what, &s))
      break;
    if (i > 0 && (s.t[0] < prev.t[0] || s.t[2] < prev.t[3])) {
      suite_fail("kernel %d queued at %llu / started at %llu, kernel %d queued at %llu / ended at %llu", i,
                 (unsigned long long)s.t[0], (unsigned long long)s.t[2], i - 1, (unsigned long long)prev.t[0],
                 (unsigned long long)prev.t[3]);
      break;
    }
    if (have_timer && (s.t[0] < before[i] || s.t[0] > after[i])) {
      suite_fail("kernel %d: QUEUED %llu outside the device timer's %llu..%llu around the enqueue", i,
                 (unsigned long long)s.t[0], (unsigned long long)before[i], (unsigned long long)after[i]);
      break;
    }
    prev = s;
  }
out:
  for (int i = 0; i < 32; i++)
    if (e[i]) clReleaseEvent(e[i]);
  if (k) clReleaseKernel(k);
  if (m) clReleaseMemObject(m);
  if (q) clReleaseCommandQueue(q);
}
