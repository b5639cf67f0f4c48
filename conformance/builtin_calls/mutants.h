/* Bad builtin calls made from real kernels (issue "Reliability" row 1): the kernels of
 * kernels.c compiled by the front end, then, for each distinct builtin call shape in them,
 * copies of the module with that one call made wrong (an operand of the wrong type class, a
 * vector for a scalar, a wrong pointer address space, one operand too few or too many, a wrong
 * result type, an unknown name). Every variant is wrong by the OpenCL C signatures as this
 * file's rules know them, independently of the IR's own table. */
#ifndef HETGPU_CONFORMANCE_BUILTIN_CALLS_MUTANTS_H
#define HETGPU_CONFORMANCE_BUILTIN_CALLS_MUTANTS_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

extern const char *const bc_kernel_sources[];
extern const unsigned bc_num_kernel_sources;

typedef struct bc_variant {
  hg_ir_module *m; /* the module with the bad call (never verified) */
  uint8_t *bytes;  /* m encoded: what an application would hand to clCreateProgramWithBinary */
  size_t size;
  char builtin[64]; /* the name the bad call carries */
  char what[192];   /* the mutation, for messages */
} bc_variant;

/* Compiles the kernels and makes every variant; returns how many (0, after printing a FAIL line,
 * when the front end or the encoder fails). *out is malloc'd: free with bc_free_variants. */
size_t bc_make_variants(bc_variant **out);
void bc_free_variants(bc_variant *v, size_t n);

#endif
