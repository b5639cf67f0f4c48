/* Area compiler: what the OpenCL C compiler of the device does with programs: build options
 * (-D, -I, math and optimisation flags), embedded headers through clCompileProgram and
 * clLinkProgram (also into a library), the preprocessor's predefined macros under each
 * -cl-std the device lists, build logs of programs with errors, program binaries round trip
 * through clCreateProgramWithBinary (executables and compiled objects), several kernels per
 * program sharing functions and constants, and kernels calling functions in every address
 * space. Each test builds what it checks, so this area makes about twenty builds. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *build_log(cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = calloc(1, n + 1);
  clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  return log;
}

/* Runs kernel `name` of p over n items writing ints to one buffer; returns the results. */
static int32_t *run_ints(cl_program p, const char *name, size_t n) {
  cl_kernel k = suite_kernel(p, name);
  if (!k)
    return NULL;
  int32_t *o = malloc(n * 4);
  cl_mem m = suite_buffer(n * 4, NULL);
  bool ok = m && suite_args(k, 1, sizeof m, &m) && suite_run1(k, n, 0) && suite_read(m, o, n * 4);
  if (m) clReleaseMemObject(m);
  clReleaseKernel(k);
  if (!ok) {
    free(o);
    return NULL;
  }
  return o;
}

static bool check_ints(const int32_t *o, size_t n, int32_t (*want)(size_t), const char *what) {
  for (size_t i = 0; i < n; i++)
    if (o[i] != want(i)) {
      suite_fail("%s, item %zu: %d, expected %d", what, i, o[i], want(i));
      return false;
    }
  return true;
}

/* ---- -D options ---- */
static int32_t want_defines(size_t i) { return (int32_t)i * 3 + 7 + 1000 + 42; }
SUITE_TEST(compiler, define_options) {
  const char *src = "__kernel void k(__global int *o) {\n"
                    "  int i = (int)get_global_id(0);\n"
                    "#if defined(FLAG) && !defined(NOT_GIVEN)\n  int f = 1000;\n#else\n  int f = -1;\n#endif\n"
                    "  o[i] = i * SCALE + OFFSET + f + EXPR;\n}\n";
  cl_program p = suite_build(src, "-D SCALE=3 -DOFFSET=7 -DFLAG -D EXPR=(40+2)");
  if (!p)
    return;
  int32_t *o = run_ints(p, "k", 1000);
  if (o)
    check_ints(o, 1000, want_defines, "-D macros");
  free(o);
  clReleaseProgram(p);
}

