/* The objects of a context in creation order, their labels, and the cl_hetgpu_migrate entry
 * points that hand them to the application: clGetContextObjectsHETGPU, clSetObjectLabelHETGPU,
 * clGetObjectByLabelHETGPU. */
#include "platform/context_objects.h"

#include <stdlib.h>
#include <string.h>

#include "platform/kernel.h"
#include "platform/mem_object.h"
#include "platform/program.h"
#include "platform/queue.h"
#include "platform/sampler.h"

/* Squeezes the released entries out, keeping the order. Under objects_lock. */
static void compact_locked(cl_context ctx) {
  if (!ctx->released_objects)
    return;
  size_t n = 0;
  for (size_t i = 0; i < ctx->num_objects; i++)
    if (ctx->objects[i].obj)
      ctx->objects[n++] = ctx->objects[i];
  ctx->num_objects = n;
  ctx->released_objects = ctx->first_live_object = 0;
}

void hg_context_objects_lock(cl_context ctx) {
  pthread_mutex_lock(&ctx->objects_lock);
  compact_locked(ctx);
}

bool hg_context_objects_trylock(cl_context ctx) {
  if (pthread_mutex_trylock(&ctx->objects_lock))
    return false;
  compact_locked(ctx);
  return true;
}

cl_int hg_context_track(cl_context ctx, void *obj, cl_object_type_hetgpu type) {
  pthread_mutex_lock(&ctx->objects_lock);
  cl_int err = CL_SUCCESS;
  if (ctx->num_objects == ctx->cap_objects)
    compact_locked(ctx);
  if (ctx->num_objects == ctx->cap_objects) {
    size_t cap = ctx->cap_objects ? ctx->cap_objects * 2 : 16;
    hg_ctx_object *grown = realloc(ctx->objects, cap * sizeof *grown);
    if (!grown)
      err = CL_OUT_OF_HOST_MEMORY;
    else
      ctx->objects = grown, ctx->cap_objects = cap;
  }
  if (err == CL_SUCCESS)
    ctx->objects[ctx->num_objects++] = (hg_ctx_object){obj, type, ctx->next_object_seq++, NULL};
  pthread_mutex_unlock(&ctx->objects_lock);
  return err;
}

static hg_ctx_object *find_locked(cl_context ctx, const void *obj) {
  for (size_t i = ctx->first_live_object; i < ctx->num_objects; i++)
    if (ctx->objects[i].obj == obj)
      return &ctx->objects[i];
  return NULL;
}

/* The entry is emptied, not removed: objects mostly go in the order they came (a burst of
 * kernels retired together, buffers freed as allocated), where closing each gap moved the whole
 * list after it. The search starts after the leading empty entries, and they are squeezed out
 * once they are half the list. */
void hg_context_untrack(cl_context ctx, void *obj) {
  pthread_mutex_lock(&ctx->objects_lock);
  hg_ctx_object *o = find_locked(ctx, obj);
  if (o) {
    free(o->label);
    *o = (hg_ctx_object){0};
    ctx->released_objects++;
    while (ctx->first_live_object < ctx->num_objects && !ctx->objects[ctx->first_live_object].obj)
      ctx->first_live_object++;
    if (ctx->released_objects * 2 > ctx->num_objects)
      compact_locked(ctx);
  }
  pthread_mutex_unlock(&ctx->objects_lock);
}

/* The type and context of a live queue, buffer, program or kernel handle; 0 for anything else. */
static cl_object_type_hetgpu object_kind(void *obj, cl_context *ctx) {
  if (hg_object_is(obj, HG_OBJ_QUEUE))
    return *ctx = ((cl_command_queue)obj)->context, CL_OBJECT_COMMAND_QUEUE_HETGPU;
  if (hg_object_is(obj, HG_OBJ_MEM))
    return *ctx = ((cl_mem)obj)->context, CL_OBJECT_MEM_HETGPU;
  if (hg_object_is(obj, HG_OBJ_PROGRAM))
    return *ctx = ((cl_program)obj)->context, CL_OBJECT_PROGRAM_HETGPU;
  if (hg_object_is(obj, HG_OBJ_KERNEL))
    return *ctx = ((cl_kernel)obj)->program->context, CL_OBJECT_KERNEL_HETGPU;
  if (hg_object_is(obj, HG_OBJ_SAMPLER))
    return *ctx = ((cl_sampler)obj)->context, CL_OBJECT_SAMPLER_HETGPU;
  return 0;
}

