/* The virtual device's fixed profile: its numbers (common/profile_limits.h, docs/virtual-device.md)
 * and the check that admits a backend. A backend whose raw limits fall short is not used. */
#ifndef HETGPU_DEVICES_PROFILE_H
#define HETGPU_DEVICES_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/profile_limits.h"
#include "devices/backend.h"

/* True when a backend with these raw limits can run everything the profile promises; else
 * writes the first shortfall to why. */
bool hg_profile_admits(const hg_backend_limits *raw, char *why, size_t why_size);
/* The device's global memory size and largest allocation (after hg_backends_init): those of the
 * backend the process starts on (hg_backend_active), global memory lowered by
 * HETGPU_GLOBAL_MEM_SIZE. */
cl_ulong hg_profile_global_mem_size(void);
cl_ulong hg_profile_max_mem_alloc_size(void);
/* The bytes of buffers `be` may hold: its own memory, at most the device's. A migration to a
 * backend whose budget the context's buffers pass is refused (CL_MEM_OBJECT_ALLOCATION_FAILURE). */
cl_ulong hg_profile_backend_mem_budget(const hg_backend *be);
/* Whether the device offers images (CL_DEVICE_IMAGE_SUPPORT, __opencl_c_images, image and
 * sampler creation): every admitted backend has limits.images, so an image lives anywhere a
 * context may migrate (after hg_backends_init). */
bool hg_profile_images(void);

#endif
