/* Where a buffer's bytes live: one allocation per backend that has needed the buffer, each
 * marked valid or stale, and a host copy for migrations to the host and for moving contents
 * between backends. Data always lives in backend memory; the host copy is only ever an extra
 * copy or a staging area.
 *
 * Commands call hg_mem_storage_acquire when they are handed to the backend, which on an in-order
 * queue may be before the previous command finished: the marks below describe the contents
 * once the backend's stream has run everything submitted so far. That is safe because every
 * transfer here is a synchronous backend operation, which a backend with asynchronous forms
 * starts only after the work submitted before it (devices/backend.h). */
#include <stdatomic.h>
#include <stdlib.h>

#include "common/log.h"
#include "devices/profile.h"
#include "platform/mem.h"
#include "platform/mem_object.h"
#include "platform/migrate_internal.h"
#include "platform/placement.h"
#include "platform/platform.h"

/* A failed allocation is reported with the allocation codes the API names. */
static cl_int allocation_error(cl_int err) {
  if (err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES)
    return err;
  return CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

static atomic_ullong allocated[HG_MEM_MAX_BACKENDS]; /* bytes per backend */

cl_int hg_mem_backend_alloc(hg_backend *be, size_t size, void *at_host, const hg_image_layout *image,
                            hg_dev_mem **out) {
  /* A backend smaller than the one the process started on (whose figures the device shows)
   * refuses what it cannot hold here, before its own failure modes are reached. */
  unsigned long long limit = hg_profile_backend_mem_budget(be);
  cl_int err = hg_backend_open(be); /* the first allocation there may be its first use */
  if (err != CL_SUCCESS)
    return err;
  if (size > be->limits.max_mem_alloc_size) {
    HG_LOG(HG_LOG_MEM, "%zu bytes in one allocation pass the %llu %s allows", size,
           (unsigned long long)be->limits.max_mem_alloc_size, be->name);
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  unsigned long long before = atomic_fetch_add(&allocated[be->index], size);
  if (before + size > limit) {
    atomic_fetch_sub(&allocated[be->index], size);
    HG_LOG(HG_LOG_MEM, "%zu more bytes on %s would pass its %llu bytes of buffers (%llu allocated)", size, be->name,
           limit, before);
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  if (image)
    err = be->ops->image_alloc ? be->ops->image_alloc(be, image, out) : CL_INVALID_OPERATION;
  else if ((err = at_host && be->ops->mem_alloc_at ? be->ops->mem_alloc_at(be, at_host, size, out)
                                                   : CL_INVALID_OPERATION) == CL_INVALID_OPERATION)
    err = be->ops->mem_alloc(be, size, out);
  if (err != CL_SUCCESS)
    atomic_fetch_sub(&allocated[be->index], size);
  return err;
}

void hg_mem_backend_free(hg_backend *be, hg_dev_mem *mem, size_t size) {
  be->ops->mem_free(be, mem);
  atomic_fetch_sub(&allocated[be->index], size);
}

static cl_int ensure_allocated(hg_mem_storage *st, hg_backend *be) {
  hg_mem_copy *c = &st->dev[be->index];
  if (c->mem)
    return CL_SUCCESS;
  cl_int err = hg_mem_backend_alloc(be, st->size, st->at_host, st->image, &c->mem);
  if (err != CL_SUCCESS && err != CL_OUT_OF_HOST_MEMORY && hg_mem_evict_stale(be))
    err = hg_mem_backend_alloc(be, st->size, st->at_host, st->image, &c->mem);
  if (err != CL_SUCCESS) {
    c->mem = NULL;
    HG_LOG(HG_LOG_MEM, "allocating %zu bytes on %s failed: %d", st->size, be->name, err);
    return allocation_error(err);
  }
  HG_LOG(HG_LOG_MEM, "allocated %zu bytes on %s", st->size, be->name);
  return CL_SUCCESS;
}

static cl_int ensure_host(hg_mem_storage *st) {
  if (!st->host)
    st->host = malloc(st->size);
  return st->host ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Makes the host copy hold the current contents (reads them from a valid backend copy). */
static cl_int pull_to_host(hg_mem_storage *st) {
  if (st->host_valid)
    return CL_SUCCESS;
  cl_int err = ensure_host(st);
  if (err != CL_SUCCESS)
    return err;
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++) {
    hg_backend *src = hg_backend_at(i);
    if (!st->dev[i].valid || atomic_load(&src->lost))
      continue;
    err = src->ops->mem_read(src, st->dev[i].mem, 0, st->size, st->host);
    if (err != CL_SUCCESS)
      return err;
    HG_LOG(HG_LOG_MEM, "staged %zu bytes from %s to the host", st->size, src->name);
    st->host_valid = true;
    return CL_SUCCESS;
  }
  /* the only valid copies are on lost devices: the contents are gone */
  return CL_OUT_OF_RESOURCES;
}

/* Brings the current contents into the (allocated) copy on `be`. */
static cl_int fill_copy(hg_mem_storage *st, hg_backend *be) {
  cl_int err = pull_to_host(st);
  if (err != CL_SUCCESS)
    return err;
  err = be->ops->mem_write(be, st->dev[be->index].mem, 0, st->size, st->host);
  if (err == CL_SUCCESS)
    HG_LOG(HG_LOG_MEM, "moved %zu bytes to %s", st->size, be->name);
  return err;
}

/* Whether the allocation on `be` is the application's own region (its contents are already
 * there). */
static bool allocated_at_host(const hg_mem_storage *st, hg_backend *be) {
  hg_dev_mem *mem = st->dev[be->index].mem;
  return st->at_host && mem && be->ops->mem_host_address && be->ops->mem_host_address(be, mem) == st->at_host;
}

static cl_int storage_create(size_t size, hg_backend *be, const void *init, void *at_host,
                             const hg_image_layout *image, hg_mem_storage **out) {
  if (!be || be->index >= HG_MEM_MAX_BACKENDS)
    return CL_INVALID_OPERATION;
  hg_mem_storage *st = calloc(1, sizeof *st);
  if (!st)
    return CL_OUT_OF_HOST_MEMORY;
  st->size = size;
  st->at_host = at_host;
  st->image = image;
  cl_int err = ensure_allocated(st, be);
  if (err != CL_SUCCESS)
    goto fail;
  if (init && !allocated_at_host(st, be)) {
    err = be->ops->mem_write(be, st->dev[be->index].mem, 0, size, init);
    if (err != CL_SUCCESS)
      goto fail;
  }
  st->dev[be->index].valid = true;
  if (pthread_mutex_init(&st->lock, NULL)) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  *out = st;
  return CL_SUCCESS;

fail:
  if (st->dev[be->index].mem)
    hg_mem_backend_free(be, st->dev[be->index].mem, st->size);
  free(st);
  return err;
}

cl_int hg_mem_storage_create(size_t size, hg_backend *be, const void *init, void *at_host, hg_mem_storage **out) {
  return storage_create(size, be, init, at_host, NULL, out);
}

cl_int hg_mem_storage_create_image(const hg_image_layout *layout, hg_backend *be, const void *init,
                                   hg_mem_storage **out) {
  return storage_create(layout->size, be, init, NULL, layout, out);
}

void hg_mem_storage_destroy(hg_mem_storage *st) {
  if (!st)
    return;
  hg_migrate_unpin(&st->pin); /* a buffer released while a migration prepared it */
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++) {
    if (st->dev[i].mem) {
      hg_backend *be = hg_backend_at(i);
      hg_mem_backend_free(be, st->dev[i].mem, st->size);
    }
  }
  free(st->host);
  pthread_mutex_destroy(&st->lock);
  free(st);
}

cl_int hg_mem_storage_acquire(hg_mem_storage *st, hg_backend *be, hg_mem_access access, hg_dev_mem **out) {
  if (!be || be->index >= HG_MEM_MAX_BACKENDS)
    return CL_INVALID_OPERATION;
  pthread_mutex_lock(&st->lock);
  hg_mem_copy *c = &st->dev[be->index];
  cl_int err = ensure_allocated(st, be);
  if (err == CL_SUCCESS && !c->valid && access != HG_MEM_DISCARD)
    err = fill_copy(st, be);
  if (err == CL_SUCCESS) {
    c->valid = true;
    if (access != HG_MEM_READ) {
      for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++)
        if (i != be->index)
          st->dev[i].valid = false;
      st->host_valid = false;
    }
    *out = c->mem;
  }
  pthread_mutex_unlock(&st->lock);
  return err;
}

cl_int hg_mem_storage_to_host(hg_mem_storage *st, bool content_undefined) {
  pthread_mutex_lock(&st->lock);
  cl_int err;
  if (content_undefined) {
    /* the host copy becomes the only one, with whatever it holds */
    err = ensure_host(st);
    if (err == CL_SUCCESS) {
      for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++)
        st->dev[i].valid = false;
      st->host_valid = true;
    }
  } else {
    err = pull_to_host(st);
  }
  pthread_mutex_unlock(&st->lock);
  return err;
}

