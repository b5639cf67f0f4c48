/* Migrations that fail leave the context whole on its source: with HETGPU_FAULT_INJECT set to
 * alloc, build and transfer in turn (in both directions, by the host call and by an enqueued
 * migration), the error is returned, CL_CONTEXT_BACKEND_HETGPU is still the source, every buffer
 * keeps its bytes, kernels still run, and a later migration without the fault succeeds. A tiny
 * timeout while a long kernel runs on RISC-V gives CL_MIGRATION_TIMEOUT_HETGPU and loses
 * nothing. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "migrate_util.h"

MG_FAULT_INJECTION_ARMED

#define N 4096
#define LS 64

typedef struct fixture {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_kernel mix;
  cl_mem buf[3], sub;
  uint32_t *ref[3];
  size_t sub_off; /* in uints */
} fixture;

static cl_int run_mix(fixture *f, cl_mem b, uint32_t *ref, size_t n) {
  uint32_t add = hg_test_rand();
  size_t global = n, local = LS;
  cl_int err = clSetKernelArg(f->mix, 0, sizeof b, &b);
  err |= clSetKernelArg(f->mix, 1, LS * 4, NULL);
  err |= clSetKernelArg(f->mix, 2, sizeof add, &add);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(f->q, f->mix, 1, NULL, &global, &local, 0, NULL, NULL);
  mg_ref_mix(ref, n, LS, add);
  return err;
}

