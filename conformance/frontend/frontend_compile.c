/* Compiles many small OpenCL C kernels (every construct the front end translates) and checks
 * that the IR verifies and holds the expected instructions and metadata; checks build option
 * errors, compile errors (with the line in the log) and that compiles are reproducible. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "lowering/frontend.h"

static int g_pass, g_fail;

static void check(bool ok, const char *name, const char *fmt, ...) {
  if (ok) {
    g_pass++;
    return;
  }
  g_fail++;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "FAIL %s: ", name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* ---- IR queries ------------------------------------------------------------------------ */
static unsigned count_op(const hg_ir_module *m, hg_ir_opcode op) {
  unsigned n = 0;
  for (uint32_t f = 0; f < m->num_functions; f++)
    for (uint32_t b = 0; b < m->functions[f].num_blocks; b++)
      for (uint32_t i = 0; i < m->functions[f].blocks[b].num_insts; i++)
        n += m->functions[f].blocks[b].insts[i].op == op;
  return n;
}

static const hg_ir_inst *find_builtin(const hg_ir_module *m, const char *name) {
  for (uint32_t f = 0; f < m->num_functions; f++)
    for (uint32_t b = 0; b < m->functions[f].num_blocks; b++)
      for (uint32_t i = 0; i < m->functions[f].blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &m->functions[f].blocks[b].insts[i];
        if (in->op == HG_OP_CALL_BUILTIN && !strcmp(m->strings[in->imm[0]], name)) return in;
      }
  return NULL;
}

static const hg_ir_inst *find_atomic(const hg_ir_module *m, unsigned aop) {
  for (uint32_t f = 0; f < m->num_functions; f++)
    for (uint32_t b = 0; b < m->functions[f].num_blocks; b++)
      for (uint32_t i = 0; i < m->functions[f].blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &m->functions[f].blocks[b].insts[i];
        if (in->op == HG_OP_ATOMIC_RMW && (in->flags & 0xff) == aop) return in;
      }
  return NULL;
}

static const hg_ir_function *kernel(const hg_ir_module *m, const char *name) {
  for (uint32_t f = 0; f < m->num_functions; f++)
    if (m->functions[f].is_kernel && !strcmp(m->functions[f].name, name)) return &m->functions[f];
  return NULL;
}

static const hg_ir_global *global(const hg_ir_module *m, const char *name) {
  for (uint32_t g = 0; g < m->num_globals; g++)
    if (!strcmp(m->globals[g].name, name)) return &m->globals[g];
  return NULL;
}

/* Compiles; on success checks that the IR verifies. Returns the module or NULL. */
static hg_ir_module *compile(const char *name, const char *src, const char *opts) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile(src, opts, NULL, 0, false, &m, &log);
  check(rc == CL_SUCCESS && m, name, "compile failed (%d): %s", rc, log ? log : "");
  if (m) {
    char err[512];
    check(hg_ir_verify(m, err, sizeof err), name, "IR does not verify: %s", err);
  }
  free(log);
  return m;
}

#define K(body) "__kernel void k(" body "}\n"

/* ---- cases ------------------------------------------------------------------------------ */
static void test_scalars_and_vectors(void) {
  const char *src =
      "__kernel void k(__global int *i, __global uint *u, __global long *l, __global float *f,\n"
      "                __global double *d, __global char *c, __global short *s, __global float4 *v4,\n"
      "                __global int3 *i3, __global uchar16 *b16, __global half *h) {\n"
      "  size_t g = get_global_id(0);\n"
      "  i[g] = i[g] / 7 + i[g] % 5 - (i[g] >> 2) + (i[g] << 3);\n"
      "  u[g] = u[g] / 7u + u[g] % 5u + (u[g] >> 3) ^ 0xffu;\n"
      "  l[g] = l[g] * 3 - (long)f[g];\n"
      "  f[g] = -f[g] * 2.5f / (f[g] + 1.0f) + fmod(f[g], 3.0f) + (float)u[g];\n"
      "  d[g] = d[g] * 1.5 + (double)l[g];\n"
      "  c[g] = (char)(c[g] + s[g]);\n"
      "  float4 a = v4[g];\n"
      "  v4[g] = a.wzyx * (float4)(1.0f, 2.0f, 3.0f, 4.0f) + a.xxyy;\n"
      "  int3 t = i3[g]; i3[g] = t.zxy + (int3)(1, 2, 3);\n"
      "  uchar16 b = b16[g]; b16[g] = b.s0123456789abcdef + b.sfedcba9876543210;\n"
      "  vstore_half(f[g], g, h);\n"
      "  int4 m = isless(a, (float4)(0.5f)); v4[g+1] = select(a, -a, m);\n"
      "}\n";
  hg_ir_module *m = compile("scalars_vectors", src, NULL);
  if (!m) return;
  check(count_op(m, HG_OP_SDIV) + count_op(m, HG_OP_MUL) > 0, "scalars_vectors", "no integer arithmetic");
  check(count_op(m, HG_OP_FDIV) > 0, "scalars_vectors", "no fdiv");
  check(count_op(m, HG_OP_SHUFFLE) > 0, "scalars_vectors", "no shuffle");
  check(count_op(m, HG_OP_FNEG) > 0, "scalars_vectors", "no fneg");
  check(find_builtin(m, "vstore_half") != NULL, "scalars_vectors", "no vstore_half");
  check(find_builtin(m, "fmod") != NULL, "scalars_vectors", "no fmod");
  check(m->uses_fp64, "scalars_vectors", "uses_fp64 not set");
  const hg_ir_function *k = kernel(m, "k");
  check(k && k->num_params == 11 && !strcmp(k->args[7].type_name, "float4*") && !strcmp(k->args[0].name, "i"),
        "scalars_vectors", "argument metadata wrong");
  hg_ir_module_free(m);
}

