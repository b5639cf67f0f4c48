/* Commands queued across a migration: 100 commands (kernels, copies, fills, writes, reads,
 * markers) held back by a user event complete in order, and give the host model's results, when
 * the context migrates in the middle of them - by clEnqueueMigrateContextHETGPU placed among
 * them, or by clMigrateContextHETGPU from the host while they are pending. Every event reaches
 * CL_COMPLETE, every callback fires exactly once with CL_COMPLETE, profiling times are ordered;
 * an out-of-order queue with per-buffer dependency chains migrates too. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "migrate_util.h"

#define N 8192
#define LS 64
#define NCMD 100
#define NBUF 2

typedef struct cb_count {
  atomic_int calls;
  atomic_int bad_status;
} cb_count;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data) {
  (void)e;
  cb_count *c = data;
  if (status != CL_COMPLETE)
    atomic_fetch_add(&c->bad_status, 1);
  atomic_fetch_add(&c->calls, 1);
}

/* Callbacks may run shortly after the events complete: wait (bounded) for them. */
static bool wait_calls(cb_count *c, int want) {
  for (int i = 0; i < 20000 && atomic_load(&c->calls) < want; i++) {
    struct timespec ts = {0, 250000};
    nanosleep(&ts, NULL);
  }
  return atomic_load(&c->calls) >= want;
}

typedef struct qstate {
  cl_context ctx;
  cl_command_queue q;
  cl_kernel mix, stencil;
  cl_mem buf[NBUF];
  uint32_t *ref[NBUF];
  cl_event ev[NCMD + 1];
  int nev;
  cl_event migrate_ev; /* the enqueued migration's event, also in ev[] */
  uint32_t *read_dst[NCMD], *read_want[NCMD], *write_src[NCMD];
  size_t read_len[NCMD];
  int nread, nwrite;
  cb_count cb[NCMD + 1];
} qstate;

static cl_int set_mix(cl_kernel k, cl_mem b, uint32_t add) {
  cl_int err = clSetKernelArg(k, 0, sizeof b, &b);
  err |= clSetKernelArg(k, 1, LS * 4, NULL);
  return err | clSetKernelArg(k, 2, sizeof add, &add);
}

static cl_int set_stencil(cl_kernel k, cl_mem in, cl_mem out, uint32_t add) {
  cl_uint n = N;
  cl_int err = clSetKernelArg(k, 0, sizeof in, &in);
  err |= clSetKernelArg(k, 1, sizeof out, &out);
  err |= clSetKernelArg(k, 2, (LS + 2) * 4, NULL);
  err |= clSetKernelArg(k, 3, sizeof n, &n);
  return err | clSetKernelArg(k, 4, sizeof add, &add);
}

/* Enqueues one random command on buffer set `s` (waiting for `wait`), applies it to the model. */
static cl_int enqueue_random(qstate *s, int b, cl_uint nwait, const cl_event *wait, cl_event *ev) {
  size_t global = N, local = LS;
  size_t off = hg_test_rand() % (N / 2), len = 1 + hg_test_rand() % (N / 2);
  uint32_t add = hg_test_rand();
  int o = (b + 1) % NBUF;
  switch (hg_test_rand() % 7) {
  case 0:
  case 1: {
    cl_int err = set_mix(s->mix, s->buf[b], add);
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(s->q, s->mix, 1, NULL, &global, &local, nwait, wait, ev);
    mg_ref_mix(s->ref[b], N, LS, add);
    return err;
  }
  case 2: {
    /* stencil b -> o (in an out-of-order queue, `wait` covers only b: o's chain is waited by the caller) */
    cl_int err = set_stencil(s->stencil, s->buf[b], s->buf[o], add);
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(s->q, s->stencil, 1, NULL, &global, &local, nwait, wait, ev);
    mg_ref_stencil(s->ref[b], s->ref[o], N, add);
    return err;
  }
  case 3: {
    cl_int err = clEnqueueCopyBuffer(s->q, s->buf[b], s->buf[o], off * 4, (N - len) / 2 * 4, len * 4, nwait, wait, ev);
    memcpy(s->ref[o] + (N - len) / 2, s->ref[b] + off, len * 4);
    return err;
  }
  case 4: {
    uint32_t pattern[2] = {hg_test_rand(), hg_test_rand()};
    size_t pairs = len / 2 ? len / 2 : 1;
    off &= ~(size_t)1;
    cl_int err = clEnqueueFillBuffer(s->q, s->buf[b], pattern, 8, off * 4, pairs * 8, nwait, wait, ev);
    for (size_t i = 0; i < pairs * 2; i++)
      s->ref[b][off + i] = pattern[i % 2];
    return err;
  }
  case 5: {
    uint32_t *src = s->write_src[s->nwrite++] = mg_random_u32(len);
    cl_int err = clEnqueueWriteBuffer(s->q, s->buf[b], CL_FALSE, off * 4, len * 4, src, nwait, wait, ev);
    memcpy(s->ref[b] + off, src, len * 4);
    return err;
  }
  default: {
    int r = s->nread++;
    s->read_dst[r] = malloc(len * 4);
    memset(s->read_dst[r], 0xA5, len * 4);
    s->read_want[r] = malloc(len * 4);
    memcpy(s->read_want[r], s->ref[b] + off, len * 4);
    s->read_len[r] = len;
    return clEnqueueReadBuffer(s->q, s->buf[b], CL_FALSE, off * 4, len * 4, s->read_dst[r], nwait, wait, ev);
  }
  }
}

