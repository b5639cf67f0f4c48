/* Loops as PoCL gets them (docs/spir-backend.md, "Loops left to the vendor"): through hetGPU's
 * front end and the SPIR back end, bench sgemm's 16-step dot product (a tiled matrix product:
 * between two barriers in the tile loop) stays a loop (lowering/llvm_barrier_loops.c: the front end does not unroll loops
 * nested in a loop that reaches a barrier), the same dot product after a barrier but in no loop
 * is still unrolled (the rule is that narrow), and every loop of the bitcode carries
 * llvm.loop.unroll.disable, as PoCL's own front end leaves the loops of a source. A loop
 * counts as a branch to a block placed no later (the IR keeps the source's block order).
 * And a register-tiled product whose __local indices depend only on the local ids (so -O2
 * moves them out of its tile loop, across the loop's barriers) gets every __local address it
 * stores to in that loop computed inside the loop (lowering/spir_recompute.c). */
#include <llvm-c/Analysis.h>
#include <string.h>

#include "bench/bench_kernels_src.h"
#include "conformance/opencl_c/spir_test_lower.h"

/* bench's kernels (sgemm: the tiled product) and one with the same dot product after a barrier
 * but in no loop */
static const char k_once[] =
    "kernel void once(global const float *a, global const float *b, global float *c) {\n"
    "  local float ta[16][16], tb[16][16];\n"
    "  int lr = get_local_id(1), lc = get_local_id(0);\n"
    "  ta[lr][lc] = a[lr * 16 + lc]; tb[lr][lc] = b[lr * 16 + lc];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float sum = 0.0f;\n"
    "  for (int k = 0; k < 16; k++) sum += ta[lr][k] * tb[k][lc];\n"
    "  c[lr * 16 + lc] = sum;\n"
    "}\n";

/* CLBlast's XgemmDirect in small: two by two results per work-item, padded tiles */
static const char k_tiles[] =
    "kernel void tiles(int n, global const float *restrict a, global const float *restrict b,\n"
    "                  global float *c) {\n"
    "  local float ta[16 * 17], tb[16 * 17];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  float s00 = 0, s01 = 0, s10 = 0, s11 = 0;\n"
    "  for (int t = 0; t < n; t += 16) {\n"
    "    _Pragma(\"unroll\") for (int i = 0; i < 2; i++)\n"
    "      _Pragma(\"unroll\") for (int j = 0; j < 2; j++) {\n"
    "        ta[(ly * 2 + i) * 17 + lx * 2 + j] = a[(t + ly * 2 + i) * n + lx * 2 + j];\n"
    "        tb[(ly * 2 + i) * 17 + lx * 2 + j] = b[(t + ly * 2 + i) * n + lx * 2 + j];\n"
    "      }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < 16; k++) {\n"
    "      s00 += ta[k * 17 + ly * 2] * tb[k * 17 + lx * 2];\n"
    "      s01 += ta[k * 17 + ly * 2] * tb[k * 17 + lx * 2 + 1];\n"
    "      s10 += ta[k * 17 + ly * 2 + 1] * tb[k * 17 + lx * 2];\n"
    "      s11 += ta[k * 17 + ly * 2 + 1] * tb[k * 17 + lx * 2 + 1];\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  int r = get_global_id(1) * 2, q = get_global_id(0) * 2;\n"
    "  c[r * n + q] = s00; c[r * n + q + 1] = s01; c[(r + 1) * n + q] = s10; c[(r + 1) * n + q + 1] = s11;\n"
    "}\n";

/* Whether loop ID `id` holds !{"llvm.loop.unroll.disable"}. */
static int says_disable(LLVMValueRef id) {
  unsigned n = LLVMGetMDNodeNumOperands(id);
  LLVMValueRef ops[16];
  if (n > 16) return 0;
  LLVMGetMDNodeOperands(id, ops);
  for (unsigned i = 1; i < n; i++) {
    if (!ops[i] || !LLVMIsAMDNode(ops[i]) || LLVMGetMDNodeNumOperands(ops[i]) != 1) continue;
    LLVMValueRef s[1];
    LLVMGetMDNodeOperands(ops[i], s);
    unsigned len = 0;
    const char *str = s[0] ? LLVMGetMDString(s[0], &len) : NULL;
    if (str && len == 24 && !memcmp(str, "llvm.loop.unroll.disable", 24)) return 1;
  }
  return 0;
}

