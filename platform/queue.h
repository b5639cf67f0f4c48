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
  pthread_cond_t cond; /* the worker waits here for ready commands or release */
  /* under lock */
  hg_command *ready_head, *ready_tail; /* dependencies resolved, waiting to run */
  hg_command *inflight;                /* submitted, not finished (any order) */
  size_t pending;                      /* number of commands in inflight */
  cl_event last_event;   /* in-order: the latest command's event (held) */
  cl_event last_barrier; /* out-of-order: the latest barrier's event (held) */
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
/* Waits for every command enqueued on q so far (clFinish); CL_SUCCESS or an allocation error. */
cl_int hg_queue_finish(cl_command_queue q);

#endif
