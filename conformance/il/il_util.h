/* Helpers of the SPIR-V tests: the modules made at build time (HG_IL_DIR), programs from them. */
#ifndef HETGPU_CONFORMANCE_IL_UTIL_H
#define HETGPU_CONFORMANCE_IL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

/* The bytes of HG_IL_DIR/<name>.spv (malloc'd), or NULL. */
uint32_t *il_module(const char *name, size_t *size);
/* HG_IL_DIR/<name>.spv as a program of ctx, built with no options; NULL (the reason printed)
 * on any failure. */
cl_program il_built(cl_context ctx, const char *name);
/* The program's build log (malloc'd, "" when none). */
char *il_build_log(cl_program p);

#endif
