/* Images and samplers on the RISC-V backend, below the OpenCL API: kernels in IR text
 * (image2d.ro, sampler ...) built and run through the operations table (image_alloc, image and
 * sampler launch arguments), several work-groups each, against the host build of the same
 * device runtime (rt_all.rvc, whose image functions riscv_runtime_image checks against the
 * specification): the device must give the same bits.
 *  - sampling a 2D image: formats x samplers (normalized or not, every addressing mode,
 *    nearest and linear), random coordinates in and outside the image, a sampler argument;
 *  - a 2D array read with integer coordinates (read_imageui, no sampler) written to another
 *    2D array (write_imageui), then the image read back whole and through a rect;
 *  - write_imagef into UNORM8 and HALF images from computed colors;
 *  - get_image_* of every image type, a 1D buffer image at an offset into its buffer.
 * Prints "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/image_format.h"
#include "devices/riscv/riscv.h"
#include "devices/riscv/runtime/rt_all.rvc"
#include "ir/ir.h"
#include "below_api_check.h"

int passed, failed;
static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void) {
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return rng * 2685821657736338717ull;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((next_rand() >> 40) * 0x1p-24); }

#define ARG(i, n, t, k, acc, size) \
  "  arg " #i " name \"" n "\" type \"" t "\" kind " k " access " #acc " qual 0 size " #size " align " #size "\n"

/* o[i] = read_imagef(img, s, c[i]), i = x + y * w over a 2-D range */
static const char k_sample[] =
    "program executable\nstring \"get_global_id\"\nstring \"read_imagef\"\n"
    "kernel @sample(image2d.ro %0, sampler %1, ptr.global %2, ptr.global %3, i32 %4) -> void\n"
    ARG(0, "img", "image2d_t", "image", 1, 8) ARG(1, "s", "sampler_t", "sampler", 0, 4)
    ARG(2, "c", "float2*", "global_ptr", 0, 8) ARG(3, "o", "float4*", "global_ptr", 0, 8)
    ARG(4, "w", "int", "value", 0, 4)
    "{\n  %5 = const i32 0\n  %6 = const i32 1\n  %7 = const i64 8\n  %8 = const i64 16\n"
    "bb0:\n"
    "  %9 = call_builtin i64 %5 [\"get_global_id\"]\n  %10 = call_builtin i64 %6 [\"get_global_id\"]\n"
    "  %11 = sext i64 %4\n  %12 = mul i64 %10, %11\n  %13 = add i64 %12, %9\n"
    "  %14 = mul i64 %13, %7\n  %15 = ptradd ptr.global %2, %14\n  %16 = load.align8 f32x2 %15\n"
    "  %17 = call_builtin f32x4 %0, %1, %16 [\"read_imagef\"]\n"
    "  %18 = mul i64 %13, %8\n  %19 = ptradd ptr.global %3, %18\n  store.align16 %19, %17\n  ret\n}\n";

/* dst(x, y, layer) = src(x, y, layer) + (1, 2, 3, 4) through read_imageui / write_imageui */
static const char k_copy[] =
    "program executable\nstring \"get_global_id\"\nstring \"read_imageui\"\nstring \"write_imageui\"\n"
    "kernel @copy(image2d_array.ro %0, image2d_array.wo %1) -> void\n"
    ARG(0, "src", "image2d_array_t", "image", 1, 8) ARG(1, "dst", "image2d_array_t", "image", 2, 8)
    "{\n  %2 = const i32 0\n  %3 = const i32 1\n  %4 = const i32 2\n  %5 = undef i32x4\n"
    "  %6 = const i32x4 1, 2, 3, 4\n  %7 = const i32 3\n  %17 = const i32 0\n"
    "bb0:\n"
    "  %8 = call_builtin i64 %2 [\"get_global_id\"]\n  %9 = call_builtin i64 %3 [\"get_global_id\"]\n"
    "  %10 = call_builtin i64 %4 [\"get_global_id\"]\n"
    "  %11 = trunc i32 %8\n  %12 = trunc i32 %9\n  %13 = trunc i32 %10\n"
    "  %14 = insert i32x4 %5, %11, %2\n  %15 = insert i32x4 %14, %12, %3\n"
    "  %16 = insert i32x4 %15, %13, %4\n  %18 = insert i32x4 %16, %17, %7\n"
    "  %19 = call_builtin i32x4 %0, %18 [\"read_imageui\"]\n  %20 = add i32x4 %19, %6\n"
    "  call_builtin void %1, %18, %20 [\"write_imageui\"]\n  ret\n}\n";

