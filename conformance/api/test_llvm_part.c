/* The LLVM part (docs/architecture.md) is loaded only when a build needs it, and a driver without
 * it fails such a build with the reason, never a crash. Three ctest entries, in order:
 *   HG_LLVM_PART_STEP=fill     builds and runs the kernel (fills a private cache)
 *   HG_LLVM_PART_STEP=cached   the same in a new process: every step comes from the caches, so
 *                              the part is never loaded; results against the host's reference
 *   HG_LLVM_PART_STEP=missing  through a copy of the library without the part beside it: the
 *                              build from source fails with CL_BUILD_PROGRAM_FAILURE and its log
 *                              names the part; the context goes on working */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define N 4096
#define LOCAL 64

static const char *src =
    "__kernel void mix(__global const int *x, __global int *y, __local int *tmp) {\n"
    "  size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);\n"
    "  tmp[l] = x[g] * 3 + 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  y[g] = tmp[n - 1 - l] ^ (int)get_group_id(0);\n"
    "}\n";

static bool step_is(const char *name) {
  const char *s = getenv("HG_LLVM_PART_STEP");
  return s && !strcmp(s, name);
}

static bool part_loaded(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  bool found = false;
  while (f && fgets(line, sizeof line, f))
    found |= strstr(line, "/hetgpu-llvm.so") != NULL;
  if (f)
    fclose(f);
  return found;
}

/* Runs mix over random inputs (outputs poisoned) and checks every element. */
static void run_and_check(cl_context ctx, cl_program p) {
  cl_int err;
  int *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++)
    x[i] = (int)(hg_test_rand() & 0xFFFFF) - 0x80000;
  memset(y, 0xA5, N * sizeof *y);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, "mix", &err);
  CHECK_CL(err);
  cl_mem dx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof *x, x, &err);
  cl_mem dy = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof *y, y, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof dx, &dx));
  CHECK_CL(clSetKernelArg(k, 1, sizeof dy, &dy));
  CHECK_CL(clSetKernelArg(k, 2, LOCAL * sizeof(int), NULL));
  size_t global = N, local = LOCAL;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, N * sizeof *y, y, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int gr = i / LOCAL, l = i % LOCAL, want = (x[gr * LOCAL + LOCAL - 1 - l] * 3 + 1) ^ gr;
    bad += y[i] != want;
  }
  CHECK_MSG(!bad, "%d of %d elements wrong", bad, N);
  clReleaseMemObject(dx);
  clReleaseMemObject(dy);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  free(x);
  free(y);
}

/* Builds from source and runs; where the caches hold the build, the part must stay unloaded. */
static void build_and_run(const char *step, bool cached) {
  if (!step_is(step)) {
    hg_test_skip("another HG_LLVM_PART_STEP");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_program p = hg_test_build(ctx, src, NULL);
  CHECK(p);
  run_and_check(ctx, p);
  CHECK_MSG(!cached || !part_loaded(), "the LLVM part was loaded for a build the caches hold");
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(fill_the_caches) { build_and_run("fill", false); }

HG_TEST(cached_build_does_not_load_the_part) { build_and_run("cached", true); }

static void check_build_fails(cl_program p) {
  CHECK_ERR(clBuildProgram(p, 1, &hg_test_device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  size_t size = 0;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size));
  char *log = malloc(size + 1);
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, size, log, NULL));
  log[size] = 0;
  bool named = strstr(log, "LLVM part") != NULL;
  free(log);
  CHECK_MSG(named, "the build log does not say that the LLVM part is missing");
  cl_build_status status;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  CHECK(status == CL_BUILD_ERROR);
}

HG_TEST(missing_part_fails_the_build) {
  if (!step_is("missing")) {
    hg_test_skip("HG_LLVM_PART_STEP is not missing");
    return;
  }
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK_CL(err);
  check_build_fails(p);
  clReleaseProgram(p);
  /* the queries and memory of the context still work */
  int v = 7, back = 0;
  cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof v, &v, &err);
  CHECK_CL(err);
  cl_command_queue q = hg_test_queue(ctx, 0);
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof back, &back, 0, NULL, NULL));
  CHECK(back == 7);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
