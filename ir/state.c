/* hg_ir_compute_state: the execution-state metadata capture and restore need
 * (docs/ir-spec.md, "Execution state"): private frame layout, static local memory layout per
 * kernel, safe points (entry, every barrier, every loop header) and the SSA values live at
 * each. Expects a verified module. */
#include "ir/cfg.h"

#include <stdlib.h>
#include <string.h>

static uint32_t align_up(uint32_t x, uint32_t a) { return a ? (x + a - 1) / a * a : x; }

uint32_t hg_ir_pointee_align(const char *type_name) {
  static const struct { const char *name; uint32_t size; } k_scalars[] = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"half", 2}, {"int", 4}, {"uint", 4},
      {"float", 4}, {"long", 8}, {"ulong", 8}, {"double", 8}};
  if (!type_name) return 1;
  for (size_t i = 0; i < sizeof k_scalars / sizeof *k_scalars; i++) {
    size_t n = strlen(k_scalars[i].name);
    if (strncmp(type_name, k_scalars[i].name, n)) continue;
    char *end;
    unsigned long lanes = strtoul(type_name + n, &end, 10);
    if (end == type_name + n) lanes = 1;
    if (*end != '*' || !(lanes == 1 || lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16)) return 1;
    return k_scalars[i].size * (uint32_t)(lanes == 3 ? 4 : lanes);
  }
  return 1;
}

uint32_t hg_ir_local_arg_align(const hg_ir_kernel_arg *a) {
  uint32_t p = hg_ir_pointee_align(a ? a->type_name : NULL);
  return p > 16 ? p : 16;
}

static void layout_slots(hg_ir_function *f) {
  uint32_t off = 0, maxal = 1;
  for (uint32_t i = 0; i < f->num_slots; i++) {
    hg_ir_slot *s = &f->slots[i];
    uint32_t al = s->align ? s->align : 1;
    off = align_up(off, al);
    s->offset = off;
    off += s->size;
    if (al > maxal)
      maxal = al;
  }
  f->private_size = f->num_slots ? align_up(off, maxal) : 0;
}

/* ---- liveness ---------------------------------------------------------------------------- */
typedef uint64_t word;
#define BIT_SET(s, i) ((s)[(i) >> 6] |= (word)1 << ((i)&63))
#define BIT_CLR(s, i) ((s)[(i) >> 6] &= ~((word)1 << ((i)&63)))
#define BIT_GET(s, i) (((s)[(i) >> 6] >> ((i)&63)) & 1)

static bool tracked(const hg_ir_function *f, uint32_t v) {
  return v < f->num_values && (f->values[v].kind == HG_VAL_PARAM || f->values[v].kind == HG_VAL_INST);
}

/* live := the values live just before instruction `from` of block b, given live-out in live. */
static void walk_back(const hg_ir_function *f, uint32_t b, uint32_t from, word *live) {
  const hg_ir_block *bl = &f->blocks[b];
  for (uint32_t j = bl->num_insts; j-- > from;) {
    const hg_ir_inst *in = &bl->insts[j];
    if (in->op == HG_OP_PHI)
      break; /* phi operands are used on the incoming edges, not here */
    if (in->id != HG_IR_NONE && in->id < f->num_values)
      BIT_CLR(live, in->id);
    for (uint32_t k = 0; k < in->num_operands; k++)
      if (tracked(f, in->operands[k]))
        BIT_SET(live, in->operands[k]);
  }
}

static uint32_t first_non_phi(const hg_ir_block *bl) {
  uint32_t i = 0;
  while (i < bl->num_insts && bl->insts[i].op == HG_OP_PHI)
    i++;
  return i;
}

static bool add_safepoint(hg_ir_function *f, uint8_t kind, uint32_t b, uint32_t i, const word *live, size_t nw) {
  hg_ir_safepoint *n = realloc(f->safepoints, ((size_t)f->num_safepoints + 1) * sizeof *n);
  if (!n)
    return false;
  f->safepoints = n;
  hg_ir_safepoint *sp = &n[f->num_safepoints];
  memset(sp, 0, sizeof *sp);
  sp->id = f->num_safepoints;
  sp->kind = kind;
  sp->block = b;
  sp->inst = i;
  uint32_t cnt = 0;
  for (size_t w = 0; w < nw; w++)
    cnt += (uint32_t)__builtin_popcountll(live[w]);
  sp->live = malloc((cnt ? cnt : 1) * sizeof *sp->live);
  if (!sp->live)
    return false;
  for (uint32_t v = 0; v < f->num_values; v++)
    if (BIT_GET(live, v))
      sp->live[sp->num_live++] = v;
  f->num_safepoints++;
  return true;
}

