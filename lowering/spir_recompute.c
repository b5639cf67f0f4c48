/* Work-item arithmetic computed again after the barriers it crossed (spir_internal.h).
 *
 * PoCL runs a work-group as one loop over its work-items for each stretch of code between
 * barriers, and keeps a value computed before a barrier and used after it per work-item in
 * memory: a store where it is computed, a load of the array's address and one of the value where
 * it is used, and no vectorising of the address arithmetic it came from. The IR is optimised
 * once for every backend, and LLVM's LICM and GVN move arithmetic on get_local_id out of a loop
 * that holds barriers (CLBlast's XgemmDirectTN kept its eight local-memory addresses and ten
 * indices per work-item across its tile loop's barriers), which suits a GPU's registers. Here such
 * a value, when it is integer or address arithmetic on work-item ids, is computed again just
 * before its use after the barrier, as the code clang writes for PoCL from the source does when
 * each iteration calls get_local_id. Arithmetic on kernel arguments, group ids and constants
 * alone is left where it is: PoCL keeps a value that is the same for every work-item once.
 *
 * The copies call the work-item function through an always-inline wrapper. PoCL first moves
 * every call of a work-item function in a function to that function's entry, and only then
 * inlines and runs its -O3, whose LICM would take copies that called get_local_id directly back
 * out of the loop. Its library's get_local_id reads memory that a barrier may write, so a call
 * that reaches the loop by inlining stays after its barrier with the arithmetic on it: that is
 * how the calls in the helper functions of PoCL's own build of the source stay there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_cfg.h"
#include "lowering/llvm_translate.h"
#include "lowering/spir_internal.h"

/* At most this many instructions are computed again for one use: a longer chain is kept in
 * PoCL's memory, as before. */
#define CHAIN_LIMIT 24

typedef struct use_site {
  LLVMValueRef value; /* the work-item value */
  LLVMValueRef user;
  unsigned operand;
  uint32_t at_block, at_pos; /* the instruction it is computed again before */
  LLVMValueRef at;
  uint32_t seq;
} use_site;

typedef struct recompute {
  LLVMModuleRef mod;
  hg_llvm_cfg c;
  hg_ptr_map pos;     /* instruction -> its position in its block */
  hg_ptr_map varying; /* work-item arithmetic (present = yes) */
  hg_ptr_map uniform; /* arithmetic on values the same for every work-item of a group */
  uint32_t nbar, *bar_block, *bar_pos;
  uint8_t *has_barrier; /* by block */
  uint8_t **before;     /* by barrier: the blocks from which it is reached */
  uint8_t **after;      /* by barrier: the blocks it reaches without entering after_of */
  uint32_t after_of;
  uint32_t *work;
  use_site *sites;
  size_t nsites, cap;
} recompute;

static bool is_work_item_id(LLVMValueRef inst) {
  const char *n = hg_llvm_callee_name(inst);
  return n && (!strcmp(n, "_Z12get_local_idj") || !strcmp(n, "_Z13get_global_idj"));
}

static bool is_arithmetic(LLVMOpcode op) {
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMTrunc: case LLVMZExt: case LLVMSExt:
  case LLVMGetElementPtr: case LLVMICmp: case LLVMSelect:
    return true;
  default:
    return false;
  }
}

static bool is_group_uniform(LLVMValueRef inst) {
  static const char *const k_names[] = {"_Z12get_group_idj",  "_Z14get_num_groupsj",  "_Z14get_local_sizej",
                                        "_Z15get_global_sizej", "_Z17get_global_offsetj", "_Z12get_work_dimv"};
  const char *n = hg_llvm_callee_name(inst);
  for (unsigned i = 0; n && i < sizeof k_names / sizeof k_names[0]; i++)
    if (!strcmp(n, k_names[i])) return true;
  return false;
}

static bool in_set(const hg_ptr_map *set, LLVMValueRef v) {
  uint32_t yes;
  return v && LLVMIsAInstruction(v) && hg_ptr_map_get(set, v, &yes);
}

static bool varying(const recompute *r, LLVMValueRef v) { return in_set(&r->varying, v); }

/* Not an instruction (an argument, a constant, a global), a private array (PoCL gives each
 * work-item its own, reachable from every stretch) or arithmetic the same for every work-item of
 * the group: what a copy may use as it is after a barrier without PoCL keeping it per work-item. */
static bool free_after_barrier(const recompute *r, LLVMValueRef v) {
  return !LLVMIsAInstruction(v) || LLVMIsAAllocaInst(v) || in_set(&r->uniform, v);
}

/* Work-item ids and the arithmetic on them, and the group-uniform values and the arithmetic on
 * them, to a fixed point (blocks are not in dominance order). */
