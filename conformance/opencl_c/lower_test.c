/* Unit tests of the IR -> OpenCL C back end: IR modules built by hand with the builder, lowered,
 * built and run on the reference platform (PoCL, through the system loader), results checked
 * against host computations on fresh random inputs. The build log must be free of warnings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ir/ir.h"
#include "lowering/opencl_c.h"
#include "lowering/spir.h"

#define N 1024
#define WG 64

/* ---- a tiny builder layer ---- */
typedef struct kb {
  hg_ir_module *m;
  uint32_t fi, b;
} kb;
static hg_ir_function *F(kb *k) { return &k->m->functions[k->fi]; }
static hg_ir_type T(hg_ir_scalar s, unsigned l) { return hg_ir_ty(s, l); }
static uint32_t kconst(kb *k, hg_ir_type t, uint64_t v) {
  uint64_t w[16];
  for (int i = 0; i < 16; i++) w[i] = v;
  return hg_ir_add_const(F(k), t, w);
}
static uint32_t ins(kb *k, hg_ir_opcode op, uint16_t flags, hg_ir_type t, uint32_t n, const uint32_t *ops, uint32_t ni,
                    const uint32_t *imm) {
  return hg_ir_append(F(k), k->b, op, flags, t, n, ops, ni, imm);
}
static uint32_t op1(kb *k, hg_ir_opcode op, hg_ir_type t, uint32_t a) { return ins(k, op, 0, t, 1, &a, 0, NULL); }
static uint32_t op2(kb *k, hg_ir_opcode op, hg_ir_type t, uint32_t a, uint32_t b) {
  uint32_t o[2] = {a, b};
  return ins(k, op, 0, t, 2, o, 0, NULL);
}
static uint32_t cmp(kb *k, hg_ir_opcode op, hg_ir_cmp p, uint32_t a, uint32_t b) {
  hg_ir_type at = F(k)->values[a].type;
  uint32_t o[2] = {a, b};
  return ins(k, op, p, T(HG_IR_BOOL, at.lanes), 2, o, 0, NULL);
}
static uint32_t sel(kb *k, uint32_t c, uint32_t a, uint32_t b) {
  uint32_t o[3] = {c, a, b};
  return ins(k, HG_OP_SELECT, 0, F(k)->values[a].type, 3, o, 0, NULL);
}
static uint32_t builtin(kb *k, const char *name, uint16_t flags, hg_ir_type t, uint32_t n, const uint32_t *ops) {
  uint32_t s = hg_ir_intern(k->m, name);
  return ins(k, HG_OP_CALL_BUILTIN, flags, t, n, ops, 1, &s);
}
static uint32_t gid(kb *k) {
  uint32_t z = kconst(k, T(HG_IR_I32, 1), 0);
  return builtin(k, "get_global_id", 1, T(HG_IR_I64, 1), 1, &z);
}
static uint16_t al(unsigned align) {
  unsigned l = 0;
  while ((1u << l) < align) l++;
  return (uint16_t)(l << 8);
}
/* &p[idx * size] */
static uint32_t elem(kb *k, uint32_t p, uint32_t idx64, unsigned size) {
  uint32_t off = op2(k, HG_OP_MUL, T(HG_IR_I64, 1), idx64, kconst(k, T(HG_IR_I64, 1), size));
  return op2(k, HG_OP_PTRADD, F(k)->values[p].type, p, off);
}
static uint32_t load(kb *k, hg_ir_type t, uint32_t p, unsigned align) { return ins(k, HG_OP_LOAD, al(align), t, 1, &p, 0, NULL); }
static void store(kb *k, uint32_t p, uint32_t v, unsigned align) {
  uint32_t o[2] = {p, v};
  ins(k, HG_OP_STORE, al(align), T(HG_IR_VOID, 1), 2, o, 0, NULL);
}
static void ret(kb *k) { ins(k, HG_OP_RET, 0, T(HG_IR_VOID, 1), 0, NULL, 0, NULL); }
static void br(kb *k, uint32_t to) { ins(k, HG_OP_BR, 0, T(HG_IR_VOID, 1), 0, NULL, 1, &to); }
static void condbr(kb *k, uint32_t c, uint32_t t, uint32_t f) {
  uint32_t imm[2] = {t, f};
  ins(k, HG_OP_CONDBR, 0, T(HG_IR_VOID, 1), 1, &c, 2, imm);
}

typedef struct argspec {
  hg_ir_arg_kind kind;
  hg_ir_type type;
  const char *name;
  uint32_t size;
} argspec;

static kb new_kernel(hg_ir_module *m, const char *name, unsigned n, const argspec *a) {
  hg_ir_type pt[16] = {{0}};
  for (unsigned i = 0; i < n; i++) pt[i] = a[i].type;
  kb k = {m, hg_ir_add_function(m, name, T(HG_IR_VOID, 1), n, pt), 0};
  hg_ir_kernel_arg *args = hg_ir_make_kernel(F(&k));
  for (unsigned i = 0; i < n; i++) {
    args[i].name = strdup(a[i].name);
    args[i].type_name = strdup("uchar*");
    args[i].kind = (uint8_t)a[i].kind;
    args[i].size = a[i].kind == HG_KARG_VALUE ? a[i].size : 8;
    args[i].align = a[i].kind == HG_KARG_VALUE ? a[i].size : 8;
  }
  k.b = hg_ir_add_block(F(&k));
  return k;
}
static argspec gbuf(const char *n) { argspec a = {HG_KARG_GLOBAL_PTR, hg_ir_ptr_ty(HG_AS_GLOBAL), n, 8}; return a; }

/* ---- running ---- */
typedef struct runarg {
  int kind; /* 0 buffer in/out, 1 by value, 2 local */
  void *host;
  size_t size;
  size_t robust_size; /* robust form: the size the kernel is told (0: size) */
} runarg;

