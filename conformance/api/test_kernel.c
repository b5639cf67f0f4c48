/* Kernel objects and launches: info queries, every argument kind, NDRange in 1-3 dimensions
 * with offsets, with and without a local size, clEnqueueTask, clCloneKernel, and the error codes. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "typedef struct { int a; float b; short c; } params_t;\n"
    "__kernel void blend(__global const float4 *in, __global float *out, __local float *tmp,\n"
    "                  const float4 scale, params_t p, __constant int *lut) {\n"
    "  size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);\n"
    "  float4 v = in[g] * scale;\n"
    "  tmp[l] = v.x + v.y + v.z + v.w;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float neighbour = tmp[(l + 1) % n];\n"
    "  out[g] = neighbour * p.b + (float)(p.a + p.c + lut[g % 4]);\n"
    "}\n"
    "__kernel void coords(__global uint *out) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  size_t w = get_global_size(0) + get_global_offset(0), h = get_global_size(1) + get_global_offset(1);\n"
    "  out[(z * h + y) * w + x] = (uint)(x + 1000 * y + 1000000 * z) ^ (uint)(get_group_id(0) << 24)\n"
    "      ^ (uint)(get_local_id(1) << 28) ^ (uint)get_work_dim();\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(8, 4, 1))) void fixed(__global int *out) {\n"
    "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_local_size(0) * 10 + (int)get_local_size(1);\n"
    "}\n"
    "__kernel void single(__global int *out, int v) { out[0] = v + (int)get_global_size(0); }\n";

typedef struct {
  cl_int a;
  cl_float b;
  cl_short c;
} params_t;

static cl_program build(cl_context ctx) { return hg_test_build(ctx, src, "-cl-kernel-arg-info"); }

HG_TEST(kernel_info_and_args) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = build(ctx);
  CHECK(p);
  CHECK(!clCreateKernel(p, "nope", &err) && err == CL_INVALID_KERNEL_NAME);
  CHECK(!clCreateKernel(p, NULL, &err) && err == CL_INVALID_VALUE);
  cl_kernel k = clCreateKernel(p, "blend", &err);
  CHECK_CL(err);
  char name[32];
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
  CHECK(!strcmp(name, "blend"));
  cl_uint nargs;
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  CHECK(nargs == 6);
  cl_program p2;
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p2, &p2, NULL));
  CHECK(p2 == p);
  CHECK_ERR(clGetKernelInfo(k, 0x9999, sizeof nargs, &nargs, NULL), CL_INVALID_VALUE);
  cl_kernel_arg_address_qualifier aq;
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CHECK_CL(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
  CHECK_CL(clGetKernelArgInfo(k, 5, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  CHECK_CL(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK(aq == CL_KERNEL_ARG_ADDRESS_PRIVATE);
  char tn[64];
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL));
  CHECK_MSG(!strcmp(tn, "float4*"), "type name %s", tn);
  CHECK_CL(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof tn, tn, NULL));
  CHECK(!strcmp(tn, "out"));
  cl_kernel_arg_type_qualifier tq;
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  CHECK(tq & CL_KERNEL_ARG_TYPE_CONST);
  CHECK_ERR(clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_NAME, sizeof tn, tn, NULL), CL_INVALID_ARG_INDEX);
  /* argument errors */
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
  CHECK_ERR(clSetKernelArg(k, 6, sizeof buf, &buf), CL_INVALID_ARG_INDEX);
  CHECK_ERR(clSetKernelArg(k, 0, 4, &buf), CL_INVALID_ARG_SIZE);
  cl_mem notbuf = (cl_mem)ctx;
  if (hg_test_is_hetgpu()) /* PoCL does not check handle types */
    CHECK_ERR(clSetKernelArg(k, 0, sizeof notbuf, &notbuf), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clSetKernelArg(k, 2, 64, &buf), CL_INVALID_ARG_VALUE);
  CHECK_ERR(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
  cl_float4 scale = {{1, 2, 3, 4}};
  CHECK_ERR(clSetKernelArg(k, 3, sizeof(cl_float2), &scale), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 3, sizeof scale, NULL), CL_INVALID_ARG_VALUE);
  CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), NULL)); /* a NULL buffer is allowed */
  /* work-group info */
  size_t wg;
  CHECK_CL(clGetKernelWorkGroupInfo(k, hg_test_device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  CHECK(wg >= 64);
  size_t cwg[3];
  CHECK_CL(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
  CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
  CHECK_ERR(clGetKernelWorkGroupInfo(k, (cl_device_id)ctx, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
            CL_INVALID_DEVICE);
  cl_kernel f = clCreateKernel(p, "fixed", &err);
  CHECK_CL(clGetKernelWorkGroupInfo(f, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
  CHECK(cwg[0] == 8 && cwg[1] == 4 && cwg[2] == 1);
  /* all kernels at once */
  cl_uint nk;
  CHECK_CL(clCreateKernelsInProgram(p, 0, NULL, &nk));
  CHECK(nk == 4);
  cl_kernel all[4];
  CHECK_ERR(clCreateKernelsInProgram(p, 2, all, NULL), CL_INVALID_VALUE);
  CHECK_CL(clCreateKernelsInProgram(p, 4, all, NULL));
  for (int i = 0; i < 4; i++)
    clReleaseKernel(all[i]);
  clReleaseKernel(f);
  clReleaseKernel(k);
  clReleaseMemObject(buf);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* Runs mix with random inputs and checks every element against the host, for a given local size. */
static void check_blend(cl_context ctx, cl_kernel k, size_t local, bool use_clone) {
  cl_int err;
  enum { N = 2048 };
  cl_float4 *in = malloc(sizeof *in * N);
  float *out = malloc(sizeof *out * N);
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 4; c++)
      in[i].s[c] = hg_test_randf(-4, 4);
  memset(out, 0xFF, sizeof *out * N);
  cl_int lut[4] = {3, -7, 11, 100};
  cl_float4 scale = {{0.5f, -1.0f, 2.0f, 0.25f}};
  params_t prm = {(cl_int)(hg_test_rand() % 100), 1.5f, (cl_short)-3};
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof *in * N, in, &err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof *out * N, out, &err);
  cl_mem dlut = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof lut, lut, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof din, &din));
  CHECK_CL(clSetKernelArg(k, 1, sizeof dout, &dout));
  CHECK_CL(clSetKernelArg(k, 2, local * sizeof(float), NULL));
  CHECK_CL(clSetKernelArg(k, 3, sizeof scale, &scale));
  CHECK_CL(clSetKernelArg(k, 4, sizeof prm, &prm));
  CHECK_CL(clSetKernelArg(k, 5, sizeof dlut, &dlut));
  size_t global = N;
  /* a clone carries the arguments set so far and runs the same */
  cl_kernel launch_kernel = use_clone ? clCloneKernel(k, &err) : k;
  CHECK_CL(err);
  CHECK_CL(clEnqueueNDRangeKernel(q, launch_kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  if (use_clone)
    clReleaseKernel(launch_kernel);
  CHECK_CL(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof *out * N, out, 0, NULL, NULL));
  for (int g = 0; g < N; g++) {
    int base = g - g % (int)local, nb = base + (g % (int)local + 1) % (int)local;
    float t = in[nb].s[0] * scale.s[0] + in[nb].s[1] * scale.s[1] + in[nb].s[2] * scale.s[2] + in[nb].s[3] * scale.s[3];
    float want = t * prm.b + (float)(prm.a + prm.c + lut[g % 4]);
    float diff = out[g] - want;
    CHECK_MSG(diff < 1e-3f && diff > -1e-3f, "out[%d] = %g, want %g", g, out[g], want);
  }
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseMemObject(dlut);
  clReleaseCommandQueue(q);
  free(in);
  free(out);
}

/* Whether clGetKernelArgInfo answers every query on kernel `single` of p (expect) or refuses each
 * with CL_KERNEL_ARG_INFO_NOT_AVAILABLE; a bad index and a bad query are refused either way. */
static bool arg_info_answers(cl_program p, bool expect, const char *what) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "single", &err);
  if (!k) {
    hg_test_fail(__FILE__, __LINE__, "%s: clCreateKernel: %d", what, err);
    return false;
  }
  char buf[64];
  /* which error comes first is not specified: without the information either may */
  err = clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof buf, buf, NULL);
  bool ok = err == CL_INVALID_ARG_INDEX || (!expect && err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  err = clGetKernelArgInfo(k, 0, 0x9999, sizeof buf, buf, NULL);
  ok &= err == CL_INVALID_VALUE || (!expect && err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  if (!ok) hg_test_fail(__FILE__, __LINE__, "%s: a bad index or query not refused", what);
  for (cl_kernel_arg_info q = CL_KERNEL_ARG_ADDRESS_QUALIFIER; q <= CL_KERNEL_ARG_NAME; q++) {
    err = clGetKernelArgInfo(k, 1, q, sizeof buf, buf, NULL);
    if (err != (expect ? CL_SUCCESS : CL_KERNEL_ARG_INFO_NOT_AVAILABLE)) {
      hg_test_fail(__FILE__, __LINE__, "%s: clGetKernelArgInfo(0x%x) returned %d, expected %s", what, (unsigned)q, err,
                   expect ? "CL_SUCCESS" : "CL_KERNEL_ARG_INFO_NOT_AVAILABLE");
      ok = false;
      break;
    }
  }
  if (ok && expect) {
    err = clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof buf, buf, NULL);
    ok = err == CL_SUCCESS && !strcmp(buf, "v");
    if (!ok) hg_test_fail(__FILE__, __LINE__, "%s: argument 1 named '%s' (%d), expected 'v'", what, buf, err);
  }
  clReleaseKernel(k);
  return ok;
}

/* A program loaded from the binary of p, built. */
static cl_program from_binary(cl_context ctx, cl_program p) {
  cl_device_id dev;
  size_t size = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS ||
      clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size)
    return NULL;
  unsigned char *bin = malloc(size);
  cl_program b = NULL;
  if (bin && clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
    cl_int err;
    b = clCreateProgramWithBinary(ctx, 1, &dev, &size, (const unsigned char **)&bin, NULL, &err);
    if (b && clBuildProgram(b, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
      clReleaseProgram(b);
      b = NULL;
    }
  }
  free(bin);
  return b;
}

/* OpenCL 3.0, clGetKernelArgInfo: "Kernel argument information is only available if the program
 * object associated with kernel is created with clCreateProgramWithSource and the program
 * executable is built with the -cl-kernel-arg-info option" (to clBuildProgram or
 * clCompileProgram); the CTS's pipe_info expects CL_KERNEL_ARG_INFO_NOT_AVAILABLE for a program
 * from a binary even when it was compiled with the option. PoCL 3.1 follows the same rule. */
HG_TEST(kernel_arg_info_needs_the_option) {
  cl_context ctx = hg_test_context();
  CHECK(ctx);
  cl_program plain = hg_test_build(ctx, src, "-DUNUSED=1");
  cl_program with = hg_test_build(ctx, src, "-DUNUSED=1 -cl-kernel-arg-info");
  CHECK(plain && with);
  CHECK(arg_info_answers(plain, false, "built without -cl-kernel-arg-info"));
  CHECK(arg_info_answers(with, true, "built with -cl-kernel-arg-info"));
  cl_program loaded = from_binary(ctx, with);
  CHECK_MSG(loaded, "program from the binary does not build");
  CHECK(arg_info_answers(loaded, false, "from the binary of a program built with the option"));
  /* rebuilt without the option: gone again */
  cl_device_id dev;
  CHECK_CL(clGetProgramInfo(with, CL_PROGRAM_DEVICES, sizeof dev, &dev, NULL));
  CHECK_CL(clBuildProgram(with, 1, &dev, "", NULL, NULL));
  CHECK(arg_info_answers(with, false, "rebuilt without the option"));
  if (hg_test_is_hetgpu()) { /* a link's rule is not spelled out; hetGPU's: every object compiled with the option */
    cl_program obj_with = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
    cl_program obj_plain = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
    CHECK_CL(clCompileProgram(obj_with, 1, &dev, "-cl-kernel-arg-info", 0, NULL, NULL, NULL, NULL));
    CHECK_CL(clCompileProgram(obj_plain, 1, &dev, "", 0, NULL, NULL, NULL, NULL));
    cl_int err;
    cl_program linked_with = clLinkProgram(ctx, 1, &dev, "", 1, &obj_with, NULL, NULL, &err);
    CHECK_CL(err);
    cl_program linked_plain = clLinkProgram(ctx, 1, &dev, "", 1, &obj_plain, NULL, NULL, &err);
    CHECK_CL(err);
    CHECK(arg_info_answers(linked_with, true, "linked from an object compiled with the option"));
    CHECK(arg_info_answers(linked_plain, false, "linked from an object compiled without it"));
    clReleaseProgram(linked_with);
    clReleaseProgram(linked_plain);
    clReleaseProgram(obj_with);
    clReleaseProgram(obj_plain);
  }
  clReleaseProgram(loaded);
  clReleaseProgram(plain);
  clReleaseProgram(with);
  clReleaseContext(ctx);
}

HG_TEST(launch_mix_all_argument_kinds) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = build(ctx);
  CHECK(p);
  cl_kernel k = clCreateKernel(p, "blend", &err);
  CHECK_CL(err);
  check_blend(ctx, k, 64, false);
  check_blend(ctx, k, 128, false);
  check_blend(ctx, k, 32, true);
  /* groups of CL_KERNEL_WORK_GROUP_SIZE run (local memory and a barrier across the whole group);
   * on hetGPU it is at least the 256 every backend runs, at most the device's 1024 (PoCL and
   * the RISC-V simulator give 1024 for a kernel this small; a GPU's forms may use registers
   * that allow fewer) */
  size_t wg = 0, max_wg = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, hg_test_device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL));
  if (hg_test_is_hetgpu())
    CHECK_MSG(wg >= 256 && wg <= max_wg, "CL_KERNEL_WORK_GROUP_SIZE %zu", wg);
  size_t groups = 1;
  while (groups * 2 <= wg && groups * 2 <= 2048) /* the largest power of two within it divides 2048 */
    groups *= 2;
  check_blend(ctx, k, groups, false);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(launch_dimensions_offsets) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = build(ctx);
  CHECK(p);
  cl_kernel k = clCreateKernel(p, "coords", &err);
  cl_command_queue q = hg_test_queue(ctx, 0);
  for (cl_uint dim = 1; dim <= 3; dim++)
    for (int with_local = 0; with_local < 2; with_local++) {
      size_t global[3] = {32, 8, 4}, offset[3] = {4, 2, 1}, local[3] = {8, 4, 2};
      size_t w = global[0] + offset[0], h = dim > 1 ? global[1] + offset[1] : 1, d = dim > 2 ? global[2] + offset[2] : 1;
      size_t n = w * h * d;
      cl_uint *out = malloc(n * sizeof *out);
      memset(out, 0xCD, n * sizeof *out);
      cl_mem dout = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof *out, out, &err);
      CHECK_CL(clSetKernelArg(k, 0, sizeof dout, &dout));
      CHECK_CL(clEnqueueNDRangeKernel(q, k, dim, offset, global, with_local ? local : NULL, 0, NULL, NULL));
      CHECK_CL(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
      for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++)
          for (size_t x = 0; x < w; x++) {
            cl_uint got = out[(z * h + y) * w + x];
            bool inside = x >= offset[0] && (dim < 2 || y >= offset[1]) && (dim < 3 || z >= offset[2]);
            if (!inside) {
              CHECK_MSG(got == 0xCDCDCDCDu, "(%zu,%zu,%zu) written outside the range", x, y, z);
              continue;
            }
            cl_uint want = (cl_uint)(x + 1000 * y + 1000000 * z) ^ (cl_uint)dim;
            if (with_local)
              want ^= (cl_uint)(((x - offset[0]) / local[0]) << 24) ^ (dim > 1 ? (cl_uint)((y - offset[1]) % local[1]) << 28 : 0);
            if (with_local)
              CHECK_MSG(got == want, "dim %u (%zu,%zu,%zu): %#x want %#x", dim, x, y, z, got, want);
            else
              CHECK_MSG((got & 0x00FFFFFF) == (want & 0x00FFFFFF), "dim %u (%zu,%zu,%zu)", dim, x, y, z);
          }
      clReleaseMemObject(dout);
      free(out);
    }
  clReleaseCommandQueue(q);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(launch_errors) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = build(ctx);
  CHECK(p);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_kernel k = clCreateKernel(p, "coords", &err);
  size_t g[3] = {64, 64, 64}, l[3] = {8, 8, 1};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 64 * 64 * 4, NULL, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_ERR(clEnqueueNDRangeKernel(NULL, k, 1, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueNDRangeKernel(q, NULL, 1, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 0, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 4, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  /* since OpenCL 2.1 a NULL global size, like a 0 in any dimension, is an empty range: the
   * command runs nothing and its event completes (CTS api zero_sized_enqueue) */
  uint32_t poison = 0xdeadbeefu, got = 0;
  CHECK_CL(clEnqueueFillBuffer(q, buf, &poison, 4, 0, 64 * 64 * 64 * 4, 0, NULL, NULL));
  cl_event empty[3];
  size_t zero_y[2] = {64, 0};
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, &empty[0]));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, zero_y, NULL, 0, NULL, &empty[1]));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, zero_y, l, 0, NULL, &empty[2]));
  CHECK_CL(clWaitForEvents(3, empty));
  for (int i = 0; i < 3; i++) {
    cl_int status = CL_QUEUED;
    CHECK_CL(clGetEventInfo(empty[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(empty[i]);
  }
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &got, 0, NULL, NULL));
  CHECK(got == poison);
  size_t odd[1] = {7};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, g, odd, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t big[2] = {64, 64};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g, big, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t tall[3] = {1, 1, 128};
  size_t gt[3] = {1, 1, 128};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 3, NULL, gt, tall, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
  /* a range whose work-items do not fit a size_t (each dimension alone does) */
  size_t wide[3] = {(size_t)1 << 32, (size_t)1 << 32, 2};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 3, NULL, wide, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  size_t huge_off[1] = {SIZE_MAX - 10};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, huge_off, g, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
  cl_event bogus = (cl_event)ctx;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, g, NULL, 1, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, g, NULL, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* reqd_work_group_size must be matched exactly when given; without a local size the launch
   * takes it, in the launch's dimensions (CTS api null_required_work_group_size) */
  cl_kernel f = clCreateKernel(p, "fixed", &err);
  CHECK_CL(clSetKernelArg(f, 0, sizeof buf, &buf));
  CHECK_ERR(clEnqueueNDRangeKernel(q, f, 2, NULL, g, l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t fl[2] = {8, 4}, g_odd[2] = {64, 6};
  CHECK_ERR(clEnqueueNDRangeKernel(q, f, 2, NULL, g_odd, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  int first[2];
  for (int given = 0; given < 2; given++) {
    CHECK_CL(clEnqueueFillBuffer(q, buf, &poison, 4, 0, 64 * 64 * 4, 0, NULL, NULL));
    CHECK_CL(clEnqueueNDRangeKernel(q, f, 2, NULL, g, given ? fl : NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof first, first, 0, NULL, NULL));
    CHECK(first[0] == 84 && first[1] == 84);
  }
  CHECK_CL(clEnqueueFillBuffer(q, buf, &poison, 4, 0, 64 * 4, 0, NULL, NULL));
  CHECK_CL(clEnqueueNDRangeKernel(q, f, 1, NULL, g, NULL, 0, NULL, NULL)); /* 1-D: (8, 1, 1) */
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof first, first, 0, NULL, NULL));
  CHECK(first[0] == 81 && first[1] == 81);
  /* a kernel from another context */
  cl_context ctx2 = hg_test_context();
  cl_command_queue q2 = hg_test_queue(ctx2, 0);
  CHECK_ERR(clEnqueueNDRangeKernel(q2, k, 1, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
  clReleaseCommandQueue(q2);
  clReleaseContext(ctx2);
  clReleaseKernel(f);
  clReleaseKernel(k);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(enqueue_task_and_events) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = build(ctx);
  CHECK(p);
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_PROFILING_ENABLE);
  cl_kernel k = clCreateKernel(p, "single", &err);
  int v = (int)(hg_test_rand() % 1000), out = -1;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof out, &out, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, sizeof v, &v));
  cl_event user = clCreateUserEvent(ctx, &err), done;
  CHECK_CL(clEnqueueTask(q, k, 1, &user, &done));
  cl_int st;
  CHECK_CL(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK(st > CL_COMPLETE); /* gated by the user event */
  cl_command_type type;
  CHECK_CL(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_COMMAND_NDRANGE_KERNEL || type == CL_COMMAND_TASK);
  CHECK_CL(clSetUserEventStatus(user, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &done));
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL));
  CHECK(out == v + 1);
  cl_ulong t[4];
  CHECK_CL(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL));
  CHECK_CL(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_SUBMIT, sizeof t[1], &t[1], NULL));
  CHECK_CL(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof t[2], &t[2], NULL));
  CHECK_CL(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof t[3], &t[3], NULL));
  CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
  clReleaseEvent(done);
  clReleaseEvent(user);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* All the local memory a kernel may have: a __local argument sized, as the CTS sizes it, by
 * CL_DEVICE_LOCAL_MEM_SIZE less the kernel's CL_KERNEL_LOCAL_MEM_SIZE (what the implementation
 * needs) runs, on every backend, with every item's value through it; one word more is
 * CL_OUT_OF_RESOURCES at the enqueue. */
