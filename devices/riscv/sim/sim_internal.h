/* Internals shared by the simulator's files: the predecoded instruction, code segments, the
 * per-core state and the machine. */
#ifndef HETGPU_DEVICES_RISCV_SIM_INTERNAL_H
#define HETGPU_DEVICES_RISCV_SIM_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "devices/riscv/sim/sim.h"

#define HG_SIM_LIKELY(x) __builtin_expect(!!(x), 1)
#define HG_SIM_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* One instruction decoded once: the interpreter's handler address (computed goto), the
 * immediate, registers. x0 as a destination is
 * decoded as register 32, a sink nobody reads, so handlers never test rd == 0. Branch and jal
 * offsets are in bytes of predecoded code (the interpreter adds them to its pointer). For FP
 * operations `imm` holds the rounding mode (7 = dynamic) in bits 0-2 and the operation in
 * bits 8 and up (the RMM emulation needs it). */
typedef struct hg_sim_insn {
  const void *h;
  int32_t imm;
  uint8_t rd, rs1, rs2, rs3;
} hg_sim_insn;

/* Operation list: the decoder produces these, the interpreter has one label per entry. */
#define HG_SIM_OPS(X)                                                                                   \
  X(ILLEGAL) X(FALLOFF) X(FARJUMP) X(FARBR)                                                               \
  X(LUI) X(AUIPC) X(JAL) X(JALR) X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU)                              \
  X(LB) X(LH) X(LW) X(LD) X(LBU) X(LHU) X(LWU) X(SB) X(SH) X(SW) X(SD)                                    \
  X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI)                                 \
  X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND)                                   \
  X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW)                             \
  X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU)                                         \
  X(MULW) X(DIVW) X(DIVUW) X(REMW) X(REMUW)                                                               \
  X(FENCE) X(ECALL) X(EBREAK) X(CSRRW) X(CSRRS) X(CSRRC) X(CSRRWI) X(CSRRSI) X(CSRRCI)                    \
  X(LR_W) X(SC_W) X(LR_D) X(SC_D)                                                                         \
  X(AMOSWAP_W) X(AMOADD_W) X(AMOXOR_W) X(AMOAND_W) X(AMOOR_W) X(AMOMIN_W) X(AMOMAX_W) X(AMOMINU_W)       \
  X(AMOMAXU_W) X(AMOSWAP_D) X(AMOADD_D) X(AMOXOR_D) X(AMOAND_D) X(AMOOR_D) X(AMOMIN_D) X(AMOMAX_D)       \
  X(AMOMINU_D) X(AMOMAXU_D)                                                                               \
  X(FLW) X(FLD) X(FSW) X(FSD)                                                                             \
  X(FMADD_S) X(FMSUB_S) X(FNMSUB_S) X(FNMADD_S) X(FMADD_D) X(FMSUB_D) X(FNMSUB_D) X(FNMADD_D)             \
  X(FADD_S) X(FSUB_S) X(FMUL_S) X(FDIV_S) X(FSQRT_S) X(FADD_D) X(FSUB_D) X(FMUL_D) X(FDIV_D) X(FSQRT_D)   \
  X(FSGNJ_S) X(FSGNJN_S) X(FSGNJX_S) X(FSGNJ_D) X(FSGNJN_D) X(FSGNJX_D)                                   \
  X(FMIN_S) X(FMAX_S) X(FMIN_D) X(FMAX_D) X(FCVT_S_D) X(FCVT_D_S)                                         \
  X(FEQ_S) X(FLT_S) X(FLE_S) X(FEQ_D) X(FLT_D) X(FLE_D) X(FCLASS_S) X(FCLASS_D)                           \
  X(FCVT_W_S) X(FCVT_WU_S) X(FCVT_L_S) X(FCVT_LU_S) X(FCVT_W_D) X(FCVT_WU_D) X(FCVT_L_D) X(FCVT_LU_D)     \
  X(FCVT_S_W) X(FCVT_S_WU) X(FCVT_S_L) X(FCVT_S_LU) X(FCVT_D_W) X(FCVT_D_WU) X(FCVT_D_L) X(FCVT_D_LU)     \
  X(FMV_X_W) X(FMV_W_X) X(FMV_X_D) X(FMV_D_X)                                                             \
  X(ADDI_BEQ) X(ADDI_BNE) X(ADDI_BLT) X(ADDI_BGE) X(ADDI_BLTU) X(ADDI_BGEU)

enum hg_sim_op {
#define HG_SIM_ENUM(n) HG_SIM_OP_##n,
  HG_SIM_OPS(HG_SIM_ENUM)
#undef HG_SIM_ENUM
      HG_SIM_OP_COUNT
};

