/* Simulated instructions per second of the RISC-V simulator, per host thread count: a tight
 * integer loop, kernel-like loops (SAXPY in float and a double dot product over DRAM buffers,
 * a SAXPY over L1), and optionally static ELF programs given on the command line (one job
 * each, e.g. the differential test programs). Prints figures; asserts nothing about speed.
 *   bench-riscv-sim [--threads N] [--kernel K] [--scale S] [program.elf ...]
 * --kernel K runs only built-in kernel K (0..4, in the order printed), --scale S divides the
 * work by S: for profiling one kernel under callgrind/cachegrind. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devices/riscv/sim/sim.h"

static uint32_t r_(unsigned op, unsigned f3, unsigned f7, unsigned rd, unsigned rs1, unsigned rs2) {
  return op | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}
static uint32_t i_(unsigned op, unsigned f3, unsigned rd, unsigned rs1, int32_t imm) {
  return op | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static uint32_t s_(unsigned op, unsigned f3, unsigned rs1, unsigned rs2, int32_t imm) {
  uint32_t u = (uint32_t)imm;
  return op | (u & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((u >> 5) & 0x7f) << 25;
}
static uint32_t b_(unsigned f3, unsigned rs1, unsigned rs2, int32_t off) {
  uint32_t u = (uint32_t)off;
  return 0x63 | ((u >> 11) & 1) << 7 | ((u >> 1) & 0xf) << 8 | f3 << 12 | rs1 << 15 | rs2 << 20 |
         ((u >> 5) & 0x3f) << 25 | ((u >> 12) & 1) << 31;
}
static uint32_t r4_(unsigned op, unsigned fmt, unsigned rd, unsigned rs1, unsigned rs2, unsigned rs3) {
  return op | rd << 7 | 7u << 12 | rs1 << 15 | rs2 << 20 | fmt << 25 | rs3 << 27;
}
enum { A0 = 10, A1, A2, A3, A4, A5, A6, A7 };
#define ECALL 0x00000073u

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* kernels, each at its own address; arguments in a0..a5, exit with a7 = 93 */
static uint32_t code[5][32];
static const char *const names[5] = {"tight integer loop", "saxpy f32 (DRAM)", "dot f64 (DRAM)", "saxpy f32 (L1)",
                                     "unrolled ALU loop"};
static void build(void) {
  /* a1 = iterations: addi, xor, add, addi, bne */
  uint32_t t[] = {i_(0x13, 0, A0, A0, 1), r_(0x33, 4, 0, A2, A2, A0), r_(0x33, 0, 0, A3, A3, A2), i_(0x13, 0, A1, A1, -1),
                  b_(1, A1, 0, -16), ECALL};
  /* a0 = x, a1 = y, a2 = n, f0 = alpha (from a3): y[i] = alpha * x[i] + y[i] */
  uint32_t s[] = {r_(0x53, 0, 0x78, 0, A3, 0), i_(0x07, 2, 1, A0, 0), i_(0x07, 2, 2, A1, 0), r4_(0x43, 0, 2, 0, 1, 2),
                  s_(0x27, 2, A1, 2, 0), i_(0x13, 0, A0, A0, 4), i_(0x13, 0, A1, A1, 4), i_(0x13, 0, A2, A2, -1),
                  b_(1, A2, 0, -28), ECALL};
  /* a0 = x, a1 = y, a2 = n: f3 += x[i] * y[i]; result bits in a0 */
  uint32_t d[] = {r_(0x53, 0, 0x79, 3, 0, 0), i_(0x07, 3, 1, A0, 0), i_(0x07, 3, 2, A1, 0), r4_(0x43, 1, 3, 1, 2, 3),
                  i_(0x13, 0, A0, A0, 8), i_(0x13, 0, A1, A1, 8), i_(0x13, 0, A2, A2, -1), b_(1, A2, 0, -24),
                  r_(0x53, 0, 0x71, A0, 3, 0), ECALL};
  memcpy(code[0], t, sizeof t);
  memcpy(code[1], s, sizeof s);
  memcpy(code[2], d, sizeof d);
  memcpy(code[3], s, sizeof s);
  /* 16 ALU operations on 4 independent chains, then addi + bne */
  for (int i = 0; i < 16; i++) {
    unsigned rd = 5 + (unsigned)(i & 3); /* t0..t3 (x5..x8) */
    code[4][i] = (i & 1) ? r_(0x33, 4, 0, rd, rd, A0) : i_(0x13, 0, rd, rd, i + 1);
  }
  code[4][16] = i_(0x13, 0, A1, A1, -1);
  code[4][17] = b_(1, A1, 0, -68);
  code[4][18] = ECALL;
}

