/* clEnqueueMigrateMemObjects: makes the buffers' copy valid where asked, on the queue's
 * backend or on the host. Sub-buffers move their whole parent: one record holds its bytes. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_enqueue.h"

#define MIGRATE_FLAGS (CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)

typedef struct migrate_cmd {
  hg_command cmd;
  cl_mem_migration_flags flags;
  cl_uint num;
  cl_mem *mems; /* each retained */
} migrate_cmd;

static void migrate_cleanup(hg_command *c) {
  migrate_cmd *cmd = (migrate_cmd *)c;
  for (cl_uint i = 0; i < cmd->num; i++)
    hg_mem_release(cmd->mems[i]);
  free(cmd->mems);
}

static cl_int migrate_run(hg_command *c) {
  migrate_cmd *cmd = (migrate_cmd *)c;
  bool undefined = cmd->flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  for (cl_uint i = 0; i < cmd->num; i++) {
    cl_int err;
    if (cmd->flags & CL_MIGRATE_MEM_OBJECT_HOST) {
      err = hg_mem_storage_to_host(cmd->mems[i]->storage, undefined);
    } else {
      hg_dev_mem *dm;
      size_t base;
      err = hg_command_buffer(c, cmd->mems[i], undefined ? HG_MEM_DISCARD : HG_MEM_READ, &dm, &base);
    }
    if (err != CL_SUCCESS)
      return err;
    HG_LOG(HG_LOG_MEM, "migrated %p to %s", (void *)cmd->mems[i],
           (cmd->flags & CL_MIGRATE_MEM_OBJECT_HOST) ? "the host" : hg_command_backend(c)->name);
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                                           const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(command_queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if (num_mem_objects == 0 || !mem_objects)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    HG_CHECK_MEM(mem_objects[i], CL_INVALID_MEM_OBJECT);
    if (mem_objects[i]->context != ctx)
      return CL_INVALID_CONTEXT;
  }
  if (flags & ~(cl_mem_migration_flags)MIGRATE_FLAGS)
    return CL_INVALID_VALUE;
  cl_mem *mems = malloc(num_mem_objects * sizeof *mems);
  if (!mems)
    return CL_OUT_OF_HOST_MEMORY;
  memcpy(mems, mem_objects, num_mem_objects * sizeof *mems);

  hg_command *c;
  err = hg_command_create(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, sizeof(migrate_cmd), num_events_in_wait_list,
                          event_wait_list, &c);
  if (err != CL_SUCCESS) {
    free(mems);
    return err;
  }
  migrate_cmd *cmd = (migrate_cmd *)c;
  cmd->flags = flags;
  cmd->num = num_mem_objects;
  cmd->mems = mems;
  for (cl_uint i = 0; i < num_mem_objects; i++)
    hg_mem_retain(mems[i]);
  c->run = migrate_run;
  c->cleanup = migrate_cleanup;
  return hg_command_submit(c, event, false);
}
