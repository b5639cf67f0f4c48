/* The machine: configuration, the grid of cores with their L1 memories, device DRAM, the
 * cost tables of the NoC model, code segments and their predecoded form, a DRAM allocator. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "devices/riscv/sim/sim_internal.h"

static const hg_sim_costs default_costs = {
    .branch_taken = 1, .mul = 2,       .div = 33,       .div_w = 17,     .fp_add = 3,
    .fp_mul = 3,       .fp_fma = 4,    .fp_div_s = 13,  .fp_div_d = 23,  .fp_sqrt_s = 13,
    .fp_sqrt_d = 23,   .fp_cvt = 2,    .fp_move = 1,    .l1_load = 1,    .l1_store = 0,
    .csr = 1,          .ecall = 10,    .noc_hop = 9,    .dram_latency = 100, .dram_store = 4,
};

void hg_sim_default_config(hg_sim_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->grid_w = 8;
  cfg->grid_h = 10;
  cfg->l1_size = 1464 * 1024;
  cfg->dram_size = 1ull << 30;
  cfg->dram_channels = 6;
  cfg->max_cycles_per_job = HG_SIM_DEFAULT_GUARD_CYCLES;
  cfg->max_output = 1 << 20;
  cfg->costs = default_costs;
}

/* DRAM controllers sit just outside the grid, alternating west (x = -1) and east (x = w),
 * spread evenly over the rows. XY routing: hops = Manhattan distance. Addresses interleave
 * over the channels in 2 KiB blocks (a 64-entry table keeps the fast path free of division). */
static void set_dram_costs(hg_sim_machine *m, hg_sim_core *c) {
  unsigned nch = m->cfg.dram_channels, per_side = (nch + 1) / 2;
  for (unsigned slot = 0; slot < 64; slot++) {
    unsigned ch = slot % nch;
    int cx = (ch & 1) ? (int)m->cfg.grid_w : -1;
    int cy = (int)(((2 * (ch / 2) + 1) * m->cfg.grid_h) / (2 * per_side));
    unsigned hops = (unsigned)(abs((int)c->gx - cx) + abs((int)c->gy - cy));
    c->tariff[HG_SIM_VIEW_DRAM].cost[0][slot] = 2 * hops * c->costs.noc_hop + c->costs.dram_latency;
    c->tariff[HG_SIM_VIEW_DRAM].cost[1][slot] = c->costs.dram_store;
    /* L1 in a window (__local memory) costs as L1 does directly; code is only read, as L1 */
    c->tariff[HG_SIM_VIEW_L1].cost[0][slot] = c->tariff[HG_SIM_VIEW_CODE].cost[0][slot] = c->costs.l1_load;
    c->tariff[HG_SIM_VIEW_L1].cost[1][slot] = c->tariff[HG_SIM_VIEW_CODE].cost[1][slot] = c->costs.l1_store;
  }
}

