/* Images and samplers through the front end and the OpenCL C back end (docs/images.md): OpenCL
 * C kernels with every image type, inline and program-scope samplers, sampler arguments and the
 * query functions are compiled (OpenCL C 1.2 and 3.0, optimised and -cl-opt-disable); the IR is
 * checked (parameter types, argument kinds, builtin operands, sampler constants); the OpenCL C
 * the back end emits for them, in the plain, stoppable and robust forms, is compiled again by
 * clang (the front end) as OpenCL C 1.2 and 3.0; kernels the device does not offer fail with a
 * message saying why. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_stop.h"
#include "lowering/spir.h"

static int g_pass, g_fail;

static void check(bool ok, const char *name, const char *fmt, ...) {
  if (ok) {
    g_pass++;
    return;
  }
  g_fail++;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "FAIL %s: ", name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static const char k_source[] =
    "const sampler_t g_smp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
    "__kernel void k2d(__read_only image2d_t src, sampler_t smp, __write_only image2d_t dst, __global int *info) {\n"
    "  const sampler_t inl = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float4 v = read_imagef(src, smp, c) + read_imagef(src, inl, (float2)(c.x + 0.5f, c.y + 0.5f))\n"
    "           + read_imagef(src, g_smp, (float2)(0.25f, 0.75f)) + read_imagef(src, c);\n"
    "  write_imagef(dst, c, v);\n"
    "  int2 d = get_image_dim(src);\n"
    "  info[0] = d.x + d.y + get_image_width(src) + get_image_height(dst) + get_image_channel_data_type(src)\n"
    "          + get_image_channel_order(dst);\n"
    "}\n"
    "__kernel void kint(__read_only image3d_t v3, __read_only image2d_array_t a2, __read_only image1d_array_t a1,\n"
    "                   __read_only image1d_t i1, __read_only image1d_buffer_t b1, __write_only image2d_array_t wa,\n"
    "                   __write_only image1d_t w1, __write_only image1d_buffer_t wb, __write_only image1d_array_t w1a,\n"
    "                   sampler_t smp, __global ulong *info) {\n"
    "  const sampler_t s = CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "  int x = get_global_id(0);\n"
    "  uint4 u = read_imageui(v3, s, (int4)(x, 1, 2, 0)) + read_imageui(a2, smp, (float4)(x, 0.5f, 1, 0));\n"
    "  int4 i = read_imagei(a1, s, (int2)(x, 1)) + read_imagei(i1, x) + read_imagei(b1, x);\n"
    "  write_imageui(wa, (int4)(x, 0, 1, 0), u);\n"
    "  write_imagei(w1, x, i);\n"
    "  write_imagei(wb, x, i);\n"
    "  write_imagef(w1a, (int2)(x, 0), read_imagef(i1, s, (float)x));\n"
    "  int4 d3 = get_image_dim(v3);\n"
    "  info[x] = get_image_array_size(a2) + get_image_array_size(a1) + get_image_depth(v3) + d3.z\n"
    "          + get_image_width(b1);\n"
    "}\n"
    "__kernel void kloop(__read_only image2d_t src, sampler_t smp, __global float *out, int n) {\n"
    "  __local float t[64];\n"
    "  float acc = 0;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    acc += read_imagef(src, smp, (int2)(get_global_id(0), i)).x;\n"
    "    t[get_local_id(0)] = acc;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    acc += t[(get_local_id(0) + 1) % get_local_size(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (n < 0) printf(\"%d\\n\", get_image_width(src));\n"
    "  out[get_global_id(0)] = acc;\n"
    "}\n";

static const hg_ir_function *kernel(const hg_ir_module *m, const char *name) {
  for (uint32_t f = 0; f < m->num_functions; f++)
    if (m->functions[f].is_kernel && !strcmp(m->functions[f].name, name)) return &m->functions[f];
  return NULL;
}

/* The n-th call of builtin `name` in f (NULL when fewer). */
static const hg_ir_inst *nth_builtin(const hg_ir_module *m, const hg_ir_function *f, const char *name, unsigned n) {
  for (uint32_t b = 0; f && b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      if (in->op == HG_OP_CALL_BUILTIN && !strcmp(m->strings[in->imm[0]], name) && n-- == 0) return in;
    }
  return NULL;
}

