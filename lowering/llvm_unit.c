/* One IR module as one LLVM module for a target (lowering/llvm_unit.h). */
#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_unit.h"
#include "lowering/slice_form.h"

void hg_llvm_add_enum_attr(hg_llvm_emit *e, LLVMValueRef fn, unsigned idx, const char *name, uint64_t v) {
  LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(e->C, LLVMGetEnumAttributeKindForName(name, strlen(name)), v));
}

bool hg_llvm_unit_check(const hg_ir_module *m, char *err, size_t err_size) {
  for (uint32_t g = 0; g < m->num_globals; g++)
    if (m->globals[g].addrspace == HG_AS_GLOBAL && !m->globals[g].is_const) {
      snprintf(err, err_size, "program-scope variable %s (its kernels and forms share one program)", m->globals[g].name);
      return false;
    }
  for (uint32_t i = 0; i < m->num_functions; i++) {
    const hg_ir_function *f = &m->functions[i];
    for (uint32_t v = 0; v < f->num_values; v++) {
      uint8_t s = f->values[v].type.scalar;
      if (s == HG_IR_F16 || s == HG_IR_IMAGE || s == HG_IR_SAMPLER) {
        /* images and samplers (parameters, sampler constants): the OpenCL C back end's */
        snprintf(err, err_size, "%s: %s", f->name, s == HG_IR_F16 ? "half values" : "images or samplers");
        return false;
      }
    }
    for (uint32_t p = 0; f->is_kernel && f->args && p < f->num_params; p++)
      if (f->args[p].kind == HG_KARG_IMAGE || f->args[p].kind == HG_KARG_SAMPLER) {
        snprintf(err, err_size, "%s: image arguments", f->name);
        return false;
      }
  }
  return true;
}

LLVMValueRef hg_llvm_unit_global(hg_llvm_emit *e, uint32_t index) {
  hg_llvm_unit *u = e->owner;
  if (index >= e->m->num_globals)
    return hg_llvm_fail(e, "global %u out of range", index);
  if (u->globals[index])
    return u->globals[index];
  const hg_ir_global *gl = &e->m->globals[index];
  if (gl->addrspace != HG_AS_LOCAL)
    return hg_llvm_fail(e, "global %s not lowered", gl->name);
  char name[300];
  size_t len;
  const char *kernel = LLVMGetValueName2(e->fn, &len);
  snprintf(name, sizeof name, "%.*s.hg_local_%u", (int)len, kernel, index);
  LLVMTypeRef t = LLVMArrayType(e->i8, gl->size);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(e->M, t, name, e->addrspaces ? e->addrspaces[HG_AS_LOCAL] : HG_AS_LOCAL);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetInitializer(g, LLVMGetUndef(t));
  LLVMSetAlignment(g, gl->align ? gl->align : 1);
  return u->globals[index] = g;
}

LLVMValueRef hg_llvm_unit_slot(hg_llvm_unit *u, const hg_ir_inst *in) {
  if (!in->num_imm || in->imm[0] >= u->e.f->num_slots)
    return hg_llvm_fail(&u->e, "bad slot");
  return u->slots[in->imm[0]];
}

LLVMValueRef hg_llvm_unit_call(hg_llvm_unit *u, const hg_ir_inst *in) {
  hg_llvm_emit *e = &u->e;
  if (!in->num_imm || in->imm[0] >= e->m->num_functions || !u->functions[in->imm[0]])
    return hg_llvm_fail(e, "call to a function without a body");
  const hg_ir_function *callee = &e->m->functions[in->imm[0]];
  if (callee->is_kernel) /* a kernel entry is no function to call */
    return hg_llvm_fail(e, "call to kernel %s", callee->name);
  LLVMValueRef args[64];
  if (in->num_operands > 64 || in->num_operands != callee->num_params)
    return hg_llvm_fail(e, "call to %s with %u arguments", callee->name, in->num_operands);
  for (uint32_t i = 0; i < in->num_operands; i++)
    args[i] = hg_llvm_value(e, in->operands[i]);
  if (e->failed)
    return NULL;
  LLVMValueRef fn = u->functions[in->imm[0]];
  return LLVMBuildCall2(e->B, LLVMGlobalGetValueType(fn), fn, args, in->num_operands, "");
}

