/* Moving one allocation's bytes from one backend to another for a migration
 * (platform/migrate.c). The fastest way both sides allow:
 *  - both sides' memory can be mapped in host memory without a copy (mem_host_map: the RISC-V
 *    simulator, a CPU vendor device): one memcpy between the mappings, on several threads;
 *  - one side's can and the other is a GPU with pinned host memory (host_pinned_alloc): through
 *    pinned chunks kept per GPU, the GPU's DMA of some overlapping a pool of threads' copies of
 *    the others (platform/migrate_pipeline.c);
 *  - one side's can: the other side reads into it or writes from it directly, one copy and no
 *    staging;
 *  - otherwise through two host staging chunks: while chunk k is written to the target, chunk
 *    k+1 is read from the source (asynchronously when the source has mem_read_async), so the
 *    two directions overlap. */
#include "platform/migrate_internal.h"

#include <stdint.h>
#include <stdlib.h>

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

cl_int hg_migrate_copy(hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size) {
  if (hg_fault_injected("transfer"))
    return CL_OUT_OF_RESOURCES;
  /* tests: map_source / map_target make that side's mapping fail (as a vendor's may) */
  void *to = dst->ops->mem_host_map && !hg_fault_injected("map_target") ? dst->ops->mem_host_map(dst, dm, true) : NULL;
  void *from = src->ops->mem_host_map && !hg_fault_injected("map_source") ? src->ops->mem_host_map(src, sm, false) : NULL;
  cl_int err = CL_SUCCESS;
  bool piped = false;
  if (to && from)
    hg_migrate_memcpy(to, from, size);
  else if (to && src->ops->mem_read_async && (err = hg_migrate_pipeline(src, sm, to, true, size, &piped), piped))
    ;
  else if (to)
    err = src->ops->mem_read(src, sm, 0, size, to);
  else if (from && dst->ops->mem_write_async && (err = hg_migrate_pipeline(dst, dm, from, false, size, &piped), piped))
    ;
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
