/* Loops inside loops that reach a barrier stay loops through LLVM's -O2 (llvm_barrier_loops.h).
 *
 * A CPU vendor (PoCL) runs a work-group as one loop over its work-items per stretch of code
 * between barriers; a value computed before a barrier and used after it is kept per work-item
 * in memory. When -O2 fully unrolls an inner loop of a loop that holds barriers (a tiled
 * matrix multiply's 16-step dot product between the tile loads' barriers), every address of
 * the unrolled body is loop-invariant, LICM hoists all of them out of the tile loop, and each
 * is then kept across the barrier per work-item: bench sgemm ran 1.2x PoCL's own build, and
 * clang -O2's SPIR of the same source 57 ms where the same with -fno-unroll-loops took 47,
 * PoCL's time. Such inner loops are marked llvm.loop.unroll.disable here (unless the source
 * asked for unrolling itself); the IR keeps no loop metadata, so a vendor's compiler still
 * unrolls them as it sees fit once it has laid out its work-item loops, and the PTX lowering
 * runs LLVM's unroller over them (lowering/ptx.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_barrier_loops.h"
#include "lowering/llvm_cfg.h"
#include "lowering/llvm_loop_id.h"

/* Functions that reach a barrier, directly or through calls (before inlining). */
typedef struct barrier_fns {
  LLVMValueRef *fns;
  size_t n;
} barrier_fns;

static bool in_set(const barrier_fns *s, LLVMValueRef fn) {
  for (size_t i = 0; i < s->n; i++)
    if (s->fns[i] == fn) return true;
  return false;
}

static bool block_reaches_barrier(const barrier_fns *s, LLVMBasicBlockRef b) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
    const char *n = hg_llvm_callee_name(i);
    if (n && (hg_llvm_is_barrier_name(n) || in_set(s, LLVMGetCalledValue(i)))) return true;
  }
  return false;
}

static bool find_barrier_fns(LLVMModuleRef mod, barrier_fns *s) {
  size_t cap = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) cap++;
  s->fns = malloc((cap ? cap : 1) * sizeof *s->fns);
  s->n = 0;
  if (!s->fns) return false;
  for (bool grew = true; grew;) {
    grew = false;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
      if (in_set(s, fn)) continue;
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        if (block_reaches_barrier(s, b)) {
          s->fns[s->n++] = fn;
          grew = true;
          break;
        }
    }
  }
  return true;
}

/* The first operand of metadata node md, as a string (NULL if it is none). */
static const char *first_string(LLVMValueRef md, unsigned *len) {
  unsigned n = LLVMGetMDNodeNumOperands(md);
  LLVMValueRef *ops = n ? malloc(n * sizeof *ops) : NULL;
  const char *s = NULL;
  if (ops) {
    LLVMGetMDNodeOperands(md, ops);
    s = ops[0] ? LLVMGetMDString(ops[0], len) : NULL;
  }
  free(ops);
  return s;
}

/* Whether a loop ID already says how to unroll (the source's #pragma unroll). */
static bool has_unroll_hint(LLVMValueRef id) {
  unsigned n = LLVMGetMDNodeNumOperands(id);
  LLVMValueRef *ops = malloc((n ? n : 1) * sizeof *ops);
  bool hint = !ops; /* out of memory: leave it alone */
  if (ops) LLVMGetMDNodeOperands(id, ops);
  for (unsigned i = 1; ops && i < n && !hint; i++) {
    unsigned len = 0;
    const char *s = ops[i] && LLVMIsAMDNode(ops[i]) ? first_string(ops[i], &len) : NULL;
    hint = s && len >= 16 && !strncmp(s, "llvm.loop.unroll", 16);
  }
  free(ops);
  return hint;
}

/* The back edge's branch gets a loop ID that also says llvm.loop.unroll.disable (keeping what
 * the old one said, as mustprogress). */
