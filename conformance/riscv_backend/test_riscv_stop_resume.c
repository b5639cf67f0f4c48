/* Kernels stopped at safe points and resumed on the RISC-V backend, below the OpenCL API: the
 * backend's operations table (kernel_run, kernel_stop) driven directly.
 *
 * Every case builds one kernel, runs it once uninterrupted (kernel_launch) for the reference,
 * then again from the same inputs, stopped at a random safe-point check (stop_after = a random
 * N) and resumed from the device-neutral state on a fresh kernel_run, again and again until it
 * finishes; the output buffers must be bit-exact. Half of the resumes go through a byte-level
 * copy of the state (every field serialised, read back into a new state) to show it holds no
 * device address. Cases: loops without barriers (ragged groups), barriers inside loops with
 * local memory (static and argument), private arrays with pointers into them, a launch of
 * more work-groups than the backend gives the simulator in one batch, and a
 * persistent grid-stride loop stopped from another thread with kernel_stop after a few ms (the
 * time from kernel_stop to kernel_run's return is printed). Fresh random inputs each run
 * (HETGPU_TEST_SEED repeats one), outputs poisoned. First, the simulator's side alone: the
 * STOP_POLL service with stop_after, a launch stopped before it starts, and one stopped from
 * another thread while 160 jobs poll. Prints "N passed, M failed". */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "devices/riscv/riscv.h"
#include "devices/riscv/sim/sim.h"
#include "ir/ndrange_state.h"
#include "lowering/frontend.h"
#include "below_api_check.h"

int passed, failed;
static uint64_t rng;

