/* Builtin calls against their signatures (ir/builtin_table.c): the name patterns of the
 * families whose names carry a width or a type, and the matching of a call's operand and
 * result types against a row's tokens. */
#include "ir/builtin_table.h"
#include "ir/text.h"

#include <string.h>

/* ---- names ------------------------------------------------------------------------------ */

/* What a name pattern captured. */
typedef struct name_caps {
  unsigned width;  /* lanes the name spells (#, %, $, &), 0 when the pattern has no width */
  hg_ir_scalar ty; /* the type the name spells ($, &), HG_IR_VOID when none */
  bool sat;
  char rounding; /* 0, or 'e' 'z' 'p' 'n' */
  const char *ty_name; /* where the spelled type's name (with its width) starts in the name */
  size_t ty_len;
} name_caps;

static const struct {
  const char *text;
  unsigned n;
} k_widths[] = {{"16", 16}, {"2", 2}, {"3", 3}, {"4", 4}, {"8", 8}};

static const struct {
  const char *name;
  hg_ir_scalar s;
} k_type_names[] = {{"char", HG_IR_I8},   {"uchar", HG_IR_I8},  {"short", HG_IR_I16},  {"ushort", HG_IR_I16},
                    {"int", HG_IR_I32},   {"uint", HG_IR_I32},  {"long", HG_IR_I64},   {"ulong", HG_IR_I64},
                    {"float", HG_IR_F32}, {"double", HG_IR_F64}, {"half", HG_IR_F16}};

static const char *const k_roundings[] = {"_rte", "_rtz", "_rtp", "_rtn"};

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Does name n match pattern p..pe (syntax: ir/builtin_table.h)? Fills c on success. The
 * placeholders offer a few alternatives each; trying them in turn (backtracking) keeps the
 * grammar out of the code. */
static bool match(const char *p, const char *pe, const char *n, name_caps *c) {
  if (p == pe)
    return *n == 0;
  switch (*p) {
  case '#':
  case '%':
    for (size_t i = 0; i < sizeof k_widths / sizeof k_widths[0]; i++)
      if (starts(n, k_widths[i].text) && match(p + 1, pe, n + strlen(k_widths[i].text), c)) {
        c->width = k_widths[i].n;
        return true;
      }
    if (*p == '%' && match(p + 1, pe, n, c)) {
      c->width = 1;
      return true;
    }
    return false;
  case '@':
    for (size_t i = 0; i < 4; i++)
      if (starts(n, k_roundings[i]) && match(p + 1, pe, n + 4, c)) {
        c->rounding = k_roundings[i][3];
        return true;
      }
    return match(p + 1, pe, n, c);
  case '!':
    if (starts(n, "_sat") && match(p + 1, pe, n + 4, c)) {
      c->sat = true;
      return true;
    }
    return match(p + 1, pe, n, c);
  case '$':
  case '&':
    for (size_t i = 0; i < sizeof k_type_names / sizeof k_type_names[0]; i++) {
      const char *t = k_type_names[i].name;
      if ((*p == '$' && k_type_names[i].s == HG_IR_F16) || !starts(n, t))
        continue;
      const char *after = n + strlen(t);
      unsigned w = 1;
      for (size_t k = 0; k <= sizeof k_widths / sizeof k_widths[0]; k++) {
        const char *wt = k < sizeof k_widths / sizeof k_widths[0] ? k_widths[k].text : "";
        if (!starts(after, wt) || !match(p + 1, pe, after + strlen(wt), c))
          continue;
        w = *wt ? k_widths[k].n : 1;
        c->width = w;
        c->ty = k_type_names[i].s;
        c->ty_name = n;
        c->ty_len = strlen(t) + strlen(wt);
        return true;
      }
    }
    return false;
  default:
    return *p == *n && match(p + 1, pe, n + 1, c);
  }
}

/* Does `name` appear among a row's names? */
static bool row_names(const hg_ir_builtin_row *r, const char *name, name_caps *c) {
  for (const char *p = r->names; *p;) {
    const char *e = strchr(p, ' ');
    if (!e)
      e = p + strlen(p);
    memset(c, 0, sizeof *c);
    if (match(p, e, name, c))
      return true;
    p = *e ? e + 1 : e;
  }
  return false;
}

hg_ir_builtin_family hg_ir_builtin_family_of(const char *name) {
  name_caps c;
  for (unsigned i = 0; name && i < hg_ir_builtin_num_rows; i++)
    if (row_names(&hg_ir_builtin_rows[i], name, &c))
      return (hg_ir_builtin_family)hg_ir_builtin_rows[i].family;
  return HG_IR_BF_UNKNOWN;
}

