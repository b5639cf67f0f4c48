/* bench-round: the calls of a hashcat-style host loop, each timed on hetGPU beside the native
 * platform in one process: a long kernel waited for through its event, then a blocking 4-byte
 * read, a small kernel, a 4 KiB copy, a blocking 64-byte write and the next long kernel; and the
 * same calls alone, after a clFinish. Medians over the rounds, in microseconds, on in-order
 * queues with profiling (as hashcat's). The long kernel's loop is calibrated on each platform to
 * take about HETGPU_BENCH_LONG_US (default 9000: hashcat -m 0's kernel on an H200).
 * Usage: bench-round [NATIVE_PLATFORM_SUBSTRING] (default "Portable"; hetGPU must be visible too). */
#include <stdint.h>

#include "bench_util.h"

enum { ROUNDS = 200, SMALL = 1024 };

static const char *src =
    "__kernel void small(__global uint *a) { a[get_global_id(0)] += 1; }\n"
    "__kernel void spin(__global uint *a, uint n) {\n"
    "  uint x = get_global_id(0);\n"
    "  for (uint i = 0; i < n; i++) x = x * 1664525u + 1013904223u;\n"
    "  if (x == 7u) a[0] = x; }\n";

enum { LONG_WAIT, READ4, SMALL_ENQ, COPY_ENQ, WRITE64, LONG_ENQ, ROUND, /* after a long kernel */
       A_SMALL_ENQ, A_READ4, A_READ4_EVENT, A_WRITE64, A_COPY_ENQ, A_SMALL_WAIT, NUM_MEASURES };

static const char *const names[NUM_MEASURES] = {
    "long kernel: its wait",       "  then blocking read 4 B",  "  small kernel enqueue",
    "  copy 4 KiB enqueue",        "  blocking write 64 B",     "  next long kernel enqueue",
    "  the round without the wait", "alone: small kernel enqueue", "alone: blocking read 4 B",
    "alone: read 4 B + its wait",  "alone: blocking write 64 B", "alone: copy 4 KiB enqueue",
    "alone: small kernel + wait"};

typedef struct run {
  cl_context ctx;
  cl_command_queue q;
  cl_kernel small, spin;
  cl_mem a, b;
  size_t long_global;
  double t[NUM_MEASURES][ROUNDS];
} run;

static double now_us(void) { return bench_now_s() * 1e6; }

static double median(double *v) {
  bench_sort(v, ROUNDS);
  return v[ROUNDS / 2];
}

