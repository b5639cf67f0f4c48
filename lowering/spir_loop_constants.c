/* Vector constants added inside a loop reach PoCL as values loaded before it (spir_internal.h).
 *
 * LLVM's DAG combiner rewrites (x + C) + y into (x + y) + C for any constant C, so that a
 * constant ends every chain of additions. In a loop whose time is the latency of such chains
 * that puts one more addition on each: hashcat's MD5 step a = rotl(a + F(b, c, d) + w[k] + K, s)
 * + b then adds w[k] + K after F instead of before it, in each of its 64 steps, where w[4..13]
 * are the zeros the kernel stored in its private array (so w[k] + K are constants). PoCL's own
 * build of the source keeps the function holding that loop apart from the kernel that zeroes
 * the words (three kernels call it), so there they are values read at run time and keep their
 * place; the IR inlines every call. The loop ran 12-14% slower than PoCL's own build; llvm-mca's
 * model gives 825 cycles an iteration against PoCL's 535, and 512 with the constants loaded
 * (docs/performance.md).
 *
 * So in a kernel that computes on vectors at least 32 bytes wide (PoCL's loop vectoriser does
 * not vectorise its work-item loop then anyway), has a loop and no barrier or other function
 * every work-item reaches together (PoCL lays out its work-item loops around those):
 * - the values the kernel stores in private memory are forwarded to their loads (SROA, GVN,
 *   InstCombine: what PoCL's -O3 does with them anyway), which brings such constants out;
 * - each distinct vector constant that an addition inside a loop takes is a volatile load, at
 *   the kernel's entry, of a __constant global holding it: a value neither PoCL's optimiser nor
 *   the DAG combiner can see as a constant, held in a register or spilled as PoCL's own build
 *   holds w[k] + K. One load of each a work-item. */
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_cfg.h"
#include "lowering/spir_internal.h"

#define MIN_VECTOR_BYTES 32
#define MAX_CONSTANTS 64 /* per kernel: the first ones met, in block order */
#define FORWARD_PASSES "function(sroa,early-cse<memssa>,gvn<>,instcombine)"

static unsigned attr_kind(const char *name) { return LLVMGetEnumAttributeKindForName(name, strlen(name)); }

static bool has_fn_attr(LLVMValueRef fn, const char *name) {
  return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, attr_kind(name)) != NULL;
}

static bool qualifies(LLVMTargetDataRef td, LLVMValueRef fn) {
  if (LLVMGetFunctionCallConv(fn) != HG_SPIR_KERNEL_CC || !LLVMCountBasicBlocks(fn))
    return false;
  bool wide = false, loop = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = LLVMTypeOf(i);
      wide = wide || (LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMStoreSizeOfType(td, t) >= MIN_VECTOR_BYTES);
      if (LLVMIsACallInst(i)) {
        LLVMValueRef callee = LLVMGetCalledValue(i);
        if (!LLVMIsAFunction(callee) || has_fn_attr(callee, "convergent"))
          return false;
      }
    }
    loop = loop || hg_llvm_block_branches_back(fn, bb);
  }
  return wide && loop;
}

/* Runs FORWARD_PASSES over the kernels marked in `chosen` alone: the module's other functions
 * are optnone for the run (as PoCL gets them, so is the rest of the module). */
static bool forward_private_values(LLVMModuleRef M, const bool *chosen, unsigned nfn) {
  LLVMContextRef C = LLVMGetModuleContext(M);
  unsigned k_optnone = attr_kind("optnone"), k_noinline = attr_kind("noinline");
  uint8_t *added = calloc(nfn ? nfn : 1, 1); /* bit 0: optnone added, bit 1: noinline added */
  if (!added)
    return false;
  unsigned i = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn), i++) {
    if (chosen[i] || !LLVMCountBasicBlocks(fn))
      continue;
    if (!has_fn_attr(fn, "optnone")) {
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(C, k_optnone, 0));
      added[i] |= 1;
    }
    if (!has_fn_attr(fn, "noinline")) {
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(C, k_noinline, 0));
      added[i] |= 2;
    }
  }
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(M, FORWARD_PASSES, NULL, opts);
  LLVMDisposePassBuilderOptions(opts);
  i = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn), i++) {
    if (added[i] & 1)
      LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k_optnone);
    if (added[i] & 2)
      LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k_noinline);
  }
  free(added);
  if (err) {
    LLVMConsumeError(err);
    return false;
  }
  return true;
}

