/* Builds random snapshots for the tests (random_snapshot.h). */
#include "random_snapshot.h"

#include "ir/ndrange_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
void test_seed(uint64_t seed) { rng_state = seed ? seed : 1; }
uint64_t test_rand(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}
static uint64_t below(uint64_t n) { return n ? test_rand() % n : 0; }

void *test_own(test_snapshot *t, void *p) {
  if (!p)
    abort();
  if (t->num_owned == t->cap_owned) {
    t->cap_owned = t->cap_owned ? t->cap_owned * 2 : 64;
    t->owned = realloc(t->owned, t->cap_owned * sizeof *t->owned);
    if (!t->owned)
      abort();
  }
  t->owned[t->num_owned++] = p;
  return p;
}
uint8_t *test_random_bytes(test_snapshot *t, uint64_t n) {
  uint8_t *p = test_own(t, malloc(n ? n : 1));
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t r = test_rand();
    memcpy(p + i, &r, 8);
  }
  for (; i < n; i++)
    p[i] = (uint8_t)test_rand();
  return p;
}
/* NULL, "" or a few printable characters */
static const char *random_label(test_snapshot *t) {
  uint64_t r = below(4);
  if (r == 0)
    return NULL;
  size_t n = r == 1 ? 0 : 1 + below(40);
  char *s = test_own(t, malloc(n + 1));
  for (size_t i = 0; i < n; i++)
    s[i] = (char)(' ' + below(95));
  s[n] = 0;
  return s;
}

/* ---- the IR module ------------------------------------------------------------------------ */
static void set_arg(hg_ir_function *f, uint32_t i, const char *name, const char *tn, hg_ir_arg_kind k,
                    uint32_t size) {
  f->args[i].name = strdup(name);
  f->args[i].type_name = strdup(tn);
  f->args[i].kind = (uint8_t)k;
  f->args[i].size = size;
  f->args[i].align = size;
}
static void add_kernel(hg_ir_module *m, const char *name, uint32_t n, const hg_ir_type *types,
                       const char *const *names, const char *const *type_names, const hg_ir_arg_kind *kinds,
                       const uint32_t *sizes) {
  uint32_t index = hg_ir_add_function(m, name, hg_ir_void_ty(), n, types); /* may move m->functions */
  hg_ir_function *f = &m->functions[index];
  hg_ir_make_kernel(f);
  for (uint32_t i = 0; i < n; i++)
    set_arg(f, i, names[i], type_names[i], kinds[i], sizes[i]);
  uint32_t b = hg_ir_add_block(f);
  hg_ir_append(f, b, HG_OP_RET, 0, hg_ir_void_ty(), 0, NULL, 0, NULL);
}

uint8_t *test_ir_binary(size_t *size) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type t5[5] = {hg_ir_ptr_ty(HG_AS_GLOBAL), hg_ir_ptr_ty(HG_AS_CONSTANT), hg_ir_ptr_ty(HG_AS_LOCAL),
                      hg_ir_ty(HG_IR_I32, 1), hg_ir_ty(HG_IR_F32, 4)};
  const char *n5[5] = {"out", "in", "scratch", "n", "v"}, *tn5[5] = {"float*", "float*", "int*", "int", "float4"};
  hg_ir_arg_kind k5[5] = {HG_KARG_GLOBAL_PTR, HG_KARG_CONSTANT_PTR, HG_KARG_LOCAL_PTR, HG_KARG_VALUE, HG_KARG_VALUE};
  uint32_t s5[5] = {8, 8, 8, 4, 16};
  add_kernel(m, "k_all", 5, t5, n5, tn5, k5, s5);
  hg_ir_type t2[2] = {hg_ir_ptr_ty(HG_AS_GLOBAL), hg_ir_ty(HG_IR_I64, 1)};
  const char *n2[2] = {"p", "x"}, *tn2[2] = {"int*", "long"};
  hg_ir_arg_kind k2[2] = {HG_KARG_GLOBAL_PTR, HG_KARG_VALUE};
  uint32_t s2[2] = {8, 8};
  add_kernel(m, "k_small", 2, t2, n2, tn2, k2, s2);
  hg_ir_compute_state(m);
  char err[256];
  uint8_t *bin = NULL;
  if (!hg_ir_verify(m, err, sizeof err) || hg_ir_encode(m, &bin, size) != 0)
    abort();
  hg_ir_module_free(m);
  return bin;
}

/* ---- snapshots ------------------------------------------------------------------------------ */
test_snapshot *test_snapshot_new(void) {
  test_snapshot *t = calloc(1, sizeof *t);
  if (!t)
    abort();
  snprintf(t->s.source_backend, sizeof t->s.source_backend, "test backend %llu", (unsigned long long)below(1000));
  t->s.created_ns = test_rand();
  return t;
}

