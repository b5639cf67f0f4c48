/* Migrations at safe points (docs/safe-points.md): a long kernel launch is stopped mid-flight,
 * moved to the other backend (PoCL <-> RISC-V) and finished there; the result must equal the
 * uninterrupted computation on the host, bit for bit (integer work). Kernels: a grid-stride
 * loop without barriers (every work-item stops at its own loop header), and a loop with
 * barriers and local memory (work-groups stop as a unit). Also a checkpoint taken while a
 * kernel runs, restored in another process on the other backend. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "migrate_util.h"

static const char *sp_src =
    "__kernel void grid_lcg(__global uint *buf, uint n, uint rounds) {\n"
    "  for (uint r = 0; r < rounds; r++)\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "      buf[i] = buf[i] * 1664525u + 1013904223u + r;\n"
    "}\n"
    "__kernel void group_iter(__global uint *buf, __local uint *tile, uint rounds) {\n"
    "  uint l = get_local_id(0), ls = get_local_size(0), g = get_global_id(0);\n"
    "  uint v = buf[g];\n"
    "  uint hist[4] = {0, 0, 0, 0};\n"
    "  for (uint r = 0; r < rounds; r++) {\n"
    "    tile[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = v * 3u + (tile[(l + 1) % ls] ^ r);\n"
    "    hist[v & 3] += 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  buf[g] = v + hist[0] * 7u + hist[1] * 11u + hist[2] * 13u + hist[3];\n"
    "}\n";

static void ref_grid_lcg(uint32_t *buf, uint32_t n, uint32_t rounds) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x = buf[i];
    for (uint32_t r = 0; r < rounds; r++)
      x = x * 1664525u + 1013904223u + r;
    buf[i] = x;
  }
}

static void ref_group_iter(uint32_t *buf, uint32_t n, uint32_t ls, uint32_t rounds) {
  uint32_t *v = malloc(ls * 4), *tile = malloc(ls * 4), (*hist)[4] = calloc(ls, sizeof *hist);
  for (uint32_t g0 = 0; g0 < n; g0 += ls) {
    memcpy(v, buf + g0, ls * 4);
    memset(hist, 0, ls * sizeof *hist);
    for (uint32_t r = 0; r < rounds; r++) {
      memcpy(tile, v, ls * 4);
      for (uint32_t l = 0; l < ls; l++) {
        v[l] = v[l] * 3u + (tile[(l + 1) % ls] ^ r);
        hist[l][v[l] & 3]++;
      }
    }
    for (uint32_t l = 0; l < ls; l++)
      buf[g0 + l] = v[l] + hist[l][0] * 7u + hist[l][1] * 11u + hist[l][2] * 13u + hist[l][3];
  }
  free(v), free(tile), free(hist);
}

/* Migrates `ctx` to `target` at a safe point once `ev` runs, after `delay_ms`. */
typedef struct mover {
  cl_context ctx;
  cl_event ev;
  cl_backend_id_hetgpu target;
  unsigned delay_ms;
  cl_int err;
  cl_migration_report_hetgpu report;
} mover;

static void sleep_ms(unsigned ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *move_when_running(void *arg) {
  mover *m = arg;
  for (int i = 0; i < 20000 && mg_status(m->ev) > CL_RUNNING; i++)
    sleep_ms(1);
  sleep_ms(m->delay_ms);
  m->err = mg.migrate(m->ctx, m->target, CL_MIGRATE_AT_SAFE_POINT_HETGPU, 0, &m->report);
  return NULL;
}

/* Runs `kernel` (args set by the caller) over `global`/`local` on `from`, moves it to `to` at a
 * safe point while it runs, and returns the report; the caller compares the buffer. */
static cl_int run_and_move(cl_context ctx, cl_command_queue q, cl_kernel k, size_t global, size_t local,
                           cl_backend_id_hetgpu to, unsigned delay_ms, cl_migration_report_hetgpu *report) {
  cl_event ev;
  cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
  if (err != CL_SUCCESS)
    return err;
  mover m = {.ctx = ctx, .ev = ev, .target = to, .delay_ms = delay_ms};
  pthread_t t;
  pthread_create(&t, NULL, move_when_running, &m);
  err = clWaitForEvents(1, &ev);
  pthread_join(t, NULL);
  clReleaseEvent(ev);
  *report = m.report;
  return err != CL_SUCCESS ? err : m.err;
}

static void grid_case(cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, uint32_t n, uint32_t rounds,
                      unsigned delay_ms) {
  cl_context ctx = hg_test_context();
  CHECK_CL(mg.migrate(ctx, from, 0, 0, NULL));
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "grid_lcg", &err);
  CHECK_CL(err);
  uint32_t *want = mg_random_u32(n), *got = malloc(n * 4);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, want, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, 4, &n));
  CHECK_CL(clSetKernelArg(k, 2, 4, &rounds));
  cl_migration_report_hetgpu r;
  CHECK_CL(run_and_move(ctx, q, k, 1024, 64, to, delay_ms, &r));
  printf("  grid_lcg %u x %u rounds: moved %u -> %u with %u kernel(s) stopped, quiesce %.3f ms\n", n, rounds,
         r.source, r.target, r.kernels_stopped, r.quiesce_ns / 1e6);
  CHECK(mg_backend_of(ctx) == to);
  memset(got, 0xA5, n * 4);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  ref_grid_lcg(want, n, rounds);
  CHECK_U32(got, want, n, "grid_lcg moved mid-flight");
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(want), free(got);
}

