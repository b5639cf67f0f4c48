/* bench-stop: what stopping kernels at safe points costs and how fast it is, on every backend,
 * below the OpenCL API (the ops table, devices/backend.h; docs/safe-points.md).
 *
 *  1. Steady state: each bench kernel (bench_kernels_src.h) launched in its stoppable form
 *     (kernel_run, nobody asking it to stop) against its plain form (kernel_launch), on the
 *     same buffers, rounds interleaved, best round of each kept: the ratio is the price of
 *     being stoppable (goal: at most 1.02).
 *  2. Time to stop: a persistent kernel (one launch, a grid-stride loop for seconds, no
 *     barrier) is asked to stop (kernel_stop); the time until kernel_run has returned with its
 *     captured state (goal: within 1 ms), and the state's size.
 *  3. Resume: that state resumed on every backend, asked to stop again at once (restore and
 *     capture again: the time against the floor of copying the state's bytes twice with
 *     memcpy); on the backend that stopped it, also resumed to the end, where the buffer must
 *     equal the host's computation (another backend may be far slower at the rounds
 *     calibrated here; the tests finish moved kernels everywhere).
 * Usage: bench-stop [BACKEND...] (HETGPU_BACKEND's syntax; default: every backend). The RISC-V
 * simulator gets the same kernels on a range 16 times smaller. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_kernels_src.h"
#include "devices/backend.h"
#include "ir/ndrange_state.h"
#include "lowering/frontend.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, cl_int err) {
  fprintf(stderr, "bench-stop: %s failed: %d\n", what, err);
  exit(1);
}

static const char *persist_src =
    "__kernel void persist(__global uint *buf, uint n, uint rounds) {\n"
    "  for (uint r = 0; r < rounds; r++)\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "      buf[i] = buf[i] * 1664525u + 1013904223u + r;\n"
    "}\n";

/* One argument of a case: a buffer of `bytes` (filled with small floats), __local bytes, or a value. */
typedef struct arg_spec {
  char kind; /* 'b' buffer, 'l' local, 'i' int, 'f' float */
  size_t bytes;
  int ival;
  float fval;
} arg_spec;

typedef struct bench_case {
  const char *name;
  unsigned dim;
  size_t global[2], local[2];
  unsigned nargs;
  arg_spec args[6];
} bench_case;

/* The bench-kernels shapes at scale 1; `div` shrinks the range (and the buffers with it). */
static bench_case make_case(int which, size_t div) {
  size_t n = (size_t)1 << 22, mm = 512 / (div > 1 ? 4 : 1), w = 1024 / (div > 1 ? 4 : 1), bodies = 4096 / div;
  n /= div;
  switch (which) {
  case 0:
    return (bench_case){"vadd", 1, {n, 1}, {256, 1}, 3, {{'b', n * 4}, {'b', n * 4}, {'b', n * 4}}};
  case 1:
    return (bench_case){"sgemm", 2, {mm, mm}, {16, 16}, 4,
                        {{'b', mm * mm * 4}, {'b', mm * mm * 4}, {'b', mm * mm * 4}, {'i', 0, (int)mm}}};
  case 2:
    return (bench_case){"reduce", 1, {n, 1}, {256, 1}, 3, {{'b', n * 4}, {'b', n / 256 * 4}, {'l', 1024}}};
  case 3:
    return (bench_case){"stencil", 2, {w, w}, {16, 16}, 4,
                        {{'b', w * w * 4}, {'b', w * w * 4}, {'i', 0, (int)w}, {'i', 0, (int)w}}};
  default:
    return (bench_case){"nbody", 1, {bodies, 1}, {256, 1}, 6,
                        {{'b', bodies * 16}, {'b', bodies * 16}, {'b', bodies * 16}, {'b', bodies * 16},
                         {'i', 0, (int)bodies}, {'f', 0, 0, 0.01f}}};
  }
}

typedef struct prepared {
  hg_launch launch;
  hg_launch_arg args[6];
  hg_dev_mem *mems[6];
} prepared;

static void prepare(hg_backend *be, const bench_case *c, prepared *p) {
  memset(p, 0, sizeof *p);
  for (unsigned i = 0; i < c->nargs; i++) {
    const arg_spec *a = &c->args[i];
    hg_launch_arg *l = &p->args[i];
    if (a->kind == 'b') {
      cl_int err = be->ops->mem_alloc(be, a->bytes, &p->mems[i]);
      if (err)
        die("mem_alloc", err);
      float *init = malloc(a->bytes);
      for (size_t k = 0; k < a->bytes / 4; k++)
        init[k] = (float)(k % 97) * 0.01f;
      be->ops->mem_write(be, p->mems[i], 0, a->bytes, init);
      free(init);
      *l = (hg_launch_arg){.kind = HG_ARG_BUFFER, .mem = p->mems[i]};
    } else if (a->kind == 'l') {
      *l = (hg_launch_arg){.kind = HG_ARG_LOCAL, .size = a->bytes};
    } else {
      *l = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = 4, .value = a->kind == 'i' ? (const void *)&a->ival
                                                                                   : (const void *)&a->fval};
    }
  }
  p->launch = (hg_launch){.work_dim = c->dim, .num_args = c->nargs, .args = p->args};
  for (unsigned d = 0; d < 3; d++) {
    p->launch.global_size[d] = d < c->dim ? c->global[d] : 1;
    p->launch.local_size[d] = d < c->dim ? c->local[d] : 1;
  }
}

