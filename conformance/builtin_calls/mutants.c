/* The variants of mutants.h. Each rule says when it makes a call wrong for every builtin,
 * with the exceptions the OpenCL C signatures have (printf's variadic arguments take any type,
 * convert_ any numeric source, as_ any value of its size, any/all/length a vector for a scalar
 * result, vloadN/vstoreN data of any element type). */
#include "mutants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/frontend.h"

typedef struct site {
  uint32_t fn, block, inst;
} site;

typedef struct vlist {
  bc_variant *v;
  size_t n, cap;
  char *err;
  size_t err_size;
  bool failed;
} vlist;

static bool is_int(hg_ir_type t) { return t.scalar >= HG_IR_I8 && t.scalar <= HG_IR_I64; }
static bool is_float(hg_ir_type t) { return t.scalar >= HG_IR_F16 && t.scalar <= HG_IR_F64; }
static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static bool one_of(const char *name, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(name, *list))
      return true;
  return false;
}

/* Builtins that store through their pointer operand. */
static bool writes_through_pointer(const char *name) {
  static const char *const out_params[] = {"fract", "modf", "sincos", "frexp", "lgamma_r", "remquo", NULL};
  return starts(name, "vstore") || one_of(name, out_params) || starts(name, "atomic_") || starts(name, "atom_");
}

/* vloadN/vstoreN move any element type (their pointer says none): their data may be a float
 * or an integer vector alike. */
static bool any_element(const char *name) {
  return (starts(name, "vload") && name[5] >= '0' && name[5] <= '9') ||
         (starts(name, "vstore") && name[6] >= '0' && name[6] <= '9');
}

static hg_ir_inst *inst_at(hg_ir_module *m, site s) { return &m->functions[s.fn].blocks[s.block].insts[s.inst]; }

static uint32_t zero_of(hg_ir_function *f, hg_ir_type t) {
  uint64_t lanes[16] = {0};
  return hg_ir_add_const(f, t, lanes);
}

static void type_name(hg_ir_type t, char *buf, size_t n) {
  static const char *const s[] = {"void", "bool", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "ptr"};
  static const char *const as[] = {"private", "global", "constant", "local", "generic"};
  if (t.scalar == HG_IR_PTR)
    snprintf(buf, n, "ptr.%s", t.addrspace <= HG_AS_GENERIC ? as[t.addrspace] : "?");
  else if (t.lanes > 1)
    snprintf(buf, n, "%sx%u", t.scalar <= HG_IR_F64 ? s[t.scalar] : "?", t.lanes);
  else
    snprintf(buf, n, "%s", t.scalar <= HG_IR_F64 ? s[t.scalar] : "?");
}

/* The call's name, result and operand types: calls of one shape get one set of variants. */
static void shape_of(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in, char *key, size_t n) {
  size_t k = (size_t)snprintf(key, n, "%s:", m->strings[in->imm[0]]);
  char t[32];
  for (uint32_t i = 0; i <= in->num_operands && k < n; i++) {
    type_name(i ? f->values[in->operands[i - 1]].type : in->type, t, sizeof t);
    k += (size_t)snprintf(key + k, n - k, " %s", t);
  }
}

static bool push(vlist *l, hg_ir_module *m, const char *builtin, const char *what) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    bc_variant *nv = realloc(l->v, cap * sizeof *nv);
    if (!nv) {
      hg_ir_module_free(m);
      return false;
    }
    l->v = nv;
    l->cap = cap;
  }
  bc_variant *v = &l->v[l->n];
  memset(v, 0, sizeof *v);
  if (hg_ir_encode(m, &v->bytes, &v->size)) {
    snprintf(l->err, l->err_size, "the encoder refused the variant %s", what);
    l->failed = true;
    hg_ir_module_free(m);
    return false;
  }
  v->m = m;
  snprintf(v->builtin, sizeof v->builtin, "%s", builtin);
  snprintf(v->what, sizeof v->what, "%s", what);
  l->n++;
  return true;
}

