/* The backend's one stream over two vendor queues. Profiling costs NVIDIA about 3-6 us per
 * command (docs/performance.md), so operations whose times nobody will ask for go to a queue
 * without profiling and the others to a profiling one. The backend promises one order for all
 * its operations (devices/backend.h): an operation that goes to the other queue than the
 * previous one waits for the previous one's event (a marker's when it has none: a batched
 * operation), and since both queues are in order, for everything before it. Taking the stream serialises the choice and the enqueue; nothing blocks
 * while it is held. */
#include <stdlib.h>

#include "common/host_clock.h"
#include "devices/vendor/vendor_internal.h"

/* Batched operations are flushed to the device after every 16 (1 << HG_VENDOR_FLUSH_RAMP), and
 * whenever their completion is asked for (a marker), another queue must wait for them, or the
 * platform asks (hg_vendor_stream_flush): NVIDIA takes 4 us more per launch with a clFlush after
 * each launch without an event (bench-vendor-submit, docs/performance.md), and its queue runs
 * what it holds back anyway; those conditions keep every vendor's device fed. After a thread
 * waited for the stream or flushed it (the device may run dry) the count ramps up, 1, 2, 4, 8, 16:
 * a burst's first operations reach the device at once (bench-kernels' 20 back-to-back 6 us
 * stencils on the H200: 1.13 -> 1.09 of NVIDIA's wall). */
#define HG_VENDOR_FLUSH_RAMP 4u
/* A batch closes (its marker enqueued) after this many operations, on the submitting thread,
 * so that a thread following completions finds closed batches to poll while submissions go
 * on: closing one itself would enqueue and flush on the vendor's queue between two of the
 * application's launches. A poll closes an open batch only once the batch is this old. */
#define HG_VENDOR_BATCH_MAX 64u
#define HG_VENDOR_BATCH_AGE_NS 1000000ull

/* Flushes queue; the count of unflushed batched operations restarts when they went there.
 * Under stream_lock. */
static void flush_queue(hg_vendor_backend *vb, cl_command_queue queue) {
  VCL(queue)->clFlush(queue);
  if (queue == vb->unflushed_queue)
    vb->unflushed = 0;
}

/* Untimed operations whose events nobody asked for yet: one marker after the last of them
 * completes them all (the queue is in order). refs: one per token, one while open. */
struct hg_vendor_batch {
  atomic_uint refs;
  cl_command_queue queue; /* where its operations went */
  cl_event marker;        /* NULL while open (under stream_lock); then fixed */
  unsigned ops;           /* operations in it (under stream_lock) */
  uint64_t opened_ns;     /* hg_host_clock_ns() at its first operation */
  atomic_int result;      /* BATCH_PENDING until a wait saw how it ended: then the wait's result */
};

/* A batch's operations complete together: after one wait the others' tokens need no vendor call
 * (a clFinish after a burst completes each launch in turn: three vendor calls each before, some
 * 50 us per 20 launches on the H200). */
#define BATCH_PENDING 1

/* Counts an operation enqueued on queue and flushes after 1 << flush_ramp of them, raising the
 * ramp up to HG_VENDOR_FLUSH_RAMP; the other queue's unflushed operations go first when the
 * stream switches queues. Under stream_lock. */
static void count_unflushed(hg_vendor_backend *vb, cl_command_queue queue) {
  if (vb->unflushed_queue != queue) {
    if (vb->unflushed)
      flush_queue(vb, vb->unflushed_queue);
    vb->unflushed_queue = queue;
  }
  if (++vb->unflushed >= 1u << vb->flush_ramp) {
    flush_queue(vb, queue);
    if (vb->flush_ramp < HG_VENDOR_FLUSH_RAMP)
      vb->flush_ramp++;
  }
}

static void set_last_event(hg_vendor_backend *vb, cl_command_queue queue, cl_event last) {
  VCL(last)->clRetainEvent(last);
  if (vb->last_event)
    VCL(vb->last_event)->clReleaseEvent(vb->last_event);
  vb->last_event = last;
  vb->last_queue = queue;
  vb->last_unevented = false;
}