/* Kernels under their names (a slice form under its own, its arguments after the kernel's), the
 * others internal; nounwind. A struct a kernel takes by value is a byval pointer to its bytes at
 * its alignment; a __local pointer is `align` its pointee's alignment (docs/ir-spec.md section 7);
 * a `restrict` __global or __constant pointer is `noalias`, as clang marks it for the vendor's own
 * build (the IR's -O2 used it already; the vendor's optimiser gets it back). */
static LLVMValueRef declare_function(hg_llvm_unit *u, const hg_llvm_unit_target *t, uint32_t i) {
  hg_llvm_emit *e = &u->e;
  const hg_ir_function *f = &e->m->functions[i];
  uint32_t n = f->num_params + (u->slice_form ? HG_SLICE_FORM_ARGS : 0);
  LLVMTypeRef *pt = malloc((n ? n : 1) * sizeof *pt);
  char *name = malloc(strlen(f->name) + sizeof HG_SLICE_FORM_PREFIX + 16);
  if (!pt || !name) {
    free(pt);
    free(name);
    return hg_llvm_fail(e, "out of memory");
  }
  for (uint32_t p = 0; p < n; p++)
    pt[p] = p < f->num_params ? hg_llvm_type(e, f->param_types[p]) : e->i64;
  LLVMTypeRef ret = f->ret_type.scalar == HG_IR_VOID ? e->voidt : hg_llvm_type(e, f->ret_type);
  if (!f->is_kernel)
    sprintf(name, "hg_function_%u", i);
  else
    sprintf(name, "%s%s", u->slice_form ? HG_SLICE_FORM_PREFIX : "", f->name);
  LLVMValueRef fn = LLVMAddFunction(e->M, name, LLVMFunctionType(ret, pt, n, 0));
  free(pt);
  free(name);
  if (!f->is_kernel)
    LLVMSetLinkage(fn, LLVMInternalLinkage);
  hg_llvm_add_enum_attr(e, fn, LLVMAttributeFunctionIndex, "nounwind", 0);
  for (uint32_t p = 0; f->is_kernel && p < f->num_params; p++) {
    const hg_ir_kernel_arg *a = &f->args[p];
    if (a->kind == HG_KARG_VALUE && f->param_types[p].scalar == HG_IR_PTR) {
      LLVMTypeRef bytes = LLVMArrayType(e->i8, a->size);
      LLVMAddAttributeAtIndex(fn, p + 1, LLVMCreateTypeAttribute(e->C, LLVMGetEnumAttributeKindForName("byval", 5), bytes));
      hg_llvm_add_enum_attr(e, fn, p + 1, "align", a->align ? a->align : 1);
    } else if (a->kind == HG_KARG_LOCAL_PTR) {
      hg_llvm_add_enum_attr(e, fn, p + 1, "align", hg_ir_local_arg_align(a));
    } else if ((a->kind == HG_KARG_GLOBAL_PTR || a->kind == HG_KARG_CONSTANT_PTR) && (a->type_qual & 2)) {
      hg_llvm_add_enum_attr(e, fn, p + 1, "noalias", 0);
    }
  }
  if (t->declared)
    t->declared(u, i, fn);
  return fn;
}

