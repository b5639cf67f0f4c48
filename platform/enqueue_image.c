/* clEnqueueReadImage, clEnqueueWriteImage, clEnqueueCopyImage, clEnqueueFillImage,
 * clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage: their rules, then one command that
 * moves a rectangle between two sides, each an image, a buffer or host memory, through the
 * backend's rect operations (images in their own coordinates, devices/backend.h). A fill is a
 * write of the packed color repeated over the region. */
#include <stdlib.h>
#include <string.h>

#include "common/image_format.h"
#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_enqueue.h"
#include "platform/mem_image.h"

/* One side of the move: a memory object with the origin the command gave (images: pixels;
 * buffers: origin[0] the byte offset), or host memory (mem NULL) with its pitches. */
typedef struct image_side {
  cl_mem mem; /* retained */
  size_t origin[3];
  size_t row_pitch, slice_pitch; /* host memory and buffers: steps between rows and slices */
} image_side;

typedef struct image_cmd {
  hg_command cmd;
  image_side src, dst;
  size_t region[3]; /* pixels (rows, slices) */
  size_t pixel_size;
  void *ptr;      /* the host side's memory */
  uint8_t *owned; /* a fill's pixels, freed with the command */
} image_cmd;

static void image_cmd_cleanup(hg_command *c) {
  image_cmd *cmd = (image_cmd *)c;
  if (cmd->src.mem)
    hg_mem_release(cmd->src.mem);
  if (cmd->dst.mem)
    hg_mem_release(cmd->dst.mem);
  free(cmd->owned);
}

/* A side's origin and pitches in the rectangle given to the backend. */
static void side_rect(const image_side *s, size_t base, size_t origin[3], size_t *row, size_t *slice) {
  if (s->mem && s->mem->image) {
    hg_image_rect_side(s->mem, s->origin, base, origin, row, slice);
    return;
  }
  origin[0] = s->origin[0] + base;
  origin[1] = origin[2] = 0;
  *row = s->row_pitch;
  *slice = s->slice_pitch;
}

static cl_int image_cmd_run(hg_command *c) {
  image_cmd *cmd = (image_cmd *)c;
  hg_dev_mem *src = NULL, *dst = NULL;
  size_t src_base = 0, dst_base = 0;
  cl_int err = CL_SUCCESS;
  if (cmd->src.mem)
    err = hg_command_buffer(c, cmd->src.mem, HG_MEM_READ, &src, &src_base);
  if (err == CL_SUCCESS && cmd->dst.mem)
    err = hg_command_buffer(c, cmd->dst.mem, HG_MEM_WRITE, &dst, &dst_base);
  if (err != CL_SUCCESS)
    return err;
  hg_rect r = {.region = {cmd->region[0] * cmd->pixel_size, cmd->region[1], cmd->region[2]}};
  side_rect(&cmd->src, src_base, r.src_origin, &r.src_row_pitch, &r.src_slice_pitch);
  side_rect(&cmd->dst, dst_base, r.dst_origin, &r.dst_row_pitch, &r.dst_slice_pitch);
  hg_backend *be = hg_command_backend(c);
  if (!dst)
    return be->ops->mem_read_rect(be, src, &r, cmd->ptr);
  if (!src)
    return be->ops->mem_write_rect(be, dst, &r, cmd->ptr);
  if (src == dst)
    return hg_mem_copy_rect_staged(be, src, &r); /* backends need not copy a rect onto its own allocation */
  return be->ops->mem_copy_rect(be, src, dst, &r);
}

