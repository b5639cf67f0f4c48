/* A checkpoint with images restored by another process on another backend. Two ctest entries
 * run this executable in order (CMakeLists.txt):
 *   HG_IMG_STEP=write, HETGPU_BACKEND=vendor:Portable: a context on PoCL with a 2D RGBA8 image,
 *     a 2D array image, a 1D buffer image over a buffer, a sampler and a kernel with its image,
 *     sampler and value arguments set; the kernel runs once; the context is checkpointed to
 *     HG_IMG_FILE.hgsnap and the inputs, the salt and the results go to HG_IMG_FILE.side.
 *   HG_IMG_STEP=read, HETGPU_BACKEND=riscv: restores the file on RISC-V, finds every object by
 *     label, checks what was restored (types, sizes, the buffer under the 1D image, the sampler,
 *     the inputs' bytes), runs the kernel with the restored arguments on poisoned outputs and
 *     compares with process A's results and a host reference; then new bytes written to the
 *     buffer must be what the 1D buffer image reads (the two still share storage). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate_util.h"

#define W 40
#define H 24
#define L 3   /* layers of the array image */
#define CW 97 /* pixels of the 1D buffer image: not a divisor of W*H, so the index wraps unevenly (also
                   written in the kernel: PoCL 3.1 aborts the process on get_image_width of an
                   image1d_buffer_t, an undefined symbol in its kernel library) */
#define LX 8
#define LY 4 /* 5 x 6 work-groups */
enum { NA = W * H * 4, NB = W * H * L * 4, NC = CW * 4, NPIX = W * H };

/* Nearest sampling at texel centres: every 8-bit level read is exact, so the packed word is
 * exact on any backend; the written average may round a tie either way (one level). The sampler
 * takes unnormalized coordinates: with normalized ones PoCL 3.1 scales the array layer too (layer
 * 1 of 3 reads layer 2; docs/conformance.md, images_samplers/array_2d_normalized), which this
 * test is not about. */
static const char *src =
    "__kernel void combine(__read_only image2d_t a, __read_only image2d_array_t b,\n"
    "                      __read_only image1d_buffer_t c, sampler_t s, __write_only image2d_t out,\n"
    "                      __global uint *res, uint salt) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), w = get_image_width(a);\n"
    "  int layer = (x + 2 * y) % (int)get_image_array_size(b);\n"
    "  float2 n = (float2)(x + 0.5f, y + 0.5f);\n"
    "  float4 va = read_imagef(a, s, n);\n"
    "  float4 vb = read_imagef(b, s, (float4)(n.x, n.y, (float)layer, 0.0f));\n"
    "  uint4 vc = read_imageui(c, (y * w + x) % 97);\n" /* CW; PoCL has no get_image_width of a 1D buffer image */
    "  uint4 qa = convert_uint4_sat_rte(va * 255.0f), qb = convert_uint4_sat_rte(vb * 255.0f);\n"
    "  res[y * w + x] = (qa.x | (qb.y << 8) | (vc.z << 16) | ((qa.w ^ qb.w ^ vc.x) << 24)) ^ salt;\n"
    "  write_imagef(out, (int2)(x, y), (va + vb) * 0.5f);\n"
    "}\n";

static const cl_image_format RGBA8 = {CL_RGBA, CL_UNORM_INT8};
static const cl_image_format RGBA8UI = {CL_RGBA, CL_UNSIGNED_INT8};

/* What process A hands to process B besides the snapshot. */
typedef struct side {
  uint32_t magic, salt;
  uint8_t a[NA], b[NB], c[NC];
  uint8_t out[NA];
  uint32_t res[NPIX];
} side;
#define SIDE_MAGIC 0x48474932u

static void ref_res(const side *s, const uint8_t *c, uint32_t *res) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      const uint8_t *pa = s->a + (y * W + x) * 4;
      const uint8_t *pb = s->b + (((x + 2 * y) % L) * W * H + y * W + x) * 4;
      const uint8_t *pc = c + ((y * W + x) % CW) * 4;
      res[y * W + x] = ((uint32_t)pa[0] | (uint32_t)pb[1] << 8 | (uint32_t)pc[2] << 16 |
                        (uint32_t)(pa[3] ^ pb[3] ^ pc[0]) << 24) ^
                       s->salt;
    }
}

