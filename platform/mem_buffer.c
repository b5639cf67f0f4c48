/* Buffers and sub-buffers: creation, reference counting, destruction with its callbacks, and
 * clGetMemObjectInfo. Where their bytes live is mem_storage.c's job. */
#include <stdlib.h>
#include <string.h>

#include "devices/profile.h"
#include "platform/context_objects.h"
#include "platform/info.h"
#include "common/log.h"
#include "platform/map_staging.h"
#include "platform/mem.h"
#include "platform/mem_object.h"
#include "platform/platform.h"

/* ---- internal API (platform/mem.h) ---- */

size_t hg_mem_size(cl_mem mem) { return mem->size; }
cl_mem_flags hg_mem_flags(cl_mem mem) { return mem->flags; }
cl_context hg_mem_context(cl_mem mem) { return mem->context; }

void hg_mem_retain(cl_mem mem) { hg_object_retain(&mem->obj); }

void hg_mem_mapping_release(hg_mem_mapping *m) {
  if (atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) != 1)
    return;
  if (m->staged)
    hg_map_staging_free(m->ptr, m->size);
  free(m);
}

/* Runs once nothing uses the buffer any more: the application released it and no command or
 * kernel argument holds it. The memory first (a CPU vendor's allocation may be in the
 * USE_HOST_PTR region), then the callbacks (they may free that region). */
static void mem_destroy(cl_mem mem) {
  hg_context_untrack(mem->context, mem);
  if (!mem->parent) {
    hg_mem_storage_destroy(mem->storage);
    mem->storage = NULL;
  }
  for (hg_mem_destructor *d = mem->destructors; d;) {
    hg_mem_destructor *next = d->next;
    d->fn(mem, d->user_data);
    free(d);
    d = next;
  }
  hg_object_retire(&mem->obj);
  for (hg_mem_mapping *m = mem->mappings; m;) {
    hg_mem_mapping *next = m->next;
    hg_mem_mapping_release(m);
    m = next;
  }
  HG_LOG(HG_LOG_MEM, "%s %p of %zu bytes destroyed", mem->image ? "image" : mem->parent ? "sub-buffer" : "buffer",
         (void *)mem, mem->size);
  free(mem->image);
  if (mem->parent)
    hg_mem_release(mem->parent);
  hg_context_release(mem->context);
  pthread_mutex_destroy(&mem->lock);
  free(mem->properties);
  hg_object_free(&mem->obj);
}

void hg_mem_release(cl_mem mem) {
  if (hg_object_release(&mem->obj))
    mem_destroy(mem);
}

/* ---- creation ---- */

cl_mem hg_mem_new(cl_context ctx, cl_mem_flags flags, size_t size) {
  cl_mem mem = calloc(1, sizeof *mem);
  if (!mem)
    return NULL;
  if (pthread_mutex_init(&mem->lock, NULL)) {
    free(mem);
    return NULL;
  }
  mem->context = ctx;
  /* no access flag means CL_MEM_READ_WRITE, and is reported as such */
  mem->flags = (flags & HG_MEM_ACCESS_FLAGS) ? flags : flags | CL_MEM_READ_WRITE;
  mem->size = size;
  atomic_init(&mem->app_refs, 1);
  return mem;
}

/* At most one of each group of mutually exclusive flags, and nothing unknown. */
bool hg_mem_flags_valid(cl_mem_flags flags) {
  if (flags & ~(cl_mem_flags)HG_MEM_BUFFER_FLAGS)
    return false;
  cl_mem_flags access = flags & HG_MEM_ACCESS_FLAGS, host = flags & HG_MEM_HOST_ACCESS_FLAGS;
  if ((access & (access - 1)) || (host & (host - 1)))
    return false;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return false;
  return true;
}

/* No buffer property is defined by OpenCL 3.0 core or by an extension hetGPU offers. */
static cl_int properties_check(const cl_mem_properties *properties, size_t *count) {
  *count = 0;
  if (!properties)
    return CL_SUCCESS;
  if (properties[0] != 0)
    return CL_INVALID_PROPERTY;
  *count = 1;
  return CL_SUCCESS;
}

/* `init`, when not NULL, gives the initial contents of a buffer created without a host pointer
 * (a restored checkpoint's). */