bool hg_ir_builtin_parse_convert(const char *name, char *dst_type, unsigned dst_size, bool *sat, char *rounding) {
  static const char pattern[] = "convert_$!@";
  name_caps c;
  memset(&c, 0, sizeof c);
  if (!name || !match(pattern, pattern + sizeof pattern - 1, name, &c))
    return false;
  if (dst_type) {
    if (c.ty_len + 1 > dst_size)
      return false;
    memcpy(dst_type, c.ty_name, c.ty_len);
    dst_type[c.ty_len] = 0;
  }
  if (sat)
    *sat = c.sat;
  if (rounding)
    *rounding = c.rounding;
  return true;
}

/* ---- types -------------------------------------------------------------------------------- */

static unsigned elem_bits(hg_ir_scalar s) { return 8 * hg_ir_scalar_bytes(s); }

/* A type a value can have at all: checked here too because the lowerings call this on modules
 * the verifier has not seen. */
static bool well_formed(hg_ir_type t) { return hg_ir_type_valid(t) && t.scalar != HG_IR_VOID; }

static hg_ir_scalar int_of_bits(unsigned bits) {
  return bits == 8 ? HG_IR_I8 : bits == 16 ? HG_IR_I16 : bits == 32 ? HG_IR_I32 : bits == 64 ? HG_IR_I64 : HG_IR_VOID;
}

typedef struct match_ctx {
  const hg_ir_builtin_row *row;
  const name_caps *caps;
  hg_ir_type t, m; /* T and M once bound (scalar VOID before) */
  char want[96];   /* what the failed token expected, for the message */
} match_ctx;

/* A gentype T may be: an element of the row's types, lanes of its lanes and the name's width. */
static bool t_allowed(const match_ctx *x, hg_ir_type t) {
  if (!well_formed(t) || t.scalar == HG_IR_PTR || !(x->row->types >> t.scalar & 1) || !(x->row->lanes >> t.lanes & 1))
    return false;
  return !x->caps->width || t.lanes == x->caps->width;
}

static void describe_t(match_ctx *x) {
  size_t k = 0;
  for (unsigned s = HG_IR_BOOL; s <= HG_IR_F64 && k < sizeof x->want; s++)
    if (x->row->types >> s & 1)
      k += (size_t)snprintf(x->want + k, sizeof x->want - k, "%s%s", k ? "/" : "", hg_ir_scalar_names[s]);
  if (k >= sizeof x->want)
    return;
  if (x->caps->width > 1)
    snprintf(x->want + k, sizeof x->want - k, " with %u lanes", x->caps->width);
  else if (x->caps->width == 1 || x->row->lanes == HG_BL(1))
    snprintf(x->want + k, sizeof x->want - k, " scalar");
  else if (x->row->lanes != HG_BL_ANY)
    snprintf(x->want + k, sizeof x->want - k, " with %s lanes",
             x->row->lanes == (HG_BL(3) | HG_BL(4)) ? "3 or 4" : x->row->lanes & HG_BL(1) ? "1 to 4" : "2, 4, 8 or 16");
}

/* The type a T-derived token stands for, once T (and M) are bound. */
static hg_ir_type derived(const match_ctx *x, char tok) {
  hg_ir_type t = x->t;
  switch (tok) {
  case 't': return hg_ir_ty((hg_ir_scalar)t.scalar, 1);
  case 'K': return hg_ir_ty(HG_IR_I32, t.lanes);
  case 'U': return hg_ir_ty(int_of_bits(elem_bits((hg_ir_scalar)t.scalar)), t.lanes);
  case 'R': return t.lanes == 1 ? hg_ir_ty(HG_IR_I32, 1) : hg_ir_ty(int_of_bits(elem_bits((hg_ir_scalar)t.scalar)), t.lanes);
  case 'W': return hg_ir_ty(int_of_bits(2 * elem_bits((hg_ir_scalar)t.scalar)), t.lanes);
  case 'D': return hg_ir_ty(x->caps->ty, x->caps->width);
  case 'Y': return hg_ir_ty((hg_ir_scalar)t.scalar, x->m.lanes);
  case 'i': return hg_ir_ty(HG_IR_I32, 1);
  case 'l': return hg_ir_ty(HG_IR_I64, 1);
  case 'b': return hg_ir_ty(HG_IR_BOOL, 1);
  default: return hg_ir_void_ty();
  }
}

