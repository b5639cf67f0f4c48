/* Robust buffer access on vendor backends (HETGPU_ROBUST=1, issue 12, docs/robust-access.md):
 * the lowered code checks every __global and __constant access, so a kernel that writes or
 * reads out of its buffers fails its event with CL_OUT_OF_RESOURCES (as on RISC-V) and
 * nothing outside its buffers changes: not the next argument buffer, not a buffer the kernel
 * was not given. Correct kernels (pointer arithmetic, sub-buffers, helper functions taking
 * pointers, pointers kept in private memory, atomics, vloadN/vstoreN, __constant arguments and
 * program-scope constants, accesses at the very end of a buffer) give exactly the host's
 * results. The faulting cases run only under hetGPU with HETGPU_ROBUST=1, or on its RISC-V
 * backend, which always contains them (the same test there: the same behaviour); elsewhere they
 * would corrupt or crash the process. The others run on any platform, which checks them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fault_env.h"

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n" /* x * w + t rounded twice, as the host does */
    /* writes a[i] for every work-item: the range may be larger than a */
    "__kernel void spill(__global int *a, __global int *b, int salt) {\n"
    "  size_t i = get_global_id(0); a[i] = (int)i * 3 + salt; }\n"
    /* reads in[n + i] */
    "__kernel void peek(__global const int *in, __global int *out, int n) {\n"
    "  size_t i = get_global_id(0); out[i] = in[n + i]; }\n"
    /* a store through a helper, with a pointer picked from a private array */
    "__attribute__((noinline)) void put(__global int *p, long at, int v) { p[at] = v; }\n"
    "__kernel void helper_store(__global int *a, __global int *b, long at) {\n"
    "  size_t i = get_global_id(0);\n"
    "  __global int *keep[2] = {a, b};\n"
    "  put(keep[i & 1], (i == 5) ? at : (long)(i >> 1), (int)i); }\n"
    /* atomics on a counter chosen by the input */
    "__kernel void histogram(__global const uint *in, __global uint *bins, uint nbins) {\n"
    "  uint v = in[get_global_id(0)];\n"
    "  atomic_inc(&bins[v % nbins]); }\n"
    "__kernel void histogram_unchecked(__global const uint *in, __global uint *bins) {\n"
    "  atomic_inc(&bins[in[get_global_id(0)]]); }\n"
    /* vstore4 at element offset `at` */
    "__kernel void vector_store(__global float *out, uint at) {\n"
    "  if (get_global_id(0) == 0) vstore4((float4)(1.0f, 2.0f, 3.0f, 4.0f), at, out); }\n"
    /* a kernel that prints (the printf buffer comes before the robust form's hidden arguments) */
    "__kernel void say(__global int *a, int n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i == 0) printf(\"robust_access say %d\\n\", n);\n"
    "  a[i + n] = (int)i; }\n"
    /* a __constant argument read past its end */
    "__kernel void constant_peek(__constant int *c, __global int *out, int n) {\n"
    "  size_t i = get_global_id(0); out[i] = c[n + i]; }\n"
    /* correct kernels: what must keep working */
    "__constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
    "__attribute__((noinline)) float dot_at(__global const float *x, __constant float *w, uint k) {\n"
    "  return x[k] * w[k % 4] + (float)table[k % 8]; }\n"
    "__kernel void mixed(__global const float *x, __constant float *w, __global float *y, __global uint *hist,\n"
    "                    __global float *v4, uint n) {\n"
    "  size_t i = get_global_id(0), s = get_global_size(0);\n"
    "  for (__global float *p = y + i; p < y + n; p += s) {\n" /* pointer arithmetic to one past the end */
    "    uint k = (uint)(p - y);\n"
    "    *p = dot_at(x, w, k); }\n"
    "  atomic_add(&hist[i % 16], 1u);\n"
    "  if (i < n / 4) { float4 t = vload4(i, x); vstore4(t * 2.0f, i, v4); }\n"
    "  if (i == 0) { vstore_half(x[n - 1], 0, (__global half *)(v4 + n + 1) - 1); } }\n"
    "__kernel void strided(__global int *a, __global int *b, int n) {\n"
    "  size_t s = get_global_size(0);\n"
    "  __global int *end = a + n;\n"
    "  __global int *keep[2] = {a, b};\n"
    "  for (__global int *p = a + get_global_id(0); p < end; p += s) {\n"
    "    size_t k = (size_t)(p - a);\n"
    "    __global int *q = keep[k & 1];\n"
    "    q[k] = (int)k ^ 0x5a5a; } }\n"
    "typedef struct { int a; float b; int c[6]; } rec;\n"
    "__kernel void records(__global const rec *in, __global rec *out, __global float *fr) {\n"
    "  size_t i = get_global_id(0);\n"
    "  rec r = in[i]; r.a += 1; out[i] = r;\n" /* whole-struct moves */
    "  float f = fract(r.b, &fr[2 * i + 1]); fr[2 * i] = f; }\n"
    "__kernel void sub_and_parent(__global int *parent, __global int *sub, int origin, __global int *flags) {\n"
    "  size_t i = get_global_id(0);\n"
    "  sub[i] = sub[i] + 1;\n"
    "  if (i == 0) flags[0] = (parent + origin == sub); }\n";