static uint64_t next_rand(void) { /* xorshift64* */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 2685821657736338717ull;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the state as bytes and back (what a snapshot file would do) ------------------------- */
typedef struct bytes {
  uint8_t *p;
  size_t n, cap, at;
} bytes;

static void put(bytes *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
}
static void get(bytes *b, void *dst, size_t n) {
  memcpy(dst, b->p + b->at, n);
  b->at += n;
}

static void serialise(const hg_ir_ndrange_state *s, bytes *b) {
  uint32_t len = (uint32_t)strlen(s->kernel);
  put(b, &len, 4);
  put(b, s->kernel, len);
  put(b, &s->work_dim, 4);
  put(b, s->global_offset, 24);
  put(b, s->global_size, 24);
  put(b, s->local_size, 24);
  put(b, &s->local_bytes, 4);
  put(b, s->group_status, s->num_groups);
  put(b, &s->num_running, 4);
  for (uint32_t r = 0; r < s->num_running; r++) {
    const hg_ir_group_state *g = &s->running[r];
    put(b, &g->group, 8);
    put(b, g->safepoint, g->num_items * 4);
    put(b, g->values, (size_t)g->num_items * s->value_stride);
    put(b, g->frames, (size_t)g->num_items * s->private_size);
    put(b, g->local, s->local_bytes);
  }
}

static hg_ir_ndrange_state *deserialise(bytes *b, const hg_ir_state_layout *layout) {
  uint32_t len, dim, local_bytes, nrun;
  char name[256];
  uint64_t off[3], glob[3], loc[3];
  get(b, &len, 4);
  get(b, name, len);
  name[len] = 0;
  get(b, &dim, 4);
  get(b, off, 24);
  get(b, glob, 24);
  get(b, loc, 24);
  get(b, &local_bytes, 4);
  hg_ir_ndrange_state *s = hg_ir_ndrange_state_new(name, dim, off, glob, loc, layout, local_bytes);
  if (!s)
    return NULL;
  uint8_t *status = malloc(s->num_groups);
  get(b, status, s->num_groups);
  get(b, &nrun, 4);
  for (uint32_t r = 0; r < nrun; r++) {
    uint64_t group;
    get(b, &group, 8);
    hg_ir_group_state *g = hg_ir_ndrange_state_add_group(s, group);
    if (!g) {
      free(status);
      hg_ir_ndrange_state_free(s);
      return NULL;
    }
    get(b, g->safepoint, g->num_items * 4);
    get(b, g->values, (size_t)g->num_items * s->value_stride);
    get(b, g->frames, (size_t)g->num_items * s->private_size);
    get(b, g->local, s->local_bytes);
  }
  memcpy(s->group_status, status, s->num_groups);
  free(status);
  return s;
}

/* ---- the simulator's stop request, below the backend ---------------------------------------- */
/* count = 0; loop { a0 = STOP_POLL(); if (a0) return count; count++; } */
static const uint32_t poll_loop[] = {
    0x000018B7, /* lui a7, 1 */
    0x00388893, /* addi a7, a7, 3: STOP_POLL (0x1003) */
    0x00000073, /* ecall */
    0x00051663, /* bne a0, x0, +12 */
    0x00128293, /* addi t0, t0, 1 */
    0xFF5FF06F, /* jal x0, -12 */
    0x00028513, /* addi a0, t0, 0 */
    0x00008067, /* ret */
};

typedef struct flag_later {
  atomic_bool *flag;
  unsigned delay_us;
} flag_later;

static void *set_flag_later(void *arg) {
  flag_later *f = arg;
  struct timespec ts = {f->delay_us / 1000000, (long)(f->delay_us % 1000000) * 1000};
  nanosleep(&ts, NULL);
  atomic_store(f->flag, true);
  return NULL;
}

static void simulator_stop(void) {
  hg_sim_config cfg;
  hg_sim_default_config(&cfg);
  cfg.dram_size = 64ull << 20;
  hg_sim_machine *m = NULL;
  if (hg_sim_create(&cfg, &m) != HG_SIM_OK) {
    CHECK(false, "simulator created");
    return;
  }
  CHECK(hg_sim_load_code(m, HG_SIM_CODE_BASE, poll_loop, sizeof poll_loop) == HG_SIM_OK, "code loads");
  enum { JOBS = 160 };
  hg_sim_job jobs[JOBS];
  hg_sim_job_result res[JOBS];
  for (unsigned j = 0; j < JOBS; j++)
    jobs[j] = (hg_sim_job){.pc = HG_SIM_CODE_BASE};
  atomic_bool flag;
  /* stop_after: the N-th poll of the launch answers 1 (one job: exactly N - 1 zeros before) */
  atomic_init(&flag, false);
  uint64_t n = 1 + next_rand() % 1000;
  hg_sim_launch l = {.jobs = jobs, .njobs = 1, .results = res, .stop = &flag, .stop_after = n};
  CHECK(hg_sim_run(m, &l) == HG_SIM_OK && res[0].status == HG_SIM_JOB_DONE && res[0].ret[0] == n - 1 && l.stopped,
        "stop_after %llu: the job saw %llu zeros", (unsigned long long)n, (unsigned long long)res[0].ret[0]);
  /* requested before the launch: nothing starts */
  atomic_store(&flag, true);
  l = (hg_sim_launch){.jobs = jobs, .njobs = JOBS, .results = res, .stop = &flag};
  int rc = hg_sim_run(m, &l);
  unsigned not_run = 0;
  for (unsigned j = 0; j < JOBS; j++)
    not_run += res[j].status == HG_SIM_JOB_NOT_RUN;
  CHECK(rc == HG_SIM_OK && not_run == JOBS && l.stopped, "a launch stopped before it starts runs no job (%u not run)",
        not_run);
  /* from another thread while every core polls in a loop: each job ends at its next poll or
   * never starts, and none faults */
  unsigned done = 0;
  /* 2-5 ms, longer when the host was too slow to start a job by then (ThreadSanitizer) */
  for (unsigned delay = 2000 + (unsigned)(next_rand() % 3000); !done && delay < 2000000; delay *= 4) {
    atomic_store(&flag, false);
    flag_later fl = {&flag, delay};
    pthread_t th;
    pthread_create(&th, NULL, set_flag_later, &fl);
    l = (hg_sim_launch){.jobs = jobs, .njobs = JOBS, .results = res, .stop = &flag};
    rc = hg_sim_run(m, &l);
    pthread_join(th, NULL);
    not_run = 0;
    for (unsigned j = 0; j < JOBS; j++) {
      done += res[j].status == HG_SIM_JOB_DONE;
      not_run += res[j].status == HG_SIM_JOB_NOT_RUN;
    }
  }
  CHECK(rc == HG_SIM_OK && done > 0 && done + not_run == JOBS && l.stopped,
        "stopped from another thread: %u jobs ended at a poll, %u never started", done, not_run);
  /* no stop request at all: STOP_POLL answers 0 (one job, stop_after far away) */
  hg_sim_launch plain = {.jobs = jobs, .njobs = 1, .results = res, .stop_after = 3};
  CHECK(hg_sim_run(m, &plain) == HG_SIM_OK && res[0].ret[0] == 2, "no request: only stop_after stops");
  hg_sim_destroy(m);
}

/* ---- one kernel on the backend ------------------------------------------------------------ */
typedef struct kcase {
  const char *name, *src, *kernel;
  unsigned work_dim;
  size_t global[3], local[3];
  /* argument i: a buffer of buf_size[i] bytes (input random, or output poisoned), a __local
   * buffer (local_size[i] bytes) or a 4-byte value */
  unsigned nargs;
  char kind[8];        /* 'i' input buffer, 'o' output (poisoned), 'l' __local, 'v' int value */
  size_t size[8];      /* bytes (buffers, __local), or the value (v) */
  uint64_t max_stop;   /* stop_after drawn in [1, max_stop]: checks are loop turns without
                          barriers, barrier rounds (per core) with them */
} kcase;

typedef struct loaded {
  hg_backend *be;
  hg_ir_module *module;
  hg_dev_program *prog;
  hg_dev_kernel *kernel;
  hg_ir_state_layout layout;
  hg_dev_mem *mem[8];
  uint8_t *init[8]; /* initial contents of each buffer */
  hg_launch_arg args[8];
  int value[8];
  hg_launch launch;
} loaded;

static bool load(hg_backend *be, const kcase *c, loaded *L) {
  memset(L, 0, sizeof *L);
  L->be = be;
  char *log = NULL;
  if (hg_frontend_source_to_ir(c->src, "", NULL, 0, false, &L->module, &log) != CL_SUCCESS) {
    fprintf(stderr, "%s: front end: %s\n", c->name, log ? log : "");
    free(log);
    return false;
  }
  free(log);
  log = NULL;
  if (be->ops->program_build(be, L->module, NULL, "", &L->prog, &log) != CL_SUCCESS) {
    fprintf(stderr, "%s: build: %s\n", c->name, log ? log : "");
    free(log);
    return false;
  }
  free(log);
  if (be->ops->kernel_create(be, L->prog, c->kernel, &L->kernel) != CL_SUCCESS)
    return false;
  uint32_t fi = hg_ir_find_function(L->module, c->kernel);
  if (fi == HG_IR_NONE || !hg_ir_state_layout_of(L->module, &L->module->functions[fi], &L->layout))
    return false;
  for (unsigned i = 0; i < c->nargs; i++) {
    hg_launch_arg *a = &L->args[i];
    if (c->kind[i] == 'i' || c->kind[i] == 'o') {
      if (be->ops->mem_alloc(be, c->size[i], &L->mem[i]) != CL_SUCCESS)
        return false;
      L->init[i] = malloc(c->size[i]);
      for (size_t b = 0; b < c->size[i]; b++)
        L->init[i][b] = c->kind[i] == 'i' ? (uint8_t)next_rand() : 0xA5;
      *a = (hg_launch_arg){.kind = HG_ARG_BUFFER, .mem = L->mem[i]};
    } else if (c->kind[i] == 'l') {
      *a = (hg_launch_arg){.kind = HG_ARG_LOCAL, .size = c->size[i]};
    } else {
      L->value[i] = (int)c->size[i];
      *a = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = 4, .value = &L->value[i]};
    }
  }
  L->launch = (hg_launch){.work_dim = c->work_dim, .num_args = c->nargs, .args = L->args};
  for (unsigned d = 0; d < 3; d++) {
    L->launch.global_size[d] = c->global[d];
    L->launch.local_size[d] = c->local[d];
  }
  return true;
}

