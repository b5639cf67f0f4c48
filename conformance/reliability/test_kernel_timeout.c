/* Kernel time limits (HETGPU_KERNEL_TIMEOUT, issue 12 row 5): a kernel that never ends (it
 * spins on a value the host never changes) is stopped once it ran past the limit, its event
 * fails with CL_OUT_OF_RESOURCES, a command waiting on it fails with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clFinish returns, and the queue, another
 * context and normal kernels go on working with correct results. ctest runs it with a small
 * limit on the default backend (PoCL) and on RISC-V (stoppable and plain launches), and on
 * RISC-V with the simulator's guard alone (HETGPU_SIM_GUARD small, no limit set). Every wait
 * runs under an alarm: a hang fails the test instead of holding ctest. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_alarm.h"

static const char *source =
    "__kernel void spin(__global volatile int *flag, __global uint *out) {\n"
    "  uint n = 0;\n"
    "  while (flag[0] == 0) n++;\n"
    "  out[get_global_id(0)] = n;\n"
    "}\n"
    "__kernel void mark(__global uint *out, ulong at) {\n"
    "  if (get_global_id(0) == at) out[0] = 1;\n"
    "}\n"
    "__kernel void saxpy(__global const float *x, __global float *y, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n";

enum { N = 4096, SPIN_ITEMS = 256, SPIN_GROUP = 32 };

static atomic_int limit_notices;

static void CL_CALLBACK on_notify(const char *errinfo, const void *info, size_t cb, void *user) {
  (void)info, (void)cb, (void)user;
  if (strstr(errinfo, "HETGPU_KERNEL_TIMEOUT"))
    atomic_fetch_add(&limit_notices, 1);
}

static cl_context context_with_notify(void) {
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)hg_test_platform, 0};
  cl_context ctx = clCreateContext(props, 1, &hg_test_device, on_notify, NULL, &err);
  return err == CL_SUCCESS ? ctx : NULL;
}

static cl_int status_of(cl_event e) {
  cl_int st = 1234;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return st;
}

/* saxpy on fresh random inputs through q, compared with the host's result; true when equal. */
static bool saxpy_checks(cl_context ctx, cl_command_queue q, cl_program prog) {
  static float x[N], y[N], want[N], fused[N], got[N];
  const float a = hg_test_randf(-2.0f, 2.0f);
  for (int i = 0; i < N; i++) {
    x[i] = hg_test_randf(-100.0f, 100.0f);
    y[i] = hg_test_randf(-100.0f, 100.0f);
    want[i] = a * x[i] + y[i];
    fused[i] = fmaf(a, x[i], y[i]); /* a backend may contract a * x + y */
  }
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "saxpy", &err);
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof y, y, &err);
  size_t global = N;
  bool ok = k && bx && by && clSetKernelArg(k, 0, sizeof bx, &bx) == CL_SUCCESS &&
            clSetKernelArg(k, 1, sizeof by, &by) == CL_SUCCESS && clSetKernelArg(k, 2, sizeof a, &a) == CL_SUCCESS &&
            clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS &&
            clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < N; i++)
    ok = got[i] == want[i] || got[i] == fused[i];
  if (bx)
    clReleaseMemObject(bx);
  if (by)
    clReleaseMemObject(by);
  if (k)
    clReleaseKernel(k);
  return ok;
}

