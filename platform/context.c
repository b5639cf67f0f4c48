/* Contexts: creation (from a device list or a type), reference counting, queries, destructor
 * callbacks and the error-notification hook the rest of the driver reports through. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "lowering/frontend.h"
#include "platform/context_objects.h"
#include "platform/control_socket.h"
#include "platform/info.h"
#include "platform/platform.h"

/* The live contexts of the process, for the control socket (hetgpu-ctl). */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_context live_head;
static uint64_t last_context_id;

static void live_add(cl_context ctx) {
  pthread_mutex_lock(&live_lock);
  ctx->id = ++last_context_id;
  ctx->live_next = live_head;
  if (live_head)
    live_head->live_prev = ctx;
  live_head = ctx;
  pthread_mutex_unlock(&live_lock);
}

static void live_remove(cl_context ctx) {
  pthread_mutex_lock(&live_lock);
  if (ctx->live_prev)
    ctx->live_prev->live_next = ctx->live_next;
  else
    live_head = ctx->live_next;
  if (ctx->live_next)
    ctx->live_next->live_prev = ctx->live_prev;
  pthread_mutex_unlock(&live_lock);
}

/* Takes an internal hold unless the context is already being destroyed. */
static bool hold_if_alive(cl_context ctx) {
  unsigned n = atomic_load(&ctx->holds);
  while (n && !atomic_compare_exchange_weak(&ctx->holds, &n, n + 1))
    ;
  return n != 0;
}

cl_context hg_context_find(uint64_t id) {
  cl_context found = NULL;
  pthread_mutex_lock(&live_lock);
  for (cl_context c = live_head; c; c = c->live_next)
    if (c->id == id && hg_object_is(c, HG_OBJ_CONTEXT) && hold_if_alive(c)) {
      found = c;
      break;
    }
  pthread_mutex_unlock(&live_lock);
  return found;
}

size_t hg_context_ids(uint64_t *ids, size_t cap) {
  size_t n = 0;
  pthread_mutex_lock(&live_lock);
  for (cl_context c = live_head; c; c = c->live_next)
    if (hg_object_is(c, HG_OBJ_CONTEXT)) {
      if (n < cap)
        ids[n] = c->id;
      n++;
    }
  pthread_mutex_unlock(&live_lock);
  /* newest first in the list: hand them out in creation order */
  size_t m = n < cap ? n : cap;
  for (size_t i = 0; i < m / 2; i++) {
    uint64_t t = ids[i];
    ids[i] = ids[m - 1 - i];
    ids[m - 1 - i] = t;
  }
  return n;
}

hg_backend *hg_context_backend(cl_context ctx) { return hg_placement_current(&ctx->placement); }

typedef void(CL_CALLBACK *hg_notify_fn)(const char *, const void *, size_t, void *);
typedef void(CL_CALLBACK *hg_context_destructor_fn)(cl_context, void *);

/* Checks a property list; *count receives its length including the terminating 0 (0 when
 * there is no list). */
static cl_int check_properties(const cl_context_properties *properties, size_t *count) {
  *count = 0;
  if (!properties)
    return CL_SUCCESS;
  size_t n = 0;
  bool seen_platform = false, seen_sync = false;
  for (; properties[n]; n += 2) {
    cl_context_properties name = properties[n], value = properties[n + 1];
    switch (name) {
    case CL_CONTEXT_PLATFORM:
      if (seen_platform)
        return CL_INVALID_PROPERTY;
      seen_platform = true;
      if (!hg_object_is((const void *)value, HG_OBJ_PLATFORM))
        return CL_INVALID_PLATFORM;
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (seen_sync || (value != CL_TRUE && value != CL_FALSE))
        return CL_INVALID_PROPERTY;
      seen_sync = true;
      break;
    default:
      return CL_INVALID_PROPERTY;
    }
  }
  *count = n + 1;
  return CL_SUCCESS;
}

/* Builds a context on the virtual device after the arguments shared by both constructors have
 * been checked; one cleanup path. */