/* A copy of base with operand k of the call at s replaced by a zero of type t. */
static void replace_operand(vlist *l, const hg_ir_module *base, site s, uint32_t k, hg_ir_type t, const char *why) {
  hg_ir_module *m = hg_ir_module_clone(base);
  if (!m)
    return;
  hg_ir_function *f = &m->functions[s.fn];
  uint32_t z = zero_of(f, t);
  hg_ir_inst *in = inst_at(m, s);
  in->operands[k] = z;
  char what[192], tn[32];
  type_name(t, tn, sizeof tn);
  snprintf(what, sizeof what, "%s: %s (operand %u made %s) in @%s", m->strings[in->imm[0]], why, k, tn, f->name);
  push(l, m, m->strings[in->imm[0]], what);
}

static void operand_variants(vlist *l, const hg_ir_module *base, site s) {
  const hg_ir_function *f = &base->functions[s.fn];
  const hg_ir_inst *in = &f->blocks[s.block].insts[s.inst];
  const char *name = base->strings[in->imm[0]];
  static const char *const vector_ok[] = {"any", "all", "length", "fast_length", NULL};
  bool all_scalar = in->type.lanes <= 1;
  for (uint32_t k = 0; k < in->num_operands; k++)
    all_scalar &= f->values[in->operands[k]].type.lanes <= 1;
  for (uint32_t k = 0; k < in->num_operands && k < 4; k++) {
    hg_ir_type t = f->values[in->operands[k]].type;
    if (!strcmp(name, "printf") && k > 0)
      continue; /* variadic: any type fits */
    bool ptr = t.scalar == HG_IR_PTR;
    if (is_int(t) && !starts(name, "convert_") && !starts(name, "as_") && !(any_element(name) && k == 0))
      replace_operand(l, base, s, k, hg_ir_ty(HG_IR_F32, t.lanes), "a float for an integer");
    if (!ptr && all_scalar && !one_of(name, vector_ok))
      replace_operand(l, base, s, k, hg_ir_ty((hg_ir_scalar)t.scalar, 4), "a vector for a scalar");
    if (!ptr)
      replace_operand(l, base, s, k, hg_ir_ty(HG_IR_BOOL, t.lanes), "a bool");
    if (!ptr)
      replace_operand(l, base, s, k, hg_ir_ptr_ty(HG_AS_GLOBAL), "a pointer for a value");
    if (ptr)
      replace_operand(l, base, s, k, hg_ir_ty(HG_IR_I64, 1), "a value for a pointer");
    if (ptr && writes_through_pointer(name) && t.addrspace != HG_AS_CONSTANT)
      replace_operand(l, base, s, k, hg_ir_ptr_ty(HG_AS_CONSTANT), "a __constant pointer written through");
    if (ptr && !strcmp(name, "printf"))
      replace_operand(l, base, s, k, hg_ir_ptr_ty(HG_AS_GLOBAL), "a format string not in __constant");
  }
}

/* A result type of another class: integer for float, float for integer, i32 for void and bool. */
static hg_ir_type other_result(hg_ir_type t) {
  if (is_int(t))
    return hg_ir_ty(HG_IR_F32, t.lanes);
  return hg_ir_ty(HG_IR_I32, is_float(t) ? t.lanes : 1);
}

