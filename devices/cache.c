/* The program cache (devices/cache.h): an in-memory table in front of a directory of files. */
#include "devices/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/driver_file.h"
#include "common/llvm_part_file.h"
#include "common/log.h"

/* An entry file: magic, key size, value size (8 bytes each), the key, the value, then a
 * 16-byte hash of all that: an entry that does not check out is ignored and removed, so the
 * next build rewrites it (a corrupted vendor binary must never reach a vendor). */
#define ENTRY_MAGIC "HGCACHE2"
#define ENTRY_HASH 16
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

/* A 128-bit hash of bytes given in pieces: state {a, b} from hash_start, then hash_add for each
 * piece, then hash_end. Not cryptographic: names entries and catches corrupted ones. */
static void hash_start(uint64_t st[2]) {
  st[0] = 0xcbf29ce484222325ULL;
  st[1] = 0x84222325cbf29ce4ULL;
}

/* Eight bytes a step (a byte a step took about 1 ns a byte: hashcat's 67 MB module, hashed for
 * cache keys at each start, cost a tenth of a second per hash), the tail a byte a step. */
static void hash_add(uint64_t st[2], const uint8_t *p, size_t n) {
  uint64_t a = st[0], b = st[1];
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, sizeof w);
    a = (a ^ w) * 0x100000001b3ULL;
    a ^= a >> 32;
    b = (b ^ w ^ (b >> 29)) * 0x9e3779b97f4a7c15ULL;
  }
  for (; i < n; i++) {
    a = (a ^ p[i]) * 0x100000001b3ULL;
    b = (b ^ p[i] ^ (b >> 29)) * 0x9e3779b97f4a7c15ULL;
  }
  st[0] = a;
  st[1] = b;
}

static void hash_end(const uint64_t st[2], uint64_t out[2]) {
  uint64_t a = st[0] ^ st[0] >> 31, b = st[1] ^ st[1] >> 27;
  out[0] = a * 0xbf58476d1ce4e5b9ULL;
  out[1] = b * 0x94d049bb133111ebULL;
}

static void hash128(const uint8_t *p, size_t n, uint64_t out[2]) {
  uint64_t st[2];
  hash_start(st);
  hash_add(st, p, n);
  hash_end(st, out);
}

void hg_cache_hash(const void *bytes, size_t size, uint8_t out[16]) {
  uint64_t h[2];
  hash128(bytes, size, h);
  memcpy(out, h, 16);
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

/* The parents as the user's umask allows; the cache itself private to the user (it holds the
 * kernels' source and binaries), also when an older hetGPU made it readable to others. */
static void mkdir_p(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(tmp, 0755);
      *p = '/';
    }
  mkdir(tmp, 0700);
  struct stat st;
  if (stat(tmp, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 077))
    chmod(tmp, st.st_mode & ~(mode_t)077);
}

/* The identity of this build of the driver (size, modification time and inode of the library
 * file and of its LLVM part beside it, common/llvm_part_file.h): every key includes it, so
 * entries written by another build (whose front end or lowering may differ) are never reused. */
static char build_id[192];

