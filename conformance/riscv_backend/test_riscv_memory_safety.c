/* Memory safety per buffer on the RISC-V backend (issue "Reliability" row 6): an access past
 * one argument buffer, sub-buffer, __local argument or static __local variable fails the
 * command's event, even where the bytes there belong to another buffer of the same launch
 * (which keeps its contents), and what OpenCL allows keeps working: a buffer passed twice
 * (one address per byte), a sub-buffer beside its parent, one-past-the-end pointers,
 * pointers chosen at run time or kept in private memory. The faulting cases run on RISC-V
 * only (a CPU device's process would crash); the others on any platform, which checks them. */
#include <stdlib.h>
#include <string.h>

#include "fault_env.h"

static const char *src =
    /* writes a[i] for every work-item: the range is larger than a */
    "__kernel void spill(__global int *a, __global int *b, int salt) {\n"
    "  size_t i = get_global_id(0); a[i] = (int)i * 3 + salt; }\n"
    /* reads past `in` (into whatever follows it) */
    "__kernel void peek(__global const int *in, __global int *out, int n) {\n"
    "  size_t i = get_global_id(0); out[i] = in[n + i]; }\n"
    /* __local argument: writes `over` ints past its end */
    "__kernel void local_spill(__global int *out, __local int *t, __local int *u, int n, int over) {\n"
    "  size_t l = get_local_id(0);\n"
    "  u[l] = (int)l; t[l] = (int)l * 2;\n"
    "  if (l < (size_t)over) t[n + l] = -1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t[l] + u[l]; }\n"
    /* __local argument: reads past its end */
    "__kernel void local_peek(__global int *out, __local int *t, int n) {\n"
    "  size_t l = get_local_id(0);\n"
    "  t[l] = (int)l; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t[n + l]; }\n"
    /* static __local variables: writes past the first one */
    "__kernel void static_spill(__global int *out, __local int *pad, int over) {\n"
    "  __local int s[64]; __local int r[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  s[l] = (int)l; r[l] = (int)l * 5; pad[l] = 0;\n"
    "  if (l < (size_t)over) s[64 + l] = -1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = s[l] + r[l] + pad[l]; }\n"
    /* what stays valid: one buffer twice (same addresses), one-past-the-end loop bounds, a
     * pointer picked at run time and one kept in a private array */
    "__kernel void twice(__global const int *in, __global int *out, int n, __global int *flags) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int v = in[i];\n"
    "  out[i] = v * 7 + 1;\n"
    "  if (i == 0) flags[0] = (in == (__global const int *)out) + 2 * ((out + n) - out == n); }\n"
    "__kernel void strided(__global int *a, __global int *b, int n) {\n"
    "  size_t s = get_global_size(0);\n"
    "  __global int *end = a + n;\n"
    "  __global int *keep[2] = {a, b};\n"
    "  for (__global int *p = a + get_global_id(0); p < end; p += s) {\n"
    "    size_t k = (size_t)(p - a);\n"
    "    __global int *q = keep[k & 1];\n"
    "    q[k] = (int)k ^ 0x5a5a; } }\n"
    /* a sub-buffer and its parent in one launch: one address per byte */
    "__kernel void sub_and_parent(__global int *parent, __global int *sub, int origin, __global int *flags) {\n"
    "  size_t i = get_global_id(0);\n"
    "  sub[i] = sub[i] + 1;\n"
    "  if (i == 0) flags[0] = (parent + origin == sub); }\n";

static bool on_riscv(void) {
  const char *be = getenv("HETGPU_BACKEND");
  return hg_test_is_hetgpu() && be && !strcmp(be, "riscv");
}

/* a[] of N ints, b[] right behind it (the allocator's next range): the work-items past a[]
 * would write b[]; the command fails and b keeps its bytes. */
