/* The verifier's builtin-call rules (ir/builtins.c, docs/ir-spec.md section 5): calls written
 * here from the OpenCL C 1.2 signatures, one per module, each accepted or rejected with a
 * message that names the builtin and what is wrong. The expectations are this file's own, not
 * read from the table. */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

/* A type written as in the text form: "f32x4", "i64", "ptr.global", "void", "bool". */
static hg_ir_type parse_type(const char *s) {
  static const char *const scalars[] = {"void", "bool", "i8", "i16", "i32", "i64", "f16", "f32", "f64"};
  static const char *const spaces[] = {"private", "global", "constant", "local", "generic"};
  if (!strncmp(s, "ptr.", 4))
    for (unsigned a = 0; a < 5; a++)
      if (!strcmp(s + 4, spaces[a]))
        return hg_ir_ptr_ty((hg_ir_addrspace)a);
  for (unsigned k = 0; k < sizeof scalars / sizeof scalars[0]; k++) {
    size_t n = strlen(scalars[k]);
    if (strncmp(s, scalars[k], n) || (s[n] && s[n] != 'x'))
      continue;
    return hg_ir_ty((hg_ir_scalar)k, s[n] ? (unsigned)atoi(s + n + 1) : 1);
  }
  fprintf(stderr, "test bug: type %s\n", s);
  exit(2);
}

typedef struct call_case {
  const char *name;
  const char *result;
  const char *operands[6]; /* NULL-terminated */
  const char *reject;      /* NULL: must verify; else a part of the verifier's message */
} call_case;

/* A kernel taking one parameter per operand, calling the builtin once; verified. */
static void run_case(const call_case *c) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type pt[6];
  uint32_t n = 0, ops[6];
  while (n < 6 && c->operands[n]) {
    pt[n] = parse_type(c->operands[n]);
    ops[n] = n;
    n++;
  }
  uint32_t fi = hg_ir_add_function(m, "k", hg_ir_void_ty(), n, pt);
  hg_ir_function *f = &m->functions[fi];
  hg_ir_kernel_arg *args = hg_ir_make_kernel(f);
  for (uint32_t i = 0; i < n; i++) {
    args[i].name = strdup("a");
    args[i].type_name = strdup("t");
    bool ptr = pt[i].scalar == HG_IR_PTR && pt[i].addrspace >= HG_AS_GLOBAL && pt[i].addrspace <= HG_AS_LOCAL;
    args[i].kind = ptr ? (uint8_t)(pt[i].addrspace == HG_AS_GLOBAL     ? HG_KARG_GLOBAL_PTR
                                   : pt[i].addrspace == HG_AS_CONSTANT ? HG_KARG_CONSTANT_PTR
                                                                        : HG_KARG_LOCAL_PTR)
                       : (uint8_t)HG_KARG_VALUE;
    args[i].size = args[i].align = 8;
  }
  uint32_t b = hg_ir_add_block(f), name = hg_ir_intern(m, c->name);
  hg_ir_append(f, b, HG_OP_CALL_BUILTIN, 0, parse_type(c->result), n, ops, 1, &name);
  hg_ir_append(f, b, HG_OP_RET, 0, hg_ir_void_ty(), 0, NULL, 0, NULL);
  char err[512] = "";
  bool ok = hg_ir_verify(m, err, sizeof err);
  const char *prefix = "function @k, bb0, instruction 0 (call_builtin): builtin \"";
  bool good = c->reject ? !ok && strstr(err, c->reject) && !strncmp(err, prefix, strlen(prefix)) &&
                              !strncmp(err + strlen(prefix), c->name, strlen(c->name))
                        : ok;
  if (good) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s %s(", c->result, c->name);
    for (uint32_t i = 0; i < n; i++)
      printf("%s%s", i ? ", " : "", c->operands[i]);
    printf("): expected %s%s, got %s\n", c->reject ? "rejection: " : "acceptance", c->reject ? c->reject : "",
           ok ? "acceptance" : err);
  }
  hg_ir_module_free(m);
}

