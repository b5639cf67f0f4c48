/* Loops of an IR function: dominators (Cooper, Harvey, Kennedy) and natural loop bodies
 * (lowering/opencl_c_stop_loops.h). */
#include <stdlib.h>
#include <string.h>

#include "lowering/opencl_c_stop_loops.h"

uint32_t oc_successors(const hg_ir_function *f, uint32_t b, const uint32_t **out) {
  const hg_ir_block *bl = &f->blocks[b];
  if (!bl->num_insts) return 0;
  const hg_ir_inst *t = &bl->insts[bl->num_insts - 1];
  if (t->op != HG_OP_BR && t->op != HG_OP_CONDBR && t->op != HG_OP_SWITCH) return 0;
  *out = t->imm;
  return t->num_imm;
}

void oc_loops_free(oc_loops *l) {
  for (uint32_t b = 0; b < l->n; b++) {
    if (l->preds) free(l->preds[b]);
    if (l->body) free(l->body[b]);
  }
  free(l->preds);
  free(l->body);
  free(l->num_preds);
  free(l->rpo_index);
  free(l->idom);
  free(l->size);
}

static uint32_t intersect(const oc_loops *l, uint32_t a, uint32_t b) {
  while (a != b) {
    while (l->rpo_index[a] > l->rpo_index[b]) a = l->idom[a];
    while (l->rpo_index[b] > l->rpo_index[a]) b = l->idom[b];
  }
  return a;
}

bool oc_dominates(const oc_loops *l, uint32_t a, uint32_t b) {
  for (;;) {
    if (a == b) return true;
    if (b == 0 || l->idom[b] == b || l->idom[b] == UINT32_MAX) return false;
    b = l->idom[b];
  }
}

bool oc_loops_compute(const hg_ir_function *f, oc_loops *l) {
  uint32_t n = f->num_blocks;
  memset(l, 0, sizeof *l);
  l->n = n;
  l->rpo_index = malloc(n * sizeof *l->rpo_index);
  l->idom = malloc(n * sizeof *l->idom);
  l->preds = calloc(n, sizeof *l->preds);
  l->num_preds = calloc(n, sizeof *l->num_preds);
  l->body = calloc(n, sizeof *l->body);
  l->size = calloc(n, sizeof *l->size);
  uint32_t *order = malloc(n * sizeof *order), *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next);
  uint8_t *seen = calloc(n, 1);
  bool ok = l->rpo_index && l->idom && l->preds && l->num_preds && l->body && l->size && order && stack && next && seen;
  if (!ok) goto done;
  for (uint32_t b = 0; b < n; b++) {
    l->rpo_index[b] = UINT32_MAX;
    l->idom[b] = UINT32_MAX;
    const uint32_t *s;
    uint32_t ns = oc_successors(f, b, &s);
    for (uint32_t k = 0; k < ns; k++)
      if (s[k] < n) l->num_preds[s[k]]++;
  }
  for (uint32_t b = 0; b < n && ok; b++) {
    l->preds[b] = malloc((l->num_preds[b] ? l->num_preds[b] : 1) * sizeof **l->preds);
    ok = l->preds[b] != NULL;
    l->num_preds[b] = 0;
  }
  for (uint32_t b = 0; b < n && ok; b++) {
    const uint32_t *s;
    uint32_t ns = oc_successors(f, b, &s);
    for (uint32_t k = 0; k < ns; k++)
      if (s[k] < n) l->preds[s[k]][l->num_preds[s[k]]++] = b;
  }
  if (!ok) goto done;
  /* post order by an explicit DFS, then reversed */
  uint32_t sp = 0, count = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  while (sp) {
    uint32_t b = stack[sp - 1];
    const uint32_t *s;
    uint32_t ns = oc_successors(f, b, &s);
    if (next[b] < ns) {
      uint32_t t = s[next[b]++];
      if (t < n && !seen[t]) {
        seen[t] = 1;
        stack[sp++] = t;
      }
      continue;
    }
    order[count++] = b;
    sp--;
  }
  for (uint32_t i = 0; i < count; i++) l->rpo_index[order[i]] = count - 1 - i;
  l->idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = count; i-- > 0;) { /* reverse post order */
      uint32_t b = order[i];
      if (b == 0) continue;
      uint32_t nd = UINT32_MAX;
      for (uint32_t k = 0; k < l->num_preds[b]; k++) {
        uint32_t p = l->preds[b][k];
        if (l->idom[p] == UINT32_MAX) continue;
        nd = nd == UINT32_MAX ? p : intersect(l, p, nd);
      }
      if (nd != l->idom[b]) {
        l->idom[b] = nd;
        changed = true;
      }
    }
  }
  /* natural loops: the blocks that reach a back edge's source without passing the header */
  for (uint32_t h = 0; h < n && ok; h++) {
    if (l->rpo_index[h] == UINT32_MAX) continue;
    for (uint32_t k = 0; k < l->num_preds[h]; k++) {
      uint32_t src = l->preds[h][k];
      if (l->rpo_index[src] == UINT32_MAX || !oc_dominates(l, h, src)) continue;
      if (!l->body[h]) {
        l->body[h] = calloc(n, 1);
        if (!(ok = l->body[h] != NULL)) break;
        l->body[h][h] = 1;
        l->size[h] = 1;
      }
      sp = 0;
      if (!l->body[h][src]) {
        l->body[h][src] = 1;
        l->size[h]++;
        stack[sp++] = src;
      }
      while (sp) {
        uint32_t b = stack[--sp];
        for (uint32_t q = 0; q < l->num_preds[b]; q++) {
          uint32_t p = l->preds[b][q];
          if (l->rpo_index[p] == UINT32_MAX || l->body[h][p]) continue;
          l->body[h][p] = 1;
          l->size[h]++;
          stack[sp++] = p;
        }
      }
    }
  }
done:
  free(order);
  free(stack);
  free(next);
  free(seen);
  if (!ok) oc_loops_free(l);
  return ok;
}

bool oc_in_loop(const oc_loops *l, uint32_t b) {
  for (uint32_t h = 0; h < l->n; h++)
    if (l->body[h] && l->body[h][b]) return true;
  return false;
}

/* The loop headers around block b, outermost first; false when they do not nest (an
 * irreducible region: no place to resume). */
bool oc_loops_chain(const oc_loops *l, uint32_t b, uint32_t **out, uint32_t *len) {
  uint32_t cnt = 0;
  for (uint32_t h = 0; h < l->n; h++)
    if (l->body[h] && l->body[h][b]) cnt++;
  *len = cnt;
  *out = malloc((cnt ? cnt : 1) * sizeof **out);
  if (!*out) return false;
  cnt = 0;
  for (uint32_t h = 0; h < l->n; h++)
    if (l->body[h] && l->body[h][b]) (*out)[cnt++] = h;
  for (uint32_t i = 1; i < cnt; i++) /* by loop size, largest first */
    for (uint32_t j = i; j > 0 && l->size[(*out)[j - 1]] < l->size[(*out)[j]]; j--) {
      uint32_t t = (*out)[j];
      (*out)[j] = (*out)[j - 1];
      (*out)[j - 1] = t;
    }
  for (uint32_t i = 1; i < cnt; i++) {
    uint32_t outer = (*out)[i - 1], inner = (*out)[i];
    if (l->size[inner] >= l->size[outer] || !l->body[outer][inner]) return false;
    for (uint32_t x = 0; x < l->n; x++)
      if (l->body[inner][x] && !l->body[outer][x]) return false;
  }
  return true;
}

