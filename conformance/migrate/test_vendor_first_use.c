/* A vendor whose facts are cached is loaded only when a context first uses it (docs/virtual-device.md,
 * "Vendors loaded on first use"). Two ctest entries with a private cache, in order:
 *   HG_FIRST_USE_STEP=list  a process on a vendor: every vendor is loaded and its facts cached
 *   HG_FIRST_USE_STEP=use   a process started on RISC-V (HETGPU_BACKEND=riscv): the vendors are
 *                           listed as backends but no vendor library is mapped, through a build,
 *                           launches and backend queries; a migration to the
 *                           vendor (HG_MIGRATE_VENDOR, else the first) loads it, and the workload
 *                           goes on there and back, each step against the host's reference. */
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

#define N 8192
#define LS 128

static bool step_is(const char *name) {
  const char *s = getenv("HG_FIRST_USE_STEP");
  return s && !strcmp(s, name);
}

/* Whether a library whose file name contains `name` is mapped in this process. */
static bool mapped(const char *name) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  bool found = false;
  while (f && fgets(line, sizeof line, f))
    found |= strstr(line, name) != NULL;
  if (f)
    fclose(f);
  return found;
}

/* The vendor libraries this test knows by their platform's name. */
static const struct {
  const char *platform, *library;
} vendors[] = {{"Portable Computing Language", "libpocl"}, {"NVIDIA CUDA", "libnvidia-opencl"}};

static bool any_vendor_mapped(void) {
  for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
    if (mapped(vendors[i].library))
      return true;
  return false;
}

/* The library of the vendor backend the test migrates to (HG_MIGRATE_VENDOR), NULL if unknown. */
static const char *target_library(void) {
  char name[512] = "";
  mg.get_backend_info(hg_test_platform, mg_vendor, CL_BACKEND_PLATFORM_NAME_HETGPU, sizeof name, name, NULL);
  for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
    if (!strcmp(name, vendors[i].platform))
      return vendors[i].library;
  return NULL;
}

typedef struct workload {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_kernel stencil;
  cl_mem in, out;
  uint32_t *host_in, *ref;
} workload;

static void start(workload *w) {
  w->ctx = hg_test_context();
  w->q = hg_test_queue(w->ctx, 0);
  w->prog = hg_test_build(w->ctx, mg_kernels_src, NULL);
  cl_int err;
  w->stencil = clCreateKernel(w->prog, "stencil", &err);
  CHECK_CL(err);
  w->host_in = mg_random_u32(N);
  w->ref = malloc(N * sizeof *w->ref);
  w->in = clCreateBuffer(w->ctx, CL_MEM_COPY_HOST_PTR, N * 4, w->host_in, &err);
  CHECK_CL(err);
  w->out = clCreateBuffer(w->ctx, 0, N * 4, NULL, &err);
  CHECK_CL(err);
}

/* One stencil launch (several groups, the halo in local memory) into a poisoned output, read back
 * and compared with the host's reference; the output becomes the next input. */
static void step(workload *w, const char *where) {
  uint32_t add = hg_test_rand(), n = N;
  uint32_t *got = malloc(N * 4);
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueWriteBuffer(w->q, w->out, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  size_t global = N, local = LS;
  CHECK_CL(clSetKernelArg(w->stencil, 0, sizeof w->in, &w->in));
  CHECK_CL(clSetKernelArg(w->stencil, 1, sizeof w->out, &w->out));
  CHECK_CL(clSetKernelArg(w->stencil, 2, (LS + 2) * 4, NULL));
  CHECK_CL(clSetKernelArg(w->stencil, 3, sizeof n, &n));
  CHECK_CL(clSetKernelArg(w->stencil, 4, sizeof add, &add));
  CHECK_CL(clEnqueueNDRangeKernel(w->q, w->stencil, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(w->q, w->out, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  mg_ref_stencil(w->host_in, w->ref, N, add);
  size_t diff = mg_first_diff(got, w->ref, N);
  CHECK_MSG(diff == (size_t)-1, "%s: element %zu is %u, not %u", where, diff, got[diff], w->ref[diff]);
  memcpy(w->host_in, w->ref, N * 4);
  CHECK_CL(clEnqueueCopyBuffer(w->q, w->out, w->in, 0, 0, N * 4, 0, NULL, NULL));
  free(got);
}

static void finish(workload *w) {
  clReleaseMemObject(w->in);
  clReleaseMemObject(w->out);
  clReleaseKernel(w->stencil);
  clReleaseProgram(w->prog);
  clReleaseCommandQueue(w->q);
  clReleaseContext(w->ctx);
  free(w->host_in);
  free(w->ref);
}

HG_TEST(list_every_vendor) {
  if (!step_is("list")) {
    hg_test_skip("HG_FIRST_USE_STEP is not list");
    return;
  }
  MG_REQUIRE();
  workload w;
  start(&w);
  CHECK(mg_backend_of(w.ctx) == mg_vendor);
  step(&w, "the vendor");
  const char *lib = target_library();
  CHECK(!lib || mapped(lib));
  finish(&w);
}

HG_TEST(vendor_loaded_by_the_first_migration) {
  if (!step_is("use")) {
    hg_test_skip("HG_FIRST_USE_STEP is not use");
    return;
  }
  MG_REQUIRE();
  CHECK_MSG(!any_vendor_mapped(), "a vendor was loaded at start although its facts are cached");
  cl_bool available = CL_FALSE;
  CHECK_CL(mg.get_backend_info(hg_test_platform, mg_vendor, CL_BACKEND_AVAILABLE_HETGPU, sizeof available,
                               &available, NULL));
  CHECK(available == CL_TRUE);
  workload w;
  start(&w);
  CHECK(mg_backend_of(w.ctx) == mg_riscv);
  step(&w, "RISC-V before");
  CHECK_MSG(!any_vendor_mapped(), "a vendor was loaded before a context used it");
  cl_migration_report_hetgpu r;
  CHECK_CL(mg.migrate(w.ctx, mg_vendor, 0, 0, &r));
  CHECK(mg_backend_of(w.ctx) == mg_vendor);
  const char *lib = target_library();
  CHECK_MSG(!lib || mapped(lib), "the migration ran without loading %s", lib);
  step(&w, "the vendor");
  /* asked only now: a GPU vendor's answer needs a build of the kernel there, which loads it */
  size_t wg = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(w.stencil, hg_test_device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  CHECK(wg >= LS);
  step(&w, "the vendor again");
  CHECK_CL(mg.migrate(w.ctx, mg_riscv, 0, 0, &r));
  step(&w, "RISC-V after");
  CHECK(mg_migrations(w.ctx) == 2);
  finish(&w);
}
