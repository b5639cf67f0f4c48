/* The queue engine: commands, their dependencies, the backend stream, and one worker thread
 * per queue.
 *
 * A command's dependencies are its wait list plus an implicit one: the previous command on an
 * in-order queue; on an out-of-order queue the latest barrier, and for a marker or barrier with
 * an empty wait list every command still in flight. Each dependency on an event is a link on
 * that event; a counter (one per link, one for the in-order link below, plus one while the
 * command is being submitted) reaches zero when all are resolved, and whoever brings it there
 * makes the command ready.
 *
 * Two ways to run (platform/command.h):
 *  - synchronous commands go to the queue's ready list; the worker runs them in that order.
 *  - stream commands (an asynchronous `submit` on a backend that has asynchronous operations,
 *    or nothing to run: markers, barriers) go to the submit list, which the thread that made
 *    one ready hands to the backend in order ("submitting": one thread at a time per queue;
 *    others only append). Each then sits in the queue's stream list until its token
 *    completes; entries complete strictly in stream order, by one thread at a time (the
 *    completion role): the worker, or a thread waiting for one of the entries (clFinish,
 *    clWaitForEvents, a blocking command), which then completes the stream up to its entry
 *    itself instead of waiting for the worker to do it and wake it. An entry with nothing
 *    pending completes at once on the submitting thread when the stream is empty.
 * On an in-order queue a stream command does not wait for the previous command to finish,
 * only to be handed to the stream (or to finish, when it is synchronous): that in-order link is
 * kept on the previous command (`successor`), not on its event. A synchronous command waits
 * for the previous command's event as before, which completes only after every earlier stream
 * entry. Buffer bookkeeping happens in `submit`, in stream order.
 *
 * Submission is eager: a command is CL_SUBMITTED as soon as it is enqueued and commands never
 * wait for a flush. A backend may hold a few submissions back from the device to batch its
 * vendor's flushes (backend.h stream_flush): clFlush pushes them, and so does the worker once
 * submissions pause.
 *
 * Locks: a queue lock and an event lock are never held together, except that the queue lock
 * is held while taking holds (atomics). No lock is held while calling run, submit, cleanup,
 * backend waits or user callbacks, nor while dropping a hold (which may free the object). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform/block_pool.h"
#include "platform/callback_guard.h"
#include "platform/command.h"
#include "platform/event.h"
#include "common/log.h"
#include "platform/placement.h"
#include "platform/platform.h"
#include "platform/queue.h"

cl_int hg_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *events) {
  if ((num_events > 0 && !events) || (num_events == 0 && events))
    return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < num_events; i++)
    if (!hg_object_is(events[i], HG_OBJ_EVENT))
      return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < num_events; i++)
    if (events[i]->context != ctx)
      return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

static hg_block_pool command_blocks = HG_BLOCK_POOL_INIT(HG_COMMAND_BLOCK_SIZE, 1024);

static void command_block_free(hg_command *cmd) {
  if (cmd->pooled)
    hg_block_pool_put(&command_blocks, cmd);
  else
    free(cmd);
}

cl_int hg_command_create(cl_command_queue queue, cl_command_type type, size_t size, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, hg_command **out) {
  *out = NULL;
  HG_CHECK_QUEUE(queue, CL_INVALID_COMMAND_QUEUE);
  cl_int err = hg_check_wait_list(queue->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  if (size < sizeof(hg_command))
    size = sizeof(hg_command);
  /* a pooled block is cleared where it is read before written: the header up to its inline
   * dependency arrays (filled as they are used) and the payload's first `size` bytes */
  hg_command *cmd = size <= HG_COMMAND_BLOCK_SIZE ? hg_block_pool_get(&command_blocks, offsetof(hg_command, inline_links))
                                                  : calloc(1, size);
  if (!cmd)
    return CL_OUT_OF_HOST_MEMORY;
  cmd->pooled = size <= HG_COMMAND_BLOCK_SIZE;
  if (cmd->pooled)
    memset(cmd + 1, 0, size - sizeof(hg_command));
  cmd->queue = queue;
  cmd->type = type;
  if (num_events_in_wait_list) {
    cmd->deps = num_events_in_wait_list <= HG_COMMAND_INLINE_DEPS
                    ? cmd->inline_deps
                    : malloc(num_events_in_wait_list * sizeof *cmd->deps);
    if (!cmd->deps)
      goto oom;
    for (cl_uint i = 0; i < num_events_in_wait_list; i++) {
      cmd->deps[i] = event_wait_list[i];
      hg_event_hold(cmd->deps[i]);
      cmd->num_deps++;
    }
  }
  hg_queue_hold(queue); /* the command keeps its queue alive until it is freed */
  *out = cmd;
  return CL_SUCCESS;
oom:
  for (cl_uint i = 0; i < cmd->num_deps; i++)
    hg_event_unhold(cmd->deps[i]);
  if (cmd->deps != cmd->inline_deps)
    free(cmd->deps);
  command_block_free(cmd);
  return CL_OUT_OF_HOST_MEMORY;
}

/* Frees the command's own memory and references (after it finished or was discarded). */
static void command_free(hg_command *cmd) {
  if (cmd->cleanup) {
    cmd->cleanup(cmd);
    cmd->cleanup = NULL;
  }
  if (cmd->token)
    cmd->backend->ops->token_release(cmd->backend, cmd->token);
  for (cl_uint i = 0; i < cmd->num_links; i++)
    hg_event_unhold(cmd->links[i].event);
  if (cmd->links != cmd->inline_links)
    free(cmd->links);
  for (cl_uint i = 0; i < cmd->num_deps; i++)
    hg_event_unhold(cmd->deps[i]);
  if (cmd->deps != cmd->inline_deps)
    free(cmd->deps);
  cl_command_queue q = cmd->queue;
  cl_event ev = cmd->event;
  command_block_free(cmd);
  if (ev)
    hg_event_unhold(ev);
  hg_queue_unhold(q);
}

bool hg_command_timed(const hg_command *cmd) { return cmd->timed; }

