/* The stoppable and resume forms of kernels (lowering/opencl_c_stop.h,
 * docs/opencl-c-safe-points.md).
 *
 * The lowered OpenCL C keeps every IR value in a C variable (hg_r<n>), every block behind a
 * label (hg_L<b>) and every private slot in an array (hg_s<k>), so a work-item resumes by
 * loading its live variables and slots and jumping to its safe point. The jump must keep the
 * control flow reducible: PoCL's work-group compiler aborts on a jump into a loop that holds a
 * barrier, and every vendor optimises reducible loops better. So the resume form enters loops
 * only through their headers: the prologue jumps to the outermost loop header around the
 * target, and at the top of each header a dispatch on `hg_rs` (the target, 0 once reached)
 * jumps to the next inner header, down to the target. Only the resume form has these
 * dispatches; the stoppable form is the plain code plus the checks.
 *
 * Checks. Without barriers (ITEM mode) each work-item checks the stop word every `interval`
 * crossings of a loop header (a private counter) and, when asked, writes its record and
 * returns; before starting it checks once and, when asked, sets its not-started bit. In
 * counted loops the check is strip-mined: once per chunk of up to `interval` iterations, the
 * chunk itself a clean counted loop (a check inside it keeps vendors from unrolling it). With
 * barriers (GROUP mode) work-items of a group must stop together, so local id 0 reads the stop
 * word before each barrier into hg_vote[parity of the barriers crossed], and after the
 * barrier the whole group reads the same slot: stopping there is stopping "at the barrier"
 * (nobody ran anything after it yet). The two slots let local id 0 write the next vote while
 * slower work-items still read this one. A vote before the kernel starts (one barrier per
 * group) lets groups that have not started stop without running to their first barrier.
 *
 * A group stopped at a barrier outside loops does not return at once: it goes on through the
 * barriers that every path from there to the end would pass (hg_gone set, the code between
 * them skipped), and returns after the last. A return there would make those barriers
 * conditional, and PoCL 3.1's work-group compiler aborts on some such kernels ("Incoming edges
 * to non-entry block", CTS basic async_copy_local_to_global). Inside loops it is the other way
 * round (PoCL aborts on a skip between two barriers of one loop body, and takes the return),
 * so a group stopped there returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/opencl_c_internal.h"
#include "lowering/opencl_c_stop.h"
#include "lowering/opencl_c_stop_loops.h"
#include "lowering/slice_form.h"

#define TB 64

enum { SP_RESUMABLE = 1, SP_CHECK = 2 };

/* A counted loop whose check is strip-mined (ITEM mode): the header H's check runs once per
 * chunk of up to `interval` iterations, and inside a chunk the only test on the way back to H
 * is `iv_next PRED hg_e<H>`, a clean counted loop the vendor compiler can unroll and pipeline
 * (a check inside the loop cost NVIDIA 1.8x on nbody; docs/opencl-c-safe-points.md). */
enum { STRIP_SLT = 1, STRIP_ULT, STRIP_NE };
typedef struct strip_loop {
  uint32_t header, latch; /* blocks: H, and B with the only back edge into H */
  uint32_t iv;            /* a phi of H */
  uint32_t iv_next;       /* iv + step, H's incoming value from B */
  uint32_t bound;         /* loop invariant */
  uint32_t step_value;    /* the constant step (a value) */
  uint64_t step;          /* and its number, > 0 */
  uint8_t pred;           /* STRIP_*: the loop goes on while iv_next PRED bound */
  hg_ir_type type;        /* of iv */
} strip_loop;

typedef struct oc_stop_plan {
  bool pure_prefix;      /* nothing before the first barrier writes global memory or prints */
  strip_loop *strip;     /* ITEM mode: the loops whose checks are strip-mined */
  uint32_t num_strip;
  uint8_t *sp;           /* per safe point: SP_* */
  uint32_t **chain;      /* per safe point: loop header blocks around it, outermost first */
  uint32_t *chain_len;
  uint32_t *block_first; /* per block: its first safe point id (safe points are in block order) */
  uint32_t *skip;        /* GROUP mode, per barrier safe point: where a stopped group goes next */
  uint8_t *skip_target;  /* per safe point: some stopped group comes to this barrier */
} oc_stop_plan;

#define SKIP_END UINT32_MAX /* the stopped group returns */
#define MAX_SKIP_BARRIERS 128

typedef struct oc_stop_form {
  const hg_oc_stop_kernel *k;
  const oc_stop_plan *plan;
  bool resume;
  bool catchup; /* the catch-up form (a resume form without barriers, GROUP mode only) */
  bool exact_chunks; /* hg_oc_forms_target */
} oc_stop_form;

/* ---- counted loops: which loop-header checks are strip-mined ---------------------------- */

/* The instruction that defines value v and its block; NULL for values that are not results. */
static const hg_ir_inst *def_of(const hg_ir_function *f, uint32_t v, uint32_t *block) {
  if (v >= f->num_values || f->values[v].kind != HG_VAL_INST) return NULL;
  uint32_t id = f->values[v].index;
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++)
      if (f->blocks[b].insts[i].id == id) {
        *block = b;
        return &f->blocks[b].insts[i];
      }
  return NULL;
}

static bool int_scalar(hg_ir_type t) {
  return t.lanes <= 1 && (t.scalar == HG_IR_I8 || t.scalar == HG_IR_I16 || t.scalar == HG_IR_I32 || t.scalar == HG_IR_I64);
}

/* The same value of loop h at every iteration: a parameter, a constant, or a result defined
 * outside the loop (it then dominates the header: its variable is set before the loop). */
static bool invariant(const oc_ctx *c, const oc_loops *l, uint32_t h, uint32_t v) {
  const hg_ir_function *f = c->f;
  if (v >= f->num_values) return false;
  if (f->values[v].kind == HG_VAL_PARAM || f->values[v].kind == HG_VAL_CONST) return true;
  uint32_t b;
  return def_of(f, v, &b) && !l->body[h][b] && !(c->contr.absorbed && c->contr.absorbed[v]);
}

/* a P b == b cmp_swap(P) a; !(a P b) == a cmp_not(P) b */
static unsigned cmp_swap(unsigned p) {
  switch (p) {
  case HG_CMP_ULT: return HG_CMP_UGT; case HG_CMP_UGT: return HG_CMP_ULT;
  case HG_CMP_ULE: return HG_CMP_UGE; case HG_CMP_UGE: return HG_CMP_ULE;
  case HG_CMP_SLT: return HG_CMP_SGT; case HG_CMP_SGT: return HG_CMP_SLT;
  case HG_CMP_SLE: return HG_CMP_SGE; case HG_CMP_SGE: return HG_CMP_SLE;
  default: return p; /* EQ, NE */
  }
}
static unsigned cmp_not(unsigned p) {
  switch (p) {
  case HG_CMP_EQ: return HG_CMP_NE; case HG_CMP_NE: return HG_CMP_EQ;
  case HG_CMP_ULT: return HG_CMP_UGE; case HG_CMP_UGE: return HG_CMP_ULT;
  case HG_CMP_UGT: return HG_CMP_ULE; case HG_CMP_ULE: return HG_CMP_UGT;
  case HG_CMP_SLT: return HG_CMP_SGE; case HG_CMP_SGE: return HG_CMP_SLT;
  case HG_CMP_SGT: return HG_CMP_SLE; case HG_CMP_SLE: return HG_CMP_SGT;
  default: return p;
  }
}

/* Whether nx is iv + step (either order) with iv a phi of h taking nx from the latch and step
 * a constant > 0 in the IV's width (as a signed number: the loop counts up). */
