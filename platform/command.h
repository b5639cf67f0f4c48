/* Commands and their execution: the interface between entry points that enqueue work and the
 * queue engine (platform/queue_engine.c) that runs it.
 *
 * An entry point validates its arguments, creates a command of its own payload type with
 * hg_command_create (which checks the event wait list and creates the command's event), fills
 * the payload, and calls hg_command_submit. The queue's worker thread runs `run` once every
 * dependency is complete (the wait list, and the previous command on an in-order queue, or the
 * last barrier on an out-of-order one), records profiling times around it, and sets the event
 * to CL_COMPLETE or to the negative error `run` returned. A command whose wait list holds a
 * failed event is not run: its event fails with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
#ifndef HETGPU_PLATFORM_COMMAND_H
#define HETGPU_PLATFORM_COMMAND_H

#include <stdbool.h>

#include "platform/object.h"

typedef struct hg_command hg_command;

struct hg_command {
  cl_command_queue queue;
  cl_command_type type;
  cl_event event; /* always created; the application gets a reference only if it asked */
  cl_uint num_deps;
  cl_event *deps; /* retained */
  /* Runs on the queue's worker thread: does the work synchronously; CL_SUCCESS or an error. */
  cl_int (*run)(hg_command *cmd);
  /* Releases what the payload holds (retained buffers, copies of arguments); may be NULL. */
  void (*cleanup)(hg_command *cmd);
  hg_command *next; /* queue engine bookkeeping */
  /* the payload follows: entry points embed hg_command as the first member of their struct */
};

/* Validates the wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT) and allocates a
 * command of `size` bytes (>= sizeof(hg_command)) with its event. */
cl_int hg_command_create(cl_command_queue queue, cl_command_type type, size_t size, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, hg_command **out);
/* Frees a command that was created but never submitted (an argument check failed). */
void hg_command_discard(hg_command *cmd);
/* Hands the command to its queue. Stores a new reference to its event in *event when event is
 * not NULL. When blocking, waits for completion and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * if a dependency failed, or the command's own error. */
cl_int hg_command_submit(hg_command *cmd, cl_event *event, bool blocking);

/* Validates a wait list without creating a command (clWaitForEvents-style checks for the
 * blocking host-side paths). */
cl_int hg_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *events);

#endif
