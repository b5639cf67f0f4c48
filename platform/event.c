/* Events: the status machine, callbacks, waiting, user events, profiling info, and the event
 * entry points. */
#include <errno.h>
#include <time.h>
#include "platform/event.h"

#include <stdlib.h>
#include <time.h>

#include "common/host_clock.h"
#include "platform/block_pool.h"
#include "platform/callback_guard.h"
#include "platform/info.h"
#include "common/log.h"
#include "platform/platform.h"
#include "platform/queue.h"

cl_ulong hg_now_ns(void) { return hg_host_clock_ns(); }

static bool status_terminal(cl_int s) { return s <= CL_COMPLETE; }

/* Events nobody was given (a command's own, most of them) go back to this pool; one handed out
 * goes through the registry's quarantine (platform/object.h), which frees it with free(). */
static hg_block_pool event_blocks = HG_BLOCK_POOL_INIT(sizeof(struct _cl_event), 1024);

cl_event hg_event_create(cl_context ctx, cl_command_queue queue, cl_command_type type) {
  cl_event ev = hg_block_pool_get(&event_blocks, sizeof *ev);
  if (!ev)
    return NULL;
  if (pthread_mutex_init(&ev->lock, NULL) != 0) {
    hg_block_pool_put(&event_blocks, ev);
    return NULL;
  }
  if (pthread_cond_init(&ev->cond, NULL) != 0) {
    pthread_mutex_destroy(&ev->lock);
    hg_block_pool_put(&event_blocks, ev);
    return NULL;
  }
  atomic_init(&ev->holds, 1); /* the application's references, as one */
  ev->context = ctx;
  hg_context_retain(ctx);
  ev->queue = queue;
  if (queue) {
    hg_queue_hold(queue);
    ev->profiling = hg_queue_profiling(queue);
  }
  ev->type = type;
  ev->status = queue ? CL_QUEUED : CL_SUBMITTED;
  if (ev->profiling)
    ev->times[HG_T_QUEUED] = hg_now_ns();
  hg_object_init_unlisted(&ev->obj, HG_OBJ_EVENT); /* listed when handed out */
  return ev;
}

void hg_event_hold(cl_event ev) { atomic_fetch_add_explicit(&ev->holds, 1, memory_order_relaxed); }

void hg_event_unhold(cl_event ev) {
  if (atomic_fetch_sub_explicit(&ev->holds, 1, memory_order_acq_rel) != 1)
    return;
  /* Retiring again is harmless (the registry ignores an absent address) and covers events
   * whose application reference was never dropped through hg_event_release_app. */
  hg_object_retire(&ev->obj);
  for (hg_event_callback *cb = ev->callbacks, *next; cb; cb = next) {
    next = cb->next;
    free(cb);
  }
  pthread_cond_destroy(&ev->cond);
  pthread_mutex_destroy(&ev->lock);
  cl_command_queue q = ev->queue;
  cl_context ctx = ev->context;
  if (ev->obj.listed)
    hg_object_free(&ev->obj);
  else
    hg_block_pool_put(&event_blocks, ev);
  if (q)
    hg_queue_unhold(q);
  hg_context_release(ctx);
}

void hg_event_release_app(cl_event ev) {
  if (hg_object_release(&ev->obj)) {
    hg_object_retire(&ev->obj);
    hg_event_unhold(ev);
  }
}

bool hg_event_unobserved(cl_event ev) {
  return !ev->obj.listed && atomic_load_explicit(&ev->holds, memory_order_acquire) == 1;
}

void hg_event_mark_end(cl_event ev) {
  if (!ev->profiling)
    return;
  pthread_mutex_lock(&ev->lock);
  ev->times[HG_T_END] = hg_now_ns();
  pthread_mutex_unlock(&ev->lock);
}

void hg_event_set_run_times(cl_event ev, cl_ulong start, cl_ulong end) {
  pthread_mutex_lock(&ev->lock);
  ev->times[HG_T_START] = start;
  ev->times[HG_T_END] = end;
  pthread_mutex_unlock(&ev->lock);
}

/* A callback registered for `type` is due once the status reached it (statuses count down to
 * CL_COMPLETE; errors are below). */
static bool callback_due(cl_int type, cl_int status) { return status <= type; }

