/* The backends of this process: probed once, all kept together (a context can migrate between
 * them); vendors listed from their cached facts stay closed until their first use
 * (hg_backend_open). HETGPU_BACKEND chooses where a new context starts:
 *   HETGPU_BACKEND=vendor:NAME  the vendor platform whose platform or device name contains NAME
 *   HETGPU_BACKEND=riscv        our RISC-V many-core (devices/riscv, when built)
 *   unset                       the best available: a GPU if there is one, else the first CPU
 * HETGPU_BACKENDS=NAME,NAME... (same names) keeps only those backends; unset keeps every one. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "devices/backend.h"
#include "devices/profile.h"
#include "devices/riscv/riscv.h"
#include "devices/vendor/vendor.h"
#include "common/log.h"

#define HG_MAX_BACKENDS 16

static hg_backend *backends[HG_MAX_BACKENDS];
static unsigned num_backends;
static hg_backend *selected;

static bool name_matches(const hg_backend *be, const char *want) {
  return strstr(be->platform_name, want) || strstr(be->device_name, want) || strstr(be->name, want);
}

static hg_backend *choose(const char *spec) {
  if (spec && *spec) {
    if (!strncmp(spec, "vendor:", 7)) {
      for (unsigned i = 0; i < num_backends; i++)
        if (!strcmp(backends[i]->ops->kind, "vendor") && name_matches(backends[i], spec + 7))
          return backends[i];
      return NULL;
    }
    for (unsigned i = 0; i < num_backends; i++)
      if (!strcmp(backends[i]->ops->kind, spec))
        return backends[i];
    HG_LOG(HG_LOG_BACKEND, "HETGPU_BACKEND=%s matches no backend", spec);
    return NULL;
  }
  for (unsigned i = 0; i < num_backends; i++)
    if (backends[i]->type & CL_DEVICE_TYPE_GPU)
      return backends[i];
  return num_backends ? backends[0] : NULL;
}

/* True when HETGPU_BACKENDS is unset or one of its names matches the backend. */
static bool allowed(const hg_backend *be) {
  const char *list = getenv("HETGPU_BACKENDS");
  if (!list || !*list)
    return true;
  char *copy = strdup(list), *save = NULL;
  bool ok = false;
  for (char *name = copy ? strtok_r(copy, ",", &save) : NULL; name && !ok; name = strtok_r(NULL, ",", &save)) {
    if (!strncmp(name, "vendor:", 7))
      ok = !strcmp(be->ops->kind, "vendor") && name_matches(be, name + 7);
    else
      ok = !strcmp(be->ops->kind, name);
  }
  free(copy);
  return ok;
}

/* Probes the backends (vendors from their cached facts when from_facts) and selects one; false
 * when the selected backend could not be opened (the facts were wrong), with nothing kept. */
static bool probe(bool from_facts) {
  unsigned n = hg_vendor_probe(backends, HG_MAX_BACKENDS, from_facts);
  n += hg_riscv_probe(backends + n, HG_MAX_BACKENDS - n); /* after the vendors: never the default */
  for (unsigned i = 0; i < n; i++) {
    char why[256];
    if (!allowed(backends[i])) {
      HG_LOG(HG_LOG_BACKEND, "%s left out: not in HETGPU_BACKENDS", backends[i]->name);
      backends[i]->ops->destroy(backends[i]);
      continue;
    }
    if (!hg_profile_admits(&backends[i]->limits, why, sizeof why)) {
      HG_LOG(HG_LOG_BACKEND, "%s cannot honour the virtual device: %s", backends[i]->name, why);
      backends[i]->ops->destroy(backends[i]);
      continue;
    }
    backends[i]->index = num_backends;
    backends[num_backends++] = backends[i];
    HG_LOG(HG_LOG_BACKEND, "backend %u: %s", num_backends - 1, backends[i]->name);
  }
  selected = choose(getenv("HETGPU_BACKEND"));
  /* where contexts start is opened now: its hints are the device's (docs/virtual-device.md) */
  if (!selected || hg_backend_open(selected) == CL_SUCCESS)
    return true;
  for (unsigned i = 0; i < num_backends; i++)
    backends[i]->ops->destroy(backends[i]);
  num_backends = 0;
  selected = NULL;
  return false;
}

static void probe_all(void) {
  if (!probe(true))
    probe(false);
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

cl_int hg_backends_init(void) {
  pthread_once(&probe_once, probe_all);
  return num_backends ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

unsigned hg_backend_count(void) { return num_backends; }
hg_backend *hg_backend_at(unsigned index) { return index < num_backends ? backends[index] : NULL; }
hg_backend *hg_backend_active(void) { return selected; }
hg_backend *hg_backend_find(const char *spec) { return spec && *spec ? choose(spec) : NULL; }

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

cl_int hg_backend_open(hg_backend *be) {
  if (atomic_load_explicit(&be->closed, memory_order_acquire)) {
    pthread_mutex_lock(&open_lock);
    if (atomic_load_explicit(&be->closed, memory_order_relaxed)) {
      if (be->ops->open(be) != CL_SUCCESS)
        atomic_store(&be->lost, true);
      atomic_store_explicit(&be->closed, false, memory_order_release);
    }
    pthread_mutex_unlock(&open_lock);
  }
  return atomic_load(&be->lost) ? HG_ERR_DEVICE_LOST : CL_SUCCESS;
}
