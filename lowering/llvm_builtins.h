/* OpenCL C builtins (call_builtin "name") as inline LLVM IR, for every back end that emits LLVM
 * (lowering/llvm_emit.h): integer, common, geometric, relational, vector-data, conversion,
 * rounding and legacy atomic builtins and fences. What depends on the target (work-item
 * functions, math functions, printf, half rounding, safe-point polls) the back end lowers
 * through two hooks. Used by the RISC-V back end (devices/riscv/codegen_builtins.c) and the PTX
 * back end (lowering/ptx.c). */
#ifndef HETGPU_LOWERING_LLVM_BUILTINS_H
#define HETGPU_LOWERING_LLVM_BUILTINS_H

#include "lowering/llvm_emit.h"

/* One call being lowered: its operands' values and types and its result type. */
typedef struct hg_llvm_builtin_call {
  hg_llvm_emit *e;
  const hg_ir_inst *in;
  const char *name;
  unsigned n;          /* operands */
  LLVMValueRef a[64];  /* operand values */
  hg_ir_type at[64];   /* operand types */
  hg_ir_type rt;       /* result type */
  LLVMTypeRef T;       /* result LLVM type */
} hg_llvm_builtin_call;

static inline bool hg_llvm_is_float(hg_ir_type t) {
  return t.scalar == HG_IR_F16 || t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64;
}
/* Whether operand i is unsigned (the call's flags). */
static inline bool hg_llvm_arg_unsigned(const hg_llvm_builtin_call *x, unsigned i) { return (x->in->flags >> i) & 1; }

typedef struct hg_llvm_builtin_hooks {
  const char *target; /* the back end's name, for messages */
  /* Asked first, then last (what the inline lowering leaves: math functions); each returns
   * NULL without failing for a builtin it does not lower. Either may be NULL. */
  LLVMValueRef (*first)(hg_llvm_builtin_call *x);
  LLVMValueRef (*last)(hg_llvm_builtin_call *x);
} hg_llvm_builtin_hooks;

/* Lowers one call_builtin of e->f; NULL (with e->failed) when no lowering takes it. */
LLVMValueRef hg_llvm_builtin(hg_llvm_emit *e, const hg_ir_inst *in, const hg_llvm_builtin_hooks *h);
/* The integer, common, geometric and relational builtins (min, rotate, clz, mul_hi, clamp, mix,
 * dot, cross, length, isnan, select, ...), the OpenCL 1.2 atomics and the math functions that
 * are one LLVM intrinsic (fabs, sqrt, fmin, fmax, copysign, fma) inline; NULL for any other
 * (other math functions, vector data, conversions), and with e->failed for a call outside its
 * signature. */
LLVMValueRef hg_llvm_inline_builtin(hg_llvm_emit *e, const hg_ir_inst *in);
/* A constant repeated over `lanes` lanes (itself when lanes <= 1). */
LLVMValueRef hg_llvm_splat_const(LLVMValueRef c, unsigned lanes);
/* Lane l of a vector value (the value itself when it is a scalar). */
LLVMValueRef hg_llvm_lane(hg_llvm_emit *e, LLVMValueRef v, unsigned l);

#endif
