/* The cl_hetgpu_migrate API: the extension is advertised and its 9 functions are found; every
 * function returns the specified error for each invalid argument; the queries (backend info of
 * every parameter, context info, migration reports) give sane values; labels; the context's
 * object lists in creation order. */
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

static bool has_word(const char *list, const char *word) {
  size_t n = strlen(word);
  for (const char *p = list; (p = strstr(p, word)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
      return true;
  return false;
}

HG_TEST(extension_advertised_and_functions_found) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("not hetGPU");
    return;
  }
  char ext[8192] = "";
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL));
  CHECK_MSG(has_word(ext, "cl_hetgpu_migrate"), "platform extensions: %s", ext);
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  CHECK_MSG(has_word(ext, "cl_hetgpu_migrate"), "device extensions: %s", ext);
  static const char *names[] = {"clGetBackendIDsHETGPU",     "clGetBackendInfoHETGPU",  "clMigrateContextHETGPU",
                                "clEnqueueMigrateContextHETGPU", "clCheckpointContextHETGPU", "clRestoreContextHETGPU",
                                "clGetContextObjectsHETGPU", "clSetObjectLabelHETGPU",  "clGetObjectByLabelHETGPU"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    CHECK_MSG(clGetExtensionFunctionAddressForPlatform(hg_test_platform, names[i]) != NULL, "%s not found", names[i]);
  CHECK(clGetExtensionFunctionAddressForPlatform(hg_test_platform, "clMigrateContextHETGPUX") == NULL);
  CHECK(mg_init());
}

