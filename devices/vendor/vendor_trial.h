/* Which code runs a kernel's plain launches where its program went to NVIDIA as PTX: LLVM's PTX
 * or NVIDIA's own build of the lowered OpenCL C, chosen by their device times on the kernel's
 * own launches (vendor_trial.c). Everything here runs under the kernel's launch_lock. */
#ifndef HETGPU_VENDOR_TRIAL_H
#define HETGPU_VENDOR_TRIAL_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>

#include "devices/backend.h"

/* launches of each code timed, after one of each not counted (a module's first launch loads it) */
enum { HG_VENDOR_TRIAL_RUNS = 5, HG_VENDOR_TRIAL_SAMPLES = 2 * (HG_VENDOR_TRIAL_RUNS + 1) };

typedef struct hg_vendor_trial hg_vendor_trial;

/* A trial of `own` (the vendor's own build, which the trial then holds) against the PTX kernel;
 * NULL without memory. */
hg_vendor_trial *hg_vendor_trial_new(cl_kernel own);

/* The kernel launch l runs while the trial is on: the PTX kernel `ptx` or the trial's own build,
 * in turn, for launches of the first sampled launch's shape; *sample is then the launch's
 * sample (to pass to hg_vendor_trial_ran with its event), else -1 and `ptx` runs it. */
cl_kernel hg_vendor_trial_pick(hg_vendor_trial *t, cl_kernel ptx, const hg_launch *l, int *sample);

/* A launch that cannot be a sample (a synchronous one) ran the PTX: it counts toward the
 * launches after which the trial settles for the own build. */
void hg_vendor_trial_passed(hg_vendor_trial *t);

/* The event of sample `sample`'s launch (retained here; NULL: it failed to launch). */
void hg_vendor_trial_ran(hg_vendor_trial *t, int sample, cl_event ev);

/* 1: the vendor's own build runs the kernel's launches from now on, 0: the PTX, -1: not known yet
 * (samples still to take or running). A trial that never gets its samples of one shape settles
 * for the vendor's own build after a while. */
int hg_vendor_trial_verdict(hg_vendor_trial *t);

/* Ends the trial: the own build it holds if keep_own (else released) and NULL. */
cl_kernel hg_vendor_trial_end(hg_vendor_trial *t, bool keep_own);

/* The choice from device times: 1 when the own build's median time is at most 1% over the PTX's. */
int hg_vendor_trial_choose(const uint64_t ptx_ns[HG_VENDOR_TRIAL_RUNS], const uint64_t own_ns[HG_VENDOR_TRIAL_RUNS]);

#endif