static void test_structs_unions_arrays(void) {
  const char *src =
      "typedef struct { float a; int b[3]; char c; } S;\n"
      "typedef union { float f; uint u; } U;\n"
      "__kernel void k(__global S *ps, S s, __global uint *out, __global float *in) {\n"
      "  int g = get_global_id(0);\n"
      "  S local_s = ps[g];\n"
      "  local_s.b[g & 1] += s.b[2];\n"
      "  ps[g + 1] = local_s;\n"
      "  U un; un.f = in[g]; out[g] = un.u;\n"
      "  float arr[16];\n"
      "  for (int j = 0; j < 16; j++) arr[j] = in[j] * j;\n"
      "  out[g + 1] = (uint)arr[g & 15] + as_uint(in[g]);\n"
      "}\n";
  hg_ir_module *m = compile("structs_unions_arrays", src, NULL);
  if (!m) return;
  const hg_ir_function *k = kernel(m, "k");
  check(k && k->args[1].kind == HG_KARG_VALUE && k->args[1].size == 20 && k->args[1].align == 4,
        "structs_unions_arrays", "by-value struct argument metadata wrong (size %u)", k ? k->args[1].size : 0);
  check(k && k->args[1].kind == HG_KARG_VALUE && k->param_types[1].scalar == HG_IR_PTR &&
            k->param_types[1].addrspace == HG_AS_PRIVATE,
        "structs_unions_arrays", "by-value struct should be a private pointer parameter");
  check(count_op(m, HG_OP_PTRADD) > 0, "structs_unions_arrays", "no ptradd");
  check(count_op(m, HG_OP_SLOT) > 0, "structs_unions_arrays", "private array should be a slot");
  hg_ir_module_free(m);
}

static void test_address_spaces_and_globals(void) {
  const char *src =
      "__constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
      "__constant int ints[3] = {7, -1, 3};\n"
      "__constant struct { int a; float b; } pair = {5, 0.25f};\n"
      "__kernel void k(__global float *out, __constant float *c, __local float *scratch) {\n"
      "  __local float tile[64];\n"
      "  int l = get_local_id(0), g = get_global_id(0);\n"
      "  tile[l] = c[l] + table[l & 3] + ints[l % 3] + pair.a + pair.b;\n"
      "  scratch[l] = tile[l];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[g] = tile[63 - l] + scratch[(l + 1) & 63];\n"
      "}\n";
  hg_ir_module *m = compile("address_spaces", src, NULL);
  if (!m) return;
  const hg_ir_global *t = global(m, "table");
  float one = 1.0f, four = 4.0f;
  check(t && t->addrspace == HG_AS_CONSTANT && t->size == 16 && t->has_init && !memcmp(t->init, &one, 4) &&
            !memcmp(t->init + 12, &four, 4),
        "address_spaces", "constant table wrong");
  const hg_ir_global *ints = global(m, "ints");
  int minus1 = -1;
  check(ints && ints->size == 12 && !memcmp(ints->init + 4, &minus1, 4), "address_spaces", "int table wrong");
  bool have_local = false;
  for (uint32_t g = 0; g < m->num_globals; g++)
    if (m->globals[g].addrspace == HG_AS_LOCAL && m->globals[g].size == 256) have_local = true;
  check(have_local, "address_spaces", "no 256-byte __local variable");
  const hg_ir_function *k = kernel(m, "k");
  check(k && k->args[1].kind == HG_KARG_CONSTANT_PTR && k->args[2].kind == HG_KARG_LOCAL_PTR &&
            k->args[0].kind == HG_KARG_GLOBAL_PTR,
        "address_spaces", "argument kinds wrong");
  check(count_op(m, HG_OP_BARRIER) == 1, "address_spaces", "expected one barrier");
  hg_ir_module_free(m);
}

