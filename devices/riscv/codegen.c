/* The hetGPU IR lowered to RISC-V code through the LLVM-15 C API: every kernel's step function
 * (ir/resumable.c) becomes an LLVM function `i32 (ptr wg, ptr wi, ptr frame, i32 resume,
 * params...)`, a work-group driver per kernel calls it (codegen_driver.c), and the module is
 * optimised (default<O2>) and emitted as an ELF relocatable for rv64imafd / lp64d / medany
 * without compressed instructions or linker relaxation. All address spaces are one flat
 * 64-bit space on the simulator: __local variables are L1 addresses, slots are frame offsets. */
#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/codegen_internal.h"
#include "devices/riscv/sim/sim.h"
#include "ir/cfg.h"

#define RV_TRIPLE "riscv64-unknown-elf"
#define RV_CPU "generic-rv64"
#define RV_FEATURES "+m,+a,+f,+d,-c,-relax"

LLVMValueRef hg_rv_fail(hg_rv_cg *g, const char *fmt, ...) {
  if (!g->failed) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, g->err_size, fmt, ap);
    va_end(ap);
  }
  g->failed = true;
  return NULL;
}

void hg_rv_function_attrs(hg_rv_cg *g, LLVMValueRef fn) {
  static const char *const kv[][2] = {{"target-features", RV_FEATURES}, {"target-cpu", RV_CPU}};
  for (size_t i = 0; i < 2; i++)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                               LLVMCreateStringAttribute(g->C, kv[i][0], (unsigned)strlen(kv[i][0]), kv[i][1],
                                                         (unsigned)strlen(kv[i][1])));
  unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->C, nounwind, 0));
}

LLVMTypeRef hg_rv_scalar_type(hg_rv_cg *g, hg_ir_scalar s) {
  switch (s) {
  case HG_IR_BOOL: return g->i1;
  case HG_IR_I8: return g->i8;
  case HG_IR_I16: return g->i16;
  case HG_IR_I32: return g->i32;
  case HG_IR_I64: return g->i64;
  case HG_IR_F16: return g->f16;
  case HG_IR_F32: return g->f32;
  case HG_IR_F64: return g->f64;
  case HG_IR_PTR: return g->ptr;
  default: return g->voidt;
  }
}

LLVMTypeRef hg_rv_type(hg_rv_cg *g, hg_ir_type t) {
  LLVMTypeRef s = hg_rv_scalar_type(g, (hg_ir_scalar)t.scalar);
  return t.lanes > 1 ? LLVMVectorType(s, t.lanes) : s;
}

static LLVMValueRef const_lane(hg_rv_cg *g, hg_ir_scalar s, uint64_t w) {
  switch (s) {
  case HG_IR_F16: return LLVMConstBitCast(LLVMConstInt(g->i16, w, 0), g->f16);
  case HG_IR_F32: return LLVMConstBitCast(LLVMConstInt(g->i32, w, 0), g->f32);
  case HG_IR_F64: return LLVMConstBitCast(LLVMConstInt(g->i64, w, 0), g->f64);
  case HG_IR_PTR: return LLVMConstNull(g->ptr);
  default: return LLVMConstInt(hg_rv_scalar_type(g, s), w, 0);
  }
}

/* The kernel's local_vars index of a static __local variable (UINT32_MAX: none). */
static uint32_t local_var(hg_rv_cg *g, uint32_t global) {
  for (uint32_t i = 0; i < g->k->num_local_vars; i++)
    if (g->k->local_vars[i].global == global)
      return i;
  return UINT32_MAX;
}

LLVMValueRef hg_rv_value(hg_rv_cg *g, uint32_t v) {
  if (v >= g->f->num_values)
    return hg_rv_fail(g, "value %u out of range", v);
  const hg_ir_value *val = &g->f->values[v];
  switch (val->kind) {
  case HG_VAL_PARAM: return LLVMGetParam(g->fn, val->index + 2);
  case HG_VAL_INST:
    if (!g->vals[v])
      return hg_rv_fail(g, "value %%%u used before its definition was lowered", v);
    return g->vals[v];
  case HG_VAL_UNDEF: return LLVMGetUndef(hg_rv_type(g, val->type));
  case HG_VAL_CONST: {
    unsigned n = val->type.lanes ? val->type.lanes : 1;
    if (n == 1)
      return const_lane(g, (hg_ir_scalar)val->type.scalar, g->f->const_words[val->index]);
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < n && i < 16; i++)
      lanes[i] = const_lane(g, (hg_ir_scalar)val->type.scalar, g->f->const_words[val->index + i]);
    return LLVMConstVector(lanes, n);
  }
  case HG_VAL_GLOBAL: {
    if (val->index < g->m->num_globals && g->m->globals[val->index].addrspace == HG_AS_LOCAL) {
      uint32_t lv = local_var(g, val->index);
      if (lv == UINT32_MAX)
        return hg_rv_fail(g, "__local %s has no place in the kernel's layout", g->m->globals[val->index].name);
      if (lv > HG_RV_MAX_WINDOWED)
        return hg_rv_fail(g, "more than %u static __local variables", HG_RV_MAX_WINDOWED + 1);
      /* its own window: an access past it faults (riscv_internal.h) */
      uint64_t at = hg_rv_local_var_addr(lv, g->k->local_vars[lv].offset);
      return LLVMConstIntToPtr(LLVMConstInt(g->i64, at, 0), g->ptr);
    }
    if (val->index >= g->m->num_globals || !g->globals[val->index])
      return hg_rv_fail(g, "global %u not lowered", val->index);
    return g->globals[val->index];
  }
  }
  return hg_rv_fail(g, "bad value kind");
}