HG_TEST(backend_ids) {
  MG_REQUIRE();
  cl_uint n = 0;
  CHECK_ERR(mg.get_backend_ids(NULL, 0, NULL, &n), CL_INVALID_PLATFORM);
  CHECK_ERR(mg.get_backend_ids((cl_platform_id)hg_test_device, 0, NULL, &n), CL_INVALID_PLATFORM);
  cl_backend_id_hetgpu ids[16];
  CHECK_ERR(mg.get_backend_ids(hg_test_platform, 0, ids, &n), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_backend_ids(hg_test_platform, 4, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(mg.get_backend_ids(hg_test_platform, 0, NULL, &n));
  CHECK(n >= 2 && n <= 16);
  for (int i = 0; i < 16; i++)
    ids[i] = 0xDEAD;
  cl_uint n2 = 0;
  CHECK_CL(mg.get_backend_ids(hg_test_platform, 1, ids, &n2));
  CHECK(n2 == n && ids[0] == 0 && ids[1] == 0xDEAD);
  CHECK_CL(mg.get_backend_ids(hg_test_platform, 16, ids, NULL));
  for (cl_uint i = 0; i < n; i++)
    CHECK(ids[i] == i);
}

HG_TEST(backend_info_every_param) {
  MG_REQUIRE();
  cl_uint n = 0;
  CHECK_CL(mg.get_backend_ids(hg_test_platform, 0, NULL, &n));
  static const cl_backend_info_hetgpu params[] = {
      CL_BACKEND_NAME_HETGPU,          CL_BACKEND_KIND_HETGPU,            CL_BACKEND_DEVICE_TYPE_HETGPU,
      CL_BACKEND_DEVICE_NAME_HETGPU,   CL_BACKEND_PLATFORM_NAME_HETGPU,   CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU,
      CL_BACKEND_AVAILABLE_HETGPU};
  static const size_t fixed[] = {0, 0, sizeof(cl_device_type), 0, 0, sizeof(cl_ulong), sizeof(cl_bool)};
  char riscv_platform[512] = "";
  for (cl_uint b = 0; b < n; b++) {
    for (size_t i = 0; i < sizeof params / sizeof *params; i++) {
      size_t size = 0;
      CHECK_CL(mg.get_backend_info(hg_test_platform, b, params[i], 0, NULL, &size));
      CHECK_MSG(fixed[i] ? size == fixed[i] : size >= 2, "backend %u param %#x: size %zu", b, params[i], size);
      char value[1024];
      memset(value, 0x5A, sizeof value);
      size_t got = 0;
      CHECK_CL(mg.get_backend_info(hg_test_platform, b, params[i], size, value, &got));
      CHECK(got == size);
      if (!fixed[i])
        CHECK_MSG(value[size - 1] == '\0' && strlen(value) == size - 1, "backend %u param %#x not a string", b, params[i]);
      CHECK_ERR(mg.get_backend_info(hg_test_platform, b, params[i], size - 1, value, NULL), CL_INVALID_VALUE);
    }
    char kind[64], name[512], pname[512];
    CHECK_CL(mg.get_backend_info(hg_test_platform, b, CL_BACKEND_KIND_HETGPU, sizeof kind, kind, NULL));
    CHECK_CL(mg.get_backend_info(hg_test_platform, b, CL_BACKEND_NAME_HETGPU, sizeof name, name, NULL));
    CHECK_CL(mg.get_backend_info(hg_test_platform, b, CL_BACKEND_PLATFORM_NAME_HETGPU, sizeof pname, pname, NULL));
    if (!strcmp(kind, "vendor")) {
      char want[600];
      snprintf(want, sizeof want, "vendor:%s", pname);
      CHECK_MSG(!strcmp(name, want), "vendor backend %u is named '%s', want '%s'", b, name, want);
    } else {
      CHECK_MSG(!strcmp(kind, "riscv") && !strcmp(name, "riscv"), "backend %u: kind '%s' name '%s'", b, kind, name);
      snprintf(riscv_platform, sizeof riscv_platform, "%s", pname);
    }
    cl_device_type type = 0;
    cl_ulong mem = 0;
    cl_bool avail = CL_FALSE;
    CHECK_CL(mg.get_backend_info(hg_test_platform, b, CL_BACKEND_DEVICE_TYPE_HETGPU, sizeof type, &type, NULL));
    CHECK_CL(mg.get_backend_info(hg_test_platform, b, CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU, sizeof mem, &mem, NULL));
    CHECK_CL(mg.get_backend_info(hg_test_platform, b, CL_BACKEND_AVAILABLE_HETGPU, sizeof avail, &avail, NULL));
    CHECK(type != 0 && (type & ~(cl_device_type)(CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                                 CL_DEVICE_TYPE_CUSTOM | CL_DEVICE_TYPE_DEFAULT)) == 0);
    CHECK(mem > 0 && avail == CL_TRUE);
  }
  CHECK(mg_backend_by_name("riscv") == (long)mg_riscv);
  /* last, so that a failure here leaves the checks above run: the specification names the
   * RISC-V backend's platform "hetGPU RISC-V simulator" */
  CHECK_MSG(!strcmp(riscv_platform, "hetGPU RISC-V simulator"),
            "CL_BACKEND_PLATFORM_NAME_HETGPU of riscv is '%s', want 'hetGPU RISC-V simulator'", riscv_platform);
}

HG_TEST(backend_info_errors) {
  MG_REQUIRE();
  cl_uint n = 0;
  CHECK_CL(mg.get_backend_ids(hg_test_platform, 0, NULL, &n));
  char s[64];
  size_t size;
  CHECK_ERR(mg.get_backend_info(NULL, 0, CL_BACKEND_NAME_HETGPU, sizeof s, s, NULL), CL_INVALID_PLATFORM);
  CHECK_ERR(mg.get_backend_info(hg_test_platform, n, CL_BACKEND_NAME_HETGPU, sizeof s, s, NULL),
            CL_INVALID_BACKEND_HETGPU);
  CHECK_ERR(mg.get_backend_info(hg_test_platform, CL_BACKEND_DEFAULT_HETGPU, CL_BACKEND_NAME_HETGPU, sizeof s, s, NULL),
            CL_INVALID_BACKEND_HETGPU);
  CHECK_ERR(mg.get_backend_info(hg_test_platform, 0, 0x7F07, sizeof s, s, &size), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_backend_info(hg_test_platform, 0, CL_CONTEXT_BACKEND_HETGPU, sizeof s, s, &size), CL_INVALID_VALUE);
}

HG_TEST(context_info_and_reports) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  size_t size = 0;
  CHECK_CL(clGetContextInfo(ctx, CL_CONTEXT_BACKEND_HETGPU, 0, NULL, &size));
  CHECK(size == sizeof(cl_backend_id_hetgpu));
  CHECK_CL(clGetContextInfo(ctx, CL_CONTEXT_MIGRATION_COUNT_HETGPU, 0, NULL, &size));
  CHECK(size == sizeof(cl_uint));
  CHECK_CL(clGetContextInfo(ctx, CL_CONTEXT_LAST_MIGRATION_HETGPU, 0, NULL, &size));
  CHECK(size == sizeof(cl_migration_report_hetgpu));
  cl_uint small;
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_LAST_MIGRATION_HETGPU, sizeof small, &small, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_BACKEND_HETGPU, 2, &small, NULL), CL_INVALID_VALUE);
  cl_backend_id_hetgpu start = mg_backend_of(ctx);
  CHECK(start == mg_vendor || start == mg_riscv);
  CHECK(mg_migrations(ctx) == 0);
  cl_backend_id_hetgpu other = start == mg_vendor ? mg_riscv : mg_vendor;

  /* to the current backend: success, nothing moved, not counted */
  cl_migration_report_hetgpu r;
  memset(&r, 0x5A, sizeof r);
  CHECK_CL(mg.migrate(ctx, start, 0, 0, &r));
  CHECK(r.status == CL_SUCCESS && r.source == start && r.target == start && r.bytes == 0 && r.buffers == 0);
  CHECK(mg_migrations(ctx) == 0 && mg_backend_of(ctx) == start);
  /* to the other one and back, with the default id meaning where new contexts start */
  CHECK_CL(mg.migrate(ctx, other, CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU, 0, &r));
  CHECK(mg_backend_of(ctx) == other && mg_migrations(ctx) == 1);
  cl_migration_report_hetgpu last;
  memset(&last, 0x5A, sizeof last);
  CHECK_CL(clGetContextInfo(ctx, CL_CONTEXT_LAST_MIGRATION_HETGPU, sizeof last, &last, &size));
  CHECK(size == sizeof last && last.status == CL_SUCCESS && last.source == start && last.target == other);
  CHECK(last.bytes == r.bytes && last.buffers == r.buffers && last.total_ns == r.total_ns);
  CHECK(r.quiesce_ns + r.capture_ns + r.build_ns + r.transfer_ns + r.resume_ns <= r.downtime_ns);
  CHECK(r.prepare_ns + r.downtime_ns <= r.total_ns && r.downtime_ns >= r.quiesce_ns && r.prepare_ns > 0);
  CHECK_CL(mg.migrate(ctx, CL_BACKEND_DEFAULT_HETGPU, 0, 0, &r));
  CHECK(mg_backend_of(ctx) == start && r.target == start && mg_migrations(ctx) == 2);
  clReleaseContext(ctx);
}

