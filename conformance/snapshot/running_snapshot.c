/* Snapshots with kernels stopped in flight, for the snapshot tests (random_snapshot.h). The
 * states are made the way a backend would: the kernel's layout from its IR, a range, some
 * groups RUNNING with work-items at stoppable safe points; the bytes are random except the
 * pointers among the live values, which must lie inside their objects. */
#include "random_snapshot.h"

#include "ir/ndrange_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The k_loop module in the IR's text form: a loop with a barrier whose live values include
 * pointers based on a buffer argument (%11), a __local argument (%12, %14), a private slot (%13)
 * and a static __local variable (%25); then a loop over a pointer loaded from memory (%21),
 * whose header is not a place to stop. */
static const char LOOP_IR[] =
    "program executable\n"
    "string \"get_local_id\"\n"
    "global @tile local size 40 align 8\n"
    "kernel @k_loop(ptr.global %0, ptr.local %1, i32 %2, ptr.local %3) -> void\n"
    "  arg 0 name \"out\" type \"float*\" kind global_ptr access 0 qual 0 size 8 align 8\n"
    "  arg 1 name \"tmp\" type \"float*\" kind local_ptr access 0 qual 0 size 8 align 8\n"
    "  arg 2 name \"n\" type \"int\" kind value access 0 qual 0 size 4 align 4\n"
    "  arg 3 name \"tmp2\" type \"int*\" kind local_ptr access 0 qual 0 size 8 align 8\n"
    "  slot 0 size 12 align 4 offset 0\n"
    "  private_size 12\n"
    "{\n"
    "  %4 = const i32 0\n"
    "  %5 = const i32 1\n"
    "  %6 = const i64 4\n"
    "  %7 = global @tile\n"
    "  %8 = const f32 0x3f800000\n"
    "bb0:\n"
    "  %9 = call_builtin i64 %4 [\"get_local_id\"]\n"
    "  %10 = mul i64 %9, %6\n"
    "  %11 = ptradd ptr.global %0, %10\n"
    "  %12 = ptradd ptr.local %1, %10\n"
    "  %13 = slot ptr.private [0]\n"
    "  %14 = ptradd ptr.local %3, %10\n"
    "  %25 = ptradd ptr.local %7, %6\n"
    "  br [bb1]\n"
    "bb1:\n"
    "  %15 = phi i32 %4, %20 [bb0, bb2]\n"
    "  %16 = phi f32 %8, %19 [bb0, bb2]\n"
    "  %17 = icmp.slt bool %15, %2\n"
    "  condbr %17 [bb2, bb3]\n"
    "bb2:\n"
    "  store %12, %16\n"
    "  store %25, %15\n"
    "  store %14, %15\n"
    "  barrier [local]\n"
    "  %18 = load.align4 f32 %12\n"
    "  %19 = fadd f32 %16, %18\n"
    "  store %13, %19\n"
    "  %20 = add i32 %15, %5\n"
    "  br [bb1]\n"
    "bb3:\n"
    "  store %11, %16\n"
    "  %21 = load.align8 ptr.global %0\n"
    "  br [bb4]\n"
    "bb4:\n"
    "  %22 = phi i32 %4, %23 [bb3, bb4]\n"
    "  store %21, %22\n"
    "  %23 = add i32 %22, %5\n"
    "  %24 = icmp.slt bool %23, %2\n"
    "  condbr %24 [bb4, bb5]\n"
    "bb5:\n"
    "  ret\n"
    "}\n";

static hg_ir_module *loop_module(void) {
  char err[256];
  hg_ir_module *m = hg_ir_parse(LOOP_IR, err, sizeof err);
  if (!m) {
    fprintf(stderr, "k_loop IR: %s\n", err);
    abort();
  }
  hg_ir_compute_state(m);
  if (!hg_ir_verify(m, err, sizeof err)) {
    fprintf(stderr, "k_loop IR: %s\n", err);
    abort();
  }
  return m;
}

uint8_t *test_loop_ir_binary(size_t *size) {
  hg_ir_module *m = loop_module();
  uint8_t *bin = NULL;
  if (hg_ir_encode(m, &bin, size) != 0)
    abort();
  hg_ir_module_free(m);
  return bin;
}

static uint64_t below(uint64_t n) { return n ? test_rand() % n : 0; }

/* The size of what a pointer value's base is in this launch (the test's own reading of
 * ir-spec section 7, not the snapshot module's). */
