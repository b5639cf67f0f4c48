/* Unit tests of the hetGPU IR (ir/): every opcode, type, vector width and address space built
 * with the builder; verifier acceptance and one rejection per rule; text and binary round
 * trips; decoder robustness against truncation and random corruption; safe points and live
 * sets on hand-built kernels; inliner; linker. Optional argument: a directory to which the
 * encoded test modules are written (the fuzzer's seed corpus). */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
#define CHECK(cond, ...)                                                                                      \
  do {                                                                                                       \
    if (cond)                                                                                                \
      passed++;                                                                                              \
    else {                                                                                                   \
      failed++;                                                                                              \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                            \
      printf(__VA_ARGS__);                                                                                   \
      printf("\n");                                                                                          \
    }                                                                                                        \
  } while (0)

static const char *seed_dir;
static void write_seed(const char *name, const hg_ir_module *m) {
  if (!seed_dir)
    return;
  uint8_t *b;
  size_t n;
  if (hg_ir_encode(m, &b, &n))
    return;
  char path[512];
  snprintf(path, sizeof path, "%s/%s.hgir", seed_dir, name);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(b, 1, n, f);
    fclose(f);
  }
  free(b);
}

/* ---- building helpers ------------------------------------------------------------------- */
#define T(s, l) hg_ir_ty(HG_IR_##s, l)
#define P(as) hg_ir_ptr_ty(HG_AS_##as)
#define VOID hg_ir_void_ty()
static uint32_t op3(hg_ir_function *f, uint32_t b, hg_ir_opcode op, unsigned flags, hg_ir_type t, uint32_t n,
                    uint32_t a0, uint32_t a1, uint32_t a2) {
  uint32_t ops[3] = {a0, a1, a2};
  return hg_ir_append(f, b, op, (uint16_t)flags, t, n, ops, 0, NULL);
}
#define OP0(op, fl, t) op3(f, b, op, fl, t, 0, 0, 0, 0)
#define OP1(op, fl, t, a) op3(f, b, op, fl, t, 1, a, 0, 0)
#define OP2(op, fl, t, a, c) op3(f, b, op, fl, t, 2, a, c, 0)
#define OP3(op, fl, t, a, c, d) op3(f, b, op, fl, t, 3, a, c, d)
static uint32_t opi(hg_ir_function *f, uint32_t b, hg_ir_opcode op, unsigned flags, hg_ir_type t, uint32_t n,
                    const uint32_t *ops, uint32_t ni, const uint32_t *imm) {
  return hg_ir_append(f, b, op, (uint16_t)flags, t, n, ops, ni, imm);
}
static uint32_t cst(hg_ir_function *f, hg_ir_type t, uint64_t v) {
  uint64_t lanes[16];
  for (int i = 0; i < 16; i++)
    lanes[i] = v + (uint64_t)i * (t.scalar == HG_IR_BOOL ? 0 : 1);
  return hg_ir_add_const(f, t, lanes);
}
static void set_arg(hg_ir_function *f, uint32_t i, const char *name, const char *tn, hg_ir_arg_kind k, uint32_t size,
                    uint32_t align) {
  f->args[i].name = strdup(name);
  f->args[i].type_name = strdup(tn);
  f->args[i].kind = (uint8_t)k;
  f->args[i].size = size;
  f->args[i].align = align;
}
#define MEMF(log2al, vol) ((unsigned)(log2al) << 8 | (vol))
#define ATOMF(op, ord, sc) ((unsigned)(op) | (unsigned)(ord) << 8 | (unsigned)(sc) << 12)