/* Lowers m (the robust form when fault is not NULL: its fault word comes back there), builds
 * it on the reference platform without warnings, runs kname and reads the buffers back. */
static bool lower_build_run_form(hg_ir_module *m, const char *kname, size_t global, size_t local, unsigned n,
                                 runarg *args, cl_uint *fault) {
  char err[512];
  /* lowering/builtins.h puts argument signedness in call.builtin's flags; tolerate a verifier
   * that does not know that yet */
  if (!hg_ir_verify(m, err, sizeof err) && !strstr(err, "(call_builtin): flags must be zero")) {
    hg_test_fail(__FILE__, __LINE__, "IR does not verify: %s", err);
    return false;
  }
  /* HG_LOWER_SPIR=1: SPIR bitcode where the SPIR back end takes the module, as the driver
   * gives PoCL (docs/spir-backend.md), else OpenCL C */
  const char *spir_env = getenv("HG_LOWER_SPIR");
  size_t bc_size = 0;
  uint8_t *bc = !fault && spir_env && !strcmp(spir_env, "1") ? hg_lower_spir(m, false, &bc_size, err, sizeof err) : NULL;
  if (!bc && !fault && spir_env) printf("  %s: OpenCL C (%s)\n", kname, err);
  char *src = bc      ? NULL
              : fault ? hg_lower_opencl_c_robust(m, NULL, err, sizeof err)
                      : hg_lower_opencl_c(m, NULL, err, sizeof err);
  if (!src && !bc) {
    hg_test_fail(__FILE__, __LINE__, "lowering failed: %s", err);
    return false;
  }
  if (src && getenv("HG_SHOW_SOURCE")) printf("%s\n", src);
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int e;
  const char *s = src;
  const unsigned char *bcp = bc;
  cl_program p = bc ? clCreateProgramWithBinary(ctx, 1, &hg_test_device, &bc_size, &bcp, NULL, &e)
                    : clCreateProgramWithSource(ctx, 1, &s, NULL, &e);
  e = clBuildProgram(p, 1, &hg_test_device, bc ? "-x spir -spir-std=1.2" : hg_lower_opencl_c_options(m), NULL, NULL);
  char log[8192] = "";
  clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  bool ok = true;
  if (e != CL_SUCCESS || strstr(log, "warning") || strstr(log, "error")) {
    hg_test_fail(__FILE__, __LINE__, "build of lowered source: %d\n%s\n--- source ---\n%s", e, log, src ? src : "(SPIR)");
    ok = false;
  }
  cl_mem bufs[16] = {0}, fault_buf = NULL;
  cl_kernel kern = NULL;
  if (ok) kern = clCreateKernel(p, kname, &e);
  if (!kern) ok = false;
  for (unsigned i = 0; ok && i < n; i++) {
    if (args[i].kind == 0) {
      bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, args[i].size, args[i].host, &e);
      clSetKernelArg(kern, i, sizeof(cl_mem), &bufs[i]);
    } else if (args[i].kind == 1) {
      clSetKernelArg(kern, i, args[i].size, args[i].host);
    } else {
      clSetKernelArg(kern, i, args[i].size, NULL);
    }
  }
  if (ok && fault) { /* the robust form's hidden arguments: the fault word, each buffer's size */
    *fault = 0;
    fault_buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof *fault, fault, &e);
    cl_uint at = n;
    ok = clSetKernelArg(kern, at++, sizeof fault_buf, &fault_buf) == CL_SUCCESS;
    for (unsigned i = 0; ok && i < n; i++) {
      cl_ulong size = args[i].robust_size ? args[i].robust_size : args[i].size;
      if (args[i].kind == 0) ok = clSetKernelArg(kern, at++, sizeof size, &size) == CL_SUCCESS;
    }
    if (!ok) hg_test_fail(__FILE__, __LINE__, "setting the robust form's arguments");
  }
  if (ok) {
    e = clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL);
    if (e != CL_SUCCESS) { hg_test_fail(__FILE__, __LINE__, "enqueue: %d", e); ok = false; }
  }
  for (unsigned i = 0; ok && i < n; i++)
    if (args[i].kind == 0) clEnqueueReadBuffer(q, bufs[i], CL_TRUE, 0, args[i].size, args[i].host, 0, NULL, NULL);
  if (ok && fault) clEnqueueReadBuffer(q, fault_buf, CL_TRUE, 0, sizeof *fault, fault, 0, NULL, NULL);
  if (fault_buf) clReleaseMemObject(fault_buf);
  for (unsigned i = 0; i < n; i++)
    if (bufs[i]) clReleaseMemObject(bufs[i]);
  if (kern) clReleaseKernel(kern);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(src);
  free(bc);
  return ok;
}

/* HG_LOWER_ROBUST=1: every test's kernel in its robust form, told its buffers' true sizes,
 * must give the same results and report no fault (no false positives). */
static bool lower_build_run(hg_ir_module *m, const char *kname, size_t global, size_t local, unsigned n, runarg *args) {
  const char *r = getenv("HG_LOWER_ROBUST");
  cl_uint fault = 0;
  bool robust = r && !strcmp(r, "1");
  bool ok = lower_build_run_form(m, kname, global, local, n, args, robust ? &fault : NULL);
  if (ok && fault) {
    hg_test_fail(__FILE__, __LINE__, "robust form of %s: fault word %u in range", kname, fault);
    return false;
  }
  return ok;
}

/* ---- tests ---- */

/* Signed and unsigned integer arithmetic, shifts (counts >= width masked), compares, select,
 * sext/zext/trunc on i8/i16/i32/i64. */
