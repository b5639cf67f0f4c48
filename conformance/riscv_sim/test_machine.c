/* The machine: memory protection with precise fault records (and a usable simulator after
 * each fault), the hang guard, atomics across cores on several host threads, determinism of
 * results, output and cycle counts whatever the number of host threads, code writes
 * re-decoding, the NoC cost model's exact figures, request validation. */
#include <math.h>

#include "enc.h"
#include "util.h"

#define MUL(rd, a, b) enc_r(0x33, 0, 1, rd, a, b)
#define DIVU(rd, a, b) enc_r(0x33, 5, 1, rd, a, b)
#define SLLI(rd, a, sh) enc_i(0x13, 1, rd, a, sh)
#define AMOADD_W(rd, rs2, rs1) enc_amo(0x00, 1, rd, rs1, rs2)
#define AMOMAX_D(rd, rs2, rs1) enc_amo(0x14, 0, rd, rs1, rs2)
#define LR_D(rd, rs1) enc_amo(0x02, 0, rd, rs1, 0)
#define SC_D(rd, rs2, rs1) enc_amo(0x03, 0, rd, rs1, rs2)
#define FCVT_D_LU(fd, rs) enc_r(0x53, 7, 0x69, fd, rs, 3)
#define FSQRT_D(fd, fs) enc_r(0x53, 7, 0x2d, fd, fs, 0)

static hg_sim_machine *m;

static int run1(uint64_t pc, const uint64_t a[8], const hg_sim_range *r, size_t nr, hg_sim_launch *l,
                hg_sim_job_result *res) {
  return hg_t_run1(m, pc, a, r, nr, l, res);
}

/* a trivially good job right after a fault: the simulator must still work */
static void check_usable(const char *after) {
  uint32_t w[2] = {LI_SMALL(A0, 77), ECALL};
  hg_sim_load_code(m, HG_SIM_CODE_BASE + 0x100000, w, sizeof w);
  uint64_t a[8] = {0, 0, 0, 0, 0, 0, 0, 93};
  hg_sim_launch l;
  hg_sim_job_result r;
  int rc = run1(HG_SIM_CODE_BASE + 0x100000, a, NULL, 0, &l, &r);
  CHECK(rc == HG_SIM_OK && r.status == HG_SIM_JOB_DONE && r.ret[0] == 77, "launch after %s: rc %d", after, rc);
}