/* An event for the latest operation on last_queue when it has none (a batched one), for an
 * operation on the other queue to wait for. Under stream_lock. */
static cl_event last_event_now(hg_vendor_backend *vb) {
  if (vb->last_unevented) {
    cl_event marker = NULL;
    if (VCL(vb->last_queue)->clEnqueueMarkerWithWaitList(vb->last_queue, 0, NULL, &marker) == CL_SUCCESS) {
      flush_queue(vb, vb->last_queue); /* the other queue's wait needs it on the device */
      set_last_event(vb, vb->last_queue, marker);
      VCL(marker)->clReleaseEvent(marker);
    } else { /* the order is at stake: wait here rather than lose it */
      VCL(vb->last_queue)->clFinish(vb->last_queue);
      vb->last_unevented = false;
    }
  }
  return vb->last_event;
}

void hg_vendor_stream_take(hg_vendor_backend *vb, bool timed, hg_vendor_slot *s) {
  pthread_mutex_lock(&vb->stream_lock);
  s->queue = timed || !vb->plain_queue ? vb->queue : vb->plain_queue;
  s->wait = s->queue != vb->last_queue ? last_event_now(vb) : NULL;
  s->num_wait = s->wait ? 1 : 0;
}

void hg_vendor_stream_give(hg_vendor_backend *vb, const hg_vendor_slot *s, cl_event last) {
  if (last) /* flushed by its enqueuer (hg_vendor_submitted) or waited for at once */
    set_last_event(vb, s->queue, last);
  pthread_mutex_unlock(&vb->stream_lock);
}

/* Ends the open batch: no operation joins it any more. Under stream_lock. */
static void unlink_open_batch(hg_vendor_backend *vb, hg_vendor_batch *b) {
  if (vb->open_batch == b) {
    vb->open_batch = NULL;
    hg_vendor_batch_release(b);
  }
}

/* Closes the open batch (under stream_lock): its marker follows every operation in it. */
static void close_batch(hg_vendor_backend *vb, hg_vendor_batch *b) {
  cl_event marker = NULL;
  if (VCL(b->queue)->clEnqueueMarkerWithWaitList(b->queue, 0, NULL, &marker) != CL_SUCCESS) {
    VCL(b->queue)->clFinish(b->queue); /* nothing to wait for then: all of it is done */
    marker = NULL;
    atomic_store_explicit(&b->result, CL_SUCCESS, memory_order_release);
  } else {
    flush_queue(vb, b->queue); /* a poll of the marker's status must see it progress */
  }
  if (marker && vb->last_queue == b->queue && vb->last_unevented)
    set_last_event(vb, b->queue, marker);
  b->marker = marker;
  unlink_open_batch(vb, b);
}

hg_token *hg_vendor_stream_give_batched(hg_vendor_backend *vb, const hg_vendor_slot *s) {
  hg_vendor_batch *b = vb->open_batch;
  if (b && b->queue != s->queue) {
    close_batch(vb, b);
    b = NULL;
  }
  if (!b && (b = calloc(1, sizeof *b)) != NULL) {
    atomic_init(&b->refs, 1);
    atomic_init(&b->result, BATCH_PENDING);
    b->queue = s->queue;
    b->opened_ns = hg_host_clock_ns();
    vb->open_batch = b;
  }
  vb->last_queue = s->queue;
  vb->last_unevented = true;
  if (b) {
    atomic_fetch_add(&b->refs, 1);
    if (++b->ops >= HG_VENDOR_BATCH_MAX)
      close_batch(vb, b); /* flushes too */
    else
      count_unflushed(vb, s->queue);
  } else { /* no memory for a batch: an event now instead */
    count_unflushed(vb, s->queue);
    last_event_now(vb);
  }
  hg_token *token = b ? (hg_token *)((uintptr_t)b | 2u) : NULL;
  cl_event ev = b ? NULL : vb->last_event;
  if (ev)
    VCL(ev)->clRetainEvent(ev);
  pthread_mutex_unlock(&vb->stream_lock);
  return token ? token : (hg_token *)ev;
}

