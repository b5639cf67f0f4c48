/* IR -> OpenCL C: text buffers, type names, names of things, constants and value expressions. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/opencl_c_internal.h"

void oc_vprintf(oc_buf *b, const char *fmt, va_list ap) {
  if (b->oom) return;
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) { b->oom = true; return; }
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + (size_t)n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) { b->oom = true; return; }
    b->p = p;
    b->cap = cap;
  }
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void oc_printf(oc_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  oc_vprintf(b, fmt, ap);
  va_end(ap);
}

void oc_puts(oc_buf *b, const char *s) { oc_printf(b, "%s", s); }

void oc_buf_free(oc_buf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

void oc_fail(oc_ctx *c, const char *fmt, ...) {
  if (c->failed) return; /* keep the first message */
  c->failed = true;
  if (!c->err || !c->err_size) return;
  int n = 0;
  if (c->f) n = snprintf(c->err, c->err_size, "opencl_c lowering of '%s': ", c->f->name ? c->f->name : "?");
  if (n < 0 || (size_t)n >= c->err_size) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
  va_end(ap);
}

unsigned oc_lane_kind(unsigned lanes) {
  switch (lanes) {
  case 1: return 0;
  case 2: return 1;
  case 3: return 2;
  case 4: return 3;
  case 8: return 4;
  case 16: return 5;
  default: return 0;
  }
}

const char *oc_uname(hg_ir_scalar s) {
  switch (s) {
  case HG_IR_BOOL: case HG_IR_I8: return "uchar";
  case HG_IR_I16: case HG_IR_F16: return "ushort";
  case HG_IR_I32: return "uint";
  case HG_IR_I64: case HG_IR_PTR: return "ulong";
  case HG_IR_F32: return "float";
  case HG_IR_F64: return "double";
  default: return "void";
  }
}

const char *oc_sname(hg_ir_scalar s) {
  switch (s) {
  case HG_IR_BOOL: case HG_IR_I8: return "char";
  case HG_IR_I16: case HG_IR_F16: return "short";
  case HG_IR_I32: case HG_IR_F32: return "int";
  case HG_IR_I64: case HG_IR_F64: case HG_IR_PTR: return "long";
  default: return "void";
  }
}

const char *oc_aspace(unsigned as) {
  switch (as) {
  case HG_AS_GLOBAL: return "__global";
  case HG_AS_CONSTANT: return "__constant";
  case HG_AS_LOCAL: return "__local";
  case HG_AS_PRIVATE: return "__private";
  default: return NULL;
  }
}

static const char *lanes_suffix(unsigned lanes, char *tmp) { /* tmp: 4 bytes */
  if (lanes <= 1) return "";
  snprintf(tmp, 4, "%u", (lanes & 0xffu) % 100u);
  return tmp;
}

const char *oc_type(oc_ctx *c, hg_ir_type t, char *buf, size_t n) {
  char l[4];
  if (t.scalar == HG_IR_VOID) {
    snprintf(buf, n, "void");
  } else if (t.scalar == HG_IR_IMAGE || t.scalar == HG_IR_SAMPLER) {
    oc_image_type(t, buf, n);
  } else if (t.scalar == HG_IR_PTR) {
    const char *as = oc_aspace(t.addrspace);
    if (!as) {
      if (c) oc_fail(c, "generic address space pointers are not expressible in OpenCL C 1.2");
      as = "__global";
    }
    snprintf(buf, n, "%s uchar *", as);
  } else {
    snprintf(buf, n, "%s%s", oc_uname((hg_ir_scalar)t.scalar), lanes_suffix(t.lanes, l));
  }
  return buf;
}

const char *oc_stype(hg_ir_type t, char *buf, size_t n) {
  char l[4];
  snprintf(buf, n, "%s%s", oc_sname((hg_ir_scalar)t.scalar), lanes_suffix(t.lanes, l));
  return buf;
}

const char *oc_ma_type(oc_ctx *c, hg_ir_type t, char *buf, size_t n) {
  char l[4];
  unsigned s = t.scalar == HG_IR_PTR ? HG_IR_I64 : t.scalar;
  if (s == HG_IR_BOOL) s = HG_IR_I8;
  c->may_alias_used[s][oc_lane_kind(t.lanes)] = true;
  snprintf(buf, n, "hg_ma_%s%s", oc_uname((hg_ir_scalar)s), lanes_suffix(t.lanes, l));
  return buf;
}

unsigned oc_type_align(hg_ir_type t) {
  unsigned e = t.scalar == HG_IR_PTR ? 8 : hg_ir_scalar_bytes((hg_ir_scalar)t.scalar);
  unsigned lanes = t.lanes == 3 ? 4 : (t.lanes ? t.lanes : 1);
  return e * lanes;
}

