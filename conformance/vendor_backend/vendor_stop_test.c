/* Kernels stopped at safe points and resumed, on the vendor backend through its ops table
 * (kernel_run, kernel_stop; docs/opencl-c-safe-points.md). Each kernel is compiled by the real
 * front end and lowered by the real back end, run once uninterrupted (kernel_launch: the
 * reference), then again with stops at random points (HETGPU_STOP_AFTER's device countdown)
 * or from another thread (kernel_stop), each stopped state copied byte by byte into fresh
 * memory before it is resumed; integer results must match the reference bit for bit. Inputs
 * are random (HG_TEST_SEED), outputs poisoned before each run. Counted loops (stripk) are
 * checked against the host's result, stopped also at the ends of their strip-mined chunks;
 * HETGPU_SAFEPOINT_INTERVAL is 3 here, whatever the environment says (short chunks).
 * A 2-D kernel of many short groups, launched with a global offset, is stopped between the
 * slices of its range (vendor_slice.c) and resumed; its work-item functions in the slice form
 * must see the whole range (test_sliced_stop).
 *
 * Where programs go to the vendor as PTX (NVIDIA), a kernel must give the host's results before
 * and after its launches take the vendor's own build of it (test_own_build).
 *
 * Runs on every vendor device found (PoCL here); skipped (77) without one. HG_STOP_DUMP=1
 * prints the lowered source with its stoppable and resume forms; HG_STOP_SOURCE=file.cl prints
 * that file's instead, and stops. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/host_clock.h"
#include "common/safepoint_settings.h"
#include "devices/vendor/vendor.h"
#include "devices/vendor/vendor_internal.h"
#include "ir/ndrange_state.h"
#include "lowering/frontend.h"
#include "lowering/opencl_c_stop.h"
#include "lowering/slice_form.h"
#include "lowering/spir.h"

static unsigned fails, checks;
#define CHECK(cond, ...)                                                                                               \
  do {                                                                                                                 \
    checks++;                                                                                                          \
    if (!(cond)) {                                                                                                     \
      fails++;                                                                                                         \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                      \
      printf(__VA_ARGS__);                                                                                             \
      printf("\n");                                                                                                    \
    }                                                                                                                  \
  } while (0)

static uint64_t rng;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static uint64_t rr(uint64_t lo, uint64_t hi) { return lo + rnd() % (hi - lo + 1); }

static const char *source =
    /* barrier-free loop: each work-item stops alone */
    "kernel void loopk(global uint *out, global const uint *in, uint n) {\n"
    "  uint g = get_global_id(0), size = get_global_size(0), acc = in[g];\n"
    "  for (uint i = 0; i < n + (g & 7); i++) acc = acc * 1664525u + in[(g + i * 7u) % size];\n"
    "  out[g] = acc;\n"
    "}\n"
    /* barriers inside a loop, a tree reduction in local memory (a __local argument and a static one) */
    "kernel void reduce(global uint *out, global const uint *in, local uint *tmp, uint rounds) {\n"
    "  local uint salt[4];\n"
    "  uint l = get_local_id(0), ls = get_local_size(0), acc = 0;\n"
    "  for (uint r = 0; r < rounds; r++) {\n"
    "    if (l < 4) salt[l] = r * 2654435761u + l;\n"
    "    tmp[l] = (in[get_global_id(0)] ^ (r * 40503u)) + acc;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint s = ls / 2; s > 0; s >>= 1) {\n"
    "      if (l < s) tmp[l] += tmp[l + s] ^ salt[s & 3];\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    acc = acc * 3u + tmp[0] + l;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[get_global_id(0)] = acc;\n"
    "}\n"
    /* a private array indexed at run time (a slot in the frame) and a pointer into it */
    "kernel void privk(global uint *out, global const uint *in, uint n) {\n"
    "  uint a[16], g = get_global_id(0), size = get_global_size(0);\n"
    "  for (uint i = 0; i < 16; i++) a[i] = in[(g * 16u + i) % size];\n"
    "  uint *p = a + (g & 7);\n"
    "  for (uint r = 0; r < n; r++) { uint j = (a[r & 15] + r) & 15; a[j] = a[j] * 3u + a[(j + 5) & 15] + r; p[r & 7] += j; }\n"
    "  uint s = 0;\n"
    "  for (uint i = 0; i < 16; i++) s = s * 31u + a[i];\n"
    "  out[g] = s;\n"
    "}\n"
    /* a persistent grid-stride kernel walking a pointer, updating in place */
    "kernel void persist(global uint *data, uint n, uint iters) {\n"
    "  for (uint it = 0; it < iters; it++) {\n"
    "    global uint *p = data + get_global_id(0);\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0), p += get_global_size(0))\n"
    "      *p = *p * 2654435761u + it;\n"
    "  }\n"
    "}\n"
    /* counted loops, whose checks are strip-mined (one per chunk of `interval` iterations): signed
     * <, unsigned < by 3, !=, a short inner loop (0-2 iterations) entered often, the same where
     * only iv + 1 is live in the inner loop (a resume there sets the chunk end from it), bounds at
     * INT_MAX and UINT_MAX - 4 (a chunk's end must not overflow); trip counts 1 and up, rarely a
     * multiple of the interval */
    "kernel void stripk(global uint *out, global const uint *in, uint n, int hi, uint hu) {\n"
    "  uint g = get_global_id(0), size = get_global_size(0), acc = in[g];\n"
    "  uint m = n + (g % 5u);\n"
    "  for (int i = 0; i < (int)m; i++) acc = acc * 1664525u + in[(g + (uint)i * 7u) % size];\n"
    "  for (uint i = g & 3u; i < m * 2u; i += 3u) acc = acc * 22695477u + in[(i * 13u + g) % size] + i;\n"
    "  for (uint i = 0; i != m; i++) acc ^= in[(acc + i) % size] + i;\n"
    "  for (uint r = 0; r < m; r++) {\n"
    "    uint t = in[(r + g) % size] % 3u;\n"
    "    for (uint j = 0; j < t; j++) acc = acc * 3u + in[(j + r + acc) % size];\n"
    "  }\n"
    "  for (uint i = 0; i < m;) {\n"
    "    uint nx = i + 1u, t = in[(nx + g) % size] % 3u;\n"
    "    for (uint j = 0; j < t; j++) acc = acc * 11u + in[(j + nx + acc) % size];\n"
    "    i = nx;\n"
    "  }\n"
    "  for (int i = hi - (int)m * 3; i < hi; i += 3) acc = acc * 5u + (uint)i;\n"
    "  for (uint i = hu - m * 5u; i < hu; i += 5u) acc = acc * 7u + i;\n"
    "  out[g] = acc;\n"
    "}\n"
    /* many short groups in 2-D: what each work-item function answers goes into its result */
    "kernel void slicek(global uint *out, global const uint *in, uint n, uint iters) {\n"
    "  uint w = get_global_size(0), x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);\n"
    "  uint acc = in[(y * w + x) % n] ^ ((uint)get_group_id(0) * 131u + (uint)get_group_id(1) * 7919u)\n"
    "             ^ ((uint)get_num_groups(0) << 20) ^ ((uint)get_num_groups(1) << 24) ^ (uint)get_global_size(1);\n"
    "  for (uint i = 0; i < iters + (x & 7u); i++) acc = acc * 1664525u + in[(acc + i) % n];\n"
    "  out[y * w + x] = acc;\n"
    "}\n";

