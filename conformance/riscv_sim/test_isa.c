/* Every RV64IM(A) instruction against known results: each case is a few hand-encoded
 * instructions ending in ecall(exit) and runs as one job, so thousands of cases spread over
 * the grid's cores in one launch. References are host computations written independently of
 * the simulator (plus fixed known answers for the edge cases). */
#include "enc.h"
#include "util.h"

typedef struct expect {
  uint64_t a[8];
  uint64_t r0, r1;
  int check_r1;
  char what[96];
} expect;

static hg_t_prog prog;
static expect *exps;
static size_t nexps, cap_exps;

static void add_case(const uint32_t *w, size_t n, const uint64_t a[8], uint64_t r0, int check_r1, uint64_t r1,
                     const char *what) {
  size_t i = hg_t_case(&prog, w, n);
  if (i >= cap_exps) {
    cap_exps = cap_exps ? cap_exps * 2 : 256;
    exps = realloc(exps, cap_exps * sizeof *exps);
  }
  expect *e = &exps[i];
  memset(e, 0, sizeof *e);
  memcpy(e->a, a, sizeof e->a);
  e->a[7] = 93;
  e->r0 = r0;
  e->r1 = r1;
  e->check_r1 = check_r1;
  snprintf(e->what, sizeof e->what, "%s", what);
  nexps = i + 1;
}

#define SX32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* ---- references ---- */
static uint64_t r_div(uint64_t a, uint64_t b) {
  if (!b) return ~0ull;
  if (a == 0x8000000000000000ull && b == ~0ull) return a;
  return (uint64_t)((int64_t)a / (int64_t)b);
}
static uint64_t r_rem(uint64_t a, uint64_t b) {
  if (!b) return a;
  if (a == 0x8000000000000000ull && b == ~0ull) return 0;
  return (uint64_t)((int64_t)a % (int64_t)b);
}
static uint64_t r_divw(uint64_t a, uint64_t b) {
  int32_t x = (int32_t)a, y = (int32_t)b;
  if (!y) return ~0ull;
  if (x == INT32_MIN && y == -1) return SX32(x);
  return SX32(x / y);
}
static uint64_t r_remw(uint64_t a, uint64_t b) {
  int32_t x = (int32_t)a, y = (int32_t)b;
  if (!y) return SX32(x);
  if (x == INT32_MIN && y == -1) return 0;
  return SX32(x % y);
}
static uint64_t r_mulh(uint64_t a, uint64_t b) { return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64); }
static uint64_t r_mulhsu(uint64_t a, uint64_t b) {
  /* signed x unsigned via the unsigned high product, corrected for a's sign */
  uint64_t hi = (uint64_t)(((unsigned __int128)a * b) >> 64);
  return (int64_t)a < 0 ? hi - b : hi;
}
static uint64_t r_mulhu(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }

