/* Placement: which backend runs a context's work, and the gate that lets a migration change it
 * while the application runs.
 *
 * Every command is placed when it is handed to a backend (hg_command_place), not when it is
 * enqueued: a command enqueued before a migration and started after it runs on the target.
 * Placing enters the context's gate; the command leaves it once the backend has the work (an
 * asynchronous submission) or has done it (a synchronous run). A migration closes the gate:
 * new placements wait, and it waits (with a timeout) until no command is between enter and
 * leave. With the gate closed nothing runs on the context's backend except the work already
 * handed to it, which every later synchronous backend operation waits for (devices/backend.h),
 * so the migration sees the contents that work leaves. */
#ifndef HETGPU_PLATFORM_PLACEMENT_H
#define HETGPU_PLATFORM_PLACEMENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "devices/backend.h"

#define HG_GATE_CLOSED 0x80000000u

typedef struct hg_placement {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  /* where the context's work runs now: changed under lock, read without it by
   * hg_placement_current (twice per launch) */
  hg_backend *_Atomic backend;
  /* HG_GATE_CLOSED (a migration or checkpoint holds the gate) plus the number of placements
   * between enter and leave: an open gate is entered and left with one atomic operation each,
   * without the lock (twice per launch) */
  atomic_uint state;
  struct hg_command *stopped; /* commands stopped at a safe point, waiting to enter again */
} hg_placement;

struct hg_command;

int hg_placement_init(hg_placement *p, hg_backend *backend);
void hg_placement_destroy(hg_placement *p);

/* The backend work of the context runs on now, without entering the gate: for decisions that
 * may be revised when the work is placed (e.g. whether a command can use the backend's
 * asynchronous stream). */
hg_backend *hg_placement_current(hg_placement *p);

/* Enters the gate (waiting while a migration holds it) and returns the backend to use until
 * hg_placement_leave. Never call it twice on one thread without leaving in between. */
hg_backend *hg_placement_enter(hg_placement *p);
void hg_placement_leave(hg_placement *p);

/* Runs a command's work where it belongs: hg_command_place (placement.c), the one function that
 * decides which backend a command runs on, enters its context's gate and records the backend in
 * cmd->backend; then the command's asynchronous form runs when token is not NULL, else its
 * synchronous one (a command on a lost backend fails without running); then it leaves the gate.
 * Returns CL_SUCCESS or a negative OpenCL error (hg_backend_result). */
cl_int hg_command_dispatch(struct hg_command *cmd, hg_token **token);
/* What a backend's result means to the application: HG_ERR_DEVICE_LOST marks the backend lost
 * and, like any value that is not an OpenCL error, becomes CL_OUT_OF_RESOURCES. */
cl_int hg_backend_result(hg_backend *be, cl_int r);

/* Calls fn on every command that stopped at a safe point and waits to enter again, in no
 * particular order, until fn returns an error (returned). The caller holds the gate closed, so
 * the list cannot change. */
cl_int hg_placement_each_stopped(hg_placement *p, cl_int (*fn)(struct hg_command *cmd, void *arg), void *arg);

/* Closes the gate, calls on_closed(arg) when not NULL (a migration at safe points asks the
 * running kernels to stop once nothing new can start), and waits until nothing is inside:
 * CL_SUCCESS (the caller now owns the context's backend) or, after timeout_ns (0: no limit),
 * CL_MIGRATION_TIMEOUT_HETGPU with the gate open again; with keep_waiting it waits on without
 * a limit instead (a migration that falls back to the kernel boundary). Only one closer at a
 * time: callers serialise (the context's migrate_lock). */
cl_int hg_placement_close(hg_placement *p, unsigned long long timeout_ns, void (*on_closed)(void *), void *arg,
                          bool keep_waiting);
/* Opens the gate again with `backend` (unchanged or a migration's target). */
void hg_placement_open(hg_placement *p, hg_backend *backend);

#endif
