/* hetGPU's one clock: CLOCK_MONOTONIC in nanoseconds. Event profiling times, the device and host
 * timers of clGetDeviceAndHostTimer, and the device times backends report (moved onto it) all
 * use it, so that times stay comparable whatever backend ran a command. */
#ifndef HETGPU_COMMON_HOST_CLOCK_H
#define HETGPU_COMMON_HOST_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t hg_host_clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The time `ns` from now on `clock`, as pthread_cond_timedwait takes it (the clock must be the
 * condition variable's). */
static inline struct timespec hg_clock_deadline(clockid_t clock, uint64_t ns) {
  struct timespec t;
  clock_gettime(clock, &t);
  uint64_t nsec = (uint64_t)t.tv_nsec + ns % 1000000000ull;
  t.tv_sec += (time_t)(ns / 1000000000ull + nsec / 1000000000ull);
  t.tv_nsec = (long)(nsec % 1000000000ull);
  return t;
}

#endif
