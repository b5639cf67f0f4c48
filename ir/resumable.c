/* hg_ir_make_resumable: a kernel turned into a work-item step function over explicit state
 * (docs/ir-spec.md, "Resumable step functions").
 *
 * MIMD backends run a work-group by looping over its work-items between barriers. The step
 * function runs one work-item from a resume point to its next barrier (or to its end) and
 * returns where it stopped, so a driver can call every work-item in turn until all are done.
 * Everything that crosses a barrier lives in the private frame the caller provides, so the
 * state at a barrier is (safe-point id, frame bytes): device-neutral, as migration needs.
 *
 * The kernel is kept; a new function "<kernel>.step" is added:
 *   i32 step(<kernel params>..., ptr.private frame, i32 resume)
 * - every instruction value live at a barrier safe point gets a new private slot: it is
 *   stored right after its definition (after the phis for a phi) and every use loads it
 *   (a phi's use loads at the end of the incoming block);
 * - each barrier ends its block with `ret <safe-point id>`, the rest of the block becomes a
 *   new block (a continuation);
 * - every loop-header safe point where a stopped work-item may be captured (the state layout
 *   says it is stoppable) is a resume point too: its live values are demoted the same way, the
 *   header is split after its phis (and after the stores of the demoted phis), and, in a
 *   kernel without barriers, the split is a check `call_builtin bool "hg.stop_poll"` whose
 *   true edge returns the header's safe-point id (a kernel with barriers stops between barrier
 *   rounds, every work-item at one barrier, which any device can resume);
 * - a new entry block switches on `resume`: the continuation of barrier safe point k for
 *   case k, the split of loop header k for case k, the kernel's entry otherwise (0 = kernel
 *   start); `ret` returns HG_IR_STEP_DONE.
 * All slots (the kernel's and the new ones) live in the frame. hg_ir_resumable_plan_of says,
 * without building anything, which slot holds which kernel value and where the function can
 * stop: what a backend needs to turn a frame into the device-neutral state and back. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"
#include "ir/ndrange_state.h"

typedef struct rs_ctx {
  hg_ir_module *m;
  uint32_t kidx, sidx;
  uint32_t np;          /* kernel parameters */
  uint32_t *slot_of;    /* old value -> new slot for demoted values, HG_IR_NONE otherwise */
  uint32_t *last_part;  /* old block -> new block holding its terminator */
  uint32_t *cont_block; /* continuation block per barrier or loop header (indexed by safe-point id) */
  hg_ir_resumable_plan plan; /* which values are demoted, which safe points are resume points */
  uint32_t poll_name;        /* string id of HG_IR_STOP_POLL_BUILTIN */
} rs_ctx;

static hg_ir_function *S(rs_ctx *x) { return &x->m->functions[x->sidx]; }
static hg_ir_function *K(rs_ctx *x) { return &x->m->functions[x->kidx]; }
static uint32_t newv(rs_ctx *x, uint32_t v) { return v < x->np ? v : v + 2; }

static unsigned mem_bytes(hg_ir_type t) {
  unsigned lanes = t.lanes == 3 ? 4 : (t.lanes ? t.lanes : 1);
  return hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * lanes;
}

/* Appends a copy of `in` (operands and imm replaced by the given arrays) to block b. */
static bool push_raw(hg_ir_function *f, uint32_t b, const hg_ir_inst *in, const uint32_t *ops, const uint32_t *imm) {
  hg_ir_block *bl = &f->blocks[b];
  if (hg_ir_grow((void **)&bl->insts, &bl->cap_insts, bl->num_insts + 1, sizeof *bl->insts))
    return false;
  hg_ir_inst c = *in;
  c.operands = c.num_operands ? malloc(c.num_operands * sizeof *c.operands) : NULL;
  c.imm = c.num_imm ? malloc(c.num_imm * sizeof *c.imm) : NULL;
  if ((c.num_operands && !c.operands) || (c.num_imm && !c.imm)) {
    free(c.operands);
    free(c.imm);
    return false;
  }
  if (c.num_operands)
    memcpy(c.operands, ops, c.num_operands * sizeof *ops);
  if (c.num_imm)
    memcpy(c.imm, imm, c.num_imm * sizeof *imm);
  bl->insts[bl->num_insts++] = c;
  return true;
}

