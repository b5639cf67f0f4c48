/* One IR module as one LLVM module, for the back ends that hand a vendor LLVM's output (SPIR
 * bitcode, lowering/spir.c; PTX, lowering/ptx.c): the context, the functions declared with their
 * parameters' types and attributes and defined with a private slot each, calls between them,
 * verification, and what differs by target through a table. */
#ifndef HETGPU_LOWERING_LLVM_UNIT_H
#define HETGPU_LOWERING_LLVM_UNIT_H

#include "lowering/llvm_emit.h"

typedef struct hg_llvm_unit {
  hg_llvm_emit e;          /* e.owner is the unit */
  LLVMValueRef *globals;   /* per IR global (the target's global hook makes __local ones) */
  LLVMValueRef *functions; /* per IR function with a body */
  LLVMValueRef *slots;     /* per private slot of the function being lowered */
  bool slice_form;         /* it is a kernel's slice form (lowering/slice_form.h) */
} hg_llvm_unit;

typedef struct hg_llvm_unit_target {
  const char *triple;
  const hg_llvm_emit_hooks *hooks;
  const unsigned *addrspaces; /* hg_llvm_emit.addrspaces */
  /* What the target leaves to the OpenCL C back end: false with the reason. */
  bool (*check)(const hg_ir_module *m, char *err, size_t err_size);
  /* The module's data layout and metadata (may be NULL). */
  void (*setup)(hg_llvm_unit *u);
  /* Function i just declared as fn (u->slice_form: kernel i's slice form): its calling
   * convention, kernel attributes, metadata. */
  void (*declared)(hg_llvm_unit *u, uint32_t i, LLVMValueRef fn);
  /* A private slot of `size` bytes aligned to `align` at the entry (NULL: an alloca). */
  LLVMValueRef (*slot)(hg_llvm_unit *u, uint32_t size, uint32_t align);
  /* The output (malloc'd, *size bytes) from the verified module, or NULL with the reason. */
  void *(*emit)(hg_llvm_unit *u, size_t *size);
} hg_llvm_unit_target;

/* Lowers m for target t, with each kernel's slice form where it can have one (slice_forms; the
 * target's builtin hook remaps the whole range's work-item functions in them): the output of
 * t->emit, or NULL with the reason in err. */
void *hg_llvm_unit_lower(const hg_ir_module *m, const hg_llvm_unit_target *t, bool slice_forms, size_t *size, char *err,
                         size_t err_size);
/* What both targets leave to the OpenCL C back end: program-scope variables kernels write (a
 * program's kernels and their stoppable forms, built apart, must share them), half values, image
 * and sampler arguments. False with the reason. */
bool hg_llvm_unit_check(const hg_ir_module *m, char *err, size_t err_size);
/* The global hook (lowering/llvm_emit.h): a __local variable is an internal global of the
 * target's local address space, made at its first use in each kernel (a slice form has its own)
 * and named as clang names a kernel's, "<kernel>.<variable>": PoCL takes only globals so named
 * for the kernel's own (others would be one array shared by every work-group at once); in PTX a
 * module-scope .shared variable, one per work-group of each kernel that uses it. */
LLVMValueRef hg_llvm_unit_global(hg_llvm_emit *e, uint32_t index);
/* The private slot an HG_OP_SLOT names; a call (HG_OP_CALL) to a function with a body. */
LLVMValueRef hg_llvm_unit_slot(hg_llvm_unit *u, const hg_ir_inst *in);
LLVMValueRef hg_llvm_unit_call(hg_llvm_unit *u, const hg_ir_inst *in);
void hg_llvm_add_enum_attr(hg_llvm_emit *e, LLVMValueRef fn, unsigned idx, const char *name, uint64_t v);

#endif
