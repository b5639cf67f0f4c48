/* IR -> OpenCL C: the robust form of a program (HETGPU_ROBUST=1, docs/robust-access.md).
 *
 * Every kernel takes hidden parameters after the application's (and the printf buffer's):
 * `__global uint *hg_rb_fault`, then one `ulong hg_rb_size<i>` per __global or
 * __constant buffer argument i, in argument order: the bytes the launch gave it (a
 * sub-buffer's own size). Its prologue builds a private range table
 *   { G, C, base_0, size_0, base_1, size_1, ... }
 * of G ranges of __global memory (the __global buffer arguments) followed by C ranges of
 * __constant memory (the __constant buffer arguments, then every program-scope constant), and a
 * private word of the faults it saw; every non-kernel function takes the table and a pointer
 * to that word as two more parameters, so pointers passed down, kept in private variables or
 * chosen by phi or select are checked the same way wherever they are used. A work-item that saw
 * a fault stores its word into the fault word where it returns: a plain store (every writer
 * stores a non-zero word, so the word ends non-zero whoever wins), because an atomic anywhere in
 * the kernel kept PoCL from vectorising it across work-items (vadd: 2.8 times slower with an
 * atomic_or in each failing check, 2.2 with one at the return; 1.6 with this store).
 *
 * An access of n bytes at p through a __global (__constant) pointer runs only when [p, p+n)
 * lies inside its range: for a pointer that is a kernel's buffer argument (or a program-scope
 * constant) plus offsets, that argument's range alone, as the RISC-V backend's windows do (an
 * access past one buffer fails even where another buffer of the launch lies there); for any
 * other pointer (loaded, passed to a function, chosen by phi or select) one __global
 * (__constant) range of the table. Otherwise the access sets a bit of the fault word (1: a
 * read, 2: a write, both for atomics; the word holds one faulting work-item's bits), moves
 * nothing, and its result is zero.
 *
 * Checked: loads, stores, memcpy and memset (each side), atomics and cmpxchg, the atomic
 * builtins, vloadN/vstoreN and their half forms, and the out-pointers of fract, modf, sincos,
 * frexp, lgamma_r and remquo. Not checked: __local and __private memory, and the printf
 * buffer (hetGPU's own). */
#include <stdlib.h>

#include "lowering/opencl_c_internal.h"

#define TABLE "hg_rb_table"
#define FAULT "hg_rb_fault" /* the kernel's __global fault word */
#define SEEN "hg_rb_seen"   /* the faults this work-item saw: a private uint in kernels, a pointer to it in functions */

enum { FAULT_READ = 1, FAULT_WRITE = 2 };

static bool is_buffer_arg(const hg_ir_kernel_arg *a) {
  return a->kind == HG_KARG_GLOBAL_PTR || a->kind == HG_KARG_CONSTANT_PTR;
}

bool oc_robust_params(oc_ctx *c, oc_buf *out, bool first, bool as_kernel) {
  const hg_ir_function *f = c->f;
  if (!as_kernel) {
    oc_printf(out, "%s__private const ulong *" TABLE ", __private uint *" SEEN, first ? "" : ", ");
    return false;
  }
  oc_printf(out, "%s__global uint *" FAULT, first ? "" : ", ");
  for (uint32_t i = 0; f->args && i < f->num_params; i++)
    if (is_buffer_arg(&f->args[i])) oc_printf(out, ", ulong hg_rb_size%u", i);
  return false;
}

/* The address of the private fault word: in a kernel its own, in a function its parameter. */
static const char *seen_ptr(const oc_ctx *c) { return c->as_kernel ? "&" SEEN : SEEN; }

void oc_robust_call_args(oc_ctx *c, oc_buf *b, bool first) {
  oc_printf(b, "%s" TABLE ", %s", first ? "" : ", ", seen_ptr(c));
}

void oc_robust_return(oc_ctx *c) {
  if (c->as_kernel) oc_puts(c->body, "  if (" SEEN ") *" FAULT " = " SEEN ";\n");
}

/* The table's ranges of one address space: the kernel's buffer arguments of that space, then
 * (__constant) every program-scope constant (all are emitted: one may be reached only through
 * another's relocation); each value naming one gets its index + 1 in rb_base. */
