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

static void *open_gate(void *gate) {
  clSetUserEventStatus((cl_event)gate, CL_COMPLETE);
  return NULL;
}

/* Enqueues `k` behind a user event (`*gate`, still closed) and returns at once. On PoCL a
 * stoppable launch runs in the thread that submits it (platform/enqueue_kernel.c): ungated, the
 * enqueue itself would run the kernel to its end and a migration asked for after it would find
 * nothing to stop. Gated, it runs in whichever thread opens the gate (open_gate). */
static cl_int enqueue_gated(cl_context ctx, cl_command_queue q, cl_kernel k, size_t global, size_t local,
                            cl_event *ev, cl_event *gate) {
  cl_int err;
  *gate = clCreateUserEvent(ctx, &err);
  if (err != CL_SUCCESS)
    return err;
  err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 1, gate, ev);
  if (err != CL_SUCCESS) {
    clSetUserEventStatus(*gate, CL_COMPLETE);
    clReleaseEvent(*gate);
  }
  return err;
}

/* Migrates `ctx` to `target` at a safe point once `ev` runs, after `delay_us`. */
typedef struct mover {
  cl_context ctx;
  cl_event ev;
  cl_backend_id_hetgpu target;
  unsigned delay_us;
  cl_int err;
  cl_migration_report_hetgpu report;
} mover;

static void *move_when_running(void *arg) {
  mover *m = arg;
  mg_wait_running(m->ev);
  mg_sleep_us(m->delay_us);
  m->err = mg.migrate(m->ctx, m->target, CL_MIGRATE_AT_SAFE_POINT_HETGPU, 0, &m->report);
  return NULL;
}

/* One launch of grid_lcg or group_iter over `n` uints. */
typedef struct launch_spec {
  const char *kernel;
  uint32_t n, rounds;
  size_t global, local;
} launch_spec;

/* Runs `s` on `from` over `init` into `out`. With `to` != `from`: the launch is gated, a thread
 * moves the context to `to` at a safe point `delay_us` after the launch starts running, and the
 * gate is opened only then, so the kernel runs while the migration is asked for; `*report` is
 * the migration's. With `to` == `from` it runs unmigrated. */
static cl_int run_spec(const launch_spec *s, const uint32_t *init, cl_backend_id_hetgpu from, cl_backend_id_hetgpu to,
                       unsigned delay_us, uint32_t *out, cl_migration_report_hetgpu *report) {
  cl_context ctx = hg_test_context();
  cl_int err = mg.migrate(ctx, from, 0, 0, NULL);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_kernel k = clCreateKernel(p, s->kernel, err == CL_SUCCESS ? &err : NULL);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, s->n * 4, (void *)init, err == CL_SUCCESS ? &err : NULL);
  if (err == CL_SUCCESS && !strcmp(s->kernel, "grid_lcg")) {
    err = clSetKernelArg(k, 0, sizeof buf, &buf);
    err |= clSetKernelArg(k, 1, 4, &s->n);
    err |= clSetKernelArg(k, 2, 4, &s->rounds);
  } else if (err == CL_SUCCESS) {
    err = clSetKernelArg(k, 0, sizeof buf, &buf);
    err |= clSetKernelArg(k, 1, s->local * 4, NULL);
    err |= clSetKernelArg(k, 2, 4, &s->rounds);
  }
  if (err == CL_SUCCESS && to == from) {
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &s->global, &s->local, 0, NULL, NULL);
  } else if (err == CL_SUCCESS && (err = mg_build_both(ctx, from, to)) == CL_SUCCESS &&
             (err = mg_wait_for_forms(k)) == CL_SUCCESS) {
    cl_event ev, gate;
    err = enqueue_gated(ctx, q, k, s->global, s->local, &ev, &gate);
    if (err == CL_SUCCESS) {
      mover m = {.ctx = ctx, .ev = ev, .target = to, .delay_us = delay_us};
      pthread_t mt, gt;
      pthread_create(&mt, NULL, move_when_running, &m);
      pthread_create(&gt, NULL, open_gate, gate);
      err = clWaitForEvents(1, &ev);
      pthread_join(gt, NULL);
      pthread_join(mt, NULL);
      clReleaseEvent(gate);
      clReleaseEvent(ev);
      *report = m.report;
      if (err == CL_SUCCESS)
        err = m.err;
      if (err == CL_SUCCESS && mg_backend_of(ctx) != to)
        err = CL_INVALID_VALUE;
    }
  }
  memset(out, 0xA5, s->n * 4);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, s->n * 4, out, 0, NULL, NULL);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return err;
}

/* `s` moved `from` -> `to` mid-flight against the same launch unmigrated on `from` and the host;
 * the report must show the launch stopped on `from` and resumed on `to`. */
