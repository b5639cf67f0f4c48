/* IR -> OpenCL C: one statement per instruction (arithmetic, compares, conversions, vectors,
 * control flow). Every result lives in a variable hg_r<id> declared at the top of the function;
 * blocks are labels hg_L<n>; phis are assigned on each incoming edge (parallel copies). */
#include <stdio.h>
#include <string.h>

#include "lowering/opencl_c_internal.h"

#define TB 64

static void begin(oc_ctx *c, const hg_ir_inst *in) {
  oc_puts(c->body, "  ");
  oc_res(c, c->body, in);
  oc_puts(c->body, " = ");
}
static void end(oc_ctx *c) { oc_puts(c->body, ";\n"); }
static void val(oc_ctx *c, uint32_t v) { oc_value(c, c->body, v); }
static void valf(oc_ctx *c, uint32_t v) { oc_value_f(c, c->body, v); }
static void vals(oc_ctx *c, uint32_t v) { oc_value_s(c, c->body, v); }

static unsigned scalar_bits(hg_ir_type t) {
  return t.scalar == HG_IR_BOOL ? 1 : 8 * hg_ir_scalar_bytes((hg_ir_scalar)t.scalar);
}
static unsigned lanes_of(hg_ir_type t) { return t.lanes ? t.lanes : 1; }

/* "convert_uint4(" or "convert_uint(" */
static void conv_open(oc_ctx *c, const char *elem, unsigned lanes) {
  if (lanes > 1) oc_printf(c->body, "convert_%s%u(", elem, lanes);
  else oc_printf(c->body, "convert_%s(", elem);
}
static void as_open(oc_ctx *c, const char *elem, unsigned lanes) {
  if (lanes > 1) oc_printf(c->body, "as_%s%u(", elem, lanes);
  else oc_printf(c->body, "as_%s(", elem);
}

/* Rounds a float (or double when from_double) expression to half bits: opens the call. */
static void f2h_open(oc_ctx *c, unsigned lanes, bool from_double) {
  unsigned k = oc_lane_kind(lanes);
  if (from_double) {
    c->d2h_mask |= 1u << k;
    c->need |= OC_NEED_FP64;
  } else {
    c->f2h_mask |= 1u << k;
  }
  if (lanes > 1) oc_printf(c->body, "hg_%s2h%u(", from_double ? "d" : "f", lanes);
  else oc_printf(c->body, "hg_%s2h(", from_double ? "d" : "f");
}

/* ---- integer arithmetic ---- */
static void emit_int_binop(oc_ctx *c, const hg_ir_inst *in) {
  hg_ir_type t = in->type;
  char tb[TB], sb[TB];
  oc_type(c, t, tb, sizeof tb);
  const char *op = "+";
  unsigned bits = scalar_bits(t);
  bool small = t.lanes <= 1 && bits < 32; /* promoted to int in C: compute in uint */
  uint32_t a = in->operands[0], b = in->operands[1];
  switch (in->op) {
  case HG_OP_ADD: op = t.scalar == HG_IR_BOOL ? "^" : "+"; break;
  case HG_OP_SUB: op = t.scalar == HG_IR_BOOL ? "^" : "-"; break;
  case HG_OP_MUL: op = t.scalar == HG_IR_BOOL ? "&" : "*"; break;
  case HG_OP_AND: op = "&"; break;
  case HG_OP_OR: op = "|"; break;
  case HG_OP_XOR: op = "^"; break;
  case HG_OP_UDIV: op = "/"; break;
  case HG_OP_UREM: op = "%"; break;
  case HG_OP_SDIV: case HG_OP_SREM: {
    const char *o = in->op == HG_OP_SDIV ? "/" : "%";
    begin(c, in);
    if (t.lanes > 1) {
      as_open(c, oc_uname((hg_ir_scalar)t.scalar), t.lanes);
      vals(c, a);
      oc_printf(c->body, " %s ", o);
      vals(c, b);
      oc_puts(c->body, ")");
    } else {
      oc_printf(c->body, "(%s)(", tb);
      vals(c, a);
      oc_printf(c->body, " %s ", o);
      vals(c, b);
      oc_puts(c->body, ")");
    }
    end(c);
    return;
  }
  case HG_OP_SHL: case HG_OP_LSHR: case HG_OP_ASHR: {
    const char *o = in->op == HG_OP_SHL ? "<<" : ">>";
    unsigned mask = bits - 1;
    begin(c, in);
    if (t.lanes > 1) {
      /* OpenCL C masks vector shift counts to the element width, as we define the IR's. */
      if (in->op == HG_OP_ASHR) {
        as_open(c, oc_uname((hg_ir_scalar)t.scalar), t.lanes);
        vals(c, a);
        oc_puts(c->body, " >> ");
        vals(c, b);
        oc_puts(c->body, ")");
      } else {
        oc_puts(c->body, "(");
        val(c, a);
        oc_printf(c->body, " %s ", o);
        val(c, b);
        oc_puts(c->body, ")");
      }
    } else {
      const char *suffix = bits == 64 ? "ul" : "u";
      oc_printf(c->body, "(%s)(", tb);
      if (in->op == HG_OP_ASHR) vals(c, a);
      else if (small) { oc_puts(c->body, "(uint)"); val(c, a); }
      else val(c, a);
      oc_printf(c->body, " %s (", o);
      val(c, b);
      oc_printf(c->body, " & %u%s))", mask, suffix);
    }
    end(c);
    return;
  }
  default: break;
  }
  begin(c, in);
  if (small) {
    oc_printf(c->body, "(%s)((uint)", tb);
    val(c, a);
    oc_printf(c->body, " %s (uint)", op);
    val(c, b);
    oc_puts(c->body, ")");
  } else {
    oc_puts(c->body, "(");
    val(c, a);
    oc_printf(c->body, " %s ", op);
    val(c, b);
    oc_puts(c->body, ")");
  }
  (void)sb;
  end(c);
}

