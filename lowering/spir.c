/* hetGPU IR -> SPIR bitcode (lowering/spir.h): SPIR's part of the module driver
 * (lowering/llvm_unit.h): calling conventions, the argument metadata a SPIR consumer reads
 * (kernel_arg_*), over-aligned private slots, barriers, the bitcode. The IR's address-space
 * numbers are SPIR's (private 0, global 1, constant 2, local 3, generic 4). */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_cfg.h"
#include "lowering/llvm_loop_id.h"
#include "lowering/slice_form.h"
#include "lowering/spir_internal.h"

#define SPIR_TRIPLE "spir64-unknown-unknown"
#define SPIR_LAYOUT "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"

LLVMValueRef hg_spir_call(hg_spir *s, const char *mangled, LLVMTypeRef ret, LLVMValueRef *args, unsigned n,
                          bool convergent) {
  hg_llvm_emit *e = &s->e;
  LLVMValueRef fn;
  bool declared;
  LLVMValueRef c = hg_llvm_call_named(e, mangled, ret, args, n, &fn, &declared);
  if (!c)
    return NULL;
  if (declared) {
    LLVMSetFunctionCallConv(fn, HG_SPIR_FUNC_CC);
    hg_llvm_add_enum_attr(e, fn, LLVMAttributeFunctionIndex, "nounwind", 0);
    if (convergent)
      hg_llvm_add_enum_attr(e, fn, LLVMAttributeFunctionIndex, "convergent", 0);
  }
  LLVMSetInstructionCallConv(c, HG_SPIR_FUNC_CC);
  return c;
}

static LLVMValueRef inst_hook(hg_llvm_emit *e, const hg_ir_inst *in, bool *handled) {
  hg_spir *s = e->owner;
  *handled = true;
  switch (in->op) {
  case HG_OP_SLOT: return hg_llvm_unit_slot(s, in);
  case HG_OP_BARRIER: {
    LLVMValueRef flags = LLVMConstInt(e->i32, in->num_imm ? in->imm[0] : 0, 0); /* CLK_*_MEM_FENCE bits */
    return hg_spir_call(s, "_Z7barrierj", e->voidt, &flags, 1, true);
  }
  case HG_OP_CALL: {
    LLVMValueRef c = hg_llvm_unit_call(s, in);
    if (c)
      LLVMSetInstructionCallConv(c, HG_SPIR_FUNC_CC);
    return c;
  }
  case HG_OP_CALL_BUILTIN: return hg_spir_builtin(s, in);
  default: *handled = false; return NULL;
  }
}

static const hg_llvm_emit_hooks k_hooks = {hg_llvm_unit_global, inst_hook, false, true};

/* ---- what this back end leaves to the OpenCL C one ---- */

static bool uses_value(const hg_ir_function *f, hg_ir_value_kind kind, uint32_t index) {
  for (uint32_t v = 0; v < f->num_values; v++)
    if (f->values[v].kind == kind && f->values[v].index == index)
      return true;
  return false;
}

static bool spir_check(const hg_ir_module *m, char *err, size_t err_size) {
  if (!hg_llvm_unit_check(m, err, err_size))
    return false;
  for (uint32_t g = 0; g < m->num_globals; g++) {
    const hg_ir_global *gl = &m->globals[g];
    if (gl->addrspace != HG_AS_LOCAL)
      continue;
    unsigned users = 0;
    for (uint32_t i = 0; i < m->num_functions; i++) {
      const hg_ir_function *f = &m->functions[i];
      if (!f->num_blocks || !uses_value(f, HG_VAL_GLOBAL, g))
        continue;
      if (!f->is_kernel || ++users > 1) {
        snprintf(err, err_size, "__local %s used outside one kernel", gl->name);
        return false;
      }
    }
  }
  return true;
}

/* ---- kernels' metadata ---- */

static LLVMMetadataRef md_string(LLVMContextRef C, const char *s) { return LLVMMDStringInContext2(C, s ? s : "", s ? strlen(s) : 0); }

