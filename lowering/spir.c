/* hetGPU IR -> SPIR bitcode (lowering/spir.h): the module, its kernels with the argument metadata
 * a SPIR consumer reads (kernel_arg_*), functions, globals, private slots and barriers. The IR's
 * address-space numbers are SPIR's (private 0, global 1, constant 2, local 3, generic 4). */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/spir_internal.h"

#define SPIR_TRIPLE "spir64-unknown-unknown"
#define SPIR_LAYOUT "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"

static void add_enum_attr(hg_llvm_emit *e, LLVMValueRef fn, unsigned idx, const char *name, uint64_t v) {
  LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(e->C, LLVMGetEnumAttributeKindForName(name, strlen(name)), v));
}

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
    add_enum_attr(e, fn, LLVMAttributeFunctionIndex, "nounwind", 0);
    if (convergent)
      add_enum_attr(e, fn, LLVMAttributeFunctionIndex, "convergent", 0);
  }
  LLVMSetInstructionCallConv(c, HG_SPIR_FUNC_CC);
  return c;
}

/* A __local variable: a module global of address space 3, which the consumer gives each
 * work-group of the one kernel using it (spir_check made sure there is one), named as clang
 * names a kernel's __local variables, "<kernel>.<variable>": PoCL takes only globals so named
 * for the kernel's own (others would be one array shared by every work-group at once). */
static LLVMValueRef global_hook(hg_llvm_emit *e, uint32_t index) {
  hg_spir *s = e->owner;
  if (index >= e->m->num_globals)
    return hg_llvm_fail(e, "global %u out of range", index);
  if (s->globals[index])
    return s->globals[index];
  const hg_ir_global *gl = &e->m->globals[index];
  if (gl->addrspace != HG_AS_LOCAL)
    return hg_llvm_fail(e, "global %s not lowered", gl->name);
  char name[300];
  snprintf(name, sizeof name, "%s.hg_local_%u", e->f->name, index);
  LLVMTypeRef t = LLVMArrayType(e->i8, gl->size);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(e->M, t, name, HG_AS_LOCAL);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetInitializer(g, LLVMGetUndef(t));
  LLVMSetAlignment(g, gl->align ? gl->align : 1);
  return s->globals[index] = g;
}

static LLVMValueRef inst_hook(hg_llvm_emit *e, const hg_ir_inst *in, bool *handled) {
  hg_spir *s = e->owner;
  *handled = true;
  switch (in->op) {
  case HG_OP_SLOT:
    if (!in->num_imm || in->imm[0] >= e->f->num_slots)
      return hg_llvm_fail(e, "bad slot");
    return s->slots[in->imm[0]];
  case HG_OP_BARRIER: {
    LLVMValueRef flags = LLVMConstInt(e->i32, in->num_imm ? in->imm[0] : 0, 0); /* CLK_*_MEM_FENCE bits */
    return hg_spir_call(s, "_Z7barrierj", e->voidt, &flags, 1, true);
  }
  case HG_OP_CALL: {
    if (!in->num_imm || in->imm[0] >= e->m->num_functions || !s->functions[in->imm[0]])
      return hg_llvm_fail(e, "call to a function without a body");
    const hg_ir_function *callee = &e->m->functions[in->imm[0]];
    if (callee->is_kernel) /* a spir_kernel is no function to call */
      return hg_llvm_fail(e, "call to kernel %s", callee->name);
    LLVMValueRef args[64];
    if (in->num_operands > 64 || in->num_operands != callee->num_params)
      return hg_llvm_fail(e, "call to %s with %u arguments", callee->name, in->num_operands);
    for (uint32_t i = 0; i < in->num_operands; i++)
      args[i] = hg_llvm_value(e, in->operands[i]);
    if (e->failed)
      return NULL;
    LLVMValueRef fn = s->functions[in->imm[0]];
    LLVMValueRef c = LLVMBuildCall2(e->B, LLVMGlobalGetValueType(fn), fn, args, in->num_operands, "");
    LLVMSetInstructionCallConv(c, HG_SPIR_FUNC_CC);
    return c;
  }
  case HG_OP_CALL_BUILTIN: return hg_spir_builtin(s, in);
  default: *handled = false; return NULL;
  }
}

