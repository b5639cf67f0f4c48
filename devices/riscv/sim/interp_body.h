/* The interpreter's body, included by interp.c (generic build) and interp_fma.c (built for
 * hosts with FMA, where fma()/fmaf() become single instructions) with HG_SIM_INTERP_NAME set.
 * Predecoded instructions are dispatched with computed goto (GCC labels as values). Hot state
 * lives in locals: the instruction pointer, the start of the current straight-line run
 * (instructions are counted per run, at taken jumps, not one by one), the extra cycles beyond
 * 1 per instruction, the instruction count of the next guard check, the L1 byte counter. */

/* frm as the interpreter's fast path sees it: RMM and invalid modes read as 8 (never equal
 * to a static mode), so they always take the slow path. */
#define RM_OF(frm) ((frm) < HG_RM_RMM ? (frm) : 8u)

int HG_SIM_INTERP_NAME(hg_sim_core *c, const void *const **labels) {
#define HG_SIM_LABEL(n) &&L_##n,
  static const void *const table[HG_SIM_OP_COUNT] = {HG_SIM_OPS(HG_SIM_LABEL)};
#undef HG_SIM_LABEL
  if (!c) {
    *labels = table;
    return 0;
  }
  uint64_t *const x = c->x;
  uint64_t *const f = c->f;
  uint8_t *const l1 = c->l1;
  const uint64_t l1_lim = c->l1_lim;
  const hg_sim_costs *const K = &c->costs;
  const hg_sim_segment *seg;
  const hg_sim_insn *ins0, *ip, *blk;
  uint64_t seg_base, seg_size;
  uint64_t icount = c->insns, extra = 0;
  /* the job's start, for its own cycles (guard.c); the first taken jump checks the guard */
  const uint64_t icount0 = icount, extra0 = c->extra;
  uint64_t budget = icount;
  int guard_rc;
  /* memory counters in locals (added to the core's at exit): no store-to-load chains */
  uint64_t l1_bytes = 0;
  unsigned cur_rm = RM_OF(c->frm);
  uint64_t tgt = 0, link = 0; /* far jumps */
  hg_sim_fault_kind fkind = HG_SIM_FAULT_NONE;
  uint64_t faddr = 0;
  int rc;

#define SET_SEG(s)                                                                                        \
  do {                                                                                                    \
    seg = (s);                                                                                            \
    ins0 = seg->insns;                                                                                    \
    seg_base = seg->base;                                                                                 \
    seg_size = seg->nins * 4;                                                                             \
  } while (0)
#define PC (seg_base + (uint64_t)(ip - ins0) * 4)
#define DISPATCH goto *ip->h
#define NEXT                                                                                              \
  do {                                                                                                    \
    ip++;                                                                                                 \
    DISPATCH;                                                                                             \
  } while (0)
#define JUMP_TO(nip)                                                                                      \
  do {                                                                                                    \
    icount += (uint64_t)(ip - blk) + 1;                                                                   \
    extra += K->branch_taken;                                                                             \
    ip = (nip);                                                                                           \
    blk = ip;                                                                                             \
    if (HG_SIM_UNLIKELY(icount > budget)) goto guard;                                                     \
    DISPATCH;                                                                                             \
  } while (0)
#define FAULT(k, a)                                                                                       \
  do {                                                                                                    \
    fkind = (k);                                                                                          \
    faddr = (a);                                                                                          \
    goto fault;                                                                                           \
  } while (0)
#define REL_TARGET ((const hg_sim_insn *)((const char *)ip + ip->imm)) /* branches, jal */
#define RD x[ip->rd]
#define RS1 x[ip->rs1]
#define RS2 x[ip->rs2]
#define IMM ((uint64_t)(int64_t)ip->imm)
#define SEXT32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* Host pointer p for an n-byte access at a: L1 first, then the view cached in the
 * instruction's slot (rs3), then the slow path (which may fault and refills the slot). RT: the DRAM cost is a round trip (loads,
 * atomics) rather than a posted store. */
#define MEM(a, n, p, W, RT, FK)                                                                           \
  do {                                                                                                    \
    uint64_t a_ = (a), o_ = a_ - HG_SIM_L1_BASE;                                                          \
    if (HG_SIM_LIKELY(o_ <= l1_lim)) {                                                                    \
      p = l1 + o_;                                                                                        \
      extra += (W) && !(RT) ? K->l1_store : K->l1_load;                                                   \
      l1_bytes += (n);                                                                                    \
    } else {                                                                                              \
      hg_sim_view *v_ = &c->views[ip->rs3];                                                            \
      o_ = a_ - v_->base;                                                                                 \
      if (HG_SIM_LIKELY(o_ <= v_->lim)) {                                                                 \
        p = v_->host + o_;                                                                                \
        hg_sim_tariff *t_ = v_->tariff;                                                                   \
        extra += t_->cost[(RT) ? 0 : 1][(a_ >> 11) & 63];                                                 \
        /* one counter per direction and size: a single add, bytes derived at the end */                \
        t_->acc[(RT) ? 0 : 1][(n) == 8 ? 3 : (n) == 4 ? 2 : (n) == 2 ? 1 : 0]++;                          \
      } else {                                                                                            \
        p = hg_sim_slow_access(c, a_, (n), (W), (RT), ip->rs3);                                                    \
        if (!p) FAULT(FK, a_);                                                                            \
      }                                                                                                   \
    }                                                                                                     \
  } while (0)