static void test_faults(void) {
  uint64_t buf, ro;
  CHECK(hg_sim_dram_alloc(m, 4096, &buf) == 0 && hg_sim_dram_alloc(m, 4096, &ro) == 0, "alloc");
  hg_sim_range rr[2] = {{buf, 4096, true}, {ro, 4096, false}};
  struct {
    uint32_t w[4];
    uint64_t a1;
    hg_sim_fault_kind kind;
    unsigned at;   /* faulting instruction index */
    uint64_t addr; /* expected fault address */
    const char *n;
  } t[] = {
      {{LD(A0, A1, 0), ECALL}, ro + 4096, HG_SIM_FAULT_LOAD, 0, ro + 4096, "load past the end"},
      {{ADDI(A2, X0, 1), LD(A0, A1, -4), ECALL}, ro + 4096, HG_SIM_FAULT_LOAD, 1, ro + 4092, "load straddling the end"},
      {{LD(A0, A1, 0), ECALL}, 0, HG_SIM_FAULT_LOAD, 0, 0, "null load"},
      {{LW(A0, A1, 0), ECALL}, HG_SIM_L1_BASE + 1464 * 1024, HG_SIM_FAULT_LOAD, 0, HG_SIM_L1_BASE + 1464 * 1024, "past L1"},
      {{SD(A1, A1, 0), ECALL}, ro, HG_SIM_FAULT_STORE, 0, ro, "store to a read-only buffer"},
      {{SD(A1, A1, 8), ECALL}, HG_SIM_DRAM_BASE + (512ull << 20), HG_SIM_FAULT_STORE, 0, HG_SIM_DRAM_BASE + (512ull << 20) + 8, "store to unmapped DRAM"},
      {{SW(A1, A1, 0), ECALL}, HG_SIM_CODE_BASE, HG_SIM_FAULT_STORE, 0, HG_SIM_CODE_BASE, "store to code"},
      {{ADDI(A2, X0, 1), JALR(RA, A1, 0), ECALL}, buf, HG_SIM_FAULT_FETCH, 1, buf, "jump to data"},
      {{JALR(RA, A1, 2), ECALL}, HG_SIM_CODE_BASE, HG_SIM_FAULT_FETCH_MISALIGNED, 0, HG_SIM_CODE_BASE + 2, "misaligned jump"},
      {{enc_amo(0x00, 1, A0, A1, A1), ECALL}, buf + 2, HG_SIM_FAULT_ATOMIC_MISALIGNED, 0, buf + 2, "misaligned amoadd.w"},
      {{enc_amo(0x00, 0, A0, A1, A1), ECALL}, ro, HG_SIM_FAULT_STORE, 0, ro, "amoadd.d on read-only"},
      {{EBREAK}, 0, HG_SIM_FAULT_BREAKPOINT, 0, 0, "ebreak"},
      {{0}, 0, HG_SIM_FAULT_ILLEGAL, 0, 0, "illegal encoding"},
      {{enc_r(0x33, 0, 0x40, A0, A1, A1)}, 0, HG_SIM_FAULT_ILLEGAL, 0, 0, "reserved funct7"},
      {{CSRRW(A0, 0xc00, A1)}, 0, HG_SIM_FAULT_ILLEGAL, 0, 0, "write to cycle"},
      {{CSRRS(A0, 0x300, X0)}, 0, HG_SIM_FAULT_ILLEGAL, 0, 0, "machine CSR"},
      {{ADDI(A7, X0, 1234), ECALL}, 0, HG_SIM_FAULT_ECALL, 1, 1234, "unknown service"},
      {{ADDI(A0, X0, 99), enc_u(0x37, A7, 1), ADDI(A7, A7, 2), ECALL}, 0, HG_SIM_FAULT_ABORT, 3, 99, "abort"},
      {{ADDI(A0, X0, 1), ADDI(A2, A1, 100), ADDI(A7, X0, 64), ECALL}, HG_SIM_DRAM_BASE + (900ull << 20), HG_SIM_FAULT_ECALL, 3, 64, "write() from unmapped"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    uint64_t pc = HG_SIM_CODE_BASE + i * 64;
    hg_sim_load_code(m, pc, t[i].w, sizeof t[i].w);
  }
  /* loading again at the same place replaced them one by one; reload the whole table as one segment */
  hg_sim_unload_code(m);
  uint32_t all[sizeof t / sizeof t[0]][16];
  memset(all, 0, sizeof all);
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) memcpy(all[i], t[i].w, sizeof t[i].w);
  CHECK(hg_sim_load_code(m, HG_SIM_CODE_BASE, all, sizeof all) == 0, "load fault table");
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    uint64_t pc = HG_SIM_CODE_BASE + i * 64;
    uint64_t a[8] = {0, t[i].a1, 0, 0, 0, 0, 0, 93};
    hg_sim_launch l;
    hg_sim_job_result r;
    int rc = run1(pc, a, rr, 2, &l, &r);
    CHECK(rc == HG_SIM_EFAULT && r.status == HG_SIM_JOB_FAULT, "%s: rc %d status %d", t[i].n, rc, r.status);
    CHECK(l.fault.kind == t[i].kind, "%s: kind %s", t[i].n, hg_sim_fault_name(l.fault.kind));
    CHECK(l.fault.pc == pc + 4 * t[i].at, "%s: pc %#" PRIx64 " expected %#" PRIx64, t[i].n, l.fault.pc, pc + 4 * t[i].at);
    if (t[i].kind != HG_SIM_FAULT_ILLEGAL && t[i].kind != HG_SIM_FAULT_BREAKPOINT)
      CHECK(l.fault.addr == t[i].addr, "%s: addr %#" PRIx64 " expected %#" PRIx64, t[i].n, l.fault.addr, t[i].addr);
    CHECK(l.fault.insn == t[i].w[t[i].at], "%s: insn %#x", t[i].n, l.fault.insn);
    CHECK(l.fault.job == 0 && l.fault.core == 0, "%s: job/core", t[i].n);
    check_usable(t[i].n);
  }
  /* loads from code are allowed (constants next to code); running off the end faults */
  {
    hg_sim_unload_code(m);
    uint32_t w[3] = {LW(A0, A1, 8), ECALL, 0xcafef00d};
    hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
    uint64_t a[8] = {0, HG_SIM_CODE_BASE, 0, 0, 0, 0, 0, 93};
    hg_sim_launch l;
    hg_sim_job_result r;
    int rc = run1(HG_SIM_CODE_BASE, a, NULL, 0, &l, &r);
    CHECK(rc == 0 && r.ret[0] == 0xffffffffcafef00dull, "load from code: rc %d %#" PRIx64, rc, r.ret[0]);
    uint32_t w2[2] = {ADDI(A0, X0, 1), ADDI(A0, A0, 1)};
    hg_sim_load_code(m, HG_SIM_CODE_BASE + 0x1000, w2, sizeof w2);
    rc = run1(HG_SIM_CODE_BASE + 0x1000, a, NULL, 0, &l, &r);
    CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_FETCH && l.fault.pc == HG_SIM_CODE_BASE + 0x1004 &&
              l.fault.addr == HG_SIM_CODE_BASE + 0x1008, "fall off the end: %s pc %#" PRIx64, hg_sim_fault_name(l.fault.kind), l.fault.pc);
    /* two adjacent segments: falling through from one into the next works */
    uint32_t w3[2] = {ADDI(A0, A0, 40), ECALL};
    hg_sim_load_code(m, HG_SIM_CODE_BASE + 0x1008, w3, sizeof w3);
    rc = run1(HG_SIM_CODE_BASE + 0x1000, a, NULL, 0, &l, &r);
    CHECK(rc == 0 && r.ret[0] == 42, "fall through into the next segment: rc %d a0 %" PRIu64, rc, r.ret[0]);
    uint64_t a2[8] = {0, 0, 0, 0, 0, 0, 0, 93};
    rc = run1(HG_SIM_CODE_BASE + 2, a2, NULL, 0, &l, &r);
    CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_FETCH_MISALIGNED, "misaligned entry");
    rc = run1(HG_SIM_DRAM_BASE, a2, NULL, 0, &l, &r);
    CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_FETCH, "entry outside code");
  }
  hg_sim_dram_free(m, buf);
  hg_sim_dram_free(m, ro);
}