void hg_command_discard(hg_command *cmd) {
  if (!cmd)
    return;
  cl_event ev = cmd->event;
  if (!ev) {
    command_free(cmd);
    return;
  }
  hg_event_hold(ev);
  command_free(cmd);
  hg_event_release_app(ev); /* the application never saw it */
  hg_event_unhold(ev);
}

/* ---- the worker ---- */

static void command_execute(hg_command *cmd);
static void *worker_main(void *arg);

/* Makes sure the queue has a worker and wakes it; false when no thread can be started. Under
 * q->lock. */
static bool worker_ensure(cl_command_queue q) {
  if (q->worker_running) {
    if (q->worker_idle)
      pthread_cond_broadcast(&q->cond); /* shared with role waiters: wake them all */
    return true;
  }
  pthread_attr_t attr;
  pthread_t thread;
  int rc = pthread_attr_init(&attr);
  if (rc == 0) {
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    hg_queue_hold(q); /* dropped by the worker as it exits */
    rc = pthread_create(&thread, &attr, worker_main, q);
    pthread_attr_destroy(&attr);
    if (rc == 0)
      q->worker_running = true;
    else
      atomic_fetch_sub_explicit(&q->holds, 1, memory_order_relaxed); /* we still hold another */
  }
  if (rc != 0)
    HG_LOG(HG_LOG_SCHED, "queue %p: cannot start a worker (%d); running inline", (void *)q, rc);
  return rc == 0;
}

/* The queue forgets a command whose event is final. Under q->lock; the events to unhold go to
 * drop, and the in-order successor still waiting for this command is returned (to resolve
 * after unlocking). */
static hg_command *queue_forget_locked(cl_command_queue q, hg_command *cmd, cl_event drop[2]) {
  cl_event ev = cmd->event;
  if (cmd->inflight_prev)
    cmd->inflight_prev->inflight_next = cmd->inflight_next;
  else
    q->inflight = cmd->inflight_next;
  if (cmd->inflight_next)
    cmd->inflight_next->inflight_prev = cmd->inflight_prev;
  q->pending--;
  if (q->last_cmd == cmd) {
    drop[0] = q->last_event;
    q->last_event = NULL;
    q->last_cmd = NULL;
  }
  if (q->last_barrier == ev) {
    drop[1] = ev;
    q->last_barrier = NULL;
  }
  hg_command *successor = cmd->successor;
  cmd->successor = NULL;
  cmd->completed = true;
  if (q->released && q->pending == 0)
    pthread_cond_broadcast(&q->cond);
  return successor;
}

static void drop_events(cl_event drop[2]) {
  for (int i = 0; i < 2; i++)
    if (drop[i])
      hg_event_unhold(drop[i]);
}

/* The event of an in-order queue's latest unfinished command, made now when that command is
 * eventless: nobody asked for it until a later synchronous command or clFinish had to wait for
 * it. Under q->lock; NULL when there is no such command, or no memory (*oom set). */
static cl_event last_event_locked(cl_command_queue q, bool *oom) {
  hg_command *c = q->last_cmd;
  if (!c || q->last_event)
    return q->last_event;
  cl_event ev = hg_event_create(q->context, q, c->type);
  if (!ev) {
    *oom = true;
    return NULL;
  }
  ev->profiling = false; /* its times were never asked for */
  ev->status = CL_SUBMITTED;
  hg_event_hold(ev); /* the command's */
  hg_event_hold(ev); /* the queue's (last_event) */
  hg_event_release_app(ev); /* nobody else has it: not the last hold, nothing freed here */
  /* in the stream list and not yet completing: a wait for it completes the stream up to it;
   * once stream_retire took the command, it sets this event's status itself */
  if (c->seq && !c->retiring)
    ev->stream_cmd = c;
  c->event = ev;
  q->last_event = ev;
  return ev;
}

/* ---- the stream ---- */

/* The queue whose worker this thread is (NULL on other threads). */
static _Thread_local cl_command_queue worker_of;

/* Hands one ready stream command to the backend (no lock held). */
static void stream_one(hg_command *c) {
  cl_int status = CL_COMPLETE;
  hg_token *token = NULL;
  hg_drive_enter(c->queue); /* CL_RUNNING callbacks run here, before the later commands are handed over */
  if (atomic_load_explicit(&c->dep_failed, memory_order_relaxed)) {
    status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  } else {
    c->t_run = hg_now_ns();
    if (!c->eventless) /* one made for it later is not seen running */
      hg_event_set_status(c->event, CL_RUNNING);
    if (c->submit) {
      cl_int r = hg_command_dispatch(c, &token);
      if (r != CL_SUCCESS) {
        status = r;
        token = NULL;
      }
      if (!token) { /* done where it was submitted (a stoppable launch): it ended by now */
        c->t_done = hg_now_ns();
        if (c->sync_device_ns && c->sync_device_ns <= c->t_done) {
          c->dev_start = c->t_done - c->sync_device_ns;
          c->dev_end = c->t_done;
        }
      }
    }
  }
  hg_drive_leave();
  if (token && c->submitted)
    c->submitted(c);
  c->token = token;
  c->stream_status = status;
  c->device_done = token == NULL;
}

/* Waits (no lock held) for an entry's token and records how it ended, unless another thread
 * recorded it first. The caller keeps the entry alive (completion role or a stream hold). */
static void entry_wait_device(cl_command_queue q, hg_command *c) {
  uint64_t start = 0, end = 0;
  bool timed = c->timed; /* the backend's timestamps cost extra queries */
  cl_int r = c->backend->ops->token_wait(c->backend, c->token, timed ? &start : NULL, timed ? &end : NULL);
  cl_ulong now = hg_now_ns();
  pthread_mutex_lock(&q->lock);
  if (!c->device_done) {
    c->device_done = true;
    c->dev_start = start;
    c->dev_end = end;
    c->t_done = now;
    if (r != CL_SUCCESS && c->stream_status == CL_COMPLETE)
      c->stream_status = hg_backend_result(c->backend, r);
  }
  pthread_mutex_unlock(&q->lock);
}

