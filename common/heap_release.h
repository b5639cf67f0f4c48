/* Gives the pages of freed heap memory back to the system. A build's compilers (ours, and a
 * vendor's inside its own clBuildProgram) free their short-lived allocations when they end,
 * but glibc keeps freed memory below the top of the heap resident: without this, a build's
 * peak would stay in the process's resident memory for the rest of its life. */
#ifndef HETGPU_COMMON_HEAP_RELEASE_H
#define HETGPU_COMMON_HEAP_RELEASE_H

#include <malloc.h>
#include <stdint.h>

#include "common/host_clock.h"
#include "common/log.h"

/* A build shorter than this ran no compiler (its program came from the caches) and freed little:
 * glibc's trim walks every free chunk of every arena, which costs such a build more than it
 * gives back (0.3-0.9 ms of a 3 ms cached build on PoCL here; 175-240 ms after a stoppable
 * forms build). */
#define HG_HEAP_RELEASE_MIN_BUILD_NS 20000000ull

/* After a build that began at start_ns (hg_host_clock_ns()). */
static inline void hg_heap_release_after_build(uint64_t start_ns) {
  uint64_t t0 = hg_host_clock_ns();
  if (t0 - start_ns < HG_HEAP_RELEASE_MIN_BUILD_NS)
    return;
  malloc_trim(0);
  HG_LOG(HG_LOG_COMPILE, "freed heap memory given back in %.1f ms",
         (double)(hg_host_clock_ns() - t0) / 1e6);
}

#endif
