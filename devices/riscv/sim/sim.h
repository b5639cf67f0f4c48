/* The RISC-V many-core simulator: a grid of RV64IMAFD cores (Tenstorrent-style tiles), each
 * with a private L1 SRAM, sharing one device DRAM through a 2-D network-on-chip model.
 * docs/riscv-simulator.md describes the machine, the cost model and the runtime ABI.
 *
 * Address map seen by every core (64-bit virtual addresses):
 *   HG_SIM_CODE_BASE .. +256 MiB   code segments loaded with hg_sim_load_code (read + execute)
 *   HG_SIM_L1_BASE   .. +l1_size   this core's own L1 SRAM (local memory and stack)
 *   HG_SIM_DRAM_BASE .. +dram_size device DRAM shared by all cores; a launch may touch only
 *                                  the ranges it lists (hg_sim_range)
 *   HG_SIM_WINDOW_ADDR(k) + base   window k (1..HG_SIM_MAX_WINDOW): a range listed with window k
 *                                  is seen there only, DRAM or its part of the core's L1
 * Everything else faults. A launch runs a list of jobs (one work-group each); job i runs on
 * core i % ncores, the jobs of one core in order. Results and cycle counts do not depend on
 * the number of host threads. */
#ifndef HETGPU_DEVICES_RISCV_SIM_SIM_H
#define HETGPU_DEVICES_RISCV_SIM_SIM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_SIM_CODE_BASE 0x10000000ull
#define HG_SIM_CODE_WINDOW 0x10000000ull
#define HG_SIM_L1_BASE 0x20000000ull
#define HG_SIM_L1_MAX (64ull << 20)
#define HG_SIM_DRAM_BASE 0x40000000ull
#define HG_SIM_DRAM_MAX (64ull << 30)
/* Windows: a range may be seen at HG_SIM_WINDOW_ADDR(k) + its base instead of at its own
 * address, so that each buffer of a launch is alone in a terabyte of address space: an access
 * past one buffer meets unmapped addresses, not the next buffer (per-buffer protection at no
 * cost to the fast path). Windows keep the low 40 bits of an address, so DRAM channels, and
 * with them the cycle counts, are those of the range's own address. */
#define HG_SIM_WINDOW_SHIFT 40
#define HG_SIM_MAX_WINDOW ((1u << 20) - 1)
#define HG_SIM_WINDOW_ADDR(k) ((uint64_t)(k) << HG_SIM_WINDOW_SHIFT)
/* A job whose entry function returns (jumps here, the initial ra) ends like exit(a0). */
#define HG_SIM_RETURN_ADDR 0x0000000000000ff0ull

/* Runtime services: ecall with the service number in a7 (Linux numbers where they exist). */
enum {
  HG_SIM_SVC_WRITE = 64,        /* a0 fd (1 or 2), a1 buffer, a2 length -> a0 length */
  HG_SIM_SVC_EXIT = 93,         /* a0 exit value: the job ends */
  HG_SIM_SVC_EXIT_GROUP = 94,   /* same as exit */
  HG_SIM_SVC_CORE_INFO = 0x1000, /* -> a0 core index, a1 x, a2 y, a3 number of cores */
  HG_SIM_SVC_JOB_INFO = 0x1001,  /* -> a0 job index, a1 number of jobs in the launch */
  HG_SIM_SVC_ABORT = 0x1002,     /* a0 code: the job stops with fault HG_SIM_FAULT_ABORT */
  HG_SIM_SVC_STOP_POLL = 0x1003, /* -> a0 = 1 when the launch is stopping (hg_sim_launch.stop), else 0 */
};

typedef struct hg_sim_costs {
  /* extra cycles beyond the base 1 per instruction */
  uint32_t branch_taken, mul, div, div_w, fp_add, fp_mul, fp_fma, fp_div_s, fp_div_d, fp_sqrt_s,
      fp_sqrt_d, fp_cvt, fp_move, l1_load, l1_store, csr, ecall;
  uint32_t noc_hop;     /* cycles per router hop (each way) */
  uint32_t dram_latency; /* cycles at the DRAM controller for a read or an atomic */
  uint32_t dram_store;  /* issue cost of a posted store beyond the hops to leave the tile */
} hg_sim_costs;

