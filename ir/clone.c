/* hg_ir_module_clone and hg_ir_module_equal: deep copy and structural equality. */
#include "ir/ir_internal.h"

#include <stdlib.h>
#include <string.h>

static void *dup_mem(const void *p, size_t n, bool *ok) {
  if (!n || !p)
    return NULL;
  void *d = malloc(n);
  if (!d)
    *ok = false;
  else
    memcpy(d, p, n);
  return d;
}
static char *dup_str(const char *s, bool *ok) {
  if (!s)
    return NULL;
  char *d = hg_ir_strdup(s);
  if (!d)
    *ok = false;
  return d;
}

bool hg_ir_clone_global(hg_ir_global *d, const hg_ir_global *s) {
  bool ok = true;
  *d = *s;
  d->name = dup_str(s->name, &ok);
  d->init = s->has_init ? dup_mem(s->init, s->size, &ok) : NULL;
  d->relocs = dup_mem(s->relocs, (size_t)s->num_relocs * sizeof *s->relocs, &ok);
  if (!ok)
    hg_ir_global_free_contents(d);
  return ok;
}

/* Deep copy of a function into *d (overwritten). False (and *d empty) when memory runs out. */
bool hg_ir_clone_function(hg_ir_function *d, const hg_ir_function *s) {
  bool ok = true;
  memset(d, 0, sizeof *d);
  d->name = dup_str(s->name, &ok);
  d->is_kernel = s->is_kernel;
  d->ret_type = s->ret_type;
  d->num_params = s->num_params;
  d->param_types = dup_mem(s->param_types, (size_t)s->num_params * sizeof *s->param_types, &ok);
  d->values = dup_mem(s->values, (size_t)s->num_values * sizeof *s->values, &ok);
  d->num_values = d->cap_values = d->values ? s->num_values : 0;
  d->const_words = dup_mem(s->const_words, (size_t)s->num_const_words * sizeof *s->const_words, &ok);
  d->num_const_words = d->cap_const_words = d->const_words ? s->num_const_words : 0;
  d->slots = dup_mem(s->slots, (size_t)s->num_slots * sizeof *s->slots, &ok);
  d->num_slots = d->slots ? s->num_slots : 0;
  d->private_size = s->private_size;
  if (s->num_blocks) {
    d->blocks = calloc(s->num_blocks, sizeof *d->blocks);
    if (!d->blocks)
      ok = false;
    else
      d->num_blocks = d->cap_blocks = s->num_blocks;
  }
  for (uint32_t b = 0; ok && b < s->num_blocks; b++) {
    const hg_ir_block *sb = &s->blocks[b];
    hg_ir_block *db = &d->blocks[b];
    if (!sb->num_insts)
      continue;
    db->insts = calloc(sb->num_insts, sizeof *db->insts);
    if (!db->insts) {
      ok = false;
      break;
    }
    db->num_insts = db->cap_insts = sb->num_insts;
    for (uint32_t i = 0; i < sb->num_insts; i++) {
      const hg_ir_inst *si = &sb->insts[i];
      hg_ir_inst *di = &db->insts[i];
      *di = *si;
      di->operands = dup_mem(si->operands, (size_t)si->num_operands * sizeof(uint32_t), &ok);
      di->imm = dup_mem(si->imm, (size_t)si->num_imm * sizeof(uint32_t), &ok);
      if (!di->operands)
        di->num_operands = 0;
      if (!di->imm)
        di->num_imm = 0;
    }
  }
  if (s->args) {
    d->args = calloc(s->num_params ? s->num_params : 1, sizeof *d->args);
    if (!d->args)
      ok = false;
    for (uint32_t i = 0; d->args && i < s->num_params; i++) {
      d->args[i] = s->args[i];
      d->args[i].name = dup_str(s->args[i].name, &ok);
      d->args[i].type_name = dup_str(s->args[i].type_name, &ok);
    }
  }
  memcpy(d->reqd_work_group_size, s->reqd_work_group_size, sizeof d->reqd_work_group_size);
  memcpy(d->work_group_size_hint, s->work_group_size_hint, sizeof d->work_group_size_hint);
  d->vec_type_hint = dup_str(s->vec_type_hint, &ok);
  d->attributes = dup_str(s->attributes, &ok);
  if (s->num_safepoints) {
    d->safepoints = calloc(s->num_safepoints, sizeof *d->safepoints);
    if (!d->safepoints)
      ok = false;
    else
      d->num_safepoints = s->num_safepoints;
    for (uint32_t i = 0; d->safepoints && i < s->num_safepoints; i++) {
      d->safepoints[i] = s->safepoints[i];
      d->safepoints[i].live = dup_mem(s->safepoints[i].live, (size_t)s->safepoints[i].num_live * sizeof(uint32_t), &ok);
      if (!d->safepoints[i].live)
        d->safepoints[i].num_live = 0;
    }
  }
  d->local_vars = dup_mem(s->local_vars, (size_t)s->num_local_vars * sizeof *s->local_vars, &ok);
  d->num_local_vars = d->local_vars ? s->num_local_vars : 0;
  d->local_static_size = s->local_static_size;
  if (!ok)
    hg_ir_function_free_contents(d);
  return ok;
}

