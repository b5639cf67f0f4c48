/* Control-flow graph of one function: predecessors, reverse post-order, dominator tree.
 * Built only on functions whose terminators name blocks in range (the verifier checks first);
 * hg_ir_cfg_build_edges builds it from plain successor lists (lowering/llvm_cfg.c uses it on
 * LLVM's functions). */
#ifndef HETGPU_IR_CFG_H
#define HETGPU_IR_CFG_H
#include "ir/ir_internal.h"

typedef struct hg_ir_cfg {
  uint32_t n;           /* blocks */
  uint32_t *pred_start; /* n + 1 entries: preds of b are pred_list[pred_start[b] .. pred_start[b+1]) */
  uint32_t *pred_list;  /* distinct predecessors, ascending, reachable or not */
  uint32_t nrpo;
  uint32_t *rpo;       /* reachable blocks in reverse post-order; rpo[0] = 0 */
  uint32_t *rpo_index; /* position in rpo, HG_IR_NONE when unreachable */
  uint32_t *idom;      /* immediate dominator (entry: itself), HG_IR_NONE when unreachable */
  uint32_t *depth;     /* depth in the dominator tree */
  uint32_t *pre, *post; /* dominator-tree DFS numbers: a dominates b iff pre[a] <= pre[b] && post[b] <= post[a] */
} hg_ir_cfg;

int hg_ir_cfg_build(const hg_ir_function *f, hg_ir_cfg *c); /* 0 on success */
/* The same over any graph of n blocks (block 0 the entry): the successors of b are
 * succ[succ_start[b] .. succ_start[b + 1]), each < n. */
int hg_ir_cfg_build_edges(uint32_t n, const uint32_t *succ_start, const uint32_t *succ, hg_ir_cfg *c);
void hg_ir_cfg_free(hg_ir_cfg *c);
/* True when block a dominates block b (both reachable). */
bool hg_ir_cfg_dominates(const hg_ir_cfg *c, uint32_t a, uint32_t b);
static inline bool hg_ir_cfg_reachable(const hg_ir_cfg *c, uint32_t b) { return c->rpo_index[b] != HG_IR_NONE; }
#endif
