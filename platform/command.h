/* Commands and their execution: the interface between entry points that enqueue work and the
 * queue engine (platform/queue_engine.c) that runs it.
 *
 * An entry point validates its arguments, creates a command of its own payload type with
 * hg_command_create (which checks the event wait list), fills the payload, and calls
 * hg_command_submit (which makes the command's event, unless nobody can wait for it). Once every dependency is complete (the wait list,
 * and the previous command on an in-order queue, or the last barrier on an out-of-order one)
 * the command runs in one of two ways:
 *  - `run` (synchronous) on the queue's worker thread, which records profiling times around
 *    it and sets the event to CL_COMPLETE or to the negative error `run` returned;
 *  - `submit` (asynchronous, when the command has one and the backend has asynchronous
 *    operations, devices/backend.h): called in queue order on whichever thread made the
 *    command ready (often the application's, inside its enqueue call), it hands the work to
 *    the backend's in-order stream and returns a completion token; the command completes when
 *    the token does, observed in stream order. On an in-order queue such a command is submitted
 *    as soon as the previous command was submitted to the stream, without waiting for it to
 *    finish: the stream keeps the order. `submit` must therefore do everything through the
 *    backend (which orders it after the earlier work) and never read earlier results on the
 *    host. Commands with neither (markers, barriers) complete in stream order too.
 * A command whose wait list holds a failed event is not run: its event fails with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. Only the explicit wait list propagates
 * failure: the implicit order of an in-order queue and barriers do not (a failed command does
 * not fail the commands after it).
 *
 * `cleanup` is called exactly once: after the work is done (before the event is set complete,
 * so payload references are dropped by the time the application sees completion), when the
 * command is skipped because a dependency failed, or by hg_command_discard. */
#ifndef HETGPU_PLATFORM_COMMAND_H
#define HETGPU_PLATFORM_COMMAND_H

#include <stdatomic.h>
#include <stdbool.h>

#include "devices/backend.h"
#include "platform/object.h"

typedef struct hg_command hg_command;
typedef struct hg_dep_link hg_dep_link;

/* A command waiting for an event to finish (platform/event.c keeps the event's list). */
struct hg_dep_link {
  hg_command *cmd;
  bool explicit_dep; /* from the wait list: a failure propagates */
  cl_event event;    /* held by the command until it is freed */
  hg_dep_link *next;
};

/* Commands with up to this many explicit or implicit dependencies need no extra allocation. */
#define HG_COMMAND_INLINE_DEPS 4

struct hg_command {
  cl_command_queue queue;
  cl_command_type type;
  /* Created by hg_command_submit; the application gets a reference only if it asked. An
   * eventless command (in order, streamed, nobody asked) has none until a later command or
   * clFinish must wait for it (queue_engine.c, last_event_locked): under the queue's lock. */
  cl_event event;
  cl_uint num_deps;
  cl_event *deps; /* the explicit wait list, held internally */
  /* Does the work synchronously; CL_SUCCESS or an error. NULL: nothing to do (markers,
   * barriers). */
  cl_int (*run)(hg_command *cmd);
  /* The asynchronous form of run (may be NULL): CL_SUCCESS with *token set (NULL when the work
   * is already done), or an error with nothing pending. */
  cl_int (*submit)(hg_command *cmd, hg_token **token);
  /* Optional, with submit: true when submitting this command will run it to its end where it is
   * submitted (a stoppable kernel launch). The engine then hands it, and what follows it on the
   * queue, to the queue's worker, so the application's enqueue returns at once. Asked once,
   * just before the submission, on the thread that would submit. */
  bool (*submit_blocks)(hg_command *cmd);
  /* Optional, with submit: called once the backend took the work asynchronously (a token),
   * on the submitting thread with no lock held; drops what only the submission needed. */
  void (*submitted)(hg_command *cmd);
  /* Releases what the payload holds (retained buffers, copies of arguments); may be NULL. */
  void (*cleanup)(hg_command *cmd);

