/* hg_ir_parse: reads the text form written by hg_ir_print (docs/ir-spec.md, "Text form").
 * Tokens first (with line numbers), then a recursive-descent parser; names of functions and
 * relocation targets are resolved at the end so that they may be used before they appear.
 * The result is checked with hg_ir_verify. */
#include "ir/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { T_EOF, T_IDENT, T_VALUE, T_NAME, T_STRING, T_NUM, T_PUNCT, T_ARROW };

typedef struct tok {
  int kind;
  uint32_t line;
  const char *s; /* T_IDENT: text (len); T_PUNCT: the char */
  size_t len;
  char *str;     /* T_NAME, T_STRING: decoded (malloc'd) */
  uint64_t num;  /* T_NUM magnitude, T_VALUE index */
  bool neg;
} tok;

typedef struct fixup {
  uint32_t fn, block, inst, k; /* call: function, block, instruction, imm index */
  uint32_t global, reloc;      /* relocation: global, reloc index (fn == HG_IR_NONE) */
  char *name;
  uint32_t line;
} fixup;

typedef struct vdecl {
  uint32_t index, line;
  uint8_t kind;
  hg_ir_type type;
  uint32_t global;
  uint64_t lanes[16];
} vdecl;

typedef struct parser {
  tok *t;
  size_t nt, cap, at;
  char *err;
  size_t err_size;
  bool failed;
  hg_ir_module *m;
  fixup *fx;
  size_t nfx, capfx;
  vdecl *vd;
  size_t nvd, capvd;
  uint32_t (*refs)[2]; /* (value, line) of every operand in the current function */
  size_t nrefs, caprefs;
} parser;

static bool perr(parser *p, uint32_t line, const char *fmt, ...) {
  if (p->failed)
    return false;
  p->failed = true;
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  hg_ir_errf(p->err, p->err_size, "line %u: %s", line, msg);
  return false;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

/* Reads a quoted string at *pc (pointing at the opening quote); returns malloc'd text. */
static char *lex_string(parser *p, const char **pc, uint32_t line) {
  const char *c = *pc + 1;
  size_t cap = 16, n = 0;
  char *out = malloc(cap);
  if (!out) {
    perr(p, line, "out of memory");
    return NULL;
  }
  for (;;) {
    char ch = *c;
    if (!ch || ch == '\n') {
      free(out);
      perr(p, line, "unterminated string");
      return NULL;
    }
    c++;
    if (ch == '"')
      break;
    if (ch == '\\') {
      if (*c == '"' || *c == '\\') {
        ch = *c++;
      } else {
        int h = hexval(c[0]), l = h >= 0 ? hexval(c[1]) : -1;
        if (h < 0 || l < 0 || (h == 0 && l == 0)) {
          free(out);
          perr(p, line, "bad escape in string");
          return NULL;
        }
        ch = (char)(h * 16 + l);
        c += 2;
      }
    }
    if (n + 2 > cap) {
      cap *= 2;
      char *np = realloc(out, cap);
      if (!np) {
        free(out);
        perr(p, line, "out of memory");
        return NULL;
      }
      out = np;
    }
    out[n++] = ch;
  }
  out[n] = 0;
  *pc = c;
  return out;
}

static bool lex(parser *p, const char *text) {
  uint32_t line = 1;
  const char *c = text;
  for (;;) {
    while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n' || *c == ';') {
      if (*c == ';')
        while (*c && *c != '\n')
          c++;
      else if (*c++ == '\n')
        line++;
    }
    if (p->nt + 1 >= p->cap) {
      size_t nc = p->cap ? p->cap * 2 : 256;
      tok *nt = realloc(p->t, nc * sizeof *nt);
      if (!nt)
        return perr(p, line, "out of memory");
      p->t = nt;
      p->cap = nc;
    }
    tok *t = &p->t[p->nt];
    memset(t, 0, sizeof *t);
    t->line = line;
    t->s = c;
    if (!*c) {
      t->kind = T_EOF;
      p->nt++;
      return true;
    }
    if (*c == '%') {
      c++;
      if (*c < '0' || *c > '9')
        return perr(p, line, "'%%' must be followed by a value number");
      uint64_t v = 0;
      while (*c >= '0' && *c <= '9') {
        v = v * 10 + (uint64_t)(*c++ - '0');
        if (v >= HG_IR_NONE)
          return perr(p, line, "value number too large");
      }
      t->kind = T_VALUE;
      t->num = v;
    } else if (*c == '@') {
      c++;
      t->kind = T_NAME;
      if (*c == '"') {
        t->str = lex_string(p, &c, line);
        if (!t->str)
          return false;
      } else {
        const char *s = c;
        while (ident_char(*c))
          c++;
        if (c == s)
          return perr(p, line, "'@' must be followed by a name");
        t->str = malloc((size_t)(c - s) + 1);
        if (!t->str)
          return perr(p, line, "out of memory");
        memcpy(t->str, s, (size_t)(c - s));
        t->str[c - s] = 0;
      }
    } else if (*c == '"') {
      t->kind = T_STRING;
      t->str = lex_string(p, &c, line);
      if (!t->str)
        return false;
    } else if ((*c >= '0' && *c <= '9') || (*c == '-' && c[1] >= '0' && c[1] <= '9')) {
      t->kind = T_NUM;
      if (*c == '-') {
        t->neg = true;
        c++;
      }
      char *end;
      errno = 0;
      t->num = strtoull(c, &end, 0);
      if (errno || end == c || ident_char(*end))
        return perr(p, line, "bad number");
      c = end;
    } else if (*c == '-' && c[1] == '>') {
      t->kind = T_ARROW;
      c += 2;
    } else if (strchr("(),[]{}:=|", *c)) {
      t->kind = T_PUNCT;
      c++;
    } else if (ident_char(*c)) {
      t->kind = T_IDENT;
      while (ident_char(*c))
        c++;
    } else {
      return perr(p, line, "unexpected character '%c'", *c);
    }
    t->len = (size_t)(c - t->s);
    p->nt++;
  }
}