/* bytes counts the buffers whose contents had to move; buffers every root buffer. */
HG_TEST(report_counts_what_moved) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  CHECK(mg_backend_of(ctx) == mg_vendor);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program prog = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(prog);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "wgmix", &err);
  CHECK_CL(err);
  const size_t sizes[3] = {4096 * 4, 640 * 4, 16384 * 4};
  cl_mem b[3];
  uint32_t *ref[3];
  for (int i = 0; i < 3; i++) {
    ref[i] = mg_random_u32(sizes[i] / 4);
    b[i] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizes[i], ref[i], &err);
    CHECK_CL(err);
  }
  cl_mem sub;
  cl_buffer_region region = {0, 1024};
  sub = clCreateSubBuffer(b[2], 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_CL(err);
  /* written by a kernel on the vendor backend, then moved: every byte moves */
  for (int i = 0; i < 3; i++) {
    uint32_t add = hg_test_rand();
    size_t global = sizes[i] / 4, local = 64;
    CHECK_CL(clSetKernelArg(k, 0, sizeof b[i], &b[i]));
    CHECK_CL(clSetKernelArg(k, 1, 64 * 4, NULL));
    CHECK_CL(clSetKernelArg(k, 2, sizeof add, &add));
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    mg_ref_mix(ref[i], global, 64, add);
  }
  CHECK_CL(clFinish(q));
  cl_migration_report_hetgpu r;
  CHECK_CL(mg.migrate(ctx, mg_riscv, 0, 0, &r));
  CHECK_MSG(r.buffers == 3 && r.bytes == sizes[0] + sizes[1] + sizes[2] && r.programs == 1 && r.kernels == 1,
            "report: %u buffers, %llu bytes, %u programs, %u kernels", r.buffers, (unsigned long long)r.bytes,
            r.programs, r.kernels);
  /* only b[1] written on RISC-V: only it has to move back (the others' source copies stay
   * current unless released) */
  uint32_t add = hg_test_rand();
  size_t global = sizes[1] / 4, local = 64;
  CHECK_CL(clSetKernelArg(k, 0, sizeof b[1], &b[1]));
  CHECK_CL(clSetKernelArg(k, 2, sizeof add, &add));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  mg_ref_mix(ref[1], global, 64, add);
  CHECK_CL(clFinish(q));
#ifdef CL_MIGRATE_RELEASE_SOURCE_HETGPU
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, &r));
  CHECK_MSG(r.buffers == 3 && r.bytes == sizes[1], "report: %u buffers, %llu bytes; want 3, %zu", r.buffers,
            (unsigned long long)r.bytes, sizes[1]);
  /* released source copies: everything moves again next time */
  CHECK_CL(mg.migrate(ctx, mg_riscv, CL_MIGRATE_RELEASE_SOURCE_HETGPU, 0, &r));
  CHECK_MSG(r.bytes == 0, "nothing was written on the vendor backend, yet %llu bytes moved", (unsigned long long)r.bytes);
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, &r));
  CHECK_MSG(r.buffers == 3 && r.bytes == sizes[0] + sizes[1] + sizes[2], "after a release: %u buffers, %llu bytes",
            r.buffers, (unsigned long long)r.bytes);