static bool iv_step(const oc_ctx *c, uint32_t h, uint32_t latch, uint32_t nx, strip_loop *out) {
  const hg_ir_function *f = c->f;
  uint32_t b;
  const hg_ir_inst *add = def_of(f, nx, &b);
  if (!add || add->op != HG_OP_ADD || add->num_operands != 2 || !int_scalar(add->type)) return false;
  for (int o = 0; o < 2; o++) {
    uint32_t iv = add->operands[o], st = add->operands[1 - o];
    const hg_ir_inst *phi = def_of(f, iv, &b);
    if (!phi || phi->op != HG_OP_PHI || b != h || st >= f->num_values || f->values[st].kind != HG_VAL_CONST ||
        f->values[st].index >= f->num_const_words)
      continue;
    bool from_latch = false;
    for (uint32_t k = 0; k < phi->num_operands && k < phi->num_imm; k++)
      if (phi->imm[k] == latch) from_latch = phi->operands[k] == nx;
    unsigned bits = 8u * hg_ir_scalar_bytes((hg_ir_scalar)add->type.scalar);
    uint64_t w = f->const_words[f->values[st].index];
    if (bits < 64) w &= (UINT64_C(1) << bits) - 1u;
    if (!from_latch || !w || (w >> (bits - 1))) continue;
    out->iv = iv;
    out->iv_next = nx;
    out->step_value = st;
    out->step = w;
    out->type = add->type;
    return true;
  }
  return false;
}

/* Whether loop h is counted (the rule of docs/opencl-c-safe-points.md): one back edge, from a
 * latch ending in `condbr (icmp iv_next, bound)` with one target h and the other outside the
 * loop, iv_next = iv + step, staying in the loop while iv_next < bound (signed or unsigned) or,
 * with step 1, while iv_next != bound. Then the chunk end computed at the header bounds how
 * far iv goes, and `iv_next PRED chunk end` implies the loop's own condition. */
static bool counted_loop(const oc_ctx *c, const oc_loops *l, uint32_t h, strip_loop *out) {
  const hg_ir_function *f = c->f;
  if (!l->body[h]) return false;
  uint32_t latch = UINT32_MAX, back = 0;
  for (uint32_t k = 0; k < l->num_preds[h]; k++)
    if (l->body[h][l->preds[h][k]]) {
      latch = l->preds[h][k];
      back++;
    }
  if (back != 1) return false;
  const hg_ir_block *lb = &f->blocks[latch];
  const hg_ir_inst *t = &lb->insts[lb->num_insts - 1];
  if (t->op != HG_OP_CONDBR || t->num_imm != 2 || t->num_operands != 1) return false;
  bool stay_if_true = t->imm[0] == h;
  uint32_t exit = stay_if_true ? t->imm[1] : t->imm[0];
  if ((stay_if_true ? t->imm[0] : t->imm[1]) != h || exit == h || exit >= f->num_blocks || l->body[h][exit]) return false;
  uint32_t b;
  const hg_ir_inst *cmp = def_of(f, t->operands[0], &b);
  if (!cmp || b != latch || cmp->op != HG_OP_ICMP || cmp->num_operands != 2) return false;
  for (int side = 0; side < 2; side++) {
    uint32_t bound = cmp->operands[1 - side];
    if (!iv_step(c, h, latch, cmp->operands[side], out) || !invariant(c, l, h, bound) ||
        f->values[bound].type.scalar != out->type.scalar || !int_scalar(f->values[bound].type))
      continue;
    unsigned p = side ? cmp_swap(cmp->flags) : cmp->flags; /* iv_next p bound */
    if (!stay_if_true) p = cmp_not(p);                      /* stays in the loop while iv_next p bound */
    out->pred = p == HG_CMP_SLT ? STRIP_SLT : p == HG_CMP_ULT ? STRIP_ULT : p == HG_CMP_NE && out->step == 1 ? STRIP_NE : 0;
    if (!out->pred) continue;
    out->header = h;
    out->latch = latch;
    out->bound = bound;
    return true;
  }
  return false;
}

/* The strip-mined loops of a kernel in ITEM mode: loop headers with a check, nothing but phis
 * before their safe point (the chunk's back edge re-enters right after it), counted. */
static bool plan_strips(const oc_ctx *c, const oc_loops *l, oc_stop_plan *p) {
  const hg_ir_function *f = c->f;
  for (uint32_t s = 0; s < f->num_safepoints; s++) {
    const hg_ir_safepoint *sp = &f->safepoints[s];
    if (sp->kind != HG_SAFEPOINT_LOOP_HEADER || !(p->sp[s] & SP_CHECK)) continue;
    const hg_ir_block *hb = &f->blocks[sp->block];
    bool phis_only = sp->inst < hb->num_insts;
    for (uint32_t i = 0; i < sp->inst && phis_only; i++) phis_only = hb->insts[i].op == HG_OP_PHI;
    strip_loop L = {0};
    if (!phis_only || !counted_loop(c, l, sp->block, &L)) continue;
    strip_loop *grown = realloc(p->strip, (p->num_strip + 1) * sizeof *grown);
    if (!grown) return false;
    p->strip = grown;
    p->strip[p->num_strip++] = L;
  }
  return true;
}

/* ---- where a stopped group goes (GROUP mode) --------------------------------------------- */

/* Walks from the barrier at `from` (its block's later instructions excluded: the caller looks
 * at them) towards the kernel's end, not past the blocks marked in `stop`; seen[b] tells which
 * blocks were reached (marked ones included). Returns whether the end was reached. */
static bool walk_to_end(const hg_ir_function *f, const hg_ir_safepoint *from, const uint8_t *stop, uint8_t *seen,
                        uint32_t *stack) {
  memset(seen, 0, f->num_blocks);
  uint32_t sp = 0, b = from->block;
  bool end = false;
  for (bool first = true; first || sp; first = false) {
    if (!first) {
      b = stack[--sp];
      if (stop[b]) continue;
    }
    const uint32_t *succ;
    uint32_t ns = oc_successors(f, b, &succ);
    if (!ns) end = true;
    for (uint32_t k = 0; k < ns; k++)
      if (succ[k] < f->num_blocks && !seen[succ[k]]) {
        seen[succ[k]] = 1;
        stack[sp++] = succ[k];
      }
  }
  return end;
}

/* The first barrier safe point in block b, after instruction `after` (UINT32_MAX: from the
 * block's start), among those marked in `cand`; SKIP_END if none. */
static uint32_t first_in_block(const hg_ir_function *f, const oc_stop_plan *p, const uint8_t *cand, uint32_t b,
                               uint32_t after) {
  uint32_t best = SKIP_END;
  for (uint32_t t = p->block_first[b]; t < f->num_safepoints && f->safepoints[t].block == b; t++) {
    const hg_ir_safepoint *sp = &f->safepoints[t];
    if (!cand[t] || (after != UINT32_MAX && sp->inst <= after)) continue;
    if (best == SKIP_END || sp->inst < f->safepoints[best].inst) best = t;
  }
  return best;
}

/* skip[s] for each barrier s outside loops: the nearest barrier t that every path from s to the
 * end passes, itself outside loops (a jump into a loop from outside would make it
 * irreducible); SKIP_END when there is none, for barriers in loops (see the top of the file),
 * or with more barriers than this quadratic search is for. */
static bool plan_skips(const oc_ctx *c, const oc_loops *l, oc_stop_plan *p) {
  const hg_ir_function *f = c->f;
  uint32_t nsp = f->num_safepoints, nb = f->num_blocks, barriers = 0;
  p->skip = malloc(nsp * sizeof *p->skip);
  p->skip_target = calloc(nsp, 1);
  uint8_t *cand = calloc(nsp, 1), *mark = calloc(nb, 1), *seen = malloc(nb);
  uint32_t *stack = malloc(nb * sizeof *stack);
  bool ok = p->skip && p->skip_target && cand && mark && seen && stack;
  for (uint32_t s = 0; ok && s < nsp; s++) {
    p->skip[s] = SKIP_END;
    barriers += f->safepoints[s].kind == HG_SAFEPOINT_BARRIER && f->safepoints[s].block < nb;
  }
  for (uint32_t s = 0; ok && barriers <= MAX_SKIP_BARRIERS && s < nsp; s++) {
    const hg_ir_safepoint *from = &f->safepoints[s];
    if (from->kind != HG_SAFEPOINT_BARRIER || from->block >= nb) continue;
    if (oc_in_loop(l, from->block)) continue;
    memset(cand, 0, nsp);
    for (uint32_t t = 0; t < nsp; t++) {
      const hg_ir_safepoint *to = &f->safepoints[t];
      if (t == s || to->kind != HG_SAFEPOINT_BARRIER || to->block >= nb) continue;
      if (oc_in_loop(l, to->block)) continue;
      if (to->block == from->block && to->inst > from->inst) {
        cand[t] = 1;
        continue;
      }
      mark[to->block] = 1;
      cand[t] = !walk_to_end(f, from, mark, seen, stack) && seen[to->block];
      mark[to->block] = 0;
    }
    /* the nearest: met first on every way on */
    uint32_t next = first_in_block(f, p, cand, from->block, from->inst);
    if (next == SKIP_END) {
      for (uint32_t t = 0; t < nsp; t++)
        if (cand[t]) mark[f->safepoints[t].block] = 1;
      walk_to_end(f, from, mark, seen, stack);
      uint32_t met = 0, at = 0;
      for (uint32_t b = 0; b < nb; b++) {
        if (mark[b] && seen[b]) {
          met++;
          at = b;
        }
        mark[b] = 0;
      }
      if (met == 1) next = first_in_block(f, p, cand, at, UINT32_MAX);
    }
    p->skip[s] = next;
    if (next != SKIP_END) p->skip_target[next] = 1;
  }
  free(cand);
  free(mark);
  free(seen);
  free(stack);
  return ok;
}