/* img(x, y) = (x / 8, y / 8, -0.25, 1.5) + x * (0.001, ...) */
static const char k_write[] =
    "program executable\nstring \"get_global_id\"\nstring \"write_imagef\"\n"
    "kernel @paint(image2d.wo %0) -> void\n"
    ARG(0, "img", "image2d_t", "image", 2, 8)
    "{\n  %1 = const i32 0\n  %2 = const i32 1\n  %3 = undef i32x2\n  %4 = undef f32x4\n"
    "  %5 = const f32 0x3e000000\n  %6 = const f32 0xbe800000\n  %7 = const f32 0x3fc00000\n  %8 = const i32 2\n"
    "  %9 = const i32 3\n"
    "bb0:\n"
    "  %10 = call_builtin i64 %1 [\"get_global_id\"]\n  %11 = call_builtin i64 %2 [\"get_global_id\"]\n"
    "  %12 = trunc i32 %10\n  %13 = trunc i32 %11\n"
    "  %14 = insert i32x2 %3, %12, %1\n  %15 = insert i32x2 %14, %13, %2\n"
    "  %16 = sitofp f32 %12\n  %17 = sitofp f32 %13\n  %18 = fmul f32 %16, %5\n  %19 = fmul f32 %17, %5\n"
    "  %20 = insert f32x4 %4, %18, %1\n  %21 = insert f32x4 %20, %19, %2\n"
    "  %22 = insert f32x4 %21, %6, %8\n  %23 = insert f32x4 %22, %7, %9\n"
    "  call_builtin void %0, %15, %23 [\"write_imagef\"]\n  ret\n}\n";

/* o[...] = get_image_* of one image of each type */
static const char k_query[] =
    "program executable\nstring \"get_image_width\"\nstring \"get_image_height\"\nstring \"get_image_depth\"\n"
    "string \"get_image_channel_data_type\"\nstring \"get_image_channel_order\"\nstring \"get_image_array_size\"\n"
    "string \"get_image_dim\"\n"
    "kernel @query(image1d.ro %0, image1d_buffer.ro %1, image1d_array.ro %2, image2d.ro %3, image2d_array.wo %4, "
    "image3d.ro %5, ptr.global %6) -> void\n"
    ARG(0, "a", "image1d_t", "image", 1, 8) ARG(1, "b", "image1d_buffer_t", "image", 1, 8)
    ARG(2, "c", "image1d_array_t", "image", 1, 8) ARG(3, "d", "image2d_t", "image", 1, 8)
    ARG(4, "e", "image2d_array_t", "image", 2, 8) ARG(5, "f", "image3d_t", "image", 1, 8)
    ARG(6, "o", "int*", "global_ptr", 0, 8)
    "{\n"
    "%%CONSTS%%"
    "bb0:\n"
    "%%BODY%%"
    "  ret\n}\n";

static hg_image_layout layout_of(cl_mem_object_type type, cl_channel_order order, cl_channel_type ct, size_t w,
                                 size_t h, size_t d, size_t layers) {
  hg_image_layout l = {.type = type, .format = {order, ct}, .width = w, .height = h, .depth = d, .array_size = layers};
  l.pixel_size = hg_image_pixel_size(&l.format);
  l.row_pitch = w * l.pixel_size;
  l.slice_pitch = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? l.row_pitch
                  : type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D ? l.row_pitch * h
                                                                                        : 0;
  l.size = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? l.row_pitch * layers
           : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? l.slice_pitch * layers
           : type == CL_MEM_OBJECT_IMAGE3D       ? l.slice_pitch * d
                                                 : l.row_pitch * h;
  return l;
}

/* The host runtime's view of the same bytes. */
static hg_rt_image host_desc(const hg_image_layout *l, void *pixels, int dim) {
  hg_rt_image d = {(uint64_t)(uintptr_t)pixels, l->row_pitch, l->slice_pitch, (int32_t)l->width,
                   (int32_t)l->height, (int32_t)l->depth, (int32_t)l->array_size,
                   l->format.image_channel_order, l->format.image_channel_data_type, (uint32_t)l->pixel_size,
                   hg_image_channel_count(l->format.image_channel_order), (uint32_t)dim, 0};
  return d;
}

typedef struct built {
  hg_dev_program *prog;
  hg_dev_kernel *kernel;
  hg_ir_module *m;
} built;

