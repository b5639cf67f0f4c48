/* Moving a migration's bytes between a GPU's memory and a host mapping (a CPU device's buffer,
 * the RISC-V simulator's DRAM) through the GPU's pinned memory (platform/migrate_transfer.c
 * chooses this path).
 *
 * Measured on the H100 machine (docs/gpu-runs.md): the GPU's DMA of pinned memory runs at the
 * PCIe rate (55 GB/s) and one core copies pinned <-> pageable at about 10 GB/s, so the copy
 * between the pinned chunks and the host mapping is spread over several threads, with four
 * 16 MiB chunks in flight: 46 GB/s at 256 MiB, 51 GB/s at 1 GiB, both directions. The threads
 * and the chunks are made once per GPU and kept for the process: pinning costs about as much as
 * the copies it speeds up, and starting 12 threads per move cost 0.3-0.55 ms of a 256 MiB move's
 * 5.8 ms (6-10% of the PCIe floor). A migration makes them before its downtime
 * (hg_migrate_pipeline_prepare). One move at a time uses a GPU's; another at the same time
 * copies directly. */
#include "platform/migrate_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "platform/fault_inject.h"

#define PIPE_CHUNK (16u << 20)
#define PIPE_RAMP_MIN (1u << 20)
#define PIPE_RAMP_MAX 8 /* ramp chunks at each end, at most (1 MiB doubled up to PIPE_CHUNK: 4) */
#define PIPE_BUFS 4
#define PIPE_MAX_WORKERS 12
#define PIPE_SLOTS 16 /* GPUs (by backend index) that keep chunks and threads */
#define PIPE_MIN_SIZE (4u << 20) /* smaller moves copy directly */

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
  unsigned workers; /* the slot's threads, each copying a share of every chunk */
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

typedef struct pipe_slot pipe_slot;
typedef struct pipe_worker {
  pipe_slot *slot;
  unsigned index;
} pipe_worker;

/* A GPU's pinned chunks and copying threads. Each thread waits for a new run (gen), copies its
 * share of every chunk of it, and counts itself finished; the run's driver waits for all. */
struct pipe_slot {
  void *buf[PIPE_BUFS], *handle[PIPE_BUFS];
  bool made, failed, busy; /* busy: a move is using the slot */
  unsigned threads;        /* started, in process `pid` (a fork's child has none of them) */
  pid_t pid;
  pipe_worker worker[PIPE_MAX_WORKERS];
  pthread_mutex_t lock; /* the run below */
  pthread_cond_t go, all_finished;
  pipe_run *run;
  unsigned long gen;
  unsigned finished;
};
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER; /* made, failed, busy, threads, pid */
static pipe_slot slots[PIPE_SLOTS];

/* Worker `index`'s share of every chunk of run r, as the chunks become ready. */
static void pipe_copy_share(pipe_run *r, unsigned index) {
  for (size_t k = 0; k < r->nk; k++) {
    pipe_await(r, chunk_ready, k);
    if (atomic_load(&r->stop))
      break;
    size_t n = r->len[k], per = (n / r->workers + 4095) & ~(size_t)4095;
    size_t from = per * index < n ? per * index : n, len = from + per < n ? per : n - from;
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
}

static void *slot_worker(void *arg) {
  pipe_worker *w = arg;
  pthread_setname_np(pthread_self(), "hetgpu-move");
  pipe_slot *s = w->slot;
  unsigned long seen = 0;
  for (;;) {
    pthread_mutex_lock(&s->lock);
    while (s->gen == seen)
      pthread_cond_wait(&s->go, &s->lock);
    seen = s->gen;
    pipe_run *r = s->run;
    pthread_mutex_unlock(&s->lock);
    pipe_copy_share(r, w->index);
    pthread_mutex_lock(&s->lock);
    if (++s->finished == r->workers)
      pthread_cond_signal(&s->all_finished);
    pthread_mutex_unlock(&s->lock);
  }
  return NULL;
}

/* ---- the driving thread: the GPU side's DMA ---- */

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

static bool pipe_gpu(hg_backend *gpu) { return hg_backend_async(gpu->ops) && gpu->index < PIPE_SLOTS; }

/* The slot's chunks, made on first use (slots_lock held). */
static void slot_chunks(pipe_slot *s, hg_backend *gpu) {
  if (s->made || s->failed || !gpu->ops->host_pinned_alloc)
    return;
  s->made = true;
  for (unsigned i = 0; i < PIPE_BUFS; i++)
    s->made = (s->buf[i] = gpu->ops->host_pinned_alloc(gpu, PIPE_CHUNK, &s->handle[i])) && s->made;
  s->failed = !s->made;
  for (unsigned i = 0; i < PIPE_BUFS && s->failed; i++)
    if (s->buf[i])
      gpu->ops->host_pinned_free(gpu, s->handle[i]);
}

/* The slot's threads, started on first use in this process (slots_lock held, no run going on);
 * returns how many there are. */
static unsigned slot_threads(pipe_slot *s) {
  if (s->threads && s->pid == getpid())
    return s->threads;
  /* none yet, or a fork's child, where the parent's threads do not exist (its objects are
   * abandoned as they are) */
  s->threads = 0;
  s->pid = getpid();
  s->gen = 0;
  s->run = NULL;
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->go, NULL);
  pthread_cond_init(&s->all_finished, NULL);
  for (unsigned n = pipe_workers(); s->threads < n; s->threads++) {
    pthread_t th;
    s->worker[s->threads] = (pipe_worker){s, s->threads};
    if (pthread_create(&th, NULL, slot_worker, &s->worker[s->threads]) != 0)
      break;
    pthread_detach(th);
  }
  return s->threads;
}