/* A stopped group's way on from barrier s. */
static void skip_on(oc_ctx *c, oc_buf *b, uint32_t s) {
  uint32_t t = c->stop->plan->skip[s];
  if (t == SKIP_END) oc_puts(b, "return;");
  else oc_printf(b, "{ hg_gone = 1u; goto hg_G%u; }", t);
}

static char *prefixed(const char *prefix, const char *name) {
  size_t a = strlen(prefix), b = strlen(name);
  char *s = malloc(a + b + 1);
  if (s) {
    memcpy(s, prefix, a);
    memcpy(s + a, name, b + 1);
  }
  return s;
}

/* ---- code pieces ------------------------------------------------------------------------ */

void oc_stop_emit_helpers(oc_buf *out) {
  oc_puts(out,
          "/* safe points: has this launch been asked to stop? (count: this check counts down the\n"
          " * test countdown, and the check that ends it asks every other work-item too) */\n"
          "static inline uint hg_stop_now(volatile __global uint *ctl, uint slot, uint seq, uint flags, uint count) {\n"
          "  volatile __global uint *w = ctl + slot * 16u;\n"
          "  if (w[0] == seq) return 1u;\n"
          "  if (count && (flags & 1u) && (int)atomic_dec(&w[2]) <= 1) { w[0] = seq; return 1u; }\n"
          "  return 0u;\n"
          "}\n\n");
}

void oc_stop_name(oc_ctx *c, oc_buf *out) {
  const oc_stop_form *fm = c->stop;
  oc_puts(out, fm->catchup ? fm->k->catchup_name : fm->resume ? fm->k->resume_name : fm->k->stop_name);
}

bool oc_stop_params(oc_ctx *c, oc_buf *out, bool first) {
  const hg_oc_stop_kernel *k = c->stop->k;
  oc_printf(out,
            "%s__global volatile uint *hg_ctl, uint hg_slot, uint hg_seq, uint hg_k, uint hg_flags, "
            "__global uchar *hg_out, uint hg_cap, __global volatile uint *hg_ns, uint hg_lb",
            first ? "" : ", ");
  for (uint32_t i = 0; i < k->num_local_params; i++) oc_printf(out, ", uint hg_ls%u", i);
  if (c->stop->resume) oc_puts(out, ", __global const uint *hg_gmap, __global const uchar *hg_in");
  return false;
}

/* What a pointer is relative to, as an expression of its address space. */
static void base_expr_of(oc_ctx *c, oc_buf *b, uint8_t kind, uint32_t index) {
  switch (kind) {
  case HG_BASE_PARAM: oc_value(c, b, index); break;
  case HG_BASE_SLOT: oc_printf(b, "((__private uchar *)hg_s%u)", index); break;
  case HG_BASE_GLOBAL: {
    const hg_ir_global *g = &c->m->globals[index];
    const char *as = oc_aspace(g->addrspace);
    oc_printf(b, "((%s uchar *)%s", as ? as : "__global", g->addrspace == HG_AS_LOCAL ? "" : "&");
    oc_global_name(c, b, index);
    oc_puts(b, ")");
    break;
  }
  default: oc_fail(c, "a live pointer without a base"); break;
  }
}

static void base_expr(oc_ctx *c, oc_buf *b, const hg_ir_live_value *lv) {
  base_expr_of(c, b, lv->base_kind, lv->base_index);
}

/* Stores (save) or loads the live values of safe point s at `rec` + offset. */
static void move_values(oc_ctx *c, oc_buf *b, uint32_t s, const char *rec, bool save, const char *indent) {
  const hg_ir_sp_layout *sl = &c->stop->k->layout.sps[s];
  char tb[TB];
  for (uint32_t i = 0; i < sl->num_values; i++) {
    const hg_ir_live_value *lv = &sl->values[i];
    hg_ir_type t = c->f->values[lv->value].type;
    const char *cq = save ? "" : "const ";
    oc_puts(b, indent);
    if (t.scalar == HG_IR_PTR) {
      hg_ir_type u = {.scalar = HG_IR_I64, .lanes = 1};
      const char *ma = oc_ma_type(c, u, tb, sizeof tb);
      if (save) {
        oc_printf(b, "*(__global %s *)(%s + %u) = (ulong)(", ma, rec, lv->offset);
        oc_value(c, b, lv->value);
        oc_puts(b, " - ");
        base_expr(c, b, lv);
        oc_puts(b, ");\n");
      } else {
        oc_value(c, b, lv->value);
        oc_puts(b, " = ");
        base_expr(c, b, lv);
        oc_printf(b, " + (long)*(__global const %s *)(%s + %u);\n", ma, rec, lv->offset);
      }
    } else if (t.lanes <= 1) {
      const char *ma = oc_ma_type(c, t, tb, sizeof tb);
      if (save) {
        oc_printf(b, "*(__global %s *)(%s + %u) = ", ma, rec, lv->offset);
        oc_value(c, b, lv->value);
        oc_puts(b, ";\n");
      } else {
        oc_value(c, b, lv->value);
        oc_printf(b, " = *(__global %s%s *)(%s + %u);\n", cq, ma, rec, lv->offset);
      }
    } else {
      /* vloadn/vstoren need only the element's alignment (records align values to 8) */
      const char *el = oc_uname((hg_ir_scalar)t.scalar);
      if (save) {
        oc_printf(b, "vstore%u(", t.lanes);
        oc_value(c, b, lv->value);
        oc_printf(b, ", 0, (__global %s *)(%s + %u));\n", el, rec, lv->offset);
      } else {
        oc_value(c, b, lv->value);
        oc_printf(b, " = vload%u(0, (__global const %s *)(%s + %u));\n", t.lanes, el, rec, lv->offset);
      }
    }
  }
}

/* Copies the private slots to (save) or from the frame at `frame`. */
static void move_frame(oc_ctx *c, oc_buf *b, const char *frame, bool save, const char *indent) {
  const hg_ir_function *f = c->f;
  for (uint32_t s = 0; s < f->num_slots; s++) {
    if (!f->slots[s].size) continue;
    if (save)
      oc_printf(b, "%sfor (uint hg_j = 0u; hg_j < %uu; hg_j++) (%s)[%uu + hg_j] = hg_s%u[hg_j];\n", indent,
                f->slots[s].size, frame, f->slots[s].offset, s);
    else
      oc_printf(b, "%sfor (uint hg_j = 0u; hg_j < %uu; hg_j++) hg_s%u[hg_j] = (%s)[%uu + hg_j];\n", indent,
                f->slots[s].size, s, frame, f->slots[s].offset);
  }
  /* pointer slots hold addresses as (ulong)p (how stores to them are emitted): the record keeps
   * them relative to their base, as the neutral state does, so another backend can resume */
  const hg_ir_state_layout *l = &c->stop->k->layout;
  char tb[TB];
  const char *ma = oc_ma_type(c, (hg_ir_type){.scalar = HG_IR_I64, .lanes = 1}, tb, sizeof tb);
  for (uint32_t p = 0; p < l->num_frame_ptrs; p++) {
    const hg_ir_frame_ptr *fp = &l->frame_ptrs[p];
    uint32_t s = HG_IR_NONE;
    for (uint32_t k = 0; k < f->num_slots; k++)
      if (f->slots[k].offset == fp->offset && f->slots[k].size == 8) s = k;
    if (s == HG_IR_NONE) {
      oc_fail(c, "a pointer slot the frame does not have");
      return;
    }
    if (save)
      oc_printf(b, "%s*(__global %s *)((%s) + %uu) = *(__private %s *)hg_s%u - (ulong)", indent, ma, frame, fp->offset,
                ma, s);
    else
      oc_printf(b, "%s*(__private %s *)hg_s%u = *(__global const %s *)((%s) + %uu) + (ulong)", indent, ma, s, ma,
                frame, fp->offset);
    base_expr_of(c, b, fp->base_kind, fp->base_index);
    oc_puts(b, ";\n");
  }
}

