/* IR-level test of hg_ir_make_resumable (ir/resumable.c): the step function verifies, has no
 * barrier left, returns each barrier's safe-point id and HG_IR_STEP_DONE, dispatches on its
 * resume parameter, keeps every value live at a resume point (barriers, stoppable loop
 * headers) in a private slot, checks hg.stop_poll at stoppable loop headers of kernels without
 * barriers (returning their ids; with barriers they are resume points only), agrees with hg_ir_resumable_plan_of about slots, and survives the text and binary
 * round trips. Loop headers where a live pointer has no static base are no resume points; a
 * kernel with such a barrier never polls. (Its execution is tested through the riscv backend, which
 * runs nothing but step functions: conformance/riscv_backend/test_riscv_kernels.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/ndrange_state.h"

static int failed;
#define CHECK(c, ...)                                   \
  do {                                                  \
    if (!(c)) {                                         \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                     \
      fprintf(stderr, "\n");                            \
      failed++;                                         \
    }                                                   \
  } while (0)

static uint32_t cst(hg_ir_function *f, hg_ir_type t, uint64_t v) { return hg_ir_add_const(f, t, &v); }

static void set_arg(hg_ir_function *f, unsigned i, const char *name, const char *type, uint8_t kind, uint32_t size) {
  f->args[i].name = strdup(name);
  f->args[i].type_name = strdup(type);
  f->args[i].kind = kind;
  f->args[i].size = size;
  f->args[i].align = size;
}

/* kernel k(global int *p, int n):
 * bb0: br bb1
 * bb1: i = phi [0, bb0], [i1, bb2]; c = icmp slt i, n; condbr c, bb2, bb3
 * bb2: sq = mul i, i; barrier; i1 = add i, 1; t = add sq, i1; store p, t; barrier; br bb1
 * bb3: store p, i; ret */
static hg_ir_module *loop_kernel(bool with_barriers) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type pt[2] = {hg_ir_ptr_ty(HG_AS_GLOBAL), hg_ir_ty(HG_IR_I32, 1)};
  uint32_t fi = hg_ir_add_function(m, "k", hg_ir_void_ty(), 2, pt);
  hg_ir_function *f = &m->functions[fi];
  hg_ir_make_kernel(f);
  set_arg(f, 0, "p", "int*", HG_KARG_GLOBAL_PTR, 8);
  set_arg(f, 1, "n", "int", HG_KARG_VALUE, 4);
  uint32_t B0 = hg_ir_add_block(f), B1 = hg_ir_add_block(f), B2 = hg_ir_add_block(f), B3 = hg_ir_add_block(f);
  hg_ir_type i32 = hg_ir_ty(HG_IR_I32, 1), v = hg_ir_void_ty();
  uint32_t c0 = cst(f, i32, 0), c1 = cst(f, i32, 1);
  hg_ir_append(f, B0, HG_OP_BR, 0, v, 0, NULL, 1, &B1);
  uint32_t phops[2] = {c0, c0}, phimm[2] = {B0, B2};
  uint32_t i = hg_ir_append(f, B1, HG_OP_PHI, 0, i32, 2, phops, 2, phimm);
  uint32_t c = hg_ir_append(f, B1, HG_OP_ICMP, HG_CMP_SLT, hg_ir_ty(HG_IR_BOOL, 1), 2, (uint32_t[]){i, 1}, 0, NULL);
  hg_ir_append(f, B1, HG_OP_CONDBR, 0, v, 1, &c, 2, (uint32_t[]){B2, B3});
  uint32_t sq = hg_ir_append(f, B2, HG_OP_MUL, 0, i32, 2, (uint32_t[]){i, i}, 0, NULL);
  uint32_t fl = HG_FENCE_LOCAL;
  if (with_barriers)
    hg_ir_append(f, B2, HG_OP_BARRIER, 0, v, 0, NULL, 1, &fl);
  uint32_t i1 = hg_ir_append(f, B2, HG_OP_ADD, 0, i32, 2, (uint32_t[]){i, c1}, 0, NULL);
  uint32_t t = hg_ir_append(f, B2, HG_OP_ADD, 0, i32, 2, (uint32_t[]){sq, i1}, 0, NULL);
  hg_ir_append(f, B2, HG_OP_STORE, 2 << 8, v, 2, (uint32_t[]){0, t}, 0, NULL);
  if (with_barriers)
    hg_ir_append(f, B2, HG_OP_BARRIER, 0, v, 0, NULL, 1, &fl);
  hg_ir_append(f, B2, HG_OP_BR, 0, v, 0, NULL, 1, &B1);
  hg_ir_append(f, B3, HG_OP_STORE, 2 << 8, v, 2, (uint32_t[]){0, i}, 0, NULL);
  hg_ir_append(f, B3, HG_OP_RET, 0, v, 0, NULL, 0, NULL);
  f->blocks[B1].insts[0].operands[1] = i1;
  hg_ir_compute_state(m);
  return m;
}