/* A SLOT instruction addressing slot s, appended to block b; the pointer value. */
static uint32_t slot_ptr(hg_ir_function *f, uint32_t b, uint32_t s) {
  return hg_ir_append(f, b, HG_OP_SLOT, 0, hg_ir_ptr_ty(HG_AS_PRIVATE), 0, NULL, 1, &s);
}

static uint16_t align_flags(hg_ir_type t) {
  unsigned n = mem_bytes(t), lg = 0;
  while ((2u << lg) <= n && lg < 4)
    lg++;
  return (uint16_t)(lg << 8);
}

static bool emit_store(rs_ctx *x, uint32_t b, uint32_t old_v) {
  hg_ir_function *f = S(x);
  uint32_t p = slot_ptr(f, b, x->slot_of[old_v]);
  if (p == HG_IR_NONE)
    return false;
  uint32_t ops[2] = {p, newv(x, old_v)};
  hg_ir_append(f, b, HG_OP_STORE, align_flags(f->values[ops[1]].type), hg_ir_void_ty(), 2, ops, 0, NULL);
  return true;
}

static uint32_t emit_load(rs_ctx *x, uint32_t b, uint32_t old_v) {
  hg_ir_function *f = S(x);
  uint32_t p = slot_ptr(f, b, x->slot_of[old_v]);
  if (p == HG_IR_NONE)
    return HG_IR_NONE;
  hg_ir_type t = f->values[newv(x, old_v)].type;
  return hg_ir_append(f, b, HG_OP_LOAD, align_flags(t), t, 1, &p, 0, NULL);
}

static bool demoted(rs_ctx *x, uint32_t old_v) { return old_v < K(x)->num_values && x->slot_of[old_v] != HG_IR_NONE; }

static unsigned slot_bytes(hg_ir_type t) { return t.scalar == HG_IR_PTR ? 8 : mem_bytes(t); }

void hg_ir_resumable_plan_free(hg_ir_resumable_plan *p) {
  if (!p)
    return;
  free(p->slot_of_value);
  free(p->resumable);
  memset(p, 0, sizeof *p);
}

bool hg_ir_resumable_plan_of(const hg_ir_module *m, uint32_t kernel, hg_ir_resumable_plan *p) {
  memset(p, 0, sizeof *p);
  if (kernel >= m->num_functions)
    return false;
  const hg_ir_function *k = &m->functions[kernel];
  hg_ir_state_layout lay;
  if (!hg_ir_state_layout_of(m, k, &lay))
    return false;
  p->num_values = k->num_values;
  p->num_safepoints = k->num_safepoints;
  p->slot_of_value = malloc((k->num_values ? k->num_values : 1) * sizeof *p->slot_of_value);
  p->resumable = calloc(k->num_safepoints ? k->num_safepoints : 1, 1);
  if (!p->slot_of_value || !p->resumable) {
    hg_ir_state_layout_free(&lay);
    hg_ir_resumable_plan_free(p);
    return false;
  }
  p->can_stop = true;
  bool has_barrier = false;
  for (uint32_t s = 0; s < k->num_safepoints; s++) {
    const hg_ir_safepoint *sp = &k->safepoints[s];
    bool stoppable = s < lay.num_safepoints && lay.sps[s].stoppable;
    if (sp->kind == HG_SAFEPOINT_BARRIER) {
      has_barrier = true;
      p->resumable[s] = 1; /* the round-robin driver needs every barrier, stoppable or not */
      if (!stoppable)
        p->can_stop = false;
    } else {
      p->resumable[s] = sp->kind == HG_SAFEPOINT_ENTRY || stoppable;
    }
  }
  /* a group with barriers stops as a unit, at a barrier: a SIMT device resumes it without a
   * work-item that would return early while the others wait; so loop headers poll only in
   * kernels without barriers (they stay resume points, for states from elsewhere) */
  p->loop_polls = p->can_stop && !has_barrier;
  hg_ir_state_layout_free(&lay);
  /* slots after the kernel's, in safe-point order then live-list order (make_resumable adds
   * them in exactly this order) */
  uint32_t next = k->num_slots;
  for (uint32_t v = 0; v < k->num_values; v++)
    p->slot_of_value[v] = HG_IR_NONE;
  for (uint32_t s = 0; s < k->num_safepoints; s++) {
    const hg_ir_safepoint *sp = &k->safepoints[s];
    if (!p->resumable[s] || sp->kind == HG_SAFEPOINT_ENTRY)
      continue;
    for (uint32_t l = 0; l < sp->num_live; l++) {
      uint32_t v = sp->live[l];
      if (v < k->num_params || v >= k->num_values || k->values[v].kind != HG_VAL_INST ||
          p->slot_of_value[v] != HG_IR_NONE)
        continue; /* parameters come with every call */
      p->slot_of_value[v] = next++;
    }
  }
  return true;
}

