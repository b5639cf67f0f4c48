/* Memsets as loops of wide stores (lowering/llvm_memset_loops.h).
 *
 * LLVM 15's NVPTX back end expands a memset of k_min_length bytes or more into a loop of
 * single-byte stores through the destination as it is, which for a private array is a generic
 * pointer; ptxas unrolls the loop into one generic byte store per byte. hashcat -m 1800's loop
 * kernel zeroed its 1 KB array with 1024 `ST.E.U8` a launch, where NVIDIA's own build stores 16
 * bytes at a time to local memory (docs/ptx-backend.md). Here such a memset becomes a loop of
 * stores as wide as the destination's alignment and the length allow (up to 16 bytes), in
 * private memory's own address space where the destination is an alloca. Shorter memsets
 * NVPTX stores inline itself, by their alignment. */
#include "lowering/llvm_memset_loops.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { k_min_length = 128, k_max_width = 16 };

#define LOOP_PREFIX "hg.memset.loop."

/* The alloca p points into (NULL: none known); *at_start when p is its first byte. */
static LLVMValueRef alloca_under(LLVMValueRef p, bool *at_start) {
  *at_start = true;
  for (;;) {
    if (LLVMIsAAllocaInst(p))
      return p;
    if (LLVMIsAGetElementPtrInst(p))
      *at_start = false;
    else if (!LLVMIsABitCastInst(p) && !LLVMIsAAddrSpaceCastInst(p))
      return NULL;
    p = LLVMGetOperand(p, 0);
  }
}

/* What the store of a width-byte element is: i16, i32, i64 or <4 x i32>. */
static LLVMTypeRef element_type(LLVMContextRef C, unsigned width) {
  return width == 16 ? LLVMVectorType(LLVMInt32TypeInContext(C), 4) : LLVMIntTypeInContext(C, width * 8);
}

/* The byte repeated across an element (folded to a constant where the byte is one). */
static LLVMValueRef splat(LLVMBuilderRef B, LLVMContextRef C, LLVMValueRef byte, unsigned width) {
  unsigned bytes = width == 16 ? 4 : width;
  LLVMTypeRef t = LLVMIntTypeInContext(C, bytes * 8);
  uint64_t ones = 0;
  for (unsigned i = 0; i < bytes; i++)
    ones = ones << 8 | 1;
  LLVMValueRef v = LLVMBuildMul(B, LLVMBuildZExt(B, byte, t, ""), LLVMConstInt(t, ones, 0), "");
  if (width != 16)
    return v;
  LLVMValueRef vec = LLVMGetUndef(element_type(C, width));
  for (unsigned i = 0; i < 4; i++)
    vec = LLVMBuildInsertElement(B, vec, v, LLVMConstInt(LLVMInt32TypeInContext(C), i, 0), "");
  return vec;
}

