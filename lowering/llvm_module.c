/* LLVM module -> IR module: read clang's bitcode, inline every function into the kernels
 * (LLVM's always-inline pass), then translate globals, functions and kernel metadata in the
 * module's own order, so the same bitcode always gives the same IR. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/llvm_translate.h"

#define SPIR_KERNEL_CC 76 /* llvm::CallingConv::SPIR_KERNEL */

static bool is_kernel(LLVMValueRef fn) { return LLVMGetFunctionCallConv(fn) == SPIR_KERNEL_CC; }

static bool is_defined(LLVMValueRef fn) { return LLVMCountBasicBlocks(fn) > 0; }

static const char *name_of(LLVMValueRef v) {
  size_t n;
  return LLVMGetValueName2(v, &n);
}

/* True for declarations that are builtins, resolved by name rather than linked. */
static bool is_builtin_decl(LLVMValueRef fn) {
  const char *name = name_of(fn);
  if (!strncmp(name, "llvm.", 5) || !strcmp(name, "printf") || !strcmp(name, "__translate_sampler_initializer"))
    return true;
  hg_demangled d;
  return hg_demangle_opencl(name, &d) && hg_builtin_is_known(d.name);
}

static void remove_fn_attr(LLVMValueRef fn, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
}

/* Marks functions for inlining and runs always-inline + globaldce. Functions with external
 * linkage stay when compiling a library (another module may call them), and are not inlined
 * into each other there: a link inlines what its kernels reach (hg_frontend_finish_executable),
 * where inlining every library function into every other made hashcat's compiled objects 30
 * times their bitcode (170 MB of IR, 8 s to translate). */
static bool inline_everything(hg_xlate *x) {
  LLVMContextRef ctx = x->ctx;
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8), anon = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(x->mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (!is_defined(fn)) continue;
    if (!is_kernel(fn) && !x->library) LLVMSetLinkage(fn, LLVMInternalLinkage);
    if (!name_of(fn)[0]) { /* SPIR-V functions need no OpName; the IR's need a name */
      char name[32];
      snprintf(name, sizeof name, "hg.unnamed.%u", anon++);
      LLVMSetValueName2(fn, name, strlen(name));
    }
    remove_fn_attr(fn, "noinline");
    remove_fn_attr(fn, "optnone");
    /* a library's external function: calls to it stay calls until a link */
    if (!x->library || is_kernel(fn) || LLVMGetLinkage(fn) != LLVMExternalLinkage)
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
    /* a call can say noinline too (SPIR-V's DontInline function control) */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsACallInst(in)) LLVMRemoveCallSiteEnumAttribute(in, LLVMAttributeFunctionIndex, noinline);
  }
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  /* images and samplers never live in memory in the IR: at -O0 clang keeps them in allocas */
  const char *passes = hg_llvm_module_uses_images(x->mod) ? "always-inline,globaldce,function(mem2reg)"
                                                           : "always-inline,globaldce";
  LLVMErrorRef err = LLVMRunPasses(x->mod, passes, NULL, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (err) {
    char *msg = LLVMGetErrorMessage(err);
    hg_log_append(x->log, "error: internal: LLVM passes failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return false;
  }
  return true;
}

static void translate_globals(hg_xlate *x) {
  uint32_t next = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(x->mod); g; g = LLVMGetNextGlobal(g)) {
    if (!strncmp(name_of(g), "llvm.", 5)) continue;
    hg_ptr_map_put(&x->globals, g, next++);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(x->mod); g; g = LLVMGetNextGlobal(g)) {
    const char *name = name_of(g);
    if (!strncmp(name, "llvm.", 5)) continue;
    LLVMTypeRef vt = LLVMGlobalGetValueType(g);
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
    if (as != HG_AS_GLOBAL && as != HG_AS_CONSTANT && as != HG_AS_LOCAL)
      hg_xlate_fail(x, "program-scope variable '%s' in an unsupported address space", name);
    hg_ir_global *gl = &x->global;
    memset(gl, 0, sizeof *gl);
    char anon[32];
    if (!name[0]) {
      snprintf(anon, sizeof anon, ".anon.%u", x->m->num_globals);
      name = anon;
    }
    gl->name = (char *)name;
    gl->addrspace = (uint8_t)as;
    gl->is_const = LLVMIsGlobalConstant(g) || as == HG_AS_CONSTANT;
    uint64_t size = hg_type_size(x, vt);
    if (size > UINT32_MAX) hg_xlate_fail(x, "program-scope variable '%s' is too large", name);
    gl->size = (uint32_t)size;
    gl->align = LLVMGetAlignment(g);
    if (gl->align < hg_type_align(x, vt)) gl->align = hg_type_align(x, vt);
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!init && !x->library) hg_xlate_fail(x, "program-scope variable '%s' is declared but never defined", name);
    if (!init && as == HG_AS_LOCAL) hg_xlate_fail(x, "__local variable '%s' declared extern", name);
    /* in an object, `extern` declarations and the definitions they may resolve to link by name */
    if (!init) gl->linkage = HG_LINK_IMPORTED;
    else if (x->library && as != HG_AS_LOCAL && LLVMGetLinkage(g) == LLVMExternalLinkage) gl->linkage = HG_LINK_EXPORTED;
    if (init && as != HG_AS_LOCAL && !(LLVMIsNull(init) || LLVMIsUndef(init))) hg_xlate_global_init(x, init, gl);
    else if (as != HG_AS_LOCAL) gl->has_init = false;
    if (hg_ir_add_global(x->m, gl) == HG_IR_NONE) hg_xlate_fail(x, "out of memory");
    free(gl->init);
    free(gl->relocs);
    memset(gl, 0, sizeof *gl);
  }
}

static void declare_functions(hg_xlate *x) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(x->mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (!is_defined(fn) && (is_builtin_decl(fn) || !x->library || !LLVMGetFirstUse(fn))) continue;
    x->fn = fn;
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
    if (LLVMIsFunctionVarArg(ft)) hg_xlate_fail(x, "variadic functions are not supported");
    unsigned np = LLVMCountParams(fn);
    hg_ir_type *pt = hg_xlate_temp(x, np * sizeof *pt);
    for (unsigned i = 0; i < np; i++)
      if (!is_kernel(fn) || !hg_xlate_kernel_handle_type(x, fn, i, &pt[i]))
        pt[i] = hg_xlate_type(x, LLVMTypeOf(LLVMGetParam(fn, i)));
    hg_ir_type rt = hg_xlate_type(x, LLVMGetReturnType(ft));
    uint32_t idx = hg_ir_add_function(x->m, name_of(fn), rt, np, pt);
    hg_xlate_temp_free(x, pt);
    if (idx == HG_IR_NONE) hg_xlate_fail(x, "out of memory");
    hg_ptr_map_put(&x->functions, fn, idx);
  }
  x->fn = NULL;
}

static void translate_bodies(hg_xlate *x) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(x->mod); fn; fn = LLVMGetNextFunction(fn)) {
    uint32_t idx;
    if (!is_defined(fn) || !hg_ptr_map_get(&x->functions, fn, &idx)) continue;
    hg_xlate_function_body(x, fn, idx);
    if (is_kernel(fn)) {
      hg_ir_function *f = &x->m->functions[idx];
      if (!hg_ir_make_kernel(f)) hg_xlate_fail(x, "out of memory");
      free(f->args);
      free(f->attributes);
      f->args = NULL;
      f->attributes = NULL;
      hg_xlate_kernel_metadata(x, fn, f);
    }
    x->fn = NULL;
  }
}

static void xlate_cleanup(hg_xlate *x) {
  hg_ptr_map_free(&x->globals);
  hg_ptr_map_free(&x->functions);
  hg_ptr_map_free(&x->values);
  hg_ptr_map_free(&x->blocks);
  hg_ptr_map_free(&x->aggs);
  hg_ptr_map_free(&x->inst_flags);
  free(x->agg_list);
  for (unsigned i = 0; i < 4; i++) free(x->scratch[i]);
  for (unsigned i = 0; i < sizeof x->temps / sizeof *x->temps; i++) free(x->temps[i]);
  free(x->global.init);
  free(x->global.relocs);
}

hg_ir_module *hg_llvm_translate(LLVMModuleRef mod, bool library, bool contract_all, char **log) {
  hg_xlate *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->mod = mod;
  x->ctx = LLVMGetModuleContext(mod);
  x->td = LLVMGetModuleDataLayout(mod);
  x->library = library;
  x->contract_all = contract_all;
  x->log = log;
  x->m = hg_ir_module_new();
  hg_ir_module *result = NULL;
  if (!x->m) goto out;
  if (setjmp(x->fail)) {
    hg_ir_module_free(x->m);
    goto out;
  }
  if (!inline_everything(x)) {
    hg_ir_module_free(x->m);
    goto out;
  }
  x->m->program_kind = library ? HG_IR_PROGRAM_OBJECT : HG_IR_PROGRAM_EXECUTABLE;
  translate_globals(x);
  declare_functions(x);
  hg_xlate_read_inst_flags(x);
  translate_bodies(x);
  result = x->m;
out:
  xlate_cleanup(x);
  free(x);
  return result;
}

void hg_llvm_diagnostic_to_log(LLVMDiagnosticInfoRef info, void *log) {
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError)
    return;
  char *text = LLVMGetDiagInfoDescription(info);
  hg_log_append(log, "error: %s", text);
  LLVMDisposeMessage(text);
}

hg_ir_module *hg_llvm_translate_bitcode(const void *bc, size_t size, bool library, hg_llvm_prepare_fn prepare,
                                        bool contract_all, char **log) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, hg_llvm_diagnostic_to_log, log);
  /* the translator is written for opaque pointers; llvm-spirv writes typed ones, which the
   * reader then upgrades */
  LLVMContextSetOpaquePointers(ctx, 1);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, size, "hetgpu-bitcode");
  LLVMModuleRef mod = NULL;
  hg_ir_module *m = NULL;
  if (LLVMParseBitcodeInContext2(ctx, buf, &mod) || !mod) {
    hg_log_append(log, "error: internal: the front end tool produced unreadable bitcode");
  } else {
    if (!prepare || prepare(mod, log)) m = hg_llvm_translate(mod, library, contract_all, log);
    LLVMDisposeModule(mod);
  }
  LLVMDisposeMemoryBuffer(buf);
  LLVMContextDispose(ctx);
  return m;
}
