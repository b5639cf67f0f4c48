/* Variable-length memmove (issue 13): byte-shifting loops as a rule engine writes them (hashcat
 * deletes or inserts a byte and moves the rest), which clang -O2 turns into llvm.memmove with a
 * run-time length, one moving down (destination below the source) and one moving up, in
 * __global, __private and __local memory. Every work-item shifts its own 64-byte row at a random
 * position by a random length; the rows are compared with the same loops run on the host. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define N 1024  /* work-items, one row each */
#define WG 64   /* 16 work-groups */
#define ROW 64  /* bytes a row; position and length < 32, so a shift stays inside its row */

/* Checked with clang-15 -O2 -emit-llvm: each helper becomes llvm.memmove.p1.p1 / p0.p0 / p3.p3
 * (the int loop moves down, the long loop moves up) and is inlined into its kernel. */
static const char *const k_source =
    "static void del_g(__global uchar *b, int n) { for (int i = 0; i < n; i++) b[i] = b[i + 1]; }\n"
    "static void ins_g(__global uchar *b, long n) { for (long i = n; i > 0; i--) b[i] = b[i - 1]; }\n"
    "static void del_p(__private uchar *b, int n) { for (int i = 0; i < n; i++) b[i] = b[i + 1]; }\n"
    "static void ins_p(__private uchar *b, long n) { for (long i = n; i > 0; i--) b[i] = b[i - 1]; }\n"
    "static void del_l(__local uchar *b, int n) { for (int i = 0; i < n; i++) b[i] = b[i + 1]; }\n"
    "static void ins_l(__local uchar *b, long n) { for (long i = n; i > 0; i--) b[i] = b[i - 1]; }\n"
    "#define ROW 64\n"
    "__kernel void shift_global(__global uchar *buf, __global const uint *pos, __global const uint *len,\n"
    "                           __local uchar *unused) {\n"
    "  size_t id = get_global_id(0);\n"
    "  __global uchar *b = buf + id * ROW + pos[id];\n"
    "  if (id & 1) del_g(b, len[id]); else ins_g(b, len[id]);\n"
    "}\n"
    "__kernel void shift_private(__global uchar *buf, __global const uint *pos, __global const uint *len,\n"
    "                            __local uchar *unused) {\n"
    "  size_t id = get_global_id(0);\n"
    "  uchar p[ROW];\n"
    "  for (int i = 0; i < ROW; i++) p[i] = buf[id * ROW + i];\n"
    "  if (id & 1) del_p(p + pos[id], len[id]); else ins_p(p + pos[id], len[id]);\n"
    "  for (int i = 0; i < ROW; i++) buf[id * ROW + i] = p[i];\n"
    "}\n"
    "__kernel void shift_local(__global uchar *buf, __global const uint *pos, __global const uint *len,\n"
    "                          __local uchar *lm) {\n"
    "  size_t id = get_global_id(0);\n"
    "  __local uchar *p = lm + get_local_id(0) * ROW;\n"
    "  for (int i = 0; i < ROW; i++) p[i] = buf[id * ROW + i];\n"
    "  if (id & 1) del_l(p + pos[id], len[id]); else ins_l(p + pos[id], len[id]);\n"
    "  for (int i = 0; i < ROW; i++) buf[id * ROW + i] = p[i];\n"
    "}\n";

/* The host's shift of one row: the kernels' loops, byte by byte. */
static void shift_row(unsigned char *row, unsigned id, unsigned pos, unsigned len) {
  unsigned char *b = row + pos;
  if (id & 1) {
    for (unsigned i = 0; i < len; i++) b[i] = b[i + 1];
  } else {
    for (unsigned i = len; i > 0; i--) b[i] = b[i - 1];
  }
}

static void check_kernel(const char *kname) {
  static unsigned char rows[N * ROW], want[N * ROW], got[N * ROW];
  static cl_uint pos[N], len[N];
  hg_test_fill_random(rows, sizeof rows);
  for (unsigned i = 0; i < N; i++) {
    /* every fourth row: the edge lengths 0 and 1 and the longest shift */
    pos[i] = hg_test_rand() % 32;
    len[i] = i % 4 == 0 ? (i / 4) % 3 == 2 ? 31 : (i / 4) % 3 : hg_test_rand() % 32;
  }
  memcpy(want, rows, sizeof want);
  for (unsigned i = 0; i < N; i++) shift_row(want + (size_t)i * ROW, i, pos[i], len[i]);

  cl_context ctx = hg_test_context();
  cl_command_queue q = ctx ? hg_test_queue(ctx, 0) : NULL;
  cl_program p = q ? hg_test_build(ctx, k_source, "") : NULL;
  CHECK(p);
  cl_int e;
  cl_mem b_rows = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof rows, rows, &e);
  cl_mem b_pos = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof pos, pos, &e);
  cl_mem b_len = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof len, len, &e);
  cl_kernel k = clCreateKernel(p, kname, &e);
  CHECK_MSG(k, "clCreateKernel(%s): %d", kname, e);
  CHECK_CL(clSetKernelArg(k, 0, sizeof b_rows, &b_rows));
  CHECK_CL(clSetKernelArg(k, 1, sizeof b_pos, &b_pos));
  CHECK_CL(clSetKernelArg(k, 2, sizeof b_len, &b_len));
  CHECK_CL(clSetKernelArg(k, 3, WG * ROW, NULL));
  size_t g = N, l = WG;
  memset(got, 0xA5, sizeof got);
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, b_rows, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (unsigned i = 0; i < N; i++)
    for (unsigned j = 0; j < ROW; j++) {
      size_t at = (size_t)i * ROW + j;
      CHECK_MSG(got[at] == want[at], "%s: row %u (%s at %u, length %u), byte %u: 0x%02x, expected 0x%02x", kname, i,
                i & 1 ? "delete" : "insert", pos[i], len[i], j, got[at], want[at]);
    }
  clReleaseKernel(k);
  clReleaseMemObject(b_rows);
  clReleaseMemObject(b_pos);
  clReleaseMemObject(b_len);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(memmove_global) { check_kernel("shift_global"); }
HG_TEST(memmove_private) { check_kernel("shift_private"); }
HG_TEST(memmove_local) { check_kernel("shift_local"); }