static cl_int image_cmd_submit(cl_command_queue queue, cl_command_type type, const image_side *src,
                               const image_side *dst, const size_t region[3], size_t pixel_size, void *ptr,
                               uint8_t *owned, bool blocking, cl_uint num_events, const cl_event *wait_list,
                               cl_event *event) {
  hg_command *c;
  cl_int err = hg_command_create(queue, type, sizeof(image_cmd), num_events, wait_list, &c);
  if (err != CL_SUCCESS) {
    free(owned);
    return err;
  }
  image_cmd *cmd = (image_cmd *)c;
  cmd->src = *src;
  cmd->dst = *dst;
  memcpy(cmd->region, region, sizeof cmd->region);
  cmd->pixel_size = pixel_size;
  cmd->ptr = ptr;
  cmd->owned = owned;
  if (src->mem)
    hg_mem_retain(src->mem);
  if (dst->mem)
    hg_mem_retain(dst->mem);
  c->run = image_cmd_run;
  c->cleanup = image_cmd_cleanup;
  return hg_command_submit(c, event, blocking);
}

/* The checks every command starts with: the queue and one image. */
static cl_int queue_and_image(cl_command_queue queue, cl_mem image, cl_context *ctx) {
  cl_int err = hg_enqueue_queue_context(queue, ctx);
  return err != CL_SUCCESS ? err : hg_enqueue_check_image(*ctx, image);
}

/* ---- read and write ---- */