static tok *peek(parser *p) { return &p->t[p->at]; }
static tok *peek2(parser *p) { return &p->t[p->at + 1 < p->nt ? p->at + 1 : p->at]; }
static tok *next(parser *p) {
  tok *t = &p->t[p->at];
  if (t->kind != T_EOF)
    p->at++;
  return t;
}
static bool is_punct(tok *t, char c) { return t->kind == T_PUNCT && t->s[0] == c; }
static bool is_word(tok *t, const char *w) {
  return t->kind == T_IDENT && strlen(w) == t->len && memcmp(t->s, w, t->len) == 0;
}
static bool expect_punct(parser *p, char c) {
  tok *t = next(p);
  return is_punct(t, c) ? true : perr(p, t->line, "expected '%c'", c);
}
static bool expect_word(parser *p, const char *w) {
  tok *t = next(p);
  return is_word(t, w) ? true : perr(p, t->line, "expected '%s'", w);
}
static bool get_u32(parser *p, uint32_t *out) {
  tok *t = next(p);
  if (t->kind != T_NUM || t->neg || t->num > UINT32_MAX)
    return perr(p, t->line, "expected an unsigned 32-bit number");
  *out = (uint32_t)t->num;
  return true;
}
static bool get_string(parser *p, char **out) {
  tok *t = next(p);
  if (t->kind != T_STRING)
    return perr(p, t->line, "expected a string");
  *out = t->str;
  t->str = NULL; /* ownership moves */
  return true;
}
/* Index of the word (len bytes at s) in names[0..n), from `from`, or -1. */
static int find_name(const char *s, size_t len, const char *const *names, int from, int n) {
  for (int i = from; i < n; i++)
    if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
      return i;
  return -1;
}
/* Parses the block label "bbN". */
static bool block_ref(tok *t, uint32_t *out) {
  if (t->kind != T_IDENT || t->len < 3 || t->s[0] != 'b' || t->s[1] != 'b' || t->len > 12)
    return false;
  uint64_t v = 0;
  for (size_t i = 2; i < t->len; i++) {
    if (t->s[i] < '0' || t->s[i] > '9')
      return false;
    v = v * 10 + (uint64_t)(t->s[i] - '0');
  }
  if (v >= HG_IR_NONE)
    return false;
  *out = (uint32_t)v;
  return true;
}

/* `sampler`, or an image type `<dim>.<access>` (image2d.ro): whole tokens, no lanes. */
static bool parse_image_type(const tok *t, hg_ir_type *ty) {
  if (t->len == 7 && memcmp(t->s, "sampler", 7) == 0) {
    *ty = hg_ir_sampler_ty();
    return true;
  }
  for (int d = HG_IMAGE_1D; d <= HG_IMAGE_3D; d++) {
    size_t l = strlen(hg_ir_image_dim_names[d]);
    if (t->len != l + 3 || memcmp(t->s, hg_ir_image_dim_names[d], l) != 0 || t->s[l] != '.')
      continue;
    for (int a = HG_IMAGE_READ_ONLY; a <= HG_IMAGE_READ_WRITE; a++)
      if (memcmp(t->s + l + 1, hg_ir_image_access_names[a], 2) == 0) {
        *ty = hg_ir_image_ty((hg_ir_image_dim)d, (hg_ir_image_access)a);
        return true;
      }
  }
  return false;
}

static bool parse_type_tok(tok *t, hg_ir_type *ty) {
  if (t->kind != T_IDENT)
    return false;
  if (parse_image_type(t, ty))
    return true;
  const char *s = t->s, *e = t->s + t->len;
  int sc = -1;
  size_t used = 0;
  for (int i = 0; i <= HG_IR_PTR; i++) {
    size_t l = strlen(hg_ir_scalar_names[i]);
    if (l <= t->len && memcmp(s, hg_ir_scalar_names[i], l) == 0 && l > used) {
      sc = i;
      used = l;
    }
  }
  if (sc < 0)
    return false;
  hg_ir_type r = {(uint8_t)sc, 1, 0, 0};
  s += used;
  if (sc == HG_IR_PTR) {
    if (s >= e || *s != '.')
      return false;
    s++;
    int best = -1;
    size_t bl = 0;
    for (int i = 0; i <= HG_AS_GENERIC; i++) {
      size_t l = strlen(hg_ir_as_names[i]);
      if ((size_t)(e - s) >= l && memcmp(s, hg_ir_as_names[i], l) == 0 && l > bl) {
        best = i;
        bl = l;
      }
    }
    if (best < 0)
      return false;
    r.addrspace = (uint8_t)best;
    s += bl;
  }
  if (s < e) {
    if (*s++ != 'x' || s >= e)
      return false;
    unsigned v = 0;
    for (; s < e; s++) {
      if (*s < '0' || *s > '9' || v > 100)
        return false;
      v = v * 10 + (unsigned)(*s - '0');
    }
    if (v == 0 || v > 255)
      return false;
    r.lanes = (uint8_t)v;
  }
  *ty = r;
  return true;
}
static bool get_type(parser *p, hg_ir_type *ty) {
  tok *t = next(p);
  return parse_type_tok(t, ty) ? true : perr(p, t->line, "expected a type");
}