static void group_case(cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, uint32_t n, uint32_t ls, uint32_t rounds,
                       unsigned delay_ms) {
  cl_context ctx = hg_test_context();
  CHECK_CL(mg.migrate(ctx, from, 0, 0, NULL));
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "group_iter", &err);
  CHECK_CL(err);
  uint32_t *want = mg_random_u32(n), *got = malloc(n * 4);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, want, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, ls * 4, NULL));
  CHECK_CL(clSetKernelArg(k, 2, 4, &rounds));
  cl_migration_report_hetgpu r;
  CHECK_CL(run_and_move(ctx, q, k, n, ls, to, delay_ms, &r));
  printf("  group_iter %u items, groups of %u, %u rounds: moved %u -> %u with %u kernel(s) stopped, quiesce %.3f ms\n",
         n, ls, rounds, r.source, r.target, r.kernels_stopped, r.quiesce_ns / 1e6);
  CHECK(mg_backend_of(ctx) == to);
  memset(got, 0xA5, n * 4);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  ref_group_iter(want, n, ls, rounds);
  CHECK_U32(got, want, n, "group_iter moved mid-flight");
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(want), free(got);
}

HG_TEST(grid_loop_vendor_to_riscv) {
  MG_REQUIRE();
  grid_case(mg_vendor, mg_riscv, 8192, 3000, 20);
}

HG_TEST(grid_loop_riscv_to_vendor) {
  MG_REQUIRE();
  grid_case(mg_riscv, mg_vendor, 8192, 3000, 50);
}

HG_TEST(barrier_loop_vendor_to_riscv) {
  MG_REQUIRE();
  group_case(mg_vendor, mg_riscv, 2048, 64, 4000, 20);
}

HG_TEST(barrier_loop_riscv_to_vendor) {
  MG_REQUIRE();
  group_case(mg_riscv, mg_vendor, 2048, 64, 4000, 50);
}

/* Back and forth: the launch is moved several times while it runs. */
HG_TEST(grid_loop_back_and_forth) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, NULL));
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "grid_lcg", &err);
  CHECK_CL(err);
  uint32_t n = 4096, rounds = 20000;
  uint32_t *want = mg_random_u32(n), *got = malloc(n * 4);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, want, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, 4, &n));
  CHECK_CL(clSetKernelArg(k, 2, 4, &rounds));
  size_t global = 512, local = 64;
  cl_event ev;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
  while (mg_status(ev) > CL_RUNNING)
    sleep_ms(1);
  unsigned stopped = 0, moves = 0;
  for (int i = 0; i < 6 && mg_status(ev) != CL_COMPLETE; i++) {
    sleep_ms(15);
    cl_migration_report_hetgpu r;
    CHECK_CL(mg.migrate(ctx, i % 2 ? mg_vendor : mg_riscv, CL_MIGRATE_AT_SAFE_POINT_HETGPU, 0, &r));
    stopped += r.kernels_stopped;
    moves++;
  }
  CHECK_CL(clWaitForEvents(1, &ev));
  clReleaseEvent(ev);
  printf("  %u moves, %u of them stopped the kernel mid-flight\n", moves, stopped);
  memset(got, 0xA5, n * 4);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  ref_grid_lcg(want, n, rounds);
  CHECK_U32(got, want, n, "grid_lcg moved %u times", moves);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(want), free(got);
}

/* ---- a checkpoint of a running kernel, restored by another process on the other backend ---- */

#define CK_N 4096u
#define CK_ROUNDS 40000u