typedef struct rop {
  const char *name;
  unsigned op, f3, f7;
  uint64_t (*ref)(uint64_t, uint64_t);
} rop;
static uint64_t f_add(uint64_t a, uint64_t b) { return a + b; }
static uint64_t f_sub(uint64_t a, uint64_t b) { return a - b; }
static uint64_t f_sll(uint64_t a, uint64_t b) { return a << (b & 63); }
static uint64_t f_slt(uint64_t a, uint64_t b) { return (int64_t)a < (int64_t)b; }
static uint64_t f_sltu(uint64_t a, uint64_t b) { return a < b; }
static uint64_t f_xor(uint64_t a, uint64_t b) { return a ^ b; }
static uint64_t f_srl(uint64_t a, uint64_t b) { return a >> (b & 63); }
static uint64_t f_sra(uint64_t a, uint64_t b) {
  unsigned s = b & 63;
  return s ? (a >> s) | ((int64_t)a < 0 ? ~0ull << (64 - s) : 0) : a;
}
static uint64_t f_or(uint64_t a, uint64_t b) { return a | b; }
static uint64_t f_and(uint64_t a, uint64_t b) { return a & b; }
static uint64_t f_addw(uint64_t a, uint64_t b) { return SX32(a + b); }
static uint64_t f_subw(uint64_t a, uint64_t b) { return SX32(a - b); }
static uint64_t f_sllw(uint64_t a, uint64_t b) { return SX32((uint32_t)a << (b & 31)); }
static uint64_t f_srlw(uint64_t a, uint64_t b) { return SX32((uint32_t)a >> (b & 31)); }
static uint64_t f_sraw(uint64_t a, uint64_t b) { return SX32(f_sra(SX32(a), b & 31)); }
static uint64_t f_mul(uint64_t a, uint64_t b) { return a * b; }
static uint64_t f_divu(uint64_t a, uint64_t b) { return b ? a / b : ~0ull; }
static uint64_t f_remu(uint64_t a, uint64_t b) { return b ? a % b : a; }
static uint64_t f_mulw(uint64_t a, uint64_t b) { return SX32((uint32_t)a * (uint32_t)b); }
static uint64_t f_divuw(uint64_t a, uint64_t b) { return (uint32_t)b ? SX32((uint32_t)a / (uint32_t)b) : ~0ull; }
static uint64_t f_remuw(uint64_t a, uint64_t b) { return SX32((uint32_t)b ? (uint32_t)a % (uint32_t)b : (uint32_t)a); }

static const rop rops[] = {
    {"add", 0x33, 0, 0, f_add},        {"sub", 0x33, 0, 0x20, f_sub},     {"sll", 0x33, 1, 0, f_sll},
    {"slt", 0x33, 2, 0, f_slt},        {"sltu", 0x33, 3, 0, f_sltu},      {"xor", 0x33, 4, 0, f_xor},
    {"srl", 0x33, 5, 0, f_srl},        {"sra", 0x33, 5, 0x20, f_sra},     {"or", 0x33, 6, 0, f_or},
    {"and", 0x33, 7, 0, f_and},        {"addw", 0x3b, 0, 0, f_addw},      {"subw", 0x3b, 0, 0x20, f_subw},
    {"sllw", 0x3b, 1, 0, f_sllw},      {"srlw", 0x3b, 5, 0, f_srlw},      {"sraw", 0x3b, 5, 0x20, f_sraw},
    {"mul", 0x33, 0, 1, f_mul},        {"mulh", 0x33, 1, 1, r_mulh},      {"mulhsu", 0x33, 2, 1, r_mulhsu},
    {"mulhu", 0x33, 3, 1, r_mulhu},    {"div", 0x33, 4, 1, r_div},        {"divu", 0x33, 5, 1, f_divu},
    {"rem", 0x33, 6, 1, r_rem},        {"remu", 0x33, 7, 1, f_remu},      {"mulw", 0x3b, 0, 1, f_mulw},
    {"divw", 0x3b, 4, 1, r_divw},      {"divuw", 0x3b, 5, 1, f_divuw},    {"remw", 0x3b, 6, 1, r_remw},
    {"remuw", 0x3b, 7, 1, f_remuw},
};

static const uint64_t edges[] = {0, 1, 2, 3, ~0ull, ~0ull - 1, 0x8000000000000000ull, 0x7fffffffffffffffull,
                                 0x80000000ull, 0x7fffffffull, 0xffffffffull, 0xffffffff80000000ull, 63, 64, 31, 32,
                                 0x123456789abcdef0ull};
#define NEDGES (sizeof edges / sizeof edges[0])

static uint64_t pick(void) {
  uint64_t r = hg_t_rand();
  return (r & 3) ? edges[(r >> 8) % NEDGES] : hg_t_rand();
}

