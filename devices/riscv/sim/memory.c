/* Memory protection and the slow path of loads and stores: an access is allowed only inside
 * the core's L1, a range of the launch where the launch shows it (its own DRAM address or its
 * window; stores: writable ranges) or, for loads, a code segment; the whole access must fit in
 * one of them. The range found is cached in the instruction's view slot, so the interpreter's
 * fast path covers its next accesses there. */
#include "devices/riscv/sim/sim_internal.h"

static void set_view(hg_sim_core *c, unsigned slot, uint64_t base, uint64_t size, uint8_t *host, unsigned kind) {
  /* the fast path needs 8 bytes of room; small ranges stay slow */
  if (size < 8 || slot >= HG_SIM_VIEW_SLOTS) return;
  hg_sim_view *v = &c->views[slot];
  c->views_used[slot / 64] |= 1ull << (slot % 64);
  v->base = base;
  v->lim = size - 8;
  v->host = host;
  v->tariff = &c->tariff[kind];
}

static bool fits(uint64_t a, uint64_t n, uint64_t base, uint64_t size) {
  uint64_t o = a - base;
  return o < size && size - o >= n;
}

uint8_t *hg_sim_slow_access(hg_sim_core *c, uint64_t a, uint64_t n, bool write, bool rt, unsigned slot) {
  hg_sim_machine *m = c->m;
  if (fits(a, n, HG_SIM_L1_BASE, m->cfg.l1_size)) {
    c->extra += write && !rt ? c->costs.l1_store : c->costs.l1_load;
    c->l1_bytes += n;
    return c->l1 + (a - HG_SIM_L1_BASE);
  }
  for (size_t i = 0; i < c->nranges; i++) {
    const hg_sim_range *r = &c->ranges[i];
    uint64_t at = HG_SIM_WINDOW_ADDR(r->window) + r->base;
    if (!fits(a, n, at, r->size) || (write && !r->writable)) continue;
    if (r->l1) {
      set_view(c, slot, at, r->size, c->l1 + r->base, HG_SIM_VIEW_L1);
      c->extra += write && !rt ? c->costs.l1_store : c->costs.l1_load;
      c->l1_bytes += n;
      return c->l1 + r->base + (a - at);
    }
    uint8_t *host = m->dram + (r->base - HG_SIM_DRAM_BASE);
    set_view(c, slot, at, r->size, host, HG_SIM_VIEW_DRAM);
    unsigned ch = (a >> 11) & 63; /* a window keeps the low bits: the range's own channel */
    c->extra += c->tariff[HG_SIM_VIEW_DRAM].cost[rt ? 0 : 1][ch];
    if (rt) c->dram_reads++;
    else c->dram_writes++;
    c->noc_bytes += n;
    return host + (a - at);
  }
  if (!write) {
    for (unsigned i = 0; i < m->nsegs; i++) {
      const hg_sim_segment *s = &m->segs[i];
      if (!fits(a, n, s->base, s->size)) continue;
      set_view(c, slot, s->base, s->size, s->bytes, HG_SIM_VIEW_CODE);
      c->extra += c->costs.l1_load;
      return s->bytes + (a - s->base);
    }
  }
  return NULL;
}

const hg_sim_segment *hg_sim_segment_of(const hg_sim_machine *m, uint64_t pc) {
  for (unsigned i = 0; i < m->nsegs; i++)
    if (pc - m->segs[i].base < m->segs[i].size) return &m->segs[i];
  return NULL;
}