/* Jobs that started: at most one core per host thread may be running when the launch is cut. */
static size_t started(const hg_sim_job_result *res, size_t nj, size_t *faulted) {
  size_t n = 0;
  *faulted = 0;
  for (size_t j = 0; j < nj; j++) {
    n += res[j].status != HG_SIM_JOB_NOT_RUN;
    *faulted += res[j].status == HG_SIM_JOB_FAULT;
  }
  return n;
}

static void test_hang_and_fault_order(void) {
  hg_sim_unload_code(m);
  /* case 0: exits; case 1: loops forever; case 2: loads from 0 */
  uint32_t w[48] = {0};
  w[0] = LI_SMALL(A0, 5);
  w[1] = ECALL;
  w[16] = JAL(X0, 0);
  w[32] = LD(A0, X0, 0);
  hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
  unsigned nc = hg_sim_core_count(m);
  size_t nj = 3 * nc;
  hg_sim_job *jobs = calloc(nj, sizeof *jobs);
  hg_sim_job_result *res = calloc(nj, sizeof *res);
  for (size_t j = 0; j < nj; j++) {
    jobs[j].pc = HG_SIM_CODE_BASE;
    jobs[j].a[7] = 93;
  }
  jobs[nc + 5].pc = HG_SIM_CODE_BASE + 128; /* core 5, its second job: faults */
  jobs[nc + 3].pc = HG_SIM_CODE_BASE + 128; /* core 3, second job: faults */
  hg_sim_launch l = {.jobs = jobs, .njobs = nj, .results = res, .max_cycles_per_job = 100000};
  int rc = hg_sim_run(m, &l);
  CHECK(rc == HG_SIM_EFAULT && l.fault.job == nc + 3 && l.fault.kind == HG_SIM_FAULT_LOAD && l.fault.core == 3,
        "lowest faulting job reported: job %zu kind %s", l.fault.job, hg_sim_fault_name(l.fault.kind));
  CHECK(res[nc + 5].status == HG_SIM_JOB_FAULT && res[2 * nc + 5].status == HG_SIM_JOB_NOT_RUN &&
            res[2 * nc + 3].status == HG_SIM_JOB_NOT_RUN && res[5].status == HG_SIM_JOB_DONE,
        "statuses after faults");
  size_t done = 0;
  for (size_t j = 0; j < nj; j++) done += res[j].status == HG_SIM_JOB_DONE && res[j].ret[0] == 5;
  CHECK(done == nj - 4, "other jobs ran: %zu of %zu", done, nj - 4);

  /* one job loops: the guard (simulated cycles of that job) ends it and the launch */
  jobs[nc + 3].pc = jobs[nc + 5].pc = HG_SIM_CODE_BASE;
  jobs[nc + 7].pc = HG_SIM_CODE_BASE + 64;
  rc = hg_sim_run(m, &l);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_HANG && l.fault.job == nc + 7 &&
            l.fault.pc == HG_SIM_CODE_BASE + 64 && l.fault.addr == 100000,
        "hang guard: %s job %zu pc %#" PRIx64, hg_sim_fault_name(l.fault.kind), l.fault.job, l.fault.pc);
  CHECK(res[7].status == HG_SIM_JOB_DONE && res[nc + 7].status == HG_SIM_JOB_FAULT &&
            res[2 * nc + 7].status == HG_SIM_JOB_NOT_RUN,
        "statuses around the hung job");
  /* the guard is per job: many jobs on one core, together far past it, are not a hang */
  for (size_t j = 0; j < nj; j++) jobs[j].pc = HG_SIM_CODE_BASE;
  hg_sim_launch few = {.jobs = jobs, .njobs = nj, .results = res, .max_cycles_per_job = 40};
  CHECK(hg_sim_run(m, &few) == HG_SIM_OK, "short jobs under a small per-job guard: %s",
        hg_sim_fault_name(few.fault.kind));

  /* every job loops: the first past its guard cuts the launch short, the others do not each
   * run out their own (at most one running job per host thread when it is cut) */
  for (size_t j = 0; j < nj; j++) jobs[j].pc = HG_SIM_CODE_BASE + 64;
  size_t faulted;
  for (unsigned threads = 1; threads <= 4; threads *= 2) {
    hg_sim_set_host_threads(m, threads);
    l.max_cycles_per_job = 2000000;
    rc = hg_sim_run(m, &l);
    size_t ran = started(res, nj, &faulted);
    CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_HANG && faulted == 1 && ran <= threads,
          "all hung, %u threads: %s, %zu jobs started, %zu faulted", threads, hg_sim_fault_name(l.fault.kind), ran,
          faulted);
  }
  /* the host time limit, with the guard far away */
  hg_sim_set_host_threads(m, 2);
  l.max_cycles_per_job = 0;
  l.time_limit_ns = 20000000;
  rc = hg_sim_run(m, &l);
  size_t ran = started(res, nj, &faulted);
  CHECK(rc == HG_SIM_EFAULT && l.fault.kind == HG_SIM_FAULT_TIME_LIMIT && l.fault.addr == 20000000 && faulted == 1 &&
            ran <= 2,
        "time limit: %s, %zu jobs started, %zu faulted", hg_sim_fault_name(l.fault.kind), ran, faulted);
  hg_sim_set_host_threads(m, 0);
  free(l.out);
  free(jobs);
  free(res);
  check_usable("hang");
}

