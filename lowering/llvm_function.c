/* One LLVM function body -> IR blocks and instructions.
 *
 * Blocks reachable from the entry keep their LLVM order; unreachable blocks are dropped.
 * Instructions are translated in reverse post-order so every operand is defined before its
 * use; phis are created first with placeholder operands and filled in once all blocks are done.
 * Constant expressions are materialised as instructions where they are used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

uint32_t hg_emit(hg_xlate *x, hg_ir_opcode op, uint16_t flags, hg_ir_type t, uint32_t nops, const uint32_t *ops,
                 uint32_t nimm, const uint32_t *imm) {
  return hg_ir_append(x->f, x->cur_block, op, flags, t, nops, ops, nimm, imm);
}

hg_ir_type hg_value_type(hg_xlate *x, uint32_t v) { return x->f->values[v].type; }

static unsigned log2_align(unsigned a) {
  unsigned l = 0;
  while (a > 1) {
    a >>= 1;
    l++;
  }
  return l;
}

uint16_t hg_xlate_mem_flags(LLVMValueRef inst, unsigned align) {
  return (uint16_t)((LLVMGetVolatile(inst) ? HG_MEM_VOLATILE : 0) | (log2_align(align ? align : 1) << 8));
}

static hg_ir_order order_of(LLVMAtomicOrdering o) {
  switch (o) {
  case LLVMAtomicOrderingAcquire: return HG_ORDER_ACQUIRE;
  case LLVMAtomicOrderingRelease: return HG_ORDER_RELEASE;
  case LLVMAtomicOrderingAcquireRelease: return HG_ORDER_ACQ_REL;
  case LLVMAtomicOrderingSequentiallyConsistent: return HG_ORDER_SEQ_CST;
  default: return HG_ORDER_RELAXED;
  }
}

static uint16_t atomic_flags(LLVMValueRef inst, hg_ir_atomic_op op, LLVMAtomicOrdering o) {
  hg_ir_scope scope = LLVMIsAtomicSingleThread(inst) ? HG_SCOPE_WORK_ITEM : HG_SCOPE_DEVICE;
  return (uint16_t)(op | order_of(o) << 8 | scope << 12);
}

/* ---- operands ----------------------------------------------------------------------- */
static uint32_t xlate_op(hg_xlate *x, LLVMValueRef v, LLVMOpcode opc);

uint32_t hg_xlate_operand(hg_xlate *x, LLVMValueRef v) {
  uint32_t r;
  if (hg_ptr_map_get(&x->values, v, &r)) return r;
  if (LLVMIsAGlobalVariable(v)) {
    uint32_t g;
    if (!hg_ptr_map_get(&x->globals, v, &g)) hg_xlate_fail(x, "reference to an unsupported global variable");
    r = hg_ir_add_global_ref(x->f, x->m, g);
    hg_ptr_map_put(&x->values, v, r);
    return r;
  }
  if (LLVMIsAFunction(v)) hg_xlate_fail(x, "function pointers are not supported");
  if (LLVMIsAConstantExpr(v)) return xlate_op(x, v, LLVMGetConstOpcode(v)); /* not cached: dominance */
  if (LLVMIsAConstant(v)) {
    r = hg_xlate_const(x, v);
    hg_ptr_map_put(&x->values, v, r);
    return r;
  }
  if (LLVMIsAInstruction(v) && hg_ptr_map_get(&x->aggs, v, &r)) hg_xlate_fail(x, "aggregate value used as a scalar");
  char *text = LLVMPrintValueToString(v);
  char buf[160];
  snprintf(buf, sizeof buf, "%s", text);
  LLVMDisposeMessage(text);
  hg_xlate_fail(x, "unsupported value or use before definition: %s", buf);
}

/* ---- instructions ------------------------------------------------------------------- */
static hg_ir_cmp int_pred(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return HG_CMP_EQ;
  case LLVMIntNE: return HG_CMP_NE;
  case LLVMIntUGT: return HG_CMP_UGT;
  case LLVMIntUGE: return HG_CMP_UGE;
  case LLVMIntULT: return HG_CMP_ULT;
  case LLVMIntULE: return HG_CMP_ULE;
  case LLVMIntSGT: return HG_CMP_SGT;
  case LLVMIntSGE: return HG_CMP_SGE;
  case LLVMIntSLT: return HG_CMP_SLT;
  default: return HG_CMP_SLE;
  }
}

