/* hetGPU's own conformance suite: test areas laid out like the Khronos OpenCL-CTS, one runner
 * (runner.c), one file per area registering its tests. Runs against any OpenCL platform.
 *
 * A test is a function that either returns quietly (passed), or calls suite_fail() /
 * suite_skip() and returns. The REQUIRE/CL_OK macros do both in one line. */
#ifndef HETGPU_SUITE_H
#define HETGPU_SUITE_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*suite_fn)(const void *arg);

/* The device under test and one context + in-order queue on it, shared by an area's tests. */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue q;
  char platform_name[256];
  char device_name[256];
  bool fp64;         /* cl_khr_fp64 */
  bool fp32_denorm;  /* CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG */
  bool int64_atomics;
  size_t max_wg;     /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  cl_ulong local_mem;
  const char *self;  /* path of the runner (printf tests run it as a child) */
  const char *platform_arg; /* the --platform text, passed on to such children */
} suite_env;
extern suite_env S;

void suite_register(const char *area, const char *name, suite_fn fn, const void *arg);
/* Records why the current test failed (the first reason is kept, later ones counted). */
void suite_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void suite_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool suite_failed(void);

/* Random inputs: one generator seeded by the runner (the seed is printed). */
uint32_t suite_rand(void);
uint64_t suite_rand64(void);
void suite_fill(void *buf, size_t bytes);
double suite_uniform(double lo, double hi);

/* Builds a program; on error fails the test with the build log and returns NULL. */
cl_program suite_build(const char *src, const char *options);
cl_kernel suite_kernel(cl_program p, const char *name);
/* A buffer holding `init` (or poisoned with 0xA5 bytes when init is NULL). */
cl_mem suite_buffer(size_t bytes, const void *init);
/* Sets arguments: pairs (size_t size, const void *value) for n arguments. */
bool suite_args(cl_kernel k, int n, ...);
/* Enqueues and waits; fails the test and returns false on any error. */
bool suite_run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local);
bool suite_run1(cl_kernel k, size_t global, size_t local);
bool suite_read(cl_mem m, void *dst, size_t bytes);
/* Evaluates o[i] = expr over inputs a, b, c (kernel variables of type `type`, result `rtype`:
 * float, double, int or long) for n items; the values travel as doubles on the host. */
bool suite_eval(const char *type, const char *rtype, const char *expr, const double *a, const double *b,
                const double *c, double *out, size_t n);
/* Evaluation kernels of suite_eval as part of a batch (below): the kernel `name` computes
 * o[i] = expr over inputs a, b, c of type `type` into `rtype`; suite_eval_kernel runs one. */
struct suite_batch;
void suite_eval_add(struct suite_batch *b, const char *name, const char *type, const char *rtype, const char *expr);
bool suite_eval_kernel(struct suite_batch *b, const char *name, const char *type, const char *rtype, const double *a,
                       const double *b_in, const double *c, double *out, size_t n);

/* Many kernels, one program. Building is what costs through a driver (a compiler run, a
 * lowering, the vendor's build), so an area adds each kernel's source (self-contained: its own
 * #define/#undef) to a batch and asks for kernels by name. The first request builds the whole
 * batch as one program; if that fails, the halves are built in turn until every kernel that does
 * not build is alone, so a bad kernel fails only its own tests (and the log names it). */
typedef struct suite_batch suite_batch;
suite_batch *suite_batch_new(const char *prelude, const char *options);
/* Adds kernel `name` with source text made by the printf-style format. */
void suite_batch_add(suite_batch *b, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A new kernel object (the caller releases it); fails the test and returns NULL on error. */
cl_kernel suite_batch_kernel(suite_batch *b, const char *name);
/* How many clBuildProgram calls the batch made (for the log). */
int suite_batch_builds(const suite_batch *b);

/* Number of errors shown in full before the rest are only counted. */
#define SUITE_SHOW 4

#define SUITE_TEST(area, name)                                                    \
  static void t_##area##_##name(const void *arg);                                 \
  __attribute__((constructor)) static void r_##area##_##name(void) {             \
    suite_register(#area, #name, t_##area##_##name, NULL);                        \
  }                                                                               \
  static void t_##area##_##name(const void *arg)

#define REQUIRE(cond, ...)   \
  do {                       \
    if (!(cond)) {           \
      suite_fail(__VA_ARGS__); \
      return;                \
    }                        \
  } while (0)
#define CL_OK(expr)                                                     \
  do {                                                                  \
    cl_int e_ = (expr);                                                 \
    if (e_ != CL_SUCCESS) {                                             \
      suite_fail("%s returned %d (line %d)", #expr, e_, __LINE__);      \
      return;                                                           \
    }                                                                   \
  } while (0)

#endif
