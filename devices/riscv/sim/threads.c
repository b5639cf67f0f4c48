/* How many host threads simulate cores: HETGPU_SIM_THREADS, else the number of physical cores
 * hwloc finds (hyper-threads of one core share its execution units: an interpreter gains little
 * from them). */
#include <stdlib.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<hwloc.h>)
#include <hwloc.h>
#define HG_SIM_HAVE_HWLOC 1
#endif
#endif

#include "devices/riscv/sim/sim_internal.h"

unsigned hg_sim_default_threads(void) {
  const char *env = getenv("HETGPU_SIM_THREADS");
  if (env && *env) {
    long n = strtol(env, NULL, 10);
    if (n >= 1 && n <= 1024) return (unsigned)n;
  }
  unsigned n = 1;
#ifndef HG_SIM_HAVE_HWLOC
  long online = sysconf(_SC_NPROCESSORS_ONLN); /* built without hwloc: logical CPUs */
  if (online > 0) n = (unsigned)online;
#else
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) == 0) {
    if (hwloc_topology_load(topo) == 0) {
      int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
      if (cores <= 0) cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
      if (cores > 0) n = (unsigned)cores;
    }
    hwloc_topology_destroy(topo);
  }
#endif
  return n;
}