/* ---- -I with a directory of headers ---- */
static int32_t want_include(size_t i) { return (int32_t)(i * i % 97) + 5 * 11; }
SUITE_TEST(compiler, include_directory_option) {
  char dir[] = "/tmp/hg_suite_incXXXXXX";
  REQUIRE(mkdtemp(dir), "mkdtemp");
  char path[300], sub[300];
  snprintf(sub, sizeof sub, "%s/sub", dir);
  mkdir(sub, 0700);
  snprintf(path, sizeof path, "%s/sub/square.h", dir);
  FILE *f = fopen(path, "w");
  REQUIRE(f, "cannot write %s", path);
  fputs("#ifndef SQUARE_H\n#define SQUARE_H\n#include \"factor.h\"\nint square_mod(int i) { return i * i % 97; }\n#endif\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/factor.h", dir);
  f = fopen(path, "w");
  REQUIRE(f, "cannot write %s", path);
  fputs("#define FACTOR (5 * 11)\n", f);
  fclose(f);
  const char *src = "#include \"square.h\"\n#include \"square.h\"\n"
                    "__kernel void k(__global int *o) {\n  int i = (int)get_global_id(0);\n  o[i] = square_mod(i) + FACTOR;\n}\n";
  char opts[700];
  snprintf(opts, sizeof opts, "-I %s/sub -I%s", dir, dir);
  cl_program p = suite_build(src, opts);
  if (p) {
    int32_t *o = run_ints(p, "k", 777);
    if (o)
      check_ints(o, 777, want_include, "-I headers");
    free(o);
    clReleaseProgram(p);
  }
  snprintf(path, sizeof path, "%s/sub/square.h", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/factor.h", dir);
  unlink(path);
  rmdir(sub);
  rmdir(dir);
}

/* ---- clCompileProgram with embedded headers, clLinkProgram of two objects ---- */
static const char HDR_CONSTS[] = "#define MUL 13\ntypedef struct { int a, b; } pair_t;\n";
static const char HDR_OPS[] = "#include \"inc/consts.h\"\nint combine(pair_t p);\nint scaled(int x);\n";
static const char SRC_LIB[] = "#include \"ops.h\"\n"
                              "int scaled(int x) { return x * MUL + OFFSET; }\n"
                              "int combine(pair_t p) { return scaled(p.a) - p.b; }\n";
static const char SRC_MAIN[] = "#include \"ops.h\"\n"
                               "__kernel void k(__global int *o) {\n"
                               "  int i = (int)get_global_id(0);\n  pair_t p = {i, i / 3};\n  o[i] = combine(p) + MUL;\n}\n";
static int32_t want_link(size_t i) { return (int32_t)i * 13 + 100 - (int32_t)i / 3 + 13; }

static cl_program compile_with_headers(const char *src, const char *opts) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(S.ctx, 1, &src, NULL, &err);
  if (err != CL_SUCCESS) {
    suite_fail("clCreateProgramWithSource: %d", err);
    return NULL;
  }
  const char *names[] = {"inc/consts.h", "ops.h"};
  cl_program hdr[2] = {clCreateProgramWithSource(S.ctx, 1, (const char *[]){HDR_CONSTS}, NULL, &err),
                       clCreateProgramWithSource(S.ctx, 1, (const char *[]){HDR_OPS}, NULL, &err)};
  err = clCompileProgram(p, 1, &S.device, opts, 2, hdr, names, NULL, NULL);
  clReleaseProgram(hdr[0]);
  clReleaseProgram(hdr[1]);
  if (err != CL_SUCCESS) {
    char *log = build_log(p);
    suite_fail("clCompileProgram: %d: %.500s", err, log);
    free(log);
    clReleaseProgram(p);
    return NULL;
  }
  cl_program_binary_type bt = 0;
  clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
  if (bt != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
    suite_fail("binary type after clCompileProgram: %u", bt);
  return p;
}

static cl_program link_programs(cl_program *objs, cl_uint n, const char *opts) {
  cl_int err;
  cl_program l = clLinkProgram(S.ctx, 1, &S.device, opts, n, objs, NULL, NULL, &err);
  if (err != CL_SUCCESS || !l) {
    char *log = l ? build_log(l) : NULL;
    suite_fail("clLinkProgram(\"%s\"): %d: %.500s", opts, err, log ? log : "");
    free(log);
    if (l)
      clReleaseProgram(l);
    return NULL;
  }
  return l;
}

SUITE_TEST(compiler, compile_link_embedded_headers) {
  cl_program lib = compile_with_headers(SRC_LIB, "-DOFFSET=100");
  cl_program main = lib ? compile_with_headers(SRC_MAIN, "") : NULL;
  cl_program objs[2] = {main, lib};
  cl_program exe = main ? link_programs(objs, 2, "") : NULL;
  if (exe) {
    cl_program_binary_type bt = 0;
    clGetProgramBuildInfo(exe, S.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
    if (bt != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
      suite_fail("binary type after clLinkProgram: %u", bt);
    int32_t *o = run_ints(exe, "k", 1024);
    if (o)
      check_ints(o, 1024, want_link, "linked program");
    free(o);
    clReleaseProgram(exe);
  }
  if (main) clReleaseProgram(main);
  if (lib) clReleaseProgram(lib);
}

/* A library made by -create-library, then linked with the kernel's object. */
SUITE_TEST(compiler, link_library) {
  cl_bool linker = CL_FALSE;
  clGetDeviceInfo(S.device, CL_DEVICE_LINKER_AVAILABLE, sizeof linker, &linker, NULL);
  if (!linker) {
    suite_skip("no linker");
    return;
  }
  cl_program lib = compile_with_headers(SRC_LIB, "-DOFFSET=100");
  cl_program library = lib ? link_programs(&lib, 1, "-create-library") : NULL;
  if (library) {
    cl_program_binary_type bt = 0;
    clGetProgramBuildInfo(library, S.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
    if (bt != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      suite_fail("binary type after -create-library: %u", bt);
  }
  cl_program main = library && !suite_failed() ? compile_with_headers(SRC_MAIN, "") : NULL;
  cl_program objs[2] = {main, library};
  cl_program exe = main ? link_programs(objs, 2, "") : NULL;
  if (exe) {
    int32_t *o = run_ints(exe, "k", 512);
    if (o)
      check_ints(o, 512, want_link, "program linked with a library");
    free(o);
    clReleaseProgram(exe);
  }
  if (main) clReleaseProgram(main);
  if (library) clReleaseProgram(library);
  if (lib) clReleaseProgram(lib);
}

/* ---- the preprocessor's predefined macros under each -cl-std the device supports ---- */
static const char PP_SRC[] =
    "#define STR2(x) #x\n#define STR(x) STR2(x)\n#define CAT(a, b) a##b\n"
    "__kernel void k(__global int *o) {\n"
    "  if (get_global_id(0) != 0) return;\n"
    "#ifdef __OPENCL_VERSION__\n  o[0] = __OPENCL_VERSION__;\n#else\n  o[0] = -2;\n#endif\n"
    "#ifdef __OPENCL_C_VERSION__\n  o[1] = __OPENCL_C_VERSION__;\n#else\n  o[1] = -1;\n#endif\n"
    "  o[2] = CL_VERSION_1_0; o[3] = CL_VERSION_1_1; o[4] = CL_VERSION_1_2;\n"
    "#ifdef __ENDIAN_LITTLE__\n  o[5] = __ENDIAN_LITTLE__;\n#else\n  o[5] = 0;\n#endif\n"
    "#ifdef __IMAGE_SUPPORT__\n  o[6] = 1;\n#else\n  o[6] = 0;\n#endif\n"
    "  o[7] = __LINE__;\n"
    "  o[8] = CAT(12, 34);\n"
    "  o[9] = sizeof(STR(CAT(ab, cd)));\n"
    "#ifdef cl_khr_fp64\n  o[10] = 1;\n#else\n  o[10] = 0;\n#endif\n"
    "#ifdef __FAST_RELAXED_MATH__\n  o[11] = 1;\n#else\n  o[11] = 0;\n#endif\n"
    "}\n";

static bool supports_std(int major, int minor) {
  size_t sz = 0;
  if (clGetDeviceInfo(S.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &sz) != CL_SUCCESS || !sz) {
    /* before 3.0: CL_DEVICE_OPENCL_C_VERSION is the highest */
    char v[128] = "";
    int ma = 0, mi = 0;
    clGetDeviceInfo(S.device, CL_DEVICE_OPENCL_C_VERSION, sizeof v, v, NULL);
    sscanf(v, "OpenCL C %d.%d", &ma, &mi);
    return major * 10 + minor <= ma * 10 + mi && major < 2;
  }
  cl_name_version *list = malloc(sz);
  clGetDeviceInfo(S.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sz, list, NULL);
  bool found = false;
  for (size_t i = 0; i < sz / sizeof *list; i++)
    found |= (int)CL_VERSION_MAJOR(list[i].version) == major && (int)CL_VERSION_MINOR(list[i].version) == minor;
  free(list);
  return found;
}

static void preprocessor_std(int major, int minor) {
  if (!supports_std(major, minor)) {
    suite_skip("OpenCL C %d.%d not in CL_DEVICE_OPENCL_C_ALL_VERSIONS", major, minor);
    return;
  }
  char opts[64];
  snprintf(opts, sizeof opts, "-cl-std=CL%d.%d", major, minor);
  cl_program p = suite_build(PP_SRC, opts);
  if (!p)
    return;
  int32_t *o = run_ints(p, "k", 16); /* item 0 writes o[0..11] */
  clReleaseProgram(p);
  if (!o)
    return;
  char dv[128] = "";
  int dma = 0, dmi = 0;
  cl_bool little = 0, images = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_VERSION, sizeof dv, dv, NULL);
  sscanf(dv, "OpenCL %d.%d", &dma, &dmi);
  clGetDeviceInfo(S.device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL);
  clGetDeviceInfo(S.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
  int32_t line = 1; /* the line of "o[7] = __LINE__" */
  for (const char *c = PP_SRC; c < strstr(PP_SRC, "o[7] = __LINE__"); c++)
    line += *c == '\n';
  int32_t want[12] = {dma * 100 + dmi * 10, major * 100 + minor * 10, 100, 110, 120, little ? 1 : 0, images ? 1 : 0,
                      line, 1234, (int32_t)sizeof "abcd", S.fp64, 0};
  static const char *const WHAT[] = {"__OPENCL_VERSION__", "__OPENCL_C_VERSION__", "CL_VERSION_1_0", "CL_VERSION_1_1",
                                     "CL_VERSION_1_2", "__ENDIAN_LITTLE__", "__IMAGE_SUPPORT__", "__LINE__",
                                     "token pasting", "stringification", "cl_khr_fp64 macro", "__FAST_RELAXED_MATH__"};
  char bad[512] = "";
  size_t used = 0;
  for (int i = 0; i < 12; i++) {
    if (i == 1 && major == 1 && minor == 0 && o[1] == -1)
      continue; /* __OPENCL_C_VERSION__ came with OpenCL C 1.1 */
    if (i == 10 && major == 3 && o[10] != want[10])
      continue; /* 3.0: the extension macro follows the feature, checked in api */
    if (o[i] == want[i] || used > sizeof bad - 80)
      continue;
    if (i == 0 && o[i] == -2)
      used += (size_t)snprintf(bad + used, sizeof bad - used, "%s%s not defined (expected %d)", used ? ", " : "", WHAT[i],
                               want[i]);
    else
      used += (size_t)snprintf(bad + used, sizeof bad - used, "%s%s = %d (expected %d)", used ? ", " : "", WHAT[i], o[i],
                               want[i]);
  }
  if (used)
    suite_fail("-cl-std=CL%d.%d: %s", major, minor, bad);
  free(o);
}

SUITE_TEST(compiler, preprocessor_cl_std_1_1) { preprocessor_std(1, 1); }
SUITE_TEST(compiler, preprocessor_cl_std_1_2) { preprocessor_std(1, 2); }
SUITE_TEST(compiler, preprocessor_cl_std_3_0) { preprocessor_std(3, 0); }

/* ---- build logs on errors ---- */
SUITE_TEST(compiler, build_log_on_error) {
  const char *src = "__kernel void k(__global int *o) {\n  int x = 1;\n  o[0] = x + undeclared_thing_42;\n}\n";
  cl_int err;
  cl_program p = clCreateProgramWithSource(S.ctx, 1, &src, NULL, &err);
  CL_OK(err);
  err = clBuildProgram(p, 1, &S.device, "", NULL, NULL);
  cl_build_status st = CL_BUILD_NONE;
  clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
  char *log = build_log(p);
  if (err != CL_BUILD_PROGRAM_FAILURE)
    suite_fail("clBuildProgram of a program with an error: %d, expected CL_BUILD_PROGRAM_FAILURE", err);
  else if (st != CL_BUILD_ERROR)
    suite_fail("CL_PROGRAM_BUILD_STATUS %d, expected CL_BUILD_ERROR", st);
  else if (!strstr(log, "undeclared_thing_42"))
    suite_fail("the build log does not name the undeclared identifier: '%.300s'", log);
  free(log);
  if (!suite_failed()) {
    cl_kernel k = clCreateKernel(p, "k", &err);
    if (k || err != CL_INVALID_PROGRAM_EXECUTABLE)
      suite_fail("clCreateKernel after a failed build: %d", err);
    if (k)
      clReleaseKernel(k);
  }
  clReleaseProgram(p);
  if (suite_failed())
    return;
  /* clCompileProgram reports its own failure */
  const char *src2 = "int f(int x) { return x +; }\n";
  p = clCreateProgramWithSource(S.ctx, 1, &src2, NULL, &err);
  CL_OK(err);
  err = clCompileProgram(p, 1, &S.device, "", 0, NULL, NULL, NULL, NULL);
  log = build_log(p);
  if (err != CL_COMPILE_PROGRAM_FAILURE)
    suite_fail("clCompileProgram of a program with an error: %d, expected CL_COMPILE_PROGRAM_FAILURE", err);
  else if (!log[0])
    suite_fail("empty log after a failed compile");
  free(log);
  clReleaseProgram(p);
  /* an option the compiler does not know */
  p = clCreateProgramWithSource(S.ctx, 1, (const char *[]){"__kernel void k(void) {}\n"}, NULL, &err);
  CL_OK(err);
  err = clBuildProgram(p, 1, &S.device, "-cl-no-such-option", NULL, NULL);
  if (err != CL_INVALID_BUILD_OPTIONS)
    suite_fail("clBuildProgram(\"-cl-no-such-option\"): %d, expected CL_INVALID_BUILD_OPTIONS", err);
  clReleaseProgram(p);
}

/* ---- binaries ---- */
static const char BIN_SRC[] =
    "__constant int weights[5] = {3, -1, 4, -1, 5};\n"
    "int weigh(int i) { return weights[i % 5] * i; }\n"
    "__kernel void first(__global int *o) { int i = (int)get_global_id(0); o[i] = weigh(i); }\n"
    "__kernel void second(__global int *o) { int i = (int)get_global_id(0); o[i] = weigh(i) * 2 + 1; }\n";
static const int32_t W5[5] = {3, -1, 4, -1, 5};
static int32_t want_first(size_t i) { return W5[i % 5] * (int32_t)i; }
static int32_t want_second(size_t i) { return W5[i % 5] * (int32_t)i * 2 + 1; }

static unsigned char *get_binary(cl_program p, size_t *size) {
  *size = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS || !*size) {
    suite_fail("CL_PROGRAM_BINARY_SIZES: %zu", *size);
    return NULL;
  }
  unsigned char *bin = malloc(*size);
  if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
    suite_fail("CL_PROGRAM_BINARIES failed");
    free(bin);
    return NULL;
  }
  return bin;
}

static cl_program from_binary(const unsigned char *bin, size_t size) {
  cl_int err, status = -1;
  cl_program p = clCreateProgramWithBinary(S.ctx, 1, &S.device, &size, &bin, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    suite_fail("clCreateProgramWithBinary: %d, binary status %d", err, status);
    if (p)
      clReleaseProgram(p);
    return NULL;
  }
  return p;
}

SUITE_TEST(compiler, binary_round_trip_executable) {
  cl_program p = suite_build(BIN_SRC, "");
  if (!p)
    return;
  size_t size;
  unsigned char *bin = get_binary(p, &size);
  clReleaseProgram(p);
  cl_program q = bin ? from_binary(bin, size) : NULL;
  free(bin);
  if (!q)
    return;
  cl_int err = clBuildProgram(q, 1, &S.device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char *log = build_log(q);
    suite_fail("clBuildProgram of the binary: %d: %.400s", err, log);
    free(log);
  } else {
    size_t nk = 0;
    clGetProgramInfo(q, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL);
    if (nk != 2)
      suite_fail("program from binary: %zu kernels", nk);
    int32_t *o1 = suite_failed() ? NULL : run_ints(q, "first", 1000);
    int32_t *o2 = o1 ? run_ints(q, "second", 1000) : NULL;
    if (o1 && o2 && check_ints(o1, 1000, want_first, "kernel first from a binary"))
      check_ints(o2, 1000, want_second, "kernel second from a binary");
    free(o1), free(o2);
    /* and the binary of the program from a binary works as well */
    if (!suite_failed()) {
      unsigned char *bin2 = get_binary(q, &size);
      cl_program r = bin2 ? from_binary(bin2, size) : NULL;
      free(bin2);
      if (r && clBuildProgram(r, 1, &S.device, "", NULL, NULL) == CL_SUCCESS) {
        int32_t *o3 = run_ints(r, "second", 300);
        if (o3)
          check_ints(o3, 300, want_second, "binary of a program from a binary");
        free(o3);
      } else if (r)
        suite_fail("second round trip did not build");
      if (r)
        clReleaseProgram(r);
    }
  }
  clReleaseProgram(q);
}

/* A compiled object through a binary, then linked. */
SUITE_TEST(compiler, binary_round_trip_compiled_object) {
  cl_program lib = compile_with_headers(SRC_LIB, "-DOFFSET=100");
  if (!lib)
    return;
  size_t size;
  unsigned char *bin = get_binary(lib, &size);
  clReleaseProgram(lib);
  cl_program obj = bin ? from_binary(bin, size) : NULL;
  free(bin);
  if (!obj)
    return;
  cl_program_binary_type bt = 0;
  clGetProgramBuildInfo(obj, S.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
  cl_program main = bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ? compile_with_headers(SRC_MAIN, "") : NULL;
  if (bt != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
    suite_fail("binary type of a compiled object's binary: %u", bt);
  cl_program objs[2] = {main, obj};
  cl_program exe = main ? link_programs(objs, 2, "") : NULL;
  if (exe) {
    int32_t *o = run_ints(exe, "k", 600);
    if (o)
      check_ints(o, 600, want_link, "object from a binary, linked");
    free(o);
    clReleaseProgram(exe);
  }
  if (main) clReleaseProgram(main);
  clReleaseProgram(obj);
}

/* ---- many kernels, shared functions and constants, function calls in every address space ---- */
static const char MULTI_SRC[] =
    "typedef struct { int lo, hi; } range_t;\n"
    "__constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};\n"
    "static int twice(int x) { return 2 * x; }\n"
    "inline int add3(int a, int b, int c) { return a + b + c; }\n"
    "range_t make_range(int a, int b) { range_t r; r.lo = min(a, b); r.hi = max(a, b); return r; }\n"
    "int width(range_t r) { return r.hi - r.lo; }\n"
    "void store_twice(__global int *p, int v) { *p = twice(v); }\n"
    "int sum_local(__local const int *s, int n) { int t = 0; for (int j = 0; j < n; j++) t += s[j]; return t; }\n"
    "int sum_private(const int *a, int n) { int t = 0; for (int j = 0; j < n; j++) t += a[j]; return t; }\n"
    "int from_constant(__constant int *p, int i) { return p[i & 7]; }\n"
    "void bump(int *x) { *x += 3; }\n"
    "int deep(int x, int d) { return d == 0 ? x : x + 1; }\n"
    "int level3(int x) { return deep(x, 1) * 3; }\n"
    "int level2(int x) { return level3(x) + twice(x); }\n"
    "int level1(int x) { return level2(x) - add3(x, 1, 1); }\n"
    "__kernel void m_global(__global int *o) { int i = (int)get_global_id(0); store_twice(o + i, i); }\n"
    "__kernel void m_private(__global int *o) {\n"
    "  int i = (int)get_global_id(0), a[6];\n  for (int j = 0; j < 6; j++) a[j] = i * j;\n"
    "  int x = sum_private(a, 6); bump(&x); o[i] = x;\n}\n"
    "__kernel void m_local(__global int *o) {\n"
    "  __local int s[64];\n  int l = (int)get_local_id(0);\n  s[l] = l + (int)get_group_id(0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n  o[get_global_id(0)] = sum_local(s, (int)get_local_size(0)) + l;\n}\n"
    "__kernel void m_constant(__global int *o) { int i = (int)get_global_id(0); o[i] = from_constant(primes, i) * i; }\n"
    "__kernel void m_struct(__global int *o) { int i = (int)get_global_id(0); o[i] = width(make_range(i, 100 - i)); }\n"
    "__kernel void m_chain(__global int *o) { int i = (int)get_global_id(0); o[i] = level1(i); }\n";

static int32_t want_global(size_t i) { return 2 * (int32_t)i; }
static int32_t want_private(size_t i) { return (int32_t)i * 15 + 3; }
static int32_t want_local(size_t i) { int32_t g = (int32_t)(i / 64); return 64 * 63 / 2 + 64 * g + (int32_t)(i % 64); }
static int32_t want_constant(size_t i) { static const int32_t P[8] = {2, 3, 5, 7, 11, 13, 17, 19}; return P[i & 7] * (int32_t)i; }
static int32_t want_struct(size_t i) { int32_t a = (int32_t)i, b = 100 - a; return a > b ? a - b : b - a; }
static int32_t want_chain(size_t i) { int32_t x = (int32_t)i; return (x + 1) * 3 + 2 * x - (x + 2); }

SUITE_TEST(compiler, multiple_kernels_calling_functions) {
  cl_program p = suite_build(MULTI_SRC, "");
  if (!p)
    return;
  cl_kernel ks[8];
  cl_uint n = 0;
  cl_int err = clCreateKernelsInProgram(p, 8, ks, &n);
  if (err != CL_SUCCESS || n != 6)
    suite_fail("clCreateKernelsInProgram: %d, %u kernels (6 expected)", err, n);
  for (cl_uint i = 0; i < n; i++)
    clReleaseKernel(ks[i]);
  static const struct { const char *name; int32_t (*want)(size_t); } K[] = {
      {"m_global", want_global}, {"m_private", want_private}, {"m_local", want_local},
      {"m_constant", want_constant}, {"m_struct", want_struct}, {"m_chain", want_chain}};
  for (int j = 0; j < 6 && !suite_failed(); j++) {
    size_t items = 64 * 5;
    cl_kernel k = suite_kernel(p, K[j].name);
    if (!k)
      break;
    int32_t *o = malloc(items * 4);
    cl_mem m = suite_buffer(items * 4, NULL);
    if (m && suite_args(k, 1, sizeof m, &m) && suite_run1(k, items, 64) && suite_read(m, o, items * 4))
      check_ints(o, items, K[j].want, K[j].name);
    free(o);
    if (m) clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  clReleaseProgram(p);
}

/* ---- source given as several strings, some with lengths and no terminator ---- */
static int32_t want_pieces(size_t i) { return (int32_t)i * 5 - 2; }
SUITE_TEST(compiler, source_in_pieces) {
  static const char part2[] = "int i = (int)get_global_id(0); XXXXXXX";
  const char *parts[] = {"__kernel void k(__global int *o) {\n", part2, "  o[i] = i * 5 - 2;\n", "}\n"};
  size_t cut = (size_t)(strchr(part2, 'X') - part2);
  size_t lens[] = {0, cut, strlen(parts[2]), 0}; /* part2 cut before the garbage */
  cl_int err;
  cl_program p = clCreateProgramWithSource(S.ctx, 4, parts, lens, &err);
  CL_OK(err);
  char src[256] = "";
  CL_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, NULL));
  char want_src[256];
  snprintf(want_src, sizeof want_src, "%s%.*s%s%s", parts[0], (int)cut, part2, parts[2], parts[3]);
  if (strcmp(src, want_src))
    suite_fail("CL_PROGRAM_SOURCE '%s', expected '%s'", src, want_src);
  else if ((err = clBuildProgram(p, 1, &S.device, "", NULL, NULL)) != CL_SUCCESS) {
    char *log = build_log(p);
    suite_fail("clBuildProgram: %d: %.400s", err, log);
    free(log);
  } else {
    int32_t *o = run_ints(p, "k", 500);
    if (o)
      check_ints(o, 500, want_pieces, "program from pieces");
    free(o);
  }
  clReleaseProgram(p);
}

/* ---- math and optimisation options: accepted, recorded, and the program still right ---- */
static int32_t want_opts(size_t i) { return (int32_t)i * 4 + 1; }
static void options_case(const char *opts, bool check_recorded) {
  const char *src = "__kernel void k(__global int *o) {\n"
                    "  int i = (int)get_global_id(0);\n  float f = (float)i * 0.5f;\n"
                    "  o[i] = (int)(f * 8.0f) + 1;\n}\n";
  cl_program p = suite_build(src, opts);
  if (!p)
    return;
  char got[512] = "";
  clGetProgramBuildInfo(p, S.device, CL_PROGRAM_BUILD_OPTIONS, sizeof got, got, NULL);
  if (check_recorded && strcmp(got, opts))
    suite_fail("CL_PROGRAM_BUILD_OPTIONS '%s', built with '%s'", got, opts);
  else {
    int32_t *o = run_ints(p, "k", 1000);
    if (o)
      check_ints(o, 1000, want_opts, opts);
    free(o);
  }
  clReleaseProgram(p);
}
/* (PoCL 3.1 records -cl-denorms-are-zero as the clang option it becomes: the options string is
 * compared only where no option is rewritten.) */
SUITE_TEST(compiler, options_math_flags) {
  options_case("-cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only "
               "-cl-single-precision-constant -cl-denorms-are-zero -w",
               false);
}
SUITE_TEST(compiler, options_opt_disable) { options_case("-cl-opt-disable -Werror -cl-mad-enable", true); }
