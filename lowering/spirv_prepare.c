/* The bitcode llvm-spirv writes, made ready for the OpenCL C translation (llvm_module.c).
 *
 * The OpenCL C front end never lets the asynchronous copies reach the IR: its prelude
 * (frontend_prelude.h) makes them cooperative loops and wait_group_events a barrier, because an
 * opaque builtin on untyped pointers could not say its element size. A SPIR-V module carries
 * them as OpGroupAsyncCopy / OpGroupWaitEvents, which the translator turns into calls of the
 * mangled builtins; here each such declaration gets the prelude's body, built with the LLVM
 * builder (element type from the mangled name), internal and always inlined, so the same loads,
 * stores and barrier reach the IR. prefetch, a hint, gets an empty body. */
#include <stdio.h>
#include <string.h>

#include "lowering/llvm_translate.h"
#include "lowering/spirv_prepare.h"

#define CLK_LOCAL_AND_GLOBAL_MEM_FENCE 3u

/* The LLVM type of a mangled element type (Dv4_f: <4 x float>), or NULL. */
static LLVMTypeRef element_type(LLVMContextRef ctx, const hg_mangled_param *p) {
  LLVMTypeRef t;
  switch (p->base) {
  case 'c': case 'a': case 'h': t = LLVMInt8TypeInContext(ctx); break;
  case 's': case 't': t = LLVMInt16TypeInContext(ctx); break;
  case 'i': case 'j': t = LLVMInt32TypeInContext(ctx); break;
  case 'l': case 'm': t = LLVMInt64TypeInContext(ctx); break;
  case 'f': t = LLVMFloatTypeInContext(ctx); break;
  case 'd': t = LLVMDoubleTypeInContext(ctx); break;
  case 'D': t = LLVMHalfTypeInContext(ctx); break;
  default: return NULL;
  }
  return p->lanes > 1 ? LLVMVectorType(t, p->lanes) : t;
}

/* A call of a work-item function (size_t name(uint)), declared when the module lacks it. */
static LLVMValueRef work_item(LLVMModuleRef mod, LLVMBuilderRef b, const char *mangled, unsigned dim) {
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ft = LLVMFunctionType(i64, &i32, 1, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(mod, mangled);
  if (!fn) fn = LLVMAddFunction(mod, mangled, ft);
  LLVMValueRef arg = LLVMConstInt(i32, dim, 0);
  return LLVMBuildCall2(b, ft, fn, &arg, 1, "");
}

static void make_internal_inline(LLVMContextRef ctx, LLVMValueRef fn) {
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
}

/* async_work_group_copy (dst, src, n, event) and async_work_group_strided_copy (dst, src, n,
 * stride, event): work-item k of the group copies elements k, k + group size, ...; the global
 * side is the strided one. Returns the event it was given. */
static bool define_async_copy(LLVMModuleRef mod, LLVMValueRef fn, const hg_demangled *d, bool strided) {
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  unsigned np = LLVMCountParams(fn);
  if (np != (strided ? 5u : 4u) || d->num_params < 2) return false;
  LLVMTypeRef elem = element_type(ctx, &d->params[0]);
  if (!elem) return false;
  LLVMValueRef dst = LLVMGetParam(fn, 0), src = LLVMGetParam(fn, 1), n = LLVMGetParam(fn, 2);
  LLVMValueRef stride = strided ? LLVMGetParam(fn, 3) : NULL, event = LLVMGetParam(fn, np - 1);
  bool dst_global = d->params[0].addrspace != 3;
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(ctx, fn, "head");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(ctx, fn, "body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, fn, "done");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef lid[3], lsz[3];
  for (unsigned k = 0; k < 3; k++) {
    lid[k] = work_item(mod, b, "_Z12get_local_idj", k);
    lsz[k] = work_item(mod, b, "_Z14get_local_sizej", k);
  }
  LLVMValueRef first = LLVMBuildAdd(
      b, lid[0], LLVMBuildMul(b, lsz[0], LLVMBuildAdd(b, lid[1], LLVMBuildMul(b, lsz[1], lid[2], ""), ""), ""), "");
  LLVMValueRef step = LLVMBuildMul(b, LLVMBuildMul(b, lsz[0], lsz[1], ""), lsz[2], "");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef i = LLVMBuildPhi(b, LLVMTypeOf(first), "i");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i, n, ""), body, done);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef far = strided ? LLVMBuildMul(b, i, stride, "") : i;
  LLVMValueRef si = dst_global ? i : far, di = dst_global ? far : i;
  LLVMValueRef v = LLVMBuildLoad2(b, elem, LLVMBuildGEP2(b, elem, src, &si, 1, ""), "");
  LLVMBuildStore(b, v, LLVMBuildGEP2(b, elem, dst, &di, 1, ""));
  LLVMValueRef next = LLVMBuildAdd(b, i, step, "");
  LLVMBuildBr(b, head);
  LLVMValueRef in_vals[2] = {first, next};
  LLVMBasicBlockRef in_blocks[2] = {entry, body};
  LLVMAddIncoming(i, in_vals, in_blocks, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRet(b, event);
  LLVMDisposeBuilder(b);
  return true;
}

/* wait_group_events: every work-item sees the whole copy after a barrier with both fences. */
static void define_wait(LLVMModuleRef mod, LLVMValueRef fn) {
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i32, 1, 0);
  LLVMValueRef barrier = LLVMGetNamedFunction(mod, "_Z7barrierj");
  if (!barrier) barrier = LLVMAddFunction(mod, "_Z7barrierj", ft);
  LLVMValueRef flags = LLVMConstInt(i32, CLK_LOCAL_AND_GLOBAL_MEM_FENCE, 0);
  LLVMBuildCall2(b, ft, barrier, &flags, 1, "");
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
}

static void define_empty(LLVMContextRef ctx, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
}

static bool returns_void(LLVMValueRef fn) {
  return LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) == LLVMVoidTypeKind;
}

bool hg_spirv_prepare_module(LLVMModuleRef mod, char **log) {
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMCountBasicBlocks(fn) > 0) continue;
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    hg_demangled d;
    if (!hg_demangle_opencl(name, &d)) continue;
    bool ok = true;
    if (!strcmp(d.name, "async_work_group_copy") || !strcmp(d.name, "async_work_group_strided_copy"))
      ok = define_async_copy(mod, fn, &d, !strcmp(d.name, "async_work_group_strided_copy"));
    else if (!strcmp(d.name, "wait_group_events") && returns_void(fn))
      define_wait(mod, fn);
    else if (!strcmp(d.name, "prefetch") && returns_void(fn))
      define_empty(ctx, fn);
    else
      continue;
    if (!ok) {
      hg_log_append(log, "error: unsupported form of %s ('%s')", d.name, name);
      return false;
    }
    make_internal_inline(ctx, fn);
  }
  return true;
}
