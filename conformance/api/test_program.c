/* Program objects: creation, build, compile + link, info queries, binaries and their errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const char *square_src =
    "__kernel void square(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * in[i];\n"
    "}\n";

/* Runs square from a built program over 4096 items in groups of 64; checks against the host. */
static bool run_square(cl_context ctx, cl_program prog) {
  cl_int err;
  cl_command_queue q = hg_test_queue(ctx, 0);
  enum { N = 4096 };
  int in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (int)(hg_test_rand() % 20001) - 10000;
  memset(out, 0xA5, sizeof out);
  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
  cl_kernel k = clCreateKernel(prog, "square", &err);
  bool ok = err == CL_SUCCESS;
  size_t global = N, local = 64;
  ok = ok && clSetKernelArg(k, 0, sizeof din, &din) == CL_SUCCESS && clSetKernelArg(k, 1, sizeof dout, &dout) == CL_SUCCESS;
  ok = ok && clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) == CL_SUCCESS;
  ok = ok && clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < N; i++)
    ok = out[i] == in[i] * in[i];
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseCommandQueue(q);
  return ok;
}

/* A link of the inputs fails (CL_LINK_PROGRAM_FAILURE, the program still returned, with a log
 * that names `name`). */
static bool link_fails_naming(cl_context ctx, cl_uint n, const cl_program *inputs, const char *name) {
  cl_int err;
  cl_program p = clLinkProgram(ctx, 0, NULL, NULL, n, inputs, NULL, NULL, &err);
  if (!p)
    return false;
  char log[2048] = "";
  clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  clReleaseProgram(p);
  if (!strstr(log, name))
    fprintf(stderr, "    link log: %s\n", log);
  return err == CL_LINK_PROGRAM_FAILURE && strstr(log, name);
}

