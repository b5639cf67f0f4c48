/* A tiny RV64 encoder for hand-written test programs (no assembler needed). */
#ifndef HG_SIM_TEST_ENC_H
#define HG_SIM_TEST_ENC_H

#include <stdint.h>

static inline uint32_t enc_r(unsigned op, unsigned f3, unsigned f7, unsigned rd, unsigned rs1, unsigned rs2) {
  return op | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}
static inline uint32_t enc_i(unsigned op, unsigned f3, unsigned rd, unsigned rs1, int32_t imm) {
  return op | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20;
}
static inline uint32_t enc_s(unsigned op, unsigned f3, unsigned rs1, unsigned rs2, int32_t imm) {
  uint32_t u = (uint32_t)imm;
  return op | (u & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((u >> 5) & 0x7f) << 25;
}
static inline uint32_t enc_b(unsigned f3, unsigned rs1, unsigned rs2, int32_t off) {
  uint32_t u = (uint32_t)off;
  return 0x63 | ((u >> 11) & 1) << 7 | ((u >> 1) & 0xf) << 8 | f3 << 12 | rs1 << 15 | rs2 << 20 |
         ((u >> 5) & 0x3f) << 25 | ((u >> 12) & 1) << 31;
}
static inline uint32_t enc_u(unsigned op, unsigned rd, uint32_t imm20) { return op | rd << 7 | imm20 << 12; }
static inline uint32_t enc_j(unsigned rd, int32_t off) {
  uint32_t u = (uint32_t)off;
  return 0x6f | rd << 7 | ((u >> 12) & 0xff) << 12 | ((u >> 11) & 1) << 20 | ((u >> 1) & 0x3ff) << 21 |
         ((u >> 20) & 1) << 31;
}
static inline uint32_t enc_r4(unsigned op, unsigned fmt, unsigned rm, unsigned rd, unsigned rs1, unsigned rs2,
                              unsigned rs3) {
  return op | rd << 7 | rm << 12 | rs1 << 15 | rs2 << 20 | fmt << 25 | rs3 << 27;
}
static inline uint32_t enc_amo(unsigned f5, unsigned w, unsigned rd, unsigned rs1, unsigned rs2) {
  return enc_r(0x2f, w ? 2 : 3, f5 << 2 | 3 /* aq rl */, rd, rs1, rs2);
}

enum { X0 = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, T2 = 7, S0 = 8, S1 = 9, A0 = 10, A1, A2, A3, A4, A5, A6, A7 };

#define ADDI(rd, rs, imm) enc_i(0x13, 0, rd, rs, imm)
#define ADD(rd, a, b) enc_r(0x33, 0, 0, rd, a, b)
#define SUB(rd, a, b) enc_r(0x33, 0, 0x20, rd, a, b)
#define LD(rd, rs, imm) enc_i(0x03, 3, rd, rs, imm)
#define LW(rd, rs, imm) enc_i(0x03, 2, rd, rs, imm)
#define SD(rs2, rs1, imm) enc_s(0x23, 3, rs1, rs2, imm)
#define SW(rs2, rs1, imm) enc_s(0x23, 2, rs1, rs2, imm)
#define BNE(a, b, off) enc_b(1, a, b, off)
#define BEQ(a, b, off) enc_b(0, a, b, off)
#define BLT(a, b, off) enc_b(4, a, b, off)
#define JAL(rd, off) enc_j(rd, off)
#define JALR(rd, rs, imm) enc_i(0x67, 0, rd, rs, imm)
#define ECALL 0x00000073u
#define EBREAK 0x00100073u
#define FMV_D_X(fd, rs) enc_r(0x53, 0, 0x79, fd, rs, 0)
#define FMV_X_D(rd, fs) enc_r(0x53, 0, 0x71, rd, fs, 0)
#define CSRRW(rd, csr, rs) enc_i(0x73, 1, rd, rs, csr)
#define CSRRS(rd, csr, rs) enc_i(0x73, 2, rd, rs, csr)
#define LI_SMALL(rd, v) ADDI(rd, X0, v)

#endif