static void build_alu(void) {
  char what[96];
  for (size_t k = 0; k < sizeof rops / sizeof rops[0]; k++) {
    const rop *o = &rops[k];
    uint32_t w[2] = {enc_r(o->op, o->f3, o->f7, A0, A1, A2), ECALL};
    for (size_t i = 0; i < NEDGES; i++)
      for (size_t j = 0; j < NEDGES; j += (i & 1) + 1) {
        uint64_t a[8] = {0, edges[i], edges[j]};
        snprintf(what, sizeof what, "%s(%#" PRIx64 ", %#" PRIx64 ")", o->name, edges[i], edges[j]);
        add_case(w, 2, a, o->ref(edges[i], edges[j]), 0, 0, what);
      }
    for (int r = 0; r < 40; r++) {
      uint64_t a[8] = {0, pick(), pick()};
      snprintf(what, sizeof what, "%s(%#" PRIx64 ", %#" PRIx64 ")", o->name, a[1], a[2]);
      add_case(w, 2, a, o->ref(a[1], a[2]), 0, 0, what);
    }
    /* rd = rs1 = rs2, and x0 as destination */
    uint32_t w2[2] = {enc_r(o->op, o->f3, o->f7, A1, A1, A1), ECALL};
    uint64_t v = pick(), a2[8] = {0, v};
    snprintf(what, sizeof what, "%s same-register", o->name);
    add_case(w2, 2, a2, 0, 1, o->ref(v, v), what);
    uint32_t w3[3] = {LI_SMALL(A0, 5), enc_r(o->op, o->f3, o->f7, X0, A1, A2), ECALL};
    uint64_t a3[8] = {0, pick(), pick()};
    snprintf(what, sizeof what, "%s into x0", o->name);
    add_case(w3, 3, a3, 5, 0, 0, what);
  }
  /* fixed known answers */
  struct { unsigned op, f3, f7; uint64_t a, b, r; const char *n; } known[] = {
      {0x33, 4, 1, 0x8000000000000000ull, ~0ull, 0x8000000000000000ull, "div overflow"},
      {0x33, 6, 1, 0x8000000000000000ull, ~0ull, 0, "rem overflow"},
      {0x33, 4, 1, 7, 0, ~0ull, "div by zero"},
      {0x33, 5, 1, 7, 0, ~0ull, "divu by zero"},
      {0x33, 6, 1, (uint64_t)-7, 0, (uint64_t)-7, "rem by zero"},
      {0x33, 7, 1, 7, 0, 7, "remu by zero"},
      {0x33, 4, 1, (uint64_t)-7, 2, (uint64_t)-3, "div truncates"},
      {0x33, 6, 1, (uint64_t)-7, 2, (uint64_t)-1, "rem sign of dividend"},
      {0x3b, 4, 1, 0x80000000ull, ~0ull, 0xffffffff80000000ull, "divw overflow"},
      {0x3b, 6, 1, 0x80000000ull, ~0ull, 0, "remw overflow"},
      {0x3b, 5, 1, 5, 0x100000000ull, ~0ull, "divuw by zero (upper bits ignored)"},
      {0x3b, 7, 1, 0x80000005ull, 0, 0xffffffff80000005ull, "remuw by zero sign-extends"},
      {0x33, 2, 1, ~0ull, ~0ull, ~0ull, "mulhsu(-1, 2^64-1)"},
      {0x33, 1, 1, 0x8000000000000000ull, 0x8000000000000000ull, 0x4000000000000000ull, "mulh(min, min)"},
      {0x33, 3, 1, ~0ull, ~0ull, ~0ull - 1, "mulhu(max, max)"},
      {0x3b, 0, 0, 0x7fffffff, 1, 0xffffffff80000000ull, "addw wraps and sign-extends"},
      {0x3b, 0, 1, 0x10000, 0x10000, 0, "mulw keeps low 32"},
      {0x3b, 5, 0x20, 0xfffffff8ull, 1, (uint64_t)-4, "sraw on bit 31"},
      {0x3b, 1, 0, 1, 63, 0xffffffff80000000ull, "sllw uses shamt & 31"},
  };
  for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
    uint32_t w[2] = {enc_r(known[k].op, known[k].f3, known[k].f7, A0, A1, A2), ECALL};
    uint64_t a[8] = {0, known[k].a, known[k].b};
    add_case(w, 2, a, known[k].r, 0, 0, known[k].n);
  }
}