int main(int argc, char **argv) {
  unsigned max_threads = 0;
  int argi = 1, only = -1, scale = 1;
  for (; argi + 1 < argc && !strncmp(argv[argi], "--", 2); argi += 2) {
    if (!strcmp(argv[argi], "--threads")) max_threads = (unsigned)atoi(argv[argi + 1]);
    else if (!strcmp(argv[argi], "--kernel")) only = atoi(argv[argi + 1]);
    else if (!strcmp(argv[argi], "--scale") && atoi(argv[argi + 1]) > 0) scale = atoi(argv[argi + 1]);
  }
  hg_sim_machine *m;
  if (hg_sim_create(NULL, &m)) return 1;
  if (!max_threads) max_threads = hg_sim_host_threads(m) < 4 ? 4 : hg_sim_host_threads(m);
  build();
  hg_sim_load_code(m, HG_SIM_CODE_BASE, code, sizeof code);
  unsigned nc = hg_sim_core_count(m);
  size_t n = 4096; /* elements per job */
  uint64_t x, y;
  hg_sim_dram_alloc(m, (uint64_t)nc * n * 8, &x);
  hg_sim_dram_alloc(m, (uint64_t)nc * n * 8, &y);
  float *hx = hg_sim_dram_ptr(m, x, (uint64_t)nc * n * 8), *hy = hg_sim_dram_ptr(m, y, (uint64_t)nc * n * 8);
  for (size_t i = 0; i < (size_t)nc * n * 2; i++) {
    hx[i] = (float)(i % 100) * 0.5f;
    hy[i] = 1.0f;
  }
  hg_sim_range ranges[2] = {{x, (uint64_t)nc * n * 8, false}, {y, (uint64_t)nc * n * 8, true}};
  hg_sim_job *jobs = calloc(nc, sizeof *jobs);
  hg_sim_core_stats *st = calloc(nc, sizeof *st);
  printf("machine: %u cores (%ux%u), %u host threads by default (hwloc/HETGPU_SIM_THREADS)\n", nc,
         hg_sim_get_config(m)->grid_w, hg_sim_get_config(m)->grid_h, hg_sim_host_threads(m));
  printf("%-22s %7s %12s %9s %10s %12s %14s\n", "kernel", "threads", "sim insns", "seconds", "MIPS", "MIPS/thread",
         "sim cycles/ins");
  for (int k = 0; k < 5; k++) {
    if (only >= 0 && k != only) continue;
    for (unsigned t = 1; t <= max_threads; t *= 2) {
      hg_sim_set_host_threads(m, t);
      double best = 1e30;
      uint64_t insns = 0, cycles = 0;
      for (int rep = 0; rep < 3; rep++) {
        for (unsigned j = 0; j < nc; j++) {
          memset(&jobs[j], 0, sizeof jobs[j]);
          jobs[j].pc = HG_SIM_CODE_BASE + 128 * (uint64_t)k;
          jobs[j].a[7] = 93;
          if (k == 0) jobs[j].a[1] = 2000000 / scale;
          else if (k == 4) jobs[j].a[1] = 600000 / scale;
          else if (k == 3) {
            jobs[j].a[0] = HG_SIM_L1_BASE;
            jobs[j].a[1] = HG_SIM_L1_BASE + 4 * n;
            jobs[j].a[2] = n;
            jobs[j].a[3] = 0x40000000; /* 2.0f */
          } else {
            jobs[j].a[0] = x + (uint64_t)j * n * 8;
            jobs[j].a[1] = y + (uint64_t)j * n * 8;
            jobs[j].a[2] = k == 1 ? 2 * n : n;
            jobs[j].a[3] = 0x40000000;
          }
        }
        /* kernels over memory run 40 times per job to last long enough */
        size_t reps = k == 0 || k == 4 ? 1 : (40 + scale - 1) / scale;
        hg_sim_job *many = calloc(nc * reps, sizeof *many);
        for (size_t r = 0; r < reps; r++) memcpy(many + r * nc, jobs, nc * sizeof *jobs);
        hg_sim_launch l = {.jobs = many, .njobs = nc * reps, .ranges = ranges, .nranges = 2, .stats = st};
        double t0 = now();
        int rc = hg_sim_run(m, &l);
        double dt = now() - t0;
        free(many);
        if (rc) {
          printf("launch failed: %s at %#" PRIx64 "\n", hg_sim_fault_name(l.fault.kind), l.fault.pc);
          return 1;
        }
        insns = cycles = 0;
        for (unsigned c = 0; c < nc; c++) {
          insns += st[c].insns;
          cycles += st[c].cycles;
        }
        if (dt < best) best = dt;
      }
      printf("%-22s %7u %12" PRIu64 " %9.3f %10.0f %12.0f %14.2f\n", names[k], t, insns, best, insns / best / 1e6,
             insns / best / 1e6 / t, (double)cycles / insns);
    }
  }
  /* launch overhead: 80 jobs that exit at once, 2000 launches */
  for (unsigned t = 1; only < 0 && t <= max_threads; t *= 2) {
    hg_sim_set_host_threads(m, t);
    for (unsigned j = 0; j < nc; j++) {
      memset(&jobs[j], 0, sizeof jobs[j]);
      jobs[j].pc = HG_SIM_CODE_BASE + 128 * 4 + 4 * 18; /* the ecall of the last kernel */
      jobs[j].a[7] = 93;
    }
    double t0 = now();
    for (int r = 0; r < 2000; r++) {
      hg_sim_launch l = {.jobs = jobs, .njobs = nc, .ranges = ranges, .nranges = 2};
      hg_sim_run(m, &l);
    }
    printf("%-22s %7u %12s %9.3f %10s   %.1f us per launch of %u empty jobs\n", "launch overhead", t, "", now() - t0,
           "", (now() - t0) / 2000 * 1e6, nc);
  }
  /* ELF programs: one job each */
  for (int i = argi; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) continue;
    static char buf[1 << 24];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    hg_sim_unload_code(m);
    hg_sim_elf_image img;
    char why[256];
    if (hg_sim_load_elf(m, buf, len, &img, why, sizeof why)) {
      printf("%s: %s\n", argv[i], why);
      continue;
    }
    hg_sim_job job = {.pc = img.entry};
    hg_sim_launch l = {.jobs = &job, .njobs = 1, .ranges = img.ranges, .nranges = img.nranges, .stats = st};
    double t0 = now();
    int rc = hg_sim_run(m, &l);
    double dt = now() - t0;
    free(l.out);
    const char *nm = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    printf("%-22s %7u %12" PRIu64 " %9.3f %10.0f %12.0f %14.2f%s\n", nm, 1, st[0].insns, dt, st[0].insns / dt / 1e6,
           st[0].insns / dt / 1e6, (double)st[0].cycles / st[0].insns, rc ? " (FAULT)" : "");
  }
  free(jobs);
  free(st);
  hg_sim_destroy(m);
  return 0;
}
