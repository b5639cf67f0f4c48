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

#endif