static void test_pointer_initializers(void) {
  const char *src =
      "__constant int data[4] = {1, 2, 3, 4};\n"
      "__constant int *__constant ptrs[2] = {&data[0], &data[2]};\n"
      "__kernel void k(__global int *out) { out[get_global_id(0)] = *ptrs[get_global_id(0) & 1]; }\n";
  hg_ir_module *m = compile("pointer_initializers", src, NULL);
  if (!m) return;
  const hg_ir_global *p = global(m, "ptrs");
  check(p && p->num_relocs == 2 && p->relocs[1].offset == 8 && p->relocs[1].addend == 8, "pointer_initializers",
        "relocations wrong");
  hg_ir_module_free(m);
}

static void test_control_flow(void) {
  const char *src =
      "__kernel void k(__global int *out, __global const int *in, int n) {\n"
      "  int g = get_global_id(0), acc = 0;\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    if (in[i] < 0) continue;\n"
      "    if (in[i] > 1000) break;\n"
      "    acc += in[i];\n"
      "  }\n"
      "  int j = 0;\n"
      "  while (j < n && in[j] != g) j++;\n"
      "  do { acc ^= j; j >>= 1; } while (j);\n"
      "  switch (in[g] & 7) {\n"
      "  case 0: acc += 1; break;\n"
      "  case 1: acc *= 3; break;\n"
      "  case 2: case 3: acc -= in[g]; break;\n"
      "  case 5: out[g+1] = acc; /* fallthrough */\n"
      "  case 6: acc = -acc; break;\n"
      "  default: acc = 0;\n"
      "  }\n"
      "  out[g] = g > 3 ? acc : -acc;\n"
      "}\n";
  hg_ir_module *m = compile("control_flow", src, NULL);
  if (!m) return;
  check(count_op(m, HG_OP_PHI) > 0, "control_flow", "no phi");
  check(count_op(m, HG_OP_CONDBR) > 0, "control_flow", "no conditional branch");
  check(count_op(m, HG_OP_SWITCH) + count_op(m, HG_OP_CONDBR) > 3, "control_flow", "switch missing");
  hg_ir_module_free(m);
}

static void test_helper_functions_inlined(void) {
  const char *src =
      "float sq(float x) { return x * x; }\n"
      "static int twice(int x) { return 2 * x; }\n"
      "void store(__global float *p, float v) { *p = v; }\n"
      "__kernel void other(__global float *o) { o[0] = 1.0f; }\n"
      "__kernel void k(__global float *o) { int g = get_global_id(0);\n"
      "  store(o + g, sq(o[g]) + twice(g)); other(o); }\n";
  hg_ir_module *m = compile("helpers_inlined", src, NULL);
  if (!m) return;
  check(count_op(m, HG_OP_CALL) == 0, "helpers_inlined", "calls remain after inlining");
  check(m->num_functions == 2 && kernel(m, "k") && kernel(m, "other"), "helpers_inlined",
        "expected exactly the two kernels, got %u functions", m->num_functions);
  hg_ir_module_free(m);
}

static void test_atomics(void) {
  const char *src =
      "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
      "__kernel void k(__global int *i, __global uint *u, __local int *l, __global long *q, __global float *f) {\n"
      "  atomic_add(i, 1); atomic_sub(i, 2); atomic_inc(i); atomic_dec(i);\n"
      "  atomic_min(i, 3); atomic_max(u, 4u); atomic_and(i, 5); atomic_or(i, 6); atomic_xor(i, 7);\n"
      "  atomic_xchg(f, 1.0f); int old = atomic_cmpxchg(i, 0, 9);\n"
      "  atom_add(q, 5L); atom_max(q, 3L);\n"
      "  l[0] = 0; barrier(CLK_LOCAL_MEM_FENCE); atomic_add(l, old);\n"
      "  mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
      "}\n";
  hg_ir_module *m = compile("atomics", src, NULL);
  if (!m) return;
  check(find_atomic(m, HG_ATOMIC_ADD) && find_atomic(m, HG_ATOMIC_SUB) && find_atomic(m, HG_ATOMIC_SMIN) &&
            find_atomic(m, HG_ATOMIC_UMAX) && find_atomic(m, HG_ATOMIC_AND) && find_atomic(m, HG_ATOMIC_OR) &&
            find_atomic(m, HG_ATOMIC_XOR) && find_atomic(m, HG_ATOMIC_XCHG) && find_atomic(m, HG_ATOMIC_SMAX),
        "atomics", "missing atomic operations");
  const hg_ir_inst *x = find_atomic(m, HG_ATOMIC_XCHG);
  check(x && x->type.scalar == HG_IR_F32, "atomics", "atomic_xchg on float should move an f32");
  check(count_op(m, HG_OP_CMPXCHG) == 1, "atomics", "expected one cmpxchg");
  check(count_op(m, HG_OP_FENCE) == 3, "atomics", "expected three fences, got %u", count_op(m, HG_OP_FENCE));
  check(count_op(m, HG_OP_ATOMIC_RMW) == 13, "atomics", "expected 13 atomic rmw, got %u", count_op(m, HG_OP_ATOMIC_RMW));
  bool has64 = false;
  for (uint32_t b = 0; b < m->functions[0].num_blocks; b++)
    for (uint32_t i = 0; i < m->functions[0].blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &m->functions[0].blocks[b].insts[i];
      if (in->op == HG_OP_ATOMIC_RMW && in->type.scalar == HG_IR_I64) has64 = true;
    }
  check(has64, "atomics", "no 64-bit atomic");
  hg_ir_module_free(m);
}

