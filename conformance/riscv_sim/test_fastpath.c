/* The interpreter's fast paths: per-instruction view slots for DRAM loads/stores (results,
 * counters and cycle counts exactly as the cost model says, on 1 and 2 host threads;
 * protection still exact after a view is cached, within a launch and across launches) and the
 * fused ADDI + branch superinstructions (every branch kind against the host, a jump straight
 * to the second half of a pair, code writes that split or change a pair). */
#include "enc.h"
#include "util.h"

#define BGE(a, b, off) enc_b(5, a, b, off)
#define BLTU(a, b, off) enc_b(6, a, b, off)
#define BGEU(a, b, off) enc_b(7, a, b, off)

static hg_sim_machine *m;

/* z[i] = x[i] + y[i], i < a3; a0 = x, a1 = y, a2 = z. Two loads of two buffers per iteration:
 * with one cached view they would evict each other's on every access. */
#define VADD_INSNS 9
static void load_vadd(void) {
  const uint32_t w[] = {LD(T0, A0, 0),  LD(T1, A1, 0),  ADD(T0, T0, T1), SD(T0, A2, 0), ADDI(A0, A0, 8),
                        ADDI(A1, A1, 8), ADDI(A2, A2, 8), ADDI(A3, A3, -1), BNE(A3, X0, -32), ECALL};
  hg_sim_unload_code(m);
  hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
}

/* The cost model by hand (default costs): NoC hops from core c to the channel of address a. */
static uint64_t dram_cost(unsigned c, uint64_t a, int load) {
  if (!load) return 4;
  unsigned ch = (unsigned)((a >> 11) & 63) % 6;
  int cx = (ch & 1) ? 8 : -1, cy = (int)(((2 * (ch / 2) + 1) * 10) / 6);
  int x = (int)(c % 8), y = (int)(c / 8);
  unsigned hops = (unsigned)(abs(x - cx) + abs(y - cy));
  return 2 * hops * 9 + 100;
}

typedef struct bufs {
  uint64_t x, y, z, gap[3], size;
} bufs;

static void bufs_alloc(bufs *b, uint64_t size) {
  b->size = size;
  /* a gap after each buffer that no launch names, so running off a buffer faults */
  CHECK(hg_sim_dram_alloc(m, size, &b->x) == 0 && hg_sim_dram_alloc(m, 4096, &b->gap[0]) == 0 &&
            hg_sim_dram_alloc(m, size, &b->y) == 0 && hg_sim_dram_alloc(m, 4096, &b->gap[1]) == 0 &&
            hg_sim_dram_alloc(m, size, &b->z) == 0 && hg_sim_dram_alloc(m, 4096, &b->gap[2]) == 0,
        "alloc");
}

static void bufs_free(bufs *b) {
  uint64_t all[6] = {b->x, b->y, b->z, b->gap[0], b->gap[1], b->gap[2]};
  for (int i = 0; i < 6; i++) hg_sim_dram_free(m, all[i]);
}

static void set_job(hg_sim_job *j, uint64_t pc, uint64_t x, uint64_t y, uint64_t z, uint64_t n) {
  memset(j, 0, sizeof *j);
  j->pc = pc;
  j->a[0] = x;
  j->a[1] = y;
  j->a[2] = z;
  j->a[3] = n;
  j->a[7] = 93;
}

/* 2 jobs per core, each over its own slice; checks memory, per-core counters and cycles
 * against the host and the cost model, with 1 and 2 host threads. */