static const call_case k_accepted[] = {
    {"get_global_id", "i64", {"i32"}, NULL},
    {"get_local_size", "i64", {"i32"}, NULL},
    {"get_work_dim", "i32", {NULL}, NULL},
    {"get_local_linear_id", "i64", {NULL}, NULL},
    {"sin", "f32x4", {"f32x4"}, NULL},
    {"sqrt", "f16", {"f16"}, NULL},
    {"native_exp", "f64x16", {"f64x16"}, NULL},
    {"atan2", "f32x3", {"f32x3", "f32x3"}, NULL},
    {"fmax", "f32x4", {"f32x4", "f32"}, NULL},
    {"fmin", "f64x2", {"f64x2", "f64x2"}, NULL},
    {"fma", "f32", {"f32", "f32", "f32"}, NULL},
    {"ldexp", "f32x4", {"f32x4", "i32x4"}, NULL},
    {"ldexp", "f32x4", {"f32x4", "i32"}, NULL},
    {"pown", "f64", {"f64", "i32"}, NULL},
    {"rootn", "f32x8", {"f32x8", "i32x8"}, NULL},
    {"frexp", "f32x2", {"f32x2", "ptr.private"}, NULL},
    {"sincos", "f32", {"f32", "ptr.generic"}, NULL},
    {"remquo", "f32", {"f32", "f32", "ptr.global"}, NULL},
    {"ilogb", "i32x4", {"f64x4"}, NULL},
    {"nan", "f32x4", {"i32x4"}, NULL},
    {"nan", "f64", {"i64"}, NULL},
    {"nan", "f16x2", {"i16x2"}, NULL},
    {"abs", "i8x16", {"i8x16"}, NULL},
    {"abs_diff", "i32", {"i32", "i32"}, NULL},
    {"mad_sat", "i64x2", {"i64x2", "i64x2", "i64x2"}, NULL},
    {"upsample", "i16x4", {"i8x4", "i8x4"}, NULL},
    {"upsample", "i64", {"i32", "i32"}, NULL},
    {"clamp", "i32x4", {"i32x4", "i32", "i32"}, NULL},
    {"clamp", "f32x3", {"f32x3", "f32x3", "f32x3"}, NULL},
    {"max", "i64x2", {"i64x2", "i64"}, NULL},
    {"min", "f32", {"f32", "f32"}, NULL},
    {"mix", "f32x4", {"f32x4", "f32x4", "f32"}, NULL},
    {"step", "f32x4", {"f32", "f32x4"}, NULL},
    {"smoothstep", "f64x2", {"f64", "f64", "f64x2"}, NULL},
    {"dot", "f32", {"f32x4", "f32x4"}, NULL},
    {"length", "f64", {"f64x3"}, NULL},
    {"cross", "f32x3", {"f32x3", "f32x3"}, NULL},
    {"normalize", "f16x2", {"f16x2"}, NULL},
    {"isequal", "i32x4", {"f32x4", "f32x4"}, NULL},
    {"isequal", "i32", {"f64", "f64"}, NULL},
    {"isnan", "i64x2", {"f64x2"}, NULL},
    {"isnan", "i16x8", {"f16x8"}, NULL},
    {"signbit", "i32", {"f32"}, NULL},
    {"any", "i32", {"i8x16"}, NULL},
    {"select", "f32x4", {"f32x4", "f32x4", "i32x4"}, NULL},
    {"select", "i8", {"i8", "i8", "i8"}, NULL},
    {"bitselect", "f64x2", {"f64x2", "f64x2", "f64x2"}, NULL},
    {"vload4", "f32x4", {"i64", "ptr.constant"}, NULL},
    {"vload3", "i16x3", {"i64", "ptr.global"}, NULL},
    {"vstore8", "void", {"i8x8", "i64", "ptr.local"}, NULL},
    {"vload_half", "f32", {"i64", "ptr.global"}, NULL},
    {"vload_half4", "f32x4", {"i64", "ptr.private"}, NULL},
    {"vloada_half3", "f32x3", {"i64", "ptr.private"}, NULL},
    {"vstore_half_rtz", "void", {"f64", "i64", "ptr.global"}, NULL},
    {"vstorea_half16_rte", "void", {"f32x16", "i64", "ptr.generic"}, NULL},
    {"shuffle", "f32x8", {"f32x4", "i32x8"}, NULL},
    {"shuffle2", "i8x2", {"i8x16", "i8x16", "i8x2"}, NULL},
    {"convert_int4_sat_rte", "i32x4", {"f32x4"}, NULL},
    {"convert_float", "f32", {"i64"}, NULL},
    {"convert_uchar16", "i8x16", {"f16x16"}, NULL},
    {"as_float4", "f32x4", {"i32x4"}, NULL},
    {"as_int", "i32", {"i8x4"}, NULL},
    {"as_half2", "f16x2", {"i32"}, NULL},
    {"printf", "i32", {"ptr.constant"}, NULL},
    {"printf", "i32", {"ptr.constant", "f64", "i32x4", "ptr.global"}, NULL},
    {"atomic_add", "i32", {"ptr.global", "i32"}, NULL},
    {"atom_cmpxchg", "i64", {"ptr.local", "i64", "i64"}, NULL},
    {"atomic_inc", "i32", {"ptr.global"}, NULL},
    {"atomic_xchg", "f32", {"ptr.local", "f32"}, NULL},
    {"mem_fence", "void", {"i32"}, NULL},
    {"atomic_work_item_fence", "void", {"i32", "i32", "i32"}, NULL},
    {"prefetch", "void", {"ptr.global", "i64"}, NULL},
    {"hg.stop_poll", "bool", {NULL}, NULL},
};