static void test_c11_atomics_cl30(void) {
  const char *src =
      "__kernel void k(__global atomic_int *a, __global int *out, __local atomic_uint *lu) {\n"
      "  atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_device);\n"
      "  int v = atomic_load_explicit(a, memory_order_acquire, memory_scope_work_group);\n"
      "  atomic_store_explicit(a, v, memory_order_release, memory_scope_device);\n"
      "  int e = 0; bool ok = atomic_compare_exchange_strong_explicit(a, &e, 5, memory_order_acq_rel,\n"
      "                                     memory_order_relaxed, memory_scope_device);\n"
      "  atomic_fetch_max_explicit(lu, 3u, memory_order_relaxed, memory_scope_work_group);\n"
      "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);\n"
      "  out[get_global_id(0)] = v + ok;\n"
      "#ifdef __opencl_c_fp64\n  out[1] = 64;\n#endif\n"
      "#ifndef __opencl_c_images\n#error images are part of the profile\n#endif\n"
      "#ifndef __IMAGE_SUPPORT__\n#error __IMAGE_SUPPORT__ must be defined\n#endif\n"
      "#if defined(__opencl_c_read_write_images) || defined(__opencl_c_3d_image_writes)\n"
      "#error read_write images and 3D image writes are not offered\n#endif\n"
      "#ifdef __opencl_c_generic_address_space\n#error no generic address space\n#endif\n"
      "}\n";
  hg_ir_module *m = compile("c11_atomics_cl30", src, "-cl-std=CL3.0");
  if (!m) return;
  const hg_ir_inst *ld = find_atomic(m, HG_ATOMIC_LOAD);
  check(ld && ((ld->flags >> 8) & 0xf) == HG_ORDER_ACQUIRE && (ld->flags >> 12) == HG_SCOPE_WORK_GROUP,
        "c11_atomics_cl30", "atomic_load order/scope wrong");
  check(find_atomic(m, HG_ATOMIC_STORE) && find_atomic(m, HG_ATOMIC_UMAX), "c11_atomics_cl30", "store/umax missing");
  check(count_op(m, HG_OP_CMPXCHG) == 1 && count_op(m, HG_OP_FENCE) == 1, "c11_atomics_cl30", "cmpxchg/fence missing");
  check(m->source_language && !strcmp(m->source_language, "OpenCL C 3.0"), "c11_atomics_cl30", "source language");
  hg_ir_module_free(m);
}

