/* Kernels on the RISC-V backend (run with HETGPU_BACKEND=riscv; also valid on any platform):
 * barriers in loops, local memory, atomics, divergent control flow, several work-groups,
 * ragged sizes, vectors and builtins, each against a host reference with random inputs; a
 * kernel that faults fails its event and the next launch still works. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct env {
  cl_context ctx;
  cl_command_queue q;
} env;

static bool env_open(env *e) {
  e->ctx = hg_test_context();
  e->q = e->ctx ? hg_test_queue(e->ctx, 0) : NULL;
  return e->q != NULL;
}
static void env_close(env *e) {
  if (e->q) clReleaseCommandQueue(e->q);
  if (e->ctx) clReleaseContext(e->ctx);
}

static bool on_riscv(void) {
  const char *be = getenv("HETGPU_BACKEND");
  return hg_test_is_hetgpu() && be && !strcmp(be, "riscv");
}

/* Kernel `name` of a program built from src (*p, for the caller to release); NULL has failed
 * the test. */
static cl_kernel kernel_of(env *e, const char *src, const char *name, cl_program *p) {
  cl_int err = CL_SUCCESS;
  *p = hg_test_build(e->ctx, src, "");
  cl_kernel k = *p ? clCreateKernel(*p, name, &err) : NULL;
  if (*p && !k) hg_test_fail(__FILE__, __LINE__, "clCreateKernel(%s): %d", name, err);
  return k;
}

static cl_mem buffer(env *e, size_t size, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size, (void *)init, &err);
  return err == CL_SUCCESS ? m : NULL;
}

HG_TEST(vector_add_many_groups) {
  env e;
  CHECK(env_open(&e));
  const char *src = "__kernel void add(__global const int *a, __global const int *b, __global int *c, int k) {\n"
                    "  size_t i = get_global_id(0); c[i] = a[i] + b[i] * k; }\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  enum { N = 4096 };
  int *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4);
  hg_test_fill_random(a, N * 4);
  hg_test_fill_random(b, N * 4);
  memset(c, 0xAB, N * 4);
  int k = (int)(hg_test_rand() % 100) - 50;
  cl_mem ma = buffer(&e, N * 4, a), mb = buffer(&e, N * 4, b), mc = buffer(&e, N * 4, c);
  cl_int err;
  cl_kernel kr = clCreateKernel(p, "add", &err);
  CHECK_CL(err);
  clSetKernelArg(kr, 0, sizeof ma, &ma);
  clSetKernelArg(kr, 1, sizeof mb, &mb);
  clSetKernelArg(kr, 2, sizeof mc, &mc);
  clSetKernelArg(kr, 3, sizeof k, &k);
  size_t g = N, l = 64;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, kr, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mc, CL_TRUE, 0, N * 4, c, 0, NULL, NULL));
  for (int i = 0; i < N; i++)
    CHECK_MSG(c[i] == (int)((unsigned)a[i] + (unsigned)b[i] * (unsigned)k), "c[%d] = %d", i, c[i]);
  clReleaseKernel(kr);
  clReleaseProgram(p);
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mc);
  free(a);
  free(b);
  free(c);
  env_close(&e);
}

/* A tree reduction in local memory: barriers inside a loop, divergent work between them. */
HG_TEST(local_reduction_barrier_loop) {
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__kernel void red(__global const uint *in, __global uint *out, __local uint *tmp) {\n"
      "  size_t l = get_local_id(0), n = get_local_size(0);\n"
      "  tmp[l] = in[get_global_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  for (size_t s = n / 2; s > 0; s >>= 1) {\n"
      "    if (l < s) tmp[l] += tmp[l + s];\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
      "}\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  enum { L = 128, G = 37, N = L * G };
  uint32_t *in = malloc(N * 4), out[G];
  hg_test_fill_random(in, N * 4);
  memset(out, 0xCD, sizeof out);
  cl_mem mi = buffer(&e, N * 4, in), mo = buffer(&e, sizeof out, out);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "red", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof mi, &mi);
  clSetKernelArg(k, 1, sizeof mo, &mo);
  clSetKernelArg(k, 2, L * 4, NULL);
  size_t g = N, l = L;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int gi = 0; gi < G; gi++) {
    uint32_t s = 0;
    for (int i = 0; i < L; i++) s += in[gi * L + i];
    CHECK_MSG(out[gi] == s, "group %d: %u, expected %u", gi, out[gi], s);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  free(in);
  env_close(&e);
}

