#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TESTS 512

static struct {
  const char *name;
  hg_test_fn fn;
} tests[MAX_TESTS];
static int num_tests;
static int current_failed, current_skipped;
static uint64_t rng_state;

cl_platform_id hg_test_platform;
cl_device_id hg_test_device;
static char platform_name[256];

void hg_test_register(const char *name, hg_test_fn fn) {
  if (num_tests < MAX_TESTS) {
    tests[num_tests].name = name;
    tests[num_tests].fn = fn;
    num_tests++;
  }
}

void hg_test_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stdout, "    %s:%d: ", file, line);
  vfprintf(stdout, fmt, ap);
  fputc('\n', stdout);
  va_end(ap);
  current_failed = 1;
}

void hg_test_skip(const char *reason) {
  printf("    skipped: %s\n", reason);
  current_skipped = 1;
}

bool hg_test_is_hetgpu(void) { return strstr(platform_name, "hetGPU") != NULL; }

cl_context hg_test_context(void) {
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)hg_test_platform, 0};
  cl_context ctx = clCreateContext(props, 1, &hg_test_device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateContext failed: %d\n", err);
    exit(2);
  }
  return ctx;
}

cl_command_queue hg_test_queue(cl_context ctx, cl_command_queue_properties props) {
  cl_int err;
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, hg_test_device, props ? qp : NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateCommandQueueWithProperties failed: %d\n", err);
    exit(2);
  }
  return q;
}

cl_program hg_test_build(cl_context ctx, const char *source, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  if (err != CL_SUCCESS) {
    hg_test_fail(__FILE__, __LINE__, "clCreateProgramWithSource: %d", err);
    return NULL;
  }
  err = clBuildProgram(p, 1, &hg_test_device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(1, n + 1);
    clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    hg_test_fail(__FILE__, __LINE__, "clBuildProgram: %d\n%s", err, log);
    free(log);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

uint32_t hg_test_rand(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(rng_state >> 33);
}

float hg_test_randf(float lo, float hi) { return lo + (hi - lo) * (float)(hg_test_rand() >> 8) / 16777216.0f; }

void hg_test_fill_random(void *buf, size_t bytes) {
  unsigned char *p = buf;
  for (size_t i = 0; i < bytes; i++)
    p[i] = (unsigned char)hg_test_rand();
}

static int select_platform(void) {
  const char *want = getenv("HETGPU_TEST_PLATFORM");
  if (!want || !*want)
    want = "hetGPU";
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) {
    fprintf(stderr, "no OpenCL platform\n");
    return -1;
  }
  cl_platform_id ids[16];
  if (n > 16)
    n = 16;
  clGetPlatformIDs(n, ids, NULL);
  for (cl_uint i = 0; i < n; i++) {
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
    if (strstr(platform_name, want)) {
      hg_test_platform = ids[i];
      if (clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &hg_test_device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "platform %s has no device\n", platform_name);
        return -1;
      }
      return 0;
    }
  }
  fprintf(stderr, "no platform named like '%s'\n", want);
  return -1;
}

int main(int argc, char **argv) {
  const char *seed = getenv("HETGPU_TEST_SEED");
  rng_state = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) ^ (uint64_t)clock();
  printf("seed %llu (HETGPU_TEST_SEED)\n", (unsigned long long)rng_state);
  if (select_platform() != 0) {
    printf("0 passed, 1 failed\n");
    return 1;
  }
  printf("platform: %s\n", platform_name);
  int passed = 0, failed = 0, skipped = 0;
  for (int i = 0; i < num_tests; i++) {
    if (argc > 1 && !strstr(tests[i].name, argv[1]))
      continue;
    current_failed = current_skipped = 0;
    tests[i].fn();
    printf("%-6s %s\n", current_failed ? "FAIL" : current_skipped ? "SKIP" : "ok", tests[i].name);
    fflush(stdout);
    if (current_failed)
      failed++;
    else if (current_skipped)
      skipped++;
    else
      passed++;
  }
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