/* a vector constant with every lane defined (one with undefined lanes is an addition whose
 * other lanes nobody reads: left as it is) */
static bool is_vector_constant(LLVMValueRef v) {
  if (!LLVMIsAConstant(v) || LLVMIsAConstantExpr(v) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
    return false;
  for (unsigned k = 0; k < LLVMGetVectorSize(LLVMTypeOf(v)); k++) {
    LLVMValueRef lane = LLVMGetAggregateElement(v, k);
    if (!lane || LLVMIsUndef(lane))
      return false;
  }
  return true;
}

/* kernel fn: each distinct vector constant an addition in a loop takes, loaded at the entry */
static void load_loop_constants(LLVMModuleRef M, LLVMValueRef fn, LLVMBuilderRef B) {
  LLVMValueRef constants[MAX_CONSTANTS], loaded[MAX_CONSTANTS];
  unsigned n = 0;
  LLVMBasicBlockRef entry = LLVMGetFirstBasicBlock(fn);
  LLVMValueRef at = LLVMGetFirstInstruction(entry);
  while (at && LLVMIsAAllocaInst(at))
    at = LLVMGetNextInstruction(at);
  size_t len;
  const char *kernel = LLVMGetValueName2(fn, &len);
  /* blocks from a loop's header to the block that branches back to it */
  for (LLVMBasicBlockRef latch = LLVMGetFirstBasicBlock(fn); latch; latch = LLVMGetNextBasicBlock(latch)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(latch);
    for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++) {
      LLVMBasicBlockRef header = LLVMGetSuccessor(term, k);
      if (!hg_llvm_block_placed_before(fn, header, latch))
        continue;
      for (LLVMBasicBlockRef bb = header;; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
          if (LLVMGetInstructionOpcode(i) != LLVMAdd)
            continue;
          for (unsigned o = 0; o < 2; o++) {
            LLVMValueRef c = LLVMGetOperand(i, o);
            if (!is_vector_constant(c))
              continue;
            unsigned slot = 0;
            while (slot < n && constants[slot] != c)
              slot++;
            if (slot == n) {
              if (n == MAX_CONSTANTS)
                continue;
              char name[96];
              snprintf(name, sizeof name, "%.*s.loop_constant.%u", (int)(len > 64 ? 64 : len), kernel, n);
              LLVMValueRef g = LLVMAddGlobalInAddressSpace(M, LLVMTypeOf(c), name, 2);
              LLVMSetInitializer(g, c);
              LLVMSetGlobalConstant(g, 1);
              LLVMSetLinkage(g, LLVMInternalLinkage);
              LLVMSetAlignment(g, (unsigned)LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(M), LLVMTypeOf(c)));
              at ? LLVMPositionBuilderBefore(B, at) : LLVMPositionBuilderAtEnd(B, entry);
              LLVMValueRef v = LLVMBuildLoad2(B, LLVMTypeOf(c), g, "");
              LLVMSetVolatile(v, 1);
              LLVMSetAlignment(v, LLVMGetAlignment(g));
              constants[n] = c;
              loaded[n++] = v;
            }
            LLVMSetOperand(i, o, loaded[slot]);
          }
        }
        if (bb == latch)
          break;
      }
    }
  }
}

bool hg_spir_load_loop_constants(LLVMModuleRef M, bool *changed) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(M);
  unsigned nfn = 0, nchosen = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn))
    nfn++;
  bool *chosen = calloc(nfn ? nfn : 1, sizeof *chosen);
  if (!chosen)
    return false;
  unsigned i = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn), i++)
    nchosen += chosen[i] = qualifies(td, fn);
  bool ok = true;
  if (nchosen) {
    ok = forward_private_values(M, chosen, nfn);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(M));
    i = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(M); ok && fn; fn = LLVMGetNextFunction(fn), i++)
      if (i < nfn && chosen[i])
        load_loop_constants(M, fn, B);
    LLVMDisposeBuilder(B);
    *changed = true;
  }
  free(chosen);
  return ok;
}
