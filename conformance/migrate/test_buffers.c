/* Every kind of buffer keeps its bytes while the context moves PoCL -> RISC-V -> PoCL ... many
 * times: plain, COPY_HOST_PTR, USE_HOST_PTR (a map returns the application's memory before and
 * after each migration), ALLOC_HOST_PTR, READ_ONLY feeding WRITE_ONLY, HOST_NO_ACCESS written
 * only by kernels, sub-buffers used by kernels, a region mapped for writing while the context
 * migrates (the application writes it meanwhile), and kernels still in flight when the
 * migration starts. Each round runs a kernel on every buffer (local memory + barrier) and
 * compares every buffer with the host reference. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

#define N 4096      /* uints per buffer */
#define LS 64       /* work-group size: 64 work-groups per launch */
#define ROUNDS 20   /* round trips: 40 migrations */
#define MAP_OFF 1000
#define MAP_LEN 1500
#ifdef CL_MIGRATE_RELEASE_SOURCE_HETGPU
#define RELEASE_SOURCE CL_MIGRATE_RELEASE_SOURCE_HETGPU
#else
#define RELEASE_SOURCE 0
#endif

typedef struct migrate_job {
  cl_context ctx;
  cl_backend_id_hetgpu target;
  cl_migration_flags_hetgpu flags;
  cl_migration_report_hetgpu report;
  cl_int err;
} migrate_job;

static void *migrate_thread(void *arg) {
  migrate_job *j = arg;
  j->err = mg.migrate(j->ctx, j->target, j->flags, 0, &j->report);
  return NULL;
}

enum { PLAIN, COPY, USE, ALLOC, HNA, PARENT, MAPPED, NUM_MIX }; /* buffers the mix kernel changes */