static void set_md(hg_llvm_emit *e, LLVMValueRef fn, const char *kind, LLVMMetadataRef *mds, unsigned n) {
  LLVMGlobalSetMetadata(fn, LLVMGetMDKindIDInContext(e->C, kind, (unsigned)strlen(kind)), LLVMMDNodeInContext2(e->C, mds, n));
}

/* (a slice form's own arguments are ulongs named as in lowering/slice_form.h) */
static void kernel_metadata(hg_llvm_emit *e, const hg_ir_function *f, bool slice_form, LLVMValueRef fn) {
  uint32_t n = f->num_params + (slice_form ? HG_SLICE_FORM_ARGS : 0);
  static const char *const k_slice_args[HG_SLICE_FORM_ARGS] = {
      "slice_group_0", "slice_group_1", "slice_group_2", "range_groups_0", "range_groups_1",
      "range_groups_2", "range_offset_0", "range_offset_1", "range_offset_2"};
#define ARG(i, field, slice_value) ((i) < f->num_params ? f->args[i].field : (slice_value))
  LLVMMetadataRef *md = malloc((n ? n : 1) * sizeof *md);
  if (!md) {
    hg_llvm_fail(e, "out of memory");
    return;
  }
  static const unsigned k_space[] = {[HG_KARG_GLOBAL_PTR] = 1, [HG_KARG_CONSTANT_PTR] = 2, [HG_KARG_LOCAL_PTR] = 3,
                                     [HG_KARG_VALUE] = 0};
  for (uint32_t i = 0; i < n; i++)
    md[i] = LLVMValueAsMetadata(
        LLVMConstInt(e->i32, ARG(i, kind, HG_KARG_VALUE) <= HG_KARG_VALUE ? k_space[ARG(i, kind, HG_KARG_VALUE)] : 0, 0));
  set_md(e, fn, "kernel_arg_addr_space", md, n);
  for (uint32_t i = 0; i < n; i++)
    md[i] = md_string(e->C, "none");
  set_md(e, fn, "kernel_arg_access_qual", md, n);
  for (uint32_t i = 0; i < n; i++)
    md[i] = md_string(e->C, ARG(i, type_name, "ulong"));
  set_md(e, fn, "kernel_arg_type", md, n);
  set_md(e, fn, "kernel_arg_base_type", md, n);
  for (uint32_t i = 0; i < n; i++) {
    char q[40] = "";
    static const char *const k_quals[] = {"const", "restrict", "volatile", "pipe"};
    for (unsigned b = 0; b < 4; b++)
      if (ARG(i, type_qual, 0u) & (1u << b))
        snprintf(q + strlen(q), sizeof q - strlen(q), "%s%s", q[0] ? " " : "", k_quals[b]);
    md[i] = md_string(e->C, q);
  }
  set_md(e, fn, "kernel_arg_type_qual", md, n);
  for (uint32_t i = 0; i < n; i++)
    md[i] = md_string(e->C, ARG(i, name, k_slice_args[i - f->num_params]));
  set_md(e, fn, "kernel_arg_name", md, n);
  free(md);
#undef ARG
  /* no reqd_work_group_size: hetGPU checks it and gives the launch's local size itself, which
   * for a launch of fewer dimensions is not the attribute's (CTS api null_required_work_group_size) */
}


/* Function i's calling convention (spir_kernel, spir_func) and a kernel's argument metadata. */
static void declared(hg_spir *s, uint32_t i, LLVMValueRef fn) {
  const hg_ir_function *f = &s->e.m->functions[i];
  LLVMSetFunctionCallConv(fn, f->is_kernel ? HG_SPIR_KERNEL_CC : HG_SPIR_FUNC_CC);
  if (f->is_kernel)
    kernel_metadata(&s->e, f, s->slice_form, fn);
}

/* A private slot: PoCL 3.1 puts a private array aligned above 64 at a 64-byte boundary (as the
 * OpenCL C back end found), so such a slot is found at its alignment inside a larger one. */
