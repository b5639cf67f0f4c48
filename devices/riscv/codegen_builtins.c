/* OpenCL C builtins on RISC-V: what the shared inline lowering (lowering/llvm_builtins.h)
 * leaves to the target. Work-item functions read the work-group and work-item records; math
 * builtins call the device runtime (devices/riscv/runtime) by convention `hg_rt_<name>f`
 * (float), `hg_rt_<name>` (double), one scalar function per builtin, vectors lane by lane; half
 * arguments go through float; printf writes records the host formats; half storage rounds
 * through the runtime. An unsupported builtin fails the build with its name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/codegen_internal.h"
#include "lowering/llvm_builtins.h"

typedef hg_llvm_builtin_call bctx;

static LLVMValueRef ci32(hg_rv_cg *g, uint64_t v) { return LLVMConstInt(g->e.i32, v, 0); }
static LLVMValueRef ci64(hg_rv_cg *g, uint64_t v) { return LLVMConstInt(g->e.i64, v, 0); }
#define is_float hg_llvm_is_float
#define arg_unsigned hg_llvm_arg_unsigned
#define lane(g, v, l) hg_llvm_lane(&(g)->e, v, l)

/* ---- work-item functions -------------------------------------------------------------------- */

/* word `base + dim` of a record, or `dflt` when dim >= 3 */
static LLVMValueRef dim_word(hg_rv_cg *g, LLVMValueRef rec, unsigned base, LLVMValueRef dim, uint64_t dflt) {
  LLVMValueRef d = LLVMBuildZExt(g->e.B, dim, g->e.i64, "");
  LLVMValueRef ok = LLVMBuildICmp(g->e.B, LLVMIntULT, d, ci64(g, 3), "");
  LLVMValueRef idx = LLVMBuildAdd(g->e.B, LLVMBuildSelect(g->e.B, ok, d, ci64(g, 0), ""), ci64(g, base), "");
  LLVMValueRef v = LLVMBuildLoad2(g->e.B, g->e.i64, LLVMBuildGEP2(g->e.B, g->e.i64, rec, &idx, 1, ""), "");
  return LLVMBuildSelect(g->e.B, ok, v, ci64(g, dflt), "");
}

static LLVMValueRef word_at(hg_rv_cg *g, LLVMValueRef rec, unsigned w) {
  LLVMValueRef idx = ci64(g, w);
  return LLVMBuildLoad2(g->e.B, g->e.i64, LLVMBuildGEP2(g->e.B, g->e.i64, rec, &idx, 1, ""), "");
}

