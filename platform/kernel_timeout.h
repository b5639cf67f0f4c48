/* Kernel time limits (HETGPU_KERNEL_TIMEOUT, docs/kernel-timeout.md): the setting, and the
 * watchdog that stops a stoppable launch which runs past it on a backend that cannot end a
 * launch by itself (devices/backend.h kernel_time_limit). */
#ifndef HETGPU_PLATFORM_KERNEL_TIMEOUT_H
#define HETGPU_PLATFORM_KERNEL_TIMEOUT_H

#include <stdbool.h>
#include <stdint.h>

/* HETGPU_KERNEL_TIMEOUT in nanoseconds: seconds, fractions allowed ("0.5"), at most a week;
 * 0 (no limit) when unset, 0, or not such a number (logged under HETGPU_DEBUG=sched). */
uint64_t hg_kernel_timeout_ns(void);

/* One launch's timer. When `after_ns` passes before hg_kernel_timer_disarm, the watchdog
 * thread calls fire(arg) once, holding the watchdog's lock (so fire must not arm or disarm). */
typedef struct hg_kernel_timer {
  uint64_t deadline_ns; /* common/host_clock.h */
  void (*fire)(void *arg);
  void *arg;
  bool fired;           /* under the watchdog's lock */
  struct hg_kernel_timer *next;
} hg_kernel_timer;

/* False when no watchdog thread could be started: the launch then runs without a limit. */
bool hg_kernel_timer_arm(hg_kernel_timer *t, uint64_t after_ns, void (*fire)(void *), void *arg);
/* Takes the timer back: fire has returned or will never be called. True when it fired. */
bool hg_kernel_timer_disarm(hg_kernel_timer *t);

#endif