HG_TEST(local_memory_to_the_limit) {
  static const char *lsrc =
      "__kernel void through_local(__local int *buf, __global const int *in, __global int *out) {\n"
      "  size_t g = get_global_id(0);\n"
      "  buf[g] = in[g];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[g] = buf[get_global_size(0) - 1 - g];\n"
      "}\n";
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, lsrc, NULL);
  cl_kernel k = clCreateKernel(p, "through_local", &err);
  CHECK_CL(err);
  cl_ulong device_local = 0, kernel_local = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof device_local, &device_local, NULL));
  CHECK_CL(clGetKernelWorkGroupInfo(k, hg_test_device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local, &kernel_local, NULL));
  CHECK_MSG(kernel_local < device_local, "CL_KERNEL_LOCAL_MEM_SIZE %llu", (unsigned long long)kernel_local);
  size_t bytes = (size_t)(device_local - kernel_local) / sizeof(cl_int) * sizeof(cl_int), n = bytes / sizeof(cl_int);
  cl_int *in = malloc(bytes), *out = malloc(bytes);
  hg_test_fill_random(in, bytes);
  memset(out, 0xa5, bytes);
  cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, in, &err);
  CHECK_CL(err);
  cl_mem bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, bytes, out, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, bytes, NULL));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bin, &bin));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bout, &bout));
  /* one group holding every item (the limit of a group's size), so buf is shared by them all */
  size_t wg = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, hg_test_device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  size_t global = n < wg ? n : wg;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &global, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, global * sizeof(cl_int), out, 0, NULL, NULL));
  for (size_t i = 0; i < global; i++)
    CHECK_MSG(out[i] == in[global - 1 - i], "item %zu: %d, expected %d", i, out[i], in[global - 1 - i]);
  CHECK_CL(clSetKernelArg(k, 0, bytes + sizeof(cl_int), NULL));
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &global, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  CHECK_CL(clFinish(q));
  free(in);
  free(out);
  clReleaseMemObject(bin);
  clReleaseMemObject(bout);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* One kernel launched again and again, one argument changed at a time (a value, a vector, a
 * local size, the output buffer, an input sub-buffer's offset, an output released and another
 * made in its place, then back to the first arguments): every launch computes with the
 * arguments of its own enqueue (the vendor backend sets only those that changed). */
