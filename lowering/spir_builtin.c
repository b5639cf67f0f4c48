/* SPIR back end: builtin calls, as calls to the vendor library's functions by their Itanium-mangled
 * OpenCL C names (what clang names them: `_Z3maxDv4_fS_`, `_Z6vload4mPU3AS1Kf`). The IR keeps a
 * builtin's name and its operands' types; what mangling needs besides is the signedness of
 * integers (the call's flags) and the pointee of each pointer argument, which the builtin's
 * definition fixes (pointee_of). */
#include <stdio.h>
#include <string.h>

#include "ir/builtins.h"
#include "lowering/builtins.h"
#include "lowering/llvm_builtins.h"
#include "lowering/opencl_c.h"
#include "lowering/slice_form.h"
#include "lowering/spir_internal.h"

#define MAX_SUBS 8

/* An Itanium mangled name being written: its text and the substitution candidates seen (the
 * expanded types, in order; builtin types are never candidates). */
typedef struct mangler {
  char s[160];
  size_t n;
  char subs[MAX_SUBS][48];
  unsigned nsubs;
  bool overflow;
} mangler;

static void put(mangler *mg, const char *t) {
  size_t l = strlen(t);
  if (mg->n + l >= sizeof mg->s) {
    mg->overflow = true;
    return;
  }
  memcpy(mg->s + mg->n, t, l + 1);
  mg->n += l;
}

static int find_sub(const mangler *mg, const char *t) {
  for (unsigned i = 0; i < mg->nsubs; i++)
    if (!strcmp(mg->subs[i], t))
      return (int)i;
  return -1;
}

static void add_sub(mangler *mg, const char *t) {
  if (mg->nsubs < MAX_SUBS && strlen(t) < sizeof mg->subs[0])
    snprintf(mg->subs[mg->nsubs++], sizeof mg->subs[0], "%s", t);
  else
    mg->overflow = true;
}

/* Writes expanded type t, or its substitution (S_, S0_, S1_, ...) when seen before. */
static void put_type(mangler *mg, const char *t, bool candidate) {
  int i = candidate ? find_sub(mg, t) : -1;
  if (i < 0) {
    put(mg, t);
    if (candidate)
      add_sub(mg, t);
    return;
  }
  char ref[8];
  if (i == 0)
    snprintf(ref, sizeof ref, "S_");
  else
    snprintf(ref, sizeof ref, "S%c_", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(i - 1) % 36]);
  put(mg, ref);
}

static const char *scalar_code(hg_ir_scalar s, bool is_unsigned) {
  switch (s) {
  case HG_IR_I8: return is_unsigned ? "h" : "c";
  case HG_IR_I16: return is_unsigned ? "t" : "s";
  case HG_IR_I32: return is_unsigned ? "j" : "i";
  case HG_IR_I64: return is_unsigned ? "m" : "l";
  case HG_IR_F16: return "Dh";
  case HG_IR_F32: return "f";
  case HG_IR_F64: return "d";
  default: return NULL;
  }
}

/* The expansion of a scalar or vector type ("f", "Dv4_f"); false for types without one. */
static bool type_text(hg_ir_type t, bool is_unsigned, char *out, size_t n) {
  const char *c = scalar_code((hg_ir_scalar)t.scalar, is_unsigned);
  if (!c)
    return false;
  if (t.lanes > 1)
    snprintf(out, n, "Dv%u_%s", t.lanes, c);
  else
    snprintf(out, n, "%s", c);
  return true;
}

static bool mangle_value(mangler *mg, hg_ir_type t, bool is_unsigned) {
  char tt[24];
  if (!type_text(t, is_unsigned, tt, sizeof tt))
    return false;
  put_type(mg, tt, t.lanes > 1);
  return true;
}

/* P, the address space (none for private), the qualifiers cv ("K" const, "V" volatile), the
 * pointee; the qualified pointee and the pointer become candidates after it. */
static bool mangle_pointer(mangler *mg, unsigned addrspace, const char *cv, hg_ir_type pointee, bool is_unsigned) {
  char pt[24], qual[24], full[48];
  if (!type_text(pointee, is_unsigned, pt, sizeof pt))
    return false;
  if (addrspace)
    snprintf(qual, sizeof qual, "U3AS%u%s", addrspace, cv);
  else
    snprintf(qual, sizeof qual, "%s", cv);
  put(mg, "P");
  put(mg, qual);
  put_type(mg, pt, pointee.lanes > 1);
  if (qual[0]) {
    snprintf(full, sizeof full, "%s%s", qual, pt);
    add_sub(mg, full);
  }
  snprintf(full, sizeof full, "P%s%s", qual, pt);
  add_sub(mg, full);
  return true;
}

