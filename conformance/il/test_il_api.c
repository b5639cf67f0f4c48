/* SPIR-V through the API: clCreateProgramWithIL(KHR) and its errors, the device's IL queries,
 * CL_PROGRAM_IL, build failures with the reason in the log (spirv-val's message, an unsupported
 * capability named), hand-written modules run against host references (OpenCL.std, constant
 * data, switch and loop forms), specialization constants, an IL object linked with an OpenCL C
 * object both ways, the binary round trip, and a program from IL migrating between backends and
 * restored from a checkpoint on the other one. */
#include <CL/cl_ext.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_util.h"
#include "migrate_util.h"

#define N 1024
#define LS 64

/* The word index of the first instruction with this opcode and first operand, or 0. */
static size_t find_insn(const uint32_t *w, size_t nwords, uint32_t opcode, uint32_t operand) {
  for (size_t at = 5; at < nwords && (w[at] >> 16); at += w[at] >> 16)
    if ((w[at] & 0xffff) == opcode && (w[at] >> 16) >= 2 && w[at + 1] == operand)
      return at;
  return 0;
}

static cl_int build(cl_program p, const char *options) { return clBuildProgram(p, 0, NULL, options, NULL, NULL); }

HG_TEST(device_reports_spirv) {
  char il[256] = "", exts[2048] = "";
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_IL_VERSION, sizeof il, il, NULL));
  CHECK_MSG(strstr(il, "SPIR-V_1.0") && strstr(il, "SPIR-V_1.4"), "CL_DEVICE_IL_VERSION '%s'", il);
  cl_name_version v[16];
  size_t size = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_ILS_WITH_VERSION, sizeof v, v, &size));
  CHECK(size / sizeof *v == 5);
  for (size_t i = 0; i < size / sizeof *v; i++)
    CHECK(!strcmp(v[i].name, "SPIR-V") && v[i].version == CL_MAKE_VERSION(1, (cl_uint)i, 0));
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_EXTENSIONS, sizeof exts, exts, NULL));
  CHECK(strstr(exts, "cl_khr_il_program") != NULL);
  clCreateProgramWithILKHR_fn khr =
      (clCreateProgramWithILKHR_fn)clGetExtensionFunctionAddressForPlatform(hg_test_platform, "clCreateProgramWithILKHR");
  CHECK(khr != NULL);
  size_t bytes;
  uint32_t *w = il_module("opencl_std", &bytes);
  CHECK(w);
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_program p = khr(ctx, w, bytes, &err);
  CHECK_CL(err);
  CHECK_CL(build(p, NULL));
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(w);
}

HG_TEST(not_spirv_is_invalid_value) {
  size_t bytes;
  uint32_t *w = il_module("opencl_std", &bytes);
  CHECK(w);
  cl_context ctx = hg_test_context();
  cl_int err = CL_SUCCESS;
  CHECK(!clCreateProgramWithIL(ctx, NULL, bytes, &err) && err == CL_INVALID_VALUE);
  CHECK(!clCreateProgramWithIL(ctx, w, 0, &err) && err == CL_INVALID_VALUE);
  CHECK(!clCreateProgramWithIL(NULL, w, bytes, &err) && err == CL_INVALID_CONTEXT);
  static const char source[] = "__kernel void k(__global int *a) { a[0] = 1; }";
  CHECK(!clCreateProgramWithIL(ctx, source, sizeof source - 1, &err) && err == CL_INVALID_VALUE);
  CHECK(!clCreateProgramWithIL(ctx, w, bytes - 2, &err) && err == CL_INVALID_VALUE); /* not whole words */
  CHECK(!clCreateProgramWithIL(ctx, w, 12, &err) && err == CL_INVALID_VALUE);        /* shorter than the header */
  uint32_t *bad = malloc(bytes);
  memcpy(bad, w, bytes);
  bad[0] ^= 0x10; /* magic */
  CHECK(!clCreateProgramWithIL(ctx, bad, bytes, &err) && err == CL_INVALID_VALUE);
  memcpy(bad, w, bytes);
  bad[1] = 0x00010600; /* SPIR-V 1.6: above what the device takes */
  CHECK(!clCreateProgramWithIL(ctx, bad, bytes, &err) && err == CL_INVALID_VALUE);
  memcpy(bad, w, bytes);
  bad[3] = 0; /* id bound */
  CHECK(!clCreateProgramWithIL(ctx, bad, bytes, &err) && err == CL_INVALID_VALUE);
  memcpy(bad, w, bytes);
  bad[bytes / 4 - 1] = (5u << 16) | 56; /* the last instruction (OpFunctionEnd) claims 5 words */
  CHECK(!clCreateProgramWithIL(ctx, bad, bytes, &err) && err == CL_INVALID_VALUE);
  /* the other byte order is SPIR-V too */
  for (size_t i = 0; i < bytes / 4; i++)
    bad[i] = __builtin_bswap32(w[i]);
  cl_program p = clCreateProgramWithIL(ctx, bad, bytes, &err);
  CHECK_CL(err);
  CHECK_CL(build(p, NULL));
  clReleaseProgram(p);
  free(bad);
  free(w);
  clReleaseContext(ctx);
}