static hg_ir_cmp real_pred(LLVMRealPredicate p) {
  switch (p) {
  case LLVMRealPredicateFalse: return HG_CMP_FALSE;
  case LLVMRealOEQ: return HG_CMP_OEQ;
  case LLVMRealOGT: return HG_CMP_OGT;
  case LLVMRealOGE: return HG_CMP_OGE;
  case LLVMRealOLT: return HG_CMP_OLT;
  case LLVMRealOLE: return HG_CMP_OLE;
  case LLVMRealONE: return HG_CMP_ONE;
  case LLVMRealORD: return HG_CMP_ORD;
  case LLVMRealUNO: return HG_CMP_UNO;
  case LLVMRealUEQ: return HG_CMP_UEQ;
  case LLVMRealUGT: return HG_CMP_UGT_F;
  case LLVMRealUGE: return HG_CMP_UGE_F;
  case LLVMRealULT: return HG_CMP_ULT_F;
  case LLVMRealULE: return HG_CMP_ULE_F;
  case LLVMRealUNE: return HG_CMP_UNE;
  default: return HG_CMP_TRUE;
  }
}

/* getelementptr: base + sum of index * element size + constant field offsets, in bytes. An
 * 'inbounds' one stays inside its object with every partial sum of those offsets computed
 * exactly (LLVM's LangRef), so its arithmetic cannot overflow in a signed sense: nsw, and the
 * PTRADD inbounds. */
static uint32_t xlate_gep(hg_xlate *x, LLVMValueRef v) {
  uint16_t nsw = LLVMIsInBounds(v) ? HG_WRAP_NSW : 0;
  uint32_t base = hg_xlate_operand(x, LLVMGetOperand(v, 0));
  hg_ir_type pt = hg_value_type(x, base);
  if (pt.scalar != HG_IR_PTR) hg_xlate_fail(x, "vector getelementptr is not supported");
  LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  int64_t coff = 0;
  uint32_t var = HG_IR_NONE;
  hg_ir_type i64 = hg_ir_ty(HG_IR_I64, 1);
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(v, i);
    uint64_t stride;
    if (i == 1) {
      stride = hg_type_size(x, t);
    } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
      coff += (int64_t)LLVMOffsetOfElement(x->td, t, field);
      t = LLVMStructGetTypeAtIndex(t, field);
      continue;
    } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
      t = LLVMGetElementType(t);
      stride = hg_type_size(x, t);
    } else if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
      t = LLVMGetElementType(t);
      stride = LLVMStoreSizeOfType(x->td, t);
    } else {
      hg_xlate_fail(x, "unsupported getelementptr");
    }
    if (LLVMIsAConstantInt(idx)) {
      coff += LLVMConstIntGetSExtValue(idx) * (int64_t)stride;
      continue;
    }
    uint32_t iv = hg_xlate_operand(x, idx);
    hg_ir_type it = hg_value_type(x, iv);
    if (it.lanes != 1) hg_xlate_fail(x, "vector getelementptr is not supported");
    if (it.scalar != HG_IR_I64) iv = hg_emit(x, HG_OP_SEXT, 0, i64, 1, &iv, 0, NULL);
    if (stride != 1) {
      uint32_t ops[2] = {iv, hg_xlate_const_int(x, i64, stride)};
      iv = hg_emit(x, HG_OP_MUL, nsw, i64, 2, ops, 0, NULL);
    }
    if (var == HG_IR_NONE) {
      var = iv;
    } else {
      uint32_t ops[2] = {var, iv};
      var = hg_emit(x, HG_OP_ADD, nsw, i64, 2, ops, 0, NULL);
    }
  }
  uint32_t off;
  if (var == HG_IR_NONE) {
    if (coff == 0) return base;
    off = hg_xlate_const_int(x, i64, (uint64_t)coff);
  } else if (coff != 0) {
    uint32_t ops[2] = {var, hg_xlate_const_int(x, i64, (uint64_t)coff)};
    off = hg_emit(x, HG_OP_ADD, nsw, i64, 2, ops, 0, NULL);
  } else {
    off = var;
  }
  uint32_t ops[2] = {base, off};
  return hg_emit(x, HG_OP_PTRADD, nsw ? HG_WRAP_INBOUNDS : 0, pt, 2, ops, 0, NULL);
}

static uint32_t xlate_shuffle(hg_xlate *x, LLVMValueRef v) {
  hg_ir_type t = hg_xlate_type(x, LLVMTypeOf(v));
  unsigned n = LLVMGetNumMaskElements(v);
  uint32_t imm[16];
  for (unsigned i = 0; i < n && i < 16; i++) {
    int m = LLVMGetMaskValue(v, i);
    imm[i] = m == LLVMGetUndefMaskElem() ? HG_IR_NONE : (uint32_t)m;
  }
  uint32_t ops[2] = {hg_xlate_operand(x, LLVMGetOperand(v, 0)), hg_xlate_operand(x, LLVMGetOperand(v, 1))};
  return hg_emit(x, HG_OP_SHUFFLE, 0, t, 2, ops, n, imm);
}

