/* The binary form (docs/ir-spec.md, "Binary format"): a 32-byte header, a section table and
 * sections, all little-endian, CRC-32C over the file. The decoder trusts nothing: every read
 * is bounds-checked, every count is checked against the bytes left before anything is
 * allocated, every index is checked, and the result must pass hg_ir_verify. */
#include "ir/ir_internal.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t MAGIC[8] = {0x7F, 'H', 'G', 'I', 'R', 0x0D, 0x0A, 0x1A};
enum { HEADER_SIZE = 32, SEC_ENTRY = 12 };
enum { SEC_STRTAB = 1, SEC_MODULE = 2, SEC_GLOBALS = 3, SEC_FUNCTIONS = 4, SEC_KNOWN_ = 4 };

bool hg_ir_is_binary(const uint8_t *data, size_t size) {
  return data && size >= sizeof MAGIC && memcmp(data, MAGIC, sizeof MAGIC) == 0;
}

/* ---- encoder ---------------------------------------------------------------------------- */
typedef struct wbuf {
  uint8_t *p;
  size_t n, cap;
  bool oom;
} wbuf;

static void w_bytes(wbuf *w, const void *src, size_t n) {
  if (w->oom)
    return;
  if (w->n + n > w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 4096;
    while (nc < w->n + n)
      nc *= 2;
    uint8_t *np = realloc(w->p, nc);
    if (!np) {
      w->oom = true;
      return;
    }
    w->p = np;
    w->cap = nc;
  }
  if (n)
    memcpy(w->p + w->n, src, n);
  w->n += n;
}
static void w_u8(wbuf *w, uint8_t v) { w_bytes(w, &v, 1); }
static void w_u16(wbuf *w, uint16_t v) {
  uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
  w_bytes(w, b, 2);
}
static void w_u32(wbuf *w, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  w_bytes(w, b, 4);
}
static void w_u64(wbuf *w, uint64_t v) {
  w_u32(w, (uint32_t)v);
  w_u32(w, (uint32_t)(v >> 32));
}
static void w_type(wbuf *w, hg_ir_type t) {
  uint8_t b[4] = {t.scalar, t.lanes, t.addrspace, t.reserved};
  w_bytes(w, b, 4);
}
static void put_u32_at(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* The string table: the module's interned strings first, then every other string in the
 * order the encoder first meets it, each once. */
typedef struct strtab {
  const char **s;
  uint32_t n, cap, interned;
  uint32_t *slots; /* open-addressing hash of entries: index + 1, 0 = empty */
  uint32_t nslots;  /* power of two, at least twice n */
  bool oom;
} strtab;

static uint32_t str_hash(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static bool st_rehash(strtab *t, uint32_t nslots) {
  uint32_t *sl = calloc(nslots, sizeof *sl);
  if (!sl)
    return false;
  for (uint32_t i = 0; i < t->n; i++) {
    uint32_t h = str_hash(t->s[i]) & (nslots - 1);
    while (sl[h])
      h = (h + 1) & (nslots - 1);
    sl[h] = i + 1;
  }
  free(t->slots);
  t->slots = sl;
  t->nslots = nslots;
  return true;
}

/* Index of s in the table, adding it when new. The first entry of equal strings wins. */
static uint32_t st_id(strtab *t, const char *s) {
  if (!s)
    return HG_IR_NONE;
  if (t->oom)
    return 0;
  if ((uint64_t)(t->n + 1) * 2 > t->nslots && !st_rehash(t, t->nslots ? t->nslots * 2 : 64)) {
    t->oom = true;
    return 0;
  }
  uint32_t h = str_hash(s) & (t->nslots - 1);
  for (; t->slots[h]; h = (h + 1) & (t->nslots - 1))
    if (strcmp(t->s[t->slots[h] - 1], s) == 0)
      return t->slots[h] - 1;
  if (hg_ir_grow((void **)&t->s, &t->cap, t->n + 1, sizeof *t->s)) {
    t->oom = true;
    return 0;
  }
  t->s[t->n] = s;
  t->slots[h] = t->n + 1;
  return t->n++;
}
static const char *nn(const char *s) { return s ? s : ""; }

static void enc_globals(wbuf *w, strtab *st, const hg_ir_module *m) {
  w_u32(w, m->num_globals);
  for (uint32_t i = 0; i < m->num_globals; i++) {
    const hg_ir_global *g = &m->globals[i];
    w_u32(w, st_id(st, nn(g->name)));
    w_u8(w, g->addrspace);
    w_u8(w, g->is_const);
    w_u8(w, g->has_init);
    w_u8(w, 0);
    w_u32(w, g->size);
    w_u32(w, g->align);
    if (g->has_init) {
      if (g->init)
        w_bytes(w, g->init, g->size);
      else
        for (uint32_t k = 0; k < g->size; k++)
          w_u8(w, 0);
    }
    w_u32(w, g->num_relocs);
    for (uint32_t r = 0; r < g->num_relocs; r++) {
      w_u32(w, g->relocs[r].offset);
      w_u32(w, g->relocs[r].target);
      w_u64(w, (uint64_t)g->relocs[r].addend);
    }
  }
  /* 1.1: each global's linkage, appended to the section (1.0 readers skip it) */
  for (uint32_t i = 0; i < m->num_globals; i++)
    w_u8(w, m->globals[i].linkage);
}

static void enc_function(wbuf *w, strtab *st, const hg_ir_function *f) {
  w_u32(w, st_id(st, nn(f->name)));
  w_u8(w, f->is_kernel);
  w_u8(w, 0);
  w_u8(w, 0);
  w_u8(w, 0);
  w_type(w, f->ret_type);
  w_u32(w, f->num_params);
  for (uint32_t i = 0; i < f->num_params; i++)
    w_type(w, f->param_types[i]);
  w_u32(w, f->num_values);
  for (uint32_t i = 0; i < f->num_values; i++) {
    w_u8(w, f->values[i].kind);
    w_type(w, f->values[i].type);
    w_u32(w, f->values[i].index);
  }
  w_u32(w, f->num_const_words);
  for (uint32_t i = 0; i < f->num_const_words; i++)
    w_u64(w, f->const_words[i]);
  w_u32(w, f->num_slots);
  for (uint32_t i = 0; i < f->num_slots; i++) {
    w_u32(w, f->slots[i].size);
    w_u32(w, f->slots[i].align);
    w_u32(w, f->slots[i].offset);
  }
  w_u32(w, f->private_size);
  w_u32(w, f->num_blocks);
  for (uint32_t b = 0; b < f->num_blocks; b++) {
    const hg_ir_block *bl = &f->blocks[b];
    w_u32(w, bl->num_insts);
    for (uint32_t i = 0; i < bl->num_insts; i++) {
      const hg_ir_inst *in = &bl->insts[i];
      w_u16(w, in->op);
      w_u16(w, in->flags & ~hg_ir_wrap_flags_of(in->op)); /* those follow the functions (1.3) */
      w_u32(w, in->id);
      w_type(w, in->type);
      w_u32(w, in->num_operands);
      for (uint32_t k = 0; k < in->num_operands; k++)
        w_u32(w, in->operands[k]);
      w_u32(w, in->num_imm);
      for (uint32_t k = 0; k < in->num_imm; k++)
        w_u32(w, in->imm[k]);
    }
  }
  if (f->is_kernel) {
    for (uint32_t i = 0; i < f->num_params; i++) {
      const hg_ir_kernel_arg *a = f->args ? &f->args[i] : NULL;
      w_u32(w, st_id(st, a ? nn(a->name) : ""));
      w_u32(w, st_id(st, a ? nn(a->type_name) : ""));
      w_u8(w, a ? a->kind : 0);
      w_u8(w, a ? a->access_qual : 0);
      w_u8(w, a ? a->type_qual : 0);
      w_u8(w, a ? a->reserved : 0);
      w_u32(w, a ? a->size : 0);
      w_u32(w, a ? a->align : 0);
    }
    for (int k = 0; k < 3; k++)
      w_u32(w, f->reqd_work_group_size[k]);
    for (int k = 0; k < 3; k++)
      w_u32(w, f->work_group_size_hint[k]);
    w_u32(w, st_id(st, f->vec_type_hint));
    w_u32(w, st_id(st, nn(f->attributes)));
  }
  w_u32(w, f->num_safepoints);
  for (uint32_t i = 0; i < f->num_safepoints; i++) {
    const hg_ir_safepoint *sp = &f->safepoints[i];
    w_u32(w, sp->id);
    w_u8(w, sp->kind);
    w_u8(w, 0);
    w_u8(w, 0);
    w_u8(w, 0);
    w_u32(w, sp->block);
    w_u32(w, sp->inst);
    w_u32(w, sp->num_live);
    for (uint32_t k = 0; k < sp->num_live; k++)
      w_u32(w, sp->live[k]);
  }
  w_u32(w, f->num_local_vars);
  for (uint32_t i = 0; i < f->num_local_vars; i++) {
    w_u32(w, f->local_vars[i].global);
    w_u32(w, f->local_vars[i].offset);
  }
  w_u32(w, f->local_static_size);
}

/* 1.3: the wrap flags, appended to the functions section (older readers skip them, which only
 * loses what they let a lowering assume): a byte for each instruction that may carry them, in
 * function, block and instruction order. */
static void enc_wrap_flags(wbuf *w, const hg_ir_function *f) {
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      if (hg_ir_wrap_flags_of(in->op))
        w_u8(w, (uint8_t)(in->flags & hg_ir_wrap_flags_of(in->op)));
    }
}

int hg_ir_encode(const hg_ir_module *m, uint8_t **out, size_t *out_size) {
  if (!m || !out || !out_size)
    return -1;
  *out = NULL;
  *out_size = 0;
  strtab st = {0};
  for (uint32_t i = 0; i < m->num_strings; i++) /* interned strings are unique (the verifier checks) */
    if (st_id(&st, m->strings[i]) != i)
      st.oom = true;
  st.interned = st.n;
  /* sections other than the string table first, so that the table is complete */
  wbuf sec[SEC_KNOWN_ + 1];
  memset(sec, 0, sizeof sec);
  w_u8(&sec[SEC_MODULE], m->program_kind);
  w_u8(&sec[SEC_MODULE], m->uses_fp64);
  w_u8(&sec[SEC_MODULE], m->uses_fp16);
  w_u8(&sec[SEC_MODULE], 0);
  /* optional texts: empty and absent are one value, encoded as absent (as the text form does) */
  w_u32(&sec[SEC_MODULE], st_id(&st, m->source_language && *m->source_language ? m->source_language : NULL));
  w_u32(&sec[SEC_MODULE], st_id(&st, m->build_options && *m->build_options ? m->build_options : NULL));
  enc_globals(&sec[SEC_GLOBALS], &st, m);
  w_u32(&sec[SEC_FUNCTIONS], m->num_functions);
  for (uint32_t i = 0; i < m->num_functions; i++)
    enc_function(&sec[SEC_FUNCTIONS], &st, &m->functions[i]);
  for (uint32_t i = 0; i < m->num_functions; i++)
    enc_wrap_flags(&sec[SEC_FUNCTIONS], &m->functions[i]);
  w_u32(&sec[SEC_STRTAB], st.interned);
  w_u32(&sec[SEC_STRTAB], st.n);
  for (uint32_t i = 0; i < st.n; i++) {
    size_t l = strlen(st.s[i]);
    if (l > UINT32_MAX)
      st.oom = true;
    w_u32(&sec[SEC_STRTAB], (uint32_t)l);
    w_bytes(&sec[SEC_STRTAB], st.s[i], l);
  }
  wbuf w = {0};
  uint8_t zero[HEADER_SIZE] = {0};
  w_bytes(&w, zero, HEADER_SIZE);
  for (int s = 1; s <= SEC_KNOWN_; s++) {
    w_u32(&w, (uint32_t)s);
    w_u32(&w, 0);
    w_u32(&w, 0);
  }
  bool oom = st.oom;
  for (int s = 1; s <= SEC_KNOWN_; s++) {
    while (w.n % 4)
      w_u8(&w, 0);
    size_t off = w.n;
    w_bytes(&w, sec[s].p, sec[s].n);
    oom |= sec[s].oom;
    if (!w.oom && (off > UINT32_MAX || sec[s].n > UINT32_MAX))
      oom = true;
    if (!w.oom) {
      put_u32_at(w.p + HEADER_SIZE + (size_t)(s - 1) * SEC_ENTRY + 4, (uint32_t)off);
      put_u32_at(w.p + HEADER_SIZE + (size_t)(s - 1) * SEC_ENTRY + 8, (uint32_t)sec[s].n);
    }
    free(sec[s].p);
  }
  free(st.s);
  free(st.slots);
  if (oom || w.oom || w.n > UINT32_MAX) {
    free(w.p);
    return -1;
  }
  memcpy(w.p, MAGIC, 8);
  w.p[8] = HG_IR_VERSION_MAJOR & 0xFF;
  w.p[9] = HG_IR_VERSION_MAJOR >> 8;
  w.p[10] = HG_IR_VERSION_MINOR & 0xFF;
  w.p[11] = HG_IR_VERSION_MINOR >> 8;
  put_u32_at(w.p + 12, HEADER_SIZE);
  put_u32_at(w.p + 16, (uint32_t)w.n);
  put_u32_at(w.p + 24, SEC_KNOWN_);
  put_u32_at(w.p + 28, 0);
  uint32_t crc = hg_ir_crc32c(0, w.p, 20);
  crc = hg_ir_crc32c(crc, w.p + 24, w.n - 24);
  put_u32_at(w.p + 20, crc);
  *out = w.p;
  *out_size = w.n;
  return 0;
}

/* ---- decoder ---------------------------------------------------------------------------- */
typedef struct rd {
  const uint8_t *p;
  size_t n, at;
  bool bad;
  char *err;
  size_t err_size;
  const char *what; /* section being read, for messages */
  uint16_t minor;   /* the file's format minor version */
} rd;

static bool fail(rd *r, const char *msg) {
  if (!r->bad)
    hg_ir_errf(r->err, r->err_size, "invalid IR binary (%s section, byte %zu): %s", r->what, r->at, msg);
  r->bad = true;
  return false;
}
static size_t left(const rd *r) { return r->bad ? 0 : r->n - r->at; }
static bool need(rd *r, size_t k) { return left(r) >= k ? true : fail(r, "truncated"); }
static uint8_t r_u8(rd *r) { return need(r, 1) ? r->p[r->at++] : 0; }
static uint16_t r_u16(rd *r) {
  if (!need(r, 2))
    return 0;
  uint16_t v = (uint16_t)(r->p[r->at] | r->p[r->at + 1] << 8);
  r->at += 2;
  return v;
}
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint32_t r_u32(rd *r) {
  if (!need(r, 4))
    return 0;
  uint32_t v = rd32(r->p + r->at);
  r->at += 4;
  return v;
}
static uint64_t r_u64(rd *r) {
  uint64_t lo = r_u32(r);
  return lo | (uint64_t)r_u32(r) << 32;
}
static hg_ir_type r_type(rd *r) {
  hg_ir_type t = {0, 0, 0, 0};
  if (need(r, 4)) {
    t.scalar = r->p[r->at];
    t.lanes = r->p[r->at + 1];
    t.addrspace = r->p[r->at + 2];
    t.reserved = r->p[r->at + 3];
    /* images and samplers exist since 1.2; their dimension and access bytes are checked here,
     * before anything indexes a name table with them */
    if ((t.scalar == HG_IR_IMAGE || t.scalar == HG_IR_SAMPLER) && (r->minor < 2 || !hg_ir_type_valid(t)))
      fail(r, r->minor < 2 ? "image or sampler type in a file older than format 1.2" : "invalid image or sampler type");
    else
      r->at += 4;
  }
  return t;
}
/* A count of records of at least min_size bytes each: never more than the bytes left allow. */
static uint32_t r_count(rd *r, size_t min_size) {
  uint32_t c = r_u32(r);
  if (!r->bad && (size_t)c > left(r) / min_size) {
    fail(r, "count larger than the bytes left");
    return 0;
  }
  return c;
}
static void *r_alloc(rd *r, size_t count, size_t elem) {
  if (r->bad)
    return NULL;
  void *p = calloc(count ? count : 1, elem);
  if (!p)
    fail(r, "out of memory");
  return p;
}

typedef struct dstr {
  char **s;
  uint32_t n;
} dstr;

/* A string table reference; optional allows HG_IR_NONE (NULL). Returns a fresh copy. */
static char *r_str(rd *r, const dstr *st, bool optional, bool *okp) {
  uint32_t id = r_u32(r);
  if (r->bad) {
    *okp = false;
    return NULL;
  }
  if (id == HG_IR_NONE && optional)
    return NULL;
  if (id >= st->n) {
    *okp = false;
    fail(r, "string index out of range");
    return NULL;
  }
  char *c = hg_ir_strdup(st->s[id]);
  if (!c) {
    *okp = false;
    fail(r, "out of memory");
  }
  return c;
}

static bool dec_strtab(rd *r, dstr *st, hg_ir_module *m) {
  uint32_t interned = r_u32(r);
  uint32_t n = r_count(r, 4);
  if (r->bad)
    return false;
  if (interned > n)
    return fail(r, "more interned strings than strings");
  st->s = r_alloc(r, n, sizeof *st->s);
  if (!st->s)
    return false;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = r_u32(r);
    if (!need(r, l))
      return false;
    if (memchr(r->p + r->at, 0, l))
      return fail(r, "NUL byte inside a string");
    st->s[i] = malloc((size_t)l + 1);
    if (!st->s[i])
      return fail(r, "out of memory");
    st->n = i + 1;
    memcpy(st->s[i], r->p + r->at, l);
    st->s[i][l] = 0;
    r->at += l;
  }
  m->strings = r_alloc(r, interned, sizeof *m->strings);
  if (!m->strings)
    return false;
  m->cap_strings = interned ? interned : 1;
  for (uint32_t i = 0; i < interned; i++) {
    m->strings[i] = hg_ir_strdup(st->s[i]);
    if (!m->strings[i])
      return fail(r, "out of memory");
    m->num_strings = i + 1;
  }
  return true;
}

