/* The source -> IR cache entries with their included files (platform/program_ir_cache.h).
 *
 * Value layout: "HGIRDEP1", uint32 count, then per file uint32 path length, the path, uint64
 * size, 16-byte hash of its bytes; then the value (an IR binary, an object's bitcode).
 * Everything is checked on the way in (the cache itself checks the entry's integrity; this
 * checks its shape). */
#include "platform/program_ir_cache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

#define DEPS_MAGIC "HGIRDEP1"
#define MAX_DEP_FILE (256u << 20)

/* size and hash of a file's bytes; false when it cannot be read */
static bool file_digest(const char *path, uint64_t *size, uint8_t hash[16]) {
  FILE *f = fopen(path, "rbe");
  if (!f)
    return false;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  bool ok = buf != NULL;
  while (ok) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    uint8_t *grown = cap < MAX_DEP_FILE ? realloc(buf, cap * 2) : NULL;
    ok = grown != NULL;
    if (ok) {
      buf = grown;
      cap *= 2;
    }
  }
  ok = ok && !ferror(f);
  fclose(f);
  if (ok) {
    *size = n;
    hg_cache_hash(buf, n, hash);
  }
  free(buf);
  return ok;
}

typedef struct reader {
  const uint8_t *p;
  size_t left;
} reader;

static bool take(reader *r, void *to, size_t n) {
  if (r->left < n)
    return false;
  memcpy(to, r->p, n);
  r->p += n;
  r->left -= n;
  return true;
}

bool hg_program_cache_get(const hg_cache_key *key, uint8_t **value, size_t *value_size) {
  *value = NULL;
  uint8_t *bytes;
  size_t size;
  if (!hg_cache_get(key, &bytes, &size))
    return false;
  reader r = {bytes, size};
  char magic[8];
  uint32_t count = 0;
  bool ok = take(&r, magic, 8) && !memcmp(magic, DEPS_MAGIC, 8) && take(&r, &count, 4);
  for (uint32_t i = 0; ok && i < count; i++) {
    uint32_t len = 0;
    uint64_t want_size, got_size;
    uint8_t want_hash[16], got_hash[16];
    char *path = NULL;
    ok = take(&r, &len, 4) && len > 0 && len < 4096 && r.left >= len && (path = malloc(len + 1)) != NULL &&
         take(&r, path, len);
    if (ok) {
      path[len] = 0;
      ok = take(&r, &want_size, 8) && take(&r, want_hash, 16) && file_digest(path, &got_size, got_hash) &&
           got_size == want_size && !memcmp(got_hash, want_hash, 16);
      if (!ok)
        HG_LOG(HG_LOG_CACHE, "IR cache: %s changed since the entry was written: rebuilding", path);
    }
    free(path);
  }
  if (ok) { /* the value moved to the front of the entry's own buffer */
    memmove(bytes, r.p, r.left);
    *value = bytes;
    *value_size = r.left;
  } else {
    free(bytes);
  }
  return ok;
}

void hg_program_cache_put(const hg_cache_key *key, const uint8_t *value, size_t size, const hg_frontend_deps *deps) {
  size_t cap = 12 + size, used = 12;
  for (unsigned i = 0; i < deps->count; i++)
    cap += 4 + strlen(deps->paths[i]) + 8 + 16;
  uint8_t *v = malloc(cap);
  bool ok = v != NULL;
  if (ok) {
    uint32_t count = deps->count;
    memcpy(v, DEPS_MAGIC, 8);
    memcpy(v + 8, &count, 4);
  }
  for (unsigned i = 0; ok && i < deps->count; i++) {
    uint32_t len = (uint32_t)strlen(deps->paths[i]);
    uint64_t fsize;
    uint8_t hash[16];
    ok = len > 0 && len < 4096 && file_digest(deps->paths[i], &fsize, hash); /* unreadable: no entry */
    if (ok) {
      memcpy(v + used, &len, 4);
      memcpy(v + used + 4, deps->paths[i], len);
      memcpy(v + used + 4 + len, &fsize, 8);
      memcpy(v + used + 12 + len, hash, 16);
      used += 4 + len + 8 + 16;
    }
  }
  if (ok) {
    memcpy(v + used, value, size);
    hg_cache_put(key, v, used + size);
  }
  free(v);
}

bool hg_program_ir_cache_get(const hg_cache_key *key, hg_ir_module **out) {
  uint8_t *bytes;
  size_t size;
  *out = NULL;
  if (!hg_program_cache_get(key, &bytes, &size))
    return false;
  char msg[128];
  *out = hg_ir_decode(bytes, size, msg, sizeof msg);
  free(bytes);
  return *out != NULL;
}

void hg_program_ir_cache_put(const hg_cache_key *key, const hg_ir_module *m, const hg_frontend_deps *deps) {
  uint8_t *ir = NULL;
  size_t ir_size;
  if (hg_ir_encode(m, &ir, &ir_size) == 0)
    hg_program_cache_put(key, ir, ir_size, deps);
  free(ir);
}