HG_TEST(integer_ops) {
  hg_ir_module *m = hg_ir_module_new();
  argspec as[] = {gbuf("a"), gbuf("b"), gbuf("out")};
  kb k = new_kernel(m, "intops", 3, as);
  hg_ir_type i32 = T(HG_IR_I32, 1), i64 = T(HG_IR_I64, 1), i8 = T(HG_IR_I8, 1), i16 = T(HG_IR_I16, 1);
  uint32_t g = gid(&k);
  uint32_t a = load(&k, i32, elem(&k, 0, g, 4), 4), b = load(&k, i32, elem(&k, 1, g, 4), 4);
  uint32_t r[16];
  unsigned nr = 0;
  uint32_t one = kconst(&k, i32, 1);
  uint32_t bnz = op2(&k, HG_OP_OR, i32, b, one); /* nonzero, odd divisor */
  r[nr++] = op2(&k, HG_OP_SDIV, i32, a, bnz);
  r[nr++] = op2(&k, HG_OP_SREM, i32, a, bnz);
  r[nr++] = op2(&k, HG_OP_UDIV, i32, a, bnz);
  r[nr++] = op2(&k, HG_OP_ASHR, i32, a, b); /* count masked to 5 bits */
  r[nr++] = op2(&k, HG_OP_LSHR, i32, a, b);
  r[nr++] = op2(&k, HG_OP_SHL, i32, a, b);
  r[nr++] = sel(&k, cmp(&k, HG_OP_ICMP, HG_CMP_SLT, a, b), a, b);
  r[nr++] = sel(&k, cmp(&k, HG_OP_ICMP, HG_CMP_ULT, a, b), a, b);
  uint32_t a8 = op1(&k, HG_OP_TRUNC, i8, a), b8 = op1(&k, HG_OP_TRUNC, i8, b);
  r[nr++] = op1(&k, HG_OP_SEXT, i32, op2(&k, HG_OP_ASHR, i8, a8, op2(&k, HG_OP_AND, i8, b8, kconst(&k, i8, 7))));
  r[nr++] = op1(&k, HG_OP_ZEXT, i32, op2(&k, HG_OP_MUL, i8, a8, b8));
  uint32_t a16 = op1(&k, HG_OP_TRUNC, i16, a);
  r[nr++] = op1(&k, HG_OP_SEXT, i32, op2(&k, HG_OP_SDIV, i16, a16, op1(&k, HG_OP_TRUNC, i16, bnz)));
  uint32_t a64 = op1(&k, HG_OP_SEXT, i64, a), b64 = op1(&k, HG_OP_ZEXT, i64, b);
  uint32_t p64 = op2(&k, HG_OP_MUL, i64, a64, b64);
  r[nr++] = op1(&k, HG_OP_TRUNC, i32, op2(&k, HG_OP_ASHR, i64, p64, kconst(&k, i64, 33)));
  r[nr++] = op1(&k, HG_OP_ZEXT, i32, cmp(&k, HG_OP_ICMP, HG_CMP_SGE, a8, b8));
  r[nr++] = op1(&k, HG_OP_SEXT, i32, cmp(&k, HG_OP_ICMP, HG_CMP_UGT, a16, op1(&k, HG_OP_TRUNC, i16, b)));
  uint32_t base = op2(&k, HG_OP_MUL, i64, g, kconst(&k, i64, nr));
  for (unsigned j = 0; j < nr; j++)
    store(&k, elem(&k, 2, op2(&k, HG_OP_ADD, i64, base, kconst(&k, i64, j)), 4), r[j], 4);
  ret(&k);

  static int32_t ha[N], hb[N], out[N * 16];
  hg_test_fill_random(ha, sizeof ha);
  hg_test_fill_random(hb, sizeof hb);
  for (int i = 0; i < 8; i++) { ha[i] = INT32_MIN + i; hb[i] = -1 - i; }
  memset(out, 0xcd, sizeof out);
  runarg ra[] = {{0, ha, sizeof ha}, {0, hb, sizeof hb}, {0, out, sizeof out}};
  bool ok = lower_build_run(m, "intops", N, WG, 3, ra);
  hg_ir_module_free(m);
  if (!ok) return;
  for (int i = 0; i < N; i++) {
    int32_t x = ha[i], y = hb[i], ynz = y | 1;
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    int8_t x8 = (int8_t)x, y8 = (int8_t)y;
    int16_t x16 = (int16_t)x;
    int64_t prod = (int64_t)x * (int64_t)(uint64_t)uy;
    uint32_t exp[16] = {
        (x == INT32_MIN && ynz == -1) ? 0 : (uint32_t)(x / ynz), (x == INT32_MIN && ynz == -1) ? 0 : (uint32_t)(x % ynz),
        ux / (uint32_t)ynz, (uint32_t)(x >> (uy & 31)), ux >> (uy & 31), ux << (uy & 31), (uint32_t)(x < y ? x : y),
        ux < uy ? ux : uy, (uint32_t)(int32_t)(int8_t)(x8 >> (y8 & 7)), (uint32_t)(uint8_t)((uint8_t)x * (uint8_t)y),
        (uint32_t)(int32_t)(int16_t)(x16 / (int16_t)ynz), (uint32_t)(prod >> 33), (uint32_t)(x8 >= y8),
        (uint16_t)x > (uint16_t)y ? 0xffffffffu : 0};
    if (x == INT32_MIN && ynz == -1) continue; /* overflow: undefined */
    for (unsigned j = 0; j < nr; j++)
      CHECK_MSG((uint32_t)out[i * nr + j] == exp[j], "item %d result %u: got 0x%x expected 0x%x (a=%d b=%d)", i, j,
                (uint32_t)out[i * nr + j], exp[j], x, y);
  }
}

