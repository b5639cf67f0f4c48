/* Pools of fixed-size blocks for the objects every command makes and drops (the command and its
 * internal event): a burst of launches frees hundreds of them at once at the wait, past what
 * malloc's per-thread caches hold, and allocating them anew cost about 1,000 instructions a
 * launch (docs/performance.md). A pool keeps up to `cap` freed blocks. Its blocks come from
 * malloc, so one may also be given back with free(). Under AddressSanitizer a pool keeps
 * nothing, so that a use after free is still caught. */
#ifndef HETGPU_PLATFORM_BLOCK_POOL_H
#define HETGPU_PLATFORM_BLOCK_POOL_H

#include <pthread.h>
#include <stddef.h>

typedef struct hg_block_pool {
  pthread_mutex_t lock;
  size_t size;
  unsigned count, cap;
  void *head; /* freed blocks, linked through their first word */
} hg_block_pool;

#define HG_BLOCK_POOL_INIT(block_size, max_kept) {PTHREAD_MUTEX_INITIALIZER, (block_size), 0, (max_kept), NULL}

/* A block of the pool's size whose first `zeroed` bytes are zero (a new block is zero throughout);
 * NULL when out of memory. What a block's user fills itself need not be cleared: every byte
 * written is a cache line taken from the vendor's own work on that thread (docs/performance.md). */
void *hg_block_pool_get(hg_block_pool *pool, size_t zeroed);
/* Gives a block back (NULL is ignored). */
void hg_block_pool_put(hg_block_pool *pool, void *block);

#endif