static bool flag(const hg_ir_inst *in, uint32_t i) { return i < 16 && ((in->flags >> i) & 1); }

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* A value's size in a call (a 3-lane vector takes 4 lanes' room). */
static unsigned vector_bytes(hg_ir_type t) {
  return hg_ir_scalar_bytes((hg_ir_scalar)t.scalar) * (t.lanes == 3 ? 4u : t.lanes);
}

/* Integer arguments whose signedness the specification fixes: 1 unsigned, -1 signed, 0 as the
 * call's flags say. */
static int fixed_signedness(const char *name, uint32_t i) {
  if (!strcmp(name, "nan")) return 1;
  if ((starts(name, "vload") && i == 0) || (starts(name, "vstore") && i == 1)) return 1; /* size_t offset */
  if ((!strcmp(name, "ldexp") || !strcmp(name, "pown") || !strcmp(name, "rootn")) && i == 1) return -1;
  if (!strcmp(name, "shuffle") && i == 1) return 1;
  if (!strcmp(name, "shuffle2") && i == 2) return 1;
  return 0;
}

/* The pointee of pointer argument i of builtin `name`: its type, qualifiers and signedness. */
static bool pointee_of(const hg_ir_function *f, const hg_ir_inst *in, const char *name, hg_ir_builtin_family fam,
                       uint32_t i, hg_ir_type *pt, const char **cv, bool *is_unsigned) {
  hg_ir_type t0 = f->values[in->operands[0]].type;
  unsigned lanes = t0.lanes ? t0.lanes : 1;
  bool half = strstr(name, "_half") != NULL;
  *cv = "";
  *is_unsigned = flag(in, i);
  if (starts(name, "vload") && i == 1) {
    *cv = "K";
    *pt = hg_ir_ty(half ? HG_IR_F16 : (hg_ir_scalar)in->type.scalar, 1);
    return true;
  }
  if (starts(name, "vstore") && i == 2) {
    *pt = hg_ir_ty(half ? HG_IR_F16 : (hg_ir_scalar)t0.scalar, 1);
    *is_unsigned = *is_unsigned || flag(in, 0);
    return true;
  }
  if ((!strcmp(name, "fract") || !strcmp(name, "modf") || !strcmp(name, "sincos")) && i == 1) {
    *pt = t0;
    return true;
  }
  if (((!strcmp(name, "frexp") || !strcmp(name, "lgamma_r")) && i == 1) || (!strcmp(name, "remquo") && i == 2)) {
    *pt = hg_ir_ty(HG_IR_I32, lanes);
    *is_unsigned = false;
    return true;
  }
  if (fam == HG_IR_BF_ATOMIC && i == 0) {
    *cv = "V";
    *pt = hg_ir_ty((hg_ir_scalar)in->type.scalar, 1);
    return true;
  }
  return false;
}

/* _Z<length><name><parameters>; false when an operand has no mangling here. */
static bool mangle_call(const hg_ir_function *f, const hg_ir_inst *in, const char *name, hg_ir_builtin_family fam,
                        mangler *mg) {
  char head[80];
  snprintf(head, sizeof head, "_Z%zu%s", strlen(name), name);
  put(mg, head);
  if (!in->num_operands)
    put(mg, "v");
  for (uint32_t i = 0; i < in->num_operands; i++) {
    hg_ir_type t = f->values[in->operands[i]].type;
    if (t.scalar == HG_IR_PTR) {
      hg_ir_type pt;
      const char *cv;
      bool is_unsigned;
      if (t.addrspace > HG_AS_LOCAL || !pointee_of(f, in, name, fam, i, &pt, &cv, &is_unsigned) ||
          !mangle_pointer(mg, t.addrspace, cv, pt, is_unsigned))
        return false;
      continue;
    }
    int fixed = fixed_signedness(name, i);
    bool is_unsigned = fixed ? fixed > 0 : flag(in, i) || (fam == HG_IR_BF_ATOMIC && flag(in, 0));
    if (!mangle_value(mg, t, is_unsigned))
      return false;
  }
  return !mg->overflow;
}

/* ---- work-item functions ---- */

static LLVMValueRef vendor_work_item(hg_spir *s, const char *name, LLVMValueRef d) {
  char mangled[64];
  snprintf(mangled, sizeof mangled, "_Z%zu%sj", strlen(name), name);
  return hg_spir_call(s, mangled, s->e.i64, &d, 1, false);
}

static LLVMValueRef dim_call(hg_spir *s, const char *name, unsigned d) {
  return vendor_work_item(s, name, LLVMConstInt(s->e.i32, d, 0));
}