/* ---- odd-width integers: kept zero-extended in the next wider IR integer ---------------- */
static uint32_t odd_mask(hg_xlate *x, uint32_t v, unsigned n) {
  hg_ir_type t = hg_value_type(x, v);
  uint32_t ops[2] = {v, hg_xlate_const_int(x, t, (1ULL << n) - 1)};
  return hg_emit(x, HG_OP_AND, 0, t, 2, ops, 0, NULL);
}

static uint32_t odd_sext(hg_xlate *x, uint32_t v, unsigned n) { /* sign-extend within the container */
  hg_ir_type t = hg_value_type(x, v);
  uint32_t sh = hg_xlate_const_int(x, t, hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * 8 - n);
  uint32_t a[2] = {v, sh};
  uint32_t l = hg_emit(x, HG_OP_SHL, 0, t, 2, a, 0, NULL);
  uint32_t b[2] = {l, sh};
  return hg_emit(x, HG_OP_ASHR, 0, t, 2, b, 0, NULL);
}

static uint32_t convert_container(hg_xlate *x, uint32_t v, hg_ir_type to, hg_ir_opcode widen) {
  hg_ir_type from = hg_value_type(x, v);
  if (hg_ir_type_eq(from, to)) return v;
  hg_ir_opcode op = hg_ir_scalar_bytes((hg_ir_scalar)from.scalar) > hg_ir_scalar_bytes((hg_ir_scalar)to.scalar) ? HG_OP_TRUNC : widen;
  return hg_emit(x, op, 0, to, 1, &v, 0, NULL);
}

/* Instructions touching odd-width integers; HG_IR_NONE when v is not one. */
static uint32_t xlate_odd(hg_xlate *x, LLVMValueRef v, LLVMOpcode opc) {
  unsigned n = LLVMGetNumOperands(v);
  unsigned ro = hg_odd_int_width(LLVMTypeOf(v)), oo = n ? hg_odd_int_width(LLVMTypeOf(LLVMGetOperand(v, 0))) : 0;
  if (!ro && !oo) return HG_IR_NONE;
  if (n > 2) return HG_IR_NONE; /* select: nothing to adjust */
  uint32_t ops[2];
  for (unsigned i = 0; i < n; i++) ops[i] = hg_xlate_operand(x, LLVMGetOperand(v, i));
  hg_ir_type t = hg_xlate_type(x, LLVMTypeOf(v));
  switch (opc) {
  case LLVMTrunc: return ro ? odd_mask(x, convert_container(x, ops[0], t, HG_OP_ZEXT), ro) : convert_container(x, ops[0], t, HG_OP_ZEXT);
  case LLVMZExt: return convert_container(x, ops[0], t, HG_OP_ZEXT);
  case LLVMSExt: {
    uint32_t s = convert_container(x, odd_sext(x, ops[0], oo), t, HG_OP_SEXT);
    return ro ? odd_mask(x, s, ro) : s;
  }
  case LLVMSIToFP: {
    uint32_t s = odd_sext(x, ops[0], oo);
    return hg_emit(x, HG_OP_SITOFP, 0, t, 1, &s, 0, NULL);
  }
  case LLVMICmp: {
    LLVMIntPredicate p = LLVMGetICmpPredicate(v);
    if (p >= LLVMIntSGT) {
      ops[0] = odd_sext(x, ops[0], oo);
      ops[1] = odd_sext(x, ops[1], oo);
    }
    return hg_emit(x, HG_OP_ICMP, (uint16_t)int_pred(p), t, 2, ops, 0, NULL);
  }
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: {
    hg_ir_opcode op = opc == LLVMAdd ? HG_OP_ADD : opc == LLVMSub ? HG_OP_SUB : opc == LLVMMul ? HG_OP_MUL : HG_OP_SHL;
    return odd_mask(x, hg_emit(x, op, 0, t, 2, ops, 0, NULL), ro);
  }
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMLShr: case LLVMUDiv: case LLVMURem: {
    hg_ir_opcode op = opc == LLVMAnd ? HG_OP_AND : opc == LLVMOr ? HG_OP_OR : opc == LLVMXor ? HG_OP_XOR
                    : opc == LLVMLShr ? HG_OP_LSHR : opc == LLVMUDiv ? HG_OP_UDIV : HG_OP_UREM;
    return hg_emit(x, op, 0, t, 2, ops, 0, NULL);
  }
  case LLVMAShr: case LLVMSDiv: case LLVMSRem: {
    hg_ir_opcode op = opc == LLVMAShr ? HG_OP_ASHR : opc == LLVMSDiv ? HG_OP_SDIV : HG_OP_SREM;
    ops[0] = odd_sext(x, ops[0], ro);
    if (opc != LLVMAShr) ops[1] = odd_sext(x, ops[1], ro);
    return odd_mask(x, hg_emit(x, op, 0, t, 2, ops, 0, NULL), ro);
  }
  case LLVMUIToFP: case LLVMFreeze: return HG_IR_NONE;
  default: hg_xlate_fail(x, "unsupported operation on a %u-bit integer", ro ? ro : oo);
  }
}

