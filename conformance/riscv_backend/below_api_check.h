/* The check counter of the tests that drive the RISC-V backend below the OpenCL API (without
 * the harness): CHECK counts, prints a failure with its place, and the test ends with a line
 * "N passed, M failed". Each test defines the two counters. */
#ifndef HETGPU_CONFORMANCE_RISCV_BELOW_API_CHECK_H
#define HETGPU_CONFORMANCE_RISCV_BELOW_API_CHECK_H

#include <stdio.h>

extern int passed, failed;

#define CHECK(c, ...)                                                                                                  \
  do {                                                                                                                 \
    if (c) {                                                                                                           \
      passed++;                                                                                                        \
    } else {                                                                                                           \
      failed++;                                                                                                        \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                             \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fprintf(stderr, "\n");                                                                                           \
    }                                                                                                                  \
  } while (0)

#endif