/* Values live across barriers (private arrays, loop counters, phis), a static __local array,
 * 2-D work-groups, neighbours read after a barrier. */
HG_TEST(state_across_barriers_2d) {
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__kernel void st(__global const int *in, __global int *out, int rounds) {\n"
      "  __local int tile[8][16];\n"
      "  int x = get_local_id(0), y = get_local_id(1);\n"
      "  int gx = get_global_id(0), gy = get_global_id(1), w = get_global_size(0);\n"
      "  int acc = in[gy * w + gx];\n"
      "  int hist[4] = {0, 0, 0, 0};\n"
      "  for (int r = 0; r < rounds; r++) {\n"
      "    tile[y][x] = acc;\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "    int nb = tile[(y + 1) % 8][(x + r) % 16];\n"
      "    if ((acc ^ nb) & 1) acc = acc * 3 + nb; else acc = acc - nb / 2;\n"
      "    hist[r & 3] += acc & 7;\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  out[gy * w + gx] = acc + hist[0] * 1000 + hist[1] * 100 + hist[2] * 10 + hist[3];\n"
      "}\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  enum { W = 48, H = 24, N = W * H };
  int rounds = 5 + (int)(hg_test_rand() % 4);
  int *in = malloc(N * 4), *out = malloc(N * 4), *ref = malloc(N * 4);
  for (int i = 0; i < N; i++) in[i] = (int)(hg_test_rand() % 2000) - 1000;
  memset(out, 0xEE, N * 4);
  /* host reference: the same computation, group by group */
  for (int by = 0; by < H / 8; by++)
    for (int bx = 0; bx < W / 16; bx++) {
      int acc[8][16], hist[8][16][4], tile[8][16];
      memset(hist, 0, sizeof hist);
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) acc[y][x] = in[(by * 8 + y) * W + bx * 16 + x];
      for (int r = 0; r < rounds; r++) {
        for (int y = 0; y < 8; y++)
          for (int x = 0; x < 16; x++) tile[y][x] = acc[y][x];
        for (int y = 0; y < 8; y++)
          for (int x = 0; x < 16; x++) {
            int nb = tile[(y + 1) % 8][(x + r) % 16];
            int a = acc[y][x];
            a = ((a ^ nb) & 1) ? (int)((unsigned)a * 3u + (unsigned)nb) : a - nb / 2;
            acc[y][x] = a;
            hist[y][x][r & 3] += a & 7;
          }
      }
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
          int *h = hist[y][x];
          ref[(by * 8 + y) * W + bx * 16 + x] = acc[y][x] + h[0] * 1000 + h[1] * 100 + h[2] * 10 + h[3];
        }
    }
  cl_mem mi = buffer(&e, N * 4, in), mo = buffer(&e, N * 4, out);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "st", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof mi, &mi);
  clSetKernelArg(k, 1, sizeof mo, &mo);
  clSetKernelArg(k, 2, sizeof rounds, &rounds);
  size_t g[2] = {W, H}, l[2] = {16, 8};
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 2, NULL, g, l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mo, CL_TRUE, 0, N * 4, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++) CHECK_MSG(out[i] == ref[i], "out[%d] = %d, expected %d", i, out[i], ref[i]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  free(in);
  free(out);
  free(ref);
  env_close(&e);
}

