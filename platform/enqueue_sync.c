/* Synchronisation commands: markers, barriers, waits for events, and the native-kernel entry
 * point (the virtual device has no CL_EXEC_NATIVE_KERNEL capability). */
#include <stdlib.h>

#include "platform/command.h"
#include "platform/event.h"
#include "platform/queue.h"

static cl_int enqueue_sync(cl_command_queue queue, cl_command_type type, cl_uint num_events,
                           const cl_event *wait_list, cl_event *event) {
  HG_CHECK_QUEUE(queue, CL_INVALID_COMMAND_QUEUE);
  hg_command *cmd;
  cl_int err = hg_command_create(queue, type, sizeof *cmd, num_events, wait_list, &cmd);
  if (err != CL_SUCCESS)
    return err;
  /* No run function: the command completes once its dependencies have (queue_engine.c gives
   * markers and barriers with an empty wait list every earlier command as a dependency). */
  return hg_command_submit(cmd, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list, cl_event *event) {
  return enqueue_sync(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list, cl_event *event) {
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  if (!event)
    return CL_INVALID_VALUE;
  return enqueue_sync(command_queue, CL_COMMAND_MARKER, 0, NULL, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event *event_list) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  if (num_events == 0 || !event_list)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++)
    HG_CHECK_EVENT(event_list[i], CL_INVALID_EVENT);
  for (cl_uint i = 0; i < num_events; i++)
    if (event_list[i]->context != command_queue->context)
      return CL_INVALID_CONTEXT;
  /* A barrier on the listed events: later commands wait for it. */
  return enqueue_sync(command_queue, CL_COMMAND_BARRIER, num_events, event_list, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *),
                                                      void *args, size_t cb_args, cl_uint num_mem_objects,
                                                      const cl_mem *mem_list, const void **args_mem_loc,
                                                      cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                      cl_event *event) {
  HG_CHECK_QUEUE(command_queue, CL_INVALID_COMMAND_QUEUE);
  cl_int err = hg_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS)
    return err;
  if (!user_func || (!args && cb_args > 0) || (args && cb_args == 0) ||
      (num_mem_objects > 0 && (!mem_list || !args_mem_loc)) ||
      (num_mem_objects == 0 && (mem_list || args_mem_loc)))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; i++)
    HG_CHECK_MEM(mem_list[i], CL_INVALID_MEM_OBJECT);
  /* CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL. */
  return CL_INVALID_OPERATION;
}
