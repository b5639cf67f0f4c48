/* Per-range protection (sim.h, windows): a range seen in a window of its own faults past its
 * end even where its neighbour in DRAM lies; an L1 range in a window is the core's own L1
 * there and nothing beyond it; accesses through windows cost what they cost at the range's own
 * address; a store never goes through the view a load left in its slot (a read-only range
 * stayed writable that way). */
#include "enc.h"
#include "util.h"

static hg_sim_machine *m;

/* Runs one job at pc with a1..a3 set (a7 = exit); returns the launch's result code. */
static int run_job(uint64_t pc, uint64_t a1, uint64_t a2, uint64_t a3, const hg_sim_range *r, size_t nr,
                   hg_sim_launch *l, hg_sim_job_result *res) {
  uint64_t a[8] = {0, a1, a2, a3, 0, 0, 0, 93};
  return hg_t_run1(m, pc, a, r, nr, l, res);
}

static uint64_t load_code(const uint32_t *w, size_t n) {
  hg_sim_unload_code(m);
  CHECK(hg_sim_load_code(m, HG_SIM_CODE_BASE, w, n * 4) == 0, "load code");
  return HG_SIM_CODE_BASE;
}

/* Two 4 KiB buffers side by side in DRAM, each in its own window: past the first faults. */
static void test_neighbours(void) {
  uint64_t b1, b2;
  CHECK(hg_sim_dram_alloc(m, 4096, &b1) == 0 && hg_sim_dram_alloc(m, 4096, &b2) == 0 && b2 == b1 + 4096,
        "adjacent buffers");
  uint64_t *h1 = hg_sim_dram_ptr(m, b1, 4096), *h2 = hg_sim_dram_ptr(m, b2, 4096);
  uint64_t v1 = hg_t_rand(), v2 = hg_t_rand(), v3 = hg_t_rand();
  h2[0] = v2;
  hg_sim_range r[2] = {{b1, 4096, true, false, 1}, {b2, 4096, true, false, 2}};
  uint64_t w1 = HG_SIM_WINDOW_ADDR(1) + b1, w2 = HG_SIM_WINDOW_ADDR(2) + b2;
  /* a1 = where to store a2, a3 = where to load from */
  uint32_t code[] = {SD(A2, A1, 0), LD(A0, A3, 0), ECALL};
  uint64_t pc = load_code(code, 3);
  hg_sim_launch l;
  hg_sim_job_result res;
  int rc = run_job(pc, w1 + 8, v1, w2, r, 2, &l, &res);
  CHECK(rc == 0 && res.ret[0] == v2 && h1[1] == v1, "in bounds through windows: rc %d", rc);
  rc = run_job(pc, w1 + 4096, v3, w2, r, 2, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE && l.fault.addr == w1 + 4096,
        "store past buffer 1: rc %d kind %s addr %#" PRIx64, rc, hg_sim_fault_name(l.fault.kind), l.fault.addr);
  CHECK(h2[0] == v2, "buffer 2 unchanged");
  rc = run_job(pc, w2, v3, w1 + 4096, r, 2, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_LOAD && l.fault.addr == w1 + 4096,
        "load past buffer 1 faults: rc %d", rc);
  rc = run_job(pc, b1, v3, w2, r, 2, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE, "a windowed range is not at its own address");
  rc = run_job(pc, w1 - 8, v3, w2, r, 2, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE, "before buffer 1 faults");
  /* the same two ranges at their own addresses (window 0): the old protection, per launch */
  hg_sim_range r0[2] = {{b1, 4096, true}, {b2, 4096, true}};
  uint64_t v4 = ~v3;
  rc = run_job(pc, b1 + 4096, v4, b1, r0, 2, &l, &res);
  CHECK(rc == 0 && h2[0] == v4, "window 0: past buffer 1 is buffer 2: rc %d", rc);
  hg_sim_dram_free(m, b1);
  hg_sim_dram_free(m, b2);
}

