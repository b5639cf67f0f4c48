/* Area basic: kernels doing ordinary work over many work-items and groups: arithmetic on
 * several types, by-value arguments of every scalar type and a struct, __constant data,
 * private arrays and loops, 2D indexing. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

/* The area's kernels, one program (defined at the end, after their sources). */
static suite_batch *batch(void);

static const char SRC_vector_add_int_float[] =
    "__kernel void b_vector_add_int_float(__global const int *a, __global const float *b, __global float *o) {\n"
    "  size_t i = get_global_id(0);\n  o[i] = (float)a[i] * 0.5f + b[i];\n}\n";

SUITE_TEST(basic, vector_add_int_float) {
  size_t n = 4096;
  cl_kernel k = suite_batch_kernel(batch(), "b_vector_add_int_float");
  if (!k) return;
  int32_t *a = malloc(n * 4); float *b = malloc(n * 4), *o = malloc(n * 4);
  for (size_t i = 0; i < n; i++) a[i] = (int32_t)(suite_rand() % 20000) - 10000, b[i] = (float)suite_uniform(-1e3, 1e3);
  cl_mem ma = suite_buffer(n * 4, a), mb = suite_buffer(n * 4, b), mo = suite_buffer(n * 4, NULL);
  if (!suite_failed() && suite_args(k, 3, sizeof ma, &ma, sizeof mb, &mb, sizeof mo, &mo) && suite_run1(k, n, 128) && suite_read(mo, o, n * 4))
    for (size_t i = 0; i < n; i++)
      if (o[i] != (float)a[i] * 0.5f + b[i]) { suite_fail("item %zu: %g", i, o[i]); break; }
  free(a), free(b), free(o);
  clReleaseMemObject(ma), clReleaseMemObject(mb), clReleaseMemObject(mo), clReleaseKernel(k);
}

/* __local pointer arguments start at the alignment of the type they point to (OpenCL C: a
 * pointer is aligned to its type; the CTS's kernel_memory_alignment_local checks the addresses),
 * whatever the sizes before them; each buffer is also used, through a barrier, by the group. */
static const char SRC_local_argument_alignment[] =
    "__kernel void b_local_argument_alignment(__local char *c, __local char2 *c2, __local short3 *s3, __local char *c1,\n"
    "                __local int4 *i4, __local char *c1b, __local float8 *f8, __local char *c1c, __local long16 *l16,\n"
    "                __global ulong *addr, __global int *o) {\n"
    "  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);\n"
    "  if (l == 0) {\n"
    "    addr[8 * g] = (ulong)c2; addr[8 * g + 1] = (ulong)s3; addr[8 * g + 2] = (ulong)i4; addr[8 * g + 3] = (ulong)f8;\n"
    "    addr[8 * g + 4] = (ulong)l16; addr[8 * g + 5] = (ulong)c; addr[8 * g + 6] = (ulong)c1; addr[8 * g + 7] = (ulong)c1b;\n"
    "  }\n"
    "  i4[l] = (int4)((int)(g * n + l));\n  l16[l] = (long16)((long)l);\n  c1c[l] = (char)l;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  size_t p = n - 1 - l;\n"
    "  o[g * n + l] = i4[p].w + (int)l16[p].sf + c1c[p];\n}\n";

SUITE_TEST(basic, local_argument_alignment) {
  size_t n = 64, groups = 8, total = n * groups;
  cl_kernel k = suite_batch_kernel(batch(), "b_local_argument_alignment");
  if (!k) return;
  uint64_t *addr = malloc(groups * 64);
  int32_t *o = malloc(total * 4);
  cl_mem ma = suite_buffer(groups * 64, NULL), mo = suite_buffer(total * 4, NULL);
  /* odd sizes before each wider buffer, so that only the argument's own alignment aligns it */
  size_t sizes[9] = {3, 2 * 5, 8 * 3, 1, 16 * n, 7, 32 * 2, n, 128 * n};
  bool ok = !suite_failed();
  for (cl_uint i = 0; i < 9 && ok; i++) ok = clSetKernelArg(k, i, sizes[i], NULL) == CL_SUCCESS;
  if (!ok) suite_fail("clSetKernelArg of a __local argument failed");
  if (ok && clSetKernelArg(k, 9, sizeof ma, &ma) == CL_SUCCESS && clSetKernelArg(k, 10, sizeof mo, &mo) == CL_SUCCESS &&
      suite_run1(k, total, n) && suite_read(ma, addr, groups * 64) && suite_read(mo, o, total * 4)) {
    static const char *const what[] = {"char2", "short3", "int4", "float8", "long16"};
    static const uint64_t align[] = {2, 8, 16, 32, 128};
    for (size_t g = 0; g < groups && !suite_failed(); g++)
      for (int a = 0; a < 5; a++)
        if (addr[8 * g + a] % align[a]) suite_fail("group %zu: the __local %s * argument is at 0x%llx", g, what[a], (unsigned long long)addr[8 * g + a]);
    for (size_t i = 0; i < total && !suite_failed(); i++) {
      size_t g = i / n, p = n - 1 - i % n;
      int32_t want = (int32_t)(g * n + p) + (int32_t)p + (int8_t)p;
      if (o[i] != want) suite_fail("item %zu: %d, expected %d", i, o[i], want);
    }
  }
  free(addr), free(o);
  if (ma) clReleaseMemObject(ma);
  if (mo) clReleaseMemObject(mo);
  clReleaseKernel(k);
}