static uint64_t base_size(const test_snapshot *t, const hg_ir_module *m, const hg_ir_function *f,
                          const hg_snap_kernel_arg *args, const hg_ir_live_value *lv) {
  switch (lv->base_kind) {
  case HG_BASE_SLOT:
    return f->slots[lv->base_index].size;
  case HG_BASE_GLOBAL:
    return m->globals[lv->base_index].size;
  case HG_BASE_PARAM: {
    const hg_snap_kernel_arg *a = &args[lv->base_index];
    if (a->kind == HG_SNAP_ARG_LOCAL)
      return a->size;
    if (a->kind == HG_SNAP_ARG_BUFFER && a->buffer != HG_SNAP_NONE)
      return t->buffers[a->buffer].size;
    return f->args[lv->base_index].size;
  }
  default:
    return 0;
  }
}

/* A work-item at a random stoppable safe point (or finished), random value bytes with every
 * pointer inside its object, a random frame. In a group where work-items may wait at a
 * barrier none has finished: a correct kernel's work-items all reach each barrier. */
static void fill_item(const test_snapshot *t, const hg_ir_module *m, const hg_ir_function *f,
                      const hg_ir_state_layout *l, const hg_snap_kernel_arg *args, hg_ir_ndrange_state *st,
                      hg_ir_group_state *g, uint32_t i, bool at_barrier) {
  uint8_t *rec = g->values + (size_t)i * st->value_stride;
  for (uint32_t b = 0; b < st->value_stride; b++)
    rec[b] = (uint8_t)test_rand();
  for (uint32_t b = 0; b < st->private_size; b++)
    g->frames[(size_t)i * st->private_size + b] = (uint8_t)test_rand();
  uint32_t sp;
  for (;;) {
    sp = !at_barrier && below(5) == 0 ? HG_WI_DONE : (uint32_t)below(l->num_safepoints);
    if (sp == HG_WI_DONE)
      break;
    bool barrier = f->safepoints[sp].kind == HG_SAFEPOINT_BARRIER;
    if (l->sps[sp].stoppable && barrier == (at_barrier && below(2)))
      break;
  }
  g->safepoint[i] = sp;
  if (sp == HG_WI_DONE)
    return;
  for (uint32_t k = 0; k < l->sps[sp].num_values; k++) {
    const hg_ir_live_value *lv = &l->sps[sp].values[k];
    if (lv->base_kind == HG_BASE_NONE)
      continue;
    uint64_t off = below(base_size(t, m, f, args, lv) + 1);
    memcpy(rec + lv->offset, &off, 8);
  }
}

/* The local memory of ir-spec section 7, computed here independently of snapshot/. */
static uint32_t local_bytes_of(const hg_ir_function *f, const hg_snap_kernel_arg *args) {
  uint64_t end = f->local_static_size;
  for (uint32_t i = 0; i < f->num_params; i++)
    if (f->args[i].kind == HG_KARG_LOCAL_PTR)
      end = ((end + 15) & ~15ull) + args[i].size;
  return (uint32_t)end;
}

static hg_ir_ndrange_state *random_state(test_snapshot *t, const uint8_t *ir, size_t ir_size, const char *kernel,
                                         const hg_snap_kernel_arg *args, uint32_t dim, const uint64_t *global,
                                         const uint64_t *local) {
  char err[256];
  hg_ir_module *m = hg_ir_decode(ir, ir_size, err, sizeof err);
  if (!m)
    abort();
  const hg_ir_function *f = &m->functions[hg_ir_find_function(m, kernel)];
  hg_ir_state_layout l;
  if (!hg_ir_state_layout_of(m, f, &l))
    abort();
  uint64_t offset[3] = {below(1000), below(1000), below(1000)};
  hg_ir_ndrange_state *st =
      hg_ir_ndrange_state_new(kernel, dim, offset, global, local, &l, local_bytes_of(f, args));
  if (!st)
    abort();
  /* every status occurs; at least one group RUNNING */
  for (uint64_t g = 0; g < st->num_groups; g++) {
    uint64_t r = g == 0 ? 2 : below(3);
    if (r == HG_GROUP_RUNNING) {
      hg_ir_group_state *gs = hg_ir_ndrange_state_add_group(st, g);
      bool at_barrier = l.has_barrier && below(2);
      for (uint32_t i = 0; i < gs->num_items; i++)
        fill_item(t, m, f, &l, args, st, gs, i, at_barrier);
      for (uint32_t b = 0; b < st->local_bytes; b++)
        gs->local[b] = (uint8_t)test_rand();
    } else {
      st->group_status[g] = (uint8_t)r;
    }
  }
  if (!hg_ir_ndrange_state_check(st, m, f, &l, err, sizeof err)) {
    fprintf(stderr, "test state: %s\n", err);
    abort();
  }
  hg_ir_state_layout_free(&l);
  hg_ir_module_free(m);
  t->states[t->num_states++] = st;
  return st;
}

