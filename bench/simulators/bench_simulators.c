/* bench-simulators: the same kernels on hetGPU's RISC-V many-core (HETGPU_BACKEND=riscv, set
 * here before the first OpenCL call), on PoCL (native CPU) and on oclgrind (the other OpenCL
 * device simulator), in one run, with hetGPU's times as ratios to the others. Results are
 * checked against PoCL's. Platforms that are not visible are skipped (bench/simulators/run.sh
 * makes all three visible). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench_util.h"

static const char *source =
    "__kernel void saxpy(__global const float *x, __global float *y, float a) {\n"
    "  size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n"
    "__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s >>= 1) { if (l < s) tmp[l] += tmp[l + s]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0]; }\n"
    "__kernel void matmul(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "  __local float ta[8][8], tb[8][8];\n"
    "  int row = get_global_id(1), col = get_global_id(0), lr = get_local_id(1), lc = get_local_id(0);\n"
    "  float sum = 0.0f;\n"
    "  for (int t = 0; t < n; t += 8) {\n"
    "    ta[lr][lc] = a[row * n + t + lc]; tb[lr][lc] = b[(t + lr) * n + col]; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < 8; k++) sum += ta[lr][k] * tb[k][lc];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "  c[row * n + col] = sum; }\n"
    "__kernel void mandel(__global int *out, int w, int iters) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / w, zr = 0.0f, zi = 0.0f; int k = 0;\n"
    "  while (k < iters && zr * zr + zi * zi < 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; k++; }\n"
    "  out[y * w + x] = k; }\n";

enum { N = 1 << 16, MM = 64, MW = 128 };

typedef struct target {
  const char *label, *platform;
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q;
  cl_program prog;
  double t[4];   /* seconds per launch */
  float *result[4];
} target;

static bool setup(target *t) {
  cl_platform_id ids[16];
  cl_uint n = 0;
  clGetPlatformIDs(16, ids, &n);
  for (cl_uint i = 0; i < n; i++) {
    char name[256];
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strstr(name, t->platform) || clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &t->dev, NULL) != CL_SUCCESS)
      continue;
    cl_int err;
    t->ctx = clCreateContext(NULL, 1, &t->dev, NULL, NULL, &err);
    /* the OpenCL 1.2 entry point: oclgrind 21.10 is a 1.2 platform */
    t->q = clCreateCommandQueue(t->ctx, t->dev, CL_QUEUE_PROFILING_ENABLE, &err);
    t->prog = clCreateProgramWithSource(t->ctx, 1, &source, NULL, &err);
    if (clBuildProgram(t->prog, 1, &t->dev, NULL, NULL, NULL) != CL_SUCCESS) {
      fprintf(stderr, "%s: build failed\n", t->label);
      return false;
    }
    return true;
  }
  return false;
}

static cl_mem buf(target *t, size_t bytes, const void *init) {
  cl_int err;
  return clCreateBuffer(t->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)init, &err);
}

