#include "migrate_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

mg_ext mg;
cl_backend_id_hetgpu mg_vendor, mg_riscv;

static void *fn(const char *name) { return clGetExtensionFunctionAddressForPlatform(hg_test_platform, name); }

static long mg_backend_by_info(cl_backend_info_hetgpu param, const char *want) {
  cl_uint n = 0;
  if (mg.get_backend_ids(hg_test_platform, 0, NULL, &n) != CL_SUCCESS)
    return -1;
  for (cl_uint i = 0; i < n; i++) {
    char s[512] = "";
    if (mg.get_backend_info(hg_test_platform, i, param, sizeof s, s, NULL) == CL_SUCCESS && !strcmp(s, want))
      return i;
  }
  return -1;
}

long mg_backend_by_kind(const char *want) { return mg_backend_by_info(CL_BACKEND_KIND_HETGPU, want); }
long mg_backend_by_name(const char *want) { return mg_backend_by_info(CL_BACKEND_NAME_HETGPU, want); }

bool mg_init(void) {
  if (!hg_test_is_hetgpu())
    return false;
  mg.get_backend_ids = (clGetBackendIDsHETGPU_fn)fn("clGetBackendIDsHETGPU");
  mg.get_backend_info = (clGetBackendInfoHETGPU_fn)fn("clGetBackendInfoHETGPU");
  mg.migrate = (clMigrateContextHETGPU_fn)fn("clMigrateContextHETGPU");
  mg.enqueue_migrate = (clEnqueueMigrateContextHETGPU_fn)fn("clEnqueueMigrateContextHETGPU");
  mg.checkpoint = (clCheckpointContextHETGPU_fn)fn("clCheckpointContextHETGPU");
  mg.restore = (clRestoreContextHETGPU_fn)fn("clRestoreContextHETGPU");
  mg.get_objects = (clGetContextObjectsHETGPU_fn)fn("clGetContextObjectsHETGPU");
  mg.set_label = (clSetObjectLabelHETGPU_fn)fn("clSetObjectLabelHETGPU");
  mg.get_by_label = (clGetObjectByLabelHETGPU_fn)fn("clGetObjectByLabelHETGPU");
  if (!mg.get_backend_ids || !mg.get_backend_info || !mg.migrate || !mg.enqueue_migrate || !mg.checkpoint ||
      !mg.restore || !mg.get_objects || !mg.set_label || !mg.get_by_label)
    return false;
  long v = mg_backend_by_kind("vendor"), r = mg_backend_by_kind("riscv");
  const char *want = getenv("HG_MIGRATE_VENDOR"); /* e.g. NVIDIA: which vendor backend to use */
  if (want && *want) {
    cl_uint n = 0;
    mg.get_backend_ids(hg_test_platform, 0, NULL, &n);
    v = -1;
    for (cl_uint i = 0; i < n && v < 0; i++) {
      char s[512] = "";
      if (mg.get_backend_info(hg_test_platform, i, CL_BACKEND_NAME_HETGPU, sizeof s, s, NULL) == CL_SUCCESS &&
          !strncmp(s, "vendor:", 7) && strstr(s, want))
        v = i;
    }
  }
  if (v < 0 || r < 0)
    return false;
  mg_vendor = (cl_backend_id_hetgpu)v;
  mg_riscv = (cl_backend_id_hetgpu)r;
  return true;
}

cl_backend_id_hetgpu mg_backend_of(cl_context ctx) {
  cl_backend_id_hetgpu b = 0xFFFFFFFFu;
  if (clGetContextInfo(ctx, CL_CONTEXT_BACKEND_HETGPU, sizeof b, &b, NULL) != CL_SUCCESS)
    return 0xFFFFFFFFu;
  return b;
}

cl_uint mg_migrations(cl_context ctx) {
  cl_uint n = 0xFFFFFFFFu;
  if (clGetContextInfo(ctx, CL_CONTEXT_MIGRATION_COUNT_HETGPU, sizeof n, &n, NULL) != CL_SUCCESS)
    return 0xFFFFFFFFu;
  return n;
}

cl_int mg_status(cl_event e) {
  cl_int st = 1234;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return st;
}

void mg_sleep_us(unsigned us) {
  struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000L};
  nanosleep(&ts, NULL);
}

void mg_wait_running(cl_event e) {
  for (int i = 0; i < 400000 && mg_status(e) > CL_RUNNING; i++)
    mg_sleep_us(50);
}

unsigned mg_stop_delay_us(unsigned cpu_ms) {
  cl_device_type type = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  return type & CL_DEVICE_TYPE_GPU ? 0 : cpu_ms * 1000;
}

