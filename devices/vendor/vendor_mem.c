/* Memory operations of the vendor backend: one vendor buffer per allocation, transfers through
 * the vendor's own enqueue calls on the backend's stream (vendor_stream.c): the synchronous
 * forms wait for their vendor event, the asynchronous ones return it as the token. */
#include <stdlib.h>
#include <sys/mman.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"
#include "common/profile_limits.h"

/* The pages under a CPU device's buffer, unmapped when the vendor has destroyed it (it may
 * still be running commands on it after clReleaseMemObject returns). */
typedef struct cpu_pages {
  void *ptr;
  size_t size;
} cpu_pages;

static void CL_CALLBACK cpu_pages_free(cl_mem mem, void *user_data) {
  (void)mem;
  cpu_pages *pages = user_data;
  munmap(pages->ptr, pages->size);
  free(pages);
}

/* Where a CPU device buffer starts in its first page. Buffers at the start of their pages, in
 * regions the kernel maps next to each other, have the same low address bits at the same
 * index: a kernel reading one and writing another at the same index (a stencil, an axpy) has
 * its loads wait on stores to other addresses that match them in the bits the core compares
 * first (4K aliasing) and crowds the same cache sets. bench-kernels' stencil ran 1.08-1.10x
 * PoCL's own buffers (which malloc places anywhere) that way, 0.93x staggered. Successive
 * buffers step HG_CPU_BUFFER_STAGGER_STEP slots of the base address alignment through the
 * page, so any two made in a row lie over a kilobyte apart in it. */
#define HG_CPU_BUFFER_ALIGN (HG_PROFILE_MEM_BASE_ADDR_ALIGN_BITS / 8u)
#define HG_CPU_BUFFER_SLOTS (4096u / HG_CPU_BUFFER_ALIGN)
#define HG_CPU_BUFFER_STAGGER_STEP 9u /* coprime with the slot count: every slot in turn */

static size_t cpu_buffer_offset(hg_vendor_backend *vb) {
  unsigned n = atomic_fetch_add_explicit(&vb->cpu_buffers_made, 1, memory_order_relaxed);
  return (size_t)(n * HG_CPU_BUFFER_STAGGER_STEP % HG_CPU_BUFFER_SLOTS) * HG_CPU_BUFFER_ALIGN;
}

/* A CPU device's buffer over pages of ours (CL_MEM_USE_HOST_PTR): its memory has one host
 * address for its whole life, which maps hand to the application instead of a copy (the
 * vendor's map of such a buffer returns that address, the specification says; a CPU vendor
 * works in it directly). Lazily zeroed anonymous pages: nothing resident before it is used. */
static cl_mem cpu_buffer(hg_vendor_backend *vb, size_t size, void **host, cl_int *err) {
  cpu_pages *pages = calloc(1, sizeof *pages);
  size_t offset = cpu_buffer_offset(vb), mapped = size + offset;
  void *ptr = mapped < size ? MAP_FAILED : mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  cl_mem mem = NULL;
  if (pages && ptr != MAP_FAILED)
    mem = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size,
                                           (char *)ptr + offset, err);
  else /* the buffer's own memory could not be had (a size beyond what the host commits to) */
    *err = pages ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_OUT_OF_HOST_MEMORY;
  if (mem && (*err = VCL(mem)->clSetMemObjectDestructorCallback(mem, cpu_pages_free, pages)) != CL_SUCCESS) {
    VCL(mem)->clReleaseMemObject(mem);
    mem = NULL;
  }
  if (!mem) {
    if (ptr != MAP_FAILED)
      munmap(ptr, mapped);
    free(pages);
    return NULL;
  }
  pages->ptr = ptr;
  pages->size = mapped;
  *host = (char *)ptr + offset;
  return mem;
}

/* Migrating the undefined content to the device makes the vendor allocate. On a queue of its
 * own: on the stream's in-order queue it first waited for every command before it, so each
 * buffer made drained the device (CLBlast makes temporary buffers in every sgemm call). */
