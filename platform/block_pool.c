/* Fixed-size block pools (platform/block_pool.h). */
#include "platform/block_pool.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define HG_POOL_KEEPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HG_POOL_KEEPS 0
#endif
#endif
#ifndef HG_POOL_KEEPS
#define HG_POOL_KEEPS 1
#endif

void *hg_block_pool_get(hg_block_pool *pool, size_t zeroed) {
  void *block = NULL;
  if (HG_POOL_KEEPS) {
    pthread_mutex_lock(&pool->lock);
    block = pool->head;
    if (block) {
      pool->head = *(void **)block;
      pool->count--;
    }
    pthread_mutex_unlock(&pool->lock);
  }
  if (!block)
    return calloc(1, pool->size);
  memset(block, 0, zeroed < pool->size ? zeroed : pool->size);
  return block;
}

void hg_block_pool_put(hg_block_pool *pool, void *block) {
  if (!block)
    return;
  if (HG_POOL_KEEPS) {
    pthread_mutex_lock(&pool->lock);
    if (pool->count < pool->cap) {
      *(void **)block = pool->head;
      pool->head = block;
      pool->count++;
      block = NULL;
    }
    pthread_mutex_unlock(&pool->lock);
  }
  free(block);
}