/* A module using every opcode, scalar type, vector width, address space and metadata field. */
static hg_ir_module *build_all(void) {
  hg_ir_module *m = hg_ir_module_new();
  m->source_language = strdup("OpenCL C 1.2");
  m->build_options = strdup("-cl-fast-relaxed-math");
  m->uses_fp64 = m->uses_fp16 = true;
  m->program_kind = HG_IR_PROGRAM_EXECUTABLE;
  uint8_t cinit[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  hg_ir_global g = {0};
  g.name = "cdata"; g.addrspace = HG_AS_CONSTANT; g.is_const = true; g.has_init = true; g.size = 16; g.align = 16; g.init = cinit;
  uint32_t gc = hg_ir_add_global(m, &g);
  uint8_t zinit[16] = {0};
  struct hg_ir_reloc rl = {8, gc, 4};
  hg_ir_global g2 = {0};
  g2.name = "gptrs"; g2.addrspace = HG_AS_GLOBAL; g2.has_init = true; g2.size = 16; g2.align = 8; g2.init = zinit;
  g2.num_relocs = 1; g2.relocs = &rl;
  uint32_t gg = hg_ir_add_global(m, &g2);
  hg_ir_global g3 = {0};
  g3.name = "tile"; g3.addrspace = HG_AS_LOCAL; g3.size = 256; g3.align = 16;
  uint32_t gl = hg_ir_add_global(m, &g3);
  hg_ir_global g4 = {0};
  g4.name = "unused local"; g4.addrspace = HG_AS_LOCAL; g4.size = 4; g4.align = 4;
  hg_ir_add_global(m, &g4);

  hg_ir_type hp[1] = {T(F32, 1)};
  uint32_t hi = hg_ir_add_function(m, "helper", T(F32, 1), 1, hp);
  hg_ir_type kp[6] = {P(GLOBAL), P(CONSTANT), P(LOCAL), T(I32, 1), T(F32, 4), T(F64, 1)};
  uint32_t ki = hg_ir_add_function(m, "all_ops", VOID, 6, kp);
  hg_ir_type dp[1] = {T(I32, 1)};
  hg_ir_add_function(m, "declared_only", T(I32, 1), 1, dp);

  /* helper: two returns through a condbr */
  hg_ir_function *f = &m->functions[hi];
  uint32_t b = hg_ir_add_block(f), b1 = hg_ir_add_block(f), b2 = hg_ir_add_block(f);
  uint32_t two = cst(f, T(F32, 1), 0x40000000);
  uint32_t x2 = OP2(HG_OP_FMUL, 0, T(F32, 1), 0, two);
  uint32_t cnd = OP2(HG_OP_FCMP, HG_CMP_OGT, T(BOOL, 1), x2, two);
  uint32_t tg[2] = {b1, b2};
  opi(f, b, HG_OP_CONDBR, 0, VOID, 1, &cnd, 2, tg);
  b = b1;
  OP1(HG_OP_RET, 0, VOID, x2);
  b = b2;
  OP1(HG_OP_RET, 0, VOID, 0);

  f = &m->functions[ki];
  hg_ir_kernel_arg *a = hg_ir_make_kernel(f);
  (void)a;
  set_arg(f, 0, "out", "float*", HG_KARG_GLOBAL_PTR, 8, 8);
  set_arg(f, 1, "in", "float*", HG_KARG_CONSTANT_PTR, 8, 8);
  f->args[1].type_qual = 1;
  set_arg(f, 2, "scratch", "int*", HG_KARG_LOCAL_PTR, 8, 8);
  set_arg(f, 3, "n", "int", HG_KARG_VALUE, 4, 4);
  set_arg(f, 4, "v", "float4", HG_KARG_VALUE, 16, 16);
  set_arg(f, 5, "d", "double", HG_KARG_VALUE, 8, 8);
  f->reqd_work_group_size[0] = 64; f->reqd_work_group_size[1] = 1; f->reqd_work_group_size[2] = 1;
  f->work_group_size_hint[0] = 32; f->work_group_size_hint[1] = 2; f->work_group_size_hint[2] = 1;
  f->vec_type_hint = strdup("float4");
  free(f->attributes);
  f->attributes = strdup("reqd_work_group_size(64,1,1) \"quoted\"\\");
  uint32_t s0 = hg_ir_add_slot(f, 12, 4), s1 = hg_ir_add_slot(f, 64, 16);
  (void)s1;
  uint32_t B0 = hg_ir_add_block(f), B1 = hg_ir_add_block(f), B2 = hg_ir_add_block(f), B3 = hg_ir_add_block(f),
           B4 = hg_ir_add_block(f);
  b = B0;
  uint32_t c1 = cst(f, T(I32, 1), 1), c2 = cst(f, T(I32, 1), 2), c7 = cst(f, T(I32, 1), (uint32_t)-7);
  uint32_t c8 = cst(f, T(I64, 1), 8), ci8 = cst(f, T(I8, 1), 0xFF), ci16 = cst(f, T(I16, 1), 3);
  uint32_t cf16 = cst(f, T(F16, 1), 0x3C00), cf32 = cst(f, T(F32, 1), 0x3F800000);
  uint32_t ctrue = cst(f, T(BOOL, 1), 1), cnull = cst(f, P(GLOBAL), 0);
  uint32_t ub = hg_ir_add_undef(f, T(F32, 4));
  uint32_t rc = hg_ir_add_global_ref(f, m, gc), rg = hg_ir_add_global_ref(f, m, gg), rl2 = hg_ir_add_global_ref(f, m, gl);
  uint32_t n = 3, v = 4;
  /* integer arithmetic */
  uint32_t acc = n;
  for (int op = HG_OP_ADD; op <= HG_OP_XOR; op++)
    acc = OP2((hg_ir_opcode)op, 0, T(I32, 1), acc, op == HG_OP_SUB ? c7 : c1);
  uint32_t bb = OP2(HG_OP_XOR, 0, T(BOOL, 1), ctrue, ctrue);
  bb = OP2(HG_OP_AND, 0, T(BOOL, 1), bb, ctrue);
  bb = OP2(HG_OP_OR, 0, T(BOOL, 1), bb, ctrue);
  /* every vector width and scalar type through add/fadd */
  static const unsigned widths[] = {2, 3, 4, 8, 16};
  static const hg_ir_scalar ints[] = {HG_IR_I8, HG_IR_I16, HG_IR_I32, HG_IR_I64};
  static const hg_ir_scalar floats[] = {HG_IR_F16, HG_IR_F32, HG_IR_F64};
  for (int w = 0; w < 5; w++) {
    for (int s = 0; s < 4; s++) {
      uint32_t k = cst(f, hg_ir_ty(ints[s], widths[w]), 1);
      OP2(HG_OP_ADD, 0, hg_ir_ty(ints[s], widths[w]), k, k);
    }
    for (int s = 0; s < 3; s++) {
      uint32_t k = cst(f, hg_ir_ty(floats[s], widths[w]), 0);
      OP2(HG_OP_FADD, 0, hg_ir_ty(floats[s], widths[w]), k, k);
    }
    cst(f, hg_ir_ty(HG_IR_BOOL, widths[w]), 1);
  }
  /* float arithmetic */
  uint32_t fv = v;
  for (int op = HG_OP_FADD; op <= HG_OP_FREM; op++)
    fv = OP2((hg_ir_opcode)op, 0, T(F32, 4), fv, v);
  fv = OP1(HG_OP_FNEG, 0, T(F32, 4), fv);
  uint32_t lt = OP2(HG_OP_ICMP, HG_CMP_SLT, T(BOOL, 1), acc, n);
  uint32_t flt = OP2(HG_OP_FCMP, HG_CMP_OLT, T(BOOL, 4), fv, v);
  OP2(HG_OP_FCMP, HG_CMP_UNO, T(BOOL, 4), fv, ub);
  OP2(HG_OP_ICMP, HG_CMP_EQ, T(BOOL, 1), 0, cnull);
  uint32_t sel = OP3(HG_OP_SELECT, 0, T(I32, 1), lt, acc, n);
  OP3(HG_OP_SELECT, 0, T(F32, 4), flt, fv, v);
  /* conversions */
  uint32_t t16 = OP1(HG_OP_TRUNC, 0, T(I16, 1), sel);
  OP1(HG_OP_ZEXT, 0, T(I64, 1), t16);
  OP1(HG_OP_SEXT, 0, T(I32, 1), ci8);
  OP1(HG_OP_ZEXT, 0, T(I32, 1), lt);
  OP1(HG_OP_TRUNC, 0, T(I8, 1), ci16);
  uint32_t f32 = OP1(HG_OP_FPTRUNC, 0, T(F32, 1), 5);
  OP1(HG_OP_FPEXT, 0, T(F32, 1), cf16);
  OP1(HG_OP_FPTOUI, 0, T(I32, 1), f32);
  OP1(HG_OP_FPTOSI, 0, T(I64, 1), cf32);
  OP1(HG_OP_UITOFP, 0, T(F64, 1), n);
  OP1(HG_OP_SITOFP, 0, T(F16, 1), ci16);
  uint32_t pi = OP1(HG_OP_PTRTOINT, 0, T(I64, 1), 0);
  OP1(HG_OP_INTTOPTR, 0, P(GLOBAL), pi);
  OP1(HG_OP_BITCAST, 0, T(I32, 4), fv);
  OP1(HG_OP_BITCAST, 0, T(F64, 1), c8);
  uint32_t gen = OP1(HG_OP_ADDRSPACECAST, 0, P(GENERIC), 0);
  /* vectors */
  uint32_t el = OP2(HG_OP_EXTRACT, 0, T(F32, 1), v, c1);
  uint32_t ins = OP3(HG_OP_INSERT, 0, T(F32, 4), v, el, c2);
  uint32_t sops[2] = {ins, v}, lanes[8] = {0, 1, 2, 3, 4, 5, 6, UINT32_MAX};
  opi(f, b, HG_OP_SHUFFLE, 0, T(F32, 8), 2, sops, 8, lanes);
  /* memory */
  uint32_t p8 = OP2(HG_OP_PTRADD, 0, P(GLOBAL), 0, c8);
  uint32_t ld = OP1(HG_OP_LOAD, MEMF(2, 0), T(F32, 1), p8);
  OP2(HG_OP_STORE, MEMF(2, 1), VOID, p8, ld);
  OP1(HG_OP_LOAD, MEMF(4, 0), T(F32, 4), 1);
  OP1(HG_OP_LOAD, 0, T(I32, 1), 2);
  OP1(HG_OP_LOAD, MEMF(3, 0), T(I64, 1), gen);
  OP1(HG_OP_LOAD, 0, T(I8, 1), rc);
  OP1(HG_OP_LOAD, 0, P(CONSTANT), rg);
  uint32_t sl_imm = s0;
  uint32_t sp = opi(f, b, HG_OP_SLOT, 0, P(PRIVATE), 0, NULL, 1, &sl_imm);
  OP2(HG_OP_STORE, 0, VOID, sp, n);
  OP3(HG_OP_MEMCPY, 0, VOID, rl2, 1, c8);
  OP3(HG_OP_MEMSET, 0, VOID, sp, ci8, c8);
  OP3(HG_OP_MEMMOVE, MEMF(0, 1), VOID, rl2, 1, c8);
  /* atomics */
  OP2(HG_OP_ATOMIC_RMW, ATOMF(HG_ATOMIC_ADD, HG_ORDER_RELAXED, HG_SCOPE_DEVICE), T(I32, 1), 0, c1);
  OP2(HG_OP_ATOMIC_RMW, ATOMF(HG_ATOMIC_UMAX, HG_ORDER_SEQ_CST, HG_SCOPE_WORK_GROUP), T(I32, 1), 2, c1);
  OP2(HG_OP_ATOMIC_RMW, ATOMF(HG_ATOMIC_FADD, HG_ORDER_ACQ_REL, HG_SCOPE_DEVICE), T(F32, 1), 0, ld);
  OP1(HG_OP_ATOMIC_RMW, ATOMF(HG_ATOMIC_LOAD, HG_ORDER_ACQUIRE, HG_SCOPE_ALL_DEVICES), T(I32, 1), 0);
  OP2(HG_OP_ATOMIC_RMW, ATOMF(HG_ATOMIC_STORE, HG_ORDER_RELEASE, HG_SCOPE_SUB_GROUP), VOID, 0, c1);
  uint32_t cx_ops[3] = {0, c1, c2}, cx_imm = HG_ORDER_RELAXED;
  opi(f, b, HG_OP_CMPXCHG, ATOMF(0, HG_ORDER_SEQ_CST, HG_SCOPE_DEVICE), T(I32, 1), 3, cx_ops, 1, &cx_imm);
  uint32_t ff = HG_FENCE_LOCAL | HG_FENCE_GLOBAL;
  opi(f, b, HG_OP_FENCE, ATOMF(0, HG_ORDER_ACQ_REL, HG_SCOPE_WORK_GROUP), VOID, 0, NULL, 1, &ff);
  uint32_t bf = HG_FENCE_LOCAL;
  opi(f, b, HG_OP_BARRIER, 0, VOID, 0, NULL, 1, &bf);
  /* calls */
  uint32_t callee = hi;
  uint32_t hr = opi(f, b, HG_OP_CALL, 0, T(F32, 1), 1, &el, 1, &callee);
  uint32_t gid_name = hg_ir_intern(m, "get_global_id");
  uint32_t gid = opi(f, b, HG_OP_CALL_BUILTIN, 0, T(I64, 1), 1, &c1 /* dim arg as i32 */, 1, &gid_name);
  (void)gid;
  uint32_t sin_name = hg_ir_intern(m, "sin");
  opi(f, b, HG_OP_CALL_BUILTIN, 0, T(F32, 1), 1, &hr, 1, &sin_name);
  uint32_t cv_name = hg_ir_intern(m, "convert_int4_sat_rte");
  opi(f, b, HG_OP_CALL_BUILTIN, 0, T(I32, 4), 1, &v, 1, &cv_name);
  uint32_t ad_name = hg_ir_intern(m, "abs_diff"), ad_ops[2] = {n, c1};
  opi(f, b, HG_OP_CALL_BUILTIN, 3 /* both arguments unsigned */, T(I32, 1), 2, ad_ops, 1, &ad_name);
  /* control flow: condbr, switch (two edges to B3), br, phi, ret, unreachable */
  uint32_t tgt[2] = {B1, B2};
  opi(f, b, HG_OP_CONDBR, 0, VOID, 1, &lt, 2, tgt);
  b = B1;
  uint32_t sw_ops[3] = {n, c1, c2}, sw_imm[3] = {B3, B2, B3};
  opi(f, b, HG_OP_SWITCH, 0, VOID, 3, sw_ops, 3, sw_imm);
  b = B2;
  uint32_t x = OP2(HG_OP_MUL, 0, T(I32, 1), acc, c2);
  uint32_t br3 = B3;
  opi(f, b, HG_OP_BR, 0, VOID, 0, NULL, 1, &br3);
  b = B3;
  uint32_t ph_ops[2] = {acc, x}, ph_imm[2] = {B1, B2};
  uint32_t phi = opi(f, b, HG_OP_PHI, 0, T(I32, 1), 2, ph_ops, 2, ph_imm);
  OP2(HG_OP_STORE, 0, VOID, 2, phi);
  OP0(HG_OP_RET, 0, VOID);
  b = B4;
  OP0(HG_OP_UNREACHABLE, 0, VOID);
  return m;
}

/* The test module really covers every opcode, scalar type, vector width and address space. */
static void check_coverage(const hg_ir_module *m) {
  bool op[HG_OP_COUNT_] = {false}, sc[HG_IR_PTR + 1] = {false}, as[HG_AS_GENERIC + 1] = {false}, w[17] = {false};
  for (uint32_t fi = 0; fi < m->num_functions; fi++) {
    const hg_ir_function *f = &m->functions[fi];
    for (uint32_t x = 0; x < f->num_values; x++) {
      hg_ir_type t = f->values[x].type;
      sc[t.scalar] = true;
      w[t.lanes] = true;
      if (t.scalar == HG_IR_PTR)
        as[t.addrspace] = true;
    }
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        op[f->blocks[b].insts[i].op] = true;
        sc[f->blocks[b].insts[i].type.scalar] = true;
      }
  }
  int missing = 0;
  for (int o = 1; o < HG_OP_COUNT_; o++)
    if (!op[o]) {
      printf("  opcode %s not covered\n", hg_ir_opcode_name((unsigned)o));
      missing++;
    }
  for (int s = 0; s <= HG_IR_PTR; s++)
    missing += !sc[s];
  for (int a = 0; a <= HG_AS_GENERIC; a++)
    missing += !as[a];
  missing += !w[1] + !w[2] + !w[3] + !w[4] + !w[8] + !w[16];
  CHECK(missing == 0, "test module covers every opcode, type, width and address space (%d missing)", missing);
}

