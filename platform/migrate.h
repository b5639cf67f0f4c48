/* cl_hetgpu_migrate inside the platform: moving a context between backends, checkpointing it
 * to a file and restoring it, and what the control socket (platform/control_socket.c) asks of
 * the contexts of this process. The specification is docs/cl_hetgpu_migrate.md. */
#ifndef HETGPU_PLATFORM_MIGRATE_H
#define HETGPU_PLATFORM_MIGRATE_H

#include <CL/cl_hetgpu.h>
#include <stddef.h>
#include <stdint.h>

#include "devices/backend.h"

/* Moves every buffer, program, kernel and queued command of the context to `target` at a
 * kernel boundary: commands already handed to the source finish there, the rest run on the
 * target. timeout_ns 0 waits as long as it takes. On any failure the context keeps running on
 * its source with every buffer intact and the error is returned (CL_MIGRATION_TIMEOUT_HETGPU,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_BUILD_PROGRAM_FAILURE, ...). report (may be NULL)
 * receives the phases' costs; the context keeps a copy for CL_CONTEXT_LAST_MIGRATION_HETGPU. */
cl_int hg_context_migrate(cl_context ctx, hg_backend *target, cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                          cl_migration_report_hetgpu *report);

/* Writes a device-neutral checkpoint of the context to `path` (atomically: an existing file
 * is replaced only by a complete one) after every command enqueued before the call finished. */
cl_int hg_context_checkpoint(cl_context ctx, const char *path, cl_checkpoint_flags_hetgpu flags, cl_ulong timeout_ns);

/* One line of `hetgpu-ctl list`: a live context of this process. */
typedef struct hg_context_summary {
  uint64_t id;          /* process-unique, from 1 in creation order */
  unsigned backend;     /* index of the backend it runs on */
  char backend_name[256];
  uint64_t bytes;       /* root buffer bytes */
  unsigned buffers, programs, kernels, queues;
  unsigned migrations;  /* completed */
} hg_context_summary;

/* Fills up to `cap` summaries of the live contexts, in creation order; returns how many it filled. */
size_t hg_contexts_summarize(hg_context_summary *out, size_t cap);
/* hg_context_migrate / hg_context_checkpoint on the live context with this id
 * (CL_INVALID_CONTEXT when there is none); id 0 means every live context, in order. */
cl_int hg_context_migrate_by_id(uint64_t id, hg_backend *target, cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                cl_migration_report_hetgpu *report);
cl_int hg_context_checkpoint_by_id(uint64_t id, const char *path, cl_checkpoint_flags_hetgpu flags,
                                   cl_ulong timeout_ns);

#endif
