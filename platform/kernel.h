/* Kernel objects: a kernel function of a built program and the arguments set on it. */
#ifndef HETGPU_PLATFORM_KERNEL_H
#define HETGPU_PLATFORM_KERNEL_H

#include <pthread.h>
#include <stdbool.h>

#include "platform/program.h"

/* The largest work-group every backend launches whatever the kernel's registers (a GPU with
 * 64K registers per block at 255 per thread: 256) when its private memory is at most
 * HG_KERNEL_SMALL_PRIVATE bytes (256 such frames, with room for spills, fit a RISC-V tile's L1
 * beside the whole local memory): below it no backend needs asking (docs/virtual-device.md). */
#define HG_KERNEL_SAFE_WORK_GROUP_SIZE 256u
#define HG_KERNEL_SMALL_PRIVATE 2048u

typedef struct hg_kernel_arg {
  bool set;
  cl_mem mem;     /* HG_KARG_GLOBAL_PTR / CONSTANT_PTR: NULL for a NULL buffer */
  size_t size;    /* HG_KARG_LOCAL_PTR: bytes; HG_KARG_VALUE: bytes in value */
  uint8_t *value; /* HG_KARG_VALUE */
} hg_kernel_arg;

struct _cl_kernel {
  hg_object obj;
  cl_program program; /* retained; cannot be rebuilt while this kernel exists */
  uint32_t function;  /* index in program->module */
  pthread_mutex_t lock;
  hg_kernel_arg *args;
  hg_dev_kernel *dev[HG_MAX_BACKENDS]; /* created on first launch on each backend */
  /* CL_KERNEL_WORK_GROUP_SIZE once computed (0: not yet) */
  atomic_size_t work_group_size;
};

/* The references a command keeps on its kernel: clRetainKernel's and clReleaseKernel's work
 * without the handle check (a launch validated its kernel once). */
static inline void hg_kernel_retain(cl_kernel kernel) { hg_object_retain(&kernel->obj); }
void hg_kernel_release(cl_kernel kernel);
/* The IR function of a kernel. */
const hg_ir_function *hg_kernel_function(cl_kernel kernel);
/* Bytes of a kernel's arguments as CL_DEVICE_MAX_PARAMETER_SIZE counts them: the sizes
 * summed, as the CTS and the vendors count them (no alignment padding; pointers 8 bytes). */
uint64_t hg_kernel_arg_bytes(const hg_ir_function *f);
/* Bytes of local memory the kernel uses: static __local variables plus __local arguments (as
 * set on the kernel, or in a launch's copy of them). */
cl_ulong hg_kernel_local_mem_size(cl_kernel kernel);
cl_ulong hg_kernel_args_local_mem(const hg_ir_function *f, const hg_kernel_arg *args);
/* CL_KERNEL_WORK_GROUP_SIZE: the required size when the kernel has one, else the most
 * work-items per group every usable backend runs it with (built there to ask, once per
 * kernel), so a size that works keeps working after a migration. */
size_t hg_kernel_work_group_size(cl_kernel kernel);
/* A work-group size every usable backend runs the kernel with, found without building it
 * anywhere when its private memory is small (HG_KERNEL_SAFE_WORK_GROUP_SIZE), else
 * hg_kernel_work_group_size: what launches check and choose against. */
size_t hg_kernel_safe_work_group_size(cl_kernel kernel);
/* Whether the kernel's launches can stop at safe points on backend be: waiting for its
 * stoppable forms there (CL_KERNEL_STOPPABLE_HETGPU), or (wait false) as they are now. */
bool hg_kernel_stoppable(cl_kernel kernel, hg_backend *be, bool wait);
/* The backend kernel, created on first use. */
cl_int hg_kernel_device(cl_kernel kernel, hg_backend *be, hg_dev_kernel **out);

struct hg_command;
struct hg_ir_ndrange_state;
/* A kernel launch stopped at a safe point (platform/enqueue_kernel.c): its kernel, its launch
 * arguments and where it stands; false for any other command. */
bool hg_kernel_command_stopped(struct hg_command *c, cl_kernel *kernel, const hg_kernel_arg **args,
                               const struct hg_ir_ndrange_state **state);
/* Enqueues a launch of `kernel` with these arguments that resumes from `state` (taken over,
 * freed with the command, also on an error): how a restore gives back a kernel that was
 * stopped when its checkpoint was taken. */
cl_int hg_enqueue_kernel_from_state(cl_command_queue queue, cl_kernel kernel, const hg_kernel_arg *args,
                                    struct hg_ir_ndrange_state *state);

#endif
