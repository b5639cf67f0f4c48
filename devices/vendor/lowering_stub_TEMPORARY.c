/* TEMPORARY: weak stand-ins for the IR -> OpenCL C back end (lowering/opencl_c.h) so the library
 * links while lowering/ is being written. A strong definition there replaces these at link
 * time; delete this file once `grep -rn hg_lower_opencl_c lowering` finds a definition there. They report
 * failure honestly: program_build then returns CL_BUILD_PROGRAM_FAILURE with a log saying so. */
#include <stdio.h>

#include "lowering/opencl_c.h"

__attribute__((weak)) char *hg_lower_opencl_c(const hg_ir_module *m, char *err, size_t err_size) {
  if (err && err_size)
    snprintf(err, err_size, "the OpenCL C back end is not built into this library yet");
  return NULL;
}

__attribute__((weak)) const char *hg_lower_opencl_c_options(const hg_ir_module *m) { return ""; }
