/* hg_ir_state_layout_of: where a stopped work-item keeps the values live at each safe point,
 * and what every pointer among them is relative to (ir/ndrange_state.h, docs/safe-points.md).
 *
 * A pointer is only device-neutral as (base object, byte offset). The base is found statically
 * by following the pointer's definition through ptradd, pointer bitcasts, phis and selects to
 * a kernel parameter, a private slot or a module global; a pointer that comes from memory, an
 * integer, another address space or two different objects has none, and a safe point where
 * such a pointer is live is not a place to stop. */
#include <stdlib.h>
#include <string.h>

#include "ir/ndrange_state.h"

enum { UNSEEN = 0, KNOWN = 1, UNKNOWN = 2 };

typedef struct base_info {
  uint8_t state, kind;
  uint32_t index;
} base_info;

/* Meets the base of an operand into *acc (UNSEEN operands are still being computed: a phi's
 * back edge, skipped until the next pass). */
static void meet(base_info *acc, base_info op) {
  if (op.state == UNSEEN || acc->state == UNKNOWN)
    return;
  if (op.state == UNKNOWN) {
    acc->state = UNKNOWN;
    return;
  }
  if (acc->state == UNSEEN) {
    *acc = op;
    return;
  }
  if (acc->kind != op.kind || acc->index != op.index)
    acc->state = UNKNOWN;
}

static base_info operand_base(const hg_ir_function *f, const base_info *b, uint32_t v) {
  base_info r = {UNKNOWN, HG_BASE_NONE, 0};
  if (v >= f->num_values)
    return r;
  const hg_ir_value *val = &f->values[v];
  if (val->type.scalar != HG_IR_PTR)
    return r;
  switch (val->kind) {
  case HG_VAL_PARAM:
    return (base_info){KNOWN, HG_BASE_PARAM, val->index};
  case HG_VAL_GLOBAL:
    return (base_info){KNOWN, HG_BASE_GLOBAL, val->index};
  case HG_VAL_UNDEF:
    return (base_info){UNSEEN, HG_BASE_NONE, 0}; /* any value: takes the other operands' base */
  case HG_VAL_INST:
    return b[v];
  default:
    return r; /* constants (NULL): no object */
  }
}

/* One pass over the instructions; true when some base changed. */
static bool propagate(const hg_ir_function *f, base_info *b) {
  bool changed = false;
  for (uint32_t bi = 0; bi < f->num_blocks; bi++) {
    const hg_ir_block *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      if (in->id == HG_IR_NONE || in->id >= f->num_values || in->type.scalar != HG_IR_PTR)
        continue;
      base_info n = {UNSEEN, HG_BASE_NONE, 0};
      switch (in->op) {
      case HG_OP_SLOT:
        n = in->num_imm ? (base_info){KNOWN, HG_BASE_SLOT, in->imm[0]} : (base_info){UNKNOWN, 0, 0};
        break;
      case HG_OP_PTRADD:
        if (in->num_operands)
          meet(&n, operand_base(f, b, in->operands[0]));
        break;
      case HG_OP_BITCAST: /* pointer to pointer of the same address space only */
        if (in->num_operands && in->operands[0] < f->num_values && f->values[in->operands[0]].type.scalar == HG_IR_PTR &&
            f->values[in->operands[0]].type.addrspace == in->type.addrspace)
          meet(&n, operand_base(f, b, in->operands[0]));
        else
          n.state = UNKNOWN;
        break;
      case HG_OP_PHI:
        for (uint32_t k = 0; k < in->num_operands; k++)
          meet(&n, operand_base(f, b, in->operands[k]));
        break;
      case HG_OP_SELECT:
        for (uint32_t k = 1; k < in->num_operands; k++)
          meet(&n, operand_base(f, b, in->operands[k]));
        break;
      default: /* load, inttoptr, addrspacecast, atomics, builtins: no static object */
        n.state = UNKNOWN;
      }
      base_info *cur = &b[in->id];
      if (n.state != cur->state || n.kind != cur->kind || n.index != cur->index) {
        /* monotone: UNSEEN -> KNOWN -> UNKNOWN */
        if (n.state == UNSEEN)
          continue;
        if (cur->state == KNOWN && n.state == KNOWN)
          n.state = UNKNOWN; /* a different object than before: two objects */
        if (cur->state == UNKNOWN)
          continue;
        *cur = n;
        changed = true;
      }
    }
  }
  return changed;
}