/* Global and local atomics: a histogram, counted per group in local memory then merged. */
HG_TEST(atomics_histogram) {
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__kernel void hist(__global const uint *in, __global uint *bins, __global int *minv, __local uint *lb) {\n"
      "  size_t l = get_local_id(0);\n"
      "  if (l < 16) lb[l] = 0;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  uint v = in[get_global_id(0)];\n"
      "  atomic_inc(&lb[v & 15]);\n"
      "  atomic_min(minv, (int)(v >> 4));\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (l < 16) atomic_add(&bins[l], lb[l]);\n"
      "}\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  enum { N = 64 * 50 };
  uint32_t *in = malloc(N * 4), bins[16] = {0}, ref[16] = {0};
  int minv = 0x7fffffff, refmin = 0x7fffffff;
  hg_test_fill_random(in, N * 4);
  for (int i = 0; i < N; i++) {
    ref[in[i] & 15]++;
    if ((int)(in[i] >> 4) < refmin) refmin = (int)(in[i] >> 4);
  }
  cl_mem mi = buffer(&e, N * 4, in), mb = buffer(&e, sizeof bins, bins), mm = buffer(&e, 4, &minv);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "hist", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof mi, &mi);
  clSetKernelArg(k, 1, sizeof mb, &mb);
  clSetKernelArg(k, 2, sizeof mm, &mm);
  clSetKernelArg(k, 3, 16 * 4, NULL);
  size_t g = N, l = 64;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mb, CL_TRUE, 0, sizeof bins, bins, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mm, CL_TRUE, 0, 4, &minv, 0, NULL, NULL));
  for (int i = 0; i < 16; i++) CHECK_MSG(bins[i] == ref[i], "bin %d: %u, expected %u", i, bins[i], ref[i]);
  CHECK_MSG(minv == refmin, "min %d, expected %d", minv, refmin);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(mi);
  clReleaseMemObject(mb);
  clReleaseMemObject(mm);
  free(in);
  env_close(&e);
}

/* float4 vectors, vload/vstore, integer and common builtins, a global offset, a 3-D range. */
HG_TEST(vectors_builtins_offset_3d) {
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__kernel void v(__global const float *a, __global float *o, __global int *io, float s) {\n"
      "  size_t i = get_global_id(0) - get_global_offset(0)\n"
      "           + get_global_size(0) * ((get_global_id(1) - get_global_offset(1)) + get_global_size(1) * get_global_id(2));\n"
      "  float4 x = vload4(i, a);\n"
      "  float4 y = fma(x, (float4)(s), (float4)(1.0f, 2.0f, 3.0f, 4.0f));\n"
      "  y = clamp(y, -10.0f, 10.0f);\n"
      "  vstore4(y, i, o);\n"
      "  int4 q = convert_int4(x * 100.0f);\n"
      "  io[i] = clamp(q.x, -50, 50) + max(q.y, q.z) + abs(q.w) + (int)dot(x, x) + popcount((uint)q.x);\n"
      "}\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  enum { X = 8, Y = 6, Z = 3, N = X * Y * Z };
  float *a = malloc(N * 16), *o = malloc(N * 16);
  int *io = malloc(N * 4);
  for (int i = 0; i < N * 4; i++) a[i] = hg_test_randf(-4, 4);
  float s = hg_test_randf(-2, 2);
  memset(o, 0xFF, N * 16);
  cl_mem ma = buffer(&e, N * 16, a), mo = buffer(&e, N * 16, o), mi = buffer(&e, N * 4, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "v", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof ma, &ma);
  clSetKernelArg(k, 1, sizeof mo, &mo);
  clSetKernelArg(k, 2, sizeof mi, &mi);
  clSetKernelArg(k, 3, sizeof s, &s);
  size_t off[3] = {5, 7, 0}, g[3] = {X, Y, Z}, l[3] = {4, 2, 1};
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 3, off, g, l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mo, CL_TRUE, 0, N * 16, o, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mi, CL_TRUE, 0, N * 4, io, 0, NULL, NULL));
  for (int i = 0; i < N; i++) {
    float *x = &a[4 * i];
    for (int c = 0; c < 4; c++) {
      float y = fmaf(x[c], s, (float)(c + 1));
      y = y < -10 ? -10 : y > 10 ? 10 : y;
      CHECK_MSG(o[4 * i + c] == y, "o[%d].%d = %g, expected %g", i, c, o[4 * i + c], y);
    }
    int q[4];
    for (int c = 0; c < 4; c++) q[c] = (int)(x[c] * 100.0f);
    float d = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    int ref = (q[0] < -50 ? -50 : q[0] > 50 ? 50 : q[0]) + (q[1] > q[2] ? q[1] : q[2]) + abs(q[3]) + (int)d +
              __builtin_popcount((unsigned)q[0]);
    /* dot may round differently (fused or not): allow the truncation to differ by one */
    CHECK_MSG(abs(io[i] - ref) <= 1, "io[%d] = %d, expected %d", i, io[i], ref);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(ma);
  clReleaseMemObject(mo);
  clReleaseMemObject(mi);
  free(a);
  free(o);
  free(io);
  env_close(&e);
}