static void find_varying(recompute *r, LLVMValueRef fn) {
  for (bool grew = true; grew;) {
    grew = false;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
        if (varying(r, in) || in_set(&r->uniform, in)) continue;
        bool arithmetic = is_arithmetic(LLVMGetInstructionOpcode(in)), v = is_work_item_id(in), u = is_group_uniform(in);
        int n = LLVMGetNumOperands(in);
        for (int k = 0; !v && arithmetic && k < n; k++)
          v = varying(r, LLVMGetOperand(in, (unsigned)k));
        if (v) {
          hg_ptr_map_put(&r->varying, in, 1), grew = true;
          continue;
        }
        u = u || arithmetic;
        for (int k = 0; u && !is_group_uniform(in) && k < n; k++)
          u = free_after_barrier(r, LLVMGetOperand(in, (unsigned)k));
        if (u) hg_ptr_map_put(&r->uniform, in, 1), grew = true;
      }
  }
}

/* Blocks reached from `from`'s successors (forward) or predecessors (backward), never entering
 * `avoid` (HG_IR_NONE: none). */
static void reach(recompute *r, uint32_t from, bool forward, uint32_t avoid, uint8_t *seen) {
  const hg_ir_cfg *g = &r->c.g;
  memset(seen, 0, g->n);
  uint32_t top = 0;
  r->work[top++] = from;
  while (top) {
    uint32_t b = r->work[--top];
    LLVMValueRef t = forward ? LLVMGetBasicBlockTerminator(r->c.bbs[b]) : NULL;
    unsigned count = forward ? (t ? LLVMGetNumSuccessors(t) : 0) : g->pred_start[b + 1] - g->pred_start[b];
    for (unsigned k = 0; k < count; k++) {
      uint32_t s = forward ? hg_llvm_cfg_block(&r->c, LLVMGetSuccessor(t, k)) : g->pred_list[g->pred_start[b] + k];
      if (s == HG_IR_NONE || s == avoid || seen[s]) continue;
      seen[s] = 1;
      r->work[top++] = s;
    }
  }
}

/* Whether the value defined at (d, i) may be live across a barrier at its use at (u, j): some
 * path goes from the definition through a barrier to the use without passing the definition
 * again. A use of a phi counts at the end of its incoming block (j = UINT32_MAX). */
static bool crosses_barrier(recompute *r, uint32_t d, uint32_t i, uint32_t u, uint32_t j) {
  if (u == d) { /* the use comes after the definition in its block */
    for (uint32_t k = 0; k < r->nbar; k++)
      if (r->bar_block[k] == d && r->bar_pos[k] > i && r->bar_pos[k] < j) return true;
    return false;
  }
  if (r->after_of != d) {
    for (uint32_t k = 0; k < r->nbar; k++) reach(r, r->bar_block[k], true, d, r->after[k]);
    r->after_of = d;
  }
  for (uint32_t k = 0; k < r->nbar; k++) {
    uint32_t bb = r->bar_block[k];
    bool def_before = bb == d ? i < r->bar_pos[k] : r->before[k][d];
    if (def_before && ((u == bb && j > r->bar_pos[k]) || r->after[k][u])) return true;
  }
  return false;
}

static uint32_t pos_of(const recompute *r, LLVMValueRef in) {
  uint32_t p = UINT32_MAX;
  hg_ptr_map_get(&r->pos, in, &p);
  return p;
}

static bool add_site(recompute *r, use_site s) {
  if (r->nsites == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 64;
    use_site *n = realloc(r->sites, cap * sizeof *n);
    if (!n) return false;
    r->sites = n, r->cap = cap;
  }
  s.seq = (uint32_t)r->nsites;
  r->sites[r->nsites++] = s;
  return true;
}

/* Where a use of v by `user` (operand k) would compute v again, if v crosses a barrier to it. */
static bool find_site(recompute *r, LLVMValueRef v, uint32_t d, uint32_t i, LLVMValueRef user, unsigned k) {
  uint32_t u, j;
  LLVMValueRef at;
  if (LLVMIsAPHINode(user)) {
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(user, k);
    u = hg_llvm_cfg_block(&r->c, from);
    j = UINT32_MAX;
    at = LLVMGetBasicBlockTerminator(from);
  } else {
    u = hg_llvm_cfg_block(&r->c, LLVMGetInstructionParent(user));
    j = pos_of(r, user);
    at = user;
    if (u != HG_IR_NONE && !r->has_barrier[u]) /* shared by the block's uses: at its top */
      for (at = LLVMGetFirstInstruction(r->c.bbs[u]); LLVMIsAPHINode(at); at = LLVMGetNextInstruction(at)) {}
  }
  if (u == HG_IR_NONE || !at || !crosses_barrier(r, d, i, u, j)) return true;
  return add_site(r, (use_site){v, user, k, u, pos_of(r, at), at, 0});
}