void hg_event_set_status(cl_event ev, cl_int status) {
  hg_event_callback *due = NULL, **due_tail = &due;
  hg_dep_link *waiters = NULL;

  /* Nobody can see the steps before the end of an event the application was never given (no
   * handle: no query, no callback) and that keeps no times: two lock round trips a command. */
  if (!status_terminal(status) && !ev->obj.listed && !ev->profiling)
    return;
  pthread_mutex_lock(&ev->lock);
  if (status_terminal(ev->status) || status >= ev->status) {
    pthread_mutex_unlock(&ev->lock);
    return;
  }
  ev->status = status;
  if (ev->profiling) { /* the times are read only then (clGetEventProfilingInfo) */
    cl_ulong now = hg_now_ns();
    if (status == CL_SUBMITTED)
      ev->times[HG_T_SUBMIT] = now;
    else if (status == CL_RUNNING)
      ev->times[HG_T_START] = now;
    else {
      if (!ev->times[HG_T_END])
        ev->times[HG_T_END] = now;
      ev->times[HG_T_COMPLETE] = now;
    }
  }
  /* Take the due callbacks out, keeping registration order. */
  for (hg_event_callback **p = &ev->callbacks; *p;) {
    hg_event_callback *cb = *p;
    if (callback_due(cb->type, status)) {
      *p = cb->next;
      cb->next = NULL;
      *due_tail = cb;
      due_tail = &cb->next;
    } else {
      p = &cb->next;
    }
  }
  bool finish_later = false;
  if (status_terminal(status)) {
    waiters = ev->waiters;
    ev->waiters = NULL;
    finish_later = waiters || due;
    if (!finish_later) { /* nothing to resolve or call first: waiting threads may go now */
      ev->finished = true;
      pthread_cond_broadcast(&ev->cond);
    }
  }
  pthread_mutex_unlock(&ev->lock);

  HG_LOG(HG_LOG_SCHED, "event %p (type 0x%x) -> %d", (void *)ev, (unsigned)ev->type, (int)status);

  if (waiters || due) {
    hg_callbacks_enter(ev); /* a wait for ev from here would wait for this call to return */
    /* Dependent commands first: a slow callback must not hold back the work that follows. */
    for (hg_dep_link *l = waiters, *next; l; l = next) {
      next = l->next; /* l belongs to the command, which may be freed once resolved */
      hg_engine_dep_done(l->cmd, l->explicit_dep && status < 0);
    }
    for (hg_event_callback *cb = due, *next; cb; cb = next) {
      next = cb->next;
      cb->fn(ev, status < 0 ? status : cb->type, cb->user_data);
      free(cb);
    }
    hg_callbacks_leave();
  }
  if (finish_later) {
    pthread_mutex_lock(&ev->lock);
    ev->finished = true;
    pthread_cond_broadcast(&ev->cond);
    pthread_mutex_unlock(&ev->lock);
  }
}

bool hg_event_add_waiter(cl_event ev, hg_dep_link *link, cl_int *status) {
  pthread_mutex_lock(&ev->lock);
  bool added = !status_terminal(ev->status);
  if (added) {
    link->next = ev->waiters;
    ev->waiters = link;
  } else {
    *status = ev->status;
  }
  pthread_mutex_unlock(&ev->lock);
  return added;
}

cl_int hg_event_wait(cl_event ev) {
  if (ev->queue)
    hg_engine_help_wait(ev);
  pthread_mutex_lock(&ev->lock);
  while (!ev->finished)
    pthread_cond_wait(&ev->cond, &ev->lock);
  cl_int s = ev->status;
  pthread_mutex_unlock(&ev->lock);
  return s;
}

bool hg_event_wait_for(cl_event ev, uint64_t timeout_ns) {
  /* the event's condition variable waits on CLOCK_REALTIME */
  struct timespec deadline = hg_clock_deadline(CLOCK_REALTIME, timeout_ns);
  pthread_mutex_lock(&ev->lock);
  int rc = 0;
  while (!ev->finished && rc != ETIMEDOUT)
    rc = pthread_cond_timedwait(&ev->cond, &ev->lock, &deadline);
  bool finished = ev->finished;
  pthread_mutex_unlock(&ev->lock);
  return finished;
}