/* Instructions and constant expressions that compute a value from operands. */
static uint32_t xlate_op(hg_xlate *x, LLVMValueRef v, LLVMOpcode opc) {
  uint32_t odd = xlate_odd(x, v, opc);
  if (odd != HG_IR_NONE) return odd;
  static const struct { LLVMOpcode llvm; hg_ir_opcode op; } simple[] = {
      {LLVMAdd, HG_OP_ADD}, {LLVMSub, HG_OP_SUB}, {LLVMMul, HG_OP_MUL}, {LLVMSDiv, HG_OP_SDIV},
      {LLVMUDiv, HG_OP_UDIV}, {LLVMSRem, HG_OP_SREM}, {LLVMURem, HG_OP_UREM}, {LLVMShl, HG_OP_SHL},
      {LLVMLShr, HG_OP_LSHR}, {LLVMAShr, HG_OP_ASHR}, {LLVMAnd, HG_OP_AND}, {LLVMOr, HG_OP_OR},
      {LLVMXor, HG_OP_XOR}, {LLVMFAdd, HG_OP_FADD}, {LLVMFSub, HG_OP_FSUB}, {LLVMFMul, HG_OP_FMUL},
      {LLVMFDiv, HG_OP_FDIV}, {LLVMFRem, HG_OP_FREM}, {LLVMFNeg, HG_OP_FNEG}, {LLVMSelect, HG_OP_SELECT},
      {LLVMTrunc, HG_OP_TRUNC}, {LLVMZExt, HG_OP_ZEXT}, {LLVMSExt, HG_OP_SEXT},
      {LLVMFPTrunc, HG_OP_FPTRUNC}, {LLVMFPExt, HG_OP_FPEXT}, {LLVMFPToUI, HG_OP_FPTOUI},
      {LLVMFPToSI, HG_OP_FPTOSI}, {LLVMUIToFP, HG_OP_UITOFP}, {LLVMSIToFP, HG_OP_SITOFP},
      {LLVMPtrToInt, HG_OP_PTRTOINT}, {LLVMIntToPtr, HG_OP_INTTOPTR}, {LLVMBitCast, HG_OP_BITCAST},
      {LLVMAddrSpaceCast, HG_OP_ADDRSPACECAST}, {LLVMExtractElement, HG_OP_EXTRACT},
      {LLVMInsertElement, HG_OP_INSERT},
  };
  if (opc == LLVMGetElementPtr) return xlate_gep(x, v);
  if (opc == LLVMShuffleVector) return xlate_shuffle(x, v);
  if (opc == LLVMFreeze) return hg_xlate_operand(x, LLVMGetOperand(v, 0));
  hg_ir_type t = hg_xlate_type(x, LLVMTypeOf(v));
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  if (n > 3) hg_xlate_fail(x, "unsupported instruction");
  uint32_t ops[3];
  for (unsigned i = 0; i < n; i++) ops[i] = hg_xlate_operand(x, LLVMGetOperand(v, i));
  if (opc == LLVMICmp) return hg_emit(x, HG_OP_ICMP, (uint16_t)int_pred(LLVMGetICmpPredicate(v)), t, 2, ops, 0, NULL);
  if (opc == LLVMFCmp) return hg_emit(x, HG_OP_FCMP, (uint16_t)real_pred(LLVMGetFCmpPredicate(v)), t, 2, ops, 0, NULL);
  if (opc == LLVMBitCast && hg_ir_type_eq(t, hg_value_type(x, ops[0]))) return ops[0];
  uint16_t flags = 0;
  uint32_t read = 0;
  if (LLVMIsAInstruction(v))
    hg_ptr_map_get(&x->inst_flags, v, &read);
  if ((opc == LLVMFMul || opc == LLVMFAdd || opc == LLVMFSub) && LLVMIsAInstruction(v) &&
      (x->contract_all || (read & HG_XLATE_CONTRACT)))
    flags = HG_FP_CONTRACT;
  if (opc == LLVMAdd || opc == LLVMSub || opc == LLVMMul || opc == LLVMShl)
    flags = (read & HG_XLATE_NSW ? HG_WRAP_NSW : 0) | (read & HG_XLATE_NUW ? HG_WRAP_NUW : 0);
  for (size_t i = 0; i < sizeof simple / sizeof *simple; i++)
    if (simple[i].llvm == opc) return hg_emit(x, simple[i].op, flags, t, n, ops, 0, NULL);
  hg_xlate_fail(x, "unsupported instruction or constant expression (LLVM opcode %d)", (int)opc);
}

