/* Version strings and the extensions the platform and its device advertise. Only what is
 * implemented is listed here. */
#ifndef HETGPU_PLATFORM_VERSION_H
#define HETGPU_PLATFORM_VERSION_H

#include <CL/cl.h>
#include <CL/cl_ext.h>

#define HETGPU_VERSION_STRING "0.1.0"
#define HETGPU_DRIVER_VERSION "0.1.0"

/* Platform extensions: the ICD, and the extensions of the device (the device list is the
 * source of truth: platform/extensions.c). */
#define HG_PLATFORM_EXTENSIONS "cl_khr_icd"

extern const cl_name_version hg_platform_extensions_with_version[];
extern const size_t hg_platform_num_extensions;

#endif