static cl_int launch_mix(cl_command_queue q, cl_kernel k, cl_mem buf, size_t n, uint32_t add) {
  cl_int err = clSetKernelArg(k, 0, sizeof buf, &buf);
  err |= clSetKernelArg(k, 1, LS * sizeof(cl_uint), NULL);
  err |= clSetKernelArg(k, 2, sizeof add, &add);
  size_t global = n, local = LS;
  return err ? err : clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

static cl_int launch_stencil(cl_command_queue q, cl_kernel k, cl_mem in, cl_mem out, uint32_t add) {
  cl_uint n = N;
  cl_int err = clSetKernelArg(k, 0, sizeof in, &in);
  err |= clSetKernelArg(k, 1, sizeof out, &out);
  err |= clSetKernelArg(k, 2, (LS + 2) * sizeof(cl_uint), NULL);
  err |= clSetKernelArg(k, 3, sizeof n, &n);
  err |= clSetKernelArg(k, 4, sizeof add, &add);
  size_t global = N, local = LS;
  return err ? err : clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

HG_TEST(every_buffer_kind_round_trips) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program prog = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(prog);
  cl_int err;
  cl_kernel mix = clCreateKernel(prog, "wgmix", &err);
  CHECK_CL(err);
  cl_kernel stencil = clCreateKernel(prog, "stencil", &err);
  CHECK_CL(err);
  const size_t bytes = N * sizeof(uint32_t);
  cl_uint align_bits = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t sub_align = align_bits / 8 / sizeof(uint32_t); /* in uints */
  CHECK(sub_align > 0 && sub_align <= N / 4);

  uint32_t *ref[NUM_MIX], *ro_ref = mg_random_u32(N), *wo_ref = malloc(bytes);
  for (int i = 0; i < NUM_MIX; i++)
    ref[i] = mg_random_u32(N);
  void *use_mem = NULL;
  CHECK(posix_memalign(&use_mem, 4096, bytes) == 0);
  memcpy(use_mem, ref[USE], bytes);

  cl_mem buf[NUM_MIX];
  buf[PLAIN] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueWriteBuffer(q, buf[PLAIN], CL_TRUE, 0, bytes, ref[PLAIN], 0, NULL, NULL));
  buf[COPY] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, ref[COPY], &err);
  CHECK_CL(err);
  buf[USE] = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, bytes, use_mem, &err);
  CHECK_CL(err);
  buf[ALLOC] = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, bytes, ref[ALLOC], &err);
  CHECK_CL(err);
  buf[HNA] = clCreateBuffer(ctx, CL_MEM_HOST_NO_ACCESS | CL_MEM_COPY_HOST_PTR, bytes, ref[HNA], &err);
  CHECK_CL(err);
  buf[PARENT] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, ref[PARENT], &err);
  CHECK_CL(err);
  buf[MAPPED] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, bytes, ref[MAPPED], &err);
  CHECK_CL(err);
  cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ro_ref, &err);
  CHECK_CL(err);
  cl_mem wo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  CHECK_CL(err);
  cl_mem check = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err); /* reads HOST_NO_ACCESS */
  CHECK_CL(err);
  /* two sub-buffers of PARENT: [s0, s0 + len) and [s1, s1 + len), both multiples of LS long */
  size_t len = (N / 2 - sub_align) / LS * LS, s0 = sub_align, s1 = N / 2 + sub_align;
  s0 = s0 / sub_align * sub_align, s1 = s1 / sub_align * sub_align;
  CHECK(s1 + len <= N && s0 + len <= s1);
  cl_buffer_region r0 = {s0 * 4, len * 4}, r1 = {s1 * 4, len * 4};
  cl_mem sub0 = clCreateSubBuffer(buf[PARENT], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
  CHECK_CL(err);
  cl_mem sub1 = clCreateSubBuffer(buf[PARENT], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  CHECK_CL(err);
  size_t total_bytes = 10 * bytes; /* every root buffer, sub-buffers excluded */

  uint32_t *got = malloc(bytes), *ro_next = malloc(bytes);
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, NULL)); /* wherever HETGPU_BACKEND started it */
  CHECK(mg_backend_of(ctx) == mg_vendor);
  bool released_before = false;
  for (int round = 0; round < 2 * ROUNDS; round++) {
    cl_backend_id_hetgpu from = round % 2 ? mg_riscv : mg_vendor, to = round % 2 ? mg_vendor : mg_riscv;
    CHECK(mg_backend_of(ctx) == from);
    /* the application maps a region for writing before the migration ... */
    uint32_t *mapped = clEnqueueMapBuffer(q, buf[MAPPED], CL_TRUE, CL_MAP_WRITE, MAP_OFF * 4, MAP_LEN * 4, 0, NULL,
                                          NULL, &err);
    CHECK_CL(err);
    CHECK(mapped);
    /* ... and enqueues kernels on every other buffer, not waiting for them */
    uint32_t add = hg_test_rand();
    for (int i = 0; i < NUM_MIX; i++)
      if (i != MAPPED && i != PARENT) {
        CHECK_CL(launch_mix(q, mix, buf[i], N, add + (uint32_t)i));
        mg_ref_mix(ref[i], N, LS, add + (uint32_t)i);
      }
    CHECK_CL(launch_mix(q, mix, sub0, len, add ^ 0x55u));
    mg_ref_mix(ref[PARENT] + s0, len, LS, add ^ 0x55u);
    CHECK_CL(launch_mix(q, mix, sub1, len, add ^ 0xAAu));
    mg_ref_mix(ref[PARENT] + s1, len, LS, add ^ 0xAAu);
    /* READ_ONLY gets new bytes from the host each round; the stencil reads it into WRITE_ONLY */
    for (size_t i = 0; i < N; i++)
      ro_next[i] = hg_test_rand();
    CHECK_CL(clEnqueueWriteBuffer(q, ro, CL_FALSE, 0, bytes, ro_next, 0, NULL, NULL));
    CHECK_CL(launch_stencil(q, stencil, ro, wo, add));
    memcpy(ro_ref, ro_next, bytes);
    mg_ref_stencil(ro_ref, wo_ref, N, add);
    /* the context migrates while the application writes the mapped region */
    /* every other migration frees the source's copies (when the header has that flag) */
    migrate_job job = {ctx, to, round % 4 == 1 ? RELEASE_SOURCE : 0, {0}, 1};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, migrate_thread, &job) == 0);
    for (size_t i = 0; i < MAP_LEN; i++)
      mapped[i] = ref[MAPPED][MAP_OFF + i] = hg_test_rand();
    pthread_join(t, NULL);
    CHECK_MSG(job.err == CL_SUCCESS, "round %d: migration to %u returned %d", round, to, job.err);
    CHECK(mg_backend_of(ctx) == to);
    CHECK(mg_migrations(ctx) == (cl_uint)round + 1);
    CHECK(job.report.status == CL_SUCCESS && job.report.source == from && job.report.target == to);
    /* Every root buffer is moved; bytes count those whose contents had to move: all of them on
     * the first visit and after a migration that released the source's copies, otherwise the ones
     * written since the last visit (which depends on how far the queue got before the gate). */
    bool must_move_all = round == 0 || released_before;
    CHECK_MSG(job.report.buffers == 10 && (must_move_all ? job.report.bytes == total_bytes
                                                         : job.report.bytes <= total_bytes && job.report.bytes % bytes == 0),
              "round %d: report says %u buffers, %llu bytes; want 10, %s%zu", round, job.report.buffers,
              (unsigned long long)job.report.bytes, must_move_all ? "" : "at most ", total_bytes);
    released_before = job.flags != 0;
    CHECK(job.report.programs == 1 && job.report.kernels == 2);
    CHECK_CL(clEnqueueUnmapMemObject(q, buf[MAPPED], mapped, 0, NULL, NULL));
    CHECK_CL(launch_mix(q, mix, buf[MAPPED], N, add ^ 0x1234u));
    mg_ref_mix(ref[MAPPED], N, LS, add ^ 0x1234u);
    CHECK_CL(clFinish(q));

    /* every buffer against the host reference */
    static const char *names[NUM_MIX] = {"plain", "copy_host_ptr", "use_host_ptr", "alloc_host_ptr",
                                         "host_no_access", "parent of sub-buffers", "mapped during migration"};
    for (int i = 0; i < NUM_MIX; i++) {
      if (i == USE) {
        uint32_t *p = clEnqueueMapBuffer(q, buf[USE], CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
        CHECK_CL(err);
        CHECK_MSG(p == use_mem, "round %d: map of a USE_HOST_PTR buffer returned %p, not the host memory %p", round,
                  (void *)p, use_mem);
        CHECK_U32(p, ref[USE], N, "round %d: %s", round, names[i]);
        CHECK_CL(clEnqueueUnmapMemObject(q, buf[USE], p, 0, NULL, NULL));
        continue;
      }
      memset(got, 0xA5, bytes);
      if (i == HNA) {
        CHECK_CL(clEnqueueCopyBuffer(q, buf[HNA], check, 0, 0, bytes, 0, NULL, NULL));
        CHECK_CL(clEnqueueReadBuffer(q, check, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
      } else {
        CHECK_CL(clEnqueueReadBuffer(q, buf[i], CL_TRUE, 0, bytes, got, 0, NULL, NULL));
      }
      CHECK_U32(got, ref[i], N, "round %d (now on backend %u): %s", round, to, names[i]);
    }
    memset(got, 0xA5, bytes);
    CHECK_CL(clEnqueueReadBuffer(q, ro, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
    CHECK_U32(got, ro_ref, N, "round %d: read_only", round);
    memset(got, 0xA5, bytes);
    CHECK_CL(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
    CHECK_U32(got, wo_ref, N, "round %d: write_only", round);
    memset(got, 0xA5, bytes);
    CHECK_CL(clEnqueueReadBuffer(q, sub1, CL_TRUE, 0, len * 4, got, 0, NULL, NULL));
    CHECK_U32(got, ref[PARENT] + s1, len, "round %d: sub-buffer read", round);
  }
  CHECK(mg_migrations(ctx) == 2 * ROUNDS);

  clReleaseMemObject(sub0);
  clReleaseMemObject(sub1);
  for (int i = 0; i < NUM_MIX; i++)
    clReleaseMemObject(buf[i]);
  clReleaseMemObject(ro);
  clReleaseMemObject(wo);
  clReleaseMemObject(check);
  clReleaseKernel(mix);
  clReleaseKernel(stencil);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  for (int i = 0; i < NUM_MIX; i++)
    free(ref[i]);
  free(ro_ref), free(wo_ref), free(got), free(ro_next), free(use_mem);
}

/* A USE_HOST_PTR buffer created on RISC-V and moved to PoCL: the map still returns the
 * application's memory, and its contents after a kernel on each side are right. */
HG_TEST(use_host_ptr_map_pointer_is_stable) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  CHECK_CL(mg.migrate(ctx, mg_riscv, 0, 0, NULL));
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program prog = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(prog);
  cl_int err;
  cl_kernel mix = clCreateKernel(prog, "wgmix", &err);
  CHECK_CL(err);
  uint32_t *host = mg_random_u32(N), *ref = malloc(N * 4);
  memcpy(ref, host, N * 4);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N * 4, host, &err);
  CHECK_CL(err);
  for (int i = 0; i < 6; i++) {
    uint32_t add = hg_test_rand();
    CHECK_CL(launch_mix(q, mix, b, N, add));
    mg_ref_mix(ref, N, LS, add);
    CHECK_CL(mg.migrate(ctx, i % 2 ? mg_riscv : mg_vendor, 0, 0, NULL));
    size_t off = (hg_test_rand() % (N / 2)) * 4;
    uint32_t *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, off, N * 4 - off, 0, NULL, NULL, &err);
    CHECK_CL(err);
    CHECK_MSG((char *)p == (char *)host + off, "map %d returned %p, want %p", i, (void *)p, (void *)((char *)host + off));
    CHECK_U32(p, ref + off / 4, N - off / 4, "step %d", i);
    CHECK_CL(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
  }
  CHECK_CL(clFinish(q)); /* the last unmap reads host_ptr: done before the memory goes */
  clReleaseMemObject(b);
  clReleaseKernel(mix);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(host), free(ref);
}
