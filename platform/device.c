/* The virtual device: clGetDeviceIDs, clGetDeviceInfo, clRetainDevice/clReleaseDevice and the
 * timers. Limits and capabilities come from the fixed profile (devices/profile.h), the same
 * whichever backend runs the work; tuning hints (type, compute units, clock, vector widths,
 * cache, host-unified memory, local memory's type) and the memory figures are those of the
 * backend the process starts on, fixed for the process's life. docs/virtual-device.md explains
 * each value. */

#include "common/host_clock.h"
#include "devices/profile.h"
#include "platform/info.h"
#include "platform/platform.h"
#include "platform/version.h"

static struct _cl_device_id the_device;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

static void device_init(void) {
  the_device.platform = hg_platform_get();
  hg_object_init(&the_device.obj, HG_OBJ_DEVICE);
}

cl_device_id hg_device_get(void) {
  pthread_once(&device_once, device_init);
  return &the_device;
}

/* The starting backend's kind (DEFAULT is ours to add; CUSTOM devices are never admitted). */
static cl_device_type virtual_device_type(void) {
  const hg_backend *be = hg_platform_backend();
  cl_device_type kinds = be ? be->type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) : 0;
  if (kinds & CL_DEVICE_TYPE_GPU)
    return CL_DEVICE_TYPE_GPU;
  return kinds & CL_DEVICE_TYPE_CPU ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_ACCELERATOR;
}

_Static_assert(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE - CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR == HG_VECTOR_DOUBLE &&
                   CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE - CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR == HG_VECTOR_DOUBLE,
               "vector-width queries index hg_backend_hints in hg_vector_type order");

const hg_backend_hints *hg_device_hints(void) {
  static const hg_backend_hints none = {.compute_units = 1, .work_group_size_multiple = 1,
                                        .local_mem_type = CL_LOCAL};
  const hg_backend *start = hg_platform_backend();
  return start ? &start->hints : &none;
}

#define HG_VALID_DEVICE_TYPES                                                                     \
  (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | \
   CL_DEVICE_TYPE_CUSTOM)

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices) {
  /* NULL selects our platform (implementation-defined behaviour we make useful). */
  if (platform && !hg_object_is(platform, HG_OBJ_PLATFORM))
    return CL_INVALID_PLATFORM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || (device_type & ~(cl_device_type)HG_VALID_DEVICE_TYPES)))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices))
    return CL_INVALID_VALUE;
  /* DEFAULT and ALL match the one device; otherwise its type must be asked for. */
  if (!hg_platform_backend() ||
      !(device_type == CL_DEVICE_TYPE_ALL || (device_type & (CL_DEVICE_TYPE_DEFAULT | virtual_device_type())))) {
    if (num_devices)
      *num_devices = 0;
    return CL_DEVICE_NOT_FOUND;
  }
  if (devices)
    devices[0] = hg_device_get();
  if (num_devices)
    *num_devices = 1;
  return CL_SUCCESS;
}

/* The root device is never freed: retain and release only validate the handle. */
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  HG_CHECK_DEVICE(device, CL_INVALID_DEVICE);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  HG_CHECK_DEVICE(device, CL_INVALID_DEVICE);
  return CL_SUCCESS;
}

/* OpenCL C versions the front end accepts (-cl-std=CL1.0 ... CL1.2, CL3.0). */
static const cl_name_version opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/* SPIR-V versions the SPIR-V front end takes: those both spirv-val and llvm-spirv-15 read
 * (lowering/spirv_module.h, HG_SPIRV_VERSION_MIN..MAX). */
static const cl_name_version il_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 1, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 2, 0), "SPIR-V"},
    {CL_MAKE_VERSION(1, 3, 0), "SPIR-V"}, {CL_MAKE_VERSION(1, 4, 0), "SPIR-V"},
};
#define IL_VERSION_STRING "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"

