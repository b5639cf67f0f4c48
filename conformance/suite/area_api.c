/* Area api: what the objects say about themselves and how long they live, checked for
 * consistency (platform and device queries agree with each other and with the specification's
 * minimums; context, queue, program and kernel info returns what they were created with;
 * reference counts, destructor callbacks, objects kept alive by the objects that use them;
 * kernel argument info; work-group info and launches that obey it). The exhaustive error-code
 * checks are the platform team's (conformance/api, queues). One program for the whole area. */
#include "suite.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An object is deleted once its last reference and its last pending command are gone, which a
 * driver may complete on a thread of its own a little after the last release: destructor
 * callbacks are waited for (up to 10 s) before their count is checked. */
static int wait_count(atomic_int *counter, int want) {
  for (int i = 0; i < 1000 && atomic_load(counter) < want; i++)
    nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
  nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL); /* a late duplicate would show */
  return atomic_load(counter);
}

#define API_OPTIONS "-cl-kernel-arg-info -DAPI_SCALE=3"

static const char API_SRC[] =
    "typedef struct { int a; float b; } pair_t;\n"
    "__kernel void api_args(__global const float *restrict in, __global volatile int *out, __local float4 *scratch,\n"
    "                       __constant uint *table, uint n, pair_t pair) {\n"
    "  size_t i = get_global_id(0);\n"
    "  scratch[get_local_id(0)] = (float4)(in[i]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[i] = (int)(scratch[get_local_id(0)].x * API_SCALE) + (int)table[i % n] + pair.a + (int)pair.b;\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(8, 4, 1))) void api_reqd(__global uint *o) {\n"
    "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  o[i] = (uint)(get_local_id(1) * 8 + get_local_id(0));\n"
    "}\n"
    "__kernel void api_local(__global uint *o) {\n"
    "  __local uint s[256];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  s[l % 256] = (uint)l;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = s[(n - 1 - l) % 256] + (uint)get_group_id(0) * 1000u;\n"
    "}\n"
    "__kernel void api_axpy(__global int *x, int a, int b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  x[i] = x[i] * a + b;\n"
    "}\n";
static const char *const API_KERNELS[] = {"api_args", "api_reqd", "api_local", "api_axpy"};
#define API_NUM_KERNELS 4

/* The area's program, built once with API_OPTIONS. */
static cl_program api_program(void) {
  static cl_program p;
  static bool tried;
  if (!tried) {
    tried = true;
    p = suite_build(API_SRC, API_OPTIONS);
  } else if (!p)
    suite_fail("the area's program did not build");
  return p;
}

/* A string query: the size the query reports must be strlen + 1. */
static char *info_string(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *obj, cl_uint param,
                         const char *what) {
  size_t n = 0;
  cl_int err = get(obj, param, 0, NULL, &n);
  if (err != CL_SUCCESS || n == 0) {
    suite_fail("%s size query: %d, size %zu", what, err, n);
    return NULL;
  }
  char *s = calloc(1, n + 1);
  size_t n2 = 0;
  err = get(obj, param, n, s, &n2);
  if (err != CL_SUCCESS || n2 != n || strlen(s) + 1 != n) {
    suite_fail("%s: %d, size %zu then %zu, strlen %zu", what, err, n, n2, strlen(s));
    free(s);
    return NULL;
  }
  return s;
}
static cl_int plat_get(void *o, cl_uint p, size_t s, void *v, size_t *r) { return clGetPlatformInfo(o, p, s, v, r); }
static cl_int dev_get(void *o, cl_uint p, size_t s, void *v, size_t *r) { return clGetDeviceInfo(o, p, s, v, r); }

/* Every name of a space-separated list is in the name_version array and the other way round. */
static bool extensions_agree(const char *list, const cl_name_version *nv, size_t count, char *why, size_t size) {
  for (size_t i = 0; i < count; i++) {
    size_t n = strlen(nv[i].name);
    bool found = false;
    for (const char *p = list; !found && (p = strstr(p, nv[i].name)); p += n)
      found = (p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0);
    if (!found) {
      snprintf(why, size, "%s is in the _WITH_VERSION list but not in the string", nv[i].name);
      return false;
    }
  }
  char *copy = strdup(list), *save = NULL;
  for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    bool found = false;
    for (size_t i = 0; i < count && !found; i++)
      found = !strcmp(t, nv[i].name);
    if (!found) {
      snprintf(why, size, "%s is in the string but not in the _WITH_VERSION list", t);
      free(copy);
      return false;
    }
  }
  free(copy);
  return true;
}

/* "OpenCL 3.0 ..." -> 3, 0 */
static bool parse_version(const char *s, const char *prefix, int *major, int *minor) {
  size_t n = strlen(prefix);
  return !strncmp(s, prefix, n) && sscanf(s + n, "%d.%d", major, minor) == 2;
}

