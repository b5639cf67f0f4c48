/* Copying a migration's bytes between two host mappings with several threads, and making a
 * target's memory resident before the copy. A move into memory its target never touched is
 * bound by the page faults that touch it (the kernel clears each new page), not by the copy:
 * a migration faults the target in before its downtime (hg_mem_storage_prepare), on several
 * threads, and on memory already touched threads add memory bandwidth one core does not reach.
 * Huge pages (MADV_HUGEPAGE) were tried and dropped: where the kernel compacts memory for them on
 * a fault (transparent_hugepage/defrag "madvise", Debian's default) the first faults of a
 * fragmented host stalled 2-5x longer than 4 KiB pages, the later ones ran 2x faster. */
#include "platform/migrate_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
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

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* Faults the slice's pages in for writing: one call into the kernel, or, where it lacks that
 * (before 5.14), a store per page (the bytes are not current: a zero is as good as any). */
static void *fault_slice(void *arg) {
  slice *s = arg;
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t lo = ((uintptr_t)s->dst + page - 1) & ~(uintptr_t)(page - 1), hi = (uintptr_t)s->dst + s->n;
  if (hi > lo && madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) == 0)
    lo = hi;
  if (lo > (uintptr_t)s->dst) /* the part of a page before lo */
    *(volatile char *)s->dst = 0;
  for (; lo < hi; lo += (uintptr_t)page)
    *(volatile char *)lo = 0;
  return NULL;
}

static unsigned slice_threads(size_t n) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t by_size = n / SLICE_MIN;
  unsigned t = cores > 0 ? (unsigned)cores : 1;
  if (t > MAX_THREADS)
    t = MAX_THREADS;
  return by_size < t ? (by_size ? (unsigned)by_size : 1) : t;
}

/* Runs fn over page-aligned slices of [dst, dst + n) (and the matching parts of src), one
 * thread each: no page is shared by two threads. */
static void each_slice(void *dst, const void *src, size_t n, void *(*fn)(void *)) {
  unsigned t = slice_threads(n);
  slice s[MAX_THREADS];
  pthread_t th[MAX_THREADS];
  bool started[MAX_THREADS] = {false};
  size_t per = (n / t + 4095) & ~(size_t)4095;
  for (unsigned i = 0; i < t; i++) {
    size_t off = per * i < n ? per * i : n;
    s[i] = (slice){(char *)dst + off, src ? (const char *)src + off : NULL, off + per < n ? per : n - off};
    /* slice 0 is this thread's; a thread that cannot start is done here too */
    if (i > 0 && s[i].n)
      started[i] = pthread_create(&th[i], NULL, fn, &s[i]) == 0;
  }
  fn(&s[0]);
  for (unsigned i = 1; i < t; i++) {
    if (started[i])
      pthread_join(th[i], NULL);
    else if (s[i].n)
      fn(&s[i]);
  }
}

void hg_migrate_memcpy(void *dst, const void *src, size_t n) { each_slice(dst, src, n, copy_slice); }

void hg_migrate_prefault(void *p, size_t n) { each_slice(p, NULL, n, fault_slice); }