static void build_imm(void) {
  char what[96];
  for (int r = 0; r < 60; r++) {
    uint64_t x = pick();
    int32_t imm = (int32_t)(hg_t_rand() % 4096) - 2048;
    if (r < 4) imm = r == 0 ? -2048 : r == 1 ? 2047 : r == 2 ? -1 : 0;
    unsigned sh = (unsigned)hg_t_rand() & 63, shw = sh & 31;
    uint64_t a[8] = {0, x};
    uint64_t si = (uint64_t)(int64_t)imm;
    struct { uint32_t w; uint64_t r; const char *n; } c[] = {
        {enc_i(0x13, 0, A0, A1, imm), x + si, "addi"},
        {enc_i(0x13, 2, A0, A1, imm), (int64_t)x < (int64_t)si, "slti"},
        {enc_i(0x13, 3, A0, A1, imm), x < si, "sltiu"},
        {enc_i(0x13, 4, A0, A1, imm), x ^ si, "xori"},
        {enc_i(0x13, 6, A0, A1, imm), x | si, "ori"},
        {enc_i(0x13, 7, A0, A1, imm), x & si, "andi"},
        {enc_i(0x13, 1, A0, A1, (int32_t)sh), x << sh, "slli"},
        {enc_i(0x13, 5, A0, A1, (int32_t)sh), x >> sh, "srli"},
        {enc_i(0x13, 5, A0, A1, (int32_t)(sh | 0x400)), f_sra(x, sh), "srai"},
        {enc_i(0x1b, 0, A0, A1, imm), SX32(x + si), "addiw"},
        {enc_i(0x1b, 1, A0, A1, (int32_t)shw), SX32((uint32_t)x << shw), "slliw"},
        {enc_i(0x1b, 5, A0, A1, (int32_t)shw), SX32((uint32_t)x >> shw), "srliw"},
        {enc_i(0x1b, 5, A0, A1, (int32_t)(shw | 0x400)), SX32((int32_t)x >> shw), "sraiw"},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
      uint32_t w[2] = {c[k].w, ECALL};
      snprintf(what, sizeof what, "%s(%#" PRIx64 ", %d/%u)", c[k].n, x, imm, sh);
      add_case(w, 2, a, c[k].r, 0, 0, what);
    }
  }
  /* lui, auipc */
  for (int r = 0; r < 20; r++) {
    uint32_t imm20 = r == 0 ? 0x80000 : r == 1 ? 0xfffff : (uint32_t)hg_t_rand() & 0xfffff;
    uint64_t a[8] = {0};
    uint32_t w[2] = {enc_u(0x37, A0, imm20), ECALL};
    add_case(w, 2, a, SX32(imm20 << 12), 0, 0, "lui");
    uint32_t w2[2] = {enc_u(0x17, A0, imm20), ECALL};
    size_t i = hg_t_case(&prog, w2, 2);
    prog.ncases--; /* peek at the index, then add properly */
    add_case(w2, 2, a, hg_t_case_pc(i) + SX32(imm20 << 12), 0, 0, "auipc");
  }
}