static void reset_buffers(const kcase *c, loaded *L) {
  for (unsigned i = 0; i < c->nargs; i++)
    if (L->mem[i])
      L->be->ops->mem_write(L->be, L->mem[i], 0, c->size[i], L->init[i]);
}

/* The output buffers' bytes, concatenated. */
static uint8_t *outputs(const kcase *c, loaded *L, size_t *n) {
  size_t total = 0;
  for (unsigned i = 0; i < c->nargs; i++)
    total += c->kind[i] == 'o' || c->kind[i] == 'i' ? c->size[i] : 0;
  uint8_t *o = malloc(total ? total : 1), *p = o;
  for (unsigned i = 0; i < c->nargs; i++)
    if (L->mem[i]) {
      L->be->ops->mem_read(L->be, L->mem[i], 0, c->size[i], p);
      p += c->size[i];
    }
  *n = total;
  return o;
}

static void unload(const kcase *c, loaded *L) {
  for (unsigned i = 0; i < c->nargs; i++) {
    if (L->mem[i])
      L->be->ops->mem_free(L->be, L->mem[i]);
    free(L->init[i]);
  }
  if (L->kernel)
    L->be->ops->kernel_free(L->be, L->kernel);
  if (L->prog)
    L->be->ops->program_free(L->be, L->prog);
  hg_ir_state_layout_free(&L->layout);
  if (L->module)
    hg_ir_module_free(L->module);
}