/* An L1 range in a window: the core's own L1 at its offset, exactly its size. */
static void test_l1_window(void) {
  uint64_t off = 4096 + 16 * (hg_t_rand() % 64), size = 256;
  hg_sim_range r = {off, size, true, true, 7};
  uint64_t w = HG_SIM_WINDOW_ADDR(7) + off, v = hg_t_rand();
  /* store a2 at a1, load it back through the L1 window itself (a3) */
  uint32_t code[] = {SD(A2, A1, 0), LD(A0, A3, 0), ECALL};
  uint64_t pc = load_code(code, 3);
  hg_sim_launch l;
  hg_sim_job_result res;
  int rc = run_job(pc, w + size - 8, v, HG_SIM_L1_BASE + off + size - 8, &r, 1, &l, &res);
  CHECK(rc == 0 && res.ret[0] == v, "L1 range: rc %d", rc);
  rc = run_job(pc, w + size, v, HG_SIM_L1_BASE, &r, 1, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE && l.fault.addr == w + size,
        "past the L1 range faults (the rest of L1 lies there): rc %d", rc);
  rc = run_job(pc, w + size - 4, v, HG_SIM_L1_BASE, &r, 1, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE, "straddling its end faults");
  hg_sim_range ro = {off, size, false, true, 7};
  rc = run_job(pc, w, v, HG_SIM_L1_BASE, &ro, 1, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE, "read-only L1 range");
  hg_sim_range bad[3] = {{off, size, true, true, 0}, {1464 * 1024 - 8, 16, true, true, 3},
                         {HG_SIM_DRAM_BASE, 4096, true, false, HG_SIM_MAX_WINDOW + 1}};
  for (int i = 0; i < 3; i++)
    CHECK(run_job(pc, w, v, w, &bad[i], 1, &l, &res) == HG_SIM_EINVAL, "bad range %d refused", i);
}

/* Cycle counts through a window are those at the range's own address (same DRAM channel; L1
 * ranges cost as L1). */
static void test_costs(void) {
  uint64_t b;
  CHECK(hg_sim_dram_alloc(m, 1 << 20, &b) == 0, "alloc");
  /* 64 loads and stores 2 KiB apart: every channel */
  uint32_t code[] = {ADDI(A4, X0, 64), LD(A0, A1, 0), SD(A0, A1, 8), ADDI(A1, A1, 2047), ADDI(A1, A1, 1),
                     ADDI(A4, A4, -1), BNE(A4, X0, -20), ECALL};
  uint64_t pc = load_code(code, 8);
  hg_sim_launch l;
  hg_sim_job_result res;
  hg_sim_range r0 = {b, 1 << 20, true}, r1 = {b, 1 << 20, true, false, 5};
  CHECK(run_job(pc, b, 0, 0, &r0, 1, &l, &res) == 0, "own address");
  uint64_t own = l.max_cycles;
  CHECK(run_job(pc, HG_SIM_WINDOW_ADDR(5) + b, 0, 0, &r1, 1, &l, &res) == 0, "window");
  CHECK(l.max_cycles == own, "DRAM through a window: %" PRIu64 " cycles, at its address %" PRIu64, l.max_cycles, own);
  hg_sim_range rl = {0, 1 << 20, true, true, 6};
  CHECK(run_job(pc, HG_SIM_L1_BASE, 0, 0, NULL, 0, &l, &res) == 0, "L1");
  uint64_t l1 = l.max_cycles;
  CHECK(run_job(pc, HG_SIM_WINDOW_ADDR(6), 0, 0, &rl, 1, &l, &res) == 0, "L1 window");
  CHECK(l.max_cycles == l1, "L1 through a window: %" PRIu64 " cycles, direct %" PRIu64, l.max_cycles, l1);
  hg_sim_dram_free(m, b);
}

/* A load and a store 64 instructions apart: the store must not write a read-only range through
 * the view the load left (they shared a view slot). */
static void test_store_after_load_same_slot(void) {
  uint64_t ro;
  CHECK(hg_sim_dram_alloc(m, 4096, &ro) == 0, "alloc");
  uint64_t *h = hg_sim_dram_ptr(m, ro, 4096), v = hg_t_rand();
  h[0] = v;
  uint32_t code[70];
  code[0] = LD(A0, A1, 0);
  for (int i = 1; i < 64; i++)
    code[i] = ADDI(X0, X0, 0);
  code[64] = SD(A2, A1, 0);
  code[65] = ECALL;
  uint64_t pc = load_code(code, 66);
  hg_sim_range r = {ro, 4096, false, false, 0};
  hg_sim_launch l;
  hg_sim_job_result res;
  int rc = run_job(pc, ro, ~v, 0, &r, 1, &l, &res);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_STORE && l.fault.pc == pc + 64 * 4,
        "store to a read-only range after a load of it: rc %d kind %s", rc, hg_sim_fault_name(l.fault.kind));
  CHECK(h[0] == v, "the read-only range kept its bytes");
  hg_sim_dram_free(m, ro);
}

int main(void) {
  hg_t_seed(0x5eedull ^ (uint64_t)time(NULL));
  CHECK(hg_sim_create(NULL, &m) == 0, "create");
  test_neighbours();
  test_l1_window();
  test_costs();
  test_store_after_load_same_slot();
  hg_sim_destroy(m);
  return hg_t_finish();
}
