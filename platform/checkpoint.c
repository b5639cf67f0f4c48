/* Checkpointing a context to a file and restoring it, in this or another process, on any
 * backend (clCheckpointContextHETGPU, clRestoreContextHETGPU; docs/cl_hetgpu_migrate.md). The
 * file is snapshot/'s device-neutral format: buffer contents, programs as IR, kernels with
 * their arguments, queues, labels.
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
#include "ir/ndrange_state.h"
#include "platform/callback_guard.h"
#include "snapshot/snapshot.h"

/* ---- capture ---- */

/* Waits for every command enqueued so far on the context's queues, within the time left. */
static cl_int drain_queues(cl_context ctx, uint64_t deadline) {
  pthread_mutex_lock(&ctx->objects_lock);
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
  cl_mem *mems;               /* buffers[i]'s object */
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
  if (s->num_running == c->cap_running) {
    uint32_t cap = c->cap_running ? 2 * c->cap_running : 4;
    hg_snap_running *grown = realloc(c->running, cap * sizeof *grown);
    if (!grown)
      return CL_OUT_OF_HOST_MEMORY;
    c->running = grown;
    c->cap_running = cap;
  }
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

static cl_int capture_context(cl_context ctx, capture *c) {
  size_t n = ctx->num_objects, num_args = 0;
  for (size_t i = 0; i < n; i++)
    if (ctx->objects[i].type == CL_OBJECT_KERNEL_HETGPU)
      num_args += hg_kernel_function(ctx->objects[i].obj)->num_params;
  size_t m = n ? n : 1;
  c->buffers = calloc(m, sizeof *c->buffers);
  c->programs = calloc(m, sizeof *c->programs);
  c->kernels = calloc(m, sizeof *c->kernels);
  c->queues = calloc(m, sizeof *c->queues);
  c->args = calloc(num_args ? num_args : 1, sizeof *c->args);
  c->mems = calloc(m, sizeof *c->mems);
  c->progs = calloc(m, sizeof *c->progs);
  c->qobjs = calloc(m, sizeof *c->qobjs);
  c->kobjs = calloc(m, sizeof *c->kobjs);
  if (!c->buffers || !c->programs || !c->kernels || !c->queues || !c->args || !c->mems || !c->progs || !c->qobjs ||
      !c->kobjs)
    return CL_OUT_OF_HOST_MEMORY;
  hg_snapshot *s = &c->snap;
  /* buffers and programs first: kernels refer to them */
  for (size_t i = 0; i < n; i++) {
    hg_ctx_object *o = &ctx->objects[i];
    if (o->type == CL_OBJECT_MEM_HETGPU) {
      cl_mem mem = o->obj;
      if (mem->image) { /* the snapshot format has no images yet (docs/images.md) */
        HG_LOG(HG_LOG_MIGRATE, "checkpoint refused: context %llu holds image %p, which snapshots cannot record yet",
               (unsigned long long)ctx->id, (void *)mem);
        return CL_INVALID_OPERATION;
      }
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
    pthread_mutex_lock(&ctx->objects_lock);
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
    pthread_mutex_unlock(&ctx->objects_lock);
    hg_context_reopen(ctx, be);
    HG_LOG(HG_LOG_MIGRATE,
           "context %llu checkpointed to %s: %d; %u buffers, %u programs, %u kernels, %u queues, %u kernels stopped "
           "running, %llu ns",
           (unsigned long long)ctx->id, path, err, c.snap.num_buffers, c.snap.num_programs, c.snap.num_kernels,
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
  cl_mem *mems;
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
  for (uint32_t i = s->num_buffers; !keep && r->mems && i-- > 0;)
    if (r->mems[i])
      clReleaseMemObject(r->mems[i]);
  for (uint32_t i = 0; !keep && r->queues && i < s->num_queues; i++)
    if (r->queues[i])
      clReleaseCommandQueue(r->queues[i]);
  if (!keep && r->ctx)
    clReleaseContext(r->ctx);
  free(r->mems);
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
    if (a->kind == HG_SNAP_ARG_BUFFER) {
      cl_mem m = a->buffer == HG_SNAP_NONE ? NULL : r->mems[a->buffer];
      err = clSetKernelArg(k, i, sizeof m, &m);
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
    if (a->kind == HG_SNAP_ARG_BUFFER)
      args[i].mem = a->buffer == HG_SNAP_NONE ? NULL : r->mems[a->buffer];
    else if (a->kind == HG_SNAP_ARG_VALUE && !(args[i].value = malloc(a->size ? a->size : 1)))
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
  if (!be) {
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
  r.mems = calloc(s->num_buffers + 1, sizeof *r.mems);
  r.progs = calloc(s->num_programs + 1, sizeof *r.progs);
  r.kernels = calloc(s->num_kernels + 1, sizeof *r.kernels);
  r.queues = calloc(s->num_queues + 1, sizeof *r.queues);
  err = r.mems && r.progs && r.kernels && r.queues ? restore_objects(s, &r) : CL_OUT_OF_HOST_MEMORY;
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
