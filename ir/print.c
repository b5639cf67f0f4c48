/* hg_ir_print: the text form (docs/ir-spec.md, "Text form"). Every field of the module is
 * printed, so hg_ir_parse rebuilds an equal module and printing that gives the same text. */
#include "ir/text.h"

#include <stdlib.h>
#include <string.h>

const char *const hg_ir_scalar_names[HG_IR_PTR + 1] = {"void", "bool", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "ptr"};
const char *const hg_ir_as_names[HG_AS_GENERIC + 1] = {"private", "global", "constant", "local", "generic"};
const char *const hg_ir_cmp_names[HG_CMP_FALSE + 1] = {
    "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge", "oeq", "one", "olt",
    "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord", "uno", "true", "false"};
const char *const hg_ir_atomic_names[HG_ATOMIC_STORE + 1] = {"xchg", "add", "sub", "and", "or", "xor", "smin",
                                                             "smax", "umin", "umax", "fadd", "load", "store"};
const char *const hg_ir_order_names[HG_ORDER_SEQ_CST + 1] = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"};
const char *const hg_ir_scope_names[HG_SCOPE_ALL_DEVICES + 1] = {"work_item", "sub_group", "work_group", "device",
                                                                 "all_devices"};
const char *const hg_ir_karg_names[HG_KARG_IMAGE + 1] = {"global_ptr", "constant_ptr", "local_ptr", "value", "sampler", "image"};
const char *const hg_ir_safepoint_names[HG_SAFEPOINT_LOOP_HEADER + 1] = {"entry", "barrier", "loop_header"};
const char *const hg_ir_program_kind_names[HG_IR_PROGRAM_LIBRARY + 1] = {"executable", "object", "library"};
const char *const hg_ir_fence_names[3] = {"local", "global", "image"};
const char *const hg_ir_image_dim_names[HG_IMAGE_3D + 1] = {"", "image1d", "image1d_buffer", "image1d_array",
                                                            "image2d", "image2d_array", "image3d"};
const char *const hg_ir_image_access_names[HG_IMAGE_READ_WRITE + 1] = {"", "ro", "wo", "rw"};

typedef struct sb {
  char *p;
  size_t n, cap;
  bool oom;
} sb;

static void put(sb *s, const char *fmt, ...) {
  if (s->oom)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->p ? s->p + s->n : NULL, s->p ? s->cap - s->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      s->oom = true;
      return;
    }
    if (s->p && s->n + (size_t)k < s->cap) {
      s->n += (size_t)k;
      return;
    }
    size_t nc = s->cap ? s->cap * 2 : 4096;
    while (nc < s->n + (size_t)k + 1)
      nc *= 2;
    char *np = realloc(s->p, nc);
    if (!np) {
      s->oom = true;
      return;
    }
    s->p = np;
    s->cap = nc;
  }
}

static void put_str(sb *s, const char *str) {
  put(s, "\"");
  for (const unsigned char *c = (const unsigned char *)(str ? str : ""); *c; c++) {
    if (*c == '"' || *c == '\\')
      put(s, "\\%c", *c);
    else if (*c < 0x20 || *c >= 0x7F)
      put(s, "\\%02x", *c);
    else
      put(s, "%c", *c);
  }
  put(s, "\"");
}

static bool plain_name(const char *n) {
  if (!n || !*n || (*n >= '0' && *n <= '9'))
    return false;
  for (const char *c = n; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
          *c == '.' || *c == '$'))
      return false;
  return true;
}

static void put_name(sb *s, const char *n) {
  put(s, "@");
  if (plain_name(n))
    put(s, "%s", n);
  else
    put_str(s, n);
}

void hg_ir_type_text(hg_ir_type t, char *buf, size_t n) {
  if (t.scalar == HG_IR_SAMPLER && t.lanes == 1) {
    snprintf(buf, n, "sampler");
    return;
  }
  if (t.scalar == HG_IR_IMAGE && t.lanes == 1) { /* image2d.ro; "?" for bytes out of range */
    snprintf(buf, n, "%s.%s", t.addrspace >= HG_IMAGE_1D && t.addrspace <= HG_IMAGE_3D ? hg_ir_image_dim_names[t.addrspace] : "image?",
             t.reserved >= HG_IMAGE_READ_ONLY && t.reserved <= HG_IMAGE_READ_WRITE ? hg_ir_image_access_names[t.reserved] : "?");
    return;
  }
  if (t.scalar > HG_IR_PTR) {
    snprintf(buf, n, "?%u", t.scalar);
    return;
  }
  int k = snprintf(buf, n, "%s", hg_ir_scalar_names[t.scalar]);
  if (t.scalar == HG_IR_PTR && k >= 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, ".%s", t.addrspace <= HG_AS_GENERIC ? hg_ir_as_names[t.addrspace] : "?");
  if (t.lanes != 1 && k >= 0 && (size_t)k < n)
    snprintf(buf + k, n - (size_t)k, "x%u", t.lanes);
}