SUITE_TEST(api, platform_info) {
  char *profile = info_string(plat_get, S.platform, CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE");
  char *version = info_string(plat_get, S.platform, CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION");
  char *name = info_string(plat_get, S.platform, CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
  char *vendor = info_string(plat_get, S.platform, CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR");
  char *exts = info_string(plat_get, S.platform, CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS");
  if (!suite_failed()) {
    int ma = 0, mi = 0;
    if (strcmp(profile, "FULL_PROFILE") && strcmp(profile, "EMBEDDED_PROFILE"))
      suite_fail("CL_PLATFORM_PROFILE '%s'", profile);
    else if (!parse_version(version, "OpenCL ", &ma, &mi))
      suite_fail("CL_PLATFORM_VERSION '%s' is not 'OpenCL <major>.<minor> ...'", version);
    else if (strcmp(name, S.platform_name))
      suite_fail("CL_PLATFORM_NAME changed: '%s', then '%s'", S.platform_name, name);
    else if (!*vendor)
      suite_fail("empty CL_PLATFORM_VENDOR");
    else if (ma >= 3) {
      cl_version nv = 0;
      CL_OK(clGetPlatformInfo(S.platform, CL_PLATFORM_NUMERIC_VERSION, sizeof nv, &nv, NULL));
      REQUIRE(CL_VERSION_MAJOR(nv) == (cl_uint)ma && CL_VERSION_MINOR(nv) == (cl_uint)mi,
              "CL_PLATFORM_NUMERIC_VERSION %u.%u, the string says %d.%d", CL_VERSION_MAJOR(nv), CL_VERSION_MINOR(nv),
              ma, mi);
      size_t sz = 0;
      CL_OK(clGetPlatformInfo(S.platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &sz));
      REQUIRE(sz % sizeof(cl_name_version) == 0, "CL_PLATFORM_EXTENSIONS_WITH_VERSION size %zu", sz);
      cl_name_version *list = malloc(sz + 1);
      CL_OK(clGetPlatformInfo(S.platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sz, list, NULL));
      char why[256];
      if (!extensions_agree(exts, list, sz / sizeof *list, why, sizeof why))
        suite_fail("platform extensions: %s", why);
      free(list);
      cl_ulong res = 0;
      size_t rs = 0;
      CL_OK(clGetPlatformInfo(S.platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, &rs));
      REQUIRE(rs == sizeof res, "CL_PLATFORM_HOST_TIMER_RESOLUTION size %zu", rs);
    }
  }
  free(profile), free(version), free(name), free(vendor), free(exts);
}

/* Devices by type: the device is found by its own type, by ALL and by DEFAULT (one device). */
SUITE_TEST(api, device_ids_by_type) {
  cl_device_type t = 0;
  CL_OK(clGetDeviceInfo(S.device, CL_DEVICE_TYPE, sizeof t, &t, NULL));
  cl_uint n_all = 0, n_t = 0, n_def = 0;
  CL_OK(clGetDeviceIDs(S.platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n_all));
  CL_OK(clGetDeviceIDs(S.platform, t & ~(cl_device_type)CL_DEVICE_TYPE_DEFAULT, 0, NULL, &n_t));
  CL_OK(clGetDeviceIDs(S.platform, CL_DEVICE_TYPE_DEFAULT, 0, NULL, &n_def));
  REQUIRE(n_all >= 1 && n_t >= 1 && n_t <= n_all && n_def == 1, "device counts: all %u, own type %u, default %u", n_all,
          n_t, n_def);
  cl_device_id *ids = calloc(n_all, sizeof *ids);
  CL_OK(clGetDeviceIDs(S.platform, CL_DEVICE_TYPE_ALL, n_all, ids, NULL));
  bool found = false;
  for (cl_uint i = 0; i < n_all; i++) {
    found |= ids[i] == S.device;
    cl_platform_id p = NULL;
    CL_OK(clGetDeviceInfo(ids[i], CL_DEVICE_PLATFORM, sizeof p, &p, NULL));
    if (p != S.platform)
      suite_fail("device %u reports another platform", i);
  }
  free(ids);
  REQUIRE(found, "the device is not among CL_DEVICE_TYPE_ALL's");
}

SUITE_TEST(api, device_info_consistency) {
  cl_device_id d = S.device;
  cl_uint dims = 0, cu = 0, align = 0, addr = 0;
  size_t wg = 0, sizes[16] = {0}, rs = 0, param = 0;
  cl_ulong global = 0, alloc = 0, local = 0, cache = 0, cbuf = 0;
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL));
  REQUIRE(cu >= 1 && dims >= 3 && dims <= 16, "compute units %u, work-item dimensions %u", cu, dims);
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, &rs));
  REQUIRE(rs == dims * sizeof(size_t), "CL_DEVICE_MAX_WORK_ITEM_SIZES returned %zu bytes for %u dimensions", rs, dims);
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, &rs));
  REQUIRE(rs == sizeof wg && wg >= 1, "CL_DEVICE_MAX_WORK_GROUP_SIZE %zu (%zu bytes)", wg, rs);
  for (cl_uint j = 0; j < 3; j++)
    REQUIRE(sizes[j] >= 1, "CL_DEVICE_MAX_WORK_ITEM_SIZES[%u] = %zu", j, sizes[j]);
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof cbuf, &cbuf, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_ADDRESS_BITS, sizeof addr, &addr, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof param, &param, NULL));
  char *profile = info_string(dev_get, d, CL_DEVICE_PROFILE, "CL_DEVICE_PROFILE");
  char *version = info_string(dev_get, d, CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
  char *cver = info_string(dev_get, d, CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION");
  char *exts = info_string(dev_get, d, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS");
  char *drv = info_string(dev_get, d, CL_DRIVER_VERSION, "CL_DRIVER_VERSION");
  if (suite_failed())
    goto out;
  bool full = !strcmp(profile, "FULL_PROFILE");
  cl_ulong min_alloc = global / 4 < 1024ull * 1024 * 1024 ? global / 4 : 1024ull * 1024 * 1024;
  if (min_alloc < (full ? 32ull : 1ull) * 1024 * 1024)
    min_alloc = (full ? 32ull : 1ull) * 1024 * 1024;
  if (alloc < min_alloc || alloc > global)
    suite_fail("CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu outside [%llu, global %llu]", (unsigned long long)alloc,
               (unsigned long long)min_alloc, (unsigned long long)global);
  else if (full && (local < 32 * 1024 || cbuf < 64 * 1024 || param < 1024))
    suite_fail("full profile minimums: local %llu (32K), constant buffer %llu (64K), parameter size %zu (1024)",
               (unsigned long long)local, (unsigned long long)cbuf, param);
  else if (align < 8 * 128) /* the size of long16 in bits */
    suite_fail("CL_DEVICE_MEM_BASE_ADDR_ALIGN %u bits < 1024", align);
  else if (addr != 32 && addr != 64)
    suite_fail("CL_DEVICE_ADDRESS_BITS %u", addr);
  int ma = 0, mi = 0, cma = 0, cmi = 0;
  if (!suite_failed() && !parse_version(version, "OpenCL ", &ma, &mi))
    suite_fail("CL_DEVICE_VERSION '%s'", version);
  else if (!suite_failed() && !parse_version(cver, "OpenCL C ", &cma, &cmi))
    suite_fail("CL_DEVICE_OPENCL_C_VERSION '%s'", cver);
  if (suite_failed())
    goto out;
  /* floating-point configurations: the specification's minimums */
  cl_device_fp_config sp = 0, dp = 0;
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_SINGLE_FP_CONFIG, sizeof sp, &sp, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dp, &dp, NULL));
  cl_uint pvd = 0, nvd = 0;
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof pvd, &pvd, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof nvd, &nvd, NULL));
  if (full && (sp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) != (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN))
    suite_fail("CL_DEVICE_SINGLE_FP_CONFIG 0x%llx lacks round-to-nearest or inf/nan", (unsigned long long)sp);
  cl_device_fp_config dmin = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
  if (S.fp64 && (dp & dmin) != dmin)
    suite_fail("cl_khr_fp64 but CL_DEVICE_DOUBLE_FP_CONFIG 0x%llx lacks the minimum 0x%llx", (unsigned long long)dp,
               (unsigned long long)dmin);
  if (!S.fp64 && (dp || pvd || nvd))
    suite_fail("no cl_khr_fp64 but double config 0x%llx, vector widths %u/%u", (unsigned long long)dp, pvd, nvd);
  if (S.fp64 && (!pvd || !nvd))
    suite_fail("cl_khr_fp64 but double vector widths %u/%u", pvd, nvd);
  cl_bool avail = 0, comp = 0, link = 0, little = 0;
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_AVAILABLE, sizeof avail, &avail, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_COMPILER_AVAILABLE, sizeof comp, &comp, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_LINKER_AVAILABLE, sizeof link, &link, NULL));
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL));
  if (!avail || (full && (!comp || !link)))
    suite_fail("available %u, compiler %u, linker %u", avail, comp, link);
  cl_command_queue_properties qp = 0;
  CL_OK(clGetDeviceInfo(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof qp, &qp, NULL));
  if (!(qp & CL_QUEUE_PROFILING_ENABLE))
    suite_fail("CL_DEVICE_QUEUE_ON_HOST_PROPERTIES 0x%llx lacks profiling", (unsigned long long)qp);
  if (ma >= 3 && !suite_failed()) {
    cl_version nv = 0;
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_NUMERIC_VERSION, sizeof nv, &nv, NULL));
    REQUIRE(CL_VERSION_MAJOR(nv) == (cl_uint)ma && CL_VERSION_MINOR(nv) == (cl_uint)mi,
            "CL_DEVICE_NUMERIC_VERSION %u.%u, the string says %d.%d", CL_VERSION_MAJOR(nv), CL_VERSION_MINOR(nv), ma, mi);
    size_t sz = 0;
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &sz));
    cl_name_version *list = malloc(sz + 1);
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, sz, list, NULL));
    char why[256];
    if (!extensions_agree(exts, list, sz / sizeof *list, why, sizeof why))
      suite_fail("device extensions: %s", why);
    free(list);
    /* every OpenCL C version up to 1.2 is supported by a 3.0 device that says 1.2 or more */
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &sz));
    list = malloc(sz + 1);
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sz, list, NULL));
    bool has12 = false, has_cver = false;
    for (size_t i = 0; i < sz / sizeof *list; i++) {
      has12 |= CL_VERSION_MAJOR(list[i].version) == 1 && CL_VERSION_MINOR(list[i].version) == 2;
      has_cver |= (int)CL_VERSION_MAJOR(list[i].version) == cma && (int)CL_VERSION_MINOR(list[i].version) == cmi;
    }
    free(list);
    if (!has_cver || (cma * 10 + cmi >= 12 && !has12))
      suite_fail("CL_DEVICE_OPENCL_C_ALL_VERSIONS lacks %d.%d or 1.2", cma, cmi);
    /* 3.0 feature macros agree with the extensions they mirror */
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &sz));
    list = malloc(sz + 1);
    CL_OK(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, sz, list, NULL));
    bool fp64_feature = false;
    for (size_t i = 0; i < sz / sizeof *list; i++)
      fp64_feature |= !strcmp(list[i].name, "__opencl_c_fp64");
    free(list);
    if (fp64_feature != S.fp64)
      suite_fail("__opencl_c_fp64 feature %d but cl_khr_fp64 %d", fp64_feature, S.fp64);
  }
