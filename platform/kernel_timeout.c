/* HETGPU_KERNEL_TIMEOUT and the watchdog thread (platform/kernel_timeout.h). One thread for the
 * process, started by the first timer armed, sleeps until the earliest deadline among the
 * armed timers; timers are few (one per stoppable launch in flight), so a list does. */
#include "platform/kernel_timeout.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "common/host_clock.h"
#include "common/log.h"

#define MAX_TIMEOUT_S (7.0 * 24 * 3600)

static uint64_t timeout_ns;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

static void read_setting(void) {
  const char *s = getenv("HETGPU_KERNEL_TIMEOUT");
  if (!s || !*s)
    return;
  char *end;
  double v = strtod(s, &end);
  if (end != s && !*end && v >= 0 && v <= MAX_TIMEOUT_S)
    timeout_ns = (uint64_t)(v * 1e9);
  else
    HG_LOG(HG_LOG_SCHED, "HETGPU_KERNEL_TIMEOUT=%s is not a number of seconds from 0 to a week; no limit", s);
  if (timeout_ns)
    HG_LOG(HG_LOG_SCHED, "kernel launches are stopped after %.3f s (HETGPU_KERNEL_TIMEOUT)", timeout_ns / 1e9);
}

uint64_t hg_kernel_timeout_ns(void) {
  pthread_once(&settings_once, read_setting);
  return timeout_ns;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake; /* on CLOCK_MONOTONIC, the clock of the deadlines */
static bool started;
static hg_kernel_timer *armed;

static void *watchdog_main(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "hetgpu-timeout"); /* top, gdb and perf tell our threads apart */
  pthread_mutex_lock(&lock);
  for (;;) {
    uint64_t now = hg_host_clock_ns(), next = UINT64_MAX;
    for (hg_kernel_timer **p = &armed; *p;) {
      hg_kernel_timer *t = *p;
      if (t->deadline_ns <= now) {
        *p = t->next;
        t->fired = true;
        t->fire(t->arg); /* under the lock: a disarm returns only once this is done */
        continue;
      }
      if (t->deadline_ns < next)
        next = t->deadline_ns;
      p = &t->next;
    }
    if (next == UINT64_MAX) {
      pthread_cond_wait(&wake, &lock);
    } else {
      struct timespec at = {.tv_sec = (time_t)(next / 1000000000u), .tv_nsec = (long)(next % 1000000000u)};
      pthread_cond_timedwait(&wake, &lock, &at);
    }
  }
  return NULL;
}

/* Under lock. */
static bool start_watchdog(void) {
  if (started)
    return true;
  pthread_condattr_t ca;
  pthread_attr_t ta;
  pthread_t thread;
  if (pthread_condattr_init(&ca) != 0)
    return false;
  bool ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&wake, &ca) == 0;
  pthread_condattr_destroy(&ca);
  if (ok && pthread_attr_init(&ta) == 0) {
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    started = pthread_create(&thread, &ta, watchdog_main, NULL) == 0;
    pthread_attr_destroy(&ta);
    if (!started)
      pthread_cond_destroy(&wake);
  }
  if (!started)
    HG_LOG(HG_LOG_SCHED, "no watchdog thread: kernels run without HETGPU_KERNEL_TIMEOUT");
  return started;
}

bool hg_kernel_timer_arm(hg_kernel_timer *t, uint64_t after_ns, void (*fire)(void *), void *arg) {
  t->deadline_ns = hg_host_clock_ns() + after_ns;
  t->fire = fire;
  t->arg = arg;
  t->fired = false;
  pthread_mutex_lock(&lock);
  bool ok = start_watchdog();
  if (ok) {
    t->next = armed;
    armed = t;
    pthread_cond_signal(&wake);
  }
  pthread_mutex_unlock(&lock);
  return ok;
}

bool hg_kernel_timer_disarm(hg_kernel_timer *t) {
  pthread_mutex_lock(&lock);
  for (hg_kernel_timer **p = &armed; *p; p = &(*p)->next)
    if (*p == t) {
      *p = t->next;
      break;
    }
  bool fired = t->fired;
  pthread_mutex_unlock(&lock);
  return fired;
}
