/* Floating-point contraction: which contract-flagged multiplies the lowerings fuse into their
 * add/sub user. One rule shared by every backend, so that a kernel fuses in the same places
 * whichever backend runs it (docs/ir-spec.md, "Floating-point contraction"). */
#include <stdlib.h>

#include "ir/ir_internal.h"

static bool contract_fmul(const hg_ir_function *f, const hg_ir_inst *const *def, const uint32_t *uses, uint32_t v) {
  if (v >= f->num_values || f->values[v].kind != HG_VAL_INST || uses[v] != 1) return false;
  const hg_ir_inst *m = def[v];
  return m && m->op == HG_OP_FMUL && (m->flags & HG_FP_CONTRACT);
}

bool hg_ir_find_contractions(const hg_ir_function *f, hg_ir_contraction *c) {
  size_t n = f->num_values ? f->num_values : 1;
  c->fused_mul = calloc(n, sizeof *c->fused_mul);
  c->absorbed = calloc(n, sizeof *c->absorbed);
  const hg_ir_inst **def = calloc(n, sizeof *def); /* per value: its instruction in the current block */
  uint32_t *uses = calloc(n, sizeof *uses);
  if (!c->fused_mul || !c->absorbed || !def || !uses) {
    free(def);
    free(uses);
    hg_ir_contraction_free(c);
    return false;
  }
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      for (uint32_t k = 0; k < in->num_operands; k++)
        if (in->operands[k] < f->num_values) uses[in->operands[k]]++;
    }
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    const hg_ir_block *bl = &f->blocks[b];
    /* def[] holds only this block's instructions: an FMUL of another block never qualifies */
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      bool addsub = in->op == HG_OP_FADD || in->op == HG_OP_FSUB;
      if (addsub && (in->flags & HG_FP_CONTRACT) && in->num_operands == 2 && in->id < f->num_values &&
          (in->type.scalar == HG_IR_F32 || in->type.scalar == HG_IR_F64)) {
        for (uint32_t k = 0; k < 2; k++) {
          uint32_t v = in->operands[k];
          if (contract_fmul(f, def, uses, v) && !c->absorbed[v]) {
            c->fused_mul[in->id] = def[v];
            c->absorbed[v] = true;
            break;
          }
        }
      }
      if (in->id < f->num_values) def[in->id] = in;
    }
    for (uint32_t i = 0; i < bl->num_insts; i++)
      if (bl->insts[i].id < f->num_values) def[bl->insts[i].id] = NULL;
  }
  free(def);
  free(uses);
  return true;
}

void hg_ir_contraction_free(hg_ir_contraction *c) {
  free(c->fused_mul);
  free(c->absorbed);
  c->fused_mul = NULL;
  c->absorbed = NULL;
}