static const char SRC_scalar_and_struct_arguments[] =
    "typedef struct { int i; float f; long l; char c; } S;\n"
    "__constant int table[4] = {10, 20, 30, 40};\n"
    "__kernel void b_scalar_and_struct_arguments(char c, uchar uc, short s, ushort us, int i, uint u, long l, ulong ul, float f, S st,\n"
    "                __constant int *cbuf, __global long *o) {\n"
    "  size_t g = get_global_id(0);\n"
    "  o[g] = c + uc + s + us + i + (long)u + l + (long)(ul >> 8) + (long)f + st.i + (long)st.f + st.l + st.c\n"
    "         + table[g % 4] + cbuf[g % 16] + (long)g;\n}\n";

SUITE_TEST(basic, scalar_and_struct_arguments) {
  struct { int32_t i; float f; int64_t l; int8_t c; } st = {(int32_t)(suite_rand() % 1000), 2.5f, (int64_t)suite_rand(), 3};
  int8_t c = -5; uint8_t uc = 200; int16_t s = -300; uint16_t us = 60000; int32_t i = -70000; uint32_t u = 4000000000u;
  int64_t l = -(int64_t)suite_rand64() / 4; uint64_t ul = suite_rand64(); float f = 123.75f;
  int32_t cb[16];
  for (int j = 0; j < 16; j++) cb[j] = (int32_t)(suite_rand() % 1000);
  size_t n = 256;
  int64_t *o = malloc(n * 8);
  cl_kernel k = suite_batch_kernel(batch(), "b_scalar_and_struct_arguments");
  if (!k) return;
  cl_mem mc = suite_buffer(sizeof cb, cb), mo = suite_buffer(n * 8, NULL);
  if (!suite_failed() && suite_args(k, 12, 1, &c, 1, &uc, 2, &s, 2, &us, 4, &i, 4, &u, 8, &l, 8, &ul, 4, &f, sizeof st, &st, sizeof mc, &mc, sizeof mo, &mo) &&
      suite_run1(k, n, 64) && suite_read(mo, o, n * 8))
    for (size_t g = 0; g < n; g++) {
      int64_t want = c + uc + s + us + i + (int64_t)u + l + (int64_t)(ul >> 8) + (int64_t)f + st.i + (int64_t)st.f + st.l + st.c +
                     (int64_t)(10 * (g % 4 + 1)) + cb[g % 16] + (int64_t)g;
      if (o[g] != want) { suite_fail("item %zu: %lld, expected %lld", g, (long long)o[g], (long long)want); break; }
    }
  free(o);
  clReleaseMemObject(mc), clReleaseMemObject(mo), clReleaseKernel(k);
}

static int collatz(uint32_t v) { int s = 0; uint64_t x = v; while (x != 1 && s < 1000) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; } return s; }

static const char SRC_loops_private_arrays[] =
    "__kernel void b_loops_private_arrays(__global const uint *a, __global int *o) {\n"
    "  size_t g = get_global_id(0);\n  ulong x = a[g]; int s = 0;\n"
    "  while (x != 1 && s < 1000) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; }\n"
    "  int p[8]; for (int j = 0; j < 8; j++) p[j] = s * j; int acc = 0; for (int j = 7; j >= 0; j -= 2) acc += p[j];\n"
    "  o[g] = acc;\n}\n";

SUITE_TEST(basic, loops_private_arrays) {
  size_t n = 2048;
  uint32_t *a = malloc(n * 4); int32_t *o = malloc(n * 4);
  for (size_t j = 0; j < n; j++) a[j] = 1 + suite_rand() % 1000000;
  cl_kernel k = suite_batch_kernel(batch(), "b_loops_private_arrays");
  if (!k) return;
  cl_mem ma = suite_buffer(n * 4, a), mo = suite_buffer(n * 4, NULL);
  if (!suite_failed() && suite_args(k, 2, sizeof ma, &ma, sizeof mo, &mo) && suite_run1(k, n, 32) && suite_read(mo, o, n * 4))
    for (size_t j = 0; j < n; j++)
      if (o[j] != collatz(a[j]) * 16) { suite_fail("item %zu: %d, expected %d", j, o[j], collatz(a[j]) * 16); break; }
  free(a), free(o);
  clReleaseMemObject(ma), clReleaseMemObject(mo), clReleaseKernel(k);
}

/* Private arrays cleared or filled whole (memsets after clang, each back end's own expansion),
 * then updated at data-dependent places, and a global fill per work-item. */