static void *map_lazy(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

int hg_sim_create(const hg_sim_config *cfg_in, hg_sim_machine **out) {
  hg_sim_config cfg;
  if (cfg_in) cfg = *cfg_in;
  else hg_sim_default_config(&cfg);
  static const hg_sim_costs zero;
  if (!memcmp(&cfg.costs, &zero, sizeof zero)) cfg.costs = default_costs;
  if (!cfg.grid_w || !cfg.grid_h || cfg.grid_w * cfg.grid_h > 4096 || cfg.l1_size < 4096 ||
      cfg.l1_size > HG_SIM_L1_MAX || (cfg.l1_size & 15) || !cfg.dram_size || cfg.dram_size > HG_SIM_DRAM_MAX ||
      !cfg.dram_channels || cfg.dram_channels > 64)
    return HG_SIM_EINVAL;
  if (!cfg.max_cycles_per_job) cfg.max_cycles_per_job = HG_SIM_DEFAULT_GUARD_CYCLES;
  if (!cfg.max_output) cfg.max_output = 1 << 20;
  *out = NULL;
  hg_sim_machine *m = calloc(1, sizeof *m);
  if (!m) return HG_SIM_ENOMEM;
  m->cfg = cfg;
  m->ncores = cfg.grid_w * cfg.grid_h;
  m->threads = cfg.host_threads ? cfg.host_threads : hg_sim_default_threads();
  m->cores = calloc(m->ncores, sizeof *m->cores);
  m->l1_map_size = (size_t)cfg.l1_size * m->ncores;
  m->l1_all = map_lazy(m->l1_map_size);
  m->dram = map_lazy(cfg.dram_size);
  pthread_mutex_init(&m->lock, NULL);
  pthread_mutex_init(&m->alloc_lock, NULL);
  hg_sim_pool_init(&m->pool);
  if (!m->cores || !m->l1_all || !m->dram) {
    hg_sim_destroy(m);
    return HG_SIM_ENOMEM;
  }
  for (unsigned i = 0; i < m->ncores; i++) {
    hg_sim_core *c = &m->cores[i];
    c->m = m;
    c->index = i;
    c->gx = i % cfg.grid_w;
    c->gy = i / cfg.grid_w;
    c->l1 = m->l1_all + (size_t)i * cfg.l1_size;
    c->l1_lim = cfg.l1_size - 8;
    c->costs = cfg.costs;
    memset(c->views_used, 0xff, sizeof c->views_used); /* every view slot gets its empty view at the first launch */
    set_dram_costs(m, c);
  }
  *out = m;
  return HG_SIM_OK;
}

void hg_sim_destroy(hg_sim_machine *m) {
  if (!m) return;
  hg_sim_unload_code(m);
  if (m->cores)
    for (unsigned i = 0; i < m->ncores; i++) free(m->cores[i].out);
  free(m->cores);
  if (m->l1_all) munmap(m->l1_all, m->l1_map_size);
  if (m->dram) munmap(m->dram, m->cfg.dram_size);
  free(m->blocks);
  hg_sim_pool_destroy(&m->pool);
  pthread_mutex_destroy(&m->lock);
  pthread_mutex_destroy(&m->alloc_lock);
  free(m);
}

unsigned hg_sim_core_count(const hg_sim_machine *m) { return m->ncores; }
unsigned hg_sim_host_threads(const hg_sim_machine *m) { return m->threads; }
const hg_sim_config *hg_sim_get_config(const hg_sim_machine *m) { return &m->cfg; }
void hg_sim_set_host_threads(hg_sim_machine *m, unsigned n) {
  pthread_mutex_lock(&m->lock);
  m->threads = n ? n : hg_sim_default_threads();
  pthread_mutex_unlock(&m->lock);
}

/* ---- code ---- */

static hg_sim_decoded decode_at(const hg_sim_segment *s, uint64_t i) {
  uint32_t raw;
  memcpy(&raw, s->bytes + i * 4, 4);
  return hg_sim_decode(raw, i, s->nins);
}

/* Decodes instructions first .. first + count - 1, and the one before them too: it may be
 * the first half of a fused pair whose second half changed. */
static void predecode(hg_sim_segment *s, uint64_t first, uint64_t count) {
  const void *const *labels;
  hg_sim_interp(NULL, &labels);
  uint64_t end = first + count < s->nins ? first + count : s->nins;
  uint64_t i = first ? first - 1 : 0;
  hg_sim_decoded d = i < end ? decode_at(s, i) : (hg_sim_decoded){0};
  for (; i < end; i++) {
    int op = d.op;
    hg_sim_decoded next = {HG_SIM_OP_FALLOFF};
    if (i + 1 < s->nins) {
      next = decode_at(s, i + 1);
      op = hg_sim_fuse(&d, &next);
    }
    s->insns[i] = (hg_sim_insn){labels[op], d.imm, d.rd, d.rs1, d.rs2, d.rs3};
    d = next;
  }
  s->insns[s->nins] = (hg_sim_insn){labels[HG_SIM_OP_FALLOFF], 0, 32, 0, 0, 0};
}

static void free_segment(hg_sim_segment *s) {
  free(s->bytes);
  free(s->insns);
  memset(s, 0, sizeof *s);
}

void hg_sim_unload_code(hg_sim_machine *m) {
  for (unsigned i = 0; i < m->nsegs; i++) free_segment(&m->segs[i]);
  m->nsegs = 0;
}

int hg_sim_load_code(hg_sim_machine *m, uint64_t addr, const void *bytes, size_t size) {
  if (!size || (addr & 3) || addr < HG_SIM_CODE_BASE || size > HG_SIM_CODE_WINDOW ||
      addr - HG_SIM_CODE_BASE > HG_SIM_CODE_WINDOW - size)
    return HG_SIM_EINVAL;
  uint64_t padded = (size + 3) & ~3ull;
  hg_sim_segment s = {addr, padded, calloc(1, padded), NULL, padded / 4};
  s.insns = calloc(s.nins + 1, sizeof *s.insns);
  if (!s.bytes || !s.insns) {
    free_segment(&s);
    return HG_SIM_ENOMEM;
  }
  memcpy(s.bytes, bytes, size);
  predecode(&s, 0, s.nins);
  pthread_mutex_lock(&m->lock);
  /* a new segment replaces every segment it overlaps */
  for (unsigned i = 0; i < m->nsegs;) {
    hg_sim_segment *o = &m->segs[i];
    if (o->base < addr + padded && addr < o->base + o->size) {
      free_segment(o);
      m->segs[i] = m->segs[--m->nsegs];
      memset(&m->segs[m->nsegs], 0, sizeof m->segs[0]);
    } else {
      i++;
    }
  }
  int rc = HG_SIM_OK;
  if (m->nsegs == HG_SIM_MAX_SEGMENTS) {
    free_segment(&s);
    rc = HG_SIM_ENOMEM;
  } else {
    m->segs[m->nsegs++] = s;
  }
  pthread_mutex_unlock(&m->lock);
  return rc;
}

int hg_sim_write_code(hg_sim_machine *m, uint64_t addr, const void *bytes, size_t size) {
  pthread_mutex_lock(&m->lock);
  const hg_sim_segment *cs = hg_sim_segment_of(m, addr);
  hg_sim_segment *s = (hg_sim_segment *)cs;
  int rc = HG_SIM_EINVAL;
  if (s && size <= s->size && addr - s->base <= s->size - size) {
    memcpy(s->bytes + (addr - s->base), bytes, size);
    uint64_t first = (addr - s->base) / 4, last = (addr - s->base + size + 3) / 4;
    predecode(s, first, last - first); /* invalidate and re-decode what was written */
    rc = HG_SIM_OK;
  }
  pthread_mutex_unlock(&m->lock);
  return rc;
}

/* ---- DRAM ---- */

void *hg_sim_dram_ptr(hg_sim_machine *m, uint64_t addr, uint64_t size) {
  uint64_t o = addr - HG_SIM_DRAM_BASE;
  if (o > m->cfg.dram_size || size > m->cfg.dram_size - o) return NULL;
  return m->dram + o;
}

int hg_sim_dram_alloc(hg_sim_machine *m, uint64_t size, uint64_t *addr) {
  if (!size) size = 1;
  uint64_t need = (size + 4095) & ~4095ull;
  if (need < size) return HG_SIM_EINVAL;
  pthread_mutex_lock(&m->alloc_lock);
  int rc = HG_SIM_ENOMEM;
  uint64_t at = HG_SIM_DRAM_BASE;
  size_t i = 0;
  for (; i <= m->nblocks; i++) {
    uint64_t end = i < m->nblocks ? m->blocks[i].addr : HG_SIM_DRAM_BASE + m->cfg.dram_size;
    if (end - at >= need) break;
    if (i < m->nblocks) at = m->blocks[i].addr + m->blocks[i].size;
  }
  if (i <= m->nblocks) {
    if (m->nblocks == m->cap_blocks) {
      size_t cap = m->cap_blocks ? m->cap_blocks * 2 : 64;
      struct hg_sim_block *nb = realloc(m->blocks, cap * sizeof *nb);
      if (!nb) goto out;
      m->blocks = nb;
      m->cap_blocks = cap;
    }
    memmove(&m->blocks[i + 1], &m->blocks[i], (m->nblocks - i) * sizeof *m->blocks);
    m->blocks[i].addr = at;
    m->blocks[i].size = need;
    m->nblocks++;
    *addr = at;
    rc = HG_SIM_OK;
  }
out:
  pthread_mutex_unlock(&m->alloc_lock);
  return rc;
}

void hg_sim_dram_free(hg_sim_machine *m, uint64_t addr) {
  pthread_mutex_lock(&m->alloc_lock);
  for (size_t i = 0; i < m->nblocks; i++) {
    if (m->blocks[i].addr == addr) {
      /* give the pages back so a later allocation reads zeros and host memory shrinks */
      madvise(m->dram + (addr - HG_SIM_DRAM_BASE), m->blocks[i].size, MADV_DONTNEED);
      memmove(&m->blocks[i], &m->blocks[i + 1], (m->nblocks - i - 1) * sizeof *m->blocks);
      m->nblocks--;
      break;
    }
  }
  pthread_mutex_unlock(&m->alloc_lock);
}

const char *hg_sim_fault_name(hg_sim_fault_kind kind) {
  static const char *const names[] = {"none",    "load access", "store access", "fetch access",
                                      "misaligned fetch", "misaligned atomic", "illegal instruction",
                                      "breakpoint", "bad ecall", "abort", "ran past the hang guard",
                                      "ran past the time limit"};
  return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}
