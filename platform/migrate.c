/* Moving a context to another backend at a kernel boundary (docs/cl_hetgpu_migrate.md).
 *
 * Phases, each timed for the report:
 *  prepare   before the gate closes, while commands still run on the source: the target's builds,
 *            allocations (made resident in host memory), host memory registered with a GPU on
 *            the other side, pinned chunks (prepare_target)
 *  quiesce   close the placement gate: wait until no command is being handed to the source;
 *            queued commands wait at the gate and run on whichever backend it opens onto
 *  capture   list the context's buffers, programs and kernels (the list stays locked)
 *  build     every built program and created kernel on the target (cached per backend)
 *  transfer  every root buffer's contents staged on the target, source copies untouched
 *  resume    commit (the target's copies become valid; the source's stay allocated for a
 *            move back, evicted under memory pressure) or, on any failure, abort (new target
 *            allocations freed); the gate reopens on the target or on the source. With
 *            CL_MIGRATE_RELEASE_SOURCE_HETGPU the other copies are freed after that, while
 *            commands already run on the target. */
#include <stdio.h>
#include <stdlib.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "devices/profile.h"
#include "platform/context_objects.h"
#include "platform/kernel.h"
#include "platform/mem_object.h"
#include "platform/migrate_internal.h"
#include "platform/program.h"
#include "platform/command.h"
#include "platform/safepoints.h"
#include "ir/ndrange_state.h"

