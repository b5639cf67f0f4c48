/* The hetGPU platform: clGetPlatformIDs, clGetPlatformInfo, clUnloadPlatformCompiler, and
 * the choice of the backend that runs this process's work. */
#include "platform/platform.h"

#include "platform/info.h"
#include "common/log.h"
#include "platform/version.h"

static struct _cl_platform_id the_platform;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void platform_init(void) {
  hg_log_init();
  hg_object_init(&the_platform.obj, HG_OBJ_PLATFORM);
}

cl_platform_id hg_platform_get(void) {
  pthread_once(&platform_once, platform_init);
  return &the_platform;
}

static pthread_once_t backend_once = PTHREAD_ONCE_INIT;
static hg_backend *active_backend;

static void backend_init(void) {
  if (hg_backends_init() == CL_SUCCESS)
    active_backend = hg_backend_active();
  if (active_backend)
    HG_LOG(HG_LOG_BACKEND, "running on %s", active_backend->name);
  else
    HG_LOG(HG_LOG_BACKEND, "no usable backend: the virtual device is not offered");
}

hg_backend *hg_platform_backend(void) {
  hg_platform_get();
  pthread_once(&backend_once, backend_init);
  return active_backend;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                                 cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return CL_INVALID_VALUE;
  if (platforms)
    platforms[0] = hg_platform_get();
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size, void *param_value,
                  size_t *param_value_size_ret) {
  /* NULL selects the platform (implementation-defined behaviour we make useful). */
  if (platform && !hg_object_is(platform, HG_OBJ_PLATFORM))
    return CL_INVALID_PLATFORM;
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    HG_INFO_STRING("FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    HG_INFO_STRING("OpenCL 3.0 hetGPU " HETGPU_VERSION_STRING);
  case CL_PLATFORM_NUMERIC_VERSION:
    HG_INFO_VALUE(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_PLATFORM_NAME:
    HG_INFO_STRING("hetGPU");
  case CL_PLATFORM_VENDOR:
    HG_INFO_STRING("hetGPU project");
  case CL_PLATFORM_EXTENSIONS:
    HG_INFO_STRING(hg_platform_extensions());
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    size_t n;
    const cl_name_version *list = hg_platform_extensions_with_version(&n);
    HG_INFO_ARRAY(list, n * sizeof *list);
  }
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    HG_INFO_STRING("HETGPU");
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    HG_INFO_VALUE(cl_ulong, 1); /* CLOCK_MONOTONIC: nanoseconds */
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  HG_CHECK_PLATFORM(platform, CL_INVALID_PLATFORM);
  return CL_SUCCESS; /* the compiler runs out of process: nothing stays loaded */
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }
