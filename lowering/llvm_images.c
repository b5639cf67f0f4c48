/* Images and samplers in the front end (docs/images.md): clang gives image and sampler kernel
 * parameters as pointers (typed from the argument metadata when the kernel is declared:
 * llvm_metadata.c), an inline or program-scope sampler as __translate_sampler_initializer(i32
 * bits), and the image builtins as mangled calls. Here: the sampler constants and the image
 * builtin calls. */
#include <stdio.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/llvm_translate.h"

/* True when a function of the module has kernel argument metadata naming an image or sampler. */
static bool kernel_args_name_images(LLVMModuleRef mod) {
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  unsigned kind = LLVMGetMDKindIDInContext(ctx, "kernel_arg_type", 15);
  bool found = false;
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn && !found; fn = LLVMGetNextFunction(fn)) {
    size_t n = 0;
    LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(fn, &n);
    for (size_t i = 0; i < n && !found; i++) {
      if (LLVMValueMetadataEntriesGetKind(e, (unsigned)i) != kind) continue;
      LLVMValueRef node = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i));
      unsigned k = LLVMGetMDNodeNumOperands(node);
      LLVMValueRef ops[256];
      if (k > 256) k = 256;
      LLVMGetMDNodeOperands(node, ops);
      for (unsigned j = 0; j < k && !found; j++) {
        unsigned len = 0;
        const char *s = ops[j] ? LLVMGetMDString(ops[j], &len) : NULL;
        if (s && len >= 5 && (memmem(s, len, "image", 5) || memmem(s, len, "sampler_t", 9))) found = true;
      }
    }
    if (e) LLVMDisposeValueMetadataEntries(e);
  }
  return found;
}

bool hg_llvm_module_uses_images(LLVMModuleRef mod) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
    size_t n;
    const char *name = LLVMGetValueName2(fn, &n);
    if (strstr(name, "ocl_image") || strstr(name, "ocl_sampler") || !strcmp(name, "__translate_sampler_initializer"))
      return true;
  }
  return kernel_args_name_images(mod);
}

static uint32_t sampler_constant(hg_xlate *x, LLVMValueRef call, unsigned nargs) {
  LLVMValueRef a = nargs == 1 ? LLVMGetOperand(call, 0) : NULL;
  if (!a || !LLVMIsAConstantInt(a)) hg_xlate_fail(x, "a sampler initializer must be a compile-time constant");
  uint64_t bits = LLVMConstIntGetZExtValue(a);
  if (!hg_ir_sampler_valid(bits))
    hg_xlate_fail(x,
                  "sampler initializer 0x%llx is not valid: it needs one addressing mode (CLK_ADDRESS_*) and "
                  "one filter mode (CLK_FILTER_NEAREST or CLK_FILTER_LINEAR), and no other bits",
                  (unsigned long long)bits);
  uint32_t v = hg_ir_add_const(x->f, hg_ir_sampler_ty(), &bits);
  if (v == HG_IR_NONE) hg_xlate_fail(x, "out of memory");
  return v;
}

bool hg_xlate_image_call(hg_xlate *x, LLVMValueRef call, const char *name, const char *cl_name, unsigned nargs) {
  if (!strcmp(name, "__translate_sampler_initializer")) {
    hg_ptr_map_put(&x->values, call, sampler_constant(x, call, nargs));
    return true;
  }
  if (!cl_name || hg_builtin_family_of(cl_name) != HG_IR_BF_IMAGE) return false;
  if (nargs < 1 || nargs > 3) hg_xlate_fail(x, "%s: unexpected argument count %u", cl_name, nargs);
  uint32_t args[3];
  for (unsigned i = 0; i < nargs; i++) {
    args[i] = hg_xlate_operand(x, LLVMGetOperand(call, i));
    uint8_t s = hg_value_type(x, args[i]).scalar;
    bool want_image = i == 0, want_sampler = i == 1 && nargs == 3 && !strncmp(cl_name, "read_image", 10);
    /* an image or sampler that is not the parameter or constant itself went through memory, a
     * select or a function this translator could not inline */
    if (want_image && s != HG_IR_IMAGE)
      hg_xlate_fail(x, "%s: the image must be a kernel's image argument used directly (not selected, stored or "
                       "passed through a non-inlined function)", cl_name);
    if (want_sampler && s != HG_IR_SAMPLER)
      hg_xlate_fail(x, "%s: the sampler must be a kernel's sampler argument or a sampler constant used directly "
                       "(not selected or stored)", cl_name);
  }
  hg_ir_type rt = hg_xlate_type(x, LLVMTypeOf(call));
  uint32_t id = hg_ir_intern(x->m, cl_name);
  uint32_t r = hg_emit(x, HG_OP_CALL_BUILTIN, 0, rt, nargs, args, 1, &id);
  if (r != HG_IR_NONE) hg_ptr_map_put(&x->values, call, r);
  return true;
}
