/* printf on hetGPU through the OpenCL API (docs/printf.md): the text the driver prints, read
 * back from stdout, against the host's own printf of the same values (fresh random inputs).
 * Several work-groups with barriers, a printf in a non-kernel function, doubles, vectors,
 * %s of constant strings, the buffer running full (printf returns -1, later launches print
 * again), two launches in flight printing in queue order, and no hidden argument showing. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* ---- stdout capture ---- */
typedef struct capture {
  int saved, fd;
  char path[64];
} capture;

static void capture_begin(capture *c) {
  snprintf(c->path, sizeof c->path, "/tmp/hg_printf_test_XXXXXX");
  c->fd = mkstemp(c->path);
  fflush(stdout);
  c->saved = dup(1);
  dup2(c->fd, 1);
}

/* Restores stdout; returns the captured text (malloc'd). */
static char *capture_end(capture *c) {
  fflush(stdout);
  dup2(c->saved, 1);
  close(c->saved);
  off_t n = lseek(c->fd, 0, SEEK_END);
  char *text = calloc((size_t)n + 1, 1);
  if (text && n > 0 && pread(c->fd, text, (size_t)n, 0) != n) text[0] = 0;
  close(c->fd);
  unlink(c->path);
  return text;
}

static char *next_line(char **p) {
  if (!**p) return NULL;
  char *s = *p, *e = strchr(s, '\n');
  if (e) { *e = 0; *p = e + 1; } else *p += strlen(s);
  return s;
}

static cl_kernel make_kernel(cl_program p, const char *name) {
  cl_int e;
  cl_kernel k = clCreateKernel(p, name, &e);
  if (!k) hg_test_fail(__FILE__, __LINE__, "clCreateKernel(%s): %d", name, e);
  return k;
}

#define GROUPS 6
#define WG 32
#define ITEMS (GROUPS * WG)

static const char *k_groups_src =
    "__constant char kWord[] = \"word\";\n"
    "void say(int g, int l, float v) { printf(\"say g%d l%d %.9g %s\\n\", g, l, v, kWord); }\n"
    "__kernel void groups(__global const float *in, __global const double *d, __local float *tmp) {\n"
    "  int l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  say(g, l, tmp[(l + 1) % n]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  printf(\"end g%d l%d %.17g %a %v2hld %s\\n\", g, l, d[get_global_id(0)], d[get_global_id(0)],\n"
    "         (int2)(l, -g), g & 1 ? \"odd\" : \"even\");\n"
    "}\n"
    "__kernel void after(int tag) { printf(\"after %d %d\\n\", tag, (int)get_global_id(0)); }\n";

/* The expected lines of one group, phase by phase (a barrier orders the phases; items within a
 * phase print in any order). */
static void expect_line(char *buf, size_t n, int phase, int g, int l, const float *in, const double *d) {
  int i = g * WG + l;
  if (phase == 0) snprintf(buf, n, "say g%d l%d %.9g word", g, l, (double)in[g * WG + (l + 1) % WG]);
  else snprintf(buf, n, "end g%d l%d %.17g %a %d,%d %s", g, l, d[i], d[i], l, -g, g & 1 ? "odd" : "even");
}

HG_TEST(groups_barriers_functions_doubles) {
  if (!hg_test_is_hetgpu()) { hg_test_skip("hetGPU's printf buffer"); return; }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, k_groups_src, "");
  if (!p) return;
  cl_kernel k = make_kernel(p, "groups"), k2 = make_kernel(p, "after");
  if (!k || !k2) return;
  static float in[ITEMS];
  static double d[ITEMS];
  for (int i = 0; i < ITEMS; i++) {
    in[i] = hg_test_randf(-1000.0f, 1000.0f);
    uint64_t bits = (uint64_t)hg_test_rand() << 32 | hg_test_rand();
    memcpy(&d[i], &bits, 8);
    if (d[i] != d[i]) d[i] = (double)hg_test_randf(-1, 1) / 3.0; /* NaN text differs by sign */
  }
  cl_int e;
  cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &e);
  cl_mem bd = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof d, d, &e);
  cl_uint nargs = 0;
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  CHECK_MSG(nargs == 3, "CL_KERNEL_NUM_ARGS %u: the printf buffer must stay hidden", nargs);
  CHECK_ERR(clSetKernelArg(k, 3, sizeof bin, &bin), CL_INVALID_ARG_INDEX);
  CHECK_CL(clSetKernelArg(k, 0, sizeof bin, &bin));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bd, &bd));
  CHECK_CL(clSetKernelArg(k, 2, WG * sizeof(float), NULL));
  int tag = (int)(hg_test_rand() % 100000);
  CHECK_CL(clSetKernelArg(k2, 0, sizeof tag, &tag));
  size_t global = ITEMS, local = WG, g2 = 4;
  capture c;
  capture_begin(&c);
  /* two launches in flight: the first one's output comes first */
  e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
  cl_int e2 = clEnqueueNDRangeKernel(q, k2, 1, NULL, &g2, &g2, 0, NULL, NULL);
  cl_int e3 = clFinish(q);
  char *text = capture_end(&c);
  CHECK_MSG(e == CL_SUCCESS && e2 == CL_SUCCESS && e3 == CL_SUCCESS, "enqueue %d %d finish %d", e, e2, e3);
  CHECK(text);
  char *cur = text, *line;
  char want[256];
  bool ok = true;
  for (int g = 0; g < GROUPS && ok; g++)
    for (int phase = 0; phase < 2 && ok; phase++) {
      bool seen[WG] = {false};
      for (int n = 0; n < WG && ok; n++) {
        line = next_line(&cur);
        int lg = -1, ll = -1;
        ok = line && sscanf(line + 4, "g%d l%d", &lg, &ll) == 2 && lg == g && ll >= 0 && ll < WG && !seen[ll];
        if (ok) {
          seen[ll] = true;
          expect_line(want, sizeof want, phase, g, ll, in, d);
          ok = !strcmp(line, want);
        }
        if (!ok) hg_test_fail(__FILE__, __LINE__, "group %d phase %d: got \"%s\", expected %s", g, phase,
                              line ? line : "(end)", lg == g ? want : "a line of this group and phase");
      }
    }
  for (int i = 0; i < 4 && ok; i++) {
    line = next_line(&cur);
    snprintf(want, sizeof want, "after %d %d", tag, i);
    /* one group of 4: its items print in any order */
    ok = line && !strncmp(line, want, strlen("after ") + (size_t)snprintf(NULL, 0, "%d", tag));
    if (!ok) hg_test_fail(__FILE__, __LINE__, "second launch: got \"%s\"", line ? line : "(end)");
  }
  if (ok && *cur) hg_test_fail(__FILE__, __LINE__, "extra output: \"%.100s\"", cur);
  free(text);
  clReleaseMemObject(bin);
  clReleaseMemObject(bd);
  clReleaseKernel(k);
  clReleaseKernel(k2);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* More records than CL_DEVICE_PRINTF_BUFFER_SIZE holds: each printf says whether it printed,
 * exactly those lines come out, and the next launch prints again. */
