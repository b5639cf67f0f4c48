/* The IR's images and samplers (docs/ir-spec.md, "Images and samplers"): every image dimension
 * and access and sampler constants through the text and binary forms; the verifier's rules
 * (images only kernel parameters and image-builtin operands, reads from read-only and writes to
 * write-only images, no 3D writes, coordinate lanes, valid sampler bits); the decoder's clean
 * refusal of bad dimension and access bytes and of the new types in a 1.1 file. */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
#define CHECK(cond, ...)                                                                                      \
  do {                                                                                                       \
    if (cond)                                                                                                \
      passed++;                                                                                              \
    else {                                                                                                   \
      failed++;                                                                                              \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                            \
      printf(__VA_ARGS__);                                                                                   \
      printf("\n");                                                                                          \
    }                                                                                                        \
  } while (0)

#define ARG(i, n, t, k, acc) "  arg " #i " name \"" n "\" type \"" t "\" kind " k " access " #acc " qual 0 size 8 align 8\n"

/* A kernel with every image dimension read-only and write-only, a read_write one (a valid type;
 * only the builtins refuse it), a sampler argument, and two sampler constants. */
static const char k_all[] =
    "program executable\n"
    "string \"read_imagef\"\n"
    "string \"read_imageui\"\n"
    "string \"read_imagei\"\n"
    "string \"write_imagef\"\n"
    "string \"write_imageui\"\n"
    "string \"get_image_dim\"\n"
    "string \"get_image_array_size\"\n"
    "string \"get_image_depth\"\n"
    "string \"get_image_width\"\n"
    "kernel @k(image1d.ro %0, image1d_buffer.ro %1, image1d_array.ro %2, image2d.ro %3, image2d_array.ro %4, "
    "image3d.ro %5, image1d.wo %6, image1d_buffer.wo %7, image1d_array.wo %8, image2d.wo %9, image2d_array.wo %10, "
    "image3d.wo %11, image2d.rw %12, sampler %13) -> void\n"
    ARG(0, "a", "image1d_t", "image", 1) ARG(1, "b", "image1d_buffer_t", "image", 1)
    ARG(2, "c", "image1d_array_t", "image", 1) ARG(3, "d", "image2d_t", "image", 1)
    ARG(4, "e", "image2d_array_t", "image", 1) ARG(5, "f", "image3d_t", "image", 1)
    ARG(6, "g", "image1d_t", "image", 2) ARG(7, "h", "image1d_buffer_t", "image", 2)
    ARG(8, "i", "image1d_array_t", "image", 2) ARG(9, "j", "image2d_t", "image", 2)
    ARG(10, "k", "image2d_array_t", "image", 2) ARG(11, "l", "image3d_t", "image", 2)
    ARG(12, "m", "image2d_t", "image", 3) ARG(13, "s", "sampler_t", "sampler", 0)
    "{\n"
    "  %14 = const sampler 0x14\n"
    "  %15 = const sampler 0x27\n"
    "  %16 = const i32x2 1, 2\n"
    "  %17 = const f32x2 0x3f000000, 0x3f000000\n"
    "  %18 = const i32x4 1, 2, 3, 0\n"
    "  %19 = const i32 5\n"
    "bb0:\n"
    "  %20 = call_builtin f32x4 %3, %13, %16 [\"read_imagef\"]\n"
    "  %21 = call_builtin f32x4 %3, %14, %17 [\"read_imagef\"]\n"
    "  %22 = call_builtin f32x4 %3, %16 [\"read_imagef\"]\n"
    "  %23 = call_builtin i32x4 %5, %15, %18 [\"read_imageui\"]\n"
    "  %24 = call_builtin i32x4 %1, %19 [\"read_imagei\"]\n"
    "  %25 = call_builtin i32x4 %4, %13, %18 [\"read_imagei\"]\n"
    "  %26 = call_builtin f32x4 %0, %14, %19 [\"read_imagef\"]\n"
    "  %27 = call_builtin f32x4 %2, %16 [\"read_imagef\"]\n"
    "  call_builtin void %9, %16, %20 [\"write_imagef\"]\n"
    "  call_builtin void %10, %18, %23 [\"write_imageui\"]\n"
    "  call_builtin void %7, %19, %24 [\"write_imageui\"]\n"
    "  call_builtin void %6, %19, %26 [\"write_imagef\"]\n"
    "  call_builtin void %8, %16, %27 [\"write_imagef\"]\n"
    "  %28 = call_builtin i32x2 %3 [\"get_image_dim\"]\n"
    "  %29 = call_builtin i32x4 %11 [\"get_image_dim\"]\n"
    "  %30 = call_builtin i64 %4 [\"get_image_array_size\"]\n"
    "  %31 = call_builtin i32 %5 [\"get_image_depth\"]\n"
    "  %32 = call_builtin i32 %9 [\"get_image_width\"]\n"
    "  ret\n"
    "}\n";

