/* IR -> OpenCL C: builtin calls (by OpenCL name, overload made exact by casts: bit i of the
 * call's flags says argument i is an unsigned integer) and atomics; printf is in opencl_c_printf.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builtins.h"
#include "lowering/opencl_c_internal.h"

#define TB 64

static unsigned lanes_of(hg_ir_type t) { return t.lanes ? t.lanes : 1; }

static void lhs(oc_ctx *c, const hg_ir_inst *in) {
  oc_puts(c->body, "  ");
  if (in->id != HG_IR_NONE && in->type.scalar != HG_IR_VOID) {
    oc_res(c, c->body, in);
    oc_puts(c->body, " = ");
  }
}

/* Builtin arguments whose signedness the specification fixes: 1 unsigned, -1 signed, 0 as the
 * call's flags say. */
static int fixed_signedness(const char *name, uint32_t i) {
  if (!strcmp(name, "nan")) return 1;
  if ((!strcmp(name, "ldexp") || !strcmp(name, "pown") || !strcmp(name, "rootn")) && i == 1) return -1;
  if (!strcmp(name, "shuffle") && i == 1) return 1;
  if (!strcmp(name, "shuffle2") && i == 2) return 1;
  return 0;
}

/* An integer argument in the signedness the call names; F16 values as float. */
static void arg(oc_ctx *c, const hg_ir_inst *in, uint32_t i, const char *name) {
  uint32_t v = in->operands[i];
  hg_ir_type t = oc_vtype(c, v);
  int fixed = fixed_signedness(name, i);
  bool is_unsigned = fixed ? fixed > 0 : (i < 16 && (in->flags >> i) & 1);
  if (oc_is_int(t) && !is_unsigned) oc_value_s(c, c->body, v);
  else oc_value_f(c, c->body, v);
}

static const char *elem_name(hg_ir_scalar s, bool is_unsigned) {
  if (s == HG_IR_F32) return "float";
  if (s == HG_IR_F64) return "double";
  if (s == HG_IR_F16) return "half";
  return is_unsigned ? oc_uname(s) : oc_sname(s);
}

/* Pointer argument i cast to `AS elem *` (elem with lanes suffix when lanes > 1). */
static void ptr_arg(oc_ctx *c, const hg_ir_inst *in, uint32_t i, const char *elem, unsigned lanes, bool is_const) {
  char e[TB];
  if (lanes > 1) snprintf(e, sizeof e, "%s%s%u", is_const ? "const " : "", elem, lanes);
  else snprintf(e, sizeof e, "%s%s", is_const ? "const " : "", elem);
  oc_ptr_as(c, c->body, in->operands[i], e, false);
}

/* ---- work-item functions with a dimension index ---- */

void oc_emit_work_item_helpers(oc_ctx *c, oc_buf *out) {
  for (unsigned k = 0; k < HG_BUILTIN_DIM_FUNCTIONS; k++) {
    if (!(c->wi_mask & (1u << k))) continue;
    const char *n = hg_builtin_dim_functions[k].name;
    /* work-groups are uniform in OpenCL C 1.2: the enqueued local size is the local size */
    const char *vendor = !strcmp(n, "get_enqueued_local_size") ? "get_local_size" : n;
    oc_printf(out, "static inline size_t hg_wi_%s(uint d) { return d < 3u ? %s(d) : (size_t)%u; }\n", n, vendor,
              hg_builtin_dim_functions[k].out_of_range);
  }
}

/* A dimindx >= 3 gets the specification's answer on every vendor (PoCL 3.1 gives 0 for the
 * sizes): a constant one folds to it, a run-time one goes through a guarded helper from the
 * preamble (the index evaluated once). Below 3 the vendor answers, get_work_dim included. */
static void emit_work_item(oc_ctx *c, const hg_ir_inst *in, const char *name) {
  int k = hg_builtin_dim_function_index(name);
  uint32_t v = in->operands[0];
  const hg_ir_value *val = &c->f->values[v];
  if (val->kind == HG_VAL_CONST) {
    uint64_t d = c->f->const_words[val->index] & 0xffffffffu; /* the IR's dimindx is a uint */
    if (d >= 3) {
      oc_printf(c->body, "(%s", hg_builtin_dim_functions[k].out_of_range ? "1" : "0");
      return;
    }
    if (oc_slice_work_item(c, name, (unsigned)d)) return;
    /* work-groups are uniform in OpenCL C 1.2: the enqueued local size is the local size */
    oc_printf(c->body, "%s(%uu", !strcmp(name, "get_enqueued_local_size") ? "get_local_size" : name, (unsigned)d);
    return;
  }
  c->wi_mask |= 1u << k;
  oc_printf(c->body, "hg_wi_%s((uint)", name);
  oc_value(c, c->body, v);
}

