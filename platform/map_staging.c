/* Map staging blocks, reused (platform/map_staging.h). A few blocks of at most a bounded total
 * are kept; a block serves a map of at least half its size, so memory kept is never more than
 * twice what a map needs. Small blocks are not kept: malloc reuses them already. */
#include "platform/map_staging.h"

#include <pthread.h>
#include <stdlib.h>

#define STAGING_ALIGN 128
#define KEEP_MIN (64u * 1024u)         /* smaller blocks go back to malloc */
#define KEEP_TOTAL (512ull << 20)      /* bytes kept at most */
#define KEEP_BLOCKS 8

static struct {
  pthread_mutex_t lock;
  void *ptr[KEEP_BLOCKS];
  size_t size[KEEP_BLOCKS];
  size_t total;
} kept = {.lock = PTHREAD_MUTEX_INITIALIZER};

void *hg_map_staging_alloc(size_t size) {
  if (size >= KEEP_MIN) {
    pthread_mutex_lock(&kept.lock);
    int best = -1;
    for (int i = 0; i < KEEP_BLOCKS; i++)
      if (kept.ptr[i] && kept.size[i] >= size && kept.size[i] / 2 <= size &&
          (best < 0 || kept.size[i] < kept.size[best]))
        best = i;
    void *p = NULL;
    if (best >= 0) {
      p = kept.ptr[best];
      kept.total -= kept.size[best];
      kept.ptr[best] = NULL;
    }
    pthread_mutex_unlock(&kept.lock);
    if (p)
      return p;
  }
  void *p = NULL;
  return posix_memalign(&p, STAGING_ALIGN, size) ? NULL : p;
}

/* A reused block may be larger than the size its map asked for; it is kept as that size, which
 * it holds at least. */
void hg_map_staging_free(void *ptr, size_t size) {
  if (!ptr)
    return;
  if (size >= KEEP_MIN && size <= KEEP_TOTAL) {
    pthread_mutex_lock(&kept.lock);
    int slot = -1;
    for (int i = 0; i < KEEP_BLOCKS && slot < 0; i++)
      if (!kept.ptr[i])
        slot = i;
    /* room: evict the smallest kept blocks while over the total */
    while (slot >= 0 && kept.total + size > KEEP_TOTAL) {
      int smallest = -1;
      for (int i = 0; i < KEEP_BLOCKS; i++)
        if (kept.ptr[i] && (smallest < 0 || kept.size[i] < kept.size[smallest]))
          smallest = i;
      if (smallest < 0)
        break;
      free(kept.ptr[smallest]);
      kept.total -= kept.size[smallest];
      kept.ptr[smallest] = NULL;
    }
    if (slot >= 0 && kept.total + size <= KEEP_TOTAL) {
      kept.ptr[slot] = ptr;
      kept.size[slot] = size;
      kept.total += size;
      ptr = NULL;
    }
    pthread_mutex_unlock(&kept.lock);
  }
  free(ptr);
}
