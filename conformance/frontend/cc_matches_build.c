/* hetgpu-cc and clBuildProgram give the same IR bytes for the same source and options: both go
 * through hg_frontend_source_to_ir (lowering/frontend_ir.c), so the tool's binary carries the
 * execution state (safe points, layouts) the driver's program binary has. Also --library against
 * clCompileProgram's compiled object. The path of hetgpu-cc comes in HETGPU_CC. */
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

/* Kernels with what the execution state describes: barriers (safe points with live values),
 * local arrays, private arrays, helper functions (inlined), printf. %u: a fresh constant, so
 * the driver's IR cache sees new source each run. */
static const char *const k_sources[] = {
    "#define SALT %uu\n"
    "__kernel void square(__global const int *in, __global int *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * in[i] + (int)SALT;\n"
    "}\n",
    "#define SALT %uu\n"
    "static float helper(float x, uint k) { return x * (float)(k & 7u) + 1.0f; }\n"
    "__kernel void reduce(__global const float *in, __global float *out, __local float *scratch) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  float priv[4];\n"
    "  for (int j = 0; j < 4; j++) priv[j] = helper(in[get_global_id(0)], SALT + j);\n"
    "  scratch[l] = priv[0] + priv[1] * priv[2] - priv[3];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "    if (l < s) scratch[l] += scratch[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = scratch[0] * WIDTH;\n"
    "}\n"
    "__kernel void tile(__global int *io) {\n"
    "  __local int t[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  int keep = io[get_global_id(0)] ^ (int)SALT;\n"
    "  t[l] = keep;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  io[get_global_id(0)] = t[63 - l] + keep;\n"
    "  if (get_global_id(0) == 0) printf(\"salt %%u %%d\\n\", SALT, keep);\n"
    "}\n",
};
static const char *const k_options[] = {"", "-DWIDTH=3 -cl-fast-relaxed-math", "-DWIDTH=2 -cl-std=CL3.0 -cl-mad-enable"};

static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* Runs hetgpu-cc on source with options (whole, through --options); returns the IR bytes. */
static unsigned char *run_cc(const char *source, const char *options, bool library, size_t *size) {
  const char *cc = getenv("HETGPU_CC");
  char dir[] = "/tmp/hg_cc_match_XXXXXX";
  if (!cc || !mkdtemp(dir))
    return NULL;
  char src[64], out[64];
  snprintf(src, sizeof src, "%s/k.cl", dir);
  snprintf(out, sizeof out, "%s/k.hgir", dir);
  unsigned char *bytes = NULL;
  FILE *f = fopen(src, "wb");
  if (f) {
    bool wrote = fwrite(source, 1, strlen(source), f) == strlen(source);
    if (fclose(f) == 0 && wrote) {
      char *argv[8];
      int k = 0;
      argv[k++] = (char *)cc;
      argv[k++] = "--options";
      argv[k++] = (char *)options;
      if (library)
        argv[k++] = "--library";
      argv[k++] = src;
      argv[k++] = "-o";
      argv[k++] = out;
      argv[k] = NULL;
      pid_t pid;
      int status;
      if (posix_spawn(&pid, cc, NULL, NULL, argv, environ) == 0 && waitpid(pid, &status, 0) == pid &&
          WIFEXITED(status) && WEXITSTATUS(status) == 0)
        bytes = slurp(out, size);
    }
  }
  unlink(out);
  unlink(src);
  rmdir(dir);
  return bytes;
}

static unsigned char *program_binary(cl_program prog, size_t *size) {
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS || !*size)
    return NULL;
  unsigned char *bin = malloc(*size);
  if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
    free(bin);
    bin = NULL;
  }
  return bin;
}

/* Compares hetgpu-cc's output with the driver's binary for every kernel and option set;
 * library: --library against clCompileProgram, else against clBuildProgram. */
static void check_all(bool library) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU's IR binaries only");
    return;
  }
  CHECK_MSG(getenv("HETGPU_CC"), "HETGPU_CC (the path of hetgpu-cc) is not set");
  cl_context ctx = hg_test_context();
  for (size_t s = 0; s < sizeof k_sources / sizeof *k_sources; s++)
    for (size_t o = 0; o < sizeof k_options / sizeof *k_options; o++) {
      if (s == 1 && o == 0)
        continue; /* that kernel needs WIDTH */
      char source[4096];
      snprintf(source, sizeof source, k_sources[s], hg_test_rand());
      const char *text = source;
      cl_int err;
      cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
      CHECK_CL(err);
      if (library)
        err = clCompileProgram(prog, 0, NULL, k_options[o], 0, NULL, NULL, NULL, NULL);
      else
        err = clBuildProgram(prog, 0, NULL, k_options[o], NULL, NULL);
      size_t driver_size = 0, cc_size = 0;
      unsigned char *driver = err == CL_SUCCESS ? program_binary(prog, &driver_size) : NULL;
      unsigned char *cc = run_cc(source, k_options[o], library, &cc_size);
      clReleaseProgram(prog);
      bool same = driver && cc && driver_size == cc_size && !memcmp(driver, cc, cc_size);
      size_t first = 0;
      while (driver && cc && first < driver_size && first < cc_size && driver[first] == cc[first])
        first++;
      free(driver);
      free(cc);
      CHECK_MSG(err == CL_SUCCESS, "kernel %zu options '%s': the driver's build failed (%d)", s, k_options[o], err);
      CHECK_MSG(same, "kernel %zu options '%s': hetgpu-cc gave %zu bytes, the driver %zu; first difference at %zu", s,
                k_options[o], cc_size, driver_size, first);
    }
  clReleaseContext(ctx);
}

HG_TEST(cc_executable_matches_build_program) { check_all(false); }
HG_TEST(cc_library_matches_compile_program) { check_all(true); }
