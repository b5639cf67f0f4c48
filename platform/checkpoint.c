/* Checkpointing a context to a file and restoring it, in this or another process, on any
 * backend (clCheckpointContextHETGPU, clRestoreContextHETGPU; docs/cl_hetgpu_migrate.md). The
 * file is snapshot/'s device-neutral format: buffer and image contents, samplers, programs as
 * IR, kernels with their arguments, queues, labels.
 *
 * A checkpoint first waits for every command enqueued before the call (a marker on each
 * queue), then closes the placement gate so that nothing runs while the state is read, and
 * writes the file with the gate closed: what it holds is one consistent state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "platform/context_objects.h"
#include "platform/event.h"
#include "platform/kernel.h"
#include "platform/mem.h"
#include "platform/mem_object.h"
#include "platform/migrate_internal.h"
#include "platform/program.h"
#include "platform/queue.h"
#include "platform/safepoints.h"
#include "platform/sampler.h"
#include "common/image_format.h"
#include "ir/ndrange_state.h"
#include "platform/callback_guard.h"
#include "snapshot/snapshot.h"

/* ---- capture ---- */

/* Waits for every command enqueued so far on the context's queues, within the time left. */
static cl_int drain_queues(cl_context ctx, uint64_t deadline) {
  hg_context_objects_lock(ctx);
  size_t n = 0;
  cl_command_queue *queues = malloc((ctx->num_objects + 1) * sizeof *queues);
  for (size_t i = 0; queues && i < ctx->num_objects; i++)
    if (ctx->objects[i].type == CL_OBJECT_COMMAND_QUEUE_HETGPU) {
      queues[n] = ctx->objects[i].obj;
      hg_queue_hold(queues[n++]);
    }
  pthread_mutex_unlock(&ctx->objects_lock);
  if (!queues)
    return CL_OUT_OF_HOST_MEMORY;
  cl_int err = CL_SUCCESS;
  for (size_t i = 0; i < n; i++) {
    hg_command *marker;
    cl_event ev = NULL;
    if (err == CL_SUCCESS && hg_drives(queues[i]))
      err = CL_INVALID_OPERATION; /* from a callback on the queue's own thread: its marker would wait for us */
    if (err == CL_SUCCESS && (err = hg_command_create(queues[i], CL_COMMAND_MARKER, sizeof *marker, 0, NULL, &marker)) ==
                                 CL_SUCCESS)
      err = hg_command_submit(marker, &ev, false);
    if (ev) {
      uint64_t now = hg_host_clock_ns();
      bool done = deadline ? now < deadline && hg_event_wait_for(ev, deadline - now) : (hg_event_wait(ev), true);
      if (!done && err == CL_SUCCESS)
        err = CL_MIGRATION_TIMEOUT_HETGPU;
      hg_event_release_app(ev);
    }
    hg_queue_unhold(queues[i]);
  }
  free(queues);
  return err;
}

/* The snapshot's arrays, filled from the context's objects (under objects_lock, gate closed). */
typedef struct capture {
  hg_snapshot snap;
  hg_snap_buffer *buffers;
  hg_snap_program *programs;
  hg_snap_kernel *kernels;
  hg_snap_queue *queues;
  hg_snap_kernel_arg *args;   /* all kernels' arguments, one block; VALUE ones own a copy */
  hg_snap_image *images;
  hg_snap_sampler *samplers;  /* the context's, then one per sampler argument whose object is gone */
  uint32_t cap_samplers;
  uint8_t *sampler_props;     /* their property lists, one block */
  size_t num_sampler_props;
  cl_mem *mems;               /* buffers[i]'s object */
  cl_mem *imems;              /* images[i]'s object */
  cl_program *progs;          /* programs[i]'s object */
  cl_command_queue *qobjs;    /* queues[i]'s object */
  cl_kernel *kobjs;           /* kernels[i]'s object */
  size_t num_args;            /* entries of args filled */
  hg_snap_running *running;   /* kernels stopped at a safe point */
  uint32_t cap_running;
} capture;

static void capture_free(capture *c) {
  for (uint32_t i = 0; c->programs && i < c->snap.num_programs; i++) {
    free((void *)c->programs[i].ir);
    free((void *)c->programs[i].build_options);
  }
  free(c->buffers);
  free(c->images);
  free(c->samplers);
  free(c->sampler_props);
  free(c->imems);
  free(c->programs);
  free(c->kernels);
  free(c->queues);
  for (size_t i = 0; c->args && i < c->num_args; i++)
    free((void *)c->args[i].value);
  free(c->args);
  free(c->mems);
  free(c->progs);
  free(c->qobjs);
  free(c->kobjs);
  for (uint32_t i = 0; c->running && i < c->snap.num_running; i++) {
    for (uint32_t a = 0; a < c->running[i].num_args; a++)
      free((void *)c->running[i].args[a].value);
    free((void *)c->running[i].args);
  }
  free(c->running);
}

