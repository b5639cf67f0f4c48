/* The placement gate (platform/placement.h). */
#include "platform/placement.h"

#include <errno.h>
#include <time.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "platform/command.h"
#include "platform/platform.h"
#include "platform/queue.h"
#include "platform/migrate.h"
#include "platform/safepoints.h"

int hg_placement_init(hg_placement *p, hg_backend *backend) {
  if (pthread_mutex_init(&p->lock, NULL))
    return -1;
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* timeouts do not move with the wall clock */
  int rc = pthread_cond_init(&p->cond, &attr);
  pthread_condattr_destroy(&attr);
  if (rc) {
    pthread_mutex_destroy(&p->lock);
    return -1;
  }
  p->backend = backend;
  atomic_init(&p->state, 0);
  return 0;
}

void hg_placement_destroy(hg_placement *p) {
  pthread_cond_destroy(&p->cond);
  pthread_mutex_destroy(&p->lock);
}

hg_backend *hg_placement_current(hg_placement *p) { return atomic_load_explicit(&p->backend, memory_order_acquire); }

/* The gate's state changes without the lock on the open path; the closer sets HG_GATE_CLOSED
 * and waits under the lock for the count to reach 0, and whoever brings it to 0 while the gate
 * is closed wakes it under the lock, so the wake-up cannot fall between its check and its wait. */

/* Leaves: one placement less, waking the closer after the last one out. */
static void leave_state(hg_placement *p, bool locked) {
  if (atomic_fetch_sub(&p->state, 1) != (HG_GATE_CLOSED | 1))
    return;
  if (!locked)
    pthread_mutex_lock(&p->lock);
  pthread_cond_broadcast(&p->cond);
  if (!locked)
    pthread_mutex_unlock(&p->lock);
}

/* Under p->lock: waits while the gate is closed, then goes in (the closer sets the flag under
 * this lock, so it cannot come between the wait and the count). */
static hg_backend *enter_locked(hg_placement *p) {
  while (atomic_load(&p->state) & HG_GATE_CLOSED)
    pthread_cond_wait(&p->cond, &p->lock);
  atomic_fetch_add(&p->state, 1);
  return atomic_load_explicit(&p->backend, memory_order_acquire);
}

hg_backend *hg_placement_enter(hg_placement *p) {
  if (!(atomic_fetch_add(&p->state, 1) & HG_GATE_CLOSED))
    return atomic_load_explicit(&p->backend, memory_order_acquire);
  leave_state(p, false); /* closed: take the count back and wait for the gate to open */
  pthread_mutex_lock(&p->lock);
  hg_backend *be = enter_locked(p);
  pthread_mutex_unlock(&p->lock);
  return be;
}

void hg_placement_leave(hg_placement *p) { leave_state(p, false); }

static hg_backend *hg_command_place(hg_command *cmd) {
  cmd->backend = hg_placement_enter(&cmd->queue->context->placement);
  return cmd->backend;
}

static void hg_command_unplace(hg_command *cmd) { hg_placement_leave(&cmd->queue->context->placement); }

/* Leaves the gate with the command stopped at a safe point: listed (for a checkpoint to find)
 * in the same step, so a closer that sees nothing inside sees it in the list. */
static void hg_command_unplace_stopped(hg_command *cmd) {
  hg_placement *p = &cmd->queue->context->placement;
  pthread_mutex_lock(&p->lock);
  cmd->stopped_next = p->stopped;
  p->stopped = cmd;
  leave_state(p, true);
  pthread_mutex_unlock(&p->lock);
}

/* Enters the gate again after a stop, leaving the list in the same step. */
static hg_backend *hg_command_replace(hg_command *cmd) {
  hg_placement *p = &cmd->queue->context->placement;
  pthread_mutex_lock(&p->lock);
  cmd->backend = enter_locked(p);
  for (hg_command **at = &p->stopped; *at; at = &(*at)->stopped_next)
    if (*at == cmd) {
      *at = cmd->stopped_next;
      break;
    }
  pthread_mutex_unlock(&p->lock);
  return cmd->backend;
}

