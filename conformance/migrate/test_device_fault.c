/* A kernel that faults a GPU vendor's device (an access far outside its buffer: NVIDIA's OpenCL
 * then reports -9999 for everything in that context) does not take the application down: the
 * kernel's event reports an error, the buffers current elsewhere survive a migration to the
 * RISC-V backend, and work goes on there. Runs only when the vendor backend under test is a GPU
 * (HG_MIGRATE_VENDOR=NVIDIA on the GPU machine): a CPU vendor runs kernels in this process,
 * where such an access is this process's own segmentation fault. */
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

enum { N = 4096, LS = 64 };

static const char *fault_src =
    "__kernel void fault(__global uint *p, ulong far) { p[far + get_global_id(0)] = 1u; }\n";

HG_TEST(real_device_fault) {
  MG_REQUIRE();
  cl_device_type type = 0;
  mg.get_backend_info(hg_test_platform, mg_vendor, CL_BACKEND_DEVICE_TYPE_HETGPU, sizeof type, &type, NULL);
  if (!(type & CL_DEVICE_TYPE_GPU)) {
    hg_test_skip("the vendor backend is not a GPU");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, NULL));
  cl_program p = hg_test_build(ctx, mg_kernels_src, NULL), pf = hg_test_build(ctx, fault_src, NULL);
  cl_int err;
  cl_kernel mix = clCreateKernel(p, "wgmix", &err), fault = clCreateKernel(pf, "fault", &err);
  CHECK_CL(err);
  uint32_t *kept = mg_random_u32(N), *got = malloc(N * sizeof *got);
  cl_mem bk = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * 4, kept, &err);
  cl_mem bf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
  CHECK_CL(err);
  /* kept: current on the GPU and on RISC-V */
  CHECK_CL(mg.migrate(ctx, mg_riscv, 0, 0, NULL));
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, NULL));

  cl_ulong far = 1ull << 36;
  size_t g = N, l = LS;
  CHECK_CL(clSetKernelArg(fault, 0, sizeof bf, &bf));
  CHECK_CL(clSetKernelArg(fault, 1, sizeof far, &far));
  cl_event ev;
  CHECK_CL(clEnqueueNDRangeKernel(q, fault, 1, NULL, &g, &l, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int status = mg_status(ev);
  clReleaseEvent(ev);
  CHECK_MSG(status < 0, "the faulting kernel ended with %d", status);
  clFinish(q);

  cl_migration_report_hetgpu r;
  err = mg.migrate(ctx, mg_riscv, 0, 0, &r);
  CHECK_MSG(err == CL_SUCCESS, "migrating away from the faulted GPU: %d", err);
  CHECK(mg_backend_of(ctx) == mg_riscv);
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(q, bk, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, kept, N, "the buffer current on RISC-V survived the GPU's fault");
  cl_uint add = 5;
  CHECK_CL(clSetKernelArg(mix, 0, sizeof bk, &bk));
  CHECK_CL(clSetKernelArg(mix, 1, LS * 4, NULL));
  CHECK_CL(clSetKernelArg(mix, 2, sizeof add, &add));
  CHECK_CL(clEnqueueNDRangeKernel(q, mix, 1, NULL, &g, &l, 0, NULL, NULL));
  mg_ref_mix(kept, N, LS, add);
  CHECK_CL(clEnqueueReadBuffer(q, bk, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, kept, N, "work goes on on RISC-V");
  free(kept);
  free(got);
  clReleaseMemObject(bk);
  clReleaseMemObject(bf);
  clReleaseKernel(mix);
  clReleaseKernel(fault);
  clReleaseProgram(p);
  clReleaseProgram(pf);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