static const char *k_full_src =
    "__kernel void full(__global int *ret, int reps) {\n"
    "  int i = get_global_id(0);\n"
    "  for (int r = 0; r < reps; r++)\n"
    "    ret[i * reps + r] = printf(\"%d %d %v4d\\n\", i, r, (int4)(i, r, -i, -r));\n"
    "}\n";

HG_TEST(buffer_full) {
  if (!hg_test_is_hetgpu()) { hg_test_skip("hetGPU's printf buffer"); return; }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program p = hg_test_build(ctx, k_full_src, "");
  if (!p) return;
  cl_kernel k = make_kernel(p, "full");
  if (!k) return;
  size_t psize = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof psize, &psize, NULL));
  const size_t record = 16 + 8 * 6; /* header, i, r, 4 elements */
  for (int round = 0; round < 2; round++) {
    /* round 0 overflows (about twice the buffer), round 1 fits */
    size_t global = round ? 64 : 2 * psize / record / 8 + hg_test_rand() % 64, local = 64;
    global = (global + local - 1) / local * local;
    int items = (int)global, reps = round ? 3 : 8;
    size_t n = (size_t)items * reps;
    int *ret = malloc(n * sizeof *ret);
    bool *seen = calloc(n, 1);
    CHECK(ret && seen);
    memset(ret, 0x5a, n * sizeof *ret); /* poisoned: neither 0 nor -1 */
    cl_int e;
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *ret, ret, &e);
    CHECK_CL(clSetKernelArg(k, 0, sizeof b, &b));
    CHECK_CL(clSetKernelArg(k, 1, sizeof reps, &reps));
    capture c;
    capture_begin(&c);
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    cl_int e2 = clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * sizeof *ret, ret, 0, NULL, NULL);
    char *text = capture_end(&c);
    CHECK_MSG(e == CL_SUCCESS && e2 == CL_SUCCESS, "round %d: enqueue %d read %d", round, e, e2);
    size_t printed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
      CHECK_MSG(ret[i] == 0 || ret[i] == -1, "round %d: printf returned %d", round, ret[i]);
      printed += ret[i] == 0;
      failed += ret[i] == -1;
    }
    char *cur = text, *line;
    size_t lines = 0;
    while ((line = next_line(&cur))) {
      int i = -1, r = -1;
      char want[128];
      CHECK_MSG(sscanf(line, "%d %d", &i, &r) == 2 && i >= 0 && i < items && r >= 0 && r < reps, "bad line \"%s\"", line);
      size_t at = (size_t)i * reps + r;
      snprintf(want, sizeof want, "%d %d %d,%d,%d,%d", i, r, i, r, -i, -r);
      CHECK_MSG(!strcmp(line, want) && ret[at] == 0 && !seen[at], "line \"%s\" (printf returned %d)", line, ret[at]);
      seen[at] = true;
      lines++;
    }
    CHECK_MSG(lines == printed, "round %d: %zu lines, %zu printf calls returned 0", round, lines, printed);
    CHECK_MSG(printed * record <= psize, "round %d: %zu records exceed the buffer", round, printed);
    if (round == 0) CHECK_MSG(failed > 0 && printed * record > psize / 2, "overflow round: %zu printed, %zu failed", printed, failed);
    else CHECK_MSG(failed == 0, "a launch after the overflow lost %zu lines", failed);
    free(text);
    free(ret);
    free(seen);
    clReleaseMemObject(b);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
