/* Module life cycle and the builder (hg_ir_add_*, hg_ir_append). Every string and array a module
 * points to is malloc'd and owned by the module; hg_ir_module_free releases all of it. Builders
 * return HG_IR_NONE when memory runs out. */
#include "ir/ir_internal.h"

#include <stdlib.h>
#include <string.h>

/* Grows *arr (elements of elem bytes) so that it holds at least need elements. */
int hg_ir_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap)
    return 0;
  uint64_t n = *cap ? (uint64_t)*cap * 2 : 8;
  while (n < need)
    n *= 2;
  if (n > UINT32_MAX - 1)
    n = UINT32_MAX - 1;
  if (n < need)
    return -1;
  void *p = realloc(*arr, (size_t)n * elem);
  if (!p)
    return -1;
  *arr = p;
  *cap = (uint32_t)n;
  return 0;
}

char *hg_ir_strdup(const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

bool hg_ir_type_valid(hg_ir_type t) {
  bool lanes_ok = t.lanes == 1 || t.lanes == 2 || t.lanes == 3 || t.lanes == 4 || t.lanes == 8 || t.lanes == 16;
  if (t.scalar == HG_IR_IMAGE) /* addrspace: the dimension, reserved: the access (format 1.2) */
    return t.lanes == 1 && t.addrspace >= HG_IMAGE_1D && t.addrspace <= HG_IMAGE_3D &&
           t.reserved >= HG_IMAGE_READ_ONLY && t.reserved <= HG_IMAGE_READ_WRITE;
  if (t.scalar == HG_IR_SAMPLER)
    return t.lanes == 1 && t.addrspace == 0 && t.reserved == 0;
  if (t.scalar > HG_IR_PTR || t.reserved || !lanes_ok)
    return false;
  if (t.scalar == HG_IR_PTR)
    return t.lanes == 1 && t.addrspace <= HG_AS_GENERIC;
  if (t.scalar == HG_IR_VOID)
    return t.lanes == 1 && t.addrspace == 0;
  return t.addrspace == 0;
}

unsigned hg_ir_scalar_bytes(hg_ir_scalar s) {
  switch (s) {
  case HG_IR_BOOL: case HG_IR_I8: return 1;
  case HG_IR_I16: case HG_IR_F16: return 2;
  case HG_IR_I32: case HG_IR_F32: return 4;
  case HG_IR_I64: case HG_IR_F64: case HG_IR_PTR: return 8;
  case HG_IR_IMAGE: case HG_IR_SAMPLER: return 8; /* handles; never in memory */
  default: return 0;
  }
}

/* VOID is canonically {VOID, 1 lane, 0, 0}; builders accept a zeroed type too. */
static hg_ir_type canon(hg_ir_type t) {
  if (t.scalar == HG_IR_VOID)
    t.lanes = 1;
  if (t.scalar != HG_IR_PTR && t.scalar != HG_IR_IMAGE)
    t.addrspace = 0;
  return t;
}

hg_ir_module *hg_ir_module_new(void) {
  hg_ir_module *m = calloc(1, sizeof *m);
  return m;
}

void hg_ir_global_free_contents(hg_ir_global *g) {
  free(g->name);
  free(g->init);
  free(g->relocs);
  memset(g, 0, sizeof *g);
}

void hg_ir_function_clear_state(hg_ir_function *f) {
  for (uint32_t i = 0; i < f->num_safepoints; i++)
    free(f->safepoints[i].live);
  free(f->safepoints);
  f->safepoints = NULL;
  f->num_safepoints = 0;
  free(f->local_vars);
  f->local_vars = NULL;
  f->num_local_vars = 0;
  f->local_static_size = 0;
}

void hg_ir_function_free_contents(hg_ir_function *f) {
  free(f->name);
  free(f->param_types);
  free(f->values);
  free(f->const_words);
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    hg_ir_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      free(bl->insts[i].operands);
      free(bl->insts[i].imm);
    }
    free(bl->insts);
  }
  free(f->blocks);
  free(f->slots);
  if (f->args) {
    for (uint32_t i = 0; i < f->num_params; i++) {
      free(f->args[i].name);
      free(f->args[i].type_name);
    }
    free(f->args);
  }
  free(f->vec_type_hint);
  free(f->attributes);
  hg_ir_function_clear_state(f);
  memset(f, 0, sizeof *f);
}