static void test_round_trips(void) {
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(k_all, err, sizeof err);
  CHECK(m != NULL, "the image kernel parses and verifies: %s", err);
  if (!m)
    return;
  const hg_ir_function *f = &m->functions[0];
  CHECK(f->param_types[1].scalar == HG_IR_IMAGE && f->param_types[1].addrspace == HG_IMAGE_1D_BUFFER &&
            f->param_types[1].reserved == HG_IMAGE_READ_ONLY,
        "image1d_buffer.ro is {IMAGE, 1, 1D_BUFFER, READ_ONLY}");
  CHECK(f->param_types[12].addrspace == HG_IMAGE_2D && f->param_types[12].reserved == HG_IMAGE_READ_WRITE,
        "image2d.rw is {IMAGE, 1, 2D, READ_WRITE}");
  CHECK(f->param_types[13].scalar == HG_IR_SAMPLER, "sampler type");
  CHECK(f->values[15].kind == HG_VAL_CONST && f->const_words[f->values[15].index] == 0x27, "sampler constant 0x27");
  char *t1 = hg_ir_print(m);
  CHECK(t1 && strstr(t1, "image2d_array.wo %10") && strstr(t1, "image1d_buffer.ro %1") &&
            strstr(t1, "const sampler 0x14") && strstr(t1, "sampler %13"),
        "the text names image types and sampler constants as written:\n%s", t1 ? t1 : "(null)");
  hg_ir_module *m2 = t1 ? hg_ir_parse(t1, err, sizeof err) : NULL;
  CHECK(m2 && hg_ir_module_equal(m, m2), "text round trip: %s", err);
  char *t2 = m2 ? hg_ir_print(m2) : NULL;
  CHECK(t1 && t2 && !strcmp(t1, t2), "printing the parsed text gives the same text");
  uint8_t *bin = NULL;
  size_t n = 0;
  CHECK(hg_ir_encode(m, &bin, &n) == 0, "encodes");
  CHECK(n > 12 && bin[10] == HG_IR_VERSION_MINOR && bin[11] == 0 && HG_IR_VERSION_MINOR >= 2,
        "the binary says its format (1.2 or newer)");
  hg_ir_module *m3 = bin ? hg_ir_decode(bin, n, err, sizeof err) : NULL;
  CHECK(m3 && hg_ir_module_equal(m, m3), "binary round trip: %s", err);
  hg_ir_module_free(m3);
  hg_ir_module *clone = hg_ir_module_clone(m);
  CHECK(clone && hg_ir_module_equal(m, clone), "clone keeps image types");
  hg_ir_module_free(clone);
  /* state metadata and step function: images and samplers are parameters, never slots */
  hg_ir_compute_state(m);
  CHECK(hg_ir_verify(m, err, sizeof err), "verifies with state metadata: %s", err);
  uint32_t step = hg_ir_make_resumable(m, 0, err, sizeof err);
  CHECK(step != HG_IR_NONE, "a step function is made: %s", err);
  if (step != HG_IR_NONE) {
    const hg_ir_function *s = &m->functions[step];
    bool same = s->num_params == f->num_params + 2;
    for (uint32_t i = 0; same && i < f->num_params; i++)
      same = hg_ir_type_eq(s->param_types[i], m->functions[0].param_types[i]);
    CHECK(same, "the step function takes the kernel's image and sampler parameters first");
    CHECK(hg_ir_verify(m, err, sizeof err), "the module with its step function verifies: %s", err);
  }

  /* decoding bad bytes: find the sampler parameter type {SAMPLER,1,0,0} and the image2d.rw
   * type and corrupt them; checksums are recomputed by re-encoding a patched module */
  hg_ir_module_free(m2);
  free(t1);
  free(t2);
  free(bin);
  hg_ir_module_free(m);
}