static uint32_t index_of(void *const *list, uint32_t n, const void *obj) {
  for (uint32_t i = 0; i < n; i++)
    if (list[i] == obj)
      return i;
  return HG_SNAP_NONE;
}

/* Makes room for one more element after `count` in the growing array *arr of *cap elements. */
static bool room_for_one(void **arr, uint32_t *cap, uint32_t count, size_t elem) {
  if (count < *cap)
    return true;
  uint32_t grown_cap = *cap ? 2 * *cap : 4;
  void *grown = realloc(*arr, grown_cap * elem);
  if (!grown)
    return false;
  *arr = grown;
  *cap = grown_cap;
  return true;
}

/* The mem id of a buffer or image argument (images follow the buffers: hg_snap_image.id). */
static uint32_t mem_id_of(const capture *c, cl_mem mem) {
  if (!mem->image)
    return index_of((void *const *)c->mems, c->snap.num_buffers, mem);
  uint32_t i = index_of((void *const *)c->imems, c->snap.num_images, mem);
  return i == HG_SNAP_NONE ? i : c->snap.num_buffers + i;
}

/* A sampler argument keeps the bits, not the cl_sampler (it may be released after
 * clSetKernelArg): the context's first sampler with those bits, or a new record for them. */
static uint32_t sampler_id_of(capture *c, const uint8_t *value) {
  uint32_t bits;
  memcpy(&bits, value, sizeof bits);
  for (uint32_t i = 0; i < c->snap.num_samplers; i++)
    if (c->samplers[i].bits == bits)
      return i;
  if (!room_for_one((void **)&c->samplers, &c->cap_samplers, c->snap.num_samplers, sizeof *c->samplers))
    return HG_SNAP_NONE;
  uint32_t id = c->snap.num_samplers++;
  c->samplers[id] = (hg_snap_sampler){.id = id, .bits = bits};
  return id;
}

/* An image or sampler argument (kernel object or stopped launch); false for other kinds. */
static bool capture_image_arg(capture *c, const hg_ir_kernel_arg *want, const hg_kernel_arg *a,
                              hg_snap_kernel_arg *sa) {
  if (want->kind == HG_KARG_IMAGE) {
    *sa = (hg_snap_kernel_arg){.kind = HG_SNAP_ARG_IMAGE, .buffer = mem_id_of(c, a->mem)};
    return true;
  }
  if (want->kind == HG_KARG_SAMPLER) {
    *sa = (hg_snap_kernel_arg){.kind = HG_SNAP_ARG_SAMPLER, .buffer = sampler_id_of(c, a->value)};
    return true;
  }
  return false;
}

static cl_int capture_kernel(capture *c, cl_kernel k, hg_snap_kernel *sk) {
  const hg_ir_function *f = hg_kernel_function(k);
  sk->program = index_of((void *const *)c->progs, c->snap.num_programs, k->program);
  sk->name = f->name;
  sk->num_args = f->num_params;
  sk->args = c->args + c->num_args;
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&k->lock); /* the application may set arguments meanwhile */
  for (uint32_t i = 0; i < f->num_params; i++) {
    const hg_kernel_arg *a = &k->args[i];
    hg_snap_kernel_arg *sa = &c->args[c->num_args++];
    *sa = (hg_snap_kernel_arg){.kind = HG_SNAP_ARG_UNSET, .buffer = HG_SNAP_NONE};
    if (!a->set)
      continue;
    if (capture_image_arg(c, &f->args[i], a, sa)) {
      if (sa->buffer == HG_SNAP_NONE && err == CL_SUCCESS)
        err = CL_INVALID_OPERATION; /* an image not in the context, or no memory for a sampler record */
      continue;
    }
    switch (f->args[i].kind) {
    case HG_KARG_GLOBAL_PTR:
    case HG_KARG_CONSTANT_PTR:
      sa->kind = HG_SNAP_ARG_BUFFER;
      sa->buffer = a->mem ? index_of((void *const *)c->mems, c->snap.num_buffers, a->mem) : HG_SNAP_NONE;
      break;
    case HG_KARG_LOCAL_PTR:
      sa->kind = HG_SNAP_ARG_LOCAL;
      sa->size = a->size;
      break;
    default:
      sa->kind = HG_SNAP_ARG_VALUE;
      sa->size = a->size;
      uint8_t *copy = malloc(a->size ? a->size : 1);
      if (copy)
        memcpy(copy, a->value, a->size);
      else
        err = CL_OUT_OF_HOST_MEMORY;
      sa->value = copy;
    }
  }
  pthread_mutex_unlock(&k->lock);
  if (err == CL_SUCCESS && sk->program == HG_SNAP_NONE)
    err = CL_INVALID_PROGRAM_EXECUTABLE;
  return err;
}