const char *mg_kernels_src =
    "__kernel void wgmix(__global uint *buf, __local uint *tile, uint add) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);\n"
    "  tile[l] = buf[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  buf[g] = tile[l] * 3u + (tile[ls - 1 - l] ^ add);\n"
    "}\n"
    "__kernel void stencil(__global const uint *in, __global uint *out, __local uint *tile, uint n, uint add) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);\n"
    "  tile[l + 1] = in[g];\n"
    "  if (l == 0) tile[0] = g > 0 ? in[g - 1] : in[g];\n"
    "  if (l == ls - 1) tile[ls + 1] = g + 1 < n ? in[g + 1] : in[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = ((tile[l] + 2u * tile[l + 1] + tile[l + 2]) >> 2) + add;\n"
    "}\n"
    "__kernel void spin(__global uint *buf, uint iters) {\n"
    "  size_t g = get_global_id(0);\n"
    "  uint x = buf[g];\n"
    "  for (uint i = 0; i < iters; i++) x = x * 1664525u + 1013904223u;\n"
    "  buf[g] = x;\n"
    "}\n";

void mg_ref_mix(uint32_t *buf, size_t n, size_t ls, uint32_t add) {
  uint32_t *tile = malloc(ls * sizeof *tile);
  for (size_t base = 0; base < n; base += ls) {
    memcpy(tile, buf + base, ls * sizeof *tile);
    for (size_t l = 0; l < ls; l++)
      buf[base + l] = tile[l] * 3u + (tile[ls - 1 - l] ^ add);
  }
  free(tile);
}

void mg_ref_stencil(const uint32_t *in, uint32_t *out, size_t n, uint32_t add) {
  for (size_t g = 0; g < n; g++) {
    uint32_t l = in[g > 0 ? g - 1 : g], m = in[g], r = in[g + 1 < n ? g + 1 : g];
    out[g] = ((l + 2u * m + r) >> 2) + add;
  }
}

size_t mg_first_diff(const uint32_t *a, const uint32_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return i;
  return (size_t)-1;
}

uint32_t *mg_random_u32(size_t n) {
  uint32_t *p = malloc(n * sizeof *p);
  for (size_t i = 0; i < n; i++)
    p[i] = hg_test_rand();
  return p;
}

/* Releases a restored context and the one reference the application holds to each object. */
void mg_release_restored(cl_context ctx) {
  void *objs[64];
  cl_uint n = 0;
  if (mg.get_objects(ctx, CL_OBJECT_KERNEL_HETGPU, 64, objs, &n) == CL_SUCCESS)
    for (cl_uint i = 0; i < n && i < 64; i++)
      clReleaseKernel(objs[i]);
  if (mg.get_objects(ctx, CL_OBJECT_PROGRAM_HETGPU, 64, objs, &n) == CL_SUCCESS)
    for (cl_uint i = 0; i < n && i < 64; i++)
      clReleaseProgram(objs[i]);
  if (mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 64, objs, &n) == CL_SUCCESS)
    for (cl_uint i = n < 64 ? n : 64; i-- > 0;) /* sub-buffers before their parents */
      clReleaseMemObject(objs[i]);
  if (mg.get_objects(ctx, CL_OBJECT_COMMAND_QUEUE_HETGPU, 64, objs, &n) == CL_SUCCESS)
    for (cl_uint i = 0; i < n && i < 64; i++)
      clReleaseCommandQueue(objs[i]);
  if (mg.get_objects(ctx, CL_OBJECT_SAMPLER_HETGPU, 64, objs, &n) == CL_SUCCESS)
    for (cl_uint i = 0; i < n && i < 64; i++)
      clReleaseSampler(objs[i]);
  clReleaseContext(ctx);
}

/* Whether the snapshot at `path` has a KERNEL_STATE section (tag 7, docs/snapshot-format.md
 * sections 2-3): the launch was written as stopped in flight, not waited for. */
bool mg_snapshot_has_kernel_state(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char h[64], sh[16];
  bool found = false;
  if (f && fread(h, 1, 64, f) == 64) {
    uint32_t count = h[28] | h[29] << 8 | h[30] << 16 | (uint32_t)h[31] << 24;
    long at = 64;
    for (uint32_t i = 0; i < count && !found; i++) {
      if (fseek(f, at, SEEK_SET) || fread(sh, 1, 16, f) != 16)
        break;
      uint32_t tag = sh[0] | sh[1] << 8 | sh[2] << 16 | (uint32_t)sh[3] << 24;
      uint64_t len = 0;
      for (int b = 7; b >= 0; b--)
        len = len << 8 | sh[8 + b];
      found = tag == 7;
      at += 16 + (long)((len + 7) & ~(uint64_t)7);
    }
  }
  if (f)
    fclose(f);
  return found;
}

cl_int mg_wait_for_forms(cl_kernel k) {
  cl_bool stoppable = CL_FALSE;
  cl_int err = clGetKernelInfo(k, CL_KERNEL_STOPPABLE_HETGPU, sizeof stoppable, &stoppable, NULL);
  return err != CL_SUCCESS ? err : stoppable ? CL_SUCCESS : CL_INVALID_OPERATION;
}

cl_int mg_build_both(cl_context ctx, cl_backend_id_hetgpu from, cl_backend_id_hetgpu to) {
  cl_int err = mg.migrate(ctx, to, 0, 0, NULL);
  return err != CL_SUCCESS ? err : mg.migrate(ctx, from, 0, 0, NULL);
}
