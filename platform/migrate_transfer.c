/* Moving one allocation's bytes from one backend to another for a migration
 * (platform/migrate.c). The fastest way both sides allow:
 *  - both sides' memory can be mapped in host memory without a copy (mem_host_map: the RISC-V
 *    simulator, a CPU vendor device): one memcpy between the mappings, on several threads;
 *  - one side's can and the other registered that mapping (host_register, a GPU pinning it in
 *    the migration's prepare phase, hg_migrate_pin): one DMA between them at the link's rate;
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

/* A side's memory mapped in host memory for a move, or NULL (a GPU's; tests: map_source /
 * map_target make that side's mapping fail, as a vendor's may). */
static void *side_map(hg_backend *be, hg_dev_mem *m, bool write, const char *fault_point) {
  return be->ops->mem_host_map && !hg_fault_injected(fault_point) ? be->ops->mem_host_map(be, m, write) : NULL;
}

/* Below this a registration costs more than the transfer it speeds up. */
#define PIN_MIN_SIZE (4u << 20)

void hg_migrate_pin(hg_mem_pin *pin, hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size) {
  if (pin->with || size < PIN_MIN_SIZE || hg_fault_injected("pin"))
    return;
  void *from = side_map(src, sm, false, "map_source"), *to = side_map(dst, dm, true, "map_target");
  hg_backend *other = from ? dst : src, *host = from ? src : dst;
  void *p = from ? from : to;
  /* one side mapped (both: one memcpy; neither: staged), the other able to register it */
  if (!from != !to && other->ops->host_register) {
    if ((pin->handle = other->ops->host_register(other, p, size))) {
      pin->with = other;
      pin->host = p;
    }
    HG_LOG(HG_LOG_MIGRATE, "%zu bytes of %s's memory %sregistered with %s", size, host->name,
           pin->with ? "" : "not ", other->name);
  }
  if (from)
    src->ops->mem_host_unmap(src, sm, from);
  if (to)
    dst->ops->mem_host_unmap(dst, dm, to);
}

void hg_migrate_unpin(hg_mem_pin *pin) {
  if (pin->with)
    pin->with->ops->host_unregister(pin->with, pin->handle);
  *pin = (hg_mem_pin){0};
}

/* Whether the host mapping `p` of a move is registered with `other`, the side facing it. */
static bool pinned(const hg_mem_pin *pin, const void *p, const hg_backend *other) {
  return pin && pin->with == other && pin->host == p;
}

cl_int hg_migrate_copy(hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size,
                       const hg_mem_pin *pin) {
  if (hg_fault_injected("transfer"))
    return CL_OUT_OF_RESOURCES;
  void *to = side_map(dst, dm, true, "map_target"), *from = side_map(src, sm, false, "map_source");
  cl_int err = CL_SUCCESS;
  bool piped = false;
  if (to && from)
    hg_migrate_memcpy(to, from, size);
  else if (to && pinned(pin, to, src)) /* one DMA into registered memory */
    err = src->ops->mem_read(src, sm, 0, size, to);
  else if (to && src->ops->mem_read_async && (err = hg_migrate_pipeline(src, sm, to, true, size, &piped), piped))
    ;
  else if (to)
    err = src->ops->mem_read(src, sm, 0, size, to);
  else if (from && pinned(pin, from, dst))
    err = dst->ops->mem_write(dst, dm, 0, size, from);
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