/* A module that fails its build: the status, the binary type and the reason in the log. */
static void expect_build_failure(cl_context ctx, const uint32_t *w, size_t bytes, const char *in_log) {
  cl_int err;
  cl_program p = clCreateProgramWithIL(ctx, w, bytes, &err);
  CHECK_CL(err);
  CHECK_ERR(build(p, NULL), CL_BUILD_PROGRAM_FAILURE);
  cl_build_status st;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
  CHECK(st == CL_BUILD_ERROR);
  char *log = il_build_log(p);
  CHECK_MSG(log && strstr(log, in_log), "the build log does not name '%s':\n%s", in_log, log ? log : "");
  free(log);
  cl_int kerr;
  CHECK(!clCreateKernel(p, "math", &kerr) && kerr == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);
}

HG_TEST(rejected_modules_say_why) {
  size_t bytes;
  uint32_t *w = il_module("opencl_std", &bytes);
  CHECK(w);
  size_t n = bytes / 4;
  cl_context ctx = hg_test_context();
  uint32_t *bad = malloc(bytes);
  /* invalid for spirv-val: the last OpFunctionEnd missing */
  memcpy(bad, w, bytes);
  expect_build_failure(ctx, bad, bytes - 4, "spirv-val");
  /* an id never defined: the first decoration's target moved past every defined id */
  memcpy(bad, w, bytes);
  size_t deco = 0;
  for (size_t at = 5; at < n && (bad[at] >> 16); at += bad[at] >> 16)
    if ((bad[at] & 0xffff) == 71 && !deco) deco = at; /* OpDecorate */
  CHECK(deco);
  bad[deco + 1] = bad[3]++;
  expect_build_failure(ctx, bad, bytes, "spirv-val");
  memcpy(bad, w, bytes);
  size_t cap = find_insn(bad, n, 17, 11); /* OpCapability Int64 */
  CHECK(cap);
  static const struct { uint32_t cap; const char *name; } refused[] = {
      {9, "Float16"}, {38, "GenericPointer"}, {13, "ImageBasic"}, {1, "Shader"}, {18, "Groups"}};
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    memcpy(bad, w, bytes);
    bad[cap + 1] = refused[i].cap;
    /* GenericPointer passes for generic pointers to events only (wait_group_events): make the
     * first CrossWorkgroup pointer type a Generic one */
    for (size_t at = 5; refused[i].cap == 38 && at < n; at += bad[at] >> 16)
      if ((bad[at] & 0xffff) == 32 && bad[at + 2] == 5) {
        bad[at + 2] = 8;
        break;
      }
    expect_build_failure(ctx, bad, bytes, refused[i].name);
  }
  /* an extended instruction set the device does not take */
  memcpy(bad, w, bytes);
  size_t imp = find_insn(bad, n, 11, 1); /* %std = OpExtInstImport "OpenCL.std" (id 1) */
  CHECK(imp);
  memcpy(&bad[imp + 2], "GLSL.std.450", 12);
  expect_build_failure(ctx, bad, bytes, "GLSL.std.450");
  /* 32-bit addressing on a 64-bit device */
  memcpy(bad, w, bytes);
  for (size_t at = 5; at < n; at += bad[at] >> 16)
    if ((bad[at] & 0xffff) == 14)
      bad[at + 1] = 1; /* Physical32 */
  expect_build_failure(ctx, bad, bytes, "Physical64");
  free(bad);
  free(w);
  clReleaseContext(ctx);
}