out:
  free(profile), free(version), free(cver), free(exts), free(drv);
}

static atomic_int destructor_calls;
static void CL_CALLBACK on_context_destroyed(cl_context c, void *user) {
  (void)c;
  atomic_fetch_add(&destructor_calls, *(int *)user);
}

/* A context lives while its queue does; the destructor callback runs once, after the last
 * release of the last object that keeps it. */
SUITE_TEST(api, context_info_and_lifetime) {
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)S.platform, 0};
  cl_context c = clCreateContext(props, 1, &S.device, NULL, NULL, &err);
  CL_OK(err);
  cl_uint refs = 0, ndev = 0;
  cl_device_id dev = NULL;
  cl_context_properties got[8] = {0};
  size_t psz = 0;
  CL_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL));
  CL_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL));
  CL_OK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &psz));
  REQUIRE(ndev == 1 && dev == S.device, "CL_CONTEXT_NUM_DEVICES %u, device %p", ndev, (void *)dev);
  REQUIRE(psz == sizeof props && !memcmp(got, props, sizeof props), "CL_CONTEXT_PROPERTIES: %zu bytes, not the list given",
          psz);
  CL_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  REQUIRE(refs == 1, "new context: reference count %u", refs);
  CL_OK(clRetainContext(c));
  CL_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  REQUIRE(refs == 2, "after a retain: reference count %u", refs);
  CL_OK(clReleaseContext(c));
  static int one = 1;
  atomic_store(&destructor_calls, 0);
  CL_OK(clSetContextDestructorCallback(c, on_context_destroyed, &one));
  cl_command_queue q = clCreateCommandQueueWithProperties(c, S.device, NULL, &err);
  CL_OK(err);
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096, NULL, &err);
  CL_OK(err);
  CL_OK(clReleaseContext(c)); /* the queue and the buffer keep it */
  REQUIRE(atomic_load(&destructor_calls) == 0, "context destroyed while its queue and buffer live");
  uint32_t pattern = suite_rand(), back[1024];
  CL_OK(clEnqueueFillBuffer(q, m, &pattern, 4, 0, 4096, 0, NULL, NULL));
  CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4096, back, 0, NULL, NULL));
  for (int i = 0; i < 1024; i++)
    REQUIRE(back[i] == pattern, "fill through a queue of a released context: word %d is 0x%x", i, back[i]);
  cl_context qc = NULL;
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
  REQUIRE(qc == c, "CL_QUEUE_CONTEXT changed");
  CL_OK(clReleaseMemObject(m));
  REQUIRE(atomic_load(&destructor_calls) == 0, "context destroyed while its queue lives");
  CL_OK(clReleaseCommandQueue(q));
  int calls = wait_count(&destructor_calls, 1);
  REQUIRE(calls == 1, "context destructor callback ran %d times after the last release", calls);
  /* from type */
  cl_device_type t = 0;
  CL_OK(clGetDeviceInfo(S.device, CL_DEVICE_TYPE, sizeof t, &t, NULL));
  c = clCreateContextFromType(props, t & ~(cl_device_type)CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
  CL_OK(err);
  CL_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL));
  REQUIRE(ndev >= 1, "context from type: %u devices", ndev);
  CL_OK(clReleaseContext(c));
}

