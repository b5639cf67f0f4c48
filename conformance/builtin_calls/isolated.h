/* Runs many checks that may crash the process, each in a child process so that a crash or a
 * hang is one failed check, not the end of the test: a child runs checks one after the other
 * (after its own setup, e.g. an OpenCL context, never inherited across fork) and reports each
 * outcome; when one dies, the next child starts after the check that killed it. */
#ifndef HETGPU_CONFORMANCE_BUILTIN_CALLS_ISOLATED_H
#define HETGPU_CONFORMANCE_BUILTIN_CALLS_ISOLATED_H

#include <stdbool.h>
#include <stddef.h>

/* Outcomes other than the check's own (0..200). */
#define BC_OUTCOME_CRASHED 254 /* the child died by a signal (the signal: *signals) */
#define BC_OUTCOME_HUNG 253    /* past timeout_s */
#define BC_OUTCOME_SETUP 252   /* the child's setup failed */

typedef struct bc_isolated_fns {
  int (*setup)(void *ctx);             /* in each child before its first check; 0 on success */
  int (*check)(size_t i, void *ctx);   /* 0..200 */
  void *ctx;
} bc_isolated_fns;

/* What the outcomes above mean, NULL for the check's own. */
const char *bc_isolated_outcome_text(unsigned char outcome);

/* outcome[i] (and signals[i], the signal of a crash, else 0) for i in [0, n). */
void bc_run_isolated(size_t n, const bc_isolated_fns *fns, unsigned timeout_s, unsigned char *outcome, int *signals);

/* bc_run_isolated, then a FAIL line for every crash and for the first 40 other failures
 * (outcome not 0): label(i) and outcome_text. Returns the failures; *crashes the crashes. */
unsigned bc_run_reported(size_t n, const bc_isolated_fns *fns, unsigned timeout_s, const char *(*label)(size_t i, void *ctx),
                         const char *(*outcome_text)(unsigned char outcome), unsigned *crashes);

#endif