void hg_migrate_pipeline_prepare(hg_backend *a, hg_backend *b, size_t largest) {
  hg_backend *side[2][2] = {{a, b}, {b, a}};
  for (unsigned i = 0; i < 2; i++) {
    hg_backend *gpu = side[i][0], *host = side[i][1];
    if (largest < PIPE_MIN_SIZE || !pipe_gpu(gpu) || !gpu->ops->host_pinned_alloc || !host->ops->mem_host_map)
      continue;
    pthread_mutex_lock(&slots_lock);
    pipe_slot *s = &slots[gpu->index];
    slot_chunks(s, gpu);
    if (s->made && !s->busy)
      slot_threads(s);
    pthread_mutex_unlock(&slots_lock);
  }
}

/* Takes the GPU's slot for run r: its chunks (or, when a test made a mapping fail, host memory
 * standing in for them) and threads; NULL when they are not to be had or in use (the caller
 * copies directly). */
static pipe_slot *slot_take(pipe_run *r, hg_backend *gpu) {
  if (r->size < PIPE_MIN_SIZE || !pipe_gpu(gpu))
    return NULL;
  pthread_mutex_lock(&slots_lock);
  pipe_slot *s = &slots[gpu->index];
  slot_chunks(s, gpu);
  r->owned = !s->made && (hg_fault_injected("map_source") || hg_fault_injected("map_target"));
  bool ok = (s->made || r->owned) && !s->busy && (r->workers = slot_threads(s)) > 0;
  if (ok) {
    s->busy = true;
    memcpy(r->buf, s->buf, sizeof r->buf);
  }
  pthread_mutex_unlock(&slots_lock);
  for (unsigned i = 0; ok && r->owned && i < PIPE_BUFS; i++)
    r->buf[i] = malloc(PIPE_CHUNK);
  return ok ? s : NULL;
}

static void slot_give(pipe_slot *s, pipe_run *r) {
  for (unsigned i = 0; r->owned && i < PIPE_BUFS; i++)
    free(r->buf[i]);
  pthread_mutex_lock(&slots_lock);
  s->busy = false;
  pthread_mutex_unlock(&slots_lock);
}

static void slot_start(pipe_slot *s, pipe_run *r) {
  pthread_mutex_lock(&s->lock);
  s->run = r;
  s->finished = 0;
  s->gen++;
  pthread_cond_broadcast(&s->go);
  pthread_mutex_unlock(&s->lock);
}

static void slot_wait(pipe_slot *s, pipe_run *r) {
  pthread_mutex_lock(&s->lock);
  while (s->finished < r->workers)
    pthread_cond_wait(&s->all_finished, &s->lock);
  s->run = NULL;
  pthread_mutex_unlock(&s->lock);
}

cl_int hg_migrate_pipeline(hg_backend *gpu, hg_dev_mem *mem, uint8_t *host, bool to_host, size_t size, bool *used) {
  pipe_run r = {.gpu = gpu, .mem = mem, .host = host, .size = size, .to_host = to_host};
  uint64_t t0 = hg_host_clock_ns();
  pipe_slot *s = slot_take(&r, gpu);
  *used = s != NULL;
  if (!s)
    return CL_SUCCESS;
  size_t most = size / PIPE_CHUNK + 2 + 2 * PIPE_RAMP_MAX; /* whole chunks, a remainder, the two ramps */
  r.off = malloc(most * sizeof *r.off);
  r.len = malloc(most * sizeof *r.len);
  r.done = calloc(most, sizeof *r.done);
  cl_int err = r.off && r.len && r.done ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  for (unsigned i = 0; i < PIPE_BUFS && err == CL_SUCCESS; i++)
    if (!r.buf[i])
      err = CL_OUT_OF_HOST_MEMORY; /* a stand-in chunk */
  uint64_t t1 = hg_host_clock_ns(), t2 = t1;
  if (err == CL_SUCCESS) {
    r.nk = pipe_plan(size, r.off, r.len);
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.cond, NULL);
    slot_start(s, &r);
    err = to_host ? pipe_to_host(&r) : pipe_to_gpu(&r);
    t2 = hg_host_clock_ns();
    if (err != CL_SUCCESS) {
      atomic_store(&r.stop, true);
      pipe_wake(&r);
    }
    slot_wait(s, &r);
    pthread_cond_destroy(&r.cond);
    pthread_mutex_destroy(&r.lock);
  }
  for (unsigned i = 0; i < PIPE_BUFS; i++) {
    cl_int w_err = pipe_wait_dma(&r, i);
    if (err == CL_SUCCESS)
      err = w_err;
  }
  HG_LOG(HG_LOG_MIGRATE,
         "%zu bytes %s %s through %zu chunks of %s memory, %u copying threads: %d (set up in %llu us, moved in %llu "
         "us, all done in %llu us)",
         size, to_host ? "from" : "to", gpu->name, r.nk, r.owned ? "host" : "pinned", r.workers, err,
         (unsigned long long)(t1 - t0) / 1000, (unsigned long long)(t2 - t1) / 1000,
         (unsigned long long)(hg_host_clock_ns() - t0) / 1000);
  free(r.done);
  free(r.off);
  free(r.len);
  slot_give(s, &r);
  return err;
}
