/* bench-kernel-once: one launch of one bench kernel (bench/bench_kernels_src.h) on one
 * platform, made to be counted by callgrind on a CPU platform (bench/callgrind_kernels.sh): the
 * instructions of the work-group function the platform compiled, which repeat exactly where
 * wall times on a loaded machine do not.
 * Usage: bench-kernel-once PLATFORM_SUBSTRING KERNEL [WORK_ITEMS] */
#include <stdbool.h>

#include "bench_kernels_src.h"
#include "bench_util.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PLATFORM vadd|sgemm|reduce|stencil|nbody|triad|xaxpy|hashint [WORK_ITEMS]\n", argv[0]);
    return 2;
  }
  const char *name = argv[2];
  size_t n = argc > 3 ? strtoul(argv[3], NULL, 0) : 65536;
  cl_platform_id p = bench_find_platform(argv[1]);
  if (!p || n < 1024 || n % 256) {
    fprintf(stderr, "no platform matching '%s', or WORK_ITEMS not a multiple of 256 from 1024\n", argv[1]);
    return 1;
  }
  cl_int err;
  cl_device_id dev;
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  const char *src = hg_bench_kernels_src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prog, name, &err);
  CHECK(err);
  /* three buffers of n 16-byte elements (float4 for nbody and xaxpy), words of a fixed pattern */
  unsigned *host = malloc(n * 16);
  for (size_t i = 0; i < n * 4; i++)
    host[i] = (unsigned)(i * 2654435761u) % 1000u;
  cl_mem buf[3];
  for (int i = 0; i < 3; i++) {
    buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 16, host, &err);
    CHECK(err);
  }
  float scalar = 0.5f;
  int side = 256, count = (int)n, bodies = 1024;
  cl_uint dims = 1;
  size_t global[2] = {n, 1}, local[2] = {256, 1};
  if (!strcmp(name, "vadd") || !strcmp(name, "triad") || !strcmp(name, "sgemm"))
    for (int i = 0; i < 3; i++)
      CHECK(clSetKernelArg(k, i, sizeof buf[i], &buf[i]));
  else
    for (int i = 0; i < 2; i++)
      CHECK(clSetKernelArg(k, i, sizeof buf[i], &buf[i]));
  if (!strcmp(name, "triad")) {
    CHECK(clSetKernelArg(k, 3, sizeof scalar, &scalar));
  } else if (!strcmp(name, "reduce")) {
    CHECK(clSetKernelArg(k, 2, 256 * sizeof(float), NULL));
  } else if (!strcmp(name, "xaxpy")) {
    count = (int)(n / 4);
    CHECK(clSetKernelArg(k, 2, sizeof scalar, &scalar));
    CHECK(clSetKernelArg(k, 3, sizeof count, &count));
  } else if (!strcmp(name, "sgemm") || !strcmp(name, "stencil")) {
    dims = 2;
    global[0] = global[1] = (size_t)side;
    local[0] = local[1] = 16;
    if (!strcmp(name, "stencil"))
      CHECK(clSetKernelArg(k, 2, sizeof side, &side)); /* w; h follows */
    CHECK(clSetKernelArg(k, 3, sizeof side, &side));
  } else if (!strcmp(name, "nbody")) {
    global[0] = (size_t)bodies;
    local[0] = 128;
    CHECK(clSetKernelArg(k, 2, sizeof buf[2], &buf[2]));
    CHECK(clSetKernelArg(k, 3, sizeof buf[2], &buf[2]));
    CHECK(clSetKernelArg(k, 4, sizeof bodies, &bodies));
    CHECK(clSetKernelArg(k, 5, sizeof scalar, &scalar));
  }
  CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL));
  CHECK(clFinish(q));
  bool three = !strcmp(name, "vadd") || !strcmp(name, "triad") || !strcmp(name, "sgemm") || !strcmp(name, "nbody");
  float first;
  CHECK(clEnqueueReadBuffer(q, buf[three ? 2 : 1], CL_TRUE, 0, sizeof first, &first, 0, NULL, NULL));
  printf("%s %s: first output word %g\n", argv[1], name, first);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(buf[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(host);
  return 0;
}