static LLVMValueRef slot(hg_spir *s, uint32_t size, uint32_t align) {
  hg_llvm_emit *e = &s->e;
  if (align <= 64) {
    LLVMValueRef a = LLVMBuildAlloca(e->B, LLVMArrayType(e->i8, size), "");
    LLVMSetAlignment(a, align);
    return a;
  }
  LLVMValueRef bytes = LLVMBuildAlloca(e->B, LLVMArrayType(e->i8, size + align - 64), "");
  LLVMSetAlignment(bytes, 64);
  LLVMValueRef at = LLVMBuildPtrToInt(e->B, bytes, e->i64, "");
  at = LLVMBuildAnd(e->B, LLVMBuildAdd(e->B, at, LLVMConstInt(e->i64, align - 1, 0), ""),
                    LLVMConstInt(e->i64, ~(uint64_t)(align - 1), 0), "");
  return LLVMBuildIntToPtr(e->B, at, LLVMTypeOf(bytes), "");
}

static void setup(hg_spir *s) {
  hg_llvm_emit *e = &s->e;
  LLVMSetDataLayout(e->M, SPIR_LAYOUT);
  LLVMMetadataRef v[2] = {LLVMValueAsMetadata(LLVMConstInt(e->i32, 1, 0)), LLVMValueAsMetadata(LLVMConstInt(e->i32, 2, 0))};
  LLVMValueRef node = LLVMMetadataAsValue(e->C, LLVMMDNodeInContext2(e->C, v, 2));
  LLVMAddNamedMetadataOperand(e->M, "opencl.ocl.version", node);
  LLVMAddNamedMetadataOperand(e->M, "opencl.spir.version", node);
}

/* Every loop llvm.loop.unroll.disable, as PoCL's own front end leaves the loops of a source it
 * builds: it lays out a work-group's work-item loops first, and a loop its optimiser unrolled
 * afterwards ran slower (bench sgemm's 16-step dot product between two barriers: 57 ms against
 * 48 with it left alone, PoCL's own build 47). A loop is a branch back to a block placed no
 * later, as the IR's blocks (and these) are in source order. */
static void keep_loops(hg_spir *s) {
  LLVMContextRef C = s->e.C;
  unsigned kind = LLVMGetMDKindIDInContext(C, "llvm.loop", 9);
  LLVMMetadataRef disable = LLVMMDStringInContext2(C, "llvm.loop.unroll.disable", 24);
  LLVMMetadataRef hint = LLVMMDNodeInContext2(C, &disable, 1);
  for (LLVMValueRef fn = LLVMGetFirstFunction(s->e.M); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      if (!hg_llvm_block_branches_back(fn, bb)) continue;
      LLVMMetadataRef ops[2] = {NULL, hint};
      LLVMSetMetadata(LLVMGetBasicBlockTerminator(bb), kind, LLVMMetadataAsValue(C, hg_llvm_loop_id(C, ops, 2)));
    }
}

static void *emit(hg_spir *s, size_t *size) {
  bool changed = false;
  if (!hg_spir_recompute_after_barriers(s->e.M, &changed) || !hg_spir_load_loop_constants(s->e.M, &changed)) {
    hg_llvm_fail(&s->e, "out of memory or LLVM's passes failed");
    return NULL;
  }
  char *msg = NULL; /* the module was verified before; what the copies did is checked too */
  if (changed && LLVMVerifyModule(s->e.M, LLVMReturnStatusAction, &msg))
    hg_llvm_fail(&s->e, "internal error: invalid LLVM IR after recomputing work-item values or loading loop constants: %.400s", msg ? msg : "");
  LLVMDisposeMessage(msg);
  if (s->e.failed)
    return NULL;
  keep_loops(s);
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(s->e.M);
  size_t n = buf ? LLVMGetBufferSize(buf) : 0;
  uint8_t *out = n ? malloc(n) : NULL;
  if (out) {
    memcpy(out, LLVMGetBufferStart(buf), n);
    *size = n;
  } else {
    hg_llvm_fail(&s->e, "out of memory");
  }
  if (buf)
    LLVMDisposeMemoryBuffer(buf);
  return out;
}

static const hg_llvm_unit_target k_spir = {SPIR_TRIPLE, &k_hooks, NULL, spir_check, setup, declared, slot, emit};

uint8_t *hg_lower_spir(const hg_ir_module *m, bool slice_forms, size_t *size, char *err, size_t err_size) {
  return hg_llvm_unit_lower(m, &k_spir, slice_forms, size, err, err_size);
}
