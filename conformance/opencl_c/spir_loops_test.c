/* Loops as PoCL gets them (docs/spir-backend.md, "Loops left to the vendor"): through hetGPU's
 * front end and the SPIR back end, bench sgemm's 16-step dot product (a tiled matrix product:
 * between two barriers in the tile loop) stays a loop (lowering/llvm_barrier_loops.c: the front end does not unroll loops
 * nested in a loop that reaches a barrier), the same dot product after a barrier but in no loop
 * is still unrolled (the rule is that narrow), and every loop of the bitcode carries
 * llvm.loop.unroll.disable, as PoCL's own front end leaves the loops of a source. A loop
 * counts as a branch to a block placed no later (the IR keeps the source's block order). */
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_kernels_src.h"
#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/spir.h"

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

static int failures;

#define CHECK(cond, ...)                                                                                          \
  do {                                                                                                            \
    if (!(cond)) {                                                                                                \
      fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                      \
      fputc('\n', stderr);                                                                                        \
      failures++;                                                                                                 \
    }                                                                                                             \
  } while (0)

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

int main(void) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  size_t len = strlen(hg_bench_kernels_src) + sizeof k_once;
  char *source = malloc(len);
  if (!source) return 1;
  snprintf(source, len, "%s%s", hg_bench_kernels_src, k_once);
  cl_int fe = hg_frontend_source_to_ir(source, "", NULL, 0, false, &m, &log);
  free(source);
  if (fe != CL_SUCCESS) {
    fprintf(stderr, "FAIL: front end: %s\n", log ? log : "");
    return 1;
  }
  free(log);
  char err[512] = "";
  size_t size = 0;
  uint8_t *bc = hg_lower_spir(m, false, &size, err, sizeof err);
  hg_ir_module_free(m);
  if (!bc) {
    fprintf(stderr, "FAIL: SPIR back end: %s\n", err);
    return 1;
  }
  LLVMContextRef C = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)bc, size, "bc");
  LLVMModuleRef M = NULL;
  if (LLVMParseBitcodeInContext2(C, buf, &M) != 0) {
    fprintf(stderr, "FAIL: unreadable bitcode\n");
    return 1;
  }
  unsigned loops, disabled;
  loops_of(M, "sgemm", &loops, &disabled);
  CHECK(loops == 2, "sgemm: %u loops, want 2 (the tile loop and its dot product)", loops);
  CHECK(disabled == loops, "sgemm: %u of %u loops marked llvm.loop.unroll.disable", disabled, loops);
  loops_of(M, "once", &loops, &disabled);
  CHECK(loops == 0, "once: %u loops, want 0 (its 16 steps, after its barrier but in no loop, unrolled)", loops);
  LLVMDisposeModule(M);
  LLVMDisposeMemoryBuffer(buf);
  LLVMContextDispose(C);
  free(bc);
  printf("%s\n", failures ? "FAILED" : "passed");
  return failures != 0;
}