/* A loop whose phis swap (parallel copy): x, y = y, x + y, n times; plus a switch. */
HG_TEST(phi_swap_loop_switch) {
  hg_ir_module *m = hg_ir_module_new();
  argspec as[] = {gbuf("n"), gbuf("out")};
  kb k = new_kernel(m, "fib", 2, as);
  hg_ir_type i32 = T(HG_IR_I32, 1);
  uint32_t g = gid(&k);
  uint32_t n = load(&k, i32, elem(&k, 0, g, 4), 4);
  uint32_t n15 = op2(&k, HG_OP_AND, i32, n, kconst(&k, i32, 15));
  uint32_t entry = k.b, head = hg_ir_add_block(F(&k)), body = hg_ir_add_block(F(&k)), exitb = hg_ir_add_block(F(&k));
  uint32_t c1 = kconst(&k, i32, 1), c0 = kconst(&k, i32, 0);
  br(&k, head);
  k.b = head;
  /* phis: x, y, i (placeholders patched below) */
  uint32_t ops3[2] = {c0, c0}, preds[2] = {entry, body};
  uint32_t x = ins(&k, HG_OP_PHI, 0, i32, 2, ops3, 2, preds);
  uint32_t y = ins(&k, HG_OP_PHI, 0, i32, 2, ops3, 2, preds);
  uint32_t i = ins(&k, HG_OP_PHI, 0, i32, 2, ops3, 2, preds);
  condbr(&k, cmp(&k, HG_OP_ICMP, HG_CMP_ULT, i, n15), body, exitb);
  k.b = body;
  uint32_t sum = op2(&k, HG_OP_ADD, i32, x, y);
  uint32_t inext = op2(&k, HG_OP_ADD, i32, i, c1);
  br(&k, head);
  hg_ir_block *hb = &F(&k)->blocks[head];
  hb->insts[0].operands[0] = c0; hb->insts[0].operands[1] = y;   /* x <- y */
  hb->insts[1].operands[0] = c1; hb->insts[1].operands[1] = sum; /* y <- x + y */
  hb->insts[2].operands[0] = c0; hb->insts[2].operands[1] = inext;
  k.b = exitb;
  /* switch (n % 4): 0 -> x, 1 -> y, 2 -> x*y, default -> 7 */
  uint32_t sw = op2(&k, HG_OP_AND, i32, n, kconst(&k, i32, 3));
  uint32_t b0 = hg_ir_add_block(F(&k)), b1 = hg_ir_add_block(F(&k)), b2 = hg_ir_add_block(F(&k)),
           bd = hg_ir_add_block(F(&k)), join = hg_ir_add_block(F(&k));
  uint32_t swops[4] = {sw, c0, c1, kconst(&k, i32, 2)}, swimm[4] = {bd, b0, b1, b2};
  ins(&k, HG_OP_SWITCH, 0, T(HG_IR_VOID, 1), 4, swops, 4, swimm);
  k.b = b0; br(&k, join);
  k.b = b1; br(&k, join);
  k.b = b2; uint32_t xy = op2(&k, HG_OP_MUL, i32, x, y); br(&k, join);
  k.b = bd; br(&k, join);
  k.b = join;
  uint32_t pops[4] = {x, y, xy, kconst(&k, i32, 7)}, ppreds[4] = {b0, b1, b2, bd};
  uint32_t res = ins(&k, HG_OP_PHI, 0, i32, 4, pops, 4, ppreds);
  store(&k, elem(&k, 1, g, 4), res, 4);
  ret(&k);

  static uint32_t hn[N], out[N];
  hg_test_fill_random(hn, sizeof hn);
  memset(out, 0xcd, sizeof out);
  runarg ra[] = {{0, hn, sizeof hn}, {0, out, sizeof out}};
  bool ok = lower_build_run(m, "fib", N, WG, 2, ra);
  hg_ir_module_free(m);
  if (!ok) return;
  for (int j = 0; j < N; j++) {
    uint32_t xx = 0, yy = 1;
    for (uint32_t t = 0; t < (hn[j] & 15); t++) { uint32_t s = xx + yy; xx = yy; yy = s; }
    uint32_t e = (hn[j] & 3) == 0 ? xx : (hn[j] & 3) == 1 ? yy : (hn[j] & 3) == 2 ? xx * yy : 7;
    CHECK_MSG(out[j] == e, "item %d: got %u expected %u", j, out[j], e);
  }
}

/* Misaligned loads/stores (align 1 i32, align 4 float4, align 2 i64), f16 storage, vector
 * compares with select on float4. */
