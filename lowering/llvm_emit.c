/* hetGPU IR function bodies as LLVM IR: types, values, the target-neutral instructions, phis and
 * globals (lowering/llvm_emit.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "lowering/llvm_emit.h"

void hg_llvm_emit_init(hg_llvm_emit *e, LLVMContextRef C, LLVMModuleRef M, LLVMBuilderRef B) {
  e->C = C;
  e->M = M;
  e->B = B;
  e->i1 = LLVMInt1TypeInContext(C);
  e->i8 = LLVMInt8TypeInContext(C);
  e->i16 = LLVMInt16TypeInContext(C);
  e->i32 = LLVMInt32TypeInContext(C);
  e->i64 = LLVMInt64TypeInContext(C);
  e->f16 = LLVMHalfTypeInContext(C);
  e->f32 = LLVMFloatTypeInContext(C);
  e->f64 = LLVMDoubleTypeInContext(C);
  e->voidt = LLVMVoidTypeInContext(C);
}

LLVMValueRef hg_llvm_fail(hg_llvm_emit *e, const char *fmt, ...) {
  if (!e->failed) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err, e->err_size, fmt, ap);
    va_end(ap);
  }
  e->failed = true;
  return NULL;
}

/* The target's address space of an IR one. */
static unsigned target_addrspace(const hg_llvm_emit *e, unsigned addrspace) {
  if (e->flat)
    return 0;
  return e->addrspaces && addrspace <= HG_AS_GENERIC ? e->addrspaces[addrspace] : addrspace;
}

LLVMTypeRef hg_llvm_scalar_type(hg_llvm_emit *e, hg_ir_scalar s, unsigned addrspace) {
  switch (s) {
  case HG_IR_BOOL: return e->i1;
  case HG_IR_I8: return e->i8;
  case HG_IR_I16: return e->i16;
  case HG_IR_I32: return e->i32;
  case HG_IR_I64: return e->i64;
  case HG_IR_F16: return e->f16;
  case HG_IR_F32: return e->f32;
  case HG_IR_F64: return e->f64;
  case HG_IR_PTR: return LLVMPointerTypeInContext(e->C, target_addrspace(e, addrspace));
  /* the convention of a target that lowers images (RISC-V, docs/images.md): an image is the
   * address of its descriptor in global memory, a sampler its i32 of HG_SAMPLER_* bits; SPIR
   * and PTX refuse both (hg_llvm_unit_check) */
  case HG_IR_IMAGE: return LLVMPointerTypeInContext(e->C, target_addrspace(e, HG_AS_GLOBAL));
  case HG_IR_SAMPLER: return e->i32;
  default: return e->voidt;
  }
}

LLVMTypeRef hg_llvm_type(hg_llvm_emit *e, hg_ir_type t) {
  LLVMTypeRef s = hg_llvm_scalar_type(e, (hg_ir_scalar)t.scalar, t.addrspace);
  return t.lanes > 1 ? LLVMVectorType(s, t.lanes) : s;
}

static LLVMValueRef const_lane(hg_llvm_emit *e, hg_ir_type t, uint64_t w) {
  switch (t.scalar) {
  case HG_IR_F16: return LLVMConstBitCast(LLVMConstInt(e->i16, w, 0), e->f16);
  case HG_IR_F32: return LLVMConstBitCast(LLVMConstInt(e->i32, w, 0), e->f32);
  case HG_IR_F64: return LLVMConstBitCast(LLVMConstInt(e->i64, w, 0), e->f64);
  case HG_IR_PTR: {
    LLVMTypeRef pt = hg_llvm_scalar_type(e, HG_IR_PTR, t.addrspace);
    return w ? LLVMConstIntToPtr(LLVMConstInt(e->i64, w, 0), pt) : LLVMConstNull(pt);
  }
  default: return LLVMConstInt(hg_llvm_scalar_type(e, (hg_ir_scalar)t.scalar, 0), w, 0);
  }
}