static void put_type(sb *s, hg_ir_type t) {
  char text[32];
  hg_ir_type_text(t, text, sizeof text);
  put(s, "%s", text);
}

static void put_const_lane(sb *s, hg_ir_type t, uint64_t w) {
  if ((t.scalar >= HG_IR_F16 && t.scalar <= HG_IR_F64) || t.scalar == HG_IR_SAMPLER) { /* sampler: its bits */
    put(s, "0x%llx", (unsigned long long)w);
  } else if (t.scalar == HG_IR_PTR && w == 0) {
    put(s, "null");
  } else if (t.scalar >= HG_IR_I8 && t.scalar <= HG_IR_I64 && hg_ir_scalar_bytes(t.scalar) < 8 &&
             !(w >> (8 * hg_ir_scalar_bytes(t.scalar)))) {
    unsigned b = 8 * hg_ir_scalar_bytes(t.scalar);
    int64_t sv = (w >> (b - 1)) & 1 ? (int64_t)(w | (~0ull << b)) : (int64_t)w;
    put(s, "%lld", (long long)sv);
  } else if (t.scalar == HG_IR_I64) {
    put(s, "%lld", (long long)(int64_t)w);
  } else {
    put(s, "%llu", (unsigned long long)w);
  }
}

static void put_fence(sb *s, uint32_t fl) {
  if (!fl || fl > 7) {
    put(s, "%u", fl);
    return;
  }
  const char *sep = "";
  for (unsigned k = 0; k < 3; k++)
    if (fl & (1u << k)) {
      put(s, "%s%s", sep, hg_ir_fence_names[k]);
      sep = "|";
    }
}

static void put_suffixes(sb *s, const hg_ir_inst *in) {
  unsigned op = in->op, fl = in->flags;
  if ((op == HG_OP_ICMP || op == HG_OP_FCMP) && fl <= HG_CMP_FALSE &&
      (op == HG_OP_ICMP) == (fl <= HG_CMP_SGE)) {
    put(s, ".%s", hg_ir_cmp_names[fl]);
    fl = 0;
  } else if (hg_ir_is_mem_op(op)) {
    if (fl & HG_MEM_VOLATILE)
      put(s, ".volatile");
    if ((fl >> 8) && (fl >> 8) < 31)
      put(s, ".align%u", 1u << (fl >> 8));
    fl &= (fl >> 8) < 31 ? 0xFE : 0xFFFE;
  } else if (op == HG_OP_FADD || op == HG_OP_FSUB || op == HG_OP_FMUL) {
    if (fl & HG_FP_CONTRACT)
      put(s, ".contract");
    fl &= ~(unsigned)HG_FP_CONTRACT;
  } else if (op == HG_OP_PTRADD) {
    if (fl & HG_WRAP_INBOUNDS)
      put(s, ".inbounds");
    fl &= ~(unsigned)HG_WRAP_INBOUNDS;
  } else if (hg_ir_wrap_flags_of(op)) {
    if (fl & HG_WRAP_NSW)
      put(s, ".nsw");
    if (fl & HG_WRAP_NUW)
      put(s, ".nuw");
    fl &= ~(unsigned)(HG_WRAP_NSW | HG_WRAP_NUW);
  } else if (hg_ir_is_atomic_op(op)) {
    unsigned aop = fl & 0xFF, ord = (fl >> 8) & 0xF, sc = fl >> 12;
    if (aop <= HG_ATOMIC_STORE && ord <= HG_ORDER_SEQ_CST && sc <= HG_SCOPE_ALL_DEVICES &&
        (op == HG_OP_ATOMIC_RMW || aop == 0)) {
      if (op == HG_OP_ATOMIC_RMW)
        put(s, ".%s", hg_ir_atomic_names[aop]);
      put(s, ".%s.%s", hg_ir_order_names[ord], hg_ir_scope_names[sc]);
      fl = 0;
    }
  }
  if (fl)
    put(s, ".f%u", fl);
}