SUITE_TEST(api, queue_info) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(S.ctx, S.device, props, &err);
  CL_OK(err);
  cl_context c = NULL;
  cl_device_id d = NULL;
  cl_command_queue_properties p = 0;
  cl_uint refs = 0;
  cl_queue_properties arr[8] = {0};
  size_t asz = 0;
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL));
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL));
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  REQUIRE(c == S.ctx && d == S.device && p == CL_QUEUE_PROFILING_ENABLE && refs == 1,
          "queue info: context %d, device %d, properties 0x%llx, references %u", c == S.ctx, d == S.device,
          (unsigned long long)p, refs);
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof arr, arr, &asz));
  REQUIRE(asz == sizeof props && !memcmp(arr, props, sizeof props), "CL_QUEUE_PROPERTIES_ARRAY: %zu bytes, not the list given",
          asz);
  CL_OK(clReleaseCommandQueue(q));
  cl_command_queue_properties dev_props = 0;
  CL_OK(clGetDeviceInfo(S.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof dev_props, &dev_props, NULL));
  if (dev_props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    q = clCreateCommandQueueWithProperties(S.ctx, S.device, ooo, &err);
    CL_OK(err);
    CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
    REQUIRE(p == CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, "out-of-order queue reports 0x%llx", (unsigned long long)p);
    CL_OK(clReleaseCommandQueue(q));
  }
  /* the deprecated constructor is the same queue */
  q = clCreateCommandQueue(S.ctx, S.device, CL_QUEUE_PROFILING_ENABLE, &err);
  CL_OK(err);
  CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
  REQUIRE(p == CL_QUEUE_PROFILING_ENABLE, "clCreateCommandQueue: properties 0x%llx", (unsigned long long)p);
  CL_OK(clReleaseCommandQueue(q));
}