HG_TEST(create_with_source_errors) {
  cl_int err;
  cl_context ctx = hg_test_context();
  const char *null_str = NULL;
  CHECK(clCreateProgramWithSource(NULL, 1, &square_src, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithSource(ctx, 0, &square_src, NULL, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithSource(ctx, 1, NULL, NULL, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithSource(ctx, 1, &null_str, NULL, &err) == NULL && err == CL_INVALID_VALUE);
  /* several strings with explicit lengths concatenate */
  const char *parts[2] = {"__kernel void square(__global const int *in, __global int *out) {XXXX", "  size_t i = get_global_id(0); out[i] = in[i] * in[i]; }"};
  size_t lengths[2] = {strlen(parts[0]) - 4, 0};
  cl_program p = clCreateProgramWithSource(ctx, 2, parts, lengths, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  CHECK(run_square(ctx, p));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

static int notified;
static void CL_CALLBACK on_built(cl_program p, void *user) { notified += user == (void *)&notified; }

HG_TEST(build_and_info) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = clCreateProgramWithSource(ctx, 1, &square_src, NULL, &err);
  CHECK_CL(err);
  size_t n;
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK_ERR(clCreateKernel(p, "square", &err) == NULL ? err : 0, CL_INVALID_PROGRAM_EXECUTABLE);
  CHECK_ERR(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clBuildProgram(p, 0, &hg_test_device, NULL, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, &notified), CL_INVALID_VALUE);
  cl_device_id bogus = (cl_device_id)ctx;
  CHECK_ERR(clBuildProgram(p, 1, &bogus, NULL, NULL, NULL), CL_INVALID_DEVICE);
  notified = 0;
  CHECK_CL(clBuildProgram(p, 1, &hg_test_device, "-DUNUSED=1 -cl-mad-enable", on_built, &notified));
  CHECK(notified == 1);
  cl_build_status status;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  CHECK(status == CL_BUILD_SUCCESS);
  char opts[256];
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL));
  CHECK(!strcmp(opts, "-DUNUSED=1 -cl-mad-enable"));
  cl_program_binary_type bt;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  CHECK_ERR(clGetProgramBuildInfo(p, bogus, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL), CL_INVALID_DEVICE);
  CHECK_ERR(clGetProgramBuildInfo(p, hg_test_device, 0x7777, sizeof status, &status, NULL), CL_INVALID_VALUE);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
  CHECK(n == 1);
  char names[64];
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  CHECK(!strcmp(names, "square"));
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 2, names, NULL), CL_INVALID_VALUE);
  size_t srclen;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &srclen));
  CHECK(srclen == strlen(square_src) + 1);
  cl_context c2;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof c2, &c2, NULL));
  CHECK(c2 == ctx);
  CHECK(run_square(ctx, p));
  /* no rebuild while a kernel exists */
  cl_kernel k = clCreateKernel(p, "square", &err);
  CHECK_CL(err);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(build_errors_and_log) {
  cl_int err;
  cl_context ctx = hg_test_context();
  const char *bad = "__kernel void f(__global int *p) {\n  p[0] = 1;\n  undeclared_thing = 2;\n}\n";
  cl_program p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &err);
  CHECK_CL(err);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  cl_build_status status;
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  CHECK(status == CL_BUILD_ERROR);
  char log[4096] = "";
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  CHECK_MSG(strstr(log, "undeclared_thing") && strstr(log, ":3:"), "log does not name the line: %s", log);
  CHECK_ERR(clCreateKernel(p, "f", &err) == NULL ? err : 0, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(p);
  p = clCreateProgramWithSource(ctx, 1, &square_src, NULL, &err);
  CHECK_ERR(clBuildProgram(p, 0, NULL, "-not-an-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  CHECK_ERR(clBuildProgram(p, 0, NULL, "-Werror", NULL, NULL), CL_SUCCESS);
  /* valid options that change nothing here: deprecated (1.0) and a hint (2.1) */
  CHECK_CL(clBuildProgram(p, 0, NULL, "-cl-strict-aliasing -cl-no-subgroup-ifp", NULL, NULL));
  CHECK(run_square(ctx, p));
  clReleaseProgram(p);
  /* -D reaches the preprocessor */
  const char *defsrc = "__kernel void square(__global const int *in, __global int *out) {\n"
                       "  size_t i = get_global_id(0); out[i] = in[i] * MUL; }\n";
  p = clCreateProgramWithSource(ctx, 1, &defsrc, NULL, &err);
  CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  CHECK_CL(clBuildProgram(p, 0, NULL, "-D MUL=in[i]", NULL, NULL));
  CHECK(run_square(ctx, p));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(binary_round_trip_and_corruption) {
  cl_int err;
  cl_context ctx = hg_test_context();
  cl_program p = clCreateProgramWithSource(ctx, 1, &square_src, NULL, &err);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  size_t size;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  CHECK(size > 0);
  unsigned char *bin = malloc(size);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  cl_int status = 1;
  const unsigned char *cbin = bin;
  cl_program p2 = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &size, &cbin, &status, &err);
  CHECK_CL(err);
  CHECK(status == CL_SUCCESS);
  CHECK_CL(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL));
  CHECK(run_square(ctx, p2));
  clReleaseProgram(p2);
  /* argument errors */
  CHECK(!clCreateProgramWithBinary(ctx, 0, &hg_test_device, &size, &cbin, NULL, &err) && err == CL_INVALID_VALUE);
  CHECK(!clCreateProgramWithBinary(ctx, 1, &hg_test_device, NULL, &cbin, NULL, &err) && err == CL_INVALID_VALUE);
  size_t zero = 0;
  CHECK(!clCreateProgramWithBinary(ctx, 1, &hg_test_device, &zero, &cbin, NULL, &err) && err == CL_INVALID_VALUE);
  if (hg_test_is_hetgpu()) {
    /* every single-bit flip and every truncation is refused, never crashes */
    unsigned char *bad = malloc(size);
    for (int trial = 0; trial < 300; trial++) {
      memcpy(bad, bin, size);
      size_t at = hg_test_rand() % size;
      bad[at] ^= (unsigned char)(1u << (hg_test_rand() % 8));
      const unsigned char *cb = bad;
      status = 1;
      cl_program pb = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &size, &cb, &status, &err);
      CHECK_MSG(!pb && err == CL_INVALID_BINARY && status == CL_INVALID_BINARY, "flip at %zu accepted (%d)", at, err);
    }
    for (size_t len = 1; len < size; len += 1 + len / 8) {
      const unsigned char *cb = bin;
      cl_program pb = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &len, &cb, NULL, &err);
      CHECK_MSG(!pb && err == CL_INVALID_BINARY, "truncation to %zu accepted", len);
    }
    free(bad);
  }
  free(bin);
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