/* Copies the group's local memory to (save) or from `area`, every work-item a share. */
static void move_local(oc_ctx *c, oc_buf *b, const char *area, bool save, const char *indent) {
  const hg_ir_function *f = c->f;
  const hg_oc_stop_kernel *k = c->stop->k;
  for (uint32_t i = 0; i < f->num_local_vars; i++) {
    uint32_t g = f->local_vars[i].global;
    if (g >= c->m->num_globals || !c->m->globals[g].size) continue;
    oc_printf(b, "%sfor (uint hg_j = hg_lid; hg_j < %uu; hg_j += hg_wgn) ", indent, c->m->globals[g].size);
    if (save) {
      oc_printf(b, "(%s)[%uu + hg_j] = ", area, f->local_vars[i].offset);
      oc_global_name(c, b, g);
      oc_puts(b, "[hg_j];\n");
    } else {
      oc_global_name(c, b, g);
      oc_printf(b, "[hg_j] = (%s)[%uu + hg_j];\n", area, f->local_vars[i].offset);
    }
  }
  if (!k->num_local_params) return;
  oc_printf(b, "%s{\n%s  uint hg_lo = %uu;\n", indent, indent, k->local_static_size);
  for (uint32_t i = 0; i < k->num_local_params; i++) {
    uint32_t a = k->local_param_align[i];
    oc_printf(b, "%s  hg_lo = (hg_lo + %uu) & ~%uu;\n", indent, a - 1, a - 1);
    oc_printf(b, "%s  for (uint hg_j = hg_lid; hg_j < hg_ls%u; hg_j += hg_wgn) ", indent, i);
    if (save) {
      oc_printf(b, "(%s)[hg_lo + hg_j] = ((__local uchar *)", area);
      oc_param_name(c, b, k->local_params[i]);
      oc_puts(b, ")[hg_j];\n");
    } else {
      oc_puts(b, "((__local uchar *)");
      oc_param_name(c, b, k->local_params[i]);
      oc_printf(b, ")[hg_j] = (%s)[hg_lo + hg_j];\n", area);
    }
    oc_printf(b, "%s  hg_lo += hg_ls%u;\n", indent, i);
  }
  oc_printf(b, "%s}\n", indent);
}

/* The work-item's record at `rec`: header, values, frame. */
static void save_item(oc_ctx *c, oc_buf *b, uint32_t s, const char *rec, const char *indent) {
  const hg_oc_stop_kernel *k = c->stop->k;
  oc_printf(b, "%s*(__global ulong *)%s = hg_grp;\n", indent, rec);
  oc_printf(b, "%s*(__global uint *)(%s + 8) = hg_lid;\n", indent, rec);
  oc_printf(b, "%s*(__global uint *)(%s + 12) = %uu;\n", indent, rec, s);
  char at[64];
  snprintf(at, sizeof at, "%s + 16", rec);
  move_values(c, b, s, at, true, indent);
  snprintf(at, sizeof at, "%s + %u", rec, 16u + k->layout.value_stride);
  move_frame(c, b, at, true, indent);
}

/* Where a resume toward safe point s goes from `at` (a loop header block on its chain, or
 * UINT32_MAX for the prologue). */
static void next_hop(oc_ctx *c, oc_buf *b, uint32_t s, uint32_t at) {
  const oc_stop_plan *p = c->stop->plan;
  uint32_t i = 0;
  while (at != UINT32_MAX && i < p->chain_len[s] && p->chain[s][i] != at) i++;
  uint32_t nxt = at == UINT32_MAX ? 0 : i + 1;
  if (nxt < p->chain_len[s]) oc_printf(b, "goto hg_L%u;", p->chain[s][nxt]);
  else if (c->f->safepoints[s].kind == HG_SAFEPOINT_LOOP_HEADER) oc_puts(b, "hg_rs = 0u; break;");
  else oc_printf(b, "goto hg_P%u;", s);
}

void oc_stop_prologue(oc_ctx *c, oc_buf *b) {
  const oc_stop_form *fm = c->stop;
  const hg_oc_stop_kernel *k = fm->k;
  const hg_ir_function *f = c->f;
  uint32_t R = k->record_size;
  oc_puts(b, "  uint hg_lid = (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));\n");
  oc_puts(b, "  uint hg_wgn = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));\n");
  oc_puts(b, "  ulong hg_grp = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * (ulong)get_group_id(2));\n");
  oc_puts(b, "  uint hg_lbr = (hg_lb + 15u) & ~15u;\n");
  oc_printf(b, "  ulong hg_gsz = 16ul + hg_lbr + (ulong)hg_wgn * %uu;\n", R);
  oc_puts(b, "  uint hg_cnt = 0u, hg_nb = 0u, hg_rs = 0u, hg_fresh = 1u, hg_v = 0u;\n");
  for (uint32_t i = 0; !fm->catchup && k->mode == HG_OC_STOP_ITEM && i < fm->plan->num_strip; i++)
    oc_printf(b, "  %s hg_e%u = 0; /* the chunk's end (strip-mined loop) */\n",
              oc_uname((hg_ir_scalar)fm->plan->strip[i].type.scalar), fm->plan->strip[i].header);
  if (k->mode == HG_OC_STOP_GROUP) oc_puts(b, "  __local uint hg_vote[2];\n  uint hg_gone = 0u; (void)hg_gone;\n");
  oc_puts(b, "  (void)hg_lid; (void)hg_wgn; (void)hg_grp; (void)hg_gsz; (void)hg_cnt; (void)hg_nb; (void)hg_rs; "
             "(void)hg_fresh; (void)hg_v;\n");
  /* with barriers the first crossing votes, then every interval-th */
  if (k->mode == HG_OC_STOP_GROUP)
    oc_puts(b, "  hg_cnt = hg_k - 1u;\n"
               "  uint hg_pre = hg_lid == 0u ? hg_ctl[hg_slot * 16u] : 0u; /* read early: the first vote uses it */\n");
  if (fm->catchup) {
    /* only running groups take part; a work-item that has finished still meets the others at
     * the final barrier (hg_CE) */
    oc_puts(b, "  uint hg_csp = 0xffffffffu, hg_gst = hg_gmap[hg_grp];\n  if (hg_gst < 2u) return;\n  {\n    {\n");
  } else if (fm->resume) {
    oc_puts(b, "  {\n    uint hg_gst = hg_gmap[hg_grp];\n    if (hg_gst == 1u) return;\n    if (hg_gst >= 2u) {\n");
  }
  if (fm->resume) {
    oc_puts(b, "      __global const uchar *hg_gr = hg_in + (ulong)(hg_gst - 2u) * hg_gsz;\n");
    if (k->layout.uses_local) {
      /* every work-item of the group is here (the group's status is uniform): a barrier is fine */
      move_local(c, b, "hg_gr + 16", false, "      ");
      oc_puts(b, "      barrier(CLK_LOCAL_MEM_FENCE);\n");
    }
    oc_printf(b, "      __global const uchar *hg_w = hg_gr + 16u + hg_lbr + (ulong)hg_lid * %uu;\n", R);
    oc_puts(b, "      hg_fresh = 0u; /* the group has run: starting again is no longer the same */\n");
    oc_puts(b, "      uint hg_sp = *(__global const uint *)(hg_w + 12);\n");
    oc_printf(b, "      if (hg_sp == 0xffffffffu) %s;\n      if (hg_sp == 0u) goto hg_E;\n",
              fm->catchup ? "goto hg_CE" : "return");
    char at[64];
    snprintf(at, sizeof at, "hg_w + %u", 16u + k->layout.value_stride);
    move_frame(c, b, at, false, "      ");
    oc_puts(b, "      switch (hg_sp) {\n");
    for (uint32_t s = 1; s < f->num_safepoints; s++) {
      if (!(fm->plan->sp[s] & SP_RESUMABLE)) continue;
      oc_printf(b, "      case %uu:\n", s);
      move_values(c, b, s, "hg_w + 16", false, "        ");
      oc_printf(b, "        hg_rs = %uu;\n        ", s);
      const oc_stop_plan *p = fm->plan;
      if (p->chain_len[s]) oc_printf(b, "goto hg_L%u;\n", p->chain[s][0]);
      else oc_printf(b, "goto hg_P%u;\n", s);
    }
    oc_printf(b, "      default: %s;\n      }\n    }\n  }\n", fm->catchup ? "hg_csp = 0xfffffffeu; goto hg_CE" : "return");
  }
  if (fm->catchup) {
    /* no checks: a catch-up runs at most to the end of one barrier region */
  } else if (k->mode == HG_OC_STOP_ITEM) {
    oc_puts(b, "  if (hg_stop_now(hg_ctl, hg_slot, hg_seq, hg_flags, 0u)) {\n"
               "    ulong hg_x = hg_grp * hg_wgn + hg_lid;\n"
               "    atomic_or(&hg_ns[hg_x >> 5], 1u << (uint)(hg_x & 31u));\n"
               "    return;\n  }\n");
  }
  if (fm->resume) oc_puts(b, "hg_E: ;\n");
}

