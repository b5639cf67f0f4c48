/* The program cache: bytes stored under a key, in memory and on disk, shared by processes.
 * Location HETGPU_CACHE_DIR (default $XDG_CACHE_HOME/hetgpu or ~/.cache/hetgpu), size limit
 * HETGPU_CACHE_SIZE bytes (default 256 MiB), HETGPU_CACHE=0 turns it off. Keys include the
 * identity of the driver build, so a rebuilt driver never reuses stale entries. Entries are written to
 * a temporary file and renamed into place, so readers never see a partial entry; each entry
 * holds its full key, so a hash collision is a miss, never a wrong answer, and a hash of its
 * bytes, so a corrupted entry is a miss too (and is removed). Only regular files are read
 * (a FIFO at an entry's path is a miss, not a wait); the directory is private to the user;
 * eviction removes only hetGPU's own entries. */
#ifndef HETGPU_DEVICES_CACHE_H
#define HETGPU_DEVICES_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A key is built from parts (the namespace, the IR, the backend device, the driver version...). */
typedef struct hg_cache_key {
  uint8_t *bytes;
  size_t size, cap;
} hg_cache_key;

void hg_cache_key_add(hg_cache_key *key, const void *part, size_t size);
void hg_cache_key_add_str(hg_cache_key *key, const char *s);
void hg_cache_key_free(hg_cache_key *key);

/* The cache's 128-bit hash of bytes (not cryptographic), for callers that check what an entry
 * was made from. */
void hg_cache_hash(const void *bytes, size_t size, uint8_t out[16]);
struct hg_ir_module;
/* The module's digest (hg_cache_hash of its encoding) in out: a copy of `given` when the caller
 * has it (the platform keeps each program's), else made here; false when it cannot be made
 * (devices/module_digest.c). */
bool hg_cache_module_digest(const struct hg_ir_module *module, const uint8_t *given, uint8_t out[16]);

/* On a hit returns true with a malloc'd copy of the value. */
bool hg_cache_get(const hg_cache_key *key, uint8_t **value, size_t *size);
void hg_cache_put(const hg_cache_key *key, const uint8_t *value, size_t size);

#endif
