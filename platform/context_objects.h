/* The objects a context holds (queues, buffers, programs, kernels), in creation order, with the
 * labels the application gave them: what a migration moves, a checkpoint saves and a restore
 * hands back (platform/context_objects.c). */
#ifndef HETGPU_PLATFORM_CONTEXT_OBJECTS_H
#define HETGPU_PLATFORM_CONTEXT_OBJECTS_H

#include <CL/cl_hetgpu.h>
#include <stdbool.h>
#include <stdint.h>

#include "platform/platform.h"

#define HG_LABEL_MAX 255 /* bytes, not counting the terminating NUL */

typedef struct hg_ctx_object {
  void *obj;                  /* cl_command_queue, cl_mem, cl_program or cl_kernel; NULL once released */
  cl_object_type_hetgpu type; /* CL_OBJECT_*_HETGPU */
  uint64_t seq;               /* creation order within the context */
  char *label;                /* NULL when none was set */
} hg_ctx_object;

/* Called by each constructor once the object is complete (CL_OUT_OF_HOST_MEMORY: the object
 * must be destroyed), and by each destructor before it frees anything (it waits while a
 * migration or checkpoint walks the list). */
cl_int hg_context_track(cl_context ctx, void *obj, cl_object_type_hetgpu type);
void hg_context_untrack(cl_context ctx, void *obj);
/* Take the context's objects_lock with its list dense (every entry a live object); the try form
 * returns false where the lock is held. Release with pthread_mutex_unlock(&ctx->objects_lock). */
void hg_context_objects_lock(cl_context ctx);
bool hg_context_objects_trylock(cl_context ctx);
/* The storage of an entry that is a root buffer (sub-buffers share their root's), else NULL:
 * what migrations, checkpoints and eviction walk. */
struct hg_mem_storage *hg_ctx_object_storage(const hg_ctx_object *o);
/* Sets an object's label (NULL clears it); used by clSetObjectLabelHETGPU and restore. */
cl_int hg_context_set_label(cl_context ctx, void *obj, const char *label);

#endif