#else
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, &r));
  CHECK(r.buffers == 3 && r.bytes == sizes[0] + sizes[1] + sizes[2]);
#endif
  for (int i = 0; i < 3; i++) {
    uint32_t *got = malloc(sizes[i]);
    memset(got, 0xA5, sizes[i]);
    CHECK_CL(clEnqueueReadBuffer(q, b[i], CL_TRUE, 0, sizes[i], got, 0, NULL, NULL));
    CHECK_U32(got, ref[i], sizes[i] / 4, "buffer %d", i);
    free(got);
    free(ref[i]);
  }
  clReleaseMemObject(sub);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(b[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(migrate_errors) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_uint n = 0;
  CHECK_CL(mg.get_backend_ids(hg_test_platform, 0, NULL, &n));
  cl_migration_report_hetgpu r;
  CHECK_ERR(mg.migrate(NULL, mg_riscv, 0, 0, &r), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.migrate((cl_context)q, mg_riscv, 0, 0, &r), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.migrate(ctx, n, 0, 0, &r), CL_INVALID_BACKEND_HETGPU);
  CHECK_ERR(mg.migrate(ctx, 0x7FFFFFFF, 0, 0, &r), CL_INVALID_BACKEND_HETGPU);
  CHECK_ERR(mg.migrate(ctx, mg_riscv, (cl_migration_flags_hetgpu)1 << 40, 0, &r), CL_INVALID_VALUE);
  CHECK_ERR(mg.migrate(ctx, mg_riscv, (cl_migration_flags_hetgpu)1 << 9, 0, &r), CL_INVALID_VALUE);
  CHECK_ERR(mg.migrate(ctx, mg_riscv, CL_MIGRATE_AT_SAFE_POINT_HETGPU | (cl_migration_flags_hetgpu)1 << 3, 0, &r),
            CL_INVALID_VALUE);
  CHECK(mg_backend_of(ctx) == mg_vendor && mg_migrations(ctx) == 0);

  cl_event ev = NULL, foreign;
  cl_int err;
  CHECK_ERR(mg.enqueue_migrate(NULL, mg_riscv, 0, 0, 0, NULL, &ev), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(mg.enqueue_migrate((cl_command_queue)ctx, mg_riscv, 0, 0, 0, NULL, &ev), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(mg.enqueue_migrate(q, n, 0, 0, 0, NULL, &ev), CL_INVALID_BACKEND_HETGPU);
  CHECK_ERR(mg.enqueue_migrate(q, mg_riscv, (cl_migration_flags_hetgpu)1 << 7, 0, 0, NULL, &ev), CL_INVALID_VALUE);
  CHECK_ERR(mg.enqueue_migrate(q, mg_riscv, CL_MIGRATE_AT_SAFE_POINT_HETGPU | 1u << 5, 0, 0, NULL, &ev), CL_INVALID_VALUE);
  CHECK_ERR(mg.enqueue_migrate(q, mg_riscv, 0, 0, 1, NULL, &ev), CL_INVALID_EVENT_WAIT_LIST);
  cl_event user = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  CHECK_ERR(mg.enqueue_migrate(q, mg_riscv, 0, 0, 0, &user, &ev), CL_INVALID_EVENT_WAIT_LIST);
  cl_event bad = (cl_event)q;
  CHECK_ERR(mg.enqueue_migrate(q, mg_riscv, 0, 0, 1, &bad, &ev), CL_INVALID_EVENT_WAIT_LIST);
  cl_context ctx2 = hg_test_context();
  foreign = clCreateUserEvent(ctx2, &err);
  CHECK_CL(err);
  CHECK_ERR(mg.enqueue_migrate(q, mg_riscv, 0, 0, 1, &foreign, &ev), CL_INVALID_CONTEXT);
  CHECK(ev == NULL);
  CHECK(mg_backend_of(ctx) == mg_vendor && mg_migrations(ctx) == 0);
  /* a valid one waiting for a user event, with no event returned */
  CHECK_CL(mg.enqueue_migrate(q, mg_riscv, 0, 0, 1, &user, NULL));
  CHECK(mg_backend_of(ctx) == mg_vendor);
  CHECK_CL(clSetUserEventStatus(user, CL_COMPLETE));
  CHECK_CL(clFinish(q));
  CHECK(mg_backend_of(ctx) == mg_riscv && mg_migrations(ctx) == 1);

  const char *path = "migrate_api_ckpt.hgsnap";
  CHECK_ERR(mg.checkpoint(NULL, path, 0, 0), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.checkpoint((cl_context)q, path, 0, 0), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.checkpoint(ctx, NULL, 0, 0), CL_INVALID_VALUE);
  CHECK_ERR(mg.checkpoint(ctx, "", 0, 0), CL_INVALID_VALUE);
  CHECK_ERR(mg.checkpoint(ctx, path, 1, 0), CL_INVALID_VALUE);
  CHECK_ERR(mg.checkpoint(ctx, path, CL_CHECKPOINT_AT_SAFE_POINT_HETGPU | 1u << 4, 0), CL_INVALID_VALUE);
  CHECK_ERR(mg.checkpoint(ctx, "/nonexistent-hetgpu-dir/sub/x.hgsnap", 0, 0), CL_INVALID_VALUE);

  cl_int code = 0;
  CHECK(mg.restore(NULL, path, mg_riscv, &code) == NULL && code == CL_INVALID_PLATFORM);
  CHECK(mg.restore((cl_platform_id)ctx, path, mg_riscv, &code) == NULL && code == CL_INVALID_PLATFORM);
  CHECK(mg.restore(hg_test_platform, NULL, mg_riscv, &code) == NULL && code == CL_INVALID_VALUE);
  CHECK(mg.restore(hg_test_platform, "", mg_riscv, &code) == NULL && code == CL_INVALID_VALUE);
  CHECK_CL(mg.checkpoint(ctx, path, 0, 0));
  CHECK(mg.restore(hg_test_platform, path, n, &code) == NULL && code == CL_INVALID_BACKEND_HETGPU);
  CHECK(mg.restore(hg_test_platform, "/nonexistent-hetgpu-dir/none.hgsnap", mg_riscv, &code) == NULL &&
        code == CL_INVALID_SNAPSHOT_HETGPU);
  CHECK(mg.restore(hg_test_platform, "/nonexistent-hetgpu-dir/none.hgsnap", mg_riscv, NULL) == NULL);
  cl_context back = mg.restore(hg_test_platform, path, CL_BACKEND_DEFAULT_HETGPU, &code);
  CHECK_CL(code);
  CHECK(back && mg_backend_of(back) == mg_vendor);
  clReleaseContext(back);
  remove(path);

  void *objs[4];
  cl_uint count;
  CHECK_ERR(mg.get_objects(NULL, CL_OBJECT_MEM_HETGPU, 4, objs, &count), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.get_objects((cl_context)q, CL_OBJECT_MEM_HETGPU, 4, objs, &count), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.get_objects(ctx, CL_OBJECT_COMMAND_QUEUE_HETGPU - 1, 4, objs, &count), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_objects(ctx, CL_OBJECT_SAMPLER_HETGPU + 1, 4, objs, &count), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_objects(ctx, 0, 4, objs, &count), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 0, objs, &count), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 4, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 0, NULL, NULL), CL_INVALID_VALUE);

  clReleaseEvent(user);
  clReleaseEvent(foreign);
  clReleaseContext(ctx2);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(context_objects_in_creation_order) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_command_queue q1 = hg_test_queue(ctx, 0);
  cl_mem b1 = clCreateBuffer(ctx, 0, 4096, NULL, &err);
  cl_program p1 = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(p1);
  cl_mem b2 = clCreateBuffer(ctx, 0, 8192, NULL, &err);
  cl_buffer_region region = {0, 1024};
  cl_mem s1 = clCreateSubBuffer(b2, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_CL(err);
  cl_kernel k1 = clCreateKernel(p1, "stencil", &err);
  cl_command_queue q2 = hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_kernel k2 = clCreateKernel(p1, "wgmix", &err);
  cl_mem b3 = clCreateBuffer(ctx, 0, 512, NULL, &err);
  cl_program p2 = hg_test_build(ctx, "__kernel void z(__global int *a) { a[get_global_id(0)] = 0; }", NULL);
  cl_kernel k3 = clCreateKernel(p1, "wgmix", &err);
  CHECK_CL(err);
  /* an unrelated context's objects never show up */
  cl_context other = hg_test_context();
  cl_mem ob = clCreateBuffer(other, 0, 64, NULL, &err);

  struct {
    cl_object_type_hetgpu type;
    void *want[8];
    cl_uint n;
  } lists[] = {{CL_OBJECT_COMMAND_QUEUE_HETGPU, {q1, q2}, 2},
               {CL_OBJECT_MEM_HETGPU, {b1, b2, s1, b3}, 4},
               {CL_OBJECT_PROGRAM_HETGPU, {p1, p2}, 2},
               {CL_OBJECT_KERNEL_HETGPU, {k1, k2, k3}, 3}};
  for (int l = 0; l < 4; l++) {
    void *got[8];
    cl_uint count = 0;
    CHECK_CL(mg.get_objects(ctx, lists[l].type, 0, NULL, &count));
    CHECK_MSG(count == lists[l].n, "type %#x: %u objects, want %u", lists[l].type, count, lists[l].n);
    memset(got, 0, sizeof got);
    CHECK_CL(mg.get_objects(ctx, lists[l].type, 8, got, &count));
    for (cl_uint i = 0; i < lists[l].n; i++)
      CHECK_MSG(got[i] == lists[l].want[i], "type %#x: object %u out of order", lists[l].type, i);
    /* fewer entries than objects: only those are written, the count is the total */
    memset(got, 0, sizeof got);
    CHECK_CL(mg.get_objects(ctx, lists[l].type, 1, got, &count));
    CHECK(count == lists[l].n && got[0] == lists[l].want[0] && got[1] == NULL);
  }
  /* a released object leaves the list, the order of the rest stays */
  clReleaseMemObject(b1);
  clReleaseKernel(k2);
  void *got[8];
  cl_uint count = 0;
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 8, got, &count));
  CHECK(count == 3 && got[0] == b2 && got[1] == s1 && got[2] == b3);
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_KERNEL_HETGPU, 8, got, &count));
  CHECK(count == 2 && got[0] == k1 && got[1] == k3);
  /* migration does not change the lists */
  CHECK_CL(mg.migrate(ctx, mg_riscv, 0, 0, NULL));
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 8, got, &count));
  CHECK(count == 3 && got[0] == b2 && got[1] == s1 && got[2] == b3);

  clReleaseMemObject(ob);
  clReleaseContext(other);
  clReleaseKernel(k1), clReleaseKernel(k3);
  clReleaseMemObject(s1), clReleaseMemObject(b2), clReleaseMemObject(b3);
  clReleaseProgram(p1), clReleaseProgram(p2);
  clReleaseCommandQueue(q1), clReleaseCommandQueue(q2);
  clReleaseContext(ctx);
}