static int file_identity(const char *path, char *out, size_t size) {
  struct stat st;
  if (stat(path, &st) != 0)
    return snprintf(out, size, "absent");
  return snprintf(out, size, "%lld:%lld.%09ld:%llu", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                  st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
}

static void find_build_id(void) {
  const char *image = hg_driver_image();
  char part[4096];
  if (!image || !hg_driver_file(HG_LLVM_PART_FILE, part, sizeof part)) {
    snprintf(build_id, sizeof build_id, "unknown");
    return;
  }
  int n = file_identity(image, build_id, sizeof build_id / 2);
  build_id[n++] = '+';
  file_identity(part, build_id + n, sizeof build_id - (size_t)n);
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
  int victim = -1; /* the entry of the same key, else a free one, else the least recently used */
  for (int i = 0; i < MEMORY_ENTRIES && victim < 0; i++)
    if (memory[i].key && memory[i].key_size == key->size && !memcmp(memory[i].key, key->bytes, key->size))
      victim = i;
  for (int i = 0; i < MEMORY_ENTRIES && victim < 0; i++)
    if (!memory[i].key)
      victim = i;
  if (victim < 0) {
    victim = 0;
    for (int i = 1; i < MEMORY_ENTRIES; i++)
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

/* The hash that closes an entry, over everything before it. */
static void entry_hash(const uint8_t header[24], const hg_cache_key *key, const uint8_t *value, size_t size,
                       uint8_t out[ENTRY_HASH]) {
  uint64_t st[2], h[2];
  hash_start(st);
  hash_add(st, header, 24);
  hash_add(st, key->bytes, key->size);
  hash_add(st, value, size);
  hash_end(st, h);
  memcpy(out, h, ENTRY_HASH);
}

static bool disk_get(const hg_cache_key *key, uint8_t **value, size_t *size) {
  char path[4200];
  entry_path(key, path, sizeof path);
  /* not blocking on a FIFO or a device someone put there, not following a link */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return false;
  bool ok = false, bad = false;
  uint8_t header[24], stored_hash[ENTRY_HASH], want_hash[ENTRY_HASH];
  uint64_t key_size, value_size;
  uint8_t *stored_key = NULL, *v = NULL;
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode))
    goto done;
  bad = true; /* from here on anything unexpected is a broken entry */
  if (!read_all(fd, header, 24) || memcmp(header, ENTRY_MAGIC, 8))
    goto done;
  memcpy(&key_size, header + 8, 8);
  memcpy(&value_size, header + 16, 8);
  if (key_size != key->size || value_size > (uint64_t)st.st_size ||
      (uint64_t)st.st_size != 24 + key_size + value_size + ENTRY_HASH)
    goto done;
  stored_key = malloc(key_size ? key_size : 1);
  v = malloc(value_size ? value_size : 1);
  if (!stored_key || !v) {
    bad = false;
    goto done;
  }
  if (!read_all(fd, stored_key, key_size) || memcmp(stored_key, key->bytes, key_size) ||
      !read_all(fd, v, value_size) || !read_all(fd, stored_hash, ENTRY_HASH))
    goto done;
  entry_hash(header, key, v, value_size, want_hash);
  if (memcmp(stored_hash, want_hash, ENTRY_HASH))
    goto done;
  *value = v;
  *size = value_size;
  v = NULL;
  ok = true;
  bad = false;
  utimensat(AT_FDCWD, path, NULL, 0); /* mark recently used for eviction */
done:
  free(stored_key);
  free(v);
  close(fd);
  if (bad) {
    HG_LOG(HG_LOG_CACHE, "%s: a broken entry, removed", path);
    unlink(path);
  }
  return ok;
}

/* hetGPU's own entry names: 32 lowercase hex digits and ".bin" (entry_path); eviction touches
 * nothing else in the directory. */
static bool own_entry_name(const char *name) {
  size_t len = strlen(name);
  if (len != 36 || strcmp(name + 32, ".bin"))
    return false;
  for (size_t i = 0; i < 32; i++)
    if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
      return false;
  return true;
}

/* Removes the least recently used entries until the directory fits the size limit. */
static void disk_evict(void) {
  DIR *d = opendir(cache_dir);
  if (!d)
    return;
  struct file {
    char name[64];
    off_t size;
    struct timespec mtime; /* to the nanosecond: entries written within a second still have an order */
  } *files = NULL;
  size_t n = 0, cap = 0;
  unsigned long long total = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (!own_entry_name(e->d_name))
      continue;
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
      continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      struct file *nf = realloc(files, cap * sizeof *files);
      if (!nf)
        break;
      files = nf;
    }
    memcpy(files[n].name, e->d_name, len + 1); /* 36 characters, checked above */
    files[n].size = st.st_size;
    files[n].mtime = st.st_mtim;
    total += (unsigned long long)st.st_size;
    n++;
  }
  while (total > cache_limit && n) {
    size_t oldest = 0;
    for (size_t i = 1; i < n; i++)
      if (files[i].mtime.tv_sec < files[oldest].mtime.tv_sec ||
          (files[i].mtime.tv_sec == files[oldest].mtime.tv_sec && files[i].mtime.tv_nsec < files[oldest].mtime.tv_nsec))
        oldest = i;
    unlinkat(dirfd(d), files[oldest].name, 0);
    total -= (unsigned long long)files[oldest].size;
    files[oldest] = files[--n];
  }
  free(files);
  closedir(d);
}

static void disk_put(const hg_cache_key *key, const uint8_t *value, size_t size) {
  if (24 + key->size + size + ENTRY_HASH > cache_limit)
    return;
  char path[4200], tmp[4300];
  entry_path(key, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.%ld.%lu.tmp", path, (long)getpid(), (unsigned long)pthread_self());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return;
  uint8_t header[24], hash[ENTRY_HASH];
  uint64_t key_size = key->size, value_size = size;
  memcpy(header, ENTRY_MAGIC, 8);
  memcpy(header + 8, &key_size, 8);
  memcpy(header + 16, &value_size, 8);
  entry_hash(header, key, value, size, hash);
  bool ok = write_all(fd, header, 24) && write_all(fd, key->bytes, key->size) && write_all(fd, value, size) &&
            write_all(fd, hash, ENTRY_HASH);
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
