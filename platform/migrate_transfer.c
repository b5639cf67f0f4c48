/* Moving one allocation's bytes from one backend to another for a migration
 * (platform/migrate.c). The fastest way both sides allow:
 *  - both sides' memory can be mapped in host memory without a copy (mem_host_map: the RISC-V
 *    simulator, a CPU vendor device): one memcpy between the mappings, on several threads;
 *  - one side's can and the other is a GPU with pinned host memory (host_pinned_alloc): through
 *    two pinned chunks kept per GPU, the GPU's DMA of one overlapping the threaded copy of the
 *    other;
 *  - one side's can: the other side reads into it or writes from it directly, one copy and no
 *    staging;
 *  - otherwise through two host staging chunks: while chunk k is written to the target, chunk
 *    k+1 is read from the source (asynchronously when the source has mem_read_async), so the
 *    two directions overlap. */
#include "platform/migrate_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/log.h"
#include "platform/fault_inject.h"

#define CHUNK (8u << 20)

static cl_int via_staging(hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size) {
  size_t chunk = size < CHUNK ? size : CHUNK;
  uint8_t *stage[2] = {malloc(chunk), malloc(chunk)};
  cl_int err = stage[0] && stage[1] ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  bool overlap = src->ops->mem_read_async && src->ops->token_wait && src->ops->token_release;
  hg_token *pending = NULL; /* the read of the chunk at `next` into stage[next_slot] */
  size_t off = 0;
  unsigned slot = 0;
  if (err == CL_SUCCESS)
    err = src->ops->mem_read(src, sm, 0, chunk, stage[0]);
  while (err == CL_SUCCESS && off < size) {
    size_t n = size - off < chunk ? size - off : chunk;
    size_t next = off + n, next_n = size - next < chunk ? size - next : chunk;
    if (next < size && overlap)
      err = src->ops->mem_read_async(src, sm, next, next_n, stage[slot ^ 1], false, &pending);
    cl_int werr = err == CL_SUCCESS ? dst->ops->mem_write(dst, dm, off, n, stage[slot]) : err;
    if (pending) {
      cl_int rerr = src->ops->token_wait(src, pending, NULL, NULL);
      src->ops->token_release(src, pending);
      pending = NULL;
      if (err == CL_SUCCESS)
        err = rerr;
    } else if (err == CL_SUCCESS && werr == CL_SUCCESS && next < size) {
      err = src->ops->mem_read(src, sm, next, next_n, stage[slot ^ 1]);
    }
    if (err == CL_SUCCESS)
      err = werr;
    off = next;
    slot ^= 1;
  }
  free(stage[0]);
  free(stage[1]);
  return err;
}

/* ---- a GPU and a host mapping, through the GPU's pinned memory ---- */

#define PINNED_CHUNK (128u << 20)
#define PINNED_BACKENDS 16

/* Pinning memory costs about as much as the copies it speeds up, so each GPU's two chunks are
 * made on its first migration and kept for the process; one copy at a time uses them (another
 * at the same time copies directly). */
static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct pinned_chunks {
  void *buf[2], *handle[2];
  bool made, failed, busy;
} pinned_chunks;
static pinned_chunks pinned_kept[PINNED_BACKENDS];

typedef struct pinned_pair {
  hg_backend *gpu;
  void *buf[2];
  hg_token *pending[2]; /* the transfer using buf[i], not waited for yet */
  size_t chunk;
} pinned_pair;

/* The GPU's two pinned chunks; false when it has none or they are in use (the caller copies
 * directly). */
static bool pinned_open(pinned_pair *p, hg_backend *gpu, size_t size) {
  *p = (pinned_pair){.gpu = gpu, .chunk = size < PINNED_CHUNK ? size : PINNED_CHUNK};
  if (!gpu->ops->host_pinned_alloc || !gpu->ops->token_wait || !gpu->ops->token_release || size < (4u << 20) ||
      gpu->index >= PINNED_BACKENDS)
    return false;
  pthread_mutex_lock(&pinned_lock);
  pinned_chunks *k = &pinned_kept[gpu->index];
  if (!k->made && !k->failed) {
    for (int i = 0; i < 2; i++)
      k->buf[i] = gpu->ops->host_pinned_alloc(gpu, PINNED_CHUNK, &k->handle[i]);
    k->made = k->buf[0] && k->buf[1];
    k->failed = !k->made;
    for (int i = 0; i < 2 && k->failed; i++)
      if (k->buf[i])
        gpu->ops->host_pinned_free(gpu, k->handle[i]);
  }
  bool ok = k->made && !k->busy;
  if (ok) {
    k->busy = true;
    p->buf[0] = k->buf[0];
    p->buf[1] = k->buf[1];
  }
  pthread_mutex_unlock(&pinned_lock);
  return ok;
}