HG_TEST(memory_half_vectors) {
  hg_ir_module *m = hg_ir_module_new();
  argspec as[] = {gbuf("bytes"), gbuf("h"), gbuf("f"), gbuf("out")};
  kb k = new_kernel(m, "mem", 4, as);
  hg_ir_type i32 = T(HG_IR_I32, 1), i64 = T(HG_IR_I64, 1), f4 = T(HG_IR_F32, 4), f16 = T(HG_IR_F16, 1), f32 = T(HG_IR_F32, 1);
  uint32_t g = gid(&k);
  /* i32 at bytes + g*5 + 1 (align 1) */
  uint32_t p1 = op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), elem(&k, 0, g, 5), kconst(&k, i64, 1));
  uint32_t v32 = load(&k, i32, p1, 1);
  /* float4 at f + g*16 + 4 (align 4), compared with 0.5 -> select(x, -x) */
  uint32_t p2 = op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), elem(&k, 2, g, 16), kconst(&k, i64, 4));
  uint32_t v4 = load(&k, f4, p2, 4);
  uint32_t half4 = kconst(&k, f4, 0x3f000000u);
  uint32_t c4 = cmp(&k, HG_OP_FCMP, HG_CMP_OLT, v4, half4);
  uint32_t s4 = sel(&k, c4, v4, op1(&k, HG_OP_FNEG, f4, v4));
  /* half: h[g] -> float, + 1.0, -> half */
  uint32_t hv = load(&k, f16, elem(&k, 1, g, 2), 2);
  uint32_t hf = op1(&k, HG_OP_FPEXT, f32, hv);
  uint32_t hs = op2(&k, HG_OP_FADD, f16, hv, kconst(&k, f16, 0x3c00)); /* half add */
  /* out layout per item: [0] i32 v32 (stored at +1, align 1) ... use 32-byte records */
  uint32_t rec = elem(&k, 3, g, 48);
  store(&k, op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), rec, kconst(&k, i64, 1)), v32, 1);
  store(&k, op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), rec, kconst(&k, i64, 8)), hf, 4);
  store(&k, op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), rec, kconst(&k, i64, 12)), hs, 2);
  store(&k, op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), rec, kconst(&k, i64, 32)), op1(&k, HG_OP_ZEXT, T(HG_IR_I8, 4), c4), 4);
  store(&k, op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), rec, kconst(&k, i64, 16)), s4, 4);
  ret(&k);
  (void)i64;

  static uint8_t bytes[N * 5 + 8];
  static uint16_t hh[N];
  static float ff[N * 4 + 4];
  static uint8_t out[N * 48];
  hg_test_fill_random(bytes, sizeof bytes);
  for (int i = 0; i < N; i++) hh[i] = (uint16_t)(0x3000 + (hg_test_rand() % 0x1000)); /* 0.125 .. 1 */
  for (unsigned i = 0; i < N * 4 + 4; i++) ff[i] = hg_test_randf(-1, 1);
  memset(out, 0xcd, sizeof out);
  runarg ra[] = {{0, bytes, sizeof bytes}, {0, hh, sizeof hh}, {0, ff, sizeof ff}, {0, out, sizeof out}};
  bool ok = lower_build_run(m, "mem", N, WG, 4, ra);
  hg_ir_module_free(m);
  if (!ok) return;
  for (int i = 0; i < N; i++) {
    uint8_t *r = out + i * 48;
    CHECK_MSG(memcmp(r + 1, bytes + i * 5 + 1, 4) == 0, "item %d: misaligned i32", i);
    /* half -> float: exact */
    unsigned e = (hh[i] >> 10) & 31, mnt = hh[i] & 1023;
    float hf = ldexpf((float)(1024 + mnt), (int)e - 25);
    float got;
    memcpy(&got, r + 8, 4);
    CHECK_MSG(got == hf, "item %d: half 0x%x -> %g, expected %g", i, hh[i], got, hf);
    uint16_t gh;
    memcpy(&gh, r + 12, 2);
    /* hf + 1 (normal, positive) rounded to half, to nearest even */
    int ex;
    float mf = frexpf(hf + 1.0f, &ex), q = rintf(mf * 2048.0f);
    if (q == 2048.0f) { q = 1024.0f; ex++; }
    uint16_t eh = (uint16_t)(((ex - 1 + 15) << 10) | ((int)q - 1024));
    CHECK_MSG(gh == eh, "item %d: half add 0x%x, expected 0x%x", i, gh, eh);
    uint8_t mask[4];
    memcpy(mask, r + 32, 4);
    float sel4[4];
    memcpy(sel4, r + 16, 16);
    for (int l = 0; l < 4; l++) {
      float x = ff[i * 4 + 1 + l];
      CHECK_MSG(sel4[l] == (x < 0.5f ? x : -x), "item %d lane %d select", i, l);
      CHECK_MSG(mask[l] == (x < 0.5f), "item %d lane %d: zext <4 x i1> %u", i, l, mask[l]);
    }
  }
}

/* Static __local array used by a helper function, barrier, a __constant table with a
 * relocation, atomics 32 and 64 bit. */
