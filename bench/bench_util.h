/* What the benchmark programs share: a check that stops on an OpenCL error, a monotonic clock
 * in seconds, and finding a platform by a substring of its name. Header-only: each benchmark
 * is one file linked against the ICD loader. */
#ifndef HETGPU_BENCH_UTIL_H
#define HETGPU_BENCH_UTIL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(expr)                                                                \
  do {                                                                             \
    cl_int e_ = (expr);                                                            \
    if (e_ != CL_SUCCESS) {                                                        \
      fprintf(stderr, "%s:%d %s failed: %d\n", __FILE__, __LINE__, #expr, e_);     \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

static inline double bench_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Sorts v[0..n) in increasing order. */
static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static inline void bench_sort(double *v, size_t n) { qsort(v, n, sizeof *v, bench_cmp_double); }

/* The first platform whose name contains `want`, or NULL. */
static inline cl_platform_id bench_find_platform(const char *want) {
  cl_platform_id ids[16];
  cl_uint n = 0;
  clGetPlatformIDs(16, ids, &n);
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, want))
      return ids[i];
  }
  return NULL;
}

#endif
