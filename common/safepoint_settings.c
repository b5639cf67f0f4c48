/* The safe-point settings (common/safepoint_settings.h). */
#include "common/safepoint_settings.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static bool enabled = true;
static uint32_t interval = 256;
static uint64_t slice_ns = 250000;
static int forms_background = -1, forms_child = -1; /* -1: unset */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_settings(void) {
  const char *s = getenv("HETGPU_SAFE_POINTS");
  enabled = !s || strcmp(s, "0") != 0;
  s = getenv("HETGPU_SAFEPOINT_INTERVAL");
  long v = s && *s ? strtol(s, NULL, 10) : 0;
  if (v >= 1 && v <= 1L << 30)
    interval = (uint32_t)v;
  s = getenv("HETGPU_SLICE_US");
  char *end = NULL;
  v = s && *s ? strtol(s, &end, 10) : -1;
  if (v >= 0 && v <= 1000000 && end && !*end)
    slice_ns = (uint64_t)v * 1000;
  s = getenv("HETGPU_FORMS_BACKGROUND");
  if (s && (!strcmp(s, "0") || !strcmp(s, "1")))
    forms_background = s[0] - '0';
  s = getenv("HETGPU_FORMS_CHILD");
  if (s && (!strcmp(s, "0") || !strcmp(s, "1")))
    forms_child = s[0] - '0';
}

bool hg_safepoints_enabled(void) {
  pthread_once(&once, read_settings);
  return enabled;
}

uint32_t hg_safepoint_interval(void) {
  pthread_once(&once, read_settings);
  return interval;
}

uint64_t hg_slice_target_ns(void) {
  pthread_once(&once, read_settings);
  return slice_ns;
}

bool hg_forms_in_background(bool by_default) {
  pthread_once(&once, read_settings);
  return forms_background < 0 ? by_default : forms_background == 1;
}

bool hg_forms_in_child(bool by_default) {
  pthread_once(&once, read_settings);
  return forms_child < 0 ? by_default : forms_child == 1;
}