HG_TEST(program_il_round_trip) {
  size_t bytes;
  uint32_t *w = il_module("opencl_std", &bytes);
  CHECK(w);
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_program p = clCreateProgramWithIL(ctx, w, bytes, &err);
  CHECK_CL(err);
  size_t size = 0;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size));
  CHECK(size == bytes);
  uint8_t *got = malloc(size);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_IL, size, got, NULL));
  CHECK(!memcmp(got, w, bytes));
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_IL, size - 1, got, NULL), CL_INVALID_VALUE);
  free(got);
  CHECK_CL(build(p, "-cl-fast-relaxed-math -DIGNORED=1"));
  char names[64] = "";
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  CHECK_MSG(!strcmp(names, "math;flow") || !strcmp(names, "flow;math"), "kernel names '%s'", names);
  cl_program_binary_type bt;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  CHECK_ERR(build(p, "-cl-no-such-option"), CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(p);
  /* a program from source has no IL */
  static const char *src = "__kernel void k(__global int *a) { a[0] = 1; }";
  p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size));
  CHECK(size == 0);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(w);
}

static uint32_t flow_ref(uint32_t v, uint32_t *abs_out) {
  static const uint32_t table[4] = {2654435761u, 40503u, 305419896u, 99u};
  uint32_t r = (v & 3) == 0 ? table[0] * v : (v & 3) == 1 ? table[1] + v : (v & 3) == 2 ? table[2] ^ v : table[3];
  for (uint32_t k = 0; k < (v & 7); k++)
    r = r * 3 + 1;
  int32_t d = (int32_t)(r - v);
  *abs_out = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
  return r > v ? r : v;
}

/* Runs a kernel of two buffer arguments over N items; out holds out_elems uints. */
static cl_int run2(cl_context ctx, cl_program p, const char *name, const void *in, void *out, size_t out_bytes) {
  cl_int err;
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, name, &err);
  if (!k)
    return err;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, (void *)in, &err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, out_bytes, NULL, &err);
  err = clSetKernelArg(k, 0, sizeof a, &a) | clSetKernelArg(k, 1, sizeof b, &b);
  size_t global = N, local = LS;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, b, CL_TRUE, 0, out_bytes, out, 0, NULL, NULL);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return err;
}

HG_TEST(hand_written_kernels_run) {
  cl_context ctx = hg_test_context();
  cl_program p = il_built(ctx, "opencl_std");
  CHECK(p);
  float *x = malloc(N * 4), *fo = malloc(N * 16);
  uint32_t *v = malloc(N * 4), *uo = malloc(N * 8);
  for (int i = 0; i < N; i++)
    x[i] = hg_test_randf(-100.0f, 100.0f);
  x[0] = 0.0f;
  x[1] = -2.5f;
  CHECK_CL(run2(ctx, p, "math", x, fo, N * 16));
  for (int i = 0; i < N; i++) {
    float want[4] = {sqrtf(fabsf(x[i])), fmaxf(x[i], 0.5f), x[i] * x[i] + 1.0f, floorf(x[i])};
    for (int k = 0; k < 4; k++)
      CHECK_MSG(fabsf(fo[4 * i + k] - want[k]) <= 1e-5f * fmaxf(1.0f, fabsf(want[k])),
                "math[%d] of %a: got %a, want %a", 4 * i + k, x[i], fo[4 * i + k], want[k]);
  }
  hg_test_fill_random(v, N * 4);
  CHECK_CL(run2(ctx, p, "flow", v, uo, N * 8));
  for (int i = 0; i < N; i++) {
    uint32_t a, m = flow_ref(v[i], &a);
    CHECK_MSG(uo[2 * i] == m && uo[2 * i + 1] == a, "flow[%d] of %08x: got %08x %08x, want %08x %08x", i, v[i],
              uo[2 * i], uo[2 * i + 1], m, a);
  }
  free(x);
  free(fo);
  free(v);
  free(uo);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* Runs spec(out) over N items and checks out[i] = i * c1 + (c3 ? 1000 : 0), out[N + i] = c2 * i. */
static void check_spec(cl_context ctx, cl_program p, uint32_t c1, float c2, bool c3) {
  cl_int err;
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, "spec", &err);
  CHECK_CL(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 8, NULL, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof b, &b));
  size_t global = N;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  uint32_t *out = malloc(N * 8);
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * 8, out, 0, NULL, NULL));
  for (uint32_t i = 0; i < N; i++) {
    float f = c2 * (float)i, g;
    memcpy(&g, &out[N + i], 4);
    CHECK_MSG(out[i] == i * c1 + (c3 ? 1000u : 0u) && g == f, "spec[%u]: got %u %a, want %u %a", i, out[i], g,
              i * c1 + (c3 ? 1000u : 0u), f);
  }
  free(out);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
}