#define LOAD(T, CONV)                                                                                     \
  {                                                                                                       \
    uint8_t *p;                                                                                           \
    T v;                                                                                                  \
    MEM(RS1 + IMM, sizeof(T), p, 0, 1, HG_SIM_FAULT_LOAD);                                                \
    memcpy(&v, p, sizeof v);                                                                              \
    RD = CONV v;                                                                                          \
    NEXT;                                                                                                 \
  }
#define STORE(T)                                                                                          \
  {                                                                                                       \
    uint8_t *p;                                                                                           \
    T v = (T)RS2;                                                                                         \
    MEM(RS1 + IMM, sizeof(T), p, 1, 0, HG_SIM_FAULT_STORE);                                               \
    memcpy(p, &v, sizeof v);                                                                              \
    NEXT;                                                                                                 \
  }

/* Atomics: naturally aligned, writable memory, host atomics so cores on other host threads
 * see them atomically. */
#define AMO_ADDR(n, p)                                                                                    \
  uint8_t *p;                                                                                             \
  uint64_t aa_ = RS1;                                                                                     \
  if (HG_SIM_UNLIKELY(aa_ & ((n)-1))) FAULT(HG_SIM_FAULT_ATOMIC_MISALIGNED, aa_);                         \
  MEM(aa_, (n), p, 1, 1, HG_SIM_FAULT_STORE);
#define AMO_W(EXPR_FETCH)                                                                                 \
  {                                                                                                       \
    AMO_ADDR(4, p);                                                                                       \
    uint32_t *q = (uint32_t *)p;                                                                          \
    uint32_t s = (uint32_t)RS2;                                                                           \
    uint32_t old = EXPR_FETCH;                                                                            \
    RD = SEXT32(old);                                                                                     \
    NEXT;                                                                                                 \
  }
#define AMO_D(EXPR_FETCH)                                                                                 \
  {                                                                                                       \
    AMO_ADDR(8, p);                                                                                       \
    uint64_t *q = (uint64_t *)p;                                                                          \
    uint64_t s = RS2;                                                                                     \
    uint64_t old = EXPR_FETCH;                                                                            \
    RD = old;                                                                                             \
    NEXT;                                                                                                 \
  }
#define AMO_CAS(T, ST, n, BETTER)                                                                         \
  {                                                                                                       \
    AMO_ADDR(n, p);                                                                                       \
    T *q = (T *)p;                                                                                        \
    T s = (T)RS2;                                                                                         \
    T old = __atomic_load_n(q, __ATOMIC_SEQ_CST);                                                         \
    T nv;                                                                                                 \
    do {                                                                                                  \
      nv = BETTER((ST)s, (ST)old) ? s : old;                                                              \
    } while (!__atomic_compare_exchange_n(q, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));       \
    RD = (n) == 4 ? SEXT32(old) : (uint64_t)old;                                                          \
    NEXT;                                                                                                 \
  }
#define LESS(a, b) ((a) < (b))
#define GREATER(a, b) ((a) > (b))

/* Rounding for FP arithmetic: the instruction's static mode, or frm when dynamic. The host is
 * kept in frm's mode; a different static mode is set around the one operation. cur_rm is frm,
 * except that RMM (which the host lacks) and invalid modes read as 8, so they never take the
 * fast path; RMM goes to the emulation in fp_rmm.c. */
#define FP_BEGIN                                                                                          \
  {                                                                                                       \
    unsigned rm_ = (unsigned)ip->imm & 7;                                                                 \
    int sw_ = 0;                                                                                          \
    if (HG_SIM_UNLIKELY(rm_ != HG_RM_DYN ? rm_ != cur_rm : cur_rm > HG_RM_RUP)) {                         \
      unsigned eff_ = rm_ == HG_RM_DYN ? c->frm : rm_;                                                    \
      if (eff_ > HG_RM_RMM) FAULT(HG_SIM_FAULT_ILLEGAL, 0);                                               \
      if (eff_ == HG_RM_RMM) {                                                                            \
        hg_sim_fp_rmm(c, ip->imm >> 8, ip);                                                               \
        extra += K->fp_fma;                                                                               \
        NEXT;                                                                                             \
      }                                                                                                   \
      sw_ = 1;                                                                                            \
      fesetround(hg_host_rm(eff_));                                                                       \
    }
#define FP_END                                                                                            \
  if (HG_SIM_UNLIKELY(sw_)) fesetround(hg_host_rm(c->frm));                                               \
  }