/* Encodes m after `patch` set a type's bytes directly (the builders would refuse), then checks
 * the decoder's error. */
static void expect_decode_error(const char *what, void (*patch)(hg_ir_module *), const char *want, int minor) {
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(k_all, err, sizeof err);
  if (!m)
    return;
  patch(m);
  uint8_t *bin = NULL;
  size_t n = 0;
  if (hg_ir_encode(m, &bin, &n) == 0) {
    if (minor >= 0) { /* rewrite the minor version; the checksum covers it, so recompute */
      bin[10] = (uint8_t)minor;
      extern uint32_t hg_ir_crc32c(uint32_t crc, const void *data, size_t n);
      uint32_t crc = hg_ir_crc32c(hg_ir_crc32c(0, bin, 20), bin + 24, n - 24);
      memcpy(bin + 20, &crc, 4);
    }
    err[0] = 0;
    hg_ir_module *d = hg_ir_decode(bin, n, err, sizeof err);
    CHECK(!d && strstr(err, want), "%s: decode fails with \"%s\", got \"%s\"", what, want, err);
    hg_ir_module_free(d);
  }
  free(bin);
  hg_ir_module_free(m);
}
static void bad_dim(hg_ir_module *m) { m->functions[0].param_types[3].addrspace = 7, m->functions[0].values[3].type.addrspace = 7; }
static void bad_access(hg_ir_module *m) { m->functions[0].param_types[3].reserved = 0, m->functions[0].values[3].type.reserved = 0; }
static void bad_sampler(hg_ir_module *m) { m->functions[0].param_types[13].addrspace = 1, m->functions[0].values[13].type.addrspace = 1; }
static void no_patch(hg_ir_module *m) { (void)m; }

static void test_decode_errors(void) {
  expect_decode_error("image dimension byte 7", bad_dim, "invalid image or sampler type", -1);
  expect_decode_error("image access byte 0", bad_access, "invalid image or sampler type", -1);
  expect_decode_error("sampler with an address space", bad_sampler, "invalid image or sampler type", -1);
  expect_decode_error("images in a 1.1 file", no_patch, "older than format 1.2", 1);
}

/* The kernel k_all with one line replaced: the verifier must refuse with `want` in the message. */
static void expect_reject(const char *what, const char *line, const char *replacement, const char *want) {
  const char *at = strstr(k_all, line);
  if (!at) {
    CHECK(0, "%s: line not found", what);
    return;
  }
  size_t pre = (size_t)(at - k_all), rest = strlen(at + strlen(line));
  char *text = malloc(pre + strlen(replacement) + rest + 1);
  memcpy(text, k_all, pre);
  strcpy(text + pre, replacement);
  strcat(text, at + strlen(line));
  char err[512] = "";
  hg_ir_module *m = hg_ir_parse(text, err, sizeof err);
  CHECK(!m && strstr(err, want), "%s: must fail with \"%s\", got \"%s\"", what, want, err);
  hg_ir_module_free(m);
  free(text);
}