SUITE_TEST(api, program_info) {
  cl_program p = api_program();
  if (!p)
    return;
  size_t nk = 0, sz = 0;
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  REQUIRE(nk == API_NUM_KERNELS, "CL_PROGRAM_NUM_KERNELS %zu, expected %d", nk, API_NUM_KERNELS);
  char names[512] = "";
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, &sz));
  REQUIRE(sz == strlen(names) + 1, "CL_PROGRAM_KERNEL_NAMES size %zu for '%s'", sz, names);
  for (int i = 0; i < API_NUM_KERNELS; i++) {
    bool found = false;
    size_t n = strlen(API_KERNELS[i]);
    for (const char *q = names; !found && (q = strstr(q, API_KERNELS[i])); q += n)
      found = (q == names || q[-1] == ';') && (q[n] == ';' || q[n] == 0);
    REQUIRE(found, "CL_PROGRAM_KERNEL_NAMES '%s' lacks %s", names, API_KERNELS[i]);
  }
  static char src[sizeof API_SRC + 16];
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, &sz));
  REQUIRE(sz == sizeof API_SRC && !strcmp(src, API_SRC), "CL_PROGRAM_SOURCE differs from the source given (%zu bytes)", sz);
  cl_context c = NULL;
  cl_uint nd = 0, refs = 0;
  cl_device_id d = NULL;
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof c, &c, NULL));
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof nd, &nd, NULL));
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof d, &d, NULL));
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  REQUIRE(c == S.ctx && nd == 1 && d == S.device && refs >= 1, "program context/devices/references wrong (%u devices, %u refs)",
          nd, refs);
  cl_build_status st = CL_BUILD_NONE;
  cl_program_binary_type bt = 0;
  char opts[256] = "";
  CL_OK(clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
  CL_OK(clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CL_OK(clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL));
  REQUIRE(st == CL_BUILD_SUCCESS && bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "build status %d, binary type %u", st, bt);
  REQUIRE(!strcmp(opts, API_OPTIONS), "CL_PROGRAM_BUILD_OPTIONS '%s', built with '%s'", opts, API_OPTIONS);
  /* every kernel at once, with the right names */
  cl_kernel ks[8];
  cl_uint n = 0;
  CL_OK(clCreateKernelsInProgram(p, 8, ks, &n));
  REQUIRE(n == API_NUM_KERNELS, "clCreateKernelsInProgram made %u kernels", n);
  int seen = 0;
  for (cl_uint i = 0; i < n; i++) {
    char kn[64] = "";
    CL_OK(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof kn, kn, NULL));
    for (int j = 0; j < API_NUM_KERNELS; j++)
      if (!strcmp(kn, API_KERNELS[j]))
        seen |= 1 << j;
    clReleaseKernel(ks[i]);
  }
  REQUIRE(seen == (1 << API_NUM_KERNELS) - 1, "kernel names from clCreateKernelsInProgram: mask 0x%x", seen);
  cl_int err;
  cl_kernel bad = clCreateKernel(p, "no_such_kernel", &err);
  REQUIRE(!bad && err == CL_INVALID_KERNEL_NAME, "clCreateKernel of a missing name: %d", err);
}

/* A kernel keeps its program, and the program its context: release both and the kernel still
 * runs; the reference counts say so along the way. */