/* Decodes one encoding: op and fields (rd already mapped to 32 for x0). pc_index is the
 * instruction's index in its segment and nins the segment's length, so branch targets
 * outside the segment become FARJUMP/FARBR. */
typedef struct hg_sim_decoded {
  int op;
  int32_t imm;
  uint8_t rd, rs1, rs2, rs3;
} hg_sim_decoded;
hg_sim_decoded hg_sim_decode(uint32_t raw, uint64_t pc_index, uint64_t nins);
/* Superinstructions: the operation to predecode for `a` when `next` follows it in the same
 * segment (a fused pair: ADDI then a near conditional branch on the ADDI's result, the usual
 * loop counter step), else a->op. Only the first instruction's handler changes: a jump straight to the second
 * still finds its own. */
int hg_sim_fuse(const hg_sim_decoded *a, const hg_sim_decoded *next);

/* A code segment: bytes and their predecoded form (nins + 1 entries, the last FALLOFF). */
typedef struct hg_sim_segment {
  uint64_t base, size;
  uint8_t *bytes;
  hg_sim_insn *insns;
  uint64_t nins;
} hg_sim_segment;

#define HG_SIM_MAX_SEGMENTS 32
#define HG_SIM_MAX_RANGES 256
/* Views cached per core for the fast path of loads/stores, one slot per static memory
 * instruction (the decoder puts pc_index % 64 in its rs3, + 64 for stores and atomics): a
 * kernel's loads of x[] and y[] then each keep their own buffer's view instead of evicting
 * each other's. Loads and stores never share a slot, since the fast path does not check
 * writability: a store's view is always of a writable range. */
#define HG_SIM_VIEW_SLOTS 128
#define HG_SIM_STORE_SLOTS 64 /* first slot of stores and atomics */

/* What an access through a view costs and where the fast path counts it, per kind of memory
 * (one per core each): extra cycles by [posted store][DRAM channel slot, (addr >> 11) & 63]
 * and accesses by [posted store][log2 size]. A table instead of a branch on the kind: DRAM,
 * code and L1 ranges in windows (__local memory) take the same few instructions. */
typedef struct hg_sim_tariff {
  uint32_t cost[2][64];
  uint64_t acc[2][4];
} hg_sim_tariff;
enum { HG_SIM_VIEW_DRAM = 0, HG_SIM_VIEW_CODE = 1, HG_SIM_VIEW_L1 = 2, HG_SIM_VIEW_KINDS = 3 };

/* A host view of an allowed range, cached by the fast path of loads and stores. */
typedef struct hg_sim_view {
  uint64_t base, lim; /* lim = size - 8: fast path covers offsets <= lim for any width */
  uint8_t *host;
  hg_sim_tariff *tariff; /* the core's tariff of the range's kind */
} hg_sim_view;

typedef struct hg_sim_core hg_sim_core;
struct hg_sim_machine;

/* A launch's stop state (hg_sim_launch.stop, stop_after), shared by its cores: `now` becomes
 * true once and stays so; `polls` is only counted when stop_after asks for it (one shared
 * counter would otherwise be contended by every host thread). */
typedef struct hg_sim_stop_state {
  const atomic_bool *ext;
  atomic_bool now;
  atomic_uint_fast64_t polls;
  uint64_t after;
  /* the guard (guard.c): the launch is cut short once a job faults with HANG or TIME_LIMIT */
  atomic_bool cut;
  uint64_t guard_cycles; /* per job */
  uint64_t deadline_ns;  /* CLOCK_MONOTONIC; 0: none */
  uint64_t time_limit_ns;
} hg_sim_stop_state;
/* True when the launch is stopping (sets `now` when the external request is seen). */
bool hg_sim_stopping(hg_sim_stop_state *s);
/* A job's guard check (guard.c), at a taken jump once its instruction count passed the last
 * check's allowance; job_cycles: its cycles so far. 0: go on, *next_insns more instructions
 * before the next check; 1: the launch is cut short, the job ends (CUT); -1: the job faults
 * (c->fault.kind and addr set: HANG or TIME_LIMIT) and the launch is cut short. */
int hg_sim_guard_check(hg_sim_core *c, uint64_t job_cycles, uint64_t *next_insns);

/* State of one core. The interpreter keeps hot values in locals and writes them back here at
 * exits. */
