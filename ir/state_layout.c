/* hg_ir_state_layout_of: where a stopped work-item keeps the values live at each safe point,
 * and what every pointer among them is relative to (ir/ndrange_state.h, docs/safe-points.md).
 *
 * A pointer is only device-neutral as (base object, byte offset). The base is found statically
 * by following the pointer's definition through ptradd, pointer bitcasts, phis and selects to
 * a kernel parameter, a private slot or a module global; a pointer that comes from memory, an
 * integer, another address space or two different objects has none, and a safe point where
 * such a pointer is live is not a place to stop.
 *
 * Unoptimised code (-cl-opt-disable, the -O0 SPIR-V) keeps every variable in a private slot,
 * pointers included, so the frame itself holds device addresses. A slot whose 8 bytes are only
 * ever written whole, directly, with pointers of one static base (and read directly) is a
 * *pointer slot*: its frame word is kept relative to that base like a live pointer
 * (hg_ir_frame_ptr), and a load from it has that base. Where a pointer may reach the frame any
 * other way, no safe point but the entry is stoppable: a raw address moved to another backend
 * points into nothing there. */
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

/* What the analysis of private slots needs: each value's defining instruction, and per slot
 * the base of the pointers stored into it (UNSEEN: none stored). */
typedef struct slot_info {
  const hg_ir_inst **def; /* by value index; NULL for parameters, constants, globals */
  base_info *content;     /* by slot */
} slot_info;

/* The slot that address v is, directly (through pointer bitcasts of the private space); or
 * HG_IR_NONE. */
static uint32_t direct_slot(const hg_ir_function *f, const slot_info *si, uint32_t v) {
  for (unsigned hops = 0; hops < 64 && v < f->num_values; hops++) {
    const hg_ir_inst *d = si->def[v];
    if (!d)
      return HG_IR_NONE;
    if (d->op == HG_OP_SLOT)
      return d->num_imm && d->imm[0] < f->num_slots ? d->imm[0] : HG_IR_NONE;
    if (d->op != HG_OP_BITCAST || !d->num_operands || d->operands[0] >= f->num_values ||
        f->values[d->operands[0]].type.scalar != HG_IR_PTR ||
        f->values[d->operands[0]].type.addrspace != d->type.addrspace)
      return HG_IR_NONE;
    v = d->operands[0];
  }
  return HG_IR_NONE;
}

/* A slot can hold a pointer word only when it is exactly one pointer wide. */
static uint32_t pointer_slot(const hg_ir_function *f, const slot_info *si, uint32_t addr) {
  uint32_t k = direct_slot(f, si, addr);
  return k != HG_IR_NONE && f->slots[k].size == 8 ? k : HG_IR_NONE;
}

/* One pass over the instructions; true when some base changed. */
static bool propagate(const hg_ir_function *f, base_info *b, slot_info *si) {
  bool changed = false;
  for (uint32_t bi = 0; bi < f->num_blocks; bi++) {
    const hg_ir_block *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      if (in->op == HG_OP_STORE && in->num_operands >= 2 && in->operands[1] < f->num_values &&
          f->values[in->operands[1]].type.scalar == HG_IR_PTR) {
        uint32_t k = pointer_slot(f, si, in->operands[0]);
        if (k != HG_IR_NONE) {
          base_info before = si->content[k];
          meet(&si->content[k], operand_base(f, b, in->operands[1]));
          changed |= before.state != si->content[k].state || before.kind != si->content[k].kind ||
                     before.index != si->content[k].index;
        }
        continue;
      }
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
      case HG_OP_LOAD: { /* from a pointer slot: whatever was stored there */
        uint32_t k = in->num_operands ? pointer_slot(f, si, in->operands[0]) : HG_IR_NONE;
        if (k != HG_IR_NONE)
          n = si->content[k];
        else
          n.state = UNKNOWN;
        break;
      }
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

/* Whether pointers reach the frame only through pointer slots: every pointer stored into
 * private memory goes directly into a slot whose content has one base, and the address of a
 * slot holding pointers is used only to load and store it whole (so nothing else writes it). */
static bool frame_pointers_known(const hg_ir_function *f, const base_info *b, const slot_info *si) {
  for (uint32_t bi = 0; bi < f->num_blocks; bi++) {
    const hg_ir_block *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      bool ptr_store = in->op == HG_OP_STORE && in->num_operands >= 2 && in->operands[1] < f->num_values &&
                       f->values[in->operands[1]].type.scalar == HG_IR_PTR;
      if (ptr_store) {
        uint32_t a = in->operands[0];
        uint32_t k = pointer_slot(f, si, a);
        if (k != HG_IR_NONE ? si->content[k].state != KNOWN
                            : a >= f->num_values || f->values[a].type.addrspace == HG_AS_PRIVATE)
          return false;
      }
      for (uint32_t j = 0; j < in->num_operands; j++) {
        uint32_t v = in->operands[j];
        if (v >= f->num_values || f->values[v].type.scalar != HG_IR_PTR || f->values[v].kind != HG_VAL_INST ||
            b[v].state != KNOWN || b[v].kind != HG_BASE_SLOT || b[v].index >= f->num_slots ||
            si->content[b[v].index].state == UNSEEN)
          continue;
        uint32_t k = b[v].index;
        bool whole = j == 0 && pointer_slot(f, si, v) == k;
        if ((in->op == HG_OP_LOAD && whole) || (in->op == HG_OP_STORE && whole && ptr_store) ||
            (in->op == HG_OP_BITCAST && j == 0))
          continue;
        return false;
      }
    }
  }
  return true;
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
  free(l->frame_ptrs);
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
  slot_info si = {hg_ir_defs(f),
                  calloc(f->num_slots ? f->num_slots : 1, sizeof *si.content)};
  out->sps = calloc(f->num_safepoints ? f->num_safepoints : 1, sizeof *out->sps);
  if (!b || !si.def || !si.content || !out->sps) {
    free(b);
    free(si.def);
    free(si.content);
    hg_ir_state_layout_free(out);
    return false;
  }
  out->num_safepoints = f->num_safepoints;
  /* a fixed point: each pass only raises bases (UNSEEN -> KNOWN -> UNKNOWN), each value at most
   * twice, so 2 * num_values + 1 passes always reach it (a pass that changes nothing ends it) */
  for (uint32_t pass = 0; pass <= 2 * (f->num_values + f->num_slots) + 1 && propagate(f, b, &si); pass++)
    ;
  bool frame_ok = frame_pointers_known(f, b, &si);
  if (frame_ok) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < f->num_slots; k++)
      n += si.content[k].state == KNOWN;
    out->frame_ptrs = calloc(n ? n : 1, sizeof *out->frame_ptrs);
    if (!out->frame_ptrs) {
      free(b);
      free(si.def);
      free(si.content);
      hg_ir_state_layout_free(out);
      return false;
    }
    for (uint32_t k = 0; k < f->num_slots; k++)
      if (si.content[k].state == KNOWN)
        out->frame_ptrs[out->num_frame_ptrs++] =
            (hg_ir_frame_ptr){f->slots[k].offset, si.content[k].kind, si.content[k].index};
  }
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
    if (!frame_ok)
      l->stoppable = false;
    if (sp->kind == HG_SAFEPOINT_ENTRY)
      l->stoppable = true;
    l->bytes = off;
    if (off > stride)
      stride = off;
  }
  out->value_stride = (stride + 7) & ~7u;
  free(b);
  free(si.def);
  free(si.content);
  return true;
}