static const char SRC_private_array_fills[] =
    "__kernel void b_private_array_fills(__global const uint *a, __global uint *o, __global uchar *g, uchar fill) {\n"
    "  size_t i = get_global_id(0); uint x = a[i];\n"
    "  uint w[256] = {0}; uchar b[200]; ushort s[130];\n"
    "  for (int j = 0; j < 200; j++) b[j] = fill;\n"
    "  for (int j = 0; j < 130; j++) s[j] = 0x5c5c;\n"
    "  for (int j = 0; j < 160; j++) g[i * 160 + j] = fill;\n"
    "  w[x & 255] += (uint)i; w[(x >> 8) & 255] ^= 7u; b[x % 200] += 1; s[(x >> 16) % 130] = 3;\n"
    "  uint acc = 0; for (int j = 0; j < 256; j++) acc += w[j] * (uint)(j + 1);\n"
    "  for (int j = 0; j < 200; j++) acc += b[j] * (uint)(j + 3);\n"
    "  for (int j = 0; j < 130; j++) acc += s[j] * (uint)(j + 5);\n"
    "  o[i] = acc;\n}\n";

static uint32_t private_array_fills_ref(uint32_t x, uint32_t i, uint8_t fill) {
  uint32_t w[256] = {0}, acc = 0;
  uint8_t b[200];
  uint16_t s[130];
  memset(b, fill, sizeof b);
  for (int j = 0; j < 130; j++) s[j] = 0x5c5c;
  w[x & 255] += i, w[(x >> 8) & 255] ^= 7u, b[x % 200] += 1, s[(x >> 16) % 130] = 3;
  for (int j = 0; j < 256; j++) acc += w[j] * (uint32_t)(j + 1);
  for (int j = 0; j < 200; j++) acc += b[j] * (uint32_t)(j + 3);
  for (int j = 0; j < 130; j++) acc += s[j] * (uint32_t)(j + 5);
  return acc;
}

SUITE_TEST(basic, private_array_fills) {
  size_t n = 1024;
  uint32_t *a = malloc(n * 4), *o = malloc(n * 4);
  uint8_t *g = malloc(n * 160), fill = (uint8_t)(suite_rand() % 0xA5); /* not the poison */
  for (size_t j = 0; j < n; j++) a[j] = suite_rand();
  cl_kernel k = suite_batch_kernel(batch(), "b_private_array_fills");
  if (!k) return;
  cl_mem ma = suite_buffer(n * 4, a), mo = suite_buffer(n * 4, NULL), mg = suite_buffer(n * 160, NULL);
  if (!suite_failed() && suite_args(k, 4, sizeof ma, &ma, sizeof mo, &mo, sizeof mg, &mg, sizeof fill, &fill) &&
      suite_run1(k, n, 64) && suite_read(mo, o, n * 4) && suite_read(mg, g, n * 160)) {
    for (size_t j = 0; j < n; j++)
      if (o[j] != private_array_fills_ref(a[j], (uint32_t)j, fill)) {
        suite_fail("item %zu: %u, expected %u", j, o[j], private_array_fills_ref(a[j], (uint32_t)j, fill));
        break;
      }
    for (size_t j = 0; j < n * 160; j++)
      if (g[j] != fill) { suite_fail("fill byte %zu: %u, expected %u", j, g[j], fill); break; }
  }
  free(a), free(o), free(g);
  clReleaseMemObject(ma), clReleaseMemObject(mo), clReleaseMemObject(mg), clReleaseKernel(k);
}

static const char SRC_transpose_2d[] =
    "__kernel void b_transpose_2d(__global const float *a, __global float *o) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0), h = get_global_size(1);\n"
    "  o[x * h + y] = a[y * w + x];\n}\n";

SUITE_TEST(basic, transpose_2d) {
  size_t gl[2] = {96, 40}, lo[2] = {16, 8}, n = 96 * 40;
  float *a = malloc(n * 4), *o = malloc(n * 4);
  for (size_t j = 0; j < n; j++) a[j] = (float)suite_uniform(-1, 1);
  cl_kernel k = suite_batch_kernel(batch(), "b_transpose_2d");
  if (!k) return;
  cl_mem ma = suite_buffer(n * 4, a), mo = suite_buffer(n * 4, NULL);
  if (!suite_failed() && suite_args(k, 2, sizeof ma, &ma, sizeof mo, &mo) && suite_run(k, 2, gl, lo) && suite_read(mo, o, n * 4))
    for (size_t y = 0; y < 40; y++)
      for (size_t x = 0; x < 96; x++)
        if (o[x * 40 + y] != a[y * 96 + x]) { suite_fail("(%zu, %zu) wrong", x, y); y = 40; break; }
  free(a), free(o);
  clReleaseMemObject(ma), clReleaseMemObject(mo), clReleaseKernel(k);
}

/* The area's kernels, one program. */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("", "");
  suite_batch_add(b, "b_vector_add_int_float", "%s", SRC_vector_add_int_float);
  suite_batch_add(b, "b_local_argument_alignment", "%s", SRC_local_argument_alignment);
  suite_batch_add(b, "b_scalar_and_struct_arguments", "%s", SRC_scalar_and_struct_arguments);
  suite_batch_add(b, "b_loops_private_arrays", "%s", SRC_loops_private_arrays);
  suite_batch_add(b, "b_transpose_2d", "%s", SRC_transpose_2d);
  suite_batch_add(b, "b_private_array_fills", "%s", SRC_private_array_fills);
  return b;
}
