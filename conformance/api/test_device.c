/* The device: clGetDeviceIDs' argument rules, every OpenCL 3.0 clGetDeviceInfo query (size
 * consistent with its type), the 3.0 minimums of a full-profile device, the consistency of the
 * feature queries, hetGPU's fixed profile, retain/release and the timers. */
#include <stdlib.h>
#include <string.h>

#include <CL/cl_ext.h>

#include "info_check.h"

enum kind { SCALAR, STRING, ARRAY };
#define Q(p, k, sz) {p, #p, k, sz}
static const struct query {
  cl_device_info param;
  const char *name;
  enum kind kind;
  size_t size; /* SCALAR: exact size; ARRAY: element size */
} queries[] = {
    Q(CL_DEVICE_TYPE, SCALAR, sizeof(cl_device_type)),
    Q(CL_DEVICE_VENDOR_ID, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, ARRAY, sizeof(size_t)),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_ADDRESS_BITS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_IMAGE_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_IL_VERSION, STRING, 0),
    Q(CL_DEVICE_ILS_WITH_VERSION, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_MAX_SAMPLERS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PIPE_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, SCALAR, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, SCALAR, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, SCALAR, sizeof(cl_device_mem_cache_type)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, SCALAR, sizeof(cl_device_local_mem_type)),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, SCALAR, sizeof(cl_ulong)),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_ENDIAN_LITTLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_AVAILABLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_COMPILER_AVAILABLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_LINKER_AVAILABLE, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, SCALAR, sizeof(cl_device_exec_capabilities)),
    Q(CL_DEVICE_QUEUE_PROPERTIES, SCALAR, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, SCALAR, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, SCALAR, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_BUILT_IN_KERNELS, STRING, 0),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_PLATFORM, SCALAR, sizeof(cl_platform_id)),
    Q(CL_DEVICE_NAME, STRING, 0),
    Q(CL_DEVICE_VENDOR, STRING, 0),
    Q(CL_DRIVER_VERSION, STRING, 0),
    Q(CL_DEVICE_PROFILE, STRING, 0),
    Q(CL_DEVICE_VERSION, STRING, 0),
    Q(CL_DEVICE_NUMERIC_VERSION, SCALAR, sizeof(cl_version)),
    Q(CL_DEVICE_OPENCL_C_VERSION, STRING, 0),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_OPENCL_C_FEATURES, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_EXTENSIONS, STRING, 0),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, ARRAY, sizeof(cl_name_version)),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_PARENT_DEVICE, SCALAR, sizeof(cl_device_id)),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PARTITION_PROPERTIES, ARRAY, sizeof(cl_device_partition_property)),
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, SCALAR, sizeof(cl_device_affinity_domain)),
    Q(CL_DEVICE_PARTITION_TYPE, ARRAY, sizeof(cl_device_partition_property)),
    Q(CL_DEVICE_REFERENCE_COUNT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_SVM_CAPABILITIES, SCALAR, sizeof(cl_device_svm_capabilities)),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, SCALAR, sizeof(cl_uint)),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, SCALAR, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, SCALAR, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, SCALAR, sizeof(cl_device_device_enqueue_capabilities)),
    Q(CL_DEVICE_PIPE_SUPPORT, SCALAR, sizeof(cl_bool)),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, SCALAR, sizeof(size_t)),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, STRING, 0),
};
#define NUM_QUERIES (sizeof queries / sizeof queries[0])

/* Values fetched once per test through the size-checked path. */
static cl_ulong u(cl_device_info param) {
  cl_ulong v = 0;
  size_t n = 0;
  if (clGetDeviceInfo(hg_test_device, param, 0, NULL, &n) != CL_SUCCESS || n > sizeof v)
    return (cl_ulong)-1;
  unsigned char buf[sizeof v];
  clGetDeviceInfo(hg_test_device, param, n, buf, NULL);
  /* little-endian widening of 4- and 8-byte values */
  if (n == 4) {
    cl_uint x;
    memcpy(&x, buf, 4);
    v = x;
  } else if (n == 8) {
    memcpy(&v, buf, 8);
  }
  return v;
}

static char *str(cl_device_info param) {
  size_t n = 0;
  if (clGetDeviceInfo(hg_test_device, param, 0, NULL, &n) != CL_SUCCESS)
    return NULL;
  char *s = calloc(1, n + 1);
  clGetDeviceInfo(hg_test_device, param, n, s, NULL);
  return s;
}