static bool add_fixup(parser *p, fixup f) {
  if (p->nfx == p->capfx) {
    size_t nc = p->capfx ? p->capfx * 2 : 16;
    fixup *n = realloc(p->fx, nc * sizeof *n);
    if (!n)
      return perr(p, f.line, "out of memory");
    p->fx = n;
    p->capfx = nc;
  }
  p->fx[p->nfx++] = f;
  return true;
}

static bool parse_global(parser *p) {
  hg_ir_global g;
  memset(&g, 0, sizeof g);
  tok *nt = next(p);
  if (nt->kind != T_NAME)
    return perr(p, nt->line, "expected a global name");
  tok *as = next(p);
  int a = as->kind == T_IDENT ? find_name(as->s, as->len, hg_ir_as_names, 0, HG_AS_GENERIC + 1) : -1;
  if (a < 0)
    return perr(p, as->line, "expected an address space");
  g.addrspace = (uint8_t)a;
  g.name = nt->str;
  if (is_word(peek(p), "const")) {
    next(p);
    g.is_const = true;
  }
  if (is_word(peek(p), "exported") || is_word(peek(p), "imported"))
    g.linkage = is_word(next(p), "exported") ? HG_LINK_EXPORTED : HG_LINK_IMPORTED;
  uint32_t gi = p->m->num_globals;
  bool ok = expect_word(p, "size") && get_u32(p, &g.size) && expect_word(p, "align") && get_u32(p, &g.align);
  uint8_t *init = NULL;
  struct hg_ir_reloc *rel = NULL;
  if (ok && is_word(peek(p), "init")) {
    next(p);
    tok *it = next(p);
    if (it->kind != T_STRING || strlen(it->str) != 2 * (size_t)g.size)
      ok = perr(p, it->line, "init needs 2 hex digits per byte of the variable");
    else {
      g.has_init = true;
      init = malloc(g.size ? g.size : 1);
      if (!init)
        ok = perr(p, it->line, "out of memory");
      for (uint32_t k = 0; ok && k < g.size; k++) {
        int h = hexval(it->str[2 * k]), l = hexval(it->str[2 * k + 1]);
        if (h < 0 || l < 0)
          ok = perr(p, it->line, "bad hex digit in init");
        else
          init[k] = (uint8_t)(h * 16 + l);
      }
    }
  }
  while (ok && is_word(peek(p), "reloc")) {
    uint32_t line = next(p)->line;
    struct hg_ir_reloc r = {0, 0, 0};
    ok = get_u32(p, &r.offset);
    if (!ok)
      break;
    tok *tt = next(p);
    if (tt->kind == T_NAME) {
      fixup f = {HG_IR_NONE, 0, 0, 0, gi, g.num_relocs, tt->str, line};
      tt->str = NULL;
      if (!add_fixup(p, f)) {
        free(f.name);
        ok = false;
        break;
      }
    } else if (tt->kind == T_NUM && !tt->neg && tt->num <= UINT32_MAX) {
      r.target = (uint32_t)tt->num;
    } else {
      ok = perr(p, tt->line, "expected a relocation target");
      break;
    }
    tok *ad = next(p);
    if (ad->kind != T_NUM || (ad->neg ? ad->num > (uint64_t)INT64_MAX + 1 : ad->num > INT64_MAX)) {
      ok = perr(p, ad->line, "expected an addend");
      break;
    }
    r.addend = ad->neg ? (int64_t)(0 - ad->num) : (int64_t)ad->num;
    struct hg_ir_reloc *nr = realloc(rel, ((size_t)g.num_relocs + 1) * sizeof *nr);
    if (!nr) {
      ok = perr(p, line, "out of memory");
      break;
    }
    rel = nr;
    rel[g.num_relocs++] = r;
  }
  if (ok) {
    g.init = init;
    g.relocs = rel;
    if (hg_ir_add_global(p->m, &g) == HG_IR_NONE)
      ok = perr(p, nt->line, "out of memory");
  }
  free(init);
  free(rel);
  return ok;
}

static bool parse_const_lane(parser *p, hg_ir_type ty, uint64_t *w) {
  tok *t = next(p);
  if (ty.scalar == HG_IR_PTR) {
    if (!is_word(t, "null"))
      return perr(p, t->line, "pointer constants are null");
    *w = 0;
    return true;
  }
  if (ty.scalar == HG_IR_IMAGE)
    return perr(p, t->line, "images have no constants");
  if (t->kind != T_NUM)
    return perr(p, t->line, "expected a number");
  uint64_t v = t->neg ? 0 - t->num : t->num;
  /* a sampler constant is its 32 HG_SAMPLER_* bits */
  unsigned b = ty.scalar == HG_IR_BOOL ? 1 : ty.scalar == HG_IR_SAMPLER ? 32 : 8 * hg_ir_scalar_bytes(ty.scalar);
  if (b < 64) {
    bool fits = t->neg ? t->num <= (1ull << (b - 1)) : t->num < (1ull << b);
    if (!fits || (ty.scalar >= HG_IR_F16 && t->neg))
      return perr(p, t->line, "constant does not fit its type");
    v &= (1ull << b) - 1;
  }
  *w = v;
  return true;
}