/* Every use of v that a barrier separates from it (a user taking v twice is seen once). */
static bool find_sites(recompute *r, LLVMValueRef v, uint32_t d, uint32_t i) {
  hg_ptr_map users = {0};
  bool ok = true;
  for (LLVMUseRef use = LLVMGetFirstUse(v); ok && use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    uint32_t x;
    if (hg_ptr_map_get(&users, user, &x)) continue;
    hg_ptr_map_put(&users, user, 1);
    int ops = LLVMGetNumOperands(user);
    for (int k = 0; ok && k < ops; k++)
      if (LLVMGetOperand(user, (unsigned)k) == v) ok = find_site(r, v, d, i, user, (unsigned)k);
  }
  hg_ptr_map_free(&users);
  return ok;
}

/* The reachability sets cost barriers x blocks for each block that defines work-item values: a
 * function past the budget (thousands of blocks and barriers, say) is left as it is. */
static bool within_budget(const recompute *r) {
  uint64_t defining = 0;
  for (uint32_t b = 0; b < r->c.g.n; b++) {
    bool any = false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(r->c.bbs[b]); in && !any; in = LLVMGetNextInstruction(in))
      any = varying(r, in);
    defining += any;
  }
  return defining * r->nbar * r->c.g.n <= (UINT64_C(1) << 26);
}

static int by_place(const void *a, const void *b) {
  const use_site *x = a, *y = b;
  if (x->at_block != y->at_block) return x->at_block < y->at_block ? -1 : 1;
  if (x->at_pos != y->at_pos) return x->at_pos < y->at_pos ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The work-item instructions v needs that `made` does not have yet: false past CHAIN_LIMIT, or
 * when the chain also needs a value PoCL keeps per work-item (a loop's phi, a load): copying the
 * arithmetic would then keep that value per work-item as well and add the arithmetic (CLBlast's
 * XgemvFastRot: 17% more instructions). */
static bool chain_fits(const recompute *r, LLVMValueRef v, const hg_ptr_map *made, LLVMValueRef *seen, unsigned *n) {
  uint32_t x;
  if (!varying(r, v)) return free_after_barrier(r, v);
  if (hg_ptr_map_get(made, v, &x)) return true;
  for (unsigned s = 0; s < *n; s++)
    if (seen[s] == v) return true;
  if (*n == CHAIN_LIMIT) return false;
  seen[(*n)++] = v;
  int ops = LLVMGetNumOperands(v);
  for (int k = 0; k < ops; k++)
    if (!chain_fits(r, LLVMGetOperand(v, (unsigned)k), made, seen, n)) return false;
  return true;
}

/* The always-inline function that calls the work-item function `callee` (made on first use). */
static LLVMValueRef wrapper(const recompute *r, LLVMValueRef callee) {
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  char wname[64];
  snprintf(wname, sizeof wname, "hg.wrapped.%s", name);
  LLVMValueRef fn = LLVMGetNamedFunction(r->mod, wname);
  if (fn) return fn;
  LLVMContextRef C = LLVMGetModuleContext(r->mod);
  LLVMTypeRef ft = LLVMGlobalGetValueType(callee);
  fn = LLVMAddFunction(r->mod, wname, ft);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(fn, HG_SPIR_FUNC_CC);
  static const char *const k_attrs[] = {"alwaysinline", "nounwind"};
  for (unsigned a = 0; a < 2; a++)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(C, LLVMGetEnumAttributeKindForName(k_attrs[a], strlen(k_attrs[a])), 0));
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, fn, "entry"));
  LLVMValueRef dim = LLVMGetParam(fn, 0);
  LLVMValueRef call = LLVMBuildCall2(B, ft, callee, &dim, 1, "");
  LLVMSetInstructionCallConv(call, HG_SPIR_FUNC_CC);
  LLVMBuildRet(B, call);
  LLVMDisposeBuilder(B);
  return fn;
}

/* v computed again at B's position; `made` maps originals to what was made at this place. */
static LLVMValueRef remake(const recompute *r, LLVMBuilderRef B, LLVMValueRef v, hg_ptr_map *made,
                           LLVMValueRef *copies, uint32_t *ncopies) {
  uint32_t x;
  if (!varying(r, v)) return v;
  if (hg_ptr_map_get(made, v, &x)) return copies[x];
  LLVMValueRef c = LLVMInstructionClone(v);
  int ops = LLVMGetNumOperands(v);
  for (int k = 0; k < ops; k++) {
    LLVMValueRef op = LLVMGetOperand(v, (unsigned)k), nop = remake(r, B, op, made, copies, ncopies);
    if (nop != op) LLVMSetOperand(c, (unsigned)k, nop);
  }
  if (is_work_item_id(v)) /* the callee is the last operand */
    LLVMSetOperand(c, (unsigned)ops - 1, wrapper(r, LLVMGetCalledValue(v)));
  LLVMInsertIntoBuilder(B, c);
  copies[*ncopies] = c;
  hg_ptr_map_put(made, v, (*ncopies)++);
  return c;
}