/* ---- round trips ------------------------------------------------------------------------- */
static void check_round_trips(const char *what, const hg_ir_module *m) {
  char err[256] = "";
  CHECK(hg_ir_verify(m, err, sizeof err), "%s: verify: %s", what, err);
  char *t1 = hg_ir_print(m);
  CHECK(t1 != NULL, "%s: print", what);
  hg_ir_module *m2 = hg_ir_parse(t1, err, sizeof err);
  CHECK(m2 != NULL, "%s: parse: %s", what, err);
  if (m2) {
    CHECK(hg_ir_module_equal(m, m2), "%s: parse(print(m)) equals m", what);
    char *t2 = hg_ir_print(m2);
    CHECK(t2 && strcmp(t1, t2) == 0, "%s: print(parse(print(m))) == print(m)", what);
    free(t2);
  }
  uint8_t *b1 = NULL, *b2 = NULL, *b3 = NULL;
  size_t n1 = 0, n2 = 0, n3 = 0;
  CHECK(hg_ir_encode(m, &b1, &n1) == 0, "%s: encode", what);
  CHECK(hg_ir_is_binary(b1, n1) && !hg_ir_is_binary((const uint8_t *)t1, strlen(t1)), "%s: is_binary", what);
  hg_ir_module *m3 = hg_ir_decode(b1, n1, err, sizeof err);
  CHECK(m3 != NULL, "%s: decode: %s", what, err);
  if (m3) {
    CHECK(hg_ir_module_equal(m, m3), "%s: decode(encode(m)) equals m", what);
    CHECK(hg_ir_encode(m3, &b2, &n2) == 0 && n2 == n1 && memcmp(b1, b2, n1) == 0, "%s: re-encode identical", what);
  }
  if (m2) {
    CHECK(hg_ir_encode(m2, &b3, &n3) == 0 && n3 == n1 && memcmp(b1, b3, n1) == 0,
          "%s: encode(parse(print(m))) identical to encode(m)", what);
  }
  hg_ir_module *c = hg_ir_module_clone(m);
  CHECK(c && hg_ir_module_equal(m, c), "%s: clone equals", what);
  hg_ir_module_free(c);
  free(t1);
  free(b1);
  free(b2);
  free(b3);
  hg_ir_module_free(m2);
  hg_ir_module_free(m3);
}

/* ---- verifier rejections ------------------------------------------------------------------ */
static hg_ir_inst *find_op(hg_ir_module *m, const char *fn, hg_ir_opcode op) {
  hg_ir_function *f = &m->functions[hg_ir_find_function(m, fn)];
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++)
      if (f->blocks[b].insts[i].op == op)
        return &f->blocks[b].insts[i];
  return NULL;
}

static void expect_reject(const char *rule, hg_ir_module *m) {
  char err[256] = "";
  bool ok = hg_ir_verify(m, err, sizeof err);
  CHECK(!ok && err[0], "verifier must reject: %s", rule);
  hg_ir_module_free(m);
}

static void test_verifier_rejects(void) {
  hg_ir_module *base = build_all();
  hg_ir_module *m;
  hg_ir_function *k;
#define MUT(rule, code)                                                                                       \
  do {                                                                                                       \
    m = hg_ir_module_clone(base);                                                                            \
    k = &m->functions[1];                                                                                    \
    (void)k;                                                                                                 \
    code;                                                                                                    \
    expect_reject(rule, m);                                                                                  \
  } while (0)
  MUT("operand count", find_op(m, "all_ops", HG_OP_FADD)->num_operands = 1);
  MUT("operand index out of range", find_op(m, "all_ops", HG_OP_ADD)->operands[1] = 99999);
  MUT("operand type mismatch", find_op(m, "all_ops", HG_OP_ADD)->operands[1] = 4);
  MUT("float op on int", find_op(m, "all_ops", HG_OP_FNEG)->type = hg_ir_ty(HG_IR_I32, 4));
  MUT("result type id mismatch", find_op(m, "all_ops", HG_OP_SUB)->type = hg_ir_ty(HG_IR_I64, 1));
  MUT("bad icmp predicate", find_op(m, "all_ops", HG_OP_ICMP)->flags = HG_CMP_OLT);
  MUT("trunc widening", find_op(m, "all_ops", HG_OP_TRUNC)->type = hg_ir_ty(HG_IR_I64, 1));
  MUT("bad vector width", k->values[4].type.lanes = 5);
  MUT("pointer vector", k->param_types[0].lanes = 2);
  MUT("shuffle selector out of range", find_op(m, "all_ops", HG_OP_SHUFFLE)->imm[0] = 8);
  MUT("slot out of range", find_op(m, "all_ops", HG_OP_SLOT)->imm[0] = 7);
  MUT("store to constant", find_op(m, "all_ops", HG_OP_STORE)->operands[0] = 1);
  MUT("unknown memory flag", find_op(m, "all_ops", HG_OP_LOAD)->flags |= 4);
  MUT("bad atomic order", find_op(m, "all_ops", HG_OP_ATOMIC_RMW)->flags |= 7 << 8);
  MUT("cmpxchg failure order release", find_op(m, "all_ops", HG_OP_CMPXCHG)->imm[0] = HG_ORDER_RELEASE);
  MUT("barrier flags", find_op(m, "all_ops", HG_OP_BARRIER)->imm[0] = 8);
  MUT("call callee out of range", find_op(m, "all_ops", HG_OP_CALL)->imm[0] = 50);
  MUT("call argument type", find_op(m, "all_ops", HG_OP_CALL)->operands[0] = 3);
  MUT("builtin unsigned flag beyond the arguments", find_op(m, "all_ops", HG_OP_CALL_BUILTIN)->flags = 2);
  MUT("builtin name out of range", find_op(m, "all_ops", HG_OP_CALL_BUILTIN)->imm[0] = 77);
  MUT("branch target out of range", find_op(m, "all_ops", HG_OP_BR)->imm[0] = 40);
  MUT("condbr on i32", find_op(m, "all_ops", HG_OP_CONDBR)->operands[0] = 3);
  MUT("switch case not constant", find_op(m, "all_ops", HG_OP_SWITCH)->operands[1] = 3);
  MUT("phi incoming block not a predecessor", find_op(m, "all_ops", HG_OP_PHI)->imm[0] = 0);
  MUT("phi missing a predecessor", find_op(m, "all_ops", HG_OP_PHI)->num_operands = 1;
      find_op(m, "all_ops", HG_OP_PHI)->num_imm = 1);
  MUT("ret value in void function", { hg_ir_inst *r = find_op(m, "all_ops", HG_OP_RET); r->num_operands = 1; r->operands = malloc(4); r->operands[0] = 3; });
  MUT("terminator in the middle", find_op(m, "all_ops", HG_OP_FENCE)->op = HG_OP_UNREACHABLE);
  MUT("block without terminator", k->blocks[4].insts[0].op = HG_OP_FENCE);
  MUT("empty block", k->blocks[4].num_insts = 0);
  MUT("entry block has a predecessor", find_op(m, "all_ops", HG_OP_BR)->imm[0] = 0);
  MUT("use not dominated (value of B2 used in B1)", {
    hg_ir_inst *mul = find_op(m, "all_ops", HG_OP_MUL);
    hg_ir_inst *sw = find_op(m, "all_ops", HG_OP_SWITCH);
    mul->operands[0] = 0; /* keep types valid */
    mul->type = hg_ir_ty(HG_IR_I32, 1);
    sw->operands[0] = mul->id;
  });
  MUT("use before definition in a block", {
    hg_ir_inst *add = find_op(m, "all_ops", HG_OP_ADD);
    add->operands[0] = add->id;
  });
  MUT("value defined twice", find_op(m, "all_ops", HG_OP_SUB)->id = find_op(m, "all_ops", HG_OP_ADD)->id);
  MUT("unknown opcode", find_op(m, "all_ops", HG_OP_FENCE)->op = 200);
  MUT("global index out of range", k->values[k->num_values - 1].kind = HG_VAL_GLOBAL);
  MUT("constant not canonical", k->const_words[0] = 1ull << 40);
  MUT("constant words out of range", k->num_const_words = 1);
  MUT("kernel returns a value", k->ret_type = hg_ir_ty(HG_IR_I32, 1));
  MUT("kernel arg kind mismatch", k->args[0].kind = HG_KARG_LOCAL_PTR);
  MUT("kernel arg without name", { free(k->args[0].name); k->args[0].name = NULL; });
  MUT("half a reqd_work_group_size", k->reqd_work_group_size[2] = 0);
  MUT("kernel metadata on a non-kernel", m->functions[0].vec_type_hint = strdup("float"));
  MUT("duplicate function name", { free(m->functions[0].name); m->functions[0].name = strdup("all_ops"); });
  MUT("duplicate global name", { free(m->globals[1].name); m->globals[1].name = strdup("cdata"); });
  MUT("local global with initializer", { m->globals[2].has_init = true; m->globals[2].init = calloc(1, 256); });
  MUT("reloc outside the variable", m->globals[1].relocs[0].offset = 12);
  MUT("reloc target out of range", m->globals[1].relocs[0].target = 9);
  MUT("alignment not a power of two", m->globals[0].align = 3);
  MUT("duplicate interned string", { free(m->strings[1]); m->strings[1] = strdup(m->strings[0]); });
  MUT("safe point out of range", {
    k->safepoints = calloc(1, sizeof *k->safepoints);
    k->num_safepoints = 1;
    k->safepoints[0].block = 99;
  });
  MUT("phi in the entry block", {
    hg_ir_inst *p = find_op(m, "all_ops", HG_OP_PHI);
    p->op = HG_OP_ADD; /* turn the phi into a binary op so the old position is legal, then */
    p->num_imm = 0;
    hg_ir_inst *first = &k->blocks[0].insts[0];
    first->op = HG_OP_PHI;
  });
#undef MUT
  /* and the unmodified module passes */
  char err[256];
  CHECK(hg_ir_verify(base, err, sizeof err), "base verifies: %s", err);
  hg_ir_module_free(base);
}

