/* LLVM vectors of lane counts the IR has no type for (<128 x i8>, <32 x i16>, <5 x float>).
 *
 * InstCombine forms them from code that only uses OpenCL C's types: a uchar taken from a lane
 * of a ulong16 (hashcat with vector width 16) becomes an extractelement of the ulong16 bitcast
 * to <128 x i8>. Such a value is kept as an aggregate (llvm_aggregates.c) whose leaves are
 * pieces of 16, 8, 4, 2 lanes or single lanes, in lane order (hg_wide_piece_lanes), so loads,
 * stores, phis and selects by a scalar condition need nothing more. This file translates the
 * vector operations on them: bitcasts (through a private slot: the bytes are the same),
 * extractelement and insertelement (on the piece, or through a slot for a run-time index),
 * shufflevector (lane by lane) and freeze. Lane-wise arithmetic on them is refused: LLVM does
 * not form it from OpenCL C here (no vectorizer runs for the spir target). */
#include <string.h>

#include "lowering/llvm_translate.h"

bool hg_is_wide_vector_type(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return false;
  hg_ir_type legal, elem;
  LLVMTypeRef e = LLVMGetElementType(t);
  /* the lanes must be a type the IR holds (not i1: vectors of bools are bits in memory) */
  return !hg_xlate_type_ok(t, &legal) && LLVMGetVectorSize(t) > 1 && !hg_odd_int_width(e) &&
         hg_xlate_type_ok(e, &elem) && elem.scalar != HG_IR_PTR && elem.scalar != HG_IR_BOOL;
}

unsigned hg_wide_piece_lanes(unsigned remaining) {
  return remaining >= 16 ? 16 : remaining >= 8 ? 8 : remaining >= 4 ? 4 : remaining >= 2 ? 2 : 1;
}

static uint32_t const_i32(hg_xlate *x, unsigned v) { return hg_xlate_const_int(x, hg_ir_ty(HG_IR_I32, 1), v); }

/* A fresh private slot of `bytes`; its address. */
static uint32_t temp_slot(hg_xlate *x, uint64_t bytes) {
  if (bytes > UINT32_MAX) hg_xlate_fail(x, "vector too large");
  uint32_t slot = hg_ir_add_slot(x->f, (uint32_t)(bytes ? bytes : 1), 16);
  if (slot == HG_IR_NONE) hg_xlate_fail(x, "out of memory");
  return hg_emit(x, HG_OP_SLOT, 0, hg_ir_ptr_ty(HG_AS_PRIVATE), 0, NULL, 1, &slot);
}

/* The leaves of wide vector value v (a copy: emitting may move the aggregate list). */
static unsigned leaves_of_value(hg_xlate *x, LLVMValueRef v, uint32_t *out) {
  const hg_aggregate *a = hg_agg_of(x, v);
  memcpy(out, a->elems, a->count * sizeof *out);
  return a->count;
}

/* Lane `lane` of vector value v, wide or not, as a scalar. */
static uint32_t lane_value(hg_xlate *x, LLVMValueRef v, unsigned lane) {
  LLVMTypeRef t = LLVMTypeOf(v);
  hg_ir_type et = hg_xlate_type(x, LLVMGetElementType(t));
  if (!hg_is_wide_vector_type(t)) {
    uint32_t ops[2] = {hg_xlate_operand(x, v), const_i32(x, lane)};
    return hg_emit(x, HG_OP_EXTRACT, 0, et, 2, ops, 0, NULL);
  }
  uint32_t leaves[HG_AGG_MAX];
  leaves_of_value(x, v, leaves);
  unsigned first = 0, k = 0, total = LLVMGetVectorSize(t);
  for (unsigned n = hg_wide_piece_lanes(total); lane >= first + n; n = hg_wide_piece_lanes(total - first)) {
    first += n; /* the piece holding the lane: k, from lane `first` */
    k++;
  }
  if (hg_value_type(x, leaves[k]).lanes <= 1) return leaves[k];
  uint32_t ops[2] = {leaves[k], const_i32(x, lane - first)};
  return hg_emit(x, HG_OP_EXTRACT, 0, et, 2, ops, 0, NULL);
}