HG_TEST(write_past_buffer_into_the_next_fails) {
  if (!on_riscv()) {
    hg_test_skip("out-of-bounds stores crash a CPU device's process; only the riscv backend contains them");
    return;
  }
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 4096 };
  int *b = malloc(N * 4), *a = malloc(N * 4);
  hg_test_fill_random(b, N * 4);
  hg_test_fill_random(a, N * 4);
  cl_mem ma = hg_test_env_buffer(&e, N * 4, a), mb = hg_test_env_buffer(&e, N * 4, b);
  CHECK(ma && mb);
  int salt = (int)(hg_test_rand() & 0xffff);
  size_t sizes[3] = {sizeof ma, sizeof mb, sizeof salt};
  const void *vals[3] = {&ma, &mb, &salt};
  cl_int st = hg_test_env_run(&e, "spill", N + 1024, 64, 3, sizes, vals); /* 1024 work-items, 16 groups, past a[] */
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes past a[] into b[]: event status %d, expected CL_OUT_OF_RESOURCES", st);
  CHECK_MSG(hg_test_env_same_bytes(&e, mb, b, N * 4), "b[] changed by writes past a[]");
  /* the same kernel inside a[] runs and writes what the host expects */
  st = hg_test_env_run(&e, "spill", N, 64, 3, sizes, vals);
  CHECK_MSG(st == CL_COMPLETE, "in bounds: status %d", st);
  for (int i = 0; i < N; i++)
    a[i] = i * 3 + salt;
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, a, N * 4), "a[] after an in-bounds launch");
  CHECK_MSG(hg_test_env_same_bytes(&e, mb, b, N * 4), "b[] after an in-bounds launch");
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  free(a);
  free(b);
  hg_test_env_close(&e);
}

/* Reading past in[] into out[] behind it (both arguments) fails too. */
HG_TEST(read_past_buffer_fails) {
  if (!on_riscv()) {
    hg_test_skip("only the riscv backend contains out-of-bounds accesses");
    return;
  }
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
  n = N;
  cl_int st = hg_test_env_run(&e, "peek", N, 64, 3, sizes, vals);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "reads past in[]: status %d, expected CL_OUT_OF_RESOURCES", st);
  clReleaseMemObject(mi);
  clReleaseMemObject(mo);
  free(in);
  free(out);
  hg_test_env_close(&e);
}

/* Two sub-buffers side by side in one buffer: writes past the first fail and the second
 * keeps its bytes (before, the whole parent was one range). */
HG_TEST(write_past_sub_buffer_fails) {
  if (!on_riscv()) {
    hg_test_skip("only the riscv backend contains out-of-bounds accesses");
    return;
  }
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  cl_uint align_bits = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t half = align_bits / 8 > 4096 ? align_bits / 8 : 4096; /* bytes of each sub-buffer */
  size_t n = half / 4;
  uint8_t *init = malloc(2 * half);
  hg_test_fill_random(init, 2 * half);
  cl_mem parent = hg_test_env_buffer(&e, 2 * half, init);
  CHECK(parent);
  cl_int err;
  cl_buffer_region r1 = {0, half}, r2 = {half, half};
  cl_mem s1 = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  CHECK_CL(err);
  cl_mem s2 = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  CHECK_CL(err);
  int salt = (int)(hg_test_rand() & 0xffff);
  size_t sizes[3] = {sizeof s1, sizeof s2, sizeof salt};
  const void *vals[3] = {&s1, &s2, &salt};
  cl_int st = hg_test_env_run(&e, "spill", n + 256, 64, 3, sizes, vals);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes past sub-buffer 1 into sub-buffer 2: status %d", st);
  CHECK_MSG(hg_test_env_same_bytes(&e, s2, init + half, half), "sub-buffer 2 changed by writes past sub-buffer 1");
  /* alone, too: past a sub-buffer is the rest of its parent */
  const void *vals1[3] = {&s1, &s1, &salt};
  st = hg_test_env_run(&e, "spill", n + 64, 64, 3, sizes, vals1);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes past a sub-buffer into its parent: status %d", st);
  CHECK_MSG(hg_test_env_same_bytes(&e, s2, init + half, half), "the parent's bytes past sub-buffer 1 changed");
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  clReleaseMemObject(parent);
  free(init);
  hg_test_env_close(&e);
}