static bool contained(void) {
  const char *r = getenv("HETGPU_ROBUST"), *be = getenv("HETGPU_BACKEND");
  return hg_test_is_hetgpu() && ((r && !strcmp(r, "1")) || (be && !strcmp(be, "riscv")));
}

/* The faulting cases need out-of-bounds accesses contained: skipped elsewhere. */
#define NEEDS_CONTAINMENT()                                                                     \
  do {                                                                                          \
    if (!contained()) {                                                                         \
      hg_test_skip("out-of-bounds accesses are contained only by hetGPU with HETGPU_ROBUST=1 " \
                   "or on RISC-V");                                                             \
      return;                                                                                   \
    }                                                                                           \
  } while (0)

/* (a) a[] of N ints, b[] (an argument) and c[] (not one) made right after it: the work-items
 * past a[] fail the command, and b[] and c[] keep their bytes. */
HG_TEST(write_past_buffer_fails_and_neighbours_are_intact) {
  NEEDS_CONTAINMENT();
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 4096 };
  int *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4);
  hg_test_fill_random(a, N * 4);
  hg_test_fill_random(b, N * 4);
  hg_test_fill_random(c, N * 4);
  cl_mem ma = hg_test_env_buffer(&e, N * 4, a), mb = hg_test_env_buffer(&e, N * 4, b), mc = hg_test_env_buffer(&e, N * 4, c);
  CHECK(ma && mb && mc);
  int salt = (int)(hg_test_rand() & 0xffff);
  size_t sizes[3] = {sizeof ma, sizeof mb, sizeof salt};
  const void *vals[3] = {&ma, &mb, &salt};
  cl_int st = hg_test_env_run(&e, "spill", N + 1024, 64, 3, sizes, vals); /* 1024 work-items, 16 groups, past a[] */
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes past a[]: event status %d, expected CL_OUT_OF_RESOURCES", st);
  CHECK_MSG(hg_test_env_same_bytes(&e, mb, b, N * 4), "b[] (the next argument) changed by writes past a[]");
  CHECK_MSG(hg_test_env_same_bytes(&e, mc, c, N * 4), "c[] (not an argument) changed by writes past a[]");
  /* the same kernel inside a[] runs and writes what the host expects */
  st = hg_test_env_run(&e, "spill", N, 64, 3, sizes, vals);
  CHECK_MSG(st == CL_COMPLETE, "in bounds: status %d", st);
  for (int i = 0; i < N; i++)
    a[i] = i * 3 + salt;
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, a, N * 4), "a[] after an in-bounds launch");
  CHECK_MSG(hg_test_env_same_bytes(&e, mb, b, N * 4), "b[] after an in-bounds launch");
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mc);
  free(a);
  free(b);
  free(c);
  hg_test_env_close(&e);
}