/* What a stopped state looks like, for the log. */
typedef struct tally {
  unsigned stops, running_groups, at_loop, at_barrier, at_entry, done_items;
} tally;

static void count_state(const loaded *L, const hg_ir_ndrange_state *s, tally *t) {
  const hg_ir_function *k = &L->module->functions[hg_ir_find_function(L->module, s->kernel)];
  t->running_groups += s->num_running;
  for (uint32_t r = 0; r < s->num_running; r++)
    for (uint32_t i = 0; i < s->running[r].num_items; i++) {
      uint32_t sp = s->running[r].safepoint[i];
      if (sp == HG_WI_DONE)
        t->done_items++;
      else if (k->safepoints[sp].kind == HG_SAFEPOINT_LOOP_HEADER)
        t->at_loop++;
      else if (k->safepoints[sp].kind == HG_SAFEPOINT_BARRIER)
        t->at_barrier++;
      else
        t->at_entry++;
    }
}

/* Runs the kernel to its end, stopping at random checks and resuming each time. */
static bool run_stopped(const kcase *c, loaded *L, bool via_bytes, tally *t) {
  hg_stop_request req;
  atomic_init(&req.requested, false);
  hg_ir_ndrange_state *state = NULL;
  const hg_ir_function *k = &L->module->functions[hg_ir_find_function(L->module, c->kernel)];
  for (unsigned round = 0; round < 100000; round++) {
    hg_launch l = L->launch;
    l.stop = &req;
    l.stop_after = 1 + next_rand() % c->max_stop;
    hg_ir_ndrange_state *stopped = NULL;
    cl_int rc = L->be->ops->kernel_run(L->be, L->kernel, &l, state, &stopped, NULL);
    hg_ir_ndrange_state_free(state);
    state = NULL;
    if (rc == CL_SUCCESS)
      return true;
    if (rc != HG_LAUNCH_STOPPED || !stopped) {
      fprintf(stderr, "%s: kernel_run returned %d\n", c->name, rc);
      return false;
    }
    char why[256] = "";
    if (!hg_ir_ndrange_state_check(stopped, L->module, k, &L->layout, why, sizeof why)) {
      fprintf(stderr, "%s: the stopped state does not check: %s\n", c->name, why);
      hg_ir_ndrange_state_free(stopped);
      return false;
    }
    t->stops++;
    count_state(L, stopped, t);
    if (via_bytes && (round & 1)) {
      bytes b = {0};
      serialise(stopped, &b);
      hg_ir_ndrange_state_free(stopped);
      stopped = deserialise(&b, &L->layout);
      free(b.p);
      if (!stopped)
        return false;
    }
    state = stopped;
  }
  hg_ir_ndrange_state_free(state);
  fprintf(stderr, "%s: never finished\n", c->name);
  return false;
}