/* Objects released in bursts, mostly in the order they were made (as a queue retires a burst
 * of kernels), between new ones: the list stays exactly the live objects in creation order,
 * and labels keep naming theirs. */
HG_TEST(context_objects_many_released) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  enum { N = 600 };
  cl_mem *bufs = calloc(N, sizeof *bufs);
  void **got = calloc(N, sizeof *got);
  bool *labelled = calloc(N, sizeof *labelled);
  CHECK(bufs && got && labelled);
  cl_int err;
  size_t made = 0, gone = 0; /* bufs[gone..made) may be live, NULL where released */
  for (int round = 0; round < 6; round++) {
    for (int i = 0; i < N / 6; i++, made++) {
      bufs[made] = clCreateBuffer(ctx, 0, 64, NULL, &err);
      CHECK_CL(err);
      if (hg_test_rand() % 8 == 0) {
        char label[32];
        snprintf(label, sizeof label, "buf/%zu", made);
        CHECK_CL(mg.set_label(bufs[made], label));
        labelled[made] = true;
      }
    }
    /* the oldest third in order, then a few anywhere */
    for (size_t stop = gone + (made - gone) / 3; gone < stop; gone++)
      if (bufs[gone])
        clReleaseMemObject(bufs[gone]), bufs[gone] = NULL;
    for (int i = 0; i < 10; i++) {
      size_t at = gone + hg_test_rand() % (made - gone);
      if (bufs[at])
        clReleaseMemObject(bufs[at]), bufs[at] = NULL;
    }
    cl_uint count = 0, want = 0;
    CHECK_CL(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, N, got, &count));
    for (size_t i = gone; i < made; i++)
      if (bufs[i]) {
        CHECK_MSG(want < count && got[want] == bufs[i], "round %d: buffer %zu missing or out of order", round, i);
        want++;
      }
    CHECK_MSG(count == want, "round %d: %u objects listed, %u live", round, count, want);
    for (size_t i = 0; i < made; i++) {
      char label[32];
      snprintf(label, sizeof label, "buf/%zu", i);
      void *o = NULL;
      cl_int found = mg.get_by_label(ctx, label, NULL, &o);
      if (labelled[i] && bufs[i])
        CHECK_MSG(found == CL_SUCCESS && o == bufs[i], "round %d: label %s lost", round, label);
      else
        CHECK_MSG(found == CL_INVALID_VALUE, "round %d: label %s names an object (%d)", round, label, found);
    }
  }
  for (size_t i = gone; i < made; i++)
    if (bufs[i])
      clReleaseMemObject(bufs[i]);
  cl_uint count = 1;
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_MEM_HETGPU, 0, NULL, &count));
  CHECK(count == 0);
  free(bufs), free(got), free(labelled);
  clReleaseContext(ctx);
}