static void qstate_init(qstate *s, cl_command_queue_properties props) {
  memset(s, 0, sizeof *s);
  s->ctx = hg_test_context();
  s->q = hg_test_queue(s->ctx, props);
  cl_program p = hg_test_build(s->ctx, mg_kernels_src, NULL);
  cl_int err;
  s->mix = clCreateKernel(p, "wgmix", &err);
  s->stencil = clCreateKernel(p, "stencil", &err);
  clReleaseProgram(p);
  for (int i = 0; i < NBUF; i++) {
    s->ref[i] = mg_random_u32(N);
    s->buf[i] = clCreateBuffer(s->ctx, CL_MEM_COPY_HOST_PTR, N * 4, s->ref[i], &err);
  }
}

static void qstate_free(qstate *s) {
  for (int i = 0; i < s->nev; i++)
    clReleaseEvent(s->ev[i]);
  for (int i = 0; i < s->nread; i++)
    free(s->read_dst[i]), free(s->read_want[i]);
  for (int i = 0; i < s->nwrite; i++)
    free(s->write_src[i]);
  for (int i = 0; i < NBUF; i++)
    clReleaseMemObject(s->buf[i]), free(s->ref[i]);
  clReleaseKernel(s->mix);
  clReleaseKernel(s->stencil);
  clReleaseCommandQueue(s->q);
  clReleaseContext(s->ctx);
}