  /* queue engine bookkeeping: entry points leave these alone */
  hg_command *next;                 /* the queue's ready, submit or stream list */
  hg_command *inflight_prev, *inflight_next; /* submitted and not finished */
  atomic_uint pending_deps;         /* unresolved dependencies, +1 while being submitted */
  atomic_bool dep_failed;           /* an explicit dependency ended in an error */
  hg_dep_link *links;               /* one per dependency on an event (explicit, then implicit) */
  cl_uint num_links;
  bool streamed_kind;               /* goes through the stream (submit, or nothing to run) */
  bool unplaced;                    /* run needs no backend (a context migration): not placed */
  bool pooled;                      /* its memory is a block of the command pool */
  bool eventless;                   /* submitted without an event (set once, at submission) */
  bool timed;                       /* its event profiles (set once, at submission) */
  hg_backend *backend;              /* where it runs: set by hg_command_place */
  hg_command *stopped_next;         /* the gate's list of commands stopped at a safe point */
  /* under the queue's lock */
  bool streamed;                    /* handed to the stream (or completed without it) */
  bool completed;                   /* its event is final; only the memory remains */
  bool device_done;                 /* the token completed (or there is none) */
  bool retiring;                    /* its completion has begun (stream_retire) */
  hg_command *successor;            /* in-order: the next command, waiting for this one to be
                                       streamed or finished */
  unsigned stream_holds;            /* stream list membership + threads waiting on the token */
  uint64_t seq;                     /* position in the queue's stream */
  uint64_t wait_seq;                /* the latest stream entry with a token up to this one */
  hg_command *wait_on;              /* that entry (valid while its seq is not completed) */
  hg_token *token;
  cl_int stream_status;             /* how it ended: CL_COMPLETE or a negative error */
  cl_ulong t_run, t_done;           /* host times: handed to the stream, seen complete */
  uint64_t dev_start, dev_end;      /* backend timestamps (0: unknown) */
  uint64_t sync_device_ns;          /* submit ran it synchronously (no token): its device time, 0 unknown */
  /* filled as they are used, not cleared (hg_command_create) */
  hg_dep_link inline_links[HG_COMMAND_INLINE_DEPS];
  cl_event inline_deps[HG_COMMAND_INLINE_DEPS];
  /* the payload follows: entry points embed hg_command as the first member of their struct */
};

/* A command of up to this many bytes takes a block of a pool (platform/block_pool.h): a burst of
 * launches frees its commands together at the wait. */
#define HG_COMMAND_BLOCK_SIZE 1024

/* Validates the wait list (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT) and allocates a
 * command (its event comes with hg_command_submit): `size` bytes (>= sizeof(hg_command)) that
 * start zeroed. Up to HG_COMMAND_BLOCK_SIZE the command takes a whole block, so a payload may
 * keep storage it fills itself after those `size` bytes (kernel_command's argument copy): not
 * clearing it spares the cache lines. */
cl_int hg_command_create(cl_command_queue queue, cl_command_type type, size_t size, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, hg_command **out);
/* Frees a command that was created but never submitted (an argument check failed); calls its
 * cleanup if set. */
void hg_command_discard(hg_command *cmd);
/* True when the command's event profiles: the backend will be asked for its device times. */
bool hg_command_timed(const hg_command *cmd);
/* Hands the command to its queue; the engine owns and frees it from here on. Stores a new
 * reference to its event in *event when event is not NULL. When blocking, waits for
 * completion and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if a dependency failed,
 * or the command's own error; a blocking command on a thread that drives its queue (a callback:
 * platform/callback_guard.h) is discarded with CL_INVALID_OPERATION. */
cl_int hg_command_submit(hg_command *cmd, cl_event *event, bool blocking);

/* Validates an enqueue call's wait list without creating a command, with the enqueue error
 * codes: CL_INVALID_EVENT_WAIT_LIST (NULL list with a count, list with count 0, an invalid
 * event), CL_INVALID_CONTEXT (an event of another context). */
cl_int hg_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *events);

#endif