LLVMValueRef hg_rv_intrinsic(hg_rv_cg *g, const char *name, LLVMTypeRef *over, unsigned nover, LLVMValueRef *args,
                             unsigned nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id)
    return hg_rv_fail(g, "no intrinsic %s", name);
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->M, id, over, nover);
  LLVMTypeRef ft = LLVMIntrinsicGetType(g->C, id, over, nover);
  return LLVMBuildCall2(g->B, ft, fn, args, nargs, "");
}

/* The lp64d ABI widens integer arguments and results narrower than 64 bits to a full register:
 * 32-bit ones (int and unsigned int alike) are sign-extended, 8- and 16-bit ones by the sign of
 * their C type. The runtime (compiled by clang) relies on it, e.g. ldexp's clamp of the exponent
 * compares whole registers, so the caller must say so: without the attribute LLVM passes
 * whatever the upper bits hold (lane 1 of a vector, for a lane extracted from it). Every
 * narrower integer in the runtime's prototypes is a signed type or uint32_t, so signext (bool,
 * i1, would be zeroext). */
static void abi_ext(hg_rv_cg *g, LLVMValueRef fn_or_call, bool call, unsigned idx, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) >= 64)
    return;
  const char *kind = LLVMGetIntTypeWidth(t) == 1 ? "zeroext" : "signext";
  LLVMAttributeRef a = LLVMCreateEnumAttribute(g->C, LLVMGetEnumAttributeKindForName(kind, 7), 0);
  if (call)
    LLVMAddCallSiteAttribute(fn_or_call, idx, a);
  else
    LLVMAddAttributeAtIndex(fn_or_call, idx, a);
}

