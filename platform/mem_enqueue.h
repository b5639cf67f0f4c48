/* Argument checks and helpers shared by the entry points that enqueue commands on buffers
 * (enqueue_buffer.c, enqueue_buffer_rect.c, enqueue_map.c, enqueue_migrate.c). */
#ifndef HETGPU_PLATFORM_MEM_ENQUEUE_H
#define HETGPU_PLATFORM_MEM_ENQUEUE_H

#include "platform/command.h"
#include "platform/mem_object.h"

/* Validates the queue and gives its context: CL_INVALID_COMMAND_QUEUE when it is not a live
 * queue. */
cl_int hg_enqueue_queue_context(cl_command_queue queue, cl_context *ctx);
/* A buffer argument of a command on a queue of context `ctx`: CL_INVALID_MEM_OBJECT,
 * CL_INVALID_CONTEXT, CL_MISALIGNED_SUB_BUFFER_OFFSET. */
cl_int hg_enqueue_check_buffer(cl_context ctx, cl_mem mem);
/* True when [offset, offset + size) lies within the buffer. */
bool hg_enqueue_range_ok(cl_mem mem, size_t offset, size_t size);
/* The backend a command runs on: where hg_command_place put it (platform/placement.h). */
hg_backend *hg_command_backend(const hg_command *cmd);
/* The allocation on the command's backend valid for the access, and the byte offset of the
 * (sub-)buffer in it. */
cl_int hg_command_buffer(const hg_command *cmd, cl_mem mem, hg_mem_access access, hg_dev_mem **dm, size_t *base);
/* A rect copy within one allocation, through host memory (platform/enqueue_buffer_rect.c): backends
 * may refuse such a copy when the sides differ in pitch, or judge interleaved sides to overlap by
 * their bounding boxes. The caller checked that the sides share no byte. */
cl_int hg_mem_copy_rect_staged(hg_backend *be, hg_dev_mem *dm, const hg_rect *r);

/* The access a command needs to write `size` bytes of a buffer: overwriting the whole root
 * buffer needs no current contents (HG_MEM_DISCARD), anything less keeps the rest (HG_MEM_WRITE). */
static inline hg_mem_access hg_mem_write_access(cl_mem mem, size_t size) {
  return size == mem->storage->size ? HG_MEM_DISCARD : HG_MEM_WRITE;
}

/* True when the byte ranges [a, a + a_size) and [b, b + b_size) intersect. */
static inline bool hg_ranges_overlap(size_t a, size_t a_size, size_t b, size_t b_size) {
  return a < b + b_size && b < a + a_size;
}

#endif
