/* The safe-point settings (common/safepoint_settings.h). */
#include "common/safepoint_settings.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static bool enabled = true;
static uint32_t interval = 256;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_settings(void) {
  const char *s = getenv("HETGPU_SAFE_POINTS");
  enabled = !s || strcmp(s, "0") != 0;
  s = getenv("HETGPU_SAFEPOINT_INTERVAL");
  long v = s && *s ? strtol(s, NULL, 10) : 0;
  if (v >= 1 && v <= 1L << 30)
    interval = (uint32_t)v;
}

bool hg_safepoints_enabled(void) {
  pthread_once(&once, read_settings);
  return enabled;
}

uint32_t hg_safepoint_interval(void) {
  pthread_once(&once, read_settings);
  return interval;
}