static void put_imm(sb *s, const hg_ir_module *m, const hg_ir_inst *in, uint32_t k) {
  uint32_t x = in->imm[k];
  switch (in->op) {
  case HG_OP_PHI: case HG_OP_BR: case HG_OP_CONDBR: case HG_OP_SWITCH:
    put(s, "bb%u", x);
    return;
  case HG_OP_CALL:
    if (x < m->num_functions) {
      put_name(s, m->functions[x].name);
      return;
    }
    break;
  case HG_OP_CALL_BUILTIN:
    if (x < m->num_strings) {
      put_str(s, m->strings[x]);
      return;
    }
    break;
  case HG_OP_SHUFFLE:
    if (x == HG_IR_NONE) {
      put(s, "undef");
      return;
    }
    break;
  case HG_OP_FENCE: case HG_OP_BARRIER:
    put_fence(s, x);
    return;
  case HG_OP_CMPXCHG:
    if (x <= HG_ORDER_SEQ_CST) {
      put(s, "%s", hg_ir_order_names[x]);
      return;
    }
    break;
  default:
    break;
  }
  put(s, "%u", x);
}

static void print_function(sb *s, const hg_ir_module *m, const hg_ir_function *f) {
  put(s, "\n%s ", f->is_kernel ? "kernel" : "func");
  put_name(s, f->name);
  put(s, "(");
  for (uint32_t i = 0; i < f->num_params; i++) {
    put(s, "%s", i ? ", " : "");
    put_type(s, f->param_types[i]);
    put(s, " %%%u", i);
  }
  put(s, ") -> ");
  put_type(s, f->ret_type);
  put(s, "\n");
  if (f->is_kernel && f->args)
    for (uint32_t i = 0; i < f->num_params; i++) {
      const hg_ir_kernel_arg *a = &f->args[i];
      put(s, "  arg %u name ", i);
      put_str(s, a->name);
      put(s, " type ");
      put_str(s, a->type_name);
      if (a->kind <= HG_KARG_IMAGE)
        put(s, " kind %s", hg_ir_karg_names[a->kind]);
      else
        put(s, " kind %u", a->kind);
      put(s, " access %u qual %u size %u align %u\n", a->access_qual, a->type_qual, a->size, a->align);
    }
  const uint32_t *r = f->reqd_work_group_size, *h = f->work_group_size_hint;
  if (r[0] || r[1] || r[2])
    put(s, "  reqd_work_group_size %u %u %u\n", r[0], r[1], r[2]);
  if (h[0] || h[1] || h[2])
    put(s, "  work_group_size_hint %u %u %u\n", h[0], h[1], h[2]);
  if (f->vec_type_hint) {
    put(s, "  vec_type_hint ");
    put_str(s, f->vec_type_hint);
    put(s, "\n");
  }
  if (f->attributes && f->attributes[0]) {
    put(s, "  attributes ");
    put_str(s, f->attributes);
    put(s, "\n");
  }
  for (uint32_t i = 0; i < f->num_slots; i++)
    put(s, "  slot %u size %u align %u offset %u\n", i, f->slots[i].size, f->slots[i].align, f->slots[i].offset);
  if (f->private_size)
    put(s, "  private_size %u\n", f->private_size);
  for (uint32_t i = 0; i < f->num_local_vars; i++) {
    put(s, "  local_var ");
    if (f->local_vars[i].global < m->num_globals)
      put_name(s, m->globals[f->local_vars[i].global].name);
    else
      put(s, "%u", f->local_vars[i].global);
    put(s, " offset %u\n", f->local_vars[i].offset);
  }
  if (f->local_static_size)
    put(s, "  local_static_size %u\n", f->local_static_size);
  for (uint32_t i = 0; i < f->num_safepoints; i++) {
    const hg_ir_safepoint *sp = &f->safepoints[i];
    put(s, "  safepoint %u ", sp->id);
    if (sp->kind <= HG_SAFEPOINT_LOOP_HEADER)
      put(s, "%s", hg_ir_safepoint_names[sp->kind]);
    else
      put(s, "%u", sp->kind);
    put(s, " bb%u %u live", sp->block, sp->inst);
    for (uint32_t k = 0; k < sp->num_live; k++)
      put(s, "%s %%%u", k ? "," : "", sp->live[k]);
    put(s, "\n");
  }
  put(s, "{\n");
  for (uint32_t x = f->num_params; x < f->num_values; x++) {
    const hg_ir_value *v = &f->values[x];
    if (v->kind == HG_VAL_INST)
      continue;
    put(s, "  %%%u = ", x);
    if (v->kind == HG_VAL_CONST) {
      put(s, "const ");
      put_type(s, v->type);
      for (unsigned l = 0; l < v->type.lanes; l++) {
        put(s, l ? ", " : " ");
        if (v->index < f->num_const_words && f->num_const_words - v->index > l)
          put_const_lane(s, v->type, f->const_words[v->index + l]);
        else
          put(s, "?");
      }
    } else if (v->kind == HG_VAL_UNDEF) {
      put(s, "undef ");
      put_type(s, v->type);
    } else if (v->kind == HG_VAL_GLOBAL && v->index < m->num_globals) {
      put(s, "global ");
      put_name(s, m->globals[v->index].name);
    } else {
      put(s, "bad %u %u", v->kind, v->index);
    }
    put(s, "\n");
  }
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    put(s, "bb%u:\n", b);
    const hg_ir_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      put(s, "  ");
      if (in->type.scalar != HG_IR_VOID)
        put(s, "%%%u = ", in->id);
      const char *nm = hg_ir_opcode_name(in->op);
      if (nm)
        put(s, "%s", nm);
      else
        put(s, "op%u", in->op);
      put_suffixes(s, in);
      if (in->type.scalar != HG_IR_VOID) {
        put(s, " ");
        put_type(s, in->type);
      }
      for (uint32_t k = 0; k < in->num_operands; k++)
        put(s, "%s %%%u", k ? "," : "", in->operands[k]);
      if (in->num_imm) {
        put(s, " [");
        for (uint32_t k = 0; k < in->num_imm; k++) {
          put(s, k ? ", " : "");
          put_imm(s, m, in, k);
        }
        put(s, "]");
      }
      put(s, "\n");
    }
  }
  put(s, "}\n");
}