LLVMValueRef hg_rv_call_external(hg_rv_cg *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef pt[16];
  if (n > 16)
    return hg_rv_fail(g, "%s: too many arguments", name);
  for (unsigned i = 0; i < n; i++)
    pt[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef ft = LLVMFunctionType(ret, pt, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(g->M, name);
  if (!fn) {
    fn = LLVMAddFunction(g->M, name, ft);
    hg_rv_function_attrs(g, fn);
    abi_ext(g, fn, false, LLVMAttributeReturnIndex, ret);
    for (unsigned i = 0; i < n; i++)
      abi_ext(g, fn, false, i + 1, pt[i]);
  }
  LLVMValueRef c = LLVMBuildCall2(g->B, ft, fn, args, n, "");
  abi_ext(g, c, true, LLVMAttributeReturnIndex, ret);
  for (unsigned i = 0; i < n; i++)
    abi_ext(g, c, true, i + 1, pt[i]);
  return c;
}

static unsigned inst_align(const hg_ir_inst *in) {
  unsigned lg = (in->flags >> 8) & 0xF;
  return 1u << lg;
}

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

static LLVMValueRef lower_atomic(hg_rv_cg *g, const hg_ir_inst *in) {
  unsigned op = in->flags & 0xFF, ord = (in->flags >> 8) & 0xF;
  LLVMValueRef p = hg_rv_value(g, in->operands[0]);
  LLVMTypeRef t = hg_rv_type(g, in->type);
  if (op == HG_ATOMIC_LOAD) {
    LLVMValueRef l = LLVMBuildLoad2(g->B, t, p, "");
    LLVMSetOrdering(l, ordering(ord == HG_ORDER_RELEASE || ord == HG_ORDER_ACQ_REL ? HG_ORDER_ACQUIRE : ord));
    LLVMSetAlignment(l, hg_ir_scalar_bytes((hg_ir_scalar)in->type.scalar));
    return l;
  }
  LLVMValueRef v = hg_rv_value(g, in->operands[1]);
  if (op == HG_ATOMIC_STORE) {
    LLVMValueRef s = LLVMBuildStore(g->B, v, p);
    LLVMSetOrdering(s, ordering(ord == HG_ORDER_ACQUIRE || ord == HG_ORDER_ACQ_REL ? HG_ORDER_RELEASE : ord));
    LLVMSetAlignment(s, hg_ir_scalar_bytes((hg_ir_scalar)g->f->values[in->operands[1]].type.scalar));
    return s;
  }
  static const LLVMAtomicRMWBinOp ops[] = {LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpSub,
                                           LLVMAtomicRMWBinOpAnd,  LLVMAtomicRMWBinOpOr,  LLVMAtomicRMWBinOpXor,
                                           LLVMAtomicRMWBinOpMin,  LLVMAtomicRMWBinOpMax, LLVMAtomicRMWBinOpUMin,
                                           LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpFAdd};
  if (op > HG_ATOMIC_FADD)
    return hg_rv_fail(g, "bad atomic op %u", op);
  return LLVMBuildAtomicRMW(g->B, ops[op], p, v, ordering(ord), 0);
}

/* A contractable FADD/FSUB with its FMUL operand: llvm.fmuladd, which LLVM turns into fmadd
 * (the FMUL's own value is left unused and optimised away). a*b - c is fmuladd(a, b, -c) and
 * c - a*b is fmuladd(-a, b, c): negation is exact, so these are the same fused or not. */
static LLVMValueRef lower_contracted(hg_rv_cg *g, const hg_ir_inst *in, const hg_ir_inst *mul, LLVMTypeRef T) {
  bool mul_first = in->operands[0] == mul->id;
  LLVMValueRef x = hg_rv_value(g, mul->operands[0]), y = hg_rv_value(g, mul->operands[1]);
  LLVMValueRef z = hg_rv_value(g, in->operands[mul_first ? 1 : 0]);
  if (g->failed)
    return NULL;
  if (in->op == HG_OP_FSUB) {
    if (mul_first)
      z = LLVMBuildFNeg(g->B, z, "");
    else
      x = LLVMBuildFNeg(g->B, x, "");
  }
  LLVMValueRef args[3] = {x, y, z};
  return hg_rv_intrinsic(g, "llvm.fmuladd", &T, 1, args, 3);
}

static LLVMValueRef lower_inst(hg_rv_cg *g, const hg_ir_inst *in) {
  LLVMBuilderRef B = g->B;
  LLVMTypeRef T = in->type.scalar == HG_IR_VOID ? g->voidt : hg_rv_type(g, in->type);
  LLVMValueRef a = NULL, b = NULL, c = NULL;
  if ((in->op == HG_OP_FADD || in->op == HG_OP_FSUB) && in->id < g->f->num_values && g->contr.fused_mul &&
      g->contr.fused_mul[in->id])
    return lower_contracted(g, in, g->contr.fused_mul[in->id], T);
  if (in->op != HG_OP_PHI && in->op != HG_OP_CALL_BUILTIN) {
    if (in->num_operands > 0)
      a = hg_rv_value(g, in->operands[0]);
    if (in->num_operands > 1)
      b = hg_rv_value(g, in->operands[1]);
    if (in->num_operands > 2)
      c = hg_rv_value(g, in->operands[2]);
    if (g->failed)
      return NULL;
  }
  switch (in->op) {
  case HG_OP_ADD: return LLVMBuildAdd(B, a, b, "");
  case HG_OP_SUB: return LLVMBuildSub(B, a, b, "");
  case HG_OP_MUL: return LLVMBuildMul(B, a, b, "");
  case HG_OP_SDIV: return LLVMBuildSDiv(B, a, b, "");
  case HG_OP_UDIV: return LLVMBuildUDiv(B, a, b, "");
  case HG_OP_SREM: return LLVMBuildSRem(B, a, b, "");
  case HG_OP_UREM: return LLVMBuildURem(B, a, b, "");
  case HG_OP_SHL: return LLVMBuildShl(B, a, b, "");
  case HG_OP_LSHR: return LLVMBuildLShr(B, a, b, "");
  case HG_OP_ASHR: return LLVMBuildAShr(B, a, b, "");
  case HG_OP_AND: return LLVMBuildAnd(B, a, b, "");
  case HG_OP_OR: return LLVMBuildOr(B, a, b, "");
  case HG_OP_XOR: return LLVMBuildXor(B, a, b, "");
  case HG_OP_FADD: return LLVMBuildFAdd(B, a, b, "");
  case HG_OP_FSUB: return LLVMBuildFSub(B, a, b, "");
  case HG_OP_FMUL: return LLVMBuildFMul(B, a, b, "");
  case HG_OP_FDIV: return LLVMBuildFDiv(B, a, b, "");
  case HG_OP_FREM: {
    /* RISC-V has no remainder instruction: the runtime's fmod, lane by lane */
    const char *fn = in->type.scalar == HG_IR_F64 ? "hg_rt_fmod" : "hg_rt_fmodf";
    LLVMTypeRef st = hg_rv_scalar_type(g, in->type.scalar == HG_IR_F64 ? HG_IR_F64 : HG_IR_F32);
    LLVMValueRef r = LLVMGetUndef(T);
    for (unsigned l = 0; l < in->type.lanes; l++) {
      LLVMValueRef x = a, y = b;
      if (in->type.lanes > 1) {
        x = LLVMBuildExtractElement(B, a, LLVMConstInt(g->i32, l, 0), "");
        y = LLVMBuildExtractElement(B, b, LLVMConstInt(g->i32, l, 0), "");
      }
      if (in->type.scalar == HG_IR_F16) {
        x = LLVMBuildFPExt(B, x, st, "");
        y = LLVMBuildFPExt(B, y, st, "");
      }
      LLVMValueRef args[2] = {x, y};
      LLVMValueRef q = hg_rv_call_external(g, fn, st, args, 2);
      if (in->type.scalar == HG_IR_F16)
        q = LLVMBuildFPTrunc(B, q, g->f16, "");
      if (in->type.lanes == 1)
        return q;
      r = LLVMBuildInsertElement(B, r, q, LLVMConstInt(g->i32, l, 0), "");
    }
    return r;
  }
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
  case HG_OP_ADDRSPACECAST: return a; /* one flat address space */
  case HG_OP_EXTRACT: return LLVMBuildExtractElement(B, a, b, "");
  case HG_OP_INSERT: return LLVMBuildInsertElement(B, a, b, c, "");
  case HG_OP_SHUFFLE: {
    LLVMValueRef mask[16];
    for (uint32_t i = 0; i < in->num_imm && i < 16; i++)
      mask[i] = in->imm[i] == HG_IR_NONE ? LLVMGetUndef(g->i32) : LLVMConstInt(g->i32, in->imm[i], 0);
    return LLVMBuildShuffleVector(B, a, b, LLVMConstVector(mask, in->num_imm), "");
  }
  case HG_OP_PTRADD: return LLVMBuildGEP2(B, g->i8, a, &b, 1, "");
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
  case HG_OP_SLOT: {
    if (!in->num_imm || in->imm[0] >= g->f->num_slots)
      return hg_rv_fail(g, "bad slot");
    if (g->slot_alloca && g->slot_alloca[in->imm[0]])
      return g->slot_alloca[in->imm[0]]; /* transient: in the frame only at a loop-header stop */
    LLVMValueRef off = LLVMConstInt(g->i64, g->f->slots[in->imm[0]].offset, 0);
    return LLVMBuildGEP2(B, g->i8, g->frame, &off, 1, "");
  }
  case HG_OP_ATOMIC_RMW: return lower_atomic(g, in);
  case HG_OP_CMPXCHG: {
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(B, a, b, c, LLVMAtomicOrderingSequentiallyConsistent,
                                            LLVMAtomicOrderingSequentiallyConsistent, 0);
    return LLVMBuildExtractValue(B, x, 0, "");
  }
  case HG_OP_FENCE:
    if (((in->flags >> 8) & 0xF) == HG_ORDER_RELAXED)
      return LLVMGetUndef(g->i32); /* a relaxed fence orders nothing */
    return LLVMBuildFence(B, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  case HG_OP_BARRIER: return hg_rv_fail(g, "a barrier is left in a step function");
  case HG_OP_CALL: return hg_rv_fail(g, "call to a function not inlined");
  case HG_OP_CALL_BUILTIN: return hg_rv_builtin(g, in);
  case HG_OP_PHI: return LLVMBuildPhi(B, T, "");
  case HG_OP_BR: return LLVMBuildBr(B, g->bbs[in->imm[0]]);
  case HG_OP_CONDBR: return LLVMBuildCondBr(B, a, g->bbs[in->imm[0]], g->bbs[in->imm[1]]);
  case HG_OP_SWITCH: {
    LLVMBasicBlockRef at = LLVMGetInsertBlock(B);
    LLVMValueRef sw = LLVMBuildSwitch(B, a, g->bbs[in->imm[0]], in->num_operands - 1);
    for (uint32_t i = 1; i < in->num_operands; i++) {
      LLVMBasicBlockRef to = g->bbs[in->imm[i]];
      uint32_t sp = g->slot_alloca && at == g->bbs[0] ? hg_rv_loop_resume_point(g, in->operands[i]) : HG_IR_NONE;
      if (sp != HG_IR_NONE) { /* the dispatch resuming at a loop header: transient values from the frame */
        LLVMBasicBlockRef landing = LLVMAppendBasicBlockInContext(g->C, g->fn, "resume");
        LLVMPositionBuilderAtEnd(B, landing);
        hg_rv_transient_copy(g, sp, false);
        LLVMBuildBr(B, to);
        to = landing;
      }
      LLVMAddCase(sw, hg_rv_value(g, in->operands[i]), to);
    }
    LLVMPositionBuilderAtEnd(B, at);
    return sw;
  }
  case HG_OP_RET: {
    uint32_t sp = a && g->slot_alloca ? hg_rv_loop_resume_point(g, in->operands[0]) : HG_IR_NONE;
    if (sp != HG_IR_NONE) /* stopping at a loop header: transient values to the frame */
      hg_rv_transient_copy(g, sp, true);
    return a ? LLVMBuildRet(B, a) : LLVMBuildRetVoid(B);
  }
  case HG_OP_UNREACHABLE: return LLVMBuildUnreachable(B);
  }
  return hg_rv_fail(g, "opcode %u not supported", in->op);
}

/* The step function of kernel k (IR function f) as LLVM function fn. */
static bool lower_function(hg_rv_cg *g) {
  const hg_ir_function *f = g->f;
  hg_ir_cfg cfg;
  if (hg_ir_cfg_build(f, &cfg))
    return !hg_rv_fail(g, "%s: no CFG", f->name);
  g->vals = calloc(f->num_values ? f->num_values : 1, sizeof *g->vals);
  g->bbs = calloc(f->num_blocks ? f->num_blocks : 1, sizeof *g->bbs);
  g->last_bbs = calloc(f->num_blocks ? f->num_blocks : 1, sizeof *g->last_bbs);
  if (!g->vals || !g->bbs || !g->last_bbs || !hg_ir_find_contractions(f, &g->contr)) {
    hg_ir_cfg_free(&cfg);
    return !hg_rv_fail(g, "out of memory");
  }
  g->wg = LLVMGetParam(g->fn, 0);
  g->wi = LLVMGetParam(g->fn, 1);
  g->frame = LLVMGetParam(g->fn, 2 + f->num_params - 2);
  for (uint32_t b = 0; b < f->num_blocks; b++)
    g->bbs[b] = LLVMAppendBasicBlockInContext(g->C, g->fn, "");
  LLVMPositionBuilderAtEnd(g->B, g->bbs[0]);
  if (g->plan_in && !hg_rv_transient_setup(g, g->plan_in)) {
    hg_ir_cfg_free(&cfg);
    return false;
  }
  for (uint32_t r = 0; r < cfg.nrpo && !g->failed; r++) {
    uint32_t b = cfg.rpo[r];
    LLVMPositionBuilderAtEnd(g->B, g->bbs[b]);
    const hg_ir_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->num_insts && !g->failed; i++) {
      LLVMValueRef v = lower_inst(g, &bl->insts[i]);
      if (bl->insts[i].id != HG_IR_NONE && bl->insts[i].id < f->num_values)
        g->vals[bl->insts[i].id] = v;
    }
    g->last_bbs[b] = LLVMGetInsertBlock(g->B); /* builtins may have split the block */
  }
  for (uint32_t b = 0; b < f->num_blocks && !g->failed; b++) {
    if (!hg_ir_cfg_reachable(&cfg, b)) {
      LLVMPositionBuilderAtEnd(g->B, g->bbs[b]);
      LLVMBuildUnreachable(g->B);
      continue;
    }
    const hg_ir_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->num_insts && bl->insts[i].op == HG_OP_PHI && !g->failed; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      for (uint32_t q = 0; q < in->num_operands; q++) {
        if (!hg_ir_cfg_reachable(&cfg, in->imm[q]))
          continue;
        /* incoming values are built where the edge leaves: before that block's terminator */
        LLVMBasicBlockRef from = g->last_bbs[in->imm[q]];
        LLVMPositionBuilderBefore(g->B, LLVMGetBasicBlockTerminator(from));
        LLVMValueRef v = hg_rv_value(g, in->operands[q]);
        if (v)
          LLVMAddIncoming(g->vals[in->id], &v, &from, 1);
      }
    }
  }
  hg_ir_cfg_free(&cfg);
  hg_ir_contraction_free(&g->contr);
  free(g->slot_alloca);
  g->slot_alloca = NULL;
  g->plan = NULL;
  free(g->vals);
  free(g->bbs);
  free(g->last_bbs);
  g->vals = NULL;
  g->bbs = NULL;
  g->last_bbs = NULL;
  return !g->failed;
}

/* Module globals other than __local: LLVM globals (__constant in read-only sections). */
static bool lower_globals(hg_rv_cg *g) {
  const hg_ir_module *m = g->m;
  g->globals = calloc(m->num_globals ? m->num_globals : 1, sizeof *g->globals);
  if (!g->globals)
    return !hg_rv_fail(g, "out of memory");
  for (uint32_t i = 0; i < m->num_globals; i++) {
    const hg_ir_global *gl = &m->globals[i];
    if (gl->addrspace == HG_AS_LOCAL)
      continue;
    char name[48];
    snprintf(name, sizeof name, "hg_global_%u", i);
    LLVMTypeRef at = LLVMArrayType(g->i8, gl->size);
    g->globals[i] = LLVMAddGlobal(g->M, at, name);
    /* a defined symbol of the image (hidden): a stopped kernel's pointers into it are kept as
     * offsets from its address (backend_state.c) */
    LLVMSetLinkage(g->globals[i], LLVMExternalLinkage);
    LLVMSetVisibility(g->globals[i], LLVMHiddenVisibility);
    LLVMSetAlignment(g->globals[i], gl->align ? gl->align : 1);
  }
  for (uint32_t i = 0; i < m->num_globals; i++) {
    const hg_ir_global *gl = &m->globals[i];
    if (!g->globals[i])
      continue;
    LLVMValueRef init;
    if (!gl->has_init) {
      init = LLVMConstNull(LLVMArrayType(g->i8, gl->size));
    } else {
      /* bytes with the address of another global (plus addend) at each relocation */
      LLVMValueRef parts[2 * gl->num_relocs + 1];
      unsigned np = 0;
      uint32_t at = 0;
      for (uint32_t r = 0; r <= gl->num_relocs; r++) {
        uint32_t end = r < gl->num_relocs ? gl->relocs[r].offset : gl->size;
        if (end > at)
          parts[np++] = LLVMConstStringInContext(g->C, (const char *)gl->init + at, end - at, 1);
        if (r == gl->num_relocs)
          break;
        const struct hg_ir_reloc *rl = &gl->relocs[r];
        if (rl->target >= m->num_globals || !g->globals[rl->target])
          return !hg_rv_fail(g, "global %s points to a __local variable", gl->name);
        LLVMValueRef off = LLVMConstInt(g->i64, (uint64_t)rl->addend, 1);
        parts[np++] = LLVMConstAdd(LLVMConstPtrToInt(g->globals[rl->target], g->i64), off);
        at = end + 8;
      }
      init = LLVMConstStructInContext(g->C, parts, np, 1);
      /* the global's type becomes the packed struct: re-create it with that type */
      LLVMValueRef ng = LLVMAddGlobal(g->M, LLVMTypeOf(init), "");
      LLVMSetLinkage(ng, LLVMExternalLinkage);
      LLVMSetVisibility(ng, LLVMHiddenVisibility);
      LLVMSetAlignment(ng, gl->align ? gl->align : 1);
      LLVMReplaceAllUsesWith(g->globals[i], ng);
      char *nm = strdup(LLVMGetValueName(g->globals[i]));
      LLVMDeleteGlobal(g->globals[i]);
      LLVMSetValueName(ng, nm ? nm : "");
      free(nm);
      g->globals[i] = ng;
    }
    LLVMSetInitializer(g->globals[i], init);
    if (gl->is_const || gl->addrspace == HG_AS_CONSTANT)
      LLVMSetGlobalConstant(g->globals[i], 1);
  }
  return true;
}

static void init_llvm(void) {
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmPrinter();
  LLVMInitializeRISCVAsmParser(); /* the STOP_POLL ecall is inline asm (codegen_stop.c) */
}

static LLVMTargetMachineRef target_machine(char *err, size_t err_size) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_llvm);
  LLVMTargetRef t;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(RV_TRIPLE, &t, &msg)) {
    snprintf(err, err_size, "no RISC-V target in this LLVM: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  return LLVMCreateTargetMachine(t, RV_TRIPLE, RV_CPU, RV_FEATURES, LLVMCodeGenLevelDefault, LLVMRelocStatic,
                                 LLVMCodeModelMedium);
}