/* A work-item function that sees the whole range, in a slice form: its arguments, after the
 * kernel's, in the order of lowering/slice_form.h. */
static LLVMValueRef slice_work_item(hg_spir *s, const char *name, unsigned d) {
  hg_llvm_emit *e = &s->e;
  unsigned args = e->param_base + e->f->num_params;
  if (!strcmp(name, "get_group_id"))
    return LLVMBuildAdd(e->B, LLVMGetParam(e->fn, args + d), dim_call(s, name, d), "");
  if (!strcmp(name, "get_global_id")) { /* the slice runs at offset 0 */
    LLVMValueRef place = LLVMBuildMul(e->B, LLVMGetParam(e->fn, args + d), dim_call(s, "get_local_size", d), "");
    place = LLVMBuildAdd(e->B, place, LLVMGetParam(e->fn, args + 6 + d), "");
    return LLVMBuildAdd(e->B, dim_call(s, name, d), place, "");
  }
  if (!strcmp(name, "get_num_groups"))
    return LLVMGetParam(e->fn, args + 3 + d);
  if (!strcmp(name, "get_global_size"))
    return LLVMBuildMul(e->B, LLVMGetParam(e->fn, args + 3 + d), dim_call(s, "get_local_size", d), "");
  return LLVMGetParam(e->fn, args + 6 + d); /* get_global_offset */
}

static LLVMValueRef work_item(hg_spir *s, const hg_ir_inst *in, const char *name) {
  hg_llvm_emit *e = &s->e;
  LLVMBuilderRef B = e->B;
  if (!strcmp(name, "get_work_dim"))
    return hg_spir_call(s, "_Z12get_work_dimv", e->i32, NULL, 0, false);
  if (!strcmp(name, "get_global_linear_id") || !strcmp(name, "get_local_linear_id")) {
    bool global = name[4] == 'g';
    LLVMValueRef id[3], size[3];
    for (unsigned d = 0; d < 3; d++) {
      id[d] = dim_call(s, global ? "get_global_id" : "get_local_id", d);
      if (global)
        id[d] = LLVMBuildSub(B, id[d], dim_call(s, "get_global_offset", d), "");
      size[d] = dim_call(s, global ? "get_global_size" : "get_local_size", d);
    }
    LLVMValueRef r = LLVMBuildMul(B, LLVMBuildMul(B, id[2], size[1], ""), size[0], "");
    r = LLVMBuildAdd(B, r, LLVMBuildMul(B, id[1], size[0], ""), "");
    return LLVMBuildAdd(B, r, id[0], "");
  }
  int k = hg_builtin_dim_function_index(name);
  if (k < 0 || in->num_operands != 1)
    return hg_llvm_fail(e, "work-item function %s", name);
  /* work-groups are uniform in OpenCL C 1.2: the enqueued local size is the local size */
  const char *vendor = !strcmp(name, "get_enqueued_local_size") ? "get_local_size" : name;
  LLVMValueRef fallback = LLVMConstInt(e->i64, hg_builtin_dim_functions[k].out_of_range, 0);
  const hg_ir_value *dv = &e->f->values[in->operands[0]];
  bool sliced = s->slice_form && hg_slice_form_sees_whole_range(name);
  if (dv->kind == HG_VAL_CONST) {
    uint64_t d = e->f->const_words[dv->index] & 0xffffffffu;
    return d >= 3 ? fallback : sliced ? slice_work_item(s, name, (unsigned)d) : dim_call(s, vendor, (unsigned)d);
  }
  if (sliced) /* (hg_slice_form_possible admits none) */
    return hg_llvm_fail(e, "%s of a dimension known at run time in a slice form", name);
  LLVMValueRef d = hg_llvm_value(e, in->operands[0]);
  if (!d)
    return NULL;
  LLVMValueRef in_range = LLVMBuildICmp(B, LLVMIntULT, d, LLVMConstInt(e->i32, 3, 0), "");
  LLVMValueRef v = vendor_work_item(s, vendor, LLVMBuildSelect(B, in_range, d, LLVMConstInt(e->i32, 0, 0), ""));
  return LLVMBuildSelect(B, in_range, v, fallback, "");
}

