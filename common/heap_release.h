/* Gives the pages of freed heap memory back to the system. A build's compilers (ours, and a
 * vendor's inside its own clBuildProgram) free their short-lived allocations when they end,
 * but glibc keeps freed memory below the top of the heap resident: without this, a build's
 * peak would stay in the process's resident memory for the rest of its life. */
#ifndef HETGPU_COMMON_HEAP_RELEASE_H
#define HETGPU_COMMON_HEAP_RELEASE_H

#include <malloc.h>

static inline void hg_heap_release_freed(void) { malloc_trim(0); }

#endif
