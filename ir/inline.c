/* hg_ir_inline_calls: every HG_OP_CALL replaced by the callee's body, callees first, so that
 * kernels reach the lowerings without calls (OpenCL C has no recursion; we reject it). */
#include "ir/ir_internal.h"

#include <stdlib.h>
#include <string.h>

enum { WHITE = 0, GREY, BLACK };

/* Depth-first over the call graph: order[] gets callees before callers. */
static bool visit(const hg_ir_module *m, uint32_t fi, uint8_t *color, uint32_t *order, uint32_t *n, char *err,
                  size_t err_size, unsigned depth) {
  const hg_ir_function *f = &m->functions[fi];
  if (depth > 4096) { /* far beyond real programs; bounds the recursion */
    hg_ir_errf(err, err_size, "call graph too deep at @%s", f->name);
    return false;
  }
  color[fi] = GREY;
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      if (in->op != HG_OP_CALL)
        continue;
      uint32_t c = in->imm[0];
      if (!m->functions[c].num_blocks) {
        hg_ir_errf(err, err_size, "@%s calls @%s, which has no body", f->name, m->functions[c].name);
        return false;
      }
      if (color[c] == GREY) {
        hg_ir_errf(err, err_size, "recursion: @%s calls @%s (OpenCL C forbids recursion)", f->name,
                   m->functions[c].name);
        return false;
      }
      if (color[c] == WHITE && !visit(m, c, color, order, n, err, err_size, depth + 1))
        return false;
    }
  color[fi] = BLACK;
  order[(*n)++] = fi;
  return true;
}

/* Appends a finished instruction to block b (takes ownership of operands/imm). */
static bool push_inst(hg_ir_function *f, uint32_t b, hg_ir_inst in) {
  hg_ir_block *bl = &f->blocks[b];
  if (hg_ir_grow((void **)&bl->insts, &bl->cap_insts, bl->num_insts + 1, sizeof *bl->insts)) {
    free(in.operands);
    free(in.imm);
    return false;
  }
  bl->insts[bl->num_insts++] = in;
  return true;
}

static uint32_t *dup_u32(const uint32_t *p, uint32_t n) {
  if (!n)
    return NULL;
  uint32_t *d = malloc(n * sizeof *d);
  if (d)
    memcpy(d, p, n * sizeof *d);
  return d;
}

