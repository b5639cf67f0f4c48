/* Tests whose kernels may fail their commands (fault_env.h). */
#include "fault_env.h"

#include <stdlib.h>
#include <string.h>

bool hg_test_env_open(hg_test_env *e, const char *source) {
  memset(e, 0, sizeof *e);
  e->ctx = hg_test_context();
  e->q = e->ctx ? hg_test_queue(e->ctx, 0) : NULL;
  e->prog = e->q ? hg_test_build(e->ctx, source, "") : NULL;
  return e->prog != NULL;
}

void hg_test_env_close(hg_test_env *e) {
  if (e->prog) clReleaseProgram(e->prog);
  if (e->q) clReleaseCommandQueue(e->q);
  if (e->ctx) clReleaseContext(e->ctx);
}

cl_mem hg_test_env_buffer(hg_test_env *e, size_t size, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)init, &err);
  return err == CL_SUCCESS ? m : NULL;
}

cl_int hg_test_env_run(hg_test_env *e, const char *kernel, size_t global, size_t local, unsigned nargs,
                       const size_t *sizes, const void *const *values) {
  cl_int err;
  cl_kernel k = clCreateKernel(e->prog, kernel, &err);
  if (err != CL_SUCCESS)
    return err;
  for (unsigned i = 0; i < nargs && err == CL_SUCCESS; i++)
    err = clSetKernelArg(k, i, sizes[i], values[i]);
  cl_event ev = NULL;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, &ev);
  cl_int status = err;
  if (ev) {
    clWaitForEvents(1, &ev);
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    clReleaseEvent(ev);
  }
  clReleaseKernel(k);
  /* a failed command may have stopped the queue: later commands go to a fresh one */
  if (status < 0) {
    clReleaseCommandQueue(e->q);
    e->q = hg_test_queue(e->ctx, 0);
  }
  return status;
}

bool hg_test_env_same_bytes(hg_test_env *e, cl_mem m, const void *want, size_t size) {
  void *got = malloc(size);
  bool ok = got && clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, size, got, 0, NULL, NULL) == CL_SUCCESS &&
            !memcmp(got, want, size);
  free(got);
  return ok;
}