/* Drops a stream hold taken under q->lock; true when it was the last one and freed the entry
 * (completed by another thread meanwhile). Under q->lock (released meanwhile). */
static bool entry_unhold(cl_command_queue q, hg_command *c) {
  if (--c->stream_holds)
    return false;
  pthread_mutex_unlock(&q->lock);
  command_free(c);
  pthread_mutex_lock(&q->lock);
  return true;
}

/* Waits for an entry's token without the completion role. Under q->lock (released meanwhile);
 * the entry may be completed by another thread during the wait: the last hold frees it. */
static void entry_wait_held(cl_command_queue q, hg_command *c) {
  c->stream_holds++;
  pthread_mutex_unlock(&q->lock);
  entry_wait_device(q, c);
  pthread_mutex_lock(&q->lock);
  entry_unhold(q, c);
}

/* Whether the entry's device work has ended, asked without blocking (false when its backend
 * cannot tell or another thread freed the entry meanwhile); when it has, records how (the
 * backend's wait returns at once), so that the entry can complete. Under q->lock (released
 * meanwhile, the entry held as by entry_wait_held). */
static bool entry_settled(cl_command_queue q, hg_command *c) {
  if (c->device_done)
    return true;
  bool (*done)(hg_backend *, hg_token *) = c->backend->ops->token_done;
  if (!done)
    return false;
  c->stream_holds++;
  pthread_mutex_unlock(&q->lock);
  bool ended = done(c->backend, c->token);
  if (ended)
    entry_wait_device(q, c);
  pthread_mutex_lock(&q->lock);
  return !entry_unhold(q, c) && ended;
}

/* START and END of a completed entry. The backend's timestamps (already on the host clock) are
 * kept inside the bounds every entry gives: the work cannot start before it was handed over
 * (t_run) nor end after it was seen complete (t_done). The stream runs its entries one after
 * the other, so an entry starts no earlier than the previous one ended (q->last_end); an entry
 * without device times takes [lo, t_done] (a marker, never done: [lo, lo]). Device times outside
 * the bounds (the two clocks' offset is known to tens of microseconds) are moved into them
 * whole: END - START stays what the device measured, as the vendor's own event says. */
static void entry_times(cl_command_queue q, const hg_command *c, cl_ulong *start, cl_ulong *end) {
  cl_ulong lo = c->t_run > q->last_end ? c->t_run : q->last_end;
  cl_ulong hi = c->t_done > lo ? c->t_done : lo;
  cl_ulong s = lo, e = hi;
  if (c->dev_end && c->dev_end >= c->dev_start) {
    cl_ulong length = c->dev_end - c->dev_start;
    if (length > hi - lo)
      length = hi - lo;
    s = c->dev_start < lo ? lo : c->dev_start > hi - length ? hi - length : c->dev_start;
    e = s + length;
  }
  *start = s;
  *end = e;
  q->last_end = *end;
}

/* Entries retired together: one pass of the queue's lock for them all, not three each (a
 * clFinish after a burst retires the burst once the device is done: that work is the wait's). */
#define RETIRE_RUN 32

/* Spent commands a submission frees (spent_take): two for each one retired keeps the list short. */
#define SPENT_PER_SUBMIT 2

/* Completes n stream entries whose device work has ended, in stream order: the first n of the
 * stream list, or one entry that never joined it. Called with q->lock and the completion role
 * held; the lock is released meanwhile. */
static void stream_retire(cl_command_queue q, hg_command **run, size_t n) {
  cl_ulong start[RETIRE_RUN], end[RETIRE_RUN];
  bool timed[RETIRE_RUN], seen[RETIRE_RUN], had_event[RETIRE_RUN];
  bool in_order = hg_queue_in_order(q);
  for (size_t i = 0; i < n; i++) {
    cl_event ev = run[i]->event;
    had_event[i] = ev != NULL;
    run[i]->retiring = true; /* an event made for it from now on gets its status below */
    /* an event nobody can see (an untimed launch's, not the queue's last) keeps its status: its
     * lock and broadcast were a third of what each entry cost a clFinish after a burst. Out of
     * order, a marker may still link to it from the in-flight list. */
    seen[i] = ev && (!in_order || !hg_event_unobserved(ev));
    timed[i] = run[i]->timed && run[i]->stream_status == CL_COMPLETE;
    if (timed[i])
      entry_times(q, run[i], &start[i], &end[i]);
    /* A wait for one of them now only waits for its status: a callback of an earlier one in
     * the run may wait for a later one this thread already completed. */
    if (ev)
      ev->stream_cmd = NULL;
  }
  pthread_mutex_unlock(&q->lock);

  hg_drive_enter(q); /* this thread holds the completion role: the stream waits for it */
  for (size_t i = 0; i < n; i++) {
    hg_command *c = run[i];
    if (timed[i])
      hg_event_set_run_times(c->event, start[i], end[i]);
    if (c->cleanup) {
      /* Payload references go before the application can observe completion. */
      c->cleanup(c);
      c->cleanup = NULL;
    }
    if (seen[i])
      hg_event_set_status(c->event, c->stream_status); /* resolves dependents, calls callbacks, wakes waiters */
  }
  hg_drive_leave();

  cl_event drop[RETIRE_RUN][2], late[RETIRE_RUN];
  cl_int late_status[RETIRE_RUN];
  hg_command *successor[RETIRE_RUN];
  bool free_now[RETIRE_RUN];
  bool on_worker = worker_of == q; /* a thread-local read: a call in this shared library */
  pthread_mutex_lock(&q->lock);
  for (size_t i = 0; i < n; i++) {
    hg_command *c = run[i];
    /* an eventless command whose event was made while the lock was let go (a clFinish waits) */
    late[i] = had_event[i] ? NULL : c->event;
    if (late[i]) {
      hg_event_hold(late[i]);
      late_status[i] = c->stream_status;
    }
    if (q->stream_head == c) {
      q->stream_head = c->next;
      if (!q->stream_head)
        q->stream_tail = NULL;
      q->done_seq = c->seq;
    }
    drop[i][0] = drop[i][1] = NULL;
    successor[i] = queue_forget_locked(q, c, drop[i]); /* NULL: resolved when streamed */
    free_now[i] = --c->stream_holds == 0;
    if (free_now[i] && q->worker_running && !on_worker) { /* the worker frees it, or a submission */
      c->next = q->spent;
      q->spent = c;
      free_now[i] = false;
    }
  }
  pthread_mutex_unlock(&q->lock);
  for (size_t i = 0; i < n; i++) {
    if (late[i]) {
      hg_event_set_status(late[i], late_status[i]);
      hg_event_unhold(late[i]);
    }
    drop_events(drop[i]);
    if (free_now[i])
      command_free(run[i]);
    if (successor[i])
      hg_engine_dep_done(successor[i], false);
  }
  pthread_mutex_lock(&q->lock);
}

