/* hg_ir_verify: every rule of docs/ir-spec.md, checked in an order that makes each check safe
 * (indices before the things they index, shapes before dominance). */
#include "ir/builtins.h"
#include "ir/cfg.h"
#include "ir/text.h"

#include <stdlib.h>
#include <string.h>

typedef struct vctx {
  const hg_ir_module *m;
  const hg_ir_function *f;
  char *err;
  size_t err_size;
} vctx;

#define FAILF(...)                                                                                            \
  do {                                                                                                       \
    hg_ir_errf(v->err, v->err_size, __VA_ARGS__);                                                            \
    return false;                                                                                            \
  } while (0)

static bool is_int(hg_ir_type t) { return t.scalar >= HG_IR_I8 && t.scalar <= HG_IR_I64; }
static bool is_intb(hg_ir_type t) { return t.scalar >= HG_IR_BOOL && t.scalar <= HG_IR_I64; }
static bool is_float(hg_ir_type t) { return t.scalar >= HG_IR_F16 && t.scalar <= HG_IR_F64; }
static bool is_void(hg_ir_type t) { return t.scalar == HG_IR_VOID; }
static bool is_ptr(hg_ir_type t) { return t.scalar == HG_IR_PTR; }
static unsigned bits(hg_ir_type t) { return t.scalar == HG_IR_BOOL ? 1 : 8 * hg_ir_scalar_bytes(t.scalar); }
static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }
/* images and samplers: kernel parameters (samplers also constants), operands of image builtins */
static bool is_handle(hg_ir_type t) { return t.scalar == HG_IR_IMAGE || t.scalar == HG_IR_SAMPLER; }
static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The first name given twice among n names (NULL entries skipped), or NULL: n log n. */
static const char *first_duplicate(const char **names, uint32_t n, bool *oom) {
  const char **s = malloc((n ? n : 1) * sizeof *s);
  if (!s) {
    *oom = true;
    return NULL;
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (names[i])
      s[k++] = names[i];
  qsort(s, k, sizeof *s, cmp_str);
  const char *dup = NULL;
  for (uint32_t i = 1; i < k && !dup; i++)
    if (strcmp(s[i], s[i - 1]) == 0)
      dup = s[i];
  free(s);
  return dup;
}

static bool verify_global(vctx *v, uint32_t gi) {
  const hg_ir_global *g = &v->m->globals[gi];
  if (!g->name || !g->name[0])
    FAILF("global %u: empty name", gi);
  if (g->addrspace != HG_AS_GLOBAL && g->addrspace != HG_AS_CONSTANT && g->addrspace != HG_AS_LOCAL)
    FAILF("global @%s: address space %u not global, constant or local", g->name, g->addrspace);
  if (!is_pow2(g->align))
    FAILF("global @%s: alignment %u not a power of two", g->name, g->align);
  if (g->addrspace == HG_AS_LOCAL && (g->has_init || g->num_relocs))
    FAILF("global @%s: __local variables have no initializer", g->name);
  if (g->linkage > HG_LINK_IMPORTED)
    FAILF("global @%s: unknown linkage %u", g->name, g->linkage);
  if (g->linkage != HG_LINK_INTERNAL && g->addrspace == HG_AS_LOCAL)
    FAILF("global @%s: __local variables do not link across modules", g->name);
  if (g->linkage == HG_LINK_IMPORTED && g->has_init)
    FAILF("global @%s: a declaration has no initializer", g->name);
  if (g->linkage == HG_LINK_IMPORTED && v->m->program_kind == HG_IR_PROGRAM_EXECUTABLE)
    FAILF("global @%s is declared but defined in no module", g->name);
  if (g->has_init && g->size && !g->init)
    FAILF("global @%s: initializer missing", g->name);
  if (g->num_relocs && !g->has_init)
    FAILF("global @%s: relocations without initializer", g->name);
  for (uint32_t r = 0; r < g->num_relocs; r++) {
    const struct hg_ir_reloc *rl = &g->relocs[r];
    if (rl->offset > g->size || g->size - rl->offset < 8)
      FAILF("global @%s: relocation %u at %u outside the variable", g->name, r, rl->offset);
    if (rl->target >= v->m->num_globals)
      FAILF("global @%s: relocation %u names global %u, out of range", g->name, r, rl->target);
    if (v->m->globals[rl->target].addrspace == HG_AS_LOCAL)
      FAILF("global @%s: relocation %u points at a __local variable", g->name, r);
    for (unsigned k = 0; k < 8; k++)
      if (g->init[rl->offset + k])
        FAILF("global @%s: initializer bytes under relocation %u not zero", g->name, r);
    if (r && g->relocs[r - 1].offset + 8 > rl->offset)
      FAILF("global @%s: relocations not sorted or overlapping", g->name);
  }
  return true;
}

/* The canonical lane word: the value in the low bits of its width, zero above. */
static bool const_lane_ok(hg_ir_type t, uint64_t w) {
  unsigned b = t.scalar == HG_IR_PTR ? 64 : bits(t);
  if (b < 64 && (w >> b))
    return false;
  return true;
}

/* Location prefix for messages about instruction i of block b. */
#define AT "function @%s, bb%u, instruction %u (%s): "
#define ATARGS v->f->name, b, i, hg_ir_opcode_name(in->op) ? hg_ir_opcode_name(in->op) : "?"

static bool check_inst_shape(vctx *v, uint32_t b, uint32_t i, const hg_ir_inst *in) {
  const hg_ir_function *f = v->f;
  const hg_ir_module *m = v->m;
  hg_ir_type t = in->type;
  uint32_t no = in->num_operands, ni = in->num_imm;
  hg_ir_type o[3] = {{0}};
  for (uint32_t k = 0; k < no && k < 3; k++)
    o[k] = f->values[in->operands[k]].type;
  unsigned op = in->op;
#define NEED(nops, nimm)                                                                                      \
  do {                                                                                                       \
    if (no != (nops) || ni != (nimm))                                                                        \
      FAILF(AT "expects %u operands and %u immediates, has %u and %u", ATARGS, (unsigned)(nops),             \
            (unsigned)(nimm), no, ni);                                                                       \
  } while (0)
#define RULE(cond, msg)                                                                                       \
  do {                                                                                                       \
    if (!(cond))                                                                                             \
      FAILF(AT "%s", ATARGS, msg);                                                                           \
  } while (0)
  for (uint32_t k = 0; k < no; k++)
    RULE(op == HG_OP_CALL_BUILTIN || !is_handle(f->values[in->operands[k]].type),
         "images and samplers are operands of image builtins only (never stored, selected, passed through a "
         "phi or to a function)");
  bool mem_flags = hg_ir_is_mem_op(op);
  bool atomic_flags = op == HG_OP_ATOMIC_RMW || op == HG_OP_CMPXCHG || op == HG_OP_FENCE;
  if (mem_flags) {
    RULE((in->flags & 0xFE) == 0, "unknown memory flags");
    RULE((in->flags >> 8) <= 12, "alignment above 4096");
  } else if (atomic_flags) {
    unsigned aop = in->flags & 0xFF, ord = (in->flags >> 8) & 0xF, sc = in->flags >> 12;
    RULE(op == HG_OP_ATOMIC_RMW ? aop <= HG_ATOMIC_STORE : aop == 0, "bad atomic operation");
    RULE(ord <= HG_ORDER_SEQ_CST && sc <= HG_SCOPE_ALL_DEVICES, "bad memory order or scope");
  } else if (op == HG_OP_CALL_BUILTIN) {
    /* bit i: argument i is an unsigned integer (selects the overload) */
    RULE(in->num_operands >= 16 || (in->flags >> in->num_operands) == 0, "signedness flag beyond the arguments");
  } else if (op == HG_OP_FADD || op == HG_OP_FSUB || op == HG_OP_FMUL) {
    RULE((in->flags & ~(unsigned)HG_FP_CONTRACT) == 0, "unknown floating-point flags");
  } else if (hg_ir_wrap_flags_of(op)) {
    RULE((in->flags & ~hg_ir_wrap_flags_of(op)) == 0, "unknown wrap flags");
  } else if (op != HG_OP_ICMP && op != HG_OP_FCMP) {
    RULE(in->flags == 0, "flags must be zero for this opcode");
  }
  switch (op) {
  case HG_OP_ADD: case HG_OP_SUB: case HG_OP_MUL: case HG_OP_SDIV: case HG_OP_UDIV: case HG_OP_SREM:
  case HG_OP_UREM: case HG_OP_SHL: case HG_OP_LSHR: case HG_OP_ASHR: case HG_OP_AND: case HG_OP_OR:
  case HG_OP_XOR:
    NEED(2, 0);
    RULE(hg_ir_type_eq(o[0], t) && hg_ir_type_eq(o[1], t), "operands and result must have one type");
    RULE(is_int(t) || (t.scalar == HG_IR_BOOL && (op == HG_OP_AND || op == HG_OP_OR || op == HG_OP_XOR)),
         "integer type required (bool only for and, or, xor)");
    break;
  case HG_OP_FADD: case HG_OP_FSUB: case HG_OP_FMUL: case HG_OP_FDIV: case HG_OP_FREM:
    NEED(2, 0);
    RULE(hg_ir_type_eq(o[0], t) && hg_ir_type_eq(o[1], t), "operands and result must have one type");
    RULE(is_float(t), "floating-point type required");
    break;
  case HG_OP_FNEG:
    NEED(1, 0);
    RULE(hg_ir_type_eq(o[0], t) && is_float(t), "floating-point operand of the result type required");
    break;
  case HG_OP_ICMP: case HG_OP_FCMP:
    NEED(2, 0);
    RULE(hg_ir_type_eq(o[0], o[1]), "operands must have one type");
    RULE(t.scalar == HG_IR_BOOL && t.lanes == o[0].lanes, "result must be bool with the operands' lanes");
    if (op == HG_OP_ICMP) {
      RULE(is_intb(o[0]) || is_ptr(o[0]), "icmp compares integers, bools or pointers");
      RULE(in->flags <= HG_CMP_SGE, "integer predicate required");
    } else {
      RULE(is_float(o[0]), "fcmp compares floating-point values");
      RULE(in->flags >= HG_CMP_OEQ && in->flags <= HG_CMP_FALSE, "floating-point predicate required");
    }
    break;
  case HG_OP_SELECT:
    NEED(3, 0);
    RULE(o[0].scalar == HG_IR_BOOL && (o[0].lanes == 1 || o[0].lanes == t.lanes), "condition must be bool");
    RULE(!is_void(t) && hg_ir_type_eq(o[1], t) && hg_ir_type_eq(o[2], t), "values must have the result type");
    break;
  case HG_OP_TRUNC: case HG_OP_ZEXT: case HG_OP_SEXT:
    NEED(1, 0);
    RULE(is_intb(o[0]) && is_intb(t) && o[0].lanes == t.lanes, "integer operand and result, same lanes");
    RULE(op == HG_OP_TRUNC ? bits(t) < bits(o[0]) : bits(t) > bits(o[0]),
         "trunc must narrow, zext and sext must widen");
    break;
  case HG_OP_FPTRUNC: case HG_OP_FPEXT:
    NEED(1, 0);
    RULE(is_float(o[0]) && is_float(t) && o[0].lanes == t.lanes, "float operand and result, same lanes");
    RULE(op == HG_OP_FPTRUNC ? bits(t) < bits(o[0]) : bits(t) > bits(o[0]), "fptrunc narrows, fpext widens");
    break;
  case HG_OP_FPTOUI: case HG_OP_FPTOSI:
    NEED(1, 0);
    RULE(is_float(o[0]) && is_intb(t) && o[0].lanes == t.lanes, "float operand, integer result, same lanes");
    break;
  case HG_OP_UITOFP: case HG_OP_SITOFP:
    NEED(1, 0);
    RULE(is_intb(o[0]) && is_float(t) && o[0].lanes == t.lanes, "integer operand, float result, same lanes");
    break;
  case HG_OP_PTRTOINT:
    NEED(1, 0);
    RULE(is_ptr(o[0]) && is_int(t) && t.lanes == 1, "pointer operand, integer result");
    break;
  case HG_OP_INTTOPTR:
    NEED(1, 0);
    RULE(is_int(o[0]) && o[0].lanes == 1 && is_ptr(t), "integer operand, pointer result");
    break;
  case HG_OP_BITCAST:
    NEED(1, 0);
    RULE(!is_void(t) && !is_ptr(t) && !is_void(o[0]) && !is_ptr(o[0]) && t.scalar != HG_IR_BOOL &&
             o[0].scalar != HG_IR_BOOL,
         "bitcast takes non-pointer, non-bool values");
    RULE(bits(t) * t.lanes == bits(o[0]) * o[0].lanes, "bitcast keeps the size");
    break;
  case HG_OP_ADDRSPACECAST:
    NEED(1, 0);
    RULE(is_ptr(o[0]) && is_ptr(t), "pointer operand and result");
    break;
  case HG_OP_EXTRACT:
    NEED(2, 0);
    RULE(o[0].lanes > 1 && !is_void(o[0]), "vector operand required");
    RULE(is_int(o[1]) && o[1].lanes == 1, "scalar integer index required");
    RULE(t.scalar == o[0].scalar && t.lanes == 1, "result is the element type");
    break;
  case HG_OP_INSERT:
    NEED(3, 0);
    RULE(o[0].lanes > 1 && hg_ir_type_eq(o[0], t), "vector operand of the result type required");
    RULE(o[1].scalar == t.scalar && o[1].lanes == 1, "element of the vector's element type required");
    RULE(is_int(o[2]) && o[2].lanes == 1, "scalar integer index required");
    break;
  case HG_OP_SHUFFLE:
    RULE(no == 2, "expects 2 operands");
    RULE(hg_ir_type_eq(o[0], o[1]) && o[0].lanes > 1, "two vectors of one type required");
    RULE(t.scalar == o[0].scalar && t.lanes > 1 && ni == t.lanes, "one selector per result lane");
    for (uint32_t k = 0; k < ni; k++)
      RULE(in->imm[k] == HG_IR_NONE || in->imm[k] < 2u * o[0].lanes, "lane selector out of range");
    break;
  case HG_OP_PTRADD:
    NEED(2, 0);
    RULE(is_ptr(o[0]) && hg_ir_type_eq(o[0], t), "pointer operand of the result type required");
    RULE(o[1].scalar == HG_IR_I64 && o[1].lanes == 1, "i64 byte offset required");
    break;
  case HG_OP_LOAD:
    NEED(1, 0);
    RULE(is_ptr(o[0]) && !is_void(t), "pointer operand and non-void result");
    break;
  case HG_OP_STORE:
    NEED(2, 0);
    RULE(is_ptr(o[0]) && !is_void(o[1]) && is_void(t), "(pointer, value), void result");
    RULE(o[0].addrspace != HG_AS_CONSTANT, "store to __constant memory");
    break;
  case HG_OP_MEMCPY: case HG_OP_MEMSET: case HG_OP_MEMMOVE:
    NEED(3, 0);
    RULE(is_ptr(o[0]) && is_void(t), "pointer destination, void result");
    RULE(op != HG_OP_MEMSET ? is_ptr(o[1]) : (o[1].scalar == HG_IR_I8 && o[1].lanes == 1),
         op != HG_OP_MEMSET ? "pointer source required" : "i8 fill value required");
    RULE(o[2].scalar == HG_IR_I64 && o[2].lanes == 1, "i64 size required");
    break;
  case HG_OP_SLOT:
    NEED(0, 1);
    RULE(is_ptr(t) && t.addrspace == HG_AS_PRIVATE, "result is a private pointer");
    RULE(in->imm[0] < f->num_slots, "slot index out of range");
    break;
  case HG_OP_ATOMIC_RMW: {
    unsigned aop = in->flags & 0xFF;
    if (aop == HG_ATOMIC_LOAD) {
      NEED(1, 0);
      RULE(is_ptr(o[0]) && (is_int(t) || is_float(t)) && t.lanes == 1, "(pointer) -> scalar");
    } else if (aop == HG_ATOMIC_STORE) {
      NEED(2, 0);
      RULE(is_ptr(o[0]) && (is_int(o[1]) || is_float(o[1])) && o[1].lanes == 1 && is_void(t),
           "(pointer, scalar) -> void");
    } else {
      NEED(2, 0);
      RULE(is_ptr(o[0]) && hg_ir_type_eq(o[1], t) && t.lanes == 1, "(pointer, value) -> value type");
      if (aop == HG_ATOMIC_FADD)
        RULE(is_float(t), "fadd needs a floating-point value");
      else if (aop == HG_ATOMIC_XCHG)
        RULE(is_int(t) || is_float(t), "xchg needs an integer or floating-point value");
      else
        RULE(is_int(t), "integer value required");
    }
    RULE(o[0].addrspace != HG_AS_CONSTANT, "atomics on __constant memory");
    break;
  }
  case HG_OP_CMPXCHG:
    NEED(3, 1);
    RULE(is_ptr(o[0]) && is_int(t) && t.lanes == 1 && hg_ir_type_eq(o[1], t) && hg_ir_type_eq(o[2], t),
         "(pointer, expected, desired) of one integer type");
    RULE(in->imm[0] <= HG_ORDER_SEQ_CST && in->imm[0] != HG_ORDER_RELEASE && in->imm[0] != HG_ORDER_ACQ_REL,
         "failure order must be relaxed, acquire or seq_cst");
    RULE(o[0].addrspace != HG_AS_CONSTANT, "atomics on __constant memory");
    break;
  case HG_OP_FENCE: case HG_OP_BARRIER:
    NEED(0, 1);
    RULE(is_void(t), "void result");
    RULE(in->imm[0] <= 7, "unknown fence flags");
    break;
  case HG_OP_CALL: {
    RULE(ni == 1, "expects 1 immediate (callee)");
    RULE(in->imm[0] < m->num_functions, "callee out of range");
    const hg_ir_function *c = &m->functions[in->imm[0]];
    RULE(no == c->num_params, "argument count differs from the callee's parameters");
    for (uint32_t k = 0; k < no; k++)
      RULE(hg_ir_type_eq(f->values[in->operands[k]].type, c->param_types[k]), "argument type mismatch");
    RULE(hg_ir_type_eq(t, c->ret_type), "result type differs from the callee's");
    break;
  }
  case HG_OP_CALL_BUILTIN:
    RULE(ni == 1, "expects 1 immediate (builtin name)");
    RULE(in->imm[0] < m->num_strings, "builtin name out of range");
    {
      char why[256];
      if (!hg_ir_builtin_check(m, f, in, why, sizeof why))
        FAILF(AT "%s", ATARGS, why);
    }
    break;
  case HG_OP_PHI:
    RULE(no >= 1 && no == ni, "one incoming block per incoming value");
    RULE(!is_void(t), "non-void result");
    for (uint32_t k = 0; k < no; k++) {
      RULE(hg_ir_type_eq(f->values[in->operands[k]].type, t), "incoming value of another type");
      RULE(in->imm[k] < f->num_blocks, "incoming block out of range");
    }
    break;
  case HG_OP_BR:
    NEED(0, 1);
    RULE(is_void(t), "void result");
    break;
  case HG_OP_CONDBR:
    NEED(1, 2);
    RULE(is_void(t) && o[0].scalar == HG_IR_BOOL && o[0].lanes == 1, "scalar bool condition, void result");
    break;
  case HG_OP_SWITCH:
    RULE(no >= 1 && ni == no, "imm = default then one target per case");
    RULE(is_void(t) && is_int(o[0]) && o[0].lanes == 1, "scalar integer value, void result");
    for (uint32_t k = 1; k < no; k++) {
      const hg_ir_value *cv = &f->values[in->operands[k]];
      RULE(cv->kind == HG_VAL_CONST && hg_ir_type_eq(cv->type, o[0]), "case values are constants of its type");
    }
    if (no > 2) { /* distinct cases: sort the case words and compare neighbours */
      uint64_t *w = malloc((no - 1) * sizeof *w);
      RULE(w != NULL, "out of memory");
      for (uint32_t k = 1; k < no; k++)
        w[k - 1] = f->const_words[f->values[in->operands[k]].index];
      qsort(w, no - 1, sizeof *w, cmp_u64);
      bool dup = false;
      for (uint32_t k = 1; k + 1 < no; k++)
        dup |= w[k] == w[k - 1];
      free(w);
      RULE(!dup, "duplicate case");
    }
    break;
  case HG_OP_RET:
    RULE(ni == 0 && is_void(t), "void result, no immediates");
    if (is_void(f->ret_type))
      RULE(no == 0, "void function returns no value");
    else
      RULE(no == 1 && hg_ir_type_eq(o[0], f->ret_type), "returns one value of the function's type");
    break;
  case HG_OP_UNREACHABLE:
    NEED(0, 0);
    RULE(is_void(t), "void result");
    break;
  default:
    FAILF("function @%s, bb%u, instruction %u: unknown opcode %u", f->name, b, i, op);
  }
  if (hg_ir_is_terminator(op))
    for (uint32_t k = 0; k < ni; k++)
      RULE(in->imm[k] < f->num_blocks, "target block out of range");
  return true;
#undef NEED
#undef RULE
}

static bool verify_kernel_meta(vctx *v) {
  const hg_ir_function *f = v->f;
  if (!f->args)
    FAILF("kernel @%s: argument metadata missing", f->name);
  if (!is_void(f->ret_type))
    FAILF("kernel @%s: kernels return void", f->name);
  if (!f->num_blocks)
    FAILF("kernel @%s: kernels must have a body", f->name);
  for (uint32_t i = 0; i < f->num_params; i++) {
    const hg_ir_kernel_arg *a = &f->args[i];
    hg_ir_type t = f->param_types[i];
    if (!a->name || !a->type_name)
      FAILF("kernel @%s, argument %u: name and type name required", f->name, i);
    if (a->kind > HG_KARG_IMAGE || a->access_qual > 3 || a->type_qual > 15 || a->reserved)
      FAILF("kernel @%s, argument %u: bad kind or qualifiers", f->name, i);
    bool ok = true;
    switch (a->kind) {
    case HG_KARG_GLOBAL_PTR: ok = is_ptr(t) && t.addrspace == HG_AS_GLOBAL; break;
    case HG_KARG_CONSTANT_PTR: ok = is_ptr(t) && t.addrspace == HG_AS_CONSTANT; break;
    case HG_KARG_LOCAL_PTR: ok = is_ptr(t) && t.addrspace == HG_AS_LOCAL; break;
    case HG_KARG_VALUE: ok = a->size > 0 && is_pow2(a->align) && !is_handle(t); break;
    case HG_KARG_SAMPLER: ok = t.scalar == HG_IR_SAMPLER; break;
    case HG_KARG_IMAGE: ok = t.scalar == HG_IR_IMAGE && a->access_qual == t.reserved; break;
    default: break;
    }
    if (!ok)
      FAILF("kernel @%s, argument %u: kind does not match the parameter type", f->name, i);
  }
  bool any = f->reqd_work_group_size[0] || f->reqd_work_group_size[1] || f->reqd_work_group_size[2];
  if (any && !(f->reqd_work_group_size[0] && f->reqd_work_group_size[1] && f->reqd_work_group_size[2]))
    FAILF("kernel @%s: reqd_work_group_size needs three non-zero sizes", f->name);
  any = f->work_group_size_hint[0] || f->work_group_size_hint[1] || f->work_group_size_hint[2];
  if (any && !(f->work_group_size_hint[0] && f->work_group_size_hint[1] && f->work_group_size_hint[2]))
    FAILF("kernel @%s: work_group_size_hint needs three non-zero sizes", f->name);
  return true;
}

static bool verify_state_meta(vctx *v) {
  const hg_ir_function *f = v->f;
  for (uint32_t s = 0; s < f->num_slots; s++) {
    const hg_ir_slot *sl = &f->slots[s];
    if (!is_pow2(sl->align))
      FAILF("function @%s, slot %u: alignment not a power of two", f->name, s);
    if (f->private_size && (sl->offset % sl->align || sl->offset > f->private_size ||
                            f->private_size - sl->offset < sl->size))
      FAILF("function @%s, slot %u: outside the private frame or misaligned", f->name, s);
  }
  for (uint32_t s = 0; s < f->num_safepoints; s++) {
    const hg_ir_safepoint *sp = &f->safepoints[s];
    if (sp->id != s || sp->kind > HG_SAFEPOINT_LOOP_HEADER || sp->block >= f->num_blocks ||
        sp->inst >= f->blocks[sp->block].num_insts)
      FAILF("function @%s, safe point %u: id, kind or position invalid", f->name, s);
    for (uint32_t k = 0; k < sp->num_live; k++) {
      uint32_t x = sp->live[k];
      if (x >= f->num_values || (k && sp->live[k - 1] >= x) ||
          (f->values[x].kind != HG_VAL_PARAM && f->values[x].kind != HG_VAL_INST))
        FAILF("function @%s, safe point %u: live list not sorted parameter/instruction values", f->name, s);
    }
  }
  for (uint32_t s = 0; s < f->num_local_vars; s++) {
    const hg_ir_local_var *lv = &f->local_vars[s];
    if (lv->global >= v->m->num_globals || v->m->globals[lv->global].addrspace != HG_AS_LOCAL)
      FAILF("function @%s, local variable %u: not a __local global", f->name, s);
    const hg_ir_global *g = &v->m->globals[lv->global];
    if (lv->offset % g->align || lv->offset > f->local_static_size || f->local_static_size - lv->offset < g->size)
      FAILF("function @%s, local variable %u: outside the local area or misaligned", f->name, s);
  }
  return true;
}

static bool verify_function(vctx *v, uint32_t fi) {
  const hg_ir_module *m = v->m;
  const hg_ir_function *f = v->f = &m->functions[fi];
  if (!f->name || !f->name[0])
    FAILF("function %u: empty name", fi);
  if (!hg_ir_type_valid(f->ret_type) || is_handle(f->ret_type))
    FAILF("function @%s: invalid return type", f->name);
  if (f->num_values < f->num_params)
    FAILF("function @%s: fewer values than parameters", f->name);
  for (uint32_t i = 0; i < f->num_params; i++)
    if (!hg_ir_type_valid(f->param_types[i]) || is_void(f->param_types[i]))
      FAILF("function @%s: parameter %u has an invalid type", f->name, i);
  /* the value table */
  for (uint32_t x = 0; x < f->num_values; x++) {
    const hg_ir_value *val = &f->values[x];
    if (!hg_ir_type_valid(val->type) || is_void(val->type))
      FAILF("function @%s, %%%u: invalid type", f->name, x);
    if ((x < f->num_params) != (val->kind == HG_VAL_PARAM))
      FAILF("function @%s, %%%u: parameters are exactly the first values", f->name, x);
    /* parameters of kernels, and of the functions backends call (step functions); calls
     * never pass them (check_inst_shape) */
    if (is_handle(val->type) && val->kind != HG_VAL_PARAM &&
        !(val->kind == HG_VAL_CONST && val->type.scalar == HG_IR_SAMPLER))
      FAILF("function @%s, %%%u: an image is a parameter, a sampler a parameter or a constant", f->name, x);
    if (val->kind == HG_VAL_CONST && val->type.scalar == HG_IR_SAMPLER && val->index < f->num_const_words &&
        !hg_ir_sampler_valid(f->const_words[val->index]))
      FAILF("function @%s, %%%u: sampler constant 0x%llx is not valid (bits beyond 0x3f, addressing mode, filter)",
            f->name, x, (unsigned long long)f->const_words[val->index]);
    switch (val->kind) {
    case HG_VAL_PARAM:
      if (val->index != x || !hg_ir_type_eq(val->type, f->param_types[x]))
        FAILF("function @%s, %%%u: parameter index or type mismatch", f->name, x);
      break;
    case HG_VAL_INST:
      if (val->index != x)
        FAILF("function @%s, %%%u: instruction value index must equal its own index", f->name, x);
      break;
    case HG_VAL_CONST:
      if (val->index > f->num_const_words || f->num_const_words - val->index < val->type.lanes)
        FAILF("function @%s, %%%u: constant words out of range", f->name, x);
      for (unsigned l = 0; l < val->type.lanes; l++)
        if (!const_lane_ok(val->type, f->const_words[val->index + l]) || (is_ptr(val->type) && f->const_words[val->index + l]))
          FAILF("function @%s, %%%u: constant lane %u not canonical (bits above its width, or a non-null pointer)",
                f->name, x, l);
      break;
    case HG_VAL_GLOBAL:
      if (val->index >= m->num_globals || !is_ptr(val->type) ||
          val->type.addrspace != m->globals[val->index].addrspace)
        FAILF("function @%s, %%%u: global reference out of range or of the wrong address space", f->name, x);
      break;
    case HG_VAL_UNDEF:
      if (val->index != 0)
        FAILF("function @%s, %%%u: undef index must be 0", f->name, x);
      break;
    default:
      FAILF("function @%s, %%%u: unknown value kind %u", f->name, x, val->kind);
    }
  }
  for (uint32_t s = 0; s < f->num_slots; s++)
    if (!is_pow2(f->slots[s].align))
      FAILF("function @%s, slot %u: alignment not a power of two", f->name, s);
  if (f->is_kernel && !verify_kernel_meta(v))
    return false;
  if (!f->is_kernel && (f->args || f->reqd_work_group_size[0] || f->reqd_work_group_size[1] ||
                        f->reqd_work_group_size[2] || f->work_group_size_hint[0] || f->work_group_size_hint[1] ||
                        f->work_group_size_hint[2] || f->vec_type_hint || (f->attributes && f->attributes[0])))
    FAILF("function @%s: kernel metadata on a function that is not a kernel", f->name);
  if (!verify_state_meta(v))
    return false;

  /* instruction shapes, definitions */
  uint32_t *def_block = malloc((f->num_values ? f->num_values : 1) * sizeof *def_block);
  uint32_t *def_inst = malloc((f->num_values ? f->num_values : 1) * sizeof *def_inst);
  hg_ir_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  bool ok = false;
  if (!def_block || !def_inst) {
    hg_ir_errf(v->err, v->err_size, "out of memory");
    goto out;
  }
  for (uint32_t x = 0; x < f->num_values; x++)
    def_block[x] = def_inst[x] = HG_IR_NONE;
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    const hg_ir_block *bl = &f->blocks[b];
    if (!bl->num_insts) {
      hg_ir_errf(v->err, v->err_size, "function @%s, bb%u: empty block", f->name, b);
      goto out;
    }
    bool past_phis = false;
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      if (in->op == 0 || in->op >= HG_OP_COUNT_) {
        hg_ir_errf(v->err, v->err_size, "function @%s, bb%u, instruction %u: unknown opcode %u", f->name, b, i, in->op);
        goto out;
      }
      if (!hg_ir_type_valid(in->type)) {
        hg_ir_errf(v->err, v->err_size, AT "invalid result type", ATARGS);
        goto out;
      }
      if (hg_ir_is_terminator(in->op) != (i + 1 == bl->num_insts)) {
        hg_ir_errf(v->err, v->err_size, AT "a block ends with its one terminator", ATARGS);
        goto out;
      }
      if (in->op == HG_OP_PHI ? past_phis || b == 0 : false) {
        hg_ir_errf(v->err, v->err_size, AT "phis come first in a block, never in the entry block", ATARGS);
        goto out;
      }
      if (in->op != HG_OP_PHI)
        past_phis = true;
      if (in->num_operands && !in->operands) {
        hg_ir_errf(v->err, v->err_size, AT "operand array missing", ATARGS);
        goto out;
      }
      if (in->num_imm && !in->imm) {
        hg_ir_errf(v->err, v->err_size, AT "immediate array missing", ATARGS);
        goto out;
      }
      for (uint32_t k = 0; k < in->num_operands; k++)
        if (in->operands[k] >= f->num_values) {
          hg_ir_errf(v->err, v->err_size, AT "operand %u names value %u, out of range", ATARGS, k, in->operands[k]);
          goto out;
        }
      if (is_void(in->type)) {
        if (in->id != HG_IR_NONE) {
          hg_ir_errf(v->err, v->err_size, AT "void instruction with a result id", ATARGS);
          goto out;
        }
      } else {
        if (in->id >= f->num_values || f->values[in->id].kind != HG_VAL_INST ||
            !hg_ir_type_eq(f->values[in->id].type, in->type)) {
          hg_ir_errf(v->err, v->err_size, AT "result id is not an instruction value of the result type", ATARGS);
          goto out;
        }
        if (def_block[in->id] != HG_IR_NONE) {
          hg_ir_errf(v->err, v->err_size, AT "value %%%u defined twice", ATARGS, in->id);
          goto out;
        }
        def_block[in->id] = b;
        def_inst[in->id] = i;
      }
      if (!check_inst_shape(v, b, i, in))
        goto out;
    }
  }
  for (uint32_t x = 0; x < f->num_values; x++)
    if (f->values[x].kind == HG_VAL_INST && def_block[x] == HG_IR_NONE) {
      hg_ir_errf(v->err, v->err_size, "function @%s, %%%u: instruction value without instruction", f->name, x);
      goto out;
    }
  if (!f->num_blocks) {
    ok = true;
    goto out;
  }
  /* control flow: phis against predecessors, dominance of every use */
  if (hg_ir_cfg_build(f, &cfg)) {
    hg_ir_errf(v->err, v->err_size, "out of memory");
    goto out;
  }
  if (cfg.pred_start[1] != cfg.pred_start[0]) {
    hg_ir_errf(v->err, v->err_size, "function @%s: the entry block has predecessors", f->name);
    goto out;
  }
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    const hg_ir_block *bl = &f->blocks[b];
    const uint32_t *preds = cfg.pred_list + cfg.pred_start[b];
    uint32_t np = cfg.pred_start[b + 1] - cfg.pred_start[b];
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      if (in->op == HG_OP_PHI) {
        /* the distinct incoming blocks are exactly the predecessors; repeats carry one value */
        /* sorted (block, value) pairs against the sorted distinct predecessors: n log n */
        uint64_t *pairs = malloc(in->num_imm * sizeof *pairs);
        if (!pairs) {
          hg_ir_errf(v->err, v->err_size, "out of memory");
          goto out;
        }
        for (uint32_t k = 0; k < in->num_imm; k++)
          pairs[k] = (uint64_t)in->imm[k] << 32 | in->operands[k];
        qsort(pairs, in->num_imm, sizeof *pairs, cmp_u64);
        const char *why = NULL;
        uint32_t bad = 0, p = 0;
        for (uint32_t k = 0; k < in->num_imm && !why; k++) {
          uint32_t blk = (uint32_t)(pairs[k] >> 32);
          if (k && blk == (uint32_t)(pairs[k - 1] >> 32)) {
            if (pairs[k] != pairs[k - 1])
              why = "incoming twice with different values", bad = blk;
            continue;
          }
          if (p < np && preds[p] < blk)
            why = "predecessor without incoming value", bad = preds[p];
          else if (p >= np || preds[p] != blk)
            why = "is not a predecessor", bad = blk;
          else
            p++;
        }
        if (!why && p < np)
          why = "predecessor without incoming value", bad = preds[p];
        free(pairs);
        if (why) {
          hg_ir_errf(v->err, v->err_size, AT "bb%u %s", ATARGS, bad, why);
          goto out;
        }
      }
      if (!hg_ir_cfg_reachable(&cfg, b))
        continue; /* everything dominates unreachable code */
      for (uint32_t k = 0; k < in->num_operands; k++) {
        uint32_t x = in->operands[k];
        if (f->values[x].kind != HG_VAL_INST)
          continue;
        uint32_t db = def_block[x];
        bool dom;
        if (in->op == HG_OP_PHI) {
          uint32_t p = in->imm[k];
          dom = !hg_ir_cfg_reachable(&cfg, p) || hg_ir_cfg_dominates(&cfg, db, p);
        } else if (db == b) {
          dom = def_inst[x] < i;
        } else {
          dom = hg_ir_cfg_dominates(&cfg, db, b);
        }
        if (!dom) {
          hg_ir_errf(v->err, v->err_size, AT "use of %%%u not dominated by its definition", ATARGS, x);
          goto out;
        }
      }
    }
  }
  ok = true;