unsigned oc_type_size(hg_ir_type t) {
  unsigned e = t.scalar == HG_IR_PTR ? 8 : hg_ir_scalar_bytes((hg_ir_scalar)t.scalar);
  return e * (t.lanes ? t.lanes : 1);
}

bool oc_is_int(hg_ir_type t) { return t.scalar >= HG_IR_I8 && t.scalar <= HG_IR_I64; }
bool oc_is_float(hg_ir_type t) { return t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64; }

bool oc_valid_ident(const char *s) {
  if (!s || !*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (const char *p = s; *p; p++)
    if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
  if (strncmp(s, "hg_", 3) == 0 || strncmp(s, "__", 2) == 0) return false;
  return strlen(s) < 200;
}

static void sanitized(oc_buf *b, const char *s) {
  char tmp[64];
  size_t i = 0;
  for (; s && s[i] && i < sizeof tmp - 1; i++) tmp[i] = isalnum((unsigned char)s[i]) ? s[i] : '_';
  tmp[i] = 0;
  if (i) oc_printf(b, "_%s", tmp);
}

void oc_param_name(oc_ctx *c, oc_buf *b, uint32_t p) {
  const hg_ir_function *f = c->f;
  /* argument names are kept unless they would shadow a builtin the lowered body may call */
  if (c->as_kernel && f->args && oc_valid_ident(f->args[p].name) && !hg_builtin_is_known(f->args[p].name) &&
      strncmp(f->args[p].name, "as_", 3) && strncmp(f->args[p].name, "convert_", 8)) {
    bool unique = true;
    for (uint32_t i = 0; i < p; i++)
      if (f->args[i].name && strcmp(f->args[i].name, f->args[p].name) == 0) unique = false;
    if (unique && strcmp(f->args[p].name, f->name) != 0) {
      oc_puts(b, f->args[p].name);
      return;
    }
  }
  oc_printf(b, "hg_p%u", p);
}

void oc_func_name(oc_ctx *c, oc_buf *b, uint32_t fidx, bool as_kernel) {
  const hg_ir_function *f = &c->m->functions[fidx];
  if (as_kernel) {
    oc_puts(b, f->name);
    return;
  }
  oc_printf(b, "hg_f%u", fidx);
  sanitized(b, f->name);
}

void oc_global_name(oc_ctx *c, oc_buf *b, uint32_t g) {
  const hg_ir_global *gl = &c->m->globals[g];
  oc_printf(b, "%s%u", gl->addrspace == HG_AS_LOCAL ? "hg_l" : "hg_g", g);
  sanitized(b, gl->name);
}

void oc_const_lane(oc_ctx *c, oc_buf *b, hg_ir_scalar s, uint64_t w) {
  switch (s) {
  case HG_IR_BOOL: oc_printf(b, "(uchar)%u", (unsigned)(w & 1)); break;
  case HG_IR_I8: oc_printf(b, "(uchar)%u", (unsigned)(w & 0xff)); break;
  case HG_IR_I16: case HG_IR_F16: oc_printf(b, "(ushort)%u", (unsigned)(w & 0xffff)); break;
  case HG_IR_I32: oc_printf(b, "%uu", (unsigned)(w & 0xffffffffu)); break;
  case HG_IR_I64: oc_printf(b, "%lluul", (unsigned long long)w); break;
  case HG_IR_F32: {
    uint32_t bits = (uint32_t)w;
    float f;
    memcpy(&f, &bits, 4);
    if (isfinite(f)) oc_printf(b, "%s%af%s", signbit(f) ? "(" : "", (double)f, signbit(f) ? ")" : "");
    else oc_printf(b, "as_float(0x%08xu)", bits);
    break;
  }
  case HG_IR_F64: {
    double d;
    memcpy(&d, &w, 8);
    c->need |= OC_NEED_FP64;
    if (isfinite(d)) oc_printf(b, "%s%a%s", signbit(d) ? "(" : "", d, signbit(d) ? ")" : "");
    else oc_printf(b, "as_double(0x%016llxul)", (unsigned long long)w);
    break;
  }
  default: oc_printf(b, "0x%llxul", (unsigned long long)w); break;
  }
}

void oc_zero(oc_ctx *c, oc_buf *b, hg_ir_type t) {
  char tb[64];
  if (t.scalar == HG_IR_PTR) {
    oc_printf(b, "((%s)0)", oc_type(c, t, tb, sizeof tb));
  } else if (t.lanes > 1) {
    oc_printf(b, "((%s)(", oc_type(c, t, tb, sizeof tb));
    oc_const_lane(c, b, (hg_ir_scalar)t.scalar, 0);
    oc_puts(b, "))");
  } else {
    oc_const_lane(c, b, (hg_ir_scalar)t.scalar, 0);
  }
}

void oc_value(oc_ctx *c, oc_buf *b, uint32_t v) {
  const hg_ir_function *f = c->f;
  if (v >= f->num_values) {
    oc_fail(c, "operand %u out of range", v);
    oc_puts(b, "0");
    return;
  }
  const hg_ir_value *val = &f->values[v];
  char tb[64];
  switch (val->kind) {
  case HG_VAL_PARAM:
    if (c->as_kernel && f->args && f->args[val->index].kind == HG_KARG_LOCAL_PTR) {
      oc_puts(b, "((__local uchar *)"); /* declared with the pointee type of its alignment */
      oc_param_name(c, b, val->index);
      oc_puts(b, ")");
    } else if (c->as_kernel && f->args && f->args[val->index].kind == HG_KARG_VALUE && val->type.scalar == HG_IR_PTR) {
      oc_puts(b, "((__private uchar *)&"); /* a by-value struct: its address */
      oc_param_name(c, b, val->index);
      oc_puts(b, ")");
    } else {
      oc_param_name(c, b, val->index);
    }
    break;
  case HG_VAL_INST: oc_printf(b, "hg_r%u", val->index); break;
  case HG_VAL_UNDEF: oc_zero(c, b, val->type); break;
  case HG_VAL_GLOBAL: {
    if (val->index >= c->m->num_globals) {
      oc_fail(c, "global %u out of range", val->index);
      break;
    }
    const hg_ir_global *g = &c->m->globals[val->index];
    oc_printf(b, "((%s uchar *)%s", oc_aspace(g->addrspace) ? oc_aspace(g->addrspace) : "__global",
              g->addrspace == HG_AS_LOCAL ? "" : "&");
    oc_global_name(c, b, val->index);
    oc_puts(b, ")");
    break;
  }
  case HG_VAL_CONST: {
    hg_ir_type t = val->type;
    const uint64_t *w = f->const_words + val->index;
    if (val->index + (t.lanes ? t.lanes : 1) > f->num_const_words) {
      oc_fail(c, "constant words out of range");
      break;
    }
    if (t.scalar == HG_IR_SAMPLER) {
      oc_sampler_name(b, w[0]); /* its program-scope variable (opencl_c_image.c) */
    } else if (t.scalar == HG_IR_PTR) {
      if (w[0] == 0) oc_printf(b, "((%s)0)", oc_type(c, t, tb, sizeof tb));
      else oc_printf(b, "((%s)0x%llxul)", oc_type(c, t, tb, sizeof tb), (unsigned long long)w[0]);
    } else if (t.lanes > 1) {
      oc_printf(b, "((%s)(", oc_type(c, t, tb, sizeof tb));
      for (unsigned i = 0; i < t.lanes; i++) {
        if (i) oc_puts(b, ", ");
        oc_const_lane(c, b, (hg_ir_scalar)t.scalar, w[i]);
      }
      oc_puts(b, "))");
    } else {
      oc_const_lane(c, b, (hg_ir_scalar)t.scalar, w[0]);
    }
    break;
  }
  default: oc_fail(c, "bad value kind %u", val->kind); break;
  }
}

void oc_value_f(oc_ctx *c, oc_buf *b, uint32_t v) {
  hg_ir_type t = oc_vtype(c, v);
  if (t.scalar == HG_IR_F16) {
    c->h2f_mask |= 1u << oc_lane_kind(t.lanes);
    if (t.lanes > 1) oc_printf(b, "hg_h2f%u(", t.lanes);
    else oc_puts(b, "hg_h2f(");
    oc_value(c, b, v);
    oc_puts(b, ")");
    return;
  }
  oc_value(c, b, v);
}

void oc_value_s(oc_ctx *c, oc_buf *b, uint32_t v) {
  hg_ir_type t = oc_vtype(c, v);
  char tb[32];
  if (t.scalar == HG_IR_BOOL) { /* i1 true is -1 when read as signed */
    oc_printf(b, "(-%s", t.lanes > 1 ? "as_" : "(");
    oc_printf(b, "%s%s", oc_stype(t, tb, sizeof tb), t.lanes > 1 ? "(" : ")");
    oc_value(c, b, v);
    oc_puts(b, t.lanes > 1 ? "))" : ")");
    return;
  }
  if (t.lanes > 1) oc_printf(b, "as_%s(", oc_stype(t, tb, sizeof tb));
  else oc_printf(b, "((%s)", oc_stype(t, tb, sizeof tb));
  oc_value(c, b, v);
  oc_puts(b, ")");
}

void oc_res(oc_ctx *c, oc_buf *b, const hg_ir_inst *in) { oc_printf(b, "hg_r%u", in->id); }