static void test_verifier_rejects(void) {
  const char *ret = "  ret\n}\n";
  expect_reject("image through a phi", ret,
                "  br [bb1]\nbb1:\n  %33 = phi image2d.ro %3 [bb0]\n  ret\n}\n", "an image is a parameter");
  expect_reject("image stored", ret, "  %33 = inttoptr ptr.global %19\n  store %33, %3\n  ret\n}\n",
                "operands of image builtins only");
  expect_reject("sampler selected", ret, "  %33 = icmp.eq bool %19, %19\n  %34 = select sampler %33, %13, %14\n  ret\n}\n",
                "a parameter or a constant");
  expect_reject("image passed to another builtin", "  %32 = call_builtin i32 %9 [\"get_image_width\"]\n",
                "  %32 = call_builtin i32 %9 [\"get_work_dim\"]\n", "operand 0 is an image or sampler");
  expect_reject("write to a read-only image", "  call_builtin void %9, %16, %20 [\"write_imagef\"]\n",
                "  call_builtin void %3, %16, %20 [\"write_imagef\"]\n", "writes to a read-only image");
  expect_reject("read from a write-only image", "  %22 = call_builtin f32x4 %3, %16 [\"read_imagef\"]\n",
                "  %22 = call_builtin f32x4 %9, %16 [\"read_imagef\"]\n", "reads from a write-only image");
  expect_reject("read from a read_write image", "  %22 = call_builtin f32x4 %3, %16 [\"read_imagef\"]\n",
                "  %22 = call_builtin f32x4 %12, %16 [\"read_imagef\"]\n", "read_write images");
  expect_reject("3D write", "  call_builtin void %10, %18, %23 [\"write_imageui\"]\n",
                "  call_builtin void %11, %18, %23 [\"write_imageui\"]\n", "writes to 3D images are not offered");
  expect_reject("2D coordinate of 4 lanes", "  %22 = call_builtin f32x4 %3, %16 [\"read_imagef\"]\n",
                "  %22 = call_builtin f32x4 %3, %18 [\"read_imagef\"]\n", "must be i32 with 2 lanes");
  expect_reject("float coordinate without sampler", "  %22 = call_builtin f32x4 %3, %16 [\"read_imagef\"]\n",
                "  %22 = call_builtin f32x4 %3, %17 [\"read_imagef\"]\n", "must be i32 with 2 lanes");
  expect_reject("read_imageui result f32x4", "  %23 = call_builtin i32x4 %5, %15, %18 [\"read_imageui\"]\n",
                "  %23 = call_builtin f32x4 %5, %15, %18 [\"read_imageui\"]\n", "the result must be i32x4");
  expect_reject("sampled 1D buffer read", "  %24 = call_builtin i32x4 %1, %19 [\"read_imagei\"]\n",
                "  %24 = call_builtin i32x4 %1, %13, %19 [\"read_imagei\"]\n", "without a sampler");
  expect_reject("get_image_dim of a 1D image", "  %28 = call_builtin i32x2 %3 [\"get_image_dim\"]\n",
                "  %28 = call_builtin i32x2 %0 [\"get_image_dim\"]\n", "does not apply to image1d.ro");
  expect_reject("get_image_dim of 3D as i32x2", "  %29 = call_builtin i32x4 %11 [\"get_image_dim\"]\n",
                "  %29 = call_builtin i32x2 %11 [\"get_image_dim\"]\n", "the result must be i32x4");
  expect_reject("get_image_array_size as i32", "  %30 = call_builtin i64 %4 [\"get_image_array_size\"]\n",
                "  %30 = call_builtin i32 %4 [\"get_image_array_size\"]\n", "the result must be i64");
  expect_reject("sampler bits beyond 0x3f", "  %14 = const sampler 0x14\n", "  %14 = const sampler 0x54\n",
                "sampler constant 0x54 is not valid");
  expect_reject("sampler addressing mode 5", "  %14 = const sampler 0x14\n", "  %14 = const sampler 0x1a\n",
                "not valid");
  expect_reject("sampler with both filters", "  %14 = const sampler 0x14\n", "  %14 = const sampler 0x34\n",
                "not valid");
  expect_reject("image argument kind mismatch", ARG(3, "d", "image2d_t", "image", 1), ARG(3, "d", "image2d_t", "global_ptr", 1),
                "kind does not match");
  expect_reject("image access differs from the qualifier", ARG(3, "d", "image2d_t", "image", 1),
                ARG(3, "d", "image2d_t", "image", 2), "kind does not match");
  expect_reject("sampler argument as value", ARG(13, "s", "sampler_t", "sampler", 0),
                "  arg 13 name \"s\" type \"sampler_t\" kind value access 0 qual 0 size 4 align 4\n",
                "kind does not match");
  expect_reject("image constant", "  %19 = const i32 5\n", "  %19 = const image2d.ro 0\n", "images have no constants");
}

/* a function may take an image (a step function does: the backends call it), but no call may
 * pass one */
static void test_function_params(void) {
  const char *text = "func @f(image2d.ro %0) -> void\n{\nbb0:\n  ret\n}\n"
                     "kernel @k(image2d.ro %0) -> void\n" ARG(0, "d", "image2d_t", "image", 1)
                     "{\nbb0:\n  call void %0 [@f]\n  ret\n}\n";
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(text, err, sizeof err);
  CHECK(!m && strstr(err, "operands of image builtins only"), "an image passed in a call refused: %s", err);
  hg_ir_module_free(m);
}

int main(void) {
  test_round_trips();
  test_decode_errors();
  test_verifier_rejects();
  test_function_params();
  printf("ir_image_test: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