out:
  hg_ir_cfg_free(&cfg);
  free(def_block);
  free(def_inst);
  return ok;
}

bool hg_ir_verify(const hg_ir_module *m, char *err, size_t err_size) {
  vctx vc = {m, NULL, err, err_size}, *v = &vc;
  if (!m)
    FAILF("no module");
  if (m->program_kind > HG_IR_PROGRAM_LIBRARY)
    FAILF("unknown program kind %u", m->program_kind);
  for (uint32_t i = 0; i < m->num_strings; i++)
    if (!m->strings[i])
      FAILF("string %u missing", i);
  uint32_t most = m->num_strings > m->num_globals ? m->num_strings : m->num_globals;
  if (m->num_functions > most)
    most = m->num_functions;
  const char **names = malloc((most ? most : 1) * sizeof *names);
  if (!names)
    FAILF("out of memory");
  bool oom = false;
  const char *dup = first_duplicate((const char **)m->strings, m->num_strings, &oom);
  for (uint32_t i = 0; !dup && !oom && i < m->num_globals; i++)
    names[i] = m->globals[i].name;
  const char *dupg = dup || oom ? NULL : first_duplicate(names, m->num_globals, &oom);
  for (uint32_t i = 0; !dup && !dupg && !oom && i < m->num_functions; i++)
    names[i] = m->functions[i].name;
  const char *dupf = dup || dupg || oom ? NULL : first_duplicate(names, m->num_functions, &oom);
  free(names);
  if (oom)
    FAILF("out of memory");
  if (dup)
    FAILF("string \"%s\" interned twice", dup);
  if (dupg)
    FAILF("global @%s: name defined twice", dupg);
  if (dupf)
    FAILF("function @%s: name defined twice", dupf);
  for (uint32_t g = 0; g < m->num_globals; g++)
    if (!verify_global(v, g))
      return false;
  for (uint32_t fi = 0; fi < m->num_functions; fi++)
    if (!verify_function(v, fi))
      return false;
  return true;
}
