/* Snapshots with images and samplers (minor 2) for the tests and the fuzzer's seeds
 * (image_snapshot.h): a 2D RGBA UNORM_INT8 image with contents of its own, a 1D buffer image
 * over buffer 0, optionally a 1D array image of another format, two samplers (one with a
 * property list), and a kernel "k_img" whose parameters take each of them. */
#include "image_snapshot.h"

#include "common/image_format.h"
#include "ir/ir.h"

#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* k_img(read_only image2d_t src, write_only image1d_buffer_t dst, sampler_t smp, global int *out) */
uint8_t *test_image_ir_binary(size_t *size) {
  hg_ir_module *m = hg_ir_module_new();
  hg_ir_type types[4] = {hg_ir_image_ty(HG_IMAGE_2D, HG_IMAGE_READ_ONLY),
                         hg_ir_image_ty(HG_IMAGE_1D_BUFFER, HG_IMAGE_WRITE_ONLY), hg_ir_sampler_ty(),
                         hg_ir_ptr_ty(HG_AS_GLOBAL)};
  static const char *const names[4] = {"src", "dst", "smp", "out"};
  static const char *const tnames[4] = {"image2d_t", "image1d_buffer_t", "sampler_t", "int*"};
  static const uint8_t kinds[4] = {HG_KARG_IMAGE, HG_KARG_IMAGE, HG_KARG_SAMPLER, HG_KARG_GLOBAL_PTR};
  static const uint8_t access[4] = {HG_IMAGE_READ_ONLY, HG_IMAGE_WRITE_ONLY, 0, 0};
  uint32_t fi = hg_ir_add_function(m, "k_img", hg_ir_void_ty(), 4, types);
  hg_ir_function *f = &m->functions[fi];
  hg_ir_make_kernel(f);
  for (uint32_t i = 0; i < 4; i++) {
    f->args[i].name = strdup(names[i]);
    f->args[i].type_name = strdup(tnames[i]);
    f->args[i].kind = kinds[i];
    f->args[i].access_qual = access[i];
    f->args[i].size = f->args[i].align = 8;
  }
  hg_ir_append(f, hg_ir_add_block(f), HG_OP_RET, 0, hg_ir_void_ty(), 0, NULL, 0, NULL);
  hg_ir_compute_state(m);
  char err[256];
  uint8_t *bin = NULL;
  if (!hg_ir_verify(m, err, sizeof err) || hg_ir_encode(m, &bin, size) != 0) {
    fprintf(stderr, "image test module: %s\n", err);
    abort();
  }
  hg_ir_module_free(m);
  return bin;
}

/* little-endian u64s, as the file keeps a sampler's property list */
static uint8_t *props(test_snapshot *t, const uint64_t *v, uint32_t n) {
  uint8_t *p = test_own(t, malloc(8 * n));
  for (uint32_t i = 0; i < 8 * n; i++)
    p[i] = (uint8_t)(v[i / 8] >> (8 * (i % 8)));
  return p;
}

test_snapshot *test_snapshot_images(bool extra) {
  test_snapshot *t = test_snapshot_new();
  t->buffers = test_own(t, calloc(2, sizeof *t->buffers));
  t->buffers[0] = (hg_snap_buffer){0, HG_SNAP_NONE, CL_MEM_READ_WRITE, 0, 256, "backing", test_random_bytes(t, 256)};
  t->buffers[1] = (hg_snap_buffer){1, HG_SNAP_NONE, CL_MEM_READ_WRITE, 0, 64, NULL, test_random_bytes(t, 64)};
  t->s.num_buffers = 2;
  t->s.buffers = t->buffers;
  t->programs = test_own(t, calloc(1, sizeof *t->programs));
  t->programs[0] = (hg_snap_program){.id = 0, .label = "images", .build_options = ""};
  t->programs[0].ir = test_own(t, test_image_ir_binary(&t->programs[0].ir_size));
  t->s.num_programs = 1;
  t->s.programs = t->programs;

  /* labels of images 0 and 1 are NULL so that tests can find their fields at fixed offsets */
  t->images = test_own(t, calloc(3, sizeof *t->images));
  t->images[0] = (hg_snap_image){.id = 2, .type = CL_MEM_OBJECT_IMAGE2D, .channel_order = CL_RGBA,
                                 .channel_type = CL_UNORM_INT8, .flags = CL_MEM_READ_ONLY, .width = 4, .height = 3,
                                 .row_pitch = 16, .buffer = HG_SNAP_NONE, .size = 48};
  t->images[0].data = test_random_bytes(t, 48);
  t->images[1] = (hg_snap_image){.id = 3, .type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .channel_order = CL_RGBA,
                                 .channel_type = CL_UNORM_INT8, .flags = CL_MEM_WRITE_ONLY, .width = 16,
                                 .row_pitch = 64, .buffer = 0, .size = 64};
  t->images[2] = (hg_snap_image){.id = 4, .type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .channel_order = CL_R,
                                 .channel_type = CL_FLOAT, .flags = CL_MEM_READ_WRITE, .width = 5, .array_size = 2,
                                 .row_pitch = 20, .slice_pitch = 20, .buffer = HG_SNAP_NONE, .size = 40,
                                 .label = "array"};
  t->images[2].data = test_random_bytes(t, 40);
  t->s.num_images = extra ? 3 : 2;
  t->s.images = t->images;

  t->samplers = test_own(t, calloc(2, sizeof *t->samplers));
  t->samplers[0] = (hg_snap_sampler){.id = 0,
                                     .bits = HG_SAMPLER_NORMALIZED_COORDS | HG_SAMPLER_ADDRESS_CLAMP |
                                             HG_SAMPLER_FILTER_NEAREST};
  static const uint64_t list[5] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  t->samplers[1] = (hg_snap_sampler){.id = 1, .bits = HG_SAMPLER_ADDRESS_CLAMP | HG_SAMPLER_FILTER_LINEAR,
                                     .num_properties = 5, .properties = props(t, list, 5), .label = "linear"};
  t->s.num_samplers = 2;
  t->s.samplers = t->samplers;

  hg_snap_kernel_arg *args = test_own(t, calloc(4, sizeof *args));
  args[0] = (hg_snap_kernel_arg){HG_SNAP_ARG_IMAGE, 2, 0, NULL};
  args[1] = (hg_snap_kernel_arg){HG_SNAP_ARG_IMAGE, 3, 0, NULL};
  args[2] = (hg_snap_kernel_arg){HG_SNAP_ARG_SAMPLER, 1, 0, NULL};
  args[3] = (hg_snap_kernel_arg){HG_SNAP_ARG_BUFFER, 1, 0, NULL};
  t->kernels = test_own(t, calloc(1, sizeof *t->kernels));
  t->kernels[0] = (hg_snap_kernel){.id = 0, .program = 0, .name = "k_img", .label = NULL, .num_args = 4, .args = args};
  t->s.num_kernels = 1;
  t->s.kernels = t->kernels;
  return t;
}