static LLVMValueRef work_item(bctx *x) {
  hg_rv_cg *g = x->e->owner;
  const char *n = x->name;
  LLVMValueRef d = x->n ? x->a[0] : ci32(g, 0);
  LLVMValueRef r = NULL;
  if (!strcmp(n, "get_work_dim"))
    r = word_at(g, g->wg, HG_RV_WG_WORK_DIM);
  else if (!strcmp(n, "get_local_id"))
    r = dim_word(g, g->wi, 0, d, 0);
  else if (!strcmp(n, "get_group_id"))
    r = dim_word(g, g->wg, HG_RV_WG_GROUP_ID, d, 0);
  else if (!strcmp(n, "get_local_size"))
    r = dim_word(g, g->wg, HG_RV_WG_LOCAL, d, 1);
  else if (!strcmp(n, "get_enqueued_local_size"))
    r = dim_word(g, g->wg, HG_RV_WG_ENQ_LOCAL, d, 1);
  else if (!strcmp(n, "get_global_size"))
    r = dim_word(g, g->wg, HG_RV_WG_GLOBAL, d, 1);
  else if (!strcmp(n, "get_num_groups"))
    r = dim_word(g, g->wg, HG_RV_WG_GROUPS, d, 1);
  else if (!strcmp(n, "get_global_offset"))
    r = dim_word(g, g->wg, HG_RV_WG_OFFSET, d, 0);
  else if (!strcmp(n, "get_global_id")) {
    LLVMValueRef grp = dim_word(g, g->wg, HG_RV_WG_GROUP_ID, d, 0);
    LLVMValueRef enq = dim_word(g, g->wg, HG_RV_WG_ENQ_LOCAL, d, 0);
    LLVMValueRef lid = dim_word(g, g->wi, 0, d, 0);
    LLVMValueRef off = dim_word(g, g->wg, HG_RV_WG_OFFSET, d, 0);
    r = LLVMBuildAdd(g->e.B, LLVMBuildAdd(g->e.B, LLVMBuildMul(g->e.B, grp, enq, ""), lid, ""), off, "");
  } else if (!strcmp(n, "get_local_linear_id")) {
    r = ci64(g, 0);
    for (int k = 2; k >= 0; k--)
      r = LLVMBuildAdd(g->e.B, LLVMBuildMul(g->e.B, r, word_at(g, g->wg, HG_RV_WG_LOCAL + k), ""), word_at(g, g->wi, k),
                       "");
  } else if (!strcmp(n, "get_global_linear_id")) {
    r = ci64(g, 0);
    for (int k = 2; k >= 0; k--) {
      LLVMValueRef gid = LLVMBuildAdd(g->e.B, LLVMBuildMul(g->e.B, word_at(g, g->wg, HG_RV_WG_GROUP_ID + k),
                                                          word_at(g, g->wg, HG_RV_WG_ENQ_LOCAL + k), ""),
                                      word_at(g, g->wi, k), "");
      r = LLVMBuildAdd(g->e.B, LLVMBuildMul(g->e.B, r, word_at(g, g->wg, HG_RV_WG_GLOBAL + k), ""), gid, "");
    }
  } else {
    return NULL;
  }
  LLVMTypeRef T = x->T;
  return LLVMGetIntTypeWidth(T) < 64 ? LLVMBuildTrunc(g->e.B, r, T, "") : r;
}

/* ---- math through the runtime ------------------------------------------------------------------ */

/* Math builtins computed by the runtime: result and float operands share the element type,
 * except the integer operands/results named here. */
static LLVMValueRef runtime_math(bctx *x) {
  hg_rv_cg *g = x->e->owner;
  hg_ir_type et = x->rt;
  for (unsigned i = 0; i < x->n; i++)
    if (is_float(x->at[i]))
      et = x->at[i];
  if (!is_float(et) || x->n > 8)
    return NULL;
  /* pointer outputs (frexp, modf, remquo, sincos, fract, lgamma_r): lane l's output is
   * element l of the vector the pointer points to (ints for frexp, lgamma_r, remquo) */
  const char *n = x->name;
  unsigned out_size = !strcmp(n, "frexp") || !strcmp(n, "lgamma_r") || !strcmp(n, "remquo")
                          ? 4
                          : hg_ir_scalar_bytes((hg_ir_scalar)et.scalar);
  for (unsigned i = 0; i < x->n; i++)
    if (x->at[i].scalar == HG_IR_PTR && et.scalar == HG_IR_F16)
      return hg_rv_fail(g, "half %s with a pointer argument is not supported on riscv yet", x->name);
  if (!strncmp(n, "native_", 7))
    n += 7;
  else if (!strncmp(n, "half_", 5))
    n += 5;
  bool dbl = et.scalar == HG_IR_F64;
  LLVMTypeRef st = dbl ? g->e.f64 : g->e.f32;
  char fname[96];
  snprintf(fname, sizeof fname, "hg_rt_%s%s", n, dbl ? "" : "f");
  unsigned lanes = x->rt.lanes > 1 ? x->rt.lanes : 1;
  for (unsigned i = 0; i < x->n; i++)
    if (x->at[i].lanes > lanes)
      lanes = x->at[i].lanes;
  LLVMValueRef res = lanes > 1 ? LLVMGetUndef(x->T) : NULL;
  for (unsigned l = 0; l < lanes; l++) {
    LLVMValueRef args[8];
    for (unsigned i = 0; i < x->n; i++) {
      args[i] = lane(g, x->a[i], l);
      if (x->at[i].scalar == HG_IR_PTR && l) {
        LLVMValueRef off = ci64(g, (uint64_t)l * out_size);
        args[i] = LLVMBuildGEP2(g->e.B, g->e.i8, x->a[i], &off, 1, "");
      }
      if (x->at[i].scalar == HG_IR_F16)
        args[i] = LLVMBuildFPExt(g->e.B, args[i], st, "");
    }
    LLVMTypeRef rst = hg_rv_scalar_type(g, (hg_ir_scalar)x->rt.scalar);
    bool half_res = x->rt.scalar == HG_IR_F16;
    LLVMValueRef r = hg_rv_call_external(g, fname, half_res ? st : rst, args, x->n);
    if (half_res)
      r = LLVMBuildFPTrunc(g->e.B, r, g->e.f16, "");
    if (lanes == 1)
      return r;
    res = LLVMBuildInsertElement(g->e.B, res, r, ci32(g, l), "");
  }
  return res;
}

