/* A small test harness for OpenCL tests that run against any platform.
 *
 * HETGPU_TEST_PLATFORM picks the platform whose name contains the given text (default
 * "hetGPU"), so the same test can be run against PoCL directly to check the test itself.
 * Each test executable prints one closing line "N passed, N failed" and exits non-zero when a
 * check failed. */
#ifndef HETGPU_CONFORMANCE_HARNESS_H
#define HETGPU_CONFORMANCE_HARNESS_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*hg_test_fn)(void);
void hg_test_register(const char *name, hg_test_fn fn);
void hg_test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Skips the current test with a reason (counted as skipped, not failed). */
void hg_test_skip(const char *reason);

extern cl_platform_id hg_test_platform;
extern cl_device_id hg_test_device;
/* True when the platform under test is hetGPU (tests of hetGPU-specific behaviour skip otherwise). */
bool hg_test_is_hetgpu(void);

/* A context and in-order queue on the device under test, made fresh by each call. */
cl_context hg_test_context(void);
cl_command_queue hg_test_queue(cl_context ctx, cl_command_queue_properties props);
/* Builds a program from source; fails the test with the build log on error. */
cl_program hg_test_build(cl_context ctx, const char *source, const char *options);

/* Deterministic-per-run random numbers: seeded from HETGPU_TEST_SEED or the clock (printed). */
uint32_t hg_test_rand(void);
float hg_test_randf(float lo, float hi);
void hg_test_fill_random(void *buf, size_t bytes);

#define HG_TEST(name)                                                                 \
  static void name(void);                                                             \
  __attribute__((constructor)) static void hg_register_##name(void) { hg_test_register(#name, name); } \
  static void name(void)

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) {                                               \
      hg_test_fail(__FILE__, __LINE__, "check failed: %s", #cond); \
      return;                                                    \
    }                                                            \
  } while (0)
#define CHECK_MSG(cond, ...)                          \
  do {                                                \
    if (!(cond)) {                                    \
      hg_test_fail(__FILE__, __LINE__, __VA_ARGS__);  \
      return;                                         \
    }                                                 \
  } while (0)
/* expr must return exactly `code`. */
#define CHECK_ERR(expr, code)                                                                  \
  do {                                                                                         \
    cl_int hg_e_ = (expr);                                                                     \
    if (hg_e_ != (code)) {                                                                     \
      hg_test_fail(__FILE__, __LINE__, "%s returned %d, expected %s (%d)", #expr, hg_e_, #code, \
                   (int)(code));                                                               \
      return;                                                                                  \
    }                                                                                          \
  } while (0)
#define CHECK_CL(expr) CHECK_ERR(expr, CL_SUCCESS)

#endif