/* The body of IR function i in fn: an entry block with the private slots, then the blocks. */
static bool define_function(hg_llvm_unit *u, const hg_llvm_unit_target *t, uint32_t i, LLVMValueRef fn) {
  hg_llvm_emit *e = &u->e;
  const hg_ir_function *f = &e->m->functions[i];
  e->f = f;
  e->fn = fn;
  free(u->slots);
  u->slots = calloc(f->num_slots ? f->num_slots : 1, sizeof *u->slots);
  if (!u->slots)
    return !hg_llvm_fail(e, "out of memory");
  LLVMPositionBuilderAtEnd(e->B, LLVMAppendBasicBlockInContext(e->C, e->fn, "entry"));
  for (uint32_t k = 0; k < f->num_slots; k++) {
    uint32_t size = f->slots[k].size ? f->slots[k].size : 1, align = f->slots[k].align ? f->slots[k].align : 1;
    if (t->slot) {
      u->slots[k] = t->slot(u, size, align);
    } else {
      u->slots[k] = LLVMBuildAlloca(e->B, LLVMArrayType(e->i8, size), "");
      LLVMSetAlignment(u->slots[k], align);
    }
  }
  return hg_llvm_emit_body(e);
}

/* Kernel i's slice form, its __local variables its own. */
static bool define_slice_form(hg_llvm_unit *u, const hg_llvm_unit_target *t, uint32_t i) {
  for (uint32_t g = 0; g < u->e.m->num_globals; g++)
    if (u->e.m->globals[g].addrspace == HG_AS_LOCAL)
      u->globals[g] = NULL;
  u->slice_form = true;
  LLVMValueRef fn = declare_function(u, t, i);
  bool ok = fn && define_function(u, t, i, fn);
  u->slice_form = false;
  return ok;
}

void *hg_llvm_unit_lower(const hg_ir_module *m, const hg_llvm_unit_target *t, bool slice_forms, size_t *size, char *err,
                         size_t err_size) {
  *size = 0;
  if (t->check && !t->check(m, err, err_size))
    return NULL;
  hg_llvm_unit u = {0};
  LLVMContextRef C = LLVMContextCreate();
  LLVMContextSetOpaquePointers(C, 1);
  LLVMModuleRef M = LLVMModuleCreateWithNameInContext("hetgpu", C);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  hg_llvm_emit_init(&u.e, C, M, B);
  u.e.m = m;
  u.e.hooks = t->hooks;
  u.e.owner = &u;
  u.e.err = err;
  u.e.err_size = err_size;
  u.e.addrspaces = t->addrspaces;
  LLVMSetTarget(M, t->triple);
  if (t->setup)
    t->setup(&u);
  void *out = NULL;
  u.globals = calloc(m->num_globals ? m->num_globals : 1, sizeof *u.globals);
  u.functions = calloc(m->num_functions ? m->num_functions : 1, sizeof *u.functions);
  if (!u.globals || !u.functions) {
    hg_llvm_fail(&u.e, "out of memory");
    goto done;
  }
  if (!hg_llvm_emit_globals(&u.e, u.globals, LLVMInternalLinkage))
    goto done;
  for (uint32_t i = 0; i < m->num_functions && !u.e.failed; i++)
    if (m->functions[i].num_blocks)
      u.functions[i] = declare_function(&u, t, i);
  for (uint32_t i = 0; i < m->num_functions && !u.e.failed; i++)
    if (u.functions[i] && !define_function(&u, t, i, u.functions[i]))
      goto done;
  for (uint32_t i = 0; slice_forms && i < m->num_functions && !u.e.failed; i++)
    if (u.functions[i] && m->functions[i].is_kernel && hg_slice_form_possible(m, &m->functions[i]) &&
        !define_slice_form(&u, t, i))
      goto done;
  if (u.e.failed)
    goto done;
  char *msg = NULL;
  if (LLVMVerifyModule(M, LLVMReturnStatusAction, &msg)) {
    snprintf(err, err_size, "internal error: invalid LLVM IR: %.400s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    goto done;
  }
  LLVMDisposeMessage(msg);
  out = t->emit(&u, size);
done:
  free(u.globals);
  free(u.functions);
  free(u.slots);
  LLVMDisposeBuilder(B);
  LLVMDisposeModule(M);
  LLVMContextDispose(C);
  return out;
}
