/* IR -> OpenCL C: printf through a buffer (common/printf_layout.h, docs/printf.md). A printf
 * call reserves a record in the launch's buffer with one 32-bit atomic_add and writes its
 * format id, the work-group and its arguments there; the host formats the records after the
 * launch. So the output is hetGPU's, the same on every vendor, not the vendor printf's.
 *
 * Functions that (transitively) call printf get a hidden trailing parameter
 * `__global uint *hg_printf_buf`; the table returned with the source names the formats, the
 * constant strings %s may point into, and the kernels that have the parameter. A %s slot is
 * (string id + 1) << 32 | byte offset into that string's constant, 0 for a pointer into
 * anything else (printed "(null)": OpenCL C allows only literal strings there). */
#include <stdlib.h>
#include <string.h>

#include "common/printf_layout.h"
#include "common/profile_limits.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_internal.h"

#define CAP HG_PROFILE_PRINTF_BUFFER_SIZE

/* ---- the table (its host-side functions are in opencl_c_printf_table.c) ---- */

static bool grow(void **p, uint32_t n, size_t elem) {
  void *q = realloc(*p, (n + 1) * elem);
  if (q) *p = q;
  return q != NULL;
}

static uint32_t format_id(oc_ctx *c, const char *text) {
  hg_printf_table *t = c->printf;
  for (uint32_t i = 0; i < t->num_formats; i++)
    if (!strcmp(t->formats[i], text)) return i;
  char *d = strdup(text);
  if (!d || !grow((void **)&t->formats, t->num_formats, sizeof *t->formats)) {
    free(d);
    oc_fail(c, "out of memory");
    return 0;
  }
  t->formats[t->num_formats] = d;
  return t->num_formats++;
}

/* The string id + 1 of constant global g (entered in the table on first use). */
static uint64_t string_id(oc_ctx *c, uint32_t g) {
  if (c->string_ids[g]) return c->string_ids[g];
  hg_printf_table *t = c->printf;
  const hg_ir_global *gl = &c->m->globals[g];
  uint8_t *bytes = malloc(gl->size ? gl->size : 1);
  if (!bytes || !grow((void **)&t->strings, t->num_strings, sizeof *t->strings)) {
    free(bytes);
    oc_fail(c, "out of memory");
    return 0;
  }
  if (gl->has_init) memcpy(bytes, gl->init, gl->size);
  else memset(bytes, 0, gl->size ? gl->size : 1); /* a zero initializer has no data: "" is one */
  t->strings[t->num_strings] = (hg_printf_string){bytes, gl->size};
  c->string_ids[g] = ++t->num_strings;
  return c->string_ids[g];
}

bool oc_printf_add_kernel(oc_ctx *c, const char *name) {
  hg_printf_table *t = c->printf;
  char *d = strdup(name ? name : "");
  if (!d || !grow((void **)&t->kernels, t->num_kernels, sizeof *t->kernels)) {
    free(d);
    return false;
  }
  t->kernels[t->num_kernels++] = d;
  return true;
}

/* ---- the preamble's helpers ---- */

void oc_emit_printf_helpers(oc_ctx *c, oc_buf *out) {
  if (!c->printf_used) return;
  /* once the buffer is full a printf does not add to the count, which so stays far from
   * wrapping around 32 bits; the work-group id is linear, dimension 0 fastest */
  oc_printf(out,
            "static __global uint *hg_printf_alloc(__global uint *b, uint size, uint fmt) {\n"
            "  if (*(volatile __global uint *)b >= %uu) return 0;\n"
            "  uint at = atomic_add((volatile __global uint *)b, size);\n"
            "  if (at > %uu - size) return 0;\n"
            "  __global uint *r = b + %u + at / 4u;\n"
            "  ulong grp = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);\n"
            "  r[0] = size; r[1] = fmt; r[2] = (uint)grp; r[3] = (uint)(grp >> 32);\n"
            "  return r;\n"
            "}\n"
            "static inline void hg_printf_slot(__global uint *r, uint i, ulong v) {\n"
            "  r[%u + 2u * i] = (uint)v; r[%u + 2u * i] = (uint)(v >> 32);\n"
            "}\n",
            CAP, CAP, HG_PRINTF_HEADER_BYTES / 4, HG_PRINTF_RECORD_HEADER_BYTES / 4, HG_PRINTF_RECORD_HEADER_BYTES / 4 + 1);
}

