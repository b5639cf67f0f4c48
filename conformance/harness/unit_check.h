/* CHECK for the tests that run without an OpenCL context (the front end, the cache): a failed
 * condition prints where and why and is counted in `failures`, which main() returns. */
#ifndef HETGPU_CONFORMANCE_UNIT_CHECK_H
#define HETGPU_CONFORMANCE_UNIT_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(cond, ...)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                             \
      fputc('\n', stderr);                                                      \
      failures++;                                                               \
    }                                                                           \
  } while (0)

#endif