/* Commands a waiting thread retired are freed later (their event's and their own memory, the
 * backend's token, their holds on events and the queue): a clFinish after a burst returns once the
 * statuses are set and the payloads' references dropped, instead of also freeing every command
 * after the device ended (some 300 instructions each; on the H200 the time inside a clFinish
 * after 50 launches went from a median 22 to 14 us: docs/performance.md, thirtieth session).
 * The next submissions free them a few at a time, the worker the rest
 * before it waits or exits. Detaches up to max of them under q->lock; free them with spent_free. */
static hg_command *spent_take(cl_command_queue q, unsigned max) {
  hg_command *taken = q->spent, *last = NULL;
  for (hg_command *c = taken; c && max; c = c->next, max--)
    last = c;
  if (!last)
    return NULL;
  q->spent = last->next;
  last->next = NULL;
  return taken;
}

static void spent_free(hg_command *list) {
  for (hg_command *c = list, *next; c; c = next) {
    next = c->next;
    command_free(c);
  }
}

/* Whether an entry not yet seen done ended with the previous one: equal tokens complete
 * together (devices/backend.h), so it takes the previous one's ending without asking the
 * backend. Untimed entries only (a timed one has its own token anyway). Under q->lock. */
static bool ended_with(hg_command *c, const hg_command *prev) {
  if (!c->token || c->token != prev->token || c->timed)
    return false;
  c->device_done = true;
  c->t_done = prev->t_done;
  c->stream_status = prev->stream_status;
  return true;
}

/* Gives the completion role back (under q->lock), waking only who needs it: threads waiting
 * for the role, and an idle worker when stream entries remain that no waiting thread drives. */
static void role_release(cl_command_queue q) {
  q->completing = false;
  if (q->role_waiters || (q->worker_idle && q->stream_head && !q->drivers))
    pthread_cond_broadcast(&q->cond);
}

/* Waits on q->cond for the completion role to be given back (under q->lock). */
static void role_wait(cl_command_queue q) {
  q->role_waiters++;
  pthread_cond_wait(&q->cond, &q->lock);
  q->role_waiters--;
}

/* Completes stream entries in order, with q->lock and the completion role held: through
 * `target` (waiting for the device where needed), or with target NULL as many as are done. */
static void stream_complete_run(cl_command_queue q, hg_command *target) {
  for (hg_command *h; (h = q->stream_head);) {
    if (!h->device_done) {
      if (!target)
        break;
      pthread_mutex_unlock(&q->lock);
      entry_wait_device(q, h); /* nobody else completes it: the role is ours */
      pthread_mutex_lock(&q->lock);
    }
    hg_command *run[RETIRE_RUN];
    size_t n = 0;
    bool reached = false;
    for (hg_command *c = h; c && n < RETIRE_RUN && !reached; c = c->next) {
      if (!c->device_done && (n == 0 || !ended_with(c, run[n - 1])))
        break;
      run[n++] = c;
      reached = c == target;
    }
    stream_retire(q, run, n);
    if (reached)
      break;
  }
}

/* stream_complete_run with the completion role taken (it is free) and given back after. Under
 * q->lock. */
static void stream_complete_with_role(cl_command_queue q, hg_command *target) {
  q->completing = true;
  stream_complete_run(q, target);
  role_release(q);
}

/* Adds a submitted entry to the stream list. Under q->lock; false when the queue has no
 * worker to complete it. */
static bool stream_append_locked(cl_command_queue q, hg_command *c) {
  c->seq = ++q->stream_seq;
  q->last_append_ns = c->t_run;
  c->stream_holds = 1;
  if (c->token) {
    c->wait_on = c;
    c->wait_seq = c->seq;
  } else if (q->stream_tail) {
    c->wait_on = q->stream_tail->wait_on;
    c->wait_seq = q->stream_tail->wait_seq;
  }
  c->next = NULL;
  if (q->stream_tail)
    q->stream_tail->next = c;
  else
    q->stream_head = c;
  q->stream_tail = c;
  if (c->event)
    c->event->stream_cmd = c;
  if (q->drivers && q->worker_running)
    return true; /* a waiting thread completes the stream and hands the rest to the worker */
  return worker_ensure(q);
}

/* Whether the queue's worker, holding the submitter role, is submitting what followed a blocking
 * submission (not the blocking one itself). Meanwhile an in-order enqueue waits for it to end
 * (hg_command_submit): else every command the application enqueues during a burst would wait
 * for its predecessor's submission on the worker, which stays the submitter to the burst's end,
 * a hand-off per command (callgrind on NVIDIA, docs/performance.md). Under q->lock. */
static void worker_drains(cl_command_queue q, bool draining) {
  if (q->worker_draining == draining)
    return;
  q->worker_draining = draining;
  if (!draining)
    pthread_cond_broadcast(&q->cond);
}

/* Hands the submit list to the backend in order (q->lock held, q->submitting set by the caller).
 * On a thread other than the queue's worker, a command whose submission blocks stops the loop:
 * the worker goes on from it (q->submit_on_worker) and q->submitting stays set for it. Returns
 * whether that happened; *no_worker: an entry found no worker to complete it. */
