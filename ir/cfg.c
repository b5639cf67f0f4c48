/* CFG, reverse post-order and dominators (the iterative algorithm of Cooper, Harvey and
 * Kennedy over reverse post-order). */
#include "ir/cfg.h"

#include <stdlib.h>
#include <string.h>

void hg_ir_cfg_free(hg_ir_cfg *c) {
  free(c->pred_start);
  free(c->pred_list);
  free(c->rpo);
  free(c->rpo_index);
  free(c->idom);
  free(c->depth);
  free(c->pre);
  free(c->post);
  memset(c, 0, sizeof *c);
}

static const hg_ir_inst *terminator(const hg_ir_function *f, uint32_t b) {
  const hg_ir_block *bl = &f->blocks[b];
  if (!bl->num_insts || !hg_ir_is_terminator(bl->insts[bl->num_insts - 1].op))
    return NULL;
  return &bl->insts[bl->num_insts - 1];
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

int hg_ir_cfg_build(const hg_ir_function *f, hg_ir_cfg *c) {
  uint32_t n = f->num_blocks;
  size_t nedges = 0;
  for (uint32_t b = 0; b < n; b++) {
    const hg_ir_inst *t = terminator(f, b);
    const uint32_t *s;
    if (t)
      nedges += hg_ir_successors(t, &s);
  }
  uint32_t *succ_start = malloc(((size_t)n + 1) * sizeof *succ_start);
  uint32_t *succ = malloc((nedges ? nedges : 1) * sizeof *succ);
  int rc = -1;
  if (succ_start && succ) {
    uint32_t e = 0;
    for (uint32_t b = 0; b < n; b++) {
      succ_start[b] = e;
      const hg_ir_inst *t = terminator(f, b);
      const uint32_t *s;
      uint32_t k = t ? hg_ir_successors(t, &s) : 0;
      for (uint32_t i = 0; i < k; i++)
        succ[e++] = s[i];
    }
    succ_start[n] = e;
    rc = hg_ir_cfg_build_edges(n, succ_start, succ, c);
  } else {
    memset(c, 0, sizeof *c);
  }
  free(succ_start);
  free(succ);
  return rc;
}

int hg_ir_cfg_build_edges(uint32_t n, const uint32_t *succ_start, const uint32_t *succ, hg_ir_cfg *c) {
  memset(c, 0, sizeof *c);
  c->n = n;
  size_t nedges = n ? succ_start[n] : 0;
  c->pred_start = calloc((size_t)n + 1, sizeof *c->pred_start);
  c->pred_list = malloc((nedges ? nedges : 1) * sizeof *c->pred_list);
  c->rpo = malloc((n ? n : 1) * sizeof *c->rpo);
  c->rpo_index = malloc((n ? n : 1) * sizeof *c->rpo_index);
  c->idom = malloc((n ? n : 1) * sizeof *c->idom);
  c->depth = calloc(n ? n : 1, sizeof *c->depth);
  uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
  uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
  uint32_t *pos = calloc(n ? n : 1, sizeof *pos);
  uint32_t *post = malloc((n ? n : 1) * sizeof *post);
  int rc = -1;
  if (!c->pred_start || !c->pred_list || !c->rpo || !c->rpo_index || !c->idom || !c->depth || !fill || !stack ||
      !pos || !post)
    goto out;
  /* predecessor lists: count, place, then sort and drop duplicates per block */
  for (size_t i = 0; i < nedges; i++)
    c->pred_start[succ[i] + 1]++;
  for (uint32_t b = 0; b < n; b++)
    c->pred_start[b + 1] += c->pred_start[b];
  for (uint32_t b = 0; b < n; b++)
    for (uint32_t i = succ_start[b]; i < succ_start[b + 1]; i++)
      c->pred_list[c->pred_start[succ[i]] + fill[succ[i]]++] = b;
  uint32_t w = 0;
  for (uint32_t b = 0; b < n; b++) {
    uint32_t lo = c->pred_start[b], hi = c->pred_start[b + 1];
    qsort(c->pred_list + lo, hi - lo, sizeof *c->pred_list, cmp_u32);
    c->pred_start[b] = w;
    for (uint32_t i = lo; i < hi; i++)
      if (i == lo || c->pred_list[i] != c->pred_list[i - 1])
        c->pred_list[w++] = c->pred_list[i];
  }
  c->pred_start[n] = w;
  /* iterative depth-first search from the entry for post-order */
  for (uint32_t b = 0; b < n; b++) {
    c->rpo_index[b] = HG_IR_NONE;
    c->idom[b] = HG_IR_NONE;
  }
  uint32_t npost = 0;
  if (n) {
    uint32_t sp = 0;
    stack[sp++] = 0;
    c->rpo_index[0] = 0; /* marks visited */
    while (sp) {
      uint32_t b = stack[sp - 1];
      if (succ_start[b] + pos[b] < succ_start[b + 1]) {
        uint32_t nx = succ[succ_start[b] + pos[b]++];
        if (c->rpo_index[nx] == HG_IR_NONE) {
          c->rpo_index[nx] = 0;
          stack[sp++] = nx;
        }
      } else {
        post[npost++] = b;
        sp--;
      }
    }
  }
  c->nrpo = npost;
  for (uint32_t i = 0; i < npost; i++) {
    c->rpo[i] = post[npost - 1 - i];
    c->rpo_index[c->rpo[i]] = i;
  }
  /* dominators */
  if (n) {
    c->idom[0] = 0;
    bool changed = true;
    while (changed) {
      changed = false;
      for (uint32_t i = 1; i < c->nrpo; i++) {
        uint32_t b = c->rpo[i], nd = HG_IR_NONE;
        for (uint32_t k = c->pred_start[b]; k < c->pred_start[b + 1]; k++) {
          uint32_t p = c->pred_list[k];
          if (c->idom[p] == HG_IR_NONE)
            continue;
          if (nd == HG_IR_NONE) {
            nd = p;
            continue;
          }
          uint32_t x = p, y = nd;
          while (x != y) {
            while (c->rpo_index[x] > c->rpo_index[y])
              x = c->idom[x];
            while (c->rpo_index[y] > c->rpo_index[x])
              y = c->idom[y];
          }
          nd = x;
        }
        if (nd != c->idom[b]) {
          c->idom[b] = nd;
          changed = true;
        }
      }
    }
    for (uint32_t i = 1; i < c->nrpo; i++)
      c->depth[c->rpo[i]] = c->depth[c->idom[c->rpo[i]]] + 1;
    /* dominator tree as child lists (reusing fill/pos/post as scratch), then an iterative DFS */
    c->pre = calloc(n, sizeof *c->pre);
    c->post = calloc(n, sizeof *c->post);
    if (!c->pre || !c->post)
      goto out;
    uint32_t *first = fill, *nextsib = pos, *cur = post;
    for (uint32_t b = 0; b < n; b++)
      first[b] = nextsib[b] = HG_IR_NONE;
    for (uint32_t i = c->nrpo; i-- > 1;) {
      uint32_t b = c->rpo[i], d = c->idom[b];
      nextsib[b] = first[d];
      first[d] = b;
    }
    uint32_t sp = 0, clock = 0;
    stack[sp++] = 0;
    cur[0] = first[0];
    c->pre[0] = clock++;
    while (sp) {
      uint32_t b = stack[sp - 1];
      uint32_t ch = cur[b];
      if (ch != HG_IR_NONE) {
        cur[b] = nextsib[ch];
        c->pre[ch] = clock++;
        cur[ch] = first[ch];
        stack[sp++] = ch;
      } else {
        c->post[b] = clock++;
        sp--;
      }
    }
  }
  rc = 0;
out:
  free(fill);
  free(stack);
  free(pos);
  free(post);
  if (rc)
    hg_ir_cfg_free(c);
  return rc;
}

bool hg_ir_cfg_dominates(const hg_ir_cfg *c, uint32_t a, uint32_t b) {
  if (c->rpo_index[a] == HG_IR_NONE || c->rpo_index[b] == HG_IR_NONE)
    return false;
  return c->pre[a] <= c->pre[b] && c->post[b] <= c->post[a];
}
