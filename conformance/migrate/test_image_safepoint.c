/* Kernels with image and sampler arguments stopped at safe points (docs/safe-points.md) and
 * finished on the other backend: a loop per work-item (loop-header safe points) that samples a
 * 2D RGBA8 image through a sampler argument, accumulating, and at its end writes a write_only
 * image and two buffers. Each launch moved mid-flight PoCL -> RISC-V and RISC-V -> PoCL (nearest
 * and linear) is compared with the same launch run unmigrated on the starting backend; then a
 * checkpoint taken while such a launch is stopped is restored on the other backend (same
 * process), where the launch finishes. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "migrate_util.h"

#define W 64
#define H 48
#define LX 16
#define LY 4 /* 4 x 12 work-groups */
enum { NPIX = W * H, NPX = NPIX * 4 };

/* The coordinate moves by a fraction of a pixel each round (never within 0.02 of a texel edge
 * for nearest, so the choice of texel cannot depend on rounding); the hash folds in the 8-bit
 * level of every sample, so for nearest every round's read is checked exactly. The average sums
 * those levels as integers: a float sum would round differently once the backends' samples
 * differ by an ulp (one divides by 255, another multiplies by its inverse). */
static const char *src =
    "__kernel void img_loop(__read_only image2d_t in, sampler_t s, __write_only image2d_t out,\n"
    "                       __global float4 *avg, __global uint *hash, uint rounds) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int w = get_image_width(in), h = get_image_height(in);\n"
    "  float4 v = (float4)(0.0f);\n"
    "  uint4 acc = (uint4)(0u);\n"
    "  uint hs = (uint)(y * w + x) * 2654435761u;\n"
    "  for (uint r = 0; r < rounds; r++) {\n"
    "    float2 c = (float2)((x + 0.5f + (float)(r % 7u) * 0.37f) / w, (y + 0.5f + (float)(r % 5u) * 0.29f) / h);\n"
    "    v = read_imagef(in, s, c);\n"
    "    uint4 q = convert_uint4_sat_rte(v * 255.0f);\n"
    "    acc += q;\n"
    "    hs = hs * 1664525u + (q.x | (q.y << 8) | (q.z << 16) | (q.w << 24)) + r;\n"
    "  }\n"
    "  write_imagef(out, (int2)(x, y), v);\n"
    "  avg[y * w + x] = convert_float4(acc) / (255.0f * (float)rounds);\n"
    "  hash[y * w + x] = hs;\n"
    "}\n";

static const cl_image_format RGBA8 = {CL_RGBA, CL_UNORM_INT8};

typedef struct objs {
  cl_context ctx;
  cl_command_queue q;
  cl_program p;
  cl_kernel k;
  cl_mem in, out, avg, hash;
  cl_sampler s;
} objs;

typedef struct result {
  uint8_t px[NPX];
  float avg[NPX];
  uint32_t hash[NPIX];
} result;


/* A context on `on` with every object made, the input written, the outputs poisoned and the
 * arguments set (the sampler `linear` or nearest, normalized, clamp to edge). */
static cl_int make(objs *o, cl_backend_id_hetgpu on, const uint8_t *pixels, bool linear, cl_uint rounds) {
  cl_int err;
  memset(o, 0, sizeof *o);
  o->ctx = hg_test_context();
  if ((err = mg.migrate(o->ctx, on, 0, 0, NULL)))
    return err;
  o->q = hg_test_queue(o->ctx, 0);
  if (!(o->p = hg_test_build(o->ctx, src, NULL)))
    return CL_BUILD_PROGRAM_FAILURE;
  o->k = clCreateKernel(o->p, "img_loop", &err);
  if (err)
    return err;
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
  o->in = clCreateImage(o->ctx, CL_MEM_READ_ONLY, &RGBA8, &d, NULL, &err);
  if (err)
    return err;
  o->out = clCreateImage(o->ctx, CL_MEM_WRITE_ONLY, &RGBA8, &d, NULL, &err);
  if (err)
    return err;
  o->avg = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, NPX * 4, NULL, &err);
  if (err)
    return err;
  o->hash = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, NPIX * 4, NULL, &err);
  if (err)
    return err;
  o->s = clCreateSampler(o->ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST,
                         &err);
  if (err)
    return err;
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  uint32_t poison = 0xDEADBEEF;
  cl_float4 fill = {{0.125f, 0.5f, 0.875f, 0.25f}};
  err = clEnqueueWriteImage(o->q, o->in, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL, NULL);
  err |= clEnqueueFillImage(o->q, o->out, &fill, origin, region, 0, NULL, NULL);
  err |= clEnqueueFillBuffer(o->q, o->avg, &poison, 4, 0, NPX * 4, 0, NULL, NULL);
  err |= clEnqueueFillBuffer(o->q, o->hash, &poison, 4, 0, NPIX * 4, 0, NULL, NULL);
  err |= clFinish(o->q);
  err |= clSetKernelArg(o->k, 0, sizeof(cl_mem), &o->in);
  err |= clSetKernelArg(o->k, 1, sizeof(cl_sampler), &o->s);
  err |= clSetKernelArg(o->k, 2, sizeof(cl_mem), &o->out);
  err |= clSetKernelArg(o->k, 3, sizeof(cl_mem), &o->avg);
  err |= clSetKernelArg(o->k, 4, sizeof(cl_mem), &o->hash);
  err |= clSetKernelArg(o->k, 5, sizeof rounds, &rounds);
  return err;
}

