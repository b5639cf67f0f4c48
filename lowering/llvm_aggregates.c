/* LLVM first-class aggregate values (structs and arrays held in SSA values) -> their leaves.
 *
 * The IR has no aggregate types, so an aggregate value is kept as the IR values of its leaves:
 * the scalars and vectors it is made of, nested structs and arrays flattened in memory order,
 * each with its byte offset in the aggregate's memory layout. clang's OpenCL C rarely leaves
 * them (cmpxchg and *.with.overflow results), but SPIR-V does: OpConstantComposite, OpUndef,
 * OpCopyObject, OpCompositeConstruct and OpSelect of structs come out of the translator as
 * aggregate constants, loads, stores, insertvalue chains, selects and phis. */
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

bool hg_is_aggregate_type(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMStructTypeKind || k == LLVMArrayTypeKind || hg_is_wide_vector_type(t);
}

/* Fails the translation when n leaves leave no room for another. */
static void too_many_leaves(hg_xlate *x, unsigned n) {
  if (n >= HG_AGG_MAX) hg_xlate_fail(x, "aggregate value with more than %d scalar or vector members", HG_AGG_MAX);
}

/* The leaves of type t at byte offset base, appended to types/offsets from *n. More than
 * HG_AGG_MAX leaves, or types nested deeper than MAX_DEPTH, fail the translation (the input may
 * be anyone's SPIR-V). */
#define MAX_DEPTH 64
static void leaves_of(hg_xlate *x, LLVMTypeRef t, uint64_t base, LLVMTypeRef *types, uint64_t *offsets, unsigned *n,
                      unsigned depth) {
  if (depth > MAX_DEPTH) hg_xlate_fail(x, "aggregate type nested more than %d deep", MAX_DEPTH);
  if (hg_is_wide_vector_type(t)) { /* pieces of legal lane counts, in lane order */
    LLVMTypeRef e = LLVMGetElementType(t);
    uint64_t esize = LLVMABISizeOfType(x->td, e);
    for (unsigned lane = 0, total = LLVMGetVectorSize(t); lane < total;) {
      unsigned k = hg_wide_piece_lanes(total - lane);
      too_many_leaves(x, *n);
      types[*n] = k == 1 ? e : LLVMVectorType(e, k);
      offsets[*n] = base + lane * esize;
      (*n)++;
      lane += k;
    }
    return;
  }
  switch (LLVMGetTypeKind(t)) {
  case LLVMStructTypeKind: {
    unsigned count = LLVMCountStructElementTypes(t);
    for (unsigned i = 0; i < count; i++)
      leaves_of(x, LLVMStructGetTypeAtIndex(t, i), base + LLVMOffsetOfElement(x->td, t, i), types, offsets, n,
                depth + 1);
    return;
  }
  case LLVMArrayTypeKind: {
    /* the first element's leaves, repeated at the stride (an array of empty structs has none) */
    LLVMTypeRef e = LLVMGetElementType(t);
    uint64_t stride = LLVMABISizeOfType(x->td, e), len = LLVMGetArrayLength(t);
    unsigned first = *n;
    if (len) leaves_of(x, e, base, types, offsets, n, depth + 1);
    unsigned per = *n - first;
    for (uint64_t i = 1; per && i < len; i++)
      for (unsigned j = 0; j < per; j++) {
        too_many_leaves(x, *n);
        types[*n] = types[first + j];
        offsets[*n] = offsets[first + j] + i * stride;
        (*n)++;
      }
    return;
  }
  default:
    too_many_leaves(x, *n);
    (void)hg_xlate_type(x, t); /* fails on what the IR cannot hold */
    types[*n] = t;
    offsets[*n] = base;
    (*n)++;
  }
}

static unsigned leaf_count(hg_xlate *x, LLVMTypeRef t) {
  LLVMTypeRef types[HG_AGG_MAX];
  uint64_t offsets[HG_AGG_MAX];
  unsigned n = 0;
  leaves_of(x, t, 0, types, offsets, &n, 0);
  return n;
}

uint32_t hg_agg_new(hg_xlate *x, LLVMValueRef v, uint32_t count, const uint32_t *elems) {
  if (count > HG_AGG_MAX) too_many_leaves(x, count);
  if (x->num_aggs == x->cap_aggs) {
    x->cap_aggs = x->cap_aggs ? x->cap_aggs * 2 : 16;
    x->agg_list = realloc(x->agg_list, x->cap_aggs * sizeof *x->agg_list);
    if (!x->agg_list) abort();
  }
  hg_aggregate *a = &x->agg_list[x->num_aggs];
  a->count = count;
  memcpy(a->elems, elems, count * sizeof *elems);
  if (v) hg_ptr_map_put(&x->aggs, v, x->num_aggs);
  return x->num_aggs++;
}