/* Waits for the transfer on buf[i]; CL_SUCCESS when there was none. */
static cl_int pinned_wait(pinned_pair *p, int i) {
  if (!p->pending[i])
    return CL_SUCCESS;
  cl_int err = p->gpu->ops->token_wait(p->gpu, p->pending[i], NULL, NULL);
  p->gpu->ops->token_release(p->gpu, p->pending[i]);
  p->pending[i] = NULL;
  return err;
}

static cl_int pinned_close(pinned_pair *p, cl_int err) {
  for (int i = 0; i < 2; i++) {
    cl_int w = pinned_wait(p, i);
    if (err == CL_SUCCESS)
      err = w;
  }
  pthread_mutex_lock(&pinned_lock);
  pinned_kept[p->gpu->index].busy = false;
  pthread_mutex_unlock(&pinned_lock);
  return err;
}

/* GPU -> host mapping: the DMA of chunk k+1 into one pinned buffer runs while chunk k is copied
 * out of the other with several threads. */
static cl_int gpu_to_host(pinned_pair *p, hg_dev_mem *sm, uint8_t *to, size_t size) {
  hg_backend *gpu = p->gpu;
  size_t nk = (size + p->chunk - 1) / p->chunk;
  cl_int err = gpu->ops->mem_read_async(gpu, sm, 0, size < p->chunk ? size : p->chunk, p->buf[0], false,
                                        &p->pending[0]);
  for (size_t k = 0; k < nk && err == CL_SUCCESS; k++) {
    int i = (int)(k & 1);
    size_t off = k * p->chunk, n = size - off < p->chunk ? size - off : p->chunk;
    if (k + 1 < nk) {
      size_t next = off + n, nn = size - next < p->chunk ? size - next : p->chunk;
      err = gpu->ops->mem_read_async(gpu, sm, next, nn, p->buf[i ^ 1], false, &p->pending[i ^ 1]);
    }
    cl_int w = pinned_wait(p, i);
    if (err == CL_SUCCESS && (err = w) == CL_SUCCESS)
      hg_migrate_memcpy(to + off, p->buf[i], n);
  }
  return pinned_close(p, err);
}

/* host mapping -> GPU: chunk k is copied into one pinned buffer with several threads while the
 * DMA of chunk k-1 from the other runs. */
static cl_int host_to_gpu(pinned_pair *p, const uint8_t *from, hg_dev_mem *dm, size_t size) {
  hg_backend *gpu = p->gpu;
  cl_int err = CL_SUCCESS;
  for (size_t off = 0, k = 0; off < size && err == CL_SUCCESS; off += p->chunk, k++) {
    int i = (int)(k & 1);
    size_t n = size - off < p->chunk ? size - off : p->chunk;
    if ((err = pinned_wait(p, i)) != CL_SUCCESS) /* the DMA of chunk k-2 from this buffer */
      break;
    hg_migrate_memcpy(p->buf[i], from + off, n);
    err = gpu->ops->mem_write_async(gpu, dm, off, n, p->buf[i], false, &p->pending[i]);
  }
  return pinned_close(p, err);
}

cl_int hg_migrate_copy(hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size) {
  if (hg_fault_injected("transfer"))
    return CL_OUT_OF_RESOURCES;
  void *to = dst->ops->mem_host_map ? dst->ops->mem_host_map(dst, dm, true) : NULL;
  void *from = src->ops->mem_host_map ? src->ops->mem_host_map(src, sm, false) : NULL;
  cl_int err = CL_SUCCESS;
  pinned_pair pp;
  if (to && from)
    hg_migrate_memcpy(to, from, size);
  else if (to && src->ops->mem_read_async && pinned_open(&pp, src, size))
    err = gpu_to_host(&pp, sm, to, size);
  else if (to)
    err = src->ops->mem_read(src, sm, 0, size, to);
  else if (from && dst->ops->mem_write_async && pinned_open(&pp, dst, size))
    err = host_to_gpu(&pp, from, dm, size);
  else if (from)
    err = dst->ops->mem_write(dst, dm, 0, size, from);
  else
    err = via_staging(src, sm, dst, dm, size);
  if (to)
    dst->ops->mem_host_unmap(dst, dm, to);
  if (from)
    src->ops->mem_host_unmap(src, sm, from);
  return err;
}