hg_dev_mem *hg_mem_device(cl_mem mem, hg_backend *be, bool will_write, size_t *offset) {
  hg_dev_mem *dm = NULL;
  if (hg_mem_storage_acquire(mem->storage, be, will_write ? HG_MEM_WRITE : HG_MEM_READ, &dm) != CL_SUCCESS)
    return NULL;
  if (offset)
    *offset = mem->origin;
  return dm;
}

/* ---- migration (platform/migrate.c): stage on the target, then commit or abort ---- */

/* The index of a valid copy on a device that is not lost, or HG_MEM_MAX_BACKENDS. */
static unsigned live_copy(const hg_mem_storage *st) {
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++)
    if (st->dev[i].valid && !atomic_load(&hg_backend_at(i)->lost))
      return i;
  return HG_MEM_MAX_BACKENDS;
}

/* The target's allocation for a migration (the fault point "alloc" fails it). */
static cl_int allocate_for_move(hg_mem_storage *st, hg_backend *target) {
  if (st->dev[target->index].mem)
    return CL_SUCCESS;
  return hg_fault_injected("alloc") ? CL_MEM_OBJECT_ALLOCATION_FAILURE : ensure_allocated(st, target);
}

cl_int hg_mem_storage_prepare(hg_mem_storage *st, hg_backend *target, size_t *unpinned) {
  pthread_mutex_lock(&st->lock);
  hg_mem_copy *t = &st->dev[target->index];
  bool fresh = !t->mem; /* a copy kept from an earlier visit (current or not) is resident already */
  cl_int err = allocate_for_move(st, target);
  if (err == CL_SUCCESS && fresh && target->ops->mem_host_map) {
    /* its bytes are not current: the mapping may drop them */
    void *p = target->ops->mem_host_map(target, t->mem, true);
    if (p) {
      hg_migrate_prefault(p, st->size);
      target->ops->mem_host_unmap(target, t->mem, p);
    }
  }
  unsigned from = live_copy(st);
  if (err == CL_SUCCESS && !st->image && !t->valid && !st->host_valid && from < HG_MEM_MAX_BACKENDS)
    hg_migrate_pin(&st->pin, hg_backend_at(from), st->dev[from].mem, target, t->mem, st->size);
  *unpinned = t->valid || st->pin.with ? 0 : st->size;
  pthread_mutex_unlock(&st->lock);
  return err;
}