cl_int hg_migrate_check_flags(cl_migration_flags_hetgpu flags) {
  const cl_migration_flags_hetgpu known =
      CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU | CL_MIGRATE_AT_SAFE_POINT_HETGPU | CL_MIGRATE_RELEASE_SOURCE_HETGPU;
  if (flags & ~known)
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* Called once the gate is closed: the kernels running now stop at their next safe point and
 * wait at the gate with their state, instead of starting again. */
static void stop_running_kernels(void *ctx) { hg_context_stop_request(ctx); }

cl_int hg_context_quiesce(cl_context ctx, cl_migration_flags_hetgpu flags, unsigned long long timeout_ns) {
  bool at_safe_point = (flags & CL_MIGRATE_AT_SAFE_POINT_HETGPU) && hg_safepoints_enabled();
  /* at a safe point, falling back to the kernel boundary when the time runs out, as asked */
  cl_int err = hg_placement_close(&ctx->placement, timeout_ns, at_safe_point ? stop_running_kernels : NULL, ctx,
                                  at_safe_point && (flags & CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU));
  if (err != CL_SUCCESS)
    hg_context_stop_clear(ctx); /* the gate is open again: everything runs on where it was */
  return err;
}

void hg_context_reopen(cl_context ctx, hg_backend *backend) {
  hg_context_stop_clear(ctx); /* before the stopped kernels start again */
  hg_placement_open(&ctx->placement, backend);
}

static bool program_is_built(cl_program p) {
  pthread_mutex_lock(&p->lock);
  bool built = hg_program_has_executable(p);
  pthread_mutex_unlock(&p->lock);
  return built;
}

/* Builds the context's programs and kernels on the target. Under objects_lock. */
static cl_int build_on_target(cl_context ctx, hg_backend *target, cl_migration_report_hetgpu *r) {
  for (size_t i = 0; i < ctx->num_objects; i++) {
    hg_ctx_object *o = &ctx->objects[i];
    if (o->type == CL_OBJECT_PROGRAM_HETGPU && program_is_built(o->obj)) {
      hg_dev_program *dp;
      if (hg_fault_injected("build"))
        return CL_BUILD_PROGRAM_FAILURE;
      cl_int err = hg_program_device(o->obj, target, &dp);
      if (err != CL_SUCCESS)
        return err == CL_OUT_OF_HOST_MEMORY ? err : CL_BUILD_PROGRAM_FAILURE;
      r->programs++;
    } else if (o->type == CL_OBJECT_KERNEL_HETGPU) {
      hg_dev_kernel *dk;
      cl_int err = hg_kernel_device(o->obj, target, &dk);
      if (err != CL_SUCCESS)
        return err;
      r->kernels++;
    }
  }
  return CL_SUCCESS;
}

static cl_int buffer_move_error(cl_int err) {
  return err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

/* Stages every root buffer on the target. Under objects_lock. */
static cl_int stage_buffers(cl_context ctx, hg_backend *target, cl_migration_report_hetgpu *r) {
  for (size_t i = 0; i < ctx->num_objects; i++) {
    hg_mem_storage *st = hg_ctx_object_storage(&ctx->objects[i]);
    if (!st)
      continue;
    size_t moved;
    bool lost;
    cl_int err = hg_mem_storage_stage(st, target, &moved, &lost);
    if (err != CL_SUCCESS) {
      HG_LOG(HG_LOG_MIGRATE, "moving a buffer (%zu bytes) to %s failed: %d", st->size, target->name, err);
      return buffer_move_error(err);
    }
    r->buffers++;
    r->bytes += moved;
    r->buffers_lost += lost;
  }
  return CL_SUCCESS;
}

/* Calls fn on every root buffer's storage of the context. Under objects_lock. */
static void each_storage(cl_context ctx, hg_backend *target, void (*fn)(hg_mem_storage *, hg_backend *)) {
  for (size_t i = 0; i < ctx->num_objects; i++) {
    hg_mem_storage *st = hg_ctx_object_storage(&ctx->objects[i]);
    if (st)
      fn(st, target);
  }
}

/* Before the gate closes, while commands still run on the source: builds the context's programs
 * and kernels on the target, gives every root buffer not current there its allocation (resident
 * when it is host memory), registers the host side of a move with a GPU on the other side, and
 * makes that GPU's pinned chunks for what could not be registered. What costs time without
 * needing the context still (a compiler, page faults: 5-14x the copy itself into fresh host
 * memory, pinning) leaves the downtime; the work after the gate closes finds it done, but for objects
 * made meanwhile. On an error the caller aborts (the target's copies that hold nothing current
 * are freed). */
static cl_int prepare_target(cl_context ctx, hg_backend *source, hg_backend *target) {
  cl_migration_report_hetgpu counted = {0}; /* the counts are the downtime's build */
  size_t largest_unpinned = 0;
  hg_context_objects_lock(ctx);
  cl_int err = build_on_target(ctx, target, &counted);
  for (size_t i = 0; i < ctx->num_objects && err == CL_SUCCESS; i++) {
    hg_mem_storage *st = hg_ctx_object_storage(&ctx->objects[i]);
    size_t unpinned = 0;
    if (st && (err = hg_mem_storage_prepare(st, target, &unpinned)) != CL_SUCCESS)
      err = buffer_move_error(err);
    if (unpinned > largest_unpinned)
      largest_unpinned = unpinned;
  }
  pthread_mutex_unlock(&ctx->objects_lock);
  if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
    HG_LOG(HG_LOG_MIGRATE, "context %llu: %s cannot hold its buffers (%llu bytes of buffers there at most)",
           (unsigned long long)ctx->id, target->name, (unsigned long long)hg_profile_backend_mem_budget(target));
  if (err == CL_SUCCESS) /* the pipeline, for what could not be registered */
    hg_migrate_pipeline_prepare(source, target, largest_unpinned);
  return err;
}

/* Calls fn on every root buffer's storage, taking the object list's lock. */
static void each_storage_locked(cl_context ctx, hg_backend *target, void (*fn)(hg_mem_storage *, hg_backend *)) {
  hg_context_objects_lock(ctx);
  each_storage(ctx, target, fn);
  pthread_mutex_unlock(&ctx->objects_lock);
}

static cl_int count_stopped(hg_command *cmd, void *arg) {
  (void)cmd;
  (*(cl_uint *)arg)++;
  return CL_SUCCESS;
}

/* A stopped launch the target cannot resume (no resume form there) keeps the context where it
 * is: it resumes on the source. */
static cl_int target_resumes(hg_command *cmd, void *arg) {
  hg_backend *target = arg;
  cl_kernel kernel;
  const hg_kernel_arg *args;
  const hg_ir_ndrange_state *state;
  if (!hg_kernel_command_stopped(cmd, &kernel, &args, &state))
    return CL_SUCCESS;
  if (!target->ops->kernel_run)
    return CL_INVALID_BACKEND_HETGPU;
  hg_dev_kernel *dk;
  cl_int err = hg_kernel_device(kernel, target, &dk);
  if (err != CL_SUCCESS)
    return err;
  if (target->ops->kernel_can_resume && !target->ops->kernel_can_resume(target, dk, state))
    return CL_INVALID_BACKEND_HETGPU;
  return CL_SUCCESS;
}

/* The work between closing and opening the gate; returns the phases' end times. */
static cl_int move_context(cl_context ctx, hg_backend *target, cl_migration_report_hetgpu *r, uint64_t t[3]) {
  hg_placement_each_stopped(&ctx->placement, count_stopped, &r->kernels_stopped);
  hg_context_objects_lock(ctx);
  t[0] = hg_host_clock_ns();
  cl_int err = build_on_target(ctx, target, r);
  if (err == CL_SUCCESS)
    err = hg_placement_each_stopped(&ctx->placement, target_resumes, target);
  t[1] = hg_host_clock_ns();
  if (err == CL_SUCCESS)
    err = stage_buffers(ctx, target, r);
  t[2] = hg_host_clock_ns();
  each_storage(ctx, target, err == CL_SUCCESS ? hg_mem_storage_commit : hg_mem_storage_abort);
  pthread_mutex_unlock(&ctx->objects_lock);
  return err;
}

cl_int hg_context_migrate(cl_context ctx, hg_backend *target, cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                          cl_migration_report_hetgpu *report) {
  cl_int err = hg_migrate_check_flags(flags);
  if (err != CL_SUCCESS)
    return err;
  if (!target || hg_backend_open(target) != CL_SUCCESS) /* its first use opens it; lost: refused */
    return CL_INVALID_BACKEND_HETGPU;
  uint64_t start = hg_host_clock_ns();
  pthread_mutex_lock(&ctx->migrate_lock);
  hg_backend *source = hg_context_backend(ctx);
  cl_migration_report_hetgpu r = {.source = source->index, .target = target->index};
  if (source != target) {
    err = prepare_target(ctx, source, target);
    uint64_t closing = hg_host_clock_ns(), t[3];
    r.prepare_ns = closing - start;
    if (err == CL_SUCCESS)
      err = hg_context_quiesce(ctx, flags, timeout_ns);
    uint64_t quiesced = hg_host_clock_ns();
    r.quiesce_ns = r.downtime_ns = quiesced - closing;
    if (err != CL_SUCCESS) {
      each_storage_locked(ctx, target, hg_mem_storage_abort);
    } else {
      err = move_context(ctx, target, &r, t);
      hg_context_reopen(ctx, err == CL_SUCCESS ? target : source);
      uint64_t reopened = hg_host_clock_ns();
      r.capture_ns = t[0] - quiesced;
      r.build_ns = t[1] - t[0];
      r.transfer_ns = t[2] - t[1];
      r.resume_ns = reopened - t[2];
      r.downtime_ns = reopened - closing;
      /* after the downtime: registrations end (unpinning takes 5-20 ms per GiB), and with
       * CL_MIGRATE_RELEASE_SOURCE_HETGPU every copy but the target's goes (release unpins too) */
      bool release = err == CL_SUCCESS && (flags & CL_MIGRATE_RELEASE_SOURCE_HETGPU);
      each_storage_locked(ctx, target, release ? hg_mem_storage_release : hg_mem_storage_unpin);
    }
  }
  err = hg_backend_result(target, err);
  r.status = err;
  r.total_ns = hg_host_clock_ns() - start;
  pthread_mutex_lock(&ctx->lock);
  if (err == CL_SUCCESS && source != target)
    ctx->migrations++;
  ctx->last_migration = r;
  pthread_mutex_unlock(&ctx->lock);
  pthread_mutex_unlock(&ctx->migrate_lock);
  HG_LOG(HG_LOG_MIGRATE,
         "context %llu: %s -> %s: %d; %u buffers, %llu bytes, %u programs, %u kernels; quiesce %llu, capture %llu, "
         "build %llu, transfer %llu, resume %llu ns",
         (unsigned long long)ctx->id, source->name, target->name, err, r.buffers, (unsigned long long)r.bytes,
         r.programs, r.kernels, (unsigned long long)r.quiesce_ns, (unsigned long long)r.capture_ns,
         (unsigned long long)r.build_ns, (unsigned long long)r.transfer_ns, (unsigned long long)r.resume_ns);
  if (report)
    *report = r;
  return err;
}

cl_int hg_context_migrate_by_id(uint64_t id, hg_backend *target, cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                cl_migration_report_hetgpu *report) {
  uint64_t ids[64];
  size_t n = id ? 1 : hg_context_ids(ids, 64);
  if (id)
    ids[0] = id;
  if (n > 64)
    n = 64;
  if (n == 0)
    return CL_INVALID_CONTEXT;
  cl_int result = CL_SUCCESS;
  for (size_t i = 0; i < n; i++) {
    cl_context ctx = hg_context_find(ids[i]);
    if (!ctx) {
      if (id)
        return CL_INVALID_CONTEXT;
      continue; /* released meanwhile */
    }
    cl_int err = hg_context_migrate(ctx, target, flags, timeout_ns, report);
    hg_context_release(ctx);
    if (err != CL_SUCCESS && result == CL_SUCCESS)
      result = err;
  }
  return result;
}

size_t hg_contexts_summarize(hg_context_summary *out, size_t cap) {
  uint64_t ids[256];
  size_t n = hg_context_ids(ids, 256), filled = 0;
  for (size_t i = 0; i < n && i < 256 && filled < cap; i++) {
    cl_context ctx = hg_context_find(ids[i]);
    if (!ctx)
      continue;
    hg_context_summary *s = &out[filled++];
    *s = (hg_context_summary){.id = ctx->id};
    hg_backend *be = hg_context_backend(ctx);
    s->backend = be->index;
    snprintf(s->backend_name, sizeof s->backend_name, "%s", be->name);
    hg_context_objects_lock(ctx);
    for (size_t j = 0; j < ctx->num_objects; j++) {
      hg_ctx_object *o = &ctx->objects[j];
      hg_mem_storage *st = hg_ctx_object_storage(o);
      switch (o->type) {
      case CL_OBJECT_COMMAND_QUEUE_HETGPU: s->queues++; break;
      case CL_OBJECT_PROGRAM_HETGPU: s->programs++; break;
      case CL_OBJECT_KERNEL_HETGPU: s->kernels++; break;
      case CL_OBJECT_SAMPLER_HETGPU: break; /* nothing on any backend to move */
      default:
        s->buffers++;
        s->bytes += st ? st->size : 0;
      }
    }
    pthread_mutex_unlock(&ctx->objects_lock);
    pthread_mutex_lock(&ctx->lock);
    s->migrations = ctx->migrations;
    pthread_mutex_unlock(&ctx->lock);
    hg_context_release(ctx);
  }
  return filled;
}