/* stripk on the host */
static uint32_t strip_host(const uint32_t *in, uint32_t size, uint32_t g, uint32_t n, int32_t hi, uint32_t hu) {
  uint32_t acc = in[g], m = n + g % 5u;
  for (int32_t i = 0; i < (int32_t)m; i++)
    acc = acc * 1664525u + in[(g + (uint32_t)i * 7u) % size];
  for (uint32_t i = g & 3u; i < m * 2u; i += 3u)
    acc = acc * 22695477u + in[(i * 13u + g) % size] + i;
  for (uint32_t i = 0; i != m; i++)
    acc ^= in[(acc + i) % size] + i;
  for (uint32_t r = 0; r < m; r++) {
    uint32_t t = in[(r + g) % size] % 3u;
    for (uint32_t j = 0; j < t; j++)
      acc = acc * 3u + in[(j + r + acc) % size];
  }
  for (uint32_t i = 0; i < m;) {
    uint32_t nx = i + 1u, t = in[(nx + g) % size] % 3u;
    for (uint32_t j = 0; j < t; j++)
      acc = acc * 11u + in[(j + nx + acc) % size];
    i = nx;
  }
  for (int32_t i = hi - (int32_t)m * 3; i < hi; i += 3)
    acc = acc * 5u + (uint32_t)i;
  for (uint32_t i = hu - m * 5u; i < hu; i += 5u)
    acc = acc * 7u + i;
  return acc;
}

/* A copy of the state through plain bytes: what a snapshot file or another process gives. */
static hg_ir_ndrange_state *byte_copy(const hg_ir_ndrange_state *s) {
  hg_ir_ndrange_state *c = malloc(sizeof *c);
  memcpy(c, s, sizeof *c);
  c->kernel = strdup(s->kernel);
  c->group_status = malloc(s->num_groups);
  memcpy(c->group_status, s->group_status, s->num_groups);
  c->running = malloc((s->num_running ? s->num_running : 1) * sizeof *c->running);
  for (uint32_t i = 0; i < s->num_running; i++) {
    const hg_ir_group_state *g = &s->running[i];
    hg_ir_group_state *h = &c->running[i];
    *h = *g;
    size_t n = g->num_items;
    h->safepoint = malloc(n * 4);
    memcpy(h->safepoint, g->safepoint, n * 4);
    h->values = malloc(n * s->value_stride + 1);
    memcpy(h->values, g->values, n * s->value_stride);
    h->frames = malloc(n * s->private_size + 1);
    memcpy(h->frames, g->frames, n * s->private_size);
    h->local = malloc(s->local_bytes + 1);
    memcpy(h->local, g->local, s->local_bytes);
  }
  return c;
}

typedef struct kcase {
  const char *name;
  size_t global, local;
  uint32_t n;      /* the loop count argument */
  bool local_arg;  /* reduce: a __local argument */
  bool in_place;   /* persist: data is both input and output */
} kcase;

typedef struct run_env {
  hg_backend *be;
  hg_dev_kernel *k;
  hg_dev_mem *out, *in;
  const kcase *kc;
} run_env;

static void make_args(const run_env *e, hg_launch_arg *args, uint32_t *n, uint32_t *iters, cl_uint *num) {
  const kcase *kc = e->kc;
  if (kc->in_place) {
    args[0] = (hg_launch_arg){.kind = HG_ARG_BUFFER, .mem = e->out};
    args[1] = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = 4, .value = n};
    args[2] = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = 4, .value = iters};
    *num = 3;
    return;
  }
  args[0] = (hg_launch_arg){.kind = HG_ARG_BUFFER, .mem = e->out};
  args[1] = (hg_launch_arg){.kind = HG_ARG_BUFFER, .mem = e->in};
  if (kc->local_arg) {
    args[2] = (hg_launch_arg){.kind = HG_ARG_LOCAL, .size = kc->local * 4};
    args[3] = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = 4, .value = n};
    *num = 4;
  } else {
    args[2] = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = 4, .value = n};
    *num = 3;
  }
}

/* Runs from `resume` (NULL: fresh) until it finishes, each launch stopping after a random
 * number of checks (0: never) with probability 3/4; returns the number of stops. */
/* early: the first launch stops within the first sixteenth of max_checks (random stop points
 * alone left a kernel never stopped over six runs for some seeds) */
static unsigned run_stopping(const run_env *e, uint32_t data_n, uint32_t iters, uint64_t max_checks, bool early,
                             cl_int *err) {
  const hg_backend_ops *o = e->be->ops;
  hg_launch_arg args[4];
  cl_uint num;
  uint32_t n = e->kc->in_place ? data_n : e->kc->n;
  make_args(e, args, &n, &iters, &num);
  hg_stop_request stop;
  atomic_init(&stop.requested, false);
  hg_launch l = {.work_dim = 1, .global_size = {e->kc->global, 1, 1}, .local_size = {e->kc->local, 1, 1},
                 .num_args = num, .args = args, .stop = &stop};
  hg_ir_ndrange_state *state = NULL;
  unsigned stops = 0;
  for (int launch = 0; launch < 200; launch++) {
    l.stop_after = early && launch == 0 ? rr(1, max_checks / 16 + 1) : rr(0, 3) ? rr(1, max_checks) : 0;
    hg_ir_ndrange_state *stopped = NULL;
    *err = o->kernel_run(e->be, e->k, &l, state, &stopped, NULL);
    hg_ir_ndrange_state_free(state);
    state = NULL;
    if (*err != HG_LAUNCH_STOPPED)
      break;
    stops++;
    state = byte_copy(stopped);
    hg_ir_ndrange_state_free(stopped);
  }
  hg_ir_ndrange_state_free(state);
  return stops;
}

