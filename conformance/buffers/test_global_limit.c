/* Allocations count against CL_DEVICE_GLOBAL_MEM_SIZE (run with HETGPU_GLOBAL_MEM_SIZE=512 MiB,
 * the profile's minimum): buffers of the largest allocation fill it, the next one fails with
 * CL_MEM_OBJECT_ALLOCATION_FAILURE (PoCL asserted or the OOM killer came before, issue
 * "Reliability" row 8) and the others keep their bytes; after a release the allocation works. */
#include <stdlib.h>
#include <string.h>

#include "buffers_util.h"

HG_TEST(allocations_past_global_memory_fail_cleanly) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU's accounting");
    return;
  }
  cl_ulong global = 0, largest = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof largest, &largest, NULL));
  if (global != 512ull << 20) { /* ctest runs it with the cap; tools/gpu_run.sh runs it bare */
    hg_test_skip("needs HETGPU_GLOBAL_MEM_SIZE=536870912");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  enum { MAX = 8 };
  cl_mem bufs[MAX] = {0};
  uint32_t marks[MAX];
  unsigned made = 0;
  cl_int err = CL_SUCCESS;
  while (made < MAX) {
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, largest, NULL, &err);
    if (!b)
      break;
    marks[made] = (uint32_t)hg_test_rand();
    CHECK_CL(clEnqueueFillBuffer(q, b, &marks[made], 4, 0, largest, 0, NULL, NULL));
    bufs[made++] = b;
  }
  CHECK_MSG(made == global / largest, "%u buffers of %llu bytes fit %llu bytes", made, (unsigned long long)largest,
            (unsigned long long)global);
  CHECK_MSG(err == CL_MEM_OBJECT_ALLOCATION_FAILURE, "the buffer past global memory: %d", err);
  CHECK_CL(clFinish(q));
  for (unsigned i = 0; i < made; i++) { /* each keeps its bytes (first, middle and last words) */
    size_t at[3] = {0, largest / 2 - 4, largest - 4};
    for (int k = 0; k < 3; k++) {
      uint32_t got = 0;
      CHECK_CL(clEnqueueReadBuffer(q, bufs[i], CL_TRUE, at[k], 4, &got, 0, NULL, NULL));
      CHECK_MSG(got == marks[i], "buffer %u word at %zu: %08x, expected %08x", i, at[k], got, marks[i]);
    }
  }
  if (made) {
    clReleaseMemObject(bufs[--made]);
    cl_mem again = clCreateBuffer(ctx, CL_MEM_READ_WRITE, largest, NULL, &err);
    CHECK_MSG(again && err == CL_SUCCESS, "after a release: %d", err);
    if (again)
      clReleaseMemObject(again);
  }
  while (made)
    clReleaseMemObject(bufs[--made]);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
