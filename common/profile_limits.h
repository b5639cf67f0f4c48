/* The virtual device's fixed profile as numbers: the limits every backend must honour and the
 * figures the device reports. docs/virtual-device.md explains how each value is derived. Here,
 * in the bottom folder, because code generators (lowering/) need some of them (the printf
 * buffer's capacity) as much as the backends and the platform do; the checks against a
 * backend's raw limits are in devices/profile.h. */
#ifndef HETGPU_COMMON_PROFILE_LIMITS_H
#define HETGPU_COMMON_PROFILE_LIMITS_H

/* Identity: a Khronos-style vendor id above the PCI range, not assigned to anyone (Khronos
 * hands out 0x10000 upwards; 0x10005 is Mesa, 0x10006 PoCL). */
#define HG_PROFILE_VENDOR_ID 0x1FFFFu

/* Limits every admitted backend honours (devices/profile.c checks those a backend reports). */
#define HG_PROFILE_ADDRESS_BITS 64u
#define HG_PROFILE_MAX_WORK_ITEM_DIMENSIONS 3u
#define HG_PROFILE_MAX_WORK_GROUP_SIZE 1024u
#define HG_PROFILE_MAX_WORK_ITEM_SIZE_0 1024u
#define HG_PROFILE_MAX_WORK_ITEM_SIZE_1 1024u
#define HG_PROFILE_MAX_WORK_ITEM_SIZE_2 64u
/* Work-groups of one launch, all dimensions together: PoCL's pthread device counts them in 32
 * bits (2^32 groups ended in SIGFPE or an abort inside it); more is CL_INVALID_GLOBAL_WORK_SIZE. */
#define HG_PROFILE_MAX_WORK_GROUPS 0xffffffffull
#define HG_PROFILE_LOCAL_MEM_SIZE (48u * 1024u)
/* Local memory every kernel is counted as needing beyond its own __local variables and
 * arguments (CL_KERNEL_LOCAL_MEM_SIZE includes what the implementation needs, and applications
 * size their __local arguments by it): NVIDIA reports 4 bytes for a kernel without any, a
 * stoppable group's vote takes 16, and argument alignment the rest. Counted on every backend,
 * so a launch accepted on one fits on all. */
#define HG_PROFILE_LOCAL_MEM_RESERVE 64u
#define HG_PROFILE_MAX_PARAMETER_SIZE 1024u
/* long16, the specification's minimum and PoCL's; a vendor whose sub-buffers need more runs such
 * arguments on copies (devices/vendor/vendor_shadow.c) */
#define HG_PROFILE_MEM_BASE_ADDR_ALIGN_BITS 1024u
#define HG_PROFILE_MIN_DATA_TYPE_ALIGN_SIZE 128u /* bytes: long16 */
#define HG_PROFILE_MAX_CONSTANT_BUFFER_SIZE (64u * 1024u)
#define HG_PROFILE_MAX_CONSTANT_ARGS 8u
#define HG_PROFILE_PRINTF_BUFFER_SIZE (1024u * 1024u)
#define HG_PROFILE_PROFILING_TIMER_RESOLUTION_NS 1u
/* Global memory: the smallest of the usable backends (or HETGPU_GLOBAL_MEM_SIZE), fixed at
 * start-up; the largest allocation is a quarter of it, as the specification's minimum. */
#define HG_PROFILE_MIN_GLOBAL_MEM_SIZE (512ull * 1024 * 1024)

/* Images (docs/images.md): the full profile's minimums of OpenCL 3.0 with images, which PoCL,
 * NVIDIA and the RISC-V device all reach, but for write image arguments: NVIDIA's OpenCL allows
 * 32 (the specification's minimum is 64). No read_write images, no 3D image writes, no mipmaps. */
#define HG_PROFILE_IMAGE2D_MAX_WIDTH 8192u
#define HG_PROFILE_IMAGE2D_MAX_HEIGHT 8192u
#define HG_PROFILE_IMAGE3D_MAX_WIDTH 2048u
#define HG_PROFILE_IMAGE3D_MAX_HEIGHT 2048u
#define HG_PROFILE_IMAGE3D_MAX_DEPTH 2048u
#define HG_PROFILE_IMAGE_MAX_BUFFER_SIZE 65536u /* pixels of a 1D buffer image */
#define HG_PROFILE_IMAGE_MAX_ARRAY_SIZE 2048u
#define HG_PROFILE_MAX_READ_IMAGE_ARGS 128u
#define HG_PROFILE_MAX_WRITE_IMAGE_ARGS 32u
#define HG_PROFILE_MAX_SAMPLERS 16u

#endif
