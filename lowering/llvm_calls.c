/* Calls: OpenCL C builtins, LLVM intrinsics, and calls to other functions of the module.
 *
 * Representation (what back ends must know):
 * - Builtins stay call.builtin by OpenCL name; flags bit i = argument i is an unsigned integer
 *   (see lowering/builtins.h). printf is call.builtin "printf" with the format string (a pointer
 *   into the constant address space) first and the promoted variadic arguments after it.
 * - barrier/work_group_barrier -> HG_OP_BARRIER; mem_fence & co. and atomic_work_item_fence ->
 *   HG_OP_FENCE.
 * - Every atomic builtin is an IR atomic: atomic_add/atom_add/atomic_fetch_add* ->
 *   HG_OP_ATOMIC_RMW (ADD), inc/dec -> ADD/SUB of 1, min/max pick SMIN/UMIN by the pointee's
 *   signedness, (atomic_)cmpxchg -> HG_OP_CMPXCHG, atomic_load/store -> ATOMIC_RMW LOAD/STORE,
 *   atomic_compare_exchange_* -> load expected, CMPXCHG, compare, write back, atomic_flag_* ->
 *   XCHG/STORE of an int. The OpenCL 1.2 functions are relaxed; the C11-style ones take their
 *   order and scope from the (constant) arguments, seq_cst and device by default.
 * - llvm.fmuladd becomes fmul.contract + fadd.contract: the back ends may fuse the pair again
 *   (docs/ir-spec.md, "Floating-point contraction"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/llvm_translate.h"

static const hg_ir_type k_void = {HG_IR_VOID, 1, 0, 0};

/* `unsigned_args` bit i: argument i is unsigned (the call's flags, lowering/builtins.h). */
static uint32_t emit_builtin(hg_xlate *x, const char *name, uint32_t unsigned_args, hg_ir_type rt, uint32_t n,
                             const uint32_t *args) {
  uint32_t id = hg_ir_intern(x->m, name);
  return hg_emit(x, HG_OP_CALL_BUILTIN, (uint16_t)(unsigned_args & 0xffff), rt, n, args, 1, &id);
}

static uint32_t bin(hg_xlate *x, hg_ir_opcode op, uint32_t a, uint32_t b) {
  uint32_t ops[2] = {a, b};
  return hg_emit(x, op, 0, hg_value_type(x, a), 2, ops, 0, NULL);
}

static uint32_t cmp(hg_xlate *x, hg_ir_cmp c, uint32_t a, uint32_t b) {
  uint32_t ops[2] = {a, b};
  hg_ir_type t = hg_value_type(x, a);
  return hg_emit(x, HG_OP_ICMP, (uint16_t)c, hg_ir_ty(HG_IR_BOOL, t.lanes), 2, ops, 0, NULL);
}

static uint32_t splat(hg_xlate *x, uint32_t like, uint64_t v) { return hg_xlate_const_int(x, hg_value_type(x, like), v); }

static unsigned bits_of(hg_ir_type t) { return hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8; }

static uint64_t const_arg(hg_xlate *x, LLVMValueRef call, unsigned i, const char *what) {
  LLVMValueRef a = LLVMGetOperand(call, i);
  if (!LLVMIsAConstantInt(a)) hg_xlate_fail(x, "the %s argument must be a compile-time constant", what);
  return LLVMConstIntGetZExtValue(a);
}

static void set_result(hg_xlate *x, LLVMValueRef call, uint32_t v) {
  if (v != HG_IR_NONE) hg_ptr_map_put(&x->values, call, v);
}

/* ---- memory orders and scopes of the C11-style functions -------------------------------- */
static hg_ir_order order_arg(hg_xlate *x, uint64_t v) {
  switch (v) {
  case 0: return HG_ORDER_RELAXED;
  case 1: case 2: return HG_ORDER_ACQUIRE;
  case 3: return HG_ORDER_RELEASE;
  case 4: return HG_ORDER_ACQ_REL;
  case 5: return HG_ORDER_SEQ_CST;
  default: hg_xlate_fail(x, "invalid memory_order %llu", (unsigned long long)v);
  }
}