/* A kernel launch stopped at a safe point: its queue, kernel, launch arguments and state (the
 * state stays the command's: the gate is closed until the file is written). */
static cl_int capture_running(hg_command *cmd, void *arg) {
  capture *c = arg;
  cl_kernel kernel;
  const hg_kernel_arg *args;
  const hg_ir_ndrange_state *state;
  if (!hg_kernel_command_stopped(cmd, &kernel, &args, &state))
    return CL_SUCCESS;
  hg_snapshot *s = &c->snap;
  uint32_t q = index_of((void *const *)c->qobjs, s->num_queues, cmd->queue);
  uint32_t k = index_of((void *const *)c->kobjs, s->num_kernels, kernel);
  if (q == HG_SNAP_NONE || k == HG_SNAP_NONE)
    return CL_INVALID_OPERATION; /* its kernel object was released: the file could not name it */
  if (!room_for_one((void **)&c->running, &c->cap_running, s->num_running, sizeof *c->running))
    return CL_OUT_OF_HOST_MEMORY;
  const hg_ir_function *f = hg_kernel_function(kernel);
  hg_snap_kernel_arg *sa = calloc(f->num_params ? f->num_params : 1, sizeof *sa);
  if (!sa)
    return CL_OUT_OF_HOST_MEMORY;
  c->running[s->num_running++] = (hg_snap_running){.queue = q, .kernel = k, .num_args = f->num_params, .args = sa,
                                                   .state = state};
  for (uint32_t i = 0; i < f->num_params; i++) {
    const hg_kernel_arg *a = &args[i];
    sa[i] = (hg_snap_kernel_arg){.kind = HG_SNAP_ARG_VALUE, .buffer = HG_SNAP_NONE, .size = a->size};
    if (f->args[i].kind == HG_KARG_GLOBAL_PTR || f->args[i].kind == HG_KARG_CONSTANT_PTR) {
      sa[i] = (hg_snap_kernel_arg){.kind = HG_SNAP_ARG_BUFFER, .buffer = HG_SNAP_NONE};
      if (a->mem && (sa[i].buffer = index_of((void *const *)c->mems, s->num_buffers, a->mem)) == HG_SNAP_NONE)
        return CL_INVALID_OPERATION;
    } else if (capture_image_arg(c, &f->args[i], a, &sa[i])) {
      if (sa[i].buffer == HG_SNAP_NONE)
        return CL_INVALID_OPERATION;
    } else if (f->args[i].kind == HG_KARG_LOCAL_PTR) {
      sa[i].kind = HG_SNAP_ARG_LOCAL;
    } else {
      uint8_t *copy = malloc(a->size ? a->size : 1);
      if (!copy)
        return CL_OUT_OF_HOST_MEMORY;
      memcpy(copy, a->value, a->size);
      sa[i].value = copy;
    }
  }
  return CL_SUCCESS;
}

/* A sampler of the context with the properties the application gave (as little-endian u64s). */
static void capture_sampler(capture *c, const hg_ctx_object *o) {
  cl_sampler sm = o->obj;
  hg_snap_sampler *r = &c->samplers[c->snap.num_samplers];
  uint8_t *props = c->sampler_props + 8 * c->num_sampler_props;
  *r = (hg_snap_sampler){.id = c->snap.num_samplers++, .bits = sm->bits, .label = o->label,
                         .num_properties = (uint32_t)sm->num_properties, .properties = props};
  for (size_t p = 0; p < sm->num_properties; p++)
    for (int b = 0; b < 8; b++)
      props[8 * p + b] = (uint8_t)((uint64_t)sm->properties[p] >> (8 * b));
  c->num_sampler_props += sm->num_properties;
}

/* An image: its description as clGetImageInfo reports it, and its packed contents (a 1D
 * buffer image: its buffer's id instead). */
static cl_int capture_image(capture *c, const hg_ctx_object *o) {
  cl_mem mem = o->obj;
  const hg_mem_image *im = mem->image;
  const hg_image_layout *l = &im->layout;
  cl_mem_object_type t = l->type;
  hg_snap_image *r = &c->images[c->snap.num_images];
  *r = (hg_snap_image){.id = c->snap.num_buffers + c->snap.num_images, .type = t,
                       .channel_order = im->format.image_channel_order,
                       .channel_type = im->format.image_channel_data_type, .flags = mem->flags, .width = l->width,
                       .buffer = HG_SNAP_NONE, .size = l->size, .label = o->label};
  bool has_h = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  r->height = has_h ? l->height : 0;
  r->depth = t == CL_MEM_OBJECT_IMAGE3D ? l->depth : 0;
  r->array_size = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? l->array_size : 0;
  size_t pitch[2];
  cl_int err = clGetImageInfo(mem, CL_IMAGE_ROW_PITCH, sizeof pitch[0], &pitch[0], NULL);
  if (err == CL_SUCCESS)
    err = clGetImageInfo(mem, CL_IMAGE_SLICE_PITCH, sizeof pitch[1], &pitch[1], NULL);
  if (err != CL_SUCCESS)
    return err;
  r->row_pitch = pitch[0];
  r->slice_pitch = pitch[1];
  if (hg_mem_is_buffer_image(mem)) {
    r->buffer = index_of((void *const *)c->mems, c->snap.num_buffers, mem->parent);
    r->flags &= ~(cl_mem_flags)(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR); /* its buffer's */
    if (r->buffer == HG_SNAP_NONE)
      return CL_INVALID_OPERATION;
  } else {
    const void *data;
    if ((err = hg_mem_storage_host_contents(mem->storage, &data)) != CL_SUCCESS)
      return err;
    r->data = data;
  }
  c->imems[c->snap.num_images++] = mem;
  return CL_SUCCESS;
}

