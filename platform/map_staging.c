/* Map staging blocks, reused (platform/map_staging.h). Large blocks are anonymous mappings of
 * their own; after their unmap up to KEEP_BLOCKS of them, a sixteenth of the host's memory at
 * most, are kept resident for a map of the same size (an application maps the same regions
 * again and again). MADV_FREE on kept blocks was tried: the next map into them ran at 4.0 GB/s
 * instead of 6.9 here, and the advice itself took 0.3-1.7 ms per 64 MiB. Small blocks come
 * from and go back to malloc, which reuses them already. */
#include "platform/map_staging.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define STAGING_ALIGN 128              /* every OpenCL C type (long16, double16) */
#define KEEP_MIN (64u * 1024u)         /* smaller blocks: malloc */
#define KEEP_BLOCKS 8

static struct {
  pthread_mutex_t lock;
  void *ptr[KEEP_BLOCKS];
  size_t size[KEEP_BLOCKS];
  size_t total;
} kept = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Bytes kept at most: a sixteenth of the host's memory, at least 512 MiB. */
static size_t keep_total(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  size_t sixteenth = pages > 0 && page > 0 ? (size_t)pages / 16 * (size_t)page : 0;
  return sixteenth > (512u << 20) ? sixteenth : (512u << 20);
}

void *hg_map_staging_alloc(size_t size) {
  if (size < KEEP_MIN) {
    void *p = NULL;
    return posix_memalign(&p, STAGING_ALIGN, size) ? NULL : p;
  }
  void *p = NULL;
  pthread_mutex_lock(&kept.lock);
  for (int i = 0; i < KEEP_BLOCKS && !p; i++)
    if (kept.ptr[i] && kept.size[i] == size) {
      p = kept.ptr[i];
      kept.ptr[i] = NULL;
      kept.total -= size;
    }
  pthread_mutex_unlock(&kept.lock);
  if (p)
    return p;
  p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void hg_map_staging_free(void *ptr, size_t size) {
  if (!ptr)
    return;
  if (size < KEEP_MIN) {
    free(ptr);
    return;
  }
  static size_t limit; /* under the lock */
  pthread_mutex_lock(&kept.lock);
  if (!limit)
    limit = keep_total();
  int slot = -1;
  for (int i = 0; i < KEEP_BLOCKS && slot < 0; i++)
    if (!kept.ptr[i])
      slot = i;
  if (slot >= 0 && kept.total + size <= limit) {
    kept.ptr[slot] = ptr;
    kept.size[slot] = size;
    kept.total += size;
    ptr = NULL;
  }
  pthread_mutex_unlock(&kept.lock);
  if (ptr)
    munmap(ptr, size);
}