/* effective rounding mode for conversions to integer (computed by hand, not by the host) */
#define EFF_RM (((unsigned)ip->imm & 7) == HG_RM_DYN ? c->frm : (unsigned)ip->imm & 7)
#define CHECK_RM                                                                                          \
  if (HG_SIM_UNLIKELY(((unsigned)ip->imm & 7) == HG_RM_DYN && c->frm > HG_RM_RMM)) FAULT(HG_SIM_FAULT_ILLEGAL, 0)

#define FS1 hg_f32(hg_unbox(f[ip->rs1]))
#define FS2 hg_f32(hg_unbox(f[ip->rs2]))
#define FS3 hg_f32(hg_unbox(f[ip->rs3]))
#define FD1 hg_f64(f[ip->rs1])
#define FD2 hg_f64(f[ip->rs2])
#define FD3 hg_f64(f[ip->rs3])
#define FP_ARITH_S(EXPR, COST)                                                                            \
  FP_BEGIN {                                                                                              \
    float r_ = (EXPR);                                                                                    \
    f[ip->rd] = hg_res32(r_);                                                                             \
  }                                                                                                       \
  FP_END extra += (COST);                                                                                 \
  NEXT;
#define FP_ARITH_D(EXPR, COST)                                                                            \
  FP_BEGIN {                                                                                              \
    double r_ = (EXPR);                                                                                   \
    f[ip->rd] = hg_res64(r_);                                                                             \
  }                                                                                                       \
  FP_END extra += (COST);                                                                                 \
  NEXT;
/* fused multiply-add: inf * 0 raises NV even when the addend is a quiet NaN */
#define INF0_32(a, b)                                                                                     \
  ((((a)&0x7fffffffu) == 0x7f800000u && ((b)&0x7fffffffu) == 0) ||                                        \
   (((b)&0x7fffffffu) == 0x7f800000u && ((a)&0x7fffffffu) == 0))
#define INF0_64(a, b)                                                                                     \
  ((((a) << 1) == 0xffe0000000000000ull && ((b) << 1) == 0) || (((b) << 1) == 0xffe0000000000000ull && ((a) << 1) == 0))
#define FMA_S(S1, S3)                                                                                     \
  FP_BEGIN {                                                                                              \
    uint32_t a_ = hg_unbox(f[ip->rs1]), b_ = hg_unbox(f[ip->rs2]), c_ = hg_unbox(f[ip->rs3]);             \
    float r_ = fmaf(S1 hg_f32(a_), hg_f32(b_), S3 hg_f32(c_));                                            \
    if (hg_isnan32(hg_b32(r_)) && INF0_32(a_, b_)) c->fflags |= HG_FF_NV;                                 \
    f[ip->rd] = hg_res32(r_);                                                                             \
  }                                                                                                       \
  FP_END extra += K->fp_fma;                                                                              \
  NEXT;
#define FMA_D(S1, S3)                                                                                     \
  FP_BEGIN {                                                                                              \
    uint64_t a_ = f[ip->rs1], b_ = f[ip->rs2], c_ = f[ip->rs3];                                           \
    double r_ = fma(S1 hg_f64(a_), hg_f64(b_), S3 hg_f64(c_));                                            \
    if (hg_isnan64(hg_b64(r_)) && INF0_64(a_, b_)) c->fflags |= HG_FF_NV;                                 \
    f[ip->rd] = hg_res64(r_);                                                                             \
  }                                                                                                       \
  FP_END extra += K->fp_fma;                                                                              \
  NEXT;
#define CVT_TO_INT_S(KIND)                                                                                \
  {                                                                                                       \
    CHECK_RM;                                                                                             \
    uint32_t b_ = hg_unbox(f[ip->rs1]);                                                                   \
    int n_ = hg_isnan32(b_);                                                                              \
    RD = hg_fcvt_int(n_ ? 0.0 : (double)hg_f32(b_), n_, EFF_RM, KIND, &c->fflags);                        \
    extra += K->fp_cvt;                                                                                   \
    NEXT;                                                                                                 \
  }