static hg_ir_scope scope_arg(hg_xlate *x, uint64_t v) {
  switch (v) {
  case 0: return HG_SCOPE_WORK_ITEM;
  case 1: return HG_SCOPE_WORK_GROUP;
  case 2: return HG_SCOPE_DEVICE;
  case 3: return HG_SCOPE_ALL_DEVICES;
  case 4: return HG_SCOPE_SUB_GROUP;
  default: hg_xlate_fail(x, "invalid memory_scope %llu", (unsigned long long)v);
  }
}

static void fence_flags_check(hg_xlate *x, uint64_t flags) {
  if (flags & ~(uint64_t)(HG_FENCE_LOCAL | HG_FENCE_GLOBAL | HG_FENCE_IMAGE)) hg_xlate_fail(x, "invalid fence flags");
}

/* ---- atomics ------------------------------------------------------------------------------ */
static bool xlate_atomic(hg_xlate *x, LLVMValueRef call, const hg_demangled *d, unsigned nargs) {
  const char *n = d->name;
  bool c11 = false;
  if (!strncmp(n, "atom_", 5)) n += 5;
  else if (!strncmp(n, "atomic_", 7)) n += 7;
  else return false;
  if (!strncmp(n, "fetch_", 6)) {
    n += 6;
    c11 = true;
  }
  char base[48];
  snprintf(base, sizeof base, "%s", n);
  size_t bl = strlen(base);
  bool explicit_ = bl > 9 && !strcmp(base + bl - 9, "_explicit");
  if (explicit_) base[bl - 9] = 0;
  if (!strcmp(base, "init") || !strcmp(base, "load") || !strcmp(base, "store") || !strcmp(base, "exchange") ||
      !strncmp(base, "compare_exchange", 16) || !strncmp(base, "flag_", 5))
    c11 = true;
  if (!strcmp(base, "work_item_fence")) return false;

  bool is_unsigned = d->num_params > 0 && d->params[0].is_unsigned;
  uint32_t ptr = hg_xlate_operand(x, LLVMGetOperand(call, 0));
  hg_ir_type pt = hg_value_type(x, ptr);
  hg_ir_order order = c11 ? HG_ORDER_SEQ_CST : HG_ORDER_RELAXED;
  hg_ir_order fail_order = order;
  hg_ir_scope scope = pt.addrspace == HG_AS_LOCAL ? HG_SCOPE_WORK_GROUP : HG_SCOPE_DEVICE;
  hg_ir_type rt;
  bool has_rt = hg_xlate_type_ok(LLVMTypeOf(call), &rt);

  /* the argument index where the explicit order/scope arguments start */
  unsigned first_order = 2;
  if (!strcmp(base, "load") || !strcmp(base, "flag_test_and_set") || !strcmp(base, "flag_clear")) first_order = 1;
  if (!strncmp(base, "compare_exchange", 16)) first_order = 3;
  if (c11 && explicit_) {
    if (nargs > first_order) order = order_arg(x, const_arg(x, call, first_order, "memory_order"));
    fail_order = order;
    unsigned scope_at = first_order + 1;
    if (!strncmp(base, "compare_exchange", 16)) {
      if (nargs > first_order + 1) fail_order = order_arg(x, const_arg(x, call, first_order + 1, "memory_order"));
      scope_at = first_order + 2;
    }
    if (nargs > scope_at) scope = scope_arg(x, const_arg(x, call, scope_at, "memory_scope"));
  }
  uint16_t ord = (uint16_t)(order << 8 | scope << 12);

  static const struct { const char *name; hg_ir_atomic_op op; } rmw[] = {
      {"add", HG_ATOMIC_ADD}, {"sub", HG_ATOMIC_SUB}, {"xchg", HG_ATOMIC_XCHG}, {"exchange", HG_ATOMIC_XCHG},
      {"and", HG_ATOMIC_AND}, {"or", HG_ATOMIC_OR},   {"xor", HG_ATOMIC_XOR},
  };
  for (size_t i = 0; i < sizeof rmw / sizeof *rmw; i++) {
    if (strcmp(base, rmw[i].name)) continue;
    uint32_t ops[2] = {ptr, hg_xlate_operand(x, LLVMGetOperand(call, 1))};
    hg_ir_type t = hg_value_type(x, ops[1]);
    hg_ir_atomic_op op = rmw[i].op;
    if (op == HG_ATOMIC_ADD && (t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64)) op = HG_ATOMIC_FADD;
    set_result(x, call, hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(op | ord), t, 2, ops, 0, NULL));
    return true;
  }
  if (!strcmp(base, "min") || !strcmp(base, "max")) {
    uint32_t ops[2] = {ptr, hg_xlate_operand(x, LLVMGetOperand(call, 1))};
    hg_ir_atomic_op op = base[1] == 'i' ? (is_unsigned ? HG_ATOMIC_UMIN : HG_ATOMIC_SMIN)
                                        : (is_unsigned ? HG_ATOMIC_UMAX : HG_ATOMIC_SMAX);
    set_result(x, call, hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(op | ord), hg_value_type(x, ops[1]), 2, ops, 0, NULL));
    return true;
  }
  if (!strcmp(base, "inc") || !strcmp(base, "dec")) {
    if (!has_rt) hg_xlate_fail(x, "unsupported atomic");
    uint32_t ops[2] = {ptr, hg_xlate_const_int(x, rt, 1)};
    hg_ir_atomic_op op = base[0] == 'i' ? HG_ATOMIC_ADD : HG_ATOMIC_SUB;
    set_result(x, call, hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(op | ord), rt, 2, ops, 0, NULL));
    return true;
  }
  if (!strcmp(base, "cmpxchg")) {
    uint32_t ops[3] = {ptr, hg_xlate_operand(x, LLVMGetOperand(call, 1)), hg_xlate_operand(x, LLVMGetOperand(call, 2))};
    uint32_t fo = fail_order;
    set_result(x, call, hg_emit(x, HG_OP_CMPXCHG, ord, hg_value_type(x, ops[1]), 3, ops, 1, &fo));
    return true;
  }
  if (!strcmp(base, "init")) {
    uint32_t ops[2] = {ptr, hg_xlate_operand(x, LLVMGetOperand(call, 1))};
    unsigned align = hg_ir_scalar_bytes((hg_ir_scalar)hg_value_type(x, ops[1]).scalar);
    unsigned l2 = 0;
    while ((1u << l2) < align) l2++;
    hg_emit(x, HG_OP_STORE, (uint16_t)(l2 << 8), k_void, 2, ops, 0, NULL);
    return true;
  }
  if (!strcmp(base, "load")) {
    set_result(x, call, hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(HG_ATOMIC_LOAD | ord), rt, 1, &ptr, 0, NULL));
    return true;
  }
  if (!strcmp(base, "store")) {
    uint32_t ops[2] = {ptr, hg_xlate_operand(x, LLVMGetOperand(call, 1))};
    hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(HG_ATOMIC_STORE | ord), k_void, 2, ops, 0, NULL);
    return true;
  }
  if (!strncmp(base, "compare_exchange", 16)) {
    uint32_t exp_ptr = hg_xlate_operand(x, LLVMGetOperand(call, 1));
    uint32_t desired = hg_xlate_operand(x, LLVMGetOperand(call, 2));
    hg_ir_type t = hg_value_type(x, desired);
    unsigned l2 = 0;
    while ((1u << l2) < hg_ir_scalar_bytes((hg_ir_scalar)t.scalar)) l2++;
    uint32_t expected = hg_emit(x, HG_OP_LOAD, (uint16_t)(l2 << 8), t, 1, &exp_ptr, 0, NULL);
    uint32_t ops[3] = {ptr, expected, desired}, fo = fail_order;
    uint32_t old = hg_emit(x, HG_OP_CMPXCHG, ord, t, 3, ops, 1, &fo);
    uint32_t ok = cmp(x, HG_CMP_EQ, old, expected);
    uint32_t sel[3] = {ok, expected, old};
    uint32_t back = hg_emit(x, HG_OP_SELECT, 0, t, 3, sel, 0, NULL);
    uint32_t st[2] = {exp_ptr, back};
    hg_emit(x, HG_OP_STORE, (uint16_t)(l2 << 8), k_void, 2, st, 0, NULL);
    if (has_rt && rt.scalar != HG_IR_BOOL) ok = hg_emit(x, HG_OP_ZEXT, 0, rt, 1, &ok, 0, NULL);
    set_result(x, call, ok);
    return true;
  }
  if (!strcmp(base, "flag_test_and_set")) {
    hg_ir_type i32 = hg_ir_ty(HG_IR_I32, 1);
    uint32_t ops[2] = {ptr, hg_xlate_const_int(x, i32, 1)};
    uint32_t old = hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(HG_ATOMIC_XCHG | ord), i32, 2, ops, 0, NULL);
    uint32_t r = cmp(x, HG_CMP_NE, old, hg_xlate_const_int(x, i32, 0));
    if (has_rt && rt.scalar != HG_IR_BOOL) r = hg_emit(x, HG_OP_ZEXT, 0, rt, 1, &r, 0, NULL);
    set_result(x, call, r);
    return true;
  }
  if (!strcmp(base, "flag_clear")) {
    uint32_t ops[2] = {ptr, hg_xlate_const_int(x, hg_ir_ty(HG_IR_I32, 1), 0)};
    hg_emit(x, HG_OP_ATOMIC_RMW, (uint16_t)(HG_ATOMIC_STORE | ord), k_void, 2, ops, 0, NULL);
    return true;
  }
  hg_xlate_fail(x, "unsupported atomic function '%s'", d->name);
}