/* An out-of-bounds store fails its event with an error status; the next launch works. */
HG_TEST(fault_then_recover) {
  if (!on_riscv()) {
    hg_test_skip("an out-of-bounds store crashes a CPU device's process; only the riscv backend contains it");
    return;
  }
  env e;
  CHECK(env_open(&e));
  const char *src = "__kernel void bad(__global int *p, long far) { p[get_global_id(0) + far] = 1; }\n"
                    "__kernel void good(__global int *p) { p[get_global_id(0)] = (int)get_global_id(0) * 7; }\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  cl_mem m = buffer(&e, 1024 * 4, NULL);
  cl_int err;
  cl_kernel kb = clCreateKernel(p, "bad", &err), kg = clCreateKernel(p, "good", &err);
  CHECK_CL(err);
  long far = 1L << 33;
  clSetKernelArg(kb, 0, sizeof m, &m);
  clSetKernelArg(kb, 1, sizeof far, &far);
  clSetKernelArg(kg, 0, sizeof m, &m);
  size_t g = 1024, l = 64;
  cl_event ev;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, kb, 1, NULL, &g, &l, 0, NULL, &ev));
  clWaitForEvents(1, &ev);
  cl_int status = 0;
  CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK_MSG(status < 0, "faulting kernel's event status %d", status);
  clReleaseEvent(ev);
  /* the queue may have stopped with the failed command: a fresh one runs the next kernel */
  cl_command_queue q2 = hg_test_queue(e.ctx, 0);
  CHECK_CL(clEnqueueNDRangeKernel(q2, kg, 1, NULL, &g, &l, 0, NULL, NULL));
  int *out = malloc(1024 * 4);
  CHECK_CL(clEnqueueReadBuffer(q2, m, CL_TRUE, 0, 1024 * 4, out, 0, NULL, NULL));
  for (int i = 0; i < 1024; i++) CHECK_MSG(out[i] == i * 7, "out[%d] = %d", i, out[i]);
  free(out);
  clReleaseCommandQueue(q2);
  clReleaseKernel(kb);
  clReleaseKernel(kg);
  clReleaseProgram(p);
  clReleaseMemObject(m);
  env_close(&e);
}