/* Vector of type t (wide or not) from its lanes' scalar values (HG_IR_NONE: undefined lane):
 * stores the IR value, or the aggregate of a wide one, as v's. */
static void set_from_lanes(hg_xlate *x, LLVMValueRef v, LLVMTypeRef t, const uint32_t *lanes) {
  hg_ir_type et = hg_xlate_type(x, LLVMGetElementType(t));
  unsigned total = LLVMGetVectorSize(t), count = 0;
  uint32_t leaves[HG_AGG_MAX];
  bool wide = hg_is_wide_vector_type(t);
  for (unsigned first = 0; first < total; count++) {
    unsigned n = wide ? hg_wide_piece_lanes(total - first) : total;
    if (count >= HG_AGG_MAX) hg_xlate_fail(x, "vector of too many pieces");
    hg_ir_type pt = hg_ir_ty((hg_ir_scalar)et.scalar, (uint8_t)n);
    uint32_t piece = hg_ir_add_undef(x->f, n == 1 ? et : pt);
    for (unsigned j = 0; j < n; j++) {
      if (lanes[first + j] == HG_IR_NONE) continue;
      if (n == 1) {
        piece = lanes[first];
        continue;
      }
      uint32_t ops[3] = {piece, lanes[first + j], const_i32(x, j)};
      piece = hg_emit(x, HG_OP_INSERT, 0, pt, 3, ops, 0, NULL);
    }
    leaves[count] = piece;
    first += n;
  }
  if (wide) hg_agg_new(x, v, count, leaves);
  else hg_ptr_map_put(&x->values, v, leaves[0]);
}

/* The address of lane `index` (an IR integer value) of a vector whose bytes start at p. */
static uint32_t lane_address(hg_xlate *x, uint32_t p, uint32_t index, uint64_t esize) {
  hg_ir_type i64 = hg_ir_ty(HG_IR_I64, 1);
  if (hg_value_type(x, index).scalar != HG_IR_I64) index = hg_emit(x, HG_OP_ZEXT, 0, i64, 1, &index, 0, NULL);
  uint32_t mul[2] = {index, hg_xlate_const_int(x, i64, esize)};
  uint32_t add[2] = {p, hg_emit(x, HG_OP_MUL, 0, i64, 2, mul, 0, NULL)};
  return hg_emit(x, HG_OP_PTRADD, 0, hg_ir_ptr_ty(HG_AS_PRIVATE), 2, add, 0, NULL);
}

/* Writes vector value v (wide or not) to a fresh slot; its address. */
static uint32_t spill(hg_xlate *x, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  uint32_t p = temp_slot(x, hg_type_size(x, t));
  if (hg_is_wide_vector_type(t)) {
    uint32_t leaves[HG_AGG_MAX];
    unsigned n = leaves_of_value(x, v, leaves);
    hg_agg_store(x, t, leaves, n, p, 16, NULL);
  } else {
    uint32_t ops[2] = {p, hg_xlate_operand(x, v)};
    hg_emit(x, HG_OP_STORE, 4 << 8, hg_ir_ty(HG_IR_VOID, 1), 2, ops, 0, NULL);
  }
  return p;
}

/* Reads a value of type t (wide or not) from p as v's. */
static void reload(hg_xlate *x, LLVMValueRef v, LLVMTypeRef t, uint32_t p) {
  if (hg_is_wide_vector_type(t)) {
    uint32_t leaves[HG_AGG_MAX];
    hg_agg_new(x, v, hg_agg_load(x, t, p, 16, NULL, leaves), leaves);
    return;
  }
  hg_ptr_map_put(&x->values, v, hg_emit(x, HG_OP_LOAD, 4 << 8, hg_xlate_type(x, t), 1, &p, 0, NULL));
}