static cl_int capture_context(cl_context ctx, capture *c) {
  size_t n = ctx->num_objects, num_args = 0, num_props = 0;
  for (size_t i = 0; i < n; i++)
    if (ctx->objects[i].type == CL_OBJECT_KERNEL_HETGPU)
      num_args += hg_kernel_function(ctx->objects[i].obj)->num_params;
    else if (ctx->objects[i].type == CL_OBJECT_SAMPLER_HETGPU)
      num_props += ((cl_sampler)ctx->objects[i].obj)->num_properties;

  size_t m = n ? n : 1;
  c->buffers = calloc(m, sizeof *c->buffers);
  c->programs = calloc(m, sizeof *c->programs);
  c->kernels = calloc(m, sizeof *c->kernels);
  c->queues = calloc(m, sizeof *c->queues);
  c->args = calloc(num_args ? num_args : 1, sizeof *c->args);
  c->images = calloc(m, sizeof *c->images);
  c->imems = calloc(m, sizeof *c->imems);
  c->samplers = calloc(m, sizeof *c->samplers);
  c->cap_samplers = (uint32_t)m;
  c->sampler_props = malloc(num_props ? num_props * 8 : 1);
  c->mems = calloc(m, sizeof *c->mems);
  c->progs = calloc(m, sizeof *c->progs);
  c->qobjs = calloc(m, sizeof *c->qobjs);
  c->kobjs = calloc(m, sizeof *c->kobjs);
  if (!c->buffers || !c->programs || !c->kernels || !c->queues || !c->args || !c->mems || !c->progs || !c->qobjs ||
      !c->kobjs || !c->images || !c->imems || !c->samplers || !c->sampler_props)
    return CL_OUT_OF_HOST_MEMORY;
  hg_snapshot *s = &c->snap;
  /* buffers, images, samplers and programs first: kernels refer to them */
  for (size_t i = 0; i < n; i++) {
    hg_ctx_object *o = &ctx->objects[i];
    if (o->type == CL_OBJECT_MEM_HETGPU && ((cl_mem)o->obj)->image)
      continue; /* images after every buffer: a 1D buffer image names its buffer's id */
    if (o->type == CL_OBJECT_SAMPLER_HETGPU) {
      capture_sampler(c, o);
    } else if (o->type == CL_OBJECT_MEM_HETGPU) {
      cl_mem mem = o->obj;
      hg_snap_buffer *b = &c->buffers[s->num_buffers];
      *b = (hg_snap_buffer){.id = s->num_buffers, .parent = HG_SNAP_NONE, .flags = mem->flags, .size = mem->size,
                            .label = o->label};
      if (mem->parent) {
        b->parent = index_of((void *const *)c->mems, s->num_buffers, mem->parent);
        b->origin = mem->origin;
      } else {
        const void *data;
        cl_int err = hg_mem_storage_host_contents(mem->storage, &data);
        if (err != CL_SUCCESS)
          return err;
        b->data = data;
      }
      c->mems[s->num_buffers++] = mem;
    } else if (o->type == CL_OBJECT_PROGRAM_HETGPU) {
      cl_program p = o->obj;
      pthread_mutex_lock(&p->lock); /* copies: the application may rebuild it meanwhile */
      hg_snap_program *sp = &c->programs[s->num_programs];
      bool built = hg_program_has_executable(p);
      if (built) {
        *sp = (hg_snap_program){.id = s->num_programs, .label = o->label, .ir_size = p->binary_size};
        sp->build_options = strdup(p->build_options ? p->build_options : "");
        uint8_t *ir = malloc(p->binary_size);
        if (ir)
          memcpy(ir, p->binary, p->binary_size);
        sp->ir = ir;
        c->progs[s->num_programs++] = p;
      }
      pthread_mutex_unlock(&p->lock);
      if (built && (!sp->ir || !sp->build_options))
        return CL_OUT_OF_HOST_MEMORY;
    } else if (o->type == CL_OBJECT_COMMAND_QUEUE_HETGPU) {
      cl_command_queue q = o->obj;
      c->queues[s->num_queues] = (hg_snap_queue){.id = s->num_queues, .properties = q->properties, .label = o->label};
      c->qobjs[s->num_queues++] = q;
    }
  }
  for (size_t i = 0; i < n; i++) {
    hg_ctx_object *o = &ctx->objects[i];
    if (o->type != CL_OBJECT_MEM_HETGPU || !((cl_mem)o->obj)->image)
      continue;
    cl_int err = capture_image(c, o);
    if (err != CL_SUCCESS)
      return err;
  }
  for (size_t i = 0; i < n; i++) {
    hg_ctx_object *o = &ctx->objects[i];
    if (o->type != CL_OBJECT_KERNEL_HETGPU)
      continue;
    hg_snap_kernel *k = &c->kernels[s->num_kernels];
    *k = (hg_snap_kernel){.id = s->num_kernels, .label = o->label};
    cl_int err = capture_kernel(c, o->obj, k);
    if (err != CL_SUCCESS)
      return err;
    c->kobjs[s->num_kernels++] = o->obj;
  }
  cl_int err = hg_placement_each_stopped(&ctx->placement, capture_running, c);
  if (err != CL_SUCCESS)
    return err;
  s->running = c->running;
  s->images = c->images;
  s->samplers = c->samplers;
  s->buffers = c->buffers;
  s->programs = c->programs;
  s->kernels = c->kernels;
  s->queues = c->queues;
  snprintf(s->source_backend, sizeof s->source_backend, "%s", hg_context_backend(ctx)->name);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  s->created_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
  return CL_SUCCESS;
}

