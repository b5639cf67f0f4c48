/* Version strings and the extensions the platform and its device advertise. Only what is
 * implemented is listed; platform/extensions.c holds the one list. */
#ifndef HETGPU_PLATFORM_VERSION_H
#define HETGPU_PLATFORM_VERSION_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stddef.h>

#define HETGPU_VERSION_STRING "0.1.0"
#define HETGPU_DRIVER_VERSION "0.1.0"

/* The device's extensions: what the compiler and the backends implement everywhere. */
const cl_name_version *hg_device_extensions_with_version(size_t *count);
const char *hg_device_extensions(void); /* space-separated, no trailing space */

/* The platform's extensions: cl_khr_icd followed by the device's. */
const cl_name_version *hg_platform_extensions_with_version(size_t *count);
const char *hg_platform_extensions(void);

/* The optional OpenCL C 3.0 features the device supports (CL_DEVICE_OPENCL_C_FEATURES). */
const cl_name_version *hg_device_opencl_c_features(size_t *count);

#endif