static bool build(hg_backend *be, const char *text, const char *name, built *b) {
  char err[512] = "";
  memset(b, 0, sizeof *b);
  b->m = hg_ir_parse(text, err, sizeof err);
  if (!b->m || !hg_ir_verify(b->m, err, sizeof err)) {
    CHECK(0, "%s: IR: %s", name, err);
    return false;
  }
  char *log = NULL;
  cl_int rc = be->ops->program_build(be, b->m, NULL, "", &b->prog, &log);
  CHECK(rc == CL_SUCCESS, "%s: build %d: %s", name, rc, log ? log : "");
  free(log);
  if (rc != CL_SUCCESS)
    return false;
  rc = be->ops->kernel_create(be, b->prog, name, &b->kernel);
  CHECK(rc == CL_SUCCESS, "%s: kernel_create %d", name, rc);
  return rc == CL_SUCCESS;
}

static void unbuild(hg_backend *be, built *b) {
  if (b->kernel) be->ops->kernel_free(be, b->kernel);
  if (b->prog) be->ops->program_free(be, b->prog);
  hg_ir_module_free(b->m);
}

static hg_launch launch_of(unsigned dims, size_t gx, size_t gy, size_t gz, size_t lx, size_t ly, size_t lz,
                           const hg_launch_arg *args, unsigned n) {
  hg_launch l = {.work_dim = dims, .global_size = {gx, gy, gz}, .local_size = {lx, ly, lz}, .num_args = n, .args = args};
  return l;
}

static void fill_random(uint8_t *p, size_t n, cl_channel_type ct) {
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)next_rand();
  if (ct == CL_FLOAT)
    for (size_t i = 0; i + 4 <= n; i += 4) {
      float f = uniform(-2, 2);
      memcpy(p + i, &f, 4);
    }
  if (ct == CL_HALF_FLOAT)
    for (size_t i = 0; i + 2 <= n; i += 2) {
      uint16_t h = (uint16_t)hg_rt_half_from_double(uniform(-2, 2), HG_RT_HALF_RTE);
      memcpy(p + i, &h, 2);
    }
}

static void test_sampling(hg_backend *be) {
  built b;
  if (!build(be, k_sample, "sample", &b))
    return;
  cl_image_format fmts[] = {{CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_UNORM_INT8},
                            {CL_BGRA, CL_UNORM_INT8}, {CL_R, CL_SNORM_INT16}, {CL_RGBA, CL_HALF_FLOAT},
                            {CL_R, CL_UNORM_INT16}};
  uint32_t samplers[] = {0x10, 0x12, 0x14, 0x20, 0x22, 0x24, 0x11, 0x13, 0x15, 0x17, 0x19, 0x21, 0x23, 0x25,
                         0x27, 0x29};
  enum { W = 24, H = 20 }; /* the launch: W x H work-items in 4 x 5 groups of 6 x 4 */
  for (unsigned fi = 0; fi < sizeof fmts / sizeof *fmts; fi++) {
    size_t iw = 5 + next_rand() % 11, ih = 3 + next_rand() % 9;
    hg_image_layout l = layout_of(CL_MEM_OBJECT_IMAGE2D, fmts[fi].image_channel_order,
                                  fmts[fi].image_channel_data_type, iw, ih, 1, 1);
    uint8_t *px = malloc(l.size);
    fill_random(px, l.size, fmts[fi].image_channel_data_type);
    hg_dev_mem *img = NULL, *cbuf = NULL, *obuf = NULL;
    CHECK(be->ops->image_alloc(be, &l, &img) == CL_SUCCESS, "image_alloc");
    CHECK(be->ops->mem_write(be, img, 0, l.size, px) == CL_SUCCESS, "image write");
    be->ops->mem_alloc(be, W * H * 8, &cbuf);
    be->ops->mem_alloc(be, W * H * 16, &obuf);
    hg_rt_image hd = host_desc(&l, px, HG_RT_DIM_2D);
    for (unsigned si = 0; si < sizeof samplers / sizeof *samplers; si++) {
      uint32_t s = samplers[si];
      bool norm = s & 1;
      if (!norm && (s & 0xE) >= 0x6)
        continue;
      float c[W * H][2], out[W * H][4];
      for (int i = 0; i < W * H; i++) {
        c[i][0] = norm ? uniform(-0.75f, 1.75f) : uniform(-3, (float)iw + 3);
        c[i][1] = norm ? uniform(-0.75f, 1.75f) : uniform(-3, (float)ih + 3);
        if ((s & 0xE) == 0) { /* CLK_ADDRESS_NONE: stay inside */
          c[i][0] = norm ? uniform(0.1f, 0.9f) : uniform(0.6f, (float)iw - 0.6f);
          c[i][1] = norm ? uniform(0.1f, 0.9f) : uniform(0.6f, (float)ih - 0.6f);
        }
      }
      be->ops->mem_write(be, cbuf, 0, sizeof c, c);
      int w = W;
      hg_launch_arg args[5] = {{.kind = HG_ARG_IMAGE, .mem = img, .image = &l},
                               {.kind = HG_ARG_SAMPLER, .value = &s, .size = 4},
                               {.kind = HG_ARG_BUFFER, .mem = cbuf},
                               {.kind = HG_ARG_BUFFER, .mem = obuf},
                               {.kind = HG_ARG_VALUE, .value = &w, .size = 4}};
      hg_launch la = launch_of(2, W, H, 1, 6, 4, 1, args, 5);
      cl_int rc = be->ops->kernel_launch(be, b.kernel, &la, NULL);
      CHECK(rc == CL_SUCCESS, "sample launch: %d", rc);
      be->ops->mem_read(be, obuf, 0, sizeof out, out);
      unsigned bad = 0;
      for (int i = 0; i < W * H; i++) {
        float ref[4];
        hg_rt_image_readf(&hd, s, HG_RT_DIM_2D, c[i][0], c[i][1], 0, ref);
        if (memcmp(ref, out[i], sizeof ref) && bad++ < 3)
          fprintf(stderr, "format %u sampler %#x at (%a, %a): (%g %g %g %g), host (%g %g %g %g)\n", fi, s, c[i][0],
                  c[i][1], out[i][0], out[i][1], out[i][2], out[i][3], ref[0], ref[1], ref[2], ref[3]);
      }
      CHECK(!bad, "read_imagef format %u sampler %#x: %u of %d differ from the host runtime", fi, s, bad, W * H);
    }
    be->ops->mem_free(be, img);
    be->ops->mem_free(be, cbuf);
    be->ops->mem_free(be, obuf);
    free(px);
  }
  unbuild(be, &b);
}