HG_TEST(compile_and_link) {
  cl_int err;
  cl_context ctx = hg_test_context();
  const char *header = "int sq(int x);\n";
  const char *lib = "#include \"sq.h\"\nint sq(int x) { return x * x; }\n";
  const char *main_src = "#include \"sq.h\"\n"
                         "__kernel void square(__global const int *in, __global int *out) {\n"
                         "  size_t i = get_global_id(0); out[i] = sq(in[i]); }\n";
  cl_program h = clCreateProgramWithSource(ctx, 1, &header, NULL, &err);
  cl_program pl = clCreateProgramWithSource(ctx, 1, &lib, NULL, &err);
  cl_program pm = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
  const char *names[1] = {"sq.h"};
  CHECK_ERR(clCompileProgram(pl, 0, NULL, NULL, 1, NULL, names, NULL, NULL), CL_INVALID_VALUE);
  /* clCompileProgram names a bad option CL_INVALID_COMPILER_OPTIONS (clBuildProgram's is
   * CL_INVALID_BUILD_OPTIONS) */
  CHECK_ERR(clCompileProgram(pl, 0, NULL, "-not-an-option", 1, &h, names, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
  CHECK_CL(clCompileProgram(pl, 0, NULL, NULL, 1, &h, names, NULL, NULL));
  CHECK_CL(clCompileProgram(pm, 0, NULL, NULL, 1, &h, names, NULL, NULL));
  cl_program_binary_type bt;
  CHECK_CL(clGetProgramBuildInfo(pm, hg_test_device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  /* a library from one object, then an executable from the library and the main object */
  cl_program libp = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &pl, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clGetProgramBuildInfo(libp, hg_test_device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program inputs[2] = {pm, libp};
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, inputs, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(run_square(ctx, exe));
  /* unresolved symbol: the link fails, the program object still carries the log */
  cl_program alone = clLinkProgram(ctx, 0, NULL, NULL, 1, &pm, NULL, NULL, &err);
  CHECK(err == CL_LINK_PROGRAM_FAILURE && alone != NULL);
  cl_build_status status;
  CHECK_CL(clGetProgramBuildInfo(alone, hg_test_device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  CHECK(status == CL_BUILD_ERROR);
  CHECK(!clLinkProgram(ctx, 0, NULL, "-bogus", 1, &pm, NULL, NULL, &err) && err == CL_INVALID_LINKER_OPTIONS);
  CHECK(!clLinkProgram(ctx, 0, NULL, NULL, 0, NULL, NULL, NULL, &err) && err == CL_INVALID_VALUE);
  CHECK(!clLinkProgram(ctx, 0, NULL, NULL, 1, &exe, NULL, NULL, &err) && err == CL_INVALID_OPERATION);
  /* compile needs source */
  CHECK_ERR(clCompileProgram(exe, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseProgram(alone);
  clReleaseProgram(exe);
  clReleaseProgram(libp);
  clReleaseProgram(h);
  clReleaseProgram(pl);
  clReleaseProgram(pm);
  clReleaseContext(ctx);
}

/* An object compiled from source is linked as bitcode, one loaded as a binary as IR: a link
 * that mixes them works, and a function two objects define fails it with the name in the log.
 * The library object holds many functions the kernel never calls (optimised only if reached). */
HG_TEST(link_mixed_objects_and_duplicates) {
  cl_int err;
  cl_context ctx = hg_test_context();
  const char *lib = "int unused_a(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }\n"
                    "int sq(int x) { return x * x; }\n"
                    "int unused_b(int x) { return unused_a(x) ^ x; }\n";
  const char *again = "int sq(int x) { return x + x; }\n";
  const char *main_src = "int sq(int x);\n"
                         "__kernel void square(__global const int *in, __global int *out) {\n"
                         "  size_t i = get_global_id(0); out[i] = sq(in[i]); }\n";
  cl_program pl = clCreateProgramWithSource(ctx, 1, &lib, NULL, &err);
  cl_program pa = clCreateProgramWithSource(ctx, 1, &again, NULL, &err);
  cl_program pm = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
  CHECK_CL(clCompileProgram(pl, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  CHECK_CL(clCompileProgram(pa, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  CHECK_CL(clCompileProgram(pm, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program both[2] = {pm, pl};
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, both, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(run_square(ctx, exe));
  /* the library object's binary, loaded again: linked with the source object as IR */
  size_t size = 0;
  CHECK_CL(clGetProgramInfo(pl, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  CHECK(size > 0);
  unsigned char *bin = malloc(size);
  CHECK_CL(clGetProgramInfo(pl, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  const unsigned char *bins[1] = {bin};
  cl_int status;
  cl_program loaded = clCreateProgramWithBinary(ctx, 1, &hg_test_device, &size, bins, &status, &err);
  CHECK_CL(err);
  free(bin);
  cl_program_binary_type bt;
  CHECK_CL(clGetProgramBuildInfo(loaded, hg_test_device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program mixed[2] = {pm, loaded};
  cl_program exe2 = clLinkProgram(ctx, 0, NULL, NULL, 2, mixed, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(run_square(ctx, exe2));
  cl_program twice[3] = {pm, pl, pa};
  CHECK_MSG(link_fails_naming(ctx, 3, twice, "sq"), "a function defined twice linked, or its log does not name it");
  clReleaseProgram(exe2);
  clReleaseProgram(loaded);
  clReleaseProgram(exe);
  clReleaseProgram(pm);
  clReleaseProgram(pa);
  clReleaseProgram(pl);
  clReleaseContext(ctx);
}

/* Program-scope variables across compiled objects: an `extern constant` declaration reads the
 * other object's definition, `static` variables of one name stay each object's own, and a
 * declaration nothing defines fails the link with the variable's name in the log. */
HG_TEST(extern_program_scope_variables) {
  cl_int err;
  cl_context ctx = hg_test_context();
  const char *defs = "constant int one = 1;\n"
                     "static constant int k = 5;\n"
                     "int five(void) { return k; }\n";
  const char *user = "extern constant int one;\n"
                     "static constant int k = 1;\n"
                     "__kernel void square(__global const int *in, __global int *out) {\n"
                     "  size_t i = get_global_id(0); out[i] = in[i] * in[i] * one * k; }\n";
  cl_program pd = clCreateProgramWithSource(ctx, 1, &defs, NULL, &err);
  cl_program pu = clCreateProgramWithSource(ctx, 1, &user, NULL, &err);
  CHECK_CL(clCompileProgram(pd, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  CHECK_CL(clCompileProgram(pu, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
  cl_program inputs[2] = {pu, pd};
  cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, inputs, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(run_square(ctx, exe));
  /* through a library that keeps the declaration */
  cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &pu, NULL, NULL, &err);
  CHECK_CL(err);
  cl_program later[2] = {lib, pd};
  cl_program exe2 = clLinkProgram(ctx, 0, NULL, NULL, 2, later, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(run_square(ctx, exe2));
  CHECK_MSG(link_fails_naming(ctx, 1, &pu, "one"), "an undefined variable linked, or its log does not name it");
  clReleaseProgram(exe2);
  clReleaseProgram(lib);
  clReleaseProgram(exe);
  clReleaseProgram(pd);
  clReleaseProgram(pu);
  clReleaseContext(ctx);
}

/* A header found through -I that changes on disk: the next build of the same source with the
 * same options sees the new header (the program cache checks the files a build included), also
 * when only its bytes change, not its size. */
HG_TEST(included_header_changes_are_seen) {
  char dir[] = "/tmp/hg-include-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char header[128], options[160];
  snprintf(header, sizeof header, "%s/mul.h", dir);
  snprintf(options, sizeof options, "-I %s", dir);
  const char *src = "#include \"mul.h\"\n"
                    "__kernel void square(__global const int *in, __global int *out) {\n"
                    "  size_t i = get_global_id(0); out[i] = in[i] * MUL; }\n";
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
  int host_in[64], got[64];
  for (int i = 0; i < 64; i++)
    host_in[i] = (int)(hg_test_rand() % 1000);
  CHECK_CL(clEnqueueWriteBuffer(q, in, CL_TRUE, 0, sizeof host_in, host_in, 0, NULL, NULL));
  static const int muls[] = {3, 7, 7, 5};
  for (int round = 0; round < 4; round++) {
    FILE *f = fopen(header, "w");
    CHECK(f != NULL);
    fprintf(f, "#define MUL %d\n", muls[round]); /* the same size every time */
    fclose(f);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_CL(clBuildProgram(p, 0, NULL, options, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "square", &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK_CL(clSetKernelArg(k, 1, sizeof out, &out));
    memset(got, 0xa5, sizeof got);
    CHECK_CL(clEnqueueWriteBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    size_t n = 64;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int i = 0; i < 64; i++)
      CHECK_MSG(got[i] == host_in[i] * muls[round], "round %d (MUL %d): out[%d] = %d, expected %d", round, muls[round], i,
                got[i], host_in[i] * muls[round]);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  unlink(header);
  rmdir(dir);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* A kernel whose arguments exceed CL_DEVICE_MAX_PARAMETER_SIZE (1024 bytes) fails its build,
 * with the reason in the log, instead of failing on its first launch; one at the limit builds. */
HG_TEST(parameter_size_limit) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL's own limit");
    return;
  }
  cl_ulong limit = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof limit, &limit, NULL));
  CHECK(limit == 1024);
  cl_context ctx = hg_test_context();
  cl_int err;
  const char *over = "typedef struct { int v[254]; } big_t;\n" /* 1016 bytes + two pointers = 1032 */
                     "__kernel void k(__global int *o, __global int *p, big_t b) { o[0] = b.v[3] + p[0]; }\n";
  const char *at = "typedef struct { int v[252]; } big_t;\n" /* 1008 + 16 = 1024 */
                   "__kernel void k(__global int *o, __global int *p, big_t b) { o[0] = b.v[3] + p[0]; }\n";
  /* over the limit: it builds (the CTS's kernel_arg_info builds such kernels and only queries
   * them) with a warning, and its launch fails at enqueue, never later on its event */
  cl_program p = clCreateProgramWithSource(ctx, 1, &over, NULL, &err);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  char log[2048] = "";
  CHECK_CL(clGetProgramBuildInfo(p, hg_test_device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  CHECK_MSG(strstr(log, "CL_DEVICE_MAX_PARAMETER_SIZE") && strstr(log, "1032"), "log: %s", log);
  cl_kernel k = clCreateKernel(p, "k", &err);
  CHECK_CL(err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  int big[254] = {0};
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 2, sizeof big, big));
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t one = 1;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  CHECK_CL(clFinish(q));
  clReleaseCommandQueue(q);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
  p = clCreateProgramWithSource(ctx, 1, &at, NULL, &err);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  clReleaseProgram(p);
  /* sizes count without the padding alignment would add (as the CTS's kernel_arg_info counts):
   * 7 x (1 + 128) = 903 bytes, 1792 with each long16 aligned */
  const char *mixed = "__kernel void k(__global long16 *o, char a, long16 b, char c, long16 d, char e, long16 f,\n"
                      "  char g, long16 h, char i, long16 j, char k2, long16 l, char m) {\n"
                      "  o[0] = b + d + f + h + j + l + (long16)(a + c + e + g + i + k2 + m); }\n";
  p = clCreateProgramWithSource(ctx, 1, &mixed, NULL, &err);
  CHECK_CL(clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
  clReleaseProgram(p);
  clReleaseContext(ctx);
}