static bool compute_safepoints(hg_ir_function *f) {
  if (!f->num_blocks)
    return true;
  hg_ir_cfg c;
  if (hg_ir_cfg_build(f, &c))
    return false;
  size_t nw = ((size_t)f->num_values + 63) / 64;
  if (!nw)
    nw = 1;
  word *in = calloc(f->num_blocks * nw, sizeof *in);
  word *out = calloc(f->num_blocks * nw, sizeof *out);
  word *tmp = calloc(nw, sizeof *tmp);
  bool ok = false;
  if (!in || !out || !tmp)
    goto done;
  /* backward data flow to a fixed point, visiting blocks in post-order */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t r = c.nrpo; r-- > 0;) {
      uint32_t b = c.rpo[r];
      const hg_ir_block *bl = &f->blocks[b];
      memset(tmp, 0, nw * sizeof *tmp);
      const uint32_t *succ;
      uint32_t ns = bl->num_insts ? hg_ir_successors(&bl->insts[bl->num_insts - 1], &succ) : 0;
      for (uint32_t k = 0; k < ns; k++) {
        uint32_t s = succ[k];
        for (size_t w = 0; w < nw; w++)
          tmp[w] |= in[s * nw + w];
        const hg_ir_block *sb = &f->blocks[s];
        for (uint32_t i = 0; i < sb->num_insts && sb->insts[i].op == HG_OP_PHI; i++)
          for (uint32_t q = 0; q < sb->insts[i].num_operands && q < sb->insts[i].num_imm; q++)
            if (sb->insts[i].imm[q] == b && tracked(f, sb->insts[i].operands[q]))
              BIT_SET(tmp, sb->insts[i].operands[q]);
      }
      memcpy(out + b * nw, tmp, nw * sizeof *tmp);
      walk_back(f, b, 0, tmp);
      for (uint32_t i = 0; i < bl->num_insts && bl->insts[i].op == HG_OP_PHI; i++)
        if (bl->insts[i].id < f->num_values)
          BIT_CLR(tmp, bl->insts[i].id);
      if (memcmp(tmp, in + b * nw, nw * sizeof *tmp)) {
        memcpy(in + b * nw, tmp, nw * sizeof *tmp);
        changed = true;
      }
    }
  }
  /* the entry, then per block in index order: its loop-header point, then its barriers */
  memcpy(tmp, out, nw * sizeof *tmp);
  walk_back(f, 0, 0, tmp);
  if (!add_safepoint(f, HG_SAFEPOINT_ENTRY, 0, 0, tmp, nw))
    goto done;
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    if (!hg_ir_cfg_reachable(&c, b))
      continue;
    const hg_ir_block *bl = &f->blocks[b];
    bool header = false;
    for (uint32_t k = c.pred_start[b]; k < c.pred_start[b + 1]; k++)
      header |= hg_ir_cfg_dominates(&c, b, c.pred_list[k]); /* a back edge */
    if (header) {
      uint32_t at = first_non_phi(bl);
      memcpy(tmp, out + b * nw, nw * sizeof *tmp);
      walk_back(f, b, at, tmp);
      if (!add_safepoint(f, HG_SAFEPOINT_LOOP_HEADER, b, at, tmp, nw))
        goto done;
    }
    for (uint32_t i = 0; i < bl->num_insts; i++)
      if (bl->insts[i].op == HG_OP_BARRIER) {
        memcpy(tmp, out + b * nw, nw * sizeof *tmp);
        walk_back(f, b, i, tmp);
        if (!add_safepoint(f, HG_SAFEPOINT_BARRIER, b, i, tmp, nw))
          goto done;
      }
  }
  ok = true;
done:
  free(in);
  free(out);
  free(tmp);
  hg_ir_cfg_free(&c);
  return ok;
}

/* ---- local memory ------------------------------------------------------------------------ */
static void layout_locals(hg_ir_module *m) {
  uint32_t nf = m->num_functions, ng = m->num_globals;
  if (!nf || !ng)
    return;
  size_t nw = ((size_t)ng + 63) / 64;
  word *used = calloc((size_t)nf * nw, sizeof *used);
  if (!used)
    return;
  for (uint32_t fi = 0; fi < nf; fi++) {
    const hg_ir_function *f = &m->functions[fi];
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &f->blocks[b].insts[i];
        for (uint32_t k = 0; k < in->num_operands; k++) {
          uint32_t v = in->operands[k];
          if (v < f->num_values && f->values[v].kind == HG_VAL_GLOBAL && f->values[v].index < ng &&
              m->globals[f->values[v].index].addrspace == HG_AS_LOCAL)
            BIT_SET(used + fi * nw, f->values[v].index);
        }
      }
  }
  /* through calls, to a fixed point */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t fi = 0; fi < nf; fi++) {
      const hg_ir_function *f = &m->functions[fi];
      for (uint32_t b = 0; b < f->num_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
          const hg_ir_inst *in = &f->blocks[b].insts[i];
          if (in->op != HG_OP_CALL || !in->num_imm || in->imm[0] >= nf || in->imm[0] == fi)
            continue;
          for (size_t w = 0; w < nw; w++) {
            word nv = used[fi * nw + w] | used[in->imm[0] * nw + w];
            if (nv != used[fi * nw + w]) {
              used[fi * nw + w] = nv;
              changed = true;
            }
          }
        }
    }
  }
  for (uint32_t fi = 0; fi < nf; fi++) {
    hg_ir_function *f = &m->functions[fi];
    if (!f->is_kernel)
      continue;
    uint32_t cnt = 0, off = 0;
    for (uint32_t g = 0; g < ng; g++)
      cnt += BIT_GET(used + fi * nw, g);
    if (!cnt)
      continue;
    f->local_vars = malloc(cnt * sizeof *f->local_vars);
    if (!f->local_vars)
      continue;
    for (uint32_t g = 0; g < ng; g++)
      if (BIT_GET(used + fi * nw, g)) {
        off = align_up(off, m->globals[g].align ? m->globals[g].align : 1);
        f->local_vars[f->num_local_vars].global = g;
        f->local_vars[f->num_local_vars++].offset = off;
        off += m->globals[g].size;
      }
    f->local_static_size = off;
  }
  free(used);
}

void hg_ir_compute_state(hg_ir_module *m) {
  for (uint32_t fi = 0; fi < m->num_functions; fi++) {
    hg_ir_function *f = &m->functions[fi];
    hg_ir_function_clear_state(f);
    layout_slots(f);
    if (!compute_safepoints(f))
      hg_ir_function_clear_state(f); /* out of memory: no metadata rather than half of it */
  }
  layout_locals(m);
}