#define CVT_TO_INT_D(KIND)                                                                                \
  {                                                                                                       \
    CHECK_RM;                                                                                             \
    uint64_t b_ = f[ip->rs1];                                                                             \
    int n_ = hg_isnan64(b_);                                                                              \
    RD = hg_fcvt_int(n_ ? 0.0 : hg_f64(b_), n_, EFF_RM, KIND, &c->fflags);                                \
    extra += K->fp_cvt;                                                                                   \
    NEXT;                                                                                                 \
  }

  /* entry */
  {
    const hg_sim_segment *s0 = hg_sim_segment_of(c->m, c->pc);
    if (!s0 || (c->pc & 3)) {
      c->fault.kind = (c->pc & 3) && s0 ? HG_SIM_FAULT_FETCH_MISALIGNED : HG_SIM_FAULT_FETCH;
      c->fault.pc = c->pc;
      c->fault.addr = c->pc;
      c->fault.insn = 0;
      return -1;
    }
    SET_SEG(s0);
    ip = blk = ins0 + (c->pc - seg_base) / 4;
    DISPATCH;
  }

L_ILLEGAL:
  FAULT(HG_SIM_FAULT_ILLEGAL, 0);
L_FALLOFF:
  /* ran past the end of the segment: maybe into the next one */
  icount += (uint64_t)(ip - blk);
  blk = ip;
  tgt = PC;
  {
    const hg_sim_segment *ns = hg_sim_segment_of(c->m, tgt);
    if (!ns) {
      ip--;
      FAULT(HG_SIM_FAULT_FETCH, tgt);
    }
    SET_SEG(ns);
    ip = blk = ins0 + (tgt - seg_base) / 4;
    DISPATCH;
  }
L_FARJUMP:
  tgt = PC + IMM;
  link = PC + 4;
  RD = link;
  goto far_jump;
L_FARBR:
  if (!hg_sim_branch_taken(ip->rs3, RS1, RS2)) NEXT;
  tgt = PC + IMM;
  goto far_jump;
far_jump:
  if (tgt & 3) FAULT(HG_SIM_FAULT_FETCH_MISALIGNED, tgt);
  {
    const hg_sim_segment *ns = hg_sim_segment_of(c->m, tgt);
    if (!ns) {
      if (tgt == HG_SIM_RETURN_ADDR) goto exit_job;
      FAULT(HG_SIM_FAULT_FETCH, tgt);
    }
    icount += (uint64_t)(ip - blk) + 1;
    extra += K->branch_taken;
    SET_SEG(ns);
    ip = blk = ins0 + (tgt - seg_base) / 4;
    if (HG_SIM_UNLIKELY(icount > budget)) goto guard;
    DISPATCH;
  }

L_LUI:
  RD = IMM;
  NEXT;
L_AUIPC:
  RD = PC + IMM;
  NEXT;
L_JAL:
  RD = PC + 4;
  JUMP_TO(REL_TARGET);
L_JALR: {
  uint64_t t = (RS1 + IMM) & ~1ull, off = t - seg_base;
  link = PC + 4;
  RD = link;
  if (HG_SIM_LIKELY(off < seg_size && !(off & 3))) JUMP_TO(ins0 + off / 4);
  tgt = t;
  goto far_jump;
}
L_BEQ:
  if (RS1 == RS2) JUMP_TO(REL_TARGET);
  NEXT;
L_BNE:
  if (RS1 != RS2) JUMP_TO(REL_TARGET);
  NEXT;
L_BLT:
  if ((int64_t)RS1 < (int64_t)RS2) JUMP_TO(REL_TARGET);
  NEXT;
L_BGE:
  if ((int64_t)RS1 >= (int64_t)RS2) JUMP_TO(REL_TARGET);
  NEXT;
L_BLTU:
  if (RS1 < RS2) JUMP_TO(REL_TARGET);
  NEXT;
L_BGEU:
  if (RS1 >= RS2) JUMP_TO(REL_TARGET);
  NEXT;

/* fused ADDI + conditional branch on its result (a loop counter step): the branch compares
 * the sum in a host register instead of reloading it; ip moves to the branch first, so counts,
 * targets and the hang pc are the pair's own */
#define ADDI_BRANCH(COND)                                                                                 \
  {                                                                                                       \
    uint64_t v = RS1 + IMM;                                                                               \
    RD = v;                                                                                               \
    ip++;                                                                                                 \
    if (COND) JUMP_TO(REL_TARGET);                                                                        \
    NEXT;                                                                                                 \
  }
L_ADDI_BEQ: ADDI_BRANCH(v == RS2)
L_ADDI_BNE: ADDI_BRANCH(v != RS2)
L_ADDI_BLT: ADDI_BRANCH((int64_t)v < (int64_t)RS2)
L_ADDI_BGE: ADDI_BRANCH((int64_t)v >= (int64_t)RS2)
L_ADDI_BLTU: ADDI_BRANCH(v < RS2)
L_ADDI_BGEU: ADDI_BRANCH(v >= RS2)

