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

cl_int hg_context_track(cl_context ctx, void *obj, cl_object_type_hetgpu type) {
  pthread_mutex_lock(&ctx->objects_lock);
  cl_int err = CL_SUCCESS;
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
  for (size_t i = 0; i < ctx->num_objects; i++)
    if (ctx->objects[i].obj == obj)
      return &ctx->objects[i];
  return NULL;
}

void hg_context_untrack(cl_context ctx, void *obj) {
  pthread_mutex_lock(&ctx->objects_lock);
  hg_ctx_object *o = find_locked(ctx, obj);
  if (o) {
    free(o->label);
    size_t i = (size_t)(o - ctx->objects);
    memmove(o, o + 1, (ctx->num_objects - i - 1) * sizeof *o); /* keeps creation order */
    ctx->num_objects--;
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
  pthread_mutex_lock(&ctx->objects_lock);
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
  pthread_mutex_lock(&context->objects_lock);
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
  pthread_mutex_lock(&context->objects_lock);
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