static bool submit_list_locked(cl_command_queue q, bool *no_worker) {
  for (hg_command *c; (c = q->submit_head);) {
    bool blocks = false;
    if (c->submit_blocks && !atomic_load_explicit(&c->dep_failed, memory_order_relaxed)) {
      pthread_mutex_unlock(&q->lock); /* c stays the head: other threads only append */
      blocks = c->submit_blocks(c);
      pthread_mutex_lock(&q->lock);
      if (blocks && worker_of != q && worker_ensure(q)) {
        q->submit_on_worker = true;
        return true;
      }
    }
    if (worker_of == q)
      worker_drains(q, !blocks);
    q->submit_head = c->next;
    if (!q->submit_head)
      q->submit_tail = NULL;
    pthread_mutex_unlock(&q->lock);
    stream_one(c);
    pthread_mutex_lock(&q->lock);
    c->streamed = true;
    hg_command *successor = c->successor;
    c->successor = NULL;
    if (!c->token && !q->stream_head && !q->completing) {
      /* nothing pending before it or in it: complete it here */
      q->completing = true;
      c->stream_holds = 1;
      stream_retire(q, &c, 1);
      role_release(q);
    } else if (!stream_append_locked(q, c)) {
      *no_worker = true;
    }
    if (successor) {
      pthread_mutex_unlock(&q->lock);
      hg_engine_dep_done(successor, false); /* joins the submit list: this loop submits it */
      pthread_mutex_lock(&q->lock);
    }
  }
  if (worker_of == q)
    worker_drains(q, false);
  return false;
}

/* A stream command is ready: it joins the submit list, and unless another thread is already
 * submitting for this queue, this thread hands the list to the backend in order. Called with
 * q->lock held, which it releases. */
static void stream_push_locked(hg_command *cmd) {
  cl_command_queue q = cmd->queue;
  cmd->next = NULL;
  if (q->submit_tail)
    q->submit_tail->next = cmd;
  else
    q->submit_head = cmd;
  q->submit_tail = cmd;
  if (q->submitting) {
    pthread_mutex_unlock(&q->lock);
    return;
  }
  hg_queue_hold(q); /* this thread may hold nothing else of the queue once its commands are freed */
  q->submitting = true;
  bool no_worker = false;
  if (!submit_list_locked(q, &no_worker))
    q->submitting = false;
  hg_command *spent = spent_take(q, SPENT_PER_SUBMIT);
  if (no_worker && !q->worker_running) {
    /* No thread to be had: complete the stream here rather than never. */
    while (q->stream_tail) {
      if (q->completing) {
        role_wait(q);
        continue;
      }
      stream_complete_with_role(q, q->stream_tail);
    }
  }
  pthread_mutex_unlock(&q->lock);
  spent_free(spent);
  hg_queue_unhold(q);
}

static void stream_push(hg_command *cmd) {
  pthread_mutex_lock(&cmd->queue->lock);
  stream_push_locked(cmd);
}

void hg_engine_help_wait(cl_event ev) {
  cl_command_queue q = ev->queue;
  pthread_mutex_lock(&q->lock);
  if (!ev->stream_cmd) {
    pthread_mutex_unlock(&q->lock);
    return;
  }
  q->drivers++; /* the worker stays out of the way meanwhile */
  for (hg_command *c; (c = ev->stream_cmd);) {
    /* First the device: the latest token up to c (the stream is in order, so every earlier
     * entry is done too), waited for without the role, so whoever holds it can go on. */
    hg_command *w = c->wait_seq > q->done_seq ? c->wait_on : NULL;
    if (w && !w->device_done) {
      entry_wait_held(q, w);
      continue;
    }
    if (q->completing) {
      role_wait(q);
      continue;
    }
    stream_complete_with_role(q, c);
  }
  q->drivers--;
  if (!q->drivers && q->stream_head && q->worker_idle)
    pthread_cond_broadcast(&q->cond); /* the worker takes over the rest */
  pthread_mutex_unlock(&q->lock);
}

void hg_engine_help_poll(cl_event ev) {
  cl_command_queue q = ev->queue;
  if (hg_drives_any())
    return; /* inside a queue's completions or callbacks: no more of them nested here */
  pthread_mutex_lock(&q->lock);
  hg_command *c = ev->stream_cmd;
  if (!c || q->completing) {
    pthread_mutex_unlock(&q->lock);
    return;
  }
  c->stream_holds++; /* c stays while the lock is let go */
  /* the latest token up to c: the stream is in order, so with it every earlier entry is done */
  hg_command *w = c->wait_seq > q->done_seq ? c->wait_on : NULL;
  if ((!w || entry_settled(q, w)) && ev->stream_cmd == c && !q->completing) {
    stream_complete_with_role(q, c);
  }
  entry_unhold(q, c);
  pthread_mutex_unlock(&q->lock);
}

/* ---- synchronous commands ---- */

/* Puts a command whose dependencies are resolved on its queue's ready list (synchronous
 * commands) or hands it to the stream. */
static void queue_push_ready(hg_command *cmd) {
  if (cmd->streamed_kind) {
    stream_push(cmd);
    return;
  }
  cl_command_queue q = cmd->queue;
  pthread_mutex_lock(&q->lock);
  cmd->next = NULL;
  if (q->ready_tail)
    q->ready_tail->next = cmd;
  else
    q->ready_head = cmd;
  q->ready_tail = cmd;
  bool run_inline = !worker_ensure(q);
  if (q->worker_deferring)
    pthread_cond_broadcast(&q->cond); /* a synchronous command does not wait for the stream's pause */
  pthread_mutex_unlock(&q->lock);
  if (run_inline) {
    /* No thread to be had: run what is ready here rather than never. */
    hg_queue_hold(q);
    for (;;) {
      pthread_mutex_lock(&q->lock);
      hg_command *c = q->ready_head;
      if (c) {
        q->ready_head = c->next;
        if (!q->ready_head)
          q->ready_tail = NULL;
      }
      pthread_mutex_unlock(&q->lock);
      if (!c)
        break;
      command_execute(c);
    }
    hg_queue_unhold(q);
  }
}

