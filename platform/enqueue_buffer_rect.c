/* clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect: the pitch and
 * bounds rules, the overlap rule, and the commands. Origins are turned into byte offsets here
 * so that the backend sees plain (offset, pitches, region) transfers. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_enqueue.h"

/* One side of a rectangular transfer after the checks: byte offset of its first byte and its
 * pitches (zeros replaced by the packed defaults). */
typedef struct rect_side {
  size_t offset, row_pitch, slice_pitch;
} rect_side;

/* Applies the pitch rules and computes the side's offset and the bytes it spans from there.
 * CL_INVALID_VALUE for a bad pitch or a size that does not fit in size_t. */
static cl_int rect_side_make(const size_t origin[3], const size_t region[3], size_t row_pitch, size_t slice_pitch,
                             rect_side *side, size_t *span) {
  size_t t;
  if (row_pitch == 0)
    row_pitch = region[0];
  else if (row_pitch < region[0])
    return CL_INVALID_VALUE;
  if (__builtin_mul_overflow(region[1], row_pitch, &t))
    return CL_INVALID_VALUE;
  if (slice_pitch == 0)
    slice_pitch = t;
  else if (slice_pitch < t || slice_pitch % row_pitch)
    return CL_INVALID_VALUE;
  size_t off, a, b;
  if (__builtin_mul_overflow(origin[2], slice_pitch, &a) || __builtin_mul_overflow(origin[1], row_pitch, &b) ||
      __builtin_add_overflow(a, b, &off) || __builtin_add_overflow(off, origin[0], &off))
    return CL_INVALID_VALUE;
  size_t s;
  if (__builtin_mul_overflow(region[2] - 1, slice_pitch, &a) || __builtin_mul_overflow(region[1] - 1, row_pitch, &b) ||
      __builtin_add_overflow(a, b, &s) || __builtin_add_overflow(s, region[0], &s) ||
      __builtin_add_overflow(off, s, &t))
    return CL_INVALID_VALUE;
  side->offset = off;
  side->row_pitch = row_pitch;
  side->slice_pitch = slice_pitch;
  *span = s;
  return CL_SUCCESS;
}

static bool region_valid(const size_t *region) { return region && region[0] && region[1] && region[2]; }

/* The buffer side must lie within the buffer. */
static bool rect_side_in(cl_mem mem, const rect_side *side, size_t span) {
  return hg_enqueue_range_ok(mem, side->offset, span);
}

static hg_rect rect_of(const rect_side *src, const rect_side *dst, const size_t region[3], size_t src_base,
                       size_t dst_base) {
  hg_rect r;
  memset(&r, 0, sizeof r);
  r.src_origin[0] = src_base + src->offset;
  r.dst_origin[0] = dst_base + dst->offset;
  memcpy(r.region, region, sizeof r.region);
  r.src_row_pitch = src->row_pitch;
  r.src_slice_pitch = src->slice_pitch;
  r.dst_row_pitch = dst->row_pitch;
  r.dst_slice_pitch = dst->slice_pitch;
  return r;
}

/* Start of row k (rows counted across slices) of a side starting at `base`. */
static size_t row_start(size_t base, const rect_side *s, size_t rows_per_slice, size_t k) {
  return base + (k / rows_per_slice) * s->slice_pitch + (k % rows_per_slice) * s->row_pitch;
}

/* True when two rectangles in the same bytes share a byte. The rows of one side are
 * increasing and disjoint (row pitch >= width, slice pitch >= rows x row pitch), so for each
 * source row only the last destination row that starts before its end can meet it. */
static bool rects_overlap(size_t src_base, const rect_side *src, size_t src_span, size_t dst_base,
                          const rect_side *dst, size_t dst_span, const size_t region[3]) {
  if (!hg_ranges_overlap(src_base, src_span, dst_base, dst_span))
    return false;
  size_t rows = region[1] * region[2], width = region[0];
  for (size_t k = 0; k < rows; k++) {
    size_t a = row_start(src_base, src, region[1], k);
    size_t lo = 0, hi = rows; /* find the number of destination rows starting before a + width */
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (row_start(dst_base, dst, region[1], mid) < a + width)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo && row_start(dst_base, dst, region[1], lo - 1) + width > a)
      return true;
  }
  return false;
}

/* ---- read and write ---- */