/* Process A (HG_SP_STEP=A): a long grid_lcg on the vendor backend, a checkpoint at a safe point
 * while it runs, "ok" on the pipe, then waits to be killed. */
HG_TEST(checkpoint_process_a) {
  const char *step = getenv("HG_SP_STEP");
  if (!step || strcmp(step, "A")) {
    hg_test_skip("process A of running_kernel_checkpoint (HG_SP_STEP=A)");
    return;
  }
  FILE *out = fdopen(atoi(getenv("HG_SP_FD")), "w");
  CHECK(out);
  cl_int err = mg_init() ? CL_SUCCESS : CL_INVALID_PLATFORM;
  cl_context ctx = hg_test_context();
  if (err == CL_SUCCESS)
    err = mg.migrate(ctx, mg_vendor, 0, 0, NULL);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_kernel k = clCreateKernel(p, "grid_lcg", &err);
  uint32_t n = CK_N, rounds = CK_ROUNDS;
  uint32_t *init = malloc(n * 4);
  srand((unsigned)strtoul(getenv("HG_SP_SEED"), NULL, 10));
  for (uint32_t i = 0; i < n; i++)
    init[i] = (uint32_t)rand() * 2654435761u;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, init, &err);
  mg.set_label(buf, "state");
  clSetKernelArg(k, 0, sizeof buf, &buf);
  clSetKernelArg(k, 1, 4, &n);
  clSetKernelArg(k, 2, 4, &rounds);
  size_t global = 512, local = 64;
  cl_event ev = NULL;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
  while (err == CL_SUCCESS && mg_status(ev) > CL_RUNNING)
    sleep_ms(1);
  sleep_ms(30);
  if (err == CL_SUCCESS)
    err = mg.checkpoint(ctx, getenv("HG_SP_SNAPSHOT"), CL_CHECKPOINT_AT_SAFE_POINT_HETGPU, 0);
  fprintf(out, err == CL_SUCCESS ? "ok\n" : "fail %d\n", err);
  fflush(out);
  for (;;)
    pause(); /* killed by the parent while the kernel goes on here */
}

HG_TEST(running_kernel_checkpoint) {
  if (getenv("HG_SP_STEP"))
    return;
  MG_REQUIRE();
  char snap[256];
  snprintf(snap, sizeof snap, "/tmp/hetgpu-sp-%d.hgsnap", (int)getpid());
  unsigned seed = (unsigned)hg_test_rand();
  int fds[2];
  CHECK(pipe(fds) == 0);
  fflush(stdout);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    char fd[16], sd[16];
    snprintf(fd, sizeof fd, "%d", fds[1]);
    snprintf(sd, sizeof sd, "%u", seed);
    setenv("HG_SP_STEP", "A", 1);
    setenv("HG_SP_FD", fd, 1);
    setenv("HG_SP_SEED", sd, 1);
    setenv("HG_SP_SNAPSHOT", snap, 1);
    execl("/proc/self/exe", "migrate_safepoint", "checkpoint_process_a", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  FILE *in = fdopen(fds[0], "r");
  char line[256] = "";
  bool got_line = in && fgets(line, sizeof line, in) != NULL;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (in)
    fclose(in);
  CHECK_MSG(got_line && !strcmp(line, "ok\n"), "process A: '%s' (exit status %#x)", got_line ? line : "nothing", status);

  /* here: restore on RISC-V; the stopped launch runs on by itself */
  cl_int err;
  cl_context ctx = mg.restore(hg_test_platform, snap, mg_riscv, &err);
  CHECK_CL(err);
  cl_command_queue q;
  cl_uint nq = 0;
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_COMMAND_QUEUE_HETGPU, 1, (void **)&q, &nq));
  cl_mem buf;
  CHECK_CL(mg.get_by_label(ctx, "state", NULL, (void **)&buf));
  CHECK_CL(clFinish(q));
  uint32_t *got = malloc(CK_N * 4), *want = malloc(CK_N * 4);
  memset(got, 0xA5, CK_N * 4);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, CK_N * 4, got, 0, NULL, NULL));
  srand(seed);
  for (uint32_t i = 0; i < CK_N; i++)
    want[i] = (uint32_t)rand() * 2654435761u;
  ref_grid_lcg(want, CK_N, CK_ROUNDS);
  CHECK_U32(got, want, CK_N, "a kernel checkpointed running on PoCL, finished on RISC-V in another process");
  unlink(snap);
  free(got), free(want);
  mg_release_restored(ctx);
}
