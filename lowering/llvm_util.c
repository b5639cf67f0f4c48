/* Small helpers of the translation: the pointer map, temporaries, failure. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

static size_t hash_ptr(const void *p, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h & (cap - 1);
}

void hg_ptr_map_put(hg_ptr_map *m, const void *key, uint32_t value) {
  if ((m->count + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    hg_ptr_map_entry *ns = calloc(ncap, sizeof *ns);
    if (!ns) abort();
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->slots[i].key) continue;
      size_t j = hash_ptr(m->slots[i].key, ncap);
      while (ns[j].key) j = (j + 1) & (ncap - 1);
      ns[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
  }
  size_t j = hash_ptr(key, m->cap);
  while (m->slots[j].key && m->slots[j].key != key) j = (j + 1) & (m->cap - 1);
  if (!m->slots[j].key) m->count++;
  m->slots[j].key = key;
  m->slots[j].value = value;
}

bool hg_ptr_map_get(const hg_ptr_map *m, const void *key, uint32_t *value) {
  if (!m->cap) return false;
  size_t j = hash_ptr(key, m->cap);
  while (m->slots[j].key) {
    if (m->slots[j].key == key) {
      *value = m->slots[j].value;
      return true;
    }
    j = (j + 1) & (m->cap - 1);
  }
  return false;
}

void hg_ptr_map_free(hg_ptr_map *m) {
  free(m->slots);
  memset(m, 0, sizeof *m);
}

void hg_xlate_fail(hg_xlate *x, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (x->fn) {
    size_t n;
    const char *fname = LLVMGetValueName2(x->fn, &n);
    hg_log_append(x->log, "error: in function '%.*s': %s", (int)n, fname, msg);
  } else {
    hg_log_append(x->log, "error: %s", msg);
  }
  longjmp(x->fail, 1);
}

void *hg_xlate_temp(hg_xlate *x, size_t bytes) {
  size_t n = sizeof x->temps / sizeof *x->temps, i = 0;
  while (i < n && x->temps[i]) i++;
  if (i == n) hg_xlate_fail(x, "internal: too many temporaries");
  x->temps[i] = malloc(bytes ? bytes : 1);
  if (!x->temps[i]) abort();
  return x->temps[i];
}

void hg_xlate_temp_free(hg_xlate *x, void *p) {
  for (size_t i = 0; i < sizeof x->temps / sizeof *x->temps; i++)
    if (x->temps[i] == p) x->temps[i] = NULL;
  free(p);
}