static void test_copy_array(hg_backend *be) {
  built b;
  if (!build(be, k_copy, "copy", &b))
    return;
  size_t w = 13, h = 7, layers = 3;
  hg_image_layout l = layout_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT16, w, h, 1, layers);
  uint8_t *px = malloc(l.size), *got = malloc(l.size);
  fill_random(px, l.size, CL_UNSIGNED_INT16);
  hg_dev_mem *src = NULL, *dst = NULL;
  be->ops->image_alloc(be, &l, &src);
  be->ops->image_alloc(be, &l, &dst);
  be->ops->mem_write(be, src, 0, l.size, px);
  hg_launch_arg args[2] = {{.kind = HG_ARG_IMAGE, .mem = src, .image = &l}, {.kind = HG_ARG_IMAGE, .mem = dst, .image = &l}};
  hg_launch la = launch_of(3, w, h, layers, 5, 3, 1, args, 2); /* ragged groups */
  CHECK(be->ops->kernel_launch(be, b.kernel, &la, NULL) == CL_SUCCESS, "copy launch");
  be->ops->mem_read(be, dst, 0, l.size, got);
  unsigned bad = 0;
  for (size_t i = 0; i < l.size / 2; i++) {
    uint16_t a, g;
    memcpy(&a, px + 2 * i, 2);
    memcpy(&g, got + 2 * i, 2);
    uint32_t want = a + 1u + (unsigned)(i % 4);
    bad += g != (want > 65535 ? 65535 : want); /* write_imageui saturates */
  }
  CHECK(!bad, "2D array read_imageui/write_imageui: %u channels differ", bad);
  /* a rect read of layer 1, rows 2..4, pixels 3..9: the image's own pitches address it */
  hg_rect r = {.src_origin = {3 * l.pixel_size, 2, 1}, .region = {7 * l.pixel_size, 3, 1},
               .dst_row_pitch = 7 * l.pixel_size, .dst_slice_pitch = 21 * l.pixel_size};
  uint8_t rect[21 * 8];
  CHECK(be->ops->mem_read_rect(be, dst, &r, rect) == CL_SUCCESS, "rect read");
  bool same = true;
  for (size_t y = 0; y < 3; y++)
    same &= !memcmp(rect + y * 7 * l.pixel_size, got + 3 * l.pixel_size + (2 + y) * l.row_pitch + l.slice_pitch,
                    7 * l.pixel_size);
  CHECK(same, "rect read of a 2D array layer uses the layout's pitches");
  be->ops->mem_free(be, src);
  be->ops->mem_free(be, dst);
  free(px);
  free(got);
  unbuild(be, &b);
}