SUITE_TEST(api, kernel_keeps_program_alive) {
  /* a program of its own (the area's one stays alive for the other tests) */
  cl_program prog = suite_build("__kernel void api_axpy(__global int *x, int a, int b) {\n"
                                "  size_t i = get_global_id(0);\n  x[i] = x[i] * a + b;\n}\n",
                                "");
  if (!prog)
    return;
  cl_kernel k = suite_kernel(prog, "api_axpy");
  if (!k) {
    clReleaseProgram(prog);
    return;
  }
  cl_uint refs = 0;
  CL_OK(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  REQUIRE(refs == 1, "new kernel: reference count %u", refs);
  cl_program kp = NULL;
  CL_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL));
  REQUIRE(kp == prog, "CL_KERNEL_PROGRAM is not the program");
  CL_OK(clReleaseProgram(prog));
  size_t n = 1024;
  int32_t *x = malloc(n * 4), *o = malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    x[i] = (int32_t)(suite_rand() % 100000) - 50000;
  int a = (int)(suite_rand() % 50) - 25, b = (int)(suite_rand() % 1000);
  cl_mem m = suite_buffer(n * 4, x);
  if (m && suite_args(k, 3, sizeof m, &m, sizeof a, &a, sizeof b, &b) && suite_run1(k, n, 64) && suite_read(m, o, n * 4))
    for (size_t i = 0; i < n; i++)
      if (o[i] != x[i] * a + b) {
        suite_fail("item %zu: %d, expected %d", i, o[i], x[i] * a + b);
        break;
      }
  free(x), free(o);
  if (m)
    clReleaseMemObject(m);
  clReleaseKernel(k);
}

/* clCloneKernel copies the arguments set so far; the two kernels then go their own ways. */
SUITE_TEST(api, clone_kernel) {
  cl_program p = api_program();
  cl_kernel k = p ? suite_kernel(p, "api_axpy") : NULL;
  if (!k)
    return;
  size_t n = 512;
  int32_t *x = malloc(n * 4), *o1 = malloc(n * 4), *o2 = malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    x[i] = (int32_t)(suite_rand() % 1000);
  cl_mem m1 = suite_buffer(n * 4, x), m2 = suite_buffer(n * 4, x);
  int a = 3, b = 11, a2 = -7;
  cl_int err;
  cl_kernel c = NULL;
  if (suite_args(k, 3, sizeof m1, &m1, sizeof a, &a, sizeof b, &b)) {
    c = clCloneKernel(k, &err);
    if (err != CL_SUCCESS)
      suite_fail("clCloneKernel: %d", err);
  }
  /* change the original after cloning: the clone keeps (m1, 3, 11) except what it sets */
  if (c && suite_args(k, 2, sizeof m2, &m2, sizeof a2, &a2) && clSetKernelArg(c, 2, sizeof a2, &a2) == CL_SUCCESS &&
      suite_run1(k, n, 64) && suite_run1(c, n, 64) && suite_read(m1, o1, n * 4) && suite_read(m2, o2, n * 4))
    for (size_t i = 0; i < n; i++) {
      if (o2[i] != x[i] * a2 + b) {
        suite_fail("original kernel, item %zu: %d, expected %d", i, o2[i], x[i] * a2 + b);
        break;
      }
      if (o1[i] != x[i] * a + a2) {
        suite_fail("cloned kernel, item %zu: %d, expected %d", i, o1[i], x[i] * a + a2);
        break;
      }
    }
  free(x), free(o1), free(o2);
  if (m1) clReleaseMemObject(m1);
  if (m2) clReleaseMemObject(m2);
  if (c) clReleaseKernel(c);
  clReleaseKernel(k);
}

