/* A backend whose device is lost (what NVIDIA's OpenCL does after a faulting kernel: -9999 from
 * then on) no longer takes the application down: the failing command reports its error, the
 * backend is marked unavailable, later commands on it fail without running, and the context
 * migrates away keeping every buffer that has a current copy elsewhere (the others are zeroed
 * and counted), then goes on. The loss is simulated with HETGPU_FAULT_INJECT=lose; the backend
 * stays lost for the rest of the process, so this test is its own process. */
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

MG_FAULT_INJECTION_ARMED

enum { N = 4096, LS = 64 };

static cl_int run_mix(cl_command_queue q, cl_kernel k, cl_mem buf, cl_uint add) {
  size_t g = N, l = LS;
  clSetKernelArg(k, 0, sizeof buf, &buf);
  clSetKernelArg(k, 1, LS * sizeof(cl_uint), NULL);
  clSetKernelArg(k, 2, sizeof add, &add);
  cl_event ev;
  cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev);
  if (err != CL_SUCCESS)
    return err;
  clWaitForEvents(1, &ev);
  cl_int status = mg_status(ev);
  clReleaseEvent(ev);
  return status == CL_COMPLETE ? CL_SUCCESS : status;
}

static void read_u32(cl_command_queue q, cl_mem buf, uint32_t *out) {
  memset(out, 0xA5, N * sizeof *out);
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL) == CL_SUCCESS);
}

HG_TEST(device_lost) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, mg_kernels_src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "wgmix", &err);
  CHECK(err == CL_SUCCESS);
  CHECK(mg.migrate(ctx, mg_vendor, 0, 0, NULL) == CL_SUCCESS);

  /* written: only ever written on the vendor backend before the loss (its one current copy dies
   * with the device); kept: moved to RISC-V and back without being written (current on both);
   * input: read-only, created on the vendor backend and moved (current on both) */
  uint32_t *w = mg_random_u32(N), *kept = mg_random_u32(N), *in = mg_random_u32(N);
  uint32_t *got = malloc(N * sizeof *got);
  cl_mem bw = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * 4, w, &err);
  cl_mem bk = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * 4, kept, &err);
  cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 4, in, &err);
  CHECK(err == CL_SUCCESS);
  CHECK(mg.migrate(ctx, mg_riscv, 0, 0, NULL) == CL_SUCCESS);
  CHECK(run_mix(q, k, bk, 7) == CL_SUCCESS); /* kept changes on RISC-V ... */
  mg_ref_mix(kept, N, LS, 7);
  CHECK(mg.migrate(ctx, mg_vendor, 0, 0, NULL) == CL_SUCCESS); /* ... and is current on both now */
  CHECK(run_mix(q, k, bw, 3) == CL_SUCCESS); /* written: current on the vendor backend only */
  mg_ref_mix(w, N, LS, 3);
  read_u32(q, bw, got);
  CHECK_U32(got, w, N, "before the loss");

  /* the device is lost under a kernel */
  setenv("HETGPU_FAULT_INJECT", "lose", 1);
  err = run_mix(q, k, bw, 5);
  unsetenv("HETGPU_FAULT_INJECT");
  CHECK_MSG(err == CL_OUT_OF_RESOURCES, "the launch on the lost device ended with %d", err);
  cl_bool available = CL_TRUE;
  CHECK(mg.get_backend_info(hg_test_platform, mg_vendor, CL_BACKEND_AVAILABLE_HETGPU, sizeof available, &available,
                            NULL) == CL_SUCCESS);
  CHECK_MSG(available == CL_FALSE, "the lost backend is still reported available");
  CHECK_MSG(run_mix(q, k, bk, 1) == CL_OUT_OF_RESOURCES, "a command on the lost device did not fail");
  CHECK_MSG(mg.migrate(ctx, mg_vendor, 0, 0, NULL) == CL_INVALID_BACKEND_HETGPU, "a lost backend is no target");

  /* the application moves away and goes on */
  cl_migration_report_hetgpu r;
  err = mg.migrate(ctx, mg_riscv, 0, 0, &r);
  CHECK_MSG(err == CL_SUCCESS, "migrating away from the lost device: %d", err);
  CHECK_MSG(r.buffers_lost == 1, "%u buffers reported lost, expected 1", r.buffers_lost);
  CHECK(mg_backend_of(ctx) == mg_riscv);
  read_u32(q, bk, got);
  CHECK_U32(got, kept, N, "a buffer current elsewhere survived");
  read_u32(q, bi, got);
  CHECK_U32(got, in, N, "the read-only input survived");
  read_u32(q, bw, got);
  uint32_t *zero = calloc(N, sizeof *zero);
  CHECK_U32(got, zero, N, "the lost buffer reads as zeros");
  CHECK(run_mix(q, k, bk, 9) == CL_SUCCESS);
  mg_ref_mix(kept, N, LS, 9);
  read_u32(q, bk, got);
  CHECK_U32(got, kept, N, "kernels run on after the loss");
  CHECK(mg.migrate(ctx, mg_vendor, 0, 0, NULL) == CL_INVALID_BACKEND_HETGPU);

  free(zero);
  free(w);
  free(kept);
  free(in);
  free(got);
  clReleaseMemObject(bw);
  clReleaseMemObject(bk);
  clReleaseMemObject(bi);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