/* (b) reading past in[] (and past a __constant argument) fails the command. */
HG_TEST(read_past_buffer_fails) {
  NEEDS_CONTAINMENT();
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 2048 };
  int *in = malloc(N * 4), *out = malloc(N * 4);
  hg_test_fill_random(in, N * 4);
  memset(out, 0xAB, N * 4);
  cl_mem mi = hg_test_env_buffer(&e, N * 4, in), mo = hg_test_env_buffer(&e, N * 4, out);
  CHECK(mi && mo);
  int n = N / 2;
  size_t sizes[3] = {sizeof mi, sizeof mo, sizeof n};
  const void *vals[3] = {&mi, &mo, &n};
  CHECK_MSG(hg_test_env_run(&e, "peek", N / 2, 64, 3, sizes, vals) == CL_COMPLETE, "in-bounds peek");
  CHECK_CL(clEnqueueReadBuffer(e.q, mo, CL_TRUE, 0, N * 4, out, 0, NULL, NULL));
  CHECK_MSG(!memcmp(out, in + N / 2, N / 2 * 4), "in-bounds peek results");
  n = N / 2 + 1; /* the last work-item reads one int past in[] */
  cl_int st = hg_test_env_run(&e, "peek", N / 2, 64, 3, sizes, vals);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "reads past in[]: status %d, expected CL_OUT_OF_RESOURCES", st);
  n = 64; /* __constant in[] of N/2 ints read from 64 on by N/2 work-items */
  cl_mem half = hg_test_env_buffer(&e, N / 2 * 4, in);
  CHECK(half);
  vals[0] = &half;
  st = hg_test_env_run(&e, "constant_peek", N / 2, 64, 3, sizes, vals);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "reads past a __constant argument: status %d", st);
  clReleaseMemObject(half);
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  free(in);
  free(out);
  hg_test_env_close(&e);
}

/* A store through a helper function, with its pointer kept in private memory, far outside
 * every buffer: the command fails and both buffers hold exactly what the other work-items
 * wrote. */
HG_TEST(store_through_helper_out_of_bounds_fails) {
  NEEDS_CONTAINMENT();
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 256 };
  int *a = malloc(N * 4), *b = malloc(N * 4);
  hg_test_fill_random(a, N * 4);
  hg_test_fill_random(b, N * 4);
  cl_mem ma = hg_test_env_buffer(&e, N * 4, a), mb = hg_test_env_buffer(&e, N * 4, b);
  CHECK(ma && mb);
  cl_long at = 2; /* in bounds: work-item 5 writes b[2] like the others */
  size_t sizes[3] = {sizeof ma, sizeof mb, sizeof at};
  const void *vals[3] = {&ma, &mb, &at};
  CHECK_MSG(hg_test_env_run(&e, "helper_store", N, 32, 3, sizes, vals) == CL_COMPLETE, "in-bounds helper_store");
  for (int i = 0; i < N; i++)
    (i & 1 ? b : a)[(i == 5 ? at : i >> 1)] = i;
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, a, N * 4) && hg_test_env_same_bytes(&e, mb, b, N * 4), "in-bounds helper_store results");
  at = (cl_long)1 << 28; /* a GiB past b[] */
  CHECK_MSG(hg_test_env_run(&e, "helper_store", N, 32, 3, sizes, vals) == CL_OUT_OF_RESOURCES, "helper_store far out");
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, a, N * 4) && hg_test_env_same_bytes(&e, mb, b, N * 4), "buffers after a failed helper_store");
  at = -((cl_long)1 << 28); /* a GiB before b[] */
  CHECK_MSG(hg_test_env_run(&e, "helper_store", N, 32, 3, sizes, vals) == CL_OUT_OF_RESOURCES, "helper_store far before");
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  free(a);
  free(b);
  hg_test_env_close(&e);
}

/* A kernel that prints: in range it runs, one int past its buffer it fails. Buffers here that
 * are overrun are whole 4 KiB pages: RISC-V lets accesses into an allocation's padding run, as
 * real devices do (docs/riscv-backend.md), where the robust form checks the exact size. */