/* Divergent control flow: data-dependent loop trip counts, early returns, a switch. */
HG_TEST(divergent_control_flow) {
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__kernel void dv(__global const uint *in, __global uint *out) {\n"
      "  size_t i = get_global_id(0);\n"
      "  uint v = in[i];\n"
      "  if ((v & 7) == 3) { out[i] = 0xdead; return; }\n"
      "  uint n = v % 29, acc = v;\n"
      "  for (uint k = 0; k < n; k++) {\n"
      "    switch ((acc >> k) & 3) {\n"
      "    case 0: acc = acc * 5 + k; break;\n"
      "    case 1: acc ^= acc >> 3; break;\n"
      "    case 2: if (acc & 16) continue; acc += 77; break;\n"
      "    default: acc = rotate(acc, 7u);\n"
      "    }\n"
      "    if (acc == 12345) break;\n"
      "  }\n"
      "  out[i] = acc;\n"
      "}\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  enum { N = 3000 };
  uint32_t *in = malloc(N * 4), *out = malloc(N * 4);
  hg_test_fill_random(in, N * 4);
  memset(out, 0x5A, N * 4);
  cl_mem mi = buffer(&e, N * 4, in), mo = buffer(&e, N * 4, out);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "dv", &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof mi, &mi);
  clSetKernelArg(k, 1, sizeof mo, &mo);
  size_t g = N, l = 40;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mo, CL_TRUE, 0, N * 4, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++) {
    uint32_t v = in[i], ref;
    if ((v & 7) == 3) {
      ref = 0xdead;
    } else {
      uint32_t n = v % 29, acc = v;
      for (uint32_t kk = 0; kk < n; kk++) {
        switch ((acc >> kk) & 3) {
        case 0: acc = acc * 5 + kk; break;
        case 1: acc ^= acc >> 3; break;
        case 2:
          if (acc & 16) continue;
          acc += 77;
          break;
        default: acc = (acc << 7) | (acc >> 25);
        }
        if (acc == 12345) break;
      }
      ref = acc;
    }
    CHECK_MSG(out[i] == ref, "out[%d] = %u, expected %u", i, out[i], ref);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  free(in);
  free(out);
  env_close(&e);
}

/* Private frames that cannot fit one tile's L1 for a group of 256: CL_KERNEL_WORK_GROUP_SIZE
 * says how many do (the smallest over the usable backends, the riscv one among them), a launch
 * of that many runs, a larger group is refused at the enqueue (CL_INVALID_WORK_GROUP_SIZE), and
 * launches go on working. */
HG_TEST(frames_too_large_for_l1) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("the limit is the riscv backend's");
    return;
  }
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__kernel void big(__global int *o, int n) {\n"
      "  int a[2048];\n"
      "  for (int i = 0; i < 2048; i++) a[i] = i * n;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  int s = 0;\n"
      "  for (int i = 0; i < 2048; i += 97) s += a[(i + n) & 2047];\n"
      "  o[get_global_id(0)] = s;\n"
      "}\n";
  cl_program p = hg_test_build(e.ctx, src, "");
  CHECK(p);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "big", &err);
  CHECK_CL(err);
  cl_mem m = buffer(&e, 1024 * 4, NULL);
  int n = 3;
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof n, &n);
  size_t g = 1024, l = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof l, &l, NULL));
  CHECK_MSG(l >= 32 && l < 256, "8 KiB frames: CL_KERNEL_WORK_GROUP_SIZE %zu", l);
  { /* the same module again (a program of its own): the riscv backend's size is the one its
     * first build recorded in the program cache, without a build (whichever backend runs) */
    cl_program p2 = hg_test_build(e.ctx, src, "");
    cl_kernel k2 = p2 ? clCreateKernel(p2, "big", &err) : NULL;
    size_t l2 = 0;
    CHECK(k2);
    if (k2)
      CHECK_CL(clGetKernelWorkGroupInfo(k2, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof l2, &l2, NULL));
    CHECK_MSG(l2 == l, "the same kernel again: CL_KERNEL_WORK_GROUP_SIZE %zu, first %zu", l2, l);
    if (k2)
      clReleaseKernel(k2);
    if (p2)
      clReleaseProgram(p2);
  }
  size_t over = 256;
  CHECK_ERR(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &over, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t fits = 1;
  while (fits * 2 <= l) /* the largest power of two that fits divides 1024 */
    fits *= 2;
  int poison = -1;
  CHECK_CL(clEnqueueFillBuffer(e.q, m, &poison, sizeof poison, 0, 1024 * 4, 0, NULL, NULL));
  cl_event ev;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &fits, 0, NULL, &ev));
  CHECK_CL(clWaitForEvents(1, &ev));
  clReleaseEvent(ev);
  int *o = malloc(1024 * 4);
  int ref = 0;
  for (int i = 0; i < 2048; i += 97) ref += ((i + n) & 2047) * n;
  CHECK_CL(clEnqueueReadBuffer(e.q, m, CL_TRUE, 0, 1024 * 4, o, 0, NULL, NULL));
  for (int i = 0; i < 1024; i++) CHECK_MSG(o[i] == ref, "groups of %zu: o[%d] = %d, expected %d", fits, i, o[i], ref);
  /* a small group too */
  size_t small = 32;
  CHECK_CL(clEnqueueFillBuffer(e.q, m, &poison, sizeof poison, 0, 1024 * 4, 0, NULL, NULL));
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &small, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, m, CL_TRUE, 0, 1024 * 4, o, 0, NULL, NULL));
  for (int i = 0; i < 1024; i++) CHECK_MSG(o[i] == ref, "groups of 32: o[%d] = %d, expected %d", i, o[i], ref);
  free(o);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  env_close(&e);
}