L_LB: LOAD(int8_t, (uint64_t)(int64_t))
L_LH: LOAD(int16_t, (uint64_t)(int64_t))
L_LW: LOAD(int32_t, (uint64_t)(int64_t))
L_LD: LOAD(uint64_t, )
L_LBU: LOAD(uint8_t, (uint64_t))
L_LHU: LOAD(uint16_t, (uint64_t))
L_LWU: LOAD(uint32_t, (uint64_t))
L_SB: STORE(uint8_t)
L_SH: STORE(uint16_t)
L_SW: STORE(uint32_t)
L_SD: STORE(uint64_t)

L_ADDI: RD = RS1 + IMM; NEXT;
L_SLTI: RD = (int64_t)RS1 < (int64_t)IMM; NEXT;
L_SLTIU: RD = RS1 < IMM; NEXT;
L_XORI: RD = RS1 ^ IMM; NEXT;
L_ORI: RD = RS1 | IMM; NEXT;
L_ANDI: RD = RS1 & IMM; NEXT;
L_SLLI: RD = RS1 << ip->imm; NEXT;
L_SRLI: RD = RS1 >> ip->imm; NEXT;
L_SRAI: RD = (uint64_t)((int64_t)RS1 >> ip->imm); NEXT;
L_ADD: RD = RS1 + RS2; NEXT;
L_SUB: RD = RS1 - RS2; NEXT;
L_SLL: RD = RS1 << (RS2 & 63); NEXT;
L_SLT: RD = (int64_t)RS1 < (int64_t)RS2; NEXT;
L_SLTU: RD = RS1 < RS2; NEXT;
L_XOR: RD = RS1 ^ RS2; NEXT;
L_SRL: RD = RS1 >> (RS2 & 63); NEXT;
L_SRA: RD = (uint64_t)((int64_t)RS1 >> (RS2 & 63)); NEXT;
L_OR: RD = RS1 | RS2; NEXT;
L_AND: RD = RS1 & RS2; NEXT;
L_ADDIW: RD = SEXT32(RS1 + IMM); NEXT;
L_SLLIW: RD = SEXT32((uint32_t)RS1 << ip->imm); NEXT;
L_SRLIW: RD = SEXT32((uint32_t)RS1 >> ip->imm); NEXT;
L_SRAIW: RD = (uint64_t)(int64_t)((int32_t)RS1 >> ip->imm); NEXT;
L_ADDW: RD = SEXT32(RS1 + RS2); NEXT;
L_SUBW: RD = SEXT32(RS1 - RS2); NEXT;
L_SLLW: RD = SEXT32((uint32_t)RS1 << (RS2 & 31)); NEXT;
L_SRLW: RD = SEXT32((uint32_t)RS1 >> (RS2 & 31)); NEXT;
L_SRAW: RD = (uint64_t)(int64_t)((int32_t)RS1 >> (RS2 & 31)); NEXT;

L_MUL: RD = RS1 * RS2; extra += K->mul; NEXT;
L_MULH: RD = (uint64_t)(((__int128)(int64_t)RS1 * (__int128)(int64_t)RS2) >> 64); extra += K->mul; NEXT;
L_MULHSU: RD = (uint64_t)(((__int128)(int64_t)RS1 * (__int128)RS2) >> 64); extra += K->mul; NEXT;
L_MULHU: RD = (uint64_t)(((unsigned __int128)RS1 * RS2) >> 64); extra += K->mul; NEXT;
L_DIV: {
  int64_t a = (int64_t)RS1, b = (int64_t)RS2;
  RD = b == 0 ? ~0ull : (a == INT64_MIN && b == -1) ? (uint64_t)a : (uint64_t)(a / b);
  extra += K->div;
  NEXT;
}
L_DIVU: { uint64_t a = RS1, b = RS2; RD = b ? a / b : ~0ull; extra += K->div; NEXT; }
L_REM: {
  int64_t a = (int64_t)RS1, b = (int64_t)RS2;
  RD = b == 0 ? (uint64_t)a : (a == INT64_MIN && b == -1) ? 0 : (uint64_t)(a % b);
  extra += K->div;
  NEXT;
}
L_REMU: { uint64_t a = RS1, b = RS2; RD = b ? a % b : a; extra += K->div; NEXT; }
L_MULW: RD = SEXT32((uint32_t)RS1 * (uint32_t)RS2); extra += K->mul; NEXT;
L_DIVW: {
  int32_t a = (int32_t)RS1, b = (int32_t)RS2;
  RD = b == 0 ? ~0ull : (a == INT32_MIN && b == -1) ? SEXT32(a) : SEXT32(a / b);
  extra += K->div_w;
  NEXT;
}
L_DIVUW: { uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2; RD = b ? SEXT32(a / b) : ~0ull; extra += K->div_w; NEXT; }
L_REMW: {
  int32_t a = (int32_t)RS1, b = (int32_t)RS2;
  RD = b == 0 ? SEXT32(a) : (a == INT32_MIN && b == -1) ? 0 : SEXT32(a % b);
  extra += K->div_w;
  NEXT;
}
L_REMUW: { uint32_t a = (uint32_t)RS1, b = (uint32_t)RS2; RD = SEXT32(b ? a % b : a); extra += K->div_w; NEXT; }

