/* The interpreter's out-of-line helpers: Zicsr accesses, runtime services (ecall), the
 * condition of far branches. */
#include <stdlib.h>

#include "devices/riscv/sim/fp.h"
#include "devices/riscv/sim/sim_internal.h"

/* Zicsr: fflags, frm, fcsr (read/write), cycle, time, instret (read-only). Returns 0, or -1
 * for an illegal access. */
int hg_sim_csr_access(hg_sim_core *c, unsigned csr, unsigned kind, uint64_t val, bool write, uint64_t now_insns,
                      uint64_t now_extra, uint64_t *old) {
  uint32_t flags = c->fflags | hg_host_fflags();
  uint64_t cur;
  switch (csr) {
  case 0x001: cur = flags; break;
  case 0x002: cur = c->frm; break;
  case 0x003: cur = flags | (c->frm << 5); break;
  case 0xc00: case 0xc01: cur = now_insns + now_extra + c->extra; break;
  case 0xc02: cur = now_insns; break;
  default: return -1;
  }
  *old = cur;
  if (!write) return 0;
  if (csr >= 0xc00) return -1;
  uint64_t nv = kind == 0 ? val : kind == 1 ? (cur | val) : (cur & ~val);
  uint32_t nflags = flags, nfrm = c->frm;
  if (csr == 0x001) nflags = nv & 31;
  else if (csr == 0x002) nfrm = nv & 7;
  else { nflags = nv & 31; nfrm = (nv >> 5) & 7; }
  feclearexcept(FE_ALL_EXCEPT);
  c->fflags = nflags;
  if (nfrm != c->frm) {
    c->frm = nfrm;
    fesetround(hg_host_rm(nfrm));
  }
  return 0;
}

/* write(fd, buf, len) into the job's output buffer. */
static int svc_write(hg_sim_core *c) {
  uint64_t fd = c->x[10], buf = c->x[11], len = c->x[12];
  if (fd != 1 && fd != 2) return -1;
  if (!len) { c->x[10] = 0; return 0; }
  const uint8_t *p = hg_sim_slow_access(c, buf, len, false, true, HG_SIM_VIEW_SLOTS);
  if (!p) return -1;
  uint64_t limit = c->m->cfg.max_output;
  size_t take = len;
  if (c->out_len + take > limit) {
    take = c->out_len < limit ? limit - c->out_len : 0;
    c->out_truncated = true;
  }
  if (c->out_len + take > c->out_cap) {
    size_t cap = c->out_cap ? c->out_cap : 256;
    while (cap < c->out_len + take) cap *= 2;
    char *n = realloc(c->out, cap);
    if (!n) return -1;
    c->out = n;
    c->out_cap = cap;
  }
  memcpy(c->out + c->out_len, p, take);
  c->out_len += take;
  c->x[10] = len;
  return 0;
}

bool hg_sim_stopping(hg_sim_stop_state *s) {
  if (atomic_load_explicit(&s->now, memory_order_relaxed))
    return true;
  if (s->ext && atomic_load_explicit(s->ext, memory_order_acquire)) {
    atomic_store(&s->now, true);
    return true;
  }
  return false;
}

/* STOP_POLL: a safe-point check of the generated code. Counting polls (stop_after) is a test
 * setting: the launch stops at exactly its N-th poll, whichever core makes it. */
static uint64_t stop_poll(hg_sim_core *c) {
  hg_sim_stop_state *s = c->stop;
  if (hg_sim_stopping(s))
    return 1;
  if (s->after && atomic_fetch_add_explicit(&s->polls, 1, memory_order_relaxed) + 1 >= s->after) {
    atomic_store(&s->now, true);
    return 1;
  }
  return 0;
}

/* Runtime services. Returns 0 to continue, 1 when the job ends, -1 for a fault (c->fault.kind
 * and addr set). */
int hg_sim_ecall(hg_sim_core *c) {
  uint64_t svc = c->x[17];
  switch (svc) {
  case HG_SIM_SVC_WRITE:
    if (svc_write(c) == 0) return 0;
    c->fault.kind = HG_SIM_FAULT_ECALL;
    c->fault.addr = svc;
    return -1;
  case HG_SIM_SVC_EXIT:
  case HG_SIM_SVC_EXIT_GROUP: return 1;
  case HG_SIM_SVC_CORE_INFO:
    c->x[10] = c->index;
    c->x[11] = c->gx;
    c->x[12] = c->gy;
    c->x[13] = c->m->ncores;
    return 0;
  case HG_SIM_SVC_JOB_INFO:
    c->x[10] = c->job;
    c->x[11] = c->njobs;
    return 0;
  case HG_SIM_SVC_STOP_POLL:
    c->x[10] = stop_poll(c);
    return 0;
  case HG_SIM_SVC_ABORT:
    c->fault.kind = HG_SIM_FAULT_ABORT;
    c->fault.addr = c->x[10];
    return -1;
  default:
    c->fault.kind = HG_SIM_FAULT_ECALL;
    c->fault.addr = svc;
    return -1;
  }
}

bool hg_sim_branch_taken(unsigned f3, uint64_t a, uint64_t b) {
  switch (f3) {
  case 0: return a == b;
  case 1: return a != b;
  case 4: return (int64_t)a < (int64_t)b;
  case 5: return (int64_t)a >= (int64_t)b;
  case 6: return a < b;
  default: return a >= b;
  }
}