HG_TEST(specialization_constants) {
  cl_context ctx = hg_test_context();
  for (int variant = 0; variant < 2; variant++) { /* SPIR-V 1.0 and 1.4 */
    size_t bytes;
    uint32_t *w = il_module(variant ? "spec_constants_14" : "spec_constants", &bytes);
    CHECK(w && (w[1] == (variant ? 0x00010400u : 0x00010000u)));
    cl_int err;
    cl_program p = clCreateProgramWithIL(ctx, w, bytes, &err);
    CHECK_CL(err);
    CHECK_CL(build(p, NULL));
    check_spec(ctx, p, 7, 0.5f, false); /* the module's defaults */
    cl_uint c1 = 3;
    cl_float c2 = 2.25f;
    cl_uchar c3 = 1;
    CHECK_CL(clSetProgramSpecializationConstant(p, 1, sizeof c1, &c1));
    CHECK_CL(clSetProgramSpecializationConstant(p, 2, sizeof c2, &c2));
    CHECK_CL(clSetProgramSpecializationConstant(p, 3, sizeof c3, &c3));
    check_spec(ctx, p, 7, 0.5f, false); /* takes effect at the next build */
    CHECK_CL(build(p, NULL));
    check_spec(ctx, p, 3, 2.25f, true);
    c1 = 11; /* set again: the last value counts */
    CHECK_CL(clSetProgramSpecializationConstant(p, 1, sizeof c1, &c1));
    CHECK_CL(build(p, NULL));
    check_spec(ctx, p, 11, 2.25f, true);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 9, sizeof c1, &c1), CL_INVALID_SPEC_ID);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 1, 8, &c1), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 1, sizeof c1, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clSetProgramSpecializationConstant(p, 3, 4, &c1), CL_INVALID_VALUE); /* a bool is a cl_uchar */
    CHECK_ERR(clSetProgramSpecializationConstant(NULL, 1, sizeof c1, &c1), CL_INVALID_PROGRAM);
    clReleaseProgram(p);
    free(w);
  }
  static const char *src = "__kernel void k(__global int *a) { a[0] = 1; }";
  cl_int err;
  cl_program s = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  cl_uint one = 1;
  CHECK_ERR(clSetProgramSpecializationConstant(s, 1, sizeof one, &one), CL_INVALID_PROGRAM);
  clReleaseProgram(s);
  clReleaseContext(ctx);
}

/* 64-bit specialization constants take any value, all 64 bits of it: a ulong of 20 decimal
 * digits and doubles whose bit patterns are as large (the translator's --spec-const option
 * could not parse them; the module is specialized before it is translated). */
HG_TEST(specialization_constants_64_bit) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t bytes;
  uint32_t *w = il_module("spec_constants_64", &bytes);
  CHECK(w != NULL);
  cl_int err;
  cl_program p = clCreateProgramWithIL(ctx, w, bytes, &err);
  CHECK_CL(err);
  cl_ulong c1;
  cl_double c2;
  hg_test_fill_random(&c1, sizeof c1);
  c1 |= 1ull << 63;
  c2 = -1.0 - (double)(hg_test_rand() % 1000) / 7.0;
  CHECK_CL(clSetProgramSpecializationConstant(p, 1, sizeof c1, &c1));
  CHECK_CL(clSetProgramSpecializationConstant(p, 2, sizeof c2, &c2));
  CHECK_CL(build(p, NULL));
  cl_kernel k = clCreateKernel(p, "spec64", &err);
  CHECK_CL(err);
  static cl_ulong out[2 * N];
  memset(out, 0xcd, sizeof out);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof b, &b));
  size_t global = N, local = LS;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (cl_ulong i = 0; i < N; i++) {
    double want = c2 * (double)i, got;
    memcpy(&got, &out[N + i], sizeof got);
    CHECK_MSG(out[i] == c1 + i && got == want, "spec64[%llu]: got %llx %a, want %llx %a", (unsigned long long)i,
              (unsigned long long)out[i], got, (unsigned long long)(c1 + i), want);
  }
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(w);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* Composite values held in SSA form, which clang does not write and other producers do
 * (modules/composites.spvasm): constant structs and arrays, OpUndef, OpCompositeInsert and
 * Extract with nested indices, OpCopyObject, a phi of a struct, a struct stored and loaded
 * whole, and a DontInline function without a name. */