static uint32_t block_of(hg_xlate *x, LLVMBasicBlockRef bb) {
  uint32_t b;
  if (!hg_ptr_map_get(&x->blocks, bb, &b)) hg_xlate_fail(x, "branch to an unreachable block");
  return b;
}

static void xlate_alloca(hg_xlate *x, LLVMValueRef v) {
  LLVMTypeRef t = LLVMGetAllocatedType(v);
  LLVMValueRef count = LLVMGetOperand(v, 0);
  if (!LLVMIsAConstantInt(count)) hg_xlate_fail(x, "variable-length private arrays are not supported");
  uint64_t size = hg_type_size(x, t) * LLVMConstIntGetZExtValue(count);
  unsigned align = LLVMGetAlignment(v);
  if (align < hg_type_align(x, t)) align = hg_type_align(x, t);
  if (size > UINT32_MAX) hg_xlate_fail(x, "private array too large");
  uint32_t slot = hg_ir_add_slot(x->f, (uint32_t)(size ? size : 1), align);
  hg_ptr_map_put(&x->values, v, hg_emit(x, HG_OP_SLOT, 0, hg_ir_ptr_ty(HG_AS_PRIVATE), 0, NULL, 1, &slot));
}

static void xlate_cmpxchg(hg_xlate *x, LLVMValueRef v) {
  uint32_t ops[3];
  for (unsigned i = 0; i < 3; i++) ops[i] = hg_xlate_operand(x, LLVMGetOperand(v, i));
  hg_ir_type t = hg_value_type(x, ops[1]);
  uint32_t fail_order = order_of(LLVMGetCmpXchgFailureOrdering(v));
  uint16_t flags = atomic_flags(v, HG_ATOMIC_XCHG, LLVMGetCmpXchgSuccessOrdering(v)) & 0xff00;
  uint32_t old = hg_emit(x, HG_OP_CMPXCHG, flags, t, 3, ops, 1, &fail_order);
  uint32_t cmp_ops[2] = {old, ops[1]};
  uint32_t ok = hg_emit(x, HG_OP_ICMP, HG_CMP_EQ, hg_ir_ty(HG_IR_BOOL, 1), 2, cmp_ops, 0, NULL);
  uint32_t elems[2] = {old, ok};
  hg_agg_new(x, v, 2, elems);
}

static void xlate_atomicrmw(hg_xlate *x, LLVMValueRef v) {
  hg_ir_atomic_op op;
  switch (LLVMGetAtomicRMWBinOp(v)) {
  case LLVMAtomicRMWBinOpXchg: op = HG_ATOMIC_XCHG; break;
  case LLVMAtomicRMWBinOpAdd: op = HG_ATOMIC_ADD; break;
  case LLVMAtomicRMWBinOpSub: op = HG_ATOMIC_SUB; break;
  case LLVMAtomicRMWBinOpAnd: op = HG_ATOMIC_AND; break;
  case LLVMAtomicRMWBinOpOr: op = HG_ATOMIC_OR; break;
  case LLVMAtomicRMWBinOpXor: op = HG_ATOMIC_XOR; break;
  case LLVMAtomicRMWBinOpMax: op = HG_ATOMIC_SMAX; break;
  case LLVMAtomicRMWBinOpMin: op = HG_ATOMIC_SMIN; break;
  case LLVMAtomicRMWBinOpUMax: op = HG_ATOMIC_UMAX; break;
  case LLVMAtomicRMWBinOpUMin: op = HG_ATOMIC_UMIN; break;
  case LLVMAtomicRMWBinOpFAdd: op = HG_ATOMIC_FADD; break;
  default: hg_xlate_fail(x, "unsupported atomicrmw operation");
  }
  uint32_t ops[2] = {hg_xlate_operand(x, LLVMGetOperand(v, 0)), hg_xlate_operand(x, LLVMGetOperand(v, 1))};
  hg_ir_type t = hg_value_type(x, ops[1]);
  hg_ptr_map_put(&x->values, v, hg_emit(x, HG_OP_ATOMIC_RMW, atomic_flags(v, op, LLVMGetOrdering(v)), t, 2, ops, 0, NULL));
}

