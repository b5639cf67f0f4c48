/* Blocking calls that would wait for their own thread (issue 12 row 11).
 *
 * Event callbacks, the context's notify callback and memory-object destructor callbacks run on
 * a thread that drives a queue: its worker, or whichever thread holds its submission or
 * completion role (platform/queue_engine.c). A call from there that waits for that queue's
 * work -- clFinish, a blocking enqueue, clWaitForEvents on one of its commands not yet complete
 * -- could never return, since the work it waits for needs this very thread. The specification
 * leaves blocking calls in callbacks undefined; hetGPU fails them with CL_INVALID_OPERATION
 * instead of hanging. The engine marks the queues a thread drives while it may call out
 * (hg_drive_enter/leave), and hg_event_set_status the event whose callbacks it is running. */
#ifndef HETGPU_PLATFORM_CALLBACK_GUARD_H
#define HETGPU_PLATFORM_CALLBACK_GUARD_H

#include <stdbool.h>

#include <CL/cl.h>

/* Marks (and unmarks, in reverse order) q as driven by this thread. */
void hg_drive_enter(cl_command_queue q);
void hg_drive_leave(void);
/* True when this thread drives q now: a wait for q's work here would wait for itself. */
bool hg_drives(cl_command_queue q);
/* True when this thread drives any queue now (it is running a queue's commands or their
 * callbacks). */
bool hg_drives_any(void);

/* Marks (and unmarks) the event whose dependents and callbacks this thread is processing. */
void hg_callbacks_enter(cl_event ev);
void hg_callbacks_leave(void);
/* True when this thread is inside ev's status change (its callbacks run here): ev is finished
 * only after they return. */
bool hg_in_callbacks_of(cl_event ev);

#endif