static void test_atomics(unsigned threads) {
  hg_sim_unload_code(m);
  uint32_t w[10] = {ADDI(T0, X0, 1),   AMOADD_W(X0, T0, A0), LR_D(T1, A4),        ADDI(T1, T1, 1), SC_D(T2, T1, A4),
                    BNE(T2, X0, -12), ADDI(A1, A1, -1),      BNE(A1, X0, -28), AMOMAX_D(X0, A2, A3), ECALL};
  hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
  uint64_t buf;
  hg_sim_dram_alloc(m, 4096, &buf);
  uint8_t *host = hg_sim_dram_ptr(m, buf, 4096);
  memset(host, 0, 64);
  hg_sim_range r = {buf, 4096, true};
  size_t nj = 200;
  uint64_t iters = 500;
  hg_sim_job *jobs = calloc(nj, sizeof *jobs);
  for (size_t j = 0; j < nj; j++) {
    jobs[j].pc = HG_SIM_CODE_BASE;
    uint64_t a[8] = {buf, iters, (j * 7919) % 1000, buf + 8, buf + 16, 0, 0, 93};
    memcpy(jobs[j].a, a, sizeof a);
  }
  hg_sim_set_host_threads(m, threads);
  hg_sim_launch l = {.jobs = jobs, .njobs = nj, .ranges = &r, .nranges = 1};
  int rc = hg_sim_run(m, &l);
  uint32_t c32;
  uint64_t mx, c64;
  memcpy(&c32, host, 4);
  memcpy(&mx, host + 8, 8);
  memcpy(&c64, host + 16, 8);
  uint64_t want_max = 0;
  for (size_t j = 0; j < nj; j++) want_max = (j * 7919) % 1000 > want_max ? (j * 7919) % 1000 : want_max;
  CHECK(rc == 0, "atomics launch rc %d", rc);
  CHECK(c32 == nj * iters, "amoadd.w across cores (%u threads): %u expected %zu", threads, c32, nj * iters);
  CHECK(c64 == nj * iters, "lr/sc across cores (%u threads): %" PRIu64, threads, c64);
  CHECK(mx == want_max, "amomax.d across cores: %" PRIu64 " expected %" PRIu64, mx, want_max);
  free(jobs);
  hg_sim_dram_free(m, buf);
}

