/* The bitcode llvm-spirv writes, made ready for the OpenCL C translation (llvm_module.c).
 *
 * The OpenCL C front end never lets the asynchronous copies reach the IR: its prelude
 * (frontend_prelude.h) makes them cooperative loops and wait_group_events a barrier, because an
 * opaque builtin on untyped pointers could not say its element size. A SPIR-V module carries
 * them as OpGroupAsyncCopy / OpGroupWaitEvents, which the translator turns into calls of the
 * mangled builtins; here each such declaration gets the prelude's body, built with the LLVM
 * builder (element type from the mangled name), internal and always inlined, so the same loads,
 * stores and barrier reach the IR. prefetch, a hint, gets an empty body. The generic pointers
 * the translator itself puts into builtin calls go (specialize_generic_args), and mad becomes
 * llvm.fmuladd (mad_to_fmuladd). */
#include <stdio.h>
#include <stdlib.h>
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

/* The event list of every call: the barrier below does not read it, and the translator hands
 * it over as a generic pointer, which the IR has no address space for. Each call gets undef
 * instead, and the casts and address computations left without a use go. */
static void drop_event_lists(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetNumArgOperands(call) < 2) continue;
    LLVMValueRef list = LLVMGetOperand(call, 1);
    LLVMSetOperand(call, 1, LLVMGetUndef(LLVMTypeOf(list)));
    while (list && LLVMIsAInstruction(list) && !LLVMGetFirstUse(list) &&
           (LLVMIsAAddrSpaceCastInst(list) || LLVMIsABitCastInst(list) || LLVMIsAGetElementPtrInst(list))) {
      LLVMValueRef from = LLVMGetOperand(list, 0);
      LLVMInstructionEraseFromParent(list);
      list = from;
    }
  }
}

/* wait_group_events: every work-item sees the whole copy after a barrier with both fences. */
static void define_wait(LLVMModuleRef mod, LLVMValueRef fn) {
  drop_event_lists(fn);
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

/* The pointer a generic-address-space argument was cast from (an addrspacecast instruction or
 * constant expression to address space 4), or NULL. */
static LLVMValueRef generic_source(LLVMValueRef arg) {
  LLVMTypeRef t = LLVMTypeOf(arg);
  if (LLVMGetTypeKind(t) != LLVMPointerTypeKind || LLVMGetPointerAddressSpace(t) != 4) return NULL;
  if (LLVMIsAAddrSpaceCastInst(arg) || (LLVMIsAConstantExpr(arg) && LLVMGetConstOpcode(arg) == LLVMAddrSpaceCast))
    return LLVMGetOperand(arg, 0);
  return NULL;
}

/* llvm-spirv -r in the OpenCL 2.0 form calls the C11-style atomics through generic pointers,
 * casting the module's own global or local pointer: each such call becomes a call of the same
 * builtin on the pointer it was cast from (its mangled name says that address space), which the
 * IR can hold. A generic pointer of the module's own is refused earlier (spirv_module.c). */
static void specialize_generic_args(LLVMModuleRef mod, LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (!strstr(name, "U3AS4")) return;
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  unsigned n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) n++;
  LLVMValueRef *calls = calloc(n ? n : 1, sizeof *calls);
  if (!calls) return;
  n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u))
    if (LLVMIsACallInst(LLVMGetUser(u)) && LLVMGetCalledValue(LLVMGetUser(u)) == fn) calls[n++] = LLVMGetUser(u);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (unsigned c = 0; c < n; c++) {
    LLVMValueRef call = calls[c], args[16];
    LLVMTypeRef types[16];
    unsigned na = (unsigned)LLVMGetNumArgOperands(call);
    if (na > 16) continue;
    char new_name[512];
    snprintf(new_name, sizeof new_name, "%s", name);
    char *at = new_name;
    bool changed = false;
    for (unsigned i = 0; i < na; i++) {
      args[i] = LLVMGetOperand(call, i);
      LLVMValueRef from = generic_source(args[i]);
      char *as = strstr(at, "U3AS4");
      if (from && as && LLVMGetPointerAddressSpace(LLVMTypeOf(from)) <= 3) {
        as[4] = (char)('0' + LLVMGetPointerAddressSpace(LLVMTypeOf(from)));
        args[i] = from;
        changed = true;
      }
      if (as && LLVMGetTypeKind(LLVMTypeOf(args[i])) == LLVMPointerTypeKind) at = as + 5;
      types[i] = LLVMTypeOf(args[i]);
    }
    if (!changed) continue;
    LLVMTypeRef ft = LLVMFunctionType(LLVMGetReturnType(LLVMGlobalGetValueType(fn)), types, na, 0);
    LLVMValueRef nf = LLVMGetNamedFunction(mod, new_name);
    if (!nf) nf = LLVMAddFunction(mod, new_name, ft);
    if (LLVMGlobalGetValueType(nf) != ft) continue; /* another signature of that name: leave it */
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef repl = LLVMBuildCall2(b, ft, nf, args, na, "");
    LLVMReplaceAllUsesWith(call, repl);
    for (unsigned i = 0; i < na; i++) {
      LLVMValueRef old = LLVMGetOperand(call, i);
      LLVMSetOperand(call, i, LLVMGetUndef(LLVMTypeOf(old)));
      if (LLVMIsAInstruction(old) && !LLVMGetFirstUse(old)) LLVMInstructionEraseFromParent(old);
    }
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
  free(calls);
}