cl_int hg_context_checkpoint(cl_context ctx, const char *path, cl_checkpoint_flags_hetgpu flags, cl_ulong timeout_ns) {
  uint64_t start = hg_host_clock_ns(), deadline = timeout_ns ? start + timeout_ns : 0;
  bool at_safe_point = (flags & CL_CHECKPOINT_AT_SAFE_POINT_HETGPU) && hg_safepoints_enabled();
  /* drained before taking migrate_lock: a migration command queued before the marker takes it;
   * at a safe point nothing is drained: what runs is stopped and written with its state */
  cl_int err = at_safe_point ? CL_SUCCESS : drain_queues(ctx, deadline);
  pthread_mutex_lock(&ctx->migrate_lock);
  if (err == CL_SUCCESS) {
    uint64_t now = hg_host_clock_ns();
    err = deadline && now >= deadline
              ? CL_MIGRATION_TIMEOUT_HETGPU
              : hg_context_quiesce(ctx, at_safe_point ? CL_MIGRATE_AT_SAFE_POINT_HETGPU : 0,
                                   deadline ? deadline - now : 0);
  }
  if (err == CL_SUCCESS) {
    hg_backend *be = hg_context_backend(ctx);
    hg_context_objects_lock(ctx);
    capture c = {0};
    err = capture_context(ctx, &c);
    char msg[256] = "";
    if (err == CL_SUCCESS && hg_snapshot_write(&c.snap, path, msg, sizeof msg) != 0) {
      HG_LOG(HG_LOG_MIGRATE, "checkpoint to %s failed: %s", path, msg);
      err = CL_INVALID_VALUE; /* the path cannot be written */
    }
    for (uint32_t i = 0; i < c.snap.num_buffers; i++)
      if (!c.mems[i]->parent)
        hg_mem_storage_host_done(c.mems[i]->storage);
    for (uint32_t i = 0; i < c.snap.num_images; i++)
      if (c.images[i].data)
        hg_mem_storage_host_done(c.imems[i]->storage);
    pthread_mutex_unlock(&ctx->objects_lock);
    hg_context_reopen(ctx, be);
    HG_LOG(HG_LOG_MIGRATE,
           "context %llu checkpointed to %s: %d; %u buffers, %u images, %u samplers, %u programs, %u kernels, %u "
           "queues, %u kernels stopped running, %llu ns",
           (unsigned long long)ctx->id, path, err, c.snap.num_buffers, c.snap.num_images, c.snap.num_samplers,
           c.snap.num_programs, c.snap.num_kernels,
           c.snap.num_queues, c.snap.num_running, (unsigned long long)(hg_host_clock_ns() - start));
    capture_free(&c);
  }
  pthread_mutex_unlock(&ctx->migrate_lock);
  return hg_backend_result(NULL, err);
}