static void random_programs(test_snapshot *t) {
  uint32_t n = (uint32_t)below(4);
  t->programs = test_own(t, calloc(n ? n : 1, sizeof *t->programs));
  for (uint32_t i = 0; i < n; i++) {
    hg_snap_program *p = &t->programs[i];
    p->id = i;
    p->label = random_label(t);
    p->build_options = below(2) ? "" : "-cl-fast-relaxed-math -DN=4";
    p->ir = test_own(t, test_ir_binary(&p->ir_size));
  }
  t->s.num_programs = n;
  t->s.programs = t->programs;
}

static void random_buffers(test_snapshot *t, uint64_t max_bytes) {
  uint32_t n = (uint32_t)below(9);
  t->buffers = test_own(t, calloc(n ? n : 1, sizeof *t->buffers));
  for (uint32_t i = 0; i < n; i++) {
    hg_snap_buffer *b = &t->buffers[i];
    b->id = i;
    b->flags = below(64);
    b->label = random_label(t);
    uint32_t parent = i ? (uint32_t)below(i) : 0;
    if (i && t->buffers[parent].parent == HG_SNAP_NONE && below(3) == 0) {
      b->parent = parent;
      b->origin = below(t->buffers[parent].size);
      b->size = 1 + below(t->buffers[parent].size - b->origin);
    } else {
      b->parent = HG_SNAP_NONE;
      b->size = 1 + below(max_bytes);
      b->data = test_random_bytes(t, b->size);
    }
  }
  t->s.num_buffers = n;
  t->s.buffers = t->buffers;
}

static void random_args(test_snapshot *t, hg_snap_kernel *k, bool all) {
  static const uint32_t value_sizes_all[5] = {0, 0, 0, 4, 16}, value_sizes_small[2] = {0, 8};
  k->num_args = all ? 5 : 2;
  hg_snap_kernel_arg *args = test_own(t, calloc(k->num_args, sizeof *args));
  for (uint32_t a = 0; a < k->num_args; a++) {
    hg_snap_kernel_arg *g = &args[a];
    g->buffer = HG_SNAP_NONE;
    uint32_t vsize = all ? value_sizes_all[a] : value_sizes_small[a];
    if (below(6) == 0)
      g->kind = HG_SNAP_ARG_UNSET;
    else if (vsize) {
      g->kind = HG_SNAP_ARG_VALUE;
      g->size = vsize;
      g->value = test_random_bytes(t, vsize);
    } else if (all && a == 2) {
      g->kind = HG_SNAP_ARG_LOCAL;
      g->size = 1 + below(4096);
    } else {
      g->kind = HG_SNAP_ARG_BUFFER;
      g->buffer = t->s.num_buffers && below(4) ? (uint32_t)below(t->s.num_buffers) : HG_SNAP_NONE;
    }
  }
  k->args = args;
}

static void random_kernels(test_snapshot *t) {
  uint32_t n = t->s.num_programs ? (uint32_t)below(6) : 0;
  t->kernels = test_own(t, calloc(n ? n : 1, sizeof *t->kernels));
  for (uint32_t i = 0; i < n; i++) {
    hg_snap_kernel *k = &t->kernels[i];
    k->id = i;
    k->program = (uint32_t)below(t->s.num_programs);
    bool all = below(2);
    k->name = all ? "k_all" : "k_small";
    k->label = random_label(t);
    random_args(t, k, all);
  }
  t->s.num_kernels = n;
  t->s.kernels = t->kernels;
}

static void random_queues(test_snapshot *t) {
  uint32_t n = (uint32_t)below(4);
  t->queues = test_own(t, calloc(n ? n : 1, sizeof *t->queues));
  for (uint32_t i = 0; i < n; i++) {
    t->queues[i].id = i;
    t->queues[i].properties = below(4);
    t->queues[i].label = random_label(t);
  }
  t->s.num_queues = n;
  t->s.queues = t->queues;
}

test_snapshot *test_snapshot_random(uint64_t max_buffer_bytes) {
  test_snapshot *t = test_snapshot_new();
  random_buffers(t, max_buffer_bytes);
  random_programs(t);
  random_kernels(t);
  random_queues(t);
  return t;
}

test_snapshot *test_snapshot_big(uint64_t bytes) {
  test_snapshot *t = test_snapshot_new();
  t->buffers = test_own(t, calloc(1, sizeof *t->buffers));
  t->buffers[0] = (hg_snap_buffer){0, HG_SNAP_NONE, 1, 0, bytes, "big", test_random_bytes(t, bytes)};
  t->s.num_buffers = 1;
  t->s.buffers = t->buffers;
  t->programs = test_own(t, calloc(1, sizeof *t->programs));
  t->programs[0].label = "p";
  t->programs[0].build_options = "";
  t->programs[0].ir = test_own(t, test_ir_binary(&t->programs[0].ir_size));
  t->s.num_programs = 1;
  t->s.programs = t->programs;
  return t;
}

void test_snapshot_free(test_snapshot *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->num_owned; i++)
    free(t->owned[i]);
  for (size_t i = 0; i < t->num_states; i++)
    hg_ir_ndrange_state_free(t->states[i]);
  free(t->owned);
  free(t);
}
