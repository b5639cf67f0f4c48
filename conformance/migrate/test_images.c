/* Images and samplers across migrations and checkpoints: a 2D RGBA8 image written by the host is
 * sampled (linear filter, normalized coordinates) into another image and a buffer on PoCL, on
 * RISC-V after a migration, and on PoCL again, each result compared with the same sequence run
 * without migration; a nearest-sampled copy against the host's expectation; the image read back
 * after the migrations equal to what was written. Then a checkpoint of the context (images,
 * samplers, the kernel with its image and sampler arguments set) restored on RISC-V: the kernel
 * runs there with the restored arguments and matches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate_util.h"

#define W 96
#define H 40
#define LX 16
#define LY 4 /* 6 x 10 work-groups */

static const char *src =
    "__kernel void sample(__read_only image2d_t in, sampler_t s, __write_only image2d_t out,\n"
    "                     __global float4 *buf, float2 shift) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float2 c = (float2)((x + 0.5f + shift.x) / get_image_width(in), (y + 0.5f + shift.y) / get_image_height(in));\n"
    "  float4 v = read_imagef(in, s, c);\n"
    "  write_imagef(out, (int2)(x, y), v);\n"
    "  buf[y * get_image_width(in) + x] = v;\n"
    "}\n";

typedef struct run_objs {
  cl_context ctx;
  cl_command_queue q;
  cl_kernel k;
  cl_mem in, out, buf;
  cl_sampler linear, nearest;
} run_objs;

static const cl_image_format RGBA8 = {CL_RGBA, CL_UNORM_INT8};