/* Determinism: the same launch with 1, 2 and 4 host threads gives the same memory, output
 * and per-core counters. */
typedef struct det_run {
  hg_sim_core_stats *stats;
  uint64_t *out_mem;
  char *out;
  size_t out_len;
  uint64_t max_cycles;
} det_run;

static void det_once(unsigned threads, det_run *d, uint64_t in, uint64_t outb, size_t nj) {
  hg_sim_set_host_threads(m, threads);
  hg_sim_range r[2] = {{in, 8 * 4096, false}, {outb, 8 * nj, true}};
  memset(hg_sim_dram_ptr(m, outb, 8 * nj), 0xa5, 8 * nj); /* poison */
  hg_sim_job *jobs = calloc(nj, sizeof *jobs);
  for (size_t j = 0; j < nj; j++) {
    char msg[8] = {0};
    snprintf(msg, sizeof msg, "J%04zu\n", j % 10000);
    uint64_t packed;
    memcpy(&packed, msg, 8);
    uint64_t a[8] = {in + 8 * (j % 97), 50 + j % 37, outb, j, packed, 3 + j % 5, 0, 0};
    jobs[j].pc = HG_SIM_CODE_BASE;
    memcpy(jobs[j].a, a, sizeof a);
  }
  d->stats = calloc(hg_sim_core_count(m), sizeof *d->stats);
  hg_sim_launch l = {.jobs = jobs, .njobs = nj, .ranges = r, .nranges = 2, .stats = d->stats};
  int rc = hg_sim_run(m, &l);
  CHECK(rc == 0, "determinism launch (%u threads): rc %d %s pc %#" PRIx64, threads, rc, hg_sim_fault_name(l.fault.kind), l.fault.pc);
  d->out_mem = malloc(8 * nj);
  memcpy(d->out_mem, hg_sim_dram_ptr(m, outb, 8 * nj), 8 * nj);
  d->out = l.out;
  d->out_len = l.out_len;
  d->max_cycles = l.max_cycles;
  free(jobs);
}