/* ---- synchronisation ------------------------------------------------------------------------ */
static bool xlate_sync(hg_xlate *x, LLVMValueRef call, const char *name, unsigned nargs) {
  if (!strcmp(name, "barrier") || !strcmp(name, "work_group_barrier")) {
    uint32_t flags = (uint32_t)const_arg(x, call, 0, "barrier flags");
    fence_flags_check(x, flags);
    hg_emit(x, HG_OP_BARRIER, 0, k_void, 0, NULL, 1, &flags);
    return true;
  }
  hg_ir_order order;
  hg_ir_scope scope = HG_SCOPE_WORK_GROUP;
  if (!strcmp(name, "mem_fence")) order = HG_ORDER_ACQ_REL;
  else if (!strcmp(name, "read_mem_fence")) order = HG_ORDER_ACQUIRE;
  else if (!strcmp(name, "write_mem_fence")) order = HG_ORDER_RELEASE;
  else if (!strcmp(name, "atomic_work_item_fence")) {
    order = order_arg(x, const_arg(x, call, 1, "memory_order"));
    scope = nargs > 2 ? scope_arg(x, const_arg(x, call, 2, "memory_scope")) : HG_SCOPE_DEVICE;
  } else {
    return false;
  }
  uint32_t flags = (uint32_t)const_arg(x, call, 0, "fence flags");
  fence_flags_check(x, flags);
  hg_emit(x, HG_OP_FENCE, (uint16_t)(order << 8 | scope << 12), k_void, 0, NULL, 1, &flags);
  return true;
}