/* A struct passed by value that the kernel modifies (each work-item its own copy), a __constant
 * table, and (OpenCL 2.0, riscv only here) a program-scope __global variable that keeps its
 * value between launches. */
HG_TEST(struct_by_value_and_program_scope) {
  env e;
  CHECK(env_open(&e));
  typedef struct {
    int a;
    float b;
    int c[3];
  } S;
  const char *src = "typedef struct { int a; float b; int c[3]; } S;\n"
                    "__constant int tab[4] = {10, 20, 30, 40};\n"
                    "__kernel void k(__global int *o, S s) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  s.a += (int)i;\n"
                    "  s.c[1] = s.c[1] * 2;\n"
                    "  o[i] = s.a + (int)s.b + s.c[1] + tab[i & 3];\n"
                    "}\n";
  cl_program p;
  cl_kernel k = kernel_of(&e, src, "k", &p);
  CHECK(k);
  cl_int err;
  enum { N = 256 };
  cl_mem m = buffer(&e, N * 4, NULL);
  S s = {(int)(hg_test_rand() % 1000), 2.5f, {3, (int)(hg_test_rand() % 100), 5}};
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof s, &s);
  size_t g = N, l = 32;
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  int out[N];
  CHECK_CL(clEnqueueReadBuffer(e.q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++) {
    int ref = s.a + i + 2 + s.c[1] * 2 + 10 * ((i & 3) + 1);
    CHECK_MSG(out[i] == ref, "out[%d] = %d, expected %d", i, out[i], ref);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  if (on_riscv()) {
    const char *src2 = "__global int counter = 5;\n"
                       "__kernel void inc(void) { if (get_global_id(0) == 0) atomic_inc(&counter); }\n"
                       "__kernel void rd(__global int *o) { o[0] = counter; }\n";
    cl_program p2 = hg_test_build(e.ctx, src2, "-cl-std=CL2.0");
    CHECK(p2);
    cl_kernel ki = clCreateKernel(p2, "inc", &err), kr = clCreateKernel(p2, "rd", &err);
    CHECK_CL(err);
    clSetKernelArg(kr, 0, sizeof m, &m);
    size_t one = 1;
    for (int r = 0; r < 3; r++)
      CHECK_CL(clEnqueueNDRangeKernel(e.q, ki, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK_CL(clEnqueueNDRangeKernel(e.q, kr, 1, NULL, &one, &one, 0, NULL, NULL));
    int c = 0;
    CHECK_CL(clEnqueueReadBuffer(e.q, m, CL_TRUE, 0, 4, &c, 0, NULL, NULL));
    CHECK_MSG(c == 8, "counter %d, expected 8", c);
    clReleaseKernel(ki);
    clReleaseKernel(kr);
    clReleaseProgram(p2);
  }
  clReleaseMemObject(m);
  env_close(&e);
}

/* Private arrays declared with 64- and 128-byte alignment keep it, in the kernel and in a
 * function it calls (noinline in the source, inlined by the IR), on every work-item of several
 * groups, with a struct argument whose per-work-item copy lengthens the frame (issue 13: frames
 * were placed at 16-byte multiples only). The arrays
 * are indexed at run time so that they stay in memory; their sums are checked as well. */
HG_TEST(private_alignment_kept) {
  env e;
  CHECK(env_open(&e));
  const char *src =
      "__attribute__((noinline)) static void mix(__global const uint *in, size_t id, __global uint *out,\n"
      "                                          __global ulong *at) {\n"
      "  __attribute__((aligned(128))) uint a[8];\n"
      "  __attribute__((aligned(64))) uchar b[12];\n"
      "  for (int i = 0; i < 8; i++) a[i] = in[id * 8 + i] * 3u;\n"
      "  for (int i = 0; i < 12; i++) b[i] = (uchar)(in[id * 8 + i % 8] >> i);\n"
      "  uint s = 0;\n"
      "  for (int i = 0; i < 8; i++) s += a[(i + id) & 7] ^ b[(i * 5 + id) % 12];\n"
      "  out[id] = s;\n"
      "  at[id * 3] = (ulong)a; at[id * 3 + 1] = (ulong)b;\n" /* whole addresses: the optimiser cannot fold them */
      "}\n"
      "typedef struct { uint add, pad[4]; } bias_t;\n"
      "__kernel void k(__global const uint *in, __global uint *out, __global ulong *at, bias_t bias) {\n"
      "  size_t id = get_global_id(0);\n"
      "  __attribute__((aligned(64))) uint c[5];\n"
      "  for (int i = 0; i < 5; i++) c[i] = in[id * 8 + i] + bias.add;\n"
      "  mix(in, id, out, at);\n"
      "  out[id] += c[id % 5];\n"
      "  at[id * 3 + 2] = (ulong)c;\n"
      "}\n";
  cl_program p;
  cl_kernel k = kernel_of(&e, src, "k", &p);
  CHECK(k);
  enum { N = 384 };
  static cl_uint in[N * 8], out[N];
  static cl_ulong mis[N * 3]; /* addresses of a[], b[], c[] */
  hg_test_fill_random(in, sizeof in);
  cl_mem mi = buffer(&e, sizeof in, in), mo = buffer(&e, sizeof out, NULL), mm = buffer(&e, sizeof mis, NULL);
  CHECK(mi && mo && mm);
  clSetKernelArg(k, 0, sizeof mi, &mi);
  clSetKernelArg(k, 1, sizeof mo, &mo);
  clSetKernelArg(k, 2, sizeof mm, &mm);
  /* a struct by value: each work-item's copy sits in its frame, after the slots */
  struct { cl_uint add, pad[4]; } bias = {1u + hg_test_rand() % 1000, {0}};
  clSetKernelArg(k, 3, sizeof bias, &bias);
  size_t g = N, l = 64; /* 6 groups */
  CHECK_CL(clEnqueueNDRangeKernel(e.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(e.q, mm, CL_TRUE, 0, sizeof mis, mis, 0, NULL, NULL));
  for (unsigned id = 0; id < N; id++) {
    const cl_uint *w = in + id * 8;
    cl_uint s = 0;
    for (unsigned i = 0; i < 8; i++)
      s += (w[(i + id) & 7] * 3u) ^ (cl_uchar)(w[((i * 5 + id) % 12) % 8] >> ((i * 5 + id) % 12));
    s += w[id % 5] + bias.add;
    CHECK_MSG(out[id] == s, "out[%u] = %u, expected %u", id, out[id], s);
    CHECK_MSG(mis[id * 3] % 128 == 0 && mis[id * 3 + 1] % 64 == 0 && mis[id * 3 + 2] % 64 == 0,
              "work-item %u: a[] at 0x%llx (aligned 128), b[] at 0x%llx and c[] at 0x%llx (aligned 64)", id,
              (unsigned long long)mis[id * 3], (unsigned long long)mis[id * 3 + 1],
              (unsigned long long)mis[id * 3 + 2]);
  }
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  clReleaseMemObject(mm);
  clReleaseKernel(k);
  clReleaseProgram(p);
  env_close(&e);
}