cl_int hg_vendor_make_resident(hg_vendor_backend *vb, cl_mem mem) {
  cl_event ev = NULL;
  cl_int err;
  if (vb->alloc_queue) {
    err = VCL(vb->alloc_queue)->clEnqueueMigrateMemObjects(vb->alloc_queue, 1, &mem,
                                                          CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, &ev);
  } else {
    hg_vendor_slot slot;
    hg_vendor_stream_take(vb, false, &slot);
    err = VCL(slot.queue)->clEnqueueMigrateMemObjects(slot.queue, 1, &mem, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                                      HG_VENDOR_WAIT(slot), &ev);
    hg_vendor_stream_give(vb, &slot, err == CL_SUCCESS ? ev : NULL);
  }
  return err == CL_SUCCESS ? hg_vendor_wait(ev) : err;
}

/* One vendor buffer: in the caller's memory (at_host, a CL_MEM_USE_HOST_PTR region the vendor
 * works in), else a CPU device's in pages of ours (nothing for the vendor to allocate), else the
 * vendor's own memory, made resident now. */
static cl_int vendor_alloc(hg_backend *be, void *at_host, size_t size, hg_dev_mem **out) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  *out = NULL;
  if (size == 0)
    return CL_INVALID_BUFFER_SIZE;
  hg_dev_mem *m = calloc(1, sizeof *m);
  if (!m)
    return CL_OUT_OF_HOST_MEMORY;
  cl_int err = CL_SUCCESS;
  if (at_host)
    m->mem = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, at_host,
                                              &err);
  else if (be->type & CL_DEVICE_TYPE_CPU)
    m->mem = cpu_buffer(vb, size, &m->host, &err);
  else
    m->mem = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, size, NULL, &err);
  if (!m->mem) {
    /* a size the profile allows but this vendor does not is a failed allocation for our caller */
    HG_LOG(HG_LOG_MEM, "%s: clCreateBuffer(%zu) failed (%d)", be->name, size, err);
    free(m);
    return err == CL_INVALID_BUFFER_SIZE ? CL_MEM_OBJECT_ALLOCATION_FAILURE : hg_vendor_error(err);
  }
  if (at_host)
    m->host = at_host;
  else if (!m->host)
    err = hg_vendor_make_resident(vb, m->mem);
  if (err != CL_SUCCESS) {
    HG_LOG(HG_LOG_MEM, "%s: allocating %zu bytes on the device failed (%d)", be->name, size, err);
    VCL(m->mem)->clReleaseMemObject(m->mem);
    free(m);
    return err == CL_OUT_OF_RESOURCES || err == CL_INVALID_BUFFER_SIZE ? CL_MEM_OBJECT_ALLOCATION_FAILURE
                                                                      : hg_vendor_error(err);
  }
  m->size = size;
  m->sub_align = be->limits.mem_base_addr_align_bits / 8 ? be->limits.mem_base_addr_align_bits / 8 : 1;
  pthread_mutex_init(&m->subs_lock, NULL);
  *out = m;
  HG_LOG(HG_LOG_MEM, "%s: allocated %zu bytes%s", be->name, size, at_host ? " in the caller's memory" : "");
  return CL_SUCCESS;
}

cl_int hg_vendor_mem_alloc(hg_backend *be, size_t size, hg_dev_mem **out) { return vendor_alloc(be, NULL, size, out); }

/* A CPU device's buffer in the application's CL_MEM_USE_HOST_PTR region: the vendor works in
 * that memory (its map returns it, which hg_vendor_mem_host_begin checks), so the application's
 * maps need no copy. GPUs: their own memory, as every other buffer. */
cl_int hg_vendor_mem_alloc_at(hg_backend *be, void *host, size_t size, hg_dev_mem **out) {
  *out = NULL;
  if (!(be->type & CL_DEVICE_TYPE_CPU) || !host)
    return CL_INVALID_OPERATION;
  return vendor_alloc(be, host, size, out);
}

void hg_vendor_mem_free(hg_backend *be, hg_dev_mem *m) {
  if (!m)
    return;
  hg_vendor_backend *vb = hg_vendor_of(be);
  /* sub-buffers are made and released with the stream held: with nothing else enqueued at the
   * same time (hg_vendor_mem_at) */
  if (m->subs)
    pthread_mutex_lock(&vb->stream_lock);
  for (hg_vendor_sub *s = m->subs, *next; s; s = next) {
    next = s->next;
    VCL(s->mem)->clReleaseMemObject(s->mem);
    free(s);
  }
  if (m->subs)
    pthread_mutex_unlock(&vb->stream_lock);
  hg_vendor_views_free(m); /* before the buffer they view */
  VCL(m->mem)->clReleaseMemObject(m->mem);
  atomic_fetch_add(&vb->mem_generation, 1);
  pthread_mutex_destroy(&m->subs_lock);
  free(m);
}

