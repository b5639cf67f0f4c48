/* The IR -> OpenCL C 1.2 back end: module structure (preamble, program-scope constants,
 * functions, kernels) and the build options. The representation of values is described in
 * opencl_c_internal.h; instructions are in opencl_c_inst.c, memory in opencl_c_mem.c,
 * builtins/atomics in opencl_c_builtin.c, printf (records in a buffer, docs/printf.md) in
 * opencl_c_printf.c.
 *
 * Output shape:
 *   pragmas (cl_khr_fp64, cl_khr_int64_*_atomics) when used
 *   may_alias typedefs for the typed memory accesses, half conversion helpers
 *   program-scope __constant globals as aligned uchar arrays (structs when they hold pointers)
 *   prototypes, then non-kernel functions (hg_f<index>_<name>) with the static __local
 *   variables they use passed as extra __local pointer parameters, and the printf buffer last
 *   when they print
 *   kernels under their own names with their argument names, static __local variables
 *   declared in the body at the top. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_internal.h"
#include "lowering/opencl_c_stop.h"

#define TB 64

static const unsigned k_lane_counts[OC_LANE_KINDS] = {1, 2, 3, 4, 8, 16};

/* ---- call graph and static __local use ---- */
static bool analyse(oc_ctx *c, bool *reachable) {
  const hg_ir_module *m = c->m;
  size_t ng = m->num_globals, nf = m->num_functions;
  c->local_uses = calloc(nf * (ng ? ng : 1), sizeof *c->local_uses);
  c->called = calloc(nf ? nf : 1, sizeof *c->called);
  c->uses_printf = calloc(nf ? nf : 1, sizeof *c->uses_printf);
  c->string_ids = calloc(ng ? ng : 1, sizeof *c->string_ids);
  if (!c->local_uses || !c->called || !c->uses_printf || !c->string_ids) return false;
  for (size_t fi = 0; fi < nf; fi++) {
    const hg_ir_function *f = &m->functions[fi];
    for (uint32_t v = 0; v < f->num_values; v++)
      if (f->values[v].kind == HG_VAL_GLOBAL && f->values[v].index < ng &&
          m->globals[f->values[v].index].addrspace == HG_AS_LOCAL)
        c->local_uses[fi * ng + f->values[v].index] = 1;
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &f->blocks[b].insts[i];
        if (in->op == HG_OP_CALL_BUILTIN && in->num_imm && in->imm[0] < m->num_strings &&
            hg_builtin_family_of(m->strings[in->imm[0]]) == HG_IR_BF_PRINTF)
          c->uses_printf[fi] = true;
      }
  }
  for (size_t fi = 0; fi < nf; fi++) reachable[fi] = m->functions[fi].is_kernel;
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t fi = 0; fi < nf; fi++) {
      const hg_ir_function *f = &m->functions[fi];
      for (uint32_t b = 0; b < f->num_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
          const hg_ir_inst *in = &f->blocks[b].insts[i];
          if (in->op != HG_OP_CALL || !in->num_imm || in->imm[0] >= nf) continue;
          uint32_t callee = in->imm[0];
          if (!c->called[callee]) { c->called[callee] = true; changed = true; }
          if (reachable[fi] && !reachable[callee]) { reachable[callee] = true; changed = true; }
          if (c->uses_printf[callee] && !c->uses_printf[fi]) { c->uses_printf[fi] = true; changed = true; }
          for (size_t g = 0; g < ng; g++)
            if (c->local_uses[callee * ng + g] && !c->local_uses[fi * ng + g]) {
              c->local_uses[fi * ng + g] = 1;
              changed = true;
            }
        }
    }
  }
  return true;
}