/* ---- intrinsics ------------------------------------------------------------------------------ */
static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* bswap as shifts and masks */
static uint32_t bswap(hg_xlate *x, uint32_t a) {
  hg_ir_type t = hg_value_type(x, a);
  unsigned nbytes = bits_of(t) / 8;
  uint32_t r = HG_IR_NONE;
  for (unsigned k = 0; k < nbytes; k++) {
    int shift = (int)(8 * (nbytes - 1 - k)) - (int)(8 * k); /* byte k moves to byte nbytes-1-k */
    uint32_t byte = bin(x, HG_OP_AND, a, splat(x, a, 0xffULL << (8 * k)));
    uint32_t moved = shift >= 0 ? bin(x, HG_OP_SHL, byte, splat(x, a, (uint64_t)shift))
                                : bin(x, HG_OP_LSHR, byte, splat(x, a, (uint64_t)-shift));
    r = r == HG_IR_NONE ? moved : bin(x, HG_OP_OR, r, moved);
  }
  return r;
}

static uint32_t with_overflow(hg_xlate *x, const char *kind, uint32_t a, uint32_t b, uint32_t *ovf) {
  hg_ir_type t = hg_value_type(x, a);
  unsigned w = bits_of(t);
  if (!strcmp(kind, "uadd")) {
    uint32_t r = bin(x, HG_OP_ADD, a, b);
    *ovf = cmp(x, HG_CMP_ULT, r, a);
    return r;
  }
  if (!strcmp(kind, "usub")) {
    *ovf = cmp(x, HG_CMP_ULT, a, b);
    return bin(x, HG_OP_SUB, a, b);
  }
  if (!strcmp(kind, "sadd") || !strcmp(kind, "ssub")) {
    bool add = kind[1] == 'a';
    uint32_t r = bin(x, add ? HG_OP_ADD : HG_OP_SUB, a, b);
    /* add: sign of both operands differs from the result; sub: operands differ, result differs from a */
    uint32_t t1 = add ? bin(x, HG_OP_XOR, a, r) : bin(x, HG_OP_XOR, a, b);
    uint32_t t2 = add ? bin(x, HG_OP_XOR, b, r) : bin(x, HG_OP_XOR, a, r);
    *ovf = cmp(x, HG_CMP_SLT, bin(x, HG_OP_AND, t1, t2), splat(x, a, 0));
    return r;
  }
  bool sign = kind[0] == 's';
  uint32_t r = bin(x, HG_OP_MUL, a, b);
  if (w < 64) { /* exact product in twice the width */
    hg_ir_type wide = hg_ir_ty(w == 8 ? HG_IR_I16 : w == 16 ? HG_IR_I32 : HG_IR_I64, t.lanes);
    hg_ir_opcode ext = sign ? HG_OP_SEXT : HG_OP_ZEXT;
    uint32_t wa = hg_emit(x, ext, 0, wide, 1, &a, 0, NULL), wb = hg_emit(x, ext, 0, wide, 1, &b, 0, NULL);
    uint32_t wp = bin(x, HG_OP_MUL, wa, wb);
    uint32_t back = hg_emit(x, ext, 0, wide, 1, &r, 0, NULL);
    *ovf = cmp(x, HG_CMP_NE, wp, back);
  } else { /* 64-bit: the high half from mul_hi */
    uint32_t args[2] = {a, b};
    uint32_t hi = emit_builtin(x, "mul_hi", sign ? 0 : 3, t, 2, args);
    uint32_t expect = sign ? bin(x, HG_OP_ASHR, r, splat(x, r, 63)) : splat(x, r, 0);
    *ovf = cmp(x, HG_CMP_NE, hi, expect);
  }
  return r;
}

