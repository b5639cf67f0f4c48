/* bench-enqueue: the cost of one enqueue on one platform, made to be counted by callgrind
 * (instructions are repeatable on a loaded machine, wall time is not).
 * Usage: bench-enqueue PLATFORM_SUBSTRING MODE ITERATIONS
 *   MODE latency:  ITERATIONS x (empty kernel, clFinish)          - enqueue -> complete
 *   MODE latency-event: the same with the kernel's event, clFlush and clWaitForEvents
 *   MODE stream:   ITERATIONS empty kernels back to back, clFinish - enqueue cost when pipelined
 *   MODE bursts:   the same with a clFinish after every BURST launches (bench-kernels' rounds);
 *                  also prints the time inside each clFinish (the device's tail and the
 *                  completion of the burst's commands)
 *   MODE copy:     ITERATIONS x (1 KiB write, kernel, 1 KiB read) back to back, clFinish
 * Per-operation instructions: run twice with different ITERATIONS and divide the difference
 * of the totals by the difference of the iterations (setup and teardown cancel out). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"


#define BURST 50

static const char *src = "__kernel void empty(void) {}\n"
                         "__kernel void inc(__global int *a) { a[get_global_id(0)] += 1; }\n";

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s PLATFORM latency|latency-event|stream|bursts|copy ITERATIONS\n", argv[0]);
    return 2;
  }
  const char *want = argv[1], *mode = argv[2];
  int iters = atoi(argv[3]);
  cl_platform_id p = bench_find_platform(want);
  if (!p) {
    fprintf(stderr, "no platform matching '%s'\n", want);
    return 1;
  }
  cl_int err;
  cl_device_id dev;
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
  cl_kernel empty = clCreateKernel(prog, "empty", &err);
  CHECK(err);
  cl_kernel inc = clCreateKernel(prog, "inc", &err);
  CHECK(err);
  enum { WORDS = 256 };
  int host[WORDS] = {0}, back[WORDS];
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(inc, 0, sizeof buf, &buf));
  const size_t one = 1, words = WORDS;
  /* warm up: first launches build and create the backend kernels */
  CHECK(clEnqueueNDRangeKernel(q, empty, 1, NULL, &one, &one, 0, NULL, NULL));
  CHECK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(q, inc, 1, NULL, &words, NULL, 0, NULL, NULL));
  CHECK(clFinish(q));

  double t0 = bench_now_s();
  if (!strcmp(mode, "latency")) {
    for (int i = 0; i < iters; i++) {
      CHECK(clEnqueueNDRangeKernel(q, empty, 1, NULL, &one, &one, 0, NULL, NULL));
      CHECK(clFinish(q));
    }
  } else if (!strcmp(mode, "latency-event")) {
    /* the same through an event: what a driver layered on this platform does */
    for (int i = 0; i < iters; i++) {
      cl_event ev;
      CHECK(clEnqueueNDRangeKernel(q, empty, 1, NULL, &one, &one, 0, NULL, &ev));
      CHECK(clFlush(q));
      CHECK(clWaitForEvents(1, &ev));
      CHECK(clReleaseEvent(ev));
    }
  } else if (!strcmp(mode, "stream")) {
    for (int i = 0; i < iters; i++)
      CHECK(clEnqueueNDRangeKernel(q, empty, 1, NULL, &one, &one, 0, NULL, NULL));
    CHECK(clFinish(q));
  } else if (!strcmp(mode, "bursts")) {
    double in_finish = 0;
    int bursts = 0;
    for (int i = 0; i < iters; i++) {
      CHECK(clEnqueueNDRangeKernel(q, empty, 1, NULL, &one, &one, 0, NULL, NULL));
      if (i % BURST == BURST - 1) {
        double f0 = bench_now_s();
        CHECK(clFinish(q));
        in_finish += bench_now_s() - f0;
        bursts++;
      }
    }
    CHECK(clFinish(q));
    if (bursts)
      printf("%s bursts: %.3f us in each clFinish after %d launches\n", want, in_finish / bursts * 1e6, BURST);
  } else if (!strcmp(mode, "copy")) {
    for (int i = 0; i < iters; i++) {
      for (int w = 0; w < WORDS; w++)
        host[w] = i + w;
      CHECK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof host, host, 0, NULL, NULL));
      CHECK(clEnqueueNDRangeKernel(q, inc, 1, NULL, &words, NULL, 0, NULL, NULL));
      CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
      for (int w = 0; w < WORDS; w++)
        if (back[w] != i + w + 1) {
          fprintf(stderr, "iteration %d word %d: %d, expected %d\n", i, w, back[w], i + w + 1);
          return 1;
        }
    }
  } else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  double t = bench_now_s() - t0;
  printf("%s %s: %d iterations, %.3f us each\n", want, mode, iters, t / iters * 1e6);
  clReleaseMemObject(buf);
  clReleaseKernel(empty);
  clReleaseKernel(inc);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