static cl_mem buffer_create(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags, size_t size,
                            void *host_ptr, const void *init, cl_int *errcode_ret) {
  cl_int err;
  cl_mem mem = NULL;
  size_t num_properties = 0;
  if (!hg_object_is(context, HG_OBJ_CONTEXT)) {
    err = CL_INVALID_CONTEXT;
    goto fail;
  }
  err = properties_check(properties, &num_properties);
  if (err != CL_SUCCESS)
    goto fail;
  if (!hg_mem_flags_valid(flags)) {
    err = CL_INVALID_VALUE;
    goto fail;
  }
  if (size == 0 || size > hg_profile_max_mem_alloc_size()) {
    err = CL_INVALID_BUFFER_SIZE;
    goto fail;
  }
  bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wants_ptr != (host_ptr != NULL)) {
    err = CL_INVALID_HOST_PTR;
    goto fail;
  }

  mem = hg_mem_new(context, flags, size);
  if (!mem) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  if (num_properties) {
    mem->properties = malloc(num_properties * sizeof *properties);
    if (!mem->properties) {
      err = CL_OUT_OF_HOST_MEMORY;
      goto fail;
    }
    memcpy(mem->properties, properties, num_properties * sizeof *properties);
    mem->num_properties = num_properties;
  }
  if (flags & CL_MEM_USE_HOST_PTR)
    mem->host_ptr = host_ptr;
  /* the device copy is initialised now: host_ptr may change right after we return. Inside the
   * placement gate, so a migration either moves the new buffer or finds it on its target. */
  hg_backend *be = hg_placement_enter(&context->placement);
  err = hg_mem_storage_create(size, be, wants_ptr ? host_ptr : init, mem->host_ptr, &mem->storage);
  if (err == CL_SUCCESS && (err = hg_context_track(context, mem, CL_OBJECT_MEM_HETGPU)) != CL_SUCCESS) {
    hg_mem_storage_destroy(mem->storage);
    mem->storage = NULL;
  }
  hg_placement_leave(&context->placement);
  if (err != CL_SUCCESS)
    goto fail;

  hg_context_retain(context);
  hg_object_init(&mem->obj, HG_OBJ_MEM);
  HG_LOG(HG_LOG_MEM, "buffer %p: %zu bytes, flags 0x%llx", (void *)mem, size, (unsigned long long)flags);
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return mem;