static void test_builtin_families(void) {
  const char *src =
      "__kernel void k(__global float4 *f, __global int4 *i, __global uint *u, __global float *s,\n"
      "                __global uchar *b, __local float *lbuf) {\n"
      "  size_t g = get_global_id(0);\n"
      "  uint dim = get_work_dim(); size_t gs = get_global_size(0) + get_local_size(0) + get_num_groups(0)\n"
      "     + get_group_id(0) + get_global_offset(0) + get_local_id(0);\n"
      "  float4 x = f[g];\n"
      "  x = sin(x) + cos(x) + exp(x) + log(x) + pow(x, x) + sqrt(x) + rsqrt(x) + native_sin(x) + half_exp(x)\n"
      "      + fma(x, x, x) + mad(x, x, x) + fabs(x) + floor(x) + ceil(x) + fmin(x, x) + fmax(x, 2.0f);\n"
      "  float ip; s[g] = modf(s[g], &ip) + ip + atan2(s[g], 2.0f) + hypot(s[g], 1.0f);\n"
      "  int4 v = i[g];\n"
      "  v = as_int4(abs(v)) + as_int4(abs_diff(v, v)) + add_sat(v, v) + hadd(v, v) + clz(v) + mul_hi(v, v) + rotate(v, v)\n"
      "      + popcount(v) + max(v, v) + min(v, 3) + clamp(v, 0, 5) + mad24(v, v, v) + mul24(v, v);\n"
      "  u[g] = max(u[g], 7u) + min(u[g], u[g+1]) + upsample((ushort)1, (ushort)2) + (uint)dim + (uint)gs;\n"
      "  x = clamp(x, 0.0f, 1.0f) + degrees(x) + radians(x) + mix(x, x, 0.5f) + step(0.5f, x) + smoothstep(0.0f, 1.0f, x) + sign(x);\n"
      "  s[g] += dot(x, x) + length(x) + distance(x, x) + fast_length(x) + normalize(x).x + cross(x, x).y;\n"
      "  v += isnan(x) + isinf(x) + isequal(x, x) + signbit(x) + (int4)(any(v), all(v), 0, 0) + bitselect(v, v, v);\n"
      "  float4 ld = vload4(g, s) + vload_half4(g, (__global half *)b);\n"
      "  vstore4(ld, g, s); vstore_half4_rte(ld, g, (__global half *)b);\n"
      "  int4 cv = convert_int4_sat_rte(x) + convert_int4(convert_uint4(v)) + as_int4(x);\n"
      "  i[g] = cv;\n"
      "  float2 sh = shuffle(x, (uint2)(1, 0)); s[g] += sh.x;\n"
      "  event_t e = async_work_group_copy(lbuf, s, 16, 0); wait_group_events(1, &e); prefetch(s, 4);\n"
      "  printf(\"g=%d x=%f v=%v4d\\n\", (int)g, x.x, v);\n"
      "}\n";
  hg_ir_module *m = compile("builtin_families", src, NULL);
  if (!m) return;
  static const char *const expect[] = {"get_work_dim", "get_global_size", "get_num_groups", "sin", "native_sin",
                                       "half_exp", "mad", "modf", "abs", "abs_diff", "add_sat", "clz", "rotate",
                                       "popcount", "max", "clamp", "mad24", "upsample", "mix", "smoothstep", "dot",
                                       "cross", "normalize", "isnan", "signbit", "any", "bitselect", "vload4",
                                       "vload_half4", "vstore4", "vstore_half4_rte", "convert_int4_sat_rte",
                                       "convert_uint4", "shuffle", "printf"};
  for (size_t i = 0; i < sizeof expect / sizeof *expect; i++)
    check(find_builtin(m, expect[i]) != NULL, "builtin_families", "builtin %s missing", expect[i]);
  check(find_builtin(m, "as_int4") == NULL, "builtin_families", "as_ must be a bitcast");
  /* async copies are cooperative loops and wait_group_events a barrier (lowering/frontend_prelude.h) */
  check(!find_builtin(m, "async_work_group_copy") && !find_builtin(m, "wait_group_events") && !find_builtin(m, "prefetch"),
        "builtin_families", "async copy builtins must be lowered by the prelude");
  bool barrier = false;
  for (uint32_t b = 0; b < m->functions[0].num_blocks; b++)
    for (uint32_t i = 0; i < m->functions[0].blocks[b].num_insts; i++)
      barrier |= m->functions[0].blocks[b].insts[i].op == HG_OP_BARRIER &&
                 m->functions[0].blocks[b].insts[i].imm[0] == (HG_FENCE_LOCAL | HG_FENCE_GLOBAL);
  check(barrier, "builtin_families", "wait_group_events must be a barrier with local and global fences");
  const hg_ir_inst *p = find_builtin(m, "printf");
  check(p && m->functions[0].values[p->operands[0]].type.addrspace == HG_AS_CONSTANT, "builtin_families",
        "printf format must be a constant pointer");
  /* max(uint, uint): both arguments unsigned */
  bool umax = false;
  for (uint32_t b = 0; b < m->functions[0].num_blocks; b++)
    for (uint32_t i = 0; i < m->functions[0].blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &m->functions[0].blocks[b].insts[i];
      if (in->op == HG_OP_CALL_BUILTIN && !strcmp(m->strings[in->imm[0]], "max") && in->flags == 3 &&
          in->type.lanes == 1)
        umax = true;
    }
  check(umax, "builtin_families", "max(uint, uint) should carry unsigned flags 3");
  hg_ir_module_free(m);
}

