/* Helpers of the SPIR-V tests (il_util.h). */
#include "il_util.h"

#include <stdio.h>
#include <stdlib.h>

uint32_t *il_module(const char *name, size_t *size) {
  const char *dir = getenv("HG_IL_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.spv", dir ? dir : ".", name);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint32_t *w = malloc(n > 0 ? (size_t)n : 1);
  if (w && (n <= 0 || fread(w, 1, (size_t)n, f) != (size_t)n)) {
    free(w);
    w = NULL;
  }
  fclose(f);
  *size = w ? (size_t)n : 0;
  return w;
}

cl_program il_built(cl_context ctx, const char *name) {
  size_t size;
  uint32_t *w = il_module(name, &size);
  cl_int err = CL_INVALID_VALUE;
  cl_program p = w ? clCreateProgramWithIL(ctx, w, size, &err) : NULL;
  free(w);
  if (p && (err = clBuildProgram(p, 0, NULL, NULL, NULL, NULL)) != CL_SUCCESS) {
    char *log = il_build_log(p);
    printf("    build of %s: %d\n%s\n", name, err, log ? log : "");
    free(log);
    clReleaseProgram(p);
    p = NULL;
  }
  if (!p)
    printf("    module %s: %s (%d)\n", name, w ? "no program" : "missing (HG_IL_DIR)", err);
  return p;
}

char *il_build_log(cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(n + 1, 1);
  if (log && n)
    clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  return log;
}