/* ---- parse errors ----------------------------------------------------------------------- */
static void expect_parse_error(const char *text, unsigned line) {
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(text, err, sizeof err);
  char want[32];
  snprintf(want, sizeof want, "line %u:", line);
  CHECK(!m && strncmp(err, want, strlen(want)) == 0, "parse must fail at %s got: %s", want, err);
  hg_ir_module_free(m);
}

static void test_parse_errors(void) {
  const char *ok = "program executable\nfunc @f(i32 %0) -> i32\n{\n  %1 = const i32 5\nbb0:\n  %2 = add i32 %0, %1\n  ret %2\n}\n";
  char err[256];
  hg_ir_module *m = hg_ir_parse(ok, err, sizeof err);
  CHECK(m != NULL, "small module parses: %s", err);
  hg_ir_module_free(m);
  expect_parse_error("program executable\nfunc @f(i32 %0) -> i32\n{\nbb0:\n  %2 = add i32 %0, %1\n  ret %2\n}\n", 5);
  expect_parse_error("func @f() -> void\n{\nbb0:\n  frobnicate\n}\n", 4);
  expect_parse_error("func @f() -> void\n{\nbb0:\n  ret\n", 5);
  expect_parse_error("func @f() -> void\n{\nbb1:\n  ret\n}\n", 3);
  expect_parse_error("global @g bogus size 4 align 4\n", 1);
  expect_parse_error("func @f(i32 %0) -> i32\n{\n  %1 = const i32 5000000000\nbb0:\n  ret %1\n}\n", 3);
  expect_parse_error("func @f() -> void\n{\nbb0:\n  %1 = call.builtin i32 [\"x\"]\n  ret\n}\n", 4);
  expect_parse_error("\n\nfunc @f() -> void\n{\nbb0:\n  call [@nothere]\n  ret\n}\n", 6);
  expect_parse_error("string \"unterminated\n", 1);
  expect_parse_error("func @f() -> void\n{\nbb0:\n  br [bb0]\n}\n", 0); /* verifier: entry has a predecessor */
  expect_parse_error("func @f(i32 %0) -> void\n{\nbb0:\n  %1 = add i32 %0\n  ret\n}\n", 0);
}

/* ---- binary robustness ------------------------------------------------------------------ */
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
extern uint32_t hg_ir_crc32c(uint32_t crc, const uint8_t *p, size_t n); /* from ir/opcodes.c */
static void fix_crc(uint8_t *d, size_t n) {
  if (n < 32)
    return;
  put32(d + 16, (uint32_t)n);
  put32(d + 20, hg_ir_crc32c(hg_ir_crc32c(0, d, 20), d + 24, n - 24));
}

/* CRC-32C bit by bit (reflected polynomial 0x82F63B78): the reference for the table and the
 * CPU's instruction, which hg_ir_crc32c takes where there is one. */
static uint32_t crc32c_bitwise(uint32_t crc, const uint8_t *p, size_t n) {
  crc = ~crc;
  for (size_t i = 0; i < n; i++) {
    crc ^= p[i];
    for (int b = 0; b < 8; b++)
      crc = crc & 1 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
  }
  return ~crc;
}

extern uint32_t hg_ir_crc32c_portable(uint32_t crc, const uint8_t *p, size_t n);
static void test_crc32c(void) {
  CHECK(hg_ir_crc32c(0, (const uint8_t *)"123456789", 9) == 0xE3069283u, "crc32c: the check value");
  enum { MAX = 4096 };
  uint8_t *buf = malloc(MAX + 8);
  int same = 1;
  for (int round = 0; round < 300 && buf; round++) {
    size_t off = rnd() % 8, n = rnd() % MAX, cut = n ? rnd() % n : 0;
    for (size_t i = 0; i < n + off; i++)
      buf[i] = (uint8_t)rnd();
    uint32_t seed = (uint32_t)rnd(), want = crc32c_bitwise(seed, buf + off, n);
    /* in one piece, in two (the binary's header is checked that way), and by table alone */
    same &= hg_ir_crc32c(seed, buf + off, n) == want;
    same &= hg_ir_crc32c(hg_ir_crc32c(seed, buf + off, cut), buf + off + cut, n - cut) == want;
    same &= hg_ir_crc32c_portable(seed, buf + off, n) == want;
  }
  CHECK(buf && same, "crc32c: every length, offset and split as the bitwise reference");
  free(buf);
}

