/* Demoted values that only loop headers need in the frame, kept in registers otherwise.
 *
 * The step function (ir/resumable.c) demotes every value live at a resume point: stored to its
 * frame slot after its definition, loaded at each use. For a value live at a barrier that is
 * needed (the driver returns at every barrier), but a value live only at loop-header resume
 * points must be in the frame only when the work-item actually stops or resumes there. Such a
 * slot (*transient*) is lowered as an LLVM alloca instead of a frame offset, which the
 * optimiser promotes to registers; each loop-header `ret <id>` first copies the transient
 * values live there into their frame slots, and each loop-header case of the dispatch switch
 * goes through a landing block that copies them back. The frame a step function leaves or
 * finds is therefore exactly the IR's (ir-spec §11): only the per-iteration stores and
 * reloads are gone. */
#include <stdlib.h>

#include "devices/riscv/codegen_internal.h"

bool hg_rv_transient_setup(hg_rv_cg *g, const hg_ir_resumable_plan *plan) {
  const hg_ir_function *k = g->k, *f = g->e.f;
  g->plan = plan;
  g->slot_alloca = calloc(f->num_slots ? f->num_slots : 1, sizeof *g->slot_alloca);
  bool *in_frame = calloc(k->num_values ? k->num_values : 1, sizeof *in_frame);
  if (!g->slot_alloca || !in_frame) {
    free(in_frame);
    return !hg_rv_fail(g, "out of memory");
  }
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    if (k->safepoints[s].kind == HG_SAFEPOINT_BARRIER)
      for (uint32_t l = 0; l < k->safepoints[s].num_live; l++)
        if (k->safepoints[s].live[l] < k->num_values)
          in_frame[k->safepoints[s].live[l]] = true;
  /* the allocas go first in the entry block (the builder is there, before the dispatch) */
  for (uint32_t v = 0; v < k->num_values && v < plan->num_values; v++) {
    uint32_t slot = plan->slot_of_value[v];
    if (slot == HG_IR_NONE || slot >= f->num_slots || in_frame[v])
      continue;
    LLVMValueRef a = LLVMBuildAlloca(g->e.B, hg_rv_type(g, k->values[v].type), "");
    LLVMSetAlignment(a, f->slots[slot].align ? f->slots[slot].align : 1);
    g->slot_alloca[slot] = a;
  }
  free(in_frame);
  return true;
}

/* The loop-header resume point whose id the constant value c holds, or HG_IR_NONE. */
uint32_t hg_rv_loop_resume_point(hg_rv_cg *g, uint32_t c) {
  if (!g->plan || c >= g->e.f->num_values || g->e.f->values[c].kind != HG_VAL_CONST)
    return HG_IR_NONE;
  uint64_t id = g->e.f->const_words[g->e.f->values[c].index];
  if (id >= g->k->num_safepoints || g->k->safepoints[id].kind != HG_SAFEPOINT_LOOP_HEADER || !g->plan->resumable[id])
    return HG_IR_NONE;
  return (uint32_t)id;
}

void hg_rv_transient_copy(hg_rv_cg *g, uint32_t sp, bool to_frame) {
  const hg_ir_safepoint *p = &g->k->safepoints[sp];
  for (uint32_t l = 0; l < p->num_live; l++) {
    uint32_t v = p->live[l];
    uint32_t slot = v < g->plan->num_values ? g->plan->slot_of_value[v] : HG_IR_NONE;
    if (slot == HG_IR_NONE || !g->slot_alloca[slot])
      continue;
    LLVMTypeRef t = hg_rv_type(g, g->k->values[v].type);
    LLVMValueRef off = LLVMConstInt(g->e.i64, g->e.f->slots[slot].offset, 0);
    LLVMValueRef in_frame = LLVMBuildGEP2(g->e.B, g->e.i8, g->frame, &off, 1, "");
    LLVMValueRef from = to_frame ? g->slot_alloca[slot] : in_frame, to = to_frame ? in_frame : g->slot_alloca[slot];
    LLVMValueRef x = LLVMBuildLoad2(g->e.B, t, from, "");
    LLVMSetAlignment(x, g->e.f->slots[slot].align ? g->e.f->slots[slot].align : 1);
    LLVMSetAlignment(LLVMBuildStore(g->e.B, x, to), g->e.f->slots[slot].align ? g->e.f->slots[slot].align : 1);
  }
}
