/* clEnqueueMapBuffer and clEnqueueUnmapMemObject. A mapping is host memory holding a region of
 * the buffer:
 *  - zero-copy, where the backend the context runs on keeps the buffer in host memory at a fixed
 *    address (mem_host_address: PoCL and the other CPU vendors, the RISC-V DRAM): that memory
 *    itself, its access bracketed by the backend's mem_host_begin (map) and mem_host_end (unmap);
 *  - the application's own host_ptr region for CL_MEM_USE_HOST_PTR buffers (the specification
 *    names that pointer): zero-copy as above where the backend keeps the buffer there (CPU
 *    vendors, mem_alloc_at), else filled and written back by copies;
 *  - else a staging allocation of ours: the map command fills it from the device copy (unless
 *    the region is invalidated); the unmap command of a write mapping writes it back.
 * A context that migrated between a zero-copy map and its unmap gets the region copied from
 * and to its new backend; the old allocation stays until the unmap (hg_mem_storage_map_direct). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_enqueue.h"
#include "platform/map_staging.h"
#include "platform/mem_image.h"
#include "platform/mem_object.h"
#include "platform/platform.h"

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

/* HETGPU_MAP_ZERO_COPY=0 makes every map a copy (to compare, and to test the copying path on
 * backends that would not use it). */
static bool zero_copy_setting;
static void read_zero_copy_setting(void) {
  const char *s = getenv("HETGPU_MAP_ZERO_COPY");
  zero_copy_setting = !(s && !strcmp(s, "0"));
}
static bool zero_copy_maps(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, read_zero_copy_setting);
  return zero_copy_setting;
}

/* Map flags 0 are taken as read and write (the conservative meaning). */
static bool map_reads(cl_map_flags flags) { return !flags || (flags & CL_MAP_READ); }
static bool map_writes(cl_map_flags flags) { return !flags || (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)); }

typedef struct map_cmd {
  hg_command cmd;
  cl_mem mem;            /* retained */
  hg_mem_mapping *map;   /* one reference */
  bool unmap;
} map_cmd;

static void map_cleanup(hg_command *c) {
  map_cmd *cmd = (map_cmd *)c;
  if (cmd->unmap && cmd->map->direct_on) /* the zero-copy mapping's allocation may go now */
    hg_mem_storage_unmap_direct(cmd->mem->storage, cmd->map->direct_on);
  hg_mem_mapping_release(cmd->map);
  hg_mem_release(cmd->mem);
}

/* The zero-copy mapping's own allocation is what the command got: no copy is needed. */
static bool in_place(const hg_command *c, const hg_mem_mapping *m, const hg_dev_mem *dm) {
  return m->direct_on == hg_command_backend(c) && m->direct_mem == dm;
}

/* The rectangle between an image mapping's memory and the image (read: from the image). */
static hg_rect image_map_rect(const hg_mem_mapping *m, cl_mem image, bool read) {
  hg_rect r = {.region = {m->region[0] * image->image->layout.pixel_size, m->region[1], m->region[2]}};
  size_t origin[3], row, slice;
  hg_image_rect_side(image, m->origin, 0, origin, &row, &slice);
  memcpy(read ? r.src_origin : r.dst_origin, origin, sizeof origin);
  *(read ? &r.src_row_pitch : &r.dst_row_pitch) = row;
  *(read ? &r.src_slice_pitch : &r.dst_slice_pitch) = slice;
  *(read ? &r.dst_row_pitch : &r.src_row_pitch) = m->row_pitch;
  *(read ? &r.dst_slice_pitch : &r.src_slice_pitch) = m->slice_pitch;
  return r;
}

static cl_int image_map_run(hg_command *c) {
  map_cmd *cmd = (map_cmd *)c;
  hg_mem_mapping *m = cmd->map;
  if (m->flags & CL_MAP_WRITE_INVALIDATE_REGION)
    return CL_SUCCESS;
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, HG_MEM_READ, &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_rect r = image_map_rect(m, cmd->mem, true);
  hg_backend *be = hg_command_backend(c);
  return be->ops->mem_read_rect(be, dm, &r, m->ptr);
}