static void moved_case(const launch_spec *s, cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, unsigned delay_us) {
  uint32_t *init = mg_random_u32(s->n), *want = malloc(s->n * 4), *plain = malloc(s->n * 4), *got = malloc(s->n * 4);
  memcpy(want, init, s->n * 4);
  if (!strcmp(s->kernel, "grid_lcg"))
    ref_grid_lcg(want, s->n, s->rounds);
  else
    ref_group_iter(want, s->n, (uint32_t)s->local, s->rounds);
  CHECK_CL(run_spec(s, init, from, from, 0, plain, NULL));
  CHECK_U32(plain, want, s->n, "%s unmigrated on backend %u against the host", s->kernel, from);
  cl_migration_report_hetgpu r = {0};
  /* A launch of a few milliseconds can end before a loaded machine (CI: two tests at once under
   * ThreadSanitizer) even wakes the thread that asks for the stop; such a run stopped nothing and
   * tests nothing here, and is made again, a few times at most. Every run's result is checked. */
  for (int attempt = 1; attempt <= 4; attempt++) {
    memset(&r, 0, sizeof r);
    CHECK_CL(run_spec(s, init, from, to, delay_us, got, &r));
    printf("  %s %u x %u rounds: moved %u -> %u with %u kernel(s) stopped, prepare %.3f ms, quiesce %.3f ms\n",
           s->kernel, s->n, s->rounds, r.source, r.target, r.kernels_stopped, r.prepare_ns / 1e6, r.quiesce_ns / 1e6);
    CHECK_U32(got, plain, s->n, "%s moved mid-flight %u -> %u against the same launch unmigrated", s->kernel, from, to);
    if (r.kernels_stopped)
      break;
  }
  /* otherwise the launch ended before the migration, every time, and nothing was stopped or resumed */
  CHECK_MSG(r.source == from && r.target == to && r.kernels_stopped >= 1,
            "%s was not stopped mid-flight: moved %u -> %u with %u kernel(s) stopped", s->kernel, r.source, r.target,
            r.kernels_stopped);
  free(init), free(want), free(plain), free(got);
}

/* Sizes: long enough on PoCL that a stop asked for once the launch runs lands inside it, short
 * enough that the RISC-V simulator (far slower) runs the rest, or the whole unmigrated run, in a
 * few seconds. */
static const launch_spec grid_pocl = {"grid_lcg", 8192, 3000, 1024, 64};
static const launch_spec grid_riscv = {"grid_lcg", 8192, 3000, 1024, 64};
static const launch_spec group_pocl = {"group_iter", 2048, 4000, 2048, 64};
static const launch_spec group_riscv = {"group_iter", 2048, 4000, 2048, 64};

HG_TEST(grid_loop_vendor_to_riscv) {
  MG_REQUIRE();
  moved_case(&grid_pocl, mg_vendor, mg_riscv, mg_stop_delay_us(2));
}

HG_TEST(grid_loop_riscv_to_vendor) {
  MG_REQUIRE();
  moved_case(&grid_riscv, mg_riscv, mg_vendor, 50000);
}

HG_TEST(barrier_loop_vendor_to_riscv) {
  MG_REQUIRE();
  moved_case(&group_pocl, mg_vendor, mg_riscv, mg_stop_delay_us(2));
}

HG_TEST(barrier_loop_riscv_to_vendor) {
  MG_REQUIRE();
  moved_case(&group_riscv, mg_riscv, mg_vendor, 50000);
}

/* Back and forth: the launch is moved several times while it runs; it must be stopped at least
 * once on each backend. */
/* CL_KERNEL_STOPPABLE_HETGPU: true for a loop kernel on both backends (on PoCL once its
 * forms, built in the background, are made: the query waits for them), sized as a cl_bool. */
