/* The hang guard and the host time limit of a launch (hg_sim_guard_check, sim_internal.h).
 *
 * A job is checked at taken jumps once it ran CHECK_INSNS instructions since its last check
 * (or fewer, when its guard is nearer): the guard is its own simulated cycles
 * (max_cycles_per_job), so a work-group is held to its own allowance whichever core runs it
 * and whatever ran there before. The first HANG or TIME_LIMIT fault cuts the launch short:
 * the other cores see it at their next check and end their jobs as CUT, and start no other, so
 * one hung group does not leave the rest to run out their own guards. Checks are rare enough
 * to cost nothing measurable (one atomic load, and a clock read only under a time limit). */
#include <time.h>

#include "devices/riscv/sim/sim_internal.h"

/* Instructions between checks: about 4 ms of host time at the interpreter's speed (a cut
 * launch ends that soon after its fault). */
#define CHECK_INSNS (1ull << 20)

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Cuts the launch short on behalf of this job's fault; false when another job did first. */
static bool cut_by(hg_sim_stop_state *s) { return !atomic_exchange(&s->cut, true); }

int hg_sim_guard_check(hg_sim_core *c, uint64_t job_cycles, uint64_t *next_insns) {
  hg_sim_stop_state *s = c->stop;
  if (atomic_load_explicit(&s->cut, memory_order_relaxed))
    return 1;
  if (job_cycles > s->guard_cycles) {
    if (!cut_by(s))
      return 1;
    c->fault.kind = HG_SIM_FAULT_HANG;
    c->fault.addr = s->guard_cycles;
    return -1;
  }
  if (s->deadline_ns && monotonic_ns() >= s->deadline_ns) {
    if (!cut_by(s))
      return 1;
    c->fault.kind = HG_SIM_FAULT_TIME_LIMIT;
    c->fault.addr = s->time_limit_ns;
    return -1;
  }
  /* cycles grow at least one per instruction: the guard is checked again before it can pass */
  uint64_t room = s->guard_cycles - job_cycles;
  *next_insns = room < CHECK_INSNS ? room : CHECK_INSNS;
  return 0;
}
