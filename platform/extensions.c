/* The extensions hetGPU advertises (one list for the platform and its device), the OpenCL C
 * features of the device, and the extension functions it provides. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl_ext.h>
#include <CL/cl_hetgpu.h>

#include "devices/profile.h"
#include "icd/extension_functions.h"
#include "platform/version.h"

#define V1 CL_MAKE_VERSION(1, 0, 0)

/* The one list. The platform's extensions are all of it; the device's start after cl_khr_icd.
 * Every device extension here is implemented by the compilers and holds on every backend. */
static const cl_name_version extension_list[] = {
    {V1, "cl_khr_icd"},
    {V1, "cl_khr_fp64"},
    {V1, "cl_khr_byte_addressable_store"},
    {V1, "cl_khr_global_int32_base_atomics"},
    {V1, "cl_khr_global_int32_extended_atomics"},
    {V1, "cl_khr_local_int32_base_atomics"},
    {V1, "cl_khr_local_int32_extended_atomics"},
    {V1, "cl_khr_int64_base_atomics"},
    {V1, "cl_khr_int64_extended_atomics"},
    {V1, "cl_khr_il_program"}, /* SPIR-V through the SPIR-V front end (program_il.c) */
    {CL_HETGPU_MIGRATE_EXTENSION_VERSION, CL_HETGPU_MIGRATE_EXTENSION_NAME},
};
#define NUM_EXTENSIONS (sizeof extension_list / sizeof extension_list[0])
#define FIRST_DEVICE_EXTENSION 1

/* OpenCL C 3.0 optional features: int64 (full profile), fp64 (cl_khr_fp64 above), and images
 * (last: listed only while the device has them, hg_profile_images; neither read_write images nor
 * 3D image writes). */
static const cl_name_version opencl_c_features[] = {
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"},
};

/* Room for the joined names; join() checks it (a longer list is a programming error). */
#define STRING_CAPACITY 1024
static char platform_string[STRING_CAPACITY], device_string[STRING_CAPACITY];
static pthread_once_t strings_once = PTHREAD_ONCE_INIT;

static void join(char *out, size_t first) {
  size_t len = 0;
  for (size_t i = first; i < NUM_EXTENSIONS; i++) {
    size_t n = strlen(extension_list[i].name);
    if (len + n + 2 > STRING_CAPACITY)
      abort();
    if (i > first)
      out[len++] = ' ';
    memcpy(out + len, extension_list[i].name, n);
    len += n;
  }
  out[len] = '\0';
}

static void build_strings(void) {
  join(platform_string, 0);
  join(device_string, FIRST_DEVICE_EXTENSION);
}

const cl_name_version *hg_platform_extensions_with_version(size_t *count) {
  *count = NUM_EXTENSIONS;
  return extension_list;
}

const cl_name_version *hg_device_extensions_with_version(size_t *count) {
  *count = NUM_EXTENSIONS - FIRST_DEVICE_EXTENSION;
  return extension_list + FIRST_DEVICE_EXTENSION;
}

const char *hg_platform_extensions(void) {
  pthread_once(&strings_once, build_strings);
  return platform_string;
}

const char *hg_device_extensions(void) {
  pthread_once(&strings_once, build_strings);
  return device_string;
}

const cl_name_version *hg_device_opencl_c_features(size_t *count) {
  *count = sizeof opencl_c_features / sizeof opencl_c_features[0] - (hg_profile_images() ? 0 : 1);
  return opencl_c_features;
}

#define FN(name) {#name, (void *)name}
const hg_extension_function hg_platform_extension_functions[] = {
    FN(clGetBackendIDsHETGPU),     FN(clGetBackendInfoHETGPU),    FN(clMigrateContextHETGPU),
    FN(clEnqueueMigrateContextHETGPU), FN(clCheckpointContextHETGPU), FN(clRestoreContextHETGPU),
    FN(clGetContextObjectsHETGPU), FN(clSetObjectLabelHETGPU),    FN(clGetObjectByLabelHETGPU),
    FN(clCreateProgramWithILKHR),
    {NULL, NULL},
};
