/* The interpreter, generic build, and the choice between it and the FMA build (interp_fma.c)
 * made once per process from the host CPU's features. Both have their own label tables: code
 * is predecoded with the table of the variant that runs it. */
#include <pthread.h>
#include <stdlib.h>

#include "devices/riscv/sim/fp.h"
#include "devices/riscv/sim/sim_internal.h"

#define HG_SIM_INTERP_NAME hg_sim_interp_generic
#include "devices/riscv/sim/interp_body.h"

static int (*chosen)(hg_sim_core *, const void *const **);
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void choose(void) {
  chosen = hg_sim_interp_generic;
#if defined(__x86_64__) && defined(__GNUC__)
  const char *env = getenv("HETGPU_SIM_NO_FMA");
  if (__builtin_cpu_supports("fma") && !(env && *env == '1')) chosen = hg_sim_interp_fma;
#endif
}

int hg_sim_interp(hg_sim_core *c, const void *const **labels) {
  pthread_once(&choose_once, choose);
  return chosen(c, labels);
}