static void release(hg_backend *be, prepared *p) {
  for (unsigned i = 0; i < 6; i++)
    if (p->mems[i])
      be->ops->mem_free(be, p->mems[i]);
}

static hg_dev_kernel *build(hg_backend *be, const hg_ir_module *m, const char *name, hg_dev_program **prog) {
  char *log = NULL;
  cl_int err = be->ops->program_build(be, m, NULL, "", prog, &log);
  if (err) {
    fprintf(stderr, "%s", log ? log : "");
    die("program_build", err);
  }
  free(log);
  hg_dev_kernel *k;
  if ((err = be->ops->kernel_create(be, *prog, name, &k)))
    die("kernel_create", err);
  /* a fresh launch whose forms are still being built (in the background on GPUs and beside SPIR
   * or PTX programs) runs plain: wait for them, or the "stoppable" figures are the plain ones */
  if (be->ops->kernel_stoppable && !be->ops->kernel_stoppable(be, k, true))
    printf("       %-8s no stoppable form here: its launches run plain\n", name);
  return k;
}

static hg_stop_request no_stop; /* never requested: the steady state */

/* Seconds for `iters` launches of one form; *dev gets the device time when the backend knows it. */
static double run_form(hg_backend *be, hg_dev_kernel *k, prepared *p, bool stoppable, int iters, double *dev) {
  uint64_t ns = 0, total = 0;
  double t0 = now_s();
  for (int i = 0; i < iters; i++) {
    cl_int err;
    if (stoppable) {
      hg_ir_ndrange_state *st = NULL;
      p->launch.stop = &no_stop;
      err = be->ops->kernel_run(be, k, &p->launch, NULL, &st, &ns);
      hg_ir_ndrange_state_free(st);
    } else {
      err = be->ops->kernel_launch(be, k, &p->launch, &ns);
    }
    if (err)
      die(stoppable ? "kernel_run" : "kernel_launch", err);
    total += ns;
  }
  *dev = total * 1e-9 / iters;
  return (now_s() - t0) / iters;
}

static void steady_state(hg_backend *be, const hg_ir_module *m, bool small) {
  for (int which = 0; which < 5; which++) {
    bench_case c = make_case(which, small ? 16 : 1);
    hg_dev_program *prog;
    hg_dev_kernel *k = build(be, m, c.name, &prog);
    prepared p;
    prepare(be, &c, &p);
    double best[2] = {1e30, 1e30}, best_dev[2] = {1e30, 1e30}, dev;
    int iters = small ? 2 : 10;
    run_form(be, k, &p, false, 1, &dev); /* warm both: first-launch costs are not steady state */
    run_form(be, k, &p, true, 1, &dev);
    for (int round = 0; round < 5; round++)
      for (int form = 0; form < 2; form++) {
        double t = run_form(be, k, &p, form, iters, &dev);
        if (t < best[form])
          best[form] = t;
        if (dev > 0 && dev < best_dev[form])
          best_dev[form] = dev;
      }
    fflush(stdout);
    printf("steady %-8s wall   plain %10.4f ms  stoppable %10.4f ms  ratio %.3f\n", c.name, best[0] * 1e3,
           best[1] * 1e3, best[1] / best[0]);
    if (best_dev[0] < 1e30 && best_dev[1] < 1e30)
      printf("steady %-8s device plain %10.4f ms  stoppable %10.4f ms  ratio %.3f\n", c.name, best_dev[0] * 1e3,
             best_dev[1] * 1e3, best_dev[1] / best_dev[0]);
    release(be, &p);
    be->ops->kernel_free(be, k);
    be->ops->program_free(be, prog);
  }
}

/* ---- time to stop, and resume elsewhere ---- */

typedef struct stop_run {
  hg_backend *be;
  hg_dev_kernel *k;
  hg_launch *launch;
  const hg_ir_ndrange_state *resume;
  hg_ir_ndrange_state *stopped;
  cl_int err;
  double returned;
} stop_run;

static void *run_thread(void *arg) {
  stop_run *r = arg;
  r->err = r->be->ops->kernel_run(r->be, r->k, r->launch, r->resume, &r->stopped, NULL);
  r->returned = now_s();
  return NULL;
}