/* The loop-header resume point at the top of kernel block b (HG_IR_NONE: none). */
static uint32_t header_resume_point(rs_ctx *x, uint32_t b) {
  const hg_ir_function *k = K(x);
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    if (k->safepoints[s].kind == HG_SAFEPOINT_LOOP_HEADER && k->safepoints[s].block == b && x->plan.resumable[s])
      return s;
  return HG_IR_NONE;
}

/* Splits the loop header being emitted (current new block *cur, its phis and their demoted
 * stores already there) at resume point sp: `poll ? ret sp : continue`, or a plain branch
 * when the kernel does not stop at loop headers (it can still be resumed there). */
static bool split_header(rs_ctx *x, uint32_t *cur, uint32_t sp) {
  uint32_t cont = hg_ir_add_block(S(x));
  if (cont == HG_IR_NONE)
    return false;
  if (x->plan.loop_polls) {
    uint32_t yield = hg_ir_add_block(S(x));
    uint64_t id = sp;
    uint32_t c = hg_ir_add_const(S(x), hg_ir_ty(HG_IR_I32, 1), &id);
    if (yield == HG_IR_NONE || c == HG_IR_NONE)
      return false;
    uint32_t poll = hg_ir_append(S(x), *cur, HG_OP_CALL_BUILTIN, 0, hg_ir_ty(HG_IR_BOOL, 1), 0, NULL, 1, &x->poll_name);
    if (poll == HG_IR_NONE)
      return false;
    hg_ir_append(S(x), *cur, HG_OP_CONDBR, 0, hg_ir_void_ty(), 1, &poll, 2, (uint32_t[]){yield, cont});
    hg_ir_append(S(x), yield, HG_OP_RET, 0, hg_ir_void_ty(), 1, &c, 0, NULL);
  } else {
    hg_ir_append(S(x), *cur, HG_OP_BR, 0, hg_ir_void_ty(), 0, NULL, 1, &cont);
  }
  x->cont_block[sp] = cont;
  *cur = cont;
  return true;
}

/* Copies the values table: parameters gain (frame, resume), everything else shifts by 2. */
static bool copy_values(rs_ctx *x) {
  hg_ir_function *k = K(x), *s = S(x);
  uint32_t n = k->num_values + 2;
  if (hg_ir_grow((void **)&s->values, &s->cap_values, n, sizeof *s->values))
    return false;
  for (uint32_t v = x->np; v < k->num_values; v++) {
    hg_ir_value val = k->values[v];
    if (val.kind == HG_VAL_INST)
      val.index = v + 2;
    s->values[v + 2] = val;
  }
  s->num_values = n;
  if (k->num_const_words) {
    s->const_words = malloc(k->num_const_words * sizeof *s->const_words);
    if (!s->const_words)
      return false;
    memcpy(s->const_words, k->const_words, k->num_const_words * sizeof *s->const_words);
    s->num_const_words = s->cap_const_words = k->num_const_words;
  }
  return true;
}

static uint32_t barrier_safepoint(const hg_ir_function *k, uint32_t b, uint32_t i) {
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    if (k->safepoints[s].kind == HG_SAFEPOINT_BARRIER && k->safepoints[s].block == b && k->safepoints[s].inst == i)
      return s;
  return HG_IR_NONE;
}