/* The hang guard's default: 10 s of simulated time at the cost model's 1 GHz, per job. */
#define HG_SIM_DEFAULT_GUARD_CYCLES 10000000000ull

typedef struct hg_sim_config {
  unsigned grid_w, grid_h;   /* tiles: default 8 x 10 */
  uint64_t l1_size;          /* bytes per tile: default 1464 KiB */
  uint64_t dram_size;        /* bytes: default 1 GiB */
  unsigned dram_channels;    /* DRAM controllers on the grid's west and east edges: default 6 */
  unsigned host_threads;     /* 0: HETGPU_SIM_THREADS, else physical cores (hwloc) */
  uint64_t max_cycles_per_job; /* hang guard: simulated cycles one job may take (0: the default);
                                  past it the job faults with HANG */
  uint64_t max_output;       /* bytes of write() output kept per job: default 1 MiB */
  hg_sim_costs costs;        /* all zero: defaults */
} hg_sim_config;

typedef struct hg_sim_machine hg_sim_machine;

/* Memory a launch's jobs may touch besides their core's L1 and the code. base: a DRAM address,
 * or with l1 an offset in the running core's own L1 (each core sees its own). window 0: seen at
 * base itself (DRAM only); k > 0: seen only at HG_SIM_WINDOW_ADDR(k) + base. */
typedef struct hg_sim_range {
  uint64_t base, size;
  bool writable;
  bool l1;
  uint32_t window;
} hg_sim_range;

typedef struct hg_sim_job {
  uint64_t pc;
  uint64_t a[8]; /* a0..a7 */
  uint64_t sp;   /* 0: top of L1 */
} hg_sim_job;

typedef enum hg_sim_fault_kind {
  HG_SIM_FAULT_NONE = 0,
  HG_SIM_FAULT_LOAD,            /* load outside the allowed ranges */
  HG_SIM_FAULT_STORE,           /* store (or atomic) outside the writable ranges */
  HG_SIM_FAULT_FETCH,           /* instruction fetch outside the code segments */
  HG_SIM_FAULT_FETCH_MISALIGNED, /* jump target not 4-byte aligned */
  HG_SIM_FAULT_ATOMIC_MISALIGNED, /* LR/SC/AMO address not naturally aligned */
  HG_SIM_FAULT_ILLEGAL,         /* illegal or unsupported instruction */
  HG_SIM_FAULT_BREAKPOINT,      /* ebreak */
  HG_SIM_FAULT_ECALL,           /* unknown service (addr = a7) or bad arguments */
  HG_SIM_FAULT_ABORT,           /* HG_SIM_SVC_ABORT (addr = a0) */
  HG_SIM_FAULT_HANG,            /* the job ran past the guard (max_cycles_per_job; addr = it) */
  HG_SIM_FAULT_TIME_LIMIT,      /* the launch ran past its host time limit (addr = the limit, ns) */
} hg_sim_fault_kind;

typedef struct hg_sim_fault {
  hg_sim_fault_kind kind;
  uint64_t pc;   /* the faulting instruction */
  uint64_t addr; /* data or target address, service number, abort code */
  uint32_t insn; /* its encoding (0 when not fetchable) */
  unsigned core;
  size_t job;
} hg_sim_fault;

/* CUT: it was running when the launch was cut short (another job's HANG or TIME_LIMIT fault). */
typedef enum hg_sim_job_status {
  HG_SIM_JOB_NOT_RUN = 0,
  HG_SIM_JOB_DONE,
  HG_SIM_JOB_FAULT,
  HG_SIM_JOB_CUT
} hg_sim_job_status;

typedef struct hg_sim_job_result {
  hg_sim_job_status status;
  uint64_t ret[2]; /* a0, a1 at exit */
  uint32_t fflags; /* accrued FP exception flags at exit */
} hg_sim_job_result;

typedef struct hg_sim_core_stats {
  uint64_t jobs, insns, cycles;
  uint64_t l1_bytes;            /* bytes loaded or stored in L1 */
  uint64_t dram_reads, dram_writes; /* accesses (atomics count as reads) */
  uint64_t noc_bytes, noc_flits;
} hg_sim_core_stats;