HG_TEST(endless_kernel_is_stopped_and_fails_its_event) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU's kernel time limit (another platform would spin forever)");
    return;
  }
  const char *limit = getenv("HETGPU_KERNEL_TIMEOUT");
  cl_context ctx = context_with_notify();
  CHECK(ctx);
  cl_command_queue q = hg_test_queue(ctx, 0);
  hg_alarm(300, "clBuildProgram");
  cl_program prog = hg_test_build(ctx, source, NULL);
  CHECK(prog);
  hg_alarm(120, "a normal kernel before the endless one");
  CHECK_MSG(saxpy_checks(ctx, q, prog), "saxpy before the endless kernel");

  cl_int err, zero = 0;
  cl_mem flag = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
  CHECK_CL(err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SPIN_ITEMS * sizeof(cl_uint), NULL, &err);
  CHECK_CL(err);
  cl_kernel spin = clCreateKernel(prog, "spin", &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(spin, 0, sizeof flag, &flag));
  CHECK_CL(clSetKernelArg(spin, 1, sizeof out, &out));
  size_t global = SPIN_ITEMS, local = SPIN_GROUP;
  cl_event spun, dependent;
  cl_uint host_out[SPIN_ITEMS];
  hg_alarm(240, "enqueueing the endless kernel and a command waiting on it");
  CHECK_CL(clEnqueueNDRangeKernel(q, spin, 1, NULL, &global, &local, 0, NULL, &spun));
  CHECK_CL(clEnqueueReadBuffer(q, out, CL_FALSE, 0, sizeof host_out, host_out, 1, &spun, &dependent));
  hg_alarm(240, "clFinish after the endless kernel");
  CHECK_CL(clFinish(q));
  hg_alarm(0, "");
  CHECK_MSG(status_of(spun) == CL_OUT_OF_RESOURCES, "the endless kernel's event: %d, expected CL_OUT_OF_RESOURCES",
            status_of(spun));
  CHECK_MSG(status_of(dependent) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            "the command waiting on it: %d, expected CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
            status_of(dependent));
  CHECK_ERR(clWaitForEvents(1, &spun), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  if (limit && *limit)
    CHECK_MSG(atomic_load(&limit_notices) == 1, "the context's notify callback named the limit %d times",
              atomic_load(&limit_notices));

  hg_alarm(120, "a normal kernel on the same queue afterwards");
  CHECK_MSG(saxpy_checks(ctx, q, prog), "saxpy on the same queue after the endless kernel");
  hg_alarm(300, "a normal kernel in another context afterwards");
  cl_context other = hg_test_context();
  cl_command_queue oq = hg_test_queue(other, 0);
  cl_program oprog = hg_test_build(other, source, NULL);
  CHECK(oprog);
  CHECK_MSG(saxpy_checks(other, oq, oprog), "saxpy in another context after the endless kernel");
  hg_alarm(0, "");
  clReleaseProgram(oprog);
  clReleaseCommandQueue(oq);
  clReleaseContext(other);
  clReleaseEvent(spun);
  clReleaseEvent(dependent);
  clReleaseKernel(spin);
  clReleaseMemObject(flag);
  clReleaseMemObject(out);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A range far too large to finish (2^36 work-items in 2^28 groups of 256) on RISC-V, where each
 * group is simulated: the time limit ends it like a kernel that never ends, its event fails with
 * CL_OUT_OF_RESOURCES. The backend hands the simulator the groups in batches, so such a launch
 * needs no job list of 2^28 entries (before: gigabytes allocated, or out of host memory) and
 * sees its limit between batches. PoCL runs this kernel (no loop: no safe point) to the end, so
 * only the RISC-V variants run it. */
HG_TEST(huge_range_is_stopped_by_the_time_limit) {
  const char *backend = getenv("HETGPU_BACKEND"), *limit = getenv("HETGPU_KERNEL_TIMEOUT");
  if (!hg_test_is_hetgpu() || !backend || strcmp(backend, "riscv") || !limit || !*limit) {
    hg_test_skip("RISC-V with HETGPU_KERNEL_TIMEOUT set");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  hg_alarm(300, "clBuildProgram");
  cl_program prog = hg_test_build(ctx, source, NULL);
  CHECK(prog);
  cl_int err;
  cl_uint zero = 0;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
  CHECK_CL(err);
  cl_kernel mark = clCreateKernel(prog, "mark", &err);
  CHECK_CL(err);
  cl_ulong at = (cl_ulong)1 << 40; /* past the range: nothing is marked */
  CHECK_CL(clSetKernelArg(mark, 0, sizeof out, &out));
  CHECK_CL(clSetKernelArg(mark, 1, sizeof at, &at));
  size_t global = (size_t)1 << 36, local = 256;
  cl_event ev;
  hg_alarm(240, "a launch of 2^36 work-items under the time limit");
  CHECK_CL(clEnqueueNDRangeKernel(q, mark, 1, NULL, &global, &local, 0, NULL, &ev));
  CHECK_CL(clFinish(q));
  hg_alarm(0, "");
  CHECK_MSG(status_of(ev) == CL_OUT_OF_RESOURCES, "the huge launch's event: %d, expected CL_OUT_OF_RESOURCES",
            status_of(ev));
  hg_alarm(120, "a normal kernel on the same queue afterwards");
  CHECK_MSG(saxpy_checks(ctx, q, prog), "saxpy on the same queue after the huge launch");
  hg_alarm(0, "");
  clReleaseEvent(ev);
  clReleaseKernel(mark);
  clReleaseMemObject(out);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