static void test_case(hg_backend *be, hg_dev_program *p, const kcase *kc) {
  const hg_backend_ops *o = be->ops;
  hg_dev_kernel *k = NULL;
  cl_int err = o->kernel_create(be, p, kc->name, &k);
  CHECK(err == CL_SUCCESS, "%s: kernel_create %d", kc->name, err);
  if (err != CL_SUCCESS)
    return;
  size_t bytes = kc->global * 4 * (kc->in_place ? 4 : 1);
  uint32_t data_n = (uint32_t)(bytes / 4), iters = kc->n;
  uint32_t *in = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  for (size_t i = 0; i < bytes / 4; i++)
    in[i] = (uint32_t)rnd();
  run_env e = {.be = be, .k = k, .kc = kc};
  o->mem_alloc(be, bytes, &e.out);
  o->mem_alloc(be, bytes, &e.in);
  o->mem_write(be, e.in, 0, bytes, in);
  /* the reference: the plain kernel, uninterrupted */
  if (kc->in_place)
    o->mem_write(be, e.out, 0, bytes, in);
  else
    o->mem_fill(be, e.out, 0, bytes, &(uint32_t){0xDEADBEEF}, 4);
  hg_launch_arg args[4];
  cl_uint num;
  uint32_t n = kc->in_place ? data_n : kc->n;
  make_args(&e, args, &n, &iters, &num);
  hg_launch l = {.work_dim = 1, .global_size = {kc->global, 1, 1}, .local_size = {kc->local, 1, 1},
                 .num_args = num, .args = args};
  err = o->kernel_launch(be, k, &l, NULL);
  CHECK(err == CL_SUCCESS, "%s: reference launch %d", kc->name, err);
  o->mem_read(be, e.out, 0, bytes, ref);
  /* checks a launch makes: loop-header crossings (no barriers) or barrier votes (per group) */
  uint64_t max_checks = !strcmp(kc->name, "reduce") ? (kc->global / kc->local) * kc->n * 8 : kc->global * kc->n;
  unsigned total_stops = 0;
  for (int trial = 0; trial < 6; trial++) {
    if (kc->in_place)
      o->mem_write(be, e.out, 0, bytes, in);
    else
      o->mem_fill(be, e.out, 0, bytes, &(uint32_t){0xA5A5A5A5u ^ (uint32_t)trial}, 4);
    unsigned stops = run_stopping(&e, data_n, iters, max_checks, trial == 0, &err);
    total_stops += stops;
    CHECK(err == CL_SUCCESS, "%s trial %d: kernel_run %d after %u stops", kc->name, trial, err, stops);
    o->mem_read(be, e.out, 0, bytes, got);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < bytes / 4; i++)
      if (got[i] != ref[i] && !bad++)
        first = i;
    CHECK(!bad, "%s trial %d (%u stops): %zu of %zu words differ, first at %zu: %08x, want %08x", kc->name, trial,
          stops, bad, bytes / 4, first, got[first], ref[first]);
  }
  printf("  %s: %zu work-items in groups of %zu, %u stops and resumes over 6 runs\n", kc->name, kc->global, kc->local,
         total_stops);
  CHECK(total_stops > 0, "%s: never stopped", kc->name);
  o->mem_free(be, e.out);
  o->mem_free(be, e.in);
  o->kernel_free(be, k);
  free(in);
  free(ref);
  free(got);
}

/* A state whose groups are not at one point, as the RISC-V backend leaves them (it runs a
 * group's work-items one after the other): stopped at the first barrier, then every odd
 * work-item put back at the entry (what it ran before that barrier only rewrites the same local
 * words, so this is a state the kernel can be in). The backend must catch those work-items up
 * to the barrier before resuming the group (its catch-up form). */
static void test_mixed(hg_backend *be, hg_dev_program *p) {
  const hg_backend_ops *o = be->ops;
  const kcase kc = {.name = "reduce", .global = 2048, .local = 64, .n = 5, .local_arg = true};
  hg_dev_kernel *k = NULL;
  CHECK(o->kernel_create(be, p, kc.name, &k) == CL_SUCCESS, "mixed: kernel_create");
  if (!k)
    return;
  size_t bytes = kc.global * 4;
  uint32_t *in = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  for (size_t i = 0; i < kc.global; i++)
    in[i] = (uint32_t)rnd();
  run_env e = {.be = be, .k = k, .kc = &kc};
  o->mem_alloc(be, bytes, &e.out);
  o->mem_alloc(be, bytes, &e.in);
  o->mem_write(be, e.in, 0, bytes, in);
  hg_launch_arg args[4];
  cl_uint num;
  uint32_t n = kc.n, iters = 0;
  make_args(&e, args, &n, &iters, &num);
  hg_stop_request stop;
  atomic_init(&stop.requested, false);
  hg_launch l = {.work_dim = 1, .global_size = {kc.global, 1, 1}, .local_size = {kc.local, 1, 1},
                 .num_args = num, .args = args, .stop = &stop};
  cl_int err = o->kernel_launch(be, k, &l, NULL);
  o->mem_read(be, e.out, 0, bytes, ref);
  o->mem_fill(be, e.out, 0, bytes, &(uint32_t){0x5A5A5A5A}, 4);
  hg_ir_ndrange_state *st = NULL;
  l.stop_after = 1;
  err = o->kernel_run(be, k, &l, NULL, &st, NULL);
  CHECK(err == HG_LAUNCH_STOPPED && st && st->num_running, "mixed: no stop at the first barrier (%d)", err);
  unsigned mixed = 0;
  for (uint32_t q = 0; st && q < st->num_running; q++)
    for (uint32_t i = 1; i < st->running[q].num_items; i += 2) {
      st->running[q].safepoint[i] = 0;
      memset(st->running[q].values + (size_t)i * st->value_stride, 0, st->value_stride);
      mixed++;
    }
  l.stop_after = 0;
  hg_ir_ndrange_state *copy = st ? byte_copy(st) : NULL, *again = NULL;
  hg_ir_ndrange_state_free(st);
  err = o->kernel_run(be, k, &l, copy, &again, NULL);
  hg_ir_ndrange_state_free(copy);
  hg_ir_ndrange_state_free(again);
  CHECK(err == CL_SUCCESS, "mixed: resume %d", err);
  o->mem_read(be, e.out, 0, bytes, got);
  size_t bad = 0;
  for (size_t i = 0; i < kc.global; i++)
    bad += got[i] != ref[i];
  CHECK(!bad, "mixed: %zu words differ", bad);
  printf("  reduce: %u work-items put back at the entry beside their group's barrier, resumed\n", mixed);
  o->mem_free(be, e.out);
  o->mem_free(be, e.in);
  o->kernel_free(be, k);
  free(in);
  free(ref);
  free(got);
}