SUITE_TEST(api, kernel_info_and_arg_info) {
  cl_program p = api_program();
  cl_kernel k = p ? suite_kernel(p, "api_args") : NULL;
  if (!k)
    return;
  cl_uint nargs = 0;
  char fname[64] = "", attrs[256] = "";
  cl_context c = NULL;
  CL_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  CL_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof fname, fname, NULL));
  CL_OK(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof c, &c, NULL));
  CL_OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
  REQUIRE(nargs == 6 && !strcmp(fname, "api_args") && c == S.ctx && attrs[0] == 0,
          "kernel info: %u args, name '%s', attributes '%s'", nargs, fname, attrs);
  static const struct {
    cl_kernel_arg_address_qualifier aq;
    const char *type, *name;
    cl_kernel_arg_type_qualifier tq;
  } want[6] = {
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, "float*", "in", CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, "int*", "out", CL_KERNEL_ARG_TYPE_VOLATILE},
      {CL_KERNEL_ARG_ADDRESS_LOCAL, "float4*", "scratch", CL_KERNEL_ARG_TYPE_NONE},
      {CL_KERNEL_ARG_ADDRESS_CONSTANT, "uint*", "table", CL_KERNEL_ARG_TYPE_CONST},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, "uint", "n", CL_KERNEL_ARG_TYPE_NONE},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, "pair_t", "pair", CL_KERNEL_ARG_TYPE_NONE},
  };
  for (cl_uint i = 0; i < 6; i++) {
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_access_qualifier acc = 0;
    cl_kernel_arg_type_qualifier tq = 0;
    char type[64] = "", name[64] = "";
    CL_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CL_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
    CL_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    CL_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    CL_OK(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    /* the constant address space implies const; either report is accepted for it */
    cl_kernel_arg_type_qualifier tq_ok = want[i].tq, tq_alt = want[i].tq;
    if (want[i].aq == CL_KERNEL_ARG_ADDRESS_CONSTANT)
      tq_alt = CL_KERNEL_ARG_TYPE_NONE;
    if (aq != want[i].aq || acc != CL_KERNEL_ARG_ACCESS_NONE || (tq != tq_ok && tq != tq_alt) ||
        strcmp(type, want[i].type) || strcmp(name, want[i].name)) {
      suite_fail("argument %u: address 0x%x access 0x%x type-qualifier 0x%llx type '%s' name '%s'; expected 0x%x 0x%x "
                 "0x%llx '%s' '%s'",
                 i, aq, acc, (unsigned long long)tq, type, name, want[i].aq, CL_KERNEL_ARG_ACCESS_NONE,
                 (unsigned long long)want[i].tq, want[i].type, want[i].name);
      break;
    }
  }
  cl_kernel_arg_address_qualifier aq;
  cl_int err = clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
  if (!suite_failed() && err != CL_INVALID_ARG_INDEX)
    suite_fail("clGetKernelArgInfo past the last argument: %d", err);
  /* and the kernel runs with every kind of argument */
  size_t n = 256, local = 64;
  float *in = malloc(n * 4);
  int32_t *out = malloc(n * 4);
  uint32_t table[16];
  for (size_t i = 0; i < n; i++)
    in[i] = (float)(suite_rand() % 1000);
  for (int i = 0; i < 16; i++)
    table[i] = suite_rand() % 1000;
  cl_uint tn = 13;
  struct { int32_t a; float b; } pair = {(int32_t)(suite_rand() % 100), 7.0f};
  cl_mem mi = suite_buffer(n * 4, in), mo = suite_buffer(n * 4, NULL), mt = suite_buffer(sizeof table, table);
  if (!suite_failed() && suite_args(k, 6, sizeof mi, &mi, sizeof mo, &mo, local * 16, NULL, sizeof mt, &mt, sizeof tn, &tn,
                                    sizeof pair, &pair) &&
      suite_run1(k, n, local) && suite_read(mo, out, n * 4))
    for (size_t i = 0; i < n; i++) {
      int32_t w = (int32_t)in[i] * 3 + (int32_t)table[i % tn] + pair.a + 7;
      if (out[i] != w) {
        suite_fail("item %zu: %d, expected %d", i, out[i], w);
        break;
      }
    }
  free(in), free(out);
  if (mi) clReleaseMemObject(mi);
  if (mo) clReleaseMemObject(mo);
  if (mt) clReleaseMemObject(mt);
  clReleaseKernel(k);
}

