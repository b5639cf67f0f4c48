/* The application test_control_socket moves from outside: an unmodified OpenCL program on the
 * hetGPU platform that runs two kernels in a loop and checks every result against the host.
 * One buffer (acc) is updated by every iteration and never rewritten by the host, so a
 * migration that lost or corrupted buffer contents shows in the next check.
 *
 * stdout: "ready <pid>" after the first checked iteration, "iteration N ok|FAILED" after each,
 * and "done N iterations, M failed" at the end; "skip <why>" when there is no hetGPU platform.
 * The loop ends when stdin has input or is closed (or after a safety limit). Exit 0 when every
 * check passed. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N 4096
#define LOCAL 64
#define SAFETY_ITERATIONS 20000 /* the driver closes stdin long before */

static const char *source =
    "__kernel void axpb(__global const uint *a, __global const uint *b, __global uint *c, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] * k + b[i];\n"
    "}\n"
    "__kernel void accumulate(__global uint *acc, __global const uint *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  acc[i] = acc[i] * 3u + c[i] + (uint)(get_group_id(0) ^ get_local_id(0));\n"
    "}\n";

#define CHECK_CL(expr)                                                   \
  do {                                                                   \
    cl_int e_ = (expr);                                                  \
    if (e_ != CL_SUCCESS) {                                              \
      printf("error %s returned %d\n", #expr, e_);                       \
      fflush(stdout);                                                    \
      exit(1);                                                           \
    }                                                                    \
  } while (0)

static uint64_t rng_state;
static uint32_t next_random(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

static bool stdin_has_news(void) {
  struct pollfd p = {.fd = 0, .events = POLLIN};
  return poll(&p, 1, 0) > 0; /* input, end of file or error: all mean stop */
}

static cl_platform_id find_hetgpu(void) {
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
    return NULL;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, "hetGPU"))
      return ids[i];
  }
  return NULL;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  rng_state = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
  printf("seed %llu\n", (unsigned long long)rng_state);
  cl_platform_id platform = find_hetgpu();
  if (!platform) {
    printf("skip no hetGPU platform\n");
    return 0;
  }
  cl_device_id device;
  CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  cl_context ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  CHECK_CL(err);
  cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(program, 1, &device, "", NULL, NULL));
  cl_kernel axpb = clCreateKernel(program, "axpb", &err);
  CHECK_CL(err);
  cl_kernel accumulate = clCreateKernel(program, "accumulate", &err);
  CHECK_CL(err);

  size_t bytes = N * sizeof(cl_uint);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
  CHECK_CL(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
  CHECK_CL(err);
  cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK_CL(err);
  cl_mem acc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK_CL(err);

  static cl_uint host_a[N], host_b[N], host_c[N], host_acc[N], ref_acc[N];
  for (int i = 0; i < N; i++)
    ref_acc[i] = next_random();
  CHECK_CL(clEnqueueWriteBuffer(queue, acc, CL_TRUE, 0, bytes, ref_acc, 0, NULL, NULL));
  CHECK_CL(clSetKernelArg(axpb, 0, sizeof a, &a));
  CHECK_CL(clSetKernelArg(axpb, 1, sizeof b, &b));
  CHECK_CL(clSetKernelArg(axpb, 2, sizeof c, &c));
  CHECK_CL(clSetKernelArg(accumulate, 0, sizeof acc, &acc));
  CHECK_CL(clSetKernelArg(accumulate, 1, sizeof c, &c));

  unsigned iterations = 0, failures = 0;
  size_t global = N, local = LOCAL;
  while (iterations < SAFETY_ITERATIONS && (iterations == 0 || !stdin_has_news())) {
    cl_uint k = next_random();
    for (int i = 0; i < N; i++) {
      host_a[i] = next_random();
      host_b[i] = next_random();
      host_c[i] = 0xDEADBEEFu; /* poison */
    }
    CHECK_CL(clEnqueueWriteBuffer(queue, a, CL_FALSE, 0, bytes, host_a, 0, NULL, NULL));
    CHECK_CL(clEnqueueWriteBuffer(queue, b, CL_FALSE, 0, bytes, host_b, 0, NULL, NULL));
    CHECK_CL(clEnqueueWriteBuffer(queue, c, CL_FALSE, 0, bytes, host_c, 0, NULL, NULL));
    CHECK_CL(clSetKernelArg(axpb, 3, sizeof k, &k));
    CHECK_CL(clEnqueueNDRangeKernel(queue, axpb, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_CL(clEnqueueNDRangeKernel(queue, accumulate, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(queue, c, CL_FALSE, 0, bytes, host_c, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(queue, acc, CL_TRUE, 0, bytes, host_acc, 0, NULL, NULL));

    unsigned bad = 0;
    for (int i = 0; i < N; i++) {
      cl_uint want_c = host_a[i] * k + host_b[i];
      ref_acc[i] = ref_acc[i] * 3u + want_c + (cl_uint)((i / LOCAL) ^ (i % LOCAL));
      if (host_c[i] != want_c || host_acc[i] != ref_acc[i]) {
        if (bad++ < 3)
          printf("mismatch at %d: c %u (want %u) acc %u (want %u)\n", i, host_c[i], want_c, host_acc[i], ref_acc[i]);
        ref_acc[i] = host_acc[i]; /* report each wrong element once */
      }
    }
    iterations++;
    failures += bad != 0;
    if (iterations == 1)
      printf("ready %ld\n", (long)getpid());
    printf("iteration %u %s\n", iterations, bad ? "FAILED" : "ok");
    struct timespec pause = {.tv_nsec = 5 * 1000 * 1000}; /* leave the shared cores some air */
    nanosleep(&pause, NULL);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseMemObject(acc);
  clReleaseKernel(axpb);
  clReleaseKernel(accumulate);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  printf("done %u iterations, %u failed\n", iterations, failures);
  return failures ? 1 : 0;
}