typedef struct rect_io_cmd {
  hg_command cmd;
  cl_mem mem; /* retained */
  rect_side buf, host;
  size_t region[3];
  void *ptr;
} rect_io_cmd;

static void rect_io_cleanup(hg_command *c) { hg_mem_release(((rect_io_cmd *)c)->mem); }

static cl_int read_rect_go(hg_command *c, hg_token **token) {
  rect_io_cmd *cmd = (rect_io_cmd *)c;
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, HG_MEM_READ, &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_rect r = rect_of(&cmd->buf, &cmd->host, cmd->region, base, 0);
  hg_backend *be = hg_command_backend(c);
  if (token && be->ops->mem_read_rect_async)
    return be->ops->mem_read_rect_async(be, dm, &r, cmd->ptr, hg_command_timed(c), token);
  return be->ops->mem_read_rect(be, dm, &r, cmd->ptr);
}

static cl_int write_rect_go(hg_command *c, hg_token **token) {
  rect_io_cmd *cmd = (rect_io_cmd *)c;
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, HG_MEM_WRITE, &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_rect r = rect_of(&cmd->host, &cmd->buf, cmd->region, 0, base);
  hg_backend *be = hg_command_backend(c);
  if (token && be->ops->mem_write_rect_async)
    return be->ops->mem_write_rect_async(be, dm, &r, cmd->ptr, hg_command_timed(c), token);
  return be->ops->mem_write_rect(be, dm, &r, cmd->ptr);
}

static cl_int read_rect_run(hg_command *c) { return read_rect_go(c, NULL); }
static cl_int read_rect_submit(hg_command *c, hg_token **token) { return read_rect_go(c, token); }
static cl_int write_rect_run(hg_command *c) { return write_rect_go(c, NULL); }
static cl_int write_rect_submit(hg_command *c, hg_token **token) { return write_rect_go(c, token); }