void hg_mem_storage_unpin(hg_mem_storage *st, hg_backend *target) {
  (void)target;
  pthread_mutex_lock(&st->lock);
  hg_migrate_unpin(&st->pin);
  pthread_mutex_unlock(&st->lock);
}

/* An image's copy on `be` zeroed (images are never filled: written from zeroed host memory). */
static cl_int zero_image(hg_mem_storage *st, hg_backend *be) {
  void *zeros = calloc(1, st->size);
  if (!zeros)
    return CL_OUT_OF_HOST_MEMORY;
  cl_int err = be->ops->mem_write(be, st->dev[be->index].mem, 0, st->size, zeros);
  free(zeros);
  return err;
}

cl_int hg_mem_storage_stage(hg_mem_storage *st, hg_backend *target, size_t *moved, bool *lost) {
  *moved = 0;
  *lost = false;
  pthread_mutex_lock(&st->lock);
  hg_mem_copy *t = &st->dev[target->index];
  cl_int err = CL_SUCCESS;
  if (t->valid)
    goto out; /* already current there (read-only since the last visit) */
  if ((err = allocate_for_move(st, target)) != CL_SUCCESS)
    goto out;
  unsigned from;
  if (st->image && live_copy(st) < HG_MEM_MAX_BACKENDS && (err = pull_to_host(st)) != CL_SUCCESS)
    goto out; /* an image moves whole: its backends take nothing else (devices/backend.h) */
  if (st->host_valid) {
    err = target->ops->mem_write(target, t->mem, 0, st->size, st->host);
    goto copied;
  }
  while ((from = live_copy(st)) < HG_MEM_MAX_BACKENDS) {
    hg_backend *src = hg_backend_at(from);
    err = hg_migrate_copy(src, st->dev[from].mem, target, t->mem, st->size, &st->pin);
    if (err != HG_ERR_DEVICE_LOST)
      goto copied;
    /* the source's device died under the copy (nothing noticed before): mark it, try another */
    hg_backend_result(src, err);
  }
  {
    /* every valid copy was on a lost device: the contents are gone; the buffer goes on, zeroed */
    static const uint8_t zero;
    err = st->image ? zero_image(st, target) : target->ops->mem_fill(target, t->mem, 0, st->size, &zero, 1);
    *lost = err == CL_SUCCESS;
    if (*lost)
      goto out;
  }
copied:
  if (err == CL_SUCCESS)
    *moved = st->size;
out:
  pthread_mutex_unlock(&st->lock);
  return err;
}