static const call_case k_rejected[] = {
    {"get_global_id", "i64", {"f32"}, "operand 0 is f32, expected i32"},
    {"get_global_id", "i64", {"i64"}, "operand 0 is i64, expected i32"},
    {"get_global_id", "i64", {"i32x4"}, "operand 0 is i32x4, expected i32"},
    {"get_global_id", "i64", {"ptr.global"}, "operand 0 is ptr.global, expected i32"},
    {"get_global_id", "i64", {NULL}, "0 operands, expected 1"},
    {"get_global_id", "i64", {"i32", "i32"}, "2 operands, expected 1"},
    {"get_global_id", "f32", {"i32"}, "the result is f32, expected i64"},
    {"get_work_dim", "i32", {"i32"}, "1 operand, expected 0"},
    {"sin", "i32", {"i32"}, "operand 0 is i32, expected f16/f32/f64"},
    {"sin", "f32", {"f32x4"}, "the result is f32, expected f32x4"},
    {"sin", "f32", {"f32", "f32"}, "2 operands, expected 1"},
    {"fmax", "f32", {"f32", "f32x4"}, "operand 1 is f32x4, expected f32"},
    {"ldexp", "f32x4", {"f32x4", "i64"}, "operand 1 is i64, expected i32x4"},
    {"frexp", "f32", {"f32", "ptr.constant"}, "operand 1 is ptr.constant, expected a pointer not to __constant"},
    {"frexp", "f32", {"f32", "f32"}, "operand 1 is f32, expected a pointer"},
    {"nan", "f32", {"i64"}, "operand 0 is i64, expected i32"},
    {"abs", "f32", {"f32"}, "operand 0 is f32, expected i8/i16/i32/i64"},
    {"upsample", "i64", {"i64", "i64"}, "operand 0 is i64, expected i8/i16/i32"},
    {"upsample", "i16", {"i8", "i16"}, "operand 1 is i16, expected i8"},
    {"upsample", "i32", {"i8", "i8"}, "the result is i32, expected i16"},
    {"clamp", "i32x4", {"i32x4", "i32x4", "i32"}, "operand 2 is i32, expected i32x4"},
    {"dot", "f32", {"f32x8", "f32x8"}, "operand 0 is f32x8, expected f16/f32/f64 with 1 to 4 lanes"},
    {"cross", "f32x2", {"f32x2", "f32x2"}, "operand 0 is f32x2, expected f16/f32/f64 with 3 or 4 lanes"},
    {"isequal", "i64x4", {"f32x4", "f32x4"}, "the result is i64x4, expected i32x4"},
    {"isequal", "boolx4", {"f32x4", "f32x4"}, "the result is boolx4, expected i32x4"},
    {"any", "i32", {"f32x4"}, "operand 0 is f32x4, expected i8/i16/i32/i64"},
    {"select", "f32x4", {"f32x4", "f32x4", "i16x4"}, "operand 2 is i16x4, expected i32x4"},
    {"vload4", "f32x2", {"i64", "ptr.global"}, "the result is f32x2, expected i8/i16/i32/i64/f16/f32/f64 with 4 lanes"},
    {"vload4", "f32x4", {"i32", "ptr.global"}, "operand 0 is i32, expected i64"},
    {"vload4", "f32x4", {"i64", "f32"}, "operand 1 is f32, expected a pointer"},
    {"vstore4", "void", {"f32x4", "i64", "ptr.constant"}, "operand 2 is ptr.constant, expected a pointer not to __constant"},
    {"vstore4", "i32", {"f32x4", "i64", "ptr.global"}, "the result is i32, expected void"},
    {"vload_half4", "f64x4", {"i64", "ptr.global"}, "the result is f64x4, expected f32 with 4 lanes"},
    {"vstore_half", "void", {"f16", "i64", "ptr.global"}, "operand 0 is f16, expected f32/f64 scalar"},
    {"shuffle", "f32x4", {"f32x4", "i16x4"}, "operand 1 is i16x4, expected a vector of i32"},
    {"shuffle", "f32x4", {"f32x3", "i32x4"}, "operand 0 is f32x3, expected"},
    {"convert_int4", "i32x4", {"f32x2"}, "operand 0 is f32x2, expected i8/i16/i32/i64/f16/f32/f64 with 4 lanes"},
    {"convert_int4", "i64x4", {"f32x4"}, "the result is i64x4, expected i32x4"},
    {"convert_int", "i32", {"ptr.global"}, "operand 0 is ptr.global"},
    {"as_float4", "f32x4", {"i32x2"}, "operand 0 is i32x2, expected a 128-bit value"},
    {"printf", "i32", {"ptr.global"}, "operand 0 is ptr.global, expected a pointer to __constant"},
    {"printf", "i32", {NULL}, "0 operands, expected at least 1"},
    {"printf", "void", {"ptr.constant"}, "the result is void, expected i32"},
    {"atomic_add", "i32", {"ptr.constant", "i32"}, "operand 0 is ptr.constant, expected a pointer to __global or __local"},
    {"atomic_add", "i8", {"ptr.global", "i8"}, "operand 1 is i8, expected i32/i64 scalar"},
    {"atomic_add", "f32", {"ptr.global", "f32"}, "operand 1 is f32, expected i32/i64 scalar"},
    {"mem_fence", "void", {"f32"}, "operand 0 is f32, expected i32"},
    {"hg.stop_poll", "bool", {"i32"}, "1 operand, expected 0"},
    {"hg.stop_poll", "i32", {NULL}, "the result is i32, expected bool"},
    {"no_such_builtin", "void", {NULL}, "no such builtin"},
    {"barrier", "void", {"i32"}, "no such builtin"},             /* the BARRIER opcode */
    {"atomic_fetch_add", "i32", {"ptr.global", "i32"}, "no such builtin"}, /* IR atomics */
    {"async_work_group_copy", "i64", {"ptr.local", "ptr.global", "i64", "i64"}, "no such builtin"},
    {"vload5", "f32x4", {"i64", "ptr.global"}, "no such builtin"},
    {"convert_half", "f16", {"f32"}, "no such builtin"},
    {"vstore_half4_rtx", "void", {"f32x4", "i64", "ptr.global"}, "no such builtin"},
};

int main(void) {
  for (size_t i = 0; i < sizeof k_accepted / sizeof k_accepted[0]; i++)
    run_case(&k_accepted[i]);
  for (size_t i = 0; i < sizeof k_rejected / sizeof k_rejected[0]; i++)
    run_case(&k_rejected[i]);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
