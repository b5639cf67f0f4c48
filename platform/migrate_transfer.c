/* Moving one allocation's bytes from one backend to another for a migration
 * (platform/migrate.c). The fastest way both sides allow:
 *  - both sides' memory can be mapped in host memory without a copy (mem_host_map: the RISC-V
 *    simulator, a CPU vendor device): one memcpy between the mappings, on several threads;
 *  - one side's can and the other is a GPU with pinned host memory (host_pinned_alloc): through
 *    pinned chunks kept per GPU, the GPU's DMA of some overlapping a pool of threads' copies of
 *    the others (via_pipeline);
 *  - one side's can: the other side reads into it or writes from it directly, one copy and no
 *    staging;
 *  - otherwise through two host staging chunks: while chunk k is written to the target, chunk
 *    k+1 is read from the source (asynchronously when the source has mem_read_async), so the
 *    two directions overlap. */
#include "platform/migrate_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/host_clock.h"
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

/* Measured on the H100 machine (docs/gpu-runs.md): the GPU's DMA of pinned memory runs at the
 * PCIe rate (55 GB/s) and one core copies pinned <-> pageable at about 10 GB/s, so the copy
 * between the pinned chunks and the host mapping is spread over a pool of threads that lives
 * for the whole move (threads started per chunk ate the gain), with four 16 MiB chunks in
 * flight: 46 GB/s at 256 MiB, 51 GB/s at 1 GiB, both directions. */
#define PIPE_CHUNK (16u << 20)
#define PIPE_RAMP_MIN (1u << 20)
#define PIPE_RAMP_MAX 8 /* ramp chunks at each end, at most (1 MiB doubled up to PIPE_CHUNK: 4) */
#define PIPE_BUFS 4
#define PIPE_MAX_WORKERS 12
#define PINNED_BACKENDS 16

/* Pinning memory costs about as much as the copies it speeds up, so each GPU's chunks are made
 * on its first migration and kept for the process; one move at a time uses them (another at
 * the same time copies directly). */
static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct pinned_chunks {
  void *buf[PIPE_BUFS], *handle[PIPE_BUFS];
  bool made, failed, busy;
} pinned_chunks;
static pinned_chunks pinned_kept[PINNED_BACKENDS];

/* One move through the chunks: the GPU side's DMA of chunk k overlaps the workers' copies of
 * the chunks before it (to the host) or after it (to the GPU). Waiting threads yield a while
 * before they sleep, as the native pool that reached 46 GB/s did (it only yielded); the H100
 * runs varied too much to rank yielding against sleeping (docs/gpu-runs.md). */
#define PIPE_SPINS 4000
typedef struct pipe_run {
  hg_backend *gpu;
  hg_dev_mem *mem;
  uint8_t *host; /* the mapped side */
  size_t size, nk;
  size_t *off, *len; /* per chunk (pipe_plan) */
  void *buf[PIPE_BUFS];
  bool owned; /* buf[] are malloc'd stand-ins (tests), not the GPU's kept chunks */
  hg_token *pending[PIPE_BUFS]; /* the DMA using buf[i], not waited for yet */
  unsigned workers;
  pthread_mutex_t lock; /* for sleeping only: the state below is atomic */
  pthread_cond_t cond;
  atomic_size_t ready;    /* chunks the workers may copy: their DMA landed (to the host), their buffer is free (to the GPU) */
  atomic_uint *done;      /* per chunk: workers that copied their slice of it */
  atomic_bool stop;
  bool to_host;
} pipe_run;

/* The chunks of a move: 1, 2, 4 and 8 MiB at both ends, PIPE_CHUNK between. The pipeline
 * fills with its first chunk (one side waits for it) and drains with its last (the other side
 * waits): small ones there cut that wait from 16 MiB's time to 1 MiB's, about 0.6 ms of the
 * 4.9 ms a 256 MiB move takes at the PCIe rate. Returns the number of chunks. */
