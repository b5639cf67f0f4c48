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

void hg_launch_stop_begin(hg_launch_stop *s, cl_context ctx, hg_backend *be) {
  s->ctx = ctx;
  s->backend = be;
  s->limit_passed = false;
  pthread_mutex_lock(&ctx->stop_lock);
  atomic_init(&s->request.requested, atomic_load(&ctx->stop.requested));
  s->prev = NULL;
  s->next = ctx->launches;
  if (ctx->launches)
    ctx->launches->prev = s;
  ctx->launches = s;
  pthread_mutex_unlock(&ctx->stop_lock);
}

void hg_launch_stop_end(hg_launch_stop *s) {
  cl_context ctx = s->ctx;
  pthread_mutex_lock(&ctx->stop_lock);
  if (s->prev)
    s->prev->next = s->next;
  else
    ctx->launches = s->next;
  if (s->next)
    s->next->prev = s->prev;
  pthread_mutex_unlock(&ctx->stop_lock);
}

/* Under ctx->stop_lock: the launch is listed, so its backend still runs it or just returned. */
static void stop_one(hg_launch_stop *s) {
  atomic_store(&s->request.requested, true);
  if (s->backend->ops->kernel_stop)
    s->backend->ops->kernel_stop(s->backend, &s->request);
}

void hg_launch_stop_limit(hg_launch_stop *s) {
  pthread_mutex_lock(&s->ctx->stop_lock);
  s->limit_passed = true;
  stop_one(s);
  pthread_mutex_unlock(&s->ctx->stop_lock);
}

void hg_context_stop_request(cl_context ctx) {
  pthread_mutex_lock(&ctx->stop_lock);
  atomic_store(&ctx->stop.requested, true);
  for (hg_launch_stop *s = ctx->launches; s; s = s->next)
    stop_one(s);
  pthread_mutex_unlock(&ctx->stop_lock);
}

void hg_context_stop_clear(cl_context ctx) {
  pthread_mutex_lock(&ctx->stop_lock);
  atomic_store(&ctx->stop.requested, false);
  for (hg_launch_stop *s = ctx->launches; s; s = s->next)
    if (!s->limit_passed)
      atomic_store(&s->request.requested, false);
  pthread_mutex_unlock(&ctx->stop_lock);
}