/* Takes stream_lock; without `wait` only when it is free. A thread polling for completions
 * must not queue behind a submission: the submitter would pay a wake-up on unlocking (16% of an
 * enqueue on PoCL here, perf of `bench-enqueue hetGPU stream`). */
static bool stream_lock(hg_vendor_backend *vb, bool wait) {
  if (wait)
    return pthread_mutex_lock(&vb->stream_lock) == 0;
  return pthread_mutex_trylock(&vb->stream_lock) == 0;
}

/* The batch's marker, retained (NULL: none), closing the batch with one when it is open.
 * False when the stream is busy or the open batch is young. Never blocks. */
static bool batch_marker(hg_vendor_backend *vb, hg_vendor_batch *b, cl_event *out) {
  if (!stream_lock(vb, false))
    return false;
  if (!b->marker && vb->open_batch == b) {
    if (hg_host_clock_ns() - b->opened_ns < HG_VENDOR_BATCH_AGE_NS) {
      pthread_mutex_unlock(&vb->stream_lock);
      return false;
    }
    close_batch(vb, b);
  }
  cl_event marker = b->marker;
  if (marker)
    VCL(marker)->clRetainEvent(marker);
  pthread_mutex_unlock(&vb->stream_lock);
  *out = marker;
  return true;
}

/* A thread waiting for an open batch closes it without a marker and waits with the vendor's
 * clFinish on its queue, which covers at least the batch's operations: a marker is one more
 * command for the device to run before the wait returns (`bench-enqueue hetGPU latency`, an
 * empty kernel and clFinish, on PoCL here: 43.8 -> 39.5 us against PoCL's own 31.8, medians of
 * three). Others waiting meanwhile do the same; a poll cannot tell until one has the result. */
cl_int hg_vendor_batch_wait(hg_vendor_backend *vb, hg_vendor_batch *b) {
  cl_int result = atomic_load_explicit(&b->result, memory_order_acquire);
  if (result != BATCH_PENDING)
    return result;
  pthread_mutex_lock(&vb->stream_lock);
  /* the device may run dry once this batch is done, unless a newer one is open behind it (a
   * queue's worker completing old entries while the application submits) */
  if (!vb->open_batch || vb->open_batch == b)
    vb->flush_ramp = 0;
  unlink_open_batch(vb, b);
  cl_event marker = b->marker;
  if (marker)
    VCL(marker)->clRetainEvent(marker);
  pthread_mutex_unlock(&vb->stream_lock);
  result = marker ? hg_vendor_wait(marker) : hg_vendor_error(VCL(b->queue)->clFinish(b->queue));
  atomic_store_explicit(&b->result, result, memory_order_release);
  return result;
}

bool hg_vendor_batch_done(hg_vendor_backend *vb, hg_vendor_batch *b) {
  if (atomic_load_explicit(&b->result, memory_order_acquire) != BATCH_PENDING)
    return true;
  cl_event marker;
  if (!batch_marker(vb, b, &marker) || !marker)
    return false; /* busy, young, or closed for a waiter's clFinish */
  bool done = hg_vendor_event_done(marker);
  VCL(marker)->clReleaseEvent(marker);
  return done;
}

void hg_vendor_batch_release(hg_vendor_batch *b) {
  if (atomic_fetch_sub(&b->refs, 1) != 1)
    return;
  if (b->marker)
    VCL(b->marker)->clReleaseEvent(b->marker);
  free(b);
}

bool hg_vendor_stream_flush(hg_backend *be, bool wait) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (!stream_lock(vb, wait))
    return false;
  if (wait)
    vb->flush_ramp = 0;
  if (vb->unflushed)
    flush_queue(vb, vb->unflushed_queue);
  pthread_mutex_unlock(&vb->stream_lock);
  return true;
}

void hg_vendor_stream_free(hg_vendor_backend *vb) {
  if (vb->open_batch)
    hg_vendor_batch_release(vb->open_batch);
  vb->open_batch = NULL;
}