/* ---- functions ---- */
static void emit_params(oc_ctx *c, oc_buf *out, bool as_kernel) {
  const hg_ir_function *f = c->f;
  char tb[TB];
  bool first = true;
  for (uint32_t i = 0; i < f->num_params; i++) {
    if (!first) oc_puts(out, ", ");
    first = false;
    hg_ir_type t = f->param_types[i];
    if (as_kernel && f->args) {
      const hg_ir_kernel_arg *a = &f->args[i];
      if (a->kind == HG_KARG_VALUE && t.scalar == HG_IR_PTR) {
        oc_printf(out, "hg_byval_%u_%u ", c->fidx, i);
      } else if (a->kind == HG_KARG_SAMPLER || a->kind == HG_KARG_IMAGE) {
        oc_printf(out, "%s ", oc_image_type(t, tb, sizeof tb)); /* passed through as they are */
      } else {
        if (a->kind == HG_KARG_GLOBAL_PTR && t.addrspace != HG_AS_GLOBAL) oc_fail(c, "argument %u kind mismatch", i);
        if (a->kind == HG_KARG_CONSTANT_PTR && t.addrspace != HG_AS_CONSTANT) oc_fail(c, "argument %u kind mismatch", i);
        if (a->kind == HG_KARG_LOCAL_PTR && t.addrspace != HG_AS_LOCAL) oc_fail(c, "argument %u kind mismatch", i);
        if (a->kind == HG_KARG_LOCAL_PTR)
          oc_printf(out, "__local %s *", oc_local_arg_pointee(c->local_access_align, a->type_name));
        else oc_printf(out, "%s%s", oc_type(c, t, tb, sizeof tb), t.scalar == HG_IR_PTR ? "" : " ");
      }
    } else {
      oc_printf(out, "%s%s", oc_type(c, t, tb, sizeof tb), t.scalar == HG_IR_PTR ? "" : " ");
    }
    oc_param_name(c, out, i);
  }
  if (!as_kernel) {
    for (uint32_t g = 0; g < c->m->num_globals; g++) {
      if (!c->local_uses[(size_t)c->fidx * c->m->num_globals + g]) continue;
      if (!first) oc_puts(out, ", ");
      first = false;
      oc_puts(out, "__local uchar *");
      oc_global_name(c, out, g);
    }
  }
  if (c->uses_printf[c->fidx]) { /* last, after the application's arguments */
    oc_printf(out, "%s__global uint *%s", first ? "" : ", ", OC_PRINTF_PARAM);
    first = false;
  }
  if (c->robust) first = oc_robust_params(c, out, first, as_kernel);
  if (c->stop) first = oc_stop_params(c, out, first);
  if (c->slice_name) {
    oc_slice_params(out, first);
    first = false;
  }
  if (first) oc_puts(out, "void");
}

static void emit_signature(oc_ctx *c, oc_buf *out, bool as_kernel) {
  const hg_ir_function *f = c->f;
  char tb[TB];
  if (as_kernel) {
    oc_puts(out, "__kernel ");
    /* no reqd_work_group_size: the platform enforces it, in the launch's own dimensions (a
     * 1-D launch of a (8,4,1) kernel runs groups of (8,1,1), CTS null_required_work_group_size),
     * where a vendor given the attribute refuses such a launch or folds get_local_size(1) to 4 */
    const uint32_t *h = f->work_group_size_hint;
    if (h[0] || h[1] || h[2])
      oc_printf(out, "__attribute__((work_group_size_hint(%u, %u, %u))) ", h[0] ? h[0] : 1, h[1] ? h[1] : 1, h[2] ? h[2] : 1);
    if (f->vec_type_hint && oc_valid_ident(f->vec_type_hint))
      oc_printf(out, "__attribute__((vec_type_hint(%s))) ", f->vec_type_hint);
    oc_puts(out, "void ");
  } else {
    oc_printf(out, "%s%s", oc_type(c, f->ret_type, tb, sizeof tb), f->ret_type.scalar == HG_IR_PTR ? "" : " ");
  }
  if (c->stop) oc_stop_name(c, out);
  else if (c->slice_name) oc_puts(out, c->slice_name);
  else oc_func_name(c, out, c->fidx, as_kernel);
  oc_puts(out, "(");
  emit_params(c, out, as_kernel);
  oc_puts(out, ")");
}