static bool lower_kernel(hg_rv_cg *g, hg_rv_kernel_code *kc) {
  g->k = &g->m->functions[kc->kernel];
  g->f = &g->m->functions[kc->step];
  g->plan_in = &kc->plan;
  const hg_ir_function *f = g->f;
  /* (ptr wg, ptr wi, params of the step function: kernel params..., frame, resume) */
  uint32_t np = f->num_params + 2;
  LLVMTypeRef *pt = malloc(np * sizeof *pt);
  if (!pt)
    return !hg_rv_fail(g, "out of memory");
  pt[0] = pt[1] = g->ptr;
  for (uint32_t i = 0; i < f->num_params; i++)
    pt[i + 2] = hg_rv_type(g, f->param_types[i]);
  char name[48];
  snprintf(name, sizeof name, "hg_step_k%u", kc->kernel);
  g->fn = LLVMAddFunction(g->M, name, LLVMFunctionType(g->i32, pt, np, 0));
  free(pt);
  LLVMSetLinkage(g->fn, LLVMInternalLinkage);
  hg_rv_function_attrs(g, g->fn);
  /* the work-group record, the work-item record and the frame are disjoint L1 areas that no
   * kernel pointer reaches except through them (private pointers are frame + offset): the
   * optimiser may keep the poll counter and demoted values in registers across the kernel's
   * own loads and stores */
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  unsigned restricted[3] = {0, 1, np - 2};
  for (unsigned i = 0; i < 3; i++)
    LLVMAddAttributeAtIndex(g->fn, restricted[i] + 1, LLVMCreateEnumAttribute(g->C, noalias, 0));
  if (!lower_function(g))
    return false;
  /* the frame: the step function's slots, then each work-item's own copy of every struct
   * passed by value (the kernel may write to its copy) */
  kc->frame_size = (f->private_size + 15) & ~15u;
  for (uint32_t i = 0; i < g->k->num_params; i++)
    if (g->k->args[i].kind == HG_KARG_VALUE && g->k->param_types[i].scalar == HG_IR_PTR)
      kc->frame_size += (g->k->args[i].size + 15) & ~15u;
  /* slot offsets are aligned within the frame: every frame starts at the largest alignment a
   * slot declares (a private array aligned to 128 bytes is, in each work-item) */
  kc->frame_align = 16;
  for (uint32_t s = 0; s < f->num_slots; s++)
    if (f->slots[s].align > kc->frame_align)
      kc->frame_align = f->slots[s].align;
  kc->frame_size = (kc->frame_size + kc->frame_align - 1) / kc->frame_align * kc->frame_align;
  snprintf(kc->entry, sizeof kc->entry, "hg_wg_k%u", kc->kernel);
  return hg_rv_emit_driver(g, g->k, g->fn, kc);
}