static bool xlate_intrinsic(hg_xlate *x, LLVMValueRef call, const char *name, unsigned nargs) {
  const char *n = name + 5; /* after "llvm." */
  if (starts(n, "lifetime.") || starts(n, "assume") || starts(n, "experimental.noalias.scope.decl") ||
      starts(n, "dbg.") || starts(n, "donothing") || starts(n, "sideeffect") || starts(n, "var.annotation") ||
      starts(n, "invariant.end"))
    return true;
  uint32_t a[4] = {0};
  hg_ir_type rt;
  bool has_rt = hg_xlate_type_ok(LLVMTypeOf(call), &rt);
  if (starts(n, "expect") || starts(n, "ptr.annotation") || starts(n, "canonicalize") || starts(n, "launder") ||
      starts(n, "strip.invariant")) {
    set_result(x, call, hg_xlate_operand(x, LLVMGetOperand(call, 0)));
    return true;
  }
  if (starts(n, "memcpy") || starts(n, "memset") || starts(n, "memmove")) {
    uint32_t ops[3] = {hg_xlate_operand(x, LLVMGetOperand(call, 0)), hg_xlate_operand(x, LLVMGetOperand(call, 1)),
                       hg_xlate_operand(x, LLVMGetOperand(call, 2))};
    hg_ir_type i64 = hg_ir_ty(HG_IR_I64, 1);
    if (hg_value_type(x, ops[2]).scalar != HG_IR_I64) ops[2] = hg_emit(x, HG_OP_ZEXT, 0, i64, 1, &ops[2], 0, NULL);
    /* memmove: the backends choose the direction at run time, so any length may overlap */
    hg_ir_opcode op = starts(n, "memset") ? HG_OP_MEMSET : starts(n, "memcpy") ? HG_OP_MEMCPY : HG_OP_MEMMOVE;
    hg_emit(x, op, 0, k_void, 3, ops, 0, NULL);
    return true;
  }
  if (!has_rt) {
    if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMStructTypeKind) hg_xlate_fail(x, "unsupported intrinsic '%s'", name);
  }
  for (unsigned i = 0; i < nargs && i < 4; i++) {
    LLVMValueRef op = LLVMGetOperand(call, i);
    hg_ir_type t;
    if (hg_xlate_type_ok(LLVMTypeOf(op), &t)) a[i] = hg_xlate_operand(x, op);
  }
  if (starts(n, "fmuladd.")) { /* "fused or not": both halves carry HG_FP_CONTRACT */
    uint32_t mo[2] = {a[0], a[1]};
    uint32_t p = hg_emit(x, HG_OP_FMUL, HG_FP_CONTRACT, hg_value_type(x, a[0]), 2, mo, 0, NULL);
    uint32_t ao[2] = {p, a[2]};
    set_result(x, call, hg_emit(x, HG_OP_FADD, HG_FP_CONTRACT, hg_value_type(x, a[0]), 2, ao, 0, NULL));
    return true;
  }
  static const struct { const char *llvm, *cl; unsigned nargs; uint32_t flags; } direct[] = {
      {"fabs.", "fabs", 1, 0},    {"fma.", "fma", 3, 0},        {"sqrt.", "sqrt", 1, 0},
      {"minnum.", "fmin", 2, 0},  {"maxnum.", "fmax", 2, 0},    {"copysign.", "copysign", 2, 0},
      {"floor.", "floor", 1, 0},  {"ceil.", "ceil", 1, 0},      {"trunc.", "trunc", 1, 0},
      {"rint.", "rint", 1, 0},    {"nearbyint.", "rint", 1, 0}, {"round.", "round", 1, 0},
      {"exp.", "exp", 1, 0},      {"exp2.", "exp2", 1, 0},      {"log.", "log", 1, 0},
      {"log2.", "log2", 1, 0},    {"log10.", "log10", 1, 0},    {"pow.", "pow", 2, 0},
      {"powi.", "pown", 2, 0},    {"sin.", "sin", 1, 0},        {"cos.", "cos", 1, 0},
      {"smax.", "max", 2, 0},     {"smin.", "min", 2, 0},       {"umax.", "max", 2, 3},
      {"umin.", "min", 2, 3},     {"abs.", "abs", 1, 0},        {"ctpop.", "popcount", 1, 0},
      {"ctlz.", "clz", 1, 0},     {"sadd.sat.", "add_sat", 2, 0}, {"uadd.sat.", "add_sat", 2, 3},
      {"ssub.sat.", "sub_sat", 2, 0}, {"usub.sat.", "sub_sat", 2, 3},
  };
  for (size_t i = 0; i < sizeof direct / sizeof *direct; i++) {
    if (!starts(n, direct[i].llvm)) continue;
    set_result(x, call, emit_builtin(x, direct[i].cl, direct[i].flags, rt, direct[i].nargs, a));
    return true;
  }
  if (starts(n, "cttz.")) { /* popcount(~x & (x - 1)) */
    uint32_t m1 = bin(x, HG_OP_SUB, a[0], splat(x, a[0], 1));
    uint32_t nx = bin(x, HG_OP_XOR, a[0], splat(x, a[0], ~0ULL));
    uint32_t v = bin(x, HG_OP_AND, nx, m1);
    set_result(x, call, emit_builtin(x, "popcount", 0, rt, 1, &v));
    return true;
  }
  if (starts(n, "bswap.")) {
    set_result(x, call, bswap(x, a[0]));
    return true;
  }
  if (starts(n, "fshl.") || starts(n, "fshr.")) {
    bool left = n[3] == 'l';
    unsigned w = bits_of(rt);
    if (LLVMGetOperand(call, 0) == LLVMGetOperand(call, 1)) { /* a rotate */
      uint32_t amt = left ? a[2] : bin(x, HG_OP_SUB, splat(x, a[2], 0), a[2]);
      uint32_t args[2] = {a[0], amt};
      set_result(x, call, emit_builtin(x, "rotate", 0, rt, 2, args)); /* bits: signedness irrelevant */
      return true;
    }
    uint32_t s = bin(x, HG_OP_AND, a[2], splat(x, a[2], w - 1));
    uint32_t inv = bin(x, HG_OP_SUB, splat(x, a[2], w - 1), s);
    uint32_t r;
    if (left) { /* (a << s) | ((b >> 1) >> (w - 1 - s)) */
      r = bin(x, HG_OP_OR, bin(x, HG_OP_SHL, a[0], s),
              bin(x, HG_OP_LSHR, bin(x, HG_OP_LSHR, a[1], splat(x, a[1], 1)), inv));
    } else { /* (b >> s) | ((a << 1) << (w - 1 - s)) */
      r = bin(x, HG_OP_OR, bin(x, HG_OP_LSHR, a[1], s),
              bin(x, HG_OP_SHL, bin(x, HG_OP_SHL, a[0], splat(x, a[0], 1)), inv));
    }
    set_result(x, call, r);
    return true;
  }
  static const char *const ovf_kinds[] = {"sadd", "uadd", "ssub", "usub", "smul", "umul"};
  for (size_t i = 0; i < 6; i++) {
    char pre[32];
    snprintf(pre, sizeof pre, "%s.with.overflow.", ovf_kinds[i]);
    if (!starts(n, pre)) continue;
    uint32_t ovf, r = with_overflow(x, ovf_kinds[i], a[0], a[1], &ovf);
    uint32_t elems[2] = {r, ovf};
    hg_agg_new(x, call, 2, elems);
    return true;
  }
  if (starts(n, "is.constant.")) {
    set_result(x, call, hg_xlate_const_int(x, hg_ir_ty(HG_IR_BOOL, 1), 0));
    return true;
  }
  hg_xlate_fail(x, "unsupported LLVM intrinsic '%s'", name);
}