static uint64_t state_bytes(const hg_ir_ndrange_state *s) {
  uint64_t b = s->num_groups;
  for (uint32_t i = 0; i < s->num_running; i++)
    b += (uint64_t)s->running[i].num_items * (4 + s->value_stride + s->private_size) + s->local_bytes;
  return b;
}

static double memcpy_rate(void) {
  size_t n = 64 << 20;
  char *a = malloc(n), *b = malloc(n);
  memset(a, 1, n), memset(b, 2, n);
  double best = 1e30;
  for (int i = 0; i < 3; i++) {
    double t0 = now_s();
    memcpy(b, a, n);
    double t = now_s() - t0;
    if (t < best)
      best = t;
  }
  free(a), free(b);
  return n / best;
}

/* The persistent kernel's parameters per backend: enough rounds to run for seconds. */
#define P_N 65536u

static void lcg_ref(uint32_t *buf, uint32_t rounds) {
  for (uint32_t i = 0; i < P_N; i++) {
    uint32_t x = buf[i];
    for (uint32_t r = 0; r < rounds; r++)
      x = x * 1664525u + 1013904223u + r;
    buf[i] = x;
  }
}

static void time_to_stop(hg_backend *be, const hg_ir_module *m, hg_backend **all, unsigned nall, double floor_rate) {
  bool sim = !strcmp(be->ops->kind, "riscv");
  uint32_t n = P_N, rounds = sim ? 20 : 200;
  size_t global = sim ? 80 * 64 : 65536, local = 64;
  hg_dev_program *prog;
  hg_dev_kernel *k = build(be, m, "persist", &prog);
  uint32_t *init = malloc(n * 4), *got = malloc(n * 4);
  for (uint32_t i = 0; i < n; i++)
    init[i] = i * 2654435761u;
  { /* rounds for a launch of about two seconds, from a short plain one */
    hg_dev_mem *mem;
    if (be->ops->mem_alloc(be, n * 4, &mem))
      die("mem_alloc", -1);
    hg_launch_arg args[3] = {{.kind = HG_ARG_BUFFER, .mem = mem}, {.kind = HG_ARG_VALUE, .size = 4, .value = &n},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &rounds}};
    hg_launch probe = {.work_dim = 1, .global_size = {global, 1, 1}, .local_size = {local, 1, 1}, .num_args = 3,
                       .args = args};
    be->ops->kernel_launch(be, k, &probe, NULL); /* warm */
    double t0 = now_s();
    be->ops->kernel_launch(be, k, &probe, NULL);
    double t = now_s() - t0, want = 2.0 * rounds / (t > 1e-6 ? t : 1e-6);
    rounds = want > 4e9 ? 4000000000u : want < 1 ? 1 : (uint32_t)want;
    be->ops->mem_free(be, mem);
  }
  double lat[3];
  int runs = 0;
  for (int rep = 0; rep < 3; rep++) {
    hg_dev_mem *mem;
    if (be->ops->mem_alloc(be, n * 4, &mem))
      die("mem_alloc", -1);
    be->ops->mem_write(be, mem, 0, n * 4, init);
    hg_launch_arg args[3] = {{.kind = HG_ARG_BUFFER, .mem = mem}, {.kind = HG_ARG_VALUE, .size = 4, .value = &n},
                             {.kind = HG_ARG_VALUE, .size = 4, .value = &rounds}};
    hg_stop_request stop;
    atomic_init(&stop.requested, false);
    hg_launch launch = {.work_dim = 1, .global_size = {global, 1, 1}, .local_size = {local, 1, 1}, .num_args = 3,
                        .args = args, .stop = &stop};
    stop_run r = {.be = be, .k = k, .launch = &launch};
    pthread_t t;
    pthread_create(&t, NULL, run_thread, &r);
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    double asked = now_s();
    atomic_store(&stop.requested, true);
    be->ops->kernel_stop(be, &stop);
    pthread_join(t, NULL);
    if (r.err != HG_LAUNCH_STOPPED || !r.stopped) {
      printf("stop   %-8s the launch ended (%d) before it was asked to stop: more rounds needed\n", "persist", r.err);
      be->ops->mem_free(be, mem);
      hg_ir_ndrange_state_free(r.stopped);
      continue;
    }
    lat[runs++] = r.returned - asked;
    if (rep == 0) { /* resume it on every backend: once stopped again at once, once to the end */
      uint64_t bytes = state_bytes(r.stopped);
      printf("stop   state: %u of %llu groups running, %llu bytes (%u value + %u frame bytes per work-item, %u local)\n",
             r.stopped->num_running, (unsigned long long)r.stopped->num_groups, (unsigned long long)bytes,
             r.stopped->value_stride, r.stopped->private_size, r.stopped->local_bytes);
      uint32_t *want = malloc(n * 4);
      memcpy(want, init, n * 4);
      lcg_ref(want, rounds);
      be->ops->mem_read(be, mem, 0, n * 4, got);
      for (unsigned ti = 0; ti < nall; ti++) {
        hg_backend *to = all[ti];
        if (!to->ops->kernel_run)
          continue;
        hg_dev_program *tprog;
        hg_dev_kernel *tk = build(to, m, "persist", &tprog);
        hg_dev_mem *tmem;
        if (to->ops->mem_alloc(to, n * 4, &tmem))
          die("mem_alloc", -1);
        to->ops->mem_write(to, tmem, 0, n * 4, got);
        hg_launch_arg targs[3] = {{.kind = HG_ARG_BUFFER, .mem = tmem}, args[1], args[2]};
        hg_stop_request again;
        atomic_init(&again.requested, true);
        hg_launch tl = launch;
        tl.args = targs;
        tl.stop = &again;
        double t0 = now_s();
        hg_ir_ndrange_state *st2 = NULL;
        cl_int e2 = to->ops->kernel_run(to, tk, &tl, r.stopped, &st2, NULL);
        double round_trip = now_s() - t0;
        const char *verdict = "not run to the end here";
        hg_ir_ndrange_state *st3 = NULL;
        if (to == be) { /* the buffer moved on a little before the second stop: finish from that state */
          atomic_store(&again.requested, false);
          cl_int e3 = to->ops->kernel_run(to, tk, &tl, e2 == HG_LAUNCH_STOPPED ? st2 : r.stopped, &st3, NULL);
          uint32_t *fin = malloc(n * 4);
          memset(fin, 0xA5, n * 4);
          to->ops->mem_read(to, tmem, 0, n * 4, fin);
          verdict = e3 == CL_SUCCESS && !memcmp(fin, want, n * 4) ? "finished equal to the host" : "finished WRONG";
          free(fin);
        }
        printf("resume %-40.40s restore+capture %8.3f ms (floor %.3f ms: the state copied twice), %s\n", to->name,
               round_trip * 1e3, 2.0 * bytes / floor_rate * 1e3, verdict);
        fflush(stdout);
        hg_ir_ndrange_state_free(st2);
        hg_ir_ndrange_state_free(st3);
        to->ops->mem_free(to, tmem);
        to->ops->kernel_free(to, tk);
        to->ops->program_free(to, tprog);
      }
      free(want);
    }
    hg_ir_ndrange_state_free(r.stopped);
    be->ops->mem_free(be, mem);
  }
  if (runs) {
    double worst = 0, sum = 0;
    for (int i = 0; i < runs; i++)
      sum += lat[i], worst = lat[i] > worst ? lat[i] : worst;
    printf("stop   %-8s time to stop (request -> state captured): mean %.3f ms, worst %.3f ms of %d (goal 1 ms)\n",
           "persist", sum / runs * 1e3, worst * 1e3, runs);
  }
  free(init), free(got);
  be->ops->kernel_free(be, k);
  be->ops->program_free(be, prog);
}

