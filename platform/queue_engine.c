/* The queue engine: commands, their dependencies, and one worker thread per queue.
 *
 * A command's dependencies are its wait list plus an implicit one: the previous command on an
 * in-order queue; on an out-of-order queue the latest barrier, and for a marker or barrier with
 * an empty wait list every command still in flight. Each dependency is a link on the event it
 * waits for; a counter (one per link, plus one while the command is being submitted) reaches
 * zero when all are resolved, and whoever brings it there moves the command to its queue's
 * ready list. The queue's worker runs ready commands in that order.
 *
 * Submission is eager: a command is CL_SUBMITTED as soon as it is enqueued, so clFlush has
 * nothing left to do and commands never wait for a flush.
 *
 * Locks: a queue lock and an event lock are never held together, except that the queue lock
 * is held while taking holds (atomics). No lock is held while calling run, cleanup, or user
 * callbacks, nor while dropping a hold (which may free the object). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "platform/command.h"
#include "platform/event.h"
#include "platform/log.h"
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

cl_int hg_command_create(cl_command_queue queue, cl_command_type type, size_t size, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, hg_command **out) {
  *out = NULL;
  HG_CHECK_QUEUE(queue, CL_INVALID_COMMAND_QUEUE);
  cl_int err = hg_check_wait_list(queue->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  if (size < sizeof(hg_command))
    size = sizeof(hg_command);
  hg_command *cmd = calloc(1, size);
  if (!cmd)
    return CL_OUT_OF_HOST_MEMORY;
  cmd->queue = queue;
  cmd->type = type;
  if (num_events_in_wait_list) {
    cmd->deps = malloc(num_events_in_wait_list * sizeof *cmd->deps);
    if (!cmd->deps)
      goto oom;
    for (cl_uint i = 0; i < num_events_in_wait_list; i++) {
      cmd->deps[i] = event_wait_list[i];
      hg_event_hold(cmd->deps[i]);
      cmd->num_deps++;
    }
  }
  cmd->event = hg_event_create(queue->context, queue, type);
  if (!cmd->event)
    goto oom;
  hg_event_hold(cmd->event); /* the command's own, besides the application's */
  hg_queue_hold(queue); /* the command keeps its queue alive until it is freed */
  *out = cmd;
  return CL_SUCCESS;
oom:
  for (cl_uint i = 0; i < cmd->num_deps; i++)
    hg_event_unhold(cmd->deps[i]);
  free(cmd->deps);
  free(cmd);
  return CL_OUT_OF_HOST_MEMORY;
}

/* Frees the command's own memory and references (after it finished or was discarded). */
static void command_free(hg_command *cmd) {
  if (cmd->cleanup) {
    cmd->cleanup(cmd);
    cmd->cleanup = NULL;
  }
  for (cl_uint i = 0; i < cmd->num_links; i++)
    hg_event_unhold(cmd->links[i].event);
  free(cmd->links);
  for (cl_uint i = 0; i < cmd->num_deps; i++)
    hg_event_unhold(cmd->deps[i]);
  free(cmd->deps);
  cl_command_queue q = cmd->queue;
  cl_event ev = cmd->event;
  free(cmd);
  if (ev)
    hg_event_unhold(ev);
  hg_queue_unhold(q);
}

void hg_command_discard(hg_command *cmd) {
  if (!cmd)
    return;
  cl_event ev = cmd->event;
  hg_event_hold(ev);
  command_free(cmd);
  hg_event_release_app(ev); /* the application never saw it */
  hg_event_unhold(ev);
}

/* ---- workers ---- */

static void command_execute(hg_command *cmd);
static void *worker_main(void *arg);

/* Puts a command whose dependencies are resolved on its queue's ready list. */
static void queue_push_ready(hg_command *cmd) {
  cl_command_queue q = cmd->queue;
  bool run_inline = false;
  pthread_mutex_lock(&q->lock);
  cmd->next = NULL;
  if (q->ready_tail)
    q->ready_tail->next = cmd;
  else
    q->ready_head = cmd;
  q->ready_tail = cmd;
  if (!q->worker_running) {
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
    if (rc != 0) {
      /* No thread to be had: run what is ready here rather than never. */
      HG_LOG(HG_LOG_SCHED, "queue %p: cannot start a worker (%d); running inline", (void *)q, rc);
      run_inline = true;
    }
  } else {
    pthread_cond_signal(&q->cond);
  }
  pthread_mutex_unlock(&q->lock);
  if (run_inline) {
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
  }
}

void hg_engine_dep_done(hg_command *cmd, bool failed) {
  if (failed)
    atomic_store_explicit(&cmd->dep_failed, true, memory_order_relaxed);
  if (atomic_fetch_sub_explicit(&cmd->pending_deps, 1, memory_order_acq_rel) == 1)
    queue_push_ready(cmd);
}