static hg_ir_type optype(const hg_ir_function *f, const hg_ir_inst *in, unsigned k) {
  return f->values[in->operands[k]].type;
}

static bool is_image(hg_ir_type t, hg_ir_image_dim d, hg_ir_image_access a) {
  return t.scalar == HG_IR_IMAGE && t.lanes == 1 && t.addrspace == d && t.reserved == a;
}

/* Does f hold a sampler constant of these bits? */
static bool has_sampler_const(const hg_ir_function *f, uint64_t bits) {
  for (uint32_t v = 0; v < f->num_values; v++)
    if (f->values[v].kind == HG_VAL_CONST && f->values[v].type.scalar == HG_IR_SAMPLER &&
        f->const_words[f->values[v].index] == bits)
      return true;
  return false;
}

static void check_ir(const hg_ir_module *m, const char *tag) {
  const hg_ir_function *k = kernel(m, "k2d"), *ki = kernel(m, "kint");
  check(k && ki && kernel(m, "kloop"), tag, "kernels missing");
  if (!k || !ki) return;
  check(is_image(k->param_types[0], HG_IMAGE_2D, HG_IMAGE_READ_ONLY) && k->param_types[1].scalar == HG_IR_SAMPLER &&
            is_image(k->param_types[2], HG_IMAGE_2D, HG_IMAGE_WRITE_ONLY) && k->param_types[3].scalar == HG_IR_PTR,
        tag, "k2d parameter types");
  check(k->args[0].kind == HG_KARG_IMAGE && k->args[0].access_qual == 1 && !strcmp(k->args[0].type_name, "image2d_t") &&
            k->args[1].kind == HG_KARG_SAMPLER && !strcmp(k->args[1].type_name, "sampler_t") &&
            k->args[2].kind == HG_KARG_IMAGE && k->args[2].access_qual == 2 && k->args[3].kind == HG_KARG_GLOBAL_PTR,
        tag, "k2d argument metadata");
  static const struct { hg_ir_image_dim d; hg_ir_image_access a; } want[9] = {
      {HG_IMAGE_3D, HG_IMAGE_READ_ONLY},        {HG_IMAGE_2D_ARRAY, HG_IMAGE_READ_ONLY},
      {HG_IMAGE_1D_ARRAY, HG_IMAGE_READ_ONLY},  {HG_IMAGE_1D, HG_IMAGE_READ_ONLY},
      {HG_IMAGE_1D_BUFFER, HG_IMAGE_READ_ONLY}, {HG_IMAGE_2D_ARRAY, HG_IMAGE_WRITE_ONLY},
      {HG_IMAGE_1D, HG_IMAGE_WRITE_ONLY},       {HG_IMAGE_1D_BUFFER, HG_IMAGE_WRITE_ONLY},
      {HG_IMAGE_1D_ARRAY, HG_IMAGE_WRITE_ONLY}};
  for (unsigned i = 0; i < 9; i++)
    check(is_image(ki->param_types[i], want[i].d, want[i].a) && ki->args[i].kind == HG_KARG_IMAGE, tag,
          "kint parameter %u: image type %u.%u expected, got {%u,%u,%u,%u}", i, want[i].d, want[i].a,
          ki->param_types[i].scalar, ki->param_types[i].lanes, ki->param_types[i].addrspace, ki->param_types[i].reserved);
  /* the sampler constants: inline ones and the program-scope one, by their CLK_ bits */
  check(has_sampler_const(k, 0x14) && has_sampler_const(k, 0x27), tag, "k2d sampler constants 0x14 and 0x27");
  check(has_sampler_const(ki, 0x12), tag, "kint sampler constant 0x12");
  /* read_imagef(src, smp, int2), (src, inl, float2), (src, g_smp, float2), (src, int2) */
  const hg_ir_inst *r0 = nth_builtin(m, k, "read_imagef", 0), *r1 = nth_builtin(m, k, "read_imagef", 1);
  const hg_ir_inst *r3 = nth_builtin(m, k, "read_imagef", 3);
  check(r0 && r0->num_operands == 3 && optype(k, r0, 0).scalar == HG_IR_IMAGE && k->values[r0->operands[1]].kind == HG_VAL_PARAM &&
            optype(k, r0, 2).scalar == HG_IR_I32 && optype(k, r0, 2).lanes == 2 && r0->type.scalar == HG_IR_F32 &&
            r0->type.lanes == 4,
        tag, "read_imagef with the sampler argument");
  check(r1 && r1->num_operands == 3 && k->values[r1->operands[1]].kind == HG_VAL_CONST && optype(k, r1, 2).scalar == HG_IR_F32,
        tag, "read_imagef with an inline sampler and float coordinates");
  check(r3 && r3->num_operands == 2, tag, "read_imagef without a sampler");
  const hg_ir_inst *w = nth_builtin(m, k, "write_imagef", 0);
  check(w && w->num_operands == 3 && is_image(optype(k, w, 0), HG_IMAGE_2D, HG_IMAGE_WRITE_ONLY) && w->type.scalar == HG_IR_VOID,
        tag, "write_imagef");
  const hg_ir_inst *gd = nth_builtin(m, k, "get_image_dim", 0), *gd3 = nth_builtin(m, ki, "get_image_dim", 0);
  check(gd && gd->type.scalar == HG_IR_I32 && gd->type.lanes == 2, tag, "get_image_dim of 2D is i32x2");
  check(gd3 && gd3->type.scalar == HG_IR_I32 && gd3->type.lanes == 4, tag, "get_image_dim of 3D is i32x4");
  const hg_ir_inst *as = nth_builtin(m, ki, "get_image_array_size", 0);
  check(as && as->type.scalar == HG_IR_I64 && is_image(optype(ki, as, 0), HG_IMAGE_2D_ARRAY, HG_IMAGE_READ_ONLY), tag,
        "get_image_array_size is i64 of the 2D array");
  const hg_ir_inst *ru = nth_builtin(m, ki, "read_imageui", 0);
  check(ru && optype(ki, ru, 2).lanes == 4 && ru->type.scalar == HG_IR_I32 && ru->type.lanes == 4, tag, "read_imageui 3D");
  check(nth_builtin(m, ki, "write_imageui", 0) && nth_builtin(m, ki, "write_imagei", 1) && nth_builtin(m, ki, "get_image_depth", 0),
        tag, "write_imageui, write_imagei x2, get_image_depth");
}