/* Emits the body of old block ob, starting in new block ob + 1. */
static bool emit_block(rs_ctx *x, uint32_t ob, char *err, size_t err_size) {
  uint32_t cur = ob + 1;
  uint32_t nphi = 0;
  while (nphi < K(x)->blocks[ob].num_insts && K(x)->blocks[ob].insts[nphi].op == HG_OP_PHI)
    nphi++;
  uint32_t header_sp = header_resume_point(x, ob);
  for (uint32_t i = 0; i < K(x)->blocks[ob].num_insts; i++) {
    if (header_sp != HG_IR_NONE && i == K(x)->safepoints[header_sp].inst && !split_header(x, &cur, header_sp))
      return false;
    const hg_ir_inst in = K(x)->blocks[ob].insts[i]; /* a copy: S's arrays may move K's pointer */
    uint32_t ops[in.num_operands ? in.num_operands : 1], imm[in.num_imm ? in.num_imm : 1];
    if (in.op == HG_OP_BARRIER) {
      uint32_t sp = barrier_safepoint(K(x), ob, i);
      if (sp == HG_IR_NONE) {
        hg_ir_errf(err, err_size, "%s: barrier without a safe point (run hg_ir_compute_state)", K(x)->name);
        return false;
      }
      uint64_t id = sp;
      uint32_t c = hg_ir_add_const(S(x), hg_ir_ty(HG_IR_I32, 1), &id);
      uint32_t nb = hg_ir_add_block(S(x));
      if (c == HG_IR_NONE || nb == HG_IR_NONE)
        return false;
      hg_ir_append(S(x), cur, HG_OP_RET, 0, hg_ir_void_ty(), 1, &c, 0, NULL);
      x->cont_block[sp] = nb;
      cur = nb;
      continue;
    }
    if (in.op == HG_OP_RET) {
      uint64_t done = HG_IR_STEP_DONE;
      uint32_t c = hg_ir_add_const(S(x), hg_ir_ty(HG_IR_I32, 1), &done);
      if (c == HG_IR_NONE)
        return false;
      hg_ir_append(S(x), cur, HG_OP_RET, 0, hg_ir_void_ty(), 1, &c, 0, NULL);
      x->last_part[ob] = cur;
      continue;
    }
    for (uint32_t k = 0; k < in.num_operands; k++) {
      uint32_t o = in.operands[k];
      if (in.op != HG_OP_PHI && demoted(x, o)) {
        ops[k] = emit_load(x, cur, o);
        if (ops[k] == HG_IR_NONE)
          return false;
      } else {
        ops[k] = newv(x, o); /* phis: demoted operands are loaded in the incoming block later */
      }
    }
    for (uint32_t k = 0; k < in.num_imm; k++) {
      imm[k] = in.imm[k];
      if (in.op == HG_OP_BR || in.op == HG_OP_CONDBR || in.op == HG_OP_SWITCH)
        imm[k] = in.imm[k] + 1; /* block heads shift by the new entry */
      /* phi incoming blocks are fixed once every block's last part is known */
    }
    hg_ir_inst c = in;
    if (c.id != HG_IR_NONE)
      c.id = newv(x, c.id);
    if (!push_raw(S(x), cur, &c, ops, imm))
      return false;
    if (in.op != HG_OP_PHI && in.id != HG_IR_NONE && demoted(x, in.id) && !emit_store(x, cur, in.id))
      return false;
    if (in.op == HG_OP_PHI && i + 1 == nphi) /* after the last phi: store the demoted phis */
      for (uint32_t q = 0; q < nphi; q++) {
        uint32_t id = K(x)->blocks[ob].insts[q].id;
        if (demoted(x, id) && !emit_store(x, cur, id))
          return false;
      }
    if (hg_ir_is_terminator(in.op))
      x->last_part[ob] = cur;
  }
  return true;
}

/* Moves the terminator of new block b after everything appended to it since; used to put the
 * loads of demoted phi operands before the terminator. */
static void sink_terminator(hg_ir_function *f, uint32_t b, uint32_t term_at) {
  hg_ir_block *bl = &f->blocks[b];
  hg_ir_inst t = bl->insts[term_at];
  memmove(&bl->insts[term_at], &bl->insts[term_at + 1], (bl->num_insts - term_at - 1) * sizeof t);
  bl->insts[bl->num_insts - 1] = t;
}