static cl_int image_io(cl_command_queue queue, cl_command_type type, cl_mem image, cl_bool blocking,
                       const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                       cl_uint num_events, const cl_event *wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = queue_and_image(queue, image, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_image_region_check(image, origin, region)) != CL_SUCCESS)
    return err;
  if (!ptr)
    return CL_INVALID_VALUE;
  const hg_image_layout *l = &image->image->layout;
  image_side mem = {.mem = image}, host = {0};
  memcpy(mem.origin, origin, sizeof mem.origin);
  if ((err = hg_image_host_pitches(l, region, row_pitch, slice_pitch, &host.row_pitch, &host.slice_pitch)) !=
      CL_SUCCESS)
    return err;
  bool reading = type == CL_COMMAND_READ_IMAGE;
  if (reading ? !hg_mem_host_readable(image) : !hg_mem_host_writable(image))
    return CL_INVALID_OPERATION;
  return image_cmd_submit(queue, type, reading ? &mem : &host, reading ? &host : &mem, region, l->pixel_size, ptr,
                          NULL, blocking, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                                   cl_bool blocking_read, const size_t *origin, const size_t *region,
                                                   size_t row_pitch, size_t slice_pitch, void *ptr,
                                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                   cl_event *event) {
  return image_io(command_queue, CL_COMMAND_READ_IMAGE, image, blocking_read, origin, region, row_pitch, slice_pitch,
                  ptr, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                                    cl_bool blocking_write, const size_t *origin,
                                                    const size_t *region, size_t input_row_pitch,
                                                    size_t input_slice_pitch, const void *ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                    cl_event *event) {
  return image_io(command_queue, CL_COMMAND_WRITE_IMAGE, image, blocking_write, origin, region, input_row_pitch,
                  input_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill ---- */

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                                   const void *fill_color, const size_t *origin,
                                                   const size_t *region, cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = queue_and_image(command_queue, image, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_image_region_check(image, origin, region)) != CL_SUCCESS)
    return err;
  if (!fill_color)
    return CL_INVALID_VALUE;
  if ((err = hg_check_wait_list(ctx, num_events_in_wait_list, event_wait_list)) != CL_SUCCESS)
    return err;
  const hg_image_layout *l = &image->image->layout;
  uint8_t pixel[16];
  hg_image_pack_color(&l->format, fill_color, pixel);
  size_t count = region[0] * region[1] * region[2];
  uint8_t *pixels = malloc(count * l->pixel_size);
  if (!pixels)
    return CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; i < count; i++)
    memcpy(pixels + i * l->pixel_size, pixel, l->pixel_size);
  image_side mem = {.mem = image}, host = {.row_pitch = region[0] * l->pixel_size};
  host.slice_pitch = host.row_pitch * region[1];
  memcpy(mem.origin, origin, sizeof mem.origin);
  return image_cmd_submit(command_queue, CL_COMMAND_FILL_IMAGE, &host, &mem, region, l->pixel_size, pixels, pixels,
                          false, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copies ---- */

/* True when two boxes of one image share a pixel. */
static bool boxes_overlap(const size_t *a, const size_t *b, const size_t *region) {
  for (unsigned d = 0; d < 3; d++)
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
      return false;
  return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                                   cl_mem dst_image, const size_t *src_origin,
                                                   const size_t *dst_origin, const size_t *region,
                                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                   cl_event *event) {
  cl_context ctx;
  cl_int err = queue_and_image(command_queue, src_image, &ctx);
  if (err == CL_SUCCESS)
    err = hg_enqueue_check_image(ctx, dst_image);
  if (err != CL_SUCCESS)
    return err;
  const hg_image_layout *s = &src_image->image->layout, *d = &dst_image->image->layout;
  if (s->format.image_channel_order != d->format.image_channel_order ||
      s->format.image_channel_data_type != d->format.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  if ((err = hg_image_region_check(src_image, src_origin, region)) != CL_SUCCESS ||
      (err = hg_image_region_check(dst_image, dst_origin, region)) != CL_SUCCESS)
    return err;
  if (src_image == dst_image && boxes_overlap(src_origin, dst_origin, region))
    return CL_MEM_COPY_OVERLAP;
  image_side src = {.mem = src_image}, dst = {.mem = dst_image};
  memcpy(src.origin, src_origin, sizeof src.origin);
  memcpy(dst.origin, dst_origin, sizeof dst.origin);
  return image_cmd_submit(command_queue, CL_COMMAND_COPY_IMAGE, &src, &dst, region, s->pixel_size, NULL, NULL, false,
                          num_events_in_wait_list, event_wait_list, event);
}

/* The buffer side of a copy with an image: `offset` in the buffer, the region packed there;
 * CL_INVALID_VALUE when it passes the buffer's end. */
static cl_int buffer_side(cl_mem buffer, size_t offset, const size_t *region, size_t pixel_size, image_side *side) {
  *side = (image_side){.mem = buffer, .origin = {offset, 0, 0}, .row_pitch = region[0] * pixel_size};
  side->slice_pitch = side->row_pitch * region[1];
  size_t bytes = side->slice_pitch * region[2];
  return hg_enqueue_range_ok(buffer, offset, bytes) ? CL_SUCCESS : CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                                           cl_mem dst_buffer, const size_t *src_origin,
                                                           const size_t *region, size_t dst_offset,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = queue_and_image(command_queue, src_image, &ctx);
  if (err == CL_SUCCESS)
    err = hg_enqueue_check_buffer(ctx, dst_buffer);
  if (err == CL_SUCCESS)
    err = hg_image_region_check(src_image, src_origin, region);
  if (err != CL_SUCCESS)
    return err;
  size_t ps = src_image->image->layout.pixel_size;
  image_side src = {.mem = src_image}, dst;
  memcpy(src.origin, src_origin, sizeof src.origin);
  if ((err = buffer_side(dst_buffer, dst_offset, region, ps, &dst)) != CL_SUCCESS)
    return err;
  return image_cmd_submit(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, &src, &dst, region, ps, NULL, NULL, false,
                          num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                                           cl_mem dst_image, size_t src_offset,
                                                           const size_t *dst_origin, const size_t *region,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(command_queue, &ctx);
  if (err == CL_SUCCESS)
    err = hg_enqueue_check_buffer(ctx, src_buffer);
  if (err == CL_SUCCESS)
    err = hg_enqueue_check_image(ctx, dst_image);
  if (err == CL_SUCCESS)
    err = hg_image_region_check(dst_image, dst_origin, region);
  if (err != CL_SUCCESS)
    return err;
  size_t ps = dst_image->image->layout.pixel_size;
  image_side src, dst = {.mem = dst_image};
  memcpy(dst.origin, dst_origin, sizeof dst.origin);
  if ((err = buffer_side(src_buffer, src_offset, region, ps, &src)) != CL_SUCCESS)
    return err;
  return image_cmd_submit(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, &src, &dst, region, ps, NULL, NULL, false,
                          num_events_in_wait_list, event_wait_list, event);
}