static unsigned count_op(const hg_ir_function *f, unsigned op) {
  unsigned n = 0;
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++)
      n += f->blocks[b].insts[i].op == op;
  return n;
}

/* true when some `ret` returns the i32 constant v */
static bool returns(const hg_ir_function *f, uint64_t v) {
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    const hg_ir_inst *t = &f->blocks[b].insts[f->blocks[b].num_insts - 1];
    if (t->op == HG_OP_RET && t->num_operands == 1) {
      const hg_ir_value *val = &f->values[t->operands[0]];
      if (val->kind == HG_VAL_CONST && f->const_words[val->index] == v)
        return true;
    }
  }
  return false;
}

static void round_trips(const char *what, const hg_ir_module *m) {
  char *text = hg_ir_print(m);
  char err[256] = "";
  hg_ir_module *back = text ? hg_ir_parse(text, err, sizeof err) : NULL;
  CHECK(back && hg_ir_module_equal(m, back), "%s: text round trip (%s)", what, err);
  if (back)
    hg_ir_module_free(back);
  free(text);
  uint8_t *bin;
  size_t size;
  CHECK(hg_ir_encode(m, &bin, &size) == 0, "%s: encodes", what);
  hg_ir_module *dec = hg_ir_decode(bin, size, err, sizeof err);
  CHECK(dec && hg_ir_module_equal(m, dec), "%s: binary round trip (%s)", what, err);
  if (dec)
    hg_ir_module_free(dec);
  free(bin);
}

/* The plan agrees with the step function: every value live at a resume point has a slot of
 * the step function, the kernel's slots keep their offsets, the step's polls match can_stop. */
static void check_plan(const char *what, const hg_ir_module *m, uint32_t ki, uint32_t si, bool can_stop) {
  hg_ir_resumable_plan p;
  CHECK(hg_ir_resumable_plan_of(m, ki, &p), "%s: plan", what);
  const hg_ir_function *k = &m->functions[ki], *f = &m->functions[si];
  CHECK(p.can_stop == can_stop, "%s: can_stop %d", what, p.can_stop);
  bool has_barrier = false;
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    has_barrier |= k->safepoints[s].kind == HG_SAFEPOINT_BARRIER;
  CHECK(p.loop_polls == (can_stop && !has_barrier), "%s: loop_polls %d", what, p.loop_polls);
  CHECK(count_op(f, HG_OP_CALL_BUILTIN) == 0 || p.loop_polls, "%s: polls only where the plan says", what);
  for (uint32_t s = 0; s < k->num_safepoints; s++) {
    if (!p.resumable[s] || k->safepoints[s].kind == HG_SAFEPOINT_ENTRY)
      continue;
    for (uint32_t l = 0; l < k->safepoints[s].num_live; l++) {
      uint32_t v = k->safepoints[s].live[l];
      if (k->values[v].kind != HG_VAL_INST)
        continue;
      uint32_t slot = p.slot_of_value[v];
      CHECK(slot != HG_IR_NONE && slot >= k->num_slots && slot < f->num_slots, "%s: value %u at %u has slot %u",
            what, v, s, slot);
    }
  }
  for (uint32_t i = 0; i < k->num_slots; i++)
    CHECK(f->slots[i].offset == k->slots[i].offset, "%s: kernel slot %u keeps its offset", what, i);
  hg_ir_resumable_plan_free(&p);
}

/* kernel k(global ptr.global *pp, int n): q = load pp; loop i < n { store q, i }. The pointer
 * q comes from memory: the loop header is not stoppable. With `barrier`, a barrier inside the
 * loop where q is live too: the kernel cannot stop at all. */