static cl_name_version *names(cl_device_info param, size_t *count) {
  size_t n = 0;
  *count = 0;
  if (clGetDeviceInfo(hg_test_device, param, 0, NULL, &n) != CL_SUCCESS)
    return NULL;
  cl_name_version *v = calloc(1, n + 1);
  clGetDeviceInfo(hg_test_device, param, n, v, NULL);
  *count = n / sizeof *v;
  return v;
}

/* Every query is tried, and every failure reported, before the test ends. */
HG_TEST(device_every_query) {
  for (size_t i = 0; i < NUM_QUERIES; i++) {
    const struct query *q = &queries[i];
    if (q->kind == STRING) {
      bool may_be_empty = q->param == CL_DEVICE_IL_VERSION || q->param == CL_DEVICE_BUILT_IN_KERNELS ||
                          q->param == CL_DEVICE_EXTENSIONS;
      free(hg_info_string(hg_device_info, hg_test_device, q->param, q->name, may_be_empty));
      continue;
    }
    void *v;
    size_t n;
    if (!hg_info_fetch(hg_device_info, hg_test_device, q->param, q->name, &v, &n))
      continue;
    free(v);
    if (q->kind == SCALAR && n != q->size)
      hg_test_fail(__FILE__, __LINE__, "%s: size %zu, its type has %zu", q->name, n, q->size);
    if (q->kind == ARRAY && n % q->size)
      hg_test_fail(__FILE__, __LINE__, "%s: size %zu not a multiple of %zu", q->name, n, q->size);
  }
}