hg_ir_module *hg_ir_module_clone(const hg_ir_module *m) {
  hg_ir_module *c = hg_ir_module_new();
  if (!c)
    return NULL;
  bool ok = true;
  c->program_kind = m->program_kind;
  c->uses_fp64 = m->uses_fp64;
  c->uses_fp16 = m->uses_fp16;
  c->source_language = dup_str(m->source_language, &ok);
  c->build_options = dup_str(m->build_options, &ok);
  for (uint32_t i = 0; ok && i < m->num_strings; i++)
    if (hg_ir_grow((void **)&c->strings, &c->cap_strings, c->num_strings + 1, sizeof *c->strings) ||
        !(c->strings[c->num_strings] = hg_ir_strdup(m->strings[i])))
      ok = false;
    else
      c->num_strings++;
  if (ok && m->num_globals) {
    c->globals = calloc(m->num_globals, sizeof *c->globals);
    ok = c->globals != NULL;
    c->cap_globals = ok ? m->num_globals : 0;
  }
  for (uint32_t i = 0; ok && i < m->num_globals; i++)
    if ((ok = hg_ir_clone_global(&c->globals[i], &m->globals[i])))
      c->num_globals++;
  if (ok && m->num_functions) {
    c->functions = calloc(m->num_functions, sizeof *c->functions);
    ok = c->functions != NULL;
    c->cap_functions = ok ? m->num_functions : 0;
  }
  for (uint32_t i = 0; ok && i < m->num_functions; i++)
    if ((ok = hg_ir_clone_function(&c->functions[i], &m->functions[i])))
      c->num_functions++;
  if (!ok) {
    hg_ir_module_free(c);
    return NULL;
  }
  return c;
}

/* ---- equality ---------------------------------------------------------------------------- */
static bool str_eq(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }
static bool opt_str_eq(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }
static bool type_same(hg_ir_type a, hg_ir_type b) {
  return a.scalar == b.scalar && a.lanes == b.lanes && a.addrspace == b.addrspace && a.reserved == b.reserved;
}
static bool mem_eq(const void *a, const void *b, size_t n) { return !n || (a && b && memcmp(a, b, n) == 0); }