static void test_decoder_robustness(const hg_ir_module *m) {
  uint8_t *b;
  size_t n;
  char err[256];
  if (hg_ir_encode(m, &b, &n)) {
    CHECK(0, "encode");
    return;
  }
  /* every proper prefix fails, with a message */
  int prefix_ok = 1;
  for (size_t k = 0; k < n; k++) {
    uint8_t *c = malloc(k ? k : 1);
    memcpy(c, b, k);
    err[0] = 0;
    hg_ir_module *d = hg_ir_decode(c, k, err, sizeof err);
    if (d || !err[0])
      prefix_ok = 0;
    hg_ir_module_free(d);
    /* and with the header fixed up so that the checksum and size match the prefix */
    fix_crc(c, k);
    d = hg_ir_decode(c, k, err, sizeof err);
    if (d)
      prefix_ok = 0;
    hg_ir_module_free(d);
    free(c);
  }
  CHECK(prefix_ok, "every prefix of the binary is rejected");
  /* single bit flips without fixing the checksum: all rejected */
  int flips_ok = 1;
  uint8_t *c = malloc(n);
  for (size_t bit = 0; bit < n * 8; bit += 7) {
    memcpy(c, b, n);
    c[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    hg_ir_module *d = hg_ir_decode(c, n, err, sizeof err);
    if (d)
      flips_ok = 0;
    hg_ir_module_free(d);
  }
  CHECK(flips_ok, "bit flips are caught by the checksum");
  /* random mutations with the checksum fixed, so that they reach the structural checks */
  int accepted = 0, rejected = 0;
  for (int it = 0; it < 20000; it++) {
    memcpy(c, b, n);
    int edits = 1 + (int)(rnd() % 4);
    for (int e = 0; e < edits; e++) {
      size_t at = 32 + rnd() % (n - 32);
      switch (rnd() % 4) {
      case 0: c[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
      case 1: c[at] = (uint8_t)rnd(); break;
      case 2: if (at + 4 <= n) put32(c + at, (uint32_t)rnd()); break;
      default: if (at + 4 <= n) put32(c + at, (uint32_t)(rnd() % 3 ? 0xFFFFFFFFu : 0x7FFFFFFFu)); break;
      }
    }
    fix_crc(c, n);
    hg_ir_module *d = hg_ir_decode(c, n, err, sizeof err);
    if (d) {
      accepted++;
      char verr[256];
      if (!hg_ir_verify(d, verr, sizeof verr))
        CHECK(0, "decoded module must verify: %s", verr);
      uint8_t *re;
      size_t rn;
      if (hg_ir_encode(d, &re, &rn) == 0)
        free(re);
      char *t = hg_ir_print(d);
      free(t);
      hg_ir_compute_state(d);
    } else {
      rejected++;
    }
    hg_ir_module_free(d);
  }
  CHECK(rejected > 0, "mutations rejected: %d, accepted (harmless): %d", rejected, accepted);
  printf("  decoder: %zu prefixes, %zu bit flips, 20000 checksum-fixed mutations (%d rejected, %d still valid)\n", n,
         (n * 8 + 6) / 7, rejected, accepted);
  /* versioning: newer major rejected; newer minor with an unknown section and trailing bytes read */
  memcpy(c, b, n);
  c[8] = 2;
  fix_crc(c, n);
  hg_ir_module *d = hg_ir_decode(c, n, err, sizeof err);
  CHECK(!d && strstr(err, "major"), "newer major rejected: %s", err);
  hg_ir_module_free(d);
  /* newer minor: append an unknown section (id 99) by rebuilding the section table */
  uint32_t nsec = (uint32_t)(b[24] | b[25] << 8 | b[26] << 16 | (uint32_t)b[27] << 24);
  size_t extra = 12 + 8;
  uint8_t *e = calloc(1, n + extra);
  memcpy(e, b, 32 + nsec * 12);
  put32(e + 24, nsec + 1);
  for (uint32_t s = 0; s < nsec; s++) { /* shift every section's offset by the new table entry */
    uint32_t off = (uint32_t)(b[32 + s * 12 + 4] | b[32 + s * 12 + 5] << 8 | b[32 + s * 12 + 6] << 16 |
                              (uint32_t)b[32 + s * 12 + 7] << 24);
    put32(e + 32 + s * 12 + 4, off + 12);
  }
  put32(e + 32 + nsec * 12, 99);
  put32(e + 32 + nsec * 12 + 4, (uint32_t)(n + 12));
  put32(e + 32 + nsec * 12 + 8, 8);
  memcpy(e + 32 + (nsec + 1) * 12, b + 32 + nsec * 12, n - 32 - nsec * 12);
  e[10] = HG_IR_VERSION_MINOR + 1; /* a newer minor */
  fix_crc(e, n + extra);
  d = hg_ir_decode(e, n + extra, err, sizeof err);
  CHECK(d && hg_ir_module_equal(d, m), "newer minor with an unknown section is read: %s", d ? "" : err);
  hg_ir_module_free(d);
  e[10] = HG_IR_VERSION_MINOR; /* the same file claiming this reader's minor: unknown section rejected */
  fix_crc(e, n + extra);
  d = hg_ir_decode(e, n + extra, err, sizeof err);
  CHECK(!d, "unknown section in a file of this minor rejected");
  hg_ir_module_free(d);
  free(e);
  free(c);
  free(b);
}

/* ---- execution state ------------------------------------------------------------------- */
static bool live_is(const hg_ir_safepoint *sp, uint32_t n, const uint32_t *want) {
  if (sp->num_live != n)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (sp->live[i] != want[i])
      return false;
  return true;
}
static void print_sp(const hg_ir_function *f) {
  for (uint32_t i = 0; i < f->num_safepoints; i++) {
    printf("    sp %u kind %u bb%u:%u live", i, f->safepoints[i].kind, f->safepoints[i].block, f->safepoints[i].inst);
    for (uint32_t k = 0; k < f->safepoints[i].num_live; k++)
      printf(" %%%u", f->safepoints[i].live[k]);
    printf("\n");
  }
}

/* kernel k(global float *p, int n): x = p[gid]; barrier; p[gid+1] = x */
static void test_state_barrier(void) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type pt[2] = {P(GLOBAL), T(I32, 1)};
  uint32_t fidx_ = hg_ir_add_function(m, "k", VOID, 2, pt);
  hg_ir_function *f = &m->functions[fidx_];
  hg_ir_make_kernel(f);
  set_arg(f, 0, "p", "float*", HG_KARG_GLOBAL_PTR, 8, 8);
  set_arg(f, 1, "n", "int", HG_KARG_VALUE, 4, 4);
  uint32_t b = hg_ir_add_block(f);
  uint32_t c0 = cst(f, T(I32, 1), 0), c4 = cst(f, T(I64, 1), 4);          /* %2 %3 */
  uint32_t nm = hg_ir_intern(m, "get_global_id");
  uint32_t gid = opi(f, b, HG_OP_CALL_BUILTIN, 0, T(I64, 1), 1, &c0, 1, &nm); /* %4 */
  uint32_t off = OP2(HG_OP_MUL, 0, T(I64, 1), gid, c4);                     /* %5 */
  uint32_t pp = OP2(HG_OP_PTRADD, 0, P(GLOBAL), 0, off);                    /* %6 */
  uint32_t x = OP1(HG_OP_LOAD, MEMF(2, 0), T(F32, 1), pp);                  /* %7 */
  uint32_t fl = HG_FENCE_LOCAL;
  opi(f, b, HG_OP_BARRIER, 0, VOID, 0, NULL, 1, &fl);
  uint32_t p2 = OP2(HG_OP_PTRADD, 0, P(GLOBAL), pp, c4);                    /* %8 */
  OP2(HG_OP_STORE, 0, VOID, p2, x);
  OP0(HG_OP_RET, 0, VOID);
  hg_ir_compute_state(m);
  char err[256];
  CHECK(hg_ir_verify(m, err, sizeof err), "barrier kernel verifies: %s", err);
  CHECK(f->num_safepoints == 2, "barrier kernel: 2 safe points, got %u", f->num_safepoints);
  if (f->num_safepoints == 2) {
    uint32_t e[1] = {0}, w[2] = {pp, x};
    CHECK(f->safepoints[0].kind == HG_SAFEPOINT_ENTRY && live_is(&f->safepoints[0], 1, e), "entry live = {p}");
    CHECK(f->safepoints[1].kind == HG_SAFEPOINT_BARRIER && f->safepoints[1].inst == 4 &&
              live_is(&f->safepoints[1], 2, w),
          "barrier live = {%%6, %%7}");
  }
  check_round_trips("barrier kernel", m);
  write_seed("barrier", m);
  hg_ir_module_free(m);
}

/* kernel k(local float *t, int n):
 * bb0: br bb1
 * bb1: i = phi [0, bb0], [i1, bb3]; c = icmp slt i, n; condbr c, bb2, bb4
 * bb2: j = phi [0, bb1], [j1, bb2]; barrier; s = add i, j; j1 = add j, 1; cj = icmp slt j1, n; condbr cj, bb2, bb3
 * bb3: i1 = add i, 1; br bb1
 * bb4: ret
 * loops: outer header bb1, inner header bb2 (self loop) with a barrier. */
static void test_state_loops(void) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type pt[2] = {P(LOCAL), T(I32, 1)};
  uint32_t fidx_ = hg_ir_add_function(m, "loops", VOID, 2, pt);
  hg_ir_function *f = &m->functions[fidx_];
  hg_ir_make_kernel(f);
  set_arg(f, 0, "t", "float*", HG_KARG_LOCAL_PTR, 8, 8);
  set_arg(f, 1, "n", "int", HG_KARG_VALUE, 4, 4);
  uint32_t B0 = hg_ir_add_block(f), B1 = hg_ir_add_block(f), B2 = hg_ir_add_block(f), B3 = hg_ir_add_block(f),
           B4 = hg_ir_add_block(f);
  uint32_t c0 = cst(f, T(I32, 1), 0), c1 = cst(f, T(I32, 1), 1); /* %2 %3 */
  uint32_t b = B0;
  opi(f, b, HG_OP_BR, 0, VOID, 0, NULL, 1, &B1);
  b = B1;
  /* phi operands refer to values defined later: reserve by appending in order and patching */
  uint32_t ph_ops[2] = {c0, c0}, ph_imm[2] = {B0, B3};
  uint32_t i = opi(f, b, HG_OP_PHI, 0, T(I32, 1), 2, ph_ops, 2, ph_imm); /* %4 */
  uint32_t c = OP2(HG_OP_ICMP, HG_CMP_SLT, T(BOOL, 1), i, 1);             /* %5 */
  uint32_t t1[2] = {B2, B4};
  opi(f, b, HG_OP_CONDBR, 0, VOID, 1, &c, 2, t1);
  b = B2;
  uint32_t jops[2] = {c0, c0}, jimm[2] = {B1, B2};
  uint32_t j = opi(f, b, HG_OP_PHI, 0, T(I32, 1), 2, jops, 2, jimm); /* %6 */
  uint32_t fl = HG_FENCE_LOCAL;
  opi(f, b, HG_OP_BARRIER, 0, VOID, 0, NULL, 1, &fl);
  uint32_t s = OP2(HG_OP_ADD, 0, T(I32, 1), i, j);                   /* %7 */
  (void)s;
  uint32_t j1 = OP2(HG_OP_ADD, 0, T(I32, 1), j, c1);                 /* %8 */
  uint32_t cj = OP2(HG_OP_ICMP, HG_CMP_SLT, T(BOOL, 1), j1, 1);      /* %9 */
  uint32_t t2[2] = {B2, B3};
  opi(f, b, HG_OP_CONDBR, 0, VOID, 1, &cj, 2, t2);
  b = B3;
  uint32_t i1 = OP2(HG_OP_ADD, 0, T(I32, 1), i, c1); /* %10 */
  opi(f, b, HG_OP_BR, 0, VOID, 0, NULL, 1, &B1);
  b = B4;
  OP0(HG_OP_RET, 0, VOID);
  f->blocks[B1].insts[0].operands[1] = i1;
  f->blocks[B2].insts[0].operands[1] = j1;
  hg_ir_compute_state(m);
  char err[256];
  CHECK(hg_ir_verify(m, err, sizeof err), "loop kernel verifies: %s", err);
  /* entry; bb1 header; bb2 header; bb2 barrier */
  CHECK(f->num_safepoints == 4, "loops: 4 safe points, got %u", f->num_safepoints);
  if (f->num_safepoints == 4) {
    uint32_t e[1] = {1};         /* n (t is unused) */
    uint32_t h1[2] = {1, i};     /* n, i */
    uint32_t h2[3] = {1, i, j};  /* n, i, j */
    CHECK(live_is(&f->safepoints[0], 1, e), "entry live = {n}");
    CHECK(f->safepoints[1].kind == HG_SAFEPOINT_LOOP_HEADER && f->safepoints[1].block == B1 &&
              f->safepoints[1].inst == 1 && live_is(&f->safepoints[1], 2, h1),
          "outer header live = {n, i}");
    CHECK(f->safepoints[2].kind == HG_SAFEPOINT_LOOP_HEADER && f->safepoints[2].block == B2 &&
              f->safepoints[2].inst == 1 && live_is(&f->safepoints[2], 3, h2),
          "inner header live = {n, i, j}");
    CHECK(f->safepoints[3].kind == HG_SAFEPOINT_BARRIER && f->safepoints[3].block == B2 &&
              f->safepoints[3].inst == 1 && live_is(&f->safepoints[3], 3, h2),
          "barrier in inner loop live = {n, i, j}");
    if (failed)
      print_sp(f);
  }
  check_round_trips("loop kernel", m);
  write_seed("loops", m);
  hg_ir_module_free(m);
}

