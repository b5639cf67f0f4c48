/* Images on the vendor backend (docs/images.md, "Backends"): an image allocation is a vendor
 * image of the layout, and the memory operations that touch one become the vendor's image
 * commands on the stream. Contents move in the layout's packed bytes; the rect forms give the
 * image side in OpenCL's image coordinates with x in bytes (divided by the pixel size here).
 *
 * A 1D buffer image's allocation is a vendor buffer of the packed bytes (the same bytes a buffer
 * holds): every buffer operation applies, and kernels see it through a 1D buffer image made at
 * launch (vendor_image_args.c). */
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

/* The region of the whole image in the vendor's image coordinates. */
static void whole_region(const hg_image_layout *l, size_t region[3]) {
  region[0] = l->width;
  region[1] = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? l->array_size : l->height;
  region[2] = l->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? l->array_size : l->depth;
}

static bool layout_valid(const hg_image_layout *l) {
  size_t region[3];
  whole_region(l, region);
  bool array = l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || l->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  bool known = l->type == CL_MEM_OBJECT_IMAGE1D || l->type == CL_MEM_OBJECT_IMAGE1D_BUFFER || array ||
               l->type == CL_MEM_OBJECT_IMAGE2D || l->type == CL_MEM_OBJECT_IMAGE3D;
  return known && hg_image_format_supported(&l->format) && l->pixel_size == hg_image_pixel_size(&l->format) &&
         region[0] && region[1] && region[2] && l->row_pitch == l->width * l->pixel_size &&
         l->size == l->row_pitch * region[1] * region[2] && (array || l->array_size == 1);
}

/* The vendor's pitches for host memory whose rows (y) are row_pitch and slices (z) slice_pitch
 * apart, for an image of this type: a 1D array's layers are its y, which the specification
 * steps by the slice pitch and PoCL 3.1 by the row pitch: both are given it; 1D and 2D images
 * take no slice pitch. */
static void vendor_pitches(cl_mem_object_type type, size_t row_pitch, size_t slice_pitch, size_t *vrow,
                           size_t *vslice) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    *vrow = row_pitch;
    *vslice = row_pitch;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    *vrow = row_pitch;
    *vslice = slice_pitch;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    *vrow = row_pitch;
    *vslice = 0;
    break;
  default: /* 1D */
    *vrow = 0;
    *vslice = 0;
    break;
  }
}

/* The allocation's vendor image of `layout`, made resident as buffers are (vendor_mem.c). */
cl_int hg_vendor_image_alloc(hg_backend *be, const hg_image_layout *layout, hg_dev_mem **out) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  *out = NULL;
  if (!layout || !layout_valid(layout)) {
    HG_LOG(HG_LOG_MEM, "%s: image_alloc with an invalid layout", be->name);
    return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (layout->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) { /* a buffer of its packed bytes */
    cl_int err = hg_vendor_mem_alloc(be, layout->size, out);
    if (err == CL_SUCCESS)
      (*out)->layout = *layout;
    return err;
  }
  hg_dev_mem *m = calloc(1, sizeof *m);
  if (!m)
    return CL_OUT_OF_HOST_MEMORY;
  cl_image_desc desc = {.image_type = layout->type,
                        .image_width = layout->width,
                        .image_height = layout->height,
                        .image_depth = layout->depth,
                        .image_array_size = layout->array_size};
  cl_int err = CL_SUCCESS;
  /* kernels only read 3D images (the profile has no 3D writes); the host's commands write any */
  cl_mem_flags flags = layout->type == CL_MEM_OBJECT_IMAGE3D ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
  m->mem = VCL(vb->context)->clCreateImage(vb->context, flags, &layout->format, &desc, NULL, &err);
  if (m->mem)
    err = hg_vendor_make_resident(vb, m->mem);
  if (err != CL_SUCCESS) {
    HG_LOG(HG_LOG_MEM, "%s: image of %zux%zux%zu (%zu layers, type 0x%x) failed (%d)", be->name, layout->width,
           layout->height, layout->depth, layout->array_size, (unsigned)layout->type, err);
    if (m->mem)
      VCL(m->mem)->clReleaseMemObject(m->mem);
    free(m);
    return err == CL_OUT_OF_RESOURCES || err == CL_INVALID_IMAGE_SIZE ? CL_MEM_OBJECT_ALLOCATION_FAILURE
                                                                      : hg_vendor_error(err);
  }
  m->is_image = true;
  m->layout = *layout;
  m->size = layout->size;
  m->sub_align = 1;
  pthread_mutex_init(&m->subs_lock, NULL);
  *out = m;
  HG_LOG(HG_LOG_MEM, "%s: allocated an image of %zu bytes", be->name, layout->size);
  return CL_SUCCESS;
}