/* kernel_stop from another thread, a few ms after the launch began. */
typedef struct stopper {
  hg_backend *be;
  hg_stop_request *stop;
  unsigned delay_us;
  uint64_t at_ns;
} stopper;

static void *stop_later(void *p) {
  stopper *s = p;
  usleep(s->delay_us);
  s->at_ns = hg_host_clock_ns();
  atomic_store(&s->stop->requested, true);
  s->be->ops->kernel_stop(s->be, s->stop);
  return NULL;
}

static hg_dev_kernel *kernel_of(hg_backend *be, hg_dev_program *p, const char *name) {
  hg_dev_kernel *k = NULL;
  CHECK(be->ops->kernel_create(be, p, name, &k) == CL_SUCCESS, "%s: kernel_create", name);
  return k;
}

static void test_kernel_stop(hg_backend *be, hg_dev_program *p) {
  const hg_backend_ops *o = be->ops;
  hg_dev_kernel *k = kernel_of(be, p, "persist");
  if (!k)
    return;
  uint32_t n = 1u << 20, iters = 400;
  size_t bytes = (size_t)n * 4;
  uint32_t *in = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  for (uint32_t i = 0; i < n; i++)
    in[i] = (uint32_t)rnd();
  hg_dev_mem *data = NULL;
  o->mem_alloc(be, bytes, &data);
  hg_launch_arg args[3] = {{.kind = HG_ARG_BUFFER, .mem = data},
                           {.kind = HG_ARG_VALUE, .size = 4, .value = &n},
                           {.kind = HG_ARG_VALUE, .size = 4, .value = &iters}};
  hg_launch l = {.work_dim = 1, .global_size = {4096, 1, 1}, .local_size = {64, 1, 1}, .num_args = 3, .args = args};
  o->mem_write(be, data, 0, bytes, in);
  uint64_t t0 = hg_host_clock_ns();
  cl_int err = o->kernel_launch(be, k, &l, NULL);
  uint64_t plain_ns = hg_host_clock_ns() - t0;
  CHECK(err == CL_SUCCESS, "persist: reference %d", err);
  o->mem_read(be, data, 0, bytes, ref);
  for (int trial = 0; trial < 3; trial++) {
    o->mem_write(be, data, 0, bytes, in);
    hg_stop_request stop;
    atomic_init(&stop.requested, false);
    l.stop = &stop;
    hg_ir_ndrange_state *state = NULL;
    unsigned stops = 0;
    for (int launch = 0; launch < 50; launch++) {
      /* a few stops, then it runs to the end */
      stopper s = {.be = be, .stop = &stop, .delay_us = (unsigned)rr(2000, 8000)};
      pthread_t th;
      atomic_store(&stop.requested, false);
      bool stopping = launch < 4;
      if (stopping)
        pthread_create(&th, NULL, stop_later, &s);
      hg_ir_ndrange_state *stopped = NULL;
      err = o->kernel_run(be, k, &l, state, &stopped, NULL);
      uint64_t end = hg_host_clock_ns();
      if (stopping)
        pthread_join(th, NULL);
      hg_ir_ndrange_state_free(state);
      state = NULL;
      if (err != HG_LAUNCH_STOPPED)
        break;
      if (stops++ < 3)
        printf("  persist trial %d: stopped %.3f ms after kernel_stop, %u groups running\n", trial,
               (end - s.at_ns) / 1e6, stopped->num_running);
      state = byte_copy(stopped);
      hg_ir_ndrange_state_free(stopped);
    }
    hg_ir_ndrange_state_free(state);
    CHECK(err == CL_SUCCESS, "persist trial %d: %d", trial, err);
    CHECK(stops > 0, "persist trial %d: kernel_stop never stopped it (the plain run takes %.1f ms)", trial,
          plain_ns / 1e6);
    o->mem_read(be, data, 0, bytes, got);
    size_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
      bad += got[i] != ref[i];
    CHECK(!bad, "persist trial %d (%u stops): %zu words differ", trial, stops, bad);
  }
  o->mem_free(be, data);
  o->kernel_free(be, k);
  free(in);
  free(ref);
  free(got);
}

/* slicek: a first stoppable launch (in the stoppable form) measures its groups, later ones run
 * in slices; a stop requested mid-way leaves groups only DONE (a prefix) or NOT_STARTED, and
 * the resumed state must end equal to a plain launch, bit for bit. Groups are small (16
 * work-items, 4 to a row) so that they always fit a slice; the range grows (up to 2^23
 * work-items, then the loop) until a plain launch lasts 3 ms (24 on CPU devices), so a fast
 * device has many slices too; stops come at random times within a launch. */