L_FENCE:
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  NEXT;
L_ECALL:
  c->insns = icount + (uint64_t)(ip - blk);
  rc = hg_sim_ecall(c);
  extra += K->ecall;
  if (rc == 1) goto exit_job;
  if (rc < 0) FAULT(c->fault.kind, c->fault.addr);
  NEXT;
L_EBREAK:
  FAULT(HG_SIM_FAULT_BREAKPOINT, PC);
L_CSRRW: L_CSRRS: L_CSRRC: L_CSRRWI: L_CSRRSI: L_CSRRCI: {
  unsigned kind, which = (unsigned)(ip->h == &&L_CSRRW || ip->h == &&L_CSRRWI ? 0 : ip->h == &&L_CSRRS || ip->h == &&L_CSRRSI ? 1 : 2);
  bool imm_form = ip->h == &&L_CSRRWI || ip->h == &&L_CSRRSI || ip->h == &&L_CSRRCI;
  uint64_t val = imm_form ? ip->rs1 : RS1, old;
  bool write = which == 0 || ip->rs1 != 0;
  kind = which;
  if (hg_sim_csr_access(c, (unsigned)ip->imm & 0xfff, kind, val, write, icount + (uint64_t)(ip - blk), extra, &old))
    FAULT(HG_SIM_FAULT_ILLEGAL, 0);
  RD = old;
  cur_rm = RM_OF(c->frm);
  extra += K->csr;
  NEXT;
}