static void test_determinism(void) {
  hg_sim_unload_code(m);
  uint32_t w[] = {
      ADDI(T0, X0, 0), ADD(T1, A0, X0), ADD(T2, A1, X0),
      /* loop: */ LD(S0, T1, 0), MUL(S0, S0, A3), ADD(T0, T0, S0), ADDI(T1, T1, 8), ADDI(T2, T2, -1), BNE(T2, X0, -20),
      DIVU(T0, T0, A5), FCVT_D_LU(0, T0), FSQRT_D(0, 0), FMV_X_D(S1, 0), ADD(T0, T0, S1),
      SLLI(S1, A3, 3), ADD(S1, A2, S1), SD(T0, S1, 0),
      SD(A4, SP, -16), ADDI(A1, SP, -16), ADDI(A0, X0, 1), ADDI(A2, X0, 6), ADDI(A7, X0, 64), ECALL,
      ADDI(A7, X0, 93), ECALL};
  hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
  size_t nj = 500;
  uint64_t in, outb;
  hg_sim_dram_alloc(m, 8 * 4096, &in);
  hg_sim_dram_alloc(m, 8 * nj, &outb);
  uint64_t *hin = hg_sim_dram_ptr(m, in, 8 * 4096);
  for (size_t i = 0; i < 4096; i++) hin[i] = hg_t_rand() >> 8;
  det_run d[3];
  unsigned th[3] = {1, 2, 4};
  for (int k = 0; k < 3; k++) det_once(th[k], &d[k], in, outb, nj);
  /* independent reference for the memory results and the output */
  size_t bad = 0;
  for (size_t j = 0; j < nj; j++) {
    uint64_t sum = 0, n = 50 + j % 37;
    for (uint64_t i = 0; i < n; i++) sum += hin[j % 97 + i] * j;
    sum /= 3 + j % 5;
    double s = sqrt((double)sum);
    uint64_t bits;
    memcpy(&bits, &s, 8);
    bad += d[0].out_mem[j] != sum + bits;
  }
  CHECK(bad == 0, "determinism workload results: %zu wrong", bad);
  CHECK(d[0].out_len == 6 * nj && !memcmp(d[0].out, "J0000\nJ0001\n", 12) && !memcmp(d[0].out + 6 * 499, "J0499\n", 6),
        "output concatenated in job order (%zu bytes)", d[0].out_len);
  unsigned nc = hg_sim_core_count(m);
  for (int k = 1; k < 3; k++) {
    CHECK(!memcmp(d[0].out_mem, d[k].out_mem, 8 * nj), "memory same with %u threads", th[k]);
    CHECK(d[0].out_len == d[k].out_len && !memcmp(d[0].out, d[k].out, d[0].out_len), "output same with %u threads", th[k]);
    CHECK(!memcmp(d[0].stats, d[k].stats, nc * sizeof *d[0].stats), "per-core counters same with %u threads", th[k]);
    CHECK(d[0].max_cycles == d[k].max_cycles, "max cycles same with %u threads", th[k]);
  }
  /* the counters mean something: far cores pay more for DRAM than near ones */
  uint64_t total_reads = 0;
  for (unsigned c = 0; c < nc; c++) total_reads += d[0].stats[c].dram_reads;
  uint64_t want_reads = 0;
  for (size_t j = 0; j < nj; j++) want_reads += 50 + j % 37;
  CHECK(total_reads == want_reads, "dram reads counted: %" PRIu64 " expected %" PRIu64, total_reads, want_reads);
  printf("determinism: max cycles %" PRIu64 ", core 0: %" PRIu64 " insns %" PRIu64 " cycles %" PRIu64 " NoC bytes\n",
         d[0].max_cycles, d[0].stats[0].insns, d[0].stats[0].cycles, d[0].stats[0].noc_bytes);
  for (int k = 0; k < 3; k++) {
    free(d[k].stats);
    free(d[k].out_mem);
    free(d[k].out);
  }
  hg_sim_dram_free(m, in);
  hg_sim_dram_free(m, outb);
  hg_sim_set_host_threads(m, 0);
}