/* Back edges of kernel `name`, and how many of them carry the disable hint. */
static void loops_of(LLVMModuleRef M, const char *name, unsigned *loops, unsigned *disabled) {
  *loops = *disabled = 0;
  LLVMValueRef fn = LLVMGetNamedFunction(M, name);
  CHECK(fn, "no kernel %s in the bitcode", name);
  if (!fn) return;
  unsigned kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(M), "llvm.loop", 9);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    int back = 0;
    for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term) && !back; k++)
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b && !back; b = LLVMGetNextBasicBlock(b)) {
        back = b == LLVMGetSuccessor(term, k);
        if (b == bb) break;
      }
    if (!back) continue;
    (*loops)++;
    LLVMValueRef id = LLVMGetMetadata(term, kind);
    *disabled += id && says_disable(id);
  }
}

/* Position of block bb in fn (blocks in layout order). */
static unsigned block_pos(LLVMValueRef fn, LLVMBasicBlockRef bb) {
  unsigned i = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b && b != bb; b = LLVMGetNextBasicBlock(b)) i++;
  return i;
}

/* Whether every instruction v is computed from (through anything but phis) sits in blocks
 * [first, last] of fn. */
static int computed_within(LLVMValueRef fn, LLVMValueRef v, unsigned first, unsigned last, unsigned depth) {
  if (!LLVMIsAInstruction(v) || LLVMIsAPHINode(v) || depth > 64) return 1;
  unsigned p = block_pos(fn, LLVMGetInstructionParent(v));
  if (p < first || p > last) return 0;
  for (int k = 0; k < LLVMGetNumOperands(v); k++)
    if (!computed_within(fn, LLVMGetOperand(v, (unsigned)k), first, last, depth + 1)) return 0;
  return 1;
}

/* The outermost loop of kernel `name` (the back edge to the earliest header): how many
 * __local stores it holds, and how many of their addresses are computed inside it. */
static void local_stores_in_loop(LLVMModuleRef M, const char *name, unsigned *stores, unsigned *inside) {
  *stores = *inside = 0;
  LLVMValueRef fn = LLVMGetNamedFunction(M, name);
  CHECK(fn, "no kernel %s in the bitcode", name);
  if (!fn) return;
  unsigned header = ~0u, latch = 0, pos = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb), pos++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++) {
      unsigned target = block_pos(fn, LLVMGetSuccessor(term, k));
      if (target <= pos && target < header) header = target, latch = pos;
    }
  }
  pos = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb), pos++) {
    if (pos < header || pos > latch) continue;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsAStoreInst(in)) continue;
      LLVMValueRef addr = LLVMGetOperand(in, 1);
      if (LLVMGetPointerAddressSpace(LLVMTypeOf(addr)) != 3) continue;
      (*stores)++;
      *inside += computed_within(fn, addr, header, latch, 0);
    }
  }
}

int main(void) {
  size_t len = strlen(hg_bench_kernels_src) + sizeof k_once + sizeof k_tiles;
  char *source = malloc(len);
  if (!source) return 1;
  snprintf(source, len, "%s%s%s", hg_bench_kernels_src, k_once, k_tiles);
  size_t size = 0;
  uint8_t *bc = spir_test_lower(source, &size);
  free(source);
  if (!bc) return 1;
  LLVMContextRef C = LLVMContextCreate();
  LLVMModuleRef M = spir_test_parse(C, bc, size);
  if (!M) return 1;
  unsigned loops, disabled;
  loops_of(M, "sgemm", &loops, &disabled);
  CHECK(loops == 2, "sgemm: %u loops, want 2 (the tile loop and its dot product)", loops);
  CHECK(disabled == loops, "sgemm: %u of %u loops marked llvm.loop.unroll.disable", disabled, loops);
  loops_of(M, "once", &loops, &disabled);
  CHECK(loops == 0, "once: %u loops, want 0 (its 16 steps, after its barrier but in no loop, unrolled)", loops);
  char *verify = NULL;
  CHECK(!LLVMVerifyModule(M, LLVMReturnStatusAction, &verify), "the bitcode does not verify: %s", verify);
  LLVMDisposeMessage(verify);
  unsigned stores, inside;
  local_stores_in_loop(M, "tiles", &stores, &inside);
  CHECK(stores == 8 && inside == stores, "tiles: %u of the tile loop's %u __local stores have addresses computed in the loop",
        inside, stores);
  LLVMDisposeModule(M);
  LLVMContextDispose(C);
  free(bc);
  printf("%s\n", failures ? "FAILED" : "passed");
  return failures != 0;
}