static void setup(run *r, cl_platform_id p, double long_us) {
  cl_device_id d;
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_int err;
  r->ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  r->q = clCreateCommandQueueWithProperties(r->ctx, d, props, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(r->ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  r->small = clCreateKernel(prog, "small", &err);
  CHECK(err);
  r->spin = clCreateKernel(prog, "spin", &err);
  CHECK(err);
  clReleaseProgram(prog);
  r->a = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
  CHECK(err);
  r->b = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(r->small, 0, sizeof r->a, &r->a));
  CHECK(clSetKernelArg(r->spin, 0, sizeof r->a, &r->a));
  cl_uint units = 1;
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
  r->long_global = (size_t)units * 1024;
  /* the long kernel's loop count, scaled until a launch takes about long_us: the fastest of
   * three launches each step (a CPU platform's launches vary with what else runs) */
  cl_uint n = 1u << 10;
  for (int i = 0; i < 6; i++) {
    CHECK(clSetKernelArg(r->spin, 1, sizeof n, &n));
    double took = 1e30;
    for (int k = 0; k < 3; k++) {
      double t0 = now_us();
      CHECK(clEnqueueNDRangeKernel(r->q, r->spin, 1, NULL, &r->long_global, NULL, 0, NULL, NULL));
      CHECK(clFinish(r->q));
      double t = now_us() - t0;
      took = t < took ? t : took;
    }
    double scaled = n * long_us / (took > 1 ? took : 1);
    n = scaled > 1 << 30 ? 1u << 30 : scaled < 1 ? 1 : (cl_uint)scaled;
  }
  CHECK(clSetKernelArg(r->spin, 1, sizeof n, &n));
}

static void rounds(run *r) {
  uint32_t v[16] = {0};
  size_t small = SMALL;
  cl_event ev;
  double t0;
  for (int i = 0; i < ROUNDS; i++) { /* the same calls alone */
    t0 = now_us();
    CHECK(clEnqueueNDRangeKernel(r->q, r->small, 1, NULL, &small, NULL, 0, NULL, NULL));
    r->t[A_SMALL_ENQ][i] = now_us() - t0;
    CHECK(clFinish(r->q));
    t0 = now_us();
    CHECK(clEnqueueReadBuffer(r->q, r->a, CL_TRUE, 0, 4, v, 0, NULL, NULL));
    r->t[A_READ4][i] = now_us() - t0;
    t0 = now_us();
    CHECK(clEnqueueReadBuffer(r->q, r->a, CL_FALSE, 0, 4, v, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    r->t[A_READ4_EVENT][i] = now_us() - t0;
    clReleaseEvent(ev);
    t0 = now_us();
    CHECK(clEnqueueWriteBuffer(r->q, r->b, CL_TRUE, 8192, 64, v, 0, NULL, NULL));
    r->t[A_WRITE64][i] = now_us() - t0;
    t0 = now_us();
    CHECK(clEnqueueCopyBuffer(r->q, r->a, r->b, 0, 0, 4096, 0, NULL, NULL));
    r->t[A_COPY_ENQ][i] = now_us() - t0;
    CHECK(clFinish(r->q));
    t0 = now_us();
    CHECK(clEnqueueNDRangeKernel(r->q, r->small, 1, NULL, &small, NULL, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    r->t[A_SMALL_WAIT][i] = now_us() - t0;
    clReleaseEvent(ev);
  }
  CHECK(clEnqueueNDRangeKernel(r->q, r->spin, 1, NULL, &r->long_global, NULL, 0, NULL, &ev));
  CHECK(clFlush(r->q));
  for (int i = 0; i < ROUNDS; i++) { /* hashcat's round */
    t0 = now_us();
    CHECK(clWaitForEvents(1, &ev));
    double start = now_us();
    r->t[LONG_WAIT][i] = start - t0;
    clReleaseEvent(ev);
    CHECK(clEnqueueReadBuffer(r->q, r->a, CL_TRUE, 0, 4, v, 0, NULL, NULL));
    r->t[READ4][i] = (t0 = now_us()) - start;
    CHECK(clEnqueueNDRangeKernel(r->q, r->small, 1, NULL, &small, NULL, 0, NULL, NULL));
    r->t[SMALL_ENQ][i] = now_us() - t0;
    t0 = now_us();
    CHECK(clEnqueueCopyBuffer(r->q, r->a, r->b, 0, 0, 4096, 0, NULL, NULL));
    r->t[COPY_ENQ][i] = now_us() - t0;
    t0 = now_us();
    CHECK(clEnqueueWriteBuffer(r->q, r->b, CL_TRUE, 8192, 64, v, 0, NULL, NULL));
    r->t[WRITE64][i] = now_us() - t0;
    t0 = now_us();
    CHECK(clEnqueueNDRangeKernel(r->q, r->spin, 1, NULL, &r->long_global, NULL, 0, NULL, &ev));
    CHECK(clFlush(r->q));
    r->t[LONG_ENQ][i] = now_us() - t0;
    r->t[ROUND][i] = now_us() - start;
  }
  CHECK(clWaitForEvents(1, &ev));
  clReleaseEvent(ev);
}

int main(int argc, char **argv) {
  const char *native_name = argc > 1 ? argv[1] : "Portable";
  const char *long_env = getenv("HETGPU_BENCH_LONG_US");
  double long_us = long_env ? atof(long_env) : 9000;
  cl_platform_id het = bench_find_platform("hetGPU"), nat = bench_find_platform(native_name);
  if (!het || !nat) {
    fprintf(stderr, "bench-round: needs the hetGPU platform and one named like '%s' (OCL_ICD_VENDORS)\n",
            native_name);
    return 1;
  }
  static run h, n;
  setup(&h, het, long_us);
  setup(&n, nat, long_us);
  rounds(&h);
  rounds(&n);
  char device[256] = "";
  cl_device_id d;
  CHECK(clGetDeviceIDs(nat, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  CHECK(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof device, device, NULL));
  printf("native device: %s; medians of %d rounds, microseconds\n", device, ROUNDS);
  printf("%-32s %10s %10s %8s\n", "measure", "hetGPU", "native", "ratio");
  for (int m = 0; m < NUM_MEASURES; m++) {
    double x = median(h.t[m]), y = median(n.t[m]);
    printf("%-32s %10.1f %10.1f %8.3f\n", names[m], x, y, y > 0 ? x / y : 0);
  }
  return 0;
}
