/* hetgpu-demo: a real OpenCL program run through whichever platform is named hetGPU: it
 * compiles a kernel (tiled matrix multiply with local memory and barriers), runs it over many
 * work-groups and checks every element against the host. Exit status 0 means correct.
 * `hetgpu-demo --repeat N` runs the multiply N times in one context, checking each result (a
 * long-running application for moving it between backends from outside with hetgpu-ctl). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256
#define TILE 16

static const char *source =
    "__kernel void matmul(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "  __local float ta[16][16], tb[16][16];\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  int lr = get_local_id(1), lc = get_local_id(0);\n"
    "  float sum = 0.0f;\n"
    "  for (int t = 0; t < n; t += 16) {\n"
    "    ta[lr][lc] = a[row * n + t + lc];\n"
    "    tb[lr][lc] = b[(t + lr) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < 16; k++) sum += ta[lr][k] * tb[k][lc];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = sum;\n"
    "}\n";

#define TRY(expr)                                                   \
  do {                                                              \
    cl_int e_ = (expr);                                             \
    if (e_ != CL_SUCCESS) {                                         \
      fprintf(stderr, "%s failed: %d\n", #expr, e_);                \
      return 1;                                                     \
    }                                                               \
  } while (0)

int main(int argc, char **argv) {
  int repeat = 1;
  if (argc == 3 && !strcmp(argv[1], "--repeat"))
    repeat = atoi(argv[2]);
  if ((argc != 1 && argc != 3) || repeat < 1) {
    fprintf(stderr, "usage: hetgpu-demo [--repeat N]\n");
    return 2;
  }
  cl_platform_id platforms[16], platform = NULL;
  cl_uint np = 0;
  TRY(clGetPlatformIDs(16, platforms, &np));
  for (cl_uint i = 0; i < np; i++) {
    char name[128];
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strcmp(name, "hetGPU"))
      platform = platforms[i];
  }
  if (!platform) {
    fprintf(stderr, "hetGPU platform not found\n");
    return 1;
  }
  cl_device_id dev;
  TRY(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  char dname[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  TRY(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  TRY(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  TRY(err);
  if (clBuildProgram(prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "matmul", &err);
  TRY(err);
  size_t bytes = sizeof(float) * N * N;
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  srand(12345);
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)rand() / RAND_MAX - 0.5f;
    b[i] = (float)rand() / RAND_MAX - 0.5f;
    c[i] = NAN;
  }
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  TRY(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
  TRY(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  TRY(err);
  int n = N;
  TRY(clSetKernelArg(k, 0, sizeof da, &da));
  TRY(clSetKernelArg(k, 1, sizeof db, &db));
  TRY(clSetKernelArg(k, 2, sizeof dc, &dc));
  TRY(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global[2] = {N, N}, local[2] = {TILE, TILE};
  double *ref = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int t = 0; t < N; t++)
        s += (double)a[i * N + t] * b[t * N + j];
      ref[i * N + j] = s;
    }
  int bad = 0;
  for (int r = 0; r < repeat && !bad; r++) {
    float poison = NAN;
    TRY(clEnqueueFillBuffer(q, dc, &poison, sizeof poison, 0, bytes, 0, NULL, NULL));
    TRY(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
    TRY(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
    for (int i = 0; i < N * N; i++)
      if (!(fabs(ref[i] - c[i]) <= 1e-3))
        bad++;
  }
  free(ref);
  printf("hetgpu-demo: %dx%d tiled matrix multiply on \"%s\": %s (%d wrong of %d)\n", N, N, dname,
         bad ? "FAILED" : "correct", bad, N * N);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(a);
  free(b);
  free(c);
  return bad ? 1 : 0;
}
