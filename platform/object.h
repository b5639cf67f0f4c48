/* The common header of every CL object hetGPU hands to an application, the registry of live
 * handles, and the validation macros.
 *
 * Every handle starts with the ICD dispatch pointer (the loader calls through it), then a
 * per-type magic and an atomic reference count. Handles are also entered in a registry of
 * live objects, so a released or foreign handle is rejected with the type's CL_INVALID_*
 * code instead of being dereferenced. */
#ifndef HETGPU_PLATFORM_OBJECT_H
#define HETGPU_PLATFORM_OBJECT_H

#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hg_object_type {
  HG_OBJ_PLATFORM = 1,
  HG_OBJ_DEVICE,
  HG_OBJ_CONTEXT,
  HG_OBJ_QUEUE,
  HG_OBJ_MEM,
  HG_OBJ_PROGRAM,
  HG_OBJ_KERNEL,
  HG_OBJ_EVENT,
  HG_OBJ_SAMPLER,
} hg_object_type;

#define HG_MAGIC_BASE 0x48474f00u /* "HGO" */
#define HG_MAGIC(type) (HG_MAGIC_BASE | (uint32_t)(type))

typedef struct hg_object {
  const cl_icd_dispatch *dispatch; /* must stay first: the ICD loader reads it */
  uint32_t magic;
  atomic_uint refcount;
  bool listed; /* entered in the registry: an application may hold it */
} hg_object;

extern const cl_icd_dispatch hg_dispatch;

/* Initialises the header and enters the object in the live-handle registry (refcount 1). */
void hg_object_init(hg_object *obj, hg_object_type type);
/* The same, without the registry: for objects that may never reach an application (an event per
 * command, most of which nobody asks for); hg_object_list enters one when it is handed out. */
void hg_object_init_unlisted(hg_object *obj, hg_object_type type);
void hg_object_list(hg_object *obj);
/* Removes the object from the registry and clears its magic; the caller frees the memory. */
void hg_object_retire(hg_object *obj);
/* Frees a retired object's memory late: the last HG_QUARANTINE_SIZE retired objects stay
 * allocated with their dispatch pointer intact, because the ICD loader reads a handle's dispatch
 * pointer before our entry point can reject it, so a released handle must still be readable for
 * a while to get its CL_INVALID_* code instead of a crash. One never listed is freed at once. */
#define HG_QUARANTINE_SIZE 4096
void hg_object_free(hg_object *obj);
/* True when ptr is a live hetGPU object of the given type. */
bool hg_object_is(const void *ptr, hg_object_type type);

static inline void hg_object_retain(hg_object *obj) {
  atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
}
/* Returns true when this release dropped the last reference. */
static inline bool hg_object_release(hg_object *obj) {
  return atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_acq_rel) == 1;
}
static inline cl_uint hg_object_refcount(const hg_object *obj) {
  return atomic_load_explicit(&((hg_object *)obj)->refcount, memory_order_relaxed);
}

/* One validation macro per type: return the type's error code from the calling entry point
 * when the handle is not a live object of that type. */
#define HG_CHECK_HANDLE_(h, type, err) \
  do {                                 \
    if (!hg_object_is((h), (type)))    \
      return (err);                    \
  } while (0)
#define HG_CHECK_PLATFORM(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_PLATFORM, ret)
#define HG_CHECK_DEVICE(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_DEVICE, ret)
#define HG_CHECK_CONTEXT(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_CONTEXT, ret)
#define HG_CHECK_QUEUE(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_QUEUE, ret)
#define HG_CHECK_MEM(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_MEM, ret)
#define HG_CHECK_PROGRAM(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_PROGRAM, ret)
#define HG_CHECK_KERNEL(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_KERNEL, ret)
#define HG_CHECK_EVENT(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_EVENT, ret)
#define HG_CHECK_SAMPLER(h, ret) HG_CHECK_HANDLE_(h, HG_OBJ_SAMPLER, ret)

/* Entry points that return an object report their error through errcode_ret. */
#define HG_SET_ERR(errcode_ret, value) \
  do {                                 \
    if (errcode_ret)                   \
      *(errcode_ret) = (value);        \
  } while (0)

#endif