cl_int hg_placement_each_stopped(hg_placement *p, cl_int (*fn)(hg_command *cmd, void *arg), void *arg) {
  pthread_mutex_lock(&p->lock);
  hg_command *list = p->stopped;
  pthread_mutex_unlock(&p->lock);
  cl_int err = CL_SUCCESS;
  for (hg_command *c = list; c && err == CL_SUCCESS; c = c->stopped_next)
    err = fn(c, arg);
  return err;
}

cl_int hg_backend_result(hg_backend *be, cl_int r) {
  if (r == HG_ERR_DEVICE_LOST && be && !atomic_exchange(&be->lost, true))
    HG_LOG(HG_LOG_BACKEND, "%s is lost: its commands fail; contexts can migrate away", be->name);
  if (r == CL_SUCCESS || (r < 0 && r != HG_ERR_DEVICE_LOST))
    return r;
  return CL_OUT_OF_RESOURCES;
}

/* A kernel stopped at a safe point by itself (HETGPU_STOP_AFTER, a test setting): its context
 * moves where the setting says, as if asked from outside, and the kernel resumes there. */
static void migrate_after_self_stop(cl_context ctx, hg_backend *from) {
  hg_backend *to = hg_stop_after_target(from);
  cl_migration_report_hetgpu r;
  cl_int err = to ? hg_context_migrate(ctx, to, CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU, 0, &r) : CL_INVALID_BACKEND_HETGPU;
  HG_LOG(HG_LOG_MIGRATE, "a kernel stopped by itself on %s; the context moves to %s: %d", from->name,
         to ? to->name : "(none)", err);
}

cl_int hg_command_dispatch(hg_command *cmd, hg_token **token) {
  if (cmd->unplaced)
    return hg_backend_result(NULL, cmd->run(cmd));
  for (bool again = false;; again = true) {
    hg_backend *be = again ? hg_command_replace(cmd) : hg_command_place(cmd);
    cl_int r = CL_OUT_OF_RESOURCES; /* nothing runs on a lost device */
    if (!atomic_load(&be->lost))
      r = token ? cmd->submit(cmd, token) : cmd->run(cmd);
    if (r != HG_LAUNCH_STOPPED) {
      hg_command_unplace(cmd);
      return hg_backend_result(be, r);
    }
    hg_command_unplace_stopped(cmd);
    /* stopped at a safe point, its state kept in the command: it runs again wherever the gate
     * opens, which waits for the migration or checkpoint that asked for the stop */
    cl_context ctx = cmd->queue->context;
    if (hg_stop_after_active() && !atomic_load(&ctx->stop.requested))
      migrate_after_self_stop(ctx, be);
  }
}

cl_int hg_placement_close(hg_placement *p, unsigned long long timeout_ns, void (*on_closed)(void *), void *arg,
                          bool keep_waiting) {
  struct timespec deadline = hg_clock_deadline(CLOCK_MONOTONIC, timeout_ns);
  pthread_mutex_lock(&p->lock);
  atomic_fetch_or(&p->state, HG_GATE_CLOSED);
  if (on_closed) {
    pthread_mutex_unlock(&p->lock);
    on_closed(arg);
    pthread_mutex_lock(&p->lock);
  }
  cl_int err = CL_SUCCESS;
  while (atomic_load(&p->state) != HG_GATE_CLOSED) {
    int rc = timeout_ns ? pthread_cond_timedwait(&p->cond, &p->lock, &deadline) : pthread_cond_wait(&p->cond, &p->lock);
    bool inside = atomic_load(&p->state) != HG_GATE_CLOSED;
    if (rc == ETIMEDOUT && inside && keep_waiting) {
      timeout_ns = 0;
    } else if (rc == ETIMEDOUT && inside) {
      atomic_fetch_and(&p->state, ~HG_GATE_CLOSED);
      pthread_cond_broadcast(&p->cond);
      err = CL_MIGRATION_TIMEOUT_HETGPU;
      break;
    }
  }
  pthread_mutex_unlock(&p->lock);
  return err;
}

void hg_placement_open(hg_placement *p, hg_backend *backend) {
  pthread_mutex_lock(&p->lock);
  atomic_store_explicit(&p->backend, backend, memory_order_release);
  atomic_fetch_and(&p->state, ~HG_GATE_CLOSED);
  pthread_cond_broadcast(&p->cond);
  pthread_mutex_unlock(&p->lock);
}
