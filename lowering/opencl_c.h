/* The first back end: hetGPU IR -> OpenCL C source that vendor compilers accept without
 * warnings, faithful to the IR's semantics. */
#ifndef HETGPU_LOWERING_OPENCL_C_H
#define HETGPU_LOWERING_OPENCL_C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* What the host needs to format the printf records of the lowered code (docs/printf.md). */
typedef struct hg_printf_string {
  uint8_t *bytes; /* a constant's initialiser, which %s slots point into */
  uint32_t size;
} hg_printf_string;
typedef struct hg_printf_table {
  char **formats; /* by format id */
  uint32_t num_formats;
  hg_printf_string *strings; /* by string id */
  uint32_t num_strings;
  char **kernels; /* kernels with the hidden trailing `__global uint *` printf buffer parameter */
  uint32_t num_kernels;
} hg_printf_table;

/* Returns malloc'd OpenCL C source for every kernel of the module (its functions inlined or
 * emitted as functions), or NULL with a message in err. printf_table (may be NULL when the
 * caller does not run the code) receives the printf table; free it with hg_printf_table_free. */
char *hg_lower_opencl_c(const hg_ir_module *m, hg_printf_table *printf_table, char *err, size_t err_size);
void hg_printf_table_free(hg_printf_table *t);
/* hg_lower_opencl_c with every __global and __constant access checked against the launch's
 * buffers (HETGPU_ROBUST, docs/robust-access.md): each kernel takes, after the application's
 * arguments and the printf buffer, a `__global uint *` fault word (bit 0: a read out of range,
 * bit 1: a write), then one `ulong` per __global or __constant buffer argument, in argument
 * order: the bytes the launch gave it. An access out of range moves nothing and sets the word. */
char *hg_lower_opencl_c_robust(const hg_ir_module *m, hg_printf_table *printf_table, char *err, size_t err_size);
/* True when the kernel takes the hidden printf buffer as its last argument. */
bool hg_printf_table_has_kernel(const hg_printf_table *t, const char *name);
/* The hg_printf_string_fn (devices/printf_buffer.h) of the table's %s slots; ctx is the table. */
const char *hg_printf_table_string(void *table, uint64_t slot, size_t *max);

/* True when call `in` of function f is to a builtin whose vendor implementations this back end
 * corrects (opencl_c_fix.c): another back end that calls the vendor's builtin directly would
 * lose the correction. */
bool hg_lower_opencl_c_corrects(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in);

/* The build options the vendor compiler needs for the lowered source (the -cl-std it is
 * written in, and the math options recorded in the module), as a static or module-owned string. */
const char *hg_lower_opencl_c_options(const hg_ir_module *m);

#endif