static void test_intrinsics(void) {
  const char *src =
      "__kernel void k(__global uint *u, __global ulong *ul, __global float *f, __global int *i) {\n"
      "  size_t g = get_global_id(0);\n"
      "  uint x = u[g];\n"
      "  u[g] = (x << 5) | (x >> 27);\n"                                         /* rotate -> fshl */
      "  u[g+1] = ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >> 8) & 0xff00) | (x >> 24);\n" /* bswap */
      "  i[g] = i[g] > 0 ? i[g] : -i[g];\n"                                        /* abs */
      "  i[g+1] = max(i[g], i[g+1]);\n"
      "  f[g] = f[g] * f[g+1] + f[g+2];\n"                                        /* fmuladd */
      "  f[g+3] = fabs(f[g]);\n"
      "  __private float tmp[8]; for (int j = 0; j < 8; j++) tmp[j] = 0.0f; tmp[x & 7] = 1.0f;\n"
      "  f[g+4] = tmp[g & 7];\n"
      "}\n";
  hg_ir_module *m = compile("intrinsics", src, NULL);
  if (!m) return;
  check(count_op(m, HG_OP_FMUL) > 0 && count_op(m, HG_OP_FADD) > 0, "intrinsics", "fmuladd not expanded");
  hg_ir_module_free(m);
}

/* Counts op instructions with (contract) or without HG_FP_CONTRACT. */
static unsigned count_fp(const hg_ir_module *m, hg_ir_opcode op, bool contract) {
  unsigned n = 0;
  for (uint32_t f = 0; f < m->num_functions; f++)
    for (uint32_t b = 0; b < m->functions[f].num_blocks; b++)
      for (uint32_t i = 0; i < m->functions[f].blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &m->functions[f].blocks[b].insts[i];
        n += in->op == op && ((in->flags & HG_FP_CONTRACT) != 0) == contract;
      }
  return n;
}

/* a*b+c within one expression is contractable (FP_CONTRACT ON, the OpenCL default): both halves
 * carry HG_FP_CONTRACT; across statements, or under FP_CONTRACT OFF, it is not. A 'contract'
 * fast-math flag (clang fp contract(fast)) gives the flag to plain operations too. */
static void test_contraction(void) {
  const char *src =
      "__kernel void k(__global float *f, __global float4 *v) {\n"
      "  size_t g = get_global_id(0);\n"
      "  f[g] = f[g] * f[g+1] + f[g+2];\n"
      "  v[g] = v[g] * v[g+1] + v[g+2];\n"
      "  float p = f[g+3] * f[g+4];\n"
      "  f[g+5] = p + f[g+6];\n"
      "}\n";
  hg_ir_module *m = compile("contraction", src, NULL);
  if (!m) return;
  check(count_fp(m, HG_OP_FMUL, true) == 2 && count_fp(m, HG_OP_FADD, true) == 2, "contraction",
        "one expression: fmul.contract + fadd.contract, scalar and vector");
  check(count_fp(m, HG_OP_FMUL, false) == 1 && count_fp(m, HG_OP_FADD, false) == 1, "contraction",
        "across statements: plain fmul + fadd");
  hg_ir_module_free(m);
  m = compile("contraction_off", "#pragma OPENCL FP_CONTRACT OFF\n"
              "__kernel void k(__global float *f) { size_t g = get_global_id(0); f[g] = f[g] * f[g+1] + f[g+2]; }\n", NULL);
  if (m) {
    check(count_fp(m, HG_OP_FMUL, true) + count_fp(m, HG_OP_FADD, true) == 0 && count_op(m, HG_OP_FMUL) == 1,
          "contraction_off", "FP_CONTRACT OFF: no contract flags");
    hg_ir_module_free(m);
  }
  m = compile("contraction_fast", "#pragma clang fp contract(fast)\n"
              "__kernel void k(__global float *f) { size_t g = get_global_id(0); float p = f[g] * f[g+1];\n"
              "  f[g] = p - f[g+2]; }\n", NULL);
  if (m) {
    check(count_fp(m, HG_OP_FMUL, true) == 1 && count_fp(m, HG_OP_FSUB, true) == 1, "contraction_fast",
          "the 'contract' fast-math flag gives HG_FP_CONTRACT");
    hg_ir_module_free(m);
  }
}

/* A local id is below the device's largest work-group (lowering/llvm_work_item_ranges.c):
 * (int)(get_local_id(0) * 2), size_t arithmetic that clang leaves unflagged, cannot wrap and
 * carries nsw and nuw; the same on a global id (unbounded) carries neither. */