/* The leaves of a constant aggregate (zero, undef, poison, struct, array, data array). */
static void constant_leaves(hg_xlate *x, LLVMValueRef c, uint32_t *out, unsigned *n) {
  LLVMTypeRef t = LLVMTypeOf(c);
  if (!hg_is_aggregate_type(t)) {
    too_many_leaves(x, *n);
    out[(*n)++] = hg_xlate_operand(x, c);
    return;
  }
  if (!leaf_count(x, t)) return; /* also bounds the walk below (leaf_count fails past HG_AGG_MAX) */
  if (hg_is_wide_vector_type(t)) { /* each piece an LLVM constant vector of its lanes */
    for (unsigned lane = 0, total = LLVMGetVectorSize(t); lane < total;) {
      unsigned k = hg_wide_piece_lanes(total - lane);
      LLVMValueRef lanes[16];
      for (unsigned j = 0; j < k; j++)
        if (!(lanes[j] = LLVMGetAggregateElement(c, lane + j))) hg_xlate_fail(x, "unsupported vector constant");
      out[(*n)++] = hg_xlate_operand(x, k == 1 ? lanes[0] : LLVMConstVector(lanes, k));
      lane += k;
    }
    return;
  }
  unsigned count = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : LLVMGetArrayLength(t);
  for (unsigned i = 0; i < count; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(c, i); /* also of zero, undef and poison */
    if (!e) hg_xlate_fail(x, "unsupported aggregate constant");
    constant_leaves(x, e, out, n);
  }
}

const hg_aggregate *hg_agg_of(hg_xlate *x, LLVMValueRef v) {
  uint32_t a;
  if (hg_ptr_map_get(&x->aggs, v, &a)) return &x->agg_list[a];
  if (!LLVMIsAConstant(v) || LLVMIsAConstantExpr(v)) hg_xlate_fail(x, "unsupported aggregate value");
  uint32_t leaves[HG_AGG_MAX];
  unsigned n = 0;
  constant_leaves(x, v, leaves, &n);
  /* not cached: a leaf may be a constant expression made an instruction in this block */
  uint32_t made = hg_agg_new(x, NULL, n, leaves); /* before reading agg_list: it may move */
  return &x->agg_list[made];
}

/* The first leaf and the type of the member an index path names. */
static unsigned member_of(hg_xlate *x, LLVMTypeRef t, const unsigned *idx, unsigned nidx, LLVMTypeRef *member) {
  unsigned first = 0;
  for (unsigned k = 0; k < nidx; k++) {
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      if (idx[k] >= LLVMCountStructElementTypes(t)) hg_xlate_fail(x, "aggregate index out of range");
      for (unsigned i = 0; i < idx[k]; i++) first += leaf_count(x, LLVMStructGetTypeAtIndex(t, i));
      t = LLVMStructGetTypeAtIndex(t, idx[k]);
    } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
      if (idx[k] >= LLVMGetArrayLength(t)) hg_xlate_fail(x, "aggregate index out of range");
      t = LLVMGetElementType(t);
      first += idx[k] * leaf_count(x, t);
    } else {
      hg_xlate_fail(x, "aggregate index into a non-aggregate");
    }
  }
  *member = t;
  return first;
}

void hg_xlate_extractvalue(hg_xlate *x, LLVMValueRef v) {
  LLVMValueRef base = LLVMGetOperand(v, 0);
  const hg_aggregate *a = hg_agg_of(x, base);
  LLVMTypeRef member;
  unsigned first = member_of(x, LLVMTypeOf(base), LLVMGetIndices(v), LLVMGetNumIndices(v), &member);
  unsigned n = leaf_count(x, member);
  if (first + n > a->count) hg_xlate_fail(x, "extractvalue outside its aggregate");
  if (hg_is_aggregate_type(member)) {
    uint32_t leaves[HG_AGG_MAX];
    memcpy(leaves, a->elems + first, n * sizeof *leaves);
    hg_agg_new(x, v, n, leaves);
  } else {
    hg_ptr_map_put(&x->values, v, a->elems[first]);
  }
}

void hg_xlate_insertvalue(hg_xlate *x, LLVMValueRef v) {
  const hg_aggregate *a = hg_agg_of(x, LLVMGetOperand(v, 0));
  uint32_t leaves[HG_AGG_MAX];
  unsigned count = a->count;
  memcpy(leaves, a->elems, count * sizeof *leaves);
  LLVMTypeRef member;
  unsigned first = member_of(x, LLVMTypeOf(v), LLVMGetIndices(v), LLVMGetNumIndices(v), &member);
  LLVMValueRef in = LLVMGetOperand(v, 1);
  if (hg_is_aggregate_type(member)) {
    const hg_aggregate *b = hg_agg_of(x, in);
    if (first + b->count > count) hg_xlate_fail(x, "insertvalue outside its aggregate");
    memcpy(leaves + first, b->elems, b->count * sizeof *leaves);
  } else {
    if (first >= count) hg_xlate_fail(x, "insertvalue outside its aggregate");
    leaves[first] = hg_xlate_operand(x, in);
  }
  hg_agg_new(x, v, count, leaves);
}

/* The largest power of two dividing both the access's alignment and the offset. */
static unsigned align_at(unsigned align, uint64_t offset) {
  unsigned a = align ? align : 1;
  while (a > 1 && offset % a) a >>= 1;
  return a;
}