/* Local memory: kernel uses @a directly and @c through a helper; @b is unused. */
static void test_state_locals(void) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_global g = {0};
  g.addrspace = HG_AS_LOCAL;
  g.name = "a"; g.size = 10; g.align = 2;
  hg_ir_add_global(m, &g);
  g.name = "b"; g.size = 100; g.align = 4;
  hg_ir_add_global(m, &g);
  g.name = "c"; g.size = 64; g.align = 16;
  hg_ir_add_global(m, &g);
  uint32_t hi = hg_ir_add_function(m, "h", VOID, 0, NULL);
  uint32_t ki = hg_ir_add_function(m, "k", VOID, 0, NULL);
  hg_ir_function *f = &m->functions[hi];
  uint32_t b = hg_ir_add_block(f);
  uint32_t rc = hg_ir_add_global_ref(f, m, 2), z = cst(f, T(I32, 1), 0);
  OP2(HG_OP_STORE, 0, VOID, rc, z);
  OP0(HG_OP_RET, 0, VOID);
  f = &m->functions[ki];
  hg_ir_make_kernel(f);
  hg_ir_add_slot(f, 3, 1);
  hg_ir_add_slot(f, 8, 8);
  hg_ir_add_slot(f, 2, 2);
  b = hg_ir_add_block(f);
  uint32_t ra = hg_ir_add_global_ref(f, m, 0);
  z = cst(f, T(I16, 1), 7);
  OP2(HG_OP_STORE, 0, VOID, ra, z);
  opi(f, b, HG_OP_CALL, 0, VOID, 0, NULL, 1, &hi);
  OP0(HG_OP_RET, 0, VOID);
  hg_ir_compute_state(m);
  char err[256];
  CHECK(hg_ir_verify(m, err, sizeof err), "locals module verifies: %s", err);
  CHECK(f->num_local_vars == 2 && f->local_vars[0].global == 0 && f->local_vars[0].offset == 0 &&
            f->local_vars[1].global == 2 && f->local_vars[1].offset == 16 && f->local_static_size == 80,
        "local layout: @a at 0, @c at 16, size 80");
  CHECK(f->slots[0].offset == 0 && f->slots[1].offset == 8 && f->slots[2].offset == 16 && f->private_size == 24,
        "private frame: 0, 8, 16; size 24");
  CHECK(m->functions[hi].num_local_vars == 0, "non-kernels get no local layout");
  check_round_trips("locals", m);
  /* inlining: the kernel ends without calls and still uses @c */
  CHECK(hg_ir_inline_calls(m, err, sizeof err), "inline: %s", err);
  f = &m->functions[ki];
  bool calls = false;
  for (uint32_t bb = 0; bb < f->num_blocks; bb++)
    for (uint32_t i = 0; i < f->blocks[bb].num_insts; i++)
      calls |= f->blocks[bb].insts[i].op == HG_OP_CALL;
  CHECK(!calls, "no calls after inlining");
  hg_ir_compute_state(m);
  CHECK(f->num_local_vars == 2 && f->local_static_size == 80, "same local layout after inlining");
  check_round_trips("locals inlined", m);
  write_seed("locals", m);
  hg_ir_module_free(m);
}

static void test_inline_all(void) {
  hg_ir_module *m = build_all();
  /* the declaration is never called: inlining succeeds */
  char err[256];
  CHECK(hg_ir_inline_calls(m, err, sizeof err), "inline all_ops: %s", err);
  hg_ir_inst *c = find_op(m, "all_ops", HG_OP_CALL);
  CHECK(c == NULL, "all_ops has no call left");
  hg_ir_compute_state(m);
  check_round_trips("all_ops inlined", m);
  write_seed("all_inlined", m);
  hg_ir_module_free(m);
  /* recursion is rejected */
  m = hg_ir_module_new();
  hg_ir_add_function(m, "r", VOID, 0, NULL);
  hg_ir_function *f = &m->functions[0];
  uint32_t b = hg_ir_add_block(f), zero = 0;
  opi(f, b, HG_OP_CALL, 0, VOID, 0, NULL, 1, &zero);
  OP0(HG_OP_RET, 0, VOID);
  CHECK(!hg_ir_inline_calls(m, err, sizeof err) && strstr(err, "recursion"), "recursion rejected: %s", err);
  hg_ir_module_free(m);
}