/* memcpy and memset for the calls LLVM itself emits; "no-builtins" keeps the optimiser from
 * turning their loops back into calls to themselves. The runtime's, if any, lose to these. */
static void add_mem_functions(hg_rv_cg *g) {
  LLVMTypeRef cpy_t = LLVMFunctionType(g->ptr, (LLVMTypeRef[]){g->ptr, g->ptr, g->i64}, 3, 0);
  LLVMTypeRef set_t = LLVMFunctionType(g->ptr, (LLVMTypeRef[]){g->ptr, g->i32, g->i64}, 3, 0);
  const char *names[3] = {"memcpy", "memmove", "memset"};
  for (int w = 0; w < 3; w++) {
    LLVMValueRef fn = LLVMAddFunction(g->M, names[w], w == 2 ? set_t : cpy_t);
    hg_rv_function_attrs(g, fn);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                               LLVMCreateStringAttribute(g->C, "no-builtins", 11, "", 0));
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->C, fn, "");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->C, fn, "");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->C, fn, "");
    LLVMValueRef d = LLVMGetParam(fn, 0), s = LLVMGetParam(fn, 1), n = LLVMGetParam(fn, 2);
    LLVMPositionBuilderAtEnd(g->B, entry);
    /* memmove copies backwards when the destination is above the source */
    LLVMValueRef back = w == 1 ? LLVMBuildICmp(g->B, LLVMIntUGT, LLVMBuildPtrToInt(g->B, d, g->i64, ""),
                                               LLVMBuildPtrToInt(g->B, s, g->i64, ""), "")
                               : LLVMConstInt(g->i1, 0, 0);
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntEQ, n, LLVMConstInt(g->i64, 0, 0), ""), done, loop);
    LLVMPositionBuilderAtEnd(g->B, loop);
    LLVMValueRef i = LLVMBuildPhi(g->B, g->i64, "");
    LLVMValueRef idx = LLVMBuildSelect(g->B, back, LLVMBuildSub(g->B, LLVMBuildSub(g->B, n, i, ""),
                                                                 LLVMConstInt(g->i64, 1, 0), ""), i, "");
    LLVMValueRef byte = w == 2 ? LLVMBuildTrunc(g->B, s, g->i8, "")
                               : LLVMBuildLoad2(g->B, g->i8, LLVMBuildGEP2(g->B, g->i8, s, &idx, 1, ""), "");
    LLVMBuildStore(g->B, byte, LLVMBuildGEP2(g->B, g->i8, d, &idx, 1, ""));
    LLVMValueRef next = LLVMBuildAdd(g->B, i, LLVMConstInt(g->i64, 1, 0), "");
    LLVMValueRef zero = LLVMConstInt(g->i64, 0, 0);
    LLVMAddIncoming(i, &zero, &entry, 1);
    LLVMAddIncoming(i, &next, &loop, 1);
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntEQ, next, n, ""), done, loop);
    LLVMPositionBuilderAtEnd(g->B, done);
    LLVMBuildRet(g->B, d);
  }
}

