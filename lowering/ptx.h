/* The PTX back end: hetGPU IR -> PTX text for NVIDIA's OpenCL, which loads PTX as a program
 * binary and so skips its OpenCL C front end (docs/ptx-backend.md). The module is lowered to
 * LLVM IR for the nvptx64-nvidia-nvcl target (OpenCL's kernel parameter conventions:
 * `.ptr .global`, `.ptr .shared`, `.ptr .const`) and LLVM's NVPTX back end prints the PTX.
 * Work-item functions read the special registers NVIDIA's OpenCL sets (%envreg0-9: group and
 * global-id bases, group counts, work_dim); builtins are inline LLVM IR
 * (lowering/llvm_builtins.h). What this back end leaves to the OpenCL C one it refuses with a
 * message, and the caller lowers the module to OpenCL C instead: math functions other than
 * sqrt, rsqrt and the native_ and half_ divide, recip and sqrt; printf; program-scope
 * variables kernels write; half values; images and samplers. */
#ifndef HETGPU_LOWERING_PTX_H
#define HETGPU_LOWERING_PTX_H

#include <stddef.h>

#include "ir/ir.h"

/* The oldest GPU the PTX is written for (sm_70, PTX ISA 6.4); newer ones compile it too. */
#define HG_PTX_MIN_SM 70

/* Returns malloc'd, NUL-terminated PTX of the module's kernels in their plain form (*size
 * bytes, the NUL included), or NULL with the reason in err. */
char *hg_lower_ptx(const hg_ir_module *m, size_t *size, char *err, size_t err_size);

#endif
