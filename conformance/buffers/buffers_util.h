/* Helpers shared by the buffer tests. */
#ifndef HETGPU_CONFORMANCE_BUFFERS_UTIL_H
#define HETGPU_CONFORMANCE_BUFFERS_UTIL_H

#include <stddef.h>
#include <string.h>

#include "harness.h"

/* A byte value no random fill is likely to produce across a whole region. */
#define POISON 0xA5

/* The device's CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes. */
size_t bt_base_align(void);
/* A random value in [lo, hi]. */
size_t bt_rand_range(size_t lo, size_t hi);
/* malloc'd buffer of `bytes` random bytes / poisoned bytes. */
void *bt_random(size_t bytes);
void *bt_poisoned(size_t bytes);
/* Index of the first differing byte, or (size_t)-1 when equal. */
size_t bt_first_diff(const void *a, const void *b, size_t bytes);
/* Creates a buffer initialised with `init` (COPY_HOST_PTR), failing the test on error. */
cl_mem bt_buffer(cl_context ctx, cl_mem_flags flags, size_t size, const void *init);

#define CHECK_SAME(a, b, n)                                                                     \
  do {                                                                                          \
    size_t bt_d_ = bt_first_diff((a), (b), (n));                                                \
    CHECK_MSG(bt_d_ == (size_t)-1, "contents differ at byte %zu of %zu: %02x vs %02x", bt_d_, \
              (size_t)(n), ((const unsigned char *)(a))[bt_d_], ((const unsigned char *)(b))[bt_d_]); \
  } while (0)

#endif