LLVMValueRef hg_llvm_value(hg_llvm_emit *e, uint32_t v) {
  if (v >= e->f->num_values)
    return hg_llvm_fail(e, "value %u out of range", v);
  const hg_ir_value *val = &e->f->values[v];
  switch (val->kind) {
  case HG_VAL_PARAM: return LLVMGetParam(e->fn, e->param_base + val->index);
  case HG_VAL_INST:
    if (!e->vals[v])
      return hg_llvm_fail(e, "value %%%u used before its definition was lowered", v);
    return e->vals[v];
  case HG_VAL_UNDEF: return LLVMGetUndef(hg_llvm_type(e, val->type));
  case HG_VAL_CONST: {
    unsigned n = val->type.lanes ? val->type.lanes : 1;
    if (n == 1)
      return const_lane(e, val->type, e->f->const_words[val->index]);
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < n && i < 16; i++)
      lanes[i] = const_lane(e, val->type, e->f->const_words[val->index + i]);
    return LLVMConstVector(lanes, n);
  }
  case HG_VAL_GLOBAL: return e->hooks->global(e, val->index);
  }
  return hg_llvm_fail(e, "bad value kind");
}

LLVMValueRef hg_llvm_intrinsic(hg_llvm_emit *e, const char *name, LLVMTypeRef *over, unsigned nover,
                               LLVMValueRef *args, unsigned nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id)
    return hg_llvm_fail(e, "no intrinsic %s", name);
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(e->M, id, over, nover);
  LLVMTypeRef ft = LLVMIntrinsicGetType(e->C, id, over, nover);
  return LLVMBuildCall2(e->B, ft, fn, args, nargs, "");
}