static bool dec_module(rd *r, const dstr *st, hg_ir_module *m) {
  bool ok = true;
  m->program_kind = r_u8(r);
  uint8_t f64 = r_u8(r), f16 = r_u8(r), res = r_u8(r);
  if (r->bad || f64 > 1 || f16 > 1 || res)
    return r->bad ? false : fail(r, "bad flags");
  m->uses_fp64 = f64;
  m->uses_fp16 = f16;
  m->source_language = r_str(r, st, true, &ok);
  m->build_options = r_str(r, st, true, &ok);
  return ok && !r->bad;
}

static bool dec_globals(rd *r, const dstr *st, hg_ir_module *m, uint16_t minor) {
  uint32_t n = r_count(r, 20);
  if (r->bad)
    return false;
  m->globals = r_alloc(r, n, sizeof *m->globals);
  if (!m->globals)
    return false;
  m->cap_globals = n ? n : 1;
  for (uint32_t i = 0; i < n; i++) {
    hg_ir_global *g = &m->globals[i];
    m->num_globals = i + 1;
    bool ok = true;
    g->name = r_str(r, st, false, &ok);
    g->addrspace = r_u8(r);
    uint8_t ic = r_u8(r), hi = r_u8(r), res = r_u8(r);
    if (!ok || r->bad)
      return false;
    if (ic > 1 || hi > 1 || res)
      return fail(r, "bad global flags");
    g->is_const = ic;
    g->has_init = hi;
    g->size = r_u32(r);
    g->align = r_u32(r);
    if (g->has_init) {
      if (!need(r, g->size))
        return false;
      g->init = r_alloc(r, g->size, 1);
      if (!g->init)
        return false;
      memcpy(g->init, r->p + r->at, g->size);
      r->at += g->size;
    }
    g->num_relocs = r_count(r, 16);
    if (r->bad)
      return false;
    if (g->num_relocs) {
      g->relocs = r_alloc(r, g->num_relocs, sizeof *g->relocs);
      if (!g->relocs)
        return false;
      for (uint32_t k = 0; k < g->num_relocs; k++) {
        g->relocs[k].offset = r_u32(r);
        g->relocs[k].target = r_u32(r);
        g->relocs[k].addend = (int64_t)r_u64(r);
      }
    }
  }
  /* from 1.1: the linkages (a 1.0 file's globals are all internal) */
  for (uint32_t i = 0; minor >= 1 && !r->bad && i < m->num_globals; i++)
    if ((m->globals[i].linkage = r_u8(r)) > HG_LINK_IMPORTED)
      return fail(r, "bad global linkage");
  return !r->bad;
}