typedef struct hg_sim_launch {
  const hg_sim_job *jobs;
  size_t njobs;
  const hg_sim_range *ranges; /* memory the jobs may touch besides L1 and code (at most 256) */
  size_t nranges;
  uint64_t max_cycles_per_job; /* 0: the machine's */
  /* Host time the launch may run, from when it has the machine (0: no limit). A job past it
   * faults with TIME_LIMIT, and the launch is cut short as after a HANG. */
  uint64_t time_limit_ns;
  /* Stopping early (optional). The launch is *stopping* once *stop reads true (any thread may
   * set it at any time) or, with stop_after > 0, at its stop_after-th STOP_POLL (counted over
   * all cores). From then on every STOP_POLL answers 1 and no job starts (the ones not started
   * stay HG_SIM_JOB_NOT_RUN); the running jobs decide themselves how to end. */
  const atomic_bool *stop;
  uint64_t stop_after;
  /* outputs */
  hg_sim_job_result *results; /* optional: njobs entries */
  hg_sim_core_stats *stats;   /* optional: hg_sim_core_count() entries, this launch only */
  char *out;                  /* write() output, per job in job order (malloc'd; caller frees) */
  size_t out_len;
  bool out_truncated;
  hg_sim_fault fault;         /* the fault of the lowest-numbered faulting job */
  uint64_t max_cycles;        /* the largest per-core cycle count: the launch's device time */
  bool stopped;               /* the launch was stopping before it ended */
} hg_sim_launch;

enum { HG_SIM_OK = 0, HG_SIM_EFAULT = -1, HG_SIM_EINVAL = -2, HG_SIM_ENOMEM = -3 };

void hg_sim_default_config(hg_sim_config *cfg);
int hg_sim_create(const hg_sim_config *cfg, hg_sim_machine **out);
void hg_sim_destroy(hg_sim_machine *m);
unsigned hg_sim_core_count(const hg_sim_machine *m);
unsigned hg_sim_host_threads(const hg_sim_machine *m);
void hg_sim_set_host_threads(hg_sim_machine *m, unsigned n); /* 0: default */
const hg_sim_config *hg_sim_get_config(const hg_sim_machine *m);

/* Code: a segment of 4-byte instructions at addr (inside the code window). Loading over an
 * existing segment's range replaces it; hg_sim_write_code patches bytes of a loaded segment
 * and re-decodes what it touched. */
int hg_sim_load_code(hg_sim_machine *m, uint64_t addr, const void *bytes, size_t size);
int hg_sim_write_code(hg_sim_machine *m, uint64_t addr, const void *bytes, size_t size);
void hg_sim_unload_code(hg_sim_machine *m);

/* DRAM: host view of [addr, addr+size) (NULL when outside DRAM), and a first-fit allocator of
 * DRAM ranges (4 KiB aligned) for backends that want one. */
void *hg_sim_dram_ptr(hg_sim_machine *m, uint64_t addr, uint64_t size);
int hg_sim_dram_alloc(hg_sim_machine *m, uint64_t size, uint64_t *addr);
void hg_sim_dram_free(hg_sim_machine *m, uint64_t addr);

/* Runs the jobs to completion. HG_SIM_OK, or HG_SIM_EFAULT with launch->fault set (the other
 * jobs still ran, except after a HANG or TIME_LIMIT fault: then the launch is cut short, the
 * running jobs end at their next guard check as HG_SIM_JOB_CUT and no further job starts), or
 * HG_SIM_EINVAL for a bad request. Launches on one machine serialise. */
int hg_sim_run(hg_sim_machine *m, hg_sim_launch *launch);

/* ELF (RV64, static, little-endian): executable PT_LOAD segments become code segments, the
 * others are copied into DRAM (bss zeroed) and listed as ranges (writable when PF_W). */
typedef struct hg_sim_elf_image {
  uint64_t entry;
  hg_sim_range ranges[16];
  size_t nranges;
} hg_sim_elf_image;
int hg_sim_load_elf(hg_sim_machine *m, const void *bytes, size_t size, hg_sim_elf_image *out, char *why,
                    size_t why_size);

const char *hg_sim_fault_name(hg_sim_fault_kind kind);

#endif