void oc_emit_function(oc_ctx *c, oc_buf *out, uint32_t fidx, bool as_kernel) {
  const hg_ir_module *m = c->m;
  const hg_ir_function *f = &m->functions[fidx];
  char tb[TB];
  c->f = f;
  c->fidx = fidx;
  c->as_kernel = as_kernel;
  c->tmp_counter = 0;
  if (!f->num_blocks) {
    oc_fail(c, "function has no body (unresolved external)");
    return;
  }
  hg_ir_contraction_free(&c->contr);
  if (!hg_ir_find_contractions(f, &c->contr)) {
    oc_fail(c, "out of memory");
    return;
  }
  if (as_kernel && f->args && !c->stop && !c->slice_name) /* by-value structs: a uchar array of the argument's size and alignment */
    for (uint32_t i = 0; i < f->num_params; i++)
      if (f->args[i].kind == HG_KARG_VALUE && f->param_types[i].scalar == HG_IR_PTR)
        oc_printf(out, "typedef struct __attribute__((aligned(%u))) { uchar b[%u]; } hg_byval_%u_%u;\n",
                  f->args[i].align ? f->args[i].align : 1, f->args[i].size ? f->args[i].size : 1, fidx, i);
  emit_signature(c, out, as_kernel);
  oc_puts(out, " {\n");
  if (as_kernel)
    for (uint32_t g = 0; g < m->num_globals; g++) {
      if (!c->local_uses[(size_t)fidx * m->num_globals + g]) continue;
      const hg_ir_global *gl = &m->globals[g];
      oc_puts(out, "  __local uchar ");
      oc_global_name(c, out, g);
      oc_printf(out, "[%u] __attribute__((aligned(%u)));\n", gl->size ? gl->size : 1, gl->align ? gl->align : 1);
    }
  for (uint32_t s = 0; s < f->num_slots; s++) {
    uint32_t size = f->slots[s].size ? f->slots[s].size : 1, align = f->slots[s].align ? f->slots[s].align : 1;
    if (align <= 64) {
      oc_printf(out, "  uchar hg_s%u[%u] __attribute__((aligned(%u)));\n", s, size, align);
      continue;
    }
    /* PoCL 3.1 put a kernel's private array declared aligned(128) at a 64-byte boundary: one
     * aligned above 64 is found at its alignment inside a larger array */
    oc_printf(out, "  uchar hg_s%u_bytes[%u] __attribute__((aligned(64)));\n", s, size + align - 64);
    oc_printf(out, "  __private uchar *hg_s%u = (__private uchar *)(((ulong)hg_s%u_bytes + %uu) & ~(ulong)%uu);\n", s, s,
              align - 1, align - 1);
  }
  if (c->robust && as_kernel && !oc_robust_prologue(c, out)) {
    oc_fail(c, "out of memory");
    return;
  }
  /* every result is a variable, zero-initialised (undefined values read as zero) */
  bool *targeted = calloc(f->num_blocks, sizeof *targeted);
  if (!targeted) {
    oc_fail(c, "out of memory");
    oc_robust_epilogue(c);
    return;
  }
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    const hg_ir_block *blk = &f->blocks[b];
    for (uint32_t i = 0; i < blk->num_insts; i++) {
      const hg_ir_inst *in = &blk->insts[i];
      if (in->op == HG_OP_BR || in->op == HG_OP_CONDBR || in->op == HG_OP_SWITCH)
        for (uint32_t k = 0; k < in->num_imm; k++)
          if (in->imm[k] < f->num_blocks) targeted[in->imm[k]] = true;
      if (in->id == HG_IR_NONE || in->type.scalar == HG_IR_VOID) continue;
      if (in->type.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
      if (in->id < f->num_values && c->contr.absorbed[in->id]) continue; /* computed inside its user */
      oc_printf(out, "  %s%shg_r%u = ", oc_type(c, in->type, tb, sizeof tb), in->type.scalar == HG_IR_PTR ? "" : " ", in->id);
      oc_zero(c, out, in->type);
      oc_puts(out, ";\n");
    }
  }
  oc_buf body = {0};
  c->body = &body;
  if (c->stop) oc_stop_prologue(c, &body);
  for (uint32_t b = 0; b < f->num_blocks && !c->failed; b++) {
    const hg_ir_block *blk = &f->blocks[b];
    if (targeted[b]) oc_printf(&body, "hg_L%u: ;\n", b);
    if (!blk->num_insts) {
      oc_fail(c, "block %u is empty", b);
      break;
    }
    for (uint32_t i = 0; i + 1 < blk->num_insts; i++) {
      if (c->stop && oc_stop_inst(c, b, i)) continue;
      if (c->robust) oc_robust_emit_inst(c, b, &blk->insts[i]);
      else oc_emit_inst(c, b, &blk->insts[i]);
    }
    if (c->stop) oc_stop_inst(c, b, blk->num_insts - 1);
    if (c->robust && blk->insts[blk->num_insts - 1].op == HG_OP_RET) oc_robust_return(c);
    if (!c->stop || !oc_stop_terminator(c, &blk->insts[blk->num_insts - 1]))
      oc_emit_terminator(c, b, &blk->insts[blk->num_insts - 1]);
  }
  if (c->stop) oc_stop_epilogue(c, &body);
  oc_robust_epilogue(c);
  free(targeted);
  if (body.p) oc_puts(out, body.p);
  if (body.oom) out->oom = true;
  oc_buf_free(&body);
  c->body = NULL;
  oc_puts(out, "}\n\n");
}