/* ---- float arithmetic ---- */
/* A contractable FADD/FSUB with its FMUL operand (ir/contract.c) as one expression, alone in
 * a block where FP_CONTRACT is ON: the vendor compiler may fuse exactly this, as it may the
 * original source's a * b + c. Operands are plain variables or literals, so nothing else in the
 * expression can be contracted. Never F16 (the rule excludes it). */
static void emit_contracted(oc_ctx *c, const hg_ir_inst *in, const hg_ir_inst *mul) {
  bool mul_first = in->operands[0] == mul->id;
  uint32_t other = in->operands[mul_first ? 1 : 0];
  const char *op = in->op == HG_OP_FSUB ? "-" : "+";
  oc_puts(c->body, "  {\n#pragma OPENCL FP_CONTRACT ON\n  ");
  begin(c, in);
  oc_puts(c->body, "(");
  if (!mul_first) {
    oc_puts(c->body, "(");
    val(c, other);
    oc_printf(c->body, ") %s ", op);
  }
  oc_puts(c->body, "(");
  val(c, mul->operands[0]);
  oc_puts(c->body, ") * (");
  val(c, mul->operands[1]);
  oc_puts(c->body, ")");
  if (mul_first) {
    oc_printf(c->body, " %s (", op);
    val(c, other);
    oc_puts(c->body, ")");
  }
  oc_puts(c->body, ");\n  }\n");
}