static void test_views(void) {
  load_vadd();
  unsigned nc = hg_sim_core_count(m);
  size_t nj = 2 * (size_t)nc, n = 200 + hg_t_rand() % 300; /* n > 256: slices cross 2 KiB channel blocks */
  bufs b;
  bufs_alloc(&b, (nj * n * 8 + 4095) & ~4095ull);
  uint64_t *hx = hg_sim_dram_ptr(m, b.x, b.size), *hy = hg_sim_dram_ptr(m, b.y, b.size),
           *hz = hg_sim_dram_ptr(m, b.z, b.size);
  hg_sim_range r[3] = {{b.x, b.size, false}, {b.y, b.size, false}, {b.z, b.size, true}};
  hg_sim_job *jobs = calloc(nj, sizeof *jobs);
  hg_sim_core_stats st[2][80];
  for (unsigned threads = 1; threads <= 2; threads++) {
    for (size_t i = 0; i < nj * n; i++) {
      hx[i] = hg_t_rand();
      hy[i] = hg_t_rand();
      hz[i] = 0xdeadbeefdeadbeefull; /* poisoned */
    }
    for (size_t j = 0; j < nj; j++) set_job(&jobs[j], HG_SIM_CODE_BASE, b.x + j * n * 8, b.y + j * n * 8, b.z + j * n * 8, n);
    hg_sim_set_host_threads(m, threads);
    hg_sim_launch l = {.jobs = jobs, .njobs = nj, .ranges = r, .nranges = 3, .stats = st[threads - 1]};
    CHECK(hg_sim_run(m, &l) == 0, "vector add launch, %u threads", threads);
    size_t wrong = 0;
    for (size_t i = 0; i < nj * n; i++) wrong += hz[i] != hx[i] + hy[i];
    CHECK(wrong == 0, "z = x + y: %zu wrong of %zu (%u threads)", wrong, nj * n, threads);
    size_t bad = 0;
    for (unsigned c = 0; c < nc; c++) {
      uint64_t cyc = 0;
      for (size_t j = c; j < nj; j += nc) {
        cyc += (VADD_INSNS * n + 1) + (n - 1) + 10; /* insns, taken branches, exit ecall */
        for (size_t i = 0; i < n; i++) {
          uint64_t o = (j * n + i) * 8;
          cyc += dram_cost(c, b.x + o, 1) + dram_cost(c, b.y + o, 1) + dram_cost(c, b.z + o, 0);
        }
      }
      const hg_sim_core_stats *s = &st[threads - 1][c];
      if (s->insns != 2 * (VADD_INSNS * n + 1) || s->cycles != cyc || s->dram_reads != 4 * n || s->dram_writes != 2 * n ||
          s->noc_bytes != 6 * n * 8 || s->noc_flits != 12 * n)
        if (bad++ < 3)
          printf("core %u: %" PRIu64 " insns, %" PRIu64 " cycles (model %" PRIu64 "), %" PRIu64 " reads\n", c, s->insns,
                 s->cycles, cyc, s->dram_reads);
    }
    CHECK(bad == 0, "per-core counters and cycles = the model on every core (%u threads, %zu wrong)", threads, bad);
  }
  CHECK(!memcmp(st[0], st[1], sizeof st[0]), "counters identical with 1 and 2 host threads");
  hg_sim_set_host_threads(m, 0);

  /* protection after the views are cached, one job each: x read past its end (load at pc 0),
   * z written past its end (store at pc 12), an 8-byte store straddling z's end */
  struct {
    uint64_t x, z, n, pc, addr;
    hg_sim_fault_kind kind;
  } f[3] = {
      {b.x + b.size - 64, b.z, 9, HG_SIM_CODE_BASE, b.x + b.size, HG_SIM_FAULT_LOAD},
      {b.x, b.z + b.size - 64, 9, HG_SIM_CODE_BASE + 12, b.z + b.size, HG_SIM_FAULT_STORE},
      {b.x, b.z + b.size - 68, 9, HG_SIM_CODE_BASE + 12, b.z + b.size - 4, HG_SIM_FAULT_STORE},
  };
  for (int k = 0; k < 3; k++) {
    hg_sim_job job;
    hg_sim_job_result res;
    set_job(&job, HG_SIM_CODE_BASE, f[k].x, b.y, f[k].z, f[k].n);
    hg_sim_launch l = {.jobs = &job, .njobs = 1, .ranges = r, .nranges = 3, .results = &res};
    int rc = hg_sim_run(m, &l);
    CHECK(rc == HG_SIM_EFAULT && l.fault.kind == f[k].kind && l.fault.pc == f[k].pc && l.fault.addr == f[k].addr,
          "fault %d after 8 good accesses: rc %d kind %s pc %#" PRIx64 " addr %#" PRIx64, k, rc,
          hg_sim_fault_name(l.fault.kind), l.fault.pc, l.fault.addr);
    free(l.out);
  }

  /* views do not outlive their launch: the same jobs without x's range fault at once */
  for (size_t j = 0; j < nc; j++) set_job(&jobs[j], HG_SIM_CODE_BASE, b.x + j * n * 8, b.y + j * n * 8, b.z + j * n * 8, n);
  hg_sim_launch ok = {.jobs = jobs, .njobs = nc, .ranges = r, .nranges = 3};
  CHECK(hg_sim_run(m, &ok) == 0, "launch with x's range");
  hg_sim_job_result *res = calloc(nc, sizeof *res);
  hg_sim_launch no_x = {.jobs = jobs, .njobs = nc, .ranges = r + 1, .nranges = 2, .results = res};
  int rc = hg_sim_run(m, &no_x);
  size_t faulted = 0;
  for (unsigned j = 0; j < nc; j++) faulted += res[j].status == HG_SIM_JOB_FAULT;
  CHECK(rc == HG_SIM_EFAULT && no_x.fault.job == 0 && no_x.fault.kind == HG_SIM_FAULT_LOAD && no_x.fault.addr == b.x &&
            no_x.fault.pc == HG_SIM_CODE_BASE && faulted == nc,
        "next launch without x: every job faults on its first load (%zu of %u)", faulted, nc);
  CHECK(hg_sim_run(m, &ok) == 0 && hg_sim_dram_ptr(m, b.z, 8) != NULL, "and the machine is still usable");
  free(res);
  free(jobs);
  bufs_free(&b);
}