/* Inlines the call at instruction i of block b of f (callee g, without calls itself). */
static bool inline_one(hg_ir_function *f, const hg_ir_function *g, uint32_t b, uint32_t i) {
  hg_ir_inst call = f->blocks[b].insts[i];
  uint32_t *vmap = malloc((g->num_values ? g->num_values : 1) * sizeof *vmap);
  uint32_t *ret_vals = NULL, *ret_blocks = NULL, nret = 0;
  bool ok = false;
  if (!vmap)
    return false;
  /* the rest of block b moves to a new continuation block */
  uint32_t cont = hg_ir_add_block(f);
  if (cont == HG_IR_NONE)
    goto out;
  {
    hg_ir_block *src = &f->blocks[b], *dst = &f->blocks[cont];
    uint32_t nrest = src->num_insts - i - 1;
    dst->insts = malloc((nrest ? nrest : 1) * sizeof *dst->insts);
    if (!dst->insts)
      goto out;
    dst->cap_insts = nrest ? nrest : 1;
    memcpy(dst->insts, src->insts + i + 1, nrest * sizeof *dst->insts);
    dst->num_insts = nrest;
    src->num_insts = i; /* the call itself is dropped; its arrays are freed below */
    /* successors' phis now come from the continuation block */
    const uint32_t *succ;
    uint32_t ns = nrest ? hg_ir_successors(&dst->insts[nrest - 1], &succ) : 0;
    for (uint32_t k = 0; k < ns; k++) {
      hg_ir_block *sb = &f->blocks[succ[k]];
      for (uint32_t j = 0; j < sb->num_insts && sb->insts[j].op == HG_OP_PHI; j++)
        for (uint32_t q = 0; q < sb->insts[j].num_imm; q++)
          if (sb->insts[j].imm[q] == b)
            sb->insts[j].imm[q] = cont;
    }
  }
  /* the callee's values, slots and blocks in the caller */
  for (uint32_t x = 0; x < g->num_values; x++) {
    const hg_ir_value *v = &g->values[x];
    uint32_t nv;
    switch (v->kind) {
    case HG_VAL_PARAM: nv = call.operands[v->index]; break;
    case HG_VAL_CONST: nv = hg_ir_add_const(f, v->type, g->const_words + v->index); break;
    case HG_VAL_UNDEF: nv = hg_ir_add_undef(f, v->type); break;
    case HG_VAL_GLOBAL: nv = hg_ir_push_value(f, HG_VAL_GLOBAL, v->type, v->index); break;
    default: nv = hg_ir_push_value(f, HG_VAL_INST, v->type, f->num_values); break;
    }
    if (nv == HG_IR_NONE)
      goto out;
    vmap[x] = nv;
  }
  uint32_t slot_base = f->num_slots;
  for (uint32_t s = 0; s < g->num_slots; s++)
    if (hg_ir_add_slot(f, g->slots[s].size, g->slots[s].align) == HG_IR_NONE)
      goto out;
  uint32_t block_base = f->num_blocks;
  for (uint32_t gb = 0; gb < g->num_blocks; gb++)
    if (hg_ir_add_block(f) == HG_IR_NONE)
      goto out;
  ret_vals = malloc((g->num_blocks ? g->num_blocks : 1) * sizeof *ret_vals);
  ret_blocks = malloc((g->num_blocks ? g->num_blocks : 1) * sizeof *ret_blocks);
  if (!ret_vals || !ret_blocks)
    goto out;
  for (uint32_t gb = 0; gb < g->num_blocks; gb++) {
    const hg_ir_block *sb = &g->blocks[gb];
    for (uint32_t k = 0; k < sb->num_insts; k++) {
      const hg_ir_inst *si = &sb->insts[k];
      hg_ir_inst in = *si;
      if (si->op == HG_OP_RET) {
        if (si->num_operands) {
          ret_vals[nret] = vmap[si->operands[0]];
          ret_blocks[nret++] = block_base + gb;
        }
        memset(&in, 0, sizeof in);
        in.op = HG_OP_BR;
        in.id = HG_IR_NONE;
        in.type = hg_ir_void_ty();
        in.num_imm = 1;
        in.imm = malloc(sizeof *in.imm);
        if (!in.imm)
          goto out;
        in.imm[0] = cont;
        if (!push_inst(f, block_base + gb, in))
          goto out;
        continue;
      }
      in.operands = dup_u32(si->operands, si->num_operands);
      in.imm = dup_u32(si->imm, si->num_imm);
      if ((si->num_operands && !in.operands) || (si->num_imm && !in.imm)) {
        free(in.operands);
        free(in.imm);
        goto out;
      }
      for (uint32_t q = 0; q < in.num_operands; q++)
        in.operands[q] = vmap[in.operands[q]];
      if (in.id != HG_IR_NONE)
        in.id = vmap[in.id];
      if (in.op == HG_OP_PHI || hg_ir_is_terminator(in.op))
        for (uint32_t q = 0; q < in.num_imm; q++)
          in.imm[q] += block_base;
      if (in.op == HG_OP_SLOT)
        in.imm[0] += slot_base;
      if (!push_inst(f, block_base + gb, in))
        goto out;
    }
  }
  /* the call site jumps to the callee's entry; its result becomes a phi of the returns */
  {
    hg_ir_inst br;
    memset(&br, 0, sizeof br);
    br.op = HG_OP_BR;
    br.id = HG_IR_NONE;
    br.type = hg_ir_void_ty();
    br.num_imm = 1;
    br.imm = malloc(sizeof *br.imm);
    if (!br.imm || (br.imm[0] = block_base, !push_inst(f, b, br)))
      goto out;
  }
  if (call.id != HG_IR_NONE) {
    if (!nret) { /* the callee never returns: the result is never observed */
      f->values[call.id].kind = HG_VAL_UNDEF;
      f->values[call.id].index = 0;
    } else {
      hg_ir_block *cb = &f->blocks[cont];
      if (hg_ir_grow((void **)&cb->insts, &cb->cap_insts, cb->num_insts + 1, sizeof *cb->insts))
        goto out;
      memmove(cb->insts + 1, cb->insts, cb->num_insts * sizeof *cb->insts);
      hg_ir_inst phi;
      memset(&phi, 0, sizeof phi);
      phi.op = HG_OP_PHI;
      phi.id = call.id;
      phi.type = call.type;
      phi.num_operands = phi.num_imm = nret;
      phi.operands = ret_vals;
      phi.imm = ret_blocks;
      ret_vals = ret_blocks = NULL;
      cb->insts[0] = phi;
      cb->num_insts++;
    }
  }
  ok = true;
out:
  if (ok) {
    free(call.operands);
    free(call.imm);
  }
  free(vmap);
  free(ret_vals);
  free(ret_blocks);
  return ok;
}