typedef struct {
  cl_mem in;
  size_t in_offset; /* elements: `in` is then a sub-buffer at that offset */
  cl_mem out;
  size_t local;
  cl_int add;
  cl_int4 mul;
} relaunch_args;

static const char relaunch_src[] =
    "__kernel void relaunch(__global const int *in, __global int *out, __local int *tmp,\n"
    "                       int add, int4 mul) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)] * mul.x + add;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = tmp[n - 1 - l] + mul.w;\n"
    "}\n";

/* Poisons a->out from `poison` (n words, kept by the caller until the queue is done with it),
 * sets k's arguments from a (in_arg in place of a->in) and enqueues n items, waiting for none. */
static void relaunch_enqueue(cl_command_queue q, cl_kernel k, const relaunch_args *a, cl_mem in_arg,
                             const cl_int *poison, size_t n) {
  CHECK_CL(clEnqueueWriteBuffer(q, a->out, CL_FALSE, 0, n * sizeof *poison, poison, 0, NULL, NULL));
  CHECK_CL(clSetKernelArg(k, 0, sizeof in_arg, &in_arg));
  CHECK_CL(clSetKernelArg(k, 1, sizeof a->out, &a->out));
  CHECK_CL(clSetKernelArg(k, 2, a->local * sizeof(cl_int), NULL));
  CHECK_CL(clSetKernelArg(k, 3, sizeof a->add, &a->add));
  CHECK_CL(clSetKernelArg(k, 4, sizeof a->mul, &a->mul));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &a->local, 0, NULL, NULL));
}

