/* Events: the status machine every command and user event goes through, callbacks, waiting,
 * and profiling times. Used by the queue engine (platform/queue_engine.c).
 *
 * Lifetime: obj.refcount counts the application's references; when it drops to 0 the handle
 * is retired (invalid to the API). `holds` counts internal references (the command that owns
 * the event, commands waiting on it, queues' bookkeeping) plus one while the application holds
 * any; the memory is freed when it reaches 0. */
#ifndef HETGPU_PLATFORM_EVENT_H
#define HETGPU_PLATFORM_EVENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "platform/command.h"
#include "platform/object.h"

typedef struct hg_event_callback {
  void(CL_CALLBACK *fn)(cl_event event, cl_int status, void *user_data);
  void *user_data;
  cl_int type; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
  struct hg_event_callback *next;
} hg_event_callback;

enum { HG_T_QUEUED, HG_T_SUBMIT, HG_T_START, HG_T_END, HG_T_COMPLETE, HG_T_COUNT };

struct _cl_event {
  hg_object obj;
  atomic_uint holds;
  cl_context context;     /* held (hg_context_retain) */
  cl_command_queue queue; /* NULL for user events; held (hg_queue_hold) */
  cl_command_type type;
  bool profiling;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  /* under lock */
  cl_int status;
  bool finished;         /* terminal, dependents resolved and callbacks called: waiters may go */
  bool user_status_set;  /* clSetUserEventStatus was called */
  cl_ulong times[HG_T_COUNT];
  hg_event_callback *callbacks; /* in registration order */
  hg_dep_link *waiters;
  /* under the queue's lock: the command while it waits in the queue's stream (a thread waiting
   * for the event completes the stream up to it instead of waiting for the worker) */
  hg_command *stream_cmd;
};

/* CLOCK_MONOTONIC in nanoseconds: the profiling and host timer clock. */
cl_ulong hg_now_ns(void);

/* A new event with one application reference, status CL_QUEUED (user events: CL_SUBMITTED);
 * not in the handle registry until it is handed out (hg_object_list). */
cl_event hg_event_create(cl_context ctx, cl_command_queue queue, cl_command_type type);
void hg_event_hold(cl_event ev);
void hg_event_unhold(cl_event ev); /* never call with a lock held: may free the event */
/* Drops one application reference (clReleaseEvent's work). */
void hg_event_release_app(cl_event ev);

/* Moves the event forward to `status` (a later state or a negative error); ignored when the
 * event is already terminal. Calls the callbacks that became due, and on a terminal status
 * resolves the waiting commands and wakes waiting threads. The caller holds the event. */
void hg_event_set_status(cl_event ev, cl_int status);
/* True when no one but its command can see the event: the application never had it and nothing
 * else holds it (no wait, link or queue). On an in-order queue nothing can take a hold on such an
 * event any more (the queue's holds only go to later commands' events): its final status needs
 * no lock and no wake-up, for nobody reads it. */
bool hg_event_unobserved(cl_event ev);
/* Records the END profiling time (the command's work is done). */
void hg_event_mark_end(cl_event ev);
/* Records START and END measured elsewhere (the device's times mapped onto the host clock). */
void hg_event_set_run_times(cl_event ev, cl_ulong start, cl_ulong end);
/* Adds a waiting command; false (nothing added) when the event is already terminal, with its
 * status in *status. */
bool hg_event_add_waiter(cl_event ev, hg_dep_link *link, cl_int *status);
/* Blocks until the event is finished; returns its final status. */
cl_int hg_event_wait(cl_event ev);
/* Waits at most timeout_ns for the event to finish (the queue's worker completes it); true
 * when it did. */
bool hg_event_wait_for(cl_event ev, uint64_t timeout_ns);

/* The engine's side of a resolved dependency (platform/queue_engine.c). */
void hg_engine_dep_done(hg_command *cmd, bool failed);
/* Called by a thread about to wait for ev: when ev's command is in its queue's stream, completes
 * the stream up to it on this thread (platform/queue_engine.c). */
void hg_engine_help_wait(cl_event ev);
/* Called by a thread asking for ev's status: when the backend says ev's command has ended on
 * the device, completes the stream up to it on this thread, without blocking, so that the
 * status is as fresh as the vendor's own (hashcat polls it while its kernel runs). */
void hg_engine_help_poll(cl_event ev);

#endif