void hg_engine_dep_done(hg_command *cmd, bool failed) {
  if (failed)
    atomic_store_explicit(&cmd->dep_failed, true, memory_order_relaxed);
  if (atomic_fetch_sub_explicit(&cmd->pending_deps, 1, memory_order_acq_rel) == 1)
    queue_push_ready(cmd);
}

/* On an in-order queue a command starts no earlier than the previous one ended, whichever path
 * (synchronous or the backend stream) each took: the profiled times say so too. */
static void order_run_times(cl_command_queue q, cl_event ev) {
  pthread_mutex_lock(&ev->lock);
  cl_ulong start = ev->times[HG_T_START], end = ev->times[HG_T_END];
  pthread_mutex_unlock(&ev->lock);
  pthread_mutex_lock(&q->lock);
  if (start < q->last_end)
    start = q->last_end;
  if (end < start)
    end = start;
  q->last_end = end;
  pthread_mutex_unlock(&q->lock);
  hg_event_set_run_times(ev, start, end);
}

/* Runs one ready synchronous command and retires it: the event reaches its final status, the
 * queue forgets the command, and the command is freed. */
static void command_execute(hg_command *cmd) {
  cl_command_queue q = cmd->queue;
  cl_event ev = cmd->event;
  cl_int status;
  hg_drive_enter(q); /* the queue's next commands run on this thread (its worker) */
  if (atomic_load_explicit(&cmd->dep_failed, memory_order_relaxed)) {
    status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  } else {
    hg_event_set_status(ev, CL_RUNNING);
    cl_int r = cmd->run ? hg_command_dispatch(cmd, NULL) : CL_SUCCESS;
    hg_event_mark_end(ev);
    if (ev->profiling && hg_queue_in_order(q))
      order_run_times(q, ev);
    status = r == CL_SUCCESS ? CL_COMPLETE : r;
  }
  if (cmd->cleanup) {
    /* Payload references go before the application can observe completion. */
    cmd->cleanup(cmd);
    cmd->cleanup = NULL;
  }

  /* The final status first: once a marker or clFinish that follows this command observes the
   * queue, the command is complete. Then the queue forgets it. */
  hg_event_set_status(ev, status); /* resolves dependents, calls callbacks, wakes waiters */

  cl_event drop[2] = {NULL, NULL};
  pthread_mutex_lock(&q->lock);
  hg_command *successor = queue_forget_locked(q, cmd, drop);
  pthread_mutex_unlock(&q->lock);
  hg_drive_leave();
  drop_events(drop);
  command_free(cmd);
  if (successor)
    hg_engine_dep_done(successor, false);
}

/* The worker completes the stream in the background only (threads that wait for an entry,
 * clFinish, clWaitForEvents and blocking commands, complete it themselves at once). A thread
 * waiting inside a vendor's driver while the application submits slows every submission
 * (NVIDIA: 4-10 us per launch, docs/performance.md), so the worker waits for the device once
 * submissions pause, or once the oldest entry is too old or too far behind: the time until
 * then, 0 to wait now. While submissions go on it then asks the backend whether the entry is
 * done (token_done) every STREAM_POLL_NS instead of blocking in its wait. Under q->lock. */
#define STREAM_QUIET_NS 50000ull      /* no new entry for this long: a pause */
#define STREAM_MAX_LAG_NS 1000000ull  /* an entry's completion is seen at most this late */
#define STREAM_MAX_BEHIND 256u        /* nor with this many entries after it */
#define STREAM_POLL_NS 50000ull       /* the period of those questions */
static cl_ulong worker_defer_until(cl_command_queue q, const hg_command *head) {
  if (q->stream_seq - head->seq >= STREAM_MAX_BEHIND)
    return 0;
  cl_ulong quiet = q->last_append_ns + STREAM_QUIET_NS, lag = head->t_run + STREAM_MAX_LAG_NS;
  cl_ulong until = quiet < lag ? quiet : lag;
  return until > hg_now_ns() ? until : 0;
}

/* True while the application keeps adding entries (the last less than a pause ago). Under
 * q->lock. */
static bool submissions_go_on(cl_command_queue q) { return hg_now_ns() < q->last_append_ns + STREAM_QUIET_NS; }

/* While submissions go on the submitting threads push their work themselves (a vendor backend
 * flushes every few operations): the worker's pushes in between, each a vendor flush between
 * two of the application's launches, cost NVIDIA's submissions more than they bring. It pushes
 * at most every STREAM_MAX_LAG_NS then, for work a backend holds back regardless. Under q->lock. */
static bool push_overdue(cl_command_queue q) { return hg_now_ns() >= q->pushed_ns + STREAM_MAX_LAG_NS; }

/* Pushes the stream's entries so far to the device (the backend may hold some back). Without
 * `wait`, false when the backend was busy with a submission (which pushes its own work): ask
 * again later. Under q->lock (released meanwhile). */
static bool stream_flush_to_device(cl_command_queue q, bool wait) {
  uint64_t seq = q->stream_seq;
  hg_backend *be = q->stream_tail ? q->stream_tail->backend : NULL;
  bool pushed = true;
  if (be && be->ops->stream_flush) {
    pthread_mutex_unlock(&q->lock);
    pushed = be->ops->stream_flush(be, wait);
    pthread_mutex_lock(&q->lock);
  }
  if (pushed && q->pushed_seq < seq) {
    q->pushed_seq = seq;
    q->pushed_ns = hg_now_ns();
  }
  return pushed;
}

/* Waits on q->cond until `until` (hg_now_ns() time) or a wake-up. Under q->lock. */
static void worker_sleep_until(cl_command_queue q, cl_ulong until) {
  cl_ulong now = hg_now_ns(), rel = until > now ? until - now : 0;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts); /* q->cond's clock */
  ts.tv_sec += (time_t)(rel / 1000000000ull);
  ts.tv_nsec += (long)(rel % 1000000000ull);
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  q->worker_deferring = true;
  pthread_cond_timedwait(&q->cond, &q->lock, &ts);
  q->worker_deferring = false;
}