static hg_ir_module *loaded_pointer_kernel(bool barrier) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type pt[2] = {hg_ir_ptr_ty(HG_AS_GLOBAL), hg_ir_ty(HG_IR_I32, 1)};
  uint32_t fi = hg_ir_add_function(m, "lp", hg_ir_void_ty(), 2, pt);
  hg_ir_function *f = &m->functions[fi];
  hg_ir_make_kernel(f);
  set_arg(f, 0, "pp", "int**", HG_KARG_GLOBAL_PTR, 8);
  set_arg(f, 1, "n", "int", HG_KARG_VALUE, 4);
  uint32_t B0 = hg_ir_add_block(f), B1 = hg_ir_add_block(f), B2 = hg_ir_add_block(f), B3 = hg_ir_add_block(f);
  hg_ir_type i32 = hg_ir_ty(HG_IR_I32, 1), v = hg_ir_void_ty();
  uint32_t c0 = cst(f, i32, 0), c1 = cst(f, i32, 1);
  uint32_t q = hg_ir_append(f, B0, HG_OP_LOAD, 3 << 8, hg_ir_ptr_ty(HG_AS_GLOBAL), 1, (uint32_t[]){0}, 0, NULL);
  hg_ir_append(f, B0, HG_OP_BR, 0, v, 0, NULL, 1, &B1);
  uint32_t i = hg_ir_append(f, B1, HG_OP_PHI, 0, i32, 2, (uint32_t[]){c0, c0}, 2, (uint32_t[]){B0, B2});
  uint32_t c = hg_ir_append(f, B1, HG_OP_ICMP, HG_CMP_SLT, hg_ir_ty(HG_IR_BOOL, 1), 2, (uint32_t[]){i, 1}, 0, NULL);
  hg_ir_append(f, B1, HG_OP_CONDBR, 0, v, 1, &c, 2, (uint32_t[]){B2, B3});
  hg_ir_append(f, B2, HG_OP_STORE, 2 << 8, v, 2, (uint32_t[]){q, i}, 0, NULL);
  uint32_t fl = HG_FENCE_LOCAL;
  if (barrier)
    hg_ir_append(f, B2, HG_OP_BARRIER, 0, v, 0, NULL, 1, &fl);
  uint32_t i1 = hg_ir_append(f, B2, HG_OP_ADD, 0, i32, 2, (uint32_t[]){i, c1}, 0, NULL);
  hg_ir_append(f, B2, HG_OP_BR, 0, v, 0, NULL, 1, &B1);
  hg_ir_append(f, B3, HG_OP_RET, 0, v, 0, NULL, 0, NULL);
  f->blocks[B1].insts[0].operands[1] = i1;
  hg_ir_compute_state(m);
  return m;
}

static void test_unstoppable(void) {
  for (int barrier = 0; barrier < 2; barrier++) {
    hg_ir_module *m = loaded_pointer_kernel(barrier);
    char err[256] = "";
    hg_ir_resumable_plan p;
    CHECK(hg_ir_resumable_plan_of(m, 0, &p), "plan");
    CHECK(!p.resumable[1], "a loop header with a loaded pointer live is no resume point");
    CHECK(p.can_stop == !barrier, "can_stop %d with barrier %d", p.can_stop, barrier);
    hg_ir_resumable_plan_free(&p);
    uint32_t s = hg_ir_make_resumable(m, 0, err, sizeof err);
    CHECK(s != HG_IR_NONE && hg_ir_verify(m, err, sizeof err), "builds and verifies: %s", err);
    if (s != HG_IR_NONE) {
      const hg_ir_function *f = &m->functions[s];
      CHECK(count_op(f, HG_OP_CALL_BUILTIN) == 0, "no poll");
      CHECK(!returns(f, 1), "never returns the loop header's id");
      check_plan(barrier ? "unstoppable barrier" : "unstoppable header", m, 0, s, !barrier);
      round_trips("unstoppable", m);
    }
    hg_ir_module_free(m);
  }
}

