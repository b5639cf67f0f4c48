/* Command queue entry points: creation, reference counting, queries, flush and finish. The
 * execution side lives in platform/queue_engine.c. */
#include "platform/queue.h"

#include <stdlib.h>
#include <string.h>

#include "platform/context_objects.h"
#include "platform/info.h"
#include "common/log.h"
#include "platform/platform.h"

void hg_queue_hold(cl_command_queue q) { atomic_fetch_add_explicit(&q->holds, 1, memory_order_relaxed); }

void hg_queue_unhold(cl_command_queue q) {
  if (atomic_fetch_sub_explicit(&q->holds, 1, memory_order_acq_rel) != 1)
    return;
  /* Nothing refers to the queue any more: every command finished, no event names it, the
   * worker has exited (each of those holds it). */
  cl_context ctx = q->context;
  hg_context_untrack(ctx, q);
  pthread_cond_destroy(&q->cond);
  pthread_mutex_destroy(&q->lock);
  free(q->props_array);
  hg_object_free(&q->obj);
  hg_context_release(ctx);
}

/* Checks a CL_QUEUE_PROPERTIES bitfield: CL_INVALID_VALUE for bits or combinations the
 * specification does not define, CL_INVALID_QUEUE_PROPERTIES for valid ones the device lacks
 * (on-device queues). */
static cl_int check_queue_properties(cl_command_queue_properties p) {
  const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                            CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if (p & ~known)
    return CL_INVALID_VALUE;
  if ((p & CL_QUEUE_ON_DEVICE_DEFAULT) && !(p & CL_QUEUE_ON_DEVICE))
    return CL_INVALID_VALUE;
  if ((p & CL_QUEUE_ON_DEVICE) && !(p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return CL_INVALID_VALUE;
  if (p & ~(cl_command_queue_properties)HG_QUEUE_SUPPORTED_PROPERTIES)
    return CL_INVALID_QUEUE_PROPERTIES;
  return CL_SUCCESS;
}

static cl_command_queue queue_create(cl_context context, cl_device_id device, cl_command_queue_properties props,
                                     const cl_queue_properties *array, size_t array_len, cl_int *errcode_ret) {
  cl_int err = CL_OUT_OF_HOST_MEMORY;
  cl_command_queue q = calloc(1, sizeof *q);
  if (!q)
    goto fail;
  if (array_len) {
    q->props_array = malloc(array_len * sizeof *array);
    if (!q->props_array)
      goto fail_q;
    memcpy(q->props_array, array, array_len * sizeof *array);
    q->props_array_len = array_len;
  }
  if (pthread_mutex_init(&q->lock, NULL) != 0)
    goto fail_props;
  if (pthread_cond_init(&q->cond, NULL) != 0)
    goto fail_lock;
  atomic_init(&q->holds, 1); /* the application's references, as one */
  q->context = context;
  hg_context_retain(context);
  q->device = device;
  q->properties = props;
  if (hg_context_track(context, q, CL_OBJECT_COMMAND_QUEUE_HETGPU) != CL_SUCCESS) {
    hg_context_release(context);
    goto fail_cond;
  }
  hg_object_init(&q->obj, HG_OBJ_QUEUE);
  HG_LOG(HG_LOG_SCHED, "queue %p created, properties 0x%llx", (void *)q, (unsigned long long)props);
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return q;
fail_cond:
  pthread_cond_destroy(&q->cond);
fail_lock:
  pthread_mutex_destroy(&q->lock);
fail_props:
  free(q->props_array);
fail_q:
  free(q);
fail:
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

static cl_int check_context_device(cl_context context, cl_device_id device) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (!hg_object_is(device, HG_OBJ_DEVICE) || device != context->device)
    return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                            const cl_queue_properties *properties,
                                                                            cl_int *errcode_ret) {
  cl_int err = check_context_device(context, device);
  if (err != CL_SUCCESS) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  cl_command_queue_properties props = 0;
  bool have_props = false, have_size = false;
  size_t len = 0;
  if (properties) {
    for (; properties[len]; len += 2) {
      switch (properties[len]) {
      case CL_QUEUE_PROPERTIES:
        if (have_props) {
          HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
          return NULL;
        }
        have_props = true;
        props = (cl_command_queue_properties)properties[len + 1];
        break;
      case CL_QUEUE_SIZE:
        if (have_size) {
          HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
          return NULL;
        }
        have_size = true;
        break;
      default:
        HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
        return NULL;
      }
    }
    len++; /* the terminating 0 */
  }
  err = check_queue_properties(props);
  if (err == CL_SUCCESS && have_size)
    err = CL_INVALID_VALUE; /* CL_QUEUE_SIZE is for on-device queues only */
  if (err != CL_SUCCESS) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  return queue_create(context, device, props, properties, len, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                              cl_command_queue_properties properties,
                                                              cl_int *errcode_ret) {
  cl_int err = check_context_device(context, device);
  if (err == CL_SUCCESS)
    err = check_queue_properties(properties);
  if (err != CL_SUCCESS) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  return queue_create(context, device, properties, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  hg_object_retain(&command_queue->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  if (hg_object_release(&command_queue->obj)) {
    /* Implicit flush: commands are submitted as they are enqueued. The queue's memory stays
     * until every command has finished and no event refers to it. */
    hg_object_retire(&command_queue->obj);
    hg_queue_engine_release(command_queue);
    hg_queue_unhold(command_queue);
  }
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                                      cl_command_queue_info param_name, size_t param_value_size,
                                                      void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  switch (param_name) {
  case CL_QUEUE_CONTEXT:
    HG_INFO_VALUE(cl_context, command_queue->context);
  case CL_QUEUE_DEVICE:
    HG_INFO_VALUE(cl_device_id, command_queue->device);
  case CL_QUEUE_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, hg_object_refcount(&command_queue->obj));
  case CL_QUEUE_PROPERTIES:
    HG_INFO_VALUE(cl_command_queue_properties, command_queue->properties);
  case CL_QUEUE_PROPERTIES_ARRAY:
    HG_INFO_ARRAY(command_queue->props_array, command_queue->props_array_len * sizeof(cl_queue_properties));
  case CL_QUEUE_SIZE:
    return CL_INVALID_COMMAND_QUEUE; /* host queues have no size */
  case CL_QUEUE_DEVICE_DEFAULT:
    HG_INFO_VALUE(cl_command_queue, NULL); /* no on-device queues */
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                                          cl_command_queue_properties properties, cl_bool enable,
                                                          cl_command_queue_properties *old_properties) {
  /* Deprecated since 1.1 and required only of OpenCL 1.0 devices: the specification lets an
   * implementation whose devices do not support changing properties return this error. */
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue command_queue) {
  cl_int err = check_context_device(context, device);
  if (err != CL_SUCCESS)
    return err;
  /* The device has no on-device queues, so none can be made the default. */
  return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  hg_queue_flush(command_queue); /* commands reach the engine as they are enqueued; the backend may batch */
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  return hg_queue_finish(command_queue);
}
