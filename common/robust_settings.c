/* HETGPU_ROBUST (common/robust_settings.h). */
#include "common/robust_settings.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static bool enabled;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_setting(void) {
  const char *s = getenv("HETGPU_ROBUST");
  enabled = s && !strcmp(s, "1");
}

bool hg_robust_enabled(void) {
  pthread_once(&once, read_setting);
  return enabled;
}