HG_TEST(local_constant_atomics) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type i32 = T(HG_IR_I32, 1), i64 = T(HG_IR_I64, 1);
  uint8_t tab[16];
  for (int i = 0; i < 16; i++) tab[i] = (uint8_t)(i * 7 + 3);
  hg_ir_global gt = {.name = "table", .addrspace = HG_AS_CONSTANT, .is_const = true, .has_init = true, .size = 16, .align = 4, .init = tab};
  uint32_t gtab = hg_ir_add_global(m, &gt);
  uint8_t pinit[16] = {0};
  struct hg_ir_reloc rl = {0, gtab, 4};
  hg_ir_global gp = {.name = "ptrs", .addrspace = HG_AS_CONSTANT, .is_const = true, .has_init = true, .size = 16, .align = 8, .init = pinit, .num_relocs = 1, .relocs = &rl};
  uint32_t gptr = hg_ir_add_global(m, &gp);
  hg_ir_global gl = {.name = "scratch", .addrspace = HG_AS_LOCAL, .size = WG * 4, .align = 16};
  uint32_t gloc = hg_ir_add_global(m, &gl);
  /* helper: uint rd(uint i) { return scratch[i]; } */
  hg_ir_type pi = i32;
  kb h = {m, hg_ir_add_function(m, "rd", i32, 1, &pi), 0};
  h.b = hg_ir_add_block(F(&h));
  uint32_t sref = hg_ir_add_global_ref(F(&h), m, gloc);
  uint32_t hv = load(&h, i32, elem(&h, sref, op1(&h, HG_OP_ZEXT, i64, 0), 4), 4);
  ins(&h, HG_OP_RET, 0, T(HG_IR_VOID, 1), 1, &hv, 0, NULL);

  argspec as[] = {gbuf("in"), gbuf("out"), gbuf("counters")};
  kb k = new_kernel(m, "rev", 3, as);
  uint32_t g = gid(&k);
  uint32_t z = kconst(&k, i32, 0);
  uint32_t lid = builtin(&k, "get_local_id", 1, i64, 1, &z);
  uint32_t lref = hg_ir_add_global_ref(F(&k), m, gloc);
  uint32_t v = load(&k, i32, elem(&k, 0, g, 4), 4);
  store(&k, elem(&k, lref, lid, 4), v, 4);
  uint32_t fl = HG_FENCE_LOCAL;
  ins(&k, HG_OP_BARRIER, 0, T(HG_IR_VOID, 1), 0, NULL, 1, &fl);
  uint32_t ridx = op1(&k, HG_OP_TRUNC, i32, op2(&k, HG_OP_SUB, i64, kconst(&k, i64, WG - 1), lid));
  uint32_t rv = ins(&k, HG_OP_CALL, 0, i32, 1, &ridx, 1, &h.fi);
  /* + table[4 + (g & 7)] read through ptrs[0] (points at table + 4) */
  uint32_t pref = hg_ir_add_global_ref(F(&k), m, gptr);
  uint32_t tp = load(&k, hg_ir_ptr_ty(HG_AS_CONSTANT), pref, 8);
  uint32_t tb = load(&k, T(HG_IR_I8, 1), op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_CONSTANT), tp, op2(&k, HG_OP_AND, i64, g, kconst(&k, i64, 7))), 1);
  uint32_t res = op2(&k, HG_OP_ADD, i32, rv, op1(&k, HG_OP_ZEXT, i32, tb));
  store(&k, elem(&k, 1, g, 4), res, 4);
  /* counters[0] += 1 (i32), counters64 at +8: += v (i64), umax at +16 */
  uint32_t aops[2] = {2, kconst(&k, i32, 1)};
  ins(&k, HG_OP_ATOMIC_RMW, HG_ATOMIC_ADD | (HG_ORDER_RELAXED << 8) | (HG_SCOPE_DEVICE << 12), i32, 2, aops, 0, NULL);
  uint32_t a64[2] = {op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), 2, kconst(&k, i64, 8)), op1(&k, HG_OP_ZEXT, i64, v)};
  ins(&k, HG_OP_ATOMIC_RMW, HG_ATOMIC_ADD | (HG_ORDER_SEQ_CST << 8) | (HG_SCOPE_DEVICE << 12), i64, 2, a64, 0, NULL);
  uint32_t amax[2] = {op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), 2, kconst(&k, i64, 16)), v};
  ins(&k, HG_OP_ATOMIC_RMW, HG_ATOMIC_UMAX | (HG_ORDER_RELAXED << 8) | (HG_SCOPE_DEVICE << 12), i32, 2, amax, 0, NULL);
  ret(&k);

  static uint32_t in[N], out[N];
  uint64_t counters[3] = {0, 0, 0};
  hg_test_fill_random(in, sizeof in);
  memset(out, 0xcd, sizeof out);
  runarg ra[] = {{0, in, sizeof in}, {0, out, sizeof out}, {0, counters, sizeof counters}};
  bool ok = lower_build_run(m, "rev", N, WG, 3, ra);
  hg_ir_module_free(m);
  if (!ok) return;
  uint64_t sum = 0;
  uint32_t mx = 0;
  for (int i = 0; i < N; i++) {
    int grp = i / WG, l = i % WG;
    uint32_t e = in[grp * WG + (WG - 1 - l)] + tab[4 + (i & 7)];
    CHECK_MSG(out[i] == e, "item %d: got %u expected %u", i, out[i], e);
    sum += in[i];
    if (in[i] > mx) mx = in[i];
  }
  CHECK_MSG((uint32_t)counters[0] == N, "atomic add 32: %u", (uint32_t)counters[0]);
  CHECK_MSG(counters[1] == sum, "atomic add 64: %llu expected %llu", (unsigned long long)counters[1], (unsigned long long)sum);
  CHECK_MSG((uint32_t)counters[2] == mx, "atomic umax: %u expected %u", (uint32_t)counters[2], mx);
}

/* A __local argument is declared with the pointee type of the widest alignment the accesses
 * need (a vendor places the buffer at that alignment, and NVIDIA refused a kernel whose one
 * __local ulong16 argument took all of its local memory): each group reverses its items through
 * it, as i32 (declared uint) and as 16-byte aligned float4 (declared ulong2). */
static void local_argument_reverse(unsigned lanes, const char *declared) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type et = lanes == 1 ? T(HG_IR_I32, 1) : T(HG_IR_F32, lanes), i64 = T(HG_IR_I64, 1);
  unsigned esize = 4 * lanes;
  argspec as[] = {gbuf("in"), gbuf("out"), {HG_KARG_LOCAL_PTR, hg_ir_ptr_ty(HG_AS_LOCAL), "scratch", 8}};
  kb k = new_kernel(m, "revl", 3, as);
  uint32_t g = gid(&k);
  uint32_t z = kconst(&k, T(HG_IR_I32, 1), 0);
  uint32_t lid = builtin(&k, "get_local_id", 1, i64, 1, &z);
  store(&k, elem(&k, 2, lid, esize), load(&k, et, elem(&k, 0, g, esize), esize), esize);
  uint32_t fl = HG_FENCE_LOCAL;
  ins(&k, HG_OP_BARRIER, 0, T(HG_IR_VOID, 1), 0, NULL, 1, &fl);
  uint32_t rl = op2(&k, HG_OP_SUB, i64, kconst(&k, i64, WG - 1), lid);
  store(&k, elem(&k, 1, g, esize), load(&k, et, elem(&k, 2, rl, esize), esize), esize);
  ret(&k);
  char err[256], want[64];
  char *src = hg_lower_opencl_c(m, NULL, err, sizeof err);
  snprintf(want, sizeof want, "__local %s *", declared);
  CHECK_MSG(src && strstr(src, want), "lowered source does not declare %s: %s", want, src ? src : err);
  free(src);
  uint32_t *in = malloc((size_t)N * esize), *out = malloc((size_t)N * esize);
  hg_test_fill_random(in, (size_t)N * esize);
  for (size_t i = 0; lanes > 1 && i < (size_t)N * lanes; i++) in[i] &= 0x3fffffffu; /* finite floats */
  memset(out, 0xcd, (size_t)N * esize);
  runarg ra[] = {{0, in, (size_t)N * esize}, {0, out, (size_t)N * esize}, {2, NULL, (size_t)WG * esize}};
  bool ok = lower_build_run(m, "revl", N, WG, 3, ra);
  hg_ir_module_free(m);
  for (int i = 0; ok && i < N; i++) {
    int src_item = i / WG * WG + (WG - 1 - i % WG);
    CHECK_MSG(memcmp(&out[(size_t)i * lanes], &in[(size_t)src_item * lanes], esize) == 0, "%u lanes, item %d", lanes, i);
  }
  free(in);
  free(out);
}