static cl_int make_objs(run_objs *o, const uint8_t *pixels) {
  cl_int err;
  o->ctx = hg_test_context();
  o->q = hg_test_queue(o->ctx, 0);
  cl_program p = hg_test_build(o->ctx, src, NULL);
  if (!p)
    return CL_BUILD_PROGRAM_FAILURE;
  o->k = clCreateKernel(p, "sample", &err);
  clReleaseProgram(p);
  if (err)
    return err;
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
  o->in = clCreateImage(o->ctx, CL_MEM_READ_ONLY, &RGBA8, &d, NULL, &err);
  if (err)
    return err;
  o->out = clCreateImage(o->ctx, CL_MEM_WRITE_ONLY, &RGBA8, &d, NULL, &err);
  if (err)
    return err;
  o->buf = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, W * H * 16, NULL, &err);
  if (err)
    return err;
  cl_sampler_properties lp[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_ADDRESSING_MODE,
                                CL_ADDRESS_CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  o->linear = clCreateSamplerWithProperties(o->ctx, lp, &err);
  if (err)
    return err;
  o->nearest = clCreateSampler(o->ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  if (err)
    return err;
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  return clEnqueueWriteImage(o->q, o->in, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL, NULL);
}

static void release_objs(run_objs *o) {
  clReleaseSampler(o->linear);
  clReleaseSampler(o->nearest);
  clReleaseMemObject(o->buf);
  clReleaseMemObject(o->out);
  clReleaseMemObject(o->in);
  clReleaseKernel(o->k);
  clReleaseCommandQueue(o->q);
  clReleaseContext(o->ctx);
}

/* One launch; outputs poisoned first; results into out_px (W*H*4) and out_f (W*H*4 floats). */
static cl_int run_step(cl_command_queue q, cl_kernel k, cl_mem out, cl_mem buf, bool set, run_objs *o, cl_sampler s,
                       float sx, float sy, uint8_t *out_px, float *out_f) {
  cl_int err = CL_SUCCESS;
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  uint32_t poison = 0xDEADBEEF;
  cl_float4 red = {{0.25f, 0.5f, 0.75f, 1.0f}};
  err |= clEnqueueFillBuffer(q, buf, &poison, 4, 0, W * H * 16, 0, NULL, NULL);
  err |= clEnqueueFillImage(q, out, &red, origin, region, 0, NULL, NULL);
  if (set) {
    cl_float2 shift = {{sx, sy}};
    err |= clSetKernelArg(k, 0, sizeof(cl_mem), &o->in);
    err |= clSetKernelArg(k, 1, sizeof(cl_sampler), &s);
    err |= clSetKernelArg(k, 2, sizeof(cl_mem), &o->out);
    err |= clSetKernelArg(k, 3, sizeof(cl_mem), &o->buf);
    err |= clSetKernelArg(k, 4, sizeof shift, &shift);
  }
  size_t g[2] = {W, H}, l[2] = {LX, LY};
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadImage(q, out, CL_TRUE, origin, region, 0, 0, out_px, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, W * H * 16, out_f, 0, NULL, NULL);
  return err;
}

/* Linear filtering may round differently between backends: within 1/255 of a level. */
static size_t first_diff_near(const float *a, const float *b, size_t n, float tol) {
  for (size_t i = 0; i < n; i++)
    if (!(fabsf(a[i] - b[i]) <= tol))
      return i;
  return (size_t)-1;
}
static size_t first_diff_px(const uint8_t *a, const uint8_t *b, size_t n, int tol) {
  for (size_t i = 0; i < n; i++)
    if (abs((int)a[i] - (int)b[i]) > tol)
      return i;
  return (size_t)-1;
}

enum { STEPS = 3, NPX = W * H * 4 };
static const float SHIFT[STEPS][2] = {{0.3f, -0.6f}, {-1.25f, 0.4f}, {0.7f, 0.9f}};

HG_TEST(image_context_migrates_pocl_riscv_pocl) {
  MG_REQUIRE();
  uint8_t *pixels = malloc(NPX), *px[2][STEPS + 1], *back = malloc(NPX);
  float *f[2][STEPS + 1];
  hg_test_fill_random(pixels, NPX);
  for (int m = 0; m < 2; m++)
    for (int s = 0; s <= STEPS; s++)
      px[m][s] = malloc(NPX), f[m][s] = malloc(NPX * 4);
  /* m = 0: without migration, on PoCL; m = 1: PoCL, RISC-V, PoCL, RISC-V */
  for (int m = 0; m < 2; m++) {
    run_objs o;
    CHECK_CL(make_objs(&o, pixels));
    CHECK_CL(mg.migrate(o.ctx, mg_vendor, 0, 0, NULL));
    for (int s = 0; s < STEPS; s++) {
      if (m == 1 && s > 0)
        CHECK_CL(mg.migrate(o.ctx, s % 2 ? mg_riscv : mg_vendor, 0, 0, NULL));
      CHECK_CL(run_step(o.q, o.k, o.out, o.buf, true, &o, o.linear, SHIFT[s][0], SHIFT[s][1], px[m][s], f[m][s]));
    }
    if (m == 1)
      CHECK_CL(mg.migrate(o.ctx, mg_riscv, 0, 0, NULL));
    /* a nearest-sampled copy at pixel centres: exactly the input */
    CHECK_CL(run_step(o.q, o.k, o.out, o.buf, true, &o, o.nearest, 0, 0, px[m][STEPS], f[m][STEPS]));
    if (m == 1)
      CHECK_CL(mg.migrate(o.ctx, mg_vendor, 0, 0, NULL));
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    memset(back, 0x5A, NPX);
    CHECK_CL(clEnqueueReadImage(o.q, o.in, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    CHECK_MSG(!memcmp(back, pixels, NPX), "run %d: the input image read back differs from what was written", m);
    release_objs(&o);
  }
  for (int s = 0; s < STEPS; s++) {
    size_t d = first_diff_px(px[1][s], px[0][s], NPX, 1);
    CHECK_MSG(d == (size_t)-1, "step %d: image byte %zu: %u migrated, %u not", s, d, px[1][s][d], px[0][s][d]);
    d = first_diff_near(f[1][s], f[0][s], NPX, 1.0f / 255);
    CHECK_MSG(d == (size_t)-1, "step %d: buffer float %zu: %g migrated, %g not", s, d, f[1][s][d], f[0][s][d]);
  }
  /* the copy: the bytes exactly; the floats within an ulp (a backend may divide by 255 or
   * multiply by its inverse) */
  for (int m = 0; m < 2; m++) {
    CHECK_MSG(!memcmp(px[m][STEPS], pixels, NPX), "run %d: the nearest copy differs from the input", m);
    for (size_t i = 0; i < NPX; i++)
      CHECK_MSG(fabsf(f[m][STEPS][i] - pixels[i] / 255.0f) <= 1e-6f, "run %d: copy float %zu: %g, want %g", m, i,
                f[m][STEPS][i],
                pixels[i] / 255.0f);
  }
  for (int m = 0; m < 2; m++)
    for (int s = 0; s <= STEPS; s++)
      free(px[m][s]), free(f[m][s]);
  free(pixels);
  free(back);
}

/* Checkpointed on PoCL with the kernel's arguments set (the linear sampler), restored on RISC-V
 * in a new context: objects found by label, the kernel run with its restored arguments. */
HG_TEST(image_checkpoint_restores_on_riscv) {
  MG_REQUIRE();
  uint8_t *pixels = malloc(NPX), *want_px = malloc(NPX), *got_px = malloc(NPX);
  float *want_f = malloc(NPX * 4), *got_f = malloc(NPX * 4);
  hg_test_fill_random(pixels, NPX);
  run_objs o;
  CHECK_CL(make_objs(&o, pixels));
  CHECK_CL(mg.migrate(o.ctx, mg_vendor, 0, 0, NULL));
  CHECK_CL(mg.set_label(o.in, "in"));
  CHECK_CL(mg.set_label(o.out, "out"));
  CHECK_CL(mg.set_label(o.buf, "buf"));
  CHECK_CL(mg.set_label(o.k, "sample"));
  CHECK_CL(mg.set_label(o.q, "q"));
  CHECK_CL(mg.set_label(o.linear, "linear"));
  CHECK_CL(run_step(o.q, o.k, o.out, o.buf, true, &o, o.linear, 0.4f, -0.3f, want_px, want_f));
  char path[256];
  snprintf(path, sizeof path, "%s/mig-images-%d.hgsnap", getenv("PWD") ? getenv("PWD") : ".", (int)getpid());
  CHECK_CL(mg.checkpoint(o.ctx, path, 0, 0));
  release_objs(&o);

  cl_int err;
  cl_context ctx = mg.restore(hg_test_platform, path, mg_riscv, &err);
  unlink(path);
  CHECK_CL(err);
  CHECK(mg_backend_of(ctx) == mg_riscv);
  run_objs r = {.ctx = ctx};
  CHECK_CL(mg.get_by_label(ctx, "in", NULL, (void **)&r.in));
  CHECK_CL(mg.get_by_label(ctx, "out", NULL, (void **)&r.out));
  CHECK_CL(mg.get_by_label(ctx, "buf", NULL, (void **)&r.buf));
  CHECK_CL(mg.get_by_label(ctx, "sample", NULL, (void **)&r.k));
  CHECK_CL(mg.get_by_label(ctx, "q", NULL, (void **)&r.q));
  CHECK_CL(mg.get_by_label(ctx, "linear", NULL, (void **)&r.linear));
  cl_uint ns = 0;
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_SAMPLER_HETGPU, 0, NULL, &ns));
  CHECK(ns == 2);
  cl_filter_mode fm = 0;
  CHECK_CL(clGetSamplerInfo(r.linear, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(fm == CL_FILTER_LINEAR);
  size_t w = 0, rp = 0;
  CHECK_CL(clGetImageInfo(r.in, CL_IMAGE_WIDTH, sizeof w, &w, NULL));
  CHECK_CL(clGetImageInfo(r.in, CL_IMAGE_ROW_PITCH, sizeof rp, &rp, NULL));
  CHECK(w == W && rp == W * 4);
  /* the restored arguments, not set again */
  CHECK_CL(run_step(r.q, r.k, r.out, r.buf, false, &r, NULL, 0, 0, got_px, got_f));
  size_t d = first_diff_px(got_px, want_px, NPX, 1);
  CHECK_MSG(d == (size_t)-1, "image byte %zu: %u restored, %u before", d, got_px[d], want_px[d]);
  d = first_diff_near(got_f, want_f, NPX, 1.0f / 255);
  CHECK_MSG(d == (size_t)-1, "buffer float %zu: %g restored, %g before", d, got_f[d], want_f[d]);
  uint8_t *back = malloc(NPX);
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
  CHECK_CL(clEnqueueReadImage(r.q, r.in, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
  CHECK_MSG(!memcmp(back, pixels, NPX), "the restored input image differs from what was written");
  mg_release_restored(ctx);
  free(back), free(pixels), free(want_px), free(got_px), free(want_f), free(got_f);
}