LLVMValueRef hg_spir_builtin(hg_spir *s, const hg_ir_inst *in) {
  hg_llvm_emit *e = &s->e;
  char why[256];
  if (!hg_ir_builtin_check(e->m, e->f, in, why, sizeof why))
    return hg_llvm_fail(e, "%s", why);
  const char *name = e->m->strings[in->imm[0]];
  hg_ir_builtin_family fam = hg_ir_builtin_family_of(name);
  switch (fam) {
  case HG_IR_BF_WORK_ITEM: return work_item(s, in, name);
  case HG_IR_BF_ASYNC_COPY: return LLVMGetUndef(e->i32); /* prefetch: a hint, no effect on results */
  case HG_IR_BF_PRINTF: return hg_llvm_fail(e, "printf (hetGPU's own buffer: the OpenCL C back end)");
  case HG_IR_BF_SYNC:
    /* mem_fence and its read and write forms: PoCL's library has no function for them (its
     * header makes them fences), so a fence here too */
    if (strcmp(name, "atomic_work_item_fence"))
      return LLVMBuildFence(e->B, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
    return hg_llvm_fail(e, "builtin '%s' is not expected in call.builtin", name);
  case HG_IR_BF_UNKNOWN:
  case HG_IR_BF_REINTERPRET:
  case HG_IR_BF_INTERNAL: return hg_llvm_fail(e, "builtin '%s' is not expected in call.builtin", name);
  default: {
    /* the builtins hg_llvm_inline_builtin takes (integer, common, geometric, relational,
     * atomic, the math functions that are one intrinsic) inline, as the PTX and RISC-V back
     * ends lower them, not the vendor library's functions: PoCL 5 inlines nothing of its
     * library into SPIR (`rotate` in bench hashint's slice form: 1.57x its own build,
     * 1.08-1.10x inline); any other builtin goes on below */
    LLVMValueRef r = hg_llvm_inline_builtin(e, in);
    if (r || e->failed)
      return r;
    break;
  }
  }
  if (hg_lower_opencl_c_corrects(e->m, e->f, in))
    return hg_llvm_fail(e, "builtin '%s' corrected by the OpenCL C back end", name);
  /* PoCL 3.1's library function for vstore_half16 of a double16 rounds a result in half's
   * subnormal range to 0 (0x1.389p-25 -> 0, not 0x1p-24); its OpenCL C front end's does not */
  if (starts(name, "vstore") && strstr(name, "_half16") && in->num_operands &&
      e->f->values[in->operands[0]].type.scalar == HG_IR_F64)
    return hg_llvm_fail(e, "builtin '%s' of double16 (PoCL's library function flushes subnormal halves)", name);
  /* A library function of a vector wider than the host's widest vector register takes it in
   * memory (the x86-64 C ABI PoCL's library is compiled to), where a SPIR call passes it by
   * value: PoCL 3.1 then computes garbage (sin of a double16 from clang's own SPIR too; float16
   * math on a host without AVX-512). Its OpenCL C front end passes them right. */
  unsigned widest = hg_spir_call_vector_bytes();
  bool wide = vector_bytes(in->type) > widest;
  for (uint32_t i = 0; i < in->num_operands; i++)
    wide |= vector_bytes(e->f->values[in->operands[i]].type) > widest;
  if (wide)
    return hg_llvm_fail(e, "builtin '%s' of a vector wider than %u bytes (PoCL calls them wrongly from SPIR)", name,
                        widest);
  LLVMValueRef args[16];
  if (in->num_operands > 16)
    return hg_llvm_fail(e, "builtin '%s' with %u arguments", name, in->num_operands);
  for (uint32_t i = 0; i < in->num_operands; i++)
    args[i] = hg_llvm_value(e, in->operands[i]);
  if (e->failed)
    return NULL;
  if (starts(name, "half_")) {
    /* PoCL's library has no half_ functions (its header maps them): the full-precision ones
     * are within their 8192 ulp everywhere (float only: double vectors of powr would want the
     * OpenCL C back end's correction) */
    if (in->type.scalar != HG_IR_F32)
      return hg_llvm_fail(e, "builtin '%s' of double", name);
    if (!strcmp(name, "half_recip") || !strcmp(name, "half_divide")) {
      LLVMValueRef one = LLVMConstReal(e->f32, 1.0);
      if (in->type.lanes > 1) {
        LLVMValueRef lanes[16];
        for (unsigned l = 0; l < in->type.lanes; l++)
          lanes[l] = one;
        one = LLVMConstVector(lanes, in->type.lanes);
      }
      return LLVMBuildFDiv(e->B, name[5] == 'r' ? one : args[0], name[5] == 'r' ? args[0] : args[1], "");
    }
    name += 5;
  }
  mangler mg = {0};
  if (!mangle_call(e->f, in, name, fam, &mg))
    return hg_llvm_fail(e, "builtin '%s': arguments without a SPIR mangling", name);
  LLVMTypeRef ret = in->type.scalar == HG_IR_VOID ? e->voidt : hg_llvm_type(e, in->type);
  return hg_spir_call(s, mg.s, ret, args, in->num_operands, false);
}