HG_TEST(device_invalid_args) {
  char buf[256];
  CHECK_ERR(clGetDeviceInfo(hg_test_device, 0x0FFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceInfo(hg_test_device, 0x10FF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_WORK_GROUP_SIZE, 1, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceInfo(hg_test_device, CL_DEVICE_NAME, 1, buf, NULL), CL_INVALID_VALUE);

  cl_device_id d;
  cl_uint n;
  CHECK_ERR(clGetDeviceIDs(hg_test_platform, CL_DEVICE_TYPE_ALL, 0, &d, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceIDs(hg_test_platform, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceIDs(hg_test_platform, (cl_device_type)1 << 20, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
  CHECK_ERR(clGetDeviceIDs(hg_test_platform, 0, 1, &d, &n), CL_INVALID_DEVICE_TYPE);

  if (!hg_test_is_hetgpu()) {
    hg_test_skip("handles of the wrong type: hetGPU only");
    return;
  }
  /* live objects of another type, so the loader still dispatches to the driver */
  cl_device_id not_a_device = (cl_device_id)hg_test_platform;
  CHECK_ERR(clGetDeviceInfo(not_a_device, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
  CHECK_ERR(clRetainDevice(not_a_device), CL_INVALID_DEVICE);
  CHECK_ERR(clReleaseDevice(not_a_device), CL_INVALID_DEVICE);
  cl_ulong t0, t1;
  CHECK_ERR(clGetDeviceAndHostTimer(not_a_device, &t0, &t1), CL_INVALID_DEVICE);
  CHECK_ERR(clGetHostTimer(not_a_device, &t0), CL_INVALID_DEVICE);
  CHECK_ERR(clGetDeviceIDs((cl_platform_id)hg_test_device, CL_DEVICE_TYPE_ALL, 1, &d, &n), CL_INVALID_PLATFORM);
}

HG_TEST(device_ids_by_type) {
  cl_device_type type = u(CL_DEVICE_TYPE);
  const cl_device_type kinds = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  cl_device_type kind = type & kinds;
  CHECK_MSG(kind && !(kind & (kind - 1)), "CL_DEVICE_TYPE %#llx is not exactly one type", (unsigned long long)type);
  cl_device_type asks[] = {CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_DEFAULT, kind};
  for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
    cl_uint n = 0;
    CHECK_CL(clGetDeviceIDs(hg_test_platform, asks[i], 0, NULL, &n));
    CHECK(n >= 1);
    cl_device_id *ids = calloc(n, sizeof *ids);
    CHECK_CL(clGetDeviceIDs(hg_test_platform, asks[i], n, ids, NULL));
    bool ok = asks[i] == CL_DEVICE_TYPE_DEFAULT || ids[0] == hg_test_device || n > 1;
    free(ids);
    CHECK(ok);
  }
  if (!hg_test_is_hetgpu())
    return;
  /* its one type is the starting backend's (api_device_hints): asking for any other finds nothing */
  const cl_device_type each[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                                 CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) {
    if (each[i] == kind)
      continue;
    cl_uint n = 99;
    cl_device_id d;
    CHECK_ERR(clGetDeviceIDs(hg_test_platform, each[i], 1, &d, &n), CL_DEVICE_NOT_FOUND);
  }
  /* one device, one handle, whatever was asked for */
  cl_device_id d[2] = {NULL, NULL};
  cl_uint n = 0;
  CHECK_CL(clGetDeviceIDs(hg_test_platform, kind | CL_DEVICE_TYPE_CUSTOM, 2, d, &n));
  CHECK(n == 1 && d[0] == hg_test_device && d[1] == NULL);
}

/* OpenCL 3.0 minimums of a full-profile device that is not CL_DEVICE_TYPE_CUSTOM. */
HG_TEST(device_full_profile_minimums) {
  char *profile = str(CL_DEVICE_PROFILE);
  bool full = profile && !strcmp(profile, "FULL_PROFILE");
  free(profile);
  if (!full) {
    hg_test_skip("not a full-profile device");
    return;
  }
  cl_ulong global = u(CL_DEVICE_GLOBAL_MEM_SIZE), alloc = u(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  cl_ulong min_alloc = global / 4 < 1024ull * 1024 * 1024 ? global / 4 : 1024ull * 1024 * 1024;
  if (min_alloc < 32ull * 1024 * 1024)
    min_alloc = 32ull * 1024 * 1024;
  CHECK_MSG(alloc >= min_alloc && alloc <= global, "max alloc %llu, global %llu", (unsigned long long)alloc,
            (unsigned long long)global);
  CHECK(u(CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
  cl_uint dims = (cl_uint)u(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  CHECK(dims >= 3);
  size_t wg = (size_t)u(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  CHECK(wg >= 1);
  size_t sizes[16] = {0};
  CHECK(dims <= 16);
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes, NULL));
  for (cl_uint i = 0; i < dims; i++)
    CHECK(sizes[i] >= 1);
  cl_ulong bits = u(CL_DEVICE_ADDRESS_BITS);
  CHECK(bits == 32 || bits == 64);
  CHECK(u(CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
  CHECK(u(CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024); /* bits of long16 */
  CHECK(u(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
  CHECK(u(CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
  CHECK(u(CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
  cl_ulong local_type = u(CL_DEVICE_LOCAL_MEM_TYPE);
  CHECK(local_type == CL_LOCAL || local_type == CL_GLOBAL);
  CHECK(u(CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024);
  CHECK(u(CL_DEVICE_PROFILING_TIMER_RESOLUTION) >= 1);
  CHECK(u(CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
  CHECK(u(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE);
  CHECK(u(CL_DEVICE_QUEUE_PROPERTIES) == u(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES));
  CHECK(u(CL_DEVICE_AVAILABLE) == CL_TRUE);
  const cl_device_fp_config single_min = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
  CHECK((u(CL_DEVICE_SINGLE_FP_CONFIG) & single_min) == single_min);
  char *exts = str(CL_DEVICE_EXTENSIONS);
  CHECK(exts);
  bool fp64 = hg_word_in(exts, "cl_khr_fp64");
  free(exts);
  /* OpenCL 1.2's minimum for double, which the CTS (api min_max_double_fp_config) checks */
  const cl_device_fp_config double_min =
      CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
  if (fp64)
    CHECK((u(CL_DEVICE_DOUBLE_FP_CONFIG) & double_min) == double_min);
  else
    CHECK(u(CL_DEVICE_DOUBLE_FP_CONFIG) == 0);
  if (u(CL_DEVICE_IMAGE_SUPPORT)) {
    CHECK(u(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
    CHECK(u(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 8192); /* the 1.2 figure, which 3.0 devices still report */
  }
  const cl_device_atomic_capabilities mem_min = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  const cl_device_atomic_capabilities fence_min =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  CHECK((u(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES) & mem_min) == mem_min);
  CHECK((u(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) & fence_min) == fence_min);
}

HG_TEST(device_versions) {
  char *version = str(CL_DEVICE_VERSION);
  CHECK(version);
  int major = -1, minor = -1;
  int parsed = sscanf(version, "OpenCL %d.%d ", &major, &minor);
  bool space = strchr(version + 7, ' ') != NULL;
  free(version);
  CHECK_MSG(parsed == 2 && space, "CL_DEVICE_VERSION not in the form 'OpenCL M.m text'");
  cl_version numeric = (cl_version)u(CL_DEVICE_NUMERIC_VERSION);
  CHECK(CL_VERSION_MAJOR(numeric) == (cl_uint)major && CL_VERSION_MINOR(numeric) == (cl_uint)minor);

  char *c_version = str(CL_DEVICE_OPENCL_C_VERSION);
  CHECK(c_version);
  int cmajor = -1, cminor = -1;
  parsed = sscanf(c_version, "OpenCL C %d.%d", &cmajor, &cminor);
  free(c_version);
  CHECK_MSG(parsed == 2, "CL_DEVICE_OPENCL_C_VERSION not in the form 'OpenCL C M.m'");
  size_t n;
  cl_name_version *all = names(CL_DEVICE_OPENCL_C_ALL_VERSIONS, &n);
  bool has_c = false, has_30 = false, named = true;
  for (size_t i = 0; i < n; i++) {
    named &= !strcmp(all[i].name, "OpenCL C");
    has_c |= all[i].version == (cl_version)CL_MAKE_VERSION(cmajor, cminor, 0);
    has_30 |= CL_VERSION_MAJOR(all[i].version) == 3;
  }
  free(all);
  CHECK_MSG(named, "a CL_DEVICE_OPENCL_C_ALL_VERSIONS entry not named 'OpenCL C'");
  CHECK_MSG(has_c, "CL_DEVICE_OPENCL_C_VERSION missing from CL_DEVICE_OPENCL_C_ALL_VERSIONS");
  if (major >= 3)
    CHECK_MSG(has_30, "an OpenCL 3.0 device without OpenCL C 3.0");

  char *conformance = str(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
  CHECK(conformance);
  int y, m, d, p;
  char tail;
  parsed = sscanf(conformance, "v%4d-%2d-%2d-%2d%c", &y, &m, &d, &p, &tail);
  size_t len = strlen(conformance);
  free(conformance);
  CHECK_MSG(parsed == 4 && len == 14, "CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED not vYYYY-MM-DD-XX");
}

/* The 3.0 feature queries agree with the OpenCL C features and the extensions. */
HG_TEST(device_features_consistent) {
  char *exts = str(CL_DEVICE_EXTENSIONS);
  CHECK(exts);
  size_t next, nfeat;
  cl_name_version *ext_list = names(CL_DEVICE_EXTENSIONS_WITH_VERSION, &next);
  cl_name_version *feat = names(CL_DEVICE_OPENCL_C_FEATURES, &nfeat);
  bool same = hg_names_match(exts, ext_list, next);
  bool fp64 = hg_word_in(exts, "cl_khr_fp64");
  free(exts);
  free(ext_list);
#define HAS(f) hg_name_in(feat, nfeat, f)
  bool fp64_ok = fp64 == HAS("__opencl_c_fp64");
  bool int64_ok = HAS("__opencl_c_int64");
  bool generic_ok = (u(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE) == HAS("__opencl_c_generic_address_space");
  bool pipes_ok = (u(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE) == HAS("__opencl_c_pipes");
  bool enqueue_ok = (u(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) != 0) == HAS("__opencl_c_device_enqueue");
  bool wg_ok = (u(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE) ==
               HAS("__opencl_c_work_group_collective_functions");
  bool globals_ok = (u(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) != 0) == HAS("__opencl_c_program_scope_global_variables");
  bool images_ok = !HAS("__opencl_c_images") || u(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
  bool subgroups_ok = !HAS("__opencl_c_subgroups") || u(CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0;
  cl_device_atomic_capabilities mem = u(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  /* an atomic feature requires its capability */
  bool acq_ok = !HAS("__opencl_c_atomic_order_acq_rel") || (mem & CL_DEVICE_ATOMIC_ORDER_ACQ_REL);
  bool seq_ok = !HAS("__opencl_c_atomic_order_seq_cst") || (mem & CL_DEVICE_ATOMIC_ORDER_SEQ_CST);
  bool dev_ok = !HAS("__opencl_c_atomic_scope_device") || (mem & CL_DEVICE_ATOMIC_SCOPE_DEVICE);
  bool all_ok = !HAS("__opencl_c_atomic_scope_all_devices") || (mem & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  bool versions_ok = true;
  for (size_t i = 0; i < nfeat; i++)
    versions_ok &= CL_VERSION_MAJOR(feat[i].version) >= 3;
#undef HAS
  free(feat);
  CHECK_MSG(same, "CL_DEVICE_EXTENSIONS and CL_DEVICE_EXTENSIONS_WITH_VERSION differ");
  CHECK_MSG(fp64_ok, "cl_khr_fp64 and __opencl_c_fp64 disagree");
  CHECK_MSG(int64_ok, "a full-profile device without __opencl_c_int64");
  CHECK_MSG(generic_ok, "generic address space query and feature disagree");
  CHECK_MSG(pipes_ok, "pipe query and feature disagree");
  CHECK_MSG(enqueue_ok, "device enqueue query and feature disagree");
  CHECK_MSG(wg_ok, "work-group collectives query and feature disagree");
  CHECK_MSG(globals_ok, "program-scope globals query and feature disagree");
  CHECK_MSG(images_ok && subgroups_ok, "images or subgroups feature without the capability");
  CHECK_MSG(acq_ok && seq_ok && dev_ok && all_ok, "an atomic feature without its capability");
  CHECK_MSG(versions_ok, "an OpenCL C feature with a version below 3.0");
}

HG_TEST(device_root_device) {
  CHECK(u(CL_DEVICE_REFERENCE_COUNT) == 1);
  cl_device_id parent = (cl_device_id)1;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
  CHECK(parent == NULL);
  cl_platform_id platform = NULL;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL));
  CHECK(platform == hg_test_platform);
  for (int i = 0; i < 10; i++)
    CHECK_CL(clRetainDevice(hg_test_device));
  for (int i = 0; i < 10; i++)
    CHECK_CL(clReleaseDevice(hg_test_device));
  CHECK(u(CL_DEVICE_REFERENCE_COUNT) == 1);
}

HG_TEST(device_timers) {
  cl_ulong resolution = 0;
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution, NULL));
  if (!resolution) {
    hg_test_skip("no host timer");
    return;
  }
  cl_ulong d0 = 0, h0 = 0, d1 = 0, h1 = 0, h = 0;
  CHECK_CL(clGetDeviceAndHostTimer(hg_test_device, &d0, &h0));
  CHECK_CL(clGetHostTimer(hg_test_device, &h));
  CHECK_CL(clGetDeviceAndHostTimer(hg_test_device, &d1, &h1));
  CHECK(d1 >= d0 && h1 >= h0 && h >= h0 && h1 >= h);
  CHECK_ERR(clGetDeviceAndHostTimer(hg_test_device, NULL, &h0), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceAndHostTimer(hg_test_device, &d0, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetHostTimer(hg_test_device, NULL), CL_INVALID_VALUE);
}

/* hetGPU's fixed profile: the values docs/virtual-device.md promises. */
HG_TEST(device_profile_hetgpu) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU profile");
    return;
  }
  char *s;
#define CHECK_STR(param, want)                                         \
  do {                                                                 \
    s = str(param);                                                    \
    bool eq_ = s && !strcmp(s, want);                                  \
    CHECK_MSG(eq_, "%s is '%s', expected '%s'", #param, s ? s : "(null)", want); \
    free(s);                                                           \
  } while (0)
  CHECK_STR(CL_DEVICE_NAME, "hetGPU virtual device");
  CHECK_STR(CL_DEVICE_VENDOR, "hetGPU project");
  CHECK_STR(CL_DEVICE_VERSION, "OpenCL 3.0 hetGPU");
  /* "OpenCL C 1.2" then a space and vendor text (CTS api min_max_language_version) */
  CHECK_STR(CL_DEVICE_OPENCL_C_VERSION, "OpenCL C 1.2 hetGPU");
  CHECK_STR(CL_DEVICE_PROFILE, "FULL_PROFILE");
  CHECK_STR(CL_DEVICE_IL_VERSION, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
  CHECK_STR(CL_DEVICE_BUILT_IN_KERNELS, "");
  CHECK_STR(CL_DEVICE_EXTENSIONS,
            "cl_khr_fp64 cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
            "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
            "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "
            "cl_khr_il_program cl_hetgpu_migrate");
#undef CHECK_STR
  CHECK(u(CL_DEVICE_VENDOR_ID) == 0x1FFFF);
  CHECK(u(CL_DEVICE_NUMERIC_VERSION) == CL_MAKE_VERSION(3, 0, 0));
  CHECK(u(CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE && u(CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);
  CHECK(u(CL_DEVICE_ADDRESS_BITS) == 64 && u(CL_DEVICE_ENDIAN_LITTLE) == CL_TRUE);
  CHECK(u(CL_DEVICE_MAX_WORK_GROUP_SIZE) == 1024);
  size_t sizes[3];
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
  CHECK(sizes[0] == 1024 && sizes[1] == 1024 && sizes[2] == 64);
  CHECK(u(CL_DEVICE_LOCAL_MEM_SIZE) == 48 * 1024); /* its type is a hint (test_device_hints.c) */
  CHECK(u(CL_DEVICE_MAX_PARAMETER_SIZE) == 1024);
  CHECK(u(CL_DEVICE_MEM_BASE_ADDR_ALIGN) == 1024 && u(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE) == 128);
  CHECK(u(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) == 64 * 1024 && u(CL_DEVICE_MAX_CONSTANT_ARGS) == 8);
  CHECK(u(CL_DEVICE_PRINTF_BUFFER_SIZE) == 1024 * 1024);
  CHECK(u(CL_DEVICE_PROFILING_TIMER_RESOLUTION) == 1);
  CHECK(u(CL_DEVICE_GLOBAL_MEM_SIZE) >= 512ull * 1024 * 1024);
  CHECK(u(CL_DEVICE_EXECUTION_CAPABILITIES) == CL_EXEC_KERNEL);
  CHECK(u(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  CHECK(u(CL_DEVICE_SINGLE_FP_CONFIG) == (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
  CHECK(u(CL_DEVICE_DOUBLE_FP_CONFIG) == (CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                          CL_FP_INF_NAN | CL_FP_DENORM));
  CHECK(u(CL_DEVICE_HALF_FP_CONFIG) == 0);
  CHECK(u(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES) == (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
  CHECK(u(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) ==
        (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
  /* everything not implemented reads as absent */
  /* images: the profile's (docs/images.md), PoCL and the RISC-V device both having them */
  const struct {
    cl_device_info param;
    cl_ulong value;
  } images[] = {{CL_DEVICE_IMAGE_SUPPORT, CL_TRUE},         {CL_DEVICE_MAX_READ_IMAGE_ARGS, 128},
                {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 32},        {CL_DEVICE_IMAGE2D_MAX_WIDTH, 8192},
                {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 8192},        {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048},
                {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048},        {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048},
                {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536},    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048},
                {CL_DEVICE_MAX_SAMPLERS, 16}};
  for (size_t i = 0; i < sizeof images / sizeof images[0]; i++)
    CHECK_MSG(u(images[i].param) == images[i].value, "query %#x is %llu, expected %llu", images[i].param,
              (unsigned long long)u(images[i].param), (unsigned long long)images[i].value);
  const cl_device_info zero[] = {
      CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
      CL_DEVICE_SVM_CAPABILITIES,
      CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_MAX_PIPE_ARGS, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
      CL_DEVICE_PIPE_MAX_PACKET_SIZE, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
      CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES,
      CL_DEVICE_MAX_ON_DEVICE_EVENTS, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
      CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
      CL_DEVICE_MAX_NUM_SUB_GROUPS, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
      CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
      CL_DEVICE_PARTITION_MAX_SUB_DEVICES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
  };
  for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
    CHECK_MSG(u(zero[i]) == 0, "query %#x is not 0", zero[i]);
  size_t n = 99;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_PARTITION_TYPE, 0, NULL, &n));
  CHECK(n == 0);
  cl_device_partition_property pp = 1;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_PARTITION_PROPERTIES, sizeof pp, &pp, &n));
  CHECK(pp == 0 && n == sizeof pp);
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &n));
  CHECK(n == 5 * sizeof(cl_name_version)); /* SPIR-V 1.0 to 1.4 (conformance/il) */
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0, NULL, &n));
  CHECK(n == 0);

  size_t count;
  cl_name_version *v = names(CL_DEVICE_OPENCL_C_ALL_VERSIONS, &count);
  bool versions = count == 4 && v[0].version == CL_MAKE_VERSION(1, 0, 0) && v[1].version == CL_MAKE_VERSION(1, 1, 0) &&
                  v[2].version == CL_MAKE_VERSION(1, 2, 0) && v[3].version == CL_MAKE_VERSION(3, 0, 0);
  free(v);
  CHECK_MSG(versions, "OpenCL C versions are not 1.0, 1.1, 1.2, 3.0");
  v = names(CL_DEVICE_OPENCL_C_FEATURES, &count);
  bool features = count == 3 && hg_name_in(v, count, "__opencl_c_int64") && hg_name_in(v, count, "__opencl_c_fp64") &&
                  hg_name_in(v, count, "__opencl_c_images");
  free(v);
  CHECK_MSG(features, "OpenCL C features are not exactly __opencl_c_int64, __opencl_c_fp64 and __opencl_c_images");
}