cl_int hg_vendor_mem_at(hg_vendor_backend *vb, hg_dev_mem *m, size_t offset, cl_mem *out) {
  if (m->is_image)
    return CL_INVALID_MEM_OBJECT; /* an image where a kernel takes a buffer */
  if (offset == 0) {
    *out = m->mem;
    return CL_SUCCESS;
  }
  if (offset >= m->size)
    return CL_INVALID_VALUE;
  /* checked here: NVIDIA's clCreateSubBuffer accepts any offset, and the misaligned kernel
   * then faults, which kills its whole context (launches give such arguments copies before,
   * vendor_shadow.c) */
  if (offset % m->sub_align)
    return CL_MISALIGNED_SUB_BUFFER_OFFSET;
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&m->subs_lock);
  hg_vendor_sub *s = m->subs;
  while (s && s->offset != offset)
    s = s->next;
  if (!s) {
    s = calloc(1, sizeof *s);
    if (!s) {
      err = CL_OUT_OF_HOST_MEMORY;
    } else {
      cl_buffer_region region = {offset, m->size - offset};
      s->offset = offset;
      /* With the stream held: NVIDIA's clCreateSubBuffer while launches on other sub-buffers of
       * the same buffer are enqueued from other threads is suspected of the faults of
       * docs/conformance.md (its own applications make sub-buffers before they enqueue). */
      pthread_mutex_lock(&vb->stream_lock);
      s->mem = VCL(m->mem)->clCreateSubBuffer(m->mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
      pthread_mutex_unlock(&vb->stream_lock);
      if (!s->mem) {
        free(s);
        s = NULL;
        err = hg_vendor_error(err);
      } else {
        s->next = m->subs;
        m->subs = s;
      }
    }
  }
  if (s)
    *out = s->mem;
  pthread_mutex_unlock(&m->subs_lock);
  return err;
}

cl_event *hg_vendor_transfer_event(bool timed, hg_token **token, cl_event *ev) { return token && !timed ? NULL : ev; }

cl_int hg_vendor_transfer_end(hg_vendor_backend *vb, const hg_vendor_slot *slot, cl_int err, cl_event ev, bool timed,
                     hg_token **token) {
  if (err == CL_SUCCESS && !hg_vendor_transfer_event(timed, token, &ev)) {
    *token = hg_vendor_stream_give_batched(vb, slot);
    return CL_SUCCESS;
  }
  hg_vendor_stream_give(vb, slot, err == CL_SUCCESS ? ev : NULL);
  if (token)
    return hg_vendor_submitted(slot->queue, err, ev, token);
  return err == CL_SUCCESS ? hg_vendor_wait(ev) : hg_vendor_error(err);
}

/* A synchronous read or write blocks in the vendor's call: NVIDIA serves a blocking transfer
 * of pageable memory in the calling thread, a non-blocking one through its driver's own thread
 * (a 4-byte read after a long kernel: 100 us waited for through its event, 20 us blocking,
 * docs/performance.md). Done when the call returns, so later operations need no event of it. */
static cl_int sync_end(hg_vendor_backend *vb, const hg_vendor_slot *slot, cl_int err) {
  hg_vendor_stream_give(vb, slot, NULL);
  return err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST ? CL_OUT_OF_RESOURCES : hg_vendor_error(err);
}

