/* The safe-point settings every layer reads the same way (docs/safe-points.md): the platform
 * decides whether launches are stoppable, the backends whether to build stoppable forms and
 * how often their kernels check for a stop. Read once per process. */
#ifndef HETGPU_COMMON_SAFEPOINT_SETTINGS_H
#define HETGPU_COMMON_SAFEPOINT_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

/* HETGPU_SAFE_POINTS: false only when it is "0" (default on). */
bool hg_safepoints_enabled(void);
/* HETGPU_SAFEPOINT_INTERVAL: loop-header crossings between two checks, 1..2^30 (default 256). */
uint32_t hg_safepoint_interval(void);
/* HETGPU_SLICE_US: how long a slice of a sliced launch should run on a GPU, 0 (no slices) to
 * 10^6 microseconds (default 250; CPU devices twice as long). */
uint64_t hg_slice_target_ns(void);
/* HETGPU_FORMS_BACKGROUND: whether a vendor device builds the stoppable forms of a program after
 * the program, in the background ("0": never; "1": always; unset: `by_default`, which the
 * vendor backend makes true on GPU devices, whose compilers take their time over the forms, and
 * for programs built from SPIR bitcode). */
bool hg_forms_in_background(bool by_default);
/* HETGPU_FORMS_CHILD: whether a vendor device's stoppable forms, when built from OpenCL C, are
 * compiled by the vendor in a child process and loaded here as its binary ("0": never; "1":
 * always; unset: `by_default`, which the vendor backend makes true on GPU devices). */
bool hg_forms_in_child(bool by_default);

#endif