static const hg_llvm_emit_hooks k_hooks = {global_hook, inst_hook};

/* ---- what this back end leaves to the OpenCL C one ---- */

static bool uses_value(const hg_ir_function *f, hg_ir_value_kind kind, uint32_t index) {
  for (uint32_t v = 0; v < f->num_values; v++)
    if (f->values[v].kind == kind && f->values[v].index == index)
      return true;
  return false;
}

static bool spir_check(const hg_ir_module *m, char *err, size_t err_size) {
  for (uint32_t g = 0; g < m->num_globals; g++) {
    const hg_ir_global *gl = &m->globals[g];
    if (gl->addrspace == HG_AS_GLOBAL && !gl->is_const) {
      snprintf(err, err_size, "program-scope variable %s (its kernels and forms share one program)", gl->name);
      return false;
    }
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
  for (uint32_t i = 0; i < m->num_functions; i++) {
    const hg_ir_function *f = &m->functions[i];
    for (uint32_t v = 0; v < f->num_values; v++)
      if (f->values[v].type.scalar == HG_IR_F16) {
        snprintf(err, err_size, "%s: half values", f->name);
        return false;
      }
    for (uint32_t p = 0; f->is_kernel && p < f->num_params; p++)
      if (f->args[p].kind == HG_KARG_IMAGE || f->args[p].kind == HG_KARG_SAMPLER) {
        snprintf(err, err_size, "%s: image arguments", f->name);
        return false;
      }
  }
  return true;
}

/* ---- kernels' metadata ---- */

static LLVMMetadataRef md_string(LLVMContextRef C, const char *s) { return LLVMMDStringInContext2(C, s ? s : "", s ? strlen(s) : 0); }

static void set_md(hg_llvm_emit *e, LLVMValueRef fn, const char *kind, LLVMMetadataRef *mds, unsigned n) {
  LLVMGlobalSetMetadata(fn, LLVMGetMDKindIDInContext(e->C, kind, (unsigned)strlen(kind)), LLVMMDNodeInContext2(e->C, mds, n));
}

static void kernel_metadata(hg_llvm_emit *e, const hg_ir_function *f, LLVMValueRef fn) {
  uint32_t n = f->num_params;
  LLVMMetadataRef *md = malloc((n ? n : 1) * sizeof *md);
  if (!md) {
    hg_llvm_fail(e, "out of memory");
    return;
  }
  static const unsigned k_space[] = {[HG_KARG_GLOBAL_PTR] = 1, [HG_KARG_CONSTANT_PTR] = 2, [HG_KARG_LOCAL_PTR] = 3,
                                     [HG_KARG_VALUE] = 0};
  for (uint32_t i = 0; i < n; i++)
    md[i] = LLVMValueAsMetadata(LLVMConstInt(e->i32, f->args[i].kind <= HG_KARG_VALUE ? k_space[f->args[i].kind] : 0, 0));
  set_md(e, fn, "kernel_arg_addr_space", md, n);
  for (uint32_t i = 0; i < n; i++)
    md[i] = md_string(e->C, "none");
  set_md(e, fn, "kernel_arg_access_qual", md, n);
  for (uint32_t i = 0; i < n; i++)
    md[i] = md_string(e->C, f->args[i].type_name);
  set_md(e, fn, "kernel_arg_type", md, n);
  set_md(e, fn, "kernel_arg_base_type", md, n);
  for (uint32_t i = 0; i < n; i++) {
    char q[40] = "";
    static const char *const k_quals[] = {"const", "restrict", "volatile", "pipe"};
    for (unsigned b = 0; b < 4; b++)
      if (f->args[i].type_qual & (1u << b))
        snprintf(q + strlen(q), sizeof q - strlen(q), "%s%s", q[0] ? " " : "", k_quals[b]);
    md[i] = md_string(e->C, q);
  }
  set_md(e, fn, "kernel_arg_type_qual", md, n);
  for (uint32_t i = 0; i < n; i++)
    md[i] = md_string(e->C, f->args[i].name);
  set_md(e, fn, "kernel_arg_name", md, n);
  free(md);
  /* no reqd_work_group_size: hetGPU checks it and gives the launch's local size itself, which
   * for a launch of fewer dimensions is not the attribute's (CTS api null_required_work_group_size) */
}


/* Declares IR function i: kernels under their names with spir_kernel's convention, the others
 * internal. A struct passed by value is a byval pointer to its bytes; a __local pointer starts
 * at its pointee's alignment (docs/ir-spec.md section 7). */
static LLVMValueRef declare_function(hg_spir *s, uint32_t i) {
  hg_llvm_emit *e = &s->e;
  const hg_ir_function *f = &e->m->functions[i];
  LLVMTypeRef *pt = malloc((f->num_params ? f->num_params : 1) * sizeof *pt);
  if (!pt)
    return hg_llvm_fail(e, "out of memory");
  for (uint32_t p = 0; p < f->num_params; p++)
    pt[p] = hg_llvm_type(e, f->param_types[p]);
  LLVMTypeRef ret = f->ret_type.scalar == HG_IR_VOID ? e->voidt : hg_llvm_type(e, f->ret_type);
  char name[64];
  if (!f->is_kernel)
    snprintf(name, sizeof name, "hg_function_%u", i);
  LLVMValueRef fn = LLVMAddFunction(e->M, f->is_kernel ? f->name : name, LLVMFunctionType(ret, pt, f->num_params, 0));
  free(pt);
  LLVMSetFunctionCallConv(fn, f->is_kernel ? HG_SPIR_KERNEL_CC : HG_SPIR_FUNC_CC);
  if (!f->is_kernel)
    LLVMSetLinkage(fn, LLVMInternalLinkage);
  add_enum_attr(e, fn, LLVMAttributeFunctionIndex, "nounwind", 0);
  for (uint32_t p = 0; f->is_kernel && p < f->num_params; p++) {
    const hg_ir_kernel_arg *a = &f->args[p];
    if (a->kind == HG_KARG_VALUE && f->param_types[p].scalar == HG_IR_PTR) {
      LLVMTypeRef bytes = LLVMArrayType(e->i8, a->size);
      LLVMAddAttributeAtIndex(fn, p + 1, LLVMCreateTypeAttribute(e->C, LLVMGetEnumAttributeKindForName("byval", 5), bytes));
      add_enum_attr(e, fn, p + 1, "align", a->align ? a->align : 1);
    } else if (a->kind == HG_KARG_LOCAL_PTR) {
      add_enum_attr(e, fn, p + 1, "align", hg_ir_local_arg_align(a));
    }
  }
  if (f->is_kernel)
    kernel_metadata(e, f, fn);
  return fn;
}

/* The body of IR function i: an entry block with an alloca per private slot, then the blocks. */
static bool define_function(hg_spir *s, uint32_t i) {
  hg_llvm_emit *e = &s->e;
  const hg_ir_function *f = &e->m->functions[i];
  e->f = f;
  e->fn = s->functions[i];
  free(s->slots);
  s->slots = calloc(f->num_slots ? f->num_slots : 1, sizeof *s->slots);
  if (!s->slots)
    return !hg_llvm_fail(e, "out of memory");
  LLVMPositionBuilderAtEnd(e->B, LLVMAppendBasicBlockInContext(e->C, e->fn, "entry"));
  for (uint32_t k = 0; k < f->num_slots; k++) {
    uint32_t size = f->slots[k].size ? f->slots[k].size : 1, align = f->slots[k].align ? f->slots[k].align : 1;
    if (align <= 64) {
      s->slots[k] = LLVMBuildAlloca(e->B, LLVMArrayType(e->i8, size), "");
      LLVMSetAlignment(s->slots[k], align);
      continue;
    }
    /* PoCL 3.1 puts a private array aligned above 64 at a 64-byte boundary (as the OpenCL C
     * back end found): the slot is found at its alignment inside a larger one */
    LLVMValueRef bytes = LLVMBuildAlloca(e->B, LLVMArrayType(e->i8, size + align - 64), "");
    LLVMSetAlignment(bytes, 64);
    LLVMValueRef at = LLVMBuildPtrToInt(e->B, bytes, e->i64, "");
    at = LLVMBuildAnd(e->B, LLVMBuildAdd(e->B, at, LLVMConstInt(e->i64, align - 1, 0), ""),
                      LLVMConstInt(e->i64, ~(uint64_t)(align - 1), 0), "");
    s->slots[k] = LLVMBuildIntToPtr(e->B, at, LLVMTypeOf(bytes), "");
  }
  return hg_llvm_emit_body(e);
}

static void module_metadata(hg_llvm_emit *e) {
  LLVMMetadataRef v[2] = {LLVMValueAsMetadata(LLVMConstInt(e->i32, 1, 0)), LLVMValueAsMetadata(LLVMConstInt(e->i32, 2, 0))};
  LLVMValueRef node = LLVMMetadataAsValue(e->C, LLVMMDNodeInContext2(e->C, v, 2));
  LLVMAddNamedMetadataOperand(e->M, "opencl.ocl.version", node);
  LLVMAddNamedMetadataOperand(e->M, "opencl.spir.version", node);
}

uint8_t *hg_lower_spir(const hg_ir_module *m, size_t *size, char *err, size_t err_size) {
  *size = 0;
  if (!spir_check(m, err, err_size))
    return NULL;
  hg_spir s = {0};
  LLVMContextRef C = LLVMContextCreate();
  LLVMContextSetOpaquePointers(C, 1);
  LLVMModuleRef M = LLVMModuleCreateWithNameInContext("hetgpu-spir", C);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  hg_llvm_emit_init(&s.e, C, M, B);
  s.e.m = m;
  s.e.hooks = &k_hooks;
  s.e.owner = &s;
  s.e.err = err;
  s.e.err_size = err_size;
  LLVMSetTarget(M, SPIR_TRIPLE);
  LLVMSetDataLayout(M, SPIR_LAYOUT);
  module_metadata(&s.e);
  uint8_t *out = NULL;
  s.globals = calloc(m->num_globals ? m->num_globals : 1, sizeof *s.globals);
  s.functions = calloc(m->num_functions ? m->num_functions : 1, sizeof *s.functions);
  if (!s.globals || !s.functions) {
    hg_llvm_fail(&s.e, "out of memory");
    goto done;
  }
  if (!hg_llvm_emit_globals(&s.e, s.globals, LLVMInternalLinkage))
    goto done;
  for (uint32_t i = 0; i < m->num_functions && !s.e.failed; i++)
    if (m->functions[i].num_blocks)
      s.functions[i] = declare_function(&s, i);
  for (uint32_t i = 0; i < m->num_functions && !s.e.failed; i++)
    if (s.functions[i] && !define_function(&s, i))
      goto done;
  if (s.e.failed)
    goto done;
  char *msg = NULL;
  if (LLVMVerifyModule(M, LLVMReturnStatusAction, &msg)) {
    snprintf(err, err_size, "internal error: invalid LLVM IR: %.400s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    goto done;
  }
  LLVMDisposeMessage(msg);
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(M);
  size_t n = buf ? LLVMGetBufferSize(buf) : 0;
  out = n ? malloc(n) : NULL;
  if (out) {
    memcpy(out, LLVMGetBufferStart(buf), n);
    *size = n;
  } else {
    snprintf(err, err_size, "out of memory");
  }
  if (buf)
    LLVMDisposeMemoryBuffer(buf);
done:
  free(s.globals);
  free(s.functions);
  free(s.slots);
  LLVMDisposeBuilder(B);
  LLVMDisposeModule(M);
  LLVMContextDispose(C);
  return out;
}