static void test_sliced_stop(hg_backend *be, hg_dev_program *p) {
  const hg_backend_ops *o = be->ops;
  hg_dev_kernel *k = kernel_of(be, p, "slicek");
  if (!k)
    return;
  uint32_t w = 64, h = 2048, most = 131072, iters = 16, n = w * most;
  size_t bytes = (size_t)n * 4;
  uint32_t *in = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  for (uint32_t i = 0; i < n; i++)
    in[i] = (uint32_t)rnd();
  hg_dev_mem *out = NULL, *inm = NULL;
  o->mem_alloc(be, bytes, &out);
  o->mem_alloc(be, bytes, &inm);
  o->mem_write(be, inm, 0, bytes, in);
  hg_launch_arg args[4] = {{.kind = HG_ARG_BUFFER, .mem = out},
                           {.kind = HG_ARG_BUFFER, .mem = inm},
                           {.kind = HG_ARG_VALUE, .size = 4, .value = &n},
                           {.kind = HG_ARG_VALUE, .size = 4, .value = &iters}};
  hg_stop_request stop;
  atomic_init(&stop.requested, false);
  hg_launch l = {.work_dim = 2, .global_offset = {rr(0, 5000), rr(0, 5000), 0}, .global_size = {w, h, 1},
                 .local_size = {16, 1, 1}, .num_args = 4, .args = args, .stop = &stop};
  /* a CPU device's slices are eight times as long (vendor_slice.c) */
  uint64_t long_ns = be->type & CL_DEVICE_TYPE_CPU ? 24000000 : 3000000;
  for (;;) {
    uint64_t t0 = hg_host_clock_ns();
    CHECK(o->kernel_launch(be, k, &l, NULL) == CL_SUCCESS, "slicek: sizing launch");
    uint64_t t = hg_host_clock_ns() - t0;
    if (t >= long_ns || (h >= most && iters >= 1024))
      break;
    if (h < most)
      h *= 4;
    else
      iters *= 4;
    l.global_size[1] = h;
  }
  bytes = (size_t)w * h * 4;
  memset(ref, 0xa5, bytes);
  o->mem_write(be, out, 0, bytes, ref);
  CHECK(o->kernel_launch(be, k, &l, NULL) == CL_SUCCESS, "slicek: reference");
  o->mem_read(be, out, 0, bytes, ref);
  uint64_t run_ns = 0;
  unsigned stopped_runs = 0;
  for (int trial = 0; trial < 9; trial++) {
    memset(got, 0xa5, bytes);
    o->mem_write(be, out, 0, bytes, got);
    stopper s = {.be = be, .stop = &stop, .delay_us = (unsigned)(rr(run_ns / 10, run_ns / 2) / 1000)};
    pthread_t th;
    atomic_store(&stop.requested, false);
    /* the first launch (the stoppable form, its checks every 3 crossings here) measures the
     * groups; the second and third (in slices) how long the launches to stop last, the shorter:
     * the vendor compiles the slice form at its first launch (PoCL 5 on 16 cores took longer
     * over that than over the whole launch, and every stop then came after the end) */
    bool stopping = trial > 2;
    if (stopping)
      pthread_create(&th, NULL, stop_later, &s);
    hg_ir_ndrange_state *state = NULL;
    uint64_t t0 = hg_host_clock_ns();
    cl_int err = o->kernel_run(be, k, &l, NULL, &state, NULL);
    uint64_t took = hg_host_clock_ns() - t0;
    if (trial == 1 || (trial == 2 && took < run_ns))
      run_ns = took;
    if (stopping)
      pthread_join(th, NULL);
    atomic_store(&stop.requested, false);
    if (err == HG_LAUNCH_STOPPED) {
      stopped_runs++;
      uint64_t done = 0;
      while (done < state->num_groups && state->group_status[done] == HG_GROUP_DONE)
        done++;
      bool rest_fresh = true;
      for (uint64_t g = done; g < state->num_groups; g++)
        rest_fresh &= state->group_status[g] == HG_GROUP_NOT_STARTED;
      CHECK(state->num_running == 0 && rest_fresh && done < state->num_groups,
            "slicek trial %d: stopped between slices: %u groups running, %llu of %llu done as a prefix: %d", trial,
            state->num_running, (unsigned long long)done, (unsigned long long)state->num_groups, rest_fresh);
      if (stopped_runs == 1)
        printf("  slicek: stopped with %llu of %llu groups done\n", (unsigned long long)done,
               (unsigned long long)state->num_groups);
      hg_ir_ndrange_state *copy = byte_copy(state);
      hg_ir_ndrange_state *again = NULL;
      err = o->kernel_run(be, k, &l, copy, &again, NULL);
      hg_ir_ndrange_state_free(copy);
      hg_ir_ndrange_state_free(again);
    }
    hg_ir_ndrange_state_free(state);
    CHECK(err == CL_SUCCESS, "slicek trial %d: %d", trial, err);
    o->mem_read(be, out, 0, bytes, got);
    size_t bad = 0;
    for (size_t i = 0; i < bytes / 4; i++)
      bad += got[i] != ref[i];
    CHECK(!bad, "slicek trial %d: %zu words differ from the plain launch", trial, bad);
  }
  CHECK(stopped_runs > 0, "slicek: never stopped between slices");
  o->mem_free(be, out);
  o->mem_free(be, inm);
  o->kernel_free(be, k);
  free(in);
  free(ref);
  free(got);
}

/* The strip-mined checks are what the lowering emits for counted loops (docs/opencl-c-safe-points.md):
 * the chunk's own back edge (`goto hg_I<header>`) in the stoppable and resume forms, for loopk's
 * plain `i < n` loop and for every loop of stripk, each testing `iv_next != hg_e<header>` (the
 * exact chunk end LLVM unrolls) for a CPU target, so the optimisation cannot silently stop
 * applying. */
static unsigned count_in_form(const char *src, const char *form, const char *what) {
  char head[96];
  snprintf(head, sizeof head, "void %s(", form);
  const char *at = strstr(src, head), *end = at ? strstr(at, "\n}\n") : NULL;
  unsigned n = 0;
  for (const char *q = at; q && end && (q = strstr(q, what)) && q < end; q++)
    n++;
  return n;
}

/* A group's vote (GROUP mode) at a barrier that no stopped group skips to has the barrier on
 * each side of its uniform branch; the branch must change nothing that lives past it (the vote
 * counters move before and after it): PoCL 5.0 otherwise leaves single-entry PHI nodes at the
 * joined region's entry and aborts in its work-group compiler ("Cannot add context restore for
 * a PHI node at the region entry", docs/opencl-c-safe-points.md). reduce votes at its 3 barriers. */
static void check_votes(const char *src) {
  static const char *forms[] = {"hg_stop_reduce", "hg_resume_reduce"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    unsigned votes = count_in_form(src, forms[i], "hg_v = ++hg_cnt >= hg_k;");
    unsigned after = count_in_form(src, forms[i], "  hg_nb += hg_cnt == 0u;\n");
    unsigned inside = count_in_form(src, forms[i], "hg_nb++") + count_in_form(src, forms[i], "    hg_cnt = 0u;");
    CHECK(votes == 3 && after == votes && !inside, "%s: %u votes, %u counted after their branch, %u inside", forms[i],
          votes, after, inside);
  }
}