static bool dec_function(rd *r, const dstr *st, hg_ir_function *f) {
  bool ok = true;
  f->name = r_str(r, st, false, &ok);
  uint8_t k = r_u8(r);
  uint8_t r0 = r_u8(r), r1 = r_u8(r), r2 = r_u8(r);
  if (!ok || r->bad)
    return false;
  if (k > 1 || r0 || r1 || r2)
    return fail(r, "bad function flags");
  f->is_kernel = k;
  f->ret_type = r_type(r);
  f->num_params = r_count(r, 4);
  if (r->bad)
    return false;
  f->param_types = r_alloc(r, f->num_params, sizeof *f->param_types);
  if (!f->param_types)
    return false;
  for (uint32_t i = 0; i < f->num_params; i++)
    f->param_types[i] = r_type(r);
  uint32_t nv = r_count(r, 9);
  if (r->bad)
    return false;
  f->values = r_alloc(r, nv, sizeof *f->values);
  if (!f->values)
    return false;
  f->num_values = f->cap_values = nv;
  for (uint32_t i = 0; i < nv; i++) {
    f->values[i].kind = r_u8(r);
    f->values[i].type = r_type(r);
    f->values[i].index = r_u32(r);
  }
  uint32_t nc = r_count(r, 8);
  if (r->bad)
    return false;
  f->const_words = r_alloc(r, nc, sizeof *f->const_words);
  if (!f->const_words)
    return false;
  f->num_const_words = f->cap_const_words = nc;
  for (uint32_t i = 0; i < nc; i++)
    f->const_words[i] = r_u64(r);
  f->num_slots = r_count(r, 12);
  if (r->bad)
    return false;
  if (f->num_slots) {
    f->slots = r_alloc(r, f->num_slots, sizeof *f->slots);
    if (!f->slots)
      return false;
    for (uint32_t i = 0; i < f->num_slots; i++) {
      f->slots[i].size = r_u32(r);
      f->slots[i].align = r_u32(r);
      f->slots[i].offset = r_u32(r);
    }
  }
  f->private_size = r_u32(r);
  uint32_t nb = r_count(r, 4);
  if (r->bad)
    return false;
  f->blocks = r_alloc(r, nb, sizeof *f->blocks);
  if (!f->blocks)
    return false;
  f->cap_blocks = nb ? nb : 1;
  for (uint32_t b = 0; b < nb; b++) {
    hg_ir_block *bl = &f->blocks[b];
    f->num_blocks = b + 1;
    uint32_t ni = r_count(r, 20);
    if (r->bad)
      return false;
    bl->insts = r_alloc(r, ni, sizeof *bl->insts);
    if (!bl->insts)
      return false;
    bl->cap_insts = ni ? ni : 1;
    for (uint32_t i = 0; i < ni; i++) {
      hg_ir_inst *in = &bl->insts[i];
      bl->num_insts = i + 1;
      in->op = r_u16(r);
      in->flags = r_u16(r);
      if (!r->bad && (in->flags & hg_ir_wrap_flags_of(in->op)))
        return fail(r, "wrap flags inside an instruction record");
      in->id = r_u32(r);
      in->type = r_type(r);
      in->num_operands = r_count(r, 4);
      if (r->bad)
        return false;
      if (in->num_operands) {
        in->operands = r_alloc(r, in->num_operands, sizeof *in->operands);
        if (!in->operands)
          return false;
        for (uint32_t x = 0; x < in->num_operands; x++)
          in->operands[x] = r_u32(r);
      }
      uint32_t nimm = r_count(r, 4);
      if (r->bad)
        return false;
      if (nimm) {
        in->imm = r_alloc(r, nimm, sizeof *in->imm);
        if (!in->imm)
          return false;
        in->num_imm = nimm;
        for (uint32_t x = 0; x < nimm; x++)
          in->imm[x] = r_u32(r);
      }
    }
  }
  if (f->is_kernel) {
    if (!need(r, (size_t)f->num_params * 16))
      return false;
    f->args = r_alloc(r, f->num_params, sizeof *f->args);
    if (!f->args)
      return false;
    for (uint32_t i = 0; i < f->num_params; i++) {
      hg_ir_kernel_arg *a = &f->args[i];
      a->name = r_str(r, st, false, &ok);
      a->type_name = r_str(r, st, false, &ok);
      a->kind = r_u8(r);
      a->access_qual = r_u8(r);
      a->type_qual = r_u8(r);
      a->reserved = r_u8(r);
      a->size = r_u32(r);
      a->align = r_u32(r);
      if (!ok || r->bad)
        return false;
    }
    for (int x = 0; x < 3; x++)
      f->reqd_work_group_size[x] = r_u32(r);
    for (int x = 0; x < 3; x++)
      f->work_group_size_hint[x] = r_u32(r);
    f->vec_type_hint = r_str(r, st, true, &ok);
    f->attributes = r_str(r, st, false, &ok);
    if (!ok || r->bad)
      return false;
  }
  uint32_t nsp = r_count(r, 20);
  if (r->bad)
    return false;
  if (nsp) {
    f->safepoints = r_alloc(r, nsp, sizeof *f->safepoints);
    if (!f->safepoints)
      return false;
    for (uint32_t i = 0; i < nsp; i++) {
      hg_ir_safepoint *sp = &f->safepoints[i];
      f->num_safepoints = i + 1;
      sp->id = r_u32(r);
      sp->kind = r_u8(r);
      uint8_t a = r_u8(r), b = r_u8(r), c = r_u8(r);
      if (!r->bad && (a || b || c))
        return fail(r, "reserved bytes not zero");
      sp->block = r_u32(r);
      sp->inst = r_u32(r);
      uint32_t nl = r_count(r, 4);
      if (r->bad)
        return false;
      if (nl) {
        sp->live = r_alloc(r, nl, sizeof *sp->live);
        if (!sp->live)
          return false;
        sp->num_live = nl;
        for (uint32_t x = 0; x < nl; x++)
          sp->live[x] = r_u32(r);
      }
    }
  }
  uint32_t nlv = r_count(r, 8);
  if (r->bad)
    return false;
  if (nlv) {
    f->local_vars = r_alloc(r, nlv, sizeof *f->local_vars);
    if (!f->local_vars)
      return false;
    f->num_local_vars = nlv;
    for (uint32_t i = 0; i < nlv; i++) {
      f->local_vars[i].global = r_u32(r);
      f->local_vars[i].offset = r_u32(r);
    }
  }
  f->local_static_size = r_u32(r);
  return !r->bad;
}