/* ---- vector data ---- */
static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool emit_vector_data(oc_ctx *c, const hg_ir_inst *in, const char *name) {
  bool half = strstr(name, "_half") != NULL;
  if (starts(name, "vload")) {
    if (in->num_operands != 2) return false;
    hg_ir_type rt = in->type;
    if (rt.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
    lhs(c, in);
    oc_printf(c->body, "%s(", name);
    oc_value(c, c->body, in->operands[0]);
    oc_puts(c->body, ", ");
    ptr_arg(c, in, 1, half ? "half" : elem_name((hg_ir_scalar)rt.scalar, true), 1, true);
    oc_puts(c->body, ");\n");
    return true;
  }
  if (starts(name, "vstore")) {
    if (in->num_operands != 3) return false;
    hg_ir_type dt = oc_vtype(c, in->operands[0]);
    if (dt.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
    oc_printf(c->body, "  %s(", name);
    oc_value_f(c, c->body, in->operands[0]);
    oc_puts(c->body, ", ");
    oc_value(c, c->body, in->operands[1]);
    oc_puts(c->body, ", ");
    ptr_arg(c, in, 2, half ? "half" : elem_name((hg_ir_scalar)dt.scalar, true), 1, false);
    oc_puts(c->body, ");\n");
    return true;
  }
  return false;
}

/* Builtins with an out-pointer argument: which argument, and the pointee type. */
static int out_ptr_arg(const char *name, const hg_ir_inst *in, oc_ctx *c, const char **elem, unsigned *lanes) {
  hg_ir_type t0 = in->num_operands ? oc_vtype(c, in->operands[0]) : hg_ir_ty(HG_IR_VOID, 1);
  *lanes = lanes_of(t0);
  if (!strcmp(name, "fract") || !strcmp(name, "modf") || !strcmp(name, "sincos")) {
    *elem = elem_name((hg_ir_scalar)t0.scalar, true);
    return 1;
  }
  if (!strcmp(name, "frexp") || !strcmp(name, "lgamma_r")) {
    *elem = "int";
    return 1;
  }
  if (!strcmp(name, "remquo")) {
    *elem = "int";
    return 2;
  }
  return -1;
}

/* vloadN(offset, p) / vstoreN(data, offset, p) and their half forms: element size and count
 * from the value moved, the stride N elements (vloada_half3 / vstorea_half3: 4). */
static bool vector_data_access(oc_ctx *c, const hg_ir_inst *in, const char *name, oc_access *a) {
  bool load = starts(name, "vload");
  if (!load && !starts(name, "vstore")) return false;
  if (in->num_operands != (load ? 2u : 3u)) return false;
  hg_ir_type t = load ? in->type : oc_vtype(c, in->operands[0]);
  unsigned n = lanes_of(t);
  unsigned esize = strstr(name, "_half") ? 2 : hg_ir_scalar_bytes((hg_ir_scalar)t.scalar);
  bool aligned = starts(name, "vloada") || starts(name, "vstorea");
  *a = (oc_access){.ptr = in->operands[load ? 1 : 2], .index = in->operands[load ? 0 : 1],
                   .stride = (aligned && n == 3 ? 4 : n) * esize, .bytes = n * esize, .writes = !load};
  return true;
}

bool oc_builtin_access(oc_ctx *c, const hg_ir_inst *in, oc_access *a) {
  if (!in->num_imm || in->imm[0] >= c->m->num_strings) return false;
  const char *name = c->m->strings[in->imm[0]];
  switch (hg_builtin_family_of(name)) {
  case HG_IR_BF_VECTOR_DATA: return vector_data_access(c, in, name, a);
  case HG_IR_BF_ATOMIC:
    if (!in->num_operands) return false;
    *a = (oc_access){.ptr = in->operands[0], .index = HG_IR_NONE,
                     .bytes = hg_ir_scalar_bytes((hg_ir_scalar)in->type.scalar), .writes = true};
    return true;
  case HG_IR_BF_PRINTF:
  case HG_IR_BF_ASYNC_COPY: return false;
  default: break;
  }
  const char *elem = NULL;
  unsigned lanes = 1;
  int i = out_ptr_arg(name, in, c, &elem, &lanes);
  if (i < 0 || (uint32_t)i >= in->num_operands) return false;
  /* the out value's C type: a 3-vector is stored as the 4-vector it occupies, except by the
   * fract, lgamma_r and double frexp helpers (opencl_c_fix.c), which store three elements */
  unsigned esize = !strcmp(elem, "int") ? 4 : hg_ir_scalar_bytes((hg_ir_scalar)oc_vtype(c, in->operands[0]).scalar);
  bool three = !strcmp(name, "fract") || !strcmp(name, "lgamma_r") ||
               (!strcmp(name, "frexp") && oc_vtype(c, in->operands[0]).scalar == HG_IR_F64);
  *a = (oc_access){.ptr = in->operands[i], .index = HG_IR_NONE,
                   .bytes = (lanes == 3 && !three ? 4 : lanes) * esize, .writes = true};
  return true;
}

/* atomic_* / atom_* kept as calls: (ptr, values...); the pointee is the result's type, its
 * signedness flag bit 0 (the pointer argument). */
static void emit_atomic_builtin(oc_ctx *c, const hg_ir_inst *in, const char *name) {
  static const char *const ops[] = {"add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and", "or", "xor"};
  const char *op = !strncmp(name, "atomic_", 7) ? name + 7 : !strncmp(name, "atom_", 5) ? name + 5 : "";
  bool known = false;
  for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) known |= !strcmp(op, ops[i]);
  if (!known) {
    oc_fail(c, "atomic builtin '%s' has no OpenCL C 1.2 form", name);
    return;
  }
  hg_ir_type rt = in->type;
  if (!in->num_operands || lanes_of(rt) != 1 ||
      !(rt.scalar == HG_IR_I32 || rt.scalar == HG_IR_I64 || rt.scalar == HG_IR_F32)) {
    oc_fail(c, "atomic builtin '%s' on an unsupported type", name);
    return;
  }
  bool is_unsigned = in->flags & 1;
  if (rt.scalar == HG_IR_I64) {
    c->need |= OC_NEED_I64_ATOM;
    if (!strcmp(op, "min") || !strcmp(op, "max") || !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor"))
      c->need |= OC_NEED_I64_ATOM_EXT; /* atom_min/max/and/or/xor */
  }
  const char *elem = rt.scalar == HG_IR_F32 ? "float" : is_unsigned ? oc_uname((hg_ir_scalar)rt.scalar) : oc_sname((hg_ir_scalar)rt.scalar);
  char e[TB], tb[TB];
  snprintf(e, sizeof e, "volatile %s", elem);
  oc_puts(c->body, "  ");
  if (in->id != HG_IR_NONE) {
    oc_res(c, c->body, in);
    oc_printf(c->body, " = (%s)", oc_type(c, rt, tb, sizeof tb));
  }
  oc_printf(c->body, "%s(", name);
  oc_ptr_as(c, c->body, in->operands[0], e, false);
  for (uint32_t i = 1; i < in->num_operands; i++) {
    oc_printf(c->body, ", (%s)", elem);
    oc_value(c, c->body, in->operands[i]);
  }
  oc_puts(c->body, ");\n");
}

void oc_emit_call_builtin(oc_ctx *c, const hg_ir_inst *in) {
  /* what follows trusts the builtin's signature: a call outside it (a module that skipped the
   * verifier) fails the lowering instead of emitting from types it does not expect */
  char why[256];
  if (!hg_ir_builtin_check(c->m, c->f, in, why, sizeof why)) {
    oc_fail(c, "%s", why);
    return;
  }
  const char *name = c->m->strings[in->imm[0]];
  hg_ir_builtin_family fam = hg_builtin_family_of(name);
  hg_ir_type rt = in->type;
  char tb[TB];
  if (rt.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
  for (uint32_t i = 0; i < in->num_operands; i++)
    if (oc_vtype(c, in->operands[i]).scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
  switch (fam) {
  case HG_IR_BF_PRINTF: oc_emit_printf(c, in); return;
  case HG_IR_BF_VECTOR_DATA:
    if (emit_vector_data(c, in, name)) return;
    break;
  case HG_IR_BF_ASYNC_COPY:
    if (!strcmp(name, "prefetch")) return; /* a hint: no effect on results */
    oc_fail(c, "builtin '%s' is not supported by the OpenCL C back end", name);
    return;
  case HG_IR_BF_SYNC:
    if ((!strcmp(name, "mem_fence") || !strcmp(name, "read_mem_fence") || !strcmp(name, "write_mem_fence")) &&
        in->num_operands == 1) {
      oc_printf(c->body, "  %s((cl_mem_fence_flags)", name); /* mem_fence and its read/write forms */
      oc_value(c, c->body, in->operands[0]);
      oc_puts(c->body, ");\n");
      return;
    }
    oc_fail(c, "builtin '%s' is not expected in call.builtin", name);
    return;
  case HG_IR_BF_ATOMIC:
    emit_atomic_builtin(c, in, name);
    return;
  case HG_IR_BF_IMAGE:
    oc_emit_image_builtin(c, in, name);
    return;
  case HG_IR_BF_UNKNOWN:
  case HG_IR_BF_REINTERPRET:
    oc_fail(c, "builtin '%s' is not expected in call.builtin", name);
    return;
  default: break;
  }
  if (oc_emit_fixed_out_call(c, in, name)) return; /* fract, lgamma_r: see opencl_c_fix.c */
  lhs(c, in);
  bool has_result = in->id != HG_IR_NONE && rt.scalar != HG_IR_VOID;
  unsigned closers = 0;
  if (has_result) {
    if (rt.scalar == HG_IR_F16) {
      unsigned k = oc_lane_kind(lanes_of(rt));
      c->f2h_mask |= 1u << k;
      if (rt.lanes > 1) oc_printf(c->body, "hg_f2h%u(", rt.lanes);
      else oc_puts(c->body, "hg_f2h(");
      closers++;
    } else if (rt.scalar == HG_IR_BOOL) {
      if (rt.lanes > 1) oc_printf(c->body, "convert_uchar%u(0 != (", rt.lanes);
      else oc_puts(c->body, "(uchar)(0 != (");
      closers += 2;
    } else if (oc_is_int(rt)) {
      if (rt.lanes > 1) oc_printf(c->body, "as_%s(", oc_type(c, rt, tb, sizeof tb));
      else oc_printf(c->body, "(%s)(", oc_type(c, rt, tb, sizeof tb));
      closers++;
    }
  }
  const char *pelem = NULL;
  unsigned plan = 1;
  int pidx = out_ptr_arg(name, in, c, &pelem, &plan);
  if (fam == HG_IR_BF_WORK_ITEM && !strcmp(name, "get_global_linear_id")) {
    /* OpenCL C 2.0 functions, expressed with 1.2 ones */
    oc_puts(c->body, "((get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0) + "
                     "(get_global_id(1) - get_global_offset(1)) * get_global_size(0) + (get_global_id(0) - get_global_offset(0))");
  } else if (fam == HG_IR_BF_WORK_ITEM && !strcmp(name, "get_local_linear_id")) {
    oc_puts(c->body, "(get_local_id(2) * get_local_size(1) * get_local_size(0) + get_local_id(1) * get_local_size(0) + get_local_id(0)");
  } else if (fam == HG_IR_BF_WORK_ITEM && in->num_operands == 1 && hg_builtin_dim_function_index(name) >= 0) {
    emit_work_item(c, in, name);
  } else if (fam == HG_IR_BF_WORK_ITEM) {
    oc_printf(c->body, "%s(", name);
    for (uint32_t i = 0; i < in->num_operands; i++) {
      if (i) oc_puts(c->body, ", ");
      oc_puts(c->body, "(uint)");
      oc_value(c, c->body, in->operands[i]);
    }
  } else if (!strcmp(name, "ctz") && in->num_operands == 1) {
    /* ctz is OpenCL C 2.0: NVIDIA's 1.2 compiler lacks it and PoCL 3.1 declares it without a
     * body. popcount(~x & (x - 1)), cast back so that promoted small types keep their width. */
    oc_type(c, oc_vtype(c, in->operands[0]), tb, sizeof tb);
    oc_printf(c->body, "popcount((%s)(~", tb);
    oc_value_f(c, c->body, in->operands[0]);
    oc_puts(c->body, " & (");
    oc_value_f(c, c->body, in->operands[0]);
    oc_printf(c->body, " - (%s)1))", tb);
  } else {
    oc_fix_call fx; /* a vendor deviation corrected by a helper (opencl_c_fix.c) */
    bool fixed = oc_fix_call_for(c, in, name, &fx);
    oc_printf(c->body, "%s(", fixed && fx.callee[0] ? fx.callee : name);
    for (uint32_t i = 0; i < in->num_operands; i++) {
      if (i) oc_puts(c->body, ", ");
      if ((int)i == pidx) ptr_arg(c, in, i, pelem, plan, false);
      else if (oc_vtype(c, in->operands[i]).scalar == HG_IR_PTR) {
        oc_fail(c, "pointer argument of builtin '%s' is not supported", name);
        return;
      } else {
        if (fixed && fx.arg_open[0]) oc_puts(c->body, fx.arg_open);
        arg(c, in, i, name);
        if (fixed && fx.arg_open[0]) oc_puts(c->body, ")");
      }
    }
  }
  oc_puts(c->body, ")");
  while (closers--) oc_puts(c->body, ")");
  oc_puts(c->body, ";\n");
}

/* ---- atomics ---- */
static void fence_for(oc_ctx *c, uint32_t ptr, const char *fn) {
  hg_ir_type pt = oc_vtype(c, ptr);
  oc_printf(c->body, "  %s(%s);\n", fn, pt.addrspace == HG_AS_LOCAL ? "CLK_LOCAL_MEM_FENCE" : "CLK_GLOBAL_MEM_FENCE");
}
static bool order_releases(unsigned o) { return o == HG_ORDER_RELEASE || o == HG_ORDER_ACQ_REL || o == HG_ORDER_SEQ_CST; }
static bool order_acquires(unsigned o) { return o == HG_ORDER_ACQUIRE || o == HG_ORDER_ACQ_REL || o == HG_ORDER_SEQ_CST; }

/* The integer shape of an atomic's value: 32 or 64 bits, or 0 when unsupported. */
static unsigned atomic_bits(oc_ctx *c, hg_ir_type t) {
  if (lanes_of(t) != 1) return 0;
  if (t.scalar == HG_IR_I32 || t.scalar == HG_IR_F32) return 32;
  if (t.scalar == HG_IR_I64 || t.scalar == HG_IR_F64 || t.scalar == HG_IR_PTR) {
    c->need |= OC_NEED_I64_ATOM;
    return 64;
  }
  return 0;
}

void oc_emit_atomic(oc_ctx *c, const hg_ir_inst *in) {
  unsigned op = in->flags & 0xff, order = (in->flags >> 8) & 0xf;
  uint32_t p = in->operands[0];
  hg_ir_type t = op == HG_ATOMIC_STORE ? oc_vtype(c, in->operands[1]) : in->type;
  unsigned bits = atomic_bits(c, t);
  if (!bits) {
    oc_fail(c, "atomic on a type other than a 32- or 64-bit scalar");
    return;
  }
  bool is64 = bits == 64, is_f = t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64;
  bool is_p = t.scalar == HG_IR_PTR;
  const char *pre = is64 ? "atom_" : "atomic_";
  const char *ut = is64 ? "ulong" : "uint", *st = is64 ? "long" : "int", *ft = is64 ? "double" : "float";
  if (is64 && t.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
  char tb[TB];
  oc_type(c, t, tb, sizeof tb);
  if (order_releases(order)) fence_for(c, p, "mem_fence");

  /* the value operand as the unsigned integer the atomic moves */
  #define VALUE_U()                                                                 \
    do {                                                                            \
      if (is_f) { oc_printf(c->body, "as_%s(", ut); oc_value(c, c->body, in->operands[1]); oc_puts(c->body, ")"); } \
      else if (is_p) { oc_puts(c->body, "(ulong)"); oc_value(c, c->body, in->operands[1]); }                       \
      else oc_value(c, c->body, in->operands[1]);                                   \
    } while (0)

  if (op == HG_ATOMIC_FADD) {
    unsigned k = c->tmp_counter++;
    oc_printf(c->body, "  { volatile %s %s *hg_ap%u = ", oc_aspace(oc_vtype(c, p).addrspace), ut, k);
    oc_ptr_as(c, c->body, p, ut, true);
    oc_printf(c->body, "; %s hg_old%u = *hg_ap%u, hg_prev%u = 0; do { hg_prev%u = hg_old%u; hg_old%u = %scmpxchg(hg_ap%u, hg_prev%u, as_%s(as_%s(hg_prev%u) + ",
              ut, k, k, k, k, k, k, pre, k, k, ut, ft, k);
    oc_value(c, c->body, in->operands[1]);
    oc_printf(c->body, ")); } while (hg_old%u != hg_prev%u); ", k, k);
    if (in->id != HG_IR_NONE) {
      oc_res(c, c->body, in);
      oc_printf(c->body, " = as_%s(hg_old%u); ", ft, k);
    }
    oc_puts(c->body, "}\n");
  } else {
    const char *fn = NULL;
    bool sgn = false;
    switch (op) {
    case HG_ATOMIC_XCHG: fn = "xchg"; break;
    case HG_ATOMIC_ADD: fn = "add"; break;
    case HG_ATOMIC_SUB: fn = "sub"; break;
    case HG_ATOMIC_AND: fn = "and"; break;
    case HG_ATOMIC_OR: fn = "or"; break;
    case HG_ATOMIC_XOR: fn = "xor"; break;
    case HG_ATOMIC_SMIN: fn = "min"; sgn = true; break;
    case HG_ATOMIC_SMAX: fn = "max"; sgn = true; break;
    case HG_ATOMIC_UMIN: fn = "min"; break;
    case HG_ATOMIC_UMAX: fn = "max"; break;
    case HG_ATOMIC_LOAD: fn = "add"; break; /* add 0: an atomic read */
    case HG_ATOMIC_STORE: fn = "xchg"; break;
    default: oc_fail(c, "unknown atomic operation %u", op); return;
    }
    if (is64 && (op == HG_ATOMIC_AND || op == HG_ATOMIC_OR || op == HG_ATOMIC_XOR || op == HG_ATOMIC_SMIN ||
                 op == HG_ATOMIC_SMAX || op == HG_ATOMIC_UMIN || op == HG_ATOMIC_UMAX))
      c->need |= OC_NEED_I64_ATOM_EXT;
    oc_puts(c->body, "  ");
    bool has_result = in->id != HG_IR_NONE && in->type.scalar != HG_IR_VOID;
    if (has_result) {
      oc_res(c, c->body, in);
      if (is_f) oc_printf(c->body, " = as_%s(", ft);
      else oc_printf(c->body, " = (%s)(", tb);
    }
    oc_printf(c->body, "%s%s(", pre, fn);
    oc_ptr_as(c, c->body, p, sgn ? st : ut, true);
    oc_puts(c->body, ", ");
    if (op == HG_ATOMIC_LOAD) oc_printf(c->body, "0%s", is64 ? "ul" : "u");
    else if (sgn) { oc_printf(c->body, "(%s)", st); VALUE_U(); }
    else VALUE_U();
    oc_puts(c->body, ")");
    if (has_result) oc_puts(c->body, ")");
    oc_puts(c->body, ";\n");
  }
  #undef VALUE_U
  if (order_acquires(order)) fence_for(c, p, "mem_fence");
}

void oc_emit_cmpxchg(oc_ctx *c, const hg_ir_inst *in) {
  unsigned order = (in->flags >> 8) & 0xf;
  uint32_t p = in->operands[0];
  hg_ir_type t = in->type;
  unsigned bits = atomic_bits(c, t);
  if (!bits) {
    oc_fail(c, "cmpxchg on a type other than a 32- or 64-bit scalar");
    return;
  }
  bool is64 = bits == 64, is_f = t.scalar == HG_IR_F32 || t.scalar == HG_IR_F64, is_p = t.scalar == HG_IR_PTR;
  const char *ut = is64 ? "ulong" : "uint";
  char tb[TB];
  oc_type(c, t, tb, sizeof tb);
  if (order_releases(order)) fence_for(c, p, "mem_fence");
  oc_puts(c->body, "  ");
  oc_res(c, c->body, in);
  if (is_f) oc_printf(c->body, " = as_%s(", is64 ? "double" : "float");
  else oc_printf(c->body, " = (%s)(", tb);
  oc_printf(c->body, "%scmpxchg(", is64 ? "atom_" : "atomic_");
  oc_ptr_as(c, c->body, p, ut, true);
  for (int i = 1; i <= 2; i++) {
    oc_puts(c->body, ", ");
    if (is_f) { oc_printf(c->body, "as_%s(", ut); oc_value(c, c->body, in->operands[i]); oc_puts(c->body, ")"); }
    else { if (is_p) oc_puts(c->body, "(ulong)"); oc_value(c, c->body, in->operands[i]); }
  }
  oc_puts(c->body, "));\n");
  if (order_acquires(order)) fence_for(c, p, "mem_fence");
}
