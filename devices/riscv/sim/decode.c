/* RV64IMAFD + Zicsr + Zifencei decoder: one 32-bit encoding -> operation and fields, done once
 * per instruction when a code segment is loaded (the interpreter never looks at encodings). */
#include "devices/riscv/sim/sim_internal.h"

static int32_t imm_i(uint32_t r) { return (int32_t)r >> 20; }
static int32_t imm_s(uint32_t r) { return ((int32_t)(r & 0xfe000000u) >> 20) | (int32_t)((r >> 7) & 0x1f); }
static int32_t imm_b(uint32_t r) {
  return ((int32_t)(r & 0x80000000u) >> 19) | (int32_t)((r & 0x80u) << 4) | (int32_t)((r >> 20) & 0x7e0u) |
         (int32_t)((r >> 7) & 0x1eu);
}
static int32_t imm_u(uint32_t r) { return (int32_t)(r & 0xfffff000u); }
static int32_t imm_j(uint32_t r) {
  return ((int32_t)(r & 0x80000000u) >> 11) | (int32_t)(r & 0xff000u) | (int32_t)((r >> 9) & 0x800u) |
         (int32_t)((r >> 20) & 0x7feu);
}

hg_sim_decoded hg_sim_decode(uint32_t r, uint64_t pc_index, uint64_t nins) {
  hg_sim_decoded d = {HG_SIM_OP_ILLEGAL, 0, 32, 0, 0, 0};
  unsigned opc = r & 0x7f, f3 = (r >> 12) & 7, f7 = r >> 25;
  unsigned rd = (r >> 7) & 31, rs1 = (r >> 15) & 31, rs2 = (r >> 20) & 31, rs3 = r >> 27;
  uint8_t xrd = rd ? (uint8_t)rd : 32; /* integer destination: x0 -> sink */
  d.rs1 = (uint8_t)rs1;
  d.rs2 = (uint8_t)rs2;
  d.rs3 = (uint8_t)rs3;
  int op = HG_SIM_OP_ILLEGAL;
  bool int_dest = true;
  switch (opc) {
  case 0x37: op = HG_SIM_OP_LUI; d.imm = imm_u(r); break;
  case 0x17: op = HG_SIM_OP_AUIPC; d.imm = imm_u(r); break;
  case 0x6f: {
    int32_t off = imm_j(r);
    int64_t t = (int64_t)pc_index + off / 4;
    if ((off & 3) == 0 && t >= 0 && (uint64_t)t < nins) {
      op = HG_SIM_OP_JAL;
      d.imm = off / 4 * (int32_t)sizeof(hg_sim_insn); /* in bytes of predecoded code */
    } else {
      op = HG_SIM_OP_FARJUMP;
      d.imm = off;
    }
    break;
  }
  case 0x67:
    if (f3 == 0) { op = HG_SIM_OP_JALR; d.imm = imm_i(r); }
    break;
  case 0x63: {
    static const int ops[8] = {HG_SIM_OP_BEQ, HG_SIM_OP_BNE, -1, -1, HG_SIM_OP_BLT, HG_SIM_OP_BGE, HG_SIM_OP_BLTU,
                               HG_SIM_OP_BGEU};
    if (ops[f3] < 0) break;
    int32_t off = imm_b(r);
    int64_t t = (int64_t)pc_index + off / 4;
    int_dest = false;
    if ((off & 3) == 0 && t >= 0 && (uint64_t)t < nins) {
      op = ops[f3];
      d.imm = off / 4 * (int32_t)sizeof(hg_sim_insn);
    } else {
      op = HG_SIM_OP_FARBR;
      d.imm = off;
      d.rs3 = (uint8_t)f3;
    }
    break;
  }
  case 0x03: {
    static const int ops[8] = {HG_SIM_OP_LB,  HG_SIM_OP_LH,  HG_SIM_OP_LW,  HG_SIM_OP_LD,
                               HG_SIM_OP_LBU, HG_SIM_OP_LHU, HG_SIM_OP_LWU, -1};
    if (ops[f3] >= 0) { op = ops[f3]; d.imm = imm_i(r); }
    break;
  }
  case 0x23: {
    static const int ops[8] = {HG_SIM_OP_SB, HG_SIM_OP_SH, HG_SIM_OP_SW, HG_SIM_OP_SD, -1, -1, -1, -1};
    if (ops[f3] >= 0) { op = ops[f3]; d.imm = imm_s(r); }
    int_dest = false;
    break;
  }
  case 0x13:
    d.imm = imm_i(r);
    switch (f3) {
    case 0: op = HG_SIM_OP_ADDI; break;
    case 2: op = HG_SIM_OP_SLTI; break;
    case 3: op = HG_SIM_OP_SLTIU; break;
    case 4: op = HG_SIM_OP_XORI; break;
    case 6: op = HG_SIM_OP_ORI; break;
    case 7: op = HG_SIM_OP_ANDI; break;
    case 1: if ((r >> 26) == 0) { op = HG_SIM_OP_SLLI; d.imm &= 63; } break;
    case 5:
      if ((r >> 26) == 0) { op = HG_SIM_OP_SRLI; d.imm &= 63; }
      else if ((r >> 26) == 0x10) { op = HG_SIM_OP_SRAI; d.imm &= 63; }
      break;
    }
    break;
  case 0x1b:
    d.imm = imm_i(r);
    if (f3 == 0) op = HG_SIM_OP_ADDIW;
    else if (f3 == 1 && f7 == 0) { op = HG_SIM_OP_SLLIW; d.imm &= 31; }
    else if (f3 == 5 && f7 == 0) { op = HG_SIM_OP_SRLIW; d.imm &= 31; }
    else if (f3 == 5 && f7 == 0x20) { op = HG_SIM_OP_SRAIW; d.imm &= 31; }
    break;
  case 0x33: {
    static const int base[8] = {HG_SIM_OP_ADD, HG_SIM_OP_SLL, HG_SIM_OP_SLT, HG_SIM_OP_SLTU,
                                HG_SIM_OP_XOR, HG_SIM_OP_SRL, HG_SIM_OP_OR,  HG_SIM_OP_AND};
    static const int mext[8] = {HG_SIM_OP_MUL, HG_SIM_OP_MULH, HG_SIM_OP_MULHSU, HG_SIM_OP_MULHU,
                                HG_SIM_OP_DIV, HG_SIM_OP_DIVU, HG_SIM_OP_REM,    HG_SIM_OP_REMU};
    if (f7 == 0) op = base[f3];
    else if (f7 == 1) op = mext[f3];
    else if (f7 == 0x20 && f3 == 0) op = HG_SIM_OP_SUB;
    else if (f7 == 0x20 && f3 == 5) op = HG_SIM_OP_SRA;
    break;
  }
  case 0x3b:
    if (f7 == 0) op = f3 == 0 ? HG_SIM_OP_ADDW : f3 == 1 ? HG_SIM_OP_SLLW : f3 == 5 ? HG_SIM_OP_SRLW : -1;
    else if (f7 == 0x20) op = f3 == 0 ? HG_SIM_OP_SUBW : f3 == 5 ? HG_SIM_OP_SRAW : -1;
    else if (f7 == 1) {
      static const int ops[8] = {HG_SIM_OP_MULW, -1, -1, -1, HG_SIM_OP_DIVW, HG_SIM_OP_DIVUW, HG_SIM_OP_REMW,
                                 HG_SIM_OP_REMUW};
      op = ops[f3];
    }
    if (op < 0) op = HG_SIM_OP_ILLEGAL;
    break;
  case 0x0f:
    if (f3 == 0 || f3 == 1) { op = HG_SIM_OP_FENCE; int_dest = false; } /* fence, fence.i */
    break;
  case 0x73:
    d.imm = (int32_t)(r >> 20); /* csr number */
    switch (f3) {
    case 0:
      if (r == 0x00000073u) op = HG_SIM_OP_ECALL;
      else if (r == 0x00100073u) op = HG_SIM_OP_EBREAK;
      break;
    case 1: op = HG_SIM_OP_CSRRW; break;
    case 2: op = HG_SIM_OP_CSRRS; break;
    case 3: op = HG_SIM_OP_CSRRC; break;
    case 5: op = HG_SIM_OP_CSRRWI; break;
    case 6: op = HG_SIM_OP_CSRRSI; break;
    case 7: op = HG_SIM_OP_CSRRCI; break;
    }
    break;
  case 0x2f: {
    unsigned f5 = r >> 27;
    bool w = f3 == 2;
    if (f3 != 2 && f3 != 3) break;
    switch (f5) {
    case 0x02: if (rs2 == 0) op = w ? HG_SIM_OP_LR_W : HG_SIM_OP_LR_D; break;
    case 0x03: op = w ? HG_SIM_OP_SC_W : HG_SIM_OP_SC_D; break;
    case 0x01: op = w ? HG_SIM_OP_AMOSWAP_W : HG_SIM_OP_AMOSWAP_D; break;
    case 0x00: op = w ? HG_SIM_OP_AMOADD_W : HG_SIM_OP_AMOADD_D; break;
    case 0x04: op = w ? HG_SIM_OP_AMOXOR_W : HG_SIM_OP_AMOXOR_D; break;
    case 0x0c: op = w ? HG_SIM_OP_AMOAND_W : HG_SIM_OP_AMOAND_D; break;
    case 0x08: op = w ? HG_SIM_OP_AMOOR_W : HG_SIM_OP_AMOOR_D; break;
    case 0x10: op = w ? HG_SIM_OP_AMOMIN_W : HG_SIM_OP_AMOMIN_D; break;
    case 0x14: op = w ? HG_SIM_OP_AMOMAX_W : HG_SIM_OP_AMOMAX_D; break;
    case 0x18: op = w ? HG_SIM_OP_AMOMINU_W : HG_SIM_OP_AMOMINU_D; break;
    case 0x1c: op = w ? HG_SIM_OP_AMOMAXU_W : HG_SIM_OP_AMOMAXU_D; break;
    }
    break;
  }
  case 0x07:
    int_dest = false;
    d.imm = imm_i(r);
    if (f3 == 2) op = HG_SIM_OP_FLW;
    else if (f3 == 3) op = HG_SIM_OP_FLD;
    break;
  case 0x27:
    int_dest = false;
    d.imm = imm_s(r);
    if (f3 == 2) op = HG_SIM_OP_FSW;
    else if (f3 == 3) op = HG_SIM_OP_FSD;
    break;
  case 0x43: case 0x47: case 0x4b: case 0x4f: {
    unsigned fmt = (r >> 25) & 3, k = (opc - 0x43) >> 2;
    int_dest = false;
    d.imm = (int32_t)f3;
    if (f3 == 5 || f3 == 6) break;
    if (fmt == 0) op = HG_SIM_OP_FMADD_S + (int)k;
    else if (fmt == 1) op = HG_SIM_OP_FMADD_D + (int)k;
    break;
  }
  case 0x53: {
    int_dest = false;
    d.imm = (int32_t)f3; /* rounding mode, or the funct3 selector */
    bool rm_ok = f3 != 5 && f3 != 6;
    switch (f7) {
    case 0x00: if (rm_ok) op = HG_SIM_OP_FADD_S; break;
    case 0x01: if (rm_ok) op = HG_SIM_OP_FADD_D; break;
    case 0x04: if (rm_ok) op = HG_SIM_OP_FSUB_S; break;
    case 0x05: if (rm_ok) op = HG_SIM_OP_FSUB_D; break;
    case 0x08: if (rm_ok) op = HG_SIM_OP_FMUL_S; break;
    case 0x09: if (rm_ok) op = HG_SIM_OP_FMUL_D; break;
    case 0x0c: if (rm_ok) op = HG_SIM_OP_FDIV_S; break;
    case 0x0d: if (rm_ok) op = HG_SIM_OP_FDIV_D; break;
    case 0x2c: if (rm_ok && rs2 == 0) op = HG_SIM_OP_FSQRT_S; break;
    case 0x2d: if (rm_ok && rs2 == 0) op = HG_SIM_OP_FSQRT_D; break;
    case 0x10: if (f3 <= 2) op = HG_SIM_OP_FSGNJ_S + (int)f3; break;
    case 0x11: if (f3 <= 2) op = HG_SIM_OP_FSGNJ_D + (int)f3; break;
    case 0x14: if (f3 <= 1) op = f3 ? HG_SIM_OP_FMAX_S : HG_SIM_OP_FMIN_S; break;
    case 0x15: if (f3 <= 1) op = f3 ? HG_SIM_OP_FMAX_D : HG_SIM_OP_FMIN_D; break;
    case 0x20: if (rm_ok && rs2 == 1) op = HG_SIM_OP_FCVT_S_D; break;
    case 0x21: if (rm_ok && rs2 == 0) op = HG_SIM_OP_FCVT_D_S; break;
    case 0x50: case 0x51: {
      static const int s[3] = {HG_SIM_OP_FLE_S, HG_SIM_OP_FLT_S, HG_SIM_OP_FEQ_S};
      static const int dd[3] = {HG_SIM_OP_FLE_D, HG_SIM_OP_FLT_D, HG_SIM_OP_FEQ_D};
      if (f3 <= 2) { op = f7 == 0x50 ? s[f3] : dd[f3]; int_dest = true; }
      break;
    }
    case 0x60: case 0x61:
      if (rm_ok && rs2 <= 3) { op = (f7 == 0x60 ? HG_SIM_OP_FCVT_W_S : HG_SIM_OP_FCVT_W_D) + (int)rs2; int_dest = true; }
      break;
    case 0x68: case 0x69:
      if (rm_ok && rs2 <= 3) op = (f7 == 0x68 ? HG_SIM_OP_FCVT_S_W : HG_SIM_OP_FCVT_D_W) + (int)rs2;
      break;
    case 0x70: case 0x71:
      if (rs2 == 0 && f3 == 0) op = f7 == 0x70 ? HG_SIM_OP_FMV_X_W : HG_SIM_OP_FMV_X_D;
      else if (rs2 == 0 && f3 == 1) op = f7 == 0x70 ? HG_SIM_OP_FCLASS_S : HG_SIM_OP_FCLASS_D;
      int_dest = true;
      break;
    case 0x78: if (rs2 == 0 && f3 == 0) op = HG_SIM_OP_FMV_W_X; break;
    case 0x79: if (rs2 == 0 && f3 == 0) op = HG_SIM_OP_FMV_D_X; break;
    }
    break;
  }
  default: break;
  }
  if (op < 0) op = HG_SIM_OP_ILLEGAL;
  if (opc == 0x53 || opc == 0x43 || opc == 0x47 || opc == 0x4b || opc == 0x4f) d.imm |= op << 8; /* for RMM */
  if (opc == 0x03 || opc == 0x23 || opc == 0x2f || opc == 0x07 || opc == 0x27)
    d.rs3 = (uint8_t)((opc == 0x23 || opc == 0x2f || opc == 0x27 ? HG_SIM_STORE_SLOTS : 0) +
                      pc_index % HG_SIM_STORE_SLOTS); /* the instruction's view slot */
  d.op = op;
  d.rd = int_dest ? xrd : (uint8_t)rd;
  return d;
}

int hg_sim_fuse(const hg_sim_decoded *a, const hg_sim_decoded *next) {
  if (a->op == HG_SIM_OP_ADDI && next->op >= HG_SIM_OP_BEQ && next->op <= HG_SIM_OP_BGEU && next->rs1 == a->rd)
    return HG_SIM_OP_ADDI_BEQ + (next->op - HG_SIM_OP_BEQ);
  return a->op;
}