HG_TEST(labels) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context(), ctx2 = hg_test_context();
  cl_int err;
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_mem b = clCreateBuffer(ctx, 0, 4096, NULL, &err);
  cl_mem b2 = clCreateBuffer(ctx2, 0, 4096, NULL, &err);
  cl_program p = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(p);
  cl_kernel k = clCreateKernel(p, "wgmix", &err);
  CHECK_CL(err);
  void *objs[4] = {q, b, p, k};
  const char *names[4] = {"the queue", "buffer/0", "prog", "k"};
  const cl_object_type_hetgpu types[4] = {CL_OBJECT_COMMAND_QUEUE_HETGPU, CL_OBJECT_MEM_HETGPU,
                                          CL_OBJECT_PROGRAM_HETGPU, CL_OBJECT_KERNEL_HETGPU};
  for (int i = 0; i < 4; i++)
    CHECK_CL(mg.set_label(objs[i], names[i]));
  for (int i = 0; i < 4; i++) {
    void *o = NULL;
    cl_object_type_hetgpu t = 0;
    CHECK_CL(mg.get_by_label(ctx, names[i], &t, &o));
    CHECK(o == objs[i] && t == types[i]);
    o = NULL;
    CHECK_CL(mg.get_by_label(ctx, names[i], NULL, &o));
    CHECK(o == objs[i]);
  }
  /* unique within the context, free across contexts; relabelling with its own label is fine */
  CHECK_ERR(mg.set_label(k, "buffer/0"), CL_INVALID_VALUE);
  CHECK_CL(mg.set_label(b, "buffer/0"));
  CHECK_CL(mg.set_label(b2, "buffer/0"));
  void *o = NULL;
  CHECK_CL(mg.get_by_label(ctx2, "buffer/0", NULL, &o));
  CHECK(o == b2);
  CHECK_ERR(mg.get_by_label(ctx2, "prog", NULL, &o), CL_INVALID_VALUE);
  /* survives a migration */
  CHECK_CL(mg.migrate(ctx, mg_riscv, 0, 0, NULL));
  CHECK_CL(mg.get_by_label(ctx, "k", NULL, &o));
  CHECK(o == k);
  /* a new label replaces the old; NULL clears */
  CHECK_CL(mg.set_label(k, "k2"));
  CHECK_ERR(mg.get_by_label(ctx, "k", NULL, &o), CL_INVALID_VALUE);
  CHECK_CL(mg.set_label(p, "k")); /* the old label is free again */
  CHECK_CL(mg.set_label(p, NULL));
  CHECK_ERR(mg.get_by_label(ctx, "k", NULL, &o), CL_INVALID_VALUE);
  /* lengths: 255 bytes is the most */
  char longest[257];
  memset(longest, 'x', 256);
  longest[256] = '\0';
  CHECK_ERR(mg.set_label(q, longest), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_by_label(ctx, longest, NULL, &o), CL_INVALID_VALUE);
  longest[255] = '\0';
  CHECK_CL(mg.set_label(q, longest));
  CHECK_CL(mg.get_by_label(ctx, longest, NULL, &o));
  CHECK(o == q);
  CHECK_ERR(mg.set_label(q, ""), CL_INVALID_VALUE);
  /* not a queue, buffer, program or kernel */
  CHECK_ERR(mg.set_label(NULL, "x"), CL_INVALID_VALUE);
  CHECK_ERR(mg.set_label(ctx, "x"), CL_INVALID_VALUE);
  cl_event ev = clCreateUserEvent(ctx, &err);
  CHECK_ERR(mg.set_label(ev, "x"), CL_INVALID_VALUE);
  CHECK_ERR(mg.set_label(hg_test_device, "x"), CL_INVALID_VALUE);
  int local_var;
  CHECK_ERR(mg.set_label(&local_var, "x"), CL_INVALID_VALUE);
  /* lookups */
  CHECK_ERR(mg.get_by_label(NULL, "k2", NULL, &o), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.get_by_label((cl_context)q, "k2", NULL, &o), CL_INVALID_CONTEXT);
  CHECK_ERR(mg.get_by_label(ctx, NULL, NULL, &o), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_by_label(ctx, "", NULL, &o), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_by_label(ctx, "k2", NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(mg.get_by_label(ctx, "nothing has this label", NULL, &o), CL_INVALID_VALUE);
  /* a released object's label is gone */
  clReleaseKernel(k);
  CHECK_ERR(mg.get_by_label(ctx, "k2", NULL, &o), CL_INVALID_VALUE);
  CHECK_ERR(mg.set_label(k, "again"), CL_INVALID_VALUE);
  clReleaseEvent(ev);
  clReleaseProgram(p);
  clReleaseMemObject(b);
  clReleaseMemObject(b2);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  clReleaseContext(ctx2);
}
