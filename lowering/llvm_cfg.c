/* An LLVM function's control-flow graph (lowering/llvm_cfg.h). */
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_cfg.h"

struct hg_llvm_block_index {
  LLVMBasicBlockRef bb;
  uint32_t i;
};

static int by_block(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const hg_llvm_block_index *)a)->bb, y = (uintptr_t)((const hg_llvm_block_index *)b)->bb;
  return x < y ? -1 : x > y;
}

uint32_t hg_llvm_cfg_block(const hg_llvm_cfg *c, LLVMBasicBlockRef bb) {
  hg_llvm_block_index key = {bb, 0};
  const hg_llvm_block_index *hit = bsearch(&key, c->index, c->g.n, sizeof *c->index, by_block);
  return hit ? hit->i : HG_IR_NONE;
}

bool hg_llvm_cfg_build(LLVMValueRef fn, hg_llvm_cfg *c) {
  uint32_t n = LLVMCountBasicBlocks(fn), edges = 0;
  c->bbs = malloc((n ? n : 1) * sizeof *c->bbs);
  c->index = malloc((n ? n : 1) * sizeof *c->index);
  c->g.n = n; /* hg_llvm_cfg_block reads it while the edges are found */
  uint32_t *succ_start = malloc((n + 1) * sizeof *succ_start), *succ = NULL;
  bool ok = c->bbs && c->index && succ_start;
  if (ok) {
    LLVMGetBasicBlocks(fn, c->bbs);
    for (uint32_t i = 0; i < n; i++) {
      c->index[i] = (hg_llvm_block_index){c->bbs[i], i};
      LLVMValueRef t = LLVMGetBasicBlockTerminator(c->bbs[i]);
      edges += t ? LLVMGetNumSuccessors(t) : 0;
    }
    qsort(c->index, n, sizeof *c->index, by_block);
    ok = (succ = malloc((edges ? edges : 1) * sizeof *succ)) != NULL;
  }
  if (ok) {
    uint32_t e = 0;
    for (uint32_t i = 0; i < n; i++) {
      succ_start[i] = e;
      LLVMValueRef t = LLVMGetBasicBlockTerminator(c->bbs[i]);
      for (unsigned k = 0; t && k < LLVMGetNumSuccessors(t); k++) {
        uint32_t s = hg_llvm_cfg_block(c, LLVMGetSuccessor(t, k));
        if (s != HG_IR_NONE) succ[e++] = s;
      }
    }
    succ_start[n] = e;
    ok = hg_ir_cfg_build_edges(n, succ_start, succ, &c->g) == 0;
  }
  free(succ_start), free(succ);
  if (!ok) free(c->bbs), free(c->index);
  return ok;
}

void hg_llvm_cfg_free(hg_llvm_cfg *c) {
  free(c->bbs);
  free(c->index);
  hg_ir_cfg_free(&c->g);
}

bool hg_llvm_block_placed_before(LLVMValueRef fn, LLVMBasicBlockRef to, LLVMBasicBlockRef from) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    if (b == to)
      return true;
    if (b == from)
      return false;
  }
  return false;
}

bool hg_llvm_block_branches_back(LLVMValueRef fn, LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++)
    if (hg_llvm_block_placed_before(fn, LLVMGetSuccessor(term, k), bb))
      return true;
  return false;
}

const char *hg_llvm_callee_name(LLVMValueRef inst) {
  if (LLVMGetInstructionOpcode(inst) != LLVMCall) return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(inst);
  size_t len;
  return callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : NULL;
}

bool hg_llvm_is_barrier_name(const char *n) {
  return !strcmp(n, "_Z7barrierj") || !strncmp(n, "_Z18work_group_barrierj", 23);
}