static cl_int map_run(hg_command *c) {
  map_cmd *cmd = (map_cmd *)c;
  hg_mem_mapping *m = cmd->map;
  if (m->image)
    return image_map_run(c);
  if ((m->flags & CL_MAP_WRITE_INVALIDATE_REGION) && !m->direct_on)
    return CL_SUCCESS; /* the region's old contents are not wanted */
  /* zero-copy: the whole allocation must be current, since the application sees all of it */
  hg_dev_mem *dm;
  size_t base;
  cl_int err = hg_command_buffer(c, cmd->mem, HG_MEM_READ, &dm, &base);
  if (err != CL_SUCCESS)
    return err;
  hg_backend *be = hg_command_backend(c);
  if (in_place(c, m, dm)) {
    err = be->ops->mem_host_begin ? be->ops->mem_host_begin(be, dm) : CL_SUCCESS;
    atomic_store(&m->direct_begun, err == CL_SUCCESS);
    return err;
  }
  if (m->flags & CL_MAP_WRITE_INVALIDATE_REGION)
    return CL_SUCCESS;
  return be->ops->mem_read(be, dm, base + m->offset, m->size, m->ptr);
}

static void direct_end(hg_mem_mapping *m) {
  if (atomic_exchange(&m->direct_begun, false) && m->direct_on->ops->mem_host_end)
    m->direct_on->ops->mem_host_end(m->direct_on, m->direct_mem);
}

static cl_int unmap_run(hg_command *c) {
  map_cmd *cmd = (map_cmd *)c;
  hg_mem_mapping *m = cmd->map;
  cl_int err = CL_SUCCESS;
  if (map_writes(m->flags) && m->image) {
    hg_dev_mem *dm;
    size_t base;
    err = hg_command_buffer(c, cmd->mem, HG_MEM_WRITE, &dm, &base);
    hg_rect r = image_map_rect(m, cmd->mem, false);
    hg_backend *be = hg_command_backend(c);
    if (err == CL_SUCCESS)
      err = be->ops->mem_write_rect(be, dm, &r, m->ptr);
  } else if (map_writes(m->flags)) {
    hg_dev_mem *dm;
    size_t base;
    err = hg_command_buffer(c, cmd->mem, hg_mem_write_access(cmd->mem, m->size), &dm, &base);
    if (err == CL_SUCCESS && !in_place(c, m, dm)) {
      hg_backend *be = hg_command_backend(c);
      err = be->ops->mem_write(be, dm, base + m->offset, m->size, m->ptr);
    }
  }
  if (m->direct_on)
    direct_end(m);
  return err;
}

/* Takes a mapping off the buffer's list; false when it was no longer there. */
static bool mapping_unlink(cl_mem mem, hg_mem_mapping *m) {
  bool found = false;
  pthread_mutex_lock(&mem->lock);
  for (hg_mem_mapping **p = &mem->mappings; *p; p = &(*p)->next) {
    if (*p == m) {
      *p = m->next;
      mem->map_count--;
      found = true;
      break;
    }
  }
  pthread_mutex_unlock(&mem->lock);
  return found;
}

