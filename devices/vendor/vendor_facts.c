/* The vendors' facts: what every vendor device answered when a process last loaded the vendor
 * libraries (names, type, raw limits), kept in the program cache so that a later process lists
 * those devices as backends without loading their libraries. A vendor is then loaded by the
 * first use of one of its devices (vendor_open in vendor_backend.c), which checks that the
 * device still answers the same (docs/virtual-device.md, "Vendors loaded on first use").
 *
 * The entry's key holds what decides which devices a vendor shows: the libraries listed (their
 * names, in order), LD_LIBRARY_PATH, the environment variables vendors choose devices by, the
 * machine's processors and memory (and, through the cache, this driver's build). Its value holds
 * the file each library was loaded from with that file's identity (and /etc/ld.so.cache's, for a
 * library named without a path), checked before the facts are used: an updated vendor is loaded
 * and probed again. Everything read is checked for form before use (test vendor_facts_test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devices/cache.h"
#include "devices/vendor/vendor_facts.h"
#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

#define LD_CACHE "/etc/ld.so.cache"

/* Variables through which the vendors we know choose or hide devices. */
static const char *const vendor_env_prefixes[] = {"POCL_", "CUDA_", "NVIDIA_", "GPU_", "HSA_", "ROC", "OCL_", "OPENCL_", "ZE_", "SYCL_"};

static int compare_strings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void key_add_vendor_env(hg_cache_key *key) {
  extern char **environ;
  size_t n = 0;
  for (char **e = environ; e && *e; e++)
    n++;
  const char **chosen = calloc(n ? n : 1, sizeof *chosen);
  if (!chosen)
    return;
  size_t k = 0;
  for (char **e = environ; e && *e; e++)
    for (size_t p = 0; p < sizeof vendor_env_prefixes / sizeof vendor_env_prefixes[0]; p++)
      if (!strncmp(*e, vendor_env_prefixes[p], strlen(vendor_env_prefixes[p]))) {
        chosen[k++] = *e;
        break;
      }
  qsort(chosen, k, sizeof *chosen, compare_strings); /* the same variables in another order: the same key */
  for (size_t i = 0; i < k; i++)
    hg_cache_key_add_str(key, chosen[i]);
  free(chosen);
}

static void facts_key(hg_cache_key *key) {
  memset(key, 0, sizeof *key);
  hg_cache_key_add_str(key, "vendor-facts/1");
  unsigned n = hg_vendor_libraries();
  hg_cache_key_add(key, &n, sizeof n);
  for (unsigned i = 0; i < n; i++)
    hg_cache_key_add_str(key, hg_vendor_library_name(i));
  hg_cache_key_add_str(key, getenv("LD_LIBRARY_PATH"));
  key_add_vendor_env(key);
  /* not the physical memory: a virtual machine may grow it while it runs, and opening checks
   * that a device has at least the memory its facts promise */
  long processors = sysconf(_SC_NPROCESSORS_ONLN);
  hg_cache_key_add(key, &processors, sizeof processors);
}

/* ---- the cache entry --------------------------------------------------------------------- */

bool hg_vendor_file_identity_of(const char *path, hg_vendor_file_identity *id) {
  struct stat st;
  memset(id, 0, sizeof *id);
  if (stat(path, &st) != 0)
    return false;
  id->size = (uint64_t)st.st_size;
  id->mtime_sec = (uint64_t)st.st_mtim.tv_sec;
  id->mtime_nsec = (uint64_t)st.st_mtim.tv_nsec;
  id->inode = (uint64_t)st.st_ino;
  return true;
}

static bool same_file(const char *path, const hg_vendor_file_identity *want) {
  hg_vendor_file_identity now;
  return hg_vendor_file_identity_of(path, &now) && !memcmp(&now, want, sizeof now);
}

hg_vendor_facts *hg_vendor_facts_load(void) {
  hg_cache_key key;
  facts_key(&key);
  uint8_t *bytes = NULL;
  size_t size = 0;
  hg_vendor_facts *f = malloc(sizeof *f);
  if (!f) {
    hg_cache_key_free(&key);
    return NULL;
  }
  bool ok = hg_cache_get(&key, &bytes, &size) && hg_vendor_facts_decode(bytes, size, f);
  hg_cache_key_free(&key);
  free(bytes);
  const char *why = ok ? NULL : "none cached";
  if (ok && f->num_libs != hg_vendor_libraries())
    why = "another list of libraries";
  bool bare_names = false;
  for (unsigned i = 0; i < f->num_libs && !why; i++) {
    bare_names |= !strchr(hg_vendor_library_name(i), '/');
    if (!same_file(f->libs[i].file, &f->libs[i].identity))
      why = "a library changed";
  }
  if (!why && bare_names && !same_file(LD_CACHE, &f->ld_cache)) /* the linker may find another file now */
    why = "the dynamic linker's cache changed";
  if (why) {
    HG_LOG(HG_LOG_BACKEND, "vendor facts: %s; loading every vendor", why);
    free(f);
    return NULL;
  }
  HG_LOG(HG_LOG_BACKEND, "vendor facts: %u devices of %u libraries, none loaded yet", f->num_devices, f->num_libs);
  return f;
}

static void put_entry(const uint8_t *bytes, size_t size) {
  hg_cache_key key;
  facts_key(&key);
  hg_cache_put(&key, bytes, size);
  hg_cache_key_free(&key);
}

void hg_vendor_facts_store(hg_vendor_facts *f) {
  f->num_libs = hg_vendor_libraries();
  for (unsigned i = 0; i < f->num_libs; i++)
    if (!hg_vendor_library_file(i, f->libs[i].file, sizeof f->libs[i].file) ||
        !hg_vendor_file_identity_of(f->libs[i].file, &f->libs[i].identity)) {
      HG_LOG(HG_LOG_BACKEND, "vendor facts: %s was not loaded; not cached", hg_vendor_library_name(i));
      return;
    }
  hg_vendor_file_identity_of(LD_CACHE, &f->ld_cache);
  uint8_t *bytes;
  size_t size;
  if (f->num_libs && hg_vendor_facts_encode(f, &bytes, &size)) {
    put_entry(bytes, size);
    free(bytes);
  }
}

void hg_vendor_facts_forget(void) {
  static const uint8_t stale = 0; /* fails to decode: the next process loads every vendor */
  put_entry(&stale, 1);
}