HG_TEST(printing_kernel_out_of_bounds_fails) {
  NEEDS_CONTAINMENT();
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 1024 };
  int a[N], want[N];
  hg_test_fill_random(a, sizeof a);
  for (int i = 0; i < N; i++)
    want[i] = i;
  cl_mem ma = hg_test_env_buffer(&e, sizeof a, a);
  CHECK(ma);
  int n = 0;
  size_t sizes[2] = {sizeof ma, sizeof n};
  const void *vals[2] = {&ma, &n};
  CHECK_MSG(hg_test_env_run(&e, "say", N, 64, 2, sizes, vals) == CL_COMPLETE, "say in range");
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, want, sizeof want), "say's stores");
  n = 1;
  CHECK_MSG(hg_test_env_run(&e, "say", N, 64, 2, sizes, vals) == CL_OUT_OF_RESOURCES, "say one past the end");
  clReleaseMemObject(ma);
  hg_test_env_close(&e);
}

/* Atomics and vstore out of range fail the command; in range they count and store. */
HG_TEST(atomic_and_vector_store_out_of_bounds_fail) {
  NEEDS_CONTAINMENT();
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 1024, BINS = 16 };
  cl_uint *in = malloc(N * 4), bins[BINS] = {0}, want[BINS] = {0};
  for (int i = 0; i < N; i++)
    in[i] = hg_test_rand() % BINS;
  in[N - 7] = 4096 / 4 + 3; /* a count past bins[] and any padding */
  cl_mem mi = hg_test_env_buffer(&e, N * 4, in), mbins = hg_test_env_buffer(&e, sizeof bins, bins);
  CHECK(mi && mbins);
  size_t sizes[3] = {sizeof mi, sizeof mbins, sizeof(cl_uint)};
  cl_uint nbins = BINS;
  const void *vals[3] = {&mi, &mbins, &nbins};
  CHECK_MSG(hg_test_env_run(&e, "histogram_unchecked", N, 64, 2, sizes, vals) == CL_OUT_OF_RESOURCES, "atomic past bins[]");
  clReleaseMemObject(mbins); /* counted up to the fault: counted again from zero */
  mbins = hg_test_env_buffer(&e, sizeof bins, bins);
  CHECK(mbins);
  CHECK_MSG(hg_test_env_run(&e, "histogram", N, 64, 3, sizes, vals) == CL_COMPLETE, "histogram in range");
  for (int i = 0; i < N; i++)
    want[in[i] % BINS]++;
  CHECK_MSG(hg_test_env_same_bytes(&e, mbins, want, sizeof want), "histogram counts");

  enum { OUT = 1024 }; /* a whole page */
  float *out = malloc(OUT * sizeof *out), *want_out = malloc(OUT * sizeof *out);
  for (int i = 0; i < OUT; i++)
    out[i] = want_out[i] = -1.0f;
  for (int i = 0; i < 4; i++)
    want_out[OUT - 4 + i] = 1.0f + (float)i;
  cl_mem mo = hg_test_env_buffer(&e, OUT * sizeof *out, out);
  CHECK(mo);
  cl_uint at = OUT / 4 - 1; /* the last four */
  size_t vs[2] = {sizeof mo, sizeof at};
  const void *vv[2] = {&mo, &at};
  CHECK_MSG(hg_test_env_run(&e, "vector_store", 1, 1, 2, vs, vv) == CL_COMPLETE, "vstore4 at the end");
  at = OUT / 4;
  CHECK_MSG(hg_test_env_run(&e, "vector_store", 1, 1, 2, vs, vv) == CL_OUT_OF_RESOURCES, "vstore4 past the end");
  CHECK_MSG(hg_test_env_same_bytes(&e, mo, want_out, OUT * sizeof *out), "vstore4 results");
  free(out);
  free(want_out);
  clReleaseMemObject(mo);
  clReleaseMemObject(mi);
  clReleaseMemObject(mbins);
  free(in);
  hg_test_env_close(&e);
}

static cl_ushort half_of(float f) { /* round to nearest even, normal range (the inputs) */
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000u, exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
  if (exp < 113) return (cl_ushort)sign; /* the inputs never get here */
  uint32_t h = ((exp - 112) << 10) | (man >> 13), rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
  return (cl_ushort)(sign | h);
}