static void run_case(hg_backend *be, const kcase *c) {
  loaded L;
  bool ok = load(be, c, &L);
  CHECK(ok, "%s: loads and builds", c->name);
  if (!ok) {
    unload(c, &L);
    return;
  }
  reset_buffers(c, &L);
  cl_int rc = be->ops->kernel_launch(be, L.kernel, &L.launch, NULL);
  CHECK(rc == CL_SUCCESS, "%s: reference launch: %d", c->name, rc);
  size_t n_ref, n;
  uint8_t *ref = outputs(c, &L, &n_ref);
  for (int via_bytes = 0; via_bytes < 2; via_bytes++) {
    reset_buffers(c, &L);
    tally t = {0};
    bool done = run_stopped(c, &L, via_bytes, &t);
    uint8_t *out = outputs(c, &L, &n);
    CHECK(done && n == n_ref && !memcmp(out, ref, n), "%s%s: stopped and resumed = uninterrupted", c->name,
          via_bytes ? " (state through bytes)" : "");
    printf("%s%s: %u stops; running groups %u, work-items at loop headers %u, at barriers %u, at the entry %u, "
           "done %u\n",
           c->name, via_bytes ? " (bytes)" : "", t.stops, t.running_groups, t.at_loop, t.at_barrier, t.at_entry,
           t.done_items);
    CHECK(t.stops > 0, "%s: it did stop", c->name);
    free(out);
  }
  free(ref);
  unload(c, &L);
}

/* ---- kernel_stop from another thread -------------------------------------------------------- */
typedef struct stopper {
  hg_backend *be;
  hg_stop_request *req;
  unsigned delay_us;
  uint64_t stop_at_ns;
} stopper;

static void *stop_later(void *arg) {
  stopper *s = arg;
  struct timespec ts = {s->delay_us / 1000000, (long)(s->delay_us % 1000000) * 1000};
  nanosleep(&ts, NULL);
  s->stop_at_ns = now_ns();
  atomic_store(&s->req->requested, true);
  s->be->ops->kernel_stop(s->be, s->req);
  return NULL;
}

static const char persist_src[] =
    "__kernel void persist(__global const uint *in, __global uint *out, int n, int rounds) {\n"
    "  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "    uint h = in[i];\n"
    "    for (int r = 0; r < rounds; r++) h = (h ^ (h >> 7)) * 0x9E3779B1u + (uint)r;\n"
    "    out[i] = h;\n"
    "  }\n"
    "}\n";

/* the same with a barrier round per element block (stops between rounds, at a barrier) */
static const char persist_barrier_src[] =
    "__kernel void persist_bar(__global const uint *in, __global uint *out, __local uint *tmp, int n, int rounds) {\n"
    "  int l = get_local_id(0), ls = get_local_size(0);\n"
    "  for (int base = get_group_id(0) * ls; base < n; base += get_global_size(0)) {\n"
    "    uint h = in[base + l];\n"
    "    for (int r = 0; r < rounds; r++) h = (h ^ (h >> 7)) * 0x9E3779B1u + (uint)r;\n"
    "    tmp[l] = h;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[base + l] = tmp[(l + 1) % ls] ^ h;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "}\n";

