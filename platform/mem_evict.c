/* Memory pressure: a migration leaves the copies on the backend it left allocated (valid until
 * the buffer is written, stale after), so that moving back costs at most one copy into memory
 * that is already there. When an allocation on a backend fails, the copies there that are not
 * needed are given back and the allocation is tried again.
 * Locks are only tried: the caller may hold its own storage's lock or its context's object
 * list, and another thread may be evicting in the opposite order. */
#include "common/log.h"
#include "platform/context_objects.h"
#include "platform/mem_object.h"

static size_t evict_in_context(cl_context ctx, hg_backend *be) {
  size_t freed = 0;
  if (!hg_context_objects_trylock(ctx))
    return 0;
  for (size_t i = 0; i < ctx->num_objects; i++) {
    hg_mem_storage *st = hg_ctx_object_storage(&ctx->objects[i]);
    if (!st || pthread_mutex_trylock(&st->lock))
      continue;
    if (st->pin.with) { /* a migration is moving it through a registered copy */
      pthread_mutex_unlock(&st->lock);
      continue;
    }
    hg_mem_copy *c = &st->dev[be->index];
    bool other_valid = st->host_valid;
    for (unsigned b = 0; b < HG_MEM_MAX_BACKENDS; b++) /* a copy on a lost device is no duplicate */
      other_valid |= b != be->index && st->dev[b].valid && !atomic_load(&hg_backend_at(b)->lost);
    if (c->mem && !c->host_maps && (!c->valid || other_valid)) {
      hg_mem_backend_free(be, c->mem, st->size);
      c->mem = NULL;
      c->valid = false;
      freed += st->size;
    }
    pthread_mutex_unlock(&st->lock);
  }
  pthread_mutex_unlock(&ctx->objects_lock);
  return freed;
}

size_t hg_mem_evict_stale(hg_backend *be) {
  uint64_t ids[256];
  size_t n = hg_context_ids(ids, 256), freed = 0;
  for (size_t i = 0; i < n && i < 256; i++) {
    cl_context ctx = hg_context_find(ids[i]);
    if (ctx) {
      freed += evict_in_context(ctx, be);
      hg_context_release(ctx);
    }
  }
  HG_LOG(HG_LOG_MEM, "memory pressure on %s: %zu bytes of stale copies given back", be->name, freed);
  return freed;
}
