/* A demangler for the subset of the Itanium C++ ABI that clang uses for OpenCL C builtins:
 * _Z <source-name> <parameter types>, with builtin types, vectors (Dv4_f), pointers with
 * address-space vendor qualifiers (PU3AS1), CV qualifiers, _Atomic, named types (enums such
 * as memory_order, ocl_event) and substitutions (S_, S0_, ...). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

#define MAX_SUBST 32

typedef struct demangler {
  const char *p;
  hg_mangled_param subst[MAX_SUBST];
  unsigned num_subst;
} demangler;

static bool read_number(demangler *d, unsigned long *out) {
  if (!isdigit((unsigned char)*d->p)) return false;
  char *end;
  *out = strtoul(d->p, &end, 10);
  d->p = end;
  return true;
}

static void add_subst(demangler *d, const hg_mangled_param *t) {
  if (d->num_subst < MAX_SUBST) d->subst[d->num_subst++] = *t;
}

static bool is_unsigned_code(char c) { return c == 'h' || c == 't' || c == 'j' || c == 'm' || c == 'y' || c == 'b'; }

static bool parse_type(demangler *d, hg_mangled_param *t);

/* S_ is substitution 0, S<seq-id>_ is seq-id + 1 (base 36, digits then upper-case letters). */
static bool parse_substitution(demangler *d, hg_mangled_param *t) {
  d->p++; /* 'S' */
  unsigned long idx = 0;
  if (*d->p == '_') {
    idx = 0;
  } else {
    unsigned long seq = 0;
    while (*d->p && *d->p != '_') {
      char c = *d->p++;
      if (isdigit((unsigned char)c)) seq = seq * 36 + (unsigned long)(c - '0');
      else if (c >= 'A' && c <= 'Z') seq = seq * 36 + (unsigned long)(c - 'A' + 10);
      else return false;
    }
    if (*d->p != '_') return false;
    idx = seq + 1;
  }
  d->p++;
  if (idx >= d->num_subst) return false;
  *t = d->subst[idx];
  return true;
}

static bool parse_builtin(demangler *d, hg_mangled_param *t) {
  char c = *d->p;
  if (strchr("vbcahstijlmxyfd", c)) {
    d->p++;
    t->base = c;
    t->is_unsigned = is_unsigned_code(c);
    return true;
  }
  if (c == 'D' && d->p[1] == 'h') { /* half */
    d->p += 2;
    t->base = 'D';
    return true;
  }
  return false;
}

static bool parse_type(demangler *d, hg_mangled_param *t) {
  memset(t, 0, sizeof *t);
  t->lanes = 1;
  char c = *d->p;
  if (c == 0) return false;
  if (c == 'S') return parse_substitution(d, t);
  if (parse_builtin(d, t)) return true;
  if (c == 'P') {
    d->p++;
    hg_mangled_param inner;
    if (!parse_type(d, &inner)) return false;
    *t = inner;
    t->pointer++;
    add_subst(d, t);
    return true;
  }
  if (c == 'D' && d->p[1] == 'v') { /* Dv <lanes> _ <element> */
    d->p += 2;
    unsigned long lanes;
    if (!read_number(d, &lanes) || *d->p != '_' || lanes > 255) return false;
    d->p++;
    hg_mangled_param elem;
    if (!parse_type(d, &elem)) return false;
    *t = elem;
    t->lanes = (uint8_t)lanes;
    add_subst(d, t);
    return true;
  }
  if (c == 'U' || c == 'r' || c == 'V' || c == 'K') {
    /* a qualified type: vendor qualifiers (address spaces) then [r][V][K], then the type;
     * _Atomic is a type constructor written like a vendor qualifier */
    /* each qualifier level is its own substitution candidate, innermost first: the CV set
     * ("VU7_Atomici"), then each vendor qualifier ("U3AS1VU7_Atomici") */
    unsigned as = 0, vendor = 0;
    bool cv = false;
    for (;;) {
      if (*d->p == 'U') {
        const char *save = d->p;
        d->p++;
        unsigned long len;
        if (!read_number(d, &len) || strlen(d->p) < len) return false;
        if (len == 7 && !strncmp(d->p, "_Atomic", 7)) {
          d->p = save;
          break;
        }
        if (len > 2 && !strncmp(d->p, "AS", 2)) as = (unsigned)strtoul(d->p + 2, NULL, 10);
        d->p += len;
        vendor++;
      } else if (*d->p == 'r' || *d->p == 'V' || *d->p == 'K') {
        d->p++;
        cv = true;
      } else {
        break;
      }
    }
    if (*d->p == 'U') { /* _Atomic(type) */
      d->p += 9; /* "U7_Atomic" */
      hg_mangled_param inner;
      if (!parse_type(d, &inner)) return false;
      *t = inner;
      t->is_atomic = true;
      add_subst(d, t);
    } else if (!parse_type(d, t)) {
      return false;
    }
    if (as) t->addrspace = (uint8_t)as;
    if (cv) add_subst(d, t);
    for (unsigned i = 0; i < vendor; i++) add_subst(d, t);
    return true;
  }
  if (isdigit((unsigned char)c)) { /* a named type */
    unsigned long len;
    if (!read_number(d, &len) || strlen(d->p) < len) return false;
    t->base = 'N';
    size_t n = len < sizeof t->named - 1 ? len : sizeof t->named - 1;
    memcpy(t->named, d->p, n);
    t->named[n] = 0;
    d->p += len;
    add_subst(d, t);
    return true;
  }
  return false;
}

bool hg_demangle_opencl(const char *mangled, hg_demangled *out) {
  memset(out, 0, sizeof *out);
  if (!mangled || strncmp(mangled, "_Z", 2) != 0) return false;
  demangler d = {.p = mangled + 2};
  unsigned long len;
  if (!read_number(&d, &len) || len == 0 || len >= sizeof out->name || strlen(d.p) < len) return false;
  memcpy(out->name, d.p, len);
  out->name[len] = 0;
  d.p += len;
  while (*d.p) {
    hg_mangled_param t;
    if (!parse_type(&d, &t)) return false;
    if (t.base == 'v' && t.pointer == 0) continue; /* (void) parameter list */
    if (out->num_params < HG_MAX_MANGLED_PARAMS) out->params[out->num_params++] = t;
  }
  return true;
}
