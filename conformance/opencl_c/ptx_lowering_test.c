/* The PTX back end (docs/ptx-backend.md) without a GPU: what NVIDIA's OpenCL needs in the PTX
 * (OpenCL's parameter spaces, the %envreg registers it sets for work-item functions, fences as
 * membar, 64-bit rotates masked, NVIDIA's own precision choices for float division and sqrt),
 * what it leaves to the OpenCL C back end (refused with a reason), and every kernel of the
 * corpus (argv[1]) either lowered or refused: LLVM's NVPTX back end aborts the process on what
 * it cannot select, so a module reaching it must be one it takes. Runs on NVIDIA are recorded in
 * docs/gpu-runs.md (the suite through the PTX back end there). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/ptx.h"

static int failures;
#define CHECK(cond, ...)                                                                                                \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf("FAIL: " __VA_ARGS__);                                                                                    \
      printf("\n");                                                                                                    \
      failures++;                                                                                                      \
    }                                                                                                                  \
  } while (0)

/* PTX of `source` built with `options`, or NULL with the reason in err (a front-end failure too). */
static char *ptx_of(const char *source, const char *options, char *err, size_t err_size) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  err[0] = 0;
  if (hg_frontend_source_to_ir(source, options, NULL, 0, false, &m, &log) != CL_SUCCESS) {
    snprintf(err, err_size, "front end: %.200s", log ? log : "");
    free(log);
    return NULL;
  }
  free(log);
  size_t size = 0;
  char *ptx = hg_lower_ptx(m, &size, err, err_size);
  if (ptx)
    CHECK(size == strlen(ptx) + 1, "the size counts the PTX and its NUL");
  hg_ir_module_free(m);
  return ptx;
}

static const char k_kernel[] =
    "__constant int tab[4] = {1, 2, 3, 4};\n"
    "__kernel void k(__global float *o, __local float *l, __constant float *c, __global ulong *r, __global int *n,\n"
    "                float x) {\n"
    "  size_t g = get_global_id(0);\n"
    "  l[get_local_id(0)] = c[g % 4] * tab[g % 4];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[g] = l[(get_local_id(0) + 1) % get_local_size(0)] / x + sqrt(x) + (float)get_global_offset(1) +\n"
    "         (float)get_work_dim() + (float)get_num_groups(0) + (float)get_group_id(2);\n"
    "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
    "  r[g] = rotate(r[g], r[g + 1]);\n"
    "  atomic_add(n, 1);\n"
    "}\n";

static const char *const k_expected[] = {
    ".target sm_70, texmode_independent", /* OpenCL's texture mode, as NVIDIA's own PTX */
    ".entry k(", ".ptr .global", ".ptr .shared", ".ptr .const", /* NVIDIA's OpenCL parameter spaces */
    "%envreg3", "%envreg4", "%envreg9", "%envreg6", "%envreg2", /* global-id base, offset, work_dim, groups, group base */
    "bar.sync", "membar.cta", "and.b32 %hga", "atom.global.add", "div.full.f32", "sqrt.approx.f32"};

