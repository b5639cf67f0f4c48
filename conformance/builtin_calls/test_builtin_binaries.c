/* Bad builtin calls as program binaries (issue "Reliability" row 1): every variant of
 * mutants.h must fail hg_ir_verify with a message naming the builtin, and through the API on
 * the backend HETGPU_BACKEND selects (ctest runs it on riscv and on PoCL) it must end in
 * CL_INVALID_BINARY from clCreateProgramWithBinary or CL_BUILD_PROGRAM_FAILURE with a build
 * log from clBuildProgram: never a build that succeeds, never a crash or a hang (each variant
 * runs in a child process; isolated.h). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolated.h"
#include "mutants.h"

enum { REFUSED = 0, BUILT, OTHER_ERROR, NO_LOG };

typedef struct api_ctx {
  const bc_variant *v;
  cl_device_id dev;
  cl_context ctx;
} api_ctx;

static int setup(void *p) {
  api_ctx *a = p;
  const char *want = getenv("HETGPU_TEST_PLATFORM") ? getenv("HETGPU_TEST_PLATFORM") : "hetGPU";
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
    return 1;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strstr(name, want) || clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &a->dev, NULL) != CL_SUCCESS)
      continue;
    cl_int e;
    a->ctx = clCreateContext(NULL, 1, &a->dev, NULL, NULL, &e);
    return e != CL_SUCCESS;
  }
  return 1;
}

static int check(size_t i, void *p) {
  api_ctx *a = p;
  const bc_variant *v = &a->v[i];
  const unsigned char *bytes = v->bytes;
  cl_int status = CL_SUCCESS, e;
  cl_program prog = clCreateProgramWithBinary(a->ctx, 1, &a->dev, &v->size, &bytes, &status, &e);
  if (e == CL_INVALID_BINARY && status == CL_INVALID_BINARY && !prog)
    return REFUSED;
  if (e != CL_SUCCESS || !prog)
    return OTHER_ERROR;
  e = clBuildProgram(prog, 1, &a->dev, "", NULL, NULL);
  char log[4096] = "";
  clGetProgramBuildInfo(prog, a->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  clReleaseProgram(prog);
  if (e == CL_SUCCESS)
    return BUILT;
  if (e != CL_BUILD_PROGRAM_FAILURE)
    return OTHER_ERROR;
  return log[0] ? REFUSED : NO_LOG;
}

static const char *outcome_text(unsigned char o) {
  switch (o) {
  case BUILT: return "built successfully";
  case OTHER_ERROR: return "another error code";
  case NO_LOG: return "CL_BUILD_PROGRAM_FAILURE without a build log";
  default: return bc_isolated_outcome_text(o);
  }
}

static const char *label(size_t i, void *p) { return ((api_ctx *)p)->v[i].what; }

int main(void) {
  bc_variant *v = NULL;
  size_t n = bc_make_variants(&v);
  if (!n)
    return 1;
  char err[1024] = "";
  unsigned bad_verify = 0;
  for (size_t i = 0; i < n; i++) {
    char want[96];
    snprintf(want, sizeof want, "builtin \"%s\"", v[i].builtin);
    bool rejected = !hg_ir_verify(v[i].m, err, sizeof err);
    if (!rejected || !strstr(err, want)) {
      bad_verify++;
      if (bad_verify <= 20)
        printf("FAIL verify %s: %s\n", v[i].what, rejected ? err : "accepted");
    }
  }
  api_ctx a = {.v = v};
  bc_isolated_fns fns = {setup, check, &a};
  unsigned crashes, bad_api = bc_run_reported(n, &fns, 120, label, outcome_text, &crashes);
  printf("%zu variants: %u accepted by the verifier, %u not refused cleanly through the API (%u crashes)\n", n,
         bad_verify, bad_api, crashes);
  printf("%zu passed, %u failed\n", 2 * n - bad_verify - bad_api, bad_verify + bad_api);
  bc_free_variants(v, n);
  return bad_verify || bad_api;
}