static void persistent_kernel(hg_backend *be, bool barriers) {
  enum { N = 1 << 16 };
  kcase c = {.name = barriers ? "persistent grid-stride loop with barriers" : "persistent grid-stride loop",
             .src = barriers ? persist_barrier_src : persist_src,
             .kernel = barriers ? "persist_bar" : "persist",
             .work_dim = 1,
             .global = {160 * 32, 1, 1},
             .local = {32, 1, 1},
             .nargs = barriers ? 5 : 4,
             .kind = {'i', 'o', 'v', 'v'},
             .size = {N * 4, N * 4, N, 200}};
  if (barriers) {
    memcpy(c.kind, (char[]){'i', 'o', 'l', 'v', 'v'}, 5);
    memcpy(c.size, (size_t[]){N * 4, N * 4, 32 * 4, N, 200}, 5 * sizeof(size_t));
  }
  loaded L;
  bool ok = load(be, &c, &L);
  CHECK(ok, "%s: loads", c.name);
  if (!ok) {
    unload(&c, &L);
    return;
  }
  reset_buffers(&c, &L);
  uint64_t t0 = now_ns();
  CHECK(be->ops->kernel_launch(be, L.kernel, &L.launch, NULL) == CL_SUCCESS, "%s: reference", c.name);
  uint64_t full_ns = now_ns() - t0;
  size_t n_ref, n;
  uint8_t *ref = outputs(&c, &L, &n_ref);
  reset_buffers(&c, &L);
  hg_ir_ndrange_state *state = NULL;
  unsigned stops = 0;
  uint64_t worst_ns = 0, sum_ns = 0;
  /* up to 30 runs stopped 2-5 ms after they start, then one left alone to finish (a slow
   * host, e.g. under ThreadSanitizer, would otherwise never get to the end) */
  for (int attempt = 0; attempt <= 30; attempt++) {
    hg_stop_request req;
    atomic_init(&req.requested, false);
    hg_launch l = L.launch;
    l.stop = &req;
    bool last = attempt == 30;
    stopper s = {be, &req, 2000 + (unsigned)(next_rand() % 3000)};
    pthread_t th;
    if (!last)
      pthread_create(&th, NULL, stop_later, &s);
    hg_ir_ndrange_state *stopped = NULL;
    cl_int rc = be->ops->kernel_run(be, L.kernel, &l, state, &stopped, NULL);
    uint64_t end = now_ns();
    if (!last)
      pthread_join(th, NULL);
    hg_ir_ndrange_state_free(state);
    state = NULL;
    if (rc == HG_LAUNCH_STOPPED && stopped) {
      uint64_t lat = end > s.stop_at_ns ? end - s.stop_at_ns : 0;
      stops++;
      sum_ns += lat;
      if (lat > worst_ns)
        worst_ns = lat;
      state = stopped;
      continue;
    }
    CHECK(rc == CL_SUCCESS, "%s: kernel_run: %d", c.name, rc);
    break;
  }
  uint8_t *out = outputs(&c, &L, &n);
  CHECK(!state && n == n_ref && !memcmp(out, ref, n), "%s: stopped by kernel_stop and resumed = uninterrupted",
        c.name);
  CHECK(stops > 0, "%s: kernel_stop stopped it (uninterrupted run %.1f ms)", c.name, full_ns / 1e6);
  printf("%s: uninterrupted %.1f ms; %u stops by kernel_stop, from kernel_stop to kernel_run's return %.3f ms on "
         "average, %.3f ms at worst\n",
         c.name, full_ns / 1e6, stops, stops ? sum_ns / 1e6 / stops : 0.0, worst_ns / 1e6);
  hg_ir_ndrange_state_free(state);
  free(out);
  free(ref);
  unload(&c, &L);
}

/* ---- the cases ------------------------------------------------------------------------------ */
static const char loops_src[] =
    "__kernel void loops(__global const uint *in, __global uint *out, __global uint *count, int n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  uint x = in[g], acc = 0;\n"
    "  __global const uint *p = in + (g % 64);\n" /* a pointer live across the loops */
    "  int trips = (int)(x % 97) + n;\n"
    "  for (int i = 0; i < trips; i++) {\n"
    "    acc = acc * 31u + p[i % 64] + (uint)i;\n"
    "    for (int j = 0; j < (int)(acc & 3); j++) acc ^= acc >> (j + 1);\n"
    "    if ((acc & 255) == 7) atomic_inc(count);\n"
    "  }\n"
    "  out[g] = acc;\n"
    "}\n";

static const char barriers_src[] =
    "__kernel void smooth(__global const int *in, __global int *out, __local int *tmp, int rounds) {\n"
    "  __local int hist[16];\n"
    "  int l = get_local_id(0), n = get_local_size(0);\n"
    "  int v = in[get_global_id(0)];\n"
    "  if (l < 16) hist[l] = 0;\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    tmp[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int s = 0;\n"
    "    for (int k = -2; k <= 2; k++) s += tmp[(l + k + n) % n] * (k + 3);\n"
    "    v = s / 4 + r;\n"
    "    atomic_add(&hist[v & 15], 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[get_global_id(0)] = v * 16 + hist[l & 15];\n"
    "}\n";