static void xlate_load_store(hg_xlate *x, LLVMValueRef v, bool is_load) {
  if (hg_is_aggregate_type(LLVMTypeOf(is_load ? v : LLVMGetOperand(v, 0)))) {
    hg_xlate_aggregate_access(x, v, is_load);
    return;
  }
  LLVMAtomicOrdering o = LLVMGetOrdering(v);
  if (hg_odd_int_width(LLVMTypeOf(is_load ? v : LLVMGetOperand(v, 0))))
    hg_xlate_fail(x, "memory access of an odd-width integer is not supported");
  if (is_load) {
    hg_ir_type t = hg_xlate_type(x, LLVMTypeOf(v));
    uint32_t p = hg_xlate_operand(x, LLVMGetOperand(v, 0));
    uint32_t r = o != LLVMAtomicOrderingNotAtomic
                     ? hg_emit(x, HG_OP_ATOMIC_RMW, atomic_flags(v, HG_ATOMIC_LOAD, o), t, 1, &p, 0, NULL)
                     : hg_emit(x, HG_OP_LOAD, hg_xlate_mem_flags(v, LLVMGetAlignment(v)), t, 1, &p, 0, NULL);
    hg_ptr_map_put(&x->values, v, r);
    return;
  }
  uint32_t ops[2] = {hg_xlate_operand(x, LLVMGetOperand(v, 1)), hg_xlate_operand(x, LLVMGetOperand(v, 0))};
  if (o != LLVMAtomicOrderingNotAtomic)
    hg_emit(x, HG_OP_ATOMIC_RMW, atomic_flags(v, HG_ATOMIC_STORE, o), hg_ir_ty(HG_IR_VOID, 1), 2, ops, 0, NULL);
  else
    hg_emit(x, HG_OP_STORE, hg_xlate_mem_flags(v, LLVMGetAlignment(v)), hg_ir_ty(HG_IR_VOID, 1), 2, ops, 0, NULL);
}

/* Phi incoming values that are constant expressions are materialised in the predecessor,
 * before its terminator. */
typedef struct phi_const {
  LLVMValueRef phi;
  uint32_t pred, value;
} phi_const;

typedef struct fn_state {
  phi_const *pcs;
  uint32_t num_pcs, cap_pcs;
  struct { LLVMValueRef phi; uint32_t block, inst, leaf; } *phis; /* leaf: of an aggregate phi, or HG_IR_NONE */
  uint32_t num_phis, cap_phis;
} fn_state;

static void materialise_successor_phis(hg_xlate *x, fn_state *s, LLVMValueRef term, LLVMBasicBlockRef self) {
  unsigned ns = LLVMGetNumSuccessors(term);
  for (unsigned i = 0; i < ns; i++) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(term, i);
    for (LLVMValueRef p = LLVMGetFirstInstruction(succ); p && LLVMGetInstructionOpcode(p) == LLVMPHI;
         p = LLVMGetNextInstruction(p)) {
      unsigned ni = LLVMCountIncoming(p);
      for (unsigned j = 0; j < ni; j++) {
        LLVMValueRef in = LLVMGetIncomingValue(p, j);
        if (LLVMGetIncomingBlock(p, j) != self || !LLVMIsAConstantExpr(in)) continue;
        if (s->num_pcs == s->cap_pcs) {
          s->cap_pcs = s->cap_pcs ? s->cap_pcs * 2 : 8;
          s->pcs = realloc(s->pcs, s->cap_pcs * sizeof *s->pcs);
          if (!s->pcs) abort();
          x->scratch[2] = s->pcs;
        }
        s->pcs[s->num_pcs++] = (phi_const){p, x->cur_block, hg_xlate_operand(x, in)};
      }
    }
  }
}

static void xlate_terminator(hg_xlate *x, LLVMValueRef v, LLVMOpcode opc) {
  hg_ir_type vt = hg_ir_ty(HG_IR_VOID, 1);
  switch (opc) {
  case LLVMRet:
    if (LLVMGetNumOperands(v) == 0) {
      hg_emit(x, HG_OP_RET, 0, vt, 0, NULL, 0, NULL);
    } else {
      uint32_t r = hg_xlate_operand(x, LLVMGetOperand(v, 0));
      hg_emit(x, HG_OP_RET, 0, vt, 1, &r, 0, NULL);
    }
    return;
  case LLVMBr:
    if (LLVMIsConditional(v)) {
      uint32_t c = hg_xlate_operand(x, LLVMGetCondition(v));
      uint32_t imm[2] = {block_of(x, LLVMGetSuccessor(v, 0)), block_of(x, LLVMGetSuccessor(v, 1))};
      hg_emit(x, HG_OP_CONDBR, 0, vt, 1, &c, 2, imm);
    } else {
      uint32_t t = block_of(x, LLVMGetSuccessor(v, 0));
      hg_emit(x, HG_OP_BR, 0, vt, 0, NULL, 1, &t);
    }
    return;
  case LLVMSwitch: {
    unsigned ns = LLVMGetNumSuccessors(v); /* default + cases */
    uint32_t *ops = hg_xlate_temp(x, ns * sizeof *ops), *imm = hg_xlate_temp(x, ns * sizeof *imm);
    ops[0] = hg_xlate_operand(x, LLVMGetOperand(v, 0)); /* LLVMGetCondition is for br only */
    imm[0] = block_of(x, LLVMGetSwitchDefaultDest(v));
    for (unsigned i = 1; i < ns; i++) {
      ops[i] = hg_xlate_operand(x, LLVMGetOperand(v, 2 * i));
      imm[i] = block_of(x, LLVMGetSuccessor(v, i));
    }
    hg_emit(x, HG_OP_SWITCH, 0, vt, ns, ops, ns, imm);
    hg_xlate_temp_free(x, ops);
    hg_xlate_temp_free(x, imm);
    return;
  }
  case LLVMUnreachable: hg_emit(x, HG_OP_UNREACHABLE, 0, vt, 0, NULL, 0, NULL); return;
  default: hg_xlate_fail(x, "unsupported terminator (LLVM opcode %d)", (int)opc);
  }
}