static void test_forms_emitted(const hg_ir_module *m) {
  hg_oc_stop_table t;
  char msg[256];
  hg_oc_forms_target cpu = hg_oc_forms_target_of(true);
  char *src = hg_lower_opencl_c_stoppable(m, &cpu, NULL, &t, msg, sizeof msg);
  CHECK(src, "lowering: %s", msg);
  if (!src)
    return;
  static const struct {
    const char *form;
    unsigned loops;
  } want[] = {{"hg_stop_loopk", 1}, {"hg_resume_loopk", 1}, {"hg_stop_stripk", 9}, {"hg_resume_stripk", 9}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    unsigned got = count_in_form(src, want[i].form, "goto hg_I");
    CHECK(got == want[i].loops, "%s: %u strip-mined loops, want %u", want[i].form, got, want[i].loops);
    got = count_in_form(src, want[i].form, " != hg_e");
    CHECK(got == want[i].loops, "%s: %u chunks end exactly, want %u", want[i].form, got, want[i].loops);
  }
  check_votes(src);
  free(src);
  hg_oc_stop_table_free(&t);
  /* as a GPU gets them: the chunks test iv_next < end, but for stripk's loop tested with != */
  hg_oc_forms_target gpu = hg_oc_forms_target_of(false);
  src = hg_lower_opencl_c_stoppable(m, &gpu, NULL, &t, msg, sizeof msg);
  CHECK(src, "lowering: %s", msg);
  if (!src)
    return;
  unsigned loops = count_in_form(src, "hg_stop_stripk", "goto hg_I"), exact = count_in_form(src, "hg_stop_stripk", " != hg_e");
  CHECK(loops == 9 && exact == 1, "hg_stop_stripk for a GPU: %u strip-mined loops, %u ending exactly", loops, exact);
  free(src);
  hg_oc_stop_table_free(&t);
  /* beside a SPIR program the slice forms are its (lowering/slice_form.h): the table names each
   * one the forms no longer carry and the bitcode does */
  cpu.slice_forms_elsewhere = true;
  src = hg_lower_opencl_c_forms(m, &cpu, NULL, &t, msg, sizeof msg);
  size_t bc_size = 0;
  uint8_t *bc = hg_lower_spir(m, true, &bc_size, msg, sizeof msg);
  CHECK(src && bc, "lowering: %s", msg);
  unsigned named = 0;
  for (uint32_t i = 0; src && bc && i < t.num_kernels; i++) {
    const char *slice = t.kernels[i].slice_name;
    if (!slice)
      continue;
    named++;
    CHECK(!strstr(src, slice), "%s is in the OpenCL C forms beside a SPIR program", slice);
    CHECK(memmem(bc, bc_size, slice, strlen(slice)), "%s is not in the SPIR bitcode", slice);
  }
  CHECK(named > 0, "no kernel has a slice form");
  free(src);
  free(bc);
  hg_oc_stop_table_free(&t);
  /* no slice form for a kernel whose form's name would be too long for PoCL */
  char longk[512], name[HG_FORMS_MAX_KERNEL_NAME + 2];
  memset(name, 'k', sizeof name - 1);
  name[sizeof name - 1] = 0;
  snprintf(longk, sizeof longk, "kernel void %s(global uint *o) { o[get_group_id(0)] = 1u; }\n", name);
  hg_ir_module *lm = NULL;
  char *log = NULL;
  CHECK(hg_frontend_source_to_ir(longk, "", NULL, 0, false, &lm, &log) == CL_SUCCESS, "front end: %s", log ? log : "");
  bc = lm ? hg_lower_spir(lm, true, &bc_size, msg, sizeof msg) : NULL;
  CHECK(bc && !memmem(bc, bc_size, HG_SLICE_FORM_PREFIX, strlen(HG_SLICE_FORM_PREFIX)),
        "a slice form for a kernel named with %zu characters", strlen(name));
  free(bc);
  free(log);
  hg_ir_module_free(lm);
}

/* kernel_stop over and over while a launch runs: the stop word is there (nearly always) before
 * the kernel starts, so each resumed work-item runs to its next check, the end of its current
 * chunk, and stops there; fresh ones stop before they start. */
typedef struct spinner {
  hg_backend *be;
  hg_stop_request *stop;
  atomic_bool done;
} spinner;

static void *spin_stop(void *p) {
  spinner *s = p;
  while (!atomic_load(&s->done)) {
    s->be->ops->kernel_stop(s->be, s->stop);
    usleep(50);
  }
  return NULL;
}

/* stripk stopped in its counted loops and resumed, the result compared with the host's: each
 * run starts with a stop at a random check (countdown: interval 1, so anywhere in a loop), then
 * launches either stop at a random check again, or stop at the end of each work-item's chunk
 * (spinner; chunks of HETGPU_SAFEPOINT_INTERVAL iterations, 3 in this test, counted from where
 * the work-item resumed), or run to the end. */
