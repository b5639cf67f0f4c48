/* The program cache (devices/cache.h): an in-memory table in front of a directory of files. */
#include "devices/cache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"

#define ENTRY_MAGIC "HGCACHE1"
#define MEMORY_ENTRIES 64

void hg_cache_key_add(hg_cache_key *key, const void *part, size_t size) {
  /* each part is length-prefixed so ("ab","c") and ("a","bc") differ */
  uint64_t len = size;
  size_t need = key->size + sizeof len + size;
  if (need > key->cap) {
    size_t cap = key->cap ? key->cap : 256;
    while (cap < need)
      cap *= 2;
    uint8_t *bytes = realloc(key->bytes, cap);
    if (!bytes)
      abort();
    key->bytes = bytes;
    key->cap = cap;
  }
  memcpy(key->bytes + key->size, &len, sizeof len);
  if (size)
    memcpy(key->bytes + key->size + sizeof len, part, size);
  key->size = need;
}

void hg_cache_key_add_str(hg_cache_key *key, const char *s) { hg_cache_key_add(key, s ? s : "", s ? strlen(s) : 0); }

void hg_cache_key_free(hg_cache_key *key) {
  free(key->bytes);
  memset(key, 0, sizeof *key);
}

static void hash128(const uint8_t *p, size_t n, uint64_t out[2]) {
  uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  for (size_t i = 0; i < n; i++) {
    a = (a ^ p[i]) * 0x100000001b3ULL;
    b = (b ^ p[i] ^ (b >> 29)) * 0x9e3779b97f4a7c15ULL;
  }
  a ^= a >> 31;
  b ^= b >> 27;
  out[0] = a * 0xbf58476d1ce4e5b9ULL;
  out[1] = b * 0x94d049bb133111ebULL;
}

/* ---- configuration ---- */
static char cache_dir[4096];
static bool cache_enabled;
static unsigned long long cache_limit;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;

static struct memory_entry {
  uint8_t *key;
  size_t key_size;
  uint8_t *value;
  size_t value_size;
  uint64_t last_use;
} memory[MEMORY_ENTRIES];
static uint64_t use_clock;

static void mkdir_p(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(tmp, 0755);
      *p = '/';
    }
  mkdir(tmp, 0755);
}

/* The identity of this build of the driver (size, modification time and inode of the library
 * file): every key includes it, so entries written by another build (whose front end or
 * lowering may differ) are never reused. */
static char build_id[96];