/* ---- whole contents ---- */

static bool whole(const hg_dev_mem *m, size_t offset, size_t size) {
  return offset == 0 && size == m->layout.size;
}

cl_int hg_vendor_image_read(hg_vendor_backend *vb, hg_dev_mem *src, size_t offset, size_t size, void *dst, bool timed,
                            hg_token **token) {
  if (!whole(src, offset, size))
    return CL_INVALID_OPERATION; /* the contract: images move whole */
  const hg_image_layout *l = &src->layout;
  size_t origin[3] = {0, 0, 0}, region[3], row, slice;
  whole_region(l, region);
  vendor_pitches(l->type, l->row_pitch, l->row_pitch * region[1], &row, &slice);
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueReadImage(slot.queue, src->mem, CL_FALSE, origin, region, row, slice, dst,
                                                   HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

cl_int hg_vendor_image_write(hg_vendor_backend *vb, hg_dev_mem *dst, size_t offset, size_t size, const void *src,
                             bool timed, hg_token **token) {
  if (!whole(dst, offset, size))
    return CL_INVALID_OPERATION;
  const hg_image_layout *l = &dst->layout;
  size_t origin[3] = {0, 0, 0}, region[3], row, slice;
  whole_region(l, region);
  vendor_pitches(l->type, l->row_pitch, l->row_pitch * region[1], &row, &slice);
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueWriteImage(slot.queue, dst->mem, CL_FALSE, origin, region, row, slice, src,
                                                    HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static bool same_layout(const hg_image_layout *a, const hg_image_layout *b) {
  return a->type == b->type && a->format.image_channel_order == b->format.image_channel_order &&
         a->format.image_channel_data_type == b->format.image_channel_data_type && a->width == b->width &&
         a->height == b->height && a->depth == b->depth && a->array_size == b->array_size;
}

static cl_int image_buffer_rect(hg_vendor_backend *vb, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r, bool timed,
                                hg_token **token);

/* Two images of one layout, or an image's packed bytes to or from a buffer's range. */
cl_int hg_vendor_image_copy(hg_vendor_backend *vb, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst,
                            size_t dst_offset, size_t size, bool timed, hg_token **token) {
  const hg_dev_mem *image = src->is_image ? src : dst;
  size_t image_offset = src->is_image ? src_offset : dst_offset;
  size_t buffer_offset = src->is_image ? dst_offset : src_offset;
  const hg_dev_mem *buffer = src->is_image ? dst : src;
  if (!whole(image, image_offset, size))
    return CL_INVALID_OPERATION;
  if (src->is_image && dst->is_image && (!same_layout(&src->layout, &dst->layout) || buffer_offset))
    return CL_INVALID_OPERATION;
  if (!(src->is_image && dst->is_image) && (buffer_offset > buffer->size || buffer->size - buffer_offset < size))
    return CL_INVALID_VALUE;
  if (src == dst)
    return CL_MEM_COPY_OVERLAP;
  size_t origin[3] = {0, 0, 0}, region[3];
  whole_region(&image->layout, region);
  if (!(src->is_image && dst->is_image) && image->layout.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    size_t row = image->layout.row_pitch; /* the packed bytes as a rect: layers are rows */
    hg_rect r = {.region = {row, region[1], 1}, .src_row_pitch = row, .dst_row_pitch = row,
                 .src_slice_pitch = row * region[1], .dst_slice_pitch = row * region[1]};
    r.src_origin[0] = src->is_image ? 0 : buffer_offset;
    r.dst_origin[0] = src->is_image ? buffer_offset : 0;
    return image_buffer_rect(vb, src, dst, &r, timed, token);
  }
  cl_event ev = NULL, *evp = hg_vendor_transfer_event(timed, token, &ev);
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  const cl_icd_dispatch *d = VCL(slot.queue);
  cl_int err = src->is_image && dst->is_image
                   ? d->clEnqueueCopyImage(slot.queue, src->mem, dst->mem, origin, origin, region, HG_VENDOR_WAIT(slot),
                                           evp)
               : src->is_image ? d->clEnqueueCopyImageToBuffer(slot.queue, src->mem, dst->mem, origin, region,
                                                                buffer_offset, HG_VENDOR_WAIT(slot), evp)
                               : d->clEnqueueCopyBufferToImage(slot.queue, src->mem, dst->mem, buffer_offset, origin,
                                                                region, HG_VENDOR_WAIT(slot), evp);
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

/* ---- rects ---- */

/* The image side of a rect in the vendor's coordinates: x from bytes to pixels. */
static cl_int image_box(const hg_dev_mem *m, const size_t origin[3], const size_t region[3], size_t vorigin[3],
                        size_t vregion[3]) {
  size_t ps = m->layout.pixel_size;
  if (origin[0] % ps || region[0] % ps)
    return CL_INVALID_VALUE;
  vorigin[0] = origin[0] / ps;
  vregion[0] = region[0] / ps;
  for (int i = 1; i < 3; i++) {
    vorigin[i] = origin[i];
    vregion[i] = region[i];
  }
  return CL_SUCCESS;
}

/* A host or buffer side's pitches as clEnqueue*Rect reads them: 0 means packed. */
static void side_pitches(const size_t region[3], size_t row_pitch, size_t slice_pitch, size_t *row, size_t *slice) {
  *row = row_pitch ? row_pitch : region[0];
  *slice = slice_pitch ? slice_pitch : *row * region[1];
}

static size_t side_offset(const size_t origin[3], size_t row, size_t slice) {
  return origin[2] * slice + origin[1] * row + origin[0];
}

static bool empty(const hg_rect *r) { return !r->region[0] || !r->region[1] || !r->region[2]; }

/* A transfer between host memory and an image region on the stream. NVIDIA's OpenCL refuses a
 * slice pitch that is not a multiple of the row pitch (CL_INVALID_VALUE on the H200, where the
 * specification allows any pitch at least a slice's bytes): such a region goes slice by slice,
 * and a single slice without its slice pitch. */
static cl_int image_host_transfer(hg_vendor_backend *vb, hg_dev_mem *m, bool write, const size_t origin[3],
                                  const size_t region[3], size_t vrow, size_t vslice, unsigned char *host, bool timed,
                                  hg_token **token) {
  size_t slices = 1, step = 0, o[3] = {origin[0], origin[1], origin[2]}, g[3] = {region[0], region[1], region[2]};
  if (vslice && vrow && vslice % vrow) {
    if (region[2] > 1) {
      slices = region[2];
      step = vslice;
      g[2] = 1;
    }
    vslice = 0;
  }
  cl_event ev = NULL, *evp = hg_vendor_transfer_event(timed, token, &ev);
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  const cl_icd_dispatch *d = VCL(slot.queue);
  cl_int err = CL_SUCCESS;
  for (size_t k = 0; k < slices && err == CL_SUCCESS; k++) {
    o[2] = origin[2] + k;
    cl_uint num_wait = k ? 0 : slot.num_wait; /* the later slices follow on the in-order queue */
    const cl_event *wait = num_wait ? &slot.wait : NULL;
    cl_event *done = k + 1 == slices ? evp : NULL;
    err = write ? d->clEnqueueWriteImage(slot.queue, m->mem, CL_FALSE, o, g, vrow, vslice, host + k * step, num_wait,
                                         wait, done)
                : d->clEnqueueReadImage(slot.queue, m->mem, CL_FALSE, o, g, vrow, vslice, host + k * step, num_wait,
                                        wait, done);
  }
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

cl_int hg_vendor_image_read_rect(hg_vendor_backend *vb, hg_dev_mem *src, const hg_rect *r, void *dst, bool timed,
                                 hg_token **token) {
  size_t origin[3], region[3], row, slice, vrow, vslice;
  cl_int err = image_box(src, r->src_origin, r->region, origin, region);
  if (err != CL_SUCCESS || empty(r))
    return err;
  side_pitches(r->region, r->dst_row_pitch, r->dst_slice_pitch, &row, &slice);
  vendor_pitches(src->layout.type, row, slice, &vrow, &vslice);
  unsigned char *host = (unsigned char *)dst + side_offset(r->dst_origin, row, slice);
  return image_host_transfer(vb, src, false, origin, region, vrow, vslice, host, timed, token);
}

cl_int hg_vendor_image_write_rect(hg_vendor_backend *vb, hg_dev_mem *dst, const hg_rect *r, const void *src,
                                  bool timed, hg_token **token) {
  size_t origin[3], region[3], row, slice, vrow, vslice;
  cl_int err = image_box(dst, r->dst_origin, r->region, origin, region);
  if (err != CL_SUCCESS || empty(r))
    return err;
  side_pitches(r->region, r->src_row_pitch, r->src_slice_pitch, &row, &slice);
  vendor_pitches(dst->layout.type, row, slice, &vrow, &vslice);
  unsigned char *host = (unsigned char *)src + side_offset(r->src_origin, row, slice);
  return image_host_transfer(vb, dst, true, origin, region, vrow, vslice, host, timed, token);
}

static void CL_CALLBACK free_host_block(cl_event ev, cl_int status, void *block) {
  (void)ev, (void)status;
  free(block);
}

/* Image and buffer through host memory, for 1D image arrays: NVIDIA's OpenCL refuses their
 * image-buffer copies (CL_INVALID_VALUE on the H200, whole or in part). A blocking read into a
 * host block (NVIDIA takes a non-blocking write's host bytes when it is enqueued, not when it
 * runs after the read), then a write from it on the stream; the block is freed when that ran. */
static cl_int image_buffer_via_host(hg_vendor_backend *vb, hg_dev_mem *image, hg_dev_mem *buffer, bool to_buffer,
                                    const size_t origin[3], const size_t region[3], const hg_rect *r,
                                    const size_t buffer_origin[3], size_t row, size_t slice, bool timed,
                                    hg_token **token) {
  size_t packed_row = r->region[0], packed_slice = packed_row * r->region[1], vrow, vslice;
  vendor_pitches(image->layout.type, packed_row, packed_slice, &vrow, &vslice);
  unsigned char *block = malloc(packed_slice * r->region[2]);
  if (!block)
    return CL_OUT_OF_HOST_MEMORY;
  size_t zero[3] = {0, 0, 0};
  cl_event ev = NULL, *evp = hg_vendor_transfer_event(timed, token, &ev), done = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  const cl_icd_dispatch *d = VCL(slot.queue);
  cl_command_queue q = slot.queue;
  cl_int err;
  if (to_buffer) {
    err = d->clEnqueueReadImage(q, image->mem, CL_TRUE, origin, region, vrow, vslice, block, HG_VENDOR_WAIT(slot),
                                NULL);
    if (err == CL_SUCCESS)
      err = d->clEnqueueWriteBufferRect(q, buffer->mem, CL_FALSE, buffer_origin, zero, r->region, row, slice,
                                        packed_row, packed_slice, block, 0, NULL, &done);
  } else {
    err = d->clEnqueueReadBufferRect(q, buffer->mem, CL_TRUE, buffer_origin, zero, r->region, row, slice, packed_row,
                                     packed_slice, block, HG_VENDOR_WAIT(slot), NULL);
    if (err == CL_SUCCESS)
      err = d->clEnqueueWriteImage(q, image->mem, CL_FALSE, origin, region, vrow, vslice, block, 0, NULL, &done);
  }
  if (err == CL_SUCCESS && d->clSetEventCallback(done, CL_COMPLETE, free_host_block, block) == CL_SUCCESS)
    block = NULL; /* the vendor frees it */
  else if (err == CL_SUCCESS)
    d->clWaitForEvents(1, &done);
  free(block);
  if (evp)
    ev = done;
  else if (done)
    d->clReleaseEvent(done);
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

/* Image and buffer: the vendor's image-buffer copies take the buffer side packed (rows of the
 * region's bytes, slices of its rows), at one offset. A buffer side with other pitches goes
 * through a packed vendor buffer of the region and a buffer rect copy, both on the stream. */
static cl_int image_buffer_rect(hg_vendor_backend *vb, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r, bool timed,
                                hg_token **token) {
  bool to_buffer = src->is_image;
  hg_dev_mem *image = to_buffer ? src : dst, *buffer = to_buffer ? dst : src;
  const size_t *image_origin = to_buffer ? r->src_origin : r->dst_origin;
  const size_t *buffer_origin = to_buffer ? r->dst_origin : r->src_origin;
  size_t origin[3], region[3], row, slice;
  cl_int err = image_box(image, image_origin, r->region, origin, region);
  if (err != CL_SUCCESS || empty(r))
    return err;
  side_pitches(r->region, to_buffer ? r->dst_row_pitch : r->src_row_pitch,
               to_buffer ? r->dst_slice_pitch : r->src_slice_pitch, &row, &slice);
  size_t packed_row = r->region[0], packed_slice = r->region[0] * r->region[1];
  bool packed = (r->region[1] == 1 || row == packed_row) && (r->region[2] == 1 || slice == packed_slice);
  size_t offset = side_offset(buffer_origin, row, slice);
  size_t end = offset + (r->region[2] - 1) * slice + (r->region[1] - 1) * row + r->region[0];
  if (end > buffer->size)
    return CL_INVALID_VALUE;
  if (image->layout.type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return image_buffer_via_host(vb, image, buffer, to_buffer, origin, region, r, buffer_origin, row, slice, timed,
                                 token);
  cl_mem staging = NULL;
  if (!packed) {
    staging = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, packed_slice * r->region[2], NULL, &err);
    if (!staging) {
      HG_LOG(HG_LOG_MEM, "%s: no staging buffer for an image-buffer rect copy (%d)", vb->base.name, err);
      return err == CL_INVALID_BUFFER_SIZE ? CL_MEM_OBJECT_ALLOCATION_FAILURE : hg_vendor_error(err);
    }
  }
  size_t zero[3] = {0, 0, 0};
  cl_event ev = NULL, *evp = hg_vendor_transfer_event(timed, token, &ev);
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  const cl_icd_dispatch *d = VCL(slot.queue);
  cl_command_queue q = slot.queue;
  if (packed && to_buffer)
    err = d->clEnqueueCopyImageToBuffer(q, image->mem, buffer->mem, origin, region, offset, HG_VENDOR_WAIT(slot), evp);
  else if (packed)
    err = d->clEnqueueCopyBufferToImage(q, buffer->mem, image->mem, offset, origin, region, HG_VENDOR_WAIT(slot), evp);
  else if (to_buffer) {
    err = d->clEnqueueCopyImageToBuffer(q, image->mem, staging, origin, region, 0, HG_VENDOR_WAIT(slot), NULL);
    if (err == CL_SUCCESS)
      err = d->clEnqueueCopyBufferRect(q, staging, buffer->mem, zero, buffer_origin, r->region, packed_row,
                                       packed_slice, row, slice, 0, NULL, evp);
  } else {
    err = d->clEnqueueCopyBufferRect(q, buffer->mem, staging, buffer_origin, zero, r->region, row, slice, packed_row,
                                     packed_slice, HG_VENDOR_WAIT(slot), NULL);
    if (err == CL_SUCCESS)
      err = d->clEnqueueCopyBufferToImage(q, staging, image->mem, 0, origin, region, 0, NULL, evp);
  }
  if (staging) /* the vendor keeps it until the copies ran */
    VCL(staging)->clReleaseMemObject(staging);
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

cl_int hg_vendor_image_copy_rect(hg_vendor_backend *vb, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r,
                                 bool timed, hg_token **token) {
  if (!(src->is_image && dst->is_image))
    return image_buffer_rect(vb, src, dst, r, timed, token);
  if (src->layout.pixel_size != dst->layout.pixel_size ||
      src->layout.format.image_channel_order != dst->layout.format.image_channel_order ||
      src->layout.format.image_channel_data_type != dst->layout.format.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  size_t src_origin[3], dst_origin[3], region[3];
  cl_int err = image_box(src, r->src_origin, r->region, src_origin, region);
  if (err == CL_SUCCESS)
    err = image_box(dst, r->dst_origin, r->region, dst_origin, region);
  if (err != CL_SUCCESS || empty(r))
    return err;
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  err = VCL(slot.queue)->clEnqueueCopyImage(slot.queue, src->mem, dst->mem, src_origin, dst_origin, region,
                                            HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}