/* ---- strip-mined checks (counted loops, ITEM mode) -------------------------------------- */

static const strip_loop *strip_at(const oc_ctx *c, uint32_t header) {
  const oc_stop_form *fm = c->stop;
  if (fm->catchup || fm->k->mode != HG_OC_STOP_ITEM) return NULL;
  for (uint32_t i = 0; i < fm->plan->num_strip; i++)
    if (fm->plan->strip[i].header == header) return &fm->plan->strip[i];
  return NULL;
}

/* v, cast to the signed type of its width when the comparison is signed. */
static void cmp_operand(oc_ctx *c, oc_buf *b, const strip_loop *L, uint32_t v) {
  if (L->pred == STRIP_SLT) oc_printf(b, "(%s)", oc_sname((hg_ir_scalar)L->type.scalar));
  oc_value(c, b, v);
}

/* hg_e<H> = the end of the chunk that starts at this iteration: at most `interval` iterations
 * (hg_k >= 1), computed in the IV's own width. hg_q is the number of iterations after this
 * one: for < it is (bound - iv - 1) / step when bound > iv (none otherwise: the loop ends after
 * this one); for != (step 1) bound - iv - 1, wrapping as the loop itself wraps. hg_q >= hg_k
 * guards iv + hg_k * step, which then stays below bound.
 * For a target with exact chunks the stoppable form's chunk ends exactly where its last
 * iteration's iv_next lands, and the chunk's test is `iv_next != hg_e<H>` (exact_chunk_end): a
 * loop whose trip count is a plain difference, which LLVM unrolls at run time. The `<` test's
 * trip count needs a umax that LLVM does not expand for the spir64 target, so on PoCL (SPIR
 * bitcode) that loop stayed scalar while the plain kernel's was unrolled (bench-round's loop
 * 61x). NVIDIA's compiler is the other way round (hg_oc_forms_target). Otherwise, and where a
 * resume form may enter a chunk without its end (exact_chunk_end), the end is never past the
 * bound and the test is `iv_next < hg_e<H>`.
 * hg_cnt: the check counted this crossing of the header, the chunk's others are added here, so
 * a check still comes about every `interval` crossings, also for short loops entered often. */
static bool live_at(const hg_ir_safepoint *sp, uint32_t v) {
  for (uint32_t i = 0; i < sp->num_live; i++)
    if (sp->live[i] == v) return true;
  return false;
}

/* Whether loop L's chunks end exactly (above): a loop tested with != always, others where the
 * target wants it. In a resume form, a work-item resumed at a safe point deeper in the loop
 * enters the chunk without computing its end (dispatch()); with iv or iv_next live there it can
 * be set, and a loop with such a safe point where neither is (then no latch is reachable from
 * it, as the latch compares iv_next) keeps `<` to be safe. */
static bool exact_chunk_end(const oc_ctx *c, const strip_loop *L) {
  if (L->pred == STRIP_NE) return true;
  if (!c->stop->exact_chunks) return false;
  if (!c->stop->resume) return true;
  const oc_stop_plan *p = c->stop->plan;
  for (uint32_t s = 1; s < c->f->num_safepoints; s++) {
    const hg_ir_safepoint *sp = &c->f->safepoints[s];
    if (!(p->sp[s] & SP_RESUMABLE) || (sp->kind == HG_SAFEPOINT_LOOP_HEADER && sp->block == L->header)) continue;
    bool inside = false;
    for (uint32_t i = 0; i < p->chain_len[s]; i++) inside |= p->chain[s][i] == L->header;
    if (inside && !live_at(sp, L->iv) && !live_at(sp, L->iv_next)) return false;
  }
  return true;
}

/* iv + <count> * step in the IV's type (count: a C expression of that type). */
static void iv_plus_steps(oc_ctx *c, oc_buf *b, const strip_loop *L, const char *count) {
  const char *u = oc_uname((hg_ir_scalar)L->type.scalar);
  oc_printf(b, "(%s)(", u);
  oc_value(c, b, L->iv);
  oc_printf(b, " + (%s)%s", u, count);
  if (L->step != 1) {
    oc_puts(b, " * ");
    oc_value(c, b, L->step_value);
  }
  oc_puts(b, ")");
}

static void chunk_end(oc_ctx *c, oc_buf *b, const strip_loop *L, const char *in) {
  const char *u = oc_uname((hg_ir_scalar)L->type.scalar);
  bool exact = exact_chunk_end(c, L);
  uint32_t h = L->header;
  if (L->pred == STRIP_NE) {
    oc_printf(b, "%s{\n", in);
  } else {
    oc_printf(b, "%sif (", in);
    cmp_operand(c, b, L, L->bound);
    oc_puts(b, " <= ");
    cmp_operand(c, b, L, L->iv);
    oc_printf(b, ") hg_e%u = ", h);
    if (exact)
      iv_plus_steps(c, b, L, "1u");
    else
      oc_value(c, b, L->bound);
    oc_printf(b, ";\n%selse {\n", in);
  }
  oc_printf(b, "%s  %s hg_q = (%s)(", in, u, u);
  oc_value(c, b, L->bound);
  oc_puts(b, " - ");
  oc_value(c, b, L->iv);
  oc_puts(b, " - 1u)");
  if (L->step != 1) {
    oc_puts(b, " / ");
    oc_value(c, b, L->step_value);
  }
  oc_printf(b, ";\n%s  if (hg_q >= hg_k) { hg_e%u = ", in, h);
  iv_plus_steps(c, b, L, "hg_k");
  oc_printf(b, "; hg_cnt += hg_k - 1u; }\n%s  else { hg_e%u = ", in, h);
  if (exact && L->step != 1)
    iv_plus_steps(c, b, L, "(hg_q + 1u)"); /* may wrap, as iv_next itself then does */
  else
    oc_value(c, b, L->bound);
  oc_printf(b, "; hg_cnt += (uint)hg_q; }\n%s}\n", in);
}

/* The latch's way back within a chunk: `iv_next PRED hg_e<H>` implies the loop's own
 * condition, so it takes the back edge (the same phi copies) to hg_I<H>, past the check and the
 * chunk end; otherwise the latch's own branch runs, and its back edge to hg_L<H> starts the
 * next chunk. The copies come from the emitter's own edge code (a `br H` emitted aside, its
 * jump retargeted), so they follow its parallel-copy conventions exactly. */