static void release(objs *o) {
  clReleaseSampler(o->s);
  clReleaseMemObject(o->hash);
  clReleaseMemObject(o->avg);
  clReleaseMemObject(o->out);
  clReleaseMemObject(o->in);
  clReleaseKernel(o->k);
  clReleaseProgram(o->p);
  clReleaseCommandQueue(o->q);
  clReleaseContext(o->ctx);
}

static cl_int launch_after(objs *o, cl_uint nwait, const cl_event *wait, cl_event *ev) {
  size_t g[2] = {W, H}, l[2] = {LX, LY};
  return clEnqueueNDRangeKernel(o->q, o->k, 2, NULL, g, l, nwait, wait, ev);
}
static cl_int launch(objs *o, cl_event *ev) { return launch_after(o, 0, NULL, ev); }

/* On PoCL a stoppable launch on an idle queue runs to its end inside the (non-blocking)
 * clEnqueueNDRangeKernel that submits it, in the caller's thread, so a migration asked for after
 * the enqueue returns finds it done. The launch therefore waits on a user event that another
 * thread completes: it runs in that thread and this one is free to move or checkpoint it. */
static void *complete_gate(void *arg) {
  clSetUserEventStatus((cl_event)arg, CL_COMPLETE);
  return NULL;
}

/* Enqueues the launch behind a gate, opens the gate from a thread (`*t`, to join), returns once
 * the launch runs (or has ended) and `delay_us` more passed. */
static cl_int launch_running(objs *o, cl_event *ev, pthread_t *t, unsigned delay_us) {
  cl_int err;
  cl_event gate = clCreateUserEvent(o->ctx, &err);
  if (err)
    return err;
  err = launch_after(o, 1, &gate, ev);
  if (err) {
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    return err;
  }
  pthread_create(t, NULL, complete_gate, gate);
  mg_wait_running(*ev);
  mg_sleep_us(delay_us);
  clReleaseEvent(gate); /* the thread's call holds nothing after it returns; joined by the caller */
  return CL_SUCCESS;
}

