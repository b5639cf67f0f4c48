/* The host side of printf through a buffer (printf_buffer.h, docs/printf.md), shared by every
 * backend: records put in work-group order (a group's records keep their order) and formatted
 * as OpenCL C printf says, vectors with "%v4d"-style specifiers and their elements separated by
 * commas. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/printf_buffer.h"

typedef struct rec {
  uint64_t group, offset;
  const uint8_t *p;
  uint32_t size, fmt;
} rec;

typedef struct sbuf {
  char *s;
  size_t len, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
    char *s = realloc(b->s, cap);
    if (!s)
      return;
    b->s = s;
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

static int by_group(const void *a, const void *b) {
  const rec *x = a, *y = b;
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void format_record(sbuf *out, const hg_printf_source *src, const char *f, const uint8_t *args, size_t nslots) {
  size_t ai = 0;
  while (*f) {
    if (*f != '%') {
      const char *e = strchr(f, '%');
      size_t n = e ? (size_t)(e - f) : strlen(f);
      put(out, "%.*s", (int)n, f);
      f += n;
      continue;
    }
    if (f[1] == '%') {
      put(out, "%%");
      f += 2;
      continue;
    }
    const char *start = f++;
    char spec[64];
    size_t sl = 0;
    spec[sl++] = '%';
    while (*f && strchr("-+ #0", *f) && sl < 40)
      spec[sl++] = *f++;
    while (*f >= '0' && *f <= '9' && sl < 40)
      spec[sl++] = *f++;
    if (*f == '.') {
      spec[sl++] = *f++;
      while (*f >= '0' && *f <= '9' && sl < 40)
        spec[sl++] = *f++;
    }
    unsigned lanes = 1;
    if (*f == 'v') {
      lanes = (unsigned)strtoul(f + 1, (char **)&f, 10);
      if (!lanes || lanes > 16)
        lanes = 1;
    }
    int len = 0; /* -2 hh, -1 h, 0 int, 1 l, 2 hl (32-bit vector elements) */
    if (f[0] == 'h' && f[1] == 'h') len = -2, f += 2;
    else if (f[0] == 'h' && f[1] == 'l') len = 2, f += 2;
    else if (f[0] == 'h') len = -1, f++;
    else if (f[0] == 'l') len = 1, f++;
    char conv = *f ? *f++ : 0;
    if (!conv || !strchr("diouxXcsfFeEgGaAp", conv)) {
      put(out, "%.*s", (int)(f - start), start); /* not a conversion: printed as written */
      continue;
    }
    for (unsigned l = 0; l < lanes; l++) {
      if (l)
        put(out, ",");
      uint64_t v = 0;
      if (ai < nslots)
        memcpy(&v, args + 8 * ai, 8);
      ai++;
      char full[80];
      if (strchr("diouxX", conv)) {
        long long sv;
        unsigned long long uv;
        switch (len) {
        case -2: sv = (signed char)v; uv = (unsigned char)v; break;
        case -1: sv = (short)v; uv = (unsigned short)v; break;
        case 1: sv = (long long)v; uv = v; break;
        default: sv = (int)v; uv = (unsigned)v; break;
        }
        snprintf(full, sizeof full, "%.*sll%c", (int)sl, spec, conv);
        if (conv == 'd' || conv == 'i')
          put(out, full, sv);
        else
          put(out, full, uv);
      } else if (strchr("fFeEgGaA", conv)) {
        double d;
        memcpy(&d, &v, 8);
        snprintf(full, sizeof full, "%.*s%c", (int)sl, spec, conv);
        put(out, full, d);
      } else if (conv == 'c') {
        snprintf(full, sizeof full, "%.*sc", (int)sl, spec);
        put(out, full, (int)(unsigned char)v);
      } else if (conv == 'p') {
        snprintf(full, sizeof full, "%.*sp", (int)sl, spec);
        put(out, full, (void *)(uintptr_t)v);
      } else { /* s */
        size_t max = 0;
        const char *str = v ? src->string_at(src->ctx, v, &max) : NULL;
        size_t n = str ? strnlen(str, max) : 0;
        snprintf(full, sizeof full, "%.*ss", (int)sl, spec);
        char *tmp = malloc(n + 1);
        if (tmp) {
          memcpy(tmp, str ? str : "", n);
          tmp[n] = 0;
          put(out, full, str ? tmp : "(null)");
          free(tmp);
        }
      }
    }
  }
}

int hg_printf_format(const uint8_t *buf, uint64_t cap, const hg_printf_source *src, char **out, size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  uint64_t used;
  memcpy(&used, buf, 8);
  if (used > cap)
    used = cap; /* records that did not fit were not written */
  const uint8_t *area = buf + HG_PRINTF_HEADER_BYTES;
  size_t n = 0, cap_recs = 64;
  rec *recs = malloc(cap_recs * sizeof *recs);
  if (!recs)
    return -1;
  for (uint64_t off = 0; off + HG_PRINTF_RECORD_HEADER_BYTES <= used;) {
    uint32_t size, fmt;
    memcpy(&size, area + off, 4);
    memcpy(&fmt, area + off + 4, 4);
    if (size < HG_PRINTF_RECORD_HEADER_BYTES || size > used - off || (size & 7))
      break; /* a damaged buffer: stop at the damage */
    if (n == cap_recs) {
      rec *nr = realloc(recs, 2 * cap_recs * sizeof *recs);
      if (!nr)
        break;
      recs = nr;
      cap_recs *= 2;
    }
    uint64_t grp;
    memcpy(&grp, area + off + 8, 8);
    recs[n++] = (rec){grp, off, area + off, size, fmt};
    off += size;
  }
  qsort(recs, n, sizeof *recs, by_group);
  sbuf sb = {0};
  for (size_t i = 0; i < n; i++) {
    if (recs[i].fmt >= src->num_formats)
      continue;
    format_record(&sb, src, src->formats[recs[i].fmt], recs[i].p + HG_PRINTF_RECORD_HEADER_BYTES,
                  (recs[i].size - HG_PRINTF_RECORD_HEADER_BYTES) / HG_PRINTF_SLOT_BYTES);
  }
  free(recs);
  *out = sb.s;
  *out_len = sb.len;
  return 0;
}

void hg_printf_write(const char *text, size_t len) {
  if (!len)
    return;
  fwrite(text, 1, len, stdout);
  fflush(stdout);
}