static void test_link(void) {
  char err[256];
  /* A: kernel calling declared @twice; B: defines @twice and a global named like A's */
  hg_ir_module *a = hg_ir_module_new(), *bm = hg_ir_module_new();
  hg_ir_global g = {0};
  g.name = "tab"; g.addrspace = HG_AS_CONSTANT; g.is_const = true; g.has_init = true; g.size = 4; g.align = 4;
  uint8_t ini[4] = {1, 2, 3, 4};
  g.init = ini;
  hg_ir_add_global(a, &g);
  hg_ir_add_global(bm, &g);
  hg_ir_type it[1] = {T(I32, 1)};
  uint32_t dec = hg_ir_add_function(a, "twice", T(I32, 1), 1, it);
  hg_ir_type kp[1] = {T(I32, 1)};
  uint32_t fidx_ = hg_ir_add_function(a, "k", VOID, 1, kp);
  hg_ir_function *f = &a->functions[fidx_];
  hg_ir_make_kernel(f);
  set_arg(f, 0, "x", "int", HG_KARG_VALUE, 4, 4);
  uint32_t b = hg_ir_add_block(f), zero = 0;
  opi(f, b, HG_OP_CALL, 0, T(I32, 1), 1, &zero, 1, &dec);
  uint32_t nm = hg_ir_intern(a, "get_global_linear_id");
  opi(f, b, HG_OP_CALL_BUILTIN, 0, T(I64, 1), 0, NULL, 1, &nm);
  OP0(HG_OP_RET, 0, VOID);
  hg_ir_intern(bm, "something_else");
  fidx_ = hg_ir_add_function(bm, "twice", T(I32, 1), 1, it);
  f = &bm->functions[fidx_];
  b = hg_ir_add_block(f);
  uint32_t r = OP2(HG_OP_ADD, 0, T(I32, 1), 0, 0);
  uint32_t rt = hg_ir_add_global_ref(f, bm, 0);
  OP1(HG_OP_LOAD, 0, T(I32, 1), rt);
  OP1(HG_OP_RET, 0, VOID, r);
  const hg_ir_module *mods[2] = {a, bm};
  hg_ir_module *l = hg_ir_link(mods, 2, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(l != NULL, "link: %s", err);
  if (l) {
    uint32_t k = hg_ir_find_function(l, "k"), t = hg_ir_find_function(l, "twice");
    CHECK(l->num_functions == 2 && k != HG_IR_NONE && t != HG_IR_NONE, "linked functions: k and twice");
    hg_ir_inst *c = find_op(l, "k", HG_OP_CALL);
    CHECK(c && c->imm[0] == t, "call resolved to the definition");
    hg_ir_inst *cb = find_op(l, "k", HG_OP_CALL_BUILTIN);
    CHECK(cb && strcmp(l->strings[cb->imm[0]], "get_global_linear_id") == 0, "builtin names remapped");
    CHECK(l->num_globals == 2 && hg_ir_find_global(l, "tab.1") != HG_IR_NONE, "colliding global renamed");
    check_round_trips("linked", l);
    CHECK(hg_ir_inline_calls(l, err, sizeof err), "linked module inlines: %s", err);
    write_seed("linked", l);
    hg_ir_module_free(l);
  }
  /* duplicate definitions */
  const hg_ir_module *dup[2] = {bm, bm};
  l = hg_ir_link(dup, 2, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(!l && strstr(err, "more than one"), "duplicate definition rejected: %s", err);
  hg_ir_module_free(l);
  /* unresolved call */
  const hg_ir_module *only[1] = {a};
  l = hg_ir_link(only, 1, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(!l && strstr(err, "defined in no module"), "unresolved call rejected: %s", err);
  hg_ir_module_free(l);
  hg_ir_module_free(a);
  hg_ir_module_free(bm);
}

/* A module with one kernel that loads the constant variable `var`, declared (imported) here
 * with the given size when `imported`, else defined here with the given linkage. */
static hg_ir_module *var_module(const char *kname, const char *var, uint32_t size, hg_ir_linkage linkage) {
  hg_ir_module *m = hg_ir_module_new();
  m->program_kind = HG_IR_PROGRAM_OBJECT;
  uint8_t ini[8] = {7, 0, 0, 0, 9, 0, 0, 0};
  hg_ir_global g = {0};
  g.name = (char *)var; g.addrspace = HG_AS_CONSTANT; g.is_const = true; g.size = size; g.align = 4;
  g.linkage = (uint8_t)linkage;
  if (linkage != HG_LINK_IMPORTED) { g.has_init = true; g.init = ini; }
  hg_ir_add_global(m, &g);
  hg_ir_type kp[1] = {hg_ir_ptr_ty(HG_AS_GLOBAL)};
  uint32_t fi = hg_ir_add_function(m, kname, VOID, 1, kp);
  hg_ir_function *f = &m->functions[fi];
  hg_ir_make_kernel(f);
  set_arg(f, 0, "out", "int*", HG_KARG_GLOBAL_PTR, 8, 8);
  uint32_t b = hg_ir_add_block(f);
  uint32_t v = OP1(HG_OP_LOAD, 0, T(I32, 1), hg_ir_add_global_ref(f, m, 0));
  OP2(HG_OP_STORE, 0, VOID, 0, v);
  OP0(HG_OP_RET, 0, VOID);
  return m;
}

/* the value the kernel `kname` of m loads */
static uint32_t loaded_global(hg_ir_module *m, const char *kname) {
  hg_ir_inst *ld = find_op(m, kname, HG_OP_LOAD);
  const hg_ir_function *f = &m->functions[hg_ir_find_function(m, kname)];
  return ld && f->values[ld->operands[0]].kind == HG_VAL_GLOBAL ? f->values[ld->operands[0]].index : HG_IR_NONE;
}

/* Program-scope variables across modules: `extern` declarations resolve to the exported
 * definition, internal ones stay private, and what cannot link fails with its name. */
static void test_link_globals(void) {
  char err[256];
  hg_ir_module *def = var_module("k_def", "foo", 4, HG_LINK_EXPORTED),
               *use = var_module("k_use", "foo", 4, HG_LINK_IMPORTED),
               *own = var_module("k_own", "foo", 8, HG_LINK_INTERNAL),
               *bad = var_module("k_bad", "foo", 8, HG_LINK_IMPORTED);
  check_round_trips("imported variable", use);
  check_round_trips("exported variable", def);
  const hg_ir_module *three[3] = {own, use, def};
  hg_ir_module *l = hg_ir_link(three, 3, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(l != NULL, "link of a declaration with its definition: %s", err);
  if (l) {
    uint32_t foo = hg_ir_find_global(l, "foo");
    CHECK(l->num_globals == 2 && foo != HG_IR_NONE && l->globals[foo].linkage == HG_LINK_EXPORTED,
          "one definition of foo and the internal one renamed");
    CHECK(loaded_global(l, "k_use") == foo && loaded_global(l, "k_def") == foo,
          "the declaration's user reads the definition");
    CHECK(loaded_global(l, "k_own") != foo && loaded_global(l, "k_own") != HG_IR_NONE &&
          l->globals[loaded_global(l, "k_own")].size == 8, "the internal variable stays its module's own");
    check_round_trips("linked variables", l);
    hg_ir_module_free(l);
  }
  const hg_ir_module *alone[1] = {use};
  l = hg_ir_link(alone, 1, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(!l && strstr(err, "@foo") && strstr(err, "defined in no module"), "an executable with foo undefined: %s", err);
  hg_ir_module_free(l);
  l = hg_ir_link(alone, 1, HG_IR_PROGRAM_LIBRARY, err, sizeof err);
  CHECK(l && l->num_globals == 1 && l->globals[0].linkage == HG_LINK_IMPORTED, "a library keeps the declaration: %s",
        l ? "" : err);
  if (l) { /* and links later with the definition */
    const hg_ir_module *two[2] = {l, def};
    hg_ir_module *e = hg_ir_link(two, 2, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
    CHECK(e && loaded_global(e, "k_use") == hg_ir_find_global(e, "foo"), "library + definition link: %s", e ? "" : err);
    hg_ir_module_free(e);
  }
  hg_ir_module_free(l);
  const hg_ir_module *twice[2] = {def, def};
  l = hg_ir_link(twice, 2, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(!l && strstr(err, "more than one"), "two definitions of foo rejected: %s", err);
  hg_ir_module_free(l);
  const hg_ir_module *mismatch[2] = {bad, def};
  l = hg_ir_link(mismatch, 2, HG_IR_PROGRAM_EXECUTABLE, err, sizeof err);
  CHECK(!l && strstr(err, "another type"), "a declaration of another size rejected: %s", err);
  hg_ir_module_free(l);
  /* a __local variable never links; a declaration has no initializer */
  own->globals[0].linkage = HG_LINK_IMPORTED;
  CHECK(!hg_ir_verify(own, err, sizeof err) && strstr(err, "initializer"), "declaration with data rejected: %s", err);
  own->globals[0].linkage = 3;
  CHECK(!hg_ir_verify(own, err, sizeof err) && strstr(err, "linkage"), "unknown linkage rejected: %s", err);
  hg_ir_module_free(def);
  hg_ir_module_free(use);
  hg_ir_module_free(own);
  hg_ir_module_free(bad);
}

static void test_determinism(void) {
  hg_ir_module *m1 = build_all(), *m2 = build_all();
  hg_ir_compute_state(m1);
  hg_ir_compute_state(m2);
  uint8_t *b1, *b2;
  size_t n1, n2;
  CHECK(hg_ir_encode(m1, &b1, &n1) == 0 && hg_ir_encode(m2, &b2, &n2) == 0 && n1 == n2 && memcmp(b1, b2, n1) == 0,
        "two builds of one module encode to identical bytes");
  /* header fields */
  CHECK(b1[8] == HG_IR_VERSION_MAJOR && b1[10] == HG_IR_VERSION_MINOR && b1[12] == 32 &&
            (size_t)(b1[16] | b1[17] << 8 | b1[18] << 16 | (size_t)b1[19] << 24) == n1,
        "header: version, header size, file size");
  free(b1);
  free(b2);
  hg_ir_module_free(m1);
  hg_ir_module_free(m2);
}

/* ---- floating-point contraction (HG_FP_CONTRACT, ir/contract.c) ------------------------ */
static const char k_contract_text[] =
    "program executable\n"
    "func @f(f32 %0, f32 %1, f32 %2, f16 %3, f64x4 %4) -> void\n{\nbb0:\n"
    "  %5 = fmul.contract f32 %0, %1\n"    /* fused into %6 */
    "  %6 = fadd.contract f32 %5, %2\n"
    "  %7 = fmul.contract f32 %0, %2\n"    /* fused into %8, as its second operand */
    "  %8 = fsub.contract f32 %6, %7\n"
    "  %9 = fmul.contract f32 %1, %2\n"    /* used twice: not fused */
    "  %10 = fadd.contract f32 %9, %9\n"
    "  %11 = fmul f32 %0, %0\n"            /* no flag on the multiply */
    "  %12 = fadd.contract f32 %11, %10\n"
    "  %13 = fmul.contract f32 %1, %1\n"
    "  %14 = fadd f32 %13, %12\n"          /* no flag on the add */
    "  %15 = fmul.contract f16 %3, %3\n"   /* half: never fused */
    "  %16 = fadd.contract f16 %15, %3\n"
    "  %17 = fmul.contract f64x4 %4, %4\n" /* vectors are */
    "  %18 = fadd.contract f64x4 %4, %17\n"
    "  %19 = fmul.contract f32 %14, %14\n" /* its user is in another block */
    "  br [bb1]\n"
    "bb1:\n"
    "  %20 = fadd.contract f32 %19, %8\n"
    "  %21 = fsub.contract f32 %20, %2\n"
    "  ret\n}\n";

static void test_contract(void) {
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(k_contract_text, err, sizeof err);
  CHECK(m != NULL, "contract: parses: %s", err);
  if (!m) return;
  check_round_trips("contract", m);
  char *t = hg_ir_print(m);
  CHECK(t && strstr(t, "fmul.contract f32 %0, %1") && strstr(t, "fsub.contract f32") &&
            strstr(t, "%11 = fmul f32 %0, %0") && strstr(t, "%14 = fadd f32 %13, %12"),
        "contract: the suffix is printed exactly where the flag is");
  free(t);
  hg_ir_function *f = &m->functions[0];
  CHECK(f->blocks[0].insts[0].flags == HG_FP_CONTRACT && f->blocks[0].insts[6].flags == 0,
        "contract: .contract parses to HG_FP_CONTRACT, no suffix to 0");
  hg_ir_contraction c = {0};
  CHECK(hg_ir_find_contractions(f, &c), "contract: find");
  if (c.fused_mul) {
    const hg_ir_inst *b0 = f->blocks[0].insts;
    CHECK(c.fused_mul[6] == &b0[0] && c.absorbed[5], "contract: fadd(fmul, c) fused");
    CHECK(c.fused_mul[8] == &b0[2] && c.absorbed[7], "contract: fsub(c, fmul) fused (second operand)");
    CHECK(!c.fused_mul[10] && !c.absorbed[9], "contract: a multiply used twice is not fused");
    CHECK(!c.fused_mul[12] && !c.absorbed[11], "contract: a multiply without the flag is not fused");
    CHECK(!c.fused_mul[14] && !c.absorbed[13], "contract: an add without the flag fuses nothing");
    CHECK(!c.fused_mul[16] && !c.absorbed[15], "contract: half is not fused");
    CHECK(c.fused_mul[18] == &b0[12] && c.absorbed[17], "contract: f64x4 fused");
    CHECK(!c.fused_mul[20] && !c.absorbed[19], "contract: a multiply of another block is not fused");
    CHECK(!c.fused_mul[21] && !c.fused_mul[5], "contract: no others");
  }
  hg_ir_contraction_free(&c);
  /* the flag on other opcodes, or other bits on these, is rejected */
  hg_ir_module *bad = hg_ir_module_clone(m);
  bad->functions[0].blocks[0].insts[1].flags = 2;
  CHECK(!hg_ir_verify(bad, err, sizeof err), "contract: unknown floating-point flag rejected");
  hg_ir_module_free(bad);
  bad = hg_ir_module_clone(m);
  bad->functions[0].blocks[0].insts[0].op = HG_OP_FDIV;
  CHECK(!hg_ir_verify(bad, err, sizeof err), "contract: flag on fdiv rejected");
  hg_ir_module_free(bad);
  hg_ir_module_free(m);
  expect_parse_error("func @f(i32 %0) -> void\n{\nbb0:\n  %1 = add.contract i32 %0, %0\n  ret\n}\n", 4);
  expect_parse_error("func @f(f32 %0) -> void\n{\nbb0:\n  %1 = fdiv.contract f32 %0, %0\n  ret\n}\n", 4);
  m = hg_ir_parse("func @f(f32 %0) -> void\n{\nbb0:\n  %1 = fdiv.f1 f32 %0, %0\n  ret\n}\n", err, sizeof err);
  CHECK(!m, "contract: bit 0 on fdiv rejected by the verifier");
  hg_ir_module_free(m);
}

/* ---- wrap flags (format 1.3: nsw, nuw, inbounds) --------------------------------------- */
static const char k_wrap_text[] =
    "func @f(i32 %0, ptr.global %1) -> void\n{\nbb0:\n"
    "  %2 = add.nsw i32 %0, %0\n"
    "  %3 = sub.nuw i32 %2, %0\n"
    "  %4 = mul.nsw.nuw i32 %3, %0\n"
    "  %5 = shl.nsw i32 %4, %0\n"
    "  %6 = add i32 %5, %0\n"
    "  %7 = sext i64 %6\n"
    "  %8 = ptradd.inbounds ptr.global %1, %7\n"
    "  %9 = ptradd ptr.global %8, %7\n"
    "  store %9, %6\n"
    "  ret\n}\n";

static void test_wrap_flags(void) {
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(k_wrap_text, err, sizeof err);
  CHECK(m != NULL, "wrap: parses: %s", err);
  if (!m)
    return;
  check_round_trips("wrap", m);
  const hg_ir_inst *in = m->functions[0].blocks[0].insts;
  CHECK(in[0].flags == HG_WRAP_NSW && in[1].flags == HG_WRAP_NUW && in[2].flags == (HG_WRAP_NSW | HG_WRAP_NUW) &&
            in[3].flags == HG_WRAP_NSW && in[4].flags == 0 && in[6].flags == HG_WRAP_INBOUNDS && in[7].flags == 0,
        "wrap: the suffixes parse to the flags");
  /* the flags travel after the functions (1.3): a file that says 1.2 has trailing bytes there */
  uint8_t *b = NULL;
  size_t n = 0;
  CHECK(hg_ir_encode(m, &b, &n) == 0, "wrap: encode");
  b[10] = 2;
  fix_crc(b, n);
  hg_ir_module *d = hg_ir_decode(b, n, err, sizeof err);
  CHECK(!d, "wrap: a 1.2 file with the 1.3 flags is rejected");
  hg_ir_module_free(d);
  free(b);
  /* a 1.2 file (nothing that carries wrap flags) is read */
  hg_ir_module *old = hg_ir_parse("func @g(f32 %0) -> f32\n{\nbb0:\n  %1 = fadd f32 %0, %0\n  ret %1\n}\n", err,
                                  sizeof err);
  CHECK(old && hg_ir_encode(old, &b, &n) == 0, "wrap: encode a module without them: %s", err);
  if (old && b) {
    b[10] = 2;
    fix_crc(b, n);
    d = hg_ir_decode(b, n, err, sizeof err);
    CHECK(d && hg_ir_module_equal(d, old), "wrap: a 1.2 file is read: %s", err);
    hg_ir_module_free(d);
    free(b);
  }
  hg_ir_module_free(old);
  /* unknown bits, or the flags on other opcodes, are rejected */
  hg_ir_module *bad = hg_ir_module_clone(m);
  bad->functions[0].blocks[0].insts[0].flags = 4;
  CHECK(!hg_ir_verify(bad, err, sizeof err), "wrap: unknown wrap flag rejected");
  hg_ir_module_free(bad);
  bad = hg_ir_module_clone(m);
  bad->functions[0].blocks[0].insts[7].flags = HG_WRAP_NUW;
  CHECK(!hg_ir_verify(bad, err, sizeof err), "wrap: nuw on ptradd rejected");
  hg_ir_module_free(bad);
  hg_ir_module_free(m);
  expect_parse_error("func @f(i32 %0) -> void\n{\nbb0:\n  %1 = and.nsw i32 %0, %0\n  ret\n}\n", 4);
  expect_parse_error("func @f(i32 %0) -> void\n{\nbb0:\n  %1 = add.inbounds i32 %0, %0\n  ret\n}\n", 4);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc > 1)
    seed_dir = argv[1];
  hg_ir_module *m = build_all();
  check_coverage(m);
  check_round_trips("all_ops (no state)", m);
  write_seed("all_nostate", m);
  hg_ir_compute_state(m);
  check_round_trips("all_ops (with state)", m);
  write_seed("all_state", m);
  const hg_ir_function *k = &m->functions[1];
  CHECK(k->num_safepoints == 2 && k->safepoints[1].kind == HG_SAFEPOINT_BARRIER, "all_ops: entry + barrier");
  CHECK(k->num_local_vars == 1 && k->local_vars[0].global == 2 && k->local_static_size == 256,
        "all_ops: only @tile laid out");
  CHECK(k->private_size == 80 && k->slots[1].offset == 16, "all_ops: private frame 80 bytes");
  test_verifier_rejects();
  test_parse_errors();
  test_crc32c();
  test_decoder_robustness(m);
  hg_ir_module_free(m);
  test_state_barrier();
  test_state_loops();
  test_state_locals();
  test_inline_all();
  test_link();
  test_link_globals();
  test_determinism();
  test_contract();
  test_wrap_flags();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