static void emit_float_binop(oc_ctx *c, const hg_ir_inst *in) {
  hg_ir_type t = in->type;
  bool half = t.scalar == HG_IR_F16;
  if (t.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
  if (in->id < c->f->num_values && c->contr.absorbed[in->id]) return; /* computed by its user */
  if (in->id < c->f->num_values && c->contr.fused_mul[in->id]) {
    emit_contracted(c, in, c->contr.fused_mul[in->id]);
    return;
  }
  begin(c, in);
  if (half) f2h_open(c, lanes_of(t), false);
  if (in->op == HG_OP_FNEG) {
    if (half) {
      oc_puts(c->body, "-");
      valf(c, in->operands[0]);
    } else {
      oc_puts(c->body, "(-");
      val(c, in->operands[0]);
      oc_puts(c->body, ")");
    }
  } else if (in->op == HG_OP_FREM) {
    oc_puts(c->body, "fmod(");
    valf(c, in->operands[0]);
    oc_puts(c->body, ", ");
    valf(c, in->operands[1]);
    oc_puts(c->body, ")");
  } else {
    const char *op = in->op == HG_OP_FADD ? "+" : in->op == HG_OP_FSUB ? "-" : in->op == HG_OP_FMUL ? "*" : "/";
    oc_puts(c->body, "(");
    valf(c, in->operands[0]);
    oc_printf(c->body, " %s ", op);
    valf(c, in->operands[1]);
    oc_puts(c->body, ")");
  }
  if (half) oc_puts(c->body, ")");
  end(c);
}

/* ---- compares ---- */
static void emit_icmp(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t a = in->operands[0], b = in->operands[1];
  hg_ir_type ot = oc_vtype(c, a);
  unsigned lanes = lanes_of(ot);
  const char *op;
  bool sgn = false;
  switch (in->flags) {
  case HG_CMP_EQ: op = "=="; break;
  case HG_CMP_NE: op = "!="; break;
  case HG_CMP_ULT: op = "<"; break;
  case HG_CMP_ULE: op = "<="; break;
  case HG_CMP_UGT: op = ">"; break;
  case HG_CMP_UGE: op = ">="; break;
  case HG_CMP_SLT: op = "<"; sgn = true; break;
  case HG_CMP_SLE: op = "<="; sgn = true; break;
  case HG_CMP_SGT: op = ">"; sgn = true; break;
  case HG_CMP_SGE: op = ">="; sgn = true; break;
  default: oc_fail(c, "bad icmp predicate %u", in->flags); return;
  }
  begin(c, in);
  if (lanes > 1) oc_printf(c->body, "convert_uchar%u(-(", lanes);
  else oc_puts(c->body, "(uchar)(");
  for (int i = 0; i < 2; i++) {
    uint32_t v = i ? b : a;
    if (i) oc_printf(c->body, " %s ", op);
    if (ot.scalar == HG_IR_PTR) {
      oc_puts(c->body, sgn ? "(long)" : "(ulong)");
      val(c, v);
    } else if (sgn) {
      vals(c, v);
    } else {
      val(c, v);
    }
  }
  oc_puts(c->body, lanes > 1 ? "))" : ")");
  end(c);
}

static void emit_fcmp(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t a = in->operands[0], b = in->operands[1];
  hg_ir_type ot = oc_vtype(c, a);
  unsigned lanes = lanes_of(ot);
  if (ot.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
  const char *fn = NULL, *op = NULL;
  bool negate = false;
  switch (in->flags) {
  case HG_CMP_OEQ: op = "=="; break;
  case HG_CMP_OLT: op = "<"; break;
  case HG_CMP_OLE: op = "<="; break;
  case HG_CMP_OGT: op = ">"; break;
  case HG_CMP_OGE: op = ">="; break;
  case HG_CMP_ONE: fn = "islessgreater"; break;
  case HG_CMP_UNE: op = "!="; break;
  case HG_CMP_UEQ: fn = "islessgreater"; negate = true; break;
  case HG_CMP_ULT_F: op = ">="; negate = true; break;
  case HG_CMP_ULE_F: op = ">"; negate = true; break;
  case HG_CMP_UGT_F: op = "<="; negate = true; break;
  case HG_CMP_UGE_F: op = "<"; negate = true; break;
  case HG_CMP_ORD: fn = "isordered"; break;
  case HG_CMP_UNO: fn = "isunordered"; break;
  case HG_CMP_TRUE: case HG_CMP_FALSE: {
    begin(c, in);
    hg_ir_type rt = in->type;
    uint64_t one = in->flags == HG_CMP_TRUE;
    if (lanes > 1) {
      oc_printf(c->body, "((uchar%u)(", lanes);
      oc_const_lane(c, c->body, HG_IR_BOOL, one);
      oc_puts(c->body, "))");
    } else {
      oc_const_lane(c, c->body, HG_IR_BOOL, one);
    }
    (void)rt;
    end(c);
    return;
  }
  default: oc_fail(c, "bad fcmp predicate %u", in->flags); return;
  }
  begin(c, in);
  /* scalars: relational results are int 0/1; vectors: -1/0 masks */
  if (lanes > 1) oc_printf(c->body, "convert_uchar%u(-(%s", lanes, negate ? "~" : "");
  else oc_printf(c->body, "(uchar)(%s", negate ? "!" : "");
  oc_puts(c->body, "(");
  if (fn) {
    oc_printf(c->body, "%s(", fn);
    valf(c, a);
    oc_puts(c->body, ", ");
    valf(c, b);
    oc_puts(c->body, ")");
  } else {
    valf(c, a);
    oc_printf(c->body, " %s ", op);
    valf(c, b);
  }
  oc_puts(c->body, lanes > 1 ? ")))" : "))");
  end(c);
}

static void emit_select(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t cond = in->operands[0], a = in->operands[1], b = in->operands[2];
  hg_ir_type ct = oc_vtype(c, cond), t = in->type;
  begin(c, in);
  if (lanes_of(ct) > 1) {
    /* select() takes the most significant bit of a mask of the operands' element size */
    hg_ir_type mt = t;
    if (mt.scalar == HG_IR_BOOL) mt.scalar = HG_IR_I8;
    oc_puts(c->body, "select(");
    val(c, b);
    oc_puts(c->body, ", ");
    val(c, a);
    oc_printf(c->body, ", -convert_%s%u(", oc_sname((hg_ir_scalar)mt.scalar), ct.lanes);
    val(c, cond);
    oc_puts(c->body, "))");
  } else {
    oc_puts(c->body, "(");
    val(c, cond);
    oc_puts(c->body, " ? ");
    val(c, a);
    oc_puts(c->body, " : ");
    val(c, b);
    oc_puts(c->body, ")");
  }
  end(c);
}

/* ---- conversions ---- */
static void emit_cast(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t a = in->operands[0];
  hg_ir_type st = oc_vtype(c, a), t = in->type;
  unsigned lanes = lanes_of(t);
  char tb[TB];
  oc_type(c, t, tb, sizeof tb);
  const char *un = oc_uname((hg_ir_scalar)t.scalar);
  if (st.scalar == HG_IR_F64 || t.scalar == HG_IR_F64) c->need |= OC_NEED_FP64;
  begin(c, in);
  switch (in->op) {
  case HG_OP_TRUNC:
    if (t.scalar == HG_IR_BOOL) {
      if (lanes > 1) { conv_open(c, "uchar", lanes); val(c, a); oc_printf(c->body, " & (%s)1)", oc_uname((hg_ir_scalar)st.scalar)); }
      else { oc_puts(c->body, "(uchar)("); val(c, a); oc_puts(c->body, " & 1u)"); }
      break;
    }
    /* fall through */
  case HG_OP_ZEXT:
    if (lanes > 1) { conv_open(c, un, lanes); val(c, a); oc_puts(c->body, ")"); }
    else { oc_printf(c->body, "(%s)", tb); val(c, a); }
    break;
  case HG_OP_SEXT:
    if (lanes > 1) {
      as_open(c, un, lanes);
      conv_open(c, oc_sname((hg_ir_scalar)t.scalar), lanes);
      vals(c, a);
      oc_puts(c->body, "))");
    } else {
      oc_printf(c->body, "(%s)", tb);
      vals(c, a);
    }
    break;
  case HG_OP_FPTRUNC:
  case HG_OP_FPEXT:
    if (t.scalar == HG_IR_F16) {
      f2h_open(c, lanes, st.scalar == HG_IR_F64);
      val(c, a);
      oc_puts(c->body, ")");
    } else if (lanes > 1) {
      conv_open(c, un, lanes);
      valf(c, a);
      oc_puts(c->body, ")");
    } else {
      oc_printf(c->body, "(%s)", tb);
      valf(c, a);
    }
    break;
  case HG_OP_FPTOUI:
    conv_open(c, un, lanes);
    valf(c, a);
    oc_puts(c->body, ")");
    break;
  case HG_OP_FPTOSI:
    as_open(c, un, lanes);
    conv_open(c, oc_sname((hg_ir_scalar)t.scalar), lanes);
    valf(c, a);
    oc_puts(c->body, "))");
    break;
  case HG_OP_UITOFP:
  case HG_OP_SITOFP:
    if (t.scalar == HG_IR_F16) f2h_open(c, lanes, false);
    conv_open(c, t.scalar == HG_IR_F16 ? "float" : un, lanes);
    if (in->op == HG_OP_SITOFP) vals(c, a);
    else val(c, a);
    oc_puts(c->body, t.scalar == HG_IR_F16 ? "))" : ")");
    break;
  case HG_OP_PTRTOINT:
    oc_printf(c->body, "(%s)(ulong)", tb);
    val(c, a);
    break;
  case HG_OP_INTTOPTR:
    oc_printf(c->body, "(%s)(ulong)", tb);
    val(c, a);
    break;
  case HG_OP_ADDRSPACECAST:
    if (st.addrspace != t.addrspace) oc_fail(c, "addrspacecast %u -> %u has no OpenCL C 1.2 form", st.addrspace, t.addrspace);
    val(c, a);
    break;
  case HG_OP_BITCAST:
    if (hg_ir_type_eq(st, t) || (st.scalar == HG_IR_PTR && t.scalar == HG_IR_PTR) ||
        (oc_type_size(st) == oc_type_size(t) && !strcmp(oc_uname((hg_ir_scalar)st.scalar), un) && st.lanes == t.lanes)) {
      val(c, a); /* same register representation (e.g. f16 <-> i16) */
    } else if (st.scalar == HG_IR_BOOL && lanes_of(st) > 1) {
      /* <N x i1> -> iN: pack lanes */
      oc_printf(c->body, "(%s)(", tb);
      for (unsigned i = 0; i < st.lanes; i++) {
        if (i) oc_puts(c->body, " | ");
        oc_puts(c->body, "((ulong)(");
        val(c, a);
        oc_printf(c->body, ").s%X << %u)", i, i);
      }
      oc_puts(c->body, ")");
    } else if (t.scalar == HG_IR_BOOL && lanes > 1) {
      oc_printf(c->body, "(uchar%u)(", lanes);
      for (unsigned i = 0; i < lanes; i++) {
        if (i) oc_puts(c->body, ", ");
        oc_puts(c->body, "(uchar)((");
        val(c, a);
        oc_printf(c->body, " >> %u) & 1u)", i);
      }
      oc_puts(c->body, ")");
    } else if ((st.lanes == 3 || lanes == 3) &&
               !(st.lanes == 3 && lanes == 3 && hg_ir_scalar_bytes((hg_ir_scalar)st.scalar) == hg_ir_scalar_bytes((hg_ir_scalar)t.scalar))) {
      oc_fail(c, "bitcast involving 3-element vectors is not supported");
    } else {
      as_open(c, un, lanes);
      val(c, a);
      oc_puts(c->body, ")");
    }
    break;
  default: break;
  }
  end(c);
}

/* ---- vectors ---- */
static bool const_index(oc_ctx *c, uint32_t v, uint64_t *out) {
  const hg_ir_value *val = &c->f->values[v];
  if (val->kind != HG_VAL_CONST) return false;
  *out = c->f->const_words[val->index];
  return true;
}

static unsigned pow2_lanes(unsigned lanes) { return lanes == 3 ? 4 : lanes; }

static void emit_extract(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t v = in->operands[0], idx = in->operands[1];
  hg_ir_type vt = oc_vtype(c, v);
  uint64_t k;
  char tb[TB];
  if (lanes_of(vt) == 1) {
    begin(c, in);
    val(c, v);
    end(c);
    return;
  }
  if (const_index(c, idx, &k)) {
    begin(c, in);
    oc_puts(c->body, "(");
    val(c, v);
    oc_printf(c->body, ").s%X", (unsigned)(k % vt.lanes));
    end(c);
    return;
  }
  unsigned t = c->tmp_counter++;
  oc_printf(c->body, "  { %s hg_t%u = ", oc_type(c, vt, tb, sizeof tb), t);
  val(c, v);
  oc_printf(c->body, "; ");
  oc_res(c, c->body, in);
  oc_printf(c->body, " = ((__private %s *)&hg_t%u)[(", oc_uname((hg_ir_scalar)vt.scalar), t);
  val(c, idx);
  oc_printf(c->body, ") & %uu]; }\n", pow2_lanes(vt.lanes) - 1);
}

static void emit_insert(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t v = in->operands[0], e = in->operands[1], idx = in->operands[2];
  hg_ir_type vt = oc_vtype(c, v);
  uint64_t k;
  if (lanes_of(vt) == 1) {
    begin(c, in);
    val(c, e);
    end(c);
    return;
  }
  begin(c, in);
  val(c, v);
  end(c);
  oc_puts(c->body, "  ");
  if (const_index(c, idx, &k)) {
    oc_res(c, c->body, in);
    oc_printf(c->body, ".s%X = ", (unsigned)(k % vt.lanes));
  } else {
    oc_printf(c->body, "((__private %s *)&", oc_uname((hg_ir_scalar)vt.scalar));
    oc_res(c, c->body, in);
    oc_puts(c->body, ")[(");
    val(c, idx);
    oc_printf(c->body, ") & %uu] = ", pow2_lanes(vt.lanes) - 1);
  }
  val(c, e);
  end(c);
}

static void emit_shuffle(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t a = in->operands[0], b = in->operands[1];
  unsigned la = lanes_of(oc_vtype(c, a)), lb = lanes_of(oc_vtype(c, b));
  hg_ir_type t = in->type;
  unsigned lanes = lanes_of(t);
  char tb[TB];
  if (in->num_imm != lanes) {
    oc_fail(c, "shuffle with %u selectors for %u lanes", in->num_imm, lanes);
    return;
  }
  begin(c, in);
  if (lanes > 1) oc_printf(c->body, "((%s)(", oc_type(c, t, tb, sizeof tb));
  for (unsigned i = 0; i < lanes; i++) {
    uint32_t s = in->imm[i];
    if (i) oc_puts(c->body, ", ");
    if (s == HG_IR_NONE || s >= la + lb) {
      oc_const_lane(c, c->body, (hg_ir_scalar)t.scalar, 0);
      continue;
    }
    uint32_t src = s < la ? a : b;
    unsigned l = s < la ? s : s - la;
    unsigned sl = s < la ? la : lb;
    if (sl == 1) {
      val(c, src);
    } else {
      oc_puts(c->body, "(");
      val(c, src);
      oc_printf(c->body, ").s%X", l);
    }
  }
  if (lanes > 1) oc_puts(c->body, "))");
  end(c);
}

/* ---- calls ---- */
static void emit_call(oc_ctx *c, const hg_ir_inst *in) {
  uint32_t callee = in->num_imm ? in->imm[0] : HG_IR_NONE;
  if (callee >= c->m->num_functions) {
    oc_fail(c, "call to function %u out of range", callee);
    return;
  }
  if (in->id != HG_IR_NONE && in->type.scalar != HG_IR_VOID) begin(c, in);
  else oc_puts(c->body, "  ");
  oc_func_name(c, c->body, callee, false);
  oc_puts(c->body, "(");
  bool first = true;
  for (uint32_t i = 0; i < in->num_operands; i++) {
    if (!first) oc_puts(c->body, ", ");
    first = false;
    val(c, in->operands[i]);
  }
  for (uint32_t g = 0; g < c->m->num_globals; g++) {
    if (!c->local_uses[(size_t)callee * c->m->num_globals + g]) continue;
    if (!first) oc_puts(c->body, ", ");
    first = false;
    oc_global_name(c, c->body, g);
  }
  if (c->uses_printf[callee]) {
    oc_printf(c->body, "%s%s", first ? "" : ", ", OC_PRINTF_PARAM);
    first = false;
  }
  if (c->robust) oc_robust_call_args(c, c->body, first);
  oc_puts(c->body, ")");
  end(c);
}

static void fence_flags(oc_buf *b, uint32_t flags) {
  if (!(flags & (HG_FENCE_LOCAL | HG_FENCE_GLOBAL))) flags |= HG_FENCE_LOCAL | HG_FENCE_GLOBAL;
  bool first = true;
  if (flags & HG_FENCE_LOCAL) { oc_puts(b, "CLK_LOCAL_MEM_FENCE"); first = false; }
  if (flags & HG_FENCE_GLOBAL) { oc_printf(b, "%sCLK_GLOBAL_MEM_FENCE", first ? "" : " | "); }
}

void oc_emit_inst(oc_ctx *c, uint32_t block, const hg_ir_inst *in) {
  switch ((hg_ir_opcode)in->op) {
  case HG_OP_ADD: case HG_OP_SUB: case HG_OP_MUL: case HG_OP_SDIV: case HG_OP_UDIV: case HG_OP_SREM:
  case HG_OP_UREM: case HG_OP_SHL: case HG_OP_LSHR: case HG_OP_ASHR: case HG_OP_AND: case HG_OP_OR:
  case HG_OP_XOR:
    emit_int_binop(c, in);
    break;
  case HG_OP_FADD: case HG_OP_FSUB: case HG_OP_FMUL: case HG_OP_FDIV: case HG_OP_FREM: case HG_OP_FNEG:
    emit_float_binop(c, in);
    break;
  case HG_OP_ICMP: emit_icmp(c, in); break;
  case HG_OP_FCMP: emit_fcmp(c, in); break;
  case HG_OP_SELECT: emit_select(c, in); break;
  case HG_OP_TRUNC: case HG_OP_ZEXT: case HG_OP_SEXT: case HG_OP_FPTRUNC: case HG_OP_FPEXT:
  case HG_OP_FPTOUI: case HG_OP_FPTOSI: case HG_OP_UITOFP: case HG_OP_SITOFP: case HG_OP_PTRTOINT:
  case HG_OP_INTTOPTR: case HG_OP_BITCAST: case HG_OP_ADDRSPACECAST:
    emit_cast(c, in);
    break;
  case HG_OP_EXTRACT: emit_extract(c, in); break;
  case HG_OP_INSERT: emit_insert(c, in); break;
  case HG_OP_SHUFFLE: emit_shuffle(c, in); break;
  case HG_OP_PTRADD:
    begin(c, in);
    oc_puts(c->body, "(");
    val(c, in->operands[0]);
    oc_puts(c->body, " + (long)");
    val(c, in->operands[1]);
    oc_puts(c->body, ")");
    end(c);
    break;
  case HG_OP_LOAD: oc_emit_load(c, in); break;
  case HG_OP_STORE: oc_emit_store(c, in); break;
  case HG_OP_MEMCPY: oc_emit_memcpy(c, in); break;
  case HG_OP_MEMMOVE: oc_emit_memmove(c, in); break;
  case HG_OP_MEMSET: oc_emit_memset(c, in); break;
  case HG_OP_SLOT:
    if (!in->num_imm || in->imm[0] >= c->f->num_slots) {
      oc_fail(c, "slot out of range");
      break;
    }
    begin(c, in);
    oc_printf(c->body, "hg_s%u", in->imm[0]);
    end(c);
    break;
  case HG_OP_ATOMIC_RMW: oc_emit_atomic(c, in); break;
  case HG_OP_CMPXCHG: oc_emit_cmpxchg(c, in); break;
  case HG_OP_FENCE: {
    unsigned order = (in->flags >> 8) & 0xf;
    const char *fn = order == HG_ORDER_ACQUIRE ? "read_mem_fence" : order == HG_ORDER_RELEASE ? "write_mem_fence" : "mem_fence";
    oc_printf(c->body, "  %s(", fn);
    fence_flags(c->body, in->num_imm ? in->imm[0] : 0);
    oc_puts(c->body, ");\n");
    break;
  }
  case HG_OP_BARRIER:
    oc_puts(c->body, "  barrier(");
    fence_flags(c->body, in->num_imm ? in->imm[0] : 0);
    oc_puts(c->body, ");\n");
    break;
  case HG_OP_CALL: emit_call(c, in); break;
  case HG_OP_CALL_BUILTIN: oc_emit_call_builtin(c, in); break;
  case HG_OP_PHI: break; /* assigned on the incoming edges */
  default: oc_fail(c, "unexpected opcode %u inside a block", in->op); break;
  }
}

/* ---- control flow ---- */
static bool is_phi_of(const hg_ir_block *blk, const hg_ir_function *f, uint32_t v) {
  if (f->values[v].kind != HG_VAL_INST) return false;
  for (uint32_t i = 0; i < blk->num_insts && blk->insts[i].op == HG_OP_PHI; i++)
    if (blk->insts[i].id == f->values[v].index) return true;
  return false;
}

/* Assigns the phis of `to` for the edge from `from`, as one parallel copy, then jumps. */
static void edge(oc_ctx *c, uint32_t from, uint32_t to, const char *indent) {
  const hg_ir_function *f = c->f;
  if (to >= f->num_blocks) {
    oc_fail(c, "branch to block %u out of range", to);
    return;
  }
  const hg_ir_block *blk = &f->blocks[to];
  uint32_t nphi = 0;
  bool needs_tmp = false;
  while (nphi < blk->num_insts && blk->insts[nphi].op == HG_OP_PHI) nphi++;
  uint32_t incoming[nphi ? nphi : 1];
  for (uint32_t i = 0; i < nphi; i++) {
    const hg_ir_inst *phi = &blk->insts[i];
    incoming[i] = HG_IR_NONE;
    for (uint32_t k = 0; k < phi->num_operands && k < phi->num_imm; k++)
      if (phi->imm[k] == from) { incoming[i] = phi->operands[k]; break; }
    if (incoming[i] == HG_IR_NONE) {
      oc_fail(c, "phi in block %u has no value for predecessor %u", to, from);
      return;
    }
    bool self = f->values[incoming[i]].kind == HG_VAL_INST && f->values[incoming[i]].index == phi->id;
    if (!self && is_phi_of(blk, f, incoming[i])) needs_tmp = true;
  }
  if (needs_tmp && nphi > 1) {
    char tb[TB];
    oc_printf(c->body, "%s{\n", indent);
    uint32_t base = c->tmp_counter;
    c->tmp_counter += nphi;
    for (uint32_t i = 0; i < nphi; i++) {
      oc_printf(c->body, "%s  %s hg_t%u = ", indent, oc_type(c, blk->insts[i].type, tb, sizeof tb), base + i);
      val(c, incoming[i]);
      oc_puts(c->body, ";\n");
    }
    for (uint32_t i = 0; i < nphi; i++) oc_printf(c->body, "%s  hg_r%u = hg_t%u;\n", indent, blk->insts[i].id, base + i);
    oc_printf(c->body, "%s}\n", indent);
  } else {
    for (uint32_t i = 0; i < nphi; i++) {
      const hg_ir_value *iv = &f->values[incoming[i]];
      if (iv->kind == HG_VAL_INST && iv->index == blk->insts[i].id) continue; /* x = x */
      oc_printf(c->body, "%shg_r%u = ", indent, blk->insts[i].id);
      val(c, incoming[i]);
      oc_puts(c->body, ";\n");
    }
  }
  oc_printf(c->body, "%sgoto hg_L%u;\n", indent, to);
}

static void ret_zero(oc_ctx *c) {
  if (c->as_kernel || c->f->ret_type.scalar == HG_IR_VOID) {
    oc_puts(c->body, "  return;\n");
  } else {
    oc_puts(c->body, "  return ");
    oc_zero(c, c->body, c->f->ret_type);
    oc_puts(c->body, ";\n");
  }
}

void oc_emit_terminator(oc_ctx *c, uint32_t block, const hg_ir_inst *in) {
  switch (in->op) {
  case HG_OP_BR:
    edge(c, block, in->imm[0], "  ");
    break;
  case HG_OP_CONDBR:
    oc_puts(c->body, "  if (");
    val(c, in->operands[0]);
    oc_puts(c->body, ") {\n");
    edge(c, block, in->imm[0], "    ");
    oc_puts(c->body, "  } else {\n");
    edge(c, block, in->imm[1], "    ");
    oc_puts(c->body, "  }\n");
    break;
  case HG_OP_SWITCH: {
    oc_puts(c->body, "  switch (");
    val(c, in->operands[0]);
    oc_puts(c->body, ") {\n");
    for (uint32_t i = 1; i < in->num_operands && i < in->num_imm; i++) {
      oc_puts(c->body, "  case ");
      val(c, in->operands[i]);
      oc_puts(c->body, ":\n");
      edge(c, block, in->imm[i], "    ");
    }
    oc_puts(c->body, "  default:\n");
    edge(c, block, in->imm[0], "    ");
    oc_puts(c->body, "  }\n");
    break;
  }
  case HG_OP_RET:
    if (in->num_operands && !c->as_kernel) {
      oc_puts(c->body, "  return ");
      val(c, in->operands[0]);
      oc_puts(c->body, ";\n");
    } else {
      oc_puts(c->body, "  return;\n");
    }
    break;
  case HG_OP_UNREACHABLE: ret_zero(c); break;
  default: oc_fail(c, "block %u does not end with a terminator", block); break;
  }
}