static size_t pipe_plan(size_t size, size_t *off, size_t *len) {
  size_t n = 0, lo = 0, hi = size, tail[PIPE_RAMP_MAX], nt = 0;
  for (size_t step = PIPE_RAMP_MIN; step < PIPE_CHUNK && hi - lo > 2 * step && nt < PIPE_RAMP_MAX; step *= 2) {
    off[n] = lo;
    len[n++] = step;
    lo += step;
    tail[nt++] = step; /* its twin at the end, placed last */
    hi -= step;
  }
  for (; lo < hi; lo += len[n++]) {
    off[n] = lo;
    len[n] = hi - lo < PIPE_CHUNK ? hi - lo : PIPE_CHUNK;
  }
  while (nt) {
    off[n] = hi;
    len[n] = tail[--nt];
    hi += len[n++];
  }
  return n;
}

static bool chunk_ready(pipe_run *r, size_t k) {
  return atomic_load(&r->ready) > k || atomic_load(&r->stop);
}

static bool chunk_copied(pipe_run *r, size_t k) {
  return atomic_load(&r->done[k]) >= r->workers;
}

static void pipe_await(pipe_run *r, bool (*cond)(pipe_run *, size_t), size_t k) {
  for (unsigned i = 0; i < PIPE_SPINS; i++) {
    if (cond(r, k))
      return;
    sched_yield();
  }
  pthread_mutex_lock(&r->lock);
  while (!cond(r, k))
    pthread_cond_wait(&r->cond, &r->lock);
  pthread_mutex_unlock(&r->lock);
}

/* After a change to the atomic state: a sleeper checked it under the lock, so it is either
 * waiting already or sees the change. */
static void pipe_wake(pipe_run *r) {
  pthread_mutex_lock(&r->lock);
  pthread_cond_broadcast(&r->cond);
  pthread_mutex_unlock(&r->lock);
}

typedef struct pipe_worker {
  pipe_run *run;
  unsigned index;
} pipe_worker;

static void *pipe_work(void *arg) {
  pipe_worker *w = arg;
  pipe_run *r = w->run;
  for (size_t k = 0; k < r->nk; k++) {
    pipe_await(r, chunk_ready, k);
    if (atomic_load(&r->stop))
      break;
    size_t n = r->len[k], per = (n / r->workers + 4095) & ~(size_t)4095;
    size_t from = per * w->index < n ? per * w->index : n, len = from + per < n ? per : n - from;
    uint8_t *chunk = r->buf[k % PIPE_BUFS], *host = r->host + r->off[k];
    /* into the target: streamed (it is not read again soon); into a chunk: cached, the
     * DMA that follows reads it from the cache (measured on the H100 machine, docs/gpu-runs.md) */
    if (len && r->to_host)
      hg_migrate_stream_copy(host + from, chunk + from, len);
    else if (len)
      memcpy(chunk + from, host + from, len);
    if (atomic_fetch_add(&r->done[k], 1) + 1 == r->workers)
      pipe_wake(r);
  }
  return NULL;
}

/* Waits for the DMA on buf[i]; CL_SUCCESS when there was none. */
static cl_int pipe_wait_dma(pipe_run *r, unsigned i) {
  if (!r->pending[i])
    return CL_SUCCESS;
  cl_int err = r->gpu->ops->token_wait(r->gpu, r->pending[i], NULL, NULL);
  r->gpu->ops->token_release(r->gpu, r->pending[i]);
  r->pending[i] = NULL;
  return err;
}

static void pipe_publish(pipe_run *r, size_t ready) {
  atomic_store(&r->ready, ready); /* only the driving thread writes it, growing */
  pipe_wake(r);
}

static void pipe_wait_copied(pipe_run *r, size_t k) {
  pipe_await(r, chunk_copied, k);
}

