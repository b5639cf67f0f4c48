/* hetGPU IR function bodies as LLVM IR (LLVM-15 C API, opaque pointers): the part of every back
 * end that emits LLVM which does not depend on the target. A back end sets up the module and
 * the LLVM function, says through hooks what parameters, globals, private slots, calls and
 * builtins become on its target, and hg_llvm_emit_body lowers the blocks, instructions and phis.
 * Used by the SPIR back end (lowering/spir.c) and the RISC-V back end (devices/riscv/codegen.c). */
#ifndef HETGPU_LOWERING_LLVM_EMIT_H
#define HETGPU_LOWERING_LLVM_EMIT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"

typedef struct hg_llvm_emit hg_llvm_emit;

typedef struct hg_llvm_emit_hooks {
  /* The value of a module global (its address). */
  LLVMValueRef (*global)(hg_llvm_emit *e, uint32_t index);
  /* Asked first for every instruction: sets *handled and returns the result (NULL with
   * hg_llvm_fail when it cannot; any non-NULL value for a void one) where the target lowers it
   * its own way. SLOT, CALL, CALL_BUILTIN and BARRIER are always the target's. */
  LLVMValueRef (*inst)(hg_llvm_emit *e, const hg_ir_inst *in, bool *handled);
  /* A byte offset that is an index times an element size becomes a getelementptr over elements
   * only where the index is a sum, or a sum widened to 64 bits (PTX: ptxas unrolled hashint's
   * loop over in[(i + r) & 1023] only in the byte form, 2.09x NVIDIA's time the other way);
   * else for any index. */
  bool scaled_sums_only;
  /* An element of a module global addressed by a scaled index (plus whole elements) is a
   * getelementptr over the global as an array of such elements, [n x T] @g, 0, i, as clang
   * indexes a global array (SPIR: PoCL's SLP vectoriser gathers lanes' loads only through
   * single-index getelementptrs, and a gather of hashcat's DES s-box lookups cost -m 3100 0.6x
   * of PoCL's own build, which loads them lane by lane). */
  bool global_arrays;
} hg_llvm_emit_hooks;

struct hg_llvm_emit {
  LLVMContextRef C;
  LLVMModuleRef M;
  LLVMBuilderRef B;
  const hg_ir_module *m;
  const hg_ir_function *f; /* the function being lowered */
  LLVMValueRef fn;         /* its LLVM function: IR parameter i is LLVM parameter param_base + i */
  unsigned param_base;
  bool flat;               /* one address space: every pointer is LLVM address space 0 */
  const unsigned *addrspaces; /* else, when set: the target's address space of each IR one
                                 (private..generic); NULL: the IR's numbers (SPIR's) */
  const hg_llvm_emit_hooks *hooks;
  void *owner; /* the back end's own state */
  LLVMValueRef *vals;            /* per IR value: the lowered instruction results */
  const hg_ir_inst **defs;       /* per IR value: its defining instruction (NULL: none) */
  LLVMBasicBlockRef *bbs;        /* per IR block */
  LLVMBasicBlockRef *last_bbs;   /* per IR block: the LLVM block its terminator ends up in */
  hg_ir_contraction contr;       /* multiply-adds lowered to llvm.fmuladd (ir/contract.c) */
  char *err;
  size_t err_size;
  bool failed;
  LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, voidt;
};

/* Sets up the types of e for context C (module M, builder B created by the caller). */
void hg_llvm_emit_init(hg_llvm_emit *e, LLVMContextRef C, LLVMModuleRef M, LLVMBuilderRef B);
LLVMTypeRef hg_llvm_scalar_type(hg_llvm_emit *e, hg_ir_scalar s, unsigned addrspace);
LLVMTypeRef hg_llvm_type(hg_llvm_emit *e, hg_ir_type t);
/* The LLVM value of an operand of the function being lowered. */
LLVMValueRef hg_llvm_value(hg_llvm_emit *e, uint32_t v);
/* Records an error (the first one wins); returns NULL. */
LLVMValueRef hg_llvm_fail(hg_llvm_emit *e, const char *fmt, ...);
/* Calls an LLVM intrinsic overloaded on the given types. */
LLVMValueRef hg_llvm_intrinsic(hg_llvm_emit *e, const char *name, LLVMTypeRef *over, unsigned nover,
                               LLVMValueRef *args, unsigned nargs);
/* Calls function `name` of type ret(the arguments' types), which the module declares on first
 * use (*declared then true, for the caller's attributes); *callee receives the function. */
LLVMValueRef hg_llvm_call_named(hg_llvm_emit *e, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n,
                                LLVMValueRef *callee, bool *declared);
/* Lowers the body of e->f into e->fn; false (with the message in e->err) on failure. */
bool hg_llvm_emit_body(hg_llvm_emit *e);
/* Byte arrays, in their own address spaces, for the module's __global and __constant variables,
 * with the addresses of other globals at their relocations; `out` receives one LLVM global per
 * IR global (NULL for __local ones). __constant ones are constant. */
bool hg_llvm_emit_globals(hg_llvm_emit *e, LLVMValueRef *out, LLVMLinkage linkage);

#endif
