/* Vectors of lane counts OpenCL C has no type for, which clang -O2 forms from code using only
 * its types (issue 13: hashcat with vector width 16 failed on '<128 x i8>'): bytes taken from
 * the lanes of a ulong16 become a load of <128 x i8> and a shufflevector of it; a uchar or
 * ushort cast of one lane an extractelement of the vector bitcast to <128 x i8> or <32 x i16>.
 * Checked with clang-15 -O2 -emit-llvm: each kernel below holds such a type. clang's vector
 * extension (ext_vector_type(32), (5)) reaches the rest: a wide value carried around a loop
 * (phi), lanes read and written at run-time indexes, constants. Random inputs, 16 work-groups,
 * results against the same operations on the host. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define N 1024 /* work-items */
#define WG 64

static const char *const k_source =
    /* load <128 x i8>, shufflevector to <16 x i8> */
    "__kernel void low_bytes(__global const ulong16 *in, __global uchar16 *out) {\n"
    "  size_t id = get_global_id(0);\n"
    "  ulong16 v = in[id];\n"
    "  out[id] = (uchar16)((uchar)v.s0, (uchar)v.s1, (uchar)v.s2, (uchar)v.s3, (uchar)v.s4, (uchar)v.s5,\n"
    "                      (uchar)v.s6, (uchar)v.s7, (uchar)v.s8, (uchar)v.s9, (uchar)v.sa, (uchar)v.sb,\n"
    "                      (uchar)v.sc, (uchar)v.sd, (uchar)v.se, (uchar)v.sf);\n"
    "}\n"
    /* bitcast <16 x i64> to <128 x i8> and <16 x i32> to <32 x i16>, extractelement */
    "__kernel void lane_parts(__global const ulong16 *in, __global const uint16 *in2, __global ulong16 *out,\n"
    "                         __global ushort *out2) {\n"
    "  size_t id = get_global_id(0);\n"
    "  ulong16 v = in[id];\n"
    "  v.s3 = (v.s3 & ~0xffUL) | (uchar)v.s9;\n"
    "  v.s7 ^= (uchar)v.sa;\n"
    "  out[id] = v;\n"
    "  uint16 w = in2[id];\n"
    "  out2[id * 2] = (ushort)w.s5;\n"
    "  out2[id * 2 + 1] = (ushort)w.sc;\n"
    "}\n"
    "typedef uchar uchar32 __attribute__((ext_vector_type(32)));\n"
    "typedef float float5 __attribute__((ext_vector_type(5)));\n"
    "__kernel void ext_lanes(__global const uchar *in, __global uchar *out, __global const uint *idx,\n"
    "                        __global float *fout) {\n"
    "  size_t id = get_global_id(0);\n"
    "  uchar32 v;\n"
    "  for (int i = 0; i < 32; i++) v[i] = in[id * 32 + i];\n"
    "  uint n = idx[id];\n"
    "  for (uint r = 0; r < (n & 7); r++) v[(n + r) & 31] = v[(n >> 5) & 31] + (uchar)r;\n"
    "  for (int i = 0; i < 32; i++) out[id * 32 + i] = v[i];\n"
    "  float5 f = (float5)(1.0f, 2.0f, 3.0f, 4.0f, (float)(n & 255));\n"
    "  f[n % 5] += 0.5f;\n"
    "  fout[id] = f[0] + f[1] * 10.0f + f[2] * 100.0f + f[3] * 1000.0f + f[4] * 10000.0f;\n"
    "}\n";

/* One test's context, queue, program and buffers. */
typedef struct fixture {
  cl_context ctx;
  cl_command_queue q;
  cl_program p;
  cl_mem mems[8];
  unsigned num_mems;
} fixture;

static bool fixture_open(fixture *f) {
  memset(f, 0, sizeof *f);
  f->ctx = hg_test_context();
  f->q = f->ctx ? hg_test_queue(f->ctx, 0) : NULL;
  f->p = f->q ? hg_test_build(f->ctx, k_source, "") : NULL;
  return f->p != NULL;
}

/* A buffer holding init (outputs: poisoned by the caller), released with the fixture. */
static cl_mem fixture_buffer(fixture *f, size_t bytes, const void *init) {
  cl_int e;
  cl_mem m = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)init, &e);
  if (m && f->num_mems < sizeof f->mems / sizeof *f->mems) f->mems[f->num_mems++] = m;
  return m;
}

static void fixture_close(fixture *f) {
  for (unsigned i = 0; i < f->num_mems; i++) clReleaseMemObject(f->mems[i]);
  if (f->p) clReleaseProgram(f->p);
  if (f->q) clReleaseCommandQueue(f->q);
  if (f->ctx) clReleaseContext(f->ctx);
}

/* Runs kernel kname over N work-items with the buffers as its arguments, in order. */
static bool run(fixture *f, const char *kname, cl_mem *args, unsigned nargs) {
  cl_int e;
  cl_kernel k = clCreateKernel(f->p, kname, &e);
  for (unsigned i = 0; k && i < nargs && e == CL_SUCCESS; i++) e = clSetKernelArg(k, i, sizeof args[i], &args[i]);
  size_t g = N, l = WG;
  if (k && e == CL_SUCCESS) e = clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &l, 0, NULL, NULL);
  if (k && e == CL_SUCCESS) e = clFinish(f->q);
  if (k) clReleaseKernel(k);
  if (e != CL_SUCCESS) hg_test_fail(__FILE__, __LINE__, "running %s: %d", kname, e);
  return e == CL_SUCCESS;
}