static uint32_t leaf_address(hg_xlate *x, uint32_t p, uint64_t offset) {
  if (!offset) return p;
  uint32_t ops[2] = {p, hg_xlate_const_int(x, hg_ir_ty(HG_IR_I64, 1), offset)};
  return hg_emit(x, HG_OP_PTRADD, 0, hg_value_type(x, p), 2, ops, 0, NULL);
}

/* Memory flags of one leaf's access: the instruction's volatility (inst may be NULL), the
 * alignment the leaf's offset keeps. */
static uint16_t leaf_flags(LLVMValueRef inst, unsigned align, uint64_t offset) {
  unsigned a = align_at(align, offset), l2 = 0;
  while ((1u << l2) < a) l2++;
  return inst ? hg_xlate_mem_flags(inst, a) : (uint16_t)(l2 << 8);
}

unsigned hg_agg_load(hg_xlate *x, LLVMTypeRef t, uint32_t p, unsigned align, LLVMValueRef inst, uint32_t *leaves) {
  LLVMTypeRef types[HG_AGG_MAX];
  uint64_t offsets[HG_AGG_MAX];
  unsigned n = 0;
  leaves_of(x, t, 0, types, offsets, &n, 0);
  for (unsigned i = 0; i < n; i++)
    leaves[i] = hg_emit(x, HG_OP_LOAD, leaf_flags(inst, align, offsets[i]), hg_xlate_type(x, types[i]), 1,
                        (uint32_t[]){leaf_address(x, p, offsets[i])}, 0, NULL);
  return n;
}

void hg_agg_store(hg_xlate *x, LLVMTypeRef t, const uint32_t *leaves, unsigned count, uint32_t p, unsigned align,
                  LLVMValueRef inst) {
  LLVMTypeRef types[HG_AGG_MAX];
  uint64_t offsets[HG_AGG_MAX];
  unsigned n = 0;
  leaves_of(x, t, 0, types, offsets, &n, 0);
  if (count != n) hg_xlate_fail(x, "stored aggregate does not match its type");
  uint32_t vals[HG_AGG_MAX];
  memcpy(vals, leaves, n * sizeof *vals); /* leaves may point into agg_list, which emitting may move */
  for (unsigned i = 0; i < n; i++) {
    uint32_t ops[2] = {leaf_address(x, p, offsets[i]), vals[i]};
    hg_emit(x, HG_OP_STORE, leaf_flags(inst, align, offsets[i]), hg_ir_ty(HG_IR_VOID, 1), 2, ops, 0, NULL);
  }
}

void hg_xlate_aggregate_access(hg_xlate *x, LLVMValueRef v, bool is_load) {
  if (LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic) hg_xlate_fail(x, "atomic access of an aggregate");
  LLVMTypeRef t = LLVMTypeOf(is_load ? v : LLVMGetOperand(v, 0));
  uint32_t p = hg_xlate_operand(x, LLVMGetOperand(v, is_load ? 0 : 1));
  if (is_load) {
    uint32_t leaves[HG_AGG_MAX];
    hg_agg_new(x, v, hg_agg_load(x, t, p, LLVMGetAlignment(v), v, leaves), leaves);
    return;
  }
  const hg_aggregate *a = hg_agg_of(x, LLVMGetOperand(v, 0));
  hg_agg_store(x, t, a->elems, a->count, p, LLVMGetAlignment(v), v);
}

void hg_xlate_aggregate_select(hg_xlate *x, LLVMValueRef v) {
  uint32_t cond = hg_xlate_operand(x, LLVMGetOperand(v, 0));
  if (hg_value_type(x, cond).lanes > 1) hg_xlate_fail(x, "select of aggregates by a vector condition");
  uint32_t a[HG_AGG_MAX], b[HG_AGG_MAX], r[HG_AGG_MAX];
  const hg_aggregate *ta = hg_agg_of(x, LLVMGetOperand(v, 1));
  unsigned n = ta->count;
  memcpy(a, ta->elems, n * sizeof *a);
  const hg_aggregate *tb = hg_agg_of(x, LLVMGetOperand(v, 2));
  if (tb->count != n) hg_xlate_fail(x, "select of aggregates that do not match");
  memcpy(b, tb->elems, n * sizeof *b);
  for (unsigned i = 0; i < n; i++)
    r[i] = hg_emit(x, HG_OP_SELECT, 0, hg_value_type(x, a[i]), 3, (uint32_t[]){cond, a[i], b[i]}, 0, NULL);
  hg_agg_new(x, v, n, r);
}

unsigned hg_aggregate_leaf_types(hg_xlate *x, LLVMTypeRef t, hg_ir_type *types) {
  LLVMTypeRef lt[HG_AGG_MAX];
  uint64_t offsets[HG_AGG_MAX];
  unsigned n = 0;
  leaves_of(x, t, 0, lt, offsets, &n, 0);
  for (unsigned i = 0; i < n; i++) types[i] = hg_xlate_type(x, lt[i]);
  return n;
}