HG_TEST(composite_values) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = il_built(ctx, "composites");
  CHECK(p != NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "composites", &err);
  CHECK_CL(err);
  static cl_uint oi[2 * N];
  static cl_float of[N];
  memset(oi, 0xcd, sizeof oi);
  memset(of, 0xcd, sizeof of);
  cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof oi, oi, &err);
  CHECK_CL(err);
  cl_mem bf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof of, of, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof bi, &bi));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bf, &bf));
  size_t global = N, local = LS;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, bi, CL_TRUE, 0, sizeof oi, oi, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, bf, CL_TRUE, 0, sizeof of, of, 0, NULL, NULL));
  for (cl_uint i = 0; i < N; i++) {
    cl_uint a = i % 2 ? 7 : i;
    cl_float b = i % 2 ? 2.5f : (cl_float)i;
    CHECK_MSG(oi[2 * i] == 3 * a && oi[2 * i + 1] == 30 && of[i] == b, "item %u: %u %u %g, want %u 30 %g", i,
              oi[2 * i], oi[2 * i + 1], of[i], 3 * a, b);
  }
  clReleaseMemObject(bi);
  clReleaseMemObject(bf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

static const char *c_part = "int helper(int x) { return 2 * x; }\n"
                            "int spv_square(int x);\n"
                            "__kernel void c_calls_il(__global int *a) { size_t i = get_global_id(0); a[i] = spv_square(a[i]); }\n";

HG_TEST(il_links_with_opencl_c) {
  size_t bytes;
  uint32_t *w = il_module("link_parts", &bytes);
  CHECK(w);
  cl_context ctx = hg_test_context();
  cl_int err;
  /* alone it does not build: helper() is only declared */
  cl_program alone = clCreateProgramWithIL(ctx, w, bytes, &err);
  CHECK_CL(err);
  CHECK_ERR(build(alone, NULL), CL_BUILD_PROGRAM_FAILURE);
  char *log = il_build_log(alone);
  CHECK_MSG(log && strstr(log, "helper"), "the log does not name helper:\n%s", log ? log : "");
  free(log);
  clReleaseProgram(alone);
  cl_program il = clCreateProgramWithIL(ctx, w, bytes, &err);
  CHECK_CL(err);
  CHECK_CL(clCompileProgram(il, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program_binary_type bt;
  CHECK_CL(clGetProgramBuildInfo(il, hg_test_device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program c = clCreateProgramWithSource(ctx, 1, &c_part, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clCompileProgram(c, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program objs[2] = {il, c};
  cl_program linked = clLinkProgram(ctx, 0, NULL, NULL, 2, objs, NULL, NULL, &err);
  CHECK_CL(err);
  int32_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (int32_t)(hg_test_rand() % 20001) - 10000;
  /* il_calls_c(a): a = helper(a) + 1 in place; c_calls_il(a): a = spv_square(a) */
  cl_command_queue q = hg_test_queue(ctx, 0);
  const char *names[2] = {"il_calls_c", "c_calls_il"};
  for (int k = 0; k < 2; k++) {
    cl_kernel kk = clCreateKernel(linked, names[k], &err);
    CHECK_CL(err);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CHECK_CL(clSetKernelArg(kk, 0, sizeof a, &a));
    size_t global = N;
    CHECK_CL(clEnqueueNDRangeKernel(q, kk, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
      int32_t want = k == 0 ? 2 * in[i] + 1 : in[i] * in[i];
      CHECK_MSG(out[i] == want, "%s[%d] of %d: got %d, want %d", names[k], i, in[i], out[i], want);
    }
    clReleaseMemObject(a);
    clReleaseKernel(kk);
  }
  clReleaseCommandQueue(q);
  clReleaseProgram(linked);
  clReleaseProgram(il);
  clReleaseProgram(c);
  clReleaseContext(ctx);
  free(w);
}

static void mix_ref(uint32_t *buf, size_t n, uint32_t add, uint32_t rounds) {
  uint32_t tile[LS];
  for (size_t g0 = 0; g0 < n; g0 += LS)
    for (uint32_t r = 0; r < rounds; r++) {
      memcpy(tile, buf + g0, sizeof tile);
      for (size_t l = 0; l < LS; l++)
        buf[g0 + l] = tile[l] * 3u + (tile[LS - 1 - l] ^ add);
    }
}

static cl_int run_mix(cl_command_queue q, cl_kernel k, cl_mem b, uint32_t add, uint32_t rounds) {
  cl_int err = clSetKernelArg(k, 0, sizeof b, &b) | clSetKernelArg(k, 1, LS * 4, NULL) |
               clSetKernelArg(k, 2, sizeof add, &add) | clSetKernelArg(k, 3, sizeof rounds, &rounds);
  size_t global = N, local = LS;
  return err ? err : clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

HG_TEST(binary_round_trip) {
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_program p = il_built(ctx, "kernels");
  CHECK(p);
  size_t size = 0;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  const unsigned char *cbin = bin;
  cl_int status;
  cl_program q2 = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &size, &cbin, &status, &err);
  CHECK_CL(err);
  CHECK_CL(build(q2, NULL));
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(q2, "rounds_mix", &err);
  CHECK_CL(err);
  uint32_t *ref = mg_random_u32(N), *got = malloc(N * 4);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, ref, &err);
  CHECK_CL(run_mix(q, k, b, 0x9e37u, 5));
  mix_ref(ref, N, 0x9e37u, 5);
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref, N, "mix from the binary of an IL program");
  free(ref);
  free(got);
  free(bin);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  clReleaseProgram(q2);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(migrates_and_checkpoints) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  CHECK(mg_backend_of(ctx) == mg_vendor);
  cl_int err;
  cl_program p = il_built(ctx, "kernels");
  CHECK(p);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, "rounds_mix", &err);
  CHECK_CL(err);
  uint32_t *ref = mg_random_u32(N), *got = malloc(N * 4);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, ref, &err);
  CHECK_CL(err);
  /* vendor, then RISC-V, then back: each step checked against the host */
  cl_backend_id_hetgpu order[3] = {mg_vendor, mg_riscv, mg_vendor};
  for (int s = 0; s < 3; s++) {
    if (s)
      CHECK_CL(mg.migrate(ctx, order[s], 0, 0, NULL));
    CHECK(mg_backend_of(ctx) == order[s]);
    CHECK_CL(run_mix(q, k, b, (uint32_t)s * 77u, 3));
    mix_ref(ref, N, (uint32_t)s * 77u, 3);
    CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
    CHECK_U32(got, ref, N, "mix of an IL program, step %d", s);
  }
  /* a checkpoint taken on the vendor backend, restored on RISC-V */
  CHECK_CL(mg.set_label(q, "q"));
  CHECK_CL(mg.set_label(b, "b"));
  CHECK_CL(mg.set_label(k, "mix"));
  char path[256];
  snprintf(path, sizeof path, "%s/il-ckpt-%d.hgsnap", getenv("PWD") ? getenv("PWD") : ".", (int)getpid());
  CHECK_CL(mg.checkpoint(ctx, path, 0, 0));
  cl_context r = mg.restore(hg_test_platform, path, mg_riscv, &err);
  unlink(path);
  CHECK_CL(err);
  cl_command_queue rq;
  cl_mem rb;
  cl_kernel rk;
  CHECK_CL(mg.get_by_label(r, "q", NULL, (void **)&rq));
  CHECK_CL(mg.get_by_label(r, "b", NULL, (void **)&rb));
  CHECK_CL(mg.get_by_label(r, "mix", NULL, (void **)&rk));
  CHECK_CL(run_mix(rq, rk, rb, 4242u, 4));
  mix_ref(ref, N, 4242u, 4);
  CHECK_CL(clEnqueueReadBuffer(rq, rb, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref, N, "mix of an IL program restored on RISC-V");
  mg_release_restored(r);
  free(ref);
  free(got);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}