static cl_int pipe_dma(pipe_run *r, size_t k) {
  unsigned i = (unsigned)(k % PIPE_BUFS);
  return r->to_host ? r->gpu->ops->mem_read_async(r->gpu, r->mem, r->off[k], r->len[k], r->buf[i], false,
                                                  &r->pending[i])
                    : r->gpu->ops->mem_write_async(r->gpu, r->mem, r->off[k], r->len[k], r->buf[i], false,
                                                   &r->pending[i]);
}

/* GPU -> host: up to PIPE_BUFS reads in flight; chunk k's buffer is read into again once the
 * workers copied it out. */
static cl_int pipe_to_host(pipe_run *r) {
  cl_int err = CL_SUCCESS;
  size_t issued = 0, landed = 0;
  while (err == CL_SUCCESS && landed < r->nk) {
    if (issued < r->nk && issued < landed + PIPE_BUFS) {
      if (issued >= PIPE_BUFS)
        pipe_wait_copied(r, issued - PIPE_BUFS);
      err = pipe_dma(r, issued++);
    } else if ((err = pipe_wait_dma(r, (unsigned)(landed % PIPE_BUFS))) == CL_SUCCESS) {
      pipe_publish(r, ++landed);
    }
  }
  return err;
}

/* host -> GPU: the workers fill chunk k once the write of chunk k - PIPE_BUFS from its buffer
 * ended; then it is written, up to PIPE_BUFS writes in flight. */
static cl_int pipe_to_gpu(pipe_run *r) {
  cl_int err = CL_SUCCESS;
  pipe_publish(r, r->nk < PIPE_BUFS ? r->nk : PIPE_BUFS);
  for (size_t k = 0; k < r->nk && err == CL_SUCCESS; k++) {
    pipe_wait_copied(r, k);
    /* the oldest write in flight (chunk k + 1 - PIPE_BUFS) frees the buffer of chunk k + 1 */
    if ((err = pipe_dma(r, k)) == CL_SUCCESS && k + 1 >= PIPE_BUFS && k + 1 < r->nk &&
        (err = pipe_wait_dma(r, (unsigned)((k + 1) % PIPE_BUFS))) == CL_SUCCESS)
      pipe_publish(r, k + 2);
  }
  return err;
}

static unsigned pipe_workers(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  /* one core is left to the thread that drives the DMA (and the vendor's own threads); two at
   * least, so that small machines run the same slicing as large ones */
  unsigned t = cores > 3 ? (unsigned)cores - 1 : 2;
  return t > PIPE_MAX_WORKERS ? PIPE_MAX_WORKERS : t;
}

/* The GPU's kept chunks (or, when a test made a mapping fail, host memory standing in for
 * them); false when there are none or they are in use (the caller copies directly). */
static bool pipe_buffers(pipe_run *r, hg_backend *gpu, size_t size) {
  if (!hg_backend_async(gpu->ops) || size < (4u << 20) || gpu->index >= PINNED_BACKENDS)
    return false;
  bool failed = true;
  if (gpu->ops->host_pinned_alloc) {
    pthread_mutex_lock(&pinned_lock);
    pinned_chunks *k = &pinned_kept[gpu->index];
    if (!k->made && !k->failed) {
      k->made = true;
      for (unsigned i = 0; i < PIPE_BUFS; i++)
        k->made = (k->buf[i] = gpu->ops->host_pinned_alloc(gpu, PIPE_CHUNK, &k->handle[i])) && k->made;
      k->failed = !k->made;
      for (unsigned i = 0; i < PIPE_BUFS && k->failed; i++)
        if (k->buf[i])
          gpu->ops->host_pinned_free(gpu, k->handle[i]);
    }
    bool ok = k->made && !k->busy;
    if (ok) {
      k->busy = true;
      memcpy(r->buf, k->buf, sizeof r->buf);
    }
    failed = k->failed;
    pthread_mutex_unlock(&pinned_lock);
    if (ok)
      return true;
  }
  if (!failed || (!hg_fault_injected("map_source") && !hg_fault_injected("map_target")))
    return false;
  r->owned = true;
  bool ok = true;
  for (unsigned i = 0; i < PIPE_BUFS; i++)
    ok = (r->buf[i] = malloc(PIPE_CHUNK)) && ok;
  return ok;
}

