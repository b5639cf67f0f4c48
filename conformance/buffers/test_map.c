/* Map and unmap with every flag and buffer kind, CL_MEM_USE_HOST_PTR coherence, map counts,
 * migration, and the invalid arguments of each. */
#include <stdlib.h>
#include <string.h>

#include "buffers_util.h"

static const cl_mem_flags kinds[] = {0, CL_MEM_ALLOC_HOST_PTR, CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                     CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};

static cl_uint map_count(cl_mem m) {
  cl_uint n = 0xdead;
  clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof n, &n, NULL);
  return n;
}

HG_TEST(map_unmap_every_flag_and_kind) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    size_t size = bt_rand_range(1, 300000);
    unsigned char *model = bt_random(size);
    unsigned char *host = (kinds[k] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ? malloc(size) : NULL;
    if (host)
      memcpy(host, model, size);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, kinds[k], size, host, &err);
    CHECK_CL(err);
    if (!host)
      CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, size, model, 0, NULL, NULL));
    for (int it = 0; it < 12; it++) {
      size_t off = bt_rand_range(0, size - 1), len = bt_rand_range(1, size - off);
      bool blocking = it & 1;
      cl_event ev;
      cl_command_type type;
      switch (it % 3) {
      case 0: { /* read */
        unsigned char *p = clEnqueueMapBuffer(q, m, blocking, CL_MAP_READ, off, len, 0, NULL, &ev, &err);
        CHECK_CL(err);
        CHECK(p != NULL);
        if (kinds[k] & CL_MEM_USE_HOST_PTR)
          CHECK(p == host + off);
        CHECK(map_count(m) == 1);
        CHECK_CL(clWaitForEvents(1, &ev));
        CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_COMMAND_MAP_BUFFER);
        clReleaseEvent(ev);
        CHECK_SAME(p, model + off, len);
        CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, &ev));
        CHECK_CL(clWaitForEvents(1, &ev));
        CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_COMMAND_UNMAP_MEM_OBJECT);
        clReleaseEvent(ev);
        break;
      }
      case 1: { /* read and write */
        unsigned char *p =
            clEnqueueMapBuffer(q, m, blocking, CL_MAP_READ | CL_MAP_WRITE, off, len, 0, NULL, &ev, &err);
        CHECK_CL(err);
        CHECK_CL(clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        CHECK_SAME(p, model + off, len);
        hg_test_fill_random(p, len);
        memcpy(model + off, p, len);
        CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
        break;
      }
      default: { /* write, or invalidate the region */
        cl_map_flags f = (it & 4) ? CL_MAP_WRITE : CL_MAP_WRITE_INVALIDATE_REGION;
        unsigned char *p = clEnqueueMapBuffer(q, m, blocking, f, off, len, 0, NULL, &ev, &err);
        CHECK_CL(err);
        CHECK_CL(clWaitForEvents(1, &ev));
        clReleaseEvent(ev);
        if (f == CL_MAP_WRITE)
          CHECK_SAME(p, model + off, len); /* write-only maps still show the contents (not invalidated) */
        hg_test_fill_random(p, len);
        memcpy(model + off, p, len);
        CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
      }
      }
      CHECK_CL(clFinish(q));
      CHECK(map_count(m) == 0);
      unsigned char *out = bt_poisoned(size);
      CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
      CHECK_SAME(out, model, size);
      free(out);
    }
    clReleaseMemObject(m);
    free(host);
    free(model);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(several_mappings_at_once) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 8192;
  unsigned char *model = bt_random(size);
  cl_mem m = bt_buffer(ctx, 0, size, model);
  CHECK(m);
  cl_int err;
  unsigned char *a = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 4096, 0, NULL, NULL, &err);
  CHECK_CL(err);
  unsigned char *b = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE, 4096, 4096, 0, NULL, NULL, &err);
  CHECK_CL(err);
  unsigned char *c = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 100, 50, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(map_count(m) == 3);
  CHECK_SAME(a, model, 4096);
  CHECK_SAME(c, model + 100, 50);
  hg_test_fill_random(b, 4096);
  memcpy(model + 4096, b, 4096);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, b, 0, NULL, NULL));
  CHECK_CL(clEnqueueUnmapMemObject(q, m, a, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  CHECK(map_count(m) == 1);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, c, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  CHECK(map_count(m) == 0);
  unsigned char *out = bt_poisoned(size);
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
  CHECK_SAME(out, model, size);
  free(out);
  free(model);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(use_host_ptr_coherence) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t align = bt_base_align(), size = 4 * align + 1000;
  unsigned char *host = bt_random(size), *model = malloc(size);
  memcpy(model, host, size);
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, size, host, &err);
  CHECK_CL(err);
  /* device-side changes show in host_ptr once mapped */
  unsigned char *fresh = bt_random(size);
  CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, size, fresh, 0, NULL, NULL));
  memcpy(model, fresh, size);
  unsigned char *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, size, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(p == host);
  CHECK_SAME(host, model, size);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  /* host writes through a write mapping reach the device */
  p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE, 10, 500, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(p == host + 10);
  hg_test_fill_random(p, 500);
  memcpy(model + 10, p, 500);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  unsigned char *out = bt_poisoned(size);
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
  CHECK_SAME(out, model, size);
  /* a sub-buffer maps into the same host memory */
  cl_buffer_region r = {2 * align, 900};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  fresh = realloc(fresh, r.size);
  hg_test_fill_random(fresh, r.size);
  CHECK_CL(clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, r.size, fresh, 0, NULL, NULL));
  memcpy(model + r.origin, fresh, r.size);
  p = clEnqueueMapBuffer(q, sub, CL_TRUE, CL_MAP_READ, 100, 200, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(p == host + r.origin + 100);
  CHECK_SAME(p, model + r.origin + 100, 200);
  CHECK_CL(clEnqueueUnmapMemObject(q, sub, p, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  clReleaseMemObject(sub);
  clReleaseMemObject(m);
  free(out);
  free(fresh);
  free(model);
  free(host);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(non_blocking_map_waits_for_its_dependencies) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 1 << 16;
  unsigned char *data = bt_random(size);
  cl_mem m = bt_buffer(ctx, 0, size, NULL);
  CHECK(m);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, size, data, 1, &gate, NULL));
  cl_event mapped;
  unsigned char *p = clEnqueueMapBuffer(q, m, CL_FALSE, CL_MAP_READ, 0, size, 0, NULL, &mapped, &err);
  CHECK_CL(err);
  CHECK(p != NULL); /* the pointer comes back at once */
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &mapped));
  CHECK_SAME(p, data, size);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  clReleaseEvent(mapped);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
  free(data);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(map_invalid_arguments) {
  cl_context ctx = hg_test_context(), other = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 1024;
  cl_mem m = bt_buffer(ctx, 0, size, NULL), m2 = bt_buffer(ctx, 0, size, NULL), foreign = bt_buffer(other, 0, size, NULL);
  cl_mem ro = bt_buffer(ctx, CL_MEM_HOST_READ_ONLY, size, NULL), wo = bt_buffer(ctx, CL_MEM_HOST_WRITE_ONLY, size, NULL);
  cl_mem na = bt_buffer(ctx, CL_MEM_HOST_NO_ACCESS, size, NULL);
  CHECK(m && m2 && foreign && ro && wo && na);
  cl_int err;
#define MAP_FAILS(buf, flags, off, len, code)                                                      \
  do {                                                                                             \
    err = CL_SUCCESS;                                                                              \
    void *p_ = clEnqueueMapBuffer(q, buf, CL_TRUE, flags, off, len, 0, NULL, NULL, &err);        \
    CHECK_MSG(p_ == NULL && err == (code), "map(%s, 0x%llx, %zu, %zu): %d, expected %d", #buf,    \
              (unsigned long long)(flags), (size_t)(off), (size_t)(len), err, (int)(code));        \
  } while (0)
  if (hg_test_is_hetgpu()) { /* invalidation excludes read and write (PoCL accepts the mix) */
    MAP_FAILS(m, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, CL_INVALID_VALUE);
    MAP_FAILS(m, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, CL_INVALID_VALUE);
    MAP_FAILS(m, (cl_map_flags)1 << 20, 0, 16, CL_INVALID_VALUE); /* unknown flag (PoCL ignores it) */
  }
  MAP_FAILS(m, CL_MAP_READ, 0, 0, CL_INVALID_VALUE);
  MAP_FAILS(m, CL_MAP_READ, 0, size + 1, CL_INVALID_VALUE);
  MAP_FAILS(m, CL_MAP_READ, size, 1, CL_INVALID_VALUE);
  MAP_FAILS(m, CL_MAP_READ, 1, SIZE_MAX, CL_INVALID_VALUE);
  MAP_FAILS(wo, CL_MAP_READ, 0, 16, CL_INVALID_OPERATION);
  MAP_FAILS(na, CL_MAP_READ, 0, 16, CL_INVALID_OPERATION);
  MAP_FAILS(ro, CL_MAP_WRITE, 0, 16, CL_INVALID_OPERATION);
  MAP_FAILS(ro, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, CL_INVALID_OPERATION);
  MAP_FAILS(na, CL_MAP_WRITE, 0, 16, CL_INVALID_OPERATION);
  MAP_FAILS(foreign, CL_MAP_READ, 0, 16, CL_INVALID_CONTEXT);
  MAP_FAILS(NULL, CL_MAP_READ, 0, 16, CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueMapBuffer(NULL, m, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err) == NULL &&
        err == CL_INVALID_COMMAND_QUEUE);
  CHECK(map_count(m) == 0);
  /* allowed ones on restricted buffers */
  void *p = clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueUnmapMemObject(q, ro, p, 0, NULL, NULL));
  p = clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueUnmapMemObject(q, wo, p, 0, NULL, NULL));

  /* unmap: only a pointer mapped from that object, once */
  char local[16];
  p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 64, 64, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_ERR(clEnqueueUnmapMemObject(q, m, local, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueUnmapMemObject(q, m2, p, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueUnmapMemObject(q, NULL, p, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueUnmapMemObject(NULL, m, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  if (hg_test_is_hetgpu()) /* a second unmap of one mapping (the check PoCL does not make) */
    CHECK_ERR(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(map_count(m) == 0);
  cl_mem all[] = {m, m2, foreign, ro, wo, na};
  for (int i = 0; i < 6; i++)
    clReleaseMemObject(all[i]);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  clReleaseContext(other);
}

HG_TEST(migrate_keeps_or_drops_contents_as_asked) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t align = bt_base_align(), size = 4 * align;
  unsigned char *model = bt_random(size);
  cl_mem m = bt_buffer(ctx, 0, size, model), m2 = bt_buffer(ctx, 0, size, NULL);
  CHECK(m && m2);
  cl_int err;
  cl_buffer_region r = {align, align};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  cl_mem both[] = {m, m2};
  static const cl_mem_migration_flags flags[] = {CL_MIGRATE_MEM_OBJECT_HOST, 0, CL_MIGRATE_MEM_OBJECT_HOST, 0};
  unsigned char *out = bt_poisoned(size);
  for (int i = 0; i < 4; i++) {
    cl_event ev;
    CHECK_CL(clEnqueueMigrateMemObjects(q, i == 3 ? 1 : 2, i == 3 ? &sub : both, flags[i], 0, NULL, &ev));
    CHECK_CL(clWaitForEvents(1, &ev));
    cl_command_type type;
    CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    clReleaseEvent(ev);
    memset(out, POISON, size);
    CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
    CHECK_SAME(out, model, size);
    /* a write after a migration lands */
    size_t off = bt_rand_range(0, size - 1), len = bt_rand_range(1, size - off);
    unsigned char *chunk = bt_random(len);
    CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, off, len, chunk, 0, NULL, NULL));
    memcpy(model + off, chunk, len);
    free(chunk);
  }
  /* undefined contents: whatever is written afterwards is what is read */
  CHECK_CL(clEnqueueMigrateMemObjects(q, 1, &m2, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
  CHECK_CL(clEnqueueWriteBuffer(q, m2, CL_TRUE, 0, size, model, 0, NULL, NULL));
  CHECK_CL(clEnqueueMigrateMemObjects(q, 1, &m2, CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                      0, NULL, NULL));
  CHECK_CL(clEnqueueWriteBuffer(q, m2, CL_TRUE, 0, size, model, 0, NULL, NULL));
  memset(out, POISON, size);
  CHECK_CL(clEnqueueReadBuffer(q, m2, CL_TRUE, 0, size, out, 0, NULL, NULL));
  CHECK_SAME(out, model, size);

  /* errors */
  cl_context other = hg_test_context();
  cl_mem foreign = bt_buffer(other, 0, 64, NULL);
  CHECK(foreign);
  CHECK_ERR(clEnqueueMigrateMemObjects(q, 0, both, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &m, (cl_mem_migration_flags)1 << 10, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_mem bad[] = {m, NULL};
  CHECK_ERR(clEnqueueMigrateMemObjects(q, 2, bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &foreign, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueMigrateMemObjects(NULL, 1, &m, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueMigrateMemObjects(q, 1, &m, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  clReleaseMemObject(foreign);
  clReleaseContext(other);
  free(out);
  free(model);
  clReleaseMemObject(sub);
  clReleaseMemObject(m);
  clReleaseMemObject(m2);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* Where the backend keeps buffers in host memory (CPU devices; the RISC-V DRAM) a map hands out
 * that memory, not a copy: mappings of one buffer at once lie at their offsets' distance from
 * each other (a sub-buffer's at its origin's), and what is written through them is what kernels
 * and reads see after the unmap. Skipped on GPUs, where maps are copies. */
HG_TEST(maps_are_zero_copy_on_cpu_backends) {
  cl_device_type type = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  const char *zero_copy = getenv("HETGPU_MAP_ZERO_COPY");
  if (!hg_test_is_hetgpu() || (type & CL_DEVICE_TYPE_GPU) || (zero_copy && !strcmp(zero_copy, "0"))) {
    hg_test_skip("hetGPU on a CPU or RISC-V backend, maps not made to copy");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 6 * 4096, origin = 2048;
  unsigned char *model = bt_random(size);
  cl_mem m = bt_buffer(ctx, 0, size, model);
  cl_int err;
  cl_buffer_region region = {origin, 4096};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_CL(err);
  unsigned char *a = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err);
  CHECK_CL(err);
  unsigned char *b = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 4096, 8192, 0, NULL, NULL, &err);
  CHECK_CL(err);
  unsigned char *c = clEnqueueMapBuffer(q, sub, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 8, 100, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_MSG(b == a + 4096 && c == a + origin + 8, "mappings at %p, %p, %p: not the buffer's own memory", (void *)a,
            (void *)b, (void *)c);
  CHECK_SAME(a, model, 64);
  CHECK_SAME(b, model + 4096, 8192);
  hg_test_fill_random(b, 8192);
  memcpy(model + 4096, b, 8192);
  hg_test_fill_random(c, 100);
  memcpy(model + origin + 8, c, 100);
  CHECK_CL(clEnqueueUnmapMemObject(q, sub, c, 0, NULL, NULL));
  CHECK_CL(clEnqueueUnmapMemObject(q, m, b, 0, NULL, NULL));
  CHECK_CL(clEnqueueUnmapMemObject(q, m, a, 0, NULL, NULL));
  /* a kernel sees the writes: it copies the buffer into another */
  cl_program p = hg_test_build(ctx, "kernel void cp(global const uchar *s, global uchar *d) {"
                                    "  size_t i = get_global_id(0); d[i] = s[i]; }", NULL);
  cl_kernel k = clCreateKernel(p, "cp", &err);
  CHECK_CL(err);
  cl_mem out = clCreateBuffer(ctx, 0, size, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK_CL(clSetKernelArg(k, 1, sizeof out, &out));
  size_t global = size, local = 64;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  unsigned char *got = bt_poisoned(size);
  CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, size, got, 0, NULL, NULL));
  CHECK_SAME(got, model, size);
  /* and a map after the kernel shows what it wrote (the map waits for it) */
  hg_test_fill_random(model, size);
  CHECK_CL(clEnqueueWriteBuffer(q, out, CL_FALSE, 0, size, model, 0, NULL, NULL));
  CHECK_CL(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_CL(clSetKernelArg(k, 1, sizeof m, &m));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  unsigned char *d = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, size, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(d == a);
  CHECK_SAME(d, model, size);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, d, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  free(got);
  free(model);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(out);
  clReleaseMemObject(sub);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static void CL_CALLBACK free_region(cl_mem mem, void *region) {
  (void)mem;
  free(region); /* allowed once the buffer is gone: nothing may touch it after */
}

/* A CL_MEM_USE_HOST_PTR buffer on a CPU vendor lives in the application's region itself: a
 * kernel's results are there as soon as it completed (before, only a map copied them there),
 * maps of it and of a sub-buffer return the region, writes through them reach the next kernel,
 * and a destructor callback may free the region (under ASan: nothing touches it after).
 * Skipped where the buffer cannot live there (GPUs, the RISC-V DRAM) or maps copy. */
HG_TEST(use_host_ptr_is_zero_copy_on_cpu_backends) {
  cl_device_type type = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  const char *zero_copy = getenv("HETGPU_MAP_ZERO_COPY"), *backend = getenv("HETGPU_BACKEND");
  if (!hg_test_is_hetgpu() || !(type & CL_DEVICE_TYPE_CPU) || (zero_copy && !strcmp(zero_copy, "0")) ||
      (backend && !strncmp(backend, "riscv", 5))) {
    hg_test_skip("hetGPU on a CPU vendor, maps not made to copy");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  enum { N = 64 * 1024 };
  uint32_t *region = aligned_alloc(4096, N * 4), *model = malloc(N * 4);
  hg_test_fill_random(region, N * 4);
  memcpy(model, region, N * 4);
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N * 4, region, &err);
  CHECK_CL(err);
  CHECK_CL(clSetMemObjectDestructorCallback(m, free_region, region));
  cl_program p = hg_test_build(ctx, "kernel void twice(global uint *a) {\n"
                                    "  local uint t[64]; size_t l = get_local_id(0), g = get_global_id(0);\n"
                                    "  t[l] = a[g]; barrier(CLK_LOCAL_MEM_FENCE);\n"
                                    "  a[g] = t[63 - l] * 2u + (uint)g; }", NULL);
  cl_kernel k = clCreateKernel(p, "twice", &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof m, &m));
  size_t global = N, local = 64;
  for (int round = 0; round < 2; round++) {
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    uint32_t *was = malloc(N * 4);
    memcpy(was, model, N * 4);
    for (size_t g = 0; g < N; g++)
      model[g] = was[g / 64 * 64 + 63 - g % 64] * 2u + (uint32_t)g;
    free(was);
    CHECK_SAME(region, model, N * 4); /* no map: the kernel worked in the region */
    /* a map of a sub-buffer is the region at its origin; a write through it reaches the kernel */
    cl_buffer_region sr = {4096, 8192};
    cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &sr, &err);
    CHECK_CL(err);
    uint32_t *w = clEnqueueMapBuffer(q, sub, CL_TRUE, CL_MAP_WRITE, 0, 8192, 0, NULL, NULL, &err);
    CHECK_CL(err);
    CHECK_MSG(w == region + 1024, "the sub-buffer's map at %p, its region at %p", (void *)w, (void *)(region + 1024));
    for (size_t i = 0; i < 2048; i++)
      w[i] = model[1024 + i] = hg_test_rand();
    CHECK_CL(clEnqueueUnmapMemObject(q, sub, w, 0, NULL, NULL));
    clReleaseMemObject(sub);
  }
  uint32_t *r = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, N * 4, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(r == region);
  CHECK_SAME(r, model, N * 4);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, r, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(m); /* its callback frees the region */
  free(model);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