/* ---- printf: a record in the launch's printf buffer, formatted by the host after the launch --- */

/* The constant string a printf format operand points to: global index and byte offset. */
static bool format_of(hg_rv_cg *g, uint32_t v, uint32_t *global, uint64_t *offset) {
  *offset = 0;
  for (int depth = 0; depth < 8 && v < g->e.f->num_values; depth++) {
    const hg_ir_value *val = &g->e.f->values[v];
    if (val->kind == HG_VAL_GLOBAL) {
      *global = val->index;
      return val->index < g->m->num_globals && g->m->globals[val->index].has_init;
    }
    if (val->kind != HG_VAL_INST)
      return false;
    /* find the defining instruction: a ptradd by a constant or an address-space cast */
    const hg_ir_inst *def = NULL;
    for (uint32_t b = 0; b < g->e.f->num_blocks && !def; b++)
      for (uint32_t i = 0; i < g->e.f->blocks[b].num_insts; i++)
        if (g->e.f->blocks[b].insts[i].id == v) {
          def = &g->e.f->blocks[b].insts[i];
          break;
        }
    if (!def)
      return false;
    if (def->op == HG_OP_PTRADD) {
      const hg_ir_value *o = &g->e.f->values[def->operands[1]];
      if (o->kind != HG_VAL_CONST)
        return false;
      *offset += g->e.f->const_words[o->index];
      v = def->operands[0];
    } else if (def->op == HG_OP_ADDRSPACECAST || def->op == HG_OP_BITCAST) {
      v = def->operands[0];
    } else {
      return false;
    }
  }
  return false;
}

static uint32_t format_id(hg_rv_cg *g, const char *text) {
  hg_rv_object *o = g->obj;
  for (uint32_t i = 0; i < o->num_formats; i++)
    if (!strcmp(o->formats[i], text))
      return i;
  char **nf = realloc(o->formats, (o->num_formats + 1) * sizeof *nf);
  if (!nf)
    return UINT32_MAX;
  o->formats = nf;
  nf[o->num_formats] = strdup(text);
  return nf[o->num_formats] ? o->num_formats++ : UINT32_MAX;
}