LLVMValueRef hg_llvm_call_named(hg_llvm_emit *e, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n,
                                LLVMValueRef *callee, bool *declared) {
  LLVMTypeRef pt[16];
  if (n > 16)
    return hg_llvm_fail(e, "%s: too many arguments", name);
  for (unsigned i = 0; i < n; i++)
    pt[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef ft = LLVMFunctionType(ret, pt, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(e->M, name);
  *declared = !fn;
  if (!fn)
    fn = LLVMAddFunction(e->M, name, ft);
  *callee = fn;
  return LLVMBuildCall2(e->B, ft, fn, args, n, "");
}

static unsigned inst_align(const hg_ir_inst *in) { return 1u << ((in->flags >> 8) & 0xF); }

static LLVMAtomicOrdering ordering(unsigned o) {
  switch (o) {
  case HG_ORDER_ACQUIRE: return LLVMAtomicOrderingAcquire;
  case HG_ORDER_RELEASE: return LLVMAtomicOrderingRelease;
  case HG_ORDER_ACQ_REL: return LLVMAtomicOrderingAcquireRelease;
  case HG_ORDER_SEQ_CST: return LLVMAtomicOrderingSequentiallyConsistent;
  default: return LLVMAtomicOrderingMonotonic;
  }
}

static LLVMIntPredicate ipred(unsigned c) {
  static const LLVMIntPredicate p[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntULT, LLVMIntULE, LLVMIntUGT,
                                       LLVMIntUGE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  return p[c < 10 ? c : 0];
}

static LLVMRealPredicate fpred(unsigned c) {
  static const LLVMRealPredicate p[] = {LLVMRealOEQ, LLVMRealONE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
                                        LLVMRealOGE, LLVMRealUEQ, LLVMRealUNE, LLVMRealULT, LLVMRealULE,
                                        LLVMRealUGT, LLVMRealUGE, LLVMRealORD, LLVMRealUNO, LLVMRealPredicateTrue,
                                        LLVMRealPredicateFalse};
  return c >= 10 && c < 26 ? p[c - 10] : LLVMRealPredicateFalse;
}

static unsigned atomic_bytes(hg_ir_type t) { return t.scalar == HG_IR_PTR ? 8 : hg_ir_scalar_bytes((hg_ir_scalar)t.scalar); }

static LLVMValueRef lower_atomic(hg_llvm_emit *e, const hg_ir_inst *in, LLVMValueRef p, LLVMValueRef v) {
  unsigned op = in->flags & 0xFF, ord = (in->flags >> 8) & 0xF;
  if (op == HG_ATOMIC_LOAD) {
    LLVMValueRef l = LLVMBuildLoad2(e->B, hg_llvm_type(e, in->type), p, "");
    LLVMSetOrdering(l, ordering(ord == HG_ORDER_RELEASE || ord == HG_ORDER_ACQ_REL ? HG_ORDER_ACQUIRE : ord));
    LLVMSetAlignment(l, atomic_bytes(in->type));
    return l;
  }
  if (!v)
    return hg_llvm_fail(e, "atomic without a value");
  if (op == HG_ATOMIC_STORE) {
    LLVMValueRef s = LLVMBuildStore(e->B, v, p);
    LLVMSetOrdering(s, ordering(ord == HG_ORDER_ACQUIRE || ord == HG_ORDER_ACQ_REL ? HG_ORDER_RELEASE : ord));
    LLVMSetAlignment(s, atomic_bytes(e->f->values[in->operands[1]].type));
    return s;
  }
  static const LLVMAtomicRMWBinOp ops[] = {LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpSub,
                                           LLVMAtomicRMWBinOpAnd,  LLVMAtomicRMWBinOpOr,  LLVMAtomicRMWBinOpXor,
                                           LLVMAtomicRMWBinOpMin,  LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMin,
                                           LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpFAdd};
  if (op > HG_ATOMIC_FADD)
    return hg_llvm_fail(e, "bad atomic op %u", op);
  return LLVMBuildAtomicRMW(e->B, ops[op], p, v, ordering(ord), 0);
}

/* A contractable FADD/FSUB with its FMUL operand: llvm.fmuladd (the FMUL's own value is left
 * unused and optimised away). a*b - c is fmuladd(a, b, -c) and c - a*b is fmuladd(-a, b, c):
 * negation is exact, so these are the same fused or not. */
static LLVMValueRef lower_contracted(hg_llvm_emit *e, const hg_ir_inst *in, const hg_ir_inst *mul, LLVMTypeRef T) {
  bool mul_first = in->operands[0] == mul->id;
  LLVMValueRef x = hg_llvm_value(e, mul->operands[0]), y = hg_llvm_value(e, mul->operands[1]);
  LLVMValueRef z = hg_llvm_value(e, in->operands[mul_first ? 1 : 0]);
  if (e->failed)
    return NULL;
  if (in->op == HG_OP_FSUB) {
    if (mul_first)
      z = LLVMBuildFNeg(e->B, z, "");
    else
      x = LLVMBuildFNeg(e->B, x, "");
  }
  LLVMValueRef args[3] = {x, y, z};
  return hg_llvm_intrinsic(e, "llvm.fmuladd", &T, 1, args, 3);
}

/* The instruction that defines value v, NULL for a parameter, constant or global. */
static const hg_ir_inst *def_of(const hg_llvm_emit *e, uint32_t v) {
  return v < e->f->num_values && e->f->values[v].kind == HG_VAL_INST ? e->defs[v] : NULL;
}

/* Whether value v is a scalar integer constant; its value in *c. */
static bool const_int(const hg_llvm_emit *e, uint32_t v, uint64_t *c) {
  const hg_ir_value *val = v < e->f->num_values ? &e->f->values[v] : NULL;
  if (!val || val->kind != HG_VAL_CONST || val->type.lanes > 1 || val->type.scalar == HG_IR_PTR)
    return false;
  *c = e->f->const_words[val->index];
  return true;
}

/* When value v is an i64 scalar `op` of a value and an integer constant (nsw where the PTRADD is
 * inbounds): the other operand's value index, the constant in *c; HG_IR_NONE otherwise. */
static uint32_t with_constant(const hg_llvm_emit *e, uint32_t v, hg_ir_opcode op, bool inbounds, uint64_t *c) {
  const hg_ir_inst *in = def_of(e, v);
  if (!in || in->op != op || in->num_operands != 2 || in->type.scalar != HG_IR_I64 || in->type.lanes > 1 ||
      (inbounds && !(in->flags & HG_WRAP_NSW)))
    return HG_IR_NONE;
  return const_int(e, in->operands[1], c) ? in->operands[0] : const_int(e, in->operands[0], c) ? in->operands[1] : HG_IR_NONE;
}

/* The element type of a getelementptr for offset value v when v is an i64 index times 2, 4, 8
 * or 16 (not wrapping where the PTRADD is inbounds: as LLVM's inbounds index scaling); the
 * index in *index. NULL otherwise. */
static LLVMTypeRef scaled_index(hg_llvm_emit *e, uint32_t v, bool inbounds, LLVMValueRef *index) {
  uint64_t c = 0;
  uint32_t x = with_constant(e, v, HG_OP_MUL, inbounds, &c);
  if (x == HG_IR_NONE || (c != 2 && c != 4 && c != 8 && c != 16))
    return NULL;
  const hg_ir_inst *sum = def_of(e, x);
  if (sum && (sum->op == HG_OP_SEXT || sum->op == HG_OP_ZEXT)) /* an int index: a[i + 33] */
    sum = def_of(e, sum->operands[0]);
  if (e->hooks->scaled_sums_only && !(sum && sum->op == HG_OP_ADD))
    return NULL;
  if (!(*index = hg_llvm_value(e, x)))
    return NULL;
  return c == 2 ? e->i16 : c == 4 ? e->i32 : c == 8 ? e->i64 : LLVMVectorType(e->i32, 4);
}

/* Element `index` + `bytes` / its size of a module global, where `base` is the global (an
 * [n x i8] of whole elements of type elem) or a constant byte offset into it, as
 * [n / size x elem] @global, 0, i (the hooks' global_arrays); NULL where it is not one. */
static LLVMValueRef global_element(hg_llvm_emit *e, LLVMValueRef base, LLVMTypeRef elem, LLVMValueRef index,
                                   uint64_t bytes, bool inbounds) {
  if (LLVMGetTypeKind(elem) != LLVMIntegerTypeKind)
    return NULL;
  if (LLVMIsAConstantExpr(base) && LLVMGetConstOpcode(base) == LLVMGetElementPtr &&
      LLVMIsAGlobalVariable(LLVMGetOperand(base, 0))) { /* i8 @g, offset or [n x i8] @g, 0, offset */
    int n = LLVMGetNumOperands(base);
    LLVMValueRef first = LLVMGetOperand(base, 1), offset = LLVMGetOperand(base, n - 1);
    bool bytewise = n == 2 ? LLVMGetGEPSourceElementType(base) == e->i8
                           : n == 3 && LLVMGetGEPSourceElementType(base) == LLVMGlobalGetValueType(LLVMGetOperand(base, 0)) &&
                                 LLVMIsAConstantInt(first) && !LLVMConstIntGetZExtValue(first);
    if (!bytewise || !LLVMIsAConstantInt(offset))
      return NULL;
    bytes += LLVMConstIntGetZExtValue(offset);
    base = LLVMGetOperand(base, 0);
  }
  if (!LLVMIsAGlobalVariable(base))
    return NULL;
  LLVMTypeRef array = LLVMGlobalGetValueType(base);
  uint64_t size = LLVMGetIntTypeWidth(elem) / 8;
  if (LLVMGetTypeKind(array) != LLVMArrayTypeKind || LLVMGetElementType(array) != e->i8 ||
      LLVMGetArrayLength(array) % size || bytes % size)
    return NULL;
  if (bytes)
    index = LLVMBuildAdd(e->B, index, LLVMConstInt(LLVMTypeOf(index), bytes / size, 0), "");
  LLVMValueRef at[2] = {LLVMConstInt(e->i64, 0, 0), index};
  LLVMTypeRef elements = LLVMArrayType(elem, (unsigned)(LLVMGetArrayLength(array) / size));
  return inbounds ? LLVMBuildInBoundsGEP2(e->B, elements, base, at, 2, "") : LLVMBuildGEP2(e->B, elements, base, at, 2, "");
}

/* base + a byte offset. An offset that is a scaled index (scaled_index) becomes a getelementptr
 * over elements of that size, as clang writes array indexing. LLVM then keeps the index as it is
 * and addresses with a scale, where it rewrites a byte offset (x & m) * 4 as (x * 4) & (m * 4)
 * and keeps x * 4 in a second induction variable (bench's hashint on PoCL: one more instruction
 * a round than PoCL's own build); NVPTX's NaryReassociate finds a[i]'s address in a[i + j]'s
 * (bench's reduce: one 64-bit add fewer in its loop, as NVVM's PTX). A scaled index plus a
 * constant (a vector's lane: &v[i].y) is that getelementptr and then the constant in bytes, so
 * that the lanes' addresses are the first one's plus a constant: SLP vectorisers (PoCL's) then
 * load the vector whole, where a byte sum for the other lanes beside an element getelementptr
 * for the first kept CLBlast's float4 saxpy in 1+1+2 pieces. The element step is not inbounds
 * there: the IR's inbounds speaks of the result, and &v[i] alone may lie outside the object. */
static LLVMValueRef lower_ptradd(hg_llvm_emit *e, const hg_ir_inst *in, LLVMValueRef base, LLVMValueRef off) {
  bool inbounds = in->flags & HG_WRAP_INBOUNDS;
  LLVMValueRef index = NULL;
  LLVMTypeRef elem = scaled_index(e, in->operands[1], inbounds, &index);
  uint64_t lane = 0;
  uint32_t scaled = elem ? HG_IR_NONE : with_constant(e, in->operands[1], HG_OP_ADD, inbounds, &lane);
  if (scaled != HG_IR_NONE)
    elem = scaled_index(e, scaled, inbounds, &index);
  if (e->failed)
    return NULL;
  LLVMValueRef element = elem && e->hooks->global_arrays ? global_element(e, base, elem, index, lane, inbounds) : NULL;
  if (element)
    return element;
  if (elem && scaled != HG_IR_NONE) {
    base = LLVMBuildGEP2(e->B, elem, base, &index, 1, "");
    elem = e->i8;
    index = LLVMConstInt(e->i64, lane, 0);
  }
  if (!elem)
    elem = e->i8, index = off;
  return inbounds ? LLVMBuildInBoundsGEP2(e->B, elem, base, &index, 1, "") : LLVMBuildGEP2(e->B, elem, base, &index, 1, "");
}

/* A shift left. LLVM 15's C API cannot set nsw or nuw on a shl, so one that carries a wrap flag
 * and shifts a scalar by a constant below the width less one is built as the multiply by that
 * power of two with the flag, which instcombine turns back into the flagged shl. Without the flag
 * LLVM cannot widen an index (lid * 2) * 17 + j sign-extended into the i64 induction its
 * addresses step by: PoCL's build of CLBlast's XgemmDirectNN recomputed and sign-extended its
 * __local index at every store of the tile loop where its own build of the source does not. */
static LLVMValueRef lower_shl(hg_llvm_emit *e, const hg_ir_inst *in, LLVMValueRef a, LLVMValueRef b) {
  uint64_t amount = 0;
  if (!(in->flags & (HG_WRAP_NSW | HG_WRAP_NUW)) || in->type.lanes > 1 || !const_int(e, in->operands[1], &amount) ||
      amount + 1 >= LLVMGetIntTypeWidth(LLVMTypeOf(a)))
    return LLVMBuildShl(e->B, a, b, "");
  LLVMValueRef power = LLVMConstInt(LLVMTypeOf(a), 1ull << amount, 0);
  return in->flags & HG_WRAP_NSW ? LLVMBuildNSWMul(e->B, a, power, "") : LLVMBuildNUWMul(e->B, a, power, "");
}

static LLVMValueRef lower_inst(hg_llvm_emit *e, const hg_ir_inst *in) {
  LLVMBuilderRef B = e->B;
  bool handled = false;
  LLVMValueRef own = e->hooks->inst(e, in, &handled);
  if (handled)
    return own;
  LLVMTypeRef T = in->type.scalar == HG_IR_VOID ? e->voidt : hg_llvm_type(e, in->type);
  if ((in->op == HG_OP_FADD || in->op == HG_OP_FSUB) && in->id < e->f->num_values && e->contr.fused_mul &&
      e->contr.fused_mul[in->id])
    return lower_contracted(e, in, e->contr.fused_mul[in->id], T);
  LLVMValueRef a = NULL, b = NULL, c = NULL;
  if (in->op != HG_OP_PHI && in->op != HG_OP_SWITCH) {
    if (in->num_operands > 0)
      a = hg_llvm_value(e, in->operands[0]);
    if (in->num_operands > 1)
      b = hg_llvm_value(e, in->operands[1]);
    if (in->num_operands > 2)
      c = hg_llvm_value(e, in->operands[2]);
    if (e->failed)
      return NULL;
  }
  switch (in->op) {
  /* LLVM 15's C API builds nsw or nuw, not both: nsw then (dropping a flag only allows less) */
  case HG_OP_ADD:
    return in->flags & HG_WRAP_NSW   ? LLVMBuildNSWAdd(B, a, b, "")
           : in->flags & HG_WRAP_NUW ? LLVMBuildNUWAdd(B, a, b, "")
                                     : LLVMBuildAdd(B, a, b, "");
  case HG_OP_SUB:
    return in->flags & HG_WRAP_NSW   ? LLVMBuildNSWSub(B, a, b, "")
           : in->flags & HG_WRAP_NUW ? LLVMBuildNUWSub(B, a, b, "")
                                     : LLVMBuildSub(B, a, b, "");
  case HG_OP_MUL:
    return in->flags & HG_WRAP_NSW   ? LLVMBuildNSWMul(B, a, b, "")
           : in->flags & HG_WRAP_NUW ? LLVMBuildNUWMul(B, a, b, "")
                                     : LLVMBuildMul(B, a, b, "");
  case HG_OP_SDIV: return LLVMBuildSDiv(B, a, b, "");
  case HG_OP_UDIV: return LLVMBuildUDiv(B, a, b, "");
  case HG_OP_SREM: return LLVMBuildSRem(B, a, b, "");
  case HG_OP_UREM: return LLVMBuildURem(B, a, b, "");
  case HG_OP_SHL: return lower_shl(e, in, a, b);
  case HG_OP_LSHR: return LLVMBuildLShr(B, a, b, "");
  case HG_OP_ASHR: return LLVMBuildAShr(B, a, b, "");
  case HG_OP_AND: return LLVMBuildAnd(B, a, b, "");
  case HG_OP_OR: return LLVMBuildOr(B, a, b, "");
  case HG_OP_XOR: return LLVMBuildXor(B, a, b, "");
  case HG_OP_FADD: return LLVMBuildFAdd(B, a, b, "");
  case HG_OP_FSUB: return LLVMBuildFSub(B, a, b, "");
  case HG_OP_FMUL: return LLVMBuildFMul(B, a, b, "");
  case HG_OP_FDIV: return LLVMBuildFDiv(B, a, b, "");
  case HG_OP_FREM: return LLVMBuildFRem(B, a, b, "");
  case HG_OP_FNEG: return LLVMBuildFNeg(B, a, "");
  case HG_OP_ICMP: return LLVMBuildICmp(B, ipred(in->flags), a, b, "");
  case HG_OP_FCMP: return LLVMBuildFCmp(B, fpred(in->flags), a, b, "");
  case HG_OP_SELECT: return LLVMBuildSelect(B, a, b, c, "");
  case HG_OP_TRUNC: return LLVMBuildTrunc(B, a, T, "");
  case HG_OP_ZEXT: return LLVMBuildZExt(B, a, T, "");
  case HG_OP_SEXT: return LLVMBuildSExt(B, a, T, "");
  case HG_OP_FPTRUNC: return LLVMBuildFPTrunc(B, a, T, "");
  case HG_OP_FPEXT: return LLVMBuildFPExt(B, a, T, "");
  case HG_OP_FPTOUI: return LLVMBuildFPToUI(B, a, T, "");
  case HG_OP_FPTOSI: return LLVMBuildFPToSI(B, a, T, "");
  case HG_OP_UITOFP: return LLVMBuildUIToFP(B, a, T, "");
  case HG_OP_SITOFP: return LLVMBuildSIToFP(B, a, T, "");
  case HG_OP_PTRTOINT: return LLVMBuildPtrToInt(B, a, T, "");
  case HG_OP_INTTOPTR: return LLVMBuildIntToPtr(B, a, T, "");
  case HG_OP_BITCAST: return LLVMBuildBitCast(B, a, T, "");
  case HG_OP_ADDRSPACECAST: return LLVMTypeOf(a) == T ? a : LLVMBuildAddrSpaceCast(B, a, T, "");
  case HG_OP_EXTRACT: return LLVMBuildExtractElement(B, a, b, "");
  case HG_OP_INSERT: return LLVMBuildInsertElement(B, a, b, c, "");
  case HG_OP_SHUFFLE: {
    LLVMValueRef mask[16];
    if (!in->num_imm || in->num_imm > 16)
      return hg_llvm_fail(e, "bad shuffle");
    for (uint32_t i = 0; i < in->num_imm; i++)
      mask[i] = in->imm[i] == HG_IR_NONE ? LLVMGetUndef(e->i32) : LLVMConstInt(e->i32, in->imm[i], 0);
    return LLVMBuildShuffleVector(B, a, b, LLVMConstVector(mask, in->num_imm), "");
  }
  case HG_OP_PTRADD: return lower_ptradd(e, in, a, b);
  case HG_OP_LOAD: {
    LLVMValueRef l = LLVMBuildLoad2(B, T, a, "");
    LLVMSetAlignment(l, inst_align(in));
    if (in->flags & HG_MEM_VOLATILE)
      LLVMSetVolatile(l, 1);
    return l;
  }
  case HG_OP_STORE: {
    LLVMValueRef s = LLVMBuildStore(B, b, a);
    LLVMSetAlignment(s, inst_align(in));
    if (in->flags & HG_MEM_VOLATILE)
      LLVMSetVolatile(s, 1);
    return s;
  }
  case HG_OP_MEMCPY: return LLVMBuildMemCpy(B, a, inst_align(in), b, inst_align(in), c);
  case HG_OP_MEMSET: return LLVMBuildMemSet(B, a, b, c, inst_align(in));
  case HG_OP_MEMMOVE: return LLVMBuildMemMove(B, a, inst_align(in), b, inst_align(in), c);
  case HG_OP_ATOMIC_RMW: return lower_atomic(e, in, a, b);
  case HG_OP_CMPXCHG: {
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(B, a, b, c, LLVMAtomicOrderingSequentiallyConsistent,
                                            LLVMAtomicOrderingSequentiallyConsistent, 0);
    return LLVMBuildExtractValue(B, x, 0, "");
  }
  case HG_OP_FENCE:
    if (((in->flags >> 8) & 0xF) == HG_ORDER_RELAXED)
      return LLVMGetUndef(e->i32); /* a relaxed fence orders nothing */
    return LLVMBuildFence(B, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  case HG_OP_PHI: return LLVMBuildPhi(B, T, "");
  case HG_OP_BR: return LLVMBuildBr(B, e->bbs[in->imm[0]]);
  case HG_OP_CONDBR: return LLVMBuildCondBr(B, a, e->bbs[in->imm[0]], e->bbs[in->imm[1]]);
  case HG_OP_SWITCH: {
    LLVMValueRef sw = LLVMBuildSwitch(B, hg_llvm_value(e, in->operands[0]), e->bbs[in->imm[0]], in->num_operands - 1);
    for (uint32_t i = 1; i < in->num_operands && !e->failed; i++) {
      LLVMValueRef k = hg_llvm_value(e, in->operands[i]);
      if (k)
        LLVMAddCase(sw, k, e->bbs[in->imm[i]]);
    }
    return sw;
  }
  case HG_OP_RET: return a ? LLVMBuildRet(B, a) : LLVMBuildRetVoid(B);
  case HG_OP_UNREACHABLE: return LLVMBuildUnreachable(B);
  case HG_OP_SLOT:
  case HG_OP_CALL:
  case HG_OP_CALL_BUILTIN:
  case HG_OP_BARRIER: break;
  }
  return hg_llvm_fail(e, "opcode %u not supported", in->op);
}

static void body_free(hg_llvm_emit *e) {
  hg_ir_contraction_free(&e->contr);
  free(e->vals);
  free(e->defs);
  e->defs = NULL;
  free(e->bbs);
  free(e->last_bbs);
  e->vals = NULL;
  e->bbs = e->last_bbs = NULL;
}

bool hg_llvm_emit_body(hg_llvm_emit *e) {
  const hg_ir_function *f = e->f;
  hg_ir_cfg cfg;
  if (hg_ir_cfg_build(f, &cfg))
    return !hg_llvm_fail(e, "%s: no control-flow graph", f->name);
  e->vals = calloc(f->num_values ? f->num_values : 1, sizeof *e->vals);
  e->defs = hg_ir_defs(f);
  e->bbs = calloc(f->num_blocks ? f->num_blocks : 1, sizeof *e->bbs);
  e->last_bbs = calloc(f->num_blocks ? f->num_blocks : 1, sizeof *e->last_bbs);
  memset(&e->contr, 0, sizeof e->contr);
  if (!e->vals || !e->defs || !e->bbs || !e->last_bbs || !hg_ir_find_contractions(f, &e->contr)) {
    hg_ir_cfg_free(&cfg);
    body_free(e);
    return !hg_llvm_fail(e, "out of memory");
  }
  /* the entry block is the back end's (allocas); IR block 0 follows it */
  LLVMBasicBlockRef entry = LLVMGetLastBasicBlock(e->fn);
  for (uint32_t b = 0; b < f->num_blocks; b++)
    e->bbs[b] = LLVMAppendBasicBlockInContext(e->C, e->fn, "");
  if (entry) {
    LLVMPositionBuilderAtEnd(e->B, entry);
    LLVMBuildBr(e->B, e->bbs[0]);
  }
  for (uint32_t r = 0; r < cfg.nrpo && !e->failed; r++) {
    uint32_t b = cfg.rpo[r];
    LLVMPositionBuilderAtEnd(e->B, e->bbs[b]);
    const hg_ir_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->num_insts && !e->failed; i++) {
      LLVMValueRef v = lower_inst(e, &bl->insts[i]);
      if (bl->insts[i].id != HG_IR_NONE && bl->insts[i].id < f->num_values)
        e->vals[bl->insts[i].id] = v;
    }
    e->last_bbs[b] = LLVMGetInsertBlock(e->B); /* builtins may have split the block */
  }
  for (uint32_t b = 0; b < f->num_blocks && !e->failed; b++) {
    if (!hg_ir_cfg_reachable(&cfg, b)) {
      LLVMPositionBuilderAtEnd(e->B, e->bbs[b]);
      LLVMBuildUnreachable(e->B);
      continue;
    }
    const hg_ir_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->num_insts && bl->insts[i].op == HG_OP_PHI && !e->failed; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      for (uint32_t q = 0; q < in->num_operands; q++) {
        if (!hg_ir_cfg_reachable(&cfg, in->imm[q]))
          continue;
        /* incoming values are built where the edge leaves: before that block's terminator */
        LLVMBasicBlockRef from = e->last_bbs[in->imm[q]];
        LLVMPositionBuilderBefore(e->B, LLVMGetBasicBlockTerminator(from));
        LLVMValueRef v = hg_llvm_value(e, in->operands[q]);
        if (v)
          LLVMAddIncoming(e->vals[in->id], &v, &from, 1);
      }
    }
  }
  hg_ir_cfg_free(&cfg);
  body_free(e);
  return !e->failed;
}

/* A global's initializer: its bytes; with relocations, a packed struct of the bytes between
 * them and at each the address of another global (plus the addend). */
static LLVMValueRef global_init(hg_llvm_emit *e, const hg_ir_global *gl, LLVMValueRef *globals) {
  if (!gl->has_init)
    return LLVMConstNull(LLVMArrayType(e->i8, gl->size));
  if (!gl->num_relocs) /* the byte array itself */
    return LLVMConstStringInContext(e->C, (const char *)gl->init, gl->size, 1);
  LLVMValueRef *parts = malloc((2 * gl->num_relocs + 1) * sizeof *parts);
  if (!parts)
    return hg_llvm_fail(e, "out of memory");
  unsigned np = 0;
  uint32_t at = 0;
  for (uint32_t r = 0; r <= gl->num_relocs; r++) {
    uint32_t end = r < gl->num_relocs ? gl->relocs[r].offset : gl->size;
    if (end > at)
      parts[np++] = LLVMConstStringInContext(e->C, (const char *)gl->init + at, end - at, 1);
    if (r == gl->num_relocs)
      break;
    const struct hg_ir_reloc *rl = &gl->relocs[r];
    if (rl->target >= e->m->num_globals || !globals[rl->target]) {
      free(parts);
      return hg_llvm_fail(e, "global %s points to a __local variable", gl->name);
    }
    LLVMValueRef off = LLVMConstInt(e->i64, (uint64_t)rl->addend, 1);
    parts[np++] = LLVMConstAdd(LLVMConstPtrToInt(globals[rl->target], e->i64), off);
    at = end + 8;
  }
  LLVMValueRef init = LLVMConstStructInContext(e->C, parts, np, 1);
  free(parts);
  return init;
}

bool hg_llvm_emit_globals(hg_llvm_emit *e, LLVMValueRef *out, LLVMLinkage linkage) {
  const hg_ir_module *m = e->m;
  /* every global first (initializers point to each other), at the type its initializer has */
  for (uint32_t i = 0; i < m->num_globals; i++) {
    const hg_ir_global *gl = &m->globals[i];
    out[i] = NULL;
    if (gl->addrspace == HG_AS_LOCAL)
      continue;
    LLVMTypeRef t = LLVMArrayType(e->i8, gl->size);
    if (gl->has_init && gl->num_relocs) {
      LLVMTypeRef *fields = malloc((2 * gl->num_relocs + 1) * sizeof *fields);
      if (!fields)
        return !hg_llvm_fail(e, "out of memory");
      unsigned nf = 0;
      uint32_t at = 0;
      for (uint32_t r = 0; r <= gl->num_relocs; r++) {
        uint32_t end = r < gl->num_relocs ? gl->relocs[r].offset : gl->size;
        if (end > at)
          fields[nf++] = LLVMArrayType(e->i8, end - at);
        if (r == gl->num_relocs)
          break;
        fields[nf++] = e->i64;
        at = end + 8;
      }
      t = LLVMStructTypeInContext(e->C, fields, nf, 1);
      free(fields);
    }
    char name[48];
    snprintf(name, sizeof name, "hg_global_%u", i);
    out[i] = LLVMAddGlobalInAddressSpace(e->M, t, name, target_addrspace(e, gl->addrspace));
    LLVMSetLinkage(out[i], linkage);
    LLVMSetAlignment(out[i], gl->align ? gl->align : 1);
  }
  for (uint32_t i = 0; i < m->num_globals && !e->failed; i++) {
    const hg_ir_global *gl = &m->globals[i];
    if (!out[i])
      continue;
    LLVMValueRef init = global_init(e, gl, out);
    if (!init)
      break;
    LLVMSetInitializer(out[i], init);
    if (gl->is_const || gl->addrspace == HG_AS_CONSTANT)
      LLVMSetGlobalConstant(out[i], 1);
  }
  return !e->failed;
}
