/* The first back end: hetGPU IR -> OpenCL C source that vendor compilers accept without
 * warnings, faithful to the IR's semantics. */
#ifndef HETGPU_LOWERING_OPENCL_C_H
#define HETGPU_LOWERING_OPENCL_C_H

#include <stddef.h>

#include "ir/ir.h"

/* Returns malloc'd OpenCL C source for every kernel of the module (its functions inlined or
 * emitted as functions), or NULL with a message in err. */
char *hg_lower_opencl_c(const hg_ir_module *m, char *err, size_t err_size);

/* The build options the vendor compiler needs for the lowered source (the -cl-std it is
 * written in, and the math options recorded in the module), as a static or module-owned string. */
const char *hg_lower_opencl_c_options(const hg_ir_module *m);

#endif