/* 3.0 minimums for a device without the optional atomic features (no __opencl_c_atomic_*
 * feature is advertised, so nothing beyond the minimum may be reported). */
#define HG_ATOMIC_MEMORY_CAPS (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)
#define HG_ATOMIC_FENCE_CAPS \
  (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)

/* Full-profile minimum for float; fp64 reports what cl_khr_fp64 requires. */
#define HG_SINGLE_FP_CONFIG (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)
/* OpenCL 1.2's minimum for double (the CTS checks it whatever the device version) */
#define HG_DOUBLE_FP_CONFIG                                                                                       \
  (CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM)

#define HG_HOST_QUEUE_PROPERTIES (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)

/* Reported as the conformance version passed: none yet, in the query's required format. */
#define HG_CONFORMANCE_VERSION_NONE "v0000-01-01-00"

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret) {
  HG_CHECK_DEVICE(device, CL_INVALID_DEVICE);
  const hg_backend_hints *hint = hg_device_hints(); /* probes the backends */
  switch (param_name) {
  /* identity */
  case CL_DEVICE_TYPE:
    HG_INFO_VALUE(cl_device_type, virtual_device_type());
  case CL_DEVICE_VENDOR_ID:
    HG_INFO_VALUE(cl_uint, HG_PROFILE_VENDOR_ID);
  case CL_DEVICE_NAME:
    HG_INFO_STRING("hetGPU virtual device");
  case CL_DEVICE_VENDOR:
    HG_INFO_STRING("hetGPU project");
  case CL_DRIVER_VERSION:
    HG_INFO_STRING(HETGPU_DRIVER_VERSION);
  case CL_DEVICE_PROFILE:
    HG_INFO_STRING("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    HG_INFO_STRING("OpenCL 3.0 hetGPU");
  case CL_DEVICE_NUMERIC_VERSION:
    HG_INFO_VALUE(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION:
    HG_INFO_STRING("OpenCL C 1.2 hetGPU"); /* "OpenCL C <major.minor> <vendor-specific information>" */
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    HG_INFO_ARRAY(opencl_c_versions, sizeof opencl_c_versions);
  case CL_DEVICE_OPENCL_C_FEATURES: {
    size_t n;
    const cl_name_version *list = hg_device_opencl_c_features(&n);
    HG_INFO_ARRAY(list, n * sizeof *list);
  }
  case CL_DEVICE_EXTENSIONS:
    HG_INFO_STRING(hg_device_extensions());
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
    size_t n;
    const cl_name_version *list = hg_device_extensions_with_version(&n);
    HG_INFO_ARRAY(list, n * sizeof *list);
  }
  case CL_DEVICE_PLATFORM:
    HG_INFO_VALUE(cl_platform_id, device->platform);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    HG_INFO_STRING(HG_CONFORMANCE_VERSION_NONE);
  case CL_DEVICE_AVAILABLE:
    HG_INFO_VALUE(cl_bool, hg_platform_backend() ? CL_TRUE : CL_FALSE);
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    HG_INFO_VALUE(cl_bool, CL_TRUE);
  case CL_DEVICE_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, 1); /* root device */

  /* execution */
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    HG_INFO_VALUE(cl_uint, hint->compute_units);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    HG_INFO_VALUE(cl_uint, hint->clock_mhz);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    HG_INFO_VALUE(cl_uint, HG_PROFILE_MAX_WORK_ITEM_DIMENSIONS);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    const size_t sizes[HG_PROFILE_MAX_WORK_ITEM_DIMENSIONS] = {
        HG_PROFILE_MAX_WORK_ITEM_SIZE_0, HG_PROFILE_MAX_WORK_ITEM_SIZE_1, HG_PROFILE_MAX_WORK_ITEM_SIZE_2};
    HG_INFO_ARRAY(sizes, sizeof sizes);
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    HG_INFO_VALUE(size_t, HG_PROFILE_MAX_WORK_GROUP_SIZE);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    HG_INFO_VALUE(size_t, hint->work_group_size_multiple);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
  case CL_DEVICE_PIPE_SUPPORT:
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    HG_INFO_VALUE(cl_bool, CL_FALSE);
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    HG_INFO_VALUE(cl_uint, 0);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    HG_INFO_VALUE(cl_device_exec_capabilities, CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: /* == CL_DEVICE_QUEUE_PROPERTIES */
    HG_INFO_VALUE(cl_command_queue_properties, HG_HOST_QUEUE_PROPERTIES);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    HG_INFO_VALUE(size_t, HG_PROFILE_PROFILING_TIMER_RESOLUTION_NS);
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    HG_INFO_VALUE(size_t, HG_PROFILE_PRINTF_BUFFER_SIZE);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    HG_INFO_VALUE(size_t, HG_PROFILE_MAX_PARAMETER_SIZE);
  case CL_DEVICE_BUILT_IN_KERNELS:
    HG_INFO_STRING("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    HG_INFO_ARRAY(NULL, 0);
  case CL_DEVICE_ILS_WITH_VERSION:
    HG_INFO_ARRAY(il_versions, sizeof il_versions);
  case CL_DEVICE_IL_VERSION: /* == CL_DEVICE_IL_VERSION_KHR */
    HG_INFO_STRING(IL_VERSION_STRING);

  /* on-device queues, pipes, SVM: none */
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    HG_INFO_VALUE(cl_device_device_enqueue_capabilities, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    HG_INFO_VALUE(cl_command_queue_properties, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    HG_INFO_VALUE(cl_uint, 0);
  case CL_DEVICE_SVM_CAPABILITIES:
    HG_INFO_VALUE(cl_device_svm_capabilities, 0);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    HG_INFO_VALUE(cl_uint, 0); /* 0: aligned to the natural size of the type */
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    HG_INFO_VALUE(cl_device_atomic_capabilities, HG_ATOMIC_MEMORY_CAPS);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    HG_INFO_VALUE(cl_device_atomic_capabilities, HG_ATOMIC_FENCE_CAPS);

  /* memory */
  case CL_DEVICE_ADDRESS_BITS:
    HG_INFO_VALUE(cl_uint, HG_PROFILE_ADDRESS_BITS);
  case CL_DEVICE_ENDIAN_LITTLE:
    HG_INFO_VALUE(cl_bool, CL_TRUE);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    HG_INFO_VALUE(cl_bool, CL_FALSE);
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    HG_INFO_VALUE(cl_bool, hint->host_unified_memory);
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    HG_INFO_VALUE(cl_ulong, hg_profile_global_mem_size());
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    HG_INFO_VALUE(cl_ulong, hg_profile_max_mem_alloc_size());
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    HG_INFO_VALUE(cl_device_mem_cache_type, hint->cache_type);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    HG_INFO_VALUE(cl_uint, hint->cache_line_size);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    HG_INFO_VALUE(cl_ulong, hint->cache_size);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    HG_INFO_VALUE(size_t, 0); /* no program-scope global variables */
  case CL_DEVICE_LOCAL_MEM_TYPE:
    HG_INFO_VALUE(cl_device_local_mem_type, hint->local_mem_type);
  case CL_DEVICE_LOCAL_MEM_SIZE:
    HG_INFO_VALUE(cl_ulong, HG_PROFILE_LOCAL_MEM_SIZE);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    HG_INFO_VALUE(cl_ulong, HG_PROFILE_MAX_CONSTANT_BUFFER_SIZE);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    HG_INFO_VALUE(cl_uint, HG_PROFILE_MAX_CONSTANT_ARGS);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    HG_INFO_VALUE(cl_uint, HG_PROFILE_MEM_BASE_ADDR_ALIGN_BITS);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    HG_INFO_VALUE(cl_uint, HG_PROFILE_MIN_DATA_TYPE_ALIGN_SIZE);

  /* floating point; vector widths are the starting backend's; no fp16 */
  case CL_DEVICE_SINGLE_FP_CONFIG:
    HG_INFO_VALUE(cl_device_fp_config, HG_SINGLE_FP_CONFIG);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    HG_INFO_VALUE(cl_device_fp_config, HG_DOUBLE_FP_CONFIG);
  case CL_DEVICE_HALF_FP_CONFIG:
    HG_INFO_VALUE(cl_device_fp_config, 0);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    HG_INFO_VALUE(cl_uint, hint->preferred_vector_width[param_name - CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR]);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    HG_INFO_VALUE(cl_uint, hint->native_vector_width[param_name - CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR]);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    HG_INFO_VALUE(cl_uint, 0);

  /* images (docs/images.md): the profile's, while every backend has them */
  case CL_DEVICE_IMAGE_SUPPORT:
    HG_INFO_VALUE(cl_bool, hg_profile_images() ? CL_TRUE : CL_FALSE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    HG_INFO_VALUE(cl_uint, hg_profile_images() ? HG_PROFILE_MAX_READ_IMAGE_ARGS : 0);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    HG_INFO_VALUE(cl_uint, hg_profile_images() ? HG_PROFILE_MAX_WRITE_IMAGE_ARGS : 0);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: /* no read_write images */
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:     /* no cl_khr_image2d_from_buffer */
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    HG_INFO_VALUE(cl_uint, 0);
  case CL_DEVICE_MAX_SAMPLERS:
    HG_INFO_VALUE(cl_uint, hg_profile_images() ? HG_PROFILE_MAX_SAMPLERS : 0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: {
    static const size_t limits[] = {HG_PROFILE_IMAGE2D_MAX_WIDTH, HG_PROFILE_IMAGE2D_MAX_HEIGHT,
                                    HG_PROFILE_IMAGE3D_MAX_WIDTH, HG_PROFILE_IMAGE3D_MAX_HEIGHT,
                                    HG_PROFILE_IMAGE3D_MAX_DEPTH};
    size_t v = param_name == CL_DEVICE_IMAGE_MAX_BUFFER_SIZE  ? HG_PROFILE_IMAGE_MAX_BUFFER_SIZE
               : param_name == CL_DEVICE_IMAGE_MAX_ARRAY_SIZE ? HG_PROFILE_IMAGE_MAX_ARRAY_SIZE
                                                              : limits[param_name - CL_DEVICE_IMAGE2D_MAX_WIDTH];
    HG_INFO_VALUE(size_t, hg_profile_images() ? v : 0);
  }

  /* partitioning: not supported (a root device only) */
  case CL_DEVICE_PARENT_DEVICE:
    HG_INFO_VALUE(cl_device_id, NULL);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    HG_INFO_VALUE(cl_uint, 0);
  case CL_DEVICE_PARTITION_PROPERTIES:
    HG_INFO_VALUE(cl_device_partition_property, 0); /* one 0: no partitioning scheme */
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    HG_INFO_VALUE(cl_device_affinity_domain, 0);
  case CL_DEVICE_PARTITION_TYPE:
    HG_INFO_ARRAY(NULL, 0); /* root device: no partition type */
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    HG_INFO_VALUE(cl_bool, CL_TRUE);

  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                                        cl_ulong *host_timestamp) {
  HG_CHECK_DEVICE(device, CL_INVALID_DEVICE);
  if (!device_timestamp || !host_timestamp)
    return CL_INVALID_VALUE;
  cl_ulong now = hg_host_clock_ns();
  *device_timestamp = now;
  *host_timestamp = now;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  HG_CHECK_DEVICE(device, CL_INVALID_DEVICE);
  if (!host_timestamp)
    return CL_INVALID_VALUE;
  *host_timestamp = hg_host_clock_ns();
  return CL_SUCCESS;
}