static cl_int mem_read(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst, bool timed,
                       hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (size == 0)
    return CL_SUCCESS;
  if (src->is_image)
    return hg_vendor_image_read(vb, src, offset, size, dst, timed, token);
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  if (!token)
    return sync_end(vb, &slot, VCL(slot.queue)->clEnqueueReadBuffer(slot.queue, src->mem, CL_TRUE, offset, size, dst,
                                                                    HG_VENDOR_WAIT(slot), NULL));
  cl_int err = VCL(slot.queue)->clEnqueueReadBuffer(slot.queue, src->mem, CL_FALSE, offset, size, dst,
                                                    HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static cl_int mem_write(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src, bool timed,
                        hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (size == 0)
    return CL_SUCCESS;
  if (dst->is_image)
    return hg_vendor_image_write(vb, dst, offset, size, src, timed, token);
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  if (!token)
    return sync_end(vb, &slot, VCL(slot.queue)->clEnqueueWriteBuffer(slot.queue, dst->mem, CL_TRUE, offset, size, src,
                                                                     HG_VENDOR_WAIT(slot), NULL));
  cl_int err = VCL(slot.queue)->clEnqueueWriteBuffer(slot.queue, dst->mem, CL_FALSE, offset, size, src,
                                                     HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static cl_int mem_copy(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst, size_t dst_offset,
                       size_t size, bool timed, hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (size == 0)
    return CL_SUCCESS;
  if (src->is_image || dst->is_image)
    return hg_vendor_image_copy(vb, src, src_offset, dst, dst_offset, size, timed, token);
  /* checked here: not every vendor does (NVIDIA copies overlapping ranges) */
  if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size)
    return CL_MEM_COPY_OVERLAP;
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueCopyBuffer(slot.queue, src->mem, dst->mem, src_offset, dst_offset, size,
                                                    HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static cl_int mem_fill(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                       size_t pattern_size, bool timed, hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (dst->is_image)
    return CL_INVALID_OPERATION; /* the platform fills images by writes (backend.h) */
  if (size == 0)
    return CL_SUCCESS;
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueFillBuffer(slot.queue, dst->mem, pattern, pattern_size, offset, size,
                                                    HG_VENDOR_WAIT(slot), hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static bool empty_region(const hg_rect *r) { return !r->region[0] || !r->region[1] || !r->region[2]; }

static cl_int mem_read_rect(hg_backend *be, hg_dev_mem *src, const hg_rect *r, void *dst, bool timed,
                            hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (src->is_image)
    return hg_vendor_image_read_rect(vb, src, r, dst, timed, token);
  if (empty_region(r))
    return CL_SUCCESS;
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueReadBufferRect(
      slot.queue, src->mem, CL_FALSE, r->src_origin, r->dst_origin, r->region, r->src_row_pitch,
      r->src_slice_pitch, r->dst_row_pitch, r->dst_slice_pitch, dst, HG_VENDOR_WAIT(slot),
      hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static cl_int mem_write_rect(hg_backend *be, hg_dev_mem *dst, const hg_rect *r, const void *src, bool timed,
                             hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (dst->is_image)
    return hg_vendor_image_write_rect(vb, dst, r, src, timed, token);
  if (empty_region(r))
    return CL_SUCCESS;
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueWriteBufferRect(
      slot.queue, dst->mem, CL_FALSE, r->dst_origin, r->src_origin, r->region, r->dst_row_pitch,
      r->dst_slice_pitch, r->src_row_pitch, r->src_slice_pitch, src, HG_VENDOR_WAIT(slot),
      hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

static cl_int mem_copy_rect(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r, bool timed,
                            hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (src->is_image || dst->is_image)
    return hg_vendor_image_copy_rect(vb, src, dst, r, timed, token);
  if (empty_region(r))
    return CL_SUCCESS;
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, timed, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueCopyBufferRect(slot.queue, src->mem, dst->mem, r->src_origin, r->dst_origin,
                                                        r->region, r->src_row_pitch, r->src_slice_pitch,
                                                        r->dst_row_pitch, r->dst_slice_pitch, HG_VENDOR_WAIT(slot),
                                                        hg_vendor_transfer_event(timed, token, &ev));
  return hg_vendor_transfer_end(vb, &slot, err, ev, timed, token);
}

/* ---- the table's entries: synchronous, then asynchronous ---- */

cl_int hg_vendor_mem_read(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst) {
  return mem_read(be, src, offset, size, dst, false, NULL);
}
cl_int hg_vendor_mem_write(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src) {
  return mem_write(be, dst, offset, size, src, false, NULL);
}
cl_int hg_vendor_mem_copy(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst, size_t dst_offset,
                          size_t size) {
  return mem_copy(be, src, src_offset, dst, dst_offset, size, false, NULL);
}
cl_int hg_vendor_mem_fill(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                          size_t pattern_size) {
  return mem_fill(be, dst, offset, size, pattern, pattern_size, false, NULL);
}
cl_int hg_vendor_mem_read_rect(hg_backend *be, hg_dev_mem *src, const hg_rect *r, void *dst) {
  return mem_read_rect(be, src, r, dst, false, NULL);
}
cl_int hg_vendor_mem_write_rect(hg_backend *be, hg_dev_mem *dst, const hg_rect *r, const void *src) {
  return mem_write_rect(be, dst, r, src, false, NULL);
}
cl_int hg_vendor_mem_copy_rect(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r) {
  return mem_copy_rect(be, src, dst, r, false, NULL);
}

/* An operation with nothing to do returns CL_SUCCESS with a NULL token. */
cl_int hg_vendor_mem_read_async(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst, bool timed,
                                hg_token **token) {
  *token = NULL;
  return mem_read(be, src, offset, size, dst, timed, token);
}
cl_int hg_vendor_mem_write_async(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src,
                                 bool timed, hg_token **token) {
  *token = NULL;
  return mem_write(be, dst, offset, size, src, timed, token);
}
cl_int hg_vendor_mem_copy_async(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst, size_t dst_offset,
                                size_t size, bool timed, hg_token **token) {
  *token = NULL;
  return mem_copy(be, src, src_offset, dst, dst_offset, size, timed, token);
}
cl_int hg_vendor_mem_fill_async(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                                size_t pattern_size, bool timed, hg_token **token) {
  *token = NULL;
  return mem_fill(be, dst, offset, size, pattern, pattern_size, timed, token);
}
cl_int hg_vendor_mem_read_rect_async(hg_backend *be, hg_dev_mem *src, const hg_rect *r, void *dst, bool timed,
                                     hg_token **token) {
  *token = NULL;
  return mem_read_rect(be, src, r, dst, timed, token);
}
cl_int hg_vendor_mem_write_rect_async(hg_backend *be, hg_dev_mem *dst, const hg_rect *r, const void *src, bool timed,
                                      hg_token **token) {
  *token = NULL;
  return mem_write_rect(be, dst, r, src, timed, token);
}
cl_int hg_vendor_mem_copy_rect_async(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r, bool timed,
                                     hg_token **token) {
  *token = NULL;
  return mem_copy_rect(be, src, dst, r, timed, token);
}

/* ---- host access without a copy (CPU devices) ---- */

void *hg_vendor_mem_host_map(hg_backend *be, hg_dev_mem *m, bool write) {
  if (!(be->type & CL_DEVICE_TYPE_CPU) || m->is_image) /* an image's map is not its packed bytes */
    return NULL;
  hg_vendor_backend *vb = hg_vendor_of(be);
  cl_event ev = NULL;
  cl_int err = CL_SUCCESS;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, false, &slot);
  void *p = VCL(slot.queue)->clEnqueueMapBuffer(slot.queue, m->mem, CL_FALSE,
                                                write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, 0, m->size,
                                                HG_VENDOR_WAIT(slot), &ev, &err);
  hg_vendor_stream_give(vb, &slot, err == CL_SUCCESS ? ev : NULL);
  if (err == CL_SUCCESS && hg_vendor_wait(ev) == CL_SUCCESS)
    return p;
  if (err == CL_SUCCESS)
    hg_vendor_mem_host_unmap(be, m, p);
  HG_LOG(HG_LOG_MEM, "%s: mapping %zu bytes failed (%d): copying instead", be->name, m->size, err);
  return NULL;
}

void *hg_vendor_mem_host_address(hg_backend *be, hg_dev_mem *m) {
  (void)be;
  return m->host;
}

/* The vendor's own map of the whole buffer, in stream order: when it returns, the work before
 * it is done and the pages hold the contents. Nested maps are allowed; each end unmaps one. */
cl_int hg_vendor_mem_host_begin(hg_backend *be, hg_dev_mem *m) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  if (!m->host)
    return CL_INVALID_OPERATION; /* no host address (images, GPU buffers): nothing to begin */
  cl_event ev = NULL;
  cl_int err = CL_SUCCESS;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, false, &slot);
  void *p = VCL(slot.queue)->clEnqueueMapBuffer(slot.queue, m->mem, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, m->size,
                                                HG_VENDOR_WAIT(slot), &ev, &err);
  hg_vendor_stream_give(vb, &slot, err == CL_SUCCESS ? ev : NULL);
  if (err == CL_SUCCESS)
    err = hg_vendor_wait(ev);
  if (err == CL_SUCCESS && p != m->host) { /* against the specification: not usable */
    hg_vendor_mem_host_unmap(be, m, p);
    err = CL_OUT_OF_RESOURCES;
  }
  return err == CL_SUCCESS ? CL_SUCCESS : hg_vendor_error(err);
}

void hg_vendor_mem_host_end(hg_backend *be, hg_dev_mem *m) { hg_vendor_mem_host_unmap(be, m, m->host); }

void hg_vendor_mem_host_unmap(hg_backend *be, hg_dev_mem *m, void *ptr) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  cl_event ev = NULL;
  hg_vendor_slot slot;
  hg_vendor_stream_take(vb, false, &slot);
  cl_int err = VCL(slot.queue)->clEnqueueUnmapMemObject(slot.queue, m->mem, ptr, HG_VENDOR_WAIT(slot), &ev);
  hg_vendor_stream_give(vb, &slot, err == CL_SUCCESS ? ev : NULL);
  if (err == CL_SUCCESS)
    hg_vendor_wait(ev);
}

/* ---- pinned staging (GPUs) ---- */

typedef struct pinned_buffer {
  cl_mem mem; /* CL_MEM_ALLOC_HOST_PTR: the vendor's page-locked memory */
  void *ptr;  /* mapped for as long as it lives */
  size_t size;
} pinned_buffer;

void *hg_vendor_host_pinned_alloc(hg_backend *be, size_t size, void **handle) {
  *handle = NULL;
  if (!(be->type & CL_DEVICE_TYPE_GPU))
    return NULL;
  hg_vendor_backend *vb = hg_vendor_of(be);
  pinned_buffer *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  cl_int err = CL_SUCCESS;
  p->mem = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size, NULL, &err);
  if (p->mem) {
    hg_dev_mem m = {.mem = p->mem, .size = size};
    cl_event ev = NULL;
    hg_vendor_slot slot;
    hg_vendor_stream_take(vb, false, &slot);
    p->ptr = VCL(slot.queue)->clEnqueueMapBuffer(slot.queue, p->mem, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
                                                 HG_VENDOR_WAIT(slot), &ev, &err);
    hg_vendor_stream_give(vb, &slot, err == CL_SUCCESS ? ev : NULL);
    if (err == CL_SUCCESS && (err = hg_vendor_wait(ev)) != CL_SUCCESS)
      hg_vendor_mem_host_unmap(be, &m, p->ptr);
  }
  if (err != CL_SUCCESS) {
    HG_LOG(HG_LOG_MEM, "%s: no pinned staging of %zu bytes (%d)", be->name, size, err);
    if (p->mem)
      VCL(p->mem)->clReleaseMemObject(p->mem);
    free(p);
    return NULL;
  }
  p->size = size;
  *handle = p;
  return p->ptr;
}

void hg_vendor_host_pinned_free(hg_backend *be, void *handle) {
  pinned_buffer *p = handle;
  if (!p)
    return;
  hg_dev_mem m = {.mem = p->mem, .size = p->size};
  hg_vendor_mem_host_unmap(be, &m, p->ptr);
  VCL(p->mem)->clReleaseMemObject(p->mem);
  free(p);
}

/* ---- registered host memory (migrations) ---- */

/* A CL_MEM_USE_HOST_PTR buffer over the range, which no command ever uses: NVIDIA pins the pages
 * when it is created (and would fill a device copy of them at its first use, which never comes),
 * after which its transfers from and to any pointer in the range run at the PCIe rate (measured
 * on the H100 machine, docs/gpu-runs.md). Any device type: a CPU device's costs nothing and lets
 * the tests take this path with PoCL standing in for a GPU. */
void *hg_vendor_host_register(hg_backend *be, void *ptr, size_t size) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  cl_int err = CL_SUCCESS;
  cl_mem m = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, size, ptr, &err);
  if (!m)
    HG_LOG(HG_LOG_MEM, "%s: %zu bytes of host memory not registered (%d)", be->name, size, err);
  return m;
}

void hg_vendor_host_unregister(hg_backend *be, void *handle) {
  (void)be;
  cl_mem m = handle;
  if (m)
    VCL(m)->clReleaseMemObject(m);
}