SUITE_TEST(api, work_group_info) {
  cl_program p = api_program();
  cl_kernel kr = p ? suite_kernel(p, "api_reqd") : NULL;
  cl_kernel kl = kr ? suite_kernel(p, "api_local") : NULL;
  if (!kl) {
    if (kr) clReleaseKernel(kr);
    return;
  }
  size_t cwg[3] = {9, 9, 9}, cwg_none[3] = {9, 9, 9}, wg = 0, mult = 0;
  cl_ulong lmem = 0, pmem = 0;
  char attrs[256] = "";
  CL_OK(clGetKernelWorkGroupInfo(kr, S.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
  CL_OK(clGetKernelWorkGroupInfo(kl, S.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg_none, cwg_none, NULL));
  REQUIRE(cwg[0] == 8 && cwg[1] == 4 && cwg[2] == 1, "reqd_work_group_size(8,4,1) reported as (%zu,%zu,%zu)", cwg[0],
          cwg[1], cwg[2]);
  REQUIRE(!cwg_none[0] && !cwg_none[1] && !cwg_none[2], "no attribute, yet CL_KERNEL_COMPILE_WORK_GROUP_SIZE (%zu,%zu,%zu)",
          cwg_none[0], cwg_none[1], cwg_none[2]);
  CL_OK(clGetKernelInfo(kr, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
  char packed[256]; /* spacing is the implementation's: compare without blanks */
  size_t np = 0;
  for (const char *c = attrs; *c && np + 1 < sizeof packed; c++)
    if (*c != ' ')
      packed[np++] = *c;
  packed[np] = 0;
  REQUIRE(strstr(packed, "reqd_work_group_size(8,4,1)"), "CL_KERNEL_ATTRIBUTES '%s'", attrs);
  CL_OK(clGetKernelWorkGroupInfo(kl, S.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  CL_OK(clGetKernelWorkGroupInfo(kl, S.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult, &mult, NULL));
  CL_OK(clGetKernelWorkGroupInfo(kl, S.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
  CL_OK(clGetKernelWorkGroupInfo(kl, S.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem, &pmem, NULL));
  REQUIRE(wg >= 1 && wg <= S.max_wg && mult >= 1 && mult <= wg, "CL_KERNEL_WORK_GROUP_SIZE %zu (device %zu), multiple %zu",
          wg, S.max_wg, mult);
  REQUIRE(lmem >= 1024 && lmem <= S.local_mem, "CL_KERNEL_LOCAL_MEM_SIZE %llu for a __local uint[256] (device %llu)",
          (unsigned long long)lmem, (unsigned long long)S.local_mem);
  /* the largest group the kernel accepts runs, every item in place */
  size_t groups = 3, n = wg * groups;
  uint32_t *o = malloc(n * 4);
  cl_mem mo = suite_buffer(n * 4, NULL);
  if (mo && suite_args(kl, 1, sizeof mo, &mo) && suite_run1(kl, n, wg) && suite_read(mo, o, n * 4))
    for (size_t i = 0; i < n; i++) {
      /* with more than 256 items several share a slot of s[]: the values are then not checked */
      uint32_t w = (uint32_t)(wg - 1 - i % wg);
      if (wg <= 256 && o[i] != w + (uint32_t)(i / wg) * 1000u) {
        suite_fail("local size %zu, item %zu: %u, expected %u", wg, i, o[i], w + (uint32_t)(i / wg) * 1000u);
        break;
      }
    }
  free(o);
  if (mo) clReleaseMemObject(mo);
  /* the required size runs; another size is refused */
  size_t gl[2] = {32, 16}, lo[2] = {8, 4}, bad[2] = {4, 8};
  uint32_t r[512];
  cl_mem mr = suite_buffer(sizeof r, NULL);
  if (mr && suite_args(kr, 1, sizeof mr, &mr)) {
    cl_int err = clEnqueueNDRangeKernel(S.q, kr, 2, NULL, gl, bad, 0, NULL, NULL);
    if (err != CL_INVALID_WORK_GROUP_SIZE)
      suite_fail("local size (4,8) for reqd_work_group_size(8,4,1): %d, expected CL_INVALID_WORK_GROUP_SIZE", err);
    else if (suite_run(kr, 2, gl, lo) && suite_read(mr, r, sizeof r))
      for (size_t i = 0; i < 512; i++) {
        size_t x = i % 32, y = i / 32;
        if (r[i] != (uint32_t)((y % 4) * 8 + x % 8)) {
          suite_fail("reqd size launch, item (%zu,%zu): %u", x, y, r[i]);
          break;
        }
      }
  }
  if (mr) clReleaseMemObject(mr);
  clReleaseKernel(kr);
  clReleaseKernel(kl);
}

static atomic_int mem_order[4], mem_calls;
static void CL_CALLBACK on_mem_destroyed(cl_mem m, void *user) {
  (void)m;
  int i = atomic_fetch_add(&mem_calls, 1);
  if (i < 4)
    atomic_store(&mem_order[i], (int)(intptr_t)user);
}

/* Buffers: reference counts, a sub-buffer keeps its parent, destructor callbacks run after the
 * last release in the reverse order of registration. */
SUITE_TEST(api, mem_object_lifetime) {
  cl_int err;
  cl_uint align_bits = 0;
  CL_OK(clGetDeviceInfo(S.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t align = align_bits / 8, size = 4 * align + 4096;
  cl_mem parent = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  CL_OK(err);
  atomic_store(&mem_calls, 0);
  CL_OK(clSetMemObjectDestructorCallback(parent, on_mem_destroyed, (void *)(intptr_t)1));
  CL_OK(clSetMemObjectDestructorCallback(parent, on_mem_destroyed, (void *)(intptr_t)2));
  cl_buffer_region reg = {align, 4096};
  cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
  CL_OK(err);
  cl_uint refs = 0;
  CL_OK(clGetMemObjectInfo(sub, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  REQUIRE(refs == 1, "new sub-buffer: reference count %u", refs);
  CL_OK(clReleaseMemObject(parent)); /* the sub-buffer keeps it */
  REQUIRE(atomic_load(&mem_calls) == 0, "parent destroyed while its sub-buffer lives");
  uint32_t pattern = suite_rand(), back[1024];
  CL_OK(clEnqueueFillBuffer(S.q, sub, &pattern, 4, 0, 4096, 0, NULL, NULL));
  CL_OK(clEnqueueReadBuffer(S.q, sub, CL_TRUE, 0, 4096, back, 0, NULL, NULL));
  for (int i = 0; i < 1024; i++)
    REQUIRE(back[i] == pattern, "sub-buffer of a released parent: word %d is 0x%x", i, back[i]);
  cl_mem assoc = NULL;
  size_t off = 0;
  CL_OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CL_OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL));
  REQUIRE(assoc == parent && off == align, "sub-buffer: associated %d, offset %zu", assoc == parent, off);
  CL_OK(clReleaseMemObject(sub));
  clFinish(S.q);
  int calls = wait_count(&mem_calls, 2);
  REQUIRE(calls == 2, "destructor callbacks ran %d times after the last release", calls);
  REQUIRE(atomic_load(&mem_order[0]) == 2 && atomic_load(&mem_order[1]) == 1,
          "destructor callbacks ran in the order %d, %d (the reverse of registration is 2, 1)", atomic_load(&mem_order[0]),
          atomic_load(&mem_order[1]));
}