/* The written average of a and b's layer, within one level of the exact one. */
static size_t first_bad_out(const side *s, const uint8_t *out) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int ch = 0; ch < 4; ch++) {
        size_t i = (size_t)(y * W + x) * 4 + ch;
        int sum = s->a[i] + s->b[(((x + 2 * y) % L) * W * H + y * W + x) * 4 + ch];
        if (abs(2 * out[i] - sum) > 2)
          return i;
      }
  return (size_t)-1;
}

static const char *file_base(void) {
  const char *f = getenv("HG_IMG_FILE");
  return f ? f : "migrate_images_process";
}

/* Poisons out and res, runs combine over the W x H range, reads both back. */
static cl_int run_once(cl_command_queue q, cl_kernel k, cl_mem out, cl_mem res, uint8_t *out_px, uint32_t *res_u) {
  size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1}, g[2] = {W, H}, l[2] = {LX, LY};
  uint32_t poison = 0xDEADBEEF;
  cl_float4 fill = {{0.75f, 0.25f, 0.5f, 0.125f}};
  memset(out_px, 0x5A, NA);
  memset(res_u, 0x5A, NPIX * 4);
  cl_int err = clEnqueueFillBuffer(q, res, &poison, 4, 0, NPIX * 4, 0, NULL, NULL);
  err |= clEnqueueFillImage(q, out, &fill, origin, region, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadImage(q, out, CL_TRUE, origin, region, 0, 0, out_px, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, res, CL_TRUE, 0, NPIX * 4, res_u, 0, NULL, NULL);
  return err;
}

static bool step_is(const char *want) {
  const char *s = getenv("HG_IMG_STEP");
  return s && !strcmp(s, want);
}

HG_TEST(images_checkpoint_process_a_pocl) {
  if (!step_is("write")) {
    hg_test_skip("process A of the two-process image checkpoint (HG_IMG_STEP=write)");
    return;
  }
  char snap[512], sidef[512];
  snprintf(snap, sizeof snap, "%s.hgsnap", file_base());
  snprintf(sidef, sizeof sidef, "%s.side", file_base());
  unlink(snap); /* process B skips when A left nothing */
  unlink(sidef);
  MG_REQUIRE();
  side *s = calloc(1, sizeof *s);
  s->magic = SIDE_MAGIC;
  s->salt = hg_test_rand();
  hg_test_fill_random(s->a, NA);
  hg_test_fill_random(s->b, NB);
  hg_test_fill_random(s->c, NC);

  cl_int err;
  cl_context ctx = hg_test_context();
  CHECK_MSG(mg_backend_of(ctx) == mg_vendor, "process A must start on PoCL (HETGPU_BACKEND=vendor:Portable)");
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, src, NULL);
  CHECK(p);
  cl_kernel k = clCreateKernel(p, "combine", &err);
  CHECK_CL(err);
  cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
  cl_image_desc da = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = W, .image_height = H,
                      .image_array_size = L};
  cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &RGBA8, &d2, s->a, &err);
  CHECK_CL(err);
  cl_mem b = clCreateImage(ctx, CL_MEM_READ_ONLY, &RGBA8, &da, NULL, &err);
  CHECK_CL(err);
  size_t origin[3] = {0, 0, 0}, region_b[3] = {W, H, L};
  CHECK_CL(clEnqueueWriteImage(q, b, CL_TRUE, origin, region_b, 0, 0, s->b, 0, NULL, NULL));
  cl_mem cbuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NC, s->c, &err);
  CHECK_CL(err);
  cl_image_desc dc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = CW, .buffer = cbuf};
  cl_mem c = clCreateImage(ctx, CL_MEM_READ_ONLY, &RGBA8UI, &dc, NULL, &err);
  CHECK_CL(err);
  cl_mem out = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &RGBA8, &d2, NULL, &err);
  CHECK_CL(err);
  cl_mem res = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NPIX * 4, NULL, &err);
  CHECK_CL(err);
  cl_sampler smp = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK_CL(clSetKernelArg(k, 1, sizeof b, &b));
  CHECK_CL(clSetKernelArg(k, 2, sizeof c, &c));
  CHECK_CL(clSetKernelArg(k, 3, sizeof smp, &smp));
  CHECK_CL(clSetKernelArg(k, 4, sizeof out, &out));
  CHECK_CL(clSetKernelArg(k, 5, sizeof res, &res));
  CHECK_CL(clSetKernelArg(k, 6, sizeof s->salt, &s->salt));
  const char *names[] = {"a", "b", "c", "cbuf", "out", "res"};
  cl_mem mems[] = {a, b, c, cbuf, out, res};
  for (int i = 0; i < 6; i++)
    CHECK_CL(mg.set_label(mems[i], names[i]));
  CHECK_CL(mg.set_label(smp, "sampler"));
  CHECK_CL(mg.set_label(k, "combine"));
  CHECK_CL(mg.set_label(q, "q"));

  CHECK_CL(run_once(q, k, out, res, s->out, s->res));
  /* A's own result against the host first: B compares with it */
  uint32_t *want = malloc(NPIX * 4);
  ref_res(s, s->c, want);
  CHECK_U32(s->res, want, NPIX, "process A on PoCL against the host");
  size_t bad = first_bad_out(s, s->out);
  CHECK_MSG(bad == (size_t)-1, "process A: out byte %zu: %u", bad, s->out[bad]);

  CHECK_CL(mg.checkpoint(ctx, snap, 0, 0));
  FILE *f = fopen(sidef, "wb");
  CHECK(f && fwrite(s, sizeof *s, 1, f) == 1);
  CHECK(fclose(f) == 0);
  printf("  process A: checkpoint %s on PoCL, salt %08x\n", snap, s->salt);
  clReleaseSampler(smp);
  for (int i = 5; i >= 0; i--)
    clReleaseMemObject(mems[i]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(want), free(s);
}