static uint32_t emit_ranges(oc_ctx *c, oc_buf *out, unsigned as, uint32_t at) {
  const hg_ir_function *f = c->f;
  unsigned kind = as == HG_AS_GLOBAL ? HG_KARG_GLOBAL_PTR : HG_KARG_CONSTANT_PTR;
  for (uint32_t i = 0; f->args && i < f->num_params; i++) {
    if (f->args[i].kind != kind) continue;
    oc_puts(out, ", (ulong)");
    oc_param_name(c, out, i);
    oc_printf(out, ", hg_rb_size%u", i);
    for (uint32_t v = 0; v < f->num_values; v++)
      if (f->values[v].kind == HG_VAL_PARAM && f->values[v].index == i) c->rb_base[v] = at + 1;
    at++;
  }
  if (as != HG_AS_CONSTANT) return at;
  for (uint32_t g = 0; g < c->m->num_globals; g++) {
    const hg_ir_global *gl = &c->m->globals[g];
    if (gl->addrspace != HG_AS_CONSTANT) continue;
    oc_puts(out, ", (ulong)&");
    oc_global_name(c, out, g);
    oc_printf(out, ", %uul", gl->size ? gl->size : 1);
    for (uint32_t v = 0; v < f->num_values; v++)
      if (f->values[v].kind == HG_VAL_GLOBAL && f->values[v].index == g) c->rb_base[v] = at + 1;
    at++;
  }
  return at;
}

/* Pointers that are a buffer plus offsets point into that buffer's range alone. */
static void propagate_bases(oc_ctx *c) {
  const hg_ir_function *f = c->f;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &f->blocks[b].insts[i];
        if (in->op != HG_OP_PTRADD || in->id >= f->num_values || !in->num_operands ||
            in->operands[0] >= f->num_values || c->rb_base[in->id] || !c->rb_base[in->operands[0]])
          continue;
        c->rb_base[in->id] = c->rb_base[in->operands[0]];
        changed = true;
      }
  }
}

bool oc_robust_prologue(oc_ctx *c, oc_buf *out) {
  c->rb_base = calloc(c->f->num_values ? c->f->num_values : 1, sizeof *c->rb_base);
  if (!c->rb_base) return false;
  oc_buf ranges = {0};
  uint32_t g = emit_ranges(c, &ranges, HG_AS_GLOBAL, 0);
  uint32_t all = emit_ranges(c, &ranges, HG_AS_CONSTANT, g);
  oc_printf(out, "  ulong " TABLE "[%u] = {%uul, %uul%s};\n  uint " SEEN " = 0u;\n", 2 + 2 * all, g, all - g,
            ranges.p ? ranges.p : "");
  bool ok = !ranges.oom;
  oc_buf_free(&ranges);
  propagate_bases(c);
  return ok;
}

void oc_robust_epilogue(oc_ctx *c) {
  free(c->rb_base);
  c->rb_base = NULL;
}

void oc_robust_emit_helpers(oc_buf *out) {
  oc_puts(out,
          "static inline bool hg_rb_in(__private const ulong *t, uint i, ulong p, ulong n) {\n"
          "  ulong off = p - t[2u + 2u * i], size = t[3u + 2u * i];\n"
          "  return n == 0ul || (off <= size && n <= size - off);\n"
          "}\n"
          "static inline bool hg_rb_fail(__private uint *seen, uint code) {\n"
          "  *seen |= code;\n"
          "  return false;\n"
          "}\n"
          "static inline bool hg_rb_check(__private const ulong *t, __private uint *seen, uint from, uint count,\n"
          "                               ulong p, ulong n, uint code) {\n"
          "  for (uint i = from; i < from + count; i++)\n"
          "    if (hg_rb_in(t, i, p, n)) return true;\n"
          "  return hg_rb_fail(seen, code);\n"
          "}\n");
}

/* The accesses of one instruction (at most two: memcpy's sides). */
static unsigned accesses_of(oc_ctx *c, const hg_ir_inst *in, oc_access *a) {
  const uint32_t none = HG_IR_NONE;
  switch (in->op) {
  case HG_OP_LOAD:
    a[0] = (oc_access){.ptr = in->operands[0], .index = none, .bytes = oc_mem_bytes(in->type)};
    return 1;
  case HG_OP_STORE:
    a[0] = (oc_access){.ptr = in->operands[0], .index = none, .bytes = oc_mem_bytes(oc_vtype(c, in->operands[1])),
                       .writes = true};
    return 1;
  case HG_OP_ATOMIC_RMW:
  case HG_OP_CMPXCHG: {
    hg_ir_type t = in->type.scalar == HG_IR_VOID ? oc_vtype(c, in->operands[1]) : in->type;
    a[0] = (oc_access){.ptr = in->operands[0], .index = none, .bytes = oc_mem_bytes(t), .writes = true};
    return 1;
  }
  case HG_OP_MEMCPY: /* bytes 0: the length is operand 2 */
    a[0] = (oc_access){.ptr = in->operands[0], .index = none, .writes = true};
    a[1] = (oc_access){.ptr = in->operands[1], .index = none};
    return 2;
  case HG_OP_MEMSET:
    a[0] = (oc_access){.ptr = in->operands[0], .index = none, .writes = true};
    return 1;
  case HG_OP_CALL_BUILTIN: return oc_builtin_access(c, in, &a[0]) ? 1 : 0;
  default: return 0;
  }
}