static void test_strip(hg_backend *be, hg_dev_program *p) {
  const hg_backend_ops *o = be->ops;
  hg_dev_kernel *k = NULL;
  CHECK(o->kernel_create(be, p, "stripk", &k) == CL_SUCCESS, "stripk: kernel_create");
  if (!k)
    return;
  const size_t global = 4096, local = 64, bytes = global * 4;
  const int32_t hi = INT32_MAX;
  const uint32_t hu = UINT32_MAX - 4u; /* i += 5 below it never wraps */
  uint32_t *in = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  hg_dev_mem *out = NULL, *inm = NULL;
  o->mem_alloc(be, bytes, &out);
  o->mem_alloc(be, bytes, &inm);
  unsigned chunk_stops = 0, countdown_stops = 0, in_loops = 0;
  static const uint32_t ns[] = {1, 7, 30};
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
    uint32_t n = ns[ni];
    for (size_t i = 0; i < global; i++)
      in[i] = (uint32_t)rnd();
    for (uint32_t g = 0; g < global; g++)
      ref[g] = strip_host(in, (uint32_t)global, g, n, hi, hu);
    o->mem_write(be, inm, 0, bytes, in);
    hg_launch_arg args[5] = {{.kind = HG_ARG_BUFFER, .mem = out},
                             {.kind = HG_ARG_BUFFER, .mem = inm},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &n},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &hi},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &hu}};
    hg_stop_request stop;
    atomic_init(&stop.requested, false);
    hg_launch l = {.work_dim = 1, .global_size = {global, 1, 1}, .local_size = {local, 1, 1}, .num_args = 5,
                   .args = args, .stop = &stop};
    /* the plain kernel against the host first */
    o->mem_fill(be, out, 0, bytes, &(uint32_t){0xDEADBEEF}, 4);
    CHECK(o->kernel_launch(be, k, &l, NULL) == CL_SUCCESS, "stripk n=%u: plain launch", n);
    o->mem_read(be, out, 0, bytes, got);
    size_t bad = 0;
    for (size_t i = 0; i < global; i++)
      bad += got[i] != ref[i];
    CHECK(!bad, "stripk n=%u: the plain kernel differs from the host in %zu words", n, bad);
    /* checks (interval 1) a launch makes: every work-item crosses headers at least n times,
     * about 7 (n + 2) times on average */
    uint64_t least = global * n, max_checks = global * (n + 2) * 7;
    /* kernel_stop reaches only a launch already running, and under load (CI's ASan run beside
     * another test) the spinner could miss every short launch of the four trials: on a CPU,
     * trials go on until one launch stopped at its chunks' end, 64 at most (the check below) */
    bool cpu = be->type & CL_DEVICE_TYPE_CPU;
    for (int trial = 0; trial < 4 || (cpu && !chunk_stops && trial < 64); trial++) {
      o->mem_fill(be, out, 0, bytes, &(uint32_t){0xA5A5A5A5u ^ (uint32_t)trial}, 4);
      hg_ir_ndrange_state *state = NULL;
      cl_int err = CL_SUCCESS;
      unsigned stops = 0;
      for (int launch = 0;; launch++) {
        /* 0: countdown, 1: at the chunk's end, 2: to the end (always after 30 launches); the
         * first launch surely stops in a loop, the second at the ends of chunks */
        int how = launch < 2 ? launch : launch >= 30 ? 2 : (int)rr(0, 2);
        l.stop_after = how == 0 ? rr(1, launch ? max_checks : least) : 0;
        spinner sp = {.be = be, .stop = &stop};
        atomic_init(&sp.done, false);
        pthread_t th;
        if (how == 1)
          pthread_create(&th, NULL, spin_stop, &sp);
        hg_ir_ndrange_state *stopped = NULL;
        err = o->kernel_run(be, k, &l, state, &stopped, NULL);
        if (how == 1) {
          atomic_store(&sp.done, true);
          pthread_join(th, NULL);
        }
        hg_ir_ndrange_state_free(state);
        state = NULL;
        if (err != HG_LAUNCH_STOPPED)
          break; /* finished (or failed) */
        stops++;
        unsigned looping = 0;
        for (uint32_t q = 0; q < stopped->num_running; q++)
          for (uint32_t i = 0; i < stopped->running[q].num_items; i++)
            looping += stopped->running[q].safepoint[i] != 0 && stopped->running[q].safepoint[i] != HG_WI_DONE;
        if (how == 1 && looping)
          chunk_stops++;
        if (how == 0 && looping)
          countdown_stops++;
        in_loops += looping;
        state = byte_copy(stopped);
        hg_ir_ndrange_state_free(stopped);
      }
      hg_ir_ndrange_state_free(state);
      CHECK(err == CL_SUCCESS, "stripk n=%u trial %d: kernel_run %d after %u stops", n, trial, err, stops);
      o->mem_read(be, out, 0, bytes, got);
      size_t bad = 0, first = 0;
      for (size_t i = 0; i < global; i++)
        if (got[i] != ref[i] && !bad++)
          first = i;
      CHECK(!bad, "stripk n=%u trial %d (%u stops): %zu of %zu words differ from the host, first at %zu: %08x, want %08x",
            n, trial, stops, bad, global, first, got[first], ref[first]);
    }
  }
  printf("  stripk: %u stops at chunk ends and %u at random checks with work-items in loops (%u such "
         "work-items), interval %u\n", chunk_stops, countdown_stops, in_loops, hg_safepoint_interval());
  /* on a GPU the stop word travels on a queue of its own and may come after these short
   * kernels have finished; on a CPU it is a store before the kernel starts */
  CHECK(chunk_stops > 0 || !(be->type & CL_DEVICE_TYPE_CPU), "stripk: no launch stopped at the end of its chunks");
  o->mem_free(be, out);
  o->mem_free(be, inm);
  o->kernel_free(be, k);
  free(in);
  free(ref);
  free(got);
}

/* A program that went as PTX has its plain kernels built by the vendor's own compiler in a child
 * process after it, and launches after that run them (plain_kernel, vendor_code.c): the results
 * before and after must be the host's. A constant fresh each run keeps the program cache from
 * holding that build already (a program whose build is cached has no job). */