static void test_barriers_in_loop(void) {
  hg_ir_module *m = loop_kernel(true);
  const hg_ir_function *k = &m->functions[0];
  CHECK(k->num_safepoints == 4, "entry, loop header, 2 barriers: got %u safe points", k->num_safepoints);
  uint32_t sp_a = 2, sp_b = 3; /* barrier safe points, in block order */
  CHECK(k->safepoints[sp_a].kind == HG_SAFEPOINT_BARRIER && k->safepoints[sp_b].kind == HG_SAFEPOINT_BARRIER,
        "safe points 2 and 3 are the barriers");
  char err[256] = "";
  uint32_t s = hg_ir_make_resumable(m, 0, err, sizeof err);
  CHECK(s != HG_IR_NONE, "make_resumable: %s", err);
  if (s == HG_IR_NONE) {
    hg_ir_module_free(m);
    return;
  }
  CHECK(hg_ir_verify(m, err, sizeof err), "the module verifies after the pass: %s", err);
  const hg_ir_function *f = &m->functions[s];
  CHECK(!strcmp(f->name, "k.step"), "named k.step, got %s", f->name);
  CHECK(f->num_params == 4 && f->param_types[2].scalar == HG_IR_PTR && f->param_types[2].addrspace == HG_AS_PRIVATE &&
            f->param_types[3].scalar == HG_IR_I32,
        "params: p, n, frame, resume");
  CHECK(f->ret_type.scalar == HG_IR_I32, "returns i32");
  CHECK(count_op(f, HG_OP_BARRIER) == 0, "no barrier left");
  CHECK(returns(f, sp_a) && returns(f, sp_b) && returns(f, HG_IR_STEP_DONE), "returns both ids and DONE");
  /* with barriers the group stops between rounds: the loop header is a resume point (a
   * dispatch case) but never a check */
  CHECK(!returns(f, 1) && count_op(f, HG_OP_CALL_BUILTIN) == 0, "the loop header (safe point 1) does not poll");
  const hg_ir_inst *d = &f->blocks[0].insts[0];
  CHECK(f->blocks[0].num_insts == 1 && d->op == HG_OP_SWITCH && d->num_operands == 4 && d->operands[0] == 3,
        "block 0 switches on resume with one case per barrier and loop header");
  CHECK(d->imm[0] == 1, "default: the kernel's entry");
  /* live across the barriers: i (phi) and sq (first), i1 (second: used by the phi); t is not;
   * at the loop header: i */
  CHECK(f->num_slots == 3 && f->private_size >= 12, "3 demoted values, got %u slots, frame %u", f->num_slots,
        f->private_size);
  check_plan("barrier loop", m, 0, s, true);
  CHECK(count_op(f, HG_OP_SLOT) >= 4, "slots are addressed");
  CHECK(count_op(f, HG_OP_PHI) == 1, "the loop phi stays");
  /* the kernel itself is untouched */
  CHECK(count_op(&m->functions[0], HG_OP_BARRIER) == 2, "kernel keeps its barriers");
  round_trips("barrier loop", m);
  hg_ir_compute_state(m);
  CHECK(hg_ir_verify(m, err, sizeof err), "verifies after compute_state: %s", err);
  CHECK(hg_ir_make_resumable(m, 0, err, sizeof err) == HG_IR_NONE, "a second k.step is refused");
  CHECK(hg_ir_make_resumable(m, s, err, sizeof err) == HG_IR_NONE, "a non-kernel is refused");
  hg_ir_module_free(m);
}

static void test_no_barrier(void) {
  hg_ir_module *m = loop_kernel(false);
  char err[256] = "";
  uint32_t s = hg_ir_make_resumable(m, 0, err, sizeof err);
  CHECK(s != HG_IR_NONE, "make_resumable: %s", err);
  if (s != HG_IR_NONE) {
    const hg_ir_function *f = &m->functions[s];
    CHECK(hg_ir_verify(m, err, sizeof err), "verifies: %s", err);
    const hg_ir_inst *d = &f->blocks[0].insts[0];
    CHECK(d->op == HG_OP_SWITCH && d->num_operands == 2, "no barrier: the dispatch has the loop header's case");
    CHECK(f->num_slots == 1 && f->private_size == 4, "the loop counter demoted: %u slots", f->num_slots);
    CHECK(returns(f, HG_IR_STEP_DONE) && returns(f, 1), "returns DONE and the loop header's id");
    CHECK(count_op(f, HG_OP_CALL_BUILTIN) == 1, "one poll");
    check_plan("no barrier", m, 0, s, true);
    round_trips("no barrier", m);
  }
  hg_ir_module_free(m);
}

int main(void) {
  test_barriers_in_loop();
  test_no_barrier();
  test_unstoppable();
  printf("%s\n", failed ? "FAILED" : "ok");
  return failed ? 1 : 0;
}