HG_TEST(local_argument_alignment) {
  local_argument_reverse(1, "uint");
  local_argument_reverse(4, "ulong2");
}

/* Builtins with signedness from the flags: max signed vs unsigned, convert_int_sat, sqrt. */
HG_TEST(builtins_signedness) {
  hg_ir_module *m = hg_ir_module_new();
  argspec as[] = {gbuf("a"), gbuf("b"), gbuf("out")};
  kb k = new_kernel(m, "bi", 3, as);
  hg_ir_type i32 = T(HG_IR_I32, 1), f32 = T(HG_IR_F32, 1);
  uint32_t g = gid(&k);
  uint32_t a = load(&k, i32, elem(&k, 0, g, 4), 4), b = load(&k, i32, elem(&k, 1, g, 4), 4);
  uint32_t ab[2] = {a, b};
  uint32_t smax = builtin(&k, "max", 0, i32, 2, ab);
  uint32_t umax = builtin(&k, "max", 3, i32, 2, ab);
  uint32_t sabs = builtin(&k, "abs", 0, i32, 1, &a);
  uint32_t fa = op1(&k, HG_OP_UITOFP, f32, a);
  uint32_t sq = builtin(&k, "sqrt", 0, f32, 1, &fa);
  uint32_t r[5] = {smax, umax, sabs, op1(&k, HG_OP_BITCAST, i32, sq), builtin(&k, "convert_short_sat", 0, T(HG_IR_I16, 1), 1, &a)};
  r[4] = op1(&k, HG_OP_SEXT, i32, r[4]);
  for (unsigned j = 0; j < 5; j++)
    store(&k, elem(&k, 2, op2(&k, HG_OP_ADD, T(HG_IR_I64, 1), op2(&k, HG_OP_MUL, T(HG_IR_I64, 1), g, kconst(&k, T(HG_IR_I64, 1), 5)), kconst(&k, T(HG_IR_I64, 1), j)), 4), r[j], 4);
  /* atomics and fences kept as builtin calls (the specification allows both forms) */
  uint32_t fl = kconst(&k, i32, 2);
  builtin(&k, "mem_fence", 1, T(HG_IR_VOID, 1), 1, &fl);
  uint32_t cnt = op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), 2, kconst(&k, T(HG_IR_I64, 1), N * 5 * 4));
  uint32_t aa[2] = {cnt, kconst(&k, i32, 3)};
  builtin(&k, "atomic_add", 1, i32, 2, aa);
  uint32_t am[2] = {op2(&k, HG_OP_PTRADD, hg_ir_ptr_ty(HG_AS_GLOBAL), cnt, kconst(&k, T(HG_IR_I64, 1), 4)), a};
  builtin(&k, "atomic_min", 0, i32, 2, am);
  ret(&k);
  static int32_t ha[N], hb[N], out[N * 5 + 2];
  hg_test_fill_random(ha, sizeof ha);
  hg_test_fill_random(hb, sizeof hb);
  memset(out, 0xcd, sizeof out);
  out[N * 5] = 0;
  out[N * 5 + 1] = INT32_MAX;
  runarg ra[] = {{0, ha, sizeof ha}, {0, hb, sizeof hb}, {0, out, sizeof out}};
  bool ok = lower_build_run(m, "bi", N, WG, 3, ra);
  hg_ir_module_free(m);
  if (!ok) return;
  for (int i = 0; i < N; i++) {
    int32_t x = ha[i], y = hb[i];
    float s = sqrtf((float)(uint32_t)x);
    uint32_t sb;
    memcpy(&sb, &s, 4);
    int32_t sat = x > 32767 ? 32767 : x < -32768 ? -32768 : x;
    uint32_t e[5] = {(uint32_t)(x > y ? x : y), (uint32_t)x > (uint32_t)y ? (uint32_t)x : (uint32_t)y,
                     x < 0 ? 0u - (uint32_t)x : (uint32_t)x, sb, (uint32_t)sat};
    for (int j = 0; j < 5; j++) CHECK_MSG((uint32_t)out[i * 5 + j] == e[j], "item %d result %d: 0x%x vs 0x%x", i, j, (uint32_t)out[i * 5 + j], e[j]);
  }
  int32_t mn = INT32_MAX;
  for (int i = 0; i < N; i++) mn = ha[i] < mn ? ha[i] : mn;
  CHECK_MSG(out[N * 5] == 3 * N, "atomic_add builtin: %d", out[N * 5]);
  CHECK_MSG(out[N * 5 + 1] == mn, "signed atomic_min builtin: %d expected %d", out[N * 5 + 1], mn);
}

/* Work-item functions with any dimindx: a run-time index from a buffer (0..2 and out-of-range
 * values up to 0xffffffff) and constant indices 3 and 0xffffffff. For dimindx >= get_work_dim()
 * the sizes are 1 and the ids 0 (OpenCL C 6.15.1), whatever the vendor does for >= 3. */