/* Whether the access needs a check: through a __global or __constant pointer, and not one of
 * a fixed size at the start of a program-scope constant that holds it. */
static bool needs_check(oc_ctx *c, const hg_ir_inst *in, const oc_access *a) {
  const hg_ir_function *f = c->f;
  if (a->ptr >= f->num_values) return false;
  hg_ir_type t = f->values[a->ptr].type;
  if (t.scalar != HG_IR_PTR || (t.addrspace != HG_AS_GLOBAL && t.addrspace != HG_AS_CONSTANT)) return false;
  const hg_ir_value *v = &f->values[a->ptr];
  bool fixed = a->index == HG_IR_NONE && in->op != HG_OP_MEMCPY && in->op != HG_OP_MEMSET;
  if (fixed && v->kind == HG_VAL_GLOBAL && v->index < c->m->num_globals && a->bytes <= c->m->globals[v->index].size)
    return false;
  return true;
}

static void emit_address(oc_ctx *c, oc_buf *b, const oc_access *a) {
  oc_puts(b, "(ulong)");
  oc_value(c, b, a->ptr);
  if (a->index == HG_IR_NONE) return;
  oc_puts(b, " + (ulong)");
  oc_value(c, b, a->index);
  oc_printf(b, " * %uul", a->stride);
}

static void emit_check(oc_ctx *c, oc_buf *b, const hg_ir_inst *in, const oc_access *a) {
  oc_buf p = {0}, n = {0};
  emit_address(c, &p, a);
  if (in->op == HG_OP_MEMCPY || in->op == HG_OP_MEMSET) {
    oc_puts(&n, "(ulong)");
    oc_value(c, &n, in->operands[2]);
  } else {
    oc_printf(&n, "%uul", a->bytes);
  }
  bool constant = c->f->values[a->ptr].type.addrspace == HG_AS_CONSTANT;
  uint32_t base = c->rb_base ? c->rb_base[a->ptr] : 0;
  unsigned code = in->op == HG_OP_ATOMIC_RMW || in->op == HG_OP_CMPXCHG ? FAULT_READ | FAULT_WRITE
                  : a->writes                                           ? FAULT_WRITE
                                                                        : FAULT_READ;
  if (base)
    oc_printf(b, "(hg_rb_in(" TABLE ", %uu, %s, %s) || hg_rb_fail(%s, %uu))", base - 1, p.p, n.p, seen_ptr(c), code);
  else
    oc_printf(b, "hg_rb_check(" TABLE ", %s, %s, %s, %s, %s, %uu)", seen_ptr(c),
              constant ? "(uint)" TABLE "[0]" : "0u", constant ? "(uint)" TABLE "[1]" : "(uint)" TABLE "[0]", p.p, n.p,
              code);
  if (p.oom || n.oom) b->oom = true;
  oc_buf_free(&p);
  oc_buf_free(&n);
}

void oc_robust_emit_inst(oc_ctx *c, uint32_t block, const hg_ir_inst *in) {
  oc_access a[2];
  unsigned n = accesses_of(c, in, a), checked = 0;
  for (unsigned i = 0; i < n; i++) {
    if (!needs_check(c, in, &a[i])) continue;
    oc_puts(c->body, checked++ ? " && " : "  if (");
    emit_check(c, c->body, in, &a[i]);
  }
  if (!checked) {
    oc_emit_inst(c, block, in);
    return;
  }
  oc_puts(c->body, ") {\n");
  oc_emit_inst(c, block, in);
  oc_puts(c->body, "  }");
  if (in->id != HG_IR_NONE && in->type.scalar != HG_IR_VOID) {
    oc_puts(c->body, " else {\n    ");
    oc_res(c, c->body, in);
    oc_puts(c->body, " = ");
    oc_zero(c, c->body, in->type);
    oc_puts(c->body, ";\n  }");
  }
  oc_puts(c->body, "\n");
}