/* The sites in order of place; each place's copies are shared by its uses. */
static bool rewrite_sites(recompute *r, LLVMBuilderRef B, bool *changed) {
  if (!r->nsites) /* (no array to sort: qsort takes none) */
    return true;
  qsort(r->sites, r->nsites, sizeof *r->sites, by_place);
  LLVMValueRef seen[CHAIN_LIMIT];
  LLVMValueRef *copies = NULL;
  size_t copies_cap = 0;
  for (size_t s = 0; s < r->nsites;) {
    size_t end = s;
    while (end < r->nsites && r->sites[end].at == r->sites[s].at) end++;
    if ((end - s) * CHAIN_LIMIT > copies_cap) {
      copies_cap = (end - s) * CHAIN_LIMIT;
      LLVMValueRef *n = realloc(copies, copies_cap * sizeof *n);
      if (!n) return free(copies), false;
      copies = n;
    }
    hg_ptr_map made = {0};
    uint32_t ncopies = 0;
    LLVMPositionBuilderBefore(B, r->sites[s].at);
    for (; s < end; s++) {
      unsigned n = 0;
      if (!chain_fits(r, r->sites[s].value, &made, seen, &n)) continue;
      *changed = true;
      LLVMSetOperand(r->sites[s].user, r->sites[s].operand, remake(r, B, r->sites[s].value, &made, copies, &ncopies));
    }
    hg_ptr_map_free(&made);
  }
  free(copies);
  return true;
}

static bool is_barrier(LLVMValueRef in) {
  const char *name = hg_llvm_callee_name(in);
  return name && hg_llvm_is_barrier_name(name);
}

static uint32_t count_barriers(LLVMValueRef fn) {
  uint32_t n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) n += is_barrier(in);
  return n;
}

static bool recompute_function(LLVMModuleRef mod, LLVMValueRef fn, LLVMBuilderRef B, bool *changed) {
  recompute r = {.mod = mod};
  uint32_t nbar = count_barriers(fn);
  if (!nbar) return true;
  if (!hg_llvm_cfg_build(fn, &r.c)) return false;
  uint32_t n = r.c.g.n;
  bool ok = (r.has_barrier = calloc(n, 1)) && (r.work = malloc(n * sizeof *r.work)) &&
            (r.bar_block = malloc(nbar * sizeof *r.bar_block)) && (r.bar_pos = malloc(nbar * sizeof *r.bar_pos));
  for (uint32_t b = 0; ok && b < n; b++) {
    uint32_t p = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(r.c.bbs[b]); in; in = LLVMGetNextInstruction(in), p++) {
      hg_ptr_map_put(&r.pos, in, p);
      if (!is_barrier(in)) continue;
      r.bar_block[r.nbar] = b, r.bar_pos[r.nbar++] = p;
      r.has_barrier[b] = 1;
    }
  }
  ok = ok && (r.before = calloc(r.nbar, sizeof *r.before)) &&
       (r.after = calloc(r.nbar, sizeof *r.after));
  for (uint32_t k = 0; ok && k < r.nbar; k++)
    if ((ok = (r.before[k] = malloc(n)) && (r.after[k] = malloc(n))))
      reach(&r, r.bar_block[k], false, HG_IR_NONE, r.before[k]);
  r.after_of = HG_IR_NONE;
  if (ok) {
    find_varying(&r, fn);
    if (within_budget(&r)) {
      for (uint32_t d = 0; ok && d < n; d++) {
        if (!hg_ir_cfg_reachable(&r.c.g, d)) continue;
        uint32_t i = 0;
        for (LLVMValueRef in = LLVMGetFirstInstruction(r.c.bbs[d]); ok && in; in = LLVMGetNextInstruction(in), i++)
          if (varying(&r, in)) ok = find_sites(&r, in, d, i);
      }
      ok = ok && rewrite_sites(&r, B, changed);
    }
  }
  for (uint32_t k = 0; k < r.nbar; k++) {
    if (r.before) free(r.before[k]);
    if (r.after) free(r.after[k]);
  }
  free(r.before), free(r.after), free(r.bar_block), free(r.bar_pos), free(r.has_barrier), free(r.work), free(r.sites);
  hg_ptr_map_free(&r.pos);
  hg_ptr_map_free(&r.varying);
  hg_ptr_map_free(&r.uniform);
  hg_llvm_cfg_free(&r.c);
  return ok;
}

bool hg_spir_recompute_after_barriers(LLVMModuleRef mod, bool *changed) {
  LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  bool ok = true;
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn && ok; fn = LLVMGetNextFunction(fn))
    ok = recompute_function(mod, fn, B, changed);
  LLVMDisposeBuilder(B);
  return ok;
}