/* __local arguments: writes or reads past one fail, also where the next __local argument or
 * the padding behind it would take them. */
HG_TEST(local_argument_out_of_bounds_fails) {
  if (!on_riscv()) {
    hg_test_skip("only the riscv backend contains out-of-bounds accesses");
    return;
  }
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { L = 64, G = 4 * L };
  cl_mem out = hg_test_env_buffer(&e, G * 4, NULL);
  CHECK(out);
  int n = L, over = 1 + (int)(hg_test_rand() % 8);
  size_t sizes[5] = {sizeof out, L * 4, L * 4, sizeof n, sizeof over};
  const void *vals[5] = {&out, NULL, NULL, &n, &over};
  cl_int st = hg_test_env_run(&e, "local_spill", G, L, 5, sizes, vals);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes of %d ints past a __local argument: status %d", over, st);
  /* a __local argument whose size is not a multiple of 16: its padding is out of bounds too */
  int n2 = L - 3, none = 0;
  size_t sizes2[5] = {sizeof out, (size_t)n2 * 4, L * 4, sizeof n2, sizeof none};
  const void *vals2[5] = {&out, NULL, NULL, &n2, &none};
  st = hg_test_env_run(&e, "local_spill", G, L, 5, sizes2, vals2);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes into the padding past a %d-byte __local argument: status %d", n2 * 4,
            st);
  size_t sizes3[3] = {sizeof out, L * 4, sizeof n};
  int half = L / 2;
  const void *vals3[3] = {&out, NULL, &half};
  st = hg_test_env_run(&e, "local_peek", G, L, 3, sizes3, vals3);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "reads past a __local argument: status %d", st);
  /* in bounds, the same kernel computes what the host does */
  const void *vals4[5] = {&out, NULL, NULL, &n, &none};
  st = hg_test_env_run(&e, "local_spill", G, L, 5, sizes, vals4);
  CHECK_MSG(st == CL_COMPLETE, "in bounds: status %d", st);
  int got[G];
  CHECK_CL(clEnqueueReadBuffer(e.q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (int i = 0; i < G; i++)
    CHECK_MSG(got[i] == (i % L) * 3, "out[%d] = %d", i, got[i]);
  clReleaseMemObject(out);
  hg_test_env_close(&e);
}

/* Static __local variables: writes past one fail (before, they landed in the next one). */
HG_TEST(static_local_out_of_bounds_fails) {
  if (!on_riscv()) {
    hg_test_skip("only the riscv backend contains out-of-bounds accesses");
    return;
  }
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { L = 64, G = 3 * L };
  int *init = malloc(G * 4);
  hg_test_fill_random(init, G * 4);
  cl_mem out = hg_test_env_buffer(&e, G * 4, init);
  CHECK(out);
  int over = 1 + (int)(hg_test_rand() % 4);
  size_t sizes[3] = {sizeof out, L * 4, sizeof over};
  const void *vals[3] = {&out, NULL, &over};
  cl_int st = hg_test_env_run(&e, "static_spill", G, L, 3, sizes, vals);
  CHECK_MSG(st == CL_OUT_OF_RESOURCES, "writes of %d ints past a static __local array: status %d", over, st);
  int none = 0;
  const void *vals2[3] = {&out, NULL, &none};
  st = hg_test_env_run(&e, "static_spill", G, L, 3, sizes, vals2);
  CHECK_MSG(st == CL_COMPLETE, "in bounds: status %d", st);
  for (int i = 0; i < G; i++)
    init[i] = (i % L) * 6;
  CHECK_MSG(hg_test_env_same_bytes(&e, out, init, G * 4), "static __local results");
  clReleaseMemObject(out);
  free(init);
  hg_test_env_close(&e);
}

/* What stays valid (any platform): a buffer passed twice, one-past-the-end bounds, pointers
 * chosen at run time and kept in private memory, a sub-buffer with its parent. */
HG_TEST(aliases_and_derived_pointers_keep_working) {
  hg_test_env e;
  CHECK(hg_test_env_open(&e, src));
  enum { N = 3000, G = 512 };
  int *io = malloc(N * 4), *want = malloc(N * 4), flags = -1;
  hg_test_fill_random(io, N * 4);
  for (int i = 0; i < N; i++)
    want[i] = (int)((unsigned)io[i] * 7u + 1u);
  cl_mem mio = hg_test_env_buffer(&e, N * 4, io), mf = hg_test_env_buffer(&e, 4, &flags);
  CHECK(mio && mf);
  int n = N;
  size_t s4[4] = {sizeof mio, sizeof mio, sizeof n, sizeof mf};
  CHECK_MSG(hg_test_env_run(&e, "twice", N, 8, 4, s4, (const void *const[]){&mio, &mio, &n, &mf}) == CL_COMPLETE,
            "one buffer as two arguments");
  CHECK_MSG(hg_test_env_same_bytes(&e, mio, want, N * 4), "in-place results");
  CHECK_CL(clEnqueueReadBuffer(e.q, mf, CL_TRUE, 0, 4, &flags, 0, NULL, NULL));
  CHECK_MSG(flags == 3, "in == out and (out + n) - out == n: flags %d, expected 3", flags);

  /* one-past-the-end loop bound, pointers picked from a private array */
  int *a0 = malloc(N * 4), *b0 = malloc(N * 4);
  hg_test_fill_random(a0, N * 4);
  hg_test_fill_random(b0, N * 4);
  cl_mem ma = hg_test_env_buffer(&e, N * 4, a0), mb = hg_test_env_buffer(&e, N * 4, b0);
  CHECK(ma && mb);
  size_t s3[3] = {sizeof ma, sizeof mb, sizeof n};
  CHECK_MSG(hg_test_env_run(&e, "strided", G, 64, 3, s3, (const void *const[]){&ma, &mb, &n}) == CL_COMPLETE, "strided");
  for (int k = 0; k < N; k++)
    (k & 1 ? b0 : a0)[k] = k ^ 0x5a5a;
  CHECK_MSG(hg_test_env_same_bytes(&e, ma, a0, N * 4), "strided: a[]");
  CHECK_MSG(hg_test_env_same_bytes(&e, mb, b0, N * 4), "strided: b[]");

  /* a sub-buffer with its parent */
  cl_uint align_bits = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t origin = align_bits / 8, count = 256;
  size_t total = origin + count * 4 + 1024;
  uint8_t *pinit = malloc(total);
  hg_test_fill_random(pinit, total);
  cl_mem parent = hg_test_env_buffer(&e, total, pinit);
  CHECK(parent);
  cl_int err;
  cl_buffer_region reg = {origin, count * 4};
  cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
  CHECK_CL(err);
  int oi = (int)(origin / 4);
  size_t s4b[4] = {sizeof parent, sizeof sub, sizeof oi, sizeof mf};
  CHECK_MSG(hg_test_env_run(&e, "sub_and_parent", count, 64, 4, s4b, (const void *const[]){&parent, &sub, &oi, &mf}) ==
                CL_COMPLETE,
            "sub-buffer with its parent");
  for (size_t i = 0; i < count; i++) {
    int v;
    memcpy(&v, pinit + origin + 4 * i, 4);
    v = (int)((unsigned)v + 1u);
    memcpy(pinit + origin + 4 * i, &v, 4);
  }
  CHECK_MSG(hg_test_env_same_bytes(&e, parent, pinit, total), "parent after the sub-buffer's update");
  CHECK_CL(clEnqueueReadBuffer(e.q, mf, CL_TRUE, 0, 4, &flags, 0, NULL, NULL));
  CHECK_MSG(flags == 1, "parent + origin == sub: %d", flags);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mio);
  clReleaseMemObject(mf);
  free(pinit);
  free(a0);
  free(b0);
  free(io);
  free(want);
  hg_test_env_close(&e);
}
