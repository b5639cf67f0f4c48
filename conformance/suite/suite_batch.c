/* Batches: many kernels built as one program (suite.h). One clBuildProgram per area instead of
 * one per test is what makes the suite affordable through a driver whose builds cost a compiler
 * run each; the bisection on failure keeps a kernel that does not build from failing its
 * neighbours' tests. */
#include "suite.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct suite_batch {
  char *prelude, *options;
  int n, cap;
  char **names, **srcs;
  cl_program *prog; /* per kernel: the program that holds it, NULL when it did not build */
  char **error;     /* per kernel: why it did not build */
  bool built;
  int builds;
};

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  memcpy(d, s, n);
  return d;
}

suite_batch *suite_batch_new(const char *prelude, const char *options) {
  suite_batch *b = calloc(1, sizeof *b);
  b->prelude = dup_str(prelude ? prelude : "");
  b->options = dup_str(options ? options : "");
  return b;
}

void suite_batch_add(suite_batch *b, const char *name, const char *fmt, ...) {
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 16;
    b->names = realloc(b->names, sizeof *b->names * (size_t)b->cap);
    b->srcs = realloc(b->srcs, sizeof *b->srcs * (size_t)b->cap);
  }
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *src = malloc((size_t)len + 1);
  va_start(ap, fmt);
  vsnprintf(src, (size_t)len + 1, fmt, ap);
  va_end(ap);
  b->names[b->n] = dup_str(name);
  b->srcs[b->n] = src;
  b->n++;
}

int suite_batch_builds(const suite_batch *b) { return b->builds; }

/* Builds kernels [lo, hi) as one program; on failure, each half on its own. */
static void build_range(suite_batch *b, int lo, int hi) {
  size_t len = strlen(b->prelude) + 2;
  for (int i = lo; i < hi; i++)
    len += strlen(b->srcs[i]) + 1;
  char *src = malloc(len), *w = src;
  w += sprintf(w, "%s\n", b->prelude);
  for (int i = lo; i < hi; i++)
    w += sprintf(w, "%s\n", b->srcs[i]);
  cl_int err;
  const char *srcp = src;
  cl_program p = clCreateProgramWithSource(S.ctx, 1, &srcp, NULL, &err);
  free(src);
  if (err == CL_SUCCESS) {
    b->builds++;
    err = clBuildProgram(p, 1, &S.device, b->options, NULL, NULL);
    if (err == CL_SUCCESS) {
      for (int i = lo; i < hi; i++)
        b->prog[i] = p;
      return;
    }
  }
  if (hi - lo > 1) {
    clReleaseProgram(p);
    fprintf(stderr, "suite: %d kernels (%s .. %s) did not build as one program (%d); building halves\n", hi - lo,
            b->names[lo], b->names[hi - 1], err);
    int mid = lo + (hi - lo) / 2;
    build_range(b, lo, mid);
    build_range(b, mid, hi);
    return;
  }
  char msg[1024];
  int m = snprintf(msg, sizeof msg, "kernel %s: clBuildProgram(\"%s\") returned %d: ", b->names[lo], b->options, err);
  if (p) {
    size_t n = 0;
    clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(1, n + 1);
    clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    snprintf(msg + m, sizeof msg - (size_t)m, "%.600s", log);
    fprintf(stderr, "suite: kernel %s does not build; log:\n%s\n", b->names[lo], log);
    free(log);
    clReleaseProgram(p);
  }
  b->error[lo] = dup_str(msg);
}

cl_kernel suite_batch_kernel(suite_batch *b, const char *name) {
  if (!b->built) {
    b->built = true;
    b->prog = calloc((size_t)b->n + 1, sizeof *b->prog);
    b->error = calloc((size_t)b->n + 1, sizeof *b->error);
    if (b->n)
      build_range(b, 0, b->n);
  }
  for (int i = 0; i < b->n; i++) {
    if (strcmp(b->names[i], name) != 0)
      continue;
    if (!b->prog[i]) {
      suite_fail("%s", b->error[i] ? b->error[i] : "did not build");
      return NULL;
    }
    return suite_kernel(b->prog[i], name);
  }
  suite_fail("suite bug: no kernel %s in the batch", name);
  return NULL;
}