static void xlate_extract(hg_xlate *x, LLVMValueRef v) {
  LLVMValueRef vec = LLVMGetOperand(v, 0), idx = LLVMGetOperand(v, 1);
  unsigned total = LLVMGetVectorSize(LLVMTypeOf(vec));
  if (LLVMIsAConstantInt(idx)) {
    uint64_t lane = LLVMConstIntGetZExtValue(idx);
    hg_ir_type et = hg_xlate_type(x, LLVMTypeOf(v));
    hg_ptr_map_put(&x->values, v, lane < total ? lane_value(x, vec, (unsigned)lane) : hg_ir_add_undef(x->f, et));
    return;
  }
  uint32_t p = spill(x, vec);
  uint32_t at = lane_address(x, p, hg_xlate_operand(x, idx), hg_type_size(x, LLVMTypeOf(v)));
  hg_ptr_map_put(&x->values, v, hg_emit(x, HG_OP_LOAD, 0, hg_xlate_type(x, LLVMTypeOf(v)), 1, &at, 0, NULL));
}

static void xlate_insert(hg_xlate *x, LLVMValueRef v) {
  LLVMValueRef vec = LLVMGetOperand(v, 0), elem = LLVMGetOperand(v, 1), idx = LLVMGetOperand(v, 2);
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned total = LLVMGetVectorSize(t);
  if (LLVMIsAConstantInt(idx)) {
    uint64_t lane = LLVMConstIntGetZExtValue(idx);
    uint32_t *lanes = hg_xlate_temp(x, total * sizeof *lanes);
    for (unsigned i = 0; i < total; i++) lanes[i] = i == lane ? hg_xlate_operand(x, elem) : lane_value(x, vec, i);
    set_from_lanes(x, v, t, lanes);
    hg_xlate_temp_free(x, lanes);
    return;
  }
  uint32_t p = spill(x, vec);
  uint32_t ops[2] = {lane_address(x, p, hg_xlate_operand(x, idx), hg_type_size(x, LLVMTypeOf(elem))),
                     hg_xlate_operand(x, elem)};
  hg_emit(x, HG_OP_STORE, 0, hg_ir_ty(HG_IR_VOID, 1), 2, ops, 0, NULL);
  reload(x, v, t, p);
}

static void xlate_shuffle(hg_xlate *x, LLVMValueRef v) {
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
  unsigned from = LLVMGetVectorSize(LLVMTypeOf(a)), n = LLVMGetNumMaskElements(v);
  uint32_t *lanes = hg_xlate_temp(x, n * sizeof *lanes);
  for (unsigned i = 0; i < n; i++) {
    int m = LLVMGetMaskValue(v, i);
    lanes[i] = m < 0 || (unsigned)m >= 2 * from ? HG_IR_NONE
                                               : lane_value(x, (unsigned)m < from ? a : b, (unsigned)m % from);
  }
  set_from_lanes(x, v, LLVMTypeOf(v), lanes);
  hg_xlate_temp_free(x, lanes);
}

bool hg_xlate_wide_vector_op(hg_xlate *x, LLVMValueRef v, LLVMOpcode opc) {
  bool wide = hg_is_wide_vector_type(LLVMTypeOf(v));
  for (int i = 0; i < LLVMGetNumOperands(v) && i < 2 && !wide; i++)
    wide = hg_is_wide_vector_type(LLVMTypeOf(LLVMGetOperand(v, i)));
  if (!wide) return false;
  switch (opc) {
  case LLVMBitCast: reload(x, v, LLVMTypeOf(v), spill(x, LLVMGetOperand(v, 0))); return true;
  case LLVMExtractElement: xlate_extract(x, v); return true;
  case LLVMInsertElement: xlate_insert(x, v); return true;
  case LLVMShuffleVector: xlate_shuffle(x, v); return true;
  case LLVMFreeze: {
    uint32_t leaves[HG_AGG_MAX];
    unsigned n = leaves_of_value(x, LLVMGetOperand(v, 0), leaves);
    hg_agg_new(x, v, n, leaves);
    return true;
  }
  default: {
    LLVMTypeRef t = LLVMTypeOf(hg_is_wide_vector_type(LLVMTypeOf(v)) ? v : LLVMGetOperand(v, 0));
    hg_xlate_fail(x, "operation (LLVM opcode %d) on a vector of %u lanes, which OpenCL C has no type for", (int)opc,
                  LLVMGetVectorSize(t));
  }
  }
}