/* (c) Correct kernels give exactly the host's results: pointer arithmetic to one past the
 * end, a helper taking __global and __constant pointers, program-scope constants, atomics,
 * vload4/vstore4 and vstore_half at the very end of a buffer, pointers in private arrays,
 * whole-struct copies, fract's out-pointer, a sub-buffer beside its parent. */
HG_TEST(correct_kernels_give_exact_results) {
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 1000, G = 256 }; /* N not a multiple of the range: the loop runs out at the end */
  float *x = malloc(N * 4), w[4], *y = malloc(N * 4), *v4 = malloc(N * 4 + 4), *want = malloc(N * 4);
  for (int i = 0; i < N; i++)
    x[i] = hg_test_randf(-8.0f, 8.0f);
  for (int i = 0; i < 4; i++)
    w[i] = hg_test_randf(-2.0f, 2.0f);
  for (int i = 0; i < N; i++)
    y[i] = v4[i] = -123.0f; /* poison */
  v4[N] = -123.0f;
  cl_uint hist[16] = {0};
  cl_mem mx = hg_test_env_buffer(&e, N * 4, x), mw = hg_test_env_buffer(&e, sizeof w, w), my = hg_test_env_buffer(&e, N * 4, y);
  cl_mem mh = hg_test_env_buffer(&e, sizeof hist, hist), mv = hg_test_env_buffer(&e, N * 4 + 4, v4);
  CHECK(mx && mw && my && mh && mv);
  cl_uint n = N;
  size_t sizes[6] = {sizeof mx, sizeof mw, sizeof my, sizeof mh, sizeof mv, sizeof n};
  const void *vals[6] = {&mx, &mw, &my, &mh, &mv, &n};
  cl_int st = hg_test_env_run(&e, "mixed", G, 64, 6, sizes, vals);
  CHECK_MSG(st == CL_COMPLETE, "mixed: status %d", st);
  static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  for (int k = 0; k < N; k++)
    want[k] = x[k] * w[k % 4] + (float)table[k % 8];
  CHECK_MSG(hg_test_env_same_bytes(&e, my, want, N * 4), "mixed: y[]");
  cl_uint want_hist[16];
  for (int i = 0; i < 16; i++)
    want_hist[i] = G / 16;
  CHECK_MSG(hg_test_env_same_bytes(&e, mh, want_hist, sizeof want_hist), "mixed: atomic counts");
  for (int i = 0; i < N; i++)
    want[i] = i < N / 4 * 4 ? x[i] * 2.0f : -123.0f;
  float *got = malloc(N * 4 + 4);
  CHECK_CL(clEnqueueReadBuffer(e.q, mv, CL_TRUE, 0, N * 4 + 4, got, 0, NULL, NULL));
  CHECK_MSG(!memcmp(got, want, N * 4), "mixed: vload4/vstore4 results");
  cl_ushort last_half;
  memcpy(&last_half, (char *)got + N * 4 + 2, 2);
  CHECK_MSG(last_half == half_of(x[N - 1]), "mixed: vstore_half into the last two bytes: %04x, want %04x",
            last_half, half_of(x[N - 1]));
  free(got);

  /* a pointer kept in a private array, chosen per element */
  int *ia = malloc(N * 4), *ib = malloc(N * 4), *wa = malloc(N * 4), *wb = malloc(N * 4);
  hg_test_fill_random(ia, N * 4);
  hg_test_fill_random(ib, N * 4);
  memcpy(wa, ia, N * 4);
  memcpy(wb, ib, N * 4);
  for (int k = 0; k < N; k++)
    (k & 1 ? wb : wa)[k] = k ^ 0x5a5a;
  cl_mem ma = hg_test_env_buffer(&e, N * 4, ia), mb = hg_test_env_buffer(&e, N * 4, ib);
  CHECK(ma && mb);
  int ni = N;
  size_t ss[3] = {sizeof ma, sizeof mb, sizeof ni};
  const void *sv[3] = {&ma, &mb, &ni};
  CHECK_MSG(hg_test_env_run(&e, "strided", G, 64, 3, ss, sv) == CL_COMPLETE, "strided");
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, wa, N * 4) && hg_test_env_same_bytes(&e, mb, wb, N * 4), "strided results");

  /* whole-struct moves and fract's out-pointer */
  enum { R = 128 };
  typedef struct {
    cl_int a;
    cl_float b;
    cl_int c[6];
  } rec;
  rec *ri = malloc(R * sizeof *ri), *ro = malloc(R * sizeof *ro);
  float *fr = malloc(2 * R * 4), *fw = malloc(2 * R * 4);
  hg_test_fill_random(ri, R * sizeof *ri);
  for (int i = 0; i < R; i++) {
    ri[i].b = hg_test_randf(-100.0f, 100.0f);
    ro[i] = ri[i];
    ro[i].a += 1;
    float fl = floorf(ri[i].b), f = ri[i].b - fl;
    fw[2 * i] = f < 0x1.fffffep-1f ? f : 0x1.fffffep-1f;
    fw[2 * i + 1] = fl;
  }
  memset(fr, 0xCD, 2 * R * 4);
  cl_mem mri = hg_test_env_buffer(&e, R * sizeof *ri, ri), mro = hg_test_env_buffer(&e, R * sizeof *ri, NULL), mfr = hg_test_env_buffer(&e, 2 * R * 4, fr);
  CHECK(mri && mro && mfr);
  size_t rs[3] = {sizeof mri, sizeof mro, sizeof mfr};
  const void *rv[3] = {&mri, &mro, &mfr};
  CHECK_MSG(hg_test_env_run(&e, "records", R, 32, 3, rs, rv) == CL_COMPLETE, "records");
  CHECK_MSG(hg_test_env_same_bytes(&e, mro, ro, R * sizeof *ro), "records: struct copies");
  CHECK_MSG(hg_test_env_same_bytes(&e, mfr, fw, 2 * R * 4), "records: fract and its out-pointer");

  /* a sub-buffer and its parent in one launch */
  cl_uint align_bits = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  /* an origin that every backend's own alignment admits (NVIDIA's is 4096 bits, 4x the reported
   * one): at other multiples of the reported alignment a vendor backend passes the sub-buffer as
   * a copy (OpenCL leaves writing a buffer and its sub-buffer in one launch undefined), whose
   * address is not parent + origin */
  size_t origin = align_bits / 8 * 4, count = 64;
  int *pp = malloc(origin + count * 8), flags = 0;
  hg_test_fill_random(pp, origin + count * 8);
  cl_mem mp = hg_test_env_buffer(&e, origin + count * 8, pp), mf = hg_test_env_buffer(&e, sizeof flags, &flags);
  CHECK(mp && mf);
  cl_buffer_region reg = {origin, count * 4};
  cl_int err;
  cl_mem sub = clCreateSubBuffer(mp, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
  CHECK_CL(err);
  int oi = (int)(origin / 4);
  size_t ps[4] = {sizeof mp, sizeof sub, sizeof oi, sizeof mf};
  const void *pv[4] = {&mp, &sub, &oi, &mf};
  CHECK_MSG(hg_test_env_run(&e, "sub_and_parent", count, 32, 4, ps, pv) == CL_COMPLETE, "sub_and_parent");
  for (size_t i = 0; i < count; i++)
    pp[origin / 4 + i] += 1;
  flags = 1;
  CHECK_MSG(hg_test_env_same_bytes(&e, mp, pp, origin + count * 8), "sub_and_parent: the parent's bytes");
  CHECK_MSG(hg_test_env_same_bytes(&e, mf, &flags, sizeof flags), "sub_and_parent: parent + origin == sub");

  clReleaseMemObject(sub);
  clReleaseMemObject(mp);
  clReleaseMemObject(mf);
  clReleaseMemObject(mri);
  clReleaseMemObject(mro);
  clReleaseMemObject(mfr);
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mx);
  clReleaseMemObject(mw);
  clReleaseMemObject(my);
  clReleaseMemObject(mh);
  clReleaseMemObject(mv);
  free(pp);
  free(ri);
  free(ro);
  free(fr);
  free(fw);
  free(ia);
  free(ib);
  free(wa);
  free(wb);
  free(x);
  free(y);
  free(v4);
  free(want);
  hg_test_env_close(&e);
}