HG_TEST(images_checkpoint_process_b_riscv) {
  if (!step_is("read")) {
    hg_test_skip("process B of the two-process image checkpoint (HG_IMG_STEP=read)");
    return;
  }
  MG_REQUIRE();
  char snap[512], sidef[512];
  snprintf(snap, sizeof snap, "%s.hgsnap", file_base());
  snprintf(sidef, sizeof sidef, "%s.side", file_base());
  side *s = malloc(sizeof *s);
  FILE *f = fopen(sidef, "rb");
  if (!f) {
    hg_test_skip("process A wrote nothing (skipped)");
    free(s);
    return;
  }
  CHECK(fread(s, sizeof *s, 1, f) == 1 && s->magic == SIDE_MAGIC);
  fclose(f);

  cl_int err;
  cl_context ctx = mg.restore(hg_test_platform, snap, mg_riscv, &err);
  CHECK_CL(err);
  CHECK(mg_backend_of(ctx) == mg_riscv);
  cl_mem a, b, c, cbuf, out, res;
  cl_sampler smp;
  cl_kernel k;
  cl_command_queue q;
  CHECK_CL(mg.get_by_label(ctx, "a", NULL, (void **)&a));
  CHECK_CL(mg.get_by_label(ctx, "b", NULL, (void **)&b));
  CHECK_CL(mg.get_by_label(ctx, "c", NULL, (void **)&c));
  CHECK_CL(mg.get_by_label(ctx, "cbuf", NULL, (void **)&cbuf));
  CHECK_CL(mg.get_by_label(ctx, "out", NULL, (void **)&out));
  CHECK_CL(mg.get_by_label(ctx, "res", NULL, (void **)&res));
  CHECK_CL(mg.get_by_label(ctx, "sampler", NULL, (void **)&smp));
  CHECK_CL(mg.get_by_label(ctx, "combine", NULL, (void **)&k));
  CHECK_CL(mg.get_by_label(ctx, "q", NULL, (void **)&q));

  /* what was restored: types, sizes, formats, the 1D image's buffer, the sampler's bits */
  cl_mem_object_type t = 0;
  size_t n = 0;
  cl_image_format fmt = {0, 0};
  CHECK_CL(clGetMemObjectInfo(b, CL_MEM_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_MEM_OBJECT_IMAGE2D_ARRAY);
  CHECK_CL(clGetImageInfo(b, CL_IMAGE_ARRAY_SIZE, sizeof n, &n, NULL));
  CHECK(n == L);
  CHECK_CL(clGetMemObjectInfo(c, CL_MEM_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_MEM_OBJECT_IMAGE1D_BUFFER);
  CHECK_CL(clGetImageInfo(c, CL_IMAGE_WIDTH, sizeof n, &n, NULL));
  CHECK(n == CW);
  CHECK_CL(clGetImageInfo(c, CL_IMAGE_FORMAT, sizeof fmt, &fmt, NULL));
  CHECK(fmt.image_channel_order == CL_RGBA && fmt.image_channel_data_type == CL_UNSIGNED_INT8);
  cl_mem under = NULL;
  CHECK_CL(clGetImageInfo(c, CL_IMAGE_BUFFER, sizeof under, &under, NULL));
  CHECK_MSG(under == cbuf, "the 1D buffer image's CL_IMAGE_BUFFER is %p, the restored buffer %p", (void *)under,
            (void *)cbuf);
  CHECK_CL(clGetMemObjectInfo(a, CL_MEM_TYPE, sizeof t, &t, NULL));
  CHECK(t == CL_MEM_OBJECT_IMAGE2D);
  cl_bool norm = CL_FALSE;
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  CHECK_CL(clGetSamplerInfo(smp, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK_CL(clGetSamplerInfo(smp, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK_CL(clGetSamplerInfo(smp, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(norm == CL_FALSE && am == CL_ADDRESS_CLAMP_TO_EDGE && fm == CL_FILTER_NEAREST);

  /* the inputs' bytes as process A wrote them */
  uint8_t *back = malloc(NB);
  size_t origin[3] = {0, 0, 0}, region_a[3] = {W, H, 1}, region_b[3] = {W, H, L};
  memset(back, 0x33, NB);
  CHECK_CL(clEnqueueReadImage(q, a, CL_TRUE, origin, region_a, 0, 0, back, 0, NULL, NULL));
  CHECK_MSG(!memcmp(back, s->a, NA), "the restored 2D image differs from process A's");
  memset(back, 0x33, NB);
  CHECK_CL(clEnqueueReadImage(q, b, CL_TRUE, origin, region_b, 0, 0, back, 0, NULL, NULL));
  CHECK_MSG(!memcmp(back, s->b, NB), "the restored 2D array image differs from process A's");
  memset(back, 0x33, NB);
  size_t region_c[3] = {CW, 1, 1};
  CHECK_CL(clEnqueueReadImage(q, c, CL_TRUE, origin, region_c, 0, 0, back, 0, NULL, NULL));
  CHECK_MSG(!memcmp(back, s->c, NC), "the restored 1D buffer image differs from process A's");

  /* the kernel with its restored arguments (none set here) */
  uint8_t *got_out = malloc(NA);
  uint32_t *got_res = malloc(NPIX * 4), *want = malloc(NPIX * 4);
  CHECK_CL(run_once(q, k, out, res, got_out, got_res));
  CHECK_U32(got_res, s->res, NPIX, "process B on RISC-V against process A on PoCL");
  for (size_t i = 0; i < NA; i++)
    CHECK_MSG(abs((int)got_out[i] - (int)s->out[i]) <= 1, "out byte %zu: %u on RISC-V, %u in process A", i, got_out[i],
              s->out[i]);
  size_t bad = first_bad_out(s, got_out);
  CHECK_MSG(bad == (size_t)-1, "process B: out byte %zu: %u", bad, got_out[bad]);

  /* new bytes in the buffer are what the 1D buffer image reads: they still share storage */
  uint8_t *c2 = malloc(NC);
  hg_test_fill_random(c2, NC);
  CHECK_CL(clEnqueueWriteBuffer(q, cbuf, CL_TRUE, 0, NC, c2, 0, NULL, NULL));
  CHECK_CL(run_once(q, k, out, res, got_out, got_res));
  ref_res(s, c2, want);
  CHECK_U32(got_res, want, NPIX, "after a write to the 1D image's buffer on RISC-V");

  mg_release_restored(ctx);
  unlink(snap);
  unlink(sidef);
  free(back), free(got_out), free(got_res), free(want), free(c2), free(s);
}