struct hg_sim_core {
  uint64_t x[33]; /* x[32]: sink for writes to x0 */
  uint64_t f[32];
  uint32_t fflags;  /* accrued flags not yet folded from the host (see fp.c) */
  uint32_t frm;
  /* reservation for LR/SC */
  uint64_t resv_addr, resv_val;
  int resv_size; /* 0: none */
  /* counters (this launch) */
  uint64_t insns, extra; /* cycles = insns + extra */
  uint64_t jobs_done;
  uint64_t l1_bytes, dram_reads, dram_writes, noc_bytes; /* slow path (any size) */
  uint64_t dram_acc[2][4]; /* fast path: [read/atomic, write][log2 size] accesses */
  /* memory */
  uint8_t *l1;
  uint64_t l1_lim;
  hg_sim_view views[HG_SIM_VIEW_SLOTS]; /* last range hit by the memory instructions of each slot */
  uint64_t views_used[HG_SIM_VIEW_SLOTS / 64]; /* slots filled this launch (reset at the next one) */
  hg_sim_tariff tariff[HG_SIM_VIEW_KINDS]; /* DRAM's costs by (addr >> 11) & 63: channel interleave */
  hg_sim_costs costs;
  /* identity and launch context */
  unsigned index, gx, gy;
  struct hg_sim_machine *m;
  const hg_sim_range *ranges;
  size_t nranges;
  size_t job, njobs;
  hg_sim_stop_state *stop; /* the current launch's */
  /* write() output of the current job */
  char *out;
  size_t out_len, out_cap;
  bool out_truncated;
  /* exit */
  hg_sim_fault fault;
  uint64_t pc; /* entry on run, faulting pc on exit */
};

/* Persistent host threads (pool.c). */
typedef struct hg_sim_pool {
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  pthread_t *tids;
  void **workers;
  unsigned n;      /* threads created */
  unsigned active; /* threads taking part in the current run */
  unsigned busy;   /* of those, still running */
  uint64_t gen;
  bool stop;
  void (*fn)(void *);
  void *arg;
} hg_sim_pool;
void hg_sim_pool_init(hg_sim_pool *p);
/* Runs fn(arg) on `workers` pool threads and on the caller; returns when all have returned. */
void hg_sim_pool_run(hg_sim_pool *p, unsigned workers, void (*fn)(void *), void *arg);
void hg_sim_pool_destroy(hg_sim_pool *p);

struct hg_sim_machine {
  hg_sim_config cfg;
  unsigned ncores, threads;
  hg_sim_core *cores;
  uint8_t *l1_all, *dram;
  size_t l1_map_size;
  hg_sim_segment segs[HG_SIM_MAX_SEGMENTS];
  unsigned nsegs;
  pthread_mutex_t lock; /* serialises launches and code changes */
  hg_sim_pool pool;
  /* DRAM allocator: sorted list of allocated blocks, under its own lock (allocations do not
   * wait for a running launch) */
  pthread_mutex_t alloc_lock;
  struct hg_sim_block {
    uint64_t addr, size;
  } * blocks;
  size_t nblocks, cap_blocks;
};

/* Interpreter entry: runs c from c->pc until exit or fault. Returns 0 on exit, -1 on fault
 * (c->fault set), 1 when the launch was cut short (another job's guard fault). With c == NULL
 * returns nothing and stores the label table in *labels. */
int hg_sim_interp(hg_sim_core *c, const void *const **labels);

/* The two builds of the interpreter (interp.c, interp_fma.c) and its helpers (interp_support.c). */
int hg_sim_interp_generic(hg_sim_core *c, const void *const **labels);
int hg_sim_interp_fma(hg_sim_core *c, const void *const **labels);
int hg_sim_csr_access(hg_sim_core *c, unsigned csr, unsigned kind, uint64_t val, bool write, uint64_t now_insns,
                      uint64_t now_extra, uint64_t *old);
int hg_sim_ecall(hg_sim_core *c);
bool hg_sim_branch_taken(unsigned f3, uint64_t a, uint64_t b);

/* Slow paths used by the interpreter (memory.c). */
/* Resolves an n-byte access exactly (any n), charges its cost to c->extra and its counters,
 * caches the range in view slot `slot` (none when slot >= HG_SIM_VIEW_SLOTS); NULL when not
 * allowed. rt: round trip (loads, atomics). */
uint8_t *hg_sim_slow_access(hg_sim_core *c, uint64_t addr, uint64_t n, bool write, bool rt, unsigned slot);
const hg_sim_segment *hg_sim_segment_of(const struct hg_sim_machine *m, uint64_t pc);

/* An FP operation in RMM (fp_rmm.c): computes and writes f[rd], accrues fflags. */
void hg_sim_fp_rmm(hg_sim_core *c, int op, const hg_sim_insn *ip);

/* Host thread count (threads.c). */
unsigned hg_sim_default_threads(void);

#endif