/* ---- the call ---- */

/* Finds the constant global (and byte offset) a pointer value points into at compile time. */
static bool resolve_global(oc_ctx *c, uint32_t v, uint32_t *g, uint64_t *off) {
  const hg_ir_function *f = c->f;
  for (int depth = 0; depth < 16 && v < f->num_values; depth++) {
    const hg_ir_value *val = &f->values[v];
    if (val->kind == HG_VAL_GLOBAL) {
      *g = val->index;
      return val->index < c->m->num_globals && c->m->globals[val->index].addrspace == HG_AS_CONSTANT &&
             c->m->globals[val->index].has_init;
    }
    if (val->kind != HG_VAL_INST) return false;
    const hg_ir_inst *def = NULL;
    for (uint32_t b = 0; b < f->num_blocks && !def; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts && !def; i++)
        if (f->blocks[b].insts[i].id == val->index) def = &f->blocks[b].insts[i];
    if (!def) return false;
    if (def->op == HG_OP_PTRADD && f->values[def->operands[1]].kind == HG_VAL_CONST)
      *off += f->const_words[f->values[def->operands[1]].index];
    else if (def->op != HG_OP_BITCAST && def->op != HG_OP_ADDRSPACECAST)
      return false;
    v = def->operands[0];
  }
  return false;
}

/* Candidates for a %s pointer known only at run time: constants holding a NUL (a zero
 * initializer, as the empty string has, holds only NULs). */
static bool string_candidate(const hg_ir_global *gl) {
  return gl->addrspace == HG_AS_CONSTANT && gl->size && (!gl->has_init || memchr(gl->init, 0, gl->size));
}

static void string_slot(oc_ctx *c, oc_buf *b, uint32_t v) {
  uint32_t g = 0;
  uint64_t off = 0;
  if (resolve_global(c, v, &g, &off) && off < c->m->globals[g].size) {
    oc_printf(b, "%lluul", (unsigned long long)(string_id(c, g) << 32 | off));
    return;
  }
  if (oc_vtype(c, v).addrspace != HG_AS_CONSTANT) {
    oc_puts(b, "0ul");
    return;
  }
  /* compare with every candidate: (p - base) < size as unsigned */
  unsigned open = 0;
  for (uint32_t i = 0; i < c->m->num_globals && !c->failed; i++) {
    if (!string_candidate(&c->m->globals[i])) continue;
    oc_puts(b, "((ulong)");
    oc_value(c, b, v);
    oc_puts(b, " - (ulong)(__constant uchar *)&");
    oc_global_name(c, b, i);
    oc_printf(b, " < %uul ? %lluul | ((ulong)", c->m->globals[i].size, (unsigned long long)(string_id(c, i) << 32));
    oc_value(c, b, v);
    oc_puts(b, " - (ulong)(__constant uchar *)&");
    oc_global_name(c, b, i);
    oc_puts(b, ") : ");
    open++;
  }
  oc_puts(b, "0ul");
  while (open--) oc_puts(b, ")");
}

/* Lane l of value v (a scalar when it has one lane) as an expression. */
static void lane_of(oc_ctx *c, oc_buf *b, uint32_t v, unsigned l, void (*value)(oc_ctx *, oc_buf *, uint32_t)) {
  hg_ir_type t = oc_vtype(c, v);
  if (t.lanes <= 1) {
    value(c, b, v);
    return;
  }
  oc_puts(b, "(");
  value(c, b, v);
  oc_printf(b, ").s%x", l);
}

