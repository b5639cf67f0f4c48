/* clEnqueueReadBuffer, clEnqueueWriteBuffer, clEnqueueCopyBuffer, clEnqueueFillBuffer: checked
 * here, run against the buffer's copy in backend memory: submitted to the backend's stream when
 * it has asynchronous operations (token not NULL), else run synchronously on the queue's
 * worker thread. */
#include <pthread.h>
#include <string.h>

#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_enqueue.h"

/* ---- read and write ---- */

typedef struct buffer_io_cmd {
  hg_command cmd;
  cl_mem mem; /* retained */
  size_t offset, size;
  void *ptr;
  bool blocking;
  pthread_t enqueuer;
} buffer_io_cmd;

static void buffer_io_cleanup(hg_command *c) { hg_mem_release(((buffer_io_cmd *)c)->mem); }

static cl_int read_go(hg_command *c, hg_token **token) {
  buffer_io_cmd *cmd = (buffer_io_cmd *)c;
  if (!cmd->size)
    return CL_SUCCESS;
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, HG_MEM_READ, &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_backend *be = hg_command_backend(c);
  if (token && be->ops->mem_read_async)
    return be->ops->mem_read_async(be, dm, base + cmd->offset, cmd->size, cmd->ptr, hg_command_timed(c), token);
  return be->ops->mem_read(be, dm, base + cmd->offset, cmd->size, cmd->ptr);
}

static cl_int write_go(hg_command *c, hg_token **token) {
  buffer_io_cmd *cmd = (buffer_io_cmd *)c;
  if (!cmd->size)
    return CL_SUCCESS;
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, hg_mem_write_access(cmd->mem, cmd->size), &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_backend *be = hg_command_backend(c);
  if (token && be->ops->mem_write_async)
    return be->ops->mem_write_async(be, dm, base + cmd->offset, cmd->size, cmd->ptr, hg_command_timed(c), token);
  return be->ops->mem_write(be, dm, base + cmd->offset, cmd->size, cmd->ptr);
}

static cl_int read_run(hg_command *c) { return read_go(c, NULL); }
/* A blocking transfer whose times nobody asks for, handed to the stream by the thread that
 * enqueued it (and waits for it next), runs synchronously there: a vendor's own blocking
 * transfer costs less than one waited for through its event (NVIDIA: 20 against 100 us for a
 * 4-byte read after a long kernel, docs/performance.md). */
static hg_token **stream_token(hg_command *c, hg_token **token) {
  buffer_io_cmd *cmd = (buffer_io_cmd *)c;
  return cmd->blocking && !hg_command_timed(c) && pthread_equal(cmd->enqueuer, pthread_self()) ? NULL : token;
}

static cl_int read_submit(hg_command *c, hg_token **token) { return read_go(c, stream_token(c, token)); }
static cl_int write_run(hg_command *c) { return write_go(c, NULL); }
static cl_int write_submit(hg_command *c, hg_token **token) { return write_go(c, stream_token(c, token)); }