static bool add_vdecl(parser *p, vdecl *d) {
  if (p->nvd == p->capvd) {
    size_t nc = p->capvd ? p->capvd * 2 : 32;
    vdecl *n = realloc(p->vd, nc * sizeof *n);
    if (!n)
      return perr(p, d->line, "out of memory");
    p->vd = n;
    p->capvd = nc;
  }
  p->vd[p->nvd++] = *d;
  return true;
}

static bool parse_suffix(parser *p, hg_ir_inst *in, const char *s, size_t len, uint32_t line) {
  unsigned op = in->op;
  if (len >= 2 && s[0] == 'f' && s[1] >= '0' && s[1] <= '9') {
    uint32_t v = 0;
    for (size_t i = 1; i < len; i++) {
      if (s[i] < '0' || s[i] > '9' || v > 0xFFFF)
        return perr(p, line, "bad flags suffix");
      v = v * 10 + (uint32_t)(s[i] - '0');
    }
    if (v > 0xFFFF)
      return perr(p, line, "bad flags suffix");
    in->flags |= (uint16_t)v;
    return true;
  }
  int k;
  if (op == HG_OP_ICMP && (k = find_name(s, len, hg_ir_cmp_names, 0, HG_CMP_SGE + 1)) >= 0) {
    in->flags |= (uint16_t)k;
    return true;
  }
  if (op == HG_OP_FCMP && (k = find_name(s, len, hg_ir_cmp_names, HG_CMP_OEQ, HG_CMP_FALSE + 1)) >= 0) {
    in->flags |= (uint16_t)k;
    return true;
  }
  if ((op == HG_OP_FADD || op == HG_OP_FSUB || op == HG_OP_FMUL) && len == 8 && memcmp(s, "contract", 8) == 0) {
    in->flags |= HG_FP_CONTRACT;
    return true;
  }
  if (op == HG_OP_PTRADD && len == 8 && memcmp(s, "inbounds", 8) == 0) {
    in->flags |= HG_WRAP_INBOUNDS;
    return true;
  }
  if (op != HG_OP_PTRADD && hg_ir_wrap_flags_of(op) && len == 3 && (!memcmp(s, "nsw", 3) || !memcmp(s, "nuw", 3))) {
    in->flags |= s[1] == 's' ? HG_WRAP_NSW : HG_WRAP_NUW;
    return true;
  }
  if (hg_ir_is_mem_op(op)) {
    if (len == 8 && memcmp(s, "volatile", 8) == 0) {
      in->flags |= HG_MEM_VOLATILE;
      return true;
    }
    if (len > 5 && memcmp(s, "align", 5) == 0) {
      uint64_t v = 0;
      for (size_t i = 5; i < len && v <= UINT32_MAX; i++) {
        if (s[i] < '0' || s[i] > '9')
          return perr(p, line, "bad alignment");
        v = v * 10 + (uint64_t)(s[i] - '0');
      }
      if (!v || (v & (v - 1)) || v > (1ull << 30))
        return perr(p, line, "alignment must be a power of two");
      unsigned lg = 0;
      while ((1ull << lg) < v)
        lg++;
      in->flags |= (uint16_t)(lg << 8);
      return true;
    }
  }
  if (hg_ir_is_atomic_op(op)) {
    if (op == HG_OP_ATOMIC_RMW && (k = find_name(s, len, hg_ir_atomic_names, 0, HG_ATOMIC_STORE + 1)) >= 0) {
      in->flags |= (uint16_t)k;
      return true;
    }
    if ((k = find_name(s, len, hg_ir_order_names, 0, HG_ORDER_SEQ_CST + 1)) >= 0) {
      in->flags |= (uint16_t)(k << 8);
      return true;
    }
    if ((k = find_name(s, len, hg_ir_scope_names, 0, HG_SCOPE_ALL_DEVICES + 1)) >= 0) {
      in->flags |= (uint16_t)(k << 12);
      return true;
    }
  }
  return perr(p, line, "unknown suffix '.%.*s'", (int)len, s);
}