/* The emitted OpenCL C compiles again, as OpenCL C 1.2 and 3.0. */
static void recompile(const char *tag, const char *src) {
  static const char *const stds[] = {"-cl-std=CL1.2", "-cl-std=CL3.0"};
  for (unsigned s = 0; s < 2; s++) {
    hg_ir_module *m = NULL;
    char *log = NULL;
    cl_int rc = hg_frontend_compile(src, stds[s], NULL, 0, false, &m, &log);
    check(rc == CL_SUCCESS && m, tag, "the emitted OpenCL C does not compile with %s: %s", stds[s], log ? log : "");
    hg_ir_module_free(m);
    free(log);
  }
}

static void test_compile_and_lower(const char *options) {
  char tag[96];
  snprintf(tag, sizeof tag, "images [%s]", options);
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile(k_source, options, NULL, 0, false, &m, &log);
  check(rc == CL_SUCCESS && m, tag, "compile failed (%d): %s", rc, log ? log : "");
  free(log);
  if (!m) return;
  char err[512] = "";
  check(hg_ir_verify(m, err, sizeof err), tag, "IR does not verify: %s", err);
  check_ir(m, tag);
  hg_printf_table pt;
  char *src = hg_lower_opencl_c(m, &pt, err, sizeof err);
  check(src != NULL, tag, "lowering failed: %s", err);
  if (src) {
    check(strstr(src, "__read_only image2d_t") && strstr(src, "__write_only image1d_buffer_t") &&
              strstr(src, "sampler_t smp") &&
              strstr(src, "__constant sampler_t hg_sampler_27 = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | "
                          "CLK_FILTER_LINEAR;") &&
              strstr(src, "read_imagef(src, hg_sampler_14, ") && strstr(src, "as_uint2(get_image_dim(src))"),
          tag, "emitted OpenCL C lacks the expected declarations:\n%s", src);
    recompile(tag, src);
    free(src);
    hg_printf_table_free(&pt);
  }
  hg_oc_stop_table stop = {0};
  hg_ir_compute_state(m); /* the safe points the forms stop at, as the platform computes them */
  check(hg_ir_verify(m, err, sizeof err), tag, "IR with state does not verify: %s", err);
  hg_oc_forms_target gpu = hg_oc_forms_target_of(false);
  src = hg_lower_opencl_c_stoppable(m, &gpu, &pt, &stop, err, sizeof err);
  check(src && hg_oc_stop_table_find(&stop, "kloop") && strstr(src, "hg_resume_kloop(__read_only image2d_t src, sampler_t smp"),
        tag, "stoppable forms of the image kernel missing: %s", src ? "" : err);
  if (src) recompile(tag, src);
  free(src);
  hg_printf_table_free(&pt);
  hg_oc_stop_table_free(&stop);
  src = hg_lower_opencl_c_robust(m, &pt, err, sizeof err);
  check(src != NULL, tag, "robust lowering failed: %s", err);
  if (src) recompile(tag, src);
  free(src);
  hg_printf_table_free(&pt);
  /* the SPIR back end leaves images to the OpenCL C one */
  size_t n = 0;
  uint8_t *bc = hg_lower_spir(m, false, &n, err, sizeof err);
  check(!bc && strstr(err, "images or samplers"), tag, "SPIR must refuse images: %s", err);
  free(bc);
  hg_ir_module_free(m);
}