static void build_control(void) {
  char what[96];
  /* branches: a0 = taken */
  static const struct { unsigned f3; const char *n; } br[] = {{0, "beq"}, {1, "bne"}, {4, "blt"},
                                                              {5, "bge"}, {6, "bltu"}, {7, "bgeu"}};
  for (size_t k = 0; k < 6; k++)
    for (size_t i = 0; i < NEDGES; i += 2)
      for (size_t j = 0; j < NEDGES; j += 3) {
        uint64_t x = edges[i], y = edges[j];
        int t = br[k].f3 == 0 ? x == y : br[k].f3 == 1 ? x != y : br[k].f3 == 4 ? (int64_t)x < (int64_t)y
              : br[k].f3 == 5 ? (int64_t)x >= (int64_t)y : br[k].f3 == 6 ? x < y : x >= y;
        uint32_t w[5] = {enc_b(br[k].f3, A1, A2, 12), LI_SMALL(A0, 0), ECALL, LI_SMALL(A0, 1), ECALL};
        uint64_t a[8] = {0, x, y};
        snprintf(what, sizeof what, "%s(%#" PRIx64 ", %#" PRIx64 ")", br[k].n, x, y);
        add_case(w, 5, a, (uint64_t)t, 0, 0, what);
      }
  /* backward branch loop: sum 1..n */
  for (uint64_t n = 1; n < 300; n += 37) {
    uint32_t w[5] = {LI_SMALL(A0, 0), ADD(A0, A0, A1), ADDI(A1, A1, -1), BNE(A1, X0, -8), ECALL};
    uint64_t a[8] = {0, n};
    add_case(w, 5, a, n * (n + 1) / 2, 0, 0, "loop sum");
  }
  /* jal links pc+4 and skips; jalr clears bit 0 of the target */
  {
    uint32_t w[3] = {JAL(A0, 8), EBREAK, ECALL};
    uint64_t a[8] = {0};
    size_t i = prog.ncases;
    add_case(w, 3, a, hg_t_case_pc(i) + 4, 0, 0, "jal link");
    uint32_t w2[4] = {JALR(A0, A1, 4), EBREAK, EBREAK, ECALL};
    i = prog.ncases;
    uint64_t a2[8] = {0, hg_t_case_pc(i) + 9};
    add_case(w2, 4, a2, hg_t_case_pc(i) + 4, 0, 0, "jalr link and bit 0");
    uint32_t w3[4] = {JAL(RA, 12), ADDI(A0, A0, 100), ECALL, JALR(X0, RA, 0)};
    i = prog.ncases;
    uint64_t a3[8] = {1};
    add_case(w3, 4, a3, 101, 0, 0, "call and return");
    uint32_t w4[2] = {LI_SMALL(A0, 42), JALR(X0, RA, 0)};
    uint64_t a4[8] = {0};
    a4[7] = 0;
    add_case(w4, 2, a4, 42, 0, 0, "return from the entry function ends the job");
    uint32_t w5[4] = {JAL(X0, 12), EBREAK, EBREAK, ECALL};
    add_case(w5, 4, a, 0, 0, 0, "jal x0");
  }
}