static cl_int map_check(cl_command_queue queue, cl_mem buffer, cl_map_flags map_flags, size_t offset, size_t size) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  if ((err = hg_enqueue_check_buffer(ctx, buffer)) != CL_SUCCESS)
    return err;
  if ((map_flags & ~(cl_map_flags)MAP_FLAGS) ||
      ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  if (size == 0 || !hg_enqueue_range_ok(buffer, offset, size))
    return CL_INVALID_VALUE;
  if ((map_reads(map_flags) && !hg_mem_host_readable(buffer)) || (map_writes(map_flags) && !hg_mem_host_writable(buffer)))
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

/* Where the application will see a mapping: a zero-copy address, the USE_HOST_PTR region, or a
 * staging block (image mappings: the region of the image's host memory, or staging); false when
 * no staging block could be had. */
static bool mapping_place(cl_mem mem, hg_mem_mapping *m) {
  bool use_host_ptr = mem->flags & CL_MEM_USE_HOST_PTR;
  if (m->image) {
    const hg_mem_image *im = mem->image;
    if (use_host_ptr) {
      m->row_pitch = im->host_row_pitch;
      m->slice_pitch = im->host_slice_pitch;
      m->ptr = (char *)mem->host_ptr + m->origin[2] * m->slice_pitch + m->origin[1] * m->row_pitch +
               m->origin[0] * im->layout.pixel_size;
      return true;
    }
    m->row_pitch = m->region[0] * im->layout.pixel_size;
    m->slice_pitch = m->row_pitch * m->region[1];
    m->staged = true;
    return (m->ptr = hg_map_staging_alloc(m->size)) != NULL;
  }
  hg_backend *now_on = hg_context_backend(mem->context);
  char *direct = zero_copy_maps() ? hg_mem_storage_map_direct(mem->storage, now_on, &m->direct_mem) : NULL;
  if (direct && use_host_ptr && direct + mem->origin != (char *)mem->host_ptr) {
    hg_mem_storage_unmap_direct(mem->storage, now_on); /* the backend's memory is not the region */
    direct = NULL;
  }
  if (direct) { /* a CPU vendor's allocation in a USE_HOST_PTR region is that region */
    m->direct_on = now_on;
    m->ptr = direct + mem->origin + m->offset;
  } else if (use_host_ptr) {
    m->ptr = (char *)mem->host_ptr + m->offset;
  } else {
    m->staged = true;
    m->ptr = hg_map_staging_alloc(m->size);
  }
  return m->ptr != NULL;
}

/* The map command of a checked mapping (taken over: released on an error). */
static void *map_enqueue(cl_command_queue queue, cl_command_type type, cl_mem mem, bool blocking, hg_mem_mapping *m,
                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event,
                         cl_int *errcode_ret) {
  hg_command *c;
  cl_int err = hg_command_create(queue, type, sizeof(map_cmd), num_events_in_wait_list, event_wait_list, &c);
  if (err != CL_SUCCESS)
    goto fail;
  if (!mapping_place(mem, m)) {
    hg_command_discard(c);
    err = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  map_cmd *cmd = (map_cmd *)c;
  cmd->mem = mem;
  cmd->map = m;
  hg_mem_retain(mem);
  atomic_fetch_add_explicit(&m->refs, 1, memory_order_relaxed); /* the command's; the list keeps the first */
  c->run = map_run;
  c->cleanup = map_cleanup;
  /* listed before the command is submitted: an unmap may follow at once */
  pthread_mutex_lock(&mem->lock);
  m->next = mem->mappings;
  mem->mappings = m;
  mem->map_count++;
  pthread_mutex_unlock(&mem->lock);

  void *ptr = m->ptr;
  err = hg_command_submit(c, event, blocking);
  if (err != CL_SUCCESS) {
    /* a blocking map that failed hands out nothing */
    if (mapping_unlink(mem, m)) {
      if (m->direct_on)
        hg_mem_storage_unmap_direct(mem->storage, m->direct_on);
      hg_mem_mapping_release(m);
    }
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  HG_LOG(HG_LOG_MEM, "map of %p [%zu, +%zu) flags 0x%llx -> %p", (void *)mem, m->offset, m->size,
         (unsigned long long)m->flags, ptr);
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return ptr;

fail:
  hg_mem_mapping_release(m);
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

static hg_mem_mapping *mapping_new(cl_map_flags flags) {
  hg_mem_mapping *m = calloc(1, sizeof *m);
  if (m) {
    atomic_init(&m->refs, 1);
    m->flags = flags;
  }
  return m;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                                  cl_map_flags map_flags, size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                  cl_event *event, cl_int *errcode_ret) {
  cl_int err = map_check(command_queue, buffer, map_flags, offset, size);
  hg_mem_mapping *m = err == CL_SUCCESS ? mapping_new(map_flags) : NULL;
  if (!m) {
    HG_SET_ERR(errcode_ret, err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  m->offset = offset;
  m->size = size;
  return map_enqueue(command_queue, CL_COMMAND_MAP_BUFFER, buffer, blocking_map, m, num_events_in_wait_list,
                     event_wait_list, event, errcode_ret);
}

static cl_int image_map_check(cl_command_queue queue, cl_mem image, cl_map_flags map_flags, const size_t *origin,
                              const size_t *region, size_t *image_row_pitch, size_t *image_slice_pitch) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(queue, &ctx);
  if (err != CL_SUCCESS || (err = hg_enqueue_check_image(ctx, image)) != CL_SUCCESS)
    return err;
  if ((err = hg_image_region_check(image, origin, region)) != CL_SUCCESS)
    return err;
  if ((map_flags & ~(cl_map_flags)MAP_FLAGS) ||
      ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return CL_INVALID_VALUE;
  cl_mem_object_type t = image->image->layout.type;
  bool layered = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  if (!image_row_pitch || (layered && !image_slice_pitch))
    return CL_INVALID_VALUE;
  if ((map_reads(map_flags) && !hg_mem_host_readable(image)) || (map_writes(map_flags) && !hg_mem_host_writable(image)))
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                                 cl_map_flags map_flags, const size_t *origin, const size_t *region,
                                                 size_t *image_row_pitch, size_t *image_slice_pitch,
                                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                 cl_event *event, cl_int *errcode_ret) {
  cl_int err = image_map_check(command_queue, image, map_flags, origin, region, image_row_pitch, image_slice_pitch);
  hg_mem_mapping *m = err == CL_SUCCESS ? mapping_new(map_flags) : NULL;
  if (!m) {
    HG_SET_ERR(errcode_ret, err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  const hg_image_layout *l = &image->image->layout;
  m->size = region[0] * region[1] * region[2] * l->pixel_size;
  if (hg_mem_is_buffer_image(image)) { /* its buffer's bytes: mapped as a buffer's */
    m->offset = origin[0] * l->pixel_size;
  } else {
    m->image = true;
    memcpy(m->origin, origin, sizeof m->origin);
    memcpy(m->region, region, sizeof m->region);
  }
  void *ptr = map_enqueue(command_queue, CL_COMMAND_MAP_IMAGE, image, blocking_map, m, num_events_in_wait_list,
                          event_wait_list, event, errcode_ret);
  if (ptr) { /* the mapping stays listed until its unmap: its pitches are readable */
    size_t row = m->image ? m->row_pitch : m->size, slice = m->image ? m->slice_pitch : 0;
    hg_image_map_pitches(l, row, slice, image_row_pitch, image_slice_pitch ? image_slice_pitch : &slice);
  }
  return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                                        void *mapped_ptr, cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list, cl_event *event) {
  cl_context ctx;
  cl_int err = hg_enqueue_queue_context(command_queue, &ctx);
  if (err != CL_SUCCESS)
    return err;
  HG_CHECK_MEM(memobj, CL_INVALID_MEM_OBJECT);
  if (memobj->context != ctx)
    return CL_INVALID_CONTEXT;
  if (!mapped_ptr)
    return CL_INVALID_VALUE;

  hg_command *c;
  err = hg_command_create(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, sizeof(map_cmd), num_events_in_wait_list,
                          event_wait_list, &c);
  if (err != CL_SUCCESS)
    return err;
  /* the most recent mapping at that address leaves the list (its reference moves to the command) */
  hg_mem_mapping *m = NULL;
  pthread_mutex_lock(&memobj->lock);
  for (hg_mem_mapping **p = &memobj->mappings; *p; p = &(*p)->next) {
    if ((*p)->ptr == mapped_ptr) {
      m = *p;
      *p = m->next;
      memobj->map_count--;
      break;
    }
  }
  pthread_mutex_unlock(&memobj->lock);
  if (!m) {
    c->run = NULL;
    c->cleanup = NULL;
    hg_command_discard(c);
    return CL_INVALID_VALUE;
  }
  map_cmd *cmd = (map_cmd *)c;
  cmd->mem = memobj;
  cmd->map = m;
  cmd->unmap = true;
  hg_mem_retain(memobj);
  c->run = unmap_run;
  c->cleanup = map_cleanup;
  return hg_command_submit(c, event, false);
}