void hg_rv_object_free(hg_rv_object *o) {
  free(o->bytes);
  for (uint32_t i = 0; o->kernels && i < o->num_kernels; i++)
    hg_ir_resumable_plan_free(&o->kernels[i].plan);
  free(o->kernels);
  for (uint32_t i = 0; i < o->num_formats; i++)
    free(o->formats[i]);
  free(o->formats);
  memset(o, 0, sizeof *o);
}

int hg_rv_codegen(hg_ir_module *m, hg_rv_object *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  uint32_t nk = 0;
  for (uint32_t i = 0; i < m->num_functions; i++)
    nk += m->functions[i].is_kernel && m->functions[i].num_blocks;
  out->kernels = calloc(nk ? nk : 1, sizeof *out->kernels);
  if (!out->kernels) {
    snprintf(err, err_size, "out of memory");
    return -1;
  }
  uint32_t nfun = m->num_functions;
  for (uint32_t i = 0; i < nfun; i++) {
    if (!m->functions[i].is_kernel || !m->functions[i].num_blocks)
      continue;
    uint32_t s = hg_ir_make_resumable(m, i, err, err_size);
    if (s == HG_IR_NONE) {
      hg_rv_object_free(out);
      return -1;
    }
    hg_rv_kernel_code *kc = &out->kernels[out->num_kernels++];
    *kc = (hg_rv_kernel_code){.kernel = i, .step = s};
    if (!hg_ir_resumable_plan_of(m, i, &kc->plan)) {
      snprintf(err, err_size, "out of memory");
      hg_rv_object_free(out);
      return -1;
    }
  }
  LLVMTargetMachineRef tm = target_machine(err, err_size);
  if (!tm) {
    hg_rv_object_free(out);
    return -1;
  }
  hg_rv_cg g = {.m = m, .obj = out, .err = err, .err_size = err_size};
  g.C = LLVMContextCreate();
  g.M = LLVMModuleCreateWithNameInContext("hetgpu-riscv", g.C);
  g.B = LLVMCreateBuilderInContext(g.C);
  g.i1 = LLVMInt1TypeInContext(g.C);
  g.i8 = LLVMInt8TypeInContext(g.C);
  g.i16 = LLVMInt16TypeInContext(g.C);
  g.i32 = LLVMInt32TypeInContext(g.C);
  g.i64 = LLVMInt64TypeInContext(g.C);
  g.f16 = LLVMHalfTypeInContext(g.C);
  g.f32 = LLVMFloatTypeInContext(g.C);
  g.f64 = LLVMDoubleTypeInContext(g.C);
  g.ptr = LLVMPointerTypeInContext(g.C, 0);
  g.voidt = LLVMVoidTypeInContext(g.C);
  LLVMSetTarget(g.M, RV_TRIPLE);
  LLVMTargetDataRef data_layout = LLVMCreateTargetDataLayout(tm);
  char *layout = LLVMCopyStringRepOfTargetData(data_layout);
  LLVMDisposeTargetData(data_layout);
  LLVMSetDataLayout(g.M, layout);
  LLVMDisposeMessage(layout);
  LLVMAddModuleFlag(g.M, LLVMModuleFlagBehaviorError, "target-abi", 10, LLVMMDStringInContext2(g.C, "lp64d", 5));
  int rc = -1;
  LLVMMemoryBufferRef buf = NULL;
  if (!lower_globals(&g))
    goto done;
  add_mem_functions(&g);
  for (uint32_t i = 0; i < out->num_kernels; i++)
    if (!lower_kernel(&g, &out->kernels[i]))
      goto done;
  char *msg = NULL;
  if (LLVMVerifyModule(g.M, LLVMReturnStatusAction, &msg)) {
    snprintf(err, err_size, "internal error: invalid LLVM IR: %.400s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    goto done;
  }
  LLVMDisposeMessage(msg);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(g.M, "default<O2>", tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *em = LLVMGetErrorMessage(e);
    snprintf(err, err_size, "LLVM passes failed: %s", em);
    LLVMDisposeErrorMessage(em);
    goto done;
  }
  if (getenv("HETGPU_RISCV_DUMP_LLVM"))
    LLVMDumpModule(g.M);
  msg = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, g.M, LLVMObjectFile, &msg, &buf)) {
    snprintf(err, err_size, "RISC-V code emission failed: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    goto done;
  }
  out->size = LLVMGetBufferSize(buf);
  out->bytes = malloc(out->size ? out->size : 1);
  if (!out->bytes) {
    snprintf(err, err_size, "out of memory");
    goto done;
  }
  memcpy(out->bytes, LLVMGetBufferStart(buf), out->size);
  rc = 0;
done:
  if (buf)
    LLVMDisposeMemoryBuffer(buf);
  free(g.globals);
  free(g.vals);
  free(g.bbs);
  free(g.last_bbs);
  LLVMDisposeBuilder(g.B);
  LLVMDisposeModule(g.M);
  LLVMContextDispose(g.C);
  LLVMDisposeTargetMachine(tm);
  if (rc)
    hg_rv_object_free(out);
  return rc;
}