static void chunk_back_edge(oc_ctx *c, const strip_loop *L) {
  oc_buf *body = c->body, aside = {0};
  oc_puts(body, "  if (");
  if (exact_chunk_end(c, L)) { /* both in the IV's (unsigned) type: a signed cast of one would widen differently */
    oc_value(c, body, L->iv_next);
    oc_puts(body, " != ");
  } else {
    cmp_operand(c, body, L, L->iv_next);
    oc_puts(body, " < ");
    if (L->pred == STRIP_SLT) oc_printf(body, "(%s)", oc_sname((hg_ir_scalar)L->type.scalar));
  }
  oc_printf(body, "hg_e%u) {\n", L->header);
  uint32_t target = L->header;
  hg_ir_inst br = {.op = HG_OP_BR, .id = HG_IR_NONE, .num_imm = 1, .imm = &target};
  c->body = &aside;
  oc_emit_terminator(c, L->latch, &br);
  c->body = body;
  if (aside.oom) body->oom = true;
  char jump[48];
  int jl = snprintf(jump, sizeof jump, "goto hg_L%u;\n", L->header);
  size_t keep = aside.len;
  bool retarget = aside.p && aside.len >= (size_t)jl && !strcmp(aside.p + aside.len - jl, jump);
  if (retarget) keep -= (size_t)jl;
  for (size_t i = 0; i < keep;) { /* one level deeper */
    size_t j = i;
    while (j < keep && aside.p[j] != '\n') j++;
    oc_printf(body, "  %.*s%s", (int)(j - i), aside.p + i, j < keep ? "\n" : "");
    i = j + 1;
  }
  /* not retargeted (never expected): the jump to hg_L<H> is right too, it just checks again */
  if (retarget) oc_printf(body, "goto hg_I%u;\n", L->header);
  oc_puts(body, "  }\n");
  oc_buf_free(&aside);
}

/* The dispatch at the top of loop header block h (resume form). */
static void dispatch(oc_ctx *c, uint32_t h) {
  const oc_stop_plan *p = c->stop->plan;
  const strip_loop *L = strip_at(c, h);
  bool any = false;
  for (uint32_t s = 1; s < c->f->num_safepoints; s++) {
    if (!(p->sp[s] & SP_RESUMABLE)) continue;
    bool on = false;
    for (uint32_t i = 0; i < p->chain_len[s]; i++) on |= p->chain[s][i] == h;
    if (!on) continue;
    if (!any) oc_puts(c->body, "  if (hg_rs) {\n    switch (hg_rs) {\n");
    any = true;
    const hg_ir_safepoint *sp = &c->f->safepoints[s];
    if (L && !(sp->kind == HG_SAFEPOINT_LOOP_HEADER && sp->block == h)) {
      /* on to a safe point deeper in this strip-mined loop: this way in passes no hg_R<H>, yet
       * the latch compares with the chunk end. From the iteration's iv when the state has it
       * (the phi's variable holds it all through the iteration); else this iteration's
       * iv_next, so that the chunk ends at its latch (the next chunk starts at hg_L<H>); else
       * (`<` only, exact_chunk_end) the bound itself, for which the chunk's test is the loop's
       * own (the rest of this run of the loop goes without checks at its header) */
      oc_printf(c->body, "    case %uu:\n", s);
      if (live_at(sp, L->iv)) {
        chunk_end(c, c->body, L, "      ");
      } else {
        oc_printf(c->body, "      hg_e%u = ", h);
        oc_value(c, c->body, live_at(sp, L->iv_next) ? L->iv_next : L->bound);
        oc_puts(c->body, ";\n");
      }
      oc_puts(c->body, "      ");
    } else {
      oc_printf(c->body, "    case %uu: ", s);
    }
    next_hop(c, c->body, s, h);
    oc_puts(c->body, "\n");
  }
  if (any) oc_puts(c->body, "    default: break;\n    }\n  }\n");
}

/* In the loop: a count, and every interval-th crossing the check; the save is out of line
 * (after the last block) and never comes back into the loop, so the loop body stays close to
 * what the vendor compiler sees in the plain kernel. */
static void item_check(oc_ctx *c, uint32_t s) {
  oc_printf(c->body, "  if (++hg_cnt >= hg_k) { hg_cnt = 0u; if (hg_stop_now(hg_ctl, hg_slot, hg_seq, hg_flags, 1u)) goto hg_C%u; }\n", s);
}

static void item_check_cold(oc_ctx *c, oc_buf *b, uint32_t s) {
  oc_printf(b, "hg_C%u: {\n", s);
  oc_puts(b, "    uint hg_i = atomic_inc(&hg_ctl[hg_slot * 16u + 1u]);\n"
             "    if (hg_i < hg_cap) {\n");
  oc_printf(b, "      __global uchar *hg_w = hg_out + (ulong)hg_i * %uu;\n", c->stop->k->record_size);
  save_item(c, b, s, "hg_w", "      ");
  /* no room: the work-item cannot stop here and runs on (rare: records are 64 MiB) */
  oc_printf(b, "      return;\n    }\n    goto hg_R%u;\n  }\n", s);
}

/* A stopped group arrives at barrier s from an earlier one (hg_G<s>), and after it goes on. */
static void gone_label(oc_ctx *c, oc_buf *b, uint32_t s) {
  if (c->stop->plan->skip_target[s]) oc_printf(b, "hg_G%u: ;\n", s);
}

static void gone_check(oc_ctx *c, oc_buf *b, uint32_t s) {
  if (!c->stop->plan->skip_target[s]) return;
  oc_puts(b, "  if (hg_gone) ");
  skip_on(c, b, s);
  oc_puts(b, "\n");
}

static void group_vote(oc_ctx *c, uint32_t s, const hg_ir_inst *barrier) {
  oc_buf *b = c->body;
  uint32_t flags = barrier->num_imm ? barrier->imm[0] : 0;
  bool global = (flags & HG_FENCE_GLOBAL) || !(flags & (HG_FENCE_LOCAL | HG_FENCE_GLOBAL));
  /* hg_cnt counts barrier crossings, the same in every work-item of the group: the vote is
   * taken (and read) by all or none. Local id 0 decides everything before the barrier (its
   * vote is the group record's index + 1, or all ones for "as if not started", or 0), so the
   * stop path needs no barrier of its own (PoCL also rejects one there). The vote branch
   * changes nothing that outlives it: hg_cnt is reset before it and the vote parity hg_nb moves
   * after it, from hg_cnt (0 only after a vote; hg_v there would live across the barrier, which
   * PoCL keeps per work-item). Updated inside the branch, PoCL 5.0 aborts on the split form. */
  oc_puts(b, "  hg_v = ++hg_cnt >= hg_k;\n  hg_cnt = hg_v ? 0u : hg_cnt;\n"
             "  if (hg_v) {\n    if (hg_lid == 0u) {\n      uint hg_x = 0u;\n"
             "      if (hg_fresh && !(hg_flags & 1u) ? hg_pre == hg_seq : hg_stop_now(hg_ctl, hg_slot, hg_seq, hg_flags, 1u)) {\n");
  if (c->stop->plan->pure_prefix)
    /* nothing visible happened yet: stopping is as if the group had not started */
    oc_puts(b, "        if (hg_fresh) hg_x = 0xffffffffu;\n        else {\n");
  else
    oc_puts(b, "        {\n");
  oc_puts(b, "          uint hg_i = atomic_inc(&hg_ctl[hg_slot * 16u + 1u]);\n"
             "          hg_x = hg_i < hg_cap ? hg_i + 1u : 0u;\n        }\n      }\n"
             "      hg_vote[hg_nb & 1u] = hg_x;\n    }\n");
  /* the vote is in local memory: the barrier fences local memory too (a stronger barrier) */
  char bar[80];
  snprintf(bar, sizeof bar, "barrier(CLK_LOCAL_MEM_FENCE%s);", global ? " | CLK_GLOBAL_MEM_FENCE" : "");
  /* A barrier no stopped group skips to is emitted twice, on each side of the (uniform) vote
   * branch, so the crossings that do not vote carry no vote code around their barrier: the
   * stoppable form of bench-stop's reduce went from 1.71x its plain form to 0.96x on PoCL and
   * from 1.84x to 1.59x on the H100. A skip target keeps one barrier, where hg_G<s> lands. */
  bool split = !c->stop->plan->skip_target[s];
  if (split) {
    oc_printf(b, "    %s\n", bar);
  } else {
    oc_puts(b, "  }\n");
    gone_label(c, b, s);
    oc_printf(b, "  %s\n", bar);
    gone_check(c, b, s);
    oc_puts(b, "  if (hg_v) {\n");
  }
  oc_puts(b, "    uint hg_x = hg_vote[hg_nb & 1u];\n"
             "    if (hg_x == 0xffffffffu) {\n"
             "      if (hg_lid == 0u) atomic_or(&hg_ns[hg_grp >> 5], 1u << (uint)(hg_grp & 31u));\n      ");
  skip_on(c, b, s);
  oc_puts(b, "\n    }\n"
             "    if (hg_x) {\n"
             "      __global uchar *hg_o = hg_out + (ulong)(hg_x - 1u) * hg_gsz;\n");
  oc_printf(b, "      if (hg_lid == 0u) { *(__global ulong *)hg_o = hg_grp; *(__global uint *)(hg_o + 8) = %uu; "
               "*(__global uint *)(hg_o + 12) = 0u; }\n", s);
  if (c->stop->k->layout.uses_local) move_local(c, b, "hg_o + 16", true, "      ");
  oc_printf(b, "      __global uchar *hg_w = hg_o + 16u + hg_lbr + (ulong)hg_lid * %uu;\n", c->stop->k->record_size);
  save_item(c, b, s, "hg_w", "      ");
  oc_puts(b, "      ");
  skip_on(c, b, s);
  oc_puts(b, "\n    }\n  }\n");
  if (split) oc_printf(b, "  else {\n    %s\n  }\n", bar);
  oc_puts(b, "  hg_nb += hg_cnt == 0u;\n  hg_fresh = 0u;\n");
}