/* Reads a->out back and compares it with the host's reference of the launch a describes. */
static void relaunch_verify(cl_command_queue q, const relaunch_args *a, const cl_int *in, size_t n) {
  cl_int *out = malloc(n * sizeof *out);
  CHECK_CL(clEnqueueReadBuffer(q, a->out, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
  int bad = 0;
  for (size_t g = 0; g < n; g++) {
    size_t mirror = g - g % a->local + (a->local - 1 - g % a->local);
    cl_int want = in[a->in_offset + mirror] * a->mul.s[0] + a->add + a->mul.s[3];
    if (out[g] != want && bad++ < 4)
      CHECK_MSG(false, "local %zu, add %d, offset %zu: out[%zu] = %d, want %d", a->local, a->add, a->in_offset, g,
                out[g], want);
  }
  free(out);
}

static void relaunch_check(cl_command_queue q, cl_kernel k, const relaunch_args *a, const cl_int *in, size_t n) {
  cl_int err;
  cl_mem in_arg = a->in;
  if (a->in_offset) {
    cl_buffer_region r = {a->in_offset * sizeof(cl_int), n * sizeof(cl_int)};
    in_arg = clCreateSubBuffer(a->in, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_CL(err);
  }
  cl_int *poison = malloc(n * sizeof *poison);
  memset(poison, 0x5a, n * sizeof *poison);
  relaunch_enqueue(q, k, a, in_arg, poison, n);
  relaunch_verify(q, a, in, n); /* its blocking read: the poison written before */
  free(poison);
  if (in_arg != a->in)
    clReleaseMemObject(in_arg);
}

HG_TEST(relaunch_changed_arguments) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = hg_test_build(ctx, relaunch_src, "");
  CHECK(p);
  cl_kernel k = clCreateKernel(p, "relaunch", &err);
  CHECK_CL(err);
  cl_command_queue q = hg_test_queue(ctx, 0);
  enum { N = 4096, SHIFT = 1024 }; /* SHIFT ints: 4096 bytes, a sub-buffer offset every device allows */
  cl_int *in = malloc((N + SHIFT) * sizeof *in);
  for (size_t i = 0; i < N + SHIFT; i++)
    in[i] = (cl_int)(hg_test_rand() % 20001) - 10000;
  cl_mem bin = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, (N + SHIFT) * sizeof *in, in, &err);
  CHECK_CL(err);
  cl_mem out1 = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err);
  CHECK_CL(err);
  cl_mem out2 = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err);
  CHECK_CL(err);
  relaunch_args first = {bin, 0, out1, 64, 7, {{3, 0, 0, -5}}}, a = first;
  relaunch_check(q, k, &a, in, N);
  relaunch_check(q, k, &a, in, N); /* nothing changed */
  a.add = -123;
  relaunch_check(q, k, &a, in, N);
  a.mul.s[3] = 1000;
  relaunch_check(q, k, &a, in, N);
  a.local = 128;
  relaunch_check(q, k, &a, in, N);
  a.out = out2;
  relaunch_check(q, k, &a, in, N);
  a.in_offset = SHIFT;
  relaunch_check(q, k, &a, in, N);
  a.in_offset = 0;
  relaunch_check(q, k, &a, in, N);
  /* the output released and a buffer of its size made (a vendor may hand out the same handle) */
  for (int i = 0; i < 8; i++) {
    clReleaseMemObject(a.out);
    a.out = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err);
    CHECK_CL(err);
    relaunch_check(q, k, &a, in, N);
  }
  relaunch_check(q, k, &first, in, N);
  clReleaseMemObject(a.out);
  clReleaseMemObject(out1);
  clReleaseMemObject(bin);
  clReleaseCommandQueue(q);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(in);
}