cl_int hg_context_checkpoint_by_id(uint64_t id, const char *path, cl_checkpoint_flags_hetgpu flags,
                                   cl_ulong timeout_ns) {
  if (!id) {
    uint64_t ids[2];
    if (hg_context_ids(ids, 2) != 1)
      return CL_INVALID_CONTEXT; /* "every context" to one file: only when there is exactly one */
    id = ids[0];
  }
  cl_context ctx = hg_context_find(id);
  if (!ctx)
    return CL_INVALID_CONTEXT;
  cl_int err = hg_context_checkpoint(ctx, path, flags, timeout_ns);
  hg_context_release(ctx);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clCheckpointContextHETGPU(cl_context context, const char *path,
                                                          cl_checkpoint_flags_hetgpu flags, cl_ulong timeout_ns) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  if (!path || !*path || (flags & ~(cl_checkpoint_flags_hetgpu)CL_CHECKPOINT_AT_SAFE_POINT_HETGPU))
    return CL_INVALID_VALUE;
  return hg_context_checkpoint(context, path, flags, timeout_ns);
}

/* ---- restore ---- */

/* The objects a restore made, released together when it fails. */
typedef struct restored {
  cl_context ctx;
  cl_mem *mems; /* buffers, then images (their mem ids) */
  cl_sampler *samplers;
  cl_program *progs;
  cl_kernel *kernels;
  cl_command_queue *queues;
} restored;

static void restored_release(restored *r, const hg_snapshot *s, bool keep) {
  for (uint32_t i = 0; !keep && r->kernels && i < s->num_kernels; i++)
    if (r->kernels[i])
      clReleaseKernel(r->kernels[i]);
  for (uint32_t i = 0; !keep && r->progs && i < s->num_programs; i++)
    if (r->progs[i])
      clReleaseProgram(r->progs[i]);
  for (uint32_t i = 0; !keep && r->samplers && i < s->num_samplers; i++)
    if (r->samplers[i])
      clReleaseSampler(r->samplers[i]);
  for (uint32_t i = s->num_buffers + s->num_images; !keep && r->mems && i-- > 0;)
    if (r->mems[i])
      clReleaseMemObject(r->mems[i]);
  for (uint32_t i = 0; !keep && r->queues && i < s->num_queues; i++)
    if (r->queues[i])
      clReleaseCommandQueue(r->queues[i]);
  if (!keep && r->ctx)
    clReleaseContext(r->ctx);
  free(r->mems);
  free(r->samplers);
  free(r->progs);
  free(r->kernels);
  free(r->queues);
}

static cl_int restore_kernel(restored *r, const hg_snap_kernel *sk, cl_kernel *out) {
  cl_int err;
  cl_kernel k = *out = clCreateKernel(r->progs[sk->program], sk->name, &err);
  if (!k)
    return err;
  if (hg_kernel_function(k)->num_params != sk->num_args)
    return CL_INVALID_KERNEL_ARGS;
  for (uint32_t i = 0; i < sk->num_args && err == CL_SUCCESS; i++) {
    const hg_snap_kernel_arg *a = &sk->args[i];
    if (a->kind == HG_SNAP_ARG_BUFFER || a->kind == HG_SNAP_ARG_IMAGE) {
      cl_mem m = a->buffer == HG_SNAP_NONE ? NULL : r->mems[a->buffer];
      err = clSetKernelArg(k, i, sizeof m, &m);
    } else if (a->kind == HG_SNAP_ARG_SAMPLER) {
      err = clSetKernelArg(k, i, sizeof(cl_sampler), &r->samplers[a->buffer]);
    } else if (a->kind == HG_SNAP_ARG_LOCAL) {
      err = clSetKernelArg(k, i, a->size, NULL);
    } else if (a->kind == HG_SNAP_ARG_VALUE) {
      void *v = malloc(a->size ? a->size : 1); /* file bytes have no alignment */
      if (!v)
        return CL_OUT_OF_HOST_MEMORY;
      memcpy(v, a->value, a->size);
      err = clSetKernelArg(k, i, a->size, v);
      free(v);
    }
  }
  return err;
}

/* Enqueues a kernel that was stopped when the checkpoint was taken on its restored queue, to
 * run on from its state. */