static void *worker_main(void *arg) {
  cl_command_queue q = arg;
  pthread_setname_np(pthread_self(), "hetgpu-queue");
  worker_of = q;
  pthread_mutex_lock(&q->lock);
  for (;;) {
    if (q->submit_on_worker) { /* an application thread left it a blocking submission */
      q->submit_on_worker = false;
      bool no_worker = false;
      submit_list_locked(q, &no_worker);
      q->submitting = false;
      continue;
    }
    hg_command *cmd = q->ready_head;
    if (cmd) {
      q->ready_head = cmd->next;
      if (!q->ready_head)
        q->ready_tail = NULL;
      pthread_mutex_unlock(&q->lock);
      command_execute(cmd);
      pthread_mutex_lock(&q->lock);
      continue;
    }
    hg_command *head = q->stream_head;
    if (head && !q->completing && !q->drivers) {
      if (!head->device_done) {
        cl_ulong until = worker_defer_until(q, head);
        if (until)
          worker_sleep_until(q, until);
        else if (q->pushed_seq != q->stream_seq && (!submissions_go_on(q) || push_overdue(q))) {
          if (!stream_flush_to_device(q, false))
            worker_sleep_until(q, hg_now_ns() + STREAM_POLL_NS);
        } else if (submissions_go_on(q)) {
          if (!entry_settled(q, head))
            worker_sleep_until(q, hg_now_ns() + STREAM_POLL_NS);
        } else {
          entry_wait_held(q, head);
        }
        continue; /* things may have changed meanwhile: look again */
      }
      stream_complete_with_role(q, NULL);
      continue;
    }
    if (q->spent) {
      hg_command *spent = spent_take(q, UINT_MAX);
      pthread_mutex_unlock(&q->lock);
      spent_free(spent);
      pthread_mutex_lock(&q->lock);
      continue;
    }
    if (!head && q->released && q->pending == 0)
      break; /* released and drained: nothing can arrive any more */
    q->worker_idle = true;
    pthread_cond_wait(&q->cond, &q->lock);
    q->worker_idle = false;
  }
  q->worker_running = false;
  pthread_mutex_unlock(&q->lock);
  HG_LOG(HG_LOG_SCHED, "queue %p: worker exits", (void *)q);
  hg_queue_unhold(q);
  return NULL;
}

/* ---- submission ---- */

static bool waits_for_all_before(const hg_command *cmd) {
  return (cmd->type == CL_COMMAND_MARKER || cmd->type == CL_COMMAND_BARRIER) && cmd->num_deps == 0;
}

/* Gives back the links hg_command_submit took so far (no lock held). */
static void links_drop(hg_command *cmd, hg_dep_link *links, cl_uint n) {
  for (cl_uint i = 0; i < n; i++)
    hg_event_unhold(links[i].event);
  if (links != cmd->inline_links)
    free(links);
}

/* Keeps the counter of a command being linked from reaching zero early (an in-order link may be
 * resolved by another thread before the links are counted). */
#define LINKING_BIAS (1u << 30)