static LLVMValueRef printf_fn(bctx *x) {
  hg_rv_cg *g = x->e->owner;
  LLVMBuilderRef B = g->e.B;
  uint32_t gi;
  uint64_t off;
  if (!x->n || !format_of(g, x->in->operands[0], &gi, &off))
    return hg_rv_fail(g, "printf: the format must be a constant string");
  const hg_ir_global *gl = &g->m->globals[gi];
  if (off >= gl->size || !memchr(gl->init + off, 0, gl->size - off))
    return hg_rv_fail(g, "printf: the format is not a terminated string");
  uint32_t id = format_id(g, (const char *)gl->init + off);
  if (id == UINT32_MAX)
    return hg_rv_fail(g, "out of memory");
  /* record: u32 size, u32 format id, u64 work-group linear index, one 64-bit slot a lane */
  uint32_t size = 16;
  for (unsigned i = 1; i < x->n; i++)
    size += 8u * (x->at[i].lanes ? x->at[i].lanes : 1);
  LLVMValueRef buf = LLVMBuildIntToPtr(B, word_at(g, g->wg, HG_RV_WG_PRINTF), g->ptr, "");
  LLVMValueRef cap = word_at(g, g->wg, HG_RV_WG_PRINTF_SIZE);
  LLVMValueRef old = LLVMBuildAtomicRMW(B, LLVMAtomicRMWBinOpAdd, buf, ci64(g, size), LLVMAtomicOrderingMonotonic, 0);
  LLVMValueRef fits = LLVMBuildICmp(B, LLVMIntULE, LLVMBuildAdd(B, old, ci64(g, size), ""), cap, "");
  LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(g->e.C, g->e.fn, "printf.write");
  LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(g->e.C, g->e.fn, "printf.done");
  LLVMBasicBlockRef head = LLVMGetInsertBlock(B);
  LLVMBuildCondBr(B, fits, wr, cont);
  LLVMPositionBuilderAtEnd(B, wr);
  LLVMValueRef at = LLVMBuildAdd(B, old, ci64(g, 8), "");
  LLVMValueRef rec = LLVMBuildGEP2(B, g->e.i8, buf, &at, 1, "");
  LLVMBuildStore(B, ci32(g, size), rec);
  LLVMValueRef four = ci64(g, 4);
  LLVMBuildStore(B, ci32(g, id), LLVMBuildGEP2(B, g->e.i8, rec, &four, 1, ""));
  LLVMValueRef grp = ci64(g, 0);
  for (int d = 2; d >= 0; d--)
    grp = LLVMBuildAdd(B, LLVMBuildMul(B, grp, word_at(g, g->wg, HG_RV_WG_GROUPS + d), ""),
                       word_at(g, g->wg, HG_RV_WG_GROUP_ID + d), "");
  LLVMValueRef eight = ci64(g, 8);
  LLVMBuildStore(B, grp, LLVMBuildGEP2(B, g->e.i8, rec, &eight, 1, ""));
  uint64_t slot = 16;
  for (unsigned i = 1; i < x->n; i++) {
    hg_ir_type t = x->at[i];
    for (unsigned l = 0; l < (t.lanes ? t.lanes : 1); l++, slot += 8) {
      LLVMValueRef v = lane(g, x->a[i], l);
      if (is_float(t))
        v = t.scalar == HG_IR_F64 ? v : LLVMBuildFPExt(B, v, g->e.f64, "");
      else if (t.scalar == HG_IR_PTR)
        v = LLVMBuildPtrToInt(B, v, g->e.i64, "");
      else if (t.scalar != HG_IR_I64)
        v = arg_unsigned(x, i) || t.scalar == HG_IR_BOOL ? LLVMBuildZExt(B, v, g->e.i64, "") : LLVMBuildSExt(B, v, g->e.i64, "");
      LLVMValueRef so = ci64(g, slot);
      LLVMValueRef st = LLVMBuildStore(B, v, LLVMBuildGEP2(B, g->e.i8, rec, &so, 1, ""));
      LLVMSetAlignment(st, 8);
    }
  }
  LLVMBuildBr(B, cont);
  LLVMPositionBuilderAtEnd(B, cont);
  LLVMValueRef r = LLVMBuildPhi(B, g->e.i32, "");
  LLVMValueRef vals[2] = {ci32(g, 0), ci32(g, (uint64_t)-1)}; /* -1: the buffer is full */
  LLVMBasicBlockRef from[2] = {wr, head};
  LLVMAddIncoming(r, vals, from, 2);
  return r;
}

static LLVMValueRef riscv_first(bctx *x) {
  hg_rv_cg *g = x->e->owner;
  const char *n = x->name;
  if (!strncmp(n, "get_", 4))
    return work_item(x);
  if (!strcmp(n, HG_IR_STOP_POLL_BUILTIN))
    return hg_rv_emit_stop_check(g, g->e.fn, g->wg);
  if (!strcmp(n, "printf"))
    return printf_fn(x);
  return hg_rv_half_data(g, n, x->a, x->at, x->n, x->T);
}

static const hg_llvm_builtin_hooks k_riscv_builtins = {"riscv", riscv_first, runtime_math};

LLVMValueRef hg_rv_builtin(hg_rv_cg *g, const hg_ir_inst *in) {
  /* image builtins take image and sampler operands, which only the RISC-V side knows how to
   * lower (codegen_image.c) */
  if (in->num_imm && in->imm[0] < g->m->num_strings && hg_rv_is_image_builtin(g->m->strings[in->imm[0]]))
    return hg_rv_image_builtin(g, in);
  return hg_llvm_builtin(&g->e, in, &k_riscv_builtins);
}