static void expect_failure(const char *tag, const char *src, const char *options, const char *want) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile(src, options, NULL, 0, false, &m, &log);
  check(rc == CL_COMPILE_PROGRAM_FAILURE && !m && log && strstr(log, want), tag, "expected a failure with \"%s\", got %d: %s",
        want, rc, log ? log : "");
  hg_ir_module_free(m);
  free(log);
}

static void test_refusals(void) {
  expect_failure("bad sampler bits",
                 "__kernel void k(__read_only image2d_t i, __global float4 *o) {\n"
                 "  const sampler_t s = 0xE | CLK_FILTER_NEAREST; o[0] = read_imagef(i, s, (int2)(0)); }\n",
                 NULL, "sampler initializer 0x1e is not valid");
  expect_failure("read_write image", "__kernel void k(__read_write image2d_t i) { }\n", "-cl-std=CL2.0",
                 "read_write images (image2d_t) are not supported by this device");
  expect_failure("read_write image 3.0", "__kernel void k(__read_write image2d_t i) { }\n", "-cl-std=CL3.0",
                 "__opencl_c_read_write_images");
  expect_failure("3D write", "__kernel void k(__write_only image3d_t i) { write_imagef(i, (int4)(0), (float4)(0)); }\n",
                 NULL, "cl_khr_3d_image_writes");
  expect_failure("depth image", "__kernel void k(__read_only image2d_depth_t i) { }\n", "-cl-std=CL2.0",
                 "is not supported by this device");
  expect_failure("pipe", "__kernel void k(__read_only pipe int p) { }\n", "-cl-std=CL2.0", "not supported by this device");
}

/* The device's image macros as OpenCL C sees them, for each language version. */
static void test_macros(void) {
  static const char *const opts[] = {"-cl-std=CL1.1", "", "-cl-std=CL2.0", "-cl-std=CL3.0"};
  const char *src = "#ifndef __IMAGE_SUPPORT__\n#error __IMAGE_SUPPORT__ must be defined\n#endif\n"
                    "#if defined(__opencl_c_read_write_images) || defined(__opencl_c_3d_image_writes) || "
                    "defined(cl_khr_3d_image_writes)\n#error not offered\n#endif\n"
                    "#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_images)\n#error __opencl_c_images\n#endif\n"
                    "__kernel void k(__global int *o) { o[0] = 1; }\n";
  for (unsigned i = 0; i < 4; i++) {
    hg_ir_module *m = NULL;
    char *log = NULL;
    cl_int rc = hg_frontend_compile(src, opts[i], NULL, 0, false, &m, &log);
    check(rc == CL_SUCCESS && m, "macros", "[%s] %s", opts[i], log ? log : "");
    hg_ir_module_free(m);
    free(log);
  }
}

int main(void) {
  test_macros();
  test_compile_and_lower("");
  test_compile_and_lower("-cl-opt-disable");
  test_compile_and_lower("-cl-std=CL3.0");
  test_compile_and_lower("-cl-std=CL3.0 -cl-opt-disable");
  test_refusals();
  printf("frontend_images: %d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