static void test_own_build(hg_backend *be) {
  const hg_backend_ops *o = be->ops;
  uint32_t salt = (uint32_t)rnd() | 1u;
  char src[512];
  snprintf(src, sizeof src,
           "kernel void ownk(global uint *out, global const uint *in, uint n) {\n"
           "  uint g = get_global_id(0), size = get_global_size(0), acc = in[g];\n"
           "  for (uint i = 0; i < n + (g & 7); i++) acc = acc * %uu + in[(g + i * 7u) %% size];\n"
           "  out[g] = acc;\n"
           "}\n",
           salt);
  hg_ir_module *m = NULL;
  char *log = NULL;
  hg_dev_program *p = NULL;
  cl_int err = hg_frontend_source_to_ir(src, "", NULL, 0, false, &m, &log);
  if (err == CL_SUCCESS)
    err = o->program_build(be, m, NULL, NULL, &p, NULL);
  CHECK(err == CL_SUCCESS, "own build: build %d: %s", err, log ? log : "");
  free(log);
  hg_dev_kernel *k = NULL;
  if (p && !p->recompile) {
    printf("  own build: none (the program did not go as PTX, or no child process builds it)\n");
  } else if (p && o->kernel_create(be, p, "ownk", &k) == CL_SUCCESS) {
    const size_t global = 8192, local = 128;
    const uint32_t n = 20 + (uint32_t)rr(0, 20);
    uint32_t *in = malloc(global * 4), *ref = malloc(global * 4), *got = malloc(global * 4);
    for (size_t i = 0; i < global; i++)
      in[i] = (uint32_t)rnd();
    for (uint32_t g = 0; g < global; g++) {
      uint32_t acc = in[g];
      for (uint32_t i = 0; i < n + (g & 7); i++)
        acc = acc * salt + in[(g + i * 7u) % global];
      ref[g] = acc;
    }
    hg_dev_mem *out = NULL, *inm = NULL;
    o->mem_alloc(be, global * 4, &out);
    o->mem_alloc(be, global * 4, &inm);
    o->mem_write(be, inm, 0, global * 4, in);
    hg_launch_arg args[3] = {{.kind = HG_ARG_BUFFER, .mem = out},
                             {.kind = HG_ARG_BUFFER, .mem = inm},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &n}};
    hg_launch l = {.work_dim = 1, .global_size = {global, 1, 1}, .local_size = {local, 1, 1}, .num_args = 3,
                   .args = args};
    bool built = false;
    for (int round = 0; round < 3; round++) {
      if (round == 1) /* the vendor's own build, made now if the builder has not reached it */
        built = hg_vendor_forms_program(p->recompile, true) != NULL;
      o->mem_fill(be, out, 0, global * 4, &(uint32_t){0xDEADBEEFu ^ (uint32_t)round}, 4);
      err = o->kernel_launch(be, k, &l, NULL);
      o->mem_read(be, out, 0, global * 4, got);
      size_t bad = 0, first = 0;
      for (size_t i = 0; i < global; i++)
        if (got[i] != ref[i] && !bad++)
          first = i;
      CHECK(err == CL_SUCCESS && !bad, "own build round %d: launch %d, %zu of %zu words differ, first at %zu", round,
            err, bad, global, first);
    }
    bool taken = atomic_load(&k->own_build) != NULL;
    CHECK(taken || !built, "own build: built but not taken by the launches after it");
    printf("  own build: %s\n", taken ? "taken by the launches after it, the same results" : built ? "-" : "not built");
    o->mem_free(be, out);
    o->mem_free(be, inm);
    o->kernel_free(be, k);
    free(in);
    free(ref);
    free(got);
  }
  if (p)
    o->program_free(be, p);
  hg_ir_module_free(m);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* what it printed survives a crash */
  const char *seed_env = getenv("HG_TEST_SEED");
  rng = seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
  if (!rng)
    rng = 1;
  printf("seed %llu\n", (unsigned long long)rng);
  /* short chunks in strip-mined loops, so that resumed work-items reach the end of one
   * (test_strip): set before anything reads the setting */
  setenv("HETGPU_SAFEPOINT_INTERVAL", "3", 1);
  /* short slices, so that slicek's launch (sized to last a few milliseconds) has many */
  setenv("HETGPU_SLICE_US", "200", 1);
  hg_ir_module *m = NULL;
  char *log = NULL;
  /* HG_STOP_SOURCE=file.cl: print that file's lowered forms and stop (debugging) */
  const char *other = getenv("HG_STOP_SOURCE");
  char *text = NULL;
  if (other) {
    FILE *fp = fopen(other, "rb");
    if (!fp)
      return 1;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    text = calloc(1, (size_t)n + 1);
    if (fread(text, 1, (size_t)n, fp) != (size_t)n)
      n = 0;
    fclose(fp);
    setenv("HG_STOP_DUMP", "1", 1);
  }
  cl_int err = hg_frontend_source_to_ir(text ? text : source, "", NULL, 0, false, &m, &log);
  free(text);
  if (err != CL_SUCCESS) {
    printf("front end failed (%d): %s\n", err, log ? log : "");
    return 1;
  }
  free(log);
  log = NULL;
  if (!other)
    test_forms_emitted(m);
  if (getenv("HG_STOP_DUMP")) {
    hg_oc_stop_table t;
    char msg[256];
    hg_oc_forms_target cpu = hg_oc_forms_target_of(true);
    char *src = hg_lower_opencl_c_stoppable(m, &cpu, NULL, &t, msg, sizeof msg);
    printf("%s\n", src ? src : msg);
    for (uint32_t i = 0; i < t.num_kernels; i++)
      printf("kernel %s: mode %u, record %u bytes\n", t.kernels[i].name, t.kernels[i].mode, t.kernels[i].record_size);
    free(src);
    hg_oc_stop_table_free(&t);
    if (other) {
      hg_ir_module_free(m);
      return 0;
    }
  }
  hg_backend *bes[16];
  unsigned nb = hg_vendor_probe(bes, 16, false);
  if (!nb) {
    printf("no vendor OpenCL device: skipped\n");
    return 77;
  }
  for (unsigned b = 0; b < nb; b++) {
    hg_backend *be = bes[b];
    printf("%s\n", be->name);
    CHECK(be->ops->kernel_run && be->ops->kernel_stop, "no kernel_run/kernel_stop");
    hg_dev_program *p = NULL;
    err = be->ops->program_build(be, m, NULL, NULL, &p, &log);
    CHECK(err == CL_SUCCESS, "program_build %d: %s", err, log ? log : "");
    free(log);
    log = NULL;
    if (err != CL_SUCCESS)
      continue;
    const kcase cases[] = {
        {.name = "loopk", .global = 8192, .local = 64, .n = 40},
        {.name = "reduce", .global = 4096, .local = 128, .n = 12, .local_arg = true},
        {.name = "privk", .global = 4096, .local = 32, .n = 60},
        {.name = "persist", .global = 2048, .local = 64, .n = 20, .in_place = true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
      test_case(be, p, &cases[i]);
    test_mixed(be, p);
    test_strip(be, p);
    test_kernel_stop(be, p);
    test_sliced_stop(be, p);
    test_own_build(be);
    if (p->recompile) /* not left building into a backend destroyed below */
      hg_vendor_forms_program(p->recompile, true);
    be->ops->program_free(be, p);
    be->ops->destroy(be);
  }
  hg_ir_module_free(m);
  printf("%u checks, %u failed\n", checks, fails);
  return fails ? 1 : 0;
}