/* A kernel made and released for every call, as CLBlast makes them: the backend may hand the next
 * kernel of that name what the last one left (its vendor kernel, the arguments set on it), and
 * every call must see exactly its own arguments, also when the kernel is released right after
 * its launch, before it ran. */
HG_TEST(kernel_per_call) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = hg_test_build(ctx, relaunch_src, "");
  CHECK(p);
  cl_command_queue q = hg_test_queue(ctx, 0);
  enum { N = 4096, BURST = 6 };
  cl_int *in = malloc(N * sizeof *in);
  for (size_t i = 0; i < N; i++)
    in[i] = (cl_int)(hg_test_rand() % 20001) - 10000;
  cl_mem bin = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof *in, in, &err);
  CHECK_CL(err);
  cl_mem out1 = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err), out2 = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err);
  CHECK_CL(err);
  relaunch_args a = {bin, 0, out1, 64, 7, {{3, 0, 0, -5}}};
  for (int call = 0; call < 12; call++) {
    cl_kernel k = clCreateKernel(p, "relaunch", &err);
    CHECK_CL(err);
    a.add = (cl_int)(hg_test_rand() % 1001) - 500;
    if (call % 3 == 1)
      a.out = a.out == out1 ? out2 : out1;
    if (call % 4 == 2)
      a.local = a.local == 64 ? 128 : 64;
    if (call == 7) { /* a buffer the last kernel held released, a new one made */
      clReleaseMemObject(out2);
      out2 = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err);
      CHECK_CL(err);
      a.out = out2;
    }
    relaunch_check(q, k, &a, in, N);
    clReleaseKernel(k);
  }
  /* a burst: each call's kernel released as soon as its launch is enqueued */
  relaunch_args burst[BURST];
  cl_int *poison = malloc(N * sizeof *poison);
  memset(poison, 0x5a, N * sizeof *poison);
  for (int i = 0; i < BURST; i++) {
    burst[i] = (relaunch_args){bin, 0, NULL, 64, (cl_int)(hg_test_rand() % 1001) - 500, a.mul};
    burst[i].out = clCreateBuffer(ctx, 0, N * sizeof(cl_int), NULL, &err);
    CHECK_CL(err);
    cl_kernel k = clCreateKernel(p, "relaunch", &err);
    CHECK_CL(err);
    relaunch_enqueue(q, k, &burst[i], bin, poison, N);
    CHECK_CL(clReleaseKernel(k));
  }
  CHECK_CL(clFinish(q));
  free(poison);
  for (int i = 0; i < BURST; i++) {
    relaunch_verify(q, &burst[i], in, N);
    clReleaseMemObject(burst[i].out);
  }
  clReleaseMemObject(out1), clReleaseMemObject(out2), clReleaseMemObject(bin);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(in);
}