void hg_ir_module_free(hg_ir_module *m) {
  if (!m)
    return;
  for (uint32_t i = 0; i < m->num_strings; i++)
    free(m->strings[i]);
  free(m->strings);
  for (uint32_t i = 0; i < m->num_globals; i++)
    hg_ir_global_free_contents(&m->globals[i]);
  free(m->globals);
  for (uint32_t i = 0; i < m->num_functions; i++)
    hg_ir_function_free_contents(&m->functions[i]);
  free(m->functions);
  free(m->source_language);
  free(m->build_options);
  free(m);
}

bool hg_ir_built_with(const hg_ir_module *m, const char *option) {
  size_t n = strlen(option);
  const char *opts = m ? m->build_options : NULL;
  for (const char *s = opts; s && (s = strstr(s, option)); s += n)
    if ((s == opts || s[-1] == ' ' || s[-1] == '\t') && (!s[n] || s[n] == ' ' || s[n] == '\t'))
      return true;
  return false;
}

uint32_t hg_ir_intern(hg_ir_module *m, const char *s) {
  if (!s)
    return HG_IR_NONE;
  for (uint32_t i = 0; i < m->num_strings; i++)
    if (strcmp(m->strings[i], s) == 0)
      return i;
  if (hg_ir_grow((void **)&m->strings, &m->cap_strings, m->num_strings + 1, sizeof *m->strings))
    return HG_IR_NONE;
  char *d = hg_ir_strdup(s);
  if (!d)
    return HG_IR_NONE;
  m->strings[m->num_strings] = d;
  return m->num_strings++;
}

uint32_t hg_ir_add_global(hg_ir_module *m, const hg_ir_global *g) {
  if (hg_ir_grow((void **)&m->globals, &m->cap_globals, m->num_globals + 1, sizeof *m->globals))
    return HG_IR_NONE;
  hg_ir_global c = *g;
  c.name = hg_ir_strdup(g->name ? g->name : "");
  c.init = NULL;
  c.relocs = NULL;
  if (g->has_init && g->size) {
    c.init = malloc(g->size);
    if (c.init) {
      if (g->init)
        memcpy(c.init, g->init, g->size);
      else
        memset(c.init, 0, g->size);
    }
  }
  if (g->num_relocs) {
    c.relocs = malloc(g->num_relocs * sizeof *c.relocs);
    if (c.relocs)
      memcpy(c.relocs, g->relocs, g->num_relocs * sizeof *c.relocs);
  }
  if (!c.name || (g->has_init && g->size && !c.init) || (g->num_relocs && !c.relocs)) {
    hg_ir_global_free_contents(&c);
    return HG_IR_NONE;
  }
  m->globals[m->num_globals] = c;
  return m->num_globals++;
}

const hg_ir_inst **hg_ir_defs(const hg_ir_function *f) {
  const hg_ir_inst **defs = calloc(f->num_values ? f->num_values : 1, sizeof *defs);
  for (uint32_t b = 0; defs && b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++)
      if (f->blocks[b].insts[i].id < f->num_values)
        defs[f->blocks[b].insts[i].id] = &f->blocks[b].insts[i];
  return defs;
}

/* Appends a value to f's value table; returns its index. */
uint32_t hg_ir_push_value(hg_ir_function *f, uint8_t kind, hg_ir_type type, uint32_t index) {
  if (hg_ir_grow((void **)&f->values, &f->cap_values, f->num_values + 1, sizeof *f->values))
    return HG_IR_NONE;
  hg_ir_value v = {kind, canon(type), index};
  f->values[f->num_values] = v;
  return f->num_values++;
}

uint32_t hg_ir_add_function(hg_ir_module *m, const char *name, hg_ir_type ret, uint32_t num_params,
                            const hg_ir_type *param_types) {
  if (hg_ir_grow((void **)&m->functions, &m->cap_functions, m->num_functions + 1, sizeof *m->functions))
    return HG_IR_NONE;
  hg_ir_function *f = &m->functions[m->num_functions];
  memset(f, 0, sizeof *f);
  f->name = hg_ir_strdup(name ? name : "");
  f->ret_type = canon(ret);
  f->num_params = num_params;
  if (num_params) {
    f->param_types = malloc(num_params * sizeof *f->param_types);
    if (!f->param_types)
      goto fail;
  }
  if (!f->name)
    goto fail;
  for (uint32_t i = 0; i < num_params; i++) {
    f->param_types[i] = canon(param_types[i]);
    if (hg_ir_push_value(f, HG_VAL_PARAM, f->param_types[i], i) == HG_IR_NONE)
      goto fail;
  }
  return m->num_functions++;
fail:
  hg_ir_function_free_contents(f);
  return HG_IR_NONE;
}