static hg_ir_module *compile(const char *src) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int err = hg_frontend_source_to_ir(src, "", NULL, 0, false, &m, &log);
  if (err) {
    fprintf(stderr, "%s", log ? log : "");
    die("front end", err);
  }
  free(log);
  return m;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* whatever a time limit cuts off, the lines so far stay */
  if (hg_backends_init() != CL_SUCCESS)
    die("hg_backends_init", CL_DEVICE_NOT_FOUND);
  hg_backend *all[16];
  unsigned nall = 0;
  for (unsigned i = 0; i < hg_backend_count() && nall < 16; i++)
    all[nall++] = hg_backend_at(i);
  hg_ir_module *kernels = compile(hg_bench_kernels_src), *persist = compile(persist_src);
  double rate = memcpy_rate();
  printf("host memcpy %.1f GB/s (the floor of capture and restore)\n", rate / 1e9);
  for (unsigned i = 0; i < nall; i++) {
    hg_backend *be = all[i];
    bool wanted = argc < 2;
    for (int a = 1; a < argc; a++)
      wanted |= hg_backend_find(argv[a]) == be;
    if (!wanted)
      continue;
    if (!be->ops->kernel_run) {
      printf("== %s: no stoppable form\n", be->name);
      continue;
    }
    bool sim = !strcmp(be->ops->kind, "riscv");
    printf("== %s%s\n", be->name, sim ? " (ranges 16 times smaller)" : "");
    steady_state(be, kernels, sim);
    time_to_stop(be, persist, all, nall, rate);
  }
  hg_ir_module_free(kernels);
  hg_ir_module_free(persist);
  return 0;
}