/* Runs one ready command and retires it: the event reaches its final status, the queue forgets
 * the command, and the command is freed. */
static void command_execute(hg_command *cmd) {
  cl_command_queue q = cmd->queue;
  cl_event ev = cmd->event;
  cl_int status;
  if (atomic_load_explicit(&cmd->dep_failed, memory_order_relaxed)) {
    status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  } else {
    hg_event_set_status(ev, CL_RUNNING);
    cl_int r = cmd->run ? cmd->run(cmd) : CL_SUCCESS;
    hg_event_mark_end(ev);
    status = r == CL_SUCCESS ? CL_COMPLETE : (r < 0 ? r : CL_OUT_OF_RESOURCES);
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
  if (cmd->inflight_prev)
    cmd->inflight_prev->inflight_next = cmd->inflight_next;
  else
    q->inflight = cmd->inflight_next;
  if (cmd->inflight_next)
    cmd->inflight_next->inflight_prev = cmd->inflight_prev;
  q->pending--;
  if (q->last_event == ev) {
    drop[0] = ev;
    q->last_event = NULL;
  }
  if (q->last_barrier == ev) {
    drop[1] = ev;
    q->last_barrier = NULL;
  }
  if (q->released && q->pending == 0)
    pthread_cond_broadcast(&q->cond);
  pthread_mutex_unlock(&q->lock);

  for (int i = 0; i < 2; i++)
    if (drop[i])
      hg_event_unhold(drop[i]);
  command_free(cmd);
}

static void *worker_main(void *arg) {
  cl_command_queue q = arg;
  pthread_mutex_lock(&q->lock);
  for (;;) {
    while (!q->ready_head && !(q->released && q->pending == 0))
      pthread_cond_wait(&q->cond, &q->lock);
    hg_command *cmd = q->ready_head;
    if (!cmd)
      break; /* released and drained: nothing can arrive any more */
    q->ready_head = cmd->next;
    if (!q->ready_head)
      q->ready_tail = NULL;
    pthread_mutex_unlock(&q->lock);
    command_execute(cmd);
    pthread_mutex_lock(&q->lock);
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

cl_int hg_command_submit(hg_command *cmd, cl_event *event, bool blocking) {
  cl_command_queue q = cmd->queue;
  cl_event ev = cmd->event;
  bool in_order = hg_queue_in_order(q);

  /* Links: the explicit wait list, then the implicit dependencies, counted under the lock. */
  cl_uint max_links = cmd->num_deps + 1;
  pthread_mutex_lock(&q->lock);
  if (!in_order) {
    if (waits_for_all_before(cmd))
      max_links += (cl_uint)q->pending;
  }
  pthread_mutex_unlock(&q->lock);

  for (;;) {
    hg_dep_link *links = calloc(max_links, sizeof *links);
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
    cl_event old_barrier = NULL;
    pthread_mutex_lock(&q->lock);
    if (!in_order && waits_for_all_before(cmd) && n + q->pending + 1 > max_links) {
      /* More commands arrived since we counted: size again. */
      max_links = n + (cl_uint)q->pending + 1;
      pthread_mutex_unlock(&q->lock);
      for (cl_uint i = 0; i < n; i++)
        hg_event_unhold(links[i].event);
      free(links);
      continue;
    }
    if (in_order) {
      if (q->last_event) {
        links[n++].event = q->last_event; /* the queue's hold passes to the link */
      }
      q->last_event = ev;
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
    pthread_mutex_unlock(&q->lock);
    if (old_barrier)
      hg_event_unhold(old_barrier);

    cmd->links = links;
    cmd->num_links = n;
    break;
  }

  hg_event_hold(ev); /* ours, for the blocking wait and the event handed out */
  if (event)
    *event = ev; /* the application's reference from hg_event_create */
  else
    hg_event_release_app(ev);
  hg_event_set_status(ev, CL_SUBMITTED);

  /* Register on every dependency; the extra count keeps the command from running before all
   * links are in place. After the final decrement the command belongs to the engine. */
  cl_uint n = cmd->num_links;
  hg_dep_link *links = cmd->links;
  atomic_store_explicit(&cmd->pending_deps, n + 1, memory_order_relaxed);
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
  }
  hg_event_unhold(ev);
  return result;
}

/* ---- queue-level operations ---- */

cl_int hg_queue_finish(cl_command_queue q) {
  hg_command *cmd;
  cl_int err = hg_command_create(q, CL_COMMAND_MARKER, sizeof *cmd, 0, NULL, &cmd);
  if (err != CL_SUCCESS)
    return err;
  err = hg_command_submit(cmd, NULL, true);
  /* A failed command before the marker does not make clFinish fail. */
  return err == CL_OUT_OF_HOST_MEMORY ? err : CL_SUCCESS;
}

void hg_queue_engine_release(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  q->released = true;
  pthread_cond_broadcast(&q->cond);
  pthread_mutex_unlock(&q->lock);
}