static bool parse_imm(parser *p, uint32_t fi, uint32_t b, uint32_t ii, hg_ir_inst *in, uint32_t k, uint32_t *out) {
  tok *t = next(p);
  uint32_t v;
  int x;
  if (block_ref(t, &v)) {
    *out = v;
  } else if (is_word(t, "undef")) {
    *out = HG_IR_NONE;
  } else if (t->kind == T_IDENT && (x = find_name(t->s, t->len, hg_ir_order_names, 0, HG_ORDER_SEQ_CST + 1)) >= 0) {
    *out = (uint32_t)x;
  } else if (t->kind == T_IDENT && find_name(t->s, t->len, hg_ir_fence_names, 0, 3) >= 0) {
    uint32_t bitsv = 0;
    for (;;) {
      x = t->kind == T_IDENT ? find_name(t->s, t->len, hg_ir_fence_names, 0, 3) : -1;
      if (x < 0)
        return perr(p, t->line, "expected a fence flag (local, global, image)");
      bitsv |= 1u << x;
      if (!is_punct(peek(p), '|'))
        break;
      next(p);
      t = next(p);
    }
    *out = bitsv;
  } else if (t->kind == T_NAME) {
    if (in->op != HG_OP_CALL)
      return perr(p, t->line, "a function name is only a call's immediate");
    fixup f = {fi, b, ii, k, 0, 0, t->str, t->line};
    t->str = NULL;
    if (!add_fixup(p, f)) {
      free(f.name);
      return false;
    }
    *out = 0;
  } else if (t->kind == T_STRING) {
    *out = hg_ir_intern(p->m, t->str);
    if (*out == HG_IR_NONE)
      return perr(p, t->line, "out of memory");
  } else if (t->kind == T_NUM && !t->neg && t->num <= UINT32_MAX) {
    *out = (uint32_t)t->num;
  } else {
    return perr(p, t->line, "bad immediate");
  }
  return true;
}

/* One instruction, appended to block b of function fi. */
static bool parse_inst(parser *p, uint32_t fi, uint32_t b) {
  hg_ir_function *f = &p->m->functions[fi];
  hg_ir_block *bl = &f->blocks[b];
  hg_ir_inst in;
  memset(&in, 0, sizeof in);
  in.id = HG_IR_NONE;
  uint32_t line = peek(p)->line;
  bool has_result = false;
  if (peek(p)->kind == T_VALUE) {
    in.id = (uint32_t)next(p)->num;
    has_result = true;
    if (!expect_punct(p, '='))
      return false;
  }
  tok *ot = next(p);
  if (ot->kind != T_IDENT)
    return perr(p, ot->line, "expected an instruction");
  size_t nl = 0;
  while (nl < ot->len && ot->s[nl] != '.')
    nl++;
  in.op = 0;
  for (unsigned o = 1; o < HG_OP_COUNT_; o++)
    if (strlen(hg_ir_opcode_name(o)) == nl && memcmp(hg_ir_opcode_name(o), ot->s, nl) == 0)
      in.op = (uint16_t)o;
  if (!in.op)
    return perr(p, ot->line, "unknown instruction '%.*s'", (int)nl, ot->s);
  for (size_t s = nl; s < ot->len;) {
    size_t e = s + 1;
    while (e < ot->len && ot->s[e] != '.')
      e++;
    if (!parse_suffix(p, &in, ot->s + s + 1, e - s - 1, ot->line))
      return false;
    s = e;
  }
  in.type = hg_ir_void_ty();
  if (parse_type_tok(peek(p), &in.type))
    next(p);
  if ((in.type.scalar != HG_IR_VOID) != has_result)
    return perr(p, line, has_result ? "a void instruction has no result" : "a non-void instruction needs a result");
  uint32_t *ops = NULL, *imm = NULL;
  /* operands: %N, ... (a %N followed by '=' starts the next instruction) */
  while (peek(p)->kind == T_VALUE && !is_punct(peek2(p), '=')) {
    tok *vt = next(p);
    uint32_t *n = realloc(ops, ((size_t)in.num_operands + 1) * sizeof *n);
    if (!n) {
      free(ops);
      return perr(p, vt->line, "out of memory");
    }
    ops = n;
    ops[in.num_operands++] = (uint32_t)vt->num;
    if (p->nrefs == p->caprefs) {
      size_t nc = p->caprefs ? p->caprefs * 2 : 64;
      uint32_t(*nr)[2] = realloc(p->refs, nc * sizeof *nr);
      if (!nr) {
        free(ops);
        return perr(p, vt->line, "out of memory");
      }
      p->refs = nr;
      p->caprefs = nc;
    }
    p->refs[p->nrefs][0] = (uint32_t)vt->num;
    p->refs[p->nrefs++][1] = vt->line;
    if (!is_punct(peek(p), ','))
      break;
    next(p);
    if (peek(p)->kind != T_VALUE) {
      free(ops);
      return perr(p, peek(p)->line, "expected an operand after ','");
    }
  }
  in.operands = ops;
  if (is_punct(peek(p), '[')) {
    next(p);
    for (;;) {
      uint32_t *n = realloc(imm, ((size_t)in.num_imm + 1) * sizeof *n);
      if (!n) {
        free(ops);
        free(imm);
        return perr(p, line, "out of memory");
      }
      imm = n;
      if (!parse_imm(p, fi, b, bl->num_insts, &in, in.num_imm, &imm[in.num_imm])) {
        free(ops);
        free(imm);
        return false;
      }
      in.num_imm++;
      if (is_punct(peek(p), ','))
        next(p);
      else
        break;
    }
    if (!expect_punct(p, ']')) {
      free(ops);
      free(imm);
      return false;
    }
  }
  in.imm = imm;
  if (hg_ir_grow((void **)&bl->insts, &bl->cap_insts, bl->num_insts + 1, sizeof *bl->insts)) {
    free(ops);
    free(imm);
    return perr(p, line, "out of memory");
  }
  bl->insts[bl->num_insts++] = in;
  if (has_result) {
    vdecl d;
    memset(&d, 0, sizeof d);
    d.index = in.id;
    d.line = line;
    d.kind = HG_VAL_INST;
    d.type = in.type;
    if (!add_vdecl(p, &d))
      return false;
  }
  return true;
}