HG_TEST(work_item_dimindx) {
  static const char *const names[8] = {"get_global_size", "get_local_size", "get_enqueued_local_size", "get_num_groups",
                                       "get_global_id",   "get_local_id",   "get_group_id",            "get_global_offset"};
  hg_ir_module *m = hg_ir_module_new();
  argspec as[] = {gbuf("dims"), gbuf("out")};
  kb k = new_kernel(m, "wi", 2, as);
  hg_ir_type i32 = T(HG_IR_I32, 1), i64 = T(HG_IR_I64, 1);
  uint32_t g = gid(&k);
  uint32_t d = load(&k, i32, elem(&k, 0, g, 4), 4);
  uint32_t idx[3] = {d, kconst(&k, i32, 3), kconst(&k, i32, 0xffffffffu)};
  uint32_t base = op2(&k, HG_OP_MUL, i64, g, kconst(&k, i64, 24));
  for (unsigned f = 0; f < 8; f++)
    for (unsigned j = 0; j < 3; j++) {
      uint32_t r = builtin(&k, names[f], 1, i64, 1, &idx[j]);
      store(&k, elem(&k, 1, op2(&k, HG_OP_ADD, i64, base, kconst(&k, i64, f * 3 + j)), 8), r, 8);
    }
  ret(&k);
  static uint32_t dims[N];
  static uint64_t out[N * 24];
  for (int i = 0; i < N; i++) {
    uint32_t r = hg_test_rand();
    dims[i] = r % 4 == 0 ? r : r % 4 == 1 ? 3 + r % 100 : r % 3; /* half in range, half out */
  }
  memset(out, 0xcd, sizeof out);
  runarg ra[] = {{0, dims, sizeof dims}, {0, out, sizeof out}};
  bool ok = lower_build_run(m, "wi", N, WG, 2, ra);
  hg_ir_module_free(m);
  if (!ok) return;
  for (int i = 0; i < N; i++)
    for (unsigned f = 0; f < 8; f++)
      for (unsigned j = 0; j < 3; j++) {
        uint32_t dim = j == 0 ? dims[i] : j == 1 ? 3 : 0xffffffffu;
        /* a 1-D launch of N items in groups of WG, no offset */
        uint64_t in_dim0[8] = {N, WG, WG, N / WG, (uint64_t)i, (uint64_t)(i % WG), (uint64_t)(i / WG), 0};
        uint64_t e = dim == 0 ? in_dim0[f] : f < 4 ? 1 : 0;
        CHECK_MSG(out[i * 24 + f * 3 + j] == e, "item %d %s(%u): %llu, expected %llu", i, names[f], dim,
                  (unsigned long long)out[i * 24 + f * 3 + j], (unsigned long long)e);
      }
}

/* The robust form (HETGPU_ROBUST) through a function that is not inlined: put(p, i, v) stores
 * p[i] = v and gets the range table as hidden parameters. Each item g stores g at a[g + shift]
 * and copies b[g] to c[g] by a memcpy through pointers chosen by a select. The kernel is told
 * a[] is N ints where the buffer has 16 more: in range everything lands; with shift 1 the last
 * item's store is dropped (the bytes past N keep their poison) and the fault word says "write". */
HG_TEST(robust_form_through_a_call) {
  for (int shift = 0; shift < 2; shift++) {
    hg_ir_module *m = hg_ir_module_new();
    hg_ir_type i32 = T(HG_IR_I32, 1), i64 = T(HG_IR_I64, 1), gp = hg_ir_ptr_ty(HG_AS_GLOBAL);
    hg_ir_type pt[3] = {gp, i64, i32};
    kb h = {m, hg_ir_add_function(m, "put", T(HG_IR_VOID, 1), 3, pt), 0};
    h.b = hg_ir_add_block(F(&h));
    store(&h, elem(&h, 0, 1, 4), 2, 4);
    ret(&h);
    argspec as[] = {gbuf("a"), gbuf("b"), gbuf("c")};
    kb k = new_kernel(m, "rcall", 3, as);
    uint32_t g = gid(&k);
    uint32_t at = op2(&k, HG_OP_ADD, i64, g, kconst(&k, i64, (uint64_t)shift));
    uint32_t cargs[3] = {0, at, op1(&k, HG_OP_TRUNC, i32, g)};
    ins(&k, HG_OP_CALL, 0, T(HG_IR_VOID, 1), 3, cargs, 1, &h.fi);
    uint32_t odd = cmp(&k, HG_OP_ICMP, HG_CMP_NE, op2(&k, HG_OP_AND, i64, g, kconst(&k, i64, 1)), kconst(&k, i64, 0));
    uint32_t src = sel(&k, odd, elem(&k, 1, g, 4), elem(&k, 1, g, 4));
    uint32_t mc[3] = {elem(&k, 2, g, 4), src, kconst(&k, i64, 4)};
    ins(&k, HG_OP_MEMCPY, 0, T(HG_IR_VOID, 1), 3, mc, 0, NULL);
    ret(&k);
    static uint32_t a[N + 16], b[N], c[N];
    memset(a, 0xcd, sizeof a);
    memset(c, 0xcd, sizeof c);
    hg_test_fill_random(b, sizeof b);
    runarg ra[] = {{0, a, sizeof a, N * 4}, {0, b, sizeof b, 0}, {0, c, sizeof c, 0}};
    cl_uint fault = 0;
    bool ok = lower_build_run_form(m, "rcall", N, WG, 3, ra, &fault);
    hg_ir_module_free(m);
    if (!ok) return;
    CHECK_MSG(fault == (shift ? 2u : 0u), "shift %d: fault word %u", shift, fault);
    for (int i = 0; i < N + 16; i++) {
      uint32_t want = i >= shift && i - shift < N && i < N ? (uint32_t)(i - shift) : 0xcdcdcdcdu;
      CHECK_MSG(a[i] == want, "shift %d: a[%d] = %08x, want %08x", shift, i, a[i], want);
    }
    CHECK_MSG(!memcmp(b, c, sizeof b), "shift %d: the memcpy through a select", shift);
  }
}
