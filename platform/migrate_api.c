/* The cl_hetgpu_migrate entry points that list backends and move contexts:
 * clGetBackendIDsHETGPU, clGetBackendInfoHETGPU, clMigrateContextHETGPU,
 * clEnqueueMigrateContextHETGPU (docs/cl_hetgpu_migrate.md). */
#include <stdio.h>
#include <string.h>

#include "platform/command.h"
#include "platform/info.h"
#include "platform/migrate_internal.h"
#include "platform/queue.h"

hg_backend *hg_backend_of_id(cl_backend_id_hetgpu id) {
  hg_backend *selected = hg_platform_backend(); /* probes the backends */
  return id == CL_BACKEND_DEFAULT_HETGPU ? selected : hg_backend_at(id);
}

CL_API_ENTRY cl_int CL_API_CALL clGetBackendIDsHETGPU(cl_platform_id platform, cl_uint num_entries,
                                                      cl_backend_id_hetgpu *backends, cl_uint *num_backends) {
  HG_CHECK_PLATFORM(platform, CL_INVALID_PLATFORM);
  if ((num_entries == 0 && backends) || (!backends && !num_backends))
    return CL_INVALID_VALUE;
  hg_platform_backend(); /* probes them */
  cl_uint n = hg_backend_count();
  for (cl_uint i = 0; backends && i < n && i < num_entries; i++)
    backends[i] = i;
  if (num_backends)
    *num_backends = n;
  return CL_SUCCESS;
}

/* The name HETGPU_BACKEND and hetgpu-ctl accept for the backend. */
static void selector_name(const hg_backend *be, char *out, size_t size) {
  if (!strcmp(be->ops->kind, "vendor"))
    snprintf(out, size, "vendor:%s", be->platform_name);
  else
    snprintf(out, size, "%s", be->ops->kind);
}

CL_API_ENTRY cl_int CL_API_CALL clGetBackendInfoHETGPU(cl_platform_id platform, cl_backend_id_hetgpu backend,
                                                       cl_backend_info_hetgpu param_name, size_t param_value_size,
                                                       void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_PLATFORM(platform, CL_INVALID_PLATFORM);
  hg_platform_backend();
  hg_backend *be = hg_backend_at(backend);
  if (!be)
    return CL_INVALID_BACKEND_HETGPU;
  char name[300];
  switch (param_name) {
  case CL_BACKEND_NAME_HETGPU:
    selector_name(be, name, sizeof name);
    HG_INFO_STRING(name);
  case CL_BACKEND_KIND_HETGPU:
    HG_INFO_STRING(be->ops->kind);
  case CL_BACKEND_DEVICE_TYPE_HETGPU:
    HG_INFO_VALUE(cl_device_type, be->type);
  case CL_BACKEND_DEVICE_NAME_HETGPU:
    HG_INFO_STRING(be->device_name);
  case CL_BACKEND_PLATFORM_NAME_HETGPU:
    HG_INFO_STRING(be->platform_name);
  case CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU:
    HG_INFO_VALUE(cl_ulong, be->limits.global_mem_size);
  case CL_BACKEND_AVAILABLE_HETGPU:
    HG_INFO_VALUE(cl_bool, atomic_load(&be->lost) ? CL_FALSE : CL_TRUE);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clMigrateContextHETGPU(cl_context context, cl_backend_id_hetgpu target,
                                                       cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                                       cl_migration_report_hetgpu *report) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  hg_backend *be = hg_backend_of_id(target);
  if (!be)
    return CL_INVALID_BACKEND_HETGPU;
  return hg_context_migrate(context, be, flags, timeout_ns, report);
}

/* ---- the migration as a command ---- */

typedef struct migrate_cmd {
  hg_command cmd;
  hg_backend *target;
  cl_migration_flags_hetgpu flags;
  cl_ulong timeout_ns;
} migrate_cmd;

static cl_int migrate_run(hg_command *c) {
  migrate_cmd *m = (migrate_cmd *)c;
  return hg_context_migrate(c->queue->context, m->target, m->flags, m->timeout_ns, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateContextHETGPU(cl_command_queue queue, cl_backend_id_hetgpu target,
                                                              cl_migration_flags_hetgpu flags, cl_ulong timeout_ns,
                                                              cl_uint num_events_in_wait_list,
                                                              const cl_event *event_wait_list, cl_event *event) {
  HG_CHECK_QUEUE(queue, CL_INVALID_COMMAND_QUEUE);
  hg_backend *be = hg_backend_of_id(target);
  if (!be)
    return CL_INVALID_BACKEND_HETGPU;
  cl_int err = hg_migrate_check_flags(flags);
  if (err != CL_SUCCESS)
    return err;
  hg_command *c;
  err = hg_command_create(queue, CL_COMMAND_MIGRATE_CONTEXT_HETGPU, sizeof(migrate_cmd), num_events_in_wait_list,
                          event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  migrate_cmd *m = (migrate_cmd *)c;
  m->target = be;
  m->flags = flags;
  m->timeout_ns = timeout_ns;
  c->run = migrate_run;
  c->unplaced = true; /* it closes the gate itself: placing it would wait for itself */
  return hg_command_submit(c, event, false);
}