/* Reads, buffers, events, callbacks and profiling of a finished run against the model. */
static void check_results(qstate *s, bool profiling, bool in_order) {
  for (int r = 0; r < s->nread; r++)
    CHECK_U32(s->read_dst[r], s->read_want[r], s->read_len[r], "read command %d of %d", r, s->nread);
  uint32_t *got = malloc(N * 4);
  for (int b = 0; b < NBUF; b++) {
    memset(got, 0xA5, N * 4);
    CHECK_CL(clEnqueueReadBuffer(s->q, s->buf[b], CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
    CHECK_U32(got, s->ref[b], N, "final contents of buffer %d", b);
  }
  free(got);
  cl_ulong prev_end = 0;
  for (int i = 0; i < s->nev; i++) {
    CHECK_MSG(mg_status(s->ev[i]) == CL_COMPLETE, "event %d: status %d", i, mg_status(s->ev[i]));
    CHECK_MSG(wait_calls(&s->cb[i], 1), "event %d: its CL_COMPLETE callback never ran", i);
    CHECK_MSG(atomic_load(&s->cb[i].calls) == 1, "event %d: callback ran %d times", i, atomic_load(&s->cb[i].calls));
    CHECK_MSG(atomic_load(&s->cb[i].bad_status) == 0, "event %d: callback got a status other than CL_COMPLETE", i);
    if (!profiling)
      continue;
    cl_ulong t[4];
    static const cl_profiling_info names[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                               CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int k = 0; k < 4; k++)
      CHECK_CL(clGetEventProfilingInfo(s->ev[i], names[k], sizeof t[k], &t[k], NULL));
    CHECK_MSG(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3],
              "event %d%s: QUEUED %llu SUBMIT %llu START %llu END %llu not ordered", i,
              s->ev[i] == s->migrate_ev ? " (the migration)" : "", (unsigned long long)t[0], (unsigned long long)t[1],
              (unsigned long long)t[2], (unsigned long long)t[3]);
    /* an in-order queue runs each command after the previous one ended */
    CHECK_MSG(!in_order || prev_end <= t[2], "event %d starts at %llu, before event %d ended at %llu", i,
              (unsigned long long)t[2], i - 1, (unsigned long long)prev_end);
    prev_end = t[3];
  }
}

static void in_order_run(bool enqueued_migration, cl_command_queue_properties props) {
  qstate *s = calloc(1, sizeof *s);
  qstate_init(s, props);
  cl_int err;
  cl_event gate = clCreateUserEvent(s->ctx, &err);
  CHECK_CL(err);
  CHECK_CL(mg.migrate(s->ctx, mg_vendor, 0, 0, NULL)); /* wherever HETGPU_BACKEND started it */
  for (int i = 0; i < NCMD; i++) {
    if (enqueued_migration && i == NCMD / 2) {
      CHECK_CL(mg.enqueue_migrate(s->q, mg_riscv, CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU, 0, 0, NULL, &s->migrate_ev));
      s->ev[s->nev++] = s->migrate_ev;
    }
    cl_event *ev = &s->ev[s->nev];
    if (hg_test_rand() % 8 == 0)
      err = clEnqueueMarkerWithWaitList(s->q, i == 0, i == 0 ? &gate : NULL, ev);
    else
      err = enqueue_random(s, (int)(hg_test_rand() % NBUF), i == 0, i == 0 ? &gate : NULL, ev);
    CHECK_MSG(err == CL_SUCCESS, "command %d: enqueue returned %d", i, err);
    s->nev++;
  }
  for (int i = 0; i < s->nev; i++) {
    atomic_init(&s->cb[i].calls, 0);
    atomic_init(&s->cb[i].bad_status, 0);
    CHECK_CL(clSetEventCallback(s->ev[i], CL_COMPLETE, on_complete, &s->cb[i]));
  }
  for (int i = 0; i < s->nev; i++)
    CHECK_MSG(mg_status(s->ev[i]) > CL_COMPLETE, "command %d ran before the gate opened", i);
  if (enqueued_migration) {
    cl_command_type type = 0;
    CHECK_CL(clGetEventInfo(s->migrate_ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MIGRATE_CONTEXT_HETGPU);
    CHECK(mg_backend_of(s->ctx) == mg_vendor); /* nothing moved before the gate opens */
  }
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  if (!enqueued_migration) {
    cl_migration_report_hetgpu rep;
    CHECK_CL(mg.migrate(s->ctx, mg_riscv, 0, 0, &rep));
    CHECK(rep.status == CL_SUCCESS && rep.source == mg_vendor && rep.target == mg_riscv);
  }
  CHECK_CL(clFinish(s->q));
  CHECK(mg_backend_of(s->ctx) == mg_riscv);
  CHECK(mg_migrations(s->ctx) == 1);
  check_results(s, props & CL_QUEUE_PROFILING_ENABLE, true);
  /* and back, with the queue still usable */
  CHECK_CL(mg.migrate(s->ctx, mg_vendor, 0, 0, NULL));
  uint32_t add = hg_test_rand();
  CHECK_CL(set_mix(s->mix, s->buf[0], add));
  size_t global = N, local = LS;
  CHECK_CL(clEnqueueNDRangeKernel(s->q, s->mix, 1, NULL, &global, &local, 0, NULL, NULL));
  mg_ref_mix(s->ref[0], N, LS, add);
  uint32_t *got = malloc(N * 4);
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(s->q, s->buf[0], CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, s->ref[0], N, "after migrating back");
  free(got);
  clReleaseEvent(gate);
  qstate_free(s);
  free(s);
}

HG_TEST(enqueued_migration_in_the_middle) {
  MG_REQUIRE();
  in_order_run(true, 0);
}

HG_TEST(enqueued_migration_profiling) {
  MG_REQUIRE();
  in_order_run(true, CL_QUEUE_PROFILING_ENABLE);
}

HG_TEST(host_migration_while_pending) {
  MG_REQUIRE();
  in_order_run(false, 0);
}

HG_TEST(host_migration_while_pending_profiling) {
  MG_REQUIRE();
  in_order_run(false, CL_QUEUE_PROFILING_ENABLE);
}

/* Out-of-order queue: one dependency chain per buffer (a stencil waits for both buffers'
 * chains); a migration enqueued in the middle and one from the host. */
HG_TEST(out_of_order_queue) {
  MG_REQUIRE();
  cl_command_queue_properties qp = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof qp, &qp, NULL));
  if (!(qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
    hg_test_skip("no out-of-order queues");
    return;
  }
  qstate *s = calloc(1, sizeof *s);
  qstate_init(s, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl_int err;
  cl_event gate = clCreateUserEvent(s->ctx, &err);
  CHECK_CL(err);
  cl_event last = gate; /* the previous command: both buffers' chains meet in it */
  for (int i = 0; i < NCMD; i++) {
    if (i == NCMD / 2) {
      CHECK_CL(mg.enqueue_migrate(s->q, mg_riscv, 0, 0, 1, &last, &s->migrate_ev));
      s->ev[s->nev++] = last = s->migrate_ev;
    }
    /* every command waits for the previous one, so the model's order is the only order */
    err = enqueue_random(s, (int)(hg_test_rand() % NBUF), 1, &last, &s->ev[s->nev]);
    CHECK_MSG(err == CL_SUCCESS, "command %d: enqueue returned %d", i, err);
    last = s->ev[s->nev++];
  }
  for (int i = 0; i < s->nev; i++) {
    atomic_init(&s->cb[i].calls, 0);
    atomic_init(&s->cb[i].bad_status, 0);
    CHECK_CL(clSetEventCallback(s->ev[i], CL_COMPLETE, on_complete, &s->cb[i]));
  }
  CHECK_CL(mg.migrate(s->ctx, mg_vendor, 0, 0, NULL)); /* wherever HETGPU_BACKEND started it */
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clFinish(s->q));
  CHECK(mg_backend_of(s->ctx) == mg_riscv);
  check_results(s, true, false);
  clReleaseEvent(gate);
  qstate_free(s);
  free(s);
}