static hg_snap_kernel_arg buffer_arg(uint32_t b) { return (hg_snap_kernel_arg){HG_SNAP_ARG_BUFFER, b, 0, NULL}; }
static hg_snap_kernel_arg local_arg(uint64_t n) { return (hg_snap_kernel_arg){HG_SNAP_ARG_LOCAL, HG_SNAP_NONE, n, NULL}; }
static hg_snap_kernel_arg value_arg(test_snapshot *t, uint64_t n) {
  return (hg_snap_kernel_arg){HG_SNAP_ARG_VALUE, HG_SNAP_NONE, n, test_random_bytes(t, n)};
}

test_snapshot *test_snapshot_running(uint32_t num_running) {
  test_snapshot *t = test_snapshot_new();
  hg_snapshot *s = &t->s;
  /* two root buffers and a sub-buffer of the first */
  t->buffers = test_own(t, calloc(3, sizeof *t->buffers));
  for (uint32_t i = 0; i < 2; i++) {
    uint64_t n = 64 + below(448);
    t->buffers[i] = (hg_snap_buffer){i, HG_SNAP_NONE, 1, 0, n, i ? "b1" : NULL, test_random_bytes(t, n)};
  }
  t->buffers[2] = (hg_snap_buffer){2, 0, 1, 8, t->buffers[0].size - 8, "sub", NULL};
  s->num_buffers = 3;
  s->buffers = t->buffers;
  t->programs = test_own(t, calloc(2, sizeof *t->programs));
  t->programs[0] = (hg_snap_program){0, "all", "", NULL, 0};
  t->programs[0].ir = test_own(t, test_ir_binary(&t->programs[0].ir_size));
  t->programs[1] = (hg_snap_program){1, NULL, "-DLOOP", NULL, 0};
  t->programs[1].ir = test_own(t, test_loop_ir_binary(&t->programs[1].ir_size));
  s->num_programs = 2;
  s->programs = t->programs;
  /* kernel 0: k_small (arguments unset), kernel 1: k_loop (its current arguments) */
  hg_snap_kernel_arg *k0 = test_own(t, calloc(2, sizeof *k0)), *k1 = test_own(t, calloc(4, sizeof *k1));
  k0[0] = k0[1] = (hg_snap_kernel_arg){HG_SNAP_ARG_UNSET, HG_SNAP_NONE, 0, NULL};
  k1[0] = buffer_arg(1);
  k1[1] = local_arg(16);
  k1[2] = value_arg(t, 4);
  k1[3] = local_arg(4);
  t->kernels = test_own(t, calloc(2, sizeof *t->kernels));
  t->kernels[0] = (hg_snap_kernel){0, 0, "k_small", NULL, 2, k0};
  t->kernels[1] = (hg_snap_kernel){1, 1, "k_loop", "loop", 4, k1};
  s->num_kernels = 2;
  s->kernels = t->kernels;
  t->queues = test_own(t, calloc(2, sizeof *t->queues));
  t->queues[0] = (hg_snap_queue){0, 0, "q0"};
  t->queues[1] = (hg_snap_queue){1, 2, NULL};
  s->num_queues = 2;
  s->queues = t->queues;

  t->running = test_own(t, calloc(2, sizeof *t->running));
  if (num_running > 0) {
    /* k_loop with its launch arguments (not the kernel object's), over a ragged 2-D range */
    hg_snap_kernel_arg *a = test_own(t, calloc(4, sizeof *a));
    a[0] = buffer_arg(below(2) ? 2 : HG_SNAP_NONE);
    a[1] = local_arg(1 + below(300));
    a[2] = value_arg(t, 4);
    a[3] = local_arg(1 + below(100));
    uint64_t global[3] = {10, 6, 1}, local[3] = {4, 3, 1};
    t->running[0] = (hg_snap_running){1, 1, 4, a,
                                      random_state(t, t->programs[1].ir, t->programs[1].ir_size, "k_loop", a, 2,
                                                   global, local)};
  }
  if (num_running > 1) {
    /* k_small: only its entry to stop at (work-items not started or finished) */
    hg_snap_kernel_arg *a = test_own(t, calloc(2, sizeof *a));
    a[0] = buffer_arg(0);
    a[1] = value_arg(t, 8);
    uint64_t global[3] = {7 + below(20), 1, 1}, local[3] = {1 + below(7), 1, 1};
    t->running[1] = (hg_snap_running){0, 0, 2, a,
                                      random_state(t, t->programs[0].ir, t->programs[0].ir_size, "k_small", a, 1,
                                                   global, local)};
  }
  s->num_running = num_running;
  s->running = t->running;
  return t;
}
