/* Tuning hints and memory figures follow the backend the process starts on; limits do not.
 * Run with the system's ICD files beside hetGPU's (OCL_ICD_VENDORS=<build>/vendors-system), so
 * the vendor is also reachable directly and is the reference: with HETGPU_BACKEND=vendor:NAME
 * every hint hetGPU reports equals that vendor device's own answer. With HETGPU_BACKEND=riscv the
 * reference is the modelled chip (docs/riscv-simulator.md: 8 x 10 scalar RV64 tiles at a nominal
 * 1 GHz, no data cache, HETGPU_RISCV_DRAM_SIZE of DRAM). In both, the limits are the profile's. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const cl_device_info hint_queries[] = {
    CL_DEVICE_MAX_COMPUTE_UNITS,           CL_DEVICE_MAX_CLOCK_FREQUENCY,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,  CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,    CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,     CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,   CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,       CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,       CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
    CL_DEVICE_HOST_UNIFIED_MEMORY,         CL_DEVICE_LOCAL_MEM_TYPE,
};

/* Any scalar query widened to 64 bits (the value's own size: cl_uint, size_t, cl_ulong...). */
static cl_ulong query(cl_device_id d, cl_device_info what) {
  unsigned char raw[8] = {0};
  size_t size = 0;
  if (clGetDeviceInfo(d, what, sizeof raw, raw, &size) != CL_SUCCESS)
    return ~0ull;
  if (size == 4) {
    cl_uint v;
    memcpy(&v, raw, 4);
    return v;
  }
  cl_ulong v;
  memcpy(&v, raw, 8);
  return v;
}

/* The device of the first platform (not hetGPU) whose platform or device name contains name. */
static cl_device_id vendor_device(const char *name) {
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
    return NULL;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char pname[256] = "", dname[256] = "";
    cl_device_id d;
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    if (ids[i] == hg_test_platform || clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS)
      continue;
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
    if (strstr(pname, name) || strstr(dname, name))
      return d;
  }
  return NULL;
}

/* The profile's limits, whatever the backend. */
static void check_limits(void) {
  CHECK(query(hg_test_device, CL_DEVICE_MAX_WORK_GROUP_SIZE) == 1024);
  CHECK(query(hg_test_device, CL_DEVICE_LOCAL_MEM_SIZE) == 48 * 1024);
  CHECK(query(hg_test_device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) == 64 * 1024);
  CHECK(query(hg_test_device, CL_DEVICE_MAX_PARAMETER_SIZE) == 1024);
  CHECK(query(hg_test_device, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  CHECK(query(hg_test_device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) == 32);
}

/* clGetDeviceIDs finds the device by its type and by no other. */
static void check_type(cl_device_type want) {
  CHECK_MSG(query(hg_test_device, CL_DEVICE_TYPE) == want, "CL_DEVICE_TYPE %#llx, expected %#llx",
            (unsigned long long)query(hg_test_device, CL_DEVICE_TYPE), (unsigned long long)want);
  const cl_device_type kinds[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    cl_device_id d = NULL;
    cl_uint n = 0;
    cl_int err = clGetDeviceIDs(hg_test_platform, kinds[i], 1, &d, &n);
    if (kinds[i] == want)
      CHECK(err == CL_SUCCESS && n == 1 && d == hg_test_device);
    else
      CHECK_ERR(err, CL_DEVICE_NOT_FOUND);
  }
}

/* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE is the device's. */
static void check_kernel_multiple(cl_ulong want) {
  cl_context ctx = hg_test_context();
  cl_program p = hg_test_build(ctx, "kernel void k(global int *a) { a[get_global_id(0)] = 1; }", NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  CHECK_CL(err);
  size_t multiple = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, hg_test_device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                    &multiple, NULL));
  CHECK_MSG(multiple == want, "kernel's multiple %zu, device's %llu", multiple, (unsigned long long)want);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(hints_are_the_starting_vendors) {
  const char *backend = getenv("HETGPU_BACKEND");
  if (!hg_test_is_hetgpu() || !backend || strncmp(backend, "vendor:", 7)) {
    hg_test_skip("needs hetGPU with HETGPU_BACKEND=vendor:NAME");
    return;
  }
  cl_device_id vendor = vendor_device(backend + 7);
  if (!vendor) {
    hg_test_skip("the vendor is not listed by the ICD loader (OCL_ICD_VENDORS)");
    return;
  }
  for (size_t i = 0; i < sizeof hint_queries / sizeof *hint_queries; i++) {
    cl_ulong ours = query(hg_test_device, hint_queries[i]), theirs = query(vendor, hint_queries[i]);
    if (hint_queries[i] == CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE && theirs == ~0ull)
      continue; /* a pre-3.0 vendor: hetGPU reports 1 */
    CHECK_MSG(ours == theirs, "query %#x: hetGPU %llu, the vendor %llu", hint_queries[i], (unsigned long long)ours,
              (unsigned long long)theirs);
  }
  cl_device_type type = query(vendor, CL_DEVICE_TYPE) & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                                        CL_DEVICE_TYPE_ACCELERATOR);
  check_type(type);
  /* memory: the vendor's, global at most four of its largest allocations */
  cl_ulong global = query(vendor, CL_DEVICE_GLOBAL_MEM_SIZE), alloc = query(vendor, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  if (global > 4 * alloc)
    global = 4 * alloc;
  if (!getenv("HETGPU_GLOBAL_MEM_SIZE")) {
    CHECK(query(hg_test_device, CL_DEVICE_GLOBAL_MEM_SIZE) == global);
    CHECK(query(hg_test_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE) == alloc);
  }
  check_kernel_multiple(query(vendor, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) == ~0ull
                            ? 1
                            : query(vendor, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE));
  check_limits();
}

HG_TEST(hints_are_the_riscv_models) {
  const char *backend = getenv("HETGPU_BACKEND"), *dram = getenv("HETGPU_RISCV_DRAM_SIZE");
  if (!hg_test_is_hetgpu() || !backend || strcmp(backend, "riscv")) {
    hg_test_skip("needs hetGPU with HETGPU_BACKEND=riscv");
    return;
  }
  for (size_t i = 0; i < sizeof hint_queries / sizeof *hint_queries; i++) {
    cl_ulong want;
    switch (hint_queries[i]) {
    case CL_DEVICE_MAX_COMPUTE_UNITS: want = 80; break;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: want = 1000; break;
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: want = CL_NONE; break;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    case CL_DEVICE_HOST_UNIFIED_MEMORY: want = 0; break;
    case CL_DEVICE_LOCAL_MEM_TYPE: want = CL_LOCAL; break;
    default: want = 1; /* vector widths and the work-group multiple of scalar cores */
    }
    CHECK_MSG(query(hg_test_device, hint_queries[i]) == want, "query %#x: %llu, expected %llu", hint_queries[i],
              (unsigned long long)query(hg_test_device, hint_queries[i]), (unsigned long long)want);
  }
  check_type(CL_DEVICE_TYPE_ACCELERATOR);
  cl_ulong global = dram ? strtoull(dram, NULL, 0) : 4ull << 30;
  CHECK(query(hg_test_device, CL_DEVICE_GLOBAL_MEM_SIZE) == global);
  CHECK(query(hg_test_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE) == global / 4);
  check_kernel_multiple(1);
  check_limits();
}
