/* The SPIR-V front end: a SPIR-V module -> spirv-val -> llvm-spirv (both out of process) ->
 * LLVM bitcode -> the same translation into the hetGPU IR as OpenCL C takes
 * (docs/spirv-frontend.md). Bytes and options in, IR and a build log out: no CL objects. */
#ifndef HETGPU_LOWERING_FRONTEND_SPIRV_H
#define HETGPU_LOWERING_FRONTEND_SPIRV_H

#include <CL/cl.h>

#include "ir/ir.h"
#include "lowering/spirv_module.h"

/* A specialization constant's value as the application set it: the bytes it gave, zero-extended
 * (a boolean: non-zero is true). */
typedef struct hg_spirv_spec_value {
  uint32_t id;
  uint64_t bits;
} hg_spirv_spec_value;

/* Compiles a SPIR-V module (clBuildProgram: library false; clCompileProgram: library true, an
 * object whose imported functions a later link resolves). The module is checked by
 * hg_spirv_words and hg_spirv_check_environment, then validated (spirv-val) and translated
 * (llvm-spirv -r, with the specialization constants) out of process within the bounds of
 * HETGPU_COMPILE_TIMEOUT and HETGPU_COMPILE_MEMORY. Options are the OpenCL build options: the
 * preprocessor's (-D, -I) and -cl-std are accepted and have no effect, the math options are
 * recorded in the IR as for OpenCL C. Returns CL_SUCCESS with *out set;
 * CL_INVALID_BUILD_OPTIONS; CL_INVALID_VALUE when the bytes are not SPIR-V this device takes;
 * or CL_COMPILE_PROGRAM_FAILURE with the reason (our check's, spirv-val's or the translator's
 * message) in *log, which is always set. */
cl_int hg_frontend_spirv_to_ir(const void *il, size_t length, const char *options, const hg_spirv_spec_value *spec,
                               unsigned num_spec, bool library, hg_ir_module **out, char **log);

/* The tools it runs: HETGPU_SPIRV_VAL / HETGPU_LLVM_SPIRV, or those found at build time. */
const char *hg_frontend_spirv_val_path(void);
const char *hg_frontend_llvm_spirv_path(void);

#endif