static bool fix_phis(rs_ctx *x) {
  hg_ir_function *k = K(x);
  uint32_t nkb = k->num_blocks;
  for (uint32_t nb = 1; nb <= nkb; nb++) { /* phis are only at the heads of old blocks */
    for (uint32_t i = 0; i < S(x)->blocks[nb].num_insts && S(x)->blocks[nb].insts[i].op == HG_OP_PHI; i++) {
      const hg_ir_inst *old = &K(x)->blocks[nb - 1].insts[i];
      for (uint32_t q = 0; q < old->num_imm; q++) {
        uint32_t pred = x->last_part[old->imm[q]];
        S(x)->blocks[nb].insts[i].imm[q] = pred;
        uint32_t o = old->operands[q];
        if (demoted(x, o)) {
          uint32_t term_at = S(x)->blocks[pred].num_insts - 1;
          uint32_t v = emit_load(x, pred, o);
          if (v == HG_IR_NONE)
            return false;
          sink_terminator(S(x), pred, term_at);
          S(x)->blocks[nb].insts[i].operands[q] = v;
        }
      }
    }
  }
  return true;
}

static bool build_dispatch(rs_ctx *x) {
  hg_ir_function *k = K(x);
  uint32_t resume = x->np + 1;
  uint32_t ncase = 0;
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    ncase += x->cont_block[s] != HG_IR_NONE;
  if (!ncase) {
    hg_ir_append(S(x), 0, HG_OP_BR, 0, hg_ir_void_ty(), 0, NULL, 1, (uint32_t[]){1});
    return S(x)->blocks[0].num_insts == 1;
  }
  uint32_t *ops = malloc((ncase + 1) * sizeof *ops), *imm = malloc((ncase + 1) * sizeof *imm);
  bool ok = ops && imm;
  uint32_t n = 1;
  if (ok) {
    ops[0] = resume;
    imm[0] = 1;
    for (uint32_t s = 0; s < K(x)->num_safepoints && ok; s++) {
      if (x->cont_block[s] == HG_IR_NONE)
        continue;
      uint64_t id = s;
      ops[n] = hg_ir_add_const(S(x), hg_ir_ty(HG_IR_I32, 1), &id);
      imm[n] = x->cont_block[s];
      ok = ops[n++] != HG_IR_NONE;
    }
  }
  if (ok)
    hg_ir_append(S(x), 0, HG_OP_SWITCH, 0, hg_ir_void_ty(), n, ops, n, imm);
  free(ops);
  free(imm);
  return ok && S(x)->blocks[0].num_insts == 1;
}