static cl_context context_new(const cl_context_properties *properties, hg_notify_fn pfn_notify, void *user_data,
                              cl_int *errcode_ret) {
  size_t num_properties;
  cl_int err = check_properties(properties, &num_properties);
  cl_context ctx = NULL;
  if (err != CL_SUCCESS)
    goto fail;
  err = CL_OUT_OF_HOST_MEMORY;
  ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    goto fail;
  if (num_properties) {
    ctx->properties = malloc(num_properties * sizeof *properties);
    if (!ctx->properties)
      goto fail;
    memcpy(ctx->properties, properties, num_properties * sizeof *properties);
    ctx->num_properties = num_properties;
  }
  hg_backend *be = hg_platform_backend();
  if (!be) {
    err = CL_DEVICE_NOT_AVAILABLE;
    goto fail;
  }
  ctx->device = hg_device_get();
  ctx->pfn_notify = pfn_notify;
  ctx->notify_user_data = user_data;
  if (pthread_mutex_init(&ctx->lock, NULL) != 0)
    goto fail;
  if (pthread_mutex_init(&ctx->migrate_lock, NULL) != 0)
    goto fail_lock;
  if (pthread_mutex_init(&ctx->objects_lock, NULL) != 0)
    goto fail_migrate_lock;
  if (pthread_mutex_init(&ctx->stop_lock, NULL) != 0)
    goto fail_objects_lock;
  if (hg_placement_init(&ctx->placement, be) != 0)
    goto fail_stop_lock;
  atomic_init(&ctx->holds, 1); /* all the application's references together */
  hg_object_init(&ctx->obj, HG_OBJ_CONTEXT);
  live_add(ctx);
  HG_LOG(HG_LOG_API, "context %p (id %llu) created on %s", (void *)ctx, (unsigned long long)ctx->id, be->name);
  hg_control_socket_start();
  hg_frontend_warm_up(); /* a context's program is most often built from source soon after */
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return ctx;

fail_stop_lock:
  pthread_mutex_destroy(&ctx->stop_lock);
fail_objects_lock:
  pthread_mutex_destroy(&ctx->objects_lock);
fail_migrate_lock:
  pthread_mutex_destroy(&ctx->migrate_lock);
fail_lock:
  pthread_mutex_destroy(&ctx->lock);
fail:
  if (ctx)
    free(ctx->properties);
  free(ctx);
  HG_LOG(HG_LOG_API, "context creation failed: %d", err);
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                                    const cl_device_id *devices, hg_notify_fn pfn_notify,
                                                    void *user_data, cl_int *errcode_ret) {
  if (!devices || num_devices == 0 || (!pfn_notify && user_data)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* Duplicates are ignored, so any number of entries naming our one device makes a context. */
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!hg_object_is(devices[i], HG_OBJ_DEVICE)) {
      HG_SET_ERR(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  }
  return context_new(properties, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties,
                                                            cl_device_type device_type, hg_notify_fn pfn_notify,
                                                            void *user_data, cl_int *errcode_ret) {
  if (!pfn_notify && user_data) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  /* The same rules as clGetDeviceIDs: invalid type, or no device of that type. The property
   * list is checked first so that a bad platform is reported as such. */
  size_t num_properties;
  cl_int err = check_properties(properties, &num_properties);
  if (err == CL_SUCCESS) {
    cl_uint n = 0;
    err = clGetDeviceIDs(hg_platform_get(), device_type, 0, NULL, &n);
  }
  if (err != CL_SUCCESS) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  return context_new(properties, pfn_notify, user_data, errcode_ret);
}

static void context_destroy(cl_context ctx) {
  /* Callbacks were pushed on the front of the list: walking it runs the last registered first. */
  hg_callback *cb = ctx->destructor_callbacks;
  while (cb) {
    hg_callback *next = cb->next;
    ((hg_context_destructor_fn)cb->fn)(ctx, cb->user_data);
    free(cb);
    cb = next;
  }
  HG_LOG(HG_LOG_API, "context %p destroyed", (void *)ctx);
  live_remove(ctx);
  hg_placement_destroy(&ctx->placement);
  free(ctx->objects); /* every object untracked itself before the last hold went */
  pthread_mutex_destroy(&ctx->objects_lock);
  pthread_mutex_destroy(&ctx->stop_lock);
  pthread_mutex_destroy(&ctx->migrate_lock);
  pthread_mutex_destroy(&ctx->lock);
  free(ctx->properties);
  hg_object_free(&ctx->obj);
}

void hg_context_retain(cl_context ctx) { atomic_fetch_add_explicit(&ctx->holds, 1, memory_order_relaxed); }

void hg_context_release(cl_context ctx) {
  if (atomic_fetch_sub_explicit(&ctx->holds, 1, memory_order_acq_rel) == 1)
    context_destroy(ctx);
}

void hg_context_notify(cl_context ctx, const char *errinfo) {
  HG_LOG(HG_LOG_API, "context %p: %s", (void *)ctx, errinfo);
  if (ctx && ctx->pfn_notify)
    ctx->pfn_notify(errinfo, NULL, 0, ctx->notify_user_data);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  hg_object_retain(&context->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  if (hg_object_release(&context->obj)) {
    /* The application let go: its handle is dead now, the objects holding the context keep it
     * alive until they go too. */
    hg_object_retire(&context->obj);
    hg_context_release(context);
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, hg_object_refcount(&context->obj));
  case CL_CONTEXT_NUM_DEVICES:
    HG_INFO_VALUE(cl_uint, 1);
  case CL_CONTEXT_DEVICES:
    HG_INFO_VALUE(cl_device_id, context->device);
  case CL_CONTEXT_PROPERTIES:
    HG_INFO_ARRAY(context->properties, context->num_properties * sizeof *context->properties);
  case CL_CONTEXT_BACKEND_HETGPU:
    HG_INFO_VALUE(cl_backend_id_hetgpu, hg_context_backend(context)->index);
  case CL_CONTEXT_MIGRATION_COUNT_HETGPU: {
    pthread_mutex_lock(&context->lock);
    cl_uint n = context->migrations;
    pthread_mutex_unlock(&context->lock);
    HG_INFO_VALUE(cl_uint, n);
  }
  case CL_CONTEXT_LAST_MIGRATION_HETGPU: {
    pthread_mutex_lock(&context->lock);
    cl_migration_report_hetgpu r = context->last_migration;
    pthread_mutex_unlock(&context->lock);
    HG_INFO_VALUE(cl_migration_report_hetgpu, r);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                               hg_context_destructor_fn pfn_notify,
                                                               void *user_data) {
  HG_CHECK_CONTEXT(context, CL_INVALID_CONTEXT);
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  hg_callback *cb = malloc(sizeof *cb);
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->fn = (void(CL_CALLBACK *)())pfn_notify;
  cb->user_data = user_data;
  pthread_mutex_lock(&context->lock);
  cb->next = context->destructor_callbacks;
  context->destructor_callbacks = cb;
  pthread_mutex_unlock(&context->lock);
  return CL_SUCCESS;
}