static void test_work_item_ranges(void) {
  hg_ir_module *m = compile("work_item_ranges", "__kernel void k(__global int *o) {\n"
                            "  o[(int)(get_global_id(0) * 2)] = (int)(get_local_id(0) * 2);\n}\n", NULL);
  if (!m) return;
  unsigned flagged = 0, plain = 0;
  const hg_ir_function *f = kernel(m, "k");
  for (uint32_t b = 0; f && b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      flagged += in->op == HG_OP_SHL && in->flags == (HG_WRAP_NSW | HG_WRAP_NUW);
      plain += in->op == HG_OP_SHL && in->flags == 0;
    }
  check(flagged == 1 && plain == 1, "work_item_ranges", "local id * 2: shl.nsw.nuw, global id * 2: plain shl (got %u, %u)",
        flagged, plain);
  hg_ir_module_free(m);
}

static void test_metadata(void) {
  const char *src =
      "__kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4)))\n"
      "void k(__global const float * restrict in, __global volatile int *v, __constant int *c, uint n) {\n"
      "  v[0] = (int)in[0] + c[0] + n; }\n"
      "__kernel __attribute__((work_group_size_hint(16, 1, 1))) void h(__global int *o) { o[0] = 1; }\n";
  hg_ir_module *m = compile("metadata", src, NULL);
  if (!m) return;
  const hg_ir_function *k = kernel(m, "k"), *h = kernel(m, "h");
  check(k && k->reqd_work_group_size[0] == 8 && k->reqd_work_group_size[1] == 4 && k->reqd_work_group_size[2] == 1,
        "metadata", "reqd_work_group_size");
  check(k && k->vec_type_hint && !strcmp(k->vec_type_hint, "float4"), "metadata", "vec_type_hint");
  check(k && k->attributes && strstr(k->attributes, "reqd_work_group_size(8,4,1)") &&
            strstr(k->attributes, "vec_type_hint(float4)"),
        "metadata", "attributes '%s'", k && k->attributes ? k->attributes : "");
  check(k && (k->args[0].type_qual & 3) == 3 && (k->args[1].type_qual & 4) && !strcmp(k->args[3].type_name, "uint") &&
            k->args[3].size == 4,
        "metadata", "argument qualifiers");
  check(h && h->work_group_size_hint[0] == 16 && h->attributes && strstr(h->attributes, "work_group_size_hint(16,1,1)"),
        "metadata", "work_group_size_hint");
  hg_ir_module_free(m);
}

static void test_options(void) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  const char *src = "__kernel void k(__global float *o) { o[0] = VALUE; }\n";
  cl_int rc = hg_frontend_compile(src, "-DVALUE=2.0f -cl-fast-relaxed-math -cl-mad-enable -w", NULL, 0, false, &m, &log);
  check(rc == CL_SUCCESS && m && m->build_options && strstr(m->build_options, "-cl-fast-relaxed-math") &&
            strstr(m->build_options, "-cl-mad-enable") && !strstr(m->build_options, "VALUE"),
        "options", "semantic options not recorded (%d, %s)", rc, log);
  hg_ir_module_free(m);
  free(log);
  m = NULL;
  rc = hg_frontend_compile(src, "-D VALUE=1.0f -cl-std=CL1.1 -cl-opt-disable -cl-denorms-are-zero -I /tmp -g", NULL, 0,
                           false, &m, &log);
  check(rc == CL_SUCCESS && m && !strcmp(m->source_language, "OpenCL C 1.1") &&
            strstr(m->build_options, "-cl-denorms-are-zero"),
        "options", "second option set failed (%d): %s", rc, log);
  if (m) {
    char err[256];
    check(hg_ir_verify(m, err, sizeof err), "options", "-cl-opt-disable IR does not verify: %s", err);
  }
  hg_ir_module_free(m);
  free(log);
  m = NULL;
  rc = hg_frontend_compile(src, "-DVALUE=1 -cl-bogus-option", NULL, 0, false, &m, &log);
  check(rc == CL_INVALID_BUILD_OPTIONS && !m && log && strstr(log, "-cl-bogus-option"), "options",
        "unknown option: rc %d log '%s'", rc, log ? log : "");
  free(log);
  rc = hg_frontend_compile(src, "-cl-std=CL4.0", NULL, 0, false, &m, &log);
  check(rc == CL_INVALID_BUILD_OPTIONS && !m, "options", "bad -cl-std accepted");
  free(log);
  rc = hg_frontend_compile(src, "-D", NULL, 0, false, &m, &log);
  check(rc == CL_INVALID_BUILD_OPTIONS && !m, "options", "-D without a value accepted");
  free(log);
  /* -Werror turns a warning into a failure */
  rc = hg_frontend_compile("__kernel void k(__global int *o) { int unused_var; o[0] = 1 / 0; }\n", "-Werror", NULL, 0,
                           false, &m, &log);
  check(rc == CL_COMPILE_PROGRAM_FAILURE && !m, "options", "-Werror did not fail: %d", rc);
  free(log);
}

