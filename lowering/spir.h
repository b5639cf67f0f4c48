/* The SPIR back end: hetGPU IR -> LLVM bitcode for the spir64 target (cl_khr_spir), which PoCL
 * loads as a program binary without running its OpenCL C front end (docs/spir-backend.md).
 * Builtins become calls to the vendor library's functions by their Itanium-mangled OpenCL C
 * names. What this back end leaves to the OpenCL C one (lowering/opencl_c.h) it refuses with a
 * message, and the caller lowers the module to OpenCL C instead. */
#ifndef HETGPU_LOWERING_SPIR_H
#define HETGPU_LOWERING_SPIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* Returns malloc'd bitcode of the module's kernels in their plain form, and with slice_forms
 * their slice forms (lowering/slice_form.h) too (*size bytes), or NULL with the reason in err:
 * printf, program-scope variables written by kernels, half values, images, generic pointers
 * given to builtins, library calls of vectors wider than hg_spir_call_vector_bytes(), and the builtins the OpenCL C lowering corrects for vendors
 * (hg_lower_opencl_c_corrects) that this back end does not write inline
 * (hg_llvm_inline_builtin) are the OpenCL C back end's. */
uint8_t *hg_lower_spir(const hg_ir_module *m, bool slice_forms, size_t *size, char *err, size_t err_size);

/* The widest vector (bytes) the bitcode passes by value to a function of the vendor's library:
 * the host's widest vector register, for PoCL on this host (64 with AVX-512, 32 with AVX, else
 * 16). A builtin call with a wider vector is the OpenCL C back end's: PoCL's library, compiled to
 * the host's C ABI, takes such a vector in memory. The bitcode depends on it (cache keys). */
unsigned hg_spir_call_vector_bytes(void);

#endif
