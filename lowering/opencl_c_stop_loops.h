/* Loops of an IR function, for the stoppable forms (lowering/opencl_c_stop.c): dominators
 * (Cooper, Harvey, Kennedy), natural loop bodies, and the loop headers around a block. */
#ifndef HG_LOWERING_OPENCL_C_STOP_LOOPS_H
#define HG_LOWERING_OPENCL_C_STOP_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct oc_loops {
  uint32_t n;
  uint32_t *rpo_index; /* UINT32_MAX: unreachable */
  uint32_t *idom;
  uint32_t **preds;
  uint32_t *num_preds;
  uint8_t **body; /* per header block: membership per block (NULL: not a header) */
  uint32_t *size; /* per header block: blocks in its loop */
} oc_loops;

/* The branch targets of block b's terminator (none for a return). */
uint32_t oc_successors(const hg_ir_function *f, uint32_t b, const uint32_t **out);
bool oc_loops_compute(const hg_ir_function *f, oc_loops *l);
void oc_loops_free(oc_loops *l);
/* Whether block b is in a loop. */
bool oc_in_loop(const oc_loops *l, uint32_t b);
/* Whether block a dominates block b. */
bool oc_dominates(const oc_loops *l, uint32_t a, uint32_t b);
/* The loop headers around block b, outermost first (*out malloc'd); false when they do not
 * nest (an irreducible region) or out of memory. */
bool oc_loops_chain(const oc_loops *l, uint32_t b, uint32_t **out, uint32_t *len);

#endif