static void call_variants(vlist *l, const hg_ir_module *base, site s) {
  const hg_ir_inst *bin = inst_at((hg_ir_module *)base, s);
  const char *name = base->strings[bin->imm[0]];
  bool is_printf = !strcmp(name, "printf");
  char what[192];
  /* one operand too few (printf: its format missing) */
  if (bin->num_operands && (!is_printf || bin->num_operands == 1)) {
    hg_ir_module *m = hg_ir_module_clone(base);
    if (m) {
      hg_ir_inst *in = inst_at(m, s);
      in->num_operands--;
      in->flags &= (uint16_t)((1u << in->num_operands) - 1); /* no signedness bit past the arguments */
      snprintf(what, sizeof what, "%s: an operand missing in @%s", name, m->functions[s.fn].name);
      push(l, m, name, what);
    }
  }
  /* one operand too many */
  if (!is_printf) {
    hg_ir_module *m = hg_ir_module_clone(base);
    if (m) {
      hg_ir_inst *in = inst_at(m, s);
      uint32_t extra = in->num_operands ? in->operands[0] : zero_of(&m->functions[s.fn], hg_ir_ty(HG_IR_I32, 1));
      uint32_t *ops = realloc(in->operands, (in->num_operands + 1) * sizeof *ops);
      if (ops) {
        in->operands = ops;
        ops[in->num_operands++] = extra;
        snprintf(what, sizeof what, "%s: an operand too many in @%s", name, m->functions[s.fn].name);
        push(l, m, name, what);
      } else {
        hg_ir_module_free(m);
      }
    }
  }
  /* the same call again, just before the block's terminator, with a result of another class */
  if (!any_element(name)) {
    hg_ir_module *m = hg_ir_module_clone(base);
    if (m) {
      hg_ir_function *f = &m->functions[s.fn];
      hg_ir_inst c = *inst_at(m, s);
      hg_ir_type rt = other_result(c.type);
      hg_ir_append(f, s.block, HG_OP_CALL_BUILTIN, c.flags, rt, c.num_operands, c.operands, c.num_imm, c.imm);
      hg_ir_block *bl = &f->blocks[s.block];
      hg_ir_inst last = bl->insts[bl->num_insts - 1];
      bl->insts[bl->num_insts - 1] = bl->insts[bl->num_insts - 2];
      bl->insts[bl->num_insts - 2] = last;
      hg_ir_compute_state(m); /* the terminator moved */
      char tn[32];
      type_name(rt, tn, sizeof tn);
      snprintf(what, sizeof what, "%s: a result of type %s in @%s", name, tn, f->name);
      push(l, m, name, what);
    }
  }
  /* a name no builtin has */
  {
    hg_ir_module *m = hg_ir_module_clone(base);
    if (m) {
      char bad[96];
      snprintf(bad, sizeof bad, "%s_x", name);
      inst_at(m, s)->imm[0] = hg_ir_intern(m, bad);
      snprintf(what, sizeof what, "%s: renamed %s in @%s", name, bad, m->functions[s.fn].name);
      push(l, m, bad, what);
    }
  }
}

/* Variants of every call of a shape not seen before (seen: the shapes so far, one a line). */
static void module_variants(vlist *l, const hg_ir_module *m, char **seen, size_t *seen_len) {
  for (uint32_t fi = 0; fi < m->num_functions; fi++) {
    const hg_ir_function *f = &m->functions[fi];
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &f->blocks[b].insts[i];
        if (in->op != HG_OP_CALL_BUILTIN)
          continue;
        char key[512];
        shape_of(m, f, in, key, sizeof key - 2);
        strcat(key, "\n");
        if (*seen && strstr(*seen, key))
          continue;
        char *ns = realloc(*seen, *seen_len + strlen(key) + 1);
        if (!ns)
          continue;
        strcpy(ns + *seen_len, key);
        *seen = ns;
        *seen_len += strlen(key);
        site s = {fi, b, i};
        operand_variants(l, m, s);
        call_variants(l, m, s);
      }
  }
}

size_t bc_make_variants(bc_variant **out) {
  char err[1024] = "";
  vlist l = {.err = err, .err_size = sizeof err};
  char *seen = NULL;
  size_t seen_len = 0;
  for (unsigned k = 0; k < bc_num_kernel_sources && !l.failed; k++) {
    hg_ir_module *m = NULL;
    char *log = NULL;
    cl_int rc = hg_frontend_source_to_ir(bc_kernel_sources[k], "", NULL, 0, false, &m, &log);
    if (rc != CL_SUCCESS) {
      snprintf(err, sizeof err, "kernel source %u does not compile (%d): %s", k, rc, log ? log : "");
      l.failed = true;
    } else {
      module_variants(&l, m, &seen, &seen_len);
    }
    free(log);
    hg_ir_module_free(m);
  }
  free(seen);
  if (l.failed) {
    printf("FAIL making the variants: %s\n", err);
    bc_free_variants(l.v, l.n);
    return 0;
  }
  *out = l.v;
  return l.n;
}

void bc_free_variants(bc_variant *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    hg_ir_module_free(v[i].m);
    free(v[i].bytes);
  }
  free(v);
}
