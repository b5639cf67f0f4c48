/* Argument checks shared by the buffer commands, and how a command reaches a buffer's bytes. */
#include "platform/mem_enqueue.h"
#include "platform/platform.h"
#include "platform/queue.h"

cl_int hg_enqueue_queue_context(cl_command_queue queue, cl_context *ctx) {
  HG_CHECK_QUEUE(queue, CL_INVALID_COMMAND_QUEUE);
  *ctx = queue->context;
  return CL_SUCCESS;
}

cl_int hg_enqueue_check_buffer(cl_context ctx, cl_mem mem) {
  HG_CHECK_MEM(mem, CL_INVALID_MEM_OBJECT);
  if (mem->image)
    return CL_INVALID_MEM_OBJECT; /* an image where the command takes a buffer */
  if (mem->context != ctx)
    return CL_INVALID_CONTEXT;
  if (mem->origin % HG_MEM_BASE_ALIGN_BYTES)
    return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  return CL_SUCCESS;
}

bool hg_enqueue_range_ok(cl_mem mem, size_t offset, size_t size) {
  return offset <= mem->size && size <= mem->size - offset;
}

hg_backend *hg_command_backend(const hg_command *cmd) { return cmd->backend; }

cl_int hg_command_buffer(const hg_command *cmd, cl_mem mem, hg_mem_access access, hg_dev_mem **dm, size_t *base) {
  cl_int err = hg_mem_storage_acquire(mem->storage, hg_command_backend(cmd), access, dm);
  *base = mem->origin;
  return err;
}