static int cmp_vdecl(const void *a, const void *b) {
  const vdecl *x = a, *y = b;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Builds f's value table from the declarations gathered for it. */
static bool finish_values(parser *p, hg_ir_function *f, uint32_t close_line) {
  if (p->nvd)
    qsort(p->vd, p->nvd, sizeof *p->vd, cmp_vdecl);
  /* a use of a value defined nowhere is reported where it is used */
  for (size_t i = 0; i < p->nrefs; i++) {
    uint32_t x = p->refs[i][0];
    bool def = x < f->num_params;
    size_t lo = 0, hi = p->nvd;
    while (!def && lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (p->vd[mid].index == x)
        def = true;
      else if (p->vd[mid].index < x)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (!def)
      return perr(p, p->refs[i][1], "value %%%u not defined", x);
  }
  uint32_t n = f->num_params;
  for (size_t i = 0; i < p->nvd; i++) {
    vdecl *d = &p->vd[i];
    if (d->index != n)
      return perr(p, d->index < n ? d->line : close_line, d->index < n ? "value %%%u defined twice" : "value %%%u not defined",
                  d->index < n ? d->index : n);
    n++;
    uint32_t idx = 0;
    if (d->kind == HG_VAL_CONST) {
      unsigned lanes = d->type.lanes;
      if (hg_ir_grow((void **)&f->const_words, &f->cap_const_words, f->num_const_words + lanes, sizeof(uint64_t)))
        return perr(p, d->line, "out of memory");
      idx = f->num_const_words;
      memcpy(f->const_words + idx, d->lanes, lanes * sizeof(uint64_t));
      f->num_const_words += lanes;
    } else if (d->kind == HG_VAL_GLOBAL) {
      idx = d->global;
    } else if (d->kind == HG_VAL_INST) {
      idx = d->index;
    }
    if (hg_ir_push_value(f, d->kind, d->type, idx) == HG_IR_NONE)
      return perr(p, d->line, "out of memory");
  }
  p->nvd = 0;
  return true;
}

static bool parse_function(parser *p, bool kernel) {
  tok *nt = next(p);
  if (nt->kind != T_NAME)
    return perr(p, nt->line, "expected a function name");
  if (!expect_punct(p, '('))
    return false;
  hg_ir_type params[256];
  uint32_t np = 0;
  hg_ir_type *pt = params;
  size_t cap = 256;
  bool ok = true;
  hg_ir_type *heap = NULL;
  while (ok && !is_punct(peek(p), ')')) {
    if (np && !expect_punct(p, ',')) {
      ok = false;
      break;
    }
    if (np == cap) {
      hg_ir_type *n = realloc(heap, cap * 2 * sizeof *n);
      if (!n) {
        ok = perr(p, nt->line, "out of memory");
        break;
      }
      if (!heap)
        memcpy(n, params, sizeof params);
      heap = pt = n;
      cap *= 2;
    }
    hg_ir_type t;
    if (!get_type(p, &t)) {
      ok = false;
      break;
    }
    tok *vt = next(p);
    if (vt->kind != T_VALUE || vt->num != np) {
      ok = perr(p, vt->line, "parameter %u must be named %%%u", np, np);
      break;
    }
    pt[np++] = t;
  }
  hg_ir_type ret;
  ok = ok && expect_punct(p, ')') && (next(p)->kind == T_ARROW || perr(p, nt->line, "expected '->'")) &&
       get_type(p, &ret);
  uint32_t fi = HG_IR_NONE;
  if (ok) {
    fi = hg_ir_add_function(p->m, nt->str, ret, np, pt);
    if (fi == HG_IR_NONE)
      ok = perr(p, nt->line, "out of memory");
  }
  free(heap);
  if (!ok)
    return false;
  hg_ir_function *f = &p->m->functions[fi];
  if (kernel && !hg_ir_make_kernel(f))
    return perr(p, nt->line, "out of memory");
  /* metadata lines */
  for (;;) {
    tok *t = peek(p);
    uint32_t u;
    if (is_word(t, "arg")) {
      next(p);
      if (!get_u32(p, &u))
        return false;
      if (!kernel || u >= np)
        return perr(p, t->line, "argument metadata only for kernel parameters");
      hg_ir_kernel_arg *a = &f->args[u];
      free(a->name);
      free(a->type_name);
      a->name = a->type_name = NULL;
      uint32_t acc, q;
      if (!(expect_word(p, "name") && get_string(p, &a->name) && expect_word(p, "type") &&
            get_string(p, &a->type_name) && expect_word(p, "kind")))
        return false;
      tok *kt = next(p);
      int k = kt->kind == T_IDENT ? find_name(kt->s, kt->len, hg_ir_karg_names, 0, HG_KARG_IMAGE + 1) : -1;
      if (k < 0 && kt->kind == T_NUM && !kt->neg && kt->num < 256)
        k = (int)kt->num;
      if (k < 0)
        return perr(p, kt->line, "bad argument kind");
      a->kind = (uint8_t)k;
      if (!(expect_word(p, "access") && get_u32(p, &acc) && expect_word(p, "qual") && get_u32(p, &q) &&
            expect_word(p, "size") && get_u32(p, &a->size) && expect_word(p, "align") && get_u32(p, &a->align)))
        return false;
      if (acc > 255 || q > 255)
        return perr(p, t->line, "qualifier out of range");
      a->access_qual = (uint8_t)acc;
      a->type_qual = (uint8_t)q;
    } else if (is_word(t, "reqd_work_group_size") || is_word(t, "work_group_size_hint")) {
      uint32_t *dst = is_word(t, "reqd_work_group_size") ? f->reqd_work_group_size : f->work_group_size_hint;
      next(p);
      if (!(get_u32(p, &dst[0]) && get_u32(p, &dst[1]) && get_u32(p, &dst[2])))
        return false;
    } else if (is_word(t, "vec_type_hint")) {
      next(p);
      free(f->vec_type_hint);
      f->vec_type_hint = NULL;
      if (!get_string(p, &f->vec_type_hint))
        return false;
    } else if (is_word(t, "attributes")) {
      next(p);
      free(f->attributes);
      f->attributes = NULL;
      if (!get_string(p, &f->attributes))
        return false;
    } else if (is_word(t, "slot")) {
      next(p);
      uint32_t sz, al, off;
      if (!(get_u32(p, &u) && expect_word(p, "size") && get_u32(p, &sz) && expect_word(p, "align") &&
            get_u32(p, &al) && expect_word(p, "offset") && get_u32(p, &off)))
        return false;
      if (u != f->num_slots)
        return perr(p, t->line, "slots must be numbered in order");
      if (hg_ir_add_slot(f, sz, al) == HG_IR_NONE)
        return perr(p, t->line, "out of memory");
      f->slots[u].align = al; /* as written, even 0: the verifier judges */
      f->slots[u].offset = off;
    } else if (is_word(t, "private_size")) {
      next(p);
      if (!get_u32(p, &f->private_size))
        return false;
    } else if (is_word(t, "local_static_size")) {
      next(p);
      if (!get_u32(p, &f->local_static_size))
        return false;
    } else if (is_word(t, "local_var")) {
      next(p);
      tok *gt = next(p);
      uint32_t g = HG_IR_NONE, off;
      if (gt->kind == T_NAME)
        g = hg_ir_find_global(p->m, gt->str);
      else if (gt->kind == T_NUM && !gt->neg && gt->num <= UINT32_MAX)
        g = (uint32_t)gt->num;
      if (g == HG_IR_NONE)
        return perr(p, gt->line, "unknown global");
      if (!(expect_word(p, "offset") && get_u32(p, &off)))
        return false;
      hg_ir_local_var *n = realloc(f->local_vars, ((size_t)f->num_local_vars + 1) * sizeof *n);
      if (!n)
        return perr(p, t->line, "out of memory");
      f->local_vars = n;
      n[f->num_local_vars].global = g;
      n[f->num_local_vars++].offset = off;
    } else if (is_word(t, "safepoint")) {
      next(p);
      hg_ir_safepoint sp;
      memset(&sp, 0, sizeof sp);
      if (!get_u32(p, &sp.id))
        return false;
      tok *kt = next(p);
      int k = kt->kind == T_IDENT ? find_name(kt->s, kt->len, hg_ir_safepoint_names, 0, 3) : -1;
      if (k < 0 && kt->kind == T_NUM && !kt->neg && kt->num < 256)
        k = (int)kt->num;
      if (k < 0)
        return perr(p, kt->line, "bad safe point kind");
      sp.kind = (uint8_t)k;
      tok *bt = next(p);
      if (!block_ref(bt, &sp.block))
        return perr(p, bt->line, "expected a block");
      if (!(get_u32(p, &sp.inst) && expect_word(p, "live")))
        return false;
      hg_ir_safepoint *n = realloc(f->safepoints, ((size_t)f->num_safepoints + 1) * sizeof *n);
      if (!n)
        return perr(p, t->line, "out of memory");
      f->safepoints = n;
      while (peek(p)->kind == T_VALUE) {
        uint32_t *l = realloc(sp.live, ((size_t)sp.num_live + 1) * sizeof *l);
        if (!l) {
          free(sp.live);
          return perr(p, t->line, "out of memory");
        }
        sp.live = l;
        l[sp.num_live++] = (uint32_t)next(p)->num;
        if (!is_punct(peek(p), ','))
          break;
        next(p);
      }
      f->safepoints[f->num_safepoints++] = sp;
    } else {
      break;
    }
  }
  if (!expect_punct(p, '{'))
    return false;
  p->nvd = 0;
  p->nrefs = 0;
  /* value declarations */
  while (peek(p)->kind == T_VALUE && is_punct(peek2(p), '=') && p->at + 2 < p->nt &&
         (is_word(&p->t[p->at + 2], "const") || is_word(&p->t[p->at + 2], "undef") ||
          is_word(&p->t[p->at + 2], "global"))) {
    vdecl d;
    memset(&d, 0, sizeof d);
    tok *vt = next(p);
    d.index = (uint32_t)vt->num;
    d.line = vt->line;
    next(p);
    tok *kt = next(p);
    if (is_word(kt, "global")) {
      tok *gt = next(p);
      d.kind = HG_VAL_GLOBAL;
      d.global = gt->kind == T_NAME ? hg_ir_find_global(p->m, gt->str) : HG_IR_NONE;
      if (d.global == HG_IR_NONE)
        return perr(p, gt->line, "unknown global");
      d.type = hg_ir_ptr_ty((hg_ir_addrspace)p->m->globals[d.global].addrspace);
    } else {
      d.kind = is_word(kt, "const") ? HG_VAL_CONST : HG_VAL_UNDEF;
      if (!get_type(p, &d.type))
        return false;
      if (d.kind == HG_VAL_CONST) {
        if (d.type.lanes > 16 || d.type.scalar == HG_IR_VOID)
          return perr(p, kt->line, "bad constant type");
        for (unsigned l = 0; l < d.type.lanes; l++)
          if ((l && !expect_punct(p, ',')) || !parse_const_lane(p, d.type, &d.lanes[l]))
            return false;
      }
    }
    if (!add_vdecl(p, &d))
      return false;
  }
  /* blocks */
  while (!is_punct(peek(p), '}')) {
    tok *bt = next(p);
    uint32_t bn;
    if (!block_ref(bt, &bn) || !expect_punct(p, ':'))
      return p->failed ? false : perr(p, bt->line, "expected a block label or '}'");
    if (bn != f->num_blocks)
      return perr(p, bt->line, "blocks must be numbered in order: expected bb%u", f->num_blocks);
    if (hg_ir_add_block(f) == HG_IR_NONE)
      return perr(p, bt->line, "out of memory");
    while (!is_punct(peek(p), '}') && peek(p)->kind != T_EOF && !(peek(p)->kind == T_IDENT && is_punct(peek2(p), ':')))
      if (!parse_inst(p, fi, bn))
        return false;
    if (peek(p)->kind == T_EOF)
      return perr(p, peek(p)->line, "missing '}'");
  }
  uint32_t close_line = next(p)->line;
  return finish_values(p, f, close_line);
}

static bool parse_module(parser *p) {
  for (;;) {
    tok *t = next(p);
    if (t->kind == T_EOF)
      break;
    if (is_word(t, "program")) {
      tok *k = next(p);
      int x = k->kind == T_IDENT ? find_name(k->s, k->len, hg_ir_program_kind_names, 0, 3) : -1;
      if (x < 0 && k->kind == T_NUM && !k->neg && k->num < 256)
        x = (int)k->num;
      if (x < 0)
        return perr(p, k->line, "bad program kind");
      p->m->program_kind = (uint8_t)x;
    } else if (is_word(t, "source_language")) {
      free(p->m->source_language);
      p->m->source_language = NULL;
      if (!get_string(p, &p->m->source_language))
        return false;
    } else if (is_word(t, "build_options")) {
      free(p->m->build_options);
      p->m->build_options = NULL;
      if (!get_string(p, &p->m->build_options))
        return false;
    } else if (is_word(t, "uses_fp64")) {
      p->m->uses_fp64 = true;
    } else if (is_word(t, "uses_fp16")) {
      p->m->uses_fp16 = true;
    } else if (is_word(t, "string")) {
      tok *s = next(p);
      if (s->kind != T_STRING)
        return perr(p, s->line, "expected a string");
      uint32_t before = p->m->num_strings;
      uint32_t id = hg_ir_intern(p->m, s->str);
      if (id == HG_IR_NONE)
        return perr(p, s->line, "out of memory");
      if (id != before)
        return perr(p, s->line, "string listed twice");
    } else if (is_word(t, "global")) {
      if (p->m->num_functions)
        return perr(p, t->line, "globals come before functions");
      if (!parse_global(p))
        return false;
    } else if (is_word(t, "kernel") || is_word(t, "func")) {
      if (!parse_function(p, is_word(t, "kernel")))
        return false;
    } else {
      return perr(p, t->line, "expected a module item");
    }
  }
  for (size_t i = 0; i < p->nfx; i++) {
    fixup *x = &p->fx[i];
    if (x->fn != HG_IR_NONE) {
      uint32_t c = hg_ir_find_function(p->m, x->name);
      if (c == HG_IR_NONE)
        return perr(p, x->line, "unknown function @%s", x->name);
      p->m->functions[x->fn].blocks[x->block].insts[x->inst].imm[x->k] = c;
    } else {
      uint32_t g = hg_ir_find_global(p->m, x->name);
      if (g == HG_IR_NONE)
        return perr(p, x->line, "unknown global @%s", x->name);
      p->m->globals[x->global].relocs[x->reloc].target = g;
    }
  }
  return true;
}

hg_ir_module *hg_ir_parse(const char *text, char *err, size_t err_size) {
  parser p;
  memset(&p, 0, sizeof p);
  p.err = err;
  p.err_size = err_size;
  if (err && err_size)
    err[0] = 0;
  p.m = hg_ir_module_new();
  bool ok = p.m && text && lex(&p, text) && parse_module(&p);
  if (!p.m || !text)
    hg_ir_errf(err, err_size, "line 0: no text or out of memory");
  if (ok) {
    char verr[256];
    if (!hg_ir_verify(p.m, verr, sizeof verr)) {
      hg_ir_errf(err, err_size, "line 0: %s", verr);
      ok = false;
    }
  }
  for (size_t i = 0; i < p.nt; i++)
    free(p.t[i].str);
  free(p.t);
  for (size_t i = 0; i < p.nfx; i++)
    free(p.fx[i].name);
  free(p.fx);
  free(p.vd);
  free(p.refs);
  if (!ok) {
    hg_ir_module_free(p.m);
    return NULL;
  }
  return p.m;
}