bool hg_ir_inline_calls(hg_ir_module *m, char *err, size_t err_size) {
  char verr[256];
  if (!hg_ir_verify(m, verr, sizeof verr)) {
    hg_ir_errf(err, err_size, "inline: module does not verify: %s", verr);
    return false;
  }
  uint32_t n = m->num_functions, no = 0;
  uint8_t *color = calloc(n ? n : 1, 1);
  uint32_t *order = malloc((n ? n : 1) * sizeof *order);
  bool ok = color && order;
  if (!ok)
    hg_ir_errf(err, err_size, "out of memory");
  for (uint32_t fi = 0; ok && fi < n; fi++)
    if (m->functions[fi].num_blocks && color[fi] == WHITE)
      ok = visit(m, fi, color, order, &no, err, err_size, 0);
  for (uint32_t k = 0; ok && k < no; k++) {
    hg_ir_function *f = &m->functions[order[k]];
    for (uint32_t b = 0; ok && b < f->num_blocks; b++)
      for (uint32_t i = 0; ok && i < f->blocks[b].num_insts; i++)
        if (f->blocks[b].insts[i].op == HG_OP_CALL) {
          ok = inline_one(f, &m->functions[f->blocks[b].insts[i].imm[0]], b, i);
          if (!ok)
            hg_ir_errf(err, err_size, "out of memory while inlining into @%s", f->name);
          break; /* the block now ends with the branch into the callee */
        }
  }
  for (uint32_t fi = 0; fi < n; fi++)
    hg_ir_function_clear_state(&m->functions[fi]);
  free(color);
  free(order);
  if (ok && !hg_ir_verify(m, verr, sizeof verr)) {
    hg_ir_errf(err, err_size, "inline: result does not verify (a bug): %s", verr);
    ok = false;
  }
  return ok;
}

/* Kernels and what they call, transitively: the rest of an executable is dead. */
static void mark_reachable(const hg_ir_module *m, uint32_t fi, bool *live) {
  uint32_t *stack = NULL, depth = 0, cap = 0;
  live[fi] = true;
  for (uint32_t at = fi;;) {
    const hg_ir_function *f = &m->functions[at];
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &f->blocks[b].insts[i];
        uint32_t c = in->op == HG_OP_CALL && in->num_imm ? in->imm[0] : HG_IR_NONE;
        if (c >= m->num_functions || live[c])
          continue;
        live[c] = true;
        if (hg_ir_grow((void **)&stack, &cap, depth + 1, sizeof *stack)) {
          free(stack); /* out of memory: keep everything from here on */
          for (uint32_t k = 0; k < m->num_functions; k++)
            live[k] = true;
          return;
        }
        stack[depth++] = c;
      }
    if (!depth)
      break;
    at = stack[--depth];
  }
  free(stack);
}

void hg_ir_drop_unused_functions(hg_ir_module *m) {
  uint32_t n = m->num_functions;
  bool *live = calloc(n ? n : 1, sizeof *live);
  uint32_t *index = malloc((n ? n : 1) * sizeof *index);
  if (!live || !index) { /* keeping them is always right */
    free(live);
    free(index);
    return;
  }
  for (uint32_t fi = 0; fi < n; fi++)
    if (m->functions[fi].is_kernel && !live[fi])
      mark_reachable(m, fi, live);
  uint32_t kept = 0;
  for (uint32_t fi = 0; fi < n; fi++) {
    if (!live[fi]) {
      hg_ir_function_free_contents(&m->functions[fi]);
      continue;
    }
    index[fi] = kept;
    if (kept != fi)
      m->functions[kept] = m->functions[fi];
    kept++;
  }
  m->num_functions = kept;
  for (uint32_t fi = 0; fi < kept; fi++) {
    hg_ir_function *f = &m->functions[fi];
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        hg_ir_inst *in = &f->blocks[b].insts[i];
        if (in->op == HG_OP_CALL && in->num_imm && in->imm[0] < n)
          in->imm[0] = index[in->imm[0]];
      }
  }
  free(live);
  free(index);
}