static cl_int restore_running(restored *r, const hg_snap_running *sr) {
  hg_kernel_arg *args = calloc(sr->num_args ? sr->num_args : 1, sizeof *args);
  hg_ir_ndrange_state *state = hg_ir_ndrange_state_clone(sr->state);
  cl_int err = args && state ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < sr->num_args && err == CL_SUCCESS; i++) {
    const hg_snap_kernel_arg *a = &sr->args[i];
    args[i] = (hg_kernel_arg){.set = true, .size = a->size};
    if (a->kind == HG_SNAP_ARG_BUFFER || a->kind == HG_SNAP_ARG_IMAGE)
      args[i].mem = a->buffer == HG_SNAP_NONE ? NULL : r->mems[a->buffer];
    else if (a->kind == HG_SNAP_ARG_SAMPLER) { /* a launch passes the bits (platform/kernel.c) */
      args[i].size = sizeof r->samplers[a->buffer]->bits;
      if (!(args[i].value = malloc(args[i].size)))
        err = CL_OUT_OF_HOST_MEMORY;
      else
        memcpy(args[i].value, &r->samplers[a->buffer]->bits, args[i].size);
    } else if (a->kind == HG_SNAP_ARG_VALUE && !(args[i].value = malloc(a->size ? a->size : 1)))
      err = CL_OUT_OF_HOST_MEMORY;
    else if (a->kind == HG_SNAP_ARG_VALUE)
      memcpy(args[i].value, a->value, a->size); /* file bytes have no alignment */
  }
  if (err == CL_SUCCESS) {
    err = hg_enqueue_kernel_from_state(r->queues[sr->queue], r->kernels[sr->kernel], args, state);
    state = NULL; /* the command's now, even on an error */
  }
  for (uint32_t i = 0; args && i < sr->num_args; i++)
    free(args[i].value);
  free(args);
  hg_ir_ndrange_state_free(state);
  return err;
}

/* Labels the file gives: one the API refuses (empty, too long, repeated) is the file's fault. */
static cl_int restore_label(cl_context ctx, void *obj, const char *label) {
  cl_int err = label ? hg_context_set_label(ctx, obj, label) : CL_SUCCESS;
  return err == CL_INVALID_VALUE ? CL_INVALID_SNAPSHOT_HETGPU : err;
}

/* An image through clCreateImage, so that it has the platform's layout on the target: its packed
 * contents copied in (CL_MEM_COPY_HOST_PTR, which the restored image then does not report, as
 * restored buffers have no host pointer flags); a 1D buffer image over its restored buffer. */
static cl_int restore_image(restored *r, const hg_snap_image *im, cl_mem *out) {
  const cl_mem_flags host_ptr_flags = CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR;
  cl_image_format format = {.image_channel_order = im->channel_order, .image_channel_data_type = im->channel_type};
  cl_image_desc desc = {.image_type = im->type, .image_width = im->width, .image_height = im->height,
                        .image_depth = im->depth, .image_array_size = im->array_size};
  cl_mem_flags flags = im->flags & ~host_ptr_flags;
  void *init = NULL;
  if (im->buffer != HG_SNAP_NONE) {
    desc.buffer = r->mems[im->buffer];
    flags &= HG_MEM_ACCESS_FLAGS | HG_MEM_HOST_ACCESS_FLAGS; /* the rest is its buffer's */
  } else {
    init = (void *)im->data; /* only read: packed, as row pitch 0 says */
    flags |= CL_MEM_COPY_HOST_PTR;
  }
  cl_int err;
  cl_mem m = *out = clCreateImage(r->ctx, flags, &format, &desc, init, &err);
  if (m && init)
    m->flags &= ~(cl_mem_flags)CL_MEM_COPY_HOST_PTR;
  return err;
}

/* A sampler as the application made it: from its property list, or (none given, or a sampler
 * argument whose object was gone) from its bits, which must come out the same. */