/* ---- program-scope constants ---- */
static void emit_bytes(oc_buf *out, const uint8_t *p, uint32_t n) {
  oc_puts(out, "{");
  for (uint32_t i = 0; i < n; i++) oc_printf(out, "%s%u", i ? (i % 24 ? ", " : ",\n  ") : "", p ? p[i] : 0);
  oc_puts(out, "}");
}

static int cmp_reloc(const void *a, const void *b) {
  const struct hg_ir_reloc *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void emit_global(oc_ctx *c, oc_buf *out, uint32_t g) {
  const hg_ir_global *gl = &c->m->globals[g];
  uint32_t size = gl->size ? gl->size : 1, align = gl->align ? gl->align : 1;
  const uint8_t *init = gl->has_init ? gl->init : NULL;
  if (!gl->num_relocs) {
    oc_puts(out, "__constant uchar ");
    oc_global_name(c, out, g);
    oc_printf(out, "[%u] __attribute__((aligned(%u))) = ", size, align);
    if (init) emit_bytes(out, init, gl->size);
    else oc_puts(out, "{0}");
    oc_puts(out, ";\n");
    return;
  }
  struct hg_ir_reloc *r = malloc(gl->num_relocs * sizeof *r);
  if (!r) { oc_fail(c, "out of memory"); return; }
  memcpy(r, gl->relocs, gl->num_relocs * sizeof *r);
  qsort(r, gl->num_relocs, sizeof *r, cmp_reloc);
  oc_buf fields = {0}, vals = {0};
  uint32_t at = 0;
  for (uint32_t i = 0; i < gl->num_relocs && !c->failed; i++) {
    if (r[i].offset % 8 || r[i].offset < at || r[i].offset + 8 > gl->size || r[i].target >= c->m->num_globals ||
        c->m->globals[r[i].target].addrspace != HG_AS_CONSTANT) {
      oc_fail(c, "global %u: relocation at %u cannot be expressed", g, r[i].offset);
      break;
    }
    if (r[i].offset > at) {
      oc_printf(&fields, " uchar b%u[%u];", i, r[i].offset - at);
      emit_bytes(&vals, init ? init + at : NULL, r[i].offset - at);
      oc_puts(&vals, ", ");
    }
    oc_printf(&fields, " __constant uchar *p%u;", i);
    oc_puts(&vals, "(__constant uchar *)&");
    oc_global_name(c, &vals, r[i].target);
    oc_printf(&vals, " %c %lld, ", r[i].addend < 0 ? '-' : '+',
              (long long)(r[i].addend < 0 ? -(unsigned long long)r[i].addend : (unsigned long long)r[i].addend));
    at = r[i].offset + 8;
  }
  if (at < gl->size) {
    oc_printf(&fields, " uchar bend[%u];", gl->size - at);
    emit_bytes(&vals, init ? init + at : NULL, gl->size - at);
  }
  oc_printf(out, "__constant struct {%s } ", fields.p ? fields.p : "");
  oc_global_name(c, out, g);
  oc_printf(out, " __attribute__((aligned(%u))) = {%s};\n", align < 8 ? 8 : align, vals.p ? vals.p : "");
  oc_buf_free(&fields);
  oc_buf_free(&vals);
  free(r);
}

/* Emits constant globals so that relocation targets come first. */
static void emit_globals(oc_ctx *c, oc_buf *out, const bool *used) {
  const hg_ir_module *m = c->m;
  uint8_t *state = calloc(m->num_globals ? m->num_globals : 1, 1); /* 0 new, 1 visiting, 2 done */
  uint32_t *stack = calloc(m->num_globals ? m->num_globals * 2 : 1, sizeof *stack);
  if (!state || !stack) { oc_fail(c, "out of memory"); free(state); free(stack); return; }
  for (uint32_t g0 = 0; g0 < m->num_globals && !c->failed; g0++) {
    const hg_ir_global *gl0 = &m->globals[g0];
    if (gl0->addrspace == HG_AS_LOCAL || state[g0]) continue;
    if (gl0->addrspace != HG_AS_CONSTANT) {
      if (used[g0]) oc_fail(c, "program-scope __global variable '%s' needs OpenCL C 2.0", gl0->name ? gl0->name : "?");
      continue;
    }
    /* iterative DFS over relocation targets */
    uint32_t sp = 0;
    stack[sp++] = g0;
    state[g0] = 1;
    while (sp && !c->failed) {
      uint32_t g = stack[sp - 1];
      bool pushed = false;
      for (uint32_t i = 0; i < m->globals[g].num_relocs; i++) {
        uint32_t t = m->globals[g].relocs[i].target;
        if (t >= m->num_globals) continue;
        if (state[t] == 1 && t != g) { oc_fail(c, "cyclic relocations between constants"); break; }
        if (state[t] == 0 && m->globals[t].addrspace == HG_AS_CONSTANT) {
          state[t] = 1;
          stack[sp++] = t;
          pushed = true;
          break;
        }
      }
      if (pushed) continue;
      emit_global(c, out, g);
      state[g] = 2;
      sp--;
    }
  }
  free(state);
  free(stack);
}

/* ---- preamble ---- */
static void emit_preamble(oc_ctx *c, oc_buf *out) {
  oc_puts(out, "/* Lowered from hetGPU IR by the OpenCL C back end. */\n");
  /* the IR's fmul + fadd are two roundings: the vendor compiler must not fuse them, except the
   * contractable pairs, each emitted as one expression under a block-scoped FP_CONTRACT ON */
  oc_puts(out, "#pragma OPENCL FP_CONTRACT OFF\n");
  if (c->need & OC_NEED_FP64) oc_puts(out, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  if (c->need & OC_NEED_I64_ATOM) oc_puts(out, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
  if (c->need & OC_NEED_I64_ATOM_EXT) oc_puts(out, "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n");
  for (unsigned s = 0; s < 16; s++)
    for (unsigned k = 0; k < OC_LANE_KINDS; k++) {
      if (!c->may_alias_used[s][k]) continue;
      const char *n = oc_uname((hg_ir_scalar)s);
      if (k) oc_printf(out, "typedef %s%u __attribute__((may_alias)) hg_ma_%s%u;\n", n, k_lane_counts[k], n, k_lane_counts[k]);
      else oc_printf(out, "typedef %s __attribute__((may_alias)) hg_ma_%s;\n", n, n);
    }
  for (unsigned k = 0; k < OC_LANE_KINDS; k++) {
    unsigned n = k_lane_counts[k];
    char sfx[12] = "";
    if (n > 1) snprintf(sfx, sizeof sfx, "%u", n);
    if (c->h2f_mask & (1u << k))
      oc_printf(out, "static inline float%s hg_h2f%s(ushort%s h) { return vload_half%s(0, (const __private half *)&h); }\n",
                sfx, sfx, sfx, sfx);
    if (c->f2h_mask & (1u << k))
      oc_printf(out,
                "static inline ushort%s hg_f2h%s(float%s f) { ushort%s h = (ushort%s)(0); vstore_half%s_rte(f, 0, (__private half *)&h); return h; }\n",
                sfx, sfx, sfx, sfx, sfx, sfx);
    if (c->d2h_mask & (1u << k))
      oc_printf(out,
                "static inline ushort%s hg_d2h%s(double%s f) { ushort%s h = (ushort%s)(0); vstore_half%s_rte(f, 0, (__private half *)&h); return h; }\n",
                sfx, sfx, sfx, sfx, sfx, sfx);
  }
  oc_emit_work_item_helpers(c, out);
  oc_emit_fix_helpers(c, out);
  oc_emit_printf_helpers(c, out);
  if (c->robust) oc_robust_emit_helpers(out);
  oc_puts(out, "\n");
}

/* The plain kernels, and their stoppable and resume forms when `stop` is not NULL (the forms
 * alone when `forms_only`); or (robust) the robust kernels alone. */
static char *lower(const hg_ir_module *m, hg_printf_table *printf_table, hg_oc_stop_table *stop, bool forms_only,
                   bool robust, char *err, size_t err_size) {
  if (err && err_size) err[0] = 0;
  hg_printf_table scratch = {0};
  if (!printf_table) printf_table = &scratch;
  memset(printf_table, 0, sizeof *printf_table);
  if (!m) {
    if (err && err_size) snprintf(err, err_size, "no module");
    return NULL;
  }
  oc_ctx c = {0};
  c.printf = printf_table;
  c.m = m;
  c.err = err;
  c.err_size = err_size;
  c.relaxed_math = oc_relaxed_math(m);
  c.robust = robust;
  if (m->uses_fp64) c.need |= OC_NEED_FP64;
  size_t nf = m->num_functions;
  bool *reachable = calloc(nf ? nf : 1, sizeof *reachable);
  bool *used_globals = calloc(m->num_globals ? m->num_globals : 1, sizeof *used_globals);
  oc_buf code = {0}, protos = {0}, globals = {0}, out = {0}, discard = {0};
  /* forms only: the plain functions and kernels are still lowered, for what they set in c (the
   * printf table's string numbers, the extensions the preamble enables), but not kept */
  oc_buf *plain_code = forms_only ? &discard : &code, *plain_protos = forms_only ? &discard : &protos;
  if (!reachable || !used_globals || !analyse(&c, reachable)) {
    oc_fail(&c, "out of memory");
    goto done;
  }
  c.local_access_align = oc_local_access_align(m, reachable);
  for (uint32_t fi = 0; fi < nf; fi++) {
    const hg_ir_function *f = &m->functions[fi];
    if (!reachable[fi]) continue;
    for (uint32_t v = 0; v < f->num_values; v++)
      if (f->values[v].kind == HG_VAL_GLOBAL && f->values[v].index < m->num_globals) used_globals[f->values[v].index] = true;
  }
  /* plain functions first (prototypes make the order free), then kernels */
  for (uint32_t fi = 0; fi < nf && !c.failed; fi++) {
    const hg_ir_function *f = &m->functions[fi];
    if (!reachable[fi] || (f->is_kernel && !c.called[fi])) continue;
    c.f = f;
    c.fidx = fi;
    c.as_kernel = false;
    emit_signature(&c, plain_protos, false);
    oc_puts(plain_protos, ";\n");
    oc_emit_function(&c, plain_code, fi, false);
  }
  for (uint32_t fi = 0; fi < nf && !c.failed; fi++) {
    if (!m->functions[fi].is_kernel) continue;
    if (c.uses_printf[fi] && !oc_printf_add_kernel(&c, m->functions[fi].name)) oc_fail(&c, "out of memory");
    oc_emit_function(&c, plain_code, fi, true);
    if (stop && !c.failed) oc_stop_emit_forms(&c, &code, fi, stop);
  }
  c.f = NULL;
  if (!c.failed) oc_emit_sampler_constants(&c, &globals);
  if (!c.failed) emit_globals(&c, &globals, used_globals);
  if (!c.failed) {
    emit_preamble(&c, &out);
    if (stop && stop->num_kernels) oc_stop_emit_helpers(&out);
    if (globals.p) { oc_puts(&out, globals.p); oc_puts(&out, "\n"); }
    if (protos.p) { oc_puts(&out, protos.p); oc_puts(&out, "\n"); }
    if (code.p) oc_puts(&out, code.p);
    if (out.oom || code.oom || protos.oom || globals.oom) oc_fail(&c, "out of memory");
  }
done:
  free(reachable);
  free(used_globals);
  free(c.local_uses);
  free(c.called);
  free(c.uses_printf);
  free(c.string_ids);
  hg_ir_contraction_free(&c.contr);
  oc_buf_free(&code);
  oc_buf_free(&protos);
  oc_buf_free(&globals);
  oc_buf_free(&discard);
  if (c.failed || printf_table == &scratch) hg_printf_table_free(printf_table);
  if (c.failed) {
    oc_buf_free(&out);
    if (stop) hg_oc_stop_table_free(stop);
    return NULL;
  }
  return out.p;
}

char *hg_lower_opencl_c(const hg_ir_module *m, hg_printf_table *printf_table, char *err, size_t err_size) {
  return lower(m, printf_table, NULL, false, false, err, err_size);
}

char *hg_lower_opencl_c_robust(const hg_ir_module *m, hg_printf_table *printf_table, char *err, size_t err_size) {
  return lower(m, printf_table, NULL, false, true, err, err_size);
}

char *hg_lower_opencl_c_stoppable(const hg_ir_module *m, const hg_oc_forms_target *target,
                                  hg_printf_table *printf_table, hg_oc_stop_table *stop, char *err, size_t err_size) {
  memset(stop, 0, sizeof *stop);
  stop->target = *target;
  return lower(m, printf_table, stop, false, false, err, err_size);
}

char *hg_lower_opencl_c_forms(const hg_ir_module *m, const hg_oc_forms_target *target,
                              hg_printf_table *printf_table, hg_oc_stop_table *stop, char *err, size_t err_size) {
  memset(stop, 0, sizeof *stop);
  stop->target = *target;
  return lower(m, printf_table, stop, true, false, err, err_size);
}

/* ---- build options ---- */
static const char *const k_math_options[] = {
    "-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
};
#define NUM_MATH_OPTIONS (sizeof k_math_options / sizeof k_math_options[0])
/* Not passed on: -cl-denorms-are-zero only allows flushing, and PoCL 3.1 given it rounds
 * convert_float_rtp/_rtn of a double in float's subnormal range to 0x1p-149 (neither the
 * value nor a zero: CTS conversions). Keeping subnormals is always right and gives the same
 * results as the RISC-V backend, which keeps them too. */
#define VENDOR_DROPPED_OPTIONS (1u << 5)

/* One interned string per combination of math options (at most 2^7), never freed. */
static pthread_mutex_t g_opts_lock = PTHREAD_MUTEX_INITIALIZER;
static char *g_opts[1u << NUM_MATH_OPTIONS];

/* The math options of the module's build options, one bit per k_math_options entry. */
static unsigned math_options(const hg_ir_module *m) {
  unsigned mask = 0;
  for (unsigned i = 0; i < NUM_MATH_OPTIONS; i++)
    if (hg_ir_built_with(m, k_math_options[i])) mask |= 1u << i;
  return mask;
}

/* Both options allow the relaxed limits of OpenCL 3.0's relaxed-math table. */
bool oc_relaxed_math(const hg_ir_module *m) { return (math_options(m) & ((1u << 0) | (1u << 3))) != 0; }

const char *hg_lower_opencl_c_options(const hg_ir_module *m) {
  unsigned mask = math_options(m) & ~VENDOR_DROPPED_OPTIONS;
  pthread_mutex_lock(&g_opts_lock);
  if (!g_opts[mask]) {
    char buf[512] = "-cl-std=CL1.2";
    for (unsigned i = 0; i < NUM_MATH_OPTIONS; i++)
      if (mask & (1u << i)) {
        strcat(buf, " ");
        strcat(buf, k_math_options[i]);
      }
    g_opts[mask] = strdup(buf);
  }
  const char *r = g_opts[mask] ? g_opts[mask] : "-cl-std=CL1.2";
  pthread_mutex_unlock(&g_opts_lock);
  return r;
}
