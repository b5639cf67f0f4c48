/* Several threads enqueue kernels and reads in a loop - three with their own queue, two sharing
 * one queue - while another thread migrates the context back and forth between PoCL and RISC-V
 * (and one worker also enqueues migrations on its queue). Every result matches the host
 * reference. Also run under ThreadSanitizer (tools/test.sh, HETGPU_TSAN=1). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "migrate_util.h"

#define N 2048
#define LS 64
#define ITERS 30
#define NWORKERS 5
#define MIN_MIGRATIONS 16

typedef struct worker {
  int id;
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  uint32_t seed;
  bool enqueue_migrations;
  atomic_int *done;
  char error[256];
  int migrations_enqueued;
} worker;

static uint32_t next_rand(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s ^ (*s >> 15);
}

static void *worker_main(void *arg) {
  worker *w = arg;
  cl_int err;
  cl_kernel mix = clCreateKernel(w->prog, "wgmix", &err);
  cl_kernel st = clCreateKernel(w->prog, "stencil", &err);
  uint32_t *ref = malloc(N * 4), *ref2 = malloc(N * 4), *got = malloc(N * 4);
  for (int i = 0; i < N; i++)
    ref[i] = next_rand(&w->seed);
  cl_mem a = clCreateBuffer(w->ctx, CL_MEM_COPY_HOST_PTR, N * 4, ref, &err);
  cl_mem b = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
  if (!mix || !st || !a || !b) {
    snprintf(w->error, sizeof w->error, "worker %d: setup failed (%d)", w->id, err);
    goto out;
  }
  for (int it = 0; it < ITERS; it++) {
    uint32_t add = next_rand(&w->seed);
    cl_uint n = N;
    size_t global = N, local = LS;
    err = clSetKernelArg(mix, 0, sizeof a, &a);
    err |= clSetKernelArg(mix, 1, LS * 4, NULL);
    err |= clSetKernelArg(mix, 2, sizeof add, &add);
    err |= clSetKernelArg(st, 0, sizeof a, &a);
    err |= clSetKernelArg(st, 1, sizeof b, &b);
    err |= clSetKernelArg(st, 2, (LS + 2) * 4, NULL);
    err |= clSetKernelArg(st, 3, sizeof n, &n);
    err |= clSetKernelArg(st, 4, sizeof add, &add);
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(w->q, mix, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(w->q, st, 1, NULL, &global, &local, 0, NULL, NULL);
    cl_event mev = NULL;
    if (err == CL_SUCCESS && w->enqueue_migrations && it % 5 == 2) {
      err = mg.enqueue_migrate(w->q, it % 10 == 2 ? mg_riscv : mg_vendor, 0, 0, 0, NULL, &mev);
      w->migrations_enqueued++;
    }
    mg_ref_mix(ref, N, LS, add);
    mg_ref_stencil(ref, ref2, N, add);
    memset(got, 0xA5, N * 4);
    if (err == CL_SUCCESS)
      err = clEnqueueReadBuffer(w->q, b, CL_TRUE, 0, N * 4, got, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      snprintf(w->error, sizeof w->error, "worker %d, iteration %d: error %d", w->id, it, err);
      goto out;
    }
    if (mev) {
      cl_int s = mg_status(mev);
      clReleaseEvent(mev);
      if (s != CL_COMPLETE) {
        snprintf(w->error, sizeof w->error, "worker %d, iteration %d: enqueued migration ended with %d", w->id, it, s);
        goto out;
      }
    }
    size_t d = mg_first_diff(got, ref2, N);
    if (d != (size_t)-1) {
      snprintf(w->error, sizeof w->error, "worker %d, iteration %d: element %zu is %08x, want %08x", w->id, it, d,
               got[d], ref2[d]);
      goto out;
    }
    /* and the mixed buffer itself, from time to time */
    if (it % 4 == 3) {
      err = clEnqueueReadBuffer(w->q, a, CL_TRUE, 0, N * 4, got, 0, NULL, NULL);
      d = err == CL_SUCCESS ? mg_first_diff(got, ref, N) : 0;
      if (d != (size_t)-1) {
        snprintf(w->error, sizeof w->error, "worker %d, iteration %d: mixed buffer element %zu wrong (err %d)", w->id,
                 it, d, err);
        goto out;
      }
    }
  }
out:
  atomic_fetch_add(w->done, 1);
  if (a)
    clReleaseMemObject(a);
  if (b)
    clReleaseMemObject(b);
  if (mix)
    clReleaseKernel(mix);
  if (st)
    clReleaseKernel(st);
  free(ref), free(ref2), free(got);
  return NULL;
}

typedef struct migrator {
  cl_context ctx;
  atomic_int *done;
  int count;
  char error[256];
} migrator;

static void *migrator_main(void *arg) {
  migrator *m = arg;
  for (int i = 0; atomic_load(m->done) < NWORKERS || i < MIN_MIGRATIONS; i++) {
    cl_backend_id_hetgpu to = i % 2 ? mg_vendor : mg_riscv;
    cl_migration_report_hetgpu r;
    cl_int err = mg.migrate(m->ctx, to, 0, 0, &r);
    if (err != CL_SUCCESS || r.status != CL_SUCCESS || r.target != to) {
      snprintf(m->error, sizeof m->error, "migration %d to %u: %d (report status %d, target %u)", i, to, err, r.status,
               r.target);
      break;
    }
    m->count++;
    struct timespec pause = {0, 200000}; /* lets the workers' commands in between migrations */
    nanosleep(&pause, NULL);
  }
  return NULL;
}

HG_TEST(workers_and_migrator) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  cl_program prog = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(prog);
  cl_command_queue own[3], shared = hg_test_queue(ctx, 0);
  atomic_int done;
  atomic_init(&done, 0);
  worker w[NWORKERS];
  for (int i = 0; i < NWORKERS; i++) {
    w[i] = (worker){.id = i, .ctx = ctx, .prog = prog, .seed = hg_test_rand(), .done = &done};
    w[i].q = i < 3 ? (own[i] = hg_test_queue(ctx, 0)) : shared;
    w[i].enqueue_migrations = i == 1;
  }
  migrator m = {.ctx = ctx, .done = &done};
  pthread_t tw[NWORKERS], tm;
  CHECK(pthread_create(&tm, NULL, migrator_main, &m) == 0);
  for (int i = 0; i < NWORKERS; i++)
    CHECK(pthread_create(&tw[i], NULL, worker_main, &w[i]) == 0);
  for (int i = 0; i < NWORKERS; i++)
    pthread_join(tw[i], NULL);
  pthread_join(tm, NULL);
  for (int i = 0; i < NWORKERS; i++)
    CHECK_MSG(!w[i].error[0], "%s", w[i].error);
  CHECK_MSG(!m.error[0], "%s", m.error);
  printf("    %d migrations from the host thread, %d enqueued\n", m.count, w[1].migrations_enqueued);
  CHECK(m.count >= MIN_MIGRATIONS);
  CHECK(mg_migrations(ctx) >= (cl_uint)MIN_MIGRATIONS);
  for (int i = 0; i < 3; i++)
    clReleaseCommandQueue(own[i]);
  clReleaseCommandQueue(shared);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
}