/* True when the application holds the object (its handle is valid). */
static bool app_holds(const hg_ctx_object *o) {
  static const hg_object_type kinds[] = {HG_OBJ_QUEUE, HG_OBJ_MEM, HG_OBJ_PROGRAM, HG_OBJ_KERNEL, HG_OBJ_SAMPLER};
  if (!hg_object_is(o->obj, kinds[o->type - CL_OBJECT_COMMAND_QUEUE_HETGPU]))
    return false;
  return o->type != CL_OBJECT_MEM_HETGPU || atomic_load(&((cl_mem)o->obj)->app_refs) > 0;
}

struct hg_mem_storage *hg_ctx_object_storage(const hg_ctx_object *o) {
  cl_mem mem = o->obj;
  return o->type == CL_OBJECT_MEM_HETGPU && !mem->parent ? mem->storage : NULL;
}

static bool label_ok(const char *label) { return label && *label && strlen(label) <= HG_LABEL_MAX; }

cl_int hg_context_set_label(cl_context ctx, void *obj, const char *label) {
  if (label && !label_ok(label))
    return CL_INVALID_VALUE;
  char *copy = label ? strdup(label) : NULL;
  if (label && !copy)
    return CL_OUT_OF_HOST_MEMORY;
  hg_context_objects_lock(ctx);
  cl_int err = CL_SUCCESS;
  hg_ctx_object *o = find_locked(ctx, obj);
  if (!o)
    err = CL_INVALID_VALUE;
  for (size_t i = 0; err == CL_SUCCESS && label && i < ctx->num_objects; i++)
    if (ctx->objects[i].obj != obj && ctx->objects[i].label && !strcmp(ctx->objects[i].label, label))
      err = CL_INVALID_VALUE; /* labels name one object of the context */
  if (err == CL_SUCCESS) {
    free(o->label);
    o->label = copy;
    copy = NULL;
  }
  pthread_mutex_unlock(&ctx->objects_lock);
  free(copy);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetObjectLabelHETGPU(void *object, const char *label) {
  cl_context ctx;
  if (!object_kind(object, &ctx))
    return CL_INVALID_VALUE;
  return hg_context_set_label(ctx, object, label);
}

CL_API_ENTRY cl_int CL_API_CALL clGetObjectByLabelHETGPU(cl_context context, const char *label,
                                                         cl_object_type_hetgpu *type, void **object) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  if (!label_ok(label) || !object)
    return CL_INVALID_VALUE;
  cl_int err = CL_INVALID_VALUE;
  hg_context_objects_lock(context);
  for (size_t i = 0; i < context->num_objects; i++) {
    hg_ctx_object *o = &context->objects[i];
    if (o->label && !strcmp(o->label, label) && app_holds(o)) {
      *object = o->obj;
      if (type)
        *type = o->type;
      err = CL_SUCCESS;
      break;
    }
  }
  pthread_mutex_unlock(&context->objects_lock);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextObjectsHETGPU(cl_context context, cl_object_type_hetgpu type,
                                                          cl_uint num_entries, void **objects, cl_uint *num_objects) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  if (type < CL_OBJECT_COMMAND_QUEUE_HETGPU || type > CL_OBJECT_SAMPLER_HETGPU)
    return CL_INVALID_VALUE;
  if ((num_entries == 0 && objects) || (!objects && !num_objects))
    return CL_INVALID_VALUE;
  cl_uint n = 0;
  hg_context_objects_lock(context);
  for (size_t i = 0; i < context->num_objects; i++) {
    hg_ctx_object *o = &context->objects[i];
    if (o->type != type || !app_holds(o))
      continue;
    if (objects && n < num_entries)
      objects[n] = o->obj;
    n++;
  }
  pthread_mutex_unlock(&context->objects_lock);
  if (num_objects)
    *num_objects = n;
  return CL_SUCCESS;
}