hg_ir_kernel_arg *hg_ir_make_kernel(hg_ir_function *f) {
  if (!f->args) {
    f->args = calloc(f->num_params ? f->num_params : 1, sizeof *f->args);
    if (!f->args)
      return NULL;
  }
  if (!f->attributes) {
    f->attributes = hg_ir_strdup("");
    if (!f->attributes)
      return NULL;
  }
  f->is_kernel = true;
  return f->args;
}

uint32_t hg_ir_find_function(const hg_ir_module *m, const char *name) {
  for (uint32_t i = 0; i < m->num_functions; i++)
    if (m->functions[i].name && strcmp(m->functions[i].name, name) == 0)
      return i;
  return HG_IR_NONE;
}

uint32_t hg_ir_find_global(const hg_ir_module *m, const char *name) {
  for (uint32_t i = 0; i < m->num_globals; i++)
    if (m->globals[i].name && strcmp(m->globals[i].name, name) == 0)
      return i;
  return HG_IR_NONE;
}

uint32_t hg_ir_add_block(hg_ir_function *f) {
  if (hg_ir_grow((void **)&f->blocks, &f->cap_blocks, f->num_blocks + 1, sizeof *f->blocks))
    return HG_IR_NONE;
  memset(&f->blocks[f->num_blocks], 0, sizeof f->blocks[0]);
  return f->num_blocks++;
}

uint32_t hg_ir_add_const(hg_ir_function *f, hg_ir_type type, const uint64_t *lanes) {
  type = canon(type);
  unsigned n = type.lanes ? type.lanes : 1;
  if (hg_ir_grow((void **)&f->const_words, &f->cap_const_words, f->num_const_words + n, sizeof *f->const_words))
    return HG_IR_NONE;
  uint32_t at = f->num_const_words;
  uint32_t v = hg_ir_push_value(f, HG_VAL_CONST, type, at);
  if (v == HG_IR_NONE)
    return HG_IR_NONE;
  for (unsigned i = 0; i < n; i++)
    f->const_words[at + i] = lanes ? lanes[i] : 0;
  f->num_const_words += n;
  return v;
}

uint32_t hg_ir_add_undef(hg_ir_function *f, hg_ir_type type) {
  return hg_ir_push_value(f, HG_VAL_UNDEF, type, 0);
}

uint32_t hg_ir_add_global_ref(hg_ir_function *f, const hg_ir_module *m, uint32_t global) {
  if (global >= m->num_globals)
    return HG_IR_NONE;
  return hg_ir_push_value(f, HG_VAL_GLOBAL, hg_ir_ptr_ty((hg_ir_addrspace)m->globals[global].addrspace), global);
}

uint32_t hg_ir_add_slot(hg_ir_function *f, uint32_t size, uint32_t align) {
  hg_ir_slot *s = realloc(f->slots, ((size_t)f->num_slots + 1) * sizeof *s);
  if (!s)
    return HG_IR_NONE;
  f->slots = s;
  s[f->num_slots].size = size;
  s[f->num_slots].align = align ? align : 1;
  s[f->num_slots].offset = 0;
  return f->num_slots++;
}

uint32_t hg_ir_append(hg_ir_function *f, uint32_t block, hg_ir_opcode op, uint16_t flags, hg_ir_type type,
                      uint32_t num_operands, const uint32_t *operands, uint32_t num_imm, const uint32_t *imm) {
  if (block >= f->num_blocks)
    return HG_IR_NONE;
  hg_ir_block *b = &f->blocks[block];
  if (hg_ir_grow((void **)&b->insts, &b->cap_insts, b->num_insts + 1, sizeof *b->insts))
    return HG_IR_NONE;
  hg_ir_inst in;
  memset(&in, 0, sizeof in);
  in.op = (uint16_t)op;
  in.flags = flags;
  in.type = canon(type);
  in.id = HG_IR_NONE;
  in.num_operands = num_operands;
  in.num_imm = num_imm;
  if (num_operands) {
    in.operands = malloc(num_operands * sizeof *in.operands);
    if (!in.operands)
      return HG_IR_NONE;
    memcpy(in.operands, operands, num_operands * sizeof *in.operands);
  }
  if (num_imm) {
    in.imm = malloc(num_imm * sizeof *in.imm);
    if (!in.imm) {
      free(in.operands);
      return HG_IR_NONE;
    }
    memcpy(in.imm, imm, num_imm * sizeof *in.imm);
  }
  if (in.type.scalar != HG_IR_VOID) {
    uint32_t v = hg_ir_push_value(f, HG_VAL_INST, in.type, f->num_values);
    if (v == HG_IR_NONE) {
      free(in.operands);
      free(in.imm);
      return HG_IR_NONE;
    }
    in.id = v;
  }
  b->insts[b->num_insts++] = in;
  return in.id;
}
