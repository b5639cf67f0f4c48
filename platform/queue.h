/* Command queues and the queue engine's per-queue state.
 *
 * Lifetime: obj.refcount counts the application's references; at 0 the handle is retired and
 * the queue is marked released (an implicit flush: the engine submits eagerly, so there is
 * nothing left to push). `holds` counts internal references (its events, its running worker)
 * plus one while the application holds any; the memory is freed when it reaches 0, which is
 * after every command has finished. */
#ifndef HETGPU_PLATFORM_QUEUE_H
#define HETGPU_PLATFORM_QUEUE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "platform/command.h"
#include "platform/object.h"

/* The host-queue properties the virtual device supports (CL_DEVICE_QUEUE_ON_HOST_PROPERTIES). */
#define HG_QUEUE_SUPPORTED_PROPERTIES (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)

struct _cl_command_queue {
  hg_object obj;
  atomic_uint holds;
  cl_context context; /* held */
  cl_device_id device;
  cl_command_queue_properties properties;
  cl_queue_properties *props_array; /* as given, zero-terminated; NULL when none */
  size_t props_array_len;           /* entries including the terminating 0 */

  pthread_mutex_t lock;
  /* the worker waits here for ready commands, stream work or release; threads waiting to
   * complete stream entries wait here for the completion role */
  pthread_cond_t cond;
  /* under lock */
  hg_command *ready_head, *ready_tail;   /* synchronous commands, dependencies resolved */
  hg_command *submit_head, *submit_tail; /* stream commands, dependencies resolved */
  hg_command *stream_head, *stream_tail; /* handed to the backend stream, not yet complete */
  hg_command *inflight;                  /* submitted, not finished (any order) */
  hg_command *spent;                     /* completed, their memory freed later (queue_engine.c) */
  size_t pending;                        /* number of commands in inflight */
  cl_event last_event;   /* in-order: the latest command's event (held) while it is unfinished */
  hg_command *last_cmd;  /* in-order: that command */
  cl_event last_barrier; /* out-of-order: the latest barrier's event (held) */
  uint64_t stream_seq;   /* the last stream position given out */
  uint64_t done_seq;     /* stream entries up to this position are complete */
  uint64_t pushed_seq;   /* the worker pushed the stream to the device up to here (stream_flush) */
  uint64_t pushed_ns;    /* when, hg_now_ns() */
  cl_ulong last_end;     /* END of the latest command, stream or synchronous (profiling) */
  bool submitting;       /* a thread is handing the submit list to the stream */
  bool submit_on_worker; /* the submit list's head blocks: the worker goes on submitting */
  bool worker_draining;  /* the worker submits what followed a blocking submission (queue_engine.c) */
  bool completing;       /* the completion role: one thread completes stream entries, in order */
  unsigned drivers;      /* threads waiting for an entry that complete the stream themselves */
  unsigned role_waiters; /* threads waiting on cond for the completion role */
  bool worker_idle;      /* the worker waits on cond for something to do */
  bool worker_deferring; /* the worker lets the stream run while submissions go on (queue_engine.c) */
  cl_ulong last_append_ns; /* when the latest stream entry was handed to the backend */
  bool worker_running;
  bool released;         /* the application dropped its last reference */
};

static inline bool hg_queue_in_order(cl_command_queue q) {
  return !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}
static inline bool hg_queue_profiling(cl_command_queue q) { return (q->properties & CL_QUEUE_PROFILING_ENABLE) != 0; }

void hg_queue_hold(cl_command_queue q);
void hg_queue_unhold(cl_command_queue q); /* never call with a lock held: may free the queue */
/* Engine side of queue release: marks it released so the worker exits once drained. */
void hg_queue_engine_release(cl_command_queue q);
/* Waits for every command enqueued on q so far (clFinish); CL_SUCCESS or an allocation error,
 * or CL_INVALID_OPERATION on a thread that drives q (a callback: platform/callback_guard.h). */
cl_int hg_queue_finish(cl_command_queue q);
/* Pushes to the device what the queue's backend holds back of its stream (clFlush). */
void hg_queue_flush(cl_command_queue q);

#endif