static void find_build_id(void) {
  Dl_info info;
  struct stat st;
  if (dladdr((void *)find_build_id, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0)
    snprintf(build_id, sizeof build_id, "%lld:%lld.%09ld:%llu", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
  else
    snprintf(build_id, sizeof build_id, "unknown");
}

/* The key as stored: the build identity, then the caller's parts. */
static void full_key(const hg_cache_key *key, hg_cache_key *out) {
  memset(out, 0, sizeof *out);
  hg_cache_key_add_str(out, build_id);
  hg_cache_key_add(out, key->bytes, key->size);
}

static void config(void) {
  const char *off = getenv("HETGPU_CACHE");
  cache_enabled = !(off && !strcmp(off, "0"));
  const char *dir = getenv("HETGPU_CACHE_DIR");
  if (dir && *dir)
    snprintf(cache_dir, sizeof cache_dir, "%s", dir);
  else if (getenv("XDG_CACHE_HOME"))
    snprintf(cache_dir, sizeof cache_dir, "%s/hetgpu", getenv("XDG_CACHE_HOME"));
  else if (getenv("HOME"))
    snprintf(cache_dir, sizeof cache_dir, "%s/.cache/hetgpu", getenv("HOME"));
  else
    cache_dir[0] = 0;
  const char *limit = getenv("HETGPU_CACHE_SIZE");
  cache_limit = limit ? strtoull(limit, NULL, 0) : 256ull << 20;
  if (cache_dir[0] && cache_enabled)
    mkdir_p(cache_dir);
  find_build_id();
  HG_LOG(HG_LOG_CACHE, "cache %s at %s, limit %llu bytes", cache_enabled ? "on" : "off", cache_dir, cache_limit);
}

static void entry_path(const hg_cache_key *key, char *path, size_t size) {
  uint64_t h[2];
  hash128(key->bytes, key->size, h);
  snprintf(path, size, "%s/%016llx%016llx.bin", cache_dir, (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* ---- memory layer ---- */
static bool memory_get(const hg_cache_key *key, uint8_t **value, size_t *size) {
  bool hit = false;
  pthread_mutex_lock(&memory_lock);
  for (int i = 0; i < MEMORY_ENTRIES; i++) {
    struct memory_entry *e = &memory[i];
    if (e->key && e->key_size == key->size && !memcmp(e->key, key->bytes, key->size)) {
      *value = malloc(e->value_size ? e->value_size : 1);
      if (*value) {
        memcpy(*value, e->value, e->value_size);
        *size = e->value_size;
        e->last_use = ++use_clock;
        hit = true;
      }
      break;
    }
  }
  pthread_mutex_unlock(&memory_lock);
  return hit;
}

static void memory_put(const hg_cache_key *key, const uint8_t *value, size_t size) {
  uint8_t *k = malloc(key->size), *v = malloc(size ? size : 1);
  if (!k || !v) {
    free(k);
    free(v);
    return;
  }
  memcpy(k, key->bytes, key->size);
  memcpy(v, value, size);
  pthread_mutex_lock(&memory_lock);
  int victim = 0;
  for (int i = 0; i < MEMORY_ENTRIES; i++) {
    if (!memory[i].key) {
      victim = i;
      break;
    }
    if (memory[i].last_use < memory[victim].last_use)
      victim = i;
  }
  struct memory_entry *e = &memory[victim];
  free(e->key);
  free(e->value);
  *e = (struct memory_entry){k, key->size, v, size, ++use_clock};
  pthread_mutex_unlock(&memory_lock);
}

/* ---- disk layer ---- */
static bool read_all(int fd, void *buf, size_t n) {
  uint8_t *p = buf;
  while (n) {
    ssize_t r = read(fd, p, n);
    if (r <= 0) {
      if (r < 0 && errno == EINTR)
        continue;
      return false;
    }
    p += r;
    n -= (size_t)r;
  }
  return true;
}

static bool write_all(int fd, const void *buf, size_t n) {
  const uint8_t *p = buf;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) {
      if (w < 0 && errno == EINTR)
        continue;
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

static bool disk_get(const hg_cache_key *key, uint8_t **value, size_t *size) {
  char path[4200];
  entry_path(key, path, sizeof path);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = false;
  char magic[8];
  uint64_t key_size, value_size;
  uint8_t *stored_key = NULL, *v = NULL;
  struct stat st;
  if (fstat(fd, &st) || !read_all(fd, magic, 8) || memcmp(magic, ENTRY_MAGIC, 8) || !read_all(fd, &key_size, 8) ||
      key_size != key->size || !read_all(fd, &value_size, 8) ||
      (uint64_t)st.st_size != 24 + key_size + value_size)
    goto done;
  stored_key = malloc(key_size ? key_size : 1);
  v = malloc(value_size ? value_size : 1);
  if (!stored_key || !v || !read_all(fd, stored_key, key_size) || memcmp(stored_key, key->bytes, key_size) ||
      !read_all(fd, v, value_size))
    goto done;
  *value = v;
  *size = value_size;
  v = NULL;
  ok = true;
  utimensat(AT_FDCWD, path, NULL, 0); /* mark recently used for eviction */
done:
  free(stored_key);
  free(v);
  close(fd);
  return ok;
}

/* Removes the least recently used entries until the directory fits the size limit. */
static void disk_evict(void) {
  DIR *d = opendir(cache_dir);
  if (!d)
    return;
  struct file {
    char name[64];
    off_t size;
    time_t mtime;
  } *files = NULL;
  size_t n = 0, cap = 0;
  unsigned long long total = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 5 || len >= 64 || strcmp(e->d_name + len - 4, ".bin"))
      continue;
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, 0))
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      struct file *nf = realloc(files, cap * sizeof *files);
      if (!nf)
        break;
      files = nf;
    }
    memcpy(files[n].name, e->d_name, len + 1); /* len < 64, checked above */
    files[n].size = st.st_size;
    files[n].mtime = st.st_mtime;
    total += (unsigned long long)st.st_size;
    n++;
  }
  while (total > cache_limit && n) {
    size_t oldest = 0;
    for (size_t i = 1; i < n; i++)
      if (files[i].mtime < files[oldest].mtime)
        oldest = i;
    unlinkat(dirfd(d), files[oldest].name, 0);
    total -= (unsigned long long)files[oldest].size;
    files[oldest] = files[--n];
  }
  free(files);
  closedir(d);
}

static void disk_put(const hg_cache_key *key, const uint8_t *value, size_t size) {
  if (24 + key->size + size > cache_limit)
    return;
  char path[4200], tmp[4300];
  entry_path(key, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.%ld.%lu.tmp", path, (long)getpid(), (unsigned long)pthread_self());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  uint64_t key_size = key->size, value_size = size;
  bool ok = write_all(fd, ENTRY_MAGIC, 8) && write_all(fd, &key_size, 8) && write_all(fd, &value_size, 8) &&
            write_all(fd, key->bytes, key->size) && write_all(fd, value, size);
  ok = close(fd) == 0 && ok;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return;
  }
  disk_evict();
}

bool hg_cache_get(const hg_cache_key *caller_key, uint8_t **value, size_t *size) {
  pthread_once(&config_once, config);
  if (!cache_enabled)
    return false;
  hg_cache_key key;
  full_key(caller_key, &key);
  bool hit = memory_get(&key, value, size);
  if (!hit && cache_dir[0] && disk_get(&key, value, size)) {
    memory_put(&key, *value, *size);
    HG_LOG(HG_LOG_CACHE, "disk hit (%zu bytes)", *size);
    hit = true;
  }
  hg_cache_key_free(&key);
  return hit;
}

void hg_cache_put(const hg_cache_key *caller_key, const uint8_t *value, size_t size) {
  pthread_once(&config_once, config);
  if (!cache_enabled)
    return;
  hg_cache_key key;
  full_key(caller_key, &key);
  memory_put(&key, value, size);
  if (cache_dir[0])
    disk_put(&key, value, size);
  hg_cache_key_free(&key);
}