bool oc_stop_inst(oc_ctx *c, uint32_t block, uint32_t inst) {
  const oc_stop_form *fm = c->stop;
  const oc_stop_plan *p = fm->plan;
  const hg_ir_function *f = c->f;
  bool emitted = false;
  for (uint32_t s = p->block_first[block]; s < f->num_safepoints && f->safepoints[s].block == block; s++) {
    const hg_ir_safepoint *sp = &f->safepoints[s];
    if (sp->inst != inst || sp->kind == HG_SAFEPOINT_ENTRY) continue;
    if (sp->kind == HG_SAFEPOINT_LOOP_HEADER) {
      if (fm->resume) dispatch(c, block);
      if (fm->k->mode == HG_OC_STOP_ITEM && (p->sp[s] & SP_CHECK)) {
        /* strip-mined: every entry into the loop and every chunk's end come through hg_L<H> to
         * the check; a work-item resumed here (hg_R) computes its chunk end too */
        item_check(c, s);
        oc_printf(c->body, "hg_R%u: ;\n", s);
        const strip_loop *L = strip_at(c, block);
        if (L) {
          chunk_end(c, c->body, L, "  ");
          oc_printf(c->body, "hg_I%u: ;\n", block);
        }
      }
    } else if (sp->kind == HG_SAFEPOINT_BARRIER && !emitted) {
      if (fm->resume && (p->sp[s] & SP_RESUMABLE)) oc_printf(c->body, "hg_P%u: hg_rs = 0u;\n", s);
      if (fm->catchup) {
        /* arrived: keep the state "at this barrier" and wait for the others at the end */
        if (p->sp[s] & SP_RESUMABLE) {
          oc_printf(c->body, "  {\n    __global uchar *hg_w = hg_out + (ulong)(hg_gst - 2u) * hg_gsz + 16u + hg_lbr + "
                             "(ulong)hg_lid * %uu;\n", fm->k->record_size);
          move_values(c, c->body, s, "hg_w + 16", true, "    ");
          char at[64];
          snprintf(at, sizeof at, "hg_w + %u", 16u + fm->k->layout.value_stride);
          move_frame(c, c->body, at, true, "    ");
          oc_printf(c->body, "  }\n  hg_csp = %uu;\n  goto hg_CE;\n", s);
        } else {
          oc_puts(c->body, "  hg_csp = 0xfffffffeu;\n  goto hg_CE;\n"); /* cannot be kept: the host fails the resume */
        }
        emitted = true;
      } else if (fm->k->mode == HG_OC_STOP_GROUP && (p->sp[s] & SP_CHECK)) {
        group_vote(c, s, &f->blocks[block].insts[inst]);
        emitted = true;
      } else if (fm->k->mode == HG_OC_STOP_GROUP && p->skip_target[s]) {
        gone_label(c, c->body, s);
        oc_emit_inst(c, block, &f->blocks[block].insts[inst]);
        gone_check(c, c->body, s);
        emitted = true;
      }
    }
  }
  return emitted;
}

bool oc_stop_terminator(oc_ctx *c, const hg_ir_inst *in) {
  const oc_stop_plan *p = c->stop->plan;
  for (uint32_t i = 0; !c->stop->catchup && c->stop->k->mode == HG_OC_STOP_ITEM && i < p->num_strip; i++) {
    const hg_ir_block *lb = &c->f->blocks[p->strip[i].latch];
    if (in == &lb->insts[lb->num_insts - 1]) chunk_back_edge(c, &p->strip[i]); /* then the latch's own branch */
  }
  if (!c->stop->catchup || (in->op != HG_OP_RET && in->op != HG_OP_UNREACHABLE)) return false;
  oc_puts(c->body, "  hg_csp = 0xffffffffu;\n  goto hg_CE;\n");
  return true;
}

void oc_stop_epilogue(oc_ctx *c, oc_buf *b) {
  const oc_stop_form *fm = c->stop;
  if (fm->k->mode == HG_OC_STOP_ITEM && !fm->catchup)
    for (uint32_t s = 0; s < c->f->num_safepoints; s++)
      if ((fm->plan->sp[s] & SP_CHECK) && c->f->safepoints[s].kind == HG_SAFEPOINT_LOOP_HEADER) item_check_cold(c, b, s);
  if (!fm->catchup) return;
  /* every work-item of the group ends here, each at its barrier or finished: the group's
   * local memory is complete, and the group record can be written */
  oc_puts(b, "hg_CE: ;\n  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n  {\n"
             "    __global uchar *hg_o = hg_out + (ulong)(hg_gst - 2u) * hg_gsz;\n"
             "    if (hg_lid == 0u) { *(__global ulong *)hg_o = hg_grp; *(__global uint *)(hg_o + 8) = 0u; "
             "*(__global uint *)(hg_o + 12) = 0u; }\n");
  if (fm->k->layout.uses_local) move_local(c, b, "hg_o + 16", true, "    ");
  oc_printf(b, "    __global uchar *hg_w = hg_o + 16u + hg_lbr + (ulong)hg_lid * %uu;\n", fm->k->record_size);
  oc_puts(b, "    *(__global ulong *)hg_w = hg_grp;\n    *(__global uint *)(hg_w + 8) = hg_lid;\n"
             "    *(__global uint *)(hg_w + 12) = hg_csp;\n  }\n");
}

/* ---- planning and emitting the forms ---------------------------------------------------- */

/* Whether an instruction may leave a trace outside the group's local memory and the
 * work-item's private memory (stores and atomics elsewhere, builtins given a __global
 * pointer, calls). */
static bool visible_effect(const hg_ir_function *f, const hg_ir_inst *in) {
  switch (in->op) {
  case HG_OP_STORE: case HG_OP_MEMCPY: case HG_OP_MEMMOVE: case HG_OP_MEMSET: case HG_OP_ATOMIC_RMW: case HG_OP_CMPXCHG: {
    if (!in->num_operands || in->operands[0] >= f->num_values) return true;
    unsigned as = f->values[in->operands[0]].type.addrspace;
    return as != HG_AS_LOCAL && as != HG_AS_PRIVATE;
  }
  case HG_OP_CALL: return true;
  case HG_OP_CALL_BUILTIN:
    for (uint32_t k = 0; k < in->num_operands; k++) {
      if (in->operands[k] >= f->num_values) return true;
      hg_ir_type t = f->values[in->operands[k]].type;
      if (t.scalar == HG_IR_PTR && t.addrspace != HG_AS_LOCAL && t.addrspace != HG_AS_PRIVATE) return true;
    }
    return false;
  default: return false;
  }
}

/* True when no path from the entry to a barrier has a visible effect (visible_effect): a group
 * asked to stop at its first barrier may then count as not started (its local memory and
 * values are recomputed by starting again), which needs no record and no extra barrier. */