cl_int hg_command_submit(hg_command *cmd, cl_event *event, bool blocking) {
  cl_command_queue q = cmd->queue;
  bool in_order = hg_queue_in_order(q);
  if (blocking && hg_drives(q)) {
    /* a blocking enqueue from a callback on the thread that drives q would wait for itself */
    hg_command_discard(cmd);
    return CL_INVALID_OPERATION;
  }

  if (!cmd->run) {
    cmd->streamed_kind = true; /* nothing to run: completes in stream order */
  } else if (cmd->submit) {
    /* the stream when the context's backend has one now; placement may still pick another
     * backend, whose synchronous operations the submit functions then use */
    hg_backend *be = hg_context_backend(q->context);
    cmd->streamed_kind = hg_backend_async(be->ops);
  }

  /* An event only where someone can wait for it: the application's, a blocking call's, or (out
   * of order) a marker's or barrier's link. An in-order stream command gets none otherwise; a
   * later command or clFinish that must wait for it has one made then (last_event_locked). */
  cl_event ev = NULL;
  cmd->eventless = in_order && cmd->streamed_kind && !event && !blocking;
  if (!cmd->eventless) {
    ev = hg_event_create(q->context, q, cmd->type);
    if (!ev) {
      hg_command_discard(cmd);
      return CL_OUT_OF_HOST_MEMORY;
    }
    hg_event_hold(ev); /* the command's own, besides the application's */
    cmd->event = ev;
    /* Times only the application's event can give: without one nobody asks, and a backend's
     * untimed operations cost less (NVIDIA: 3-6 us per command on a profiling queue). */
    ev->profiling = ev->profiling && event;
    cmd->timed = ev->profiling;
  }

  /* Links: the explicit wait list, then the implicit dependencies, counted under the lock. */
  cl_uint max_links = cmd->num_deps + 1;
  if (!in_order && waits_for_all_before(cmd)) {
    pthread_mutex_lock(&q->lock);
    max_links += (cl_uint)q->pending;
    pthread_mutex_unlock(&q->lock);
  }

  atomic_store_explicit(&cmd->pending_deps, LINKING_BIAS, memory_order_relaxed);
  bool queue_link = false;
  for (;;) {
    hg_dep_link *links =
        max_links <= HG_COMMAND_INLINE_DEPS ? cmd->inline_links : calloc(max_links, sizeof *links);
    if (!links) {
      hg_command_discard(cmd);
      return CL_OUT_OF_HOST_MEMORY;
    }
    cl_uint n = 0;
    for (cl_uint i = 0; i < cmd->num_deps; i++) {
      links[n].event = cmd->deps[i];
      links[n].explicit_dep = true;
      hg_event_hold(cmd->deps[i]);
      n++;
    }
    cl_event old_barrier = NULL, old_last = NULL;
    pthread_mutex_lock(&q->lock);
    if (!in_order && waits_for_all_before(cmd) && n + q->pending + 1 > max_links) {
      /* More commands arrived since we counted: size again. */
      max_links = n + (cl_uint)q->pending + 1;
      pthread_mutex_unlock(&q->lock);
      links_drop(cmd, links, n);
      continue;
    }
    if (in_order) {
      /* the worker submits what followed a blocking submission: let it finish, then this
       * thread submits (worker_drains) */
      while (cmd->streamed_kind && q->worker_draining && worker_of != q && !hg_drives(q) && q->last_cmd &&
             !q->last_cmd->streamed)
        pthread_cond_wait(&q->cond, &q->lock);
      hg_command *prev = q->last_cmd;
      bool oom = false;
      if (prev && !cmd->streamed_kind)
        last_event_locked(q, &oom); /* the link below needs it */
      if (oom) {
        pthread_mutex_unlock(&q->lock);
        links_drop(cmd, links, n);
        hg_command_discard(cmd);
        return CL_OUT_OF_HOST_MEMORY;
      }
      if (prev) {
        if (cmd->streamed_kind) {
          /* waits only for prev to reach the stream (or to finish) */
          if (!prev->streamed) {
            prev->successor = cmd;
            queue_link = true;
          }
          old_last = q->last_event;
        } else {
          links[n].event = q->last_event; /* the queue's hold passes to the link */
          links[n].explicit_dep = false;
          n++;
        }
      }
      q->last_event = ev;
      q->last_cmd = cmd;
      if (ev)
        hg_event_hold(ev);
    } else {
      if (q->last_barrier) {
        links[n].event = q->last_barrier;
        hg_event_hold(q->last_barrier);
        n++;
      }
      if (waits_for_all_before(cmd)) {
        for (hg_command *c = q->inflight; c; c = c->inflight_next) {
          if (c->event == q->last_barrier)
            continue;
          links[n].event = c->event;
          hg_event_hold(c->event);
          n++;
        }
      }
      if (cmd->type == CL_COMMAND_BARRIER) {
        old_barrier = q->last_barrier;
        q->last_barrier = ev;
        hg_event_hold(ev);
      }
    }
    cmd->inflight_prev = NULL;
    cmd->inflight_next = q->inflight;
    if (q->inflight)
      q->inflight->inflight_prev = cmd;
    q->inflight = cmd;
    q->pending++;
    if (cmd->eventless && n == 0 && !queue_link) {
      /* ready now (nothing to wait for, no event to set up first): submitted in the same hold
       * of the lock, the in-order launch's common case */
      cmd->links = links;
      atomic_store_explicit(&cmd->pending_deps, 0, memory_order_relaxed);
      stream_push_locked(cmd);
      if (old_last)
        hg_event_unhold(old_last);
      return CL_SUCCESS;
    }
    pthread_mutex_unlock(&q->lock);
    if (old_barrier)
      hg_event_unhold(old_barrier);
    if (old_last)
      hg_event_unhold(old_last);

    cmd->links = links;
    cmd->num_links = n;
    break;
  }

  if (blocking)
    hg_event_hold(ev); /* for the wait: the command (and its hold) may be gone by then */
  if (event) {
    hg_object_list(&ev->obj);
    *event = ev; /* the application's reference from hg_event_create */
  } else if (ev) {
    hg_event_release_app(ev);
  }
  if (ev)
    hg_event_set_status(ev, CL_SUBMITTED);

  /* Register on every dependency; the extra count keeps the command from running before all
   * links are in place. After the final decrement the command belongs to the engine. */
  cl_uint n = cmd->num_links;
  hg_dep_link *links = cmd->links;
  atomic_fetch_sub_explicit(&cmd->pending_deps, LINKING_BIAS - (n + (queue_link ? 1 : 0) + 1),
                            memory_order_acq_rel);
  for (cl_uint i = 0; i < n; i++) {
    links[i].cmd = cmd;
    cl_int st;
    if (!hg_event_add_waiter(links[i].event, &links[i], &st))
      hg_engine_dep_done(cmd, links[i].explicit_dep && st < 0);
  }
  hg_engine_dep_done(cmd, false);

  cl_int result = CL_SUCCESS;
  if (blocking) {
    cl_int st = hg_event_wait(ev);
    if (st < 0)
      result = st;
    hg_event_unhold(ev);
  }
  return result;
}

/* ---- queue-level operations ---- */

cl_int hg_queue_finish(cl_command_queue q) {
  if (hg_drives(q))
    return CL_INVALID_OPERATION; /* a callback on the thread that drives q: it would wait for itself */
  if (hg_queue_in_order(q)) {
    /* An in-order queue's commands end in order: once its latest one has, all have. Waiting for
     * it skips a marker's command, event and completion (some 3 us of a clFinish on the H200). */
    pthread_mutex_lock(&q->lock);
    bool oom = false;
    cl_event last = last_event_locked(q, &oom);
    if (last)
      hg_event_hold(last);
    pthread_mutex_unlock(&q->lock);
    if (oom)
      return CL_OUT_OF_HOST_MEMORY;
    if (last) {
      hg_event_wait(last); /* a failed command does not make clFinish fail */
      hg_event_unhold(last);
    }
    return CL_SUCCESS;
  }
  hg_command *cmd;
  cl_int err = hg_command_create(q, CL_COMMAND_MARKER, sizeof *cmd, 0, NULL, &cmd);
  if (err != CL_SUCCESS)
    return err;
  err = hg_command_submit(cmd, NULL, true);
  /* A failed command before the marker does not make clFinish fail. */
  return err == CL_OUT_OF_HOST_MEMORY ? err : CL_SUCCESS;
}

void hg_queue_flush(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  stream_flush_to_device(q, true); /* what is held back is in the stream: nothing there, nothing to push */
  pthread_mutex_unlock(&q->lock);
}

void hg_queue_engine_release(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  q->released = true;
  pthread_cond_broadcast(&q->cond);
  pthread_mutex_unlock(&q->lock);
}