static uint32_t value_bytes(hg_ir_type t) {
  if (t.scalar == HG_IR_PTR)
    return 8;
  unsigned lanes = t.lanes == 3 ? 4 : (t.lanes ? t.lanes : 1);
  return hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * lanes;
}

void hg_ir_state_layout_free(hg_ir_state_layout *l) {
  if (!l)
    return;
  for (uint32_t s = 0; l->sps && s < l->num_safepoints; s++)
    free(l->sps[s].values);
  free(l->sps);
  memset(l, 0, sizeof *l);
}

bool hg_ir_state_layout_of(const hg_ir_module *m, const hg_ir_function *f, hg_ir_state_layout *out) {
  memset(out, 0, sizeof *out);
  out->private_size = f->private_size;
  out->uses_local = f->num_local_vars > 0;
  for (uint32_t i = 0; f->args && i < f->num_params; i++)
    if (f->args[i].kind == HG_KARG_LOCAL_PTR)
      out->uses_local = true;
  (void)m;
  base_info *b = calloc(f->num_values ? f->num_values : 1, sizeof *b);
  out->sps = calloc(f->num_safepoints ? f->num_safepoints : 1, sizeof *out->sps);
  if (!b || !out->sps) {
    free(b);
    hg_ir_state_layout_free(out);
    return false;
  }
  out->num_safepoints = f->num_safepoints;
  /* a fixed point: each pass only raises bases (UNSEEN -> KNOWN -> UNKNOWN), each value at most
   * twice, so 2 * num_values + 1 passes always reach it (a pass that changes nothing ends it) */
  for (uint32_t pass = 0; pass <= 2 * f->num_values + 1 && propagate(f, b); pass++)
    ;
  uint32_t stride = 0;
  for (uint32_t s = 0; s < f->num_safepoints; s++) {
    const hg_ir_safepoint *sp = &f->safepoints[s];
    hg_ir_sp_layout *l = &out->sps[s];
    if (sp->kind == HG_SAFEPOINT_BARRIER)
      out->has_barrier = true;
    l->values = calloc(sp->num_live ? sp->num_live : 1, sizeof *l->values);
    if (!l->values) {
      free(b);
      hg_ir_state_layout_free(out);
      return false;
    }
    l->stoppable = true;
    uint32_t off = 0;
    for (uint32_t k = 0; k < sp->num_live; k++) {
      uint32_t v = sp->live[k];
      if (v >= f->num_values || f->values[v].kind != HG_VAL_INST)
        continue; /* parameters: the resumed launch passes the same arguments */
      hg_ir_type t = f->values[v].type;
      hg_ir_live_value *lv = &l->values[l->num_values++];
      lv->value = v;
      lv->size = value_bytes(t);
      uint32_t al = lv->size < 8 ? lv->size : 8;
      off = (off + al - 1) / al * al;
      lv->offset = off;
      off += lv->size;
      if (t.scalar == HG_IR_PTR) {
        if (b[v].state == KNOWN) {
          lv->base_kind = b[v].kind;
          lv->base_index = b[v].index;
        } else {
          l->stoppable = false;
        }
      }
    }
    if (sp->kind == HG_SAFEPOINT_ENTRY)
      l->stoppable = true;
    l->bytes = off;
    if (off > stride)
      stride = off;
  }
  out->value_stride = (stride + 7) & ~7u;
  free(b);
  return true;
}