/* ---- calls -------------------------------------------------------------------------------------- */
void hg_xlate_call(hg_xlate *x, LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!LLVMIsAFunction(callee)) hg_xlate_fail(x, "indirect calls are not supported");
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
  if (starts(name, "llvm.")) {
    xlate_intrinsic(x, call, name, nargs);
    return;
  }
  hg_ir_type rt;
  if (!hg_xlate_type_ok(LLVMTypeOf(call), &rt)) hg_xlate_fail(x, "call of '%s' returns an unsupported type", name);
  hg_xlate_type(x, LLVMTypeOf(call)); /* records fp64/fp16 use */
  uint32_t *args = hg_xlate_temp(x, (nargs + 1) * sizeof *args);

  uint32_t fidx;
  if (hg_ptr_map_get(&x->functions, callee, &fidx)) { /* a function of this module */
    for (unsigned i = 0; i < nargs; i++) args[i] = hg_xlate_operand(x, LLVMGetOperand(call, i));
    set_result(x, call, hg_emit(x, HG_OP_CALL, 0, rt, nargs, args, 1, &fidx));
    hg_xlate_temp_free(x, args);
    return;
  }
  hg_demangled d;
  const char *cl_name = NULL;
  if (!strcmp(name, "__translate_sampler_initializer")) {
    hg_xlate_temp_free(x, args);
    hg_xlate_image_call(x, call, name, NULL, nargs);
    return;
  }
  if (!strcmp(name, "printf")) {
    cl_name = "printf";
    memset(&d, 0, sizeof d);
  } else if (hg_demangle_opencl(name, &d) && hg_builtin_is_known(d.name)) {
    cl_name = d.name;
  }
  if (!cl_name) {
    hg_xlate_temp_free(x, args);
    hg_xlate_fail(x, "call to undefined function '%s'", name);
  }
  if (xlate_sync(x, call, cl_name, nargs) || xlate_atomic(x, call, &d, nargs) ||
      hg_xlate_image_call(x, call, name, cl_name, nargs)) {
    hg_xlate_temp_free(x, args);
    return;
  }
  /* signedness is recorded where it changes the result (integer, common and conversion
   * functions) and where it names the overload a vendor library defines (the vector data
   * functions' data and pointees: the SPIR back end calls vload4 of uchar as clang does);
   * elsewhere (get_global_id's uint, vload's size_t offset) the bits say it all */
  uint32_t flags = 0;
  hg_ir_builtin_family fam = hg_builtin_family_of(cl_name);
  if (fam == HG_IR_BF_INTEGER || fam == HG_IR_BF_COMMON || fam == HG_IR_BF_CONVERT || fam == HG_IR_BF_VECTOR_DATA)
    for (unsigned i = 0; i < d.num_params && i < 16; i++)
      if (d.params[i].is_unsigned && (d.params[i].pointer == 0 || fam == HG_IR_BF_VECTOR_DATA)) flags |= 1u << i;
  for (unsigned i = 0; i < nargs; i++) args[i] = hg_xlate_operand(x, LLVMGetOperand(call, i));
  set_result(x, call, emit_builtin(x, cl_name, flags, rt, nargs, args));
  hg_xlate_temp_free(x, args);
}