HG_TEST(kernel_stoppable_query) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, NULL));
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "grid_lcg", &err);
  CHECK_CL(err);
  size_t size = 0;
  cl_bool stoppable = CL_FALSE;
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_STOPPABLE_HETGPU, 0, NULL, &size));
  CHECK_MSG(size == sizeof(cl_bool), "size %zu", size);
  CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_STOPPABLE_HETGPU, 1, &stoppable, NULL), CL_INVALID_VALUE);
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_STOPPABLE_HETGPU, sizeof stoppable, &stoppable, NULL));
  CHECK_MSG(stoppable == CL_TRUE, "on the vendor backend: %u", stoppable);
  stoppable = CL_FALSE;
  CHECK_CL(mg.migrate(ctx, mg_riscv, 0, 0, NULL));
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_STOPPABLE_HETGPU, sizeof stoppable, &stoppable, NULL));
  CHECK_MSG(stoppable == CL_TRUE, "on RISC-V: %u", stoppable);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(grid_loop_back_and_forth) {
  MG_REQUIRE();
  const launch_spec s = {"grid_lcg", 4096, 20000, 512, 64};
  uint32_t *init = mg_random_u32(s.n), *want = malloc(s.n * 4), *plain = malloc(s.n * 4), *got = malloc(s.n * 4);
  memcpy(want, init, s.n * 4);
  ref_grid_lcg(want, s.n, s.rounds);
  CHECK_CL(run_spec(&s, init, mg_vendor, mg_vendor, 0, plain, NULL));
  CHECK_U32(plain, want, s.n, "grid_lcg unmigrated on PoCL against the host");

  cl_context ctx = hg_test_context();
  CHECK_CL(mg.migrate(ctx, mg_vendor, 0, 0, NULL));
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, sp_src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "grid_lcg", &err);
  CHECK_CL(err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, s.n * 4, init, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, 4, &s.n));
  CHECK_CL(clSetKernelArg(k, 2, 4, &s.rounds));
  CHECK_CL(mg_build_both(ctx, mg_vendor, mg_riscv));
  CHECK_CL(mg_wait_for_forms(k));
  cl_event ev, gate;
  CHECK_CL(enqueue_gated(ctx, q, k, s.global, s.local, &ev, &gate));
  pthread_t gt;
  pthread_create(&gt, NULL, open_gate, gate);
  mg_wait_running(ev);
  /* stops per direction: [0] on PoCL, moved to RISC-V; [1] on RISC-V, moved to PoCL */
  unsigned stopped[2] = {0, 0}, moves = 0;
  cl_int merr = CL_SUCCESS;
  for (int i = 0; i < 6 && merr == CL_SUCCESS && mg_status(ev) != CL_COMPLETE; i++) {
    mg_sleep_us(i ? 15000 : mg_stop_delay_us(2));
    cl_migration_report_hetgpu r = {0};
    merr = mg.migrate(ctx, i % 2 ? mg_vendor : mg_riscv, CL_MIGRATE_AT_SAFE_POINT_HETGPU, 0, &r);
    stopped[r.target == mg_vendor] += r.kernels_stopped;
    moves++;
  }
  cl_int werr = clWaitForEvents(1, &ev);
  pthread_join(gt, NULL);
  clReleaseEvent(gate);
  clReleaseEvent(ev);
  CHECK_CL(merr);
  CHECK_CL(werr);
  printf("  %u moves: stopped %u time(s) on PoCL -> RISC-V, %u time(s) on RISC-V -> PoCL\n", moves, stopped[0],
         stopped[1]);
  memset(got, 0xA5, s.n * 4);
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, s.n * 4, got, 0, NULL, NULL));
  CHECK_U32(got, plain, s.n, "grid_lcg moved %u times against the same launch unmigrated", moves);
  CHECK_MSG(stopped[0] >= 1 && stopped[1] >= 1,
            "the launch was not stopped both ways: %u stop(s) PoCL -> RISC-V, %u RISC-V -> PoCL", stopped[0],
            stopped[1]);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(init), free(want), free(plain), free(got);
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
  cl_event ev = NULL, gate = NULL;
  if (err == CL_SUCCESS)
    err = mg_wait_for_forms(k);
  /* gated so the launch runs in a thread of its own and this one takes the checkpoint */
  if (err == CL_SUCCESS)
    err = enqueue_gated(ctx, q, k, 512, 64, &ev, &gate);
  pthread_t gt;
  if (err == CL_SUCCESS)
    pthread_create(&gt, NULL, open_gate, gate);
  if (err == CL_SUCCESS)
    mg_wait_running(ev);
  mg_sleep_us(mg_stop_delay_us(30));
  if (err == CL_SUCCESS && mg_status(ev) != CL_RUNNING)
    err = CL_INVALID_EVENT; /* ended before the checkpoint: nothing would be captured in flight */
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
  /* otherwise process A's launch was waited for, not stopped, and the restore resumes nothing */
  CHECK_MSG(mg_snapshot_has_kernel_state(snap), "the snapshot has no KERNEL_STATE section: the running kernel was not "
                                                "stopped at the checkpoint");

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
  uint32_t *plain = malloc(CK_N * 4);
  const launch_spec s = {"grid_lcg", CK_N, CK_ROUNDS, 512, 64};
  CHECK_CL(run_spec(&s, want, mg_vendor, mg_vendor, 0, plain, NULL));
  ref_grid_lcg(want, CK_N, CK_ROUNDS);
  CHECK_U32(plain, want, CK_N, "grid_lcg unmigrated on PoCL against the host");
  CHECK_U32(got, plain, CK_N, "a kernel checkpointed running on PoCL, finished on RISC-V in another process, against "
                              "the same launch unmigrated");
  unlink(snap);
  free(got), free(want), free(plain);
  mg_release_restored(ctx);
}