static void build_mem(void) {
  char what[96];
  static const struct { unsigned f3, size, sign; const char *n; } ld[] = {
      {0, 1, 1, "lb"}, {1, 2, 1, "lh"}, {2, 4, 1, "lw"}, {3, 8, 0, "ld"}, {4, 1, 0, "lbu"}, {5, 2, 0, "lhu"}, {6, 4, 0, "lwu"}};
  static const struct { unsigned f3, size; const char *n; } st[] = {{0, 1, "sb"}, {1, 2, "sh"}, {2, 4, "sw"}, {3, 8, "sd"}};
  uint64_t base = HG_SIM_L1_BASE + 4096;
  for (int r = 0; r < 12; r++) {
    uint64_t v0 = hg_t_rand() | 0x8080808080808080ull * (r & 1), v1 = hg_t_rand();
    uint8_t bytes[16];
    memcpy(bytes, &v0, 8);
    memcpy(bytes + 8, &v1, 8);
    for (size_t k = 0; k < 7; k++)
      for (unsigned off = 0; off + ld[k].size <= 16; off += 1 + (r & 1)) {
        uint64_t v = 0;
        memcpy(&v, bytes + off, ld[k].size);
        if (ld[k].sign && ld[k].size < 8 && (v >> (ld[k].size * 8 - 1) & 1)) v |= ~0ull << (ld[k].size * 8);
        uint32_t w[4] = {SD(A2, A1, 0), SD(A3, A1, 8), enc_i(0x03, ld[k].f3, A0, A1, (int32_t)off), ECALL};
        uint64_t a[8] = {0, base, v0, v1};
        snprintf(what, sizeof what, "%s at +%u", ld[k].n, off);
        add_case(w, 4, a, v, 0, 0, what);
        /* negative offsets address below the base register */
        uint32_t w2[5] = {SD(A2, A1, 0), SD(A3, A1, 8), ADDI(A1, A1, 32), enc_i(0x03, ld[k].f3, A0, A1, (int32_t)off - 32), ECALL};
        add_case(w2, 5, a, v, 0, 0, what);
      }
    for (size_t k = 0; k < 4; k++)
      for (unsigned off = 0; off + st[k].size <= 16; off += 1 + (r & 1)) {
        uint8_t b2[16] = {0};
        memcpy(b2 + off, &v0, st[k].size);
        uint64_t e0, e1;
        memcpy(&e0, b2, 8);
        memcpy(&e1, b2 + 8, 8);
        uint32_t w[6] = {SD(X0, A1, 0), SD(X0, A1, 8), enc_s(0x23, st[k].f3, A1, A2, (int32_t)off), LD(A0, A1, 0), LD(A1, A1, 8), ECALL};
        uint64_t a[8] = {0, base + 64, v0};
        snprintf(what, sizeof what, "%s at +%u", st[k].n, off);
        add_case(w, 6, a, e0, 1, e1, what);
      }
  }
  /* the top of L1 and the stack pointer */
  {
    uint32_t w[4] = {SD(A1, SP, -8), LD(A0, SP, -8), SUB(A1, SP, A2), ECALL};
    uint64_t a[8] = {0, 0x1122334455667788ull, HG_SIM_L1_BASE};
    add_case(w, 4, a, 0x1122334455667788ull, 1, 1464 * 1024, "stack at the top of L1");
  }
}

static uint64_t amo_ref(unsigned f5, int w, uint64_t m, uint64_t s) {
  if (w) { m = SX32(m); s = SX32(s); }
  uint64_t r;
  switch (f5) {
  case 0x01: r = s; break;
  case 0x00: r = m + s; break;
  case 0x04: r = m ^ s; break;
  case 0x0c: r = m & s; break;
  case 0x08: r = m | s; break;
  case 0x10: r = (int64_t)m < (int64_t)s ? m : s; break;
  case 0x14: r = (int64_t)m > (int64_t)s ? m : s; break;
  case 0x18: r = w ? ((uint32_t)m < (uint32_t)s ? m : s) : (m < s ? m : s); break;
  default: r = w ? ((uint32_t)m > (uint32_t)s ? m : s) : (m > s ? m : s); break;
  }
  return w ? SX32(r) : r;
}