static bool is_ptr_to(hg_ir_type a, unsigned mask) {
  return a.scalar == HG_IR_PTR && a.lanes == 1 && a.addrspace <= HG_AS_GENERIC && (mask >> a.addrspace & 1);
}
#define AS(a) (1u << (a))
#define AS_ANY (AS(HG_AS_PRIVATE) | AS(HG_AS_GLOBAL) | AS(HG_AS_CONSTANT) | AS(HG_AS_LOCAL) | AS(HG_AS_GENERIC))

/* Does type a fit token tok (T and M bound)? */
static bool type_fits(const match_ctx *x, char tok, hg_ir_type a) {
  switch (tok) {
  case 'T': return hg_ir_type_eq(a, x->t);
  case 'S': return hg_ir_type_eq(a, x->t) || hg_ir_type_eq(a, derived(x, 't'));
  case 'Z':
    return well_formed(a) && a.scalar != HG_IR_PTR && a.scalar != HG_IR_BOOL &&
           elem_bits((hg_ir_scalar)a.scalar) * a.lanes == elem_bits(x->caps->ty) * x->caps->width;
  case 'M':
    return well_formed(a) && a.scalar == int_of_bits(elem_bits((hg_ir_scalar)x->t.scalar)) && a.lanes > 1 &&
           (x->row->lanes >> a.lanes & 1);
  case 'p': return is_ptr_to(a, AS_ANY & ~AS(HG_AS_CONSTANT));
  case 'q': return is_ptr_to(a, AS_ANY);
  case 'a': return is_ptr_to(a, AS(HG_AS_GLOBAL) | AS(HG_AS_LOCAL));
  case 'c': return is_ptr_to(a, AS(HG_AS_CONSTANT));
  case '*': return well_formed(a);
  default: {
    hg_ir_type d = derived(x, tok);
    if (d.scalar == HG_IR_VOID && tok != 'v') /* W of a 64-bit T: no such type (the row rules it out) */
      return false;
    return a.scalar == d.scalar && a.lanes == d.lanes && a.reserved == 0 && a.addrspace == 0;
  }
  }
}

/* What token tok expects, in x->want (only for a message: a large program checks millions of
 * operands, and formatting each type cost hashcat's loads a tenth of their time). */
static void describe_want(match_ctx *x, char tok) {
  char tn[32], en[32];
  switch (tok) {
  case 'T':
    hg_ir_type_text(x->t, tn, sizeof tn);
    snprintf(x->want, sizeof x->want, "%s (the call's gentype)", tn);
    return;
  case 'S':
    hg_ir_type_text(x->t, tn, sizeof tn);
    hg_ir_type_text(derived(x, 't'), en, sizeof en);
    if (x->t.lanes > 1)
      snprintf(x->want, sizeof x->want, "%s or %s", tn, en);
    else
      snprintf(x->want, sizeof x->want, "%s", tn);
    return;
  case 'Z':
    snprintf(x->want, sizeof x->want, "a %u-bit value, not a pointer or bool", elem_bits(x->caps->ty) * x->caps->width);
    return;
  case 'M':
    snprintf(x->want, sizeof x->want, "a vector of i%u with 2, 4, 8 or 16 lanes", elem_bits((hg_ir_scalar)x->t.scalar));
    return;
  case 'p': snprintf(x->want, sizeof x->want, "a pointer not to __constant"); return;
  case 'q': snprintf(x->want, sizeof x->want, "a pointer"); return;
  case 'a': snprintf(x->want, sizeof x->want, "a pointer to __global or __local"); return;
  case 'c': snprintf(x->want, sizeof x->want, "a pointer to __constant"); return;
  case '*': snprintf(x->want, sizeof x->want, "a value"); return;
  default: {
    hg_ir_type d = derived(x, tok);
    if (d.scalar == HG_IR_VOID && tok != 'v')
      snprintf(x->want, sizeof x->want, "nothing (no type fits)");
    else
      hg_ir_type_text(d, x->want, sizeof x->want);
  }
  }
}

/* type_fits; on a mismatch x->want says what was expected. */
static bool fits(match_ctx *x, char tok, hg_ir_type a) {
  if (type_fits(x, tok, a))
    return true;
  describe_want(x, tok);
  return false;
}

/* ---- calls -------------------------------------------------------------------------------- */

/* The outcome of matching one row: 0 matched; else how far it got (for choosing the message of
 * the closest overload) and the message. */
typedef struct row_result {
  unsigned score;
  char msg[200];
} row_result;

static hg_ir_type operand_type(const hg_ir_function *f, const hg_ir_inst *in, uint32_t k) {
  return f->values[in->operands[k]].type;
}

