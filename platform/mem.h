/* Memory objects (buffers and sub-buffers) and where their contents live. */
#ifndef HETGPU_PLATFORM_MEM_H
#define HETGPU_PLATFORM_MEM_H

#include "devices/backend.h"
#include "platform/object.h"

/* The backend allocation that holds a valid copy of the buffer on `be`, allocating it and
 * moving the contents there first if the valid copy is elsewhere (another backend, or the
 * application's host memory for CL_MEM_USE_HOST_PTR). *offset receives the sub-buffer's
 * origin within the allocation. Called by the queue worker before a command touches the
 * buffer; `will_write` marks the other copies stale. NULL on allocation failure. */
hg_dev_mem *hg_mem_device(cl_mem mem, hg_backend *be, bool will_write, size_t *offset);

/* clCreateBuffer without a host pointer, initialised from `contents` (restoring a checkpoint). */
cl_mem hg_buffer_create_with_contents(cl_context context, cl_mem_flags flags, size_t size, const void *contents,
                                      cl_int *errcode_ret);

/* Size in bytes, flags, context. */
size_t hg_mem_size(cl_mem mem);
cl_mem_flags hg_mem_flags(cl_mem mem);
cl_context hg_mem_context(cl_mem mem);

/* Internal references (kernels' arguments and commands in flight hold one). */
void hg_mem_retain(cl_mem mem);
void hg_mem_release(cl_mem mem);

#endif
