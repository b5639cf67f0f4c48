/* Launches: job i runs on core i % ncores, each core's jobs in order. Host threads (the
 * machine's pool, pool.c, plus the caller) take whole cores from a shared counter, so which
 * thread runs a core never changes what the core computes or counts: a core's state, cycle
 * counters and output are its own. The fault
 * reported is the one of the lowest-numbered faulting job; output is concatenated per job in
 * job order. A job past its guard or the launch's time limit cuts the launch short (guard.c). */
#include <time.h>
#include <fenv.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/sim/fp.h"
#include "devices/riscv/sim/sim_internal.h"

typedef struct job_out {
  char *buf;
  size_t len;
  bool truncated;
} job_out;

typedef struct launch_ctx {
  hg_sim_machine *m;
  hg_sim_launch *l;
  job_out *outs;
  hg_sim_job_result *results;
  unsigned active;
  atomic_uint next;
  hg_sim_stop_state stop;
} launch_ctx;

static void reset_views(hg_sim_core *c) {
  /* an empty view is the L1 window itself: the fast path checks L1 first, so it never hits.
   * Only the slots filled by the last launch need it (the ranges change between launches). */
  for (unsigned w = 0; w < HG_SIM_VIEW_SLOTS / 64; w++) {
    for (uint64_t used = c->views_used[w]; used; used &= used - 1)
      c->views[w * 64 + __builtin_ctzll(used)] =
          (hg_sim_view){HG_SIM_L1_BASE, c->l1_lim, c->l1, &c->tariff[HG_SIM_VIEW_CODE]};
    c->views_used[w] = 0;
  }
}

static void run_job(launch_ctx *x, hg_sim_core *c, size_t j) {
  const hg_sim_job *job = &x->l->jobs[j];
  memset(c->x, 0, sizeof c->x);
  memset(c->f, 0, sizeof c->f);
  c->x[1] = HG_SIM_RETURN_ADDR;
  c->x[2] = job->sp ? job->sp : HG_SIM_L1_BASE + x->m->cfg.l1_size;
  memcpy(&c->x[10], job->a, sizeof job->a);
  c->pc = job->pc;
  c->fflags = 0;
  c->frm = 0;
  c->resv_size = 0;
  c->job = j;
  c->out_len = 0;
  c->out_truncated = false;
  memset(&c->fault, 0, sizeof c->fault);
  fesetround(FE_TONEAREST);
  feclearexcept(FE_ALL_EXCEPT);
  int rc = hg_sim_interp(c, NULL);
  hg_sim_job_result *r = &x->results[j];
  r->status = rc == 0 ? HG_SIM_JOB_DONE : rc > 0 ? HG_SIM_JOB_CUT : HG_SIM_JOB_FAULT;
  r->ret[0] = c->x[10];
  r->ret[1] = c->x[11];
  r->fflags = c->fflags | hg_host_fflags();
  if (rc < 0) {
    c->fault.core = c->index;
    c->fault.job = j;
  }
  x->outs[j].buf = c->out; /* the job's output moves to the launch */
  x->outs[j].len = c->out_len;
  x->outs[j].truncated = c->out_truncated;
  c->out = NULL;
  c->out_len = c->out_cap = 0;
}

static void run_core(launch_ctx *x, unsigned k) {
  hg_sim_core *c = &x->m->cores[k];
  for (size_t j = k; j < x->l->njobs; j += x->m->ncores) {
    if (hg_sim_stopping(&x->stop) || atomic_load(&x->stop.cut)) break; /* a stopping or cut launch starts no job */
    run_job(x, c, j);
    c->jobs_done++;
    if (x->results[j].status != HG_SIM_JOB_DONE) break; /* the core stops; its later jobs do not run */
  }
}

static void worker(void *arg) {
  launch_ctx *x = arg;
  for (;;) {
    unsigned k = atomic_fetch_add(&x->next, 1);
    if (k >= x->active) break;
    run_core(x, k);
  }
}

