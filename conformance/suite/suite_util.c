/* Helpers every area uses: random numbers, building, buffers, launching. */
#include "suite.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

void suite_seed(uint64_t seed) { rng = seed ^ 0x9E3779B97F4A7C15ull; }

/* splitmix64: good enough statistically and trivially reproducible from the seed. */
uint64_t suite_rand64(void) {
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
uint32_t suite_rand(void) { return (uint32_t)(suite_rand64() >> 32); }
double suite_uniform(double lo, double hi) { return lo + (hi - lo) * (double)(suite_rand64() >> 11) / 9007199254740992.0; }
void suite_fill(void *buf, size_t bytes) {
  unsigned char *p = buf;
  for (size_t i = 0; i < bytes; i++)
    p[i] = (unsigned char)suite_rand();
}

cl_program suite_build(const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(S.ctx, 1, &src, NULL, &err);
  if (err != CL_SUCCESS) {
    suite_fail("clCreateProgramWithSource: %d", err);
    return NULL;
  }
  err = clBuildProgram(p, 1, &S.device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(1, n + 1);
    clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    if (strlen(log) > 600)
      strcpy(log + 597, "...");
    suite_fail("clBuildProgram: %d: %s", err, log);
    free(log);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

cl_kernel suite_kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  if (err != CL_SUCCESS) {
    suite_fail("clCreateKernel(%s): %d", name, err);
    return NULL;
  }
  return k;
}

cl_mem suite_buffer(size_t bytes, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
  if (err != CL_SUCCESS) {
    suite_fail("clCreateBuffer(%zu): %d", bytes, err);
    return NULL;
  }
  if (init) {
    err = clEnqueueWriteBuffer(S.q, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
  } else {
    unsigned char poison = 0xA5;
    err = clEnqueueFillBuffer(S.q, m, &poison, 1, 0, bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clFinish(S.q);
  }
  if (err != CL_SUCCESS) {
    suite_fail("initialising a buffer of %zu bytes: %d", bytes, err);
    clReleaseMemObject(m);
    return NULL;
  }
  return m;
}

bool suite_args(cl_kernel k, int n, ...) {
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    size_t size = va_arg(ap, size_t);
    const void *value = va_arg(ap, const void *);
    cl_int err = clSetKernelArg(k, (cl_uint)i, size, value);
    if (err != CL_SUCCESS) {
      suite_fail("clSetKernelArg(%d): %d", i, err);
      va_end(ap);
      return false;
    }
  }
  va_end(ap);
  return true;
}

bool suite_run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local) {
  cl_int err = clEnqueueNDRangeKernel(S.q, k, dims, NULL, global, local, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    suite_fail("clEnqueueNDRangeKernel: %d", err);
    return false;
  }
  err = clFinish(S.q);
  if (err != CL_SUCCESS) {
    suite_fail("clFinish after a launch: %d", err);
    return false;
  }
  return true;
}

bool suite_run1(cl_kernel k, size_t global, size_t local) { return suite_run(k, 1, &global, local ? &local : NULL); }

bool suite_read(cl_mem m, void *dst, size_t bytes) {
  cl_int err = clEnqueueReadBuffer(S.q, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    suite_fail("clEnqueueReadBuffer(%zu bytes): %d", bytes, err);
    return false;
  }
  return true;
}

static const char EVAL_FMT[] =
    "__kernel void %s(__global const %s *A, __global const %s *B, __global const %s *C, __global %s *o) {\n"
    "  size_t i = get_global_id(0);\n  %s a = A[i], b = B[i], c = C[i];\n  o[i] = %s;\n}\n";

void suite_eval_add(struct suite_batch *b, const char *name, const char *type, const char *rtype, const char *expr) {
  suite_batch_add(b, name, EVAL_FMT, name, type, type, type, rtype, type, expr);
}

/* Runs an evaluation kernel over the n inputs (converted to `type`) and reads the results back
 * as doubles. */
static bool eval_run(cl_kernel k, const char *type, const char *rtype, const double *a, const double *b,
                     const double *c, double *out, size_t n) {
  bool dbl = !strcmp(type, "double");
  size_t es = dbl ? 8 : 4, rs = !strcmp(rtype, "double") || !strcmp(rtype, "long") ? 8 : 4;
  void *in[3] = {malloc(n * es), malloc(n * es), malloc(n * es)}, *o = malloc(n * rs);
  const double *src3[3] = {a, b, c};
  for (int j = 0; j < 3; j++)
    for (size_t i = 0; i < n; i++) {
      if (dbl) ((double *)in[j])[i] = src3[j][i];
      else ((float *)in[j])[i] = (float)src3[j][i];
    }
  cl_mem m0 = suite_buffer(n * es, in[0]), m1 = suite_buffer(n * es, in[1]), m2 = suite_buffer(n * es, in[2]), mo = suite_buffer(n * rs, NULL);
  bool ok = !suite_failed() && suite_args(k, 4, sizeof m0, &m0, sizeof m1, &m1, sizeof m2, &m2, sizeof mo, &mo) &&
            suite_run1(k, n, 64) && suite_read(mo, o, n * rs);
  for (size_t i = 0; ok && i < n; i++) {
    if (!strcmp(rtype, "double")) out[i] = ((double *)o)[i];
    else if (!strcmp(rtype, "float")) out[i] = ((float *)o)[i];
    else if (!strcmp(rtype, "long")) out[i] = (double)((int64_t *)o)[i];
    else out[i] = ((int32_t *)o)[i];
  }
  cl_mem ms[] = {m0, m1, m2, mo};
  for (int j = 0; j < 4; j++) if (ms[j]) clReleaseMemObject(ms[j]);
  for (int j = 0; j < 3; j++) free(in[j]);
  free(o);
  return ok;
}

bool suite_eval_kernel(struct suite_batch *bt, const char *name, const char *type, const char *rtype, const double *a,
                       const double *b, const double *c, double *out, size_t n) {
  cl_kernel k = suite_batch_kernel(bt, name);
  if (!k)
    return false;
  bool ok = eval_run(k, type, rtype, a, b, c, out, n);
  clReleaseKernel(k);
  return ok;
}

bool suite_eval(const char *type, const char *rtype, const char *expr, const double *a, const double *b,
                const double *c, double *out, size_t n) {
  char src[1024];
  snprintf(src, sizeof src, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  snprintf(src + strlen(src), sizeof src - strlen(src), EVAL_FMT, "k", type, type, type, rtype, type, expr);
  cl_program p = suite_build(src, "");
  cl_kernel k = p ? suite_kernel(p, "k") : NULL;
  if (!k) {
    if (p) clReleaseProgram(p);
    return false;
  }
  bool ok = eval_run(k, type, rtype, a, b, c, out, n);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return ok;
}