static void fail_at(row_result *r, unsigned score, const char *name, uint32_t k, bool result, hg_ir_type got,
                    const char *want) {
  char tn[32];
  hg_ir_type_text(got, tn, sizeof tn);
  r->score = score;
  if (result)
    snprintf(r->msg, sizeof r->msg, "builtin \"%s\": the result is %s, expected %s", name, tn, want);
  else
    snprintf(r->msg, sizeof r->msg, "builtin \"%s\": operand %u is %s, expected %s", name, k, tn, want);
}

/* Binds the gentype variable `tok` (T or M) from its first operand (else the result); false
 * with the message when that type cannot be it. */
static bool bind(match_ctx *x, const char *ops, uint32_t nfixed, char rtok, const hg_ir_function *f,
                 const hg_ir_inst *in, const char *name, char tok, row_result *r) {
  for (uint32_t k = 0; k <= nfixed; k++) {
    bool is_result = k == nfixed;
    if ((is_result ? rtok : ops[k]) != tok)
      continue;
    hg_ir_type a = is_result ? in->type : operand_type(f, in, k);
    bool ok;
    if (tok == 'T') {
      ok = t_allowed(x, a);
      if (ok)
        x->t = a;
      else
        describe_t(x);
    } else {
      ok = fits(x, 'M', a);
      if (ok)
        x->m = a;
    }
    if (!ok)
      fail_at(r, 2 + k, name, k, is_result, a, x->want);
    return ok;
  }
  return true;
}

static bool match_row(const hg_ir_builtin_row *row, const name_caps *caps, const hg_ir_function *f,
                      const hg_ir_inst *in, const char *name, row_result *r) {
  match_ctx x = {.row = row, .caps = caps};
  char rtok = row->sig[0];
  const char *ops = row->sig + 2;
  uint32_t nops = (uint32_t)strlen(ops);
  bool variadic = nops && ops[nops - 1] == '*';
  uint32_t nfixed = variadic ? nops - 1 : nops;
  if (variadic ? in->num_operands < nfixed : in->num_operands != nfixed) {
    r->score = 1;
    snprintf(r->msg, sizeof r->msg, "builtin \"%s\": %u operand%s, expected %s%u", name, in->num_operands,
             in->num_operands == 1 ? "" : "s", variadic ? "at least " : "", nfixed);
    return false;
  }
  if (!bind(&x, ops, nfixed, rtok, f, in, name, 'T', r) || !bind(&x, ops, nfixed, rtok, f, in, name, 'M', r))
    return false;
  for (uint32_t k = 0; k < in->num_operands; k++) {
    hg_ir_type a = operand_type(f, in, k);
    if (!fits(&x, k < nfixed ? ops[k] : '*', a)) {
      fail_at(r, 2 + k, name, k, false, a, x.want);
      return false;
    }
  }
  if (!fits(&x, rtok, in->type)) {
    fail_at(r, 2 + in->num_operands, name, 0, true, in->type, x.want);
    return false;
  }
  return true;
}

bool hg_ir_builtin_check(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in, char *err,
                         size_t err_size) {
  if (in->num_imm != 1 || !in->imm || in->imm[0] >= m->num_strings || !m->strings[in->imm[0]]) {
    hg_ir_errf(err, err_size, "call_builtin without a builtin name");
    return false;
  }
  const char *name = m->strings[in->imm[0]];
  for (uint32_t k = 0; k < in->num_operands; k++)
    if (!in->operands || in->operands[k] >= f->num_values) {
      hg_ir_errf(err, err_size, "builtin \"%s\": operand %u names no value", name, k);
      return false;
    }
  if (hg_ir_builtin_family_of(name) == HG_IR_BF_IMAGE)
    return hg_ir_image_builtin_check(m, f, in, name, err, err_size);
  /* images and samplers are operands of the image builtins only (not even printf's) */
  for (uint32_t k = 0; k < in->num_operands; k++) {
    uint8_t s = f->values[in->operands[k]].type.scalar;
    if (s == HG_IR_IMAGE || s == HG_IR_SAMPLER) {
      hg_ir_errf(err, err_size, "builtin \"%s\": operand %u is an image or sampler, which only the image builtins take",
                 name, k);
      return false;
    }
  }
  row_result best = {0, ""}, r;
  bool known = false;
  for (unsigned i = 0; i < hg_ir_builtin_num_rows; i++) {
    name_caps caps;
    if (!row_names(&hg_ir_builtin_rows[i], name, &caps))
      continue;
    known = true;
    if (match_row(&hg_ir_builtin_rows[i], &caps, f, in, name, &r))
      return true;
    if (r.score > best.score)
      best = r;
  }
  if (!known)
    hg_ir_errf(err, err_size, "builtin \"%s\": no such builtin", name);
  else
    hg_ir_errf(err, err_size, "%s", best.msg);
  return false;
}