static cl_int rect_io_enqueue(cl_command_queue queue, cl_command_type type, cl_mem buffer, bool blocking,
                              const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                              size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                              size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
                              const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_enqueue_check_buffer(ctx, buffer)) != CL_SUCCESS)
    return err;
  if (!ptr || !buffer_origin || !host_origin || !region_valid(region))
    return CL_INVALID_VALUE;
  rect_side buf, host;
  size_t buf_span, host_span;
  if ((err = rect_side_make(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &buf, &buf_span)) !=
          CL_SUCCESS ||
      (err = rect_side_make(host_origin, region, host_row_pitch, host_slice_pitch, &host, &host_span)) != CL_SUCCESS)
    return err;
  if (!rect_side_in(buffer, &buf, buf_span))
    return CL_INVALID_VALUE;
  bool reading = type == CL_COMMAND_READ_BUFFER_RECT;
  if (reading ? !hg_mem_host_readable(buffer) : !hg_mem_host_writable(buffer))
    return CL_INVALID_OPERATION;

  hg_command *c;
  err = hg_command_create(queue, type, sizeof(rect_io_cmd), num_events_in_wait_list, event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  rect_io_cmd *cmd = (rect_io_cmd *)c;
  cmd->mem = buffer;
  cmd->buf = buf;
  cmd->host = host;
  memcpy(cmd->region, region, sizeof cmd->region);
  cmd->ptr = ptr;
  hg_mem_retain(buffer);
  c->run = reading ? read_rect_run : write_rect_run;
  c->submit = reading ? read_rect_submit : write_rect_submit;
  c->cleanup = rect_io_cleanup;
  return hg_command_submit(c, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return rect_io_enqueue(command_queue, CL_COMMAND_READ_BUFFER_RECT, buffer, blocking_read, buffer_origin,
                         host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                         ptr, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return rect_io_enqueue(command_queue, CL_COMMAND_WRITE_BUFFER_RECT, buffer, blocking_write, buffer_origin,
                         host_origin, region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                         (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copy ---- */

typedef struct rect_copy_cmd {
  hg_command cmd;
  cl_mem src, dst; /* retained */
  rect_side s, d;
  size_t region[3];
} rect_copy_cmd;

static void rect_copy_cleanup(hg_command *c) {
  rect_copy_cmd *cmd = (rect_copy_cmd *)c;
  hg_mem_release(cmd->src);
  hg_mem_release(cmd->dst);
}

cl_int hg_mem_copy_rect_staged(hg_backend *be, hg_dev_mem *dm, const hg_rect *r) {
  size_t packed = r->region[0] * r->region[1] * r->region[2];
  void *tmp = malloc(packed);
  if (!tmp)
    return CL_OUT_OF_HOST_MEMORY;
  hg_rect in = *r, out = *r;
  memset(in.dst_origin, 0, sizeof in.dst_origin);
  in.dst_row_pitch = r->region[0];
  in.dst_slice_pitch = r->region[0] * r->region[1];
  memset(out.src_origin, 0, sizeof out.src_origin);
  out.src_row_pitch = in.dst_row_pitch;
  out.src_slice_pitch = in.dst_slice_pitch;
  cl_int err = be->ops->mem_read_rect(be, dm, &in, tmp);
  if (err == CL_SUCCESS)
    err = be->ops->mem_write_rect(be, dm, &out, tmp);
  free(tmp);
  return err;
}

static cl_int copy_rect_go(hg_command *c, hg_token **token) {
  rect_copy_cmd *cmd = (rect_copy_cmd *)c;
  hg_dev_mem *src, *dst;
  size_t src_base, dst_base;
  cl_int err = hg_command_buffer(c, cmd->src, HG_MEM_READ, &src, &src_base);
  if (err == CL_SUCCESS)
    err = hg_command_buffer(c, cmd->dst, HG_MEM_WRITE, &dst, &dst_base);
  if (err != CL_SUCCESS)
    return err;
  hg_rect r = rect_of(&cmd->s, &cmd->d, cmd->region, src_base, dst_base);
  hg_backend *be = hg_command_backend(c);
  if (src == dst)
    return hg_mem_copy_rect_staged(be, src, &r); /* synchronous: the backend orders it after the stream */
  if (token && be->ops->mem_copy_rect_async)
    return be->ops->mem_copy_rect_async(be, src, dst, &r, hg_command_timed(c), token);
  return be->ops->mem_copy_rect(be, src, dst, &r);
}

static cl_int copy_rect_run(hg_command *c) { return copy_rect_go(c, NULL); }
static cl_int copy_rect_submit(hg_command *c, hg_token **token) { return copy_rect_go(c, token); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                                        cl_mem dst_buffer, const size_t *src_origin,
                                                        const size_t *dst_origin, const size_t *region,
                                                        size_t src_row_pitch, size_t src_slice_pitch,
                                                        size_t dst_row_pitch, size_t dst_slice_pitch,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(command_queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_enqueue_check_buffer(ctx, src_buffer)) != CL_SUCCESS ||
      (err = hg_enqueue_check_buffer(ctx, dst_buffer)) != CL_SUCCESS)
    return err;
  if (!src_origin || !dst_origin || !region_valid(region))
    return CL_INVALID_VALUE;
  rect_side s, d;
  size_t s_span, d_span;
  if ((err = rect_side_make(src_origin, region, src_row_pitch, src_slice_pitch, &s, &s_span)) != CL_SUCCESS ||
      (err = rect_side_make(dst_origin, region, dst_row_pitch, dst_slice_pitch, &d, &d_span)) != CL_SUCCESS)
    return err;
  if (!rect_side_in(src_buffer, &s, s_span) || !rect_side_in(dst_buffer, &d, d_span))
    return CL_INVALID_VALUE;
  if (src_buffer == dst_buffer && (s.row_pitch != d.row_pitch || s.slice_pitch != d.slice_pitch))
    return CL_INVALID_VALUE;
  if (src_buffer->storage == dst_buffer->storage &&
      rects_overlap(src_buffer->origin + s.offset, &s, s_span, dst_buffer->origin + d.offset, &d, d_span, region))
    return CL_MEM_COPY_OVERLAP;

  hg_command *c;
  err = hg_command_create(command_queue, CL_COMMAND_COPY_BUFFER_RECT, sizeof(rect_copy_cmd), num_events_in_wait_list,
                          event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  rect_copy_cmd *cmd = (rect_copy_cmd *)c;
  cmd->src = src_buffer;
  cmd->dst = dst_buffer;
  cmd->s = s;
  cmd->d = d;
  memcpy(cmd->region, region, sizeof cmd->region);
  hg_mem_retain(src_buffer);
  hg_mem_retain(dst_buffer);
  c->run = copy_rect_run;
  c->submit = copy_rect_submit;
  c->cleanup = rect_copy_cleanup;
  return hg_command_submit(c, event, false);
}