/* A phi of type t with placeholder operands, filled in by patch_phis (leaf: which leaf of an
 * aggregate phi it is, or HG_IR_NONE). */
static uint32_t xlate_phi(hg_xlate *x, fn_state *s, LLVMValueRef v, hg_ir_type t, uint32_t leaf) {
  unsigned n = LLVMCountIncoming(v);
  uint32_t *ops = malloc((n + 1) * sizeof *ops), *imm = malloc((n + 1) * sizeof *imm);
  if (!ops || !imm) abort();
  uint32_t undef = hg_ir_add_undef(x->f, t), k = 0;
  for (unsigned j = 0; j < n; j++) {
    uint32_t pb;
    if (!hg_ptr_map_get(&x->blocks, LLVMGetIncomingBlock(v, j), &pb)) continue; /* dead edge */
    ops[k] = undef;
    imm[k++] = pb;
  }
  uint32_t inst_index = x->f->blocks[x->cur_block].num_insts;
  uint32_t r = hg_emit(x, HG_OP_PHI, 0, t, k, ops, k, imm);
  free(ops);
  free(imm);
  if (s->num_phis == s->cap_phis) {
    s->cap_phis = s->cap_phis ? s->cap_phis * 2 : 8;
    s->phis = realloc(s->phis, s->cap_phis * sizeof *s->phis);
    if (!s->phis) abort();
    x->scratch[3] = s->phis;
  }
  s->phis[s->num_phis].phi = v;
  s->phis[s->num_phis].block = x->cur_block;
  s->phis[s->num_phis].leaf = leaf;
  s->phis[s->num_phis++].inst = inst_index;
  return r;
}

static void xlate_block(hg_xlate *x, fn_state *s, LLVMBasicBlockRef bb) {
  x->cur_block = block_of(x, bb);
  for (LLVMValueRef v = LLVMGetFirstInstruction(bb); v; v = LLVMGetNextInstruction(v)) {
    LLVMOpcode opc = LLVMGetInstructionOpcode(v);
    if (LLVMIsATerminatorInst(v)) {
      materialise_successor_phis(x, s, v, bb);
      xlate_terminator(x, v, opc);
      return;
    }
    switch (opc) {
    case LLVMPHI: {
      if (!hg_is_aggregate_type(LLVMTypeOf(v))) {
        hg_ptr_map_put(&x->values, v, xlate_phi(x, s, v, hg_xlate_type(x, LLVMTypeOf(v)), HG_IR_NONE));
        break;
      }
      hg_ir_type types[HG_AGG_MAX];
      uint32_t leaves[HG_AGG_MAX];
      unsigned n = hg_aggregate_leaf_types(x, LLVMTypeOf(v), types);
      for (unsigned i = 0; i < n; i++) leaves[i] = xlate_phi(x, s, v, types[i], i);
      hg_agg_new(x, v, n, leaves);
      break;
    }
    case LLVMAlloca: xlate_alloca(x, v); break;
    case LLVMLoad: xlate_load_store(x, v, true); break;
    case LLVMStore: xlate_load_store(x, v, false); break;
    case LLVMCall: hg_xlate_call(x, v); break;
    case LLVMAtomicCmpXchg: xlate_cmpxchg(x, v); break;
    case LLVMAtomicRMW: xlate_atomicrmw(x, v); break;
    case LLVMFence: {
      uint32_t fl = HG_FENCE_GLOBAL | HG_FENCE_LOCAL;
      hg_emit(x, HG_OP_FENCE, atomic_flags(v, HG_ATOMIC_XCHG, LLVMGetOrdering(v)) & 0xff00, hg_ir_ty(HG_IR_VOID, 1), 0,
              NULL, 1, &fl);
      break;
    }
    case LLVMExtractValue: hg_xlate_extractvalue(x, v); break;
    case LLVMInsertValue: hg_xlate_insertvalue(x, v); break;
    case LLVMSelect:
      if (hg_is_aggregate_type(LLVMTypeOf(v))) hg_xlate_aggregate_select(x, v);
      else hg_ptr_map_put(&x->values, v, xlate_op(x, v, opc));
      break;
    default:
      if (!hg_xlate_wide_vector_op(x, v, opc)) hg_ptr_map_put(&x->values, v, xlate_op(x, v, opc));
      break;
    }
  }
  hg_xlate_fail(x, "basic block without a terminator");
}

