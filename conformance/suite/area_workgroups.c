/* Area workgroups: work-item functions in 1, 2 and 3 dimensions with global offsets (and with
 * dimindx out of range), barriers and local memory (reductions, multi-phase exchanges, local
 * arguments), async copies. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

/* The area's kernels, one program (defined at the end, after their sources). */
static suite_batch *batch(void);

static const char WI_SRC[] =
    "__kernel void wg_items(__global uint *o) {\n"
    "  uint d = get_work_dim();\n"
    "  size_t lin = 0, stride = 1;\n"
    "  for (uint j = 0; j < d; j++) { lin += (get_global_id(j) - get_global_offset(j)) * stride; stride *= get_global_size(j); }\n"
    "  __global uint *r = o + lin * 22;\n"
    "  r[0] = d;\n"
    "  for (uint j = 0; j < 3; j++) {\n"
    "    r[1 + j * 7] = get_global_id(j); r[2 + j * 7] = get_local_id(j); r[3 + j * 7] = get_group_id(j);\n"
    "    r[4 + j * 7] = get_global_size(j); r[5 + j * 7] = get_local_size(j); r[6 + j * 7] = get_num_groups(j);\n"
    "    r[7 + j * 7] = get_global_offset(j);\n"
    "  }\n}\n";

/* A random NDRange of `dims` dimensions: 2-4 groups and a random offset per dimension, the
 * unused dimensions 1/1/0. Returns the number of work-items. */
static size_t random_ndrange(cl_uint dims, size_t gl[3], size_t lo[3], size_t off[3]) {
  static const size_t LS[3][3] = {{64, 1, 1}, {8, 4, 1}, {4, 2, 2}};
  size_t total = 1;
  for (cl_uint j = 0; j < 3; j++) {
    gl[j] = lo[j] = 1;
    off[j] = 0;
    if (j < dims) {
      lo[j] = LS[dims - 1][j];
      gl[j] = lo[j] * (2 + suite_rand() % 3);
      off[j] = suite_rand() % 1000;
    }
    total *= gl[j];
  }
  return total;
}