static const char private_src[] =
    "__kernel void priv(__global const uint *in, __global uint *out, int n) {\n"
    "  uint a[24];\n"
    "  size_t g = get_global_id(0);\n"
    "  for (int i = 0; i < 24; i++) a[i] = in[(g + i) % 512] ^ (uint)i;\n"
    "  uint *p = a + (g % 8);\n" /* a pointer into the private array, live across the loop */
    "  for (int r = 0; r < n; r++) {\n"
    "    int k = (int)(p[r % 16] % 16);\n"
    "    p[k] += a[(r * 7) % 24] * 3u + (uint)r;\n"
    "    a[(k + r) % 24] ^= p[(k + 1) % 16];\n"
    "  }\n"
    "  uint s = 0;\n"
    "  for (int i = 0; i < 24; i++) s = s * 17u + a[i];\n"
    "  out[g] = s;\n"
    "}\n";

static const char two_d_src[] =
    "__kernel void tile(__global const int *in, __global int *out, int rounds) {\n"
    "  __local int t[8][8];\n"
    "  int x = get_local_id(0), y = get_local_id(1), w = get_global_size(0);\n"
    "  int gx = get_global_id(0), gy = get_global_id(1);\n"
    "  int acc = in[gy * w + gx];\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    t[y][x] = acc;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int s = 0;\n"
    "    for (int k = 0; k < 8; k++) s += t[k][(x + r) & 7] ^ k;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    acc = acc * 3 + s;\n"
    "  }\n"
    "  out[gy * w + gx] = acc;\n"
    "}\n";

int main(void) {
  const char *seed_env = getenv("HETGPU_TEST_SEED");
  uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : (now_ns() ^ ((uint64_t)getpid() << 32));
  rng = seed ? seed : 1;
  printf("seed %" PRIu64 " (HETGPU_TEST_SEED repeats it)\n", seed);
  simulator_stop();
  hg_backend *be = NULL;
  if (hg_riscv_probe(&be, 1) != 1 || !be->ops->kernel_run || !be->ops->kernel_stop) {
    printf("no riscv backend with kernel_run\n0 passed, 1 failed\n");
    return 1;
  }
  enum { N = 37 * 64 + 13, MANY = 2 * 16384 + 777 };
  const kcase cases[] = {
      {"loops without barriers (ragged groups)", loops_src, "loops", 1, {N, 1, 1}, {64, 1, 1}, 4,
       {'i', 'o', 'o', 'v'}, {N * 4, N * 4, 4, 20 + next_rand() % 40}, 400},
      {"barriers in a loop, local memory", barriers_src, "smooth", 1, {96 * 24, 1, 1}, {96, 1, 1}, 4,
       {'i', 'o', 'l', 'v'}, {96 * 24 * 4, 96 * 24 * 4, 96 * 4, 6 + next_rand() % 6}, 12},
      {"private arrays", private_src, "priv", 1, {40 * 32 + 5, 1, 1}, {32, 1, 1}, 3, {'i', 'o', 'v'},
       {4096, (40 * 32 + 5) * 4, 30 + next_rand() % 30}, 300},
      {"2-D groups, barriers and a static __local array", two_d_src, "tile", 2, {48, 40, 1}, {8, 8, 1}, 3,
       {'i', 'o', 'v'}, {48 * 40 * 4, 48 * 40 * 4, 4 + next_rand() % 5}, 8},
      /* more groups than the backend hands the simulator at once (BATCH_GROUPS, 16384): stops
       * land in later batches, the earlier ones done, the later ones not started */
      {"more groups than one batch", loops_src, "loops", 1, {MANY, 1, 1}, {1, 1, 1}, 4, {'i', 'o', 'o', 'v'},
       {MANY * 4, MANY * 4, 4, 4 + next_rand() % 8}, 400000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_case(be, &cases[i]);
  persistent_kernel(be, false);
  persistent_kernel(be, true);
  be->ops->destroy(be);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