/* The 1.3 wrap flags (enc_wrap_flags). */
static bool dec_wrap_flags(rd *r, hg_ir_function *f) {
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      hg_ir_inst *in = &f->blocks[b].insts[i];
      unsigned allowed = hg_ir_wrap_flags_of(in->op);
      if (!allowed)
        continue;
      uint8_t v = r_u8(r);
      if (r->bad)
        return false;
      if (v & ~allowed)
        return fail(r, "unknown wrap flags");
      in->flags |= v;
    }
  return true;
}

static bool dec_functions(rd *r, const dstr *st, hg_ir_module *m) {
  uint32_t n = r_count(r, 48);
  if (r->bad)
    return false;
  m->functions = r_alloc(r, n, sizeof *m->functions);
  if (!m->functions)
    return false;
  m->cap_functions = n ? n : 1;
  for (uint32_t i = 0; i < n; i++) {
    m->num_functions = i + 1;
    if (!dec_function(r, st, &m->functions[i]))
      return false;
  }
  for (uint32_t i = 0; r->minor >= 3 && i < n; i++)
    if (!dec_wrap_flags(r, &m->functions[i]))
      return false;
  return true;
}

hg_ir_module *hg_ir_decode(const uint8_t *data, size_t size, char *err, size_t err_size) {
  rd hdr = {data, size, 0, false, err, err_size, "header"};
  if (!data || size < HEADER_SIZE) {
    fail(&hdr, "shorter than the header");
    return NULL;
  }
  if (!hg_ir_is_binary(data, size)) {
    fail(&hdr, "bad magic");
    return NULL;
  }
  uint16_t major = (uint16_t)(data[8] | data[9] << 8), minor = (uint16_t)(data[10] | data[11] << 8);
  uint32_t hsize = rd32(data + 12), fsize = rd32(data + 16), crc = rd32(data + 20), nsec = rd32(data + 24);
  if (major != HG_IR_VERSION_MAJOR) {
    hg_ir_errf(err, err_size, "IR binary format %u.%u: this reader reads major version %u only", major, minor,
               HG_IR_VERSION_MAJOR);
    return NULL;
  }
  if (fsize != size) {
    fail(&hdr, "file size in the header differs from the data size");
    return NULL;
  }
  if (hsize < HEADER_SIZE || hsize > size || (minor >= 1 && minor <= HG_IR_VERSION_MINOR && hsize != HEADER_SIZE)) {
    fail(&hdr, "bad header size");
    return NULL;
  }
  uint32_t got = hg_ir_crc32c(hg_ir_crc32c(0, data, 20), data + 24, size - 24);
  if (got != crc) {
    hg_ir_errf(err, err_size, "invalid IR binary: checksum mismatch (stored %08x, computed %08x)", crc, got);
    return NULL;
  }
  if (minor >= 1 && minor <= HG_IR_VERSION_MINOR && rd32(data + 28) != 0) {
    fail(&hdr, "unknown header flags");
    return NULL;
  }
  if (nsec > (size - hsize) / SEC_ENTRY) {
    fail(&hdr, "section table beyond the end");
    return NULL;
  }
  /* find the sections this reader knows; each exactly once, inside the file */
  uint32_t off[SEC_KNOWN_ + 1] = {0}, len[SEC_KNOWN_ + 1] = {0};
  bool seen[SEC_KNOWN_ + 1] = {false};
  for (uint32_t i = 0; i < nsec; i++) {
    const uint8_t *e = data + hsize + (size_t)i * SEC_ENTRY;
    uint32_t id = rd32(e), o = rd32(e + 4), l = rd32(e + 8);
    if (o < hsize + (size_t)nsec * SEC_ENTRY || o > size || l > size - o) {
      hdr.at = hsize + (size_t)i * SEC_ENTRY;
      fail(&hdr, "section outside the file");
      return NULL;
    }
    if (id >= 1 && id <= SEC_KNOWN_) {
      if (seen[id]) {
        fail(&hdr, "section given twice");
        return NULL;
      }
      seen[id] = true;
      off[id] = o;
      len[id] = l;
    } else if (minor <= HG_IR_VERSION_MINOR) {
      fail(&hdr, "unknown section in a file of this reader's version");
      return NULL;
    } /* newer minor: unknown sections are skipped */
  }
  for (int s = 1; s <= SEC_KNOWN_; s++)
    if (!seen[s]) {
      fail(&hdr, "a required section is missing");
      return NULL;
    }
  hg_ir_module *m = hg_ir_module_new();
  dstr st = {NULL, 0};
  bool ok = m != NULL;
  static const char *const names[SEC_KNOWN_ + 1] = {"", "string table", "module", "globals", "functions"};
  for (int s = 1; ok && s <= SEC_KNOWN_; s++) {
    rd r = {data + off[s], len[s], 0, false, err, err_size, names[s], minor};
    switch (s) {
    case SEC_STRTAB: ok = dec_strtab(&r, &st, m); break;
    case SEC_MODULE: ok = dec_module(&r, &st, m); break;
    case SEC_GLOBALS: ok = dec_globals(&r, &st, m, minor); break;
    case SEC_FUNCTIONS: ok = dec_functions(&r, &st, m); break;
    }
    /* a newer minor may append fields at the end of a section; this version's files may not */
    if (ok && r.at != r.n && minor <= HG_IR_VERSION_MINOR)
      ok = fail(&r, "trailing bytes");
  }
  if (!m)
    hg_ir_errf(err, err_size, "out of memory");
  for (uint32_t i = 0; i < st.n; i++)
    free(st.s[i]);
  free(st.s);
  if (ok) {
    char verr[256];
    if (!hg_ir_verify(m, verr, sizeof verr)) {
      hg_ir_errf(err, err_size, "invalid IR binary: %s", verr);
      ok = false;
    }
  }
  if (!ok) {
    hg_ir_module_free(m);
    return NULL;
  }
  return m;
}
