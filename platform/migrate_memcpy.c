/* Copying a migration's bytes between two host mappings with several threads. A move into
 * memory its target never touched is bound by the page faults that touch it (the kernel clears
 * each new page), not by the copy: threads fault their own slices in parallel, and on memory
 * already touched they add memory bandwidth one core does not reach. */
#include "platform/migrate_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define SLICE_MIN (4u << 20) /* below this per thread, one thread copies it all */
#define MAX_THREADS 16

/* A copy whose destination is not read again soon (a migration's target): streaming stores do
 * not first read each destination line into the cache, so the copy moves two bytes of memory
 * traffic per byte instead of three, while a GPU's DMA competes for the same memory. (Into a
 * pinned chunk the GPU reads next they were slower: the DMA reads cached lines.) */
void hg_migrate_stream_copy(void *dst, const void *src, size_t n) {
#if defined(__x86_64__)
  char *d = dst;
  const char *s = src;
  size_t head = (16 - ((uintptr_t)d & 15)) & 15;
  if (n < 256 || ((uintptr_t)s & 15) != ((uintptr_t)d & 15)) {
    memcpy(d, s, n);
    return;
  }
  memcpy(d, s, head);
  d += head, s += head, n -= head;
  for (; n >= 64; d += 64, s += 64, n -= 64) {
    __m128i a = _mm_load_si128((const __m128i *)s), b = _mm_load_si128((const __m128i *)(s + 16));
    __m128i c = _mm_load_si128((const __m128i *)(s + 32)), e = _mm_load_si128((const __m128i *)(s + 48));
    _mm_stream_si128((__m128i *)d, a);
    _mm_stream_si128((__m128i *)(d + 16), b);
    _mm_stream_si128((__m128i *)(d + 32), c);
    _mm_stream_si128((__m128i *)(d + 48), e);
  }
  _mm_sfence(); /* streamed stores are weakly ordered: visible before whoever is told next */
  memcpy(d, s, n);
#else
  memcpy(dst, src, n);
#endif
}

typedef struct slice {
  char *dst;
  const char *src;
  size_t n;
} slice;

static void *copy_slice(void *arg) {
  slice *s = arg;
  memcpy(s->dst, s->src, s->n);
  return NULL;
}

static unsigned copy_threads(size_t n) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t by_size = n / SLICE_MIN;
  unsigned t = cores > 0 ? (unsigned)cores : 1;
  if (t > MAX_THREADS)
    t = MAX_THREADS;
  return by_size < t ? (by_size ? (unsigned)by_size : 1) : t;
}

void hg_migrate_memcpy(void *dst, const void *src, size_t n) {
  unsigned t = copy_threads(n);
  slice s[MAX_THREADS];
  pthread_t th[MAX_THREADS];
  bool started[MAX_THREADS] = {false};
  size_t per = (n / t + 4095) & ~(size_t)4095; /* page-aligned slices: no page shared by two threads */
  for (unsigned i = 0; i < t; i++) {
    size_t off = per * i < n ? per * i : n;
    s[i] = (slice){(char *)dst + off, (const char *)src + off, off + per < n ? per : n - off};
    /* slice 0 is this thread's; a thread that cannot start is copied here too */
    if (i > 0 && s[i].n)
      started[i] = pthread_create(&th[i], NULL, copy_slice, &s[i]) == 0;
  }
  copy_slice(&s[0]);
  for (unsigned i = 1; i < t; i++) {
    if (started[i])
      pthread_join(th[i], NULL);
    else if (s[i].n)
      copy_slice(&s[i]);
  }
}
