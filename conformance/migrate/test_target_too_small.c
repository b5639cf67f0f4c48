/* The device shows the memory of the backend the process starts on, so a context may hold more
 * than a smaller backend can take. Started on PoCL with the RISC-V chip's DRAM at the profile's
 * minimum (HETGPU_RISCV_DRAM_SIZE=512 MiB: 128 MiB per allocation), a migration to RISC-V of
 * (a) one buffer larger than RISC-V's largest allocation and (b) buffers that together pass its
 * DRAM fails with CL_MEM_OBJECT_ALLOCATION_FAILURE, the context stays on PoCL with every byte,
 * kernels still run there, and once enough is released the same migration succeeds. */
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

#define MIB (1024u * 1024u)
#define LS 64

typedef struct workload {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_kernel mix;
  unsigned count;
  cl_mem buf[8];
  uint32_t *ref[8];
  size_t words[8];
} workload;

static void add_buffer(workload *w, size_t bytes) {
  unsigned i = w->count++;
  w->words[i] = bytes / 4;
  w->ref[i] = mg_random_u32(w->words[i]);
  cl_int err;
  w->buf[i] = clCreateBuffer(w->ctx, CL_MEM_COPY_HOST_PTR, bytes, w->ref[i], &err);
  CHECK_MSG(err == CL_SUCCESS, "a buffer of %zu bytes: %d", bytes, err);
}

static void drop_buffer(workload *w, unsigned i) {
  clReleaseMemObject(w->buf[i]);
  free(w->ref[i]);
  w->buf[i] = NULL;
  w->ref[i] = NULL;
}

/* wgmix on the first 64 Ki words of each buffer still held, then every word read back. */
static void check(workload *w, const char *when) {
  for (unsigned i = 0; i < w->count; i++) {
    if (!w->buf[i])
      continue;
    uint32_t add = hg_test_rand();
    size_t global = 65536, local = LS;
    CHECK_CL(clSetKernelArg(w->mix, 0, sizeof w->buf[i], &w->buf[i]));
    CHECK_CL(clSetKernelArg(w->mix, 1, LS * 4, NULL));
    CHECK_CL(clSetKernelArg(w->mix, 2, sizeof add, &add));
    CHECK_CL(clEnqueueNDRangeKernel(w->q, w->mix, 1, NULL, &global, &local, 0, NULL, NULL));
    mg_ref_mix(w->ref[i], global, LS, add);
    uint32_t *got = malloc(w->words[i] * 4);
    memset(got, 0xA5, w->words[i] * 4);
    CHECK_CL(clEnqueueReadBuffer(w->q, w->buf[i], CL_TRUE, 0, w->words[i] * 4, got, 0, NULL, NULL));
    CHECK_U32(got, w->ref[i], w->words[i], "%s: buffer %u", when, i);
    free(got);
  }
}

static void start(workload *w) {
  memset(w, 0, sizeof *w);
  w->ctx = hg_test_context();
  CHECK(mg_backend_of(w->ctx) == mg_vendor);
  w->q = hg_test_queue(w->ctx, 0);
  w->prog = hg_test_build(w->ctx, mg_kernels_src, NULL);
  cl_int err;
  w->mix = clCreateKernel(w->prog, "wgmix", &err);
  CHECK_CL(err);
}

static void finish(workload *w) {
  for (unsigned i = 0; i < w->count; i++)
    if (w->buf[i])
      drop_buffer(w, i);
  clReleaseKernel(w->mix);
  clReleaseProgram(w->prog);
  clReleaseCommandQueue(w->q);
  clReleaseContext(w->ctx);
}

/* The migration to RISC-V is refused and loses nothing. */
static void refused(workload *w, const char *what) {
  cl_migration_report_hetgpu r;
  memset(&r, 0x5A, sizeof r);
  cl_int err = mg.migrate(w->ctx, mg_riscv, 0, 0, &r);
  CHECK_MSG(err == CL_MEM_OBJECT_ALLOCATION_FAILURE, "%s: migration to RISC-V gave %d", what, err);
  CHECK(r.status == err);
  CHECK(mg_backend_of(w->ctx) == mg_vendor);
  CHECK(mg_migrations(w->ctx) == 0);
  check(w, what);
}

static void moved(workload *w, const char *what) {
  CHECK_CL(mg.migrate(w->ctx, mg_riscv, 0, 0, NULL));
  CHECK(mg_backend_of(w->ctx) == mg_riscv);
  check(w, what);
}

static bool small_riscv(void) {
  cl_ulong mem = 0, start_mem = 0;
  mg.get_backend_info(hg_test_platform, mg_riscv, CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU, sizeof mem, &mem, NULL);
  clGetDeviceInfo(hg_test_device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof start_mem, &start_mem, NULL);
  if (mem != 512ull * MIB || start_mem < 1024ull * MIB) {
    hg_test_skip("needs HETGPU_RISCV_DRAM_SIZE=536870912 and a starting backend of 1 GiB or more");
    return false;
  }
  return true;
}

HG_TEST(buffer_past_the_targets_largest_allocation) {
  MG_REQUIRE();
  if (!small_riscv())
    return;
  workload w;
  start(&w);
  add_buffer(&w, 4 * MIB);
  add_buffer(&w, 160 * MIB); /* RISC-V allocates at most 128 MiB at once */
  check(&w, "before");
  refused(&w, "160 MiB buffer");
  drop_buffer(&w, 1);
  moved(&w, "after releasing it");
  finish(&w);
}

HG_TEST(buffers_past_the_targets_memory) {
  MG_REQUIRE();
  if (!small_riscv())
    return;
  workload w;
  start(&w);
  for (int i = 0; i < 5; i++) /* 560 MiB; RISC-V has 512 */
    add_buffer(&w, 112 * MIB);
  refused(&w, "5 x 112 MiB");
  drop_buffer(&w, 2);
  moved(&w, "4 x 112 MiB");
  finish(&w);
}