static void pipe_buffers_give(pipe_run *r) {
  if (r->owned) {
    for (unsigned i = 0; i < PIPE_BUFS; i++)
      free(r->buf[i]);
    return;
  }
  pthread_mutex_lock(&pinned_lock);
  pinned_kept[r->gpu->index].busy = false;
  pthread_mutex_unlock(&pinned_lock);
}

/* Moves `size` bytes between the GPU's memory and a host mapping through its chunks; *used is
 * false (and nothing moved) when the chunks are not to be had. */
static cl_int via_pipeline(hg_backend *gpu, hg_dev_mem *mem, uint8_t *host, bool to_host, size_t size, bool *used) {
  pipe_run r = {.gpu = gpu, .mem = mem, .host = host, .size = size, .to_host = to_host, .workers = pipe_workers()};
  bool have = pipe_buffers(&r, gpu, size);
  *used = have;
  if (!have) {
    if (r.owned)
      pipe_buffers_give(&r);
    return CL_SUCCESS;
  }
  pipe_worker w[PIPE_MAX_WORKERS];
  pthread_t th[PIPE_MAX_WORKERS];
  unsigned started = 0;
  uint64_t t0 = hg_host_clock_ns(), t1 = 0, t2 = 0;
  size_t most = size / PIPE_CHUNK + 2 + 2 * PIPE_RAMP_MAX; /* whole chunks, a remainder, the two ramps */
  r.off = malloc(most * sizeof *r.off);
  r.len = malloc(most * sizeof *r.len);
  cl_int err = r.off && r.len && (r.done = calloc(most, sizeof *r.done)) ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  if (err == CL_SUCCESS)
    r.nk = pipe_plan(size, r.off, r.len);
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.cond, NULL);
  for (; err == CL_SUCCESS && started < r.workers; started++) {
    w[started] = (pipe_worker){&r, started};
    if (pthread_create(&th[started], NULL, pipe_work, &w[started]) != 0)
      break;
  }
  if (err == CL_SUCCESS && started < r.workers) /* the slices are cut for r.workers threads */
    err = CL_OUT_OF_HOST_MEMORY;
  t1 = hg_host_clock_ns();
  if (err == CL_SUCCESS)
    err = to_host ? pipe_to_host(&r) : pipe_to_gpu(&r);
  t2 = hg_host_clock_ns();
  if (err != CL_SUCCESS) {
    atomic_store(&r.stop, true);
    pipe_wake(&r);
  }
  for (unsigned i = 0; i < started; i++)
    pthread_join(th[i], NULL);
  for (unsigned i = 0; i < PIPE_BUFS; i++) {
    cl_int w_err = pipe_wait_dma(&r, i);
    if (err == CL_SUCCESS)
      err = w_err;
  }
  HG_LOG(HG_LOG_MIGRATE,
         "%zu bytes %s %s through %zu chunks of %s memory, %u copying threads: %d (threads started in %llu us, "
         "moved in %llu us, all done in %llu us)",
         size, to_host ? "from" : "to", gpu->name, r.nk, r.owned ? "host" : "pinned", r.workers, err,
         (unsigned long long)(t1 - t0) / 1000, (unsigned long long)(t2 - t1) / 1000,
         (unsigned long long)(hg_host_clock_ns() - t0) / 1000);
  pthread_cond_destroy(&r.cond);
  pthread_mutex_destroy(&r.lock);
  free(r.done);
  free(r.off);
  free(r.len);
  pipe_buffers_give(&r);
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
  else if (to && src->ops->mem_read_async && (err = via_pipeline(src, sm, to, true, size, &piped), piped))
    ;
  else if (to)
    err = src->ops->mem_read(src, sm, 0, size, to);
  else if (from && dst->ops->mem_write_async && (err = via_pipeline(dst, dm, from, false, size, &piped), piped))
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
