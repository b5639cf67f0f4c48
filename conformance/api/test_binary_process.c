/* A program binary obtained with clGetProgramInfo(CL_PROGRAM_BINARIES) in one process loads with
 * clCreateProgramWithBinary in another and gives the same results.
 *   api_binary_process write FILE   builds from source, saves the binary and the results
 *   api_binary_process read FILE    loads the binary (no source), runs, compares results */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define N 8192

static const char *src =
    "__kernel void poly(__global const float *x, __global float *y, __local float *tmp, float a) {\n"
    "  size_t l = get_local_id(0), g = get_global_id(0);\n"
    "  tmp[l] = x[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float v = tmp[get_local_size(0) - 1 - l];\n"
    "  y[g] = a * v * v + sqrt(fabs(v)) - exp(-v * v);\n"
    "}\n";

static const char *file_arg(void) {
  const char *f = getenv("HG_BINARY_FILE");
  return f ? f : "api_binary_process.bin";
}

static void run(cl_context ctx, cl_program p, const float *x, float *y) {
  cl_int err;
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, "poly", &err);
  cl_mem dx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(float), (void *)x, &err);
  cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
  float a = 0.75f;
  clSetKernelArg(k, 0, sizeof dx, &dx);
  clSetKernelArg(k, 1, sizeof dy, &dy);
  clSetKernelArg(k, 2, 128 * sizeof(float), NULL);
  clSetKernelArg(k, 3, sizeof a, &a);
  size_t global = N, local = 128;
  clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
  clEnqueueReadBuffer(q, dy, CL_TRUE, 0, N * sizeof(float), y, 0, NULL, NULL);
  clReleaseMemObject(dx);
  clReleaseMemObject(dy);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
}

/* The write step: binary, inputs and outputs go to one file. */
HG_TEST(write_binary) {
  if (!getenv("HG_BINARY_STEP") || strcmp(getenv("HG_BINARY_STEP"), "write")) {
    hg_test_skip("HG_BINARY_STEP is not write");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_program p = hg_test_build(ctx, src, NULL);
  CHECK(p);
  size_t size;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++)
    x[i] = hg_test_randf(-3, 3);
  memset(y, 0xFF, N * sizeof *y);
  run(ctx, p, x, y);
  FILE *f = fopen(file_arg(), "wb");
  CHECK(f);
  fwrite(&size, sizeof size, 1, f);
  fwrite(bin, 1, size, f);
  fwrite(x, sizeof *x, N, f);
  fwrite(y, sizeof *y, N, f);
  fclose(f);
  free(bin);
  free(x);
  free(y);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(read_binary) {
  if (!getenv("HG_BINARY_STEP") || strcmp(getenv("HG_BINARY_STEP"), "read")) {
    hg_test_skip("HG_BINARY_STEP is not read");
    return;
  }
  FILE *f = fopen(file_arg(), "rb");
  CHECK_MSG(f, "no binary file from the write step");
  size_t size;
  CHECK(fread(&size, sizeof size, 1, f) == 1 && size > 0 && size < (64u << 20));
  unsigned char *bin = malloc(size);
  float *x = malloc(N * sizeof *x), *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
  CHECK(fread(bin, 1, size, f) == size && fread(x, sizeof *x, N, f) == N && fread(want, sizeof *want, N, f) == N);
  fclose(f);
  cl_int err, status;
  cl_context ctx = hg_test_context();
  const unsigned char *cb = bin;
  cl_program p = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &size, &cb, &status, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  memset(got, 0xFF, N * sizeof *got);
  run(ctx, p, x, got);
  CHECK_MSG(!memcmp(got, want, N * sizeof *got), "results differ from the writing process");
  /* a corrupted copy of the same binary is refused */
  bin[size / 2] ^= 0x40;
  cl_program bad = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &size, &cb, &status, &err);
  CHECK(!bad && err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
  free(bin);
  free(x);
  free(want);
  free(got);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}