static void test_write(hg_backend *be) {
  built b;
  if (!build(be, k_write, "paint", &b))
    return;
  cl_image_format fmts[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_BGRA, CL_UNORM_INT8}, {CL_RGBA, CL_HALF_FLOAT},
                            {CL_RGBA, CL_SNORM_INT16}};
  for (unsigned fi = 0; fi < 4; fi++) {
    size_t w = 11, h = 9;
    hg_image_layout l = layout_of(CL_MEM_OBJECT_IMAGE2D, fmts[fi].image_channel_order,
                                  fmts[fi].image_channel_data_type, w, h, 1, 1);
    uint8_t *got = malloc(l.size), *want = calloc(1, l.size);
    hg_dev_mem *img = NULL;
    be->ops->image_alloc(be, &l, &img);
    hg_launch_arg args[1] = {{.kind = HG_ARG_IMAGE, .mem = img, .image = &l}};
    hg_launch la = launch_of(2, w, h, 1, 4, 4, 1, args, 1);
    CHECK(be->ops->kernel_launch(be, b.kernel, &la, NULL) == CL_SUCCESS, "paint launch");
    be->ops->mem_read(be, img, 0, l.size, got);
    hg_rt_image hd = host_desc(&l, want, HG_RT_DIM_2D);
    for (size_t y = 0; y < h; y++)
      for (size_t x = 0; x < w; x++) {
        float col[4] = {(float)x * 0.125f, (float)y * 0.125f, -0.25f, 1.5f};
        hg_rt_image_writef(&hd, HG_RT_DIM_2D, (int)x, (int)y, 0, col);
      }
    CHECK(!memcmp(got, want, l.size), "write_imagef format %u: the pixels differ from the host runtime's", fi);
    be->ops->mem_free(be, img);
    free(got);
    free(want);
  }
  unbuild(be, &b);
}