static bool function_equal(const hg_ir_function *a, const hg_ir_function *b) {
  if (!str_eq(a->name, b->name) || a->is_kernel != b->is_kernel || !type_same(a->ret_type, b->ret_type) ||
      a->num_params != b->num_params || a->num_values != b->num_values || a->num_blocks != b->num_blocks ||
      a->num_slots != b->num_slots || a->private_size != b->private_size || a->num_safepoints != b->num_safepoints ||
      a->num_local_vars != b->num_local_vars || a->local_static_size != b->local_static_size)
    return false;
  for (uint32_t i = 0; i < a->num_params; i++)
    if (!type_same(a->param_types[i], b->param_types[i]))
      return false;
  for (uint32_t i = 0; i < a->num_values; i++) {
    const hg_ir_value *x = &a->values[i], *y = &b->values[i];
    if (x->kind != y->kind || !type_same(x->type, y->type))
      return false;
    if (x->kind == HG_VAL_CONST) {
      unsigned l = x->type.lanes;
      if ((uint64_t)x->index + l > a->num_const_words || (uint64_t)y->index + l > b->num_const_words ||
          !mem_eq(a->const_words + x->index, b->const_words + y->index, l * sizeof(uint64_t)))
        return false;
    } else if (x->index != y->index) {
      return false;
    }
  }
  for (uint32_t bb = 0; bb < a->num_blocks; bb++) {
    const hg_ir_block *x = &a->blocks[bb], *y = &b->blocks[bb];
    if (x->num_insts != y->num_insts)
      return false;
    for (uint32_t i = 0; i < x->num_insts; i++) {
      const hg_ir_inst *p = &x->insts[i], *q = &y->insts[i];
      if (p->op != q->op || p->flags != q->flags || p->id != q->id || !type_same(p->type, q->type) ||
          p->num_operands != q->num_operands || p->num_imm != q->num_imm ||
          !mem_eq(p->operands, q->operands, p->num_operands * sizeof(uint32_t)) ||
          !mem_eq(p->imm, q->imm, p->num_imm * sizeof(uint32_t)))
        return false;
    }
  }
  for (uint32_t i = 0; i < a->num_slots; i++)
    if (a->slots[i].size != b->slots[i].size || a->slots[i].align != b->slots[i].align ||
        a->slots[i].offset != b->slots[i].offset)
      return false;
  if (a->is_kernel) {
    if (!a->args != !b->args)
      return false;
    for (uint32_t i = 0; a->args && i < a->num_params; i++) {
      const hg_ir_kernel_arg *x = &a->args[i], *y = &b->args[i];
      if (!str_eq(x->name, y->name) || !str_eq(x->type_name, y->type_name) || x->kind != y->kind ||
          x->access_qual != y->access_qual || x->type_qual != y->type_qual || x->reserved != y->reserved ||
          x->size != y->size || x->align != y->align)
        return false;
    }
    if (memcmp(a->reqd_work_group_size, b->reqd_work_group_size, sizeof a->reqd_work_group_size) ||
        memcmp(a->work_group_size_hint, b->work_group_size_hint, sizeof a->work_group_size_hint) ||
        !opt_str_eq(a->vec_type_hint, b->vec_type_hint) || !str_eq(a->attributes, b->attributes))
      return false;
  }
  for (uint32_t i = 0; i < a->num_safepoints; i++) {
    const hg_ir_safepoint *x = &a->safepoints[i], *y = &b->safepoints[i];
    if (x->id != y->id || x->kind != y->kind || x->block != y->block || x->inst != y->inst ||
        x->num_live != y->num_live || !mem_eq(x->live, y->live, x->num_live * sizeof(uint32_t)))
      return false;
  }
  for (uint32_t i = 0; i < a->num_local_vars; i++)
    if (a->local_vars[i].global != b->local_vars[i].global || a->local_vars[i].offset != b->local_vars[i].offset)
      return false;
  return true;
}

bool hg_ir_module_equal(const hg_ir_module *a, const hg_ir_module *b) {
  if (!a || !b)
    return a == b;
  if (a->num_strings != b->num_strings || a->num_globals != b->num_globals || a->num_functions != b->num_functions ||
      a->program_kind != b->program_kind || !str_eq(a->source_language, b->source_language) ||
      !str_eq(a->build_options, b->build_options) || a->uses_fp64 != b->uses_fp64 || a->uses_fp16 != b->uses_fp16)
    return false;
  for (uint32_t i = 0; i < a->num_strings; i++)
    if (!str_eq(a->strings[i], b->strings[i]))
      return false;
  for (uint32_t i = 0; i < a->num_globals; i++) {
    const hg_ir_global *x = &a->globals[i], *y = &b->globals[i];
    if (!str_eq(x->name, y->name) || x->addrspace != y->addrspace || x->linkage != y->linkage ||
        x->is_const != y->is_const ||
        x->has_init != y->has_init || x->size != y->size || x->align != y->align || x->num_relocs != y->num_relocs ||
        (x->has_init && !mem_eq(x->init, y->init, x->size)))
      return false;
    for (uint32_t r = 0; r < x->num_relocs; r++)
      if (x->relocs[r].offset != y->relocs[r].offset || x->relocs[r].target != y->relocs[r].target ||
          x->relocs[r].addend != y->relocs[r].addend)
        return false;
  }
  for (uint32_t i = 0; i < a->num_functions; i++)
    if (!function_equal(&a->functions[i], &b->functions[i]))
      return false;
  return true;
}