fail:
  if (mem) {
    pthread_mutex_destroy(&mem->lock);
    free(mem->properties);
    free(mem);
  }
  HG_LOG(HG_LOG_API, "clCreateBuffer: error %d", err);
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                               cl_int *errcode_ret) {
  return buffer_create(context, NULL, flags, size, host_ptr, NULL, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                                                             cl_mem_flags flags, size_t size, void *host_ptr,
                                                             cl_int *errcode_ret) {
  return buffer_create(context, properties, flags, size, host_ptr, NULL, errcode_ret);
}

cl_mem hg_buffer_create_with_contents(cl_context context, cl_mem_flags flags, size_t size, const void *contents,
                                      cl_int *errcode_ret) {
  return buffer_create(context, NULL, flags, size, NULL, contents, errcode_ret);
}

cl_mem_flags hg_mem_flags_from_buffer(cl_mem_flags buffer, cl_mem_flags flags) {
  if (flags & HG_MEM_HOST_PTR_FLAGS)
    return 0;
  cl_mem_flags access = flags & HG_MEM_ACCESS_FLAGS, host = flags & HG_MEM_HOST_ACCESS_FLAGS;
  if ((buffer & CL_MEM_WRITE_ONLY) && (access & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return 0;
  if ((buffer & CL_MEM_READ_ONLY) && (access & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return 0;
  if ((buffer & CL_MEM_HOST_WRITE_ONLY) && (host & CL_MEM_HOST_READ_ONLY))
    return 0;
  if ((buffer & CL_MEM_HOST_READ_ONLY) && (host & CL_MEM_HOST_WRITE_ONLY))
    return 0;
  if ((buffer & CL_MEM_HOST_NO_ACCESS) && (host & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return 0;
  if (!access)
    access = buffer & HG_MEM_ACCESS_FLAGS;
  if (!host)
    host = buffer & HG_MEM_HOST_ACCESS_FLAGS;
  return access | host | (buffer & HG_MEM_HOST_PTR_FLAGS);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void *buffer_create_info, cl_int *errcode_ret) {
  cl_int err;
  cl_mem sub = NULL;
  if (!hg_object_is(buffer, HG_OBJ_MEM) || buffer->parent || buffer->image) {
    err = CL_INVALID_MEM_OBJECT;
    goto fail;
  }
  cl_mem_flags sub_flags = hg_mem_flags_valid(flags) ? hg_mem_flags_from_buffer(buffer->flags, flags) : 0;
  if (!sub_flags || buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !buffer_create_info) {
    err = CL_INVALID_VALUE;
    goto fail;
  }
  const cl_buffer_region *region = buffer_create_info;
  if (region->origin > buffer->size || region->size > buffer->size - region->origin) {
    err = CL_INVALID_VALUE;
    goto fail;
  }
  if (region->size == 0) {
    err = CL_INVALID_BUFFER_SIZE;
    goto fail;
  }
  if (region->origin % HG_MEM_BASE_ALIGN_BYTES) {
    err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    goto fail;
  }

  sub = hg_mem_new(buffer->context, sub_flags, region->size);
  if (!sub) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  sub->parent = buffer;
  sub->origin = region->origin;
  sub->storage = buffer->storage;
  if (buffer->host_ptr)
    sub->host_ptr = (char *)buffer->host_ptr + region->origin;
  if ((err = hg_context_track(buffer->context, sub, CL_OBJECT_MEM_HETGPU)) != CL_SUCCESS) {
    pthread_mutex_destroy(&sub->lock);
    free(sub);
    goto fail;
  }
  hg_mem_retain(buffer);
  hg_context_retain(buffer->context);
  hg_object_init(&sub->obj, HG_OBJ_MEM);
  HG_LOG(HG_LOG_MEM, "sub-buffer %p of %p: [%zu, +%zu)", (void *)sub, (void *)buffer, region->origin, region->size);
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return sub;

fail:
  HG_LOG(HG_LOG_API, "clCreateSubBuffer: error %d", err);
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

/* ---- reference counting and callbacks ---- */

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  HG_CHECK_MEM(memobj, CL_INVALID_MEM_OBJECT);
  atomic_fetch_add_explicit(&memobj->app_refs, 1, memory_order_relaxed);
  hg_mem_retain(memobj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  HG_CHECK_MEM(memobj, CL_INVALID_MEM_OBJECT);
  /* a handle still alive only through internal references is no longer the application's */
  unsigned refs = atomic_load_explicit(&memobj->app_refs, memory_order_relaxed);
  do {
    if (refs == 0)
      return CL_INVALID_MEM_OBJECT;
  } while (!atomic_compare_exchange_weak_explicit(&memobj->app_refs, &refs, refs - 1, memory_order_acq_rel,
                                                  memory_order_relaxed));
  hg_mem_release(memobj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                                 void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                                                 void *user_data) {
  HG_CHECK_MEM(memobj, CL_INVALID_MEM_OBJECT);
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  hg_mem_destructor *d = malloc(sizeof *d);
  if (!d)
    return CL_OUT_OF_HOST_MEMORY;
  d->fn = pfn_notify;
  d->user_data = user_data;
  pthread_mutex_lock(&memobj->lock);
  d->next = memobj->destructors;
  memobj->destructors = d;
  pthread_mutex_unlock(&memobj->lock);
  return CL_SUCCESS;
}

/* ---- queries ---- */

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                                   void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_MEM(memobj, CL_INVALID_MEM_OBJECT);
  switch (param_name) {
  case CL_MEM_TYPE:
    HG_INFO_VALUE(cl_mem_object_type, memobj->image ? memobj->image->layout.type : CL_MEM_OBJECT_BUFFER);
  case CL_MEM_FLAGS:
    HG_INFO_VALUE(cl_mem_flags, memobj->flags);
  case CL_MEM_SIZE:
    HG_INFO_VALUE(size_t, memobj->size);
  case CL_MEM_HOST_PTR:
    HG_INFO_VALUE(void *, memobj->host_ptr);
  case CL_MEM_MAP_COUNT: {
    pthread_mutex_lock(&memobj->lock);
    cl_uint count = memobj->map_count;
    pthread_mutex_unlock(&memobj->lock);
    HG_INFO_VALUE(cl_uint, count);
  }
  case CL_MEM_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, atomic_load_explicit(&memobj->app_refs, memory_order_relaxed));
  case CL_MEM_CONTEXT:
    HG_INFO_VALUE(cl_context, memobj->context);
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    HG_INFO_VALUE(cl_mem, memobj->parent);
  case CL_MEM_OFFSET: /* a 1D buffer image's origin is its buffer's, not an offset of its own */
    HG_INFO_VALUE(size_t, memobj->image ? 0 : memobj->origin);
  case CL_MEM_USES_SVM_POINTER:
    HG_INFO_VALUE(cl_bool, CL_FALSE);
  case CL_MEM_PROPERTIES:
    HG_INFO_ARRAY(memobj->properties, memobj->num_properties * sizeof(cl_mem_properties));
  default:
    return CL_INVALID_VALUE;
  }
}
