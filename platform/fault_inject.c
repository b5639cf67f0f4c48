/* HETGPU_FAULT_INJECT (platform/fault_inject.h). */
#include "platform/fault_inject.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

static bool armed;
static pthread_once_t armed_once = PTHREAD_ONCE_INIT;

/* A process whose environment has no HETGPU_FAULT_INJECT when the driver first asks never reads
 * it again: the check sits on every kernel launch, where getenv cost 370 instructions. */
static void arm(void) { armed = getenv("HETGPU_FAULT_INJECT") != NULL; }

bool hg_fault_injected(const char *point) {
  pthread_once(&armed_once, arm);
  const char *spec = armed ? getenv("HETGPU_FAULT_INJECT") : NULL;
  if (!spec)
    return false;
  size_t n = strlen(point);
  for (const char *p = spec; (p = strstr(p, point)); p += n)
    if ((p == spec || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) {
      HG_LOG(HG_LOG_MIGRATE, "fault injected: %s", point);
      return true;
    }
  return false;
}