/* ---- entry points ---- */

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (num_events == 0 || !event_list)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++)
    HG_CHECK_EVENT(event_list[i], CL_INVALID_EVENT);
  for (cl_uint i = 1; i < num_events; i++)
    if (event_list[i]->context != event_list[0]->context)
      return CL_INVALID_CONTEXT;
  /* From a callback, an event that can only complete on this thread is never waited for
   * (platform/callback_guard.h); one whose callbacks are running here is already terminal. */
  for (cl_uint i = 0; i < num_events; i++) {
    cl_event e = event_list[i];
    pthread_mutex_lock(&e->lock);
    cl_int st = e->status;
    pthread_mutex_unlock(&e->lock);
    if (!status_terminal(st) && (hg_drives(e->queue) || hg_in_callbacks_of(e)))
      return CL_INVALID_OPERATION;
  }
  /* Commands are submitted eagerly: there is no queue to flush before waiting. */
  for (cl_uint i = 0; i < num_events; i++)
    hg_event_hold(event_list[i]);
  bool failed = false;
  for (cl_uint i = 0; i < num_events; i++) {
    cl_event e = event_list[i];
    cl_int st;
    if (hg_in_callbacks_of(e)) {
      pthread_mutex_lock(&e->lock);
      st = e->status;
      pthread_mutex_unlock(&e->lock);
    } else {
      st = hg_event_wait(e);
    }
    if (st < 0)
      failed = true;
  }
  for (cl_uint i = 0; i < num_events; i++)
    hg_event_unhold(event_list[i]);
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                               void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_EVENT(event, CL_INVALID_EVENT);
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE:
    HG_INFO_VALUE(cl_command_queue, event->queue);
  case CL_EVENT_CONTEXT:
    HG_INFO_VALUE(cl_context, event->context);
  case CL_EVENT_COMMAND_TYPE:
    HG_INFO_VALUE(cl_command_type, event->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    pthread_mutex_lock(&event->lock);
    cl_int s = event->status;
    pthread_mutex_unlock(&event->lock);
    if (!status_terminal(s) && event->queue && param_value) {
      hg_engine_help_poll(event);
      pthread_mutex_lock(&event->lock);
      s = event->status;
      pthread_mutex_unlock(&event->lock);
    }
    HG_INFO_VALUE(cl_int, s);
  }
  case CL_EVENT_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, hg_object_refcount(&event->obj));
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  HG_CHECK_EVENT(event, CL_INVALID_EVENT);
  hg_object_retain(&event->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  HG_CHECK_EVENT(event, CL_INVALID_EVENT);
  hg_event_release_app(event);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_event ev = hg_event_create(context, NULL, CL_COMMAND_USER);
  if (ev)
    hg_object_list(&ev->obj);
  HG_SET_ERR(errcode_ret, ev ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return ev;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  HG_CHECK_EVENT(event, CL_INVALID_EVENT);
  if (event->queue || event->type != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (execution_status != CL_COMPLETE && execution_status >= 0)
    return CL_INVALID_VALUE;
  pthread_mutex_lock(&event->lock);
  bool already = event->user_status_set;
  event->user_status_set = true;
  pthread_mutex_unlock(&event->lock);
  if (already)
    return CL_INVALID_OPERATION;
  hg_event_hold(event);
  hg_event_set_status(event, execution_status);
  hg_event_unhold(event);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                                   void *user_data) {
  HG_CHECK_EVENT(event, CL_INVALID_EVENT);
  if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
                      command_exec_callback_type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  hg_event_callback *cb = calloc(1, sizeof *cb);
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->fn = pfn_notify;
  cb->user_data = user_data;
  cb->type = command_exec_callback_type;
  pthread_mutex_lock(&event->lock);
  cl_int status = event->status;
  bool due = callback_due(cb->type, status);
  if (!due) {
    hg_event_callback **p = &event->callbacks;
    while (*p)
      p = &(*p)->next;
    *p = cb;
  }
  pthread_mutex_unlock(&event->lock);
  if (due) {
    /* The status was already reached: call at once, outside the lock. */
    hg_event_hold(event);
    pfn_notify(event, status < 0 ? status : cb->type, user_data);
    hg_event_unhold(event);
    free(cb);
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  HG_CHECK_EVENT(event, CL_INVALID_EVENT);
  int idx;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED: idx = HG_T_QUEUED; break;
  case CL_PROFILING_COMMAND_SUBMIT: idx = HG_T_SUBMIT; break;
  case CL_PROFILING_COMMAND_START: idx = HG_T_START; break;
  case CL_PROFILING_COMMAND_END: idx = HG_T_END; break;
  case CL_PROFILING_COMMAND_COMPLETE: idx = HG_T_COMPLETE; break;
  default: idx = -1; break;
  }
  if (!event->queue || !event->profiling)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  pthread_mutex_lock(&event->lock);
  cl_int status = event->status;
  cl_ulong t = idx >= 0 ? event->times[idx] : 0;
  pthread_mutex_unlock(&event->lock);
  if (status != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  if (idx < 0)
    return CL_INVALID_VALUE;
  HG_INFO_VALUE(cl_ulong, t);
}