/* Reads every output into `r`, poisoned first on the host too. */
static cl_int read_result(cl_command_queue q, cl_mem out, cl_mem avg, cl_mem hash, result *r) {
  memset(r, 0x5A, sizeof *r);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  cl_int err = clEnqueueReadImage(q, out, CL_TRUE, origin, region, 0, 0, r->px, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(q, avg, CL_TRUE, 0, sizeof r->avg, r->avg, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(q, hash, CL_TRUE, 0, sizeof r->hash, r->hash, 0, NULL, NULL);
  return err;
}

/* The same launch, unmigrated, on `on`. */
static cl_int reference(cl_backend_id_hetgpu on, const uint8_t *pixels, bool linear, cl_uint rounds, result *r) {
  objs o;
  cl_int err = make(&o, on, pixels, linear, rounds);
  if (err == CL_SUCCESS)
    err = launch(&o, NULL);
  if (err == CL_SUCCESS)
    err = read_result(o.q, o.out, o.avg, o.hash, r);
  release(&o);
  return err;
}

/* Compares `got` with `want`: nearest exactly (bytes and hashes; the averages within float
 * rounding of a division), linear within one 8-bit level as test_images.c allows. */
static void compare(const result *got, const result *want, bool linear, const char *what) {
  /* how many of each output differ first (says which writes were lost), then the first one */
  size_t npx = 0, navg = 0, nhash = 0, poisoned = 0;
  for (size_t i = 0; i < NPX; i++) {
    npx += abs((int)got->px[i] - (int)want->px[i]) > (linear ? 1 : 0);
    navg += !(fabsf(got->avg[i] - want->avg[i]) <= (linear ? 1.0f / 255 : 1e-6f));
  }
  for (size_t i = 0; i < NPIX; i++) {
    nhash += !linear && got->hash[i] != want->hash[i];
    poisoned += got->hash[i] == 0xDEADBEEF;
  }
  if (npx || navg || nhash)
    printf("  %s: %zu image bytes, %zu averages, %zu hashes differ; %zu hashes still poisoned\n", what, npx, navg, nhash,
           poisoned);
  for (size_t i = 0; i < NPX; i++)
    CHECK_MSG(abs((int)got->px[i] - (int)want->px[i]) <= (linear ? 1 : 0),
              "%s: image byte %zu (pixel %zu, %zu): %u, unmigrated %u", what, i, i / 4 % W, i / 4 / W, got->px[i],
              want->px[i]);
  for (size_t i = 0; i < NPX; i++)
    CHECK_MSG(fabsf(got->avg[i] - want->avg[i]) <= (linear ? 1.0f / 255 : 1e-6f), "%s: average %zu: %g, unmigrated %g",
              what, i, got->avg[i], want->avg[i]);
  if (!linear)
    CHECK_U32(got->hash, want->hash, NPIX, "%s: the hash of every nearest sample", what);
}

/* Rounds per work-item: long enough on each backend that a migration asked for once the launch
 * runs finds it running, and on PoCL past its first stop check (a 1000-round launch, 60-90 ms,
 * ended before a stop asked 2 ms in took effect; 3000 rounds stop at about 90 ms), yet short
 * enough that the RISC-V simulator, about 100 times slower, finishes the rest well within its
 * hang guard. */
static cl_uint rounds_on(cl_backend_id_hetgpu b) { return b == mg_riscv ? 400 : 3000; }

static void moved_case(cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, bool linear) {
  cl_uint rounds = rounds_on(from);
  uint8_t *pixels = malloc(NPX);
  result *want = malloc(sizeof *want), *got = malloc(sizeof *got);
  hg_test_fill_random(pixels, NPX);
  CHECK_CL(reference(from, pixels, linear, rounds, want));

  objs o;
  CHECK_CL(make(&o, from, pixels, linear, rounds));
  /* stoppable from its first launch, and nothing left to build on the target (under the
   * sanitizers a launch before the background forms ran plain: 0 stopped) */
  CHECK_CL(mg_build_both(o.ctx, from, to));
  CHECK_CL(mg_wait_for_forms(o.k));
  cl_event ev;
  pthread_t t;
  CHECK_CL(launch_running(&o, &ev, &t, from == mg_riscv ? 10000 : mg_stop_delay_us(2)));
  cl_migration_report_hetgpu rep = {0};
  cl_int merr = mg.migrate(o.ctx, to, CL_MIGRATE_AT_SAFE_POINT_HETGPU, 0, &rep);
  cl_int werr = clWaitForEvents(1, &ev);
  pthread_join(t, NULL);
  clReleaseEvent(ev);
  CHECK_CL(merr);
  CHECK_CL(werr);
  printf("  %s, %u rounds: moved %u -> %u with %u kernel(s) stopped, quiesce %.3f ms\n",
         linear ? "linear" : "nearest", rounds, rep.source, rep.target, rep.kernels_stopped, rep.quiesce_ns / 1e6);
  CHECK(mg_backend_of(o.ctx) == to);
  CHECK_CL(read_result(o.q, o.out, o.avg, o.hash, got));
  compare(got, want, linear, linear ? "linear, moved mid-flight" : "nearest, moved mid-flight");
  /* otherwise the launch finished before the move and nothing here was resumed */
  if (rep.kernels_stopped != 1) /* not CHECK_MSG: the rest is still checked and freed */
    hg_test_fail(__FILE__, __LINE__, "the image kernel was not stopped mid-flight (%u stopped)", rep.kernels_stopped);
  /* the input image came along untouched */
  uint8_t *back = malloc(NPX);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  memset(back, 0x33, NPX);
  CHECK_CL(clEnqueueReadImage(o.q, o.in, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
  CHECK_MSG(!memcmp(back, pixels, NPX), "the input image differs after the move");
  release(&o);
  free(back), free(pixels), free(want), free(got);
}

HG_TEST(image_kernel_nearest_pocl_to_riscv) {
  MG_REQUIRE();
  moved_case(mg_vendor, mg_riscv, false);
}

HG_TEST(image_kernel_linear_pocl_to_riscv) {
  MG_REQUIRE();
  moved_case(mg_vendor, mg_riscv, true);
}

HG_TEST(image_kernel_nearest_riscv_to_pocl) {
  MG_REQUIRE();
  moved_case(mg_riscv, mg_vendor, false);
}

HG_TEST(image_kernel_linear_riscv_to_pocl) {
  MG_REQUIRE();
  moved_case(mg_riscv, mg_vendor, true);
}

/* A checkpoint at a safe point while the launch runs on `from`, restored on `to` in this
 * process: the stopped launch is enqueued again there from its state and finishes; its outputs
 * equal the unmigrated run's. The original context finishes its own launch too. */
static void checkpoint_case(cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, bool linear) {
  cl_uint rounds = rounds_on(from);
  uint8_t *pixels = malloc(NPX);
  result *want = malloc(sizeof *want), *got = malloc(sizeof *got);
  hg_test_fill_random(pixels, NPX);
  CHECK_CL(reference(from, pixels, linear, rounds, want));

  objs o;
  CHECK_CL(make(&o, from, pixels, linear, rounds));
  CHECK_CL(mg.set_label(o.q, "q"));
  CHECK_CL(mg.set_label(o.out, "out"));
  CHECK_CL(mg.set_label(o.avg, "avg"));
  CHECK_CL(mg.set_label(o.hash, "hash"));
  CHECK_CL(mg.set_label(o.in, "in"));
  CHECK_CL(mg_wait_for_forms(o.k)); /* stoppable from its first launch */
  cl_event ev;
  pthread_t t;
  CHECK_CL(launch_running(&o, &ev, &t, from == mg_riscv ? 10000 : mg_stop_delay_us(2)));
  /* taken while the launch runs: it must be stopped at a safe point and written as a state */
  CHECK_MSG(mg_status(ev) == CL_RUNNING, "the launch was not running at the checkpoint (status %d)", mg_status(ev));
  char path[256];
  snprintf(path, sizeof path, "/tmp/hetgpu-imgsp-%d.hgsnap", (int)getpid());
  CHECK_CL(mg.checkpoint(o.ctx, path, CL_CHECKPOINT_AT_SAFE_POINT_HETGPU, 0));
  bool in_flight = mg_snapshot_has_kernel_state(path);
  cl_int werr = clWaitForEvents(1, &ev);
  pthread_join(t, NULL);
  clReleaseEvent(ev);
  CHECK_CL(werr);
  CHECK_MSG(in_flight, "the snapshot has no KERNEL_STATE section: the running image kernel was not captured");
  CHECK_CL(read_result(o.q, o.out, o.avg, o.hash, got));
  compare(got, want, linear, "the checkpointed context, finished where it ran");

  cl_int err;
  cl_context ctx = mg.restore(hg_test_platform, path, to, &err);
  unlink(path);
  CHECK_CL(err);
  CHECK(mg_backend_of(ctx) == to);
  cl_command_queue q;
  cl_mem out, avg, hash, in;
  CHECK_CL(mg.get_by_label(ctx, "q", NULL, (void **)&q));
  CHECK_CL(mg.get_by_label(ctx, "out", NULL, (void **)&out));
  CHECK_CL(mg.get_by_label(ctx, "avg", NULL, (void **)&avg));
  CHECK_CL(mg.get_by_label(ctx, "hash", NULL, (void **)&hash));
  CHECK_CL(mg.get_by_label(ctx, "in", NULL, (void **)&in));
  /* the restored launch, enqueued again from its state, finishes here */
  CHECK_CL(clFinish(q));
  CHECK_CL(read_result(q, out, avg, hash, got));
  compare(got, want, linear, "restored on the other backend from a stopped launch");
  uint8_t *back = malloc(NPX);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  memset(back, 0x33, NPX);
  CHECK_CL(clEnqueueReadImage(q, in, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
  CHECK_MSG(!memcmp(back, pixels, NPX), "the restored input image differs from what was written");
  mg_release_restored(ctx);
  release(&o);
  free(back), free(pixels), free(want), free(got);
}

HG_TEST(image_kernel_checkpoint_stopped_pocl_restored_riscv) {
  MG_REQUIRE();
  checkpoint_case(mg_vendor, mg_riscv, false);
}

HG_TEST(image_kernel_checkpoint_stopped_riscv_restored_pocl) {
  MG_REQUIRE();
  checkpoint_case(mg_riscv, mg_vendor, true);
}