L_LR_W: {
  AMO_ADDR(4, p);
  uint32_t v = __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST);
  c->resv_addr = aa_;
  c->resv_val = v;
  c->resv_size = 4;
  RD = SEXT32(v);
  NEXT;
}
L_LR_D: {
  AMO_ADDR(8, p);
  uint64_t v = __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST);
  c->resv_addr = aa_;
  c->resv_val = v;
  c->resv_size = 8;
  RD = v;
  NEXT;
}
L_SC_W: {
  AMO_ADDR(4, p);
  uint64_t ok = 0;
  if (c->resv_size == 4 && c->resv_addr == aa_) {
    uint32_t expect = (uint32_t)c->resv_val;
    ok = __atomic_compare_exchange_n((uint32_t *)p, &expect, (uint32_t)RS2, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST);
  }
  c->resv_size = 0;
  RD = !ok;
  NEXT;
}
L_SC_D: {
  AMO_ADDR(8, p);
  uint64_t ok = 0;
  if (c->resv_size == 8 && c->resv_addr == aa_) {
    uint64_t expect = c->resv_val;
    ok = __atomic_compare_exchange_n((uint64_t *)p, &expect, RS2, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  }
  c->resv_size = 0;
  RD = !ok;
  NEXT;
}
L_AMOSWAP_W: AMO_W(__atomic_exchange_n(q, s, __ATOMIC_SEQ_CST))
L_AMOADD_W: AMO_W(__atomic_fetch_add(q, s, __ATOMIC_SEQ_CST))
L_AMOXOR_W: AMO_W(__atomic_fetch_xor(q, s, __ATOMIC_SEQ_CST))
L_AMOAND_W: AMO_W(__atomic_fetch_and(q, s, __ATOMIC_SEQ_CST))
L_AMOOR_W: AMO_W(__atomic_fetch_or(q, s, __ATOMIC_SEQ_CST))
L_AMOMIN_W: AMO_CAS(uint32_t, int32_t, 4, LESS)
L_AMOMAX_W: AMO_CAS(uint32_t, int32_t, 4, GREATER)
L_AMOMINU_W: AMO_CAS(uint32_t, uint32_t, 4, LESS)
L_AMOMAXU_W: AMO_CAS(uint32_t, uint32_t, 4, GREATER)
L_AMOSWAP_D: AMO_D(__atomic_exchange_n(q, s, __ATOMIC_SEQ_CST))
L_AMOADD_D: AMO_D(__atomic_fetch_add(q, s, __ATOMIC_SEQ_CST))
L_AMOXOR_D: AMO_D(__atomic_fetch_xor(q, s, __ATOMIC_SEQ_CST))
L_AMOAND_D: AMO_D(__atomic_fetch_and(q, s, __ATOMIC_SEQ_CST))
L_AMOOR_D: AMO_D(__atomic_fetch_or(q, s, __ATOMIC_SEQ_CST))
L_AMOMIN_D: AMO_CAS(uint64_t, int64_t, 8, LESS)
L_AMOMAX_D: AMO_CAS(uint64_t, int64_t, 8, GREATER)
L_AMOMINU_D: AMO_CAS(uint64_t, uint64_t, 8, LESS)
L_AMOMAXU_D: AMO_CAS(uint64_t, uint64_t, 8, GREATER)

L_FLW: {
  uint8_t *p;
  uint32_t v;
  MEM(RS1 + IMM, 4, p, 0, 1, HG_SIM_FAULT_LOAD);
  memcpy(&v, p, 4);
  f[ip->rd] = hg_box(v);
  NEXT;
}
L_FLD: {
  uint8_t *p;
  MEM(RS1 + IMM, 8, p, 0, 1, HG_SIM_FAULT_LOAD);
  memcpy(&f[ip->rd], p, 8);
  NEXT;
}
L_FSW: {
  uint8_t *p;
  uint32_t v = (uint32_t)f[ip->rs2];
  MEM(RS1 + IMM, 4, p, 1, 0, HG_SIM_FAULT_STORE);
  memcpy(p, &v, 4);
  NEXT;
}
L_FSD: {
  uint8_t *p;
  uint64_t v = f[ip->rs2];
  MEM(RS1 + IMM, 8, p, 1, 0, HG_SIM_FAULT_STORE);
  memcpy(p, &v, 8);
  NEXT;
}

L_FMADD_S: FMA_S(+, +)
L_FMSUB_S: FMA_S(+, -)
L_FNMSUB_S: FMA_S(-, +)
L_FNMADD_S: FMA_S(-, -)
L_FMADD_D: FMA_D(+, +)
L_FMSUB_D: FMA_D(+, -)
L_FNMSUB_D: FMA_D(-, +)
L_FNMADD_D: FMA_D(-, -)
L_FADD_S: FP_ARITH_S(FS1 + FS2, K->fp_add)
L_FSUB_S: FP_ARITH_S(FS1 - FS2, K->fp_add)
L_FMUL_S: FP_ARITH_S(FS1 * FS2, K->fp_mul)
L_FDIV_S: FP_ARITH_S(FS1 / FS2, K->fp_div_s)
L_FSQRT_S: FP_ARITH_S(__builtin_sqrtf(FS1), K->fp_sqrt_s)
L_FADD_D: FP_ARITH_D(FD1 + FD2, K->fp_add)
L_FSUB_D: FP_ARITH_D(FD1 - FD2, K->fp_add)
L_FMUL_D: FP_ARITH_D(FD1 * FD2, K->fp_mul)
L_FDIV_D: FP_ARITH_D(FD1 / FD2, K->fp_div_d)
L_FSQRT_D: FP_ARITH_D(__builtin_sqrt(FD1), K->fp_sqrt_d)

L_FSGNJ_S: f[ip->rd] = hg_box((hg_unbox(f[ip->rs1]) & 0x7fffffffu) | (hg_unbox(f[ip->rs2]) & 0x80000000u)); NEXT;
L_FSGNJN_S: f[ip->rd] = hg_box((hg_unbox(f[ip->rs1]) & 0x7fffffffu) | (~hg_unbox(f[ip->rs2]) & 0x80000000u)); NEXT;
L_FSGNJX_S: f[ip->rd] = hg_box(hg_unbox(f[ip->rs1]) ^ (hg_unbox(f[ip->rs2]) & 0x80000000u)); NEXT;
L_FSGNJ_D: f[ip->rd] = (f[ip->rs1] & ~(1ull << 63)) | (f[ip->rs2] & (1ull << 63)); NEXT;
L_FSGNJN_D: f[ip->rd] = (f[ip->rs1] & ~(1ull << 63)) | (~f[ip->rs2] & (1ull << 63)); NEXT;
L_FSGNJX_D: f[ip->rd] = f[ip->rs1] ^ (f[ip->rs2] & (1ull << 63)); NEXT;
L_FMIN_S: f[ip->rd] = hg_box(hg_fminmax32(hg_unbox(f[ip->rs1]), hg_unbox(f[ip->rs2]), 0, &c->fflags)); extra += K->fp_move; NEXT;
L_FMAX_S: f[ip->rd] = hg_box(hg_fminmax32(hg_unbox(f[ip->rs1]), hg_unbox(f[ip->rs2]), 1, &c->fflags)); extra += K->fp_move; NEXT;
L_FMIN_D: f[ip->rd] = hg_fminmax64(f[ip->rs1], f[ip->rs2], 0, &c->fflags); extra += K->fp_move; NEXT;
L_FMAX_D: f[ip->rd] = hg_fminmax64(f[ip->rs1], f[ip->rs2], 1, &c->fflags); extra += K->fp_move; NEXT;
L_FCVT_S_D: FP_ARITH_S((float)FD1, K->fp_cvt)
L_FCVT_D_S: FP_ARITH_D((double)FS1, K->fp_cvt)
L_FEQ_S: RD = hg_fcmp32(hg_unbox(f[ip->rs1]), hg_unbox(f[ip->rs2]), 0, &c->fflags); NEXT;
L_FLT_S: RD = hg_fcmp32(hg_unbox(f[ip->rs1]), hg_unbox(f[ip->rs2]), 1, &c->fflags); NEXT;
L_FLE_S: RD = hg_fcmp32(hg_unbox(f[ip->rs1]), hg_unbox(f[ip->rs2]), 2, &c->fflags); NEXT;
L_FEQ_D: RD = hg_fcmp64(f[ip->rs1], f[ip->rs2], 0, &c->fflags); NEXT;
L_FLT_D: RD = hg_fcmp64(f[ip->rs1], f[ip->rs2], 1, &c->fflags); NEXT;
L_FLE_D: RD = hg_fcmp64(f[ip->rs1], f[ip->rs2], 2, &c->fflags); NEXT;
L_FCLASS_S: RD = hg_fclass32(hg_unbox(f[ip->rs1])); NEXT;
L_FCLASS_D: RD = hg_fclass64(f[ip->rs1]); NEXT;
L_FCVT_W_S: CVT_TO_INT_S(0)
L_FCVT_WU_S: CVT_TO_INT_S(1)
L_FCVT_L_S: CVT_TO_INT_S(2)
L_FCVT_LU_S: CVT_TO_INT_S(3)
L_FCVT_W_D: CVT_TO_INT_D(0)
L_FCVT_WU_D: CVT_TO_INT_D(1)
L_FCVT_L_D: CVT_TO_INT_D(2)
L_FCVT_LU_D: CVT_TO_INT_D(3)
L_FCVT_S_W: FP_ARITH_S((float)(int32_t)RS1, K->fp_cvt)
L_FCVT_S_WU: FP_ARITH_S((float)(uint32_t)RS1, K->fp_cvt)
L_FCVT_S_L: FP_ARITH_S((float)(int64_t)RS1, K->fp_cvt)
L_FCVT_S_LU: FP_ARITH_S((float)RS1, K->fp_cvt)
L_FCVT_D_W: FP_ARITH_D((double)(int32_t)RS1, K->fp_cvt)
L_FCVT_D_WU: FP_ARITH_D((double)(uint32_t)RS1, K->fp_cvt)
L_FCVT_D_L: FP_ARITH_D((double)(int64_t)RS1, K->fp_cvt)
L_FCVT_D_LU: FP_ARITH_D((double)RS1, K->fp_cvt)
L_FMV_X_W: RD = SEXT32(f[ip->rs1]); NEXT;
L_FMV_W_X: f[ip->rd] = hg_box((uint32_t)RS1); NEXT;
L_FMV_X_D: RD = f[ip->rs1]; NEXT;
L_FMV_D_X: f[ip->rd] = RS1; NEXT;

guard: {
  uint64_t next;
  guard_rc = hg_sim_guard_check(c, icount - icount0 + extra + (c->extra - extra0), &next);
  if (HG_SIM_LIKELY(guard_rc == 0)) {
    budget = icount + next;
    DISPATCH; /* ip is already the jump's target */
  }
}
  c->l1_bytes += l1_bytes;
  c->insns = icount;
  c->extra += extra;
  c->pc = PC;
  if (guard_rc > 0)
    return 1; /* cut short by another job's fault */
  c->fault.pc = PC;
  c->fault.insn = ip < ins0 + seg->nins ? (uint32_t)seg->bytes[(ip - ins0) * 4] |
                                              (uint32_t)seg->bytes[(ip - ins0) * 4 + 1] << 8 |
                                              (uint32_t)seg->bytes[(ip - ins0) * 4 + 2] << 16 |
                                              (uint32_t)seg->bytes[(ip - ins0) * 4 + 3] << 24
                                        : 0;
  c->pc = PC;
  return -1;
fault:
  c->l1_bytes += l1_bytes;
  c->insns = icount + (uint64_t)(ip - blk);
  c->extra += extra;
  c->fault.kind = fkind;
  c->fault.pc = PC;
  c->fault.addr = faddr;
  memcpy(&c->fault.insn, seg->bytes + (ip - ins0) * 4, 4);
  c->pc = PC;
  return -1;
exit_job:
  c->l1_bytes += l1_bytes;
  c->insns = icount + (uint64_t)(ip - blk) + 1;
  c->extra += extra;
  c->pc = PC;
  return 0;
}
