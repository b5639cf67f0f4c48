/* The hetGPU platform, its one virtual device, and contexts. */
#ifndef HETGPU_PLATFORM_PLATFORM_H
#define HETGPU_PLATFORM_PLATFORM_H

#include <pthread.h>

#include <CL/cl_hetgpu.h>

#include "devices/backend.h"
#include "platform/object.h"
#include "platform/placement.h"

struct _cl_platform_id {
  hg_object obj;
};

struct _cl_device_id {
  hg_object obj;
  cl_platform_id platform;
};

typedef struct hg_callback {
  void(CL_CALLBACK *fn)();
  void *user_data;
  struct hg_callback *next;
} hg_callback;

/* obj.refcount counts the application's references (CL_CONTEXT_REFERENCE_COUNT); `holds`
 * counts the internal ones (hg_context_retain) plus one for all the application's together.
 * When the application's count reaches 0 the handle is retired (further use gets
 * CL_INVALID_CONTEXT); the context is destroyed when the last hold goes. */
struct _cl_context {
  hg_object obj;
  atomic_uint holds;
  cl_device_id device; /* the virtual device: the only one there is */
  cl_context_properties *properties; /* copy, zero-terminated; NULL when none were given */
  size_t num_properties;             /* entries including the terminating 0 */
  void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb, void *user_data);
  void *notify_user_data;
  pthread_mutex_t lock;
  hg_callback *destructor_callbacks; /* called last-registered first on destruction */

  /* cl_hetgpu_migrate */
  uint64_t id;                /* process-unique, from 1 in creation order (hetgpu-ctl names it) */
  hg_placement placement;     /* where its commands run, and the migration gate */
  hg_stop_request stop;       /* its running kernels stop at safe points (platform/safepoints.h) */
  pthread_mutex_t stop_lock;  /* the request above and the list below */
  struct hg_launch_stop *launches; /* its stoppable launches running now, each polling its own request */
  pthread_mutex_t migrate_lock; /* one migration or checkpoint at a time */
  pthread_mutex_t objects_lock; /* the list below: taken after the gate and before any object's own
                                   lock (never track or untrack holding one) */
  struct hg_ctx_object *objects; /* queues, buffers, programs, kernels in creation order; entries
                                    of released ones are emptied and squeezed out later
                                    (platform/context_objects.c) */
  size_t num_objects, cap_objects, released_objects, first_live_object;
  uint64_t next_object_seq;
  cl_uint migrations;         /* completed; this and the next under `lock` (queries do not wait
                                 for a migration in progress) */
  cl_migration_report_hetgpu last_migration;
  struct _cl_context *live_prev, *live_next; /* the process's live contexts */
};

/* The singletons; hg_platform_get() also initialises the logger. */
cl_platform_id hg_platform_get(void);
cl_device_id hg_device_get(void);

/* The backend a new context starts on (HETGPU_BACKEND); NULL if none is usable, in which case
 * the virtual device is not offered (clGetDeviceIDs: CL_DEVICE_NOT_FOUND). */
hg_backend *hg_platform_backend(void);
/* The tuning hints the device reports: the starting backend's, neutral ones when there is none
 * (platform/device.c). */
const hg_backend_hints *hg_device_hints(void);
/* The backend the context's work runs on now (it changes when the context migrates). */
hg_backend *hg_context_backend(cl_context ctx);

/* Internal reference counting of contexts (queues, buffers, programs and events hold one):
 * use these, never hg_object_retain on a context, so CL_CONTEXT_REFERENCE_COUNT stays the
 * application's count. The destructor callbacks run when the last reference of either kind
 * goes. */
void hg_context_retain(cl_context ctx);
void hg_context_release(cl_context ctx);
/* The live context with this id, with an internal hold (release it with hg_context_release);
 * NULL when there is none. */
cl_context hg_context_find(uint64_t id);
/* The ids of the live contexts in creation order (up to cap); returns how many there are. */
size_t hg_context_ids(uint64_t *ids, size_t cap);
/* Reports an error through the context's pfn_notify, if any. */
void hg_context_notify(cl_context ctx, const char *errinfo);

#endif