static cl_int restore_sampler(cl_context ctx, const hg_snap_sampler *sm, cl_sampler *out) {
  cl_int err;
  if (sm->num_properties) {
    cl_sampler_properties props[8] = {0}; /* validation: at most 7 entries */
    for (uint32_t p = 0; p < sm->num_properties && p < 8; p++)
      for (int b = 7; b >= 0; b--)
        props[p] = props[p] << 8 | sm->properties[8 * p + b];
    *out = clCreateSamplerWithProperties(ctx, props, &err);
  } else {
    static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                               CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
    uint32_t mode = (sm->bits & HG_SAMPLER_ADDRESS_MASK) >> 1;
    *out = clCreateSampler(ctx, (sm->bits & HG_SAMPLER_NORMALIZED_COORDS) ? CL_TRUE : CL_FALSE,
                           mode < 5 ? modes[mode] : CL_ADDRESS_NONE,
                           (sm->bits & HG_SAMPLER_FILTER_LINEAR) ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
  }
  if (err == CL_SUCCESS && (*out)->bits != sm->bits)
    err = CL_INVALID_SNAPSHOT_HETGPU;
  return err;
}

static cl_int restore_objects(const hg_snapshot *s, restored *r) {
  cl_context ctx = r->ctx;
  cl_device_id dev = ctx->device;
  cl_int err = CL_SUCCESS;
  for (uint32_t i = 0; i < s->num_queues && err == CL_SUCCESS; i++) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, s->queues[i].properties, 0};
    r->queues[i] = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    if (err == CL_SUCCESS)
      err = restore_label(ctx, r->queues[i], s->queues[i].label);
  }
  /* a restored buffer has no host pointer of the application: USE/COPY_HOST_PTR are dropped */
  const cl_mem_flags drop = CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR;
  for (uint32_t i = 0; i < s->num_buffers && err == CL_SUCCESS; i++) {
    const hg_snap_buffer *b = &s->buffers[i];
    if (b->parent == HG_SNAP_NONE) {
      r->mems[i] = hg_buffer_create_with_contents(ctx, b->flags & ~drop, b->size, b->data, &err);
    } else {
      cl_buffer_region region = {b->origin, b->size};
      cl_mem_flags access = b->flags & (HG_MEM_ACCESS_FLAGS | HG_MEM_HOST_ACCESS_FLAGS);
      r->mems[i] = clCreateSubBuffer(r->mems[b->parent], access, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    }
    if (err == CL_SUCCESS)
      err = restore_label(ctx, r->mems[i], b->label);
  }
  for (uint32_t i = 0; i < s->num_images && err == CL_SUCCESS; i++) {
    cl_mem *m = &r->mems[s->num_buffers + i];
    err = restore_image(r, &s->images[i], m);
    if (err == CL_SUCCESS)
      err = restore_label(ctx, *m, s->images[i].label);
  }
  for (uint32_t i = 0; i < s->num_samplers && err == CL_SUCCESS; i++) {
    err = restore_sampler(ctx, &s->samplers[i], &r->samplers[i]);
    if (err == CL_SUCCESS)
      err = restore_label(ctx, r->samplers[i], s->samplers[i].label);
  }
  for (uint32_t i = 0; i < s->num_programs && err == CL_SUCCESS; i++) {
    const hg_snap_program *p = &s->programs[i];
    cl_int status;
    const unsigned char *ir = p->ir;
    r->progs[i] = clCreateProgramWithBinary(ctx, 1, &dev, &p->ir_size, &ir, &status, &err);
    if (err == CL_SUCCESS)
      err = clBuildProgram(r->progs[i], 0, NULL, p->build_options, NULL, NULL);
    /* loaded from a binary, yet the application built it from source: its argument information
     * stays as available as it was (the snapshot keeps the options, not the origin) */
    if (err == CL_SUCCESS)
      r->progs[i]->arg_info = hg_program_option_given(p->build_options, "-cl-kernel-arg-info");
    if (err == CL_SUCCESS)
      err = restore_label(ctx, r->progs[i], p->label);
  }
  for (uint32_t i = 0; i < s->num_kernels && err == CL_SUCCESS; i++) {
    err = restore_kernel(r, &s->kernels[i], &r->kernels[i]);
    if (err == CL_SUCCESS)
      err = restore_label(ctx, r->kernels[i], s->kernels[i].label);
  }
  return err;
}

CL_API_ENTRY cl_context CL_API_CALL clRestoreContextHETGPU(cl_platform_id platform, const char *path,
                                                           cl_backend_id_hetgpu target, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  hg_snapshot_file *file = NULL;
  restored r = {0};
  const hg_snapshot *s = NULL;
  if (!hg_object_is(platform, HG_OBJ_PLATFORM)) {
    err = CL_INVALID_PLATFORM;
    goto out;
  }
  if (!path || !*path) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  hg_backend *be = hg_backend_of_id(target);
  if (!be || hg_backend_open(be) != CL_SUCCESS) {
    err = CL_INVALID_BACKEND_HETGPU;
    goto out;
  }
  char msg[256];
  file = hg_snapshot_open(path, msg, sizeof msg);
  if (!file) {
    HG_LOG(HG_LOG_MIGRATE, "restoring %s: %s", path, msg);
    err = CL_INVALID_SNAPSHOT_HETGPU;
    goto out;
  }
  s = hg_snapshot_get(file);
  cl_device_id dev = hg_device_get();
  r.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (!r.ctx)
    goto out;
  hg_placement_open(&r.ctx->placement, be); /* a new context: nothing to move yet */
  r.mems = calloc((size_t)s->num_buffers + s->num_images + 1, sizeof *r.mems);
  r.samplers = calloc(s->num_samplers + 1, sizeof *r.samplers);
  r.progs = calloc(s->num_programs + 1, sizeof *r.progs);
  r.kernels = calloc(s->num_kernels + 1, sizeof *r.kernels);
  r.queues = calloc(s->num_queues + 1, sizeof *r.queues);
  err = r.mems && r.samplers && r.progs && r.kernels && r.queues ? restore_objects(s, &r) : CL_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < s->num_running && err == CL_SUCCESS; i++)
    err = restore_running(&r, &s->running[i]);
  HG_LOG(HG_LOG_MIGRATE, "restored %s (taken on %s) on %s: %d", path, s->source_backend, be->name, err);
out:;
  cl_context ctx = err == CL_SUCCESS ? r.ctx : NULL;
  if (s)
    restored_release(&r, s, err == CL_SUCCESS);
  if (file)
    hg_snapshot_close(file);
  HG_SET_ERR(errcode_ret, err);
  return ctx;
}