/* One job: runs pc with a0..a2; returns a0 (all ones on a fault), a1 in *ret1, the
 * instruction count in *insns. */
static uint64_t run_one(uint64_t pc, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t *ret1, uint64_t *insns) {
  hg_sim_job job;
  set_job(&job, pc, a0, a1, a2, 0);
  hg_sim_job_result res;
  hg_sim_core_stats st[80];
  hg_sim_launch l = {.jobs = &job, .njobs = 1, .results = &res, .stats = st};
  int rc = hg_sim_run(m, &l);
  free(l.out);
  if (ret1) *ret1 = res.ret[1];
  if (insns) *insns = st[0].insns;
  return rc ? ~0ull : res.ret[0];
}

static uint64_t edge(void) {
  static const uint64_t e[] = {0, 1, 2, ~0ull, ~0ull - 1, 1ull << 63, (1ull << 63) - 1, (1ull << 63) + 1, 0x7ff, 0x800};
  return hg_t_rand() % 3 ? e[hg_t_rand() % 10] + (hg_t_rand() % 5) - 2 : hg_t_rand();
}

/* Every ADDI + branch pair against the host: a0 += imm; branch a0 ? a1 skips "a1 = 1". */
static void test_fused_branches(void) {
  hg_sim_unload_code(m);
  static const unsigned f3s[6] = {0, 1, 4, 5, 6, 7};
  uint32_t code[6][4];
  int32_t imms[6];
  for (int k = 0; k < 6; k++) {
    imms[k] = (int32_t)(hg_t_rand() % 4096) - 2048;
    code[k][0] = ADDI(A0, A0, imms[k]);
    code[k][1] = enc_b(f3s[k], A0, A2, 8);
    code[k][2] = LI_SMALL(A1, 1);
    code[k][3] = ECALL;
  }
  hg_sim_load_code(m, HG_SIM_CODE_BASE, code, sizeof code);
  size_t bad = 0, taken = 0;
  for (int k = 0; k < 6; k++) {
    for (int i = 0; i < 300; i++) {
      uint64_t a = edge(), b = hg_t_rand() % 4 ? edge() : a + (uint64_t)(int64_t)imms[k];
      uint64_t s = a + (uint64_t)(int64_t)imms[k], flag = 7;
      bool want = f3s[k] == 0 ? s == b : f3s[k] == 1 ? s != b : f3s[k] == 4 ? (int64_t)s < (int64_t)b
                : f3s[k] == 5 ? (int64_t)s >= (int64_t)b : f3s[k] == 6 ? s < b : s >= b;
      uint64_t got = run_one(HG_SIM_CODE_BASE + 16 * (uint64_t)k, a, 0, b, &flag, NULL);
      taken += want;
      if (got != s || flag != (want ? 0u : 1u))
        if (bad++ < 3) printf("kind %d: a %#" PRIx64 " imm %d b %#" PRIx64 ": a0 %#" PRIx64 " flag %" PRIu64 "\n", k, a, imms[k], b, got, flag);
    }
  }
  CHECK(bad == 0 && taken > 0 && taken < 1800, "1800 fused ADDI + branch cases (%zu taken, %zu wrong)", taken, bad);

  /* a counting loop (fused pair), a jump straight to its branch, code writes on either half */
  hg_sim_unload_code(m);
  uint32_t loop[4] = {ADDI(A0, A0, 1), BNE(A0, A2, -4), ECALL, ECALL};
  hg_sim_load_code(m, HG_SIM_CODE_BASE, loop, sizeof loop);
  uint64_t n = 1 + hg_t_rand() % 1000, insns = 0;
  CHECK(run_one(HG_SIM_CODE_BASE, 0, 0, n, NULL, &insns) == n && insns == 2 * n + 1, "loop to %" PRIu64 ": %" PRIu64 " insns", n, insns);
  CHECK(run_one(HG_SIM_CODE_BASE + 4, 5, 0, 5, NULL, &insns) == 5 && insns == 2, "jump to the branch of a pair, not taken");
  CHECK(run_one(HG_SIM_CODE_BASE + 4, 3, 0, 9, NULL, &insns) == 9 && insns == 1 + 2 * 6 + 1, "jump to the branch of a pair, taken");
  uint32_t not_branch = ADDI(A0, A0, 100);
  CHECK(hg_sim_write_code(m, HG_SIM_CODE_BASE + 4, &not_branch, 4) == 0, "patch the branch");
  CHECK(run_one(HG_SIM_CODE_BASE, 0, 0, 0, NULL, &insns) == 101 && insns == 3, "pair split by a code write");
  uint32_t back[2] = {ADDI(A0, A0, 2), BNE(A0, A2, -4)};
  CHECK(hg_sim_write_code(m, HG_SIM_CODE_BASE, back, 8) == 0, "write the pair again, new step");
  n = 2 * (1 + hg_t_rand() % 500);
  CHECK(run_one(HG_SIM_CODE_BASE, 0, 0, n, NULL, &insns) == n && insns == n + 1, "loop by 2 to %" PRIu64, n);
  uint32_t beq = BEQ(A0, A2, 8);
  CHECK(hg_sim_write_code(m, HG_SIM_CODE_BASE + 4, &beq, 4) == 0, "patch the branch kind");
  CHECK(run_one(HG_SIM_CODE_BASE, 4, 0, 6, NULL, &insns) == 6 && insns == 3, "pair with the new branch kind");
}

int main(void) {
  hg_t_seed(0x5eedull ^ (uint64_t)time(NULL));
  CHECK(hg_sim_create(NULL, &m) == 0, "create");
  test_views();
  test_fused_branches();
  hg_sim_destroy(m);
  return hg_t_finish();
}