int main(int argc, char **argv) {
  char err[512];
  char *ptx = ptx_of(k_kernel, "", err, sizeof err);
  CHECK(ptx, "the kernel was not lowered: %s", err);
  for (size_t i = 0; ptx && i < sizeof k_expected / sizeof *k_expected; i++)
    CHECK(strstr(ptx, k_expected[i]), "no \"%s\" in the PTX", k_expected[i]);
  CHECK(!ptx || !strstr(ptx, "fence.") , "a fence instruction LLVM 15 cannot select");
  free(ptx);
  /* correctly rounded division and sqrt when the program asks */
  ptx = ptx_of(k_kernel, "-cl-fp32-correctly-rounded-divide-sqrt", err, sizeof err);
  CHECK(ptx && strstr(ptx, "div.rn.f32") && strstr(ptx, "sqrt.rn.f32") && !strstr(ptx, "div.full"),
        "-cl-fp32-correctly-rounded-divide-sqrt: %s", ptx ? "approximate instructions" : err);
  free(ptx);
  /* a counted loop exits on an equality test of its counter, which ptxas unrolls further */
  ptx = ptx_of("__kernel void k(__global const uint *in, __global uint *out) {\n"
               "  uint a = in[get_global_id(0)], b = ~a;\n"
               "  for (uint r = 0; r < 64; r++) { uint f = r < 16 ? a & b : r < 32 ? a | b : a ^ b;\n"
               "    b = a; a = rotate(a + f + in[r], 5u); }\n"
               "  out[get_global_id(0)] = a ^ b; }\n",
               "", err, sizeof err);
  CHECK(ptx && (strstr(ptx, "setp.eq.") || strstr(ptx, "setp.ne.")), "counted loop: %s",
        ptx ? "no equality exit test" : err);
  free(ptx);
  /* rotates of 64-bit values by constants (SHA-512's) are shifts by immediates, which ptxas makes
   * funnel shifts; amounts taken modulo 64, lane by lane */
  ptx = ptx_of("__kernel void k(__global ulong *r, __global ulong2 *v) {\n"
               "  size_t g = get_global_id(0);\n"
               "  r[g] = rotate(r[g], (ulong)14) ^ rotate(r[g], (ulong)(64 + 41)) ^ rotate(r[g], (ulong)64);\n"
               "  v[g] = rotate(v[g], (ulong2)(3, 70)); }\n",
               "", err, sizeof err);
  CHECK(ptx && !strstr(ptx, "%hga") && strstr(ptx, "shl.b64") && strstr(ptx, ", 14;") && strstr(ptx, ", 41;") &&
            strstr(ptx, ", 6;"),
        "constant rotates: %s", ptx ? ptx : err);
  free(ptx);
  /* left to the OpenCL C back end, with the reason */
  static const struct {
    const char *source, *reason;
  } k_refused[] = {
      {"__kernel void k(__global float *o) { o[0] = exp(o[1]); }", "exp"},
      {"__kernel void k(__global int *o) { printf(\"%d\\n\", o[0]); }", "printf"},
      {"__global int counter;\n__kernel void k(__global int *o) { counter += o[0]; }", "counter"},
      {"__kernel void k(read_only image2d_t im, __global float4 *o) { o[0] = (float4)(get_image_width(im)); }", ""},
  };
  for (size_t i = 0; i < sizeof k_refused / sizeof *k_refused; i++) {
    ptx = ptx_of(k_refused[i].source, "", err, sizeof err);
    CHECK(!ptx && err[0] && strstr(err, k_refused[i].reason), "case %zu was not refused for %s (%s)", i,
          k_refused[i].reason, ptx ? "lowered" : err);
    free(ptx);
  }
  /* the corpus: lowered or refused, never an abort */
  unsigned lowered = 0, refused = 0, skipped = 0;
  DIR *top = argc > 1 ? opendir(argv[1]) : NULL;
  CHECK(argc <= 1 || top, "cannot open %s", argv[1]);
  for (struct dirent *area; top && (area = readdir(top));) {
    if (area->d_name[0] == '.')
      continue;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", argv[1], area->d_name);
    DIR *d = opendir(dir);
    for (struct dirent *f; d && (f = readdir(d));) {
      size_t n = strlen(f->d_name);
      if (n < 4 || strcmp(f->d_name + n - 3, ".cl"))
        continue;
      char path[8192];
      snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
      FILE *fp = fopen(path, "rb");
      char *src = calloc(1, 1 << 20);
      size_t len = fp && src ? fread(src, 1, (1 << 20) - 1, fp) : 0;
      if (fp)
        fclose(fp);
      ptx = len ? ptx_of(src, "", err, sizeof err) : NULL;
      if (ptx) {
        lowered++;
        CHECK(strstr(ptx, ".entry"), "%s: PTX without an entry", path);
      } else if (!strncmp(err, "front end:", 10)) {
        skipped++; /* a file that needs the corpus runner's options */
      } else {
        refused++;
        CHECK(err[0], "%s: refused without a reason", path);
      }
      free(ptx);
      free(src);
    }
    if (d)
      closedir(d);
  }
  if (top)
    closedir(top);
  printf("corpus: %u lowered to PTX, %u left to OpenCL C, %u not compiled alone\n", lowered, refused, skipped);
  CHECK(argc <= 1 || lowered > 100, "only %u corpus kernels lowered", lowered);
  printf("%s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