static void build_atomic(void) {
  char what[96];
  static const unsigned f5s[] = {0x01, 0x00, 0x04, 0x0c, 0x08, 0x10, 0x14, 0x18, 0x1c};
  static const char *names[] = {"amoswap", "amoadd", "amoxor", "amoand", "amoor", "amomin", "amomax", "amominu", "amomaxu"};
  uint64_t base = HG_SIM_L1_BASE + 8192;
  for (int r = 0; r < 16; r++)
    for (size_t k = 0; k < 9; k++)
      for (int w = 0; w < 2; w++) {
        uint64_t m = pick(), s = pick();
        uint32_t code[4] = {w ? SW(A2, A1, 0) : SD(A2, A1, 0), enc_amo(f5s[k], w, A0, A1, A3),
                            w ? LW(A1, A1, 0) : LD(A1, A1, 0), ECALL};
        uint64_t a[8] = {0, base, m, s};
        snprintf(what, sizeof what, "%s.%s(%#" PRIx64 ", %#" PRIx64 ")", names[k], w ? "w" : "d", m, s);
        add_case(code, 4, a, w ? SX32(m) : m, 1, amo_ref(f5s[k], w, m, s), what);
      }
  for (int w = 0; w < 2; w++) {
    uint64_t a[8] = {0, base, 0x1111111122222222ull, 0x3333333344444444ull};
    uint32_t ok[5] = {w ? SW(A2, A1, 0) : SD(A2, A1, 0), enc_amo(0x02, w, A5, A1, 0), enc_amo(0x03, w, A0, A1, A3),
                      w ? LW(A1, A1, 0) : LD(A1, A1, 0), ECALL};
    add_case(ok, 5, a, 0, 1, w ? SX32(a[3]) : a[3], w ? "lr.w/sc.w succeed" : "lr.d/sc.d succeed");
    uint32_t no[4] = {w ? SW(A2, A1, 0) : SD(A2, A1, 0), enc_amo(0x03, w, A0, A1, A3), w ? LW(A1, A1, 0) : LD(A1, A1, 0), ECALL};
    add_case(no, 4, a, 1, 1, w ? SX32(a[2]) : a[2], "sc without reservation fails");
    uint32_t other[6] = {w ? SW(A2, A1, 0) : SD(A2, A1, 0), enc_amo(0x02, w, A5, A1, 0), ADDI(A4, A1, 8),
                         enc_amo(0x03, w, A0, A4, A3), w ? LW(A1, A1, 0) : LD(A1, A1, 0), ECALL};
    add_case(other, 6, a, 1, 1, w ? SX32(a[2]) : a[2], "sc to another address fails");
    uint32_t lrv[4] = {w ? SW(A2, A1, 0) : SD(A2, A1, 0), enc_amo(0x02, w, A0, A1, 0), ECALL};
    add_case(lrv, 3, a, w ? SX32(a[2]) : a[2], 0, 0, "lr value");
  }
}

int main(void) {
  hg_t_seed(0x5eed0001ull ^ (uint64_t)time(NULL));
  build_alu();
  build_imm();
  build_control();
  build_mem();
  build_atomic();
  hg_sim_machine *m;
  CHECK(hg_sim_create(NULL, &m) == HG_SIM_OK, "create");
  CHECK(hg_t_load(m, &prog) == HG_SIM_OK, "load code");
  hg_sim_job *jobs = calloc(nexps, sizeof *jobs);
  hg_sim_job_result *res = calloc(nexps, sizeof *res);
  for (size_t i = 0; i < nexps; i++) {
    jobs[i].pc = hg_t_case_pc(i);
    memcpy(jobs[i].a, exps[i].a, sizeof jobs[i].a);
    res[i].ret[0] = 0xdeadbeefdeadbeefull; /* poisoned */
  }
  hg_sim_launch l = {.jobs = jobs, .njobs = nexps, .results = res};
  int rc = hg_sim_run(m, &l);
  CHECK(rc == HG_SIM_OK, "launch rc %d (fault %s at pc %#" PRIx64 " job %zu)", rc, hg_sim_fault_name(l.fault.kind),
        l.fault.pc, l.fault.job);
  for (size_t i = 0; i < nexps; i++) {
    CHECK(res[i].status == HG_SIM_JOB_DONE, "%s: status %d", exps[i].what, res[i].status);
    CHECK(res[i].ret[0] == exps[i].r0, "%s: a0 %#" PRIx64 " expected %#" PRIx64, exps[i].what, res[i].ret[0], exps[i].r0);
    if (exps[i].check_r1)
      CHECK(res[i].ret[1] == exps[i].r1, "%s: a1 %#" PRIx64 " expected %#" PRIx64, exps[i].what, res[i].ret[1], exps[i].r1);
  }
  printf("%zu cases over %u cores\n", nexps, hg_sim_core_count(m));
  free(l.out);
  free(jobs);
  free(res);
  hg_sim_destroy(m);
  free(prog.words);
  free(exps);
  return hg_t_finish();
}