static void workitem_dims(cl_uint dims) {
  size_t gl[3], lo[3], off[3];
  size_t total = random_ndrange(dims, gl, lo, off);
  cl_kernel k = suite_batch_kernel(batch(), "wg_items");
  if (!k)
    return;
  cl_mem o = suite_buffer(total * 22 * 4, NULL);
  uint32_t *r = malloc(total * 22 * 4);
  cl_int err = o ? clSetKernelArg(k, 0, sizeof o, &o) : CL_INVALID_MEM_OBJECT;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(S.q, k, dims, off, gl, lo, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    suite_fail("launch: %d", err);
  else if (suite_read(o, r, total * 22 * 4)) {
    for (size_t i = 0; i < total && !suite_failed(); i++) {
      size_t id[3] = {i % gl[0], (i / gl[0]) % gl[1], i / gl[0] / gl[1]};
      const uint32_t *e = r + i * 22;
      if (e[0] != dims) {
        suite_fail("item %zu: get_work_dim %u, expected %u", i, e[0], dims);
        break;
      }
      for (int j = 0; j < 3; j++) {
        bool in = (cl_uint)j < dims;
        uint32_t want[7] = {(uint32_t)(id[j] + off[j]), (uint32_t)(id[j] % lo[j]), (uint32_t)(id[j] / lo[j]),
                            (uint32_t)gl[j], (uint32_t)lo[j], (uint32_t)(gl[j] / lo[j]), (uint32_t)off[j]};
        if (!in) { /* dimensions past work_dim: ids 0, sizes 1, offset 0 */
          uint32_t w2[7] = {0, 0, 0, 1, 1, 1, 0};
          memcpy(want, w2, sizeof want);
        }
        static const char *const F[] = {"global_id", "local_id", "group_id", "global_size", "local_size", "num_groups", "global_offset"};
        for (int f = 0; f < 7; f++)
          if (e[1 + j * 7 + f] != want[f]) {
            suite_fail("item %zu dim %d: get_%s %u, expected %u", i, j, F[f], e[1 + j * 7 + f], want[f]);
            break;
          }
      }
    }
  }
  free(r);
  if (o) clReleaseMemObject(o);
  clReleaseKernel(k);
}

SUITE_TEST(workgroups, workitem_functions_1d) { workitem_dims(1); }
SUITE_TEST(workgroups, workitem_functions_2d) { workitem_dims(2); }
SUITE_TEST(workgroups, workitem_functions_3d) { workitem_dims(3); }

/* Work-item functions with dimindx out of range (OpenCL C 1.2 6.12.1, 3.0 6.15.1: valid values
 * are 0 .. get_work_dim() - 1; for others get_global_size, get_local_size and get_num_groups
 * return 1, get_global_id, get_local_id, get_group_id and get_global_offset return 0). dimindx
 * is a constant (3, 4, 1000), which a compiler may fold, and read from a buffer at run time
 * (get_work_dim(), 3, a random value in [4, 1000], one of at least 2^31), which it cannot. Results
 * go out as ulong so that a wrong value in the upper half of a size_t is not cut off. */
#define OOR_FUNCS 7
#define OOR_RUNTIME 4
#define OOR_INDICES (3 + OOR_RUNTIME)
static const char OOR_SRC[] =
    "#define OOR(r, k) (r)[0] = get_global_size(k); (r)[1] = get_local_size(k); (r)[2] = get_num_groups(k); \\\n"
    "  (r)[3] = get_global_id(k); (r)[4] = get_local_id(k); (r)[5] = get_group_id(k); (r)[6] = get_global_offset(k);\n"
    "__kernel void wg_out_of_range(__global const uint *dv, __global ulong *o) {\n"
    "  size_t lin = 0, stride = 1;\n"
    "  for (uint j = 0; j < get_work_dim(); j++) { lin += (get_global_id(j) - get_global_offset(j)) * stride; stride *= get_global_size(j); }\n"
    "  __global ulong *r = o + lin * 49;\n"
    "  OOR(r, 3) OOR(r + 7, 4) OOR(r + 14, 1000)\n"
    "  for (uint j = 0; j < 4; j++) { uint k = dv[j]; OOR(r + 21 + 7 * j, k) }\n"
    "}\n#undef OOR\n";

static void out_of_range_dims(cl_uint dims, cl_kernel k) {
  size_t gl[3], lo[3], off[3];
  size_t total = random_ndrange(dims, gl, lo, off), per = OOR_INDICES * OOR_FUNCS;
  uint32_t dv[OOR_RUNTIME] = {dims, 3, 4 + suite_rand() % 997, 0x80000000u | suite_rand()};
  uint32_t idx[OOR_INDICES] = {3, 4, 1000, dv[0], dv[1], dv[2], dv[3]};
  cl_mem mdv = suite_buffer(sizeof dv, dv), mo = suite_buffer(total * per * 8, NULL);
  uint64_t *r = malloc(total * per * 8);
  cl_int err = mdv && mo && r ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  if (err == CL_SUCCESS)
    err = clSetKernelArg(k, 0, sizeof mdv, &mdv);
  if (err == CL_SUCCESS)
    err = clSetKernelArg(k, 1, sizeof mo, &mo);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(S.q, k, dims, off, gl, lo, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    suite_fail("%uD launch: %d", dims, err);
  else if (suite_read(mo, r, total * per * 8)) {
    static const char *const F[OOR_FUNCS] = {"global_size", "local_size", "num_groups", "global_id",
                                             "local_id", "group_id", "global_offset"};
    for (size_t i = 0; i < total * per && !suite_failed(); i++) {
      int f = (int)(i % OOR_FUNCS);
      uint64_t want = f < 3; /* the size-like functions give 1, the others 0 */
      if (r[i] != want)
        suite_fail("%uD NDRange (global %zux%zux%zu, offset %zu,%zu,%zu), item %zu: get_%s(%u%s) = %llu, expected %llu",
                   dims, gl[0], gl[1], gl[2], off[0], off[1], off[2], i / per, F[f], idx[i % per / OOR_FUNCS],
                   i % per < 3 * OOR_FUNCS ? ", constant" : ", from a buffer", (unsigned long long)r[i],
                   (unsigned long long)want);
    }
  }
  free(r);
  if (mdv) clReleaseMemObject(mdv);
  if (mo) clReleaseMemObject(mo);
}

SUITE_TEST(workgroups, workitem_out_of_range) {
  cl_kernel k = suite_batch_kernel(batch(), "wg_out_of_range");
  if (!k)
    return;
  for (cl_uint dims = 1; dims <= 3 && !suite_failed(); dims++)
    out_of_range_dims(dims, k);
  clReleaseKernel(k);
}

/* A tree reduction in local memory: wrong without every barrier. Once with a static __local
 * array of 64, once with a __local argument (any size). */
#define REDUCTION_BODY(decl)                                                                    \
  "  " decl "\n  size_t l = get_local_id(0);\n  s[l] = a[get_global_id(0)];\n"                   \
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"                                                           \
  "  for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"                                 \
  "    if (l < h) s[l] += s[l + h];\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n"                  \
  "  if (l == 0) o[get_group_id(0)] = s[0];\n}\n"
static const char REDUCE_STATIC_SRC[] =
    "__kernel void wg_reduce_static64(__global const uint *a, __global uint *o, __local uint *unused) {\n"
    REDUCTION_BODY("__local uint s[64];");
static const char REDUCE_ARG_SRC[] =
    "__kernel void wg_reduce_arg(__global const uint *a, __global uint *o, __local uint *s) {\n"
    REDUCTION_BODY("");

static void reduction(size_t local, bool local_arg) {
  size_t groups = 6, n = groups * local;
  cl_kernel k = suite_batch_kernel(batch(), local_arg ? "wg_reduce_arg" : "wg_reduce_static64");
  if (!k)
    return;
  uint32_t *a = malloc(n * 4), o[6];
  suite_fill(a, n * 4);
  cl_mem ma = suite_buffer(n * 4, a), mo = suite_buffer(sizeof o, NULL);
  if (!suite_failed() && suite_args(k, 3, sizeof ma, &ma, sizeof mo, &mo, local * 4, NULL) && suite_run1(k, n, local) &&
      suite_read(mo, o, sizeof o))
    for (size_t g = 0; g < groups; g++) {
      uint32_t sum = 0;
      for (size_t i = 0; i < local; i++)
        sum += a[g * local + i];
      if (o[g] != sum) {
        suite_fail("group %zu: sum 0x%x, expected 0x%x", g, o[g], sum);
        break;
      }
    }
  free(a);
  if (ma) clReleaseMemObject(ma);
  if (mo) clReleaseMemObject(mo);
  clReleaseKernel(k);
}

SUITE_TEST(workgroups, barrier_reduction_64) { reduction(64, false); }
SUITE_TEST(workgroups, barrier_reduction_256_local_arg) { reduction(256, true); }
SUITE_TEST(workgroups, barrier_reduction_max_size) {
  /* the largest power of two the kernel accepts (CL_KERNEL_WORK_GROUP_SIZE, at most the device's) */
  cl_kernel k = suite_batch_kernel(batch(), "wg_reduce_arg");
  if (!k)
    return;
  size_t kmax = 0;
  cl_int err = clGetKernelWorkGroupInfo(k, S.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL);
  clReleaseKernel(k);
  REQUIRE(err == CL_SUCCESS && kmax >= 1 && kmax <= S.max_wg, "CL_KERNEL_WORK_GROUP_SIZE: %d, %zu (device %zu)", err,
          kmax, S.max_wg);
  size_t ls = 1;
  while (ls * 2 <= kmax && ls * 2 <= 1024)
    ls *= 2;
  reduction(ls, true);
}

/* Several rounds of rotating values through local memory; each round needs both barriers. */
static const char ROTATION_SRC[] =
      "__kernel void wg_rotation(__global const int *a, __global int *o, int rounds) {\n"
      "  __local int s[128];\n  size_t l = get_local_id(0), n = get_local_size(0);\n"
      "  int v = a[get_global_id(0)];\n"
      "  for (int r = 0; r < rounds; r++) {\n    s[l] = v;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    v = s[(l + 1) % n] + r;\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n"
      "  o[get_global_id(0)] = v;\n}\n";

SUITE_TEST(workgroups, barrier_rotation_rounds) {
  size_t local = 128, n = 4 * local;
  int rounds = 17;
  cl_kernel k = suite_batch_kernel(batch(), "wg_rotation");
  if (!k)
    return;
  int32_t *a = malloc(n * 4), *o = malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    a[i] = (int32_t)(suite_rand() % 100000);
  cl_mem ma = suite_buffer(n * 4, a), mo = suite_buffer(n * 4, NULL);
  if (!suite_failed() && suite_args(k, 3, sizeof ma, &ma, sizeof mo, &mo, sizeof rounds, &rounds) &&
      suite_run1(k, n, local) && suite_read(mo, o, n * 4))
    for (size_t i = 0; i < n; i++) {
      size_t g = i / local, l = i % local;
      int32_t want = a[g * local + (l + (size_t)rounds) % local] + rounds * (rounds - 1) / 2;
      if (o[i] != want) {
        suite_fail("item %zu: %d, expected %d", i, o[i], want);
        break;
      }
    }
  free(a), free(o);
  if (ma) clReleaseMemObject(ma);
  if (mo) clReleaseMemObject(mo);
  clReleaseKernel(k);
}

/* Global memory made visible within the group by barrier(CLK_GLOBAL_MEM_FENCE). */
static const char FENCE_SRC[] =
      "__kernel void wg_global_fence(__global int *buf, __global int *o) {\n"
      "  size_t g = get_global_id(0), l = get_local_id(0), base = g - l, n = get_local_size(0);\n"
      "  buf[g] = (int)(g * 3 + 1);\n  barrier(CLK_GLOBAL_MEM_FENCE);\n"
      "  o[g] = buf[base + (l + 5) % n];\n}\n";

SUITE_TEST(workgroups, barrier_global_fence) {
  size_t local = 64, n = 8 * local;
  cl_kernel k = suite_batch_kernel(batch(), "wg_global_fence");
  if (!k)
    return;
  int32_t *o = malloc(n * 4);
  cl_mem mb = suite_buffer(n * 4, NULL), mo = suite_buffer(n * 4, NULL);
  if (!suite_failed() && suite_args(k, 2, sizeof mb, &mb, sizeof mo, &mo) && suite_run1(k, n, local) && suite_read(mo, o, n * 4))
    for (size_t i = 0; i < n; i++) {
      size_t want = (i - i % local + (i % local + 5) % local) * 3 + 1;
      if (o[i] != (int32_t)want) {
        suite_fail("item %zu: %d, expected %zu", i, o[i], want);
        break;
      }
    }
  free(o);
  if (mb) clReleaseMemObject(mb);
  if (mo) clReleaseMemObject(mo);
  clReleaseKernel(k);
}

/* async_work_group_copy in both directions with wait_group_events. */
static const char ASYNC_SRC[] =
      "__kernel void wg_async_copy(__global const float4 *a, __global float4 *o) {\n"
      "  __local float4 s[64];\n  size_t g = get_group_id(0);\n"
      "  event_t e = async_work_group_copy(s, a + g * 64, 64, 0);\n  wait_group_events(1, &e);\n"
      "  size_t l = get_local_id(0);\n  float4 v = s[63 - l];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  s[l] = v * 2.0f;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  e = async_work_group_copy(o + g * 64, s, 64, 0);\n  wait_group_events(1, &e);\n}\n";

SUITE_TEST(workgroups, async_work_group_copy) {
  size_t local = 64, n = 5 * local;
  cl_kernel k = suite_batch_kernel(batch(), "wg_async_copy");
  if (!k)
    return;
  float *a = malloc(n * 16), *o = malloc(n * 16);
  for (size_t i = 0; i < n * 4; i++)
    a[i] = (float)suite_uniform(-100, 100);
  cl_mem ma = suite_buffer(n * 16, a), mo = suite_buffer(n * 16, NULL);
  if (!suite_failed() && suite_args(k, 2, sizeof ma, &ma, sizeof mo, &mo) && suite_run1(k, n, local) && suite_read(mo, o, n * 16))
    for (size_t i = 0; i < n * 4; i++) {
      size_t item = i / 4, g = item / 64, l = item % 64;
      float want = a[(g * 64 + 63 - l) * 4 + i % 4] * 2.0f;
      if (o[i] != want) {
        suite_fail("element %zu: %g, expected %g", i, o[i], want);
        break;
      }
    }
  free(a), free(o);
  if (ma) clReleaseMemObject(ma);
  if (mo) clReleaseMemObject(mo);
  clReleaseKernel(k);
}

static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("", "");
  suite_batch_add(b, "wg_items", "%s", WI_SRC);
  suite_batch_add(b, "wg_out_of_range", "%s", OOR_SRC);
  suite_batch_add(b, "wg_reduce_static64", "%s", REDUCE_STATIC_SRC);
  suite_batch_add(b, "wg_reduce_arg", "%s", REDUCE_ARG_SRC);
  suite_batch_add(b, "wg_rotation", "%s", ROTATION_SRC);
  suite_batch_add(b, "wg_global_fence", "%s", FENCE_SRC);
  suite_batch_add(b, "wg_async_copy", "%s", ASYNC_SRC);
  return b;
}