/* Loads and stores through a generic pointer cast from the module's own (the translator's
 * temporaries around atomic_compare_exchange) use the pointer it was cast from. */
static void forward_generic_casts(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      unsigned ptr_op = LLVMIsALoadInst(i) ? 0 : LLVMIsAStoreInst(i) ? 1 : 2;
      if (ptr_op == 2) continue;
      LLVMValueRef from = generic_source(LLVMGetOperand(i, ptr_op));
      if (from && LLVMGetPointerAddressSpace(LLVMTypeOf(from)) <= 3) LLVMSetOperand(i, ptr_op, from);
    }
}

/* OpenCL.std mad (what llvm-spirv makes of clang's llvm.fmuladd) becomes llvm.fmuladd again:
 * "fused or not", both of which mad's implementation-defined precision allows, and what the
 * IR carries as a contractible multiply and add for OpenCL C (llvm_calls.c). */
static void mad_to_fmuladd(LLVMModuleRef mod, LLVMValueRef fn) {
  LLVMTypeRef t = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  LLVMTypeRef scalar = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  LLVMTypeKind k = LLVMGetTypeKind(scalar);
  if ((k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind) || LLVMCountParams(fn) != 3) return;
  static const char name[] = "llvm.fmuladd";
  LLVMValueRef intr = LLVMGetIntrinsicDeclaration(mod, LLVMLookupIntrinsicID(name, sizeof name - 1), &t, 1);
  LLVMTypeRef it = LLVMGlobalGetValueType(intr);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u;) {
    LLVMValueRef call = LLVMGetUser(u);
    u = LLVMGetNextUse(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) continue;
    LLVMValueRef args[3] = {LLVMGetOperand(call, 0), LLVMGetOperand(call, 1), LLVMGetOperand(call, 2)};
    LLVMPositionBuilderBefore(b, call);
    LLVMReplaceAllUsesWith(call, LLVMBuildCall2(b, it, intr, args, 3, ""));
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
}

static bool returns_void(LLVMValueRef fn) {
  return LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) == LLVMVoidTypeKind;
}

bool hg_spirv_prepare_module(LLVMModuleRef mod, char **log) {
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
    hg_demangled d;
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (LLVMCountBasicBlocks(fn) > 0)
      forward_generic_casts(fn);
    else if (hg_demangle_opencl(name, &d) && !strcmp(d.name, "mad"))
      mad_to_fmuladd(mod, fn);
    else if (strcmp(name, "_Z17wait_group_eventsiPU3AS49ocl_event") && hg_demangle_opencl(name, &d))
      specialize_generic_args(mod, fn);
  }
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