static void disable_unroll(LLVMContextRef C, unsigned kind, LLVMValueRef term) {
  LLVMValueRef old = LLVMGetMetadata(term, kind);
  if (old && has_unroll_hint(old)) return;
  unsigned n = old ? LLVMGetMDNodeNumOperands(old) : 0;
  LLVMValueRef *ops = malloc((n ? n : 1) * sizeof *ops);
  LLVMMetadataRef *md = malloc((n + 2) * sizeof *md);
  if (!ops || !md) {
    free(ops), free(md);
    return;
  }
  if (old) LLVMGetMDNodeOperands(old, ops);
  unsigned k = 1; /* md[0]: the ID itself */
  for (unsigned i = 1; i < n; i++)
    if (ops[i]) md[k++] = LLVMValueAsMetadata(ops[i]);
  LLVMMetadataRef disable = LLVMMDStringInContext2(C, "llvm.loop.unroll.disable", 24);
  md[k++] = LLVMMDNodeInContext2(C, &disable, 1);
  LLVMSetMetadata(term, kind, LLVMMetadataAsValue(C, hg_llvm_loop_id(C, md, k)));
  free(ops), free(md);
}

/* Natural loops by header: body[h] (NULL: h is no header) marks the blocks of the loop(s)
 * whose back edges come to h. */
static bool mark_function(LLVMContextRef C, unsigned kind, const barrier_fns *bf, LLVMValueRef fn) {
  hg_llvm_cfg c;
  if (!hg_llvm_cfg_build(fn, &c)) return false;
  const hg_ir_cfg *g = &c.g;
  unsigned n = g->n;
  uint8_t **body = calloc(n, sizeof *body), *barrier = calloc(n, 1);
  unsigned *work = malloc(n * sizeof *work);
  bool ok = body && barrier && work, any_barrier = false;
  for (unsigned b = 0; ok && b < n; b++) {
    barrier[b] = block_reaches_barrier(bf, c.bbs[b]);
    any_barrier |= barrier[b];
  }
  for (unsigned h = 0; ok && any_barrier && h < n; h++) {
    for (unsigned e = g->pred_start[h]; ok && e < g->pred_start[h + 1]; e++) {
      unsigned u = g->pred_list[e];
      if (!hg_ir_cfg_dominates(g, h, u)) continue; /* a back edge u -> h (both reachable) */
      if (!body[h] && !(body[h] = calloc(n, 1))) {
        ok = false;
        break;
      }
      uint8_t *in = body[h];
      in[h] = 1;
      unsigned top = 0;
      if (!in[u]) in[u] = 1, work[top++] = u;
      while (top) { /* what reaches the back edge without passing the header */
        unsigned b = work[--top];
        for (unsigned k = g->pred_start[b]; k < g->pred_start[b + 1]; k++) {
          unsigned p = g->pred_list[k];
          if (!in[p] && hg_ir_cfg_reachable(g, p)) in[p] = 1, work[top++] = p;
        }
      }
    }
  }
  for (unsigned h2 = 0; ok && any_barrier && h2 < n; h2++) {
    if (!body[h2]) continue;
    bool has_barrier = false, nested = false;
    for (unsigned b = 0; b < n; b++) has_barrier |= body[h2][b] && barrier[b];
    for (unsigned h1 = 0; h1 < n && !has_barrier && !nested; h1++) {
      if (h1 == h2 || !body[h1] || !body[h1][h2]) continue;
      for (unsigned b = 0; b < n && !nested; b++) nested = body[h1][b] && barrier[b];
    }
    if (has_barrier || !nested) continue;
    for (unsigned k = g->pred_start[h2]; k < g->pred_start[h2 + 1]; k++)
      if (body[h2][g->pred_list[k]]) disable_unroll(C, kind, LLVMGetBasicBlockTerminator(c.bbs[g->pred_list[k]]));
  }
  for (unsigned i = 0; body && i < n; i++) free(body[i]);
  free(body), free(barrier), free(work);
  hg_llvm_cfg_free(&c);
  return ok;
}

bool hg_llvm_keep_loops_in_barrier_loops(LLVMModuleRef mod) {
  barrier_fns bf;
  if (!find_barrier_fns(mod, &bf)) return false;
  LLVMContextRef C = LLVMGetModuleContext(mod);
  unsigned kind = LLVMGetMDKindIDInContext(C, "llvm.loop", 9);
  bool ok = true;
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn && ok; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn) > 1 && in_set(&bf, fn)) ok = mark_function(C, kind, &bf, fn);
  free(bf.fns);
  return ok;
}