/* The cost model's figures, exactly as documented (default costs). */
static void test_costs(void) {
  hg_sim_unload_code(m);
  uint32_t w[16] = {LD(A0, A1, 0), ECALL};
  w[8] = ADDI(A0, A0, 1);
  w[9] = ADDI(A0, A0, 1);
  w[10] = LD(A2, SP, -8);
  w[11] = MUL(A0, A0, A0);
  w[12] = ECALL;
  hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
  uint64_t buf;
  hg_sim_dram_alloc(m, 4096, &buf);
  hg_sim_range r = {buf, 4096, false};
  unsigned nc = hg_sim_core_count(m);
  hg_sim_job *jobs = calloc(nc, sizeof *jobs);
  for (unsigned j = 0; j < nc; j++) {
    jobs[j].pc = HG_SIM_CODE_BASE;
    jobs[j].a[1] = buf; /* channel of (buf >> 11) & 63 */
    jobs[j].a[7] = 93;
  }
  jobs[1].pc = HG_SIM_CODE_BASE + 32;
  hg_sim_core_stats *st = calloc(nc, sizeof *st);
  hg_sim_launch l = {.jobs = jobs, .njobs = nc, .ranges = &r, .nranges = 1, .stats = st};
  CHECK(hg_sim_run(m, &l) == 0, "cost launch");
  /* core 1 (x=1, y=0): 5 instructions, L1 load +1, mul +2, ecall +10 */
  CHECK(st[1].insns == 5 && st[1].cycles == 5 + 1 + 2 + 10 && st[1].l1_bytes == 8, "core 1: %" PRIu64 " insns %" PRIu64 " cycles",
        st[1].insns, st[1].cycles);
  /* DRAM load: 2 * hops * 9 + 100 with hops the Manhattan distance to the channel's controller */
  unsigned ch = (unsigned)((buf >> 11) & 63) % 6, per_side = 3;
  int cx = (ch & 1) ? 8 : -1, cy = (int)(((2 * (ch / 2) + 1) * 10) / (2 * per_side));
  size_t bad = 0;
  for (unsigned c = 0; c < nc; c++) {
    if (c == 1) continue;
    int x = (int)(c % 8), y = (int)(c / 8);
    unsigned hops = (unsigned)(abs(x - cx) + abs(y - cy));
    uint64_t want = 2 + 2 * hops * 9 + 100 + 10;
    if (st[c].cycles != want || st[c].dram_reads != 1 || st[c].noc_bytes != 8 || st[c].noc_flits != 2) {
      if (bad++ < 3) printf("core %u: %" PRIu64 " cycles, expected %" PRIu64 "\n", c, st[c].cycles, want);
    }
  }
  CHECK(bad == 0, "DRAM cost = NoC hops + latency on every core (%zu wrong)", bad);
  free(l.out);
  free(st);
  free(jobs);
  hg_sim_dram_free(m, buf);
}

