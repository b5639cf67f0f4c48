/* HETGPU_FAULT_INJECT (platform/fault_inject.h). */
#include "platform/fault_inject.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"

bool hg_fault_injected(const char *point) {
  const char *spec = getenv("HETGPU_FAULT_INJECT");
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