static bool pure_prefix(const oc_ctx *c, const hg_ir_function *f) {
  if (c->uses_printf[c->fidx]) return false;
  uint8_t *seen = calloc(f->num_blocks, 1);
  uint32_t *stack = malloc(f->num_blocks * sizeof *stack);
  bool pure = seen && stack;
  uint32_t sp = 0;
  if (pure) {
    stack[sp++] = 0;
    seen[0] = 1;
  }
  while (pure && sp) {
    uint32_t b = stack[--sp];
    const hg_ir_block *bl = &f->blocks[b];
    bool stopped = false;
    for (uint32_t i = 0; i < bl->num_insts && pure && !stopped; i++) {
      if (bl->insts[i].op == HG_OP_BARRIER) stopped = true;
      else pure = !visible_effect(f, &bl->insts[i]);
    }
    if (stopped || !pure) continue;
    const uint32_t *succ;
    uint32_t ns = oc_successors(f, b, &succ);
    for (uint32_t k = 0; k < ns; k++)
      if (succ[k] < f->num_blocks && !seen[succ[k]]) {
        seen[succ[k]] = 1;
        stack[sp++] = succ[k];
      }
  }
  free(seen);
  free(stack);
  return pure;
}

static void plan_free(oc_stop_plan *p, uint32_t nsp) {
  free(p->strip);
  for (uint32_t s = 0; p->chain && s < nsp; s++) free(p->chain[s]);
  free(p->chain);
  free(p->chain_len);
  free(p->sp);
  free(p->block_first);
  free(p->skip);
  free(p->skip_target);
}

static bool has_calls(const hg_ir_function *f) {
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++)
      if (f->blocks[b].insts[i].op == HG_OP_CALL) return true;
  return false;
}

void oc_stop_emit_forms(oc_ctx *c, oc_buf *out, uint32_t fidx, hg_oc_stop_table *table) {
  const hg_ir_module *m = c->m;
  const hg_ir_function *f = &m->functions[fidx];
  if (!f->name || strlen(f->name) > HG_FORMS_MAX_KERNEL_NAME || !f->num_safepoints || !f->num_blocks || has_calls(f)) return;
  /* image and sampler arguments pass through like the others: parameters are never state */
  uint32_t barriers = 0;
  for (uint32_t s = 0; s < f->num_safepoints; s++) barriers += f->safepoints[s].kind == HG_SAFEPOINT_BARRIER;
  if (table->target.max_barriers && barriers > table->target.max_barriers) return;
  hg_oc_stop_kernel k = {0};
  oc_stop_plan p = {0};
  oc_loops l = {0};
  bool have_loops = false, ok = hg_ir_state_layout_of(m, f, &k.layout);
  uint32_t nsp = f->num_safepoints;
  if (ok) {
    p.sp = calloc(nsp, 1);
    p.chain = calloc(nsp, sizeof *p.chain);
    p.chain_len = calloc(nsp, sizeof *p.chain_len);
    p.block_first = malloc(f->num_blocks * sizeof *p.block_first);
    k.resumable = calloc(nsp, 1);
    k.barrier = calloc(nsp, 1);
    k.local_params = calloc(f->num_params ? f->num_params : 1, sizeof *k.local_params);
    k.local_param_align = calloc(f->num_params ? f->num_params : 1, sizeof *k.local_param_align);
    ok = p.sp && p.chain && p.chain_len && p.block_first && k.resumable && k.barrier && k.local_params &&
         k.local_param_align;
  }
  if (ok) ok = have_loops = oc_loops_compute(f, &l);
  if (!ok) goto fail;
  for (uint32_t b = 0; b < f->num_blocks; b++) p.block_first[b] = nsp;
  for (uint32_t s = nsp; s-- > 0;)
    if (f->safepoints[s].block < f->num_blocks) p.block_first[f->safepoints[s].block] = s;
  /* blocks without safe points start the search at the next block's first (never matches) */
  for (uint32_t b = 0; b < f->num_blocks; b++)
    if (p.block_first[b] == nsp) p.block_first[b] = 0;
  bool any_check = false;
  for (uint32_t s = 0; s < nsp; s++) {
    const hg_ir_safepoint *sp = &f->safepoints[s];
    if (sp->kind == HG_SAFEPOINT_ENTRY) {
      p.sp[s] = SP_RESUMABLE;
      continue;
    }
    if (sp->block >= f->num_blocks || !k.layout.sps[s].stoppable) continue;
    bool fused = false; /* a multiply folded into its add has no variable to save */
    for (uint32_t i = 0; i < sp->num_live; i++)
      if (sp->live[i] < f->num_values && c->contr.absorbed && c->contr.absorbed[sp->live[i]]) fused = true;
    if (fused || !oc_loops_chain(&l, sp->block, &p.chain[s], &p.chain_len[s])) continue;
    if (sp->kind == HG_SAFEPOINT_LOOP_HEADER && (!p.chain_len[s] || p.chain[s][p.chain_len[s] - 1] != sp->block))
      continue;
    p.sp[s] = SP_RESUMABLE;
    bool checks_here = k.layout.has_barrier ? sp->kind == HG_SAFEPOINT_BARRIER : sp->kind == HG_SAFEPOINT_LOOP_HEADER;
    if (checks_here) {
      p.sp[s] |= SP_CHECK;
      any_check = true;
    }
  }
  for (uint32_t s = 0; s < nsp; s++) {
    k.resumable[s] = (p.sp[s] & SP_RESUMABLE) != 0;
    k.barrier[s] = f->safepoints[s].kind == HG_SAFEPOINT_BARRIER;
  }
  p.pure_prefix = k.layout.has_barrier && pure_prefix(c, f);
  if (k.layout.has_barrier) k.mode = any_check ? HG_OC_STOP_GROUP : HG_OC_STOP_NONE;
  else k.mode = any_check && !k.layout.uses_local ? HG_OC_STOP_ITEM : HG_OC_STOP_NONE;
  if (k.mode == HG_OC_STOP_ITEM && !plan_strips(c, &l, &p)) goto fail;
  if (k.mode == HG_OC_STOP_GROUP && !plan_skips(c, &l, &p)) goto fail;
  k.record_size = (HG_OC_RECORD_HEADER + k.layout.value_stride + k.layout.private_size + 15u) & ~15u;
  k.local_static_size = f->local_static_size;
  k.num_params = f->num_params;
  for (uint32_t i = 0; f->args && i < f->num_params; i++)
    if (f->args[i].kind == HG_KARG_LOCAL_PTR) {
      k.local_param_align[k.num_local_params] = hg_ir_local_arg_align(&f->args[i]);
      k.local_params[k.num_local_params++] = i;
    }
  k.printf = c->uses_printf[fidx];
  k.name = prefixed("", f->name);
  k.resume_name = prefixed("hg_resume_", f->name);
  k.stop_name = k.mode != HG_OC_STOP_NONE ? prefixed("hg_stop_", f->name) : NULL;
  k.catchup_name = k.layout.has_barrier ? prefixed("hg_catchup_", f->name) : NULL;
  bool sliced = !k.printf && hg_slice_form_possible(m, f);
  k.slice_name = sliced ? prefixed(HG_SLICE_FORM_PREFIX, f->name) : NULL;
  if (!k.name || !k.resume_name || (k.mode != HG_OC_STOP_NONE && !k.stop_name) ||
      (k.layout.has_barrier && !k.catchup_name) || (sliced && !k.slice_name))
    goto fail;
  hg_oc_stop_kernel *grown = realloc(table->kernels, (table->num_kernels + 1) * sizeof *grown);
  if (!grown) goto fail;
  table->kernels = grown;
  oc_stop_form form = {.k = &k, .plan = &p, .resume = false, .exact_chunks = table->target.exact_chunks};
  c->stop = &form;
  if (k.mode != HG_OC_STOP_NONE) oc_emit_function(c, out, fidx, true);
  form.resume = true;
  if (!c->failed) oc_emit_function(c, out, fidx, true);
  form.catchup = true;
  if (k.catchup_name && !c->failed) oc_emit_function(c, out, fidx, true);
  c->stop = NULL;
  if (k.slice_name && !table->target.slice_forms_elsewhere && !c->failed) oc_slice_emit(c, out, fidx, k.slice_name);
  table->kernels[table->num_kernels++] = k;
  plan_free(&p, nsp);
  oc_loops_free(&l);
  return;
fail:
  if (have_loops) oc_loops_free(&l);
  plan_free(&p, nsp);
  free(k.name);
  free(k.stop_name);
  free(k.resume_name);
  free(k.catchup_name);
  free(k.slice_name);
  free(k.resumable);
  free(k.barrier);
  free(k.local_params);
  free(k.local_param_align);
  hg_ir_state_layout_free(&k.layout);
  oc_fail(c, "out of memory");
}