/* Fills the phis' operands once every block is translated. */
static void patch_phis(hg_xlate *x, fn_state *s) {
  for (uint32_t i = 0; i < s->num_phis; i++) {
    LLVMValueRef p = s->phis[i].phi;
    hg_ir_inst *inst = &x->f->blocks[s->phis[i].block].insts[s->phis[i].inst];
    unsigned n = LLVMCountIncoming(p), k = 0;
    for (unsigned j = 0; j < n; j++) {
      uint32_t pb;
      if (!hg_ptr_map_get(&x->blocks, LLVMGetIncomingBlock(p, j), &pb)) continue;
      LLVMValueRef in = LLVMGetIncomingValue(p, j);
      uint32_t val = HG_IR_NONE;
      if (s->phis[i].leaf != HG_IR_NONE) {
        x->cur_block = pb;
        val = hg_agg_of(x, in)->elems[s->phis[i].leaf];
      } else if (LLVMIsAConstantExpr(in)) {
        for (uint32_t c = 0; c < s->num_pcs; c++)
          if (s->pcs[c].phi == p && s->pcs[c].pred == pb) val = s->pcs[c].value;
        if (val == HG_IR_NONE) hg_xlate_fail(x, "phi operand not materialised");
      } else {
        x->cur_block = pb;
        val = hg_xlate_operand(x, in);
      }
      inst = &x->f->blocks[s->phis[i].block].insts[s->phis[i].inst];
      inst->operands[k++] = val;
    }
  }
}

void hg_xlate_function_body(hg_xlate *x, LLVMValueRef fn, uint32_t fidx) {
  x->fn = fn;
  x->fidx = fidx;
  x->f = &x->m->functions[fidx];
  hg_ptr_map_free(&x->values);
  hg_ptr_map_free(&x->blocks);
  hg_ptr_map_free(&x->aggs);
  x->num_aggs = 0;
  unsigned np = LLVMCountParams(fn);
  for (unsigned i = 0; i < np; i++) hg_ptr_map_put(&x->values, LLVMGetParam(fn, i), i);

  /* reverse post-order over reachable blocks (iterative DFS) */
  unsigned nb = LLVMCountBasicBlocks(fn);
  LLVMBasicBlockRef *all = malloc(nb * sizeof *all), *post = malloc(nb * sizeof *post);
  struct { LLVMBasicBlockRef bb; unsigned next; } *stack = malloc(nb * sizeof *stack);
  if (!all || !post || !stack) abort();
  x->scratch[0] = all;
  x->scratch[1] = post;
  LLVMGetBasicBlocks(fn, all);
  hg_ptr_map seen = {0};
  unsigned sp = 0, npost = 0;
  stack[sp].bb = all[0];
  stack[sp++].next = 0;
  hg_ptr_map_put(&seen, all[0], 1);
  while (sp) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[sp - 1].bb);
    unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
    if (stack[sp - 1].next < ns) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, stack[sp - 1].next++);
      uint32_t dummy;
      if (!hg_ptr_map_get(&seen, s, &dummy)) {
        hg_ptr_map_put(&seen, s, 1);
        stack[sp].bb = s;
        stack[sp++].next = 0;
      }
    } else {
      post[npost++] = stack[--sp].bb;
    }
  }
  for (unsigned i = 0; i < nb; i++) {
    uint32_t dummy;
    if (hg_ptr_map_get(&seen, all[i], &dummy)) hg_ptr_map_put(&x->blocks, all[i], hg_ir_add_block(x->f));
  }
  hg_ptr_map_free(&seen);
  free(stack);

  fn_state s = {0};
  for (unsigned i = npost; i-- > 0;) xlate_block(x, &s, post[i]);
  patch_phis(x, &s);
  free(s.pcs);
  free(s.phis);
  free(all);
  free(post);
  memset(x->scratch, 0, sizeof x->scratch);
}