/* A fresh context on `start` (never on the other backend), with buffers changed by kernels. */
static bool fixture_init(fixture *f, cl_backend_id_hetgpu start) {
  memset(f, 0, sizeof *f);
  f->ctx = hg_test_context();
  if (mg.migrate(f->ctx, start, 0, 0, NULL) != CL_SUCCESS)
    return false;
  f->q = hg_test_queue(f->ctx, 0);
  f->prog = hg_test_build(f->ctx, mg_kernels_src, NULL);
  cl_int err;
  f->mix = clCreateKernel(f->prog, "wgmix", &err);
  for (int i = 0; i < 3; i++) {
    f->ref[i] = mg_random_u32(N);
    f->buf[i] = clCreateBuffer(f->ctx, i == 1 ? CL_MEM_COPY_HOST_PTR : CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
                               N * 4, f->ref[i], &err);
    if (err != CL_SUCCESS)
      return false;
  }
  cl_uint bits = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
  f->sub_off = bits / 32 * 2;
  cl_buffer_region region = {f->sub_off * 4, (N / 2) * 4};
  f->sub = clCreateSubBuffer(f->buf[2], 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  if (err != CL_SUCCESS)
    return false;
  /* buffer 1 stays as created (its contents came from the host); the others are changed */
  return run_mix(f, f->buf[0], f->ref[0], N) == CL_SUCCESS &&
         run_mix(f, f->sub, f->ref[2] + f->sub_off, N / 2) == CL_SUCCESS && clFinish(f->q) == CL_SUCCESS;
}

static void fixture_free(fixture *f) {
  clReleaseMemObject(f->sub);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(f->buf[i]), free(f->ref[i]);
  clReleaseKernel(f->mix);
  clReleaseProgram(f->prog);
  clReleaseCommandQueue(f->q);
  clReleaseContext(f->ctx);
}

/* Every buffer against the model, after a kernel on each. */
static void check_buffers(fixture *f, const char *when) {
  for (int i = 0; i < 2; i++)
    CHECK_CL(run_mix(f, f->buf[i], f->ref[i], N));
  CHECK_CL(run_mix(f, f->sub, f->ref[2] + f->sub_off, N / 2));
  uint32_t *got = malloc(N * 4);
  for (int i = 0; i < 3; i++) {
    memset(got, 0xA5, N * 4);
    CHECK_CL(clEnqueueReadBuffer(f->q, f->buf[i], CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
    CHECK_U32(got, f->ref[i], N, "%s: buffer %d", when, i);
  }
  free(got);
}

static const struct {
  const char *point;
  cl_int err;
} faults[] = {{"alloc", CL_MEM_OBJECT_ALLOCATION_FAILURE},
              {"build", CL_BUILD_PROGRAM_FAILURE},
              {"transfer", CL_OUT_OF_RESOURCES}};

static void injected(cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, bool enqueued) {
  for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
    fixture f;
    CHECK(fixture_init(&f, from));
    char when[128];
    snprintf(when, sizeof when, "after the failed %s migration %u -> %u (fault %s)", enqueued ? "enqueued" : "host",
             from, to, faults[i].point);
    cl_uint count = mg_migrations(f.ctx);
    setenv("HETGPU_FAULT_INJECT", faults[i].point, 1);
    cl_migration_report_hetgpu r;
    memset(&r, 0x5A, sizeof r);
    cl_int err;
    if (enqueued) {
      cl_event ev;
      err = mg.enqueue_migrate(f.q, to, 0, 0, 0, NULL, &ev);
      if (err == CL_SUCCESS) {
        clWaitForEvents(1, &ev);
        clFinish(f.q);
        err = mg_status(ev);
        clReleaseEvent(ev);
      }
      clGetContextInfo(f.ctx, CL_CONTEXT_LAST_MIGRATION_HETGPU, sizeof r, &r, NULL);
    } else {
      err = mg.migrate(f.ctx, to, 0, 0, &r);
    }
    unsetenv("HETGPU_FAULT_INJECT");
    CHECK_MSG(err == faults[i].err, "%s: returned %d, want %d", when, err, faults[i].err);
    CHECK_MSG(r.status == faults[i].err && r.source == from && r.target == to, "%s: report status %d, %u -> %u", when,
              r.status, r.source, r.target);
    CHECK_MSG(mg_backend_of(f.ctx) == from, "%s: the context is on %u", when, mg_backend_of(f.ctx));
    CHECK(mg_migrations(f.ctx) == count);
    check_buffers(&f, when);
    CHECK(mg_backend_of(f.ctx) == from);
    /* without the fault it works, and everything is right on the target */
    CHECK_CL(mg.migrate(f.ctx, to, 0, 0, &r));
    CHECK(mg_backend_of(f.ctx) == to && mg_migrations(f.ctx) == count + 1 && r.status == CL_SUCCESS);
    snprintf(when, sizeof when, "after the good migration following fault %s", faults[i].point);
    check_buffers(&f, when);
    fixture_free(&f);
  }
}

HG_TEST(fault_vendor_to_riscv) {
  MG_REQUIRE();
  injected(mg_vendor, mg_riscv, false);
}

HG_TEST(fault_riscv_to_vendor) {
  MG_REQUIRE();
  injected(mg_riscv, mg_vendor, false);
}

HG_TEST(fault_enqueued_migration) {
  MG_REQUIRE();
  injected(mg_vendor, mg_riscv, true);
}

/* All three faults at once: the first phase that meets one fails. */
HG_TEST(fault_list) {
  MG_REQUIRE();
  fixture f;
  CHECK(fixture_init(&f, mg_vendor));
  setenv("HETGPU_FAULT_INJECT", "transfer,alloc,build", 1);
  cl_int err = mg.migrate(f.ctx, mg_riscv, 0, 0, NULL);
  unsetenv("HETGPU_FAULT_INJECT");
  CHECK_MSG(err == CL_BUILD_PROGRAM_FAILURE || err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES,
            "returned %d", err);
  CHECK(mg_backend_of(f.ctx) == mg_vendor);
  check_buffers(&f, "after all faults");
  /* a list naming none of the phases changes nothing */
  setenv("HETGPU_FAULT_INJECT", "allocx,buil,", 1);
  err = mg.migrate(f.ctx, mg_riscv, 0, 0, NULL);
  unsetenv("HETGPU_FAULT_INJECT");
  CHECK_CL(err);
  CHECK(mg_backend_of(f.ctx) == mg_riscv);
  check_buffers(&f, "after a fault list naming no phase");
  fixture_free(&f);
}

/* A long kernel on RISC-V, a migration (and a checkpoint) with a 1 ms timeout meanwhile. */
static void timeout_case(bool checkpoint) {
  fixture f;
  CHECK(fixture_init(&f, mg_riscv));
  cl_int err;
  cl_kernel spin = clCreateKernel(f.prog, "spin", &err);
  CHECK_CL(err);
  const size_t n = 1024;
  const cl_uint iters = 40000;
  uint32_t *ref = mg_random_u32(n);
  cl_mem b = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, n * 4, ref, &err);
  CHECK_CL(err);
  for (size_t i = 0; i < n; i++)
    for (cl_uint k = 0; k < iters; k++)
      ref[i] = ref[i] * 1664525u + 1013904223u;
  CHECK_CL(clSetKernelArg(spin, 0, sizeof b, &b));
  CHECK_CL(clSetKernelArg(spin, 1, sizeof iters, &iters));
  cl_event ev;
  size_t global = n, local = 64;
  CHECK_CL(clEnqueueNDRangeKernel(f.q, spin, 1, NULL, &global, &local, 0, NULL, &ev));
  CHECK_CL(clFlush(f.q));
  for (int i = 0; i < 20000 && mg_status(ev) > CL_RUNNING; i++) {
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
  }
  cl_migration_report_hetgpu r;
  memset(&r, 0, sizeof r);
  if (checkpoint)
    err = mg.checkpoint(f.ctx, "migrate_failure_timeout.hgsnap", 0, 1000000);
  else
    err = mg.migrate(f.ctx, mg_vendor, 0, 1000000, &r);
  bool still_running = mg_status(ev) != CL_COMPLETE;
  if (still_running) {
    CHECK_MSG(err == CL_MIGRATION_TIMEOUT_HETGPU, "%s while a kernel ran: %d, want CL_MIGRATION_TIMEOUT_HETGPU",
              checkpoint ? "checkpoint" : "migration", err);
    if (!checkpoint)
      CHECK(r.status == CL_MIGRATION_TIMEOUT_HETGPU && mg_backend_of(f.ctx) == mg_riscv && mg_migrations(f.ctx) == 1);
  } else {
    printf("    the kernel ended before the timeout: not a timeout case (returned %d)\n", err);
    CHECK(err == CL_SUCCESS || err == CL_MIGRATION_TIMEOUT_HETGPU);
  }
  CHECK_CL(clWaitForEvents(1, &ev));
  CHECK(mg_status(ev) == CL_COMPLETE);
  uint32_t *got = malloc(n * 4);
  memset(got, 0xA5, n * 4);
  CHECK_CL(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref, n, "the long kernel's result");
  check_buffers(&f, "after the timeout");
  CHECK_CL(mg.migrate(f.ctx, mg_vendor, 0, 0, NULL));
  CHECK(mg_backend_of(f.ctx) == mg_vendor);
  memset(got, 0xA5, n * 4);
  CHECK_CL(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref, n, "the long kernel's result after the migration");
  check_buffers(&f, "after the migration that followed the timeout");
  remove("migrate_failure_timeout.hgsnap");
  free(got), free(ref);
  clReleaseEvent(ev);
  clReleaseMemObject(b);
  clReleaseKernel(spin);
  fixture_free(&f);
}

HG_TEST(timeout_while_kernel_runs) {
  MG_REQUIRE();
  timeout_case(false);
}

HG_TEST(checkpoint_timeout_while_kernel_runs) {
  MG_REQUIRE();
  timeout_case(true);
}