/* Runs kernel k of the set `reps` times; records time per launch and the output. */
static void run(target *t, int k, const float *x, const float *y, int reps) {
  cl_int err;
  static const char *names[4] = {"saxpy", "reduce", "matmul", "mandel"};
  cl_kernel kern = clCreateKernel(t->prog, names[k], &err);
  cl_mem m[3] = {0};
  size_t global[2] = {N, 1}, local[2] = {64, 1}, out_bytes = 0;
  cl_uint dim = 1;
  float a = 1.5f;
  int n = MM, w = MW, iters = 64;
  cl_mem out = NULL;
  if (k == 0) {
    m[0] = buf(t, N * 4, x), m[1] = out = buf(t, N * 4, y), out_bytes = N * 4;
    clSetKernelArg(kern, 0, sizeof(cl_mem), &m[0]), clSetKernelArg(kern, 1, sizeof(cl_mem), &m[1]);
    clSetKernelArg(kern, 2, sizeof a, &a);
    reps = 1; /* saxpy accumulates: one launch keeps the check simple */
  } else if (k == 1) {
    m[0] = buf(t, N * 4, x), m[1] = out = buf(t, N / 64 * 4, NULL), out_bytes = N / 64 * 4;
    clSetKernelArg(kern, 0, sizeof(cl_mem), &m[0]), clSetKernelArg(kern, 1, sizeof(cl_mem), &m[1]);
    clSetKernelArg(kern, 2, 64 * 4, NULL);
  } else if (k == 2) {
    m[0] = buf(t, MM * MM * 4, x), m[1] = buf(t, MM * MM * 4, y), m[2] = out = buf(t, MM * MM * 4, NULL);
    out_bytes = MM * MM * 4;
    for (int i = 0; i < 3; i++)
      clSetKernelArg(kern, i, sizeof(cl_mem), &m[i]);
    clSetKernelArg(kern, 3, sizeof n, &n);
    dim = 2, global[0] = global[1] = MM, local[0] = local[1] = 8;
  } else {
    m[0] = out = buf(t, MW * MW * 4, NULL), out_bytes = MW * MW * 4;
    clSetKernelArg(kern, 0, sizeof(cl_mem), &m[0]);
    clSetKernelArg(kern, 1, sizeof w, &w), clSetKernelArg(kern, 2, sizeof iters, &iters);
    dim = 2, global[0] = global[1] = MW, local[0] = local[1] = 8;
  }
  /* one untimed launch first: each platform's first launch includes its own JIT work (every
   * target runs the same launches, so saxpy's accumulation stays comparable) */
  clEnqueueNDRangeKernel(t->q, kern, dim, NULL, global, local, 0, NULL, NULL);
  clFinish(t->q);
  double t0 = bench_now_s();
  for (int r = 0; r < reps; r++)
    clEnqueueNDRangeKernel(t->q, kern, dim, NULL, global, local, 0, NULL, NULL);
  clFinish(t->q);
  t->t[k] = (bench_now_s() - t0) / reps;
  t->result[k] = malloc(out_bytes);
  clEnqueueReadBuffer(t->q, out, CL_TRUE, 0, out_bytes, t->result[k], 0, NULL, NULL);
  for (int i = 0; i < 3; i++)
    if (m[i])
      clReleaseMemObject(m[i]);
  clReleaseKernel(kern);
}

static size_t out_count(int k) { return k == 0 ? N : k == 1 ? N / 64 : k == 2 ? MM * MM : MW * MW; }

int main(void) {
  setenv("HETGPU_BACKEND", "riscv", 1); /* hetGPU's backend for this run */
  int reps = getenv("HETGPU_BENCH_ITERS") ? atoi(getenv("HETGPU_BENCH_ITERS")) : 3;
  target targets[3] = {{.label = "hetGPU riscv", .platform = "hetGPU"},
                       {.label = "PoCL", .platform = "Portable"},
                       {.label = "oclgrind", .platform = "Oclgrind"}};
  bool have[3];
  for (int i = 0; i < 3; i++) {
    have[i] = setup(&targets[i]);
    if (!have[i])
      printf("%s: not available, skipped\n", targets[i].label);
  }
  if (!have[0]) {
    fprintf(stderr, "hetGPU is needed\n");
    return 1;
  }
  float *x = malloc(N * 4), *y = malloc(N * 4);
  for (int i = 0; i < N; i++)
    x[i] = (float)((i * 2654435761u) % 1000) / 1000.0f, y[i] = (float)(i % 17) / 17.0f;
  static const char *names[4] = {"saxpy 64Ki", "reduce 64Ki", "matmul 64x64", "mandel 128x128"};
  printf("%-16s %14s %14s %14s %9s %9s  %s\n", "kernel", "hetGPU riscv", "PoCL", "oclgrind",
         "/PoCL", "/oclgrind", "check");
  int bad = 0;
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < 3; i++)
      if (have[i])
        run(&targets[i], k, x, y, reps);
    const char *check = "-";
    if (have[1]) {
      check = "matches PoCL";
      for (size_t j = 0; j < out_count(k); j++) {
        float a = targets[0].result[k][j], b = targets[1].result[k][j];
        if (!(fabsf(a - b) <= 1e-3f * fmaxf(1.0f, fabsf(b)))) {
          check = "DIFFERS";
          bad++;
          break;
        }
      }
    }
    printf("%-16s %11.3f ms", names[k], targets[0].t[k] * 1e3);
    for (int i = 1; i < 3; i++) {
      if (have[i])
        printf(" %11.3f ms", targets[i].t[k] * 1e3);
      else
        printf(" %14s", "-");
    }
    printf(" %9.2f %9.2f  %s\n", have[1] ? targets[0].t[k] / targets[1].t[k] : 0.0,
           have[2] ? targets[0].t[k] / targets[2].t[k] : 0.0, check);
  }
  return bad ? 1 : 0;
}
