/* Stopping a context's running kernels at safe points (docs/safe-points.md): the settings, and
 * the request a migration or checkpoint makes. */
#ifndef HETGPU_PLATFORM_SAFEPOINTS_H
#define HETGPU_PLATFORM_SAFEPOINTS_H

#include <stdbool.h>
#include <stdint.h>

#include <CL/cl.h>

#include "devices/backend.h"

/* hg_safepoints_enabled (common/safepoint_settings.h): kernels run in their stoppable form
 * where the backend has one (devices/backend.h kernel_run), so a migration or checkpoint can
 * stop them mid-flight; off, plain kernels, which a migration waits for. */
#include "common/safepoint_settings.h"

/* HETGPU_STOP_AFTER=N[:backend] or LO-HI[:backend], a test setting: every kernel launch stops
 * by itself at its N-th safe-point check (once per launch; with LO-HI, N is drawn for each
 * launch from a generator seeded by HETGPU_STOP_SEED, else by the clock, the seed printed on
 * stderr) and its context migrates, at that safe point, to `backend`
 * (HETGPU_BACKEND's syntax) or else to the next usable backend after the one it ran on; there
 * it finishes. Returns this launch's N, or 0 when unset. */
uint64_t hg_stop_after_checks(void);
bool hg_stop_after_active(void); /* HETGPU_STOP_AFTER is set */
hg_backend *hg_stop_after_target(hg_backend *from);

/* A stoppable launch's own stop request, the one its backend polls (hg_launch.stop). The
 * context lists its running launches: a migration or checkpoint asks them all to stop, the
 * kernel time limit (platform/kernel_timeout.h) only its own. */
typedef struct hg_launch_stop {
  hg_stop_request request;
  cl_context ctx;
  hg_backend *backend;
  bool limit_passed; /* stopped by the time limit: hg_context_stop_clear leaves it requested */
  struct hg_launch_stop *prev, *next; /* the context's running launches, under its stop_lock */
} hg_launch_stop;

/* Lists the launch as running on `be` before it starts (requested already when a migration's
 * request stands), and takes it off the list once the backend returned. */
void hg_launch_stop_begin(hg_launch_stop *s, cl_context ctx, hg_backend *be);
void hg_launch_stop_end(hg_launch_stop *s);
/* Asks this launch alone to stop at its next safe point: it ran past the time limit. */
void hg_launch_stop_limit(hg_launch_stop *s);

/* Asks every kernel of ctx running now to stop at its next safe point (the gate should be
 * closed first, so the stopped commands wait for the migration instead of starting again);
 * hg_context_stop_clear withdraws the request, before the gate opens. */
void hg_context_stop_request(cl_context ctx);
void hg_context_stop_clear(cl_context ctx);

#endif