char *hg_ir_print(const hg_ir_module *m) {
  sb s = {0};
  put(&s, "; hetGPU IR text %u.%u\n", HG_IR_VERSION_MAJOR, HG_IR_VERSION_MINOR);
  if (m->program_kind <= HG_IR_PROGRAM_LIBRARY)
    put(&s, "program %s\n", hg_ir_program_kind_names[m->program_kind]);
  else
    put(&s, "program %u\n", m->program_kind);
  if (m->source_language && m->source_language[0]) {
    put(&s, "source_language ");
    put_str(&s, m->source_language);
    put(&s, "\n");
  }
  if (m->build_options && m->build_options[0]) {
    put(&s, "build_options ");
    put_str(&s, m->build_options);
    put(&s, "\n");
  }
  if (m->uses_fp64)
    put(&s, "uses_fp64\n");
  if (m->uses_fp16)
    put(&s, "uses_fp16\n");
  for (uint32_t i = 0; i < m->num_strings; i++) {
    put(&s, "string ");
    put_str(&s, m->strings[i]);
    put(&s, "\n");
  }
  for (uint32_t i = 0; i < m->num_globals; i++) {
    const hg_ir_global *g = &m->globals[i];
    put(&s, "global ");
    put_name(&s, g->name);
    if (g->addrspace <= HG_AS_GENERIC)
      put(&s, " %s", hg_ir_as_names[g->addrspace]);
    else
      put(&s, " %u", g->addrspace);
    put(&s, "%s%s size %u align %u", g->is_const ? " const" : "",
        g->linkage == HG_LINK_EXPORTED ? " exported" : g->linkage == HG_LINK_IMPORTED ? " imported" : "", g->size,
        g->align);
    if (g->has_init) {
      put(&s, " init \"");
      for (uint32_t k = 0; g->init && k < g->size; k++)
        put(&s, "%02x", g->init[k]);
      put(&s, "\"");
    }
    for (uint32_t k = 0; k < g->num_relocs; k++) {
      put(&s, " reloc %u ", g->relocs[k].offset);
      if (g->relocs[k].target < m->num_globals)
        put_name(&s, m->globals[g->relocs[k].target].name);
      else
        put(&s, "%u", g->relocs[k].target);
      put(&s, " %lld", (long long)g->relocs[k].addend);
    }
    put(&s, "\n");
  }
  for (uint32_t i = 0; i < m->num_functions; i++)
    print_function(&s, m, &m->functions[i]);
  if (s.oom) {
    free(s.p);
    return NULL;
  }
  return s.p;
}