/* void hg.memset.loop.W.AS(ptr addrspace(AS) p, T v, i64 n): p[0..n) = v, n > 0; always inlined. */
static LLVMValueRef loop_function(LLVMModuleRef M, unsigned width, unsigned space, LLVMTypeRef *fn_type) {
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef et = element_type(C, width), i64 = LLVMInt64TypeInContext(C);
  LLVMTypeRef params[3] = {LLVMPointerTypeInContext(C, space), et, i64};
  *fn_type = LLVMFunctionType(LLVMVoidTypeInContext(C), params, 3, 0);
  char name[48];
  snprintf(name, sizeof name, LOOP_PREFIX "%u.%u", width, space);
  LLVMValueRef fn = LLVMGetNamedFunction(M, name);
  if (fn)
    return fn;
  fn = LLVMAddFunction(M, name, *fn_type);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(C, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(C, fn, ""), loop = LLVMAppendBasicBlockInContext(C, fn, ""),
                    done = LLVMAppendBasicBlockInContext(C, fn, "");
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B, entry);
  LLVMBuildBr(B, loop);
  LLVMPositionBuilderAtEnd(B, loop);
  LLVMValueRef i = LLVMBuildPhi(B, i64, "");
  LLVMValueRef at = LLVMBuildGEP2(B, et, LLVMGetParam(fn, 0), &i, 1, "");
  LLVMSetAlignment(LLVMBuildStore(B, LLVMGetParam(fn, 1), at), width);
  LLVMValueRef next = LLVMBuildNUWAdd(B, i, LLVMConstInt(i64, 1, 0), "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, next, LLVMGetParam(fn, 2), ""), done, loop);
  LLVMValueRef in_vals[2] = {LLVMConstInt(i64, 0, 0), next};
  LLVMBasicBlockRef in_blocks[2] = {entry, loop};
  LLVMAddIncoming(i, in_vals, in_blocks, 2);
  LLVMPositionBuilderAtEnd(B, done);
  LLVMBuildRetVoid(B);
  LLVMDisposeBuilder(B);
  return fn;
}

/* Replaces one memset call when it qualifies; true when it did. */
static bool replace(LLVMModuleRef M, LLVMBuilderRef B, LLVMValueRef call, unsigned private_space) {
  LLVMValueRef dest = LLVMGetOperand(call, 0), byte = LLVMGetOperand(call, 1), len = LLVMGetOperand(call, 2),
               vol = LLVMGetOperand(call, 3);
  if (!LLVMIsAConstantInt(len) || !LLVMIsAConstantInt(vol) || LLVMConstIntGetZExtValue(vol))
    return false;
  uint64_t length = LLVMConstIntGetZExtValue(len);
  if (length < k_min_length)
    return false;
  unsigned align = 1;
  LLVMAttributeRef attr = LLVMGetCallSiteEnumAttribute(call, 1, LLVMGetEnumAttributeKindForName("align", 5));
  if (attr)
    align = (unsigned)LLVMGetEnumAttributeValue(attr);
  bool at_start;
  LLVMValueRef base = alloca_under(dest, &at_start);
  if (base && at_start && LLVMGetAlignment(base) > align)
    align = LLVMGetAlignment(base);
  unsigned width = k_max_width;
  while (width > 1 && (width > align || length % width))
    width >>= 1;
  if (width == 1)
    return false; /* what NVPTX does anyway */
  LLVMContextRef C = LLVMGetModuleContext(M);
  unsigned space = LLVMGetPointerAddressSpace(LLVMTypeOf(dest));
  LLVMPositionBuilderBefore(B, call);
  if (base && space == 0) {
    space = private_space;
    dest = LLVMBuildAddrSpaceCast(B, dest, LLVMPointerTypeInContext(C, space), "");
  }
  LLVMTypeRef fn_type;
  LLVMValueRef fn = loop_function(M, width, space, &fn_type);
  LLVMPositionBuilderBefore(B, call);
  LLVMValueRef args[3] = {dest, splat(B, C, byte, width), LLVMConstInt(LLVMInt64TypeInContext(C), length / width, 0)};
  LLVMBuildCall2(B, fn_type, fn, args, 3, "");
  LLVMInstructionEraseFromParent(call);
  return true;
}

static bool is_memset(LLVMValueRef in) {
  if (!LLVMIsACallInst(in))
    return false;
  LLVMValueRef callee = LLVMGetCalledValue(in);
  size_t n;
  const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n) : NULL;
  return name && !strncmp(name, "llvm.memset.", 12);
}

bool hg_llvm_memset_loops(LLVMModuleRef M, unsigned private_space) {
  bool any = false;
  LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(M));
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (is_memset(in))
          any |= replace(M, B, in, private_space);
      }
  LLVMDisposeBuilder(B);
  return any;
}

void hg_llvm_memset_loops_drop(LLVMModuleRef M) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(M), next; fn; fn = next) {
    next = LLVMGetNextFunction(fn);
    size_t n;
    const char *name = LLVMGetValueName2(fn, &n);
    if (!strncmp(name, LOOP_PREFIX, strlen(LOOP_PREFIX)) && !LLVMGetFirstUse(fn))
      LLVMDeleteFunction(fn);
  }
}