static cl_int buffer_io_enqueue(cl_command_queue queue, cl_command_type type, cl_mem buffer, bool blocking,
                                size_t offset, size_t size, void *ptr, cl_uint num_events_in_wait_list,
                                const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  err = hg_enqueue_check_buffer(ctx, buffer);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr || !hg_enqueue_range_ok(buffer, offset, size))
    return CL_INVALID_VALUE;
  bool reading = type == CL_COMMAND_READ_BUFFER;
  if (reading ? !hg_mem_host_readable(buffer) : !hg_mem_host_writable(buffer))
    return CL_INVALID_OPERATION;

  hg_command *c;
  err = hg_command_create(queue, type, sizeof(buffer_io_cmd), num_events_in_wait_list, event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  buffer_io_cmd *cmd = (buffer_io_cmd *)c;
  cmd->mem = buffer;
  cmd->offset = offset;
  cmd->size = size;
  cmd->ptr = ptr;
  cmd->blocking = blocking;
  cmd->enqueuer = pthread_self();
  hg_mem_retain(buffer);
  c->run = reading ? read_run : write_run;
  c->submit = reading ? read_submit : write_submit;
  c->cleanup = buffer_io_cleanup;
  return hg_command_submit(c, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    cl_bool blocking_read, size_t offset, size_t size, void *ptr,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list, cl_event *event) {
  return buffer_io_enqueue(command_queue, CL_COMMAND_READ_BUFFER, buffer, blocking_read, offset, size, ptr,
                           num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset, size_t size,
                                                     const void *ptr, cl_uint num_events_in_wait_list,
                                                     const cl_event *event_wait_list, cl_event *event) {
  return buffer_io_enqueue(command_queue, CL_COMMAND_WRITE_BUFFER, buffer, blocking_write, offset, size,
                           (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copy ---- */

typedef struct buffer_copy_cmd {
  hg_command cmd;
  cl_mem src, dst; /* retained */
  size_t src_offset, dst_offset, size;
} buffer_copy_cmd;

static void buffer_copy_cleanup(hg_command *c) {
  buffer_copy_cmd *cmd = (buffer_copy_cmd *)c;
  hg_mem_release(cmd->src);
  hg_mem_release(cmd->dst);
}

static cl_int copy_go(hg_command *c, hg_token **token) {
  buffer_copy_cmd *cmd = (buffer_copy_cmd *)c;
  if (!cmd->size)
    return CL_SUCCESS;
  hg_dev_mem *src, *dst;
  size_t src_base, dst_base;
  cl_int err = hg_command_buffer(c, cmd->src, HG_MEM_READ, &src, &src_base);
  if (err == CL_SUCCESS)
    err = hg_command_buffer(c, cmd->dst, HG_MEM_WRITE, &dst, &dst_base);
  if (err != CL_SUCCESS)
    return err;
  hg_backend *be = hg_command_backend(c);
  if (token && be->ops->mem_copy_async)
    return be->ops->mem_copy_async(be, src, src_base + cmd->src_offset, dst, dst_base + cmd->dst_offset, cmd->size,
                                   hg_command_timed(c), token);
  return be->ops->mem_copy(be, src, src_base + cmd->src_offset, dst, dst_base + cmd->dst_offset, cmd->size);
}

static cl_int copy_run(hg_command *c) { return copy_go(c, NULL); }
static cl_int copy_submit(hg_command *c, hg_token **token) { return copy_go(c, token); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                                    cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(command_queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_enqueue_check_buffer(ctx, src_buffer)) != CL_SUCCESS ||
      (err = hg_enqueue_check_buffer(ctx, dst_buffer)) != CL_SUCCESS)
    return err;
  if (!hg_enqueue_range_ok(src_buffer, src_offset, size) || !hg_enqueue_range_ok(dst_buffer, dst_offset, size))
    return CL_INVALID_VALUE;
  /* the same bytes, whether through the same buffer or two sub-buffers of one */
  if (src_buffer->storage == dst_buffer->storage &&
      hg_ranges_overlap(src_buffer->origin + src_offset, size, dst_buffer->origin + dst_offset, size))
    return CL_MEM_COPY_OVERLAP;

  hg_command *c;
  err = hg_command_create(command_queue, CL_COMMAND_COPY_BUFFER, sizeof(buffer_copy_cmd), num_events_in_wait_list,
                          event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  buffer_copy_cmd *cmd = (buffer_copy_cmd *)c;
  cmd->src = src_buffer;
  cmd->dst = dst_buffer;
  cmd->src_offset = src_offset;
  cmd->dst_offset = dst_offset;
  cmd->size = size;
  hg_mem_retain(src_buffer);
  hg_mem_retain(dst_buffer);
  c->run = copy_run;
  c->submit = copy_submit;
  c->cleanup = buffer_copy_cleanup;
  return hg_command_submit(c, event, false);
}

/* ---- fill ---- */

#define MAX_PATTERN 128

typedef struct buffer_fill_cmd {
  hg_command cmd;
  cl_mem mem; /* retained */
  size_t offset, size, pattern_size;
  unsigned char pattern[MAX_PATTERN]; /* copied: the application may reuse its pattern at once */
} buffer_fill_cmd;

static void buffer_fill_cleanup(hg_command *c) { hg_mem_release(((buffer_fill_cmd *)c)->mem); }

static cl_int fill_go(hg_command *c, hg_token **token) {
  buffer_fill_cmd *cmd = (buffer_fill_cmd *)c;
  if (!cmd->size)
    return CL_SUCCESS;
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, hg_mem_write_access(cmd->mem, cmd->size), &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_backend *be = hg_command_backend(c);
  if (token && be->ops->mem_fill_async)
    return be->ops->mem_fill_async(be, dm, base + cmd->offset, cmd->size, cmd->pattern, cmd->pattern_size,
                                   hg_command_timed(c), token);
  return be->ops->mem_fill(be, dm, base + cmd->offset, cmd->size, cmd->pattern, cmd->pattern_size);
}

static cl_int fill_run(hg_command *c) { return fill_go(c, NULL); }
static cl_int fill_submit(hg_command *c, hg_token **token) { return fill_go(c, token); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    const void *pattern, size_t pattern_size, size_t offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(command_queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_enqueue_check_buffer(ctx, buffer)) != CL_SUCCESS)
    return err;
  bool power_of_two = pattern_size && !(pattern_size & (pattern_size - 1));
  if (!pattern || !power_of_two || pattern_size > MAX_PATTERN)
    return CL_INVALID_VALUE;
  if (!hg_enqueue_range_ok(buffer, offset, size) || offset % pattern_size || size % pattern_size)
    return CL_INVALID_VALUE;

  hg_command *c;
  err = hg_command_create(command_queue, CL_COMMAND_FILL_BUFFER, sizeof(buffer_fill_cmd), num_events_in_wait_list,
                          event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  buffer_fill_cmd *cmd = (buffer_fill_cmd *)c;
  cmd->mem = buffer;
  cmd->offset = offset;
  cmd->size = size;
  cmd->pattern_size = pattern_size;
  memcpy(cmd->pattern, pattern, pattern_size);
  hg_mem_retain(buffer);
  c->run = fill_run;
  c->submit = fill_submit;
  c->cleanup = buffer_fill_cleanup;
  return hg_command_submit(c, event, false);
}