static void test_queries(hg_backend *be) {
  /* (image, builtin, result) rows: the constants and the body of k_query */
  static const struct { int img; const char *fn; const char *ty; } rows[] = {
      {0, "get_image_width", "i32"}, {0, "get_image_channel_data_type", "i32"}, {0, "get_image_channel_order", "i32"},
      {1, "get_image_width", "i32"}, {1, "get_image_channel_order", "i32"},
      {2, "get_image_width", "i32"}, {2, "get_image_array_size", "i64"},
      {3, "get_image_width", "i32"}, {3, "get_image_height", "i32"}, {3, "get_image_dim", "i32x2"},
      {4, "get_image_width", "i32"}, {4, "get_image_height", "i32"}, {4, "get_image_array_size", "i64"},
      {4, "get_image_dim", "i32x2"}, {4, "get_image_channel_data_type", "i32"},
      {5, "get_image_width", "i32"}, {5, "get_image_height", "i32"}, {5, "get_image_depth", "i32"},
      {5, "get_image_dim", "i32x4"}};
  enum { NROWS = sizeof rows / sizeof *rows };
  char consts[2048] = "", body[4096] = "";
  size_t cl = 0, bl = 0;
  for (int i = 0; i < NROWS; i++) /* output slot i: 16 bytes */
    cl += (size_t)snprintf(consts + cl, sizeof consts - cl, "  %%%d = const i64 %d\n", 7 + i, 16 * i);
  for (int i = 0; i < NROWS; i++) {
    int v = 7 + NROWS + 2 * i;
    bl += (size_t)snprintf(body + bl, sizeof body - bl,
                           "  %%%d = call_builtin %s %%%d [\"%s\"]\n  %%%d = ptradd ptr.global %%6, %%%d\n"
                           "  store.align16 %%%d, %%%d\n",
                           v, rows[i].ty, rows[i].img, rows[i].fn, v + 1, 7 + i, v + 1, v);
  }
  char *text = malloc(sizeof k_query + sizeof consts + sizeof body);
  const char *cp = strstr(k_query, "%%CONSTS%%"), *bp = strstr(k_query, "%%BODY%%");
  sprintf(text, "%.*s%s%.*s%s%s", (int)(cp - k_query), k_query, consts, (int)(bp - cp - 10), cp + 10, body,
          bp + 8);
  built b;
  if (!build(be, text, "query", &b)) {
    free(text);
    return;
  }
  free(text);
  hg_image_layout ls[6] = {
      layout_of(CL_MEM_OBJECT_IMAGE1D, CL_R, CL_FLOAT, 17, 1, 1, 1),
      layout_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_RGBA, CL_UNSIGNED_INT8, 29, 1, 1, 1),
      layout_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_SIGNED_INT16, 9, 1, 1, 5),
      layout_of(CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, 6, 7, 1, 1),
      layout_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_HALF_FLOAT, 3, 4, 1, 6),
      layout_of(CL_MEM_OBJECT_IMAGE3D, CL_R, CL_SNORM_INT16, 5, 4, 3, 1)};
  hg_dev_mem *mem[6] = {0}, *out = NULL, *buf = NULL;
  hg_launch_arg args[7];
  for (int i = 0; i < 6; i++) {
    if (i == 1) { /* a 1D buffer image: a buffer allocation, the pixels 64 bytes in */
      be->ops->mem_alloc(be, 64 + ls[1].size, &buf);
      args[i] = (hg_launch_arg){.kind = HG_ARG_IMAGE, .mem = buf, .image = &ls[i], .offset = 64};
      continue;
    }
    CHECK(be->ops->image_alloc(be, &ls[i], &mem[i]) == CL_SUCCESS, "image_alloc %d", i);
    args[i] = (hg_launch_arg){.kind = HG_ARG_IMAGE, .mem = mem[i], .image = &ls[i]};
  }
  be->ops->mem_alloc(be, NROWS * 16, &out);
  args[6] = (hg_launch_arg){.kind = HG_ARG_BUFFER, .mem = out};
  hg_launch la = launch_of(1, 1, 1, 1, 1, 1, 1, args, 7);
  CHECK(be->ops->kernel_launch(be, b.kernel, &la, NULL) == CL_SUCCESS, "query launch");
  int32_t got[NROWS][4];
  be->ops->mem_read(be, out, 0, sizeof got, got);
  for (int i = 0; i < NROWS; i++) {
    const hg_image_layout *l = &ls[rows[i].img];
    int32_t want[4] = {0, 0, 0, 0};
    const char *fn = rows[i].fn;
    if (!strcmp(fn, "get_image_width")) want[0] = (int32_t)l->width;
    else if (!strcmp(fn, "get_image_height")) want[0] = (int32_t)l->height;
    else if (!strcmp(fn, "get_image_depth")) want[0] = (int32_t)l->depth;
    else if (!strcmp(fn, "get_image_channel_data_type")) want[0] = (int32_t)l->format.image_channel_data_type;
    else if (!strcmp(fn, "get_image_channel_order")) want[0] = (int32_t)l->format.image_channel_order;
    else if (!strcmp(fn, "get_image_array_size")) want[0] = (int32_t)l->array_size; /* i64: low word, high 0 */
    else want[0] = (int32_t)l->width, want[1] = (int32_t)l->height, want[2] = (int32_t)l->depth;
    if (!strcmp(fn, "get_image_dim") && rows[i].img != 5)
      want[2] = got[i][2]; /* i32x2: two lanes stored */
    int n = !strcmp(fn, "get_image_dim") ? (rows[i].img == 5 ? 4 : 2) : !strcmp(rows[i].ty, "i64") ? 2 : 1;
    CHECK(!memcmp(got[i], want, (size_t)n * 4), "%s of image %d: %d %d %d %d, expected %d %d %d %d", fn, rows[i].img,
          got[i][0], got[i][1], got[i][2], got[i][3], want[0], want[1], want[2], want[3]);
  }
  for (int i = 0; i < 6; i++)
    if (mem[i]) be->ops->mem_free(be, mem[i]);
  be->ops->mem_free(be, buf);
  be->ops->mem_free(be, out);
  unbuild(be, &b);
}

int main(void) {
  const char *seed = getenv("HETGPU_TEST_SEED");
  if (seed && *seed)
    rng = strtoull(seed, NULL, 0) | 1;
  hg_backend *be = NULL;
  if (hg_riscv_probe(&be, 1) != 1 || !be->ops->image_alloc) {
    printf("no riscv backend with image_alloc\n0 passed, 1 failed\n");
    return 1;
  }
  test_sampling(be);
  test_copy_array(be);
  test_write(be);
  test_queries(be);
  be->ops->destroy(be);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
