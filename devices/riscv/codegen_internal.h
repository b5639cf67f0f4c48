/* Shared by codegen*.c: the state of lowering one step function to LLVM IR. */
#ifndef HETGPU_DEVICES_RISCV_CODEGEN_INTERNAL_H
#define HETGPU_DEVICES_RISCV_CODEGEN_INTERNAL_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "devices/riscv/riscv_internal.h"
#include "lowering/llvm_emit.h"

typedef struct hg_rv_cg {
  hg_llvm_emit e; /* the target-neutral lowering's state (lowering/llvm_emit.h): e.f is the step
                     function being lowered, e.fn its LLVM function */
  hg_ir_module *m;
  const hg_ir_function *k; /* the step function's kernel (local layout) */
  LLVMValueRef wg, wi, frame; /* work-group record, work-item record, private frame */
  const hg_ir_resumable_plan *plan_in; /* the kernel's (which value is in which slot) */
  const hg_ir_resumable_plan *plan;    /* the same while transient slots are set up */
  LLVMValueRef *slot_alloca;  /* per step slot: the alloca of a transient slot, else NULL */
  LLVMValueRef *globals;      /* per module global (NULL for __local ones) */
  hg_rv_object *obj;          /* printf formats are collected here */
  LLVMTypeRef ptr;            /* the one pointer type */
} hg_rv_cg;

/* The target-neutral lowering's helpers, on g (every pointer is address space 0). */
#define hg_rv_fail(g, ...) hg_llvm_fail(&(g)->e, __VA_ARGS__)
/* An image is the address of its descriptor, a sampler its i32 of bits (codegen_image.c). */
static inline LLVMTypeRef hg_rv_type(hg_rv_cg *g, hg_ir_type t) {
  if (t.scalar == HG_IR_IMAGE)
    return g->ptr;
  if (t.scalar == HG_IR_SAMPLER)
    return g->e.i32;
  return hg_llvm_type(&g->e, t);
}
static inline LLVMTypeRef hg_rv_scalar_type(hg_rv_cg *g, hg_ir_scalar s) { return hg_llvm_scalar_type(&g->e, s, 0); }
static inline LLVMValueRef hg_rv_value(hg_rv_cg *g, uint32_t v) { return hg_llvm_value(&g->e, v); }
static inline LLVMValueRef hg_rv_intrinsic(hg_rv_cg *g, const char *name, LLVMTypeRef *over, unsigned nover,
                                           LLVMValueRef *args, unsigned nargs) {
  return hg_llvm_intrinsic(&g->e, name, over, nover, args, nargs);
}
/* Calls (declaring on first use) an external function of the device runtime. */
LLVMValueRef hg_rv_call_external(hg_rv_cg *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n);
/* Lowers one call_builtin (the shared lowering, lowering/llvm_builtins.h, with RISC-V's hooks);
 * NULL (with g->failed) when the builtin is not supported. */
LLVMValueRef hg_rv_builtin(hg_rv_cg *g, const hg_ir_inst *in);
/* Image builtins (codegen_image.c): read_image*, write_image*, get_image_*. */
bool hg_rv_is_image_builtin(const char *name);
LLVMValueRef hg_rv_image_builtin(hg_rv_cg *g, const hg_ir_inst *in);
/* half storage (codegen_half.c): the vload_half / vloada_half / vstore_half / vstorea_half
 * families (NULL, without failing, for any other name); binary16 bits <-> float. */
LLVMValueRef hg_rv_half_data(hg_rv_cg *g, const char *name, LLVMValueRef *a, const hg_ir_type *at, unsigned n,
                             LLVMTypeRef T);
LLVMValueRef hg_rv_half_bits_to_float(hg_rv_cg *g, LLVMValueRef h, unsigned lanes);
LLVMValueRef hg_rv_float_to_half_bits(hg_rv_cg *g, LLVMValueRef v, unsigned lanes, int mode);
/* Adds the work-group driver of kernel kc to the module. */
bool hg_rv_emit_driver(hg_rv_cg *g, const hg_ir_function *kernel, LLVMValueRef step, const hg_rv_kernel_code *kc);
/* A safe-point check at the builder's position in function fn (codegen_stop.c): counts down
 * the work-group record's poll counter (wg: its address) and every interval-th time asks the
 * simulator; an i1, true when the work-item must stop here. Splits the current block. */
LLVMValueRef hg_rv_emit_stop_check(hg_rv_cg *g, LLVMValueRef fn, LLVMValueRef wg);
/* A poll now (the driver's round boundary): an i1, true when the group must stop; marks the
 * work-group record stopping. */
LLVMValueRef hg_rv_emit_stop_poll(hg_rv_cg *g, LLVMValueRef wg);
/* Transient slots (codegen_transient.c): values only loop-header resume points keep in the
 * frame live in allocas; setup creates them (builder at the start of the entry block). */
bool hg_rv_transient_setup(hg_rv_cg *g, const hg_ir_resumable_plan *plan);
/* The loop-header resume point a constant i32 value names (a `ret` or a switch case), or HG_IR_NONE. */
uint32_t hg_rv_loop_resume_point(hg_rv_cg *g, uint32_t c);
/* Copies the transient values live at loop-header safe point sp to (or from) their frame slots. */
void hg_rv_transient_copy(hg_rv_cg *g, uint32_t sp, bool to_frame);
/* Sets the target attributes every function must carry (NOTES: a mismatch gave soft-float). */
void hg_rv_function_attrs(hg_rv_cg *g, LLVMValueRef fn);

#endif