static bool read_back(fixture *f, cl_mem m, void *dst, size_t bytes) {
  memset(dst, 0xA5, bytes);
  return clEnqueueReadBuffer(f->q, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL) == CL_SUCCESS;
}

HG_TEST(wide_vectors_from_ulong16_and_uint16) {
  static cl_ulong in[N * 16], out[N * 16];
  static cl_uint in2[N * 16];
  static cl_uchar bytes[N * 16];
  static cl_ushort halves[N * 2];
  hg_test_fill_random(in, sizeof in);
  hg_test_fill_random(in2, sizeof in2);
  memset(out, 0xA5, sizeof out);
  memset(bytes, 0xA5, sizeof bytes);
  memset(halves, 0xA5, sizeof halves);
  fixture f;
  bool ok = fixture_open(&f);
  cl_mem m_in = ok ? fixture_buffer(&f, sizeof in, in) : NULL;
  cl_mem m_in2 = ok ? fixture_buffer(&f, sizeof in2, in2) : NULL;
  cl_mem m_bytes = ok ? fixture_buffer(&f, sizeof bytes, bytes) : NULL;
  cl_mem m_out = ok ? fixture_buffer(&f, sizeof out, out) : NULL;
  cl_mem m_halves = ok ? fixture_buffer(&f, sizeof halves, halves) : NULL;
  ok = ok && m_in && m_in2 && m_bytes && m_out && m_halves && run(&f, "low_bytes", (cl_mem[]){m_in, m_bytes}, 2) &&
       run(&f, "lane_parts", (cl_mem[]){m_in, m_in2, m_out, m_halves}, 4) &&
       read_back(&f, m_bytes, bytes, sizeof bytes) && read_back(&f, m_out, out, sizeof out) &&
       read_back(&f, m_halves, halves, sizeof halves);
  fixture_close(&f);
  CHECK(ok);
  for (unsigned id = 0; id < N; id++) {
    const cl_ulong *v = in + id * 16;
    for (unsigned l = 0; l < 16; l++)
      CHECK_MSG(bytes[id * 16 + l] == (cl_uchar)v[l], "low_bytes: item %u lane %u: 0x%02x, expected 0x%02x", id, l,
                bytes[id * 16 + l], (cl_uchar)v[l]);
    cl_ulong want[16];
    memcpy(want, v, sizeof want);
    want[3] = (want[3] & ~0xffull) | (cl_uchar)want[9];
    want[7] ^= (cl_uchar)want[10];
    for (unsigned l = 0; l < 16; l++)
      CHECK_MSG(out[id * 16 + l] == want[l], "lane_parts: item %u lane %u: 0x%016llx, expected 0x%016llx", id, l,
                (unsigned long long)out[id * 16 + l], (unsigned long long)want[l]);
    const cl_uint *w = in2 + id * 16;
    CHECK_MSG(halves[id * 2] == (cl_ushort)w[5] && halves[id * 2 + 1] == (cl_ushort)w[12],
              "lane_parts: item %u: ushorts 0x%04x 0x%04x, expected 0x%04x 0x%04x", id, halves[id * 2],
              halves[id * 2 + 1], (cl_ushort)w[5], (cl_ushort)w[12]);
  }
}

HG_TEST(wide_vectors_of_the_vector_extension) {
  static cl_uchar in[N * 32], out[N * 32];
  static cl_uint idx[N];
  static cl_float fout[N];
  hg_test_fill_random(in, sizeof in);
  hg_test_fill_random(idx, sizeof idx);
  memset(out, 0xA5, sizeof out);
  memset(fout, 0xA5, sizeof fout);
  fixture f;
  bool ok = fixture_open(&f);
  cl_mem m_in = ok ? fixture_buffer(&f, sizeof in, in) : NULL;
  cl_mem m_out = ok ? fixture_buffer(&f, sizeof out, out) : NULL;
  cl_mem m_idx = ok ? fixture_buffer(&f, sizeof idx, idx) : NULL;
  cl_mem m_f = ok ? fixture_buffer(&f, sizeof fout, fout) : NULL;
  ok = ok && m_in && m_out && m_idx && m_f && run(&f, "ext_lanes", (cl_mem[]){m_in, m_out, m_idx, m_f}, 4) &&
       read_back(&f, m_out, out, sizeof out) && read_back(&f, m_f, fout, sizeof fout);
  fixture_close(&f);
  CHECK(ok);
  for (unsigned id = 0; id < N; id++) {
    cl_uchar v[32];
    memcpy(v, in + id * 32, 32);
    cl_uint n = idx[id];
    for (cl_uint r = 0; r < (n & 7); r++) v[(n + r) & 31] = (cl_uchar)(v[(n >> 5) & 31] + r);
    CHECK_MSG(!memcmp(out + id * 32, v, 32), "ext_lanes: item %u (index word 0x%08x): bytes differ", id, n);
    float fl[5] = {1.0f, 2.0f, 3.0f, 4.0f, (float)(n & 255)};
    fl[n % 5] += 0.5f;
    float want = fl[0] + fl[1] * 10.0f + fl[2] * 100.0f + fl[3] * 1000.0f + fl[4] * 10000.0f;
    CHECK_MSG(fout[id] == want, "ext_lanes: item %u: %.9g, expected %.9g", id, fout[id], want);
  }
}