void hg_mem_storage_commit(hg_mem_storage *st, hg_backend *target) {
  pthread_mutex_lock(&st->lock);
  st->dev[target->index].valid = true;
  /* A valid copy elsewhere stays valid (it holds the same bytes as the target's), except on a
   * lost device; the others are kept for a move back (mem_evict.c, hg_mem_storage_release). */
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++)
    if (i != target->index && st->dev[i].mem && atomic_load(&hg_backend_at(i)->lost))
      st->dev[i].valid = false;
  free(st->host);
  st->host = NULL;
  st->host_valid = false;
  pthread_mutex_unlock(&st->lock);
}

void *hg_mem_storage_map_direct(hg_mem_storage *st, hg_backend *be, hg_dev_mem **mem) {
  void *addr = NULL;
  if (!be->ops->mem_host_address)
    return NULL;
  pthread_mutex_lock(&st->lock);
  hg_mem_copy *c = &st->dev[be->index];
  if (c->mem && (addr = be->ops->mem_host_address(be, c->mem)) != NULL) {
    c->host_maps++;
    *mem = c->mem;
  }
  pthread_mutex_unlock(&st->lock);
  return addr;
}

void hg_mem_storage_unmap_direct(hg_mem_storage *st, hg_backend *be) {
  pthread_mutex_lock(&st->lock);
  st->dev[be->index].host_maps--;
  pthread_mutex_unlock(&st->lock);
}

void hg_mem_storage_release(hg_mem_storage *st, hg_backend *keep) {
  pthread_mutex_lock(&st->lock);
  hg_migrate_unpin(&st->pin);
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++) {
    hg_mem_copy *c = &st->dev[i];
    if (i == keep->index || !c->mem || c->host_maps)
      continue;
    hg_backend *be = hg_backend_at(i);
    hg_mem_backend_free(be, c->mem, st->size);
    c->mem = NULL;
    c->valid = false;
  }
  pthread_mutex_unlock(&st->lock);
}

void hg_mem_storage_abort(hg_mem_storage *st, hg_backend *target) {
  pthread_mutex_lock(&st->lock);
  hg_migrate_unpin(&st->pin);
  hg_mem_copy *t = &st->dev[target->index];
  if (t->mem && !t->valid && !t->host_maps) {
    hg_mem_backend_free(target, t->mem, st->size);
    t->mem = NULL;
  }
  pthread_mutex_unlock(&st->lock);
}

cl_int hg_mem_storage_host_contents(hg_mem_storage *st, const void **data) {
  pthread_mutex_lock(&st->lock);
  cl_int err = CL_SUCCESS;
  *data = NULL;
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS && !*data && !st->host_valid; i++) {
    hg_backend *be = hg_backend_at(i);
    if (st->dev[i].valid && be->ops->mem_host_map && !atomic_load(&be->lost)) {
      *data = st->mapped = be->ops->mem_host_map(be, st->dev[i].mem, false);
      st->mapped_on = i;
    }
  }
  if (!*data) {
    err = pull_to_host(st);
    *data = st->host;
  }
  pthread_mutex_unlock(&st->lock);
  return err;
}

void hg_mem_storage_host_done(hg_mem_storage *st) {
  pthread_mutex_lock(&st->lock);
  if (st->mapped) {
    hg_backend *be = hg_backend_at(st->mapped_on);
    be->ops->mem_host_unmap(be, st->dev[st->mapped_on].mem, st->mapped);
    st->mapped = NULL;
  }
  bool device_valid = false;
  for (unsigned i = 0; i < HG_MEM_MAX_BACKENDS; i++)
    device_valid |= st->dev[i].valid;
  if (device_valid) {
    free(st->host);
    st->host = NULL;
    st->host_valid = false;
  }
  pthread_mutex_unlock(&st->lock);
}