int hg_sim_run(hg_sim_machine *m, hg_sim_launch *l) {
  l->out = NULL;
  l->out_len = 0;
  l->out_truncated = false;
  memset(&l->fault, 0, sizeof l->fault);
  l->max_cycles = 0;
  if (l->njobs && !l->jobs) return HG_SIM_EINVAL;
  if (l->nranges > HG_SIM_MAX_RANGES || (l->nranges && !l->ranges)) return HG_SIM_EINVAL;
  for (size_t i = 0; i < l->nranges; i++) {
    const hg_sim_range *r = &l->ranges[i];
    uint64_t o = r->l1 ? r->base : r->base - HG_SIM_DRAM_BASE, room = r->l1 ? m->cfg.l1_size : m->cfg.dram_size;
    if (!r->size || (!r->l1 && r->base < HG_SIM_DRAM_BASE) || o > room || r->size > room - o ||
        r->window > HG_SIM_MAX_WINDOW || (r->l1 && !r->window))
      return HG_SIM_EINVAL;
  }
  l->stopped = false;
  launch_ctx x = {.m = m, .l = l};
  x.stop.ext = l->stop;
  x.stop.after = l->stop_after;
  atomic_init(&x.stop.now, false);
  atomic_init(&x.stop.polls, 0);
  atomic_init(&x.stop.cut, false);
  x.outs = calloc(l->njobs ? l->njobs : 1, sizeof *x.outs);
  x.results = l->results ? l->results : calloc(l->njobs ? l->njobs : 1, sizeof *x.results);
  if (!x.outs || !x.results) {
    free(x.outs);
    if (!l->results) free(x.results);
    return HG_SIM_ENOMEM;
  }
  memset(x.results, 0, (l->njobs ? l->njobs : 1) * sizeof *x.results);

  pthread_mutex_lock(&m->lock);
  x.stop.guard_cycles = l->max_cycles_per_job ? l->max_cycles_per_job : m->cfg.max_cycles_per_job;
  x.stop.time_limit_ns = l->time_limit_ns;
  if (l->time_limit_ns) { /* counted from here: the launch has the machine */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    x.stop.deadline_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + l->time_limit_ns;
  }
  x.active = l->njobs < m->ncores ? (unsigned)l->njobs : m->ncores;
  for (unsigned k = 0; k < m->ncores; k++) {
    hg_sim_core *c = &m->cores[k];
    c->insns = c->extra = c->l1_bytes = c->dram_reads = c->dram_writes = c->noc_bytes = 0;
    for (unsigned t = 0; t < HG_SIM_VIEW_KINDS; t++)
      memset(c->tariff[t].acc, 0, sizeof c->tariff[t].acc);
    c->jobs_done = 0;
    c->ranges = l->ranges;
    c->nranges = l->nranges;
    c->njobs = l->njobs;
    c->stop = &x.stop;
    reset_views(c);
  }
  atomic_init(&x.next, 0);
  unsigned nthreads = m->threads < x.active ? m->threads : x.active;
  fenv_t saved;
  fegetenv(&saved); /* the calling thread simulates too: give it back its own FP environment */
  hg_sim_pool_run(&m->pool, nthreads ? nthreads - 1 : 0, worker, &x);
  fesetenv(&saved);
  l->stopped = atomic_load(&x.stop.now);

  int rc = HG_SIM_OK;
  for (size_t j = 0; j < l->njobs; j++) {
    if (x.results[j].status == HG_SIM_JOB_FAULT) {
      l->fault = m->cores[j % m->ncores].fault;
      rc = HG_SIM_EFAULT;
      break;
    }
  }
  for (unsigned k = 0; k < m->ncores; k++) {
    hg_sim_core *c = &m->cores[k];
    uint64_t cycles = c->insns + c->extra;
    if (cycles > l->max_cycles) l->max_cycles = cycles;
    if (l->stats) {
      uint64_t rd = c->dram_reads, wr = c->dram_writes, bytes = c->noc_bytes, l1_bytes = c->l1_bytes;
      const hg_sim_tariff *d = &c->tariff[HG_SIM_VIEW_DRAM], *w = &c->tariff[HG_SIM_VIEW_L1];
      for (unsigned s = 0; s < 4; s++) {
        rd += d->acc[0][s];
        wr += d->acc[1][s];
        bytes += (d->acc[0][s] + d->acc[1][s]) << s;
        l1_bytes += (w->acc[0][s] + w->acc[1][s]) << s;
      }
      /* each access is a request flit and a response (or data) flit */
      l->stats[k] = (hg_sim_core_stats){c->jobs_done, c->insns, cycles, l1_bytes, rd, wr, bytes, 2 * (rd + wr)};
    }
  }
  pthread_mutex_unlock(&m->lock);

  size_t total = 0;
  for (size_t j = 0; j < l->njobs; j++) total += x.outs[j].len;
  if (total) {
    l->out = malloc(total + 1);
    if (l->out) {
      for (size_t j = 0; j < l->njobs; j++) {
        memcpy(l->out + l->out_len, x.outs[j].buf, x.outs[j].len);
        l->out_len += x.outs[j].len;
      }
      l->out[l->out_len] = 0;
    } else {
      rc = rc ? rc : HG_SIM_ENOMEM;
    }
  }
  for (size_t j = 0; j < l->njobs; j++) {
    l->out_truncated |= x.outs[j].truncated;
    free(x.outs[j].buf);
  }
  free(x.outs);
  if (!l->results) free(x.results);
  return rc;
}