static void test_errors(void) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile("__kernel void k(__global int *o) {\n  int a = 1;\n  o[0] = a +;\n}\n", NULL, NULL, 0,
                                  false, &m, &log);
  check(rc == CL_COMPILE_PROGRAM_FAILURE && !m && log && strstr(log, "<source>:3:") && !strstr(log, "hetgpu-cl-"),
        "errors", "syntax error: rc %d log '%s'", rc, log ? log : "");
  free(log);
  rc = hg_frontend_compile("void f(void);\n__kernel void k(__global int *o) { f(); }\n", NULL, NULL, 0, false, &m, &log);
  check(rc == CL_COMPILE_PROGRAM_FAILURE && !m && log && strstr(log, "undefined function"), "errors",
        "undefined function: rc %d log '%s'", rc, log ? log : "");
  free(log);
  rc = hg_frontend_compile("void f(void);\n__kernel void k(__global int *o) { f(); }\n", NULL, NULL, 0, true, &m, &log);
  check(rc == CL_SUCCESS && m, "errors", "library compile with a declaration failed: %s", log ? log : "");
  if (m) {
    bool decl = false;
    for (uint32_t i = 0; i < m->num_functions; i++)
      if (!strcmp(m->functions[i].name, "f") && m->functions[i].num_blocks == 0) decl = true;
    check(decl && count_op(m, HG_OP_CALL) == 1 && m->program_kind == HG_IR_PROGRAM_OBJECT, "errors",
          "library: declaration or call missing");
  }
  hg_ir_module_free(m);
  m = NULL;
  free(log);
  /* images are offered (frontend_images.c), read_write ones not */
  rc = hg_frontend_compile("__kernel void k(read_write image2d_t img) { }\n", "-cl-std=CL2.0", NULL, 0, false, &m, &log);
  check(rc == CL_COMPILE_PROGRAM_FAILURE && !m && log && strstr(log, "read_write images"), "errors",
        "read_write image argument accepted: %s", log ? log : "");
  free(log);
}

static void test_headers(void) {
  hg_source_header h[2] = {{"common.h", "#define SCALE 3\n#include \"sub/more.h\"\n"},
                           {"sub/more.h", "inline int scaled(int x) { return x * SCALE + OFFSET; }\n"}};
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile("#include \"common.h\"\n__kernel void k(__global int *o) { o[0] = scaled(o[1]); }\n",
                                  "-DOFFSET=2", h, 2, true, &m, &log);
  check(rc == CL_SUCCESS && m, "headers", "embedded headers: %d %s", rc, log ? log : "");
  hg_ir_module_free(m);
  free(log);
  hg_source_header bad = {"../escape.h", "int x;"};
  rc = hg_frontend_compile("__kernel void k() {}\n", NULL, &bad, 1, true, &m, &log);
  check(rc != CL_SUCCESS, "headers", "header name with .. accepted");
  free(log);
}

static void test_reproducible(void) {
  const char *src = "__constant float t[2] = {1, 2};\n"
                    "__kernel void k(__global float *o) { o[get_global_id(0)] = t[get_global_id(0) & 1] * 3.0f; }\n";
  hg_ir_module *a = compile("reproducible", src, "-cl-mad-enable"), *b = compile("reproducible", src, "-cl-mad-enable");
  if (!a || !b) {
    hg_ir_module_free(a);
    hg_ir_module_free(b);
    return;
  }
  uint8_t *ea = NULL, *eb = NULL;
  size_t na = 0, nb = 0;
  check(hg_ir_encode(a, &ea, &na) == 0 && hg_ir_encode(b, &eb, &nb) == 0 && na == nb && !memcmp(ea, eb, na),
        "reproducible", "two compiles differ");
  free(ea);
  free(eb);
  hg_ir_module_free(a);
  hg_ir_module_free(b);
}

static void test_generic_cl20(void) {
  const char *src = "int get(int *p) { return *p; }\n"
                    "__kernel void k(__global int *o, __local int *l) { l[0] = 1; o[0] = get(o + 1) + get(l); }\n";
  hg_ir_module *m = compile("generic_cl20", src, "-cl-std=CL2.0");
  hg_ir_module_free(m);
}

int main(void) {
  test_scalars_and_vectors();
  test_structs_unions_arrays();
  test_address_spaces_and_globals();
  test_pointer_initializers();
  test_control_flow();
  test_helper_functions_inlined();
  test_atomics();
  test_c11_atomics_cl30();
  test_builtin_families();
  test_intrinsics();
  test_contraction();
  test_work_item_ranges();
  test_metadata();
  test_options();
  test_errors();
  test_headers();
  test_reproducible();
  test_generic_cl20();
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