uint32_t hg_ir_make_resumable(hg_ir_module *m, uint32_t kernel, char *err, size_t err_size) {
  if (kernel >= m->num_functions || !m->functions[kernel].is_kernel || !m->functions[kernel].num_blocks) {
    hg_ir_errf(err, err_size, "not a kernel with a body");
    return HG_IR_NONE;
  }
  if (!m->functions[kernel].num_safepoints)
    hg_ir_compute_state(m);
  rs_ctx x = {.m = m, .kidx = kernel, .sidx = HG_IR_NONE, .np = m->functions[kernel].num_params};
  uint32_t result = HG_IR_NONE;
  const hg_ir_function *k = &m->functions[kernel];
  /* the step function's name must be free */
  size_t nl = strlen(k->name) + 6;
  char *name = malloc(nl);
  hg_ir_type *pt = malloc((x.np + 2) * sizeof *pt);
  x.slot_of = malloc((k->num_values ? k->num_values : 1) * sizeof *x.slot_of);
  x.last_part = malloc(k->num_blocks * sizeof *x.last_part);
  x.cont_block = malloc((k->num_safepoints ? k->num_safepoints : 1) * sizeof *x.cont_block);
  if (!name || !pt || !x.slot_of || !x.last_part || !x.cont_block) {
    hg_ir_errf(err, err_size, "out of memory");
    goto done;
  }
  snprintf(name, nl, "%s.step", k->name);
  if (hg_ir_find_function(m, name) != HG_IR_NONE) {
    hg_ir_errf(err, err_size, "%s already exists", name);
    goto done;
  }
  for (uint32_t i = 0; i < x.np; i++)
    pt[i] = k->param_types[i];
  pt[x.np] = hg_ir_ptr_ty(HG_AS_PRIVATE);
  pt[x.np + 1] = hg_ir_ty(HG_IR_I32, 1);
  for (uint32_t v = 0; v < k->num_values; v++)
    x.slot_of[v] = HG_IR_NONE;
  for (uint32_t b = 0; b < k->num_blocks; b++)
    x.last_part[b] = b + 1;
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    x.cont_block[s] = HG_IR_NONE;
  if (!hg_ir_resumable_plan_of(m, kernel, &x.plan)) {
    hg_ir_errf(err, err_size, "out of memory");
    goto done;
  }
  x.poll_name = hg_ir_intern(m, HG_IR_STOP_POLL_BUILTIN);
  if (x.poll_name == HG_IR_NONE) {
    hg_ir_errf(err, err_size, "out of memory");
    goto done;
  }

  x.sidx = hg_ir_add_function(m, name, hg_ir_ty(HG_IR_I32, 1), x.np + 2, pt);
  if (x.sidx == HG_IR_NONE || !copy_values(&x)) {
    hg_ir_errf(err, err_size, "out of memory");
    goto done;
  }
  k = K(&x);
  hg_ir_function *s = S(&x);
  /* the kernel's slots keep their numbers; demoted values get new ones after them */
  if (k->num_slots) {
    s->slots = malloc(k->num_slots * sizeof *s->slots);
    if (!s->slots)
      goto oom;
    memcpy(s->slots, k->slots, k->num_slots * sizeof *s->slots);
    s->num_slots = k->num_slots;
  }
  /* demoted values get their slots in the plan's order, so the numbers are the plan's */
  for (uint32_t sp = 0; sp < k->num_safepoints; sp++) {
    const hg_ir_safepoint *p = &k->safepoints[sp];
    if (!x.plan.resumable[sp] || p->kind == HG_SAFEPOINT_ENTRY)
      continue;
    for (uint32_t l = 0; l < p->num_live; l++) {
      uint32_t v = p->live[l];
      if (v < x.np || k->values[v].kind != HG_VAL_INST || x.slot_of[v] != HG_IR_NONE)
        continue; /* parameters come with every call */
      hg_ir_type t = k->values[v].type;
      unsigned bytes = slot_bytes(t), al = 1;
      while (al < bytes && al < 16)
        al *= 2;
      x.slot_of[v] = hg_ir_add_slot(S(&x), bytes, al);
      if (x.slot_of[v] == HG_IR_NONE)
        goto oom;
      if (x.slot_of[v] != x.plan.slot_of_value[v]) {
        hg_ir_errf(err, err_size, "internal error: slot plan mismatch");
        goto fail;
      }
    }
  }
  for (uint32_t b = 0; b <= K(&x)->num_blocks; b++)
    if (hg_ir_add_block(S(&x)) == HG_IR_NONE)
      goto oom;
  for (uint32_t b = 0; b < K(&x)->num_blocks; b++)
    if (!emit_block(&x, b, err, err_size))
      goto fail;
  if (!fix_phis(&x) || !build_dispatch(&x))
    goto oom;
  /* slots laid out as hg_ir_compute_state does, so the frame size is known now */
  s = S(&x);
  uint32_t off = 0, maxal = 1;
  for (uint32_t i = 0; i < s->num_slots; i++) {
    uint32_t al = s->slots[i].align ? s->slots[i].align : 1;
    off = (off + al - 1) / al * al;
    s->slots[i].offset = off;
    off += s->slots[i].size;
    if (al > maxal)
      maxal = al;
  }
  s->private_size = s->num_slots ? (off + maxal - 1) / maxal * maxal : 0;
  result = x.sidx;
  goto done;
oom:
  hg_ir_errf(err, err_size, "out of memory");
fail:
  if (x.sidx != HG_IR_NONE && x.sidx == m->num_functions - 1) {
    hg_ir_function_free_contents(&m->functions[x.sidx]);
    m->num_functions--;
  }
done:
  free(name);
  free(pt);
  free(x.slot_of);
  free(x.last_part);
  free(x.cont_block);
  hg_ir_resumable_plan_free(&x.plan);
  return result;
}
