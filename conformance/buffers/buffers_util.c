#include "buffers_util.h"

#include <stdlib.h>

size_t bt_base_align(void) {
  cl_uint bits = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
  return bits / 8;
}

size_t bt_rand_range(size_t lo, size_t hi) {
  uint64_t r = ((uint64_t)hg_test_rand() << 32) | hg_test_rand();
  return lo + (size_t)(r % (uint64_t)(hi - lo + 1));
}

void *bt_random(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    abort();
  hg_test_fill_random(p, bytes);
  return p;
}

void *bt_poisoned(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    abort();
  memset(p, POISON, bytes);
  return p;
}

size_t bt_first_diff(const void *a, const void *b, size_t bytes) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < bytes; i++)
    if (x[i] != y[i])
      return i;
  return (size_t)-1;
}

cl_mem bt_buffer(cl_context ctx, cl_mem_flags flags, size_t size, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags | (init ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)init, &err);
  if (err != CL_SUCCESS) {
    hg_test_fail(__FILE__, __LINE__, "clCreateBuffer(%zu bytes) failed: %d", size, err);
    return NULL;
  }
  return m;
}
