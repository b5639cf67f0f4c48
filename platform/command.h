/* Commands and their execution: the interface between entry points that enqueue work and the
 * queue engine (platform/queue_engine.c) that runs it.
 *
 * An entry point validates its arguments, creates a command of its own payload type with
 * hg_command_create (which checks the event wait list and creates the command's event), fills
 * the payload, and calls hg_command_submit. The queue's worker thread runs `run` once every
 * dependency is complete (the wait list, and the previous command on an in-order queue, or the
 * last barrier on an out-of-order one), records profiling times around it, and sets the event
 * to CL_COMPLETE or to the negative error `run` returned. A command whose wait list holds a
 * failed event is not run: its event fails with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
 * Only the explicit wait list propagates failure: the implicit order of an in-order queue and
 * barriers do not (a failed command does not fail the commands after it).
 *
 * `cleanup` is called exactly once: after `run` (before the event is set complete, so payload
 * references are dropped by the time the application sees completion), when the command is
 * skipped because a dependency failed, or by hg_command_discard. */
#ifndef HETGPU_PLATFORM_COMMAND_H
#define HETGPU_PLATFORM_COMMAND_H

#include <stdatomic.h>
#include <stdbool.h>

#include "platform/object.h"

typedef struct hg_command hg_command;
typedef struct hg_dep_link hg_dep_link;

struct hg_command {
  cl_command_queue queue;
  cl_command_type type;
  cl_event event; /* always created; the application gets a reference only if it asked */
  cl_uint num_deps;
  cl_event *deps; /* the explicit wait list, held internally */
  /* Runs on the queue's worker thread: does the work synchronously; CL_SUCCESS or an error.
   * NULL: nothing to do (markers, barriers). */
  cl_int (*run)(hg_command *cmd);
  /* Releases what the payload holds (retained buffers, copies of arguments); may be NULL. */
  void (*cleanup)(hg_command *cmd);

  /* queue engine bookkeeping: entry points leave these alone */
  hg_command *next;                 /* the queue's ready list */
  hg_command *inflight_prev, *inflight_next; /* submitted and not finished */
  atomic_uint pending_deps;         /* unresolved dependencies, +1 while being submitted */
  atomic_bool dep_failed;           /* an explicit dependency ended in an error */
  hg_dep_link *links;               /* one per dependency (explicit, then implicit) */
  cl_uint num_links;
  /* the payload follows: entry points embed hg_command as the first member of their struct */
};

/* Validates the wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT) and allocates a
 * zeroed command of `size` bytes (>= sizeof(hg_command)) with its event. */
cl_int hg_command_create(cl_command_queue queue, cl_command_type type, size_t size, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, hg_command **out);
/* Frees a command that was created but never submitted (an argument check failed); calls its
 * cleanup if set. */
void hg_command_discard(hg_command *cmd);
/* Hands the command to its queue; the engine owns and frees it from here on. Stores a new
 * reference to its event in *event when event is not NULL. When blocking, waits for
 * completion and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if a dependency failed,
 * or the command's own error. */
cl_int hg_command_submit(hg_command *cmd, cl_event *event, bool blocking);

/* Validates an enqueue call's wait list without creating a command, with the enqueue error
 * codes: CL_INVALID_EVENT_WAIT_LIST (NULL list with a count, list with count 0, an invalid
 * event), CL_INVALID_CONTEXT (an event of another context). */
cl_int hg_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *events);

#endif
