/* Settings and requests for stopping kernels at safe points (platform/safepoints.h). */
#include "platform/safepoints.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "platform/platform.h"

static uint64_t stop_lo, stop_hi; /* 0: unset */
static uint64_t stop_rng;           /* xorshift64 state, under stop_rng_lock */
static pthread_mutex_t stop_rng_lock = PTHREAD_MUTEX_INITIALIZER;
static char stop_target[256];
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

static void read_settings(void) {
  const char *s = getenv("HETGPU_STOP_AFTER");
  if (s && *s) {
    char *end;
    unsigned long long lo = strtoull(s, &end, 10), hi = lo;
    if (end != s && *end == '-') {
      const char *h = end + 1;
      hi = strtoull(h, &end, 10);
      if (end == h)
        hi = 0;
    }
    if (end != s && (*end == 0 || *end == ':') && lo && hi >= lo) {
      stop_lo = lo;
      stop_hi = hi;
      if (*end == ':')
        strncpy(stop_target, end + 1, sizeof stop_target - 1);
      const char *seed = getenv("HETGPU_STOP_SEED");
      stop_rng = seed && *seed ? strtoull(seed, NULL, 10) : hg_host_clock_ns();
      if (!stop_rng)
        stop_rng = 1;
      /* a test setting: the seed goes where the test's output is, to repeat a failure */
      if (hi > lo)
        fprintf(stderr, "hetGPU: HETGPU_STOP_AFTER=%s HETGPU_STOP_SEED=%llu\n", s, (unsigned long long)stop_rng);
    } else {
      HG_LOG(HG_LOG_MIGRATE, "HETGPU_STOP_AFTER=%s is not N[:backend] or LO-HI[:backend] (N >= 1); ignored", s);
    }
  }
}

bool hg_stop_after_active(void) {
  pthread_once(&settings_once, read_settings);
  return hg_safepoints_enabled() && stop_lo;
}

uint64_t hg_stop_after_checks(void) {
  pthread_once(&settings_once, read_settings);
  if (!hg_safepoints_enabled() || !stop_lo)
    return 0;
  if (stop_lo == stop_hi)
    return stop_lo;
  pthread_mutex_lock(&stop_rng_lock);
  stop_rng ^= stop_rng << 13;
  stop_rng ^= stop_rng >> 7;
  stop_rng ^= stop_rng << 17;
  uint64_t n = stop_lo + stop_rng % (stop_hi - stop_lo + 1);
  pthread_mutex_unlock(&stop_rng_lock);
  return n;
}

hg_backend *hg_stop_after_target(hg_backend *from) {
  pthread_once(&settings_once, read_settings);
  if (stop_target[0])
    return hg_backend_find(stop_target);
  unsigned n = hg_backend_count();
  for (unsigned i = 1; i <= n; i++) {
    hg_backend *be = hg_backend_at((from->index + i) % n);
    if (be && be != from && !atomic_load(&be->lost))
      return be;
  }
  return NULL;
}

void hg_context_stop_request(cl_context ctx, hg_backend *be) {
  atomic_store(&ctx->stop.requested, true);
  if (be->ops->kernel_stop)
    be->ops->kernel_stop(be, &ctx->stop);
}

void hg_context_stop_clear(cl_context ctx) { atomic_store(&ctx->stop.requested, false); }