/* One slot: lane l of operand i of the call, converted by the record format's rules. */
static void slot_value(oc_ctx *c, oc_buf *b, const hg_ir_inst *in, uint32_t i, unsigned l, char conv) {
  uint32_t v = in->operands[i];
  hg_ir_type t = oc_vtype(c, v);
  if (t.scalar == HG_IR_PTR) {
    if (conv == 's') string_slot(c, b, v);
    else { oc_puts(b, "(ulong)"); oc_value(c, b, v); }
  } else if (t.scalar == HG_IR_F64) {
    oc_puts(b, "as_ulong(");
    lane_of(c, b, v, l, oc_value);
    oc_puts(b, ")");
  } else if (t.scalar == HG_IR_F32 || t.scalar == HG_IR_F16) {
    c->need |= OC_NEED_FP64; /* a float converts to double exactly */
    oc_puts(b, "as_ulong((double)");
    lane_of(c, b, v, l, oc_value_f);
    oc_puts(b, ")");
  } else if (t.scalar == HG_IR_BOOL || (i < 16 && (in->flags >> i) & 1) || t.scalar == HG_IR_I64) {
    oc_puts(b, "(ulong)");
    lane_of(c, b, v, l, oc_value);
  } else {
    oc_puts(b, "(ulong)(long)");
    lane_of(c, b, v, l, oc_value_s);
  }
}

/* The conversion character of each argument of a format (0: none, an extra argument). */
static void conversions(const char *fmt, char *conv, uint32_t n) {
  memset(conv, 0, n);
  uint32_t next = 1;
  for (const char *p = fmt; *p && next < n; p++) {
    if (*p != '%') continue;
    p++;
    if (*p == '%') continue;
    p += strspn(p, "-+ #0");
    p += strspn(p, "0123456789.");
    if (*p == 'v') p += 1 + strspn(p + 1, "0123456789");
    p += strspn(p, "hl");
    if (!*p) break;
    conv[next++] = *p;
  }
}

void oc_emit_printf(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t g = 0;
  uint64_t off = 0;
  const hg_ir_global *gl = NULL;
  if (in->num_operands && resolve_global(c, in->operands[0], &g, &off)) gl = &c->m->globals[g];
  if (!gl || off >= gl->size || !memchr(gl->init + off, 0, gl->size - off)) {
    oc_fail(c, "printf format is not a constant string");
    return;
  }
  char *conv = malloc(in->num_operands);
  if (!conv) {
    oc_fail(c, "out of memory");
    return;
  }
  conversions((const char *)gl->init + off, conv, in->num_operands);
  uint32_t id = format_id(c, (const char *)gl->init + off);
  uint32_t size = HG_PRINTF_RECORD_HEADER_BYTES;
  for (uint32_t i = 1; i < in->num_operands; i++) {
    hg_ir_type t = oc_vtype(c, in->operands[i]);
    size += HG_PRINTF_SLOT_BYTES * (t.lanes > 1 && t.scalar != HG_IR_PTR ? t.lanes : 1);
  }
  c->printf_used = true;
  oc_printf(c->body, "  { __global uint *hg_pr = hg_printf_alloc(hg_printf_buf, %uu, %uu);\n", size, id);
  oc_puts(c->body, "    if (hg_pr) {\n");
  unsigned slot = 0;
  for (uint32_t i = 1; i < in->num_operands; i++) {
    hg_ir_type t = oc_vtype(c, in->operands[i]);
    unsigned lanes = t.lanes > 1 && t.scalar != HG_IR_PTR ? t.lanes : 1;
    for (unsigned l = 0; l < lanes; l++) {
      oc_printf(c->body, "      hg_printf_slot(hg_pr, %uu, ", slot++);
      slot_value(c, c->body, in, i, l, conv[i]);
      oc_puts(c->body, ");\n");
    }
  }
  oc_puts(c->body, "    }\n");
  if (in->id != HG_IR_NONE && in->type.scalar != HG_IR_VOID) {
    /* OpenCL C: 0 when printed, -1 when the buffer is full */
    oc_puts(c->body, "    ");
    oc_res(c, c->body, in);
    oc_puts(c->body, " = hg_pr ? 0u : 0xffffffffu;\n");
  }
  oc_puts(c->body, "  }\n");
  free(conv);
}