static void test_code_write_and_validation(void) {
  hg_sim_unload_code(m);
  uint32_t w[2] = {LI_SMALL(A0, 1), ECALL};
  hg_sim_load_code(m, HG_SIM_CODE_BASE, w, sizeof w);
  uint64_t a[8] = {0, 0, 0, 0, 0, 0, 0, 93};
  hg_sim_launch l;
  hg_sim_job_result r;
  run1(HG_SIM_CODE_BASE, a, NULL, 0, &l, &r);
  CHECK(r.ret[0] == 1, "before code write");
  uint32_t patch = LI_SMALL(A0, 2);
  CHECK(hg_sim_write_code(m, HG_SIM_CODE_BASE, &patch, 4) == 0, "write code");
  run1(HG_SIM_CODE_BASE, a, NULL, 0, &l, &r);
  CHECK(r.ret[0] == 2, "after code write the new instruction runs: %" PRIu64, r.ret[0]);
  CHECK(hg_sim_write_code(m, HG_SIM_CODE_BASE + 4, w, 8) == HG_SIM_EINVAL, "write past a segment refused");
  CHECK(hg_sim_load_code(m, HG_SIM_DRAM_BASE, w, 8) == HG_SIM_EINVAL, "code outside the code window refused");
  hg_sim_range bad = {HG_SIM_L1_BASE, 16, true};
  CHECK(run1(HG_SIM_CODE_BASE, a, &bad, 1, &l, &r) == HG_SIM_EINVAL, "range outside DRAM refused");
  hg_sim_range bad2 = {HG_SIM_DRAM_BASE + (1ull << 30) - 8, 16, true};
  CHECK(run1(HG_SIM_CODE_BASE, a, &bad2, 1, &l, &r) == HG_SIM_EINVAL, "range past DRAM refused");
  char why[128] = "";
  hg_sim_elf_image img;
  CHECK(hg_sim_load_elf(m, "not an elf at all, definitely not", 34, &img, why, sizeof why) == HG_SIM_EINVAL && why[0],
        "non-ELF refused with a reason");
  hg_sim_config cfg;
  hg_sim_default_config(&cfg);
  cfg.grid_w = 0;
  hg_sim_machine *m2;
  CHECK(hg_sim_create(&cfg, &m2) == HG_SIM_EINVAL, "bad config refused");
  /* a small custom grid works */
  hg_sim_default_config(&cfg);
  cfg.grid_w = 2;
  cfg.grid_h = 3;
  cfg.l1_size = 64 * 1024;
  cfg.dram_size = 16 << 20;
  CHECK(hg_sim_create(&cfg, &m2) == 0 && hg_sim_core_count(m2) == 6, "2x3 grid");
  hg_sim_load_code(m2, HG_SIM_CODE_BASE, w, sizeof w);
  hg_sim_job jobs[13];
  hg_sim_job_result res[13];
  for (int j = 0; j < 13; j++) { memset(&jobs[j], 0, sizeof jobs[j]); jobs[j].pc = HG_SIM_CODE_BASE; jobs[j].a[7] = 93; }
  hg_sim_core_stats st[6];
  hg_sim_launch l2 = {.jobs = jobs, .njobs = 13, .results = res, .stats = st};
  CHECK(hg_sim_run(m2, &l2) == 0 && res[12].ret[0] == 1 && st[0].jobs == 3 && st[1].jobs == 2, "13 jobs on 6 cores: job i on core i %% 6");
  hg_sim_destroy(m2);
}

int main(void) {
  hg_t_seed(0xabcdefull ^ (uint64_t)time(NULL));
  CHECK(hg_sim_create(NULL, &m) == 0, "create");
  printf("machine: %u cores, %u host threads by default\n", hg_sim_core_count(m), hg_sim_host_threads(m));
  test_faults();
  test_hang_and_fault_order();
  test_atomics(1);
  test_atomics(2);
  test_atomics(4);
  test_determinism();
  test_costs();
  test_code_write_and_validation();
  hg_sim_destroy(m);
  return hg_t_finish();
}
