/* The hetGPU platform, its one virtual device, and contexts. */
#ifndef HETGPU_PLATFORM_PLATFORM_H
#define HETGPU_PLATFORM_PLATFORM_H

#include <pthread.h>

#include "devices/backend.h"
#include "platform/object.h"

struct _cl_platform_id {
  hg_object obj;
};

struct _cl_device_id {
  hg_object obj;
  cl_platform_id platform;
};

typedef struct hg_callback {
  void(CL_CALLBACK *fn)();
  void *user_data;
  struct hg_callback *next;
} hg_callback;

/* obj.refcount counts the application's references (CL_CONTEXT_REFERENCE_COUNT); `holds`
 * counts the internal ones (hg_context_retain) plus one for all the application's together.
 * When the application's count reaches 0 the handle is retired (further use gets
 * CL_INVALID_CONTEXT); the context is destroyed when the last hold goes. */
struct _cl_context {
  hg_object obj;
  atomic_uint holds;
  cl_device_id device; /* the virtual device: the only one there is */
  cl_context_properties *properties; /* copy, zero-terminated; NULL when none were given */
  size_t num_properties;             /* entries including the terminating 0 */
  void(CL_CALLBACK *pfn_notify)(const char *errinfo, const void *private_info, size_t cb, void *user_data);
  void *notify_user_data;
  pthread_mutex_t lock;
  hg_callback *destructor_callbacks; /* called last-registered first on destruction */
};

/* The singletons; hg_platform_get() also initialises the logger. */
cl_platform_id hg_platform_get(void);
cl_device_id hg_device_get(void);

/* The backend that runs this process's work (HETGPU_BACKEND); NULL if none is usable, in which
 * case the virtual device is not offered (clGetDeviceIDs: CL_DEVICE_NOT_FOUND). */
hg_backend *hg_platform_backend(void);

/* Internal reference counting of contexts (queues, buffers, programs and events hold one):
 * use these, never hg_object_retain on a context, so CL_CONTEXT_REFERENCE_COUNT stays the
 * application's count. The destructor callbacks run when the last reference of either kind
 * goes. */
void hg_context_retain(cl_context ctx);
void hg_context_release(cl_context ctx);
/* Reports an error through the context's pfn_notify, if any. */
void hg_context_notify(cl_context ctx, const char *errinfo);

#endif
