/* Area buffers: read, write, copy, fill, map and the rectangular transfers with random data,
 * random offsets and sizes, checked against a host model of the buffer's bytes; sub-buffers,
 * host-pointer flags and migration, with kernels reading and writing what the transfers left.
 * (The error codes of each call are the platform team's tests in conformance/buffers.) */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

/* The area's kernels, one program. buf_scale: x[i] = x[i] * k + i (k odd: a bijection, so a
 * misplaced byte shows). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new("", "");
  suite_batch_add(b, "buf_scale", "__kernel void buf_scale(__global uint *x, uint k) {\n"
                                  "  size_t i = get_global_id(0);\n  x[i] = x[i] * k + (uint)i;\n}\n");
  suite_batch_add(b, "buf_add", "__kernel void buf_add(__global const uint *a, __global const uint *b, __global uint *o) {\n"
                                "  size_t i = get_global_id(0);\n  o[i] = a[i] + b[i];\n}\n");
  suite_batch_add(b, "buf_bytes", "__kernel void buf_bytes(__global uchar *x) {\n"
                                  "  size_t i = get_global_id(0);\n  x[i] = (uchar)(x[i] ^ (uchar)(i * 7u));\n}\n");
  /* each group reverses its words through local memory; o may be the same buffer as a */
  suite_batch_add(b, "buf_reverse_groups",
                  "__kernel void buf_reverse_groups(__global const uint *a, __global uint *o, __local uint *t, uint k) {\n"
                  "  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0) * n;\n"
                  "  t[l] = a[g + l];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  o[g + l] = t[n - 1 - l] * k + (uint)get_global_id(0);\n}\n");
  return b;
}
static cl_kernel kernel(const char *name) { return suite_batch_kernel(batch(), name); }

static size_t rnd(size_t n) { return n ? (size_t)(suite_rand64() % n) : 0; }

static bool same(const unsigned char *got, const unsigned char *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      suite_fail("%s: byte %zu is 0x%02x, expected 0x%02x", what, i, got[i], want[i]);
      return false;
    }
  return true;
}

/* Runs buf_scale over a buffer of n words and applies the same to the host model. */
static bool scale(cl_mem m, uint32_t *model, size_t n, uint32_t k) {
  cl_kernel kr = kernel("buf_scale");
  bool ok = kr && suite_args(kr, 2, sizeof m, &m, sizeof k, &k) && suite_run1(kr, n, 0);
  if (kr)
    clReleaseKernel(kr);
  for (size_t i = 0; ok && i < n; i++)
    model[i] = model[i] * k + (uint32_t)i;
  return ok;
}

/* Many partial writes (blocking and not) at random offsets, then partial reads. */
SUITE_TEST(buffers, write_read_random_regions) {
  size_t n = 1 << 20;
  unsigned char *model = malloc(n), *chunk = malloc(n), *back = malloc(n);
  suite_fill(model, n);
  cl_mem m = suite_buffer(n, model);
  for (int r = 0; m && r < 64 && !suite_failed(); r++) {
    size_t off = rnd(n), len = 1 + rnd(n - off);
    if (r % 3 == 0)
      len = 1 + rnd(64 < n - off ? 64 : n - off); /* small, odd sizes too */
    suite_fill(chunk, len);
    cl_int err = clEnqueueWriteBuffer(S.q, m, (r & 1) ? CL_TRUE : CL_FALSE, off, len, chunk, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      suite_fail("clEnqueueWriteBuffer(%zu, %zu): %d", off, len, err);
      break;
    }
    if (!(r & 1))
      clFinish(S.q); /* the source stays valid until the write is done */
    memcpy(model + off, chunk, len);
    size_t roff = rnd(n), rlen = 1 + rnd(n - roff);
    CL_OK(clEnqueueReadBuffer(S.q, m, CL_TRUE, roff, rlen, back, 0, NULL, NULL));
    if (!same(back, model + roff, rlen, "partial read after partial writes"))
      break;
  }
  if (!suite_failed() && suite_read(m, back, n))
    same(back, model, n, "whole buffer");
  free(model), free(chunk), free(back);
  if (m) clReleaseMemObject(m);
}

/* Copies between buffers and within one buffer (disjoint regions), then a kernel over the result. */
SUITE_TEST(buffers, copy_random_regions) {
  size_t n = 256 * 1024, words = n / 4;
  unsigned char *ma = malloc(n), *mb = malloc(n), *back = malloc(n);
  suite_fill(ma, n), suite_fill(mb, n);
  cl_mem a = suite_buffer(n, ma), b = suite_buffer(n, mb);
  for (int r = 0; a && b && r < 48 && !suite_failed(); r++) {
    bool within = r % 4 == 3;
    size_t len = 1 + rnd(n / 2), so = rnd(n - len), dof;
    if (within) { /* a disjoint destination in the same buffer */
      len = 1 + rnd(n / 4);
      so = rnd(n / 2 - len);
      dof = n / 2 + rnd(n / 2 - len);
      if (r & 8) {
        size_t t = so;
        so = dof, dof = t;
      }
    } else
      dof = rnd(n - len);
    cl_mem src = within ? b : ((r & 1) ? a : b), dst = within ? b : ((r & 1) ? b : a);
    unsigned char *msrc = src == a ? ma : mb, *mdst = dst == a ? ma : mb;
    CL_OK(clEnqueueCopyBuffer(S.q, src, dst, so, dof, len, 0, NULL, NULL));
    memmove(mdst + dof, msrc + so, len);
  }
  if (suite_failed())
    goto out;
  clFinish(S.q);
  if (suite_read(a, back, n) && same(back, ma, n, "buffer a after the copies") && suite_read(b, back, n) &&
      same(back, mb, n, "buffer b after the copies") && scale(b, (uint32_t *)mb, words, 2654435761u) &&
      suite_read(b, back, n))
    same(back, mb, n, "kernel over copied data");
out:
  free(ma), free(mb), free(back);
  if (a) clReleaseMemObject(a);
  if (b) clReleaseMemObject(b);
}

/* Fills with every pattern size at random pattern-aligned offsets. */
SUITE_TEST(buffers, fill_patterns) {
  size_t n = 64 * 1024;
  unsigned char *model = malloc(n), *back = malloc(n), pat[128];
  suite_fill(model, n);
  cl_mem m = suite_buffer(n, model);
  static const size_t PS[] = {1, 2, 4, 8, 16, 32, 64, 128};
  for (int r = 0; m && r < 40 && !suite_failed(); r++) {
    size_t ps = PS[r % 8], count = 1 + rnd(n / ps / 2), off = rnd(n / ps - count) * ps;
    suite_fill(pat, ps);
    CL_OK(clEnqueueFillBuffer(S.q, m, pat, ps, off, count * ps, 0, NULL, NULL));
    for (size_t i = 0; i < count; i++)
      memcpy(model + off + i * ps, pat, ps);
  }
  if (!suite_failed() && suite_read(m, back, n))
    same(back, model, n, "after the fills");
  free(model), free(back);
  if (m) clReleaseMemObject(m);
}

/* Map for reading, for writing (invalidating), at offsets; kernels between maps. */
SUITE_TEST(buffers, map_unmap_with_kernels) {
  size_t words = 64 * 1024, n = words * 4;
  uint32_t *model = malloc(n);
  suite_fill(model, n);
  cl_mem m = suite_buffer(n, model);
  cl_int err;
  for (int r = 0; m && r < 12 && !suite_failed(); r++) {
    size_t w0 = rnd(words / 2), wl = 1 + rnd(words - w0);
    cl_map_flags fl = r % 3 == 0 ? CL_MAP_READ : r % 3 == 1 ? CL_MAP_WRITE : CL_MAP_WRITE_INVALIDATE_REGION;
    uint32_t *p = clEnqueueMapBuffer(S.q, m, CL_TRUE, fl | (r % 3 == 1 ? CL_MAP_READ : 0), w0 * 4, wl * 4, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS || !p) {
      suite_fail("clEnqueueMapBuffer(round %d): %d", r, err);
      break;
    }
    if (fl != CL_MAP_WRITE_INVALIDATE_REGION && !same((unsigned char *)p, (unsigned char *)(model + w0), wl * 4, "mapped contents"))
      break;
    if (fl != CL_MAP_READ)
      for (size_t i = 0; i < wl; i++)
        p[i] = model[w0 + i] = suite_rand();
    CL_OK(clEnqueueUnmapMemObject(S.q, m, p, 0, NULL, NULL));
    if (!scale(m, model, words, 2 * (uint32_t)r + 3))
      break;
  }
  uint32_t *back = malloc(n);
  if (!suite_failed() && suite_read(m, back, n))
    same((unsigned char *)back, (unsigned char *)model, n, "after maps and kernels");
  free(model), free(back);
  if (m) clReleaseMemObject(m);
}

/* Host model of a rectangular copy between two linear byte arrays. */
static void rect_copy(unsigned char *dst, const size_t *dorg, size_t drp, size_t dsp, const unsigned char *src,
                      const size_t *sorg, size_t srp, size_t ssp, const size_t *region) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memmove(dst + (dorg[2] + z) * dsp + (dorg[1] + y) * drp + dorg[0],
              src + (sorg[2] + z) * ssp + (sorg[1] + y) * srp + sorg[0], region[0]);
}

/* Random 3D regions through clEnqueue{Write,Read,Copy}BufferRect with random pitches. */
SUITE_TEST(buffers, rect_transfers) {
  size_t rp = 96, sp = rp * 40, n = sp * 12; /* the buffer: 96 x 40 x 12 bytes */
  unsigned char *model = malloc(n), *host = malloc(n), *back = malloc(n), *other = malloc(n);
  suite_fill(model, n);
  cl_mem m = suite_buffer(n, model), m2 = suite_buffer(n, NULL);
  memset(other, 0xA5, n);
  for (int r = 0; m && m2 && r < 30 && !suite_failed(); r++) {
    size_t region[3] = {1 + rnd(rp / 2), 1 + rnd(20), 1 + rnd(6)};
    size_t borg[3] = {rnd(rp - region[0]), rnd(40 - region[1]), rnd(12 - region[2])};
    /* the host side has its own pitches */
    size_t hrp = region[0] + rnd(16), hsp = hrp * (region[1] + rnd(4)), horg[3] = {rnd(8), rnd(3), rnd(2)};
    size_t hneed = (horg[2] + region[2]) * hsp;
    if (hneed > n || horg[0] + region[0] > hrp || horg[1] + region[1] > hsp / hrp)
      continue;
    int kind = r % 3;
    if (kind == 0) { /* write */
      suite_fill(host, n);
      CL_OK(clEnqueueWriteBufferRect(S.q, m, CL_TRUE, borg, horg, region, rp, sp, hrp, hsp, host, 0, NULL, NULL));
      rect_copy(model, borg, rp, sp, host, horg, hrp, hsp, region);
    } else if (kind == 1) { /* read */
      memset(host, 0x5A, n);
      unsigned char *want = malloc(n);
      memset(want, 0x5A, n);
      CL_OK(clEnqueueReadBufferRect(S.q, m, CL_TRUE, borg, horg, region, rp, sp, hrp, hsp, host, 0, NULL, NULL));
      rect_copy(want, horg, hrp, hsp, model, borg, rp, sp, region);
      bool ok = same(host, want, hneed, "clEnqueueReadBufferRect");
      free(want);
      if (!ok)
        break;
    } else { /* copy into the second buffer with other pitches */
      size_t drp = 128, dsp = drp * 48;
      size_t dorg[3] = {rnd(drp - region[0]), rnd(48 - region[1]), rnd(n / dsp - region[2])};
      CL_OK(clEnqueueCopyBufferRect(S.q, m, m2, borg, dorg, region, rp, sp, drp, dsp, 0, NULL, NULL));
      rect_copy(other, dorg, drp, dsp, model, borg, rp, sp, region);
    }
  }
  clFinish(S.q);
  if (!suite_failed() && suite_read(m, back, n) && same(back, model, n, "buffer after rectangular writes") &&
      suite_read(m2, back, n))
    same(back, other, n, "destination of rectangular copies");
  free(model), free(host), free(back), free(other);
  if (m) clReleaseMemObject(m);
  if (m2) clReleaseMemObject(m2);
}

/* Sub-buffers at aligned offsets: kernels write through them, the parent sees it, and the other
 * way round; their info names the parent and the offset. */
SUITE_TEST(buffers, sub_buffers_with_kernels) {
  cl_uint align_bits = 0;
  CL_OK(clGetDeviceInfo(S.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t align = align_bits / 8, parts = 4, part = align * (2 + rnd(4)), n = parts * part + align;
  unsigned char *model = malloc(n), *back = malloc(n);
  suite_fill(model, n);
  cl_mem parent = suite_buffer(n, model), sub[4] = {0};
  cl_int err;
  for (size_t j = 0; parent && j < parts && !suite_failed(); j++) {
    cl_buffer_region reg = {j * part + (j == 3 ? align : 0), part};
    sub[j] = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    if (err != CL_SUCCESS) {
      suite_fail("clCreateSubBuffer(%zu, %zu): %d", reg.origin, reg.size, err);
      break;
    }
    size_t off = 0, sz = 0;
    cl_mem assoc = NULL;
    clGetMemObjectInfo(sub[j], CL_MEM_OFFSET, sizeof off, &off, NULL);
    clGetMemObjectInfo(sub[j], CL_MEM_SIZE, sizeof sz, &sz, NULL);
    clGetMemObjectInfo(sub[j], CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
    if (off != reg.origin || sz != part || assoc != parent)
      suite_fail("sub-buffer %zu info: offset %zu size %zu parent %d", j, off, sz, assoc == parent);
  }
  cl_kernel kb = suite_failed() ? NULL : kernel("buf_bytes");
  for (size_t j = 0; kb && j < parts && !suite_failed(); j++) {
    size_t base = j * part + (j == 3 ? align : 0);
    if (!suite_args(kb, 1, sizeof sub[j], &sub[j]) || !suite_run1(kb, part, 0))
      break;
    for (size_t i = 0; i < part; i++)
      model[base + i] ^= (unsigned char)(i * 7u);
  }
  if (!suite_failed() && suite_read(parent, back, n) && same(back, model, n, "parent after kernels on sub-buffers")) {
    /* write through the parent, read through a sub-buffer */
    size_t off = part + rnd(part / 2), len = 1 + rnd(part / 2);
    suite_fill(back, len);
    memcpy(model + off, back, len);
    if (clEnqueueWriteBuffer(S.q, parent, CL_TRUE, off, len, back, 0, NULL, NULL) == CL_SUCCESS &&
        clEnqueueReadBuffer(S.q, sub[1], CL_TRUE, 0, part, back, 0, NULL, NULL) == CL_SUCCESS)
      same(back, model + part, part, "sub-buffer after a write to the parent");
    else
      suite_fail("write through the parent / read through the sub-buffer failed");
  }
  /* a misaligned origin is refused */
  if (!suite_failed() && align > 1) {
    cl_buffer_region reg = {align / 2, 16};
    cl_mem bad = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    if (bad || err != CL_MISALIGNED_SUB_BUFFER_OFFSET)
      suite_fail("sub-buffer at offset %zu: %d, expected CL_MISALIGNED_SUB_BUFFER_OFFSET", reg.origin, err);
    if (bad)
      clReleaseMemObject(bad);
  }
  if (kb) clReleaseKernel(kb);
  for (size_t j = 0; j < parts; j++)
    if (sub[j]) clReleaseMemObject(sub[j]);
  if (parent) clReleaseMemObject(parent);
  free(model), free(back);
}

/* Sub-buffers at every multiple of 128 bytes (long16, the specification's minimum alignment and
 * what PoCL and applications use; NVIDIA's own sub-buffers need 512): the device promises it, and
 * kernels through such sub-buffers, two of them in one launch or one passed twice, with local
 * memory, leave the parent as the host model says and nothing around them touched. */
SUITE_TEST(buffers, sub_buffers_at_128_byte_offsets) {
  cl_uint align_bits = 0;
  CL_OK(clGetDeviceInfo(S.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  if (align_bits > 1024) {
    suite_fail("CL_DEVICE_MEM_BASE_ADDR_ALIGN %u bits: sub-buffers at 128-byte offsets refused", align_bits);
    return;
  }
  enum { WG = 64, SUBS = 6 };
  size_t words[SUBS], origin[SUBS], at = 128 * (1 + rnd(3));
  for (int j = 0; j < SUBS; j++) { /* origins at 128-byte multiples, most of them not 512-byte ones */
    words[j] = WG * (2 + rnd(6));
    origin[j] = at;
    at += (words[j] * 4 + 127) / 128 * 128 + 128 * rnd(3);
  }
  size_t n = at + 128;
  unsigned char *model = malloc(n), *back = malloc(n);
  suite_fill(model, n);
  cl_mem parent = suite_buffer(n, model), sub[SUBS] = {0};
  cl_int err = CL_SUCCESS;
  for (int j = 0; parent && j < SUBS && err == CL_SUCCESS; j++) {
    cl_buffer_region reg = {origin[j], words[j] * 4};
    sub[j] = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
    if (err != CL_SUCCESS)
      suite_fail("clCreateSubBuffer(%zu, %zu): %d", reg.origin, reg.size, err);
  }
  cl_kernel kr = suite_failed() ? NULL : kernel("buf_reverse_groups");
  uint32_t *in = malloc(WG * 8 * 4);
  for (int j = 0; kr && j < SUBS && !suite_failed(); j++) {
    /* even j: sub-buffer j into j + 1 (or into itself for the last one); odd j: into itself */
    int dst = j % 2 == 0 && j + 1 < SUBS ? j + 1 : j;
    size_t items = words[j] < words[dst] ? words[j] : words[dst];
    uint32_t k = 2 * (uint32_t)rnd(1000) + 1;
    if (!suite_args(kr, 4, sizeof sub[j], &sub[j], sizeof sub[dst], &sub[dst], (size_t)WG * 4, NULL, sizeof k, &k) ||
        !suite_run1(kr, items, WG))
      break;
    memcpy(in, model + origin[j], items * 4);
    for (size_t i = 0; i < items; i++) {
      size_t g = i / WG * WG, l = i % WG;
      uint32_t v = in[g + WG - 1 - l] * k + (uint32_t)i;
      memcpy(model + origin[dst] + i * 4, &v, 4);
    }
  }
  if (!suite_failed() && suite_read(parent, back, n))
    same(back, model, n, "parent after kernels on sub-buffers at 128-byte offsets");
  free(in);
  if (kr) clReleaseKernel(kr);
  for (int j = 0; j < SUBS; j++)
    if (sub[j]) clReleaseMemObject(sub[j]);
  if (parent) clReleaseMemObject(parent);
  free(model), free(back);
}

/* CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR (maps return the host memory, which holds the
 * kernel's results once mapped), CL_MEM_ALLOC_HOST_PTR. */
SUITE_TEST(buffers, host_pointer_flags) {
  size_t words = 16 * 1024, n = words * 4;
  uint32_t *init = malloc(n), *model = malloc(n), *back = malloc(n);
  suite_fill(init, n);
  memcpy(model, init, n);
  cl_int err;
  cl_mem c = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, init, &err);
  CL_OK(err);
  memset(init, 0, n); /* the copy was taken at creation */
  if (suite_read(c, back, n))
    same((unsigned char *)back, (unsigned char *)model, n, "CL_MEM_COPY_HOST_PTR contents");
  clReleaseMemObject(c);
  if (suite_failed())
    goto out;
  /* use host pointer: 4 KiB-aligned host memory */
  uint32_t *host = NULL;
  if (posix_memalign((void **)&host, 4096, n) != 0) {
    suite_fail("posix_memalign");
    goto out;
  }
  suite_fill(host, n);
  memcpy(model, host, n);
  cl_mem u = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n, host, &err);
  if (err != CL_SUCCESS) {
    suite_fail("CL_MEM_USE_HOST_PTR: %d", err);
    free(host);
    goto out;
  }
  void *hp = NULL;
  clGetMemObjectInfo(u, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
  if (hp != host)
    suite_fail("CL_MEM_HOST_PTR is not the pointer given");
  else if (scale(u, model, words, 5)) {
    size_t off = 4 * rnd(words / 2);
    uint32_t *p = clEnqueueMapBuffer(S.q, u, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, off, n - off, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS)
      suite_fail("map of a CL_MEM_USE_HOST_PTR buffer: %d", err);
    else {
      if ((unsigned char *)p != (unsigned char *)host + off)
        suite_fail("map of a CL_MEM_USE_HOST_PTR buffer at %zu returned %p, not host_ptr + offset %p", off, (void *)p,
                   (void *)((unsigned char *)host + off));
      else if (same((unsigned char *)host + off, (unsigned char *)model + off, n - off,
                    "mapped region of a CL_MEM_USE_HOST_PTR buffer's host memory after a kernel")) {
        for (size_t i = 0; i < (n - off) / 4; i++) /* write through the mapping */
          p[i] = model[off / 4 + i] = suite_rand();
      }
      clEnqueueUnmapMemObject(S.q, u, p, 0, NULL, NULL);
      if (!suite_failed() && scale(u, model, words, 7) && suite_read(u, back, n))
        same((unsigned char *)back, (unsigned char *)model, n, "CL_MEM_USE_HOST_PTR after writes through the map");
    }
  }
  clReleaseMemObject(u);
  clFinish(S.q);
  free(host);
  if (suite_failed())
    goto out;
  /* alloc host pointer, used by a kernel with two other buffers */
  cl_mem a = clCreateBuffer(S.ctx, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, n, NULL, &err);
  CL_OK(err);
  suite_fill(model, n);
  suite_fill(init, n);
  cl_mem b = suite_buffer(n, init), o = suite_buffer(n, NULL);
  cl_kernel k = kernel("buf_add");
  if (k && b && o && clEnqueueWriteBuffer(S.q, a, CL_TRUE, 0, n, model, 0, NULL, NULL) == CL_SUCCESS &&
      suite_args(k, 3, sizeof a, &a, sizeof b, &b, sizeof o, &o) && suite_run1(k, words, 0) && suite_read(o, back, n))
    for (size_t i = 0; i < words; i++)
      if (back[i] != model[i] + init[i]) {
        suite_fail("CL_MEM_ALLOC_HOST_PTR input, item %zu: 0x%x, expected 0x%x", i, back[i], model[i] + init[i]);
        break;
      }
  if (k) clReleaseKernel(k);
  clReleaseMemObject(a);
  if (b) clReleaseMemObject(b);
  if (o) clReleaseMemObject(o);
out:
  free(init), free(model), free(back);
}

/* A chain of transfers and kernels on one in-order queue, with no waits in between. */
SUITE_TEST(buffers, chained_commands) {
  size_t words = 128 * 1024, n = words * 4;
  uint32_t *a = malloc(n), *b = malloc(n), *back = malloc(n);
  suite_fill(a, n), suite_fill(b, n);
  cl_int err;
  cl_mem ma = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, n, NULL, &err), mb = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, n, NULL, &err),
         mo = clCreateBuffer(S.ctx, CL_MEM_READ_WRITE, n, NULL, &err);
  cl_kernel ks = kernel("buf_scale"), kadd = ks ? kernel("buf_add") : NULL;
  if (!kadd || !ma || !mb || !mo) {
    if (!suite_failed())
      suite_fail("setup: %d", err);
    goto out;
  }
  uint32_t k1 = 3, k2 = 0x9E3779B1u;
  size_t g = words;
  bool ok = clEnqueueWriteBuffer(S.q, ma, CL_FALSE, 0, n, a, 0, NULL, NULL) == CL_SUCCESS &&
            clEnqueueWriteBuffer(S.q, mb, CL_FALSE, 0, n, b, 0, NULL, NULL) == CL_SUCCESS &&
            clSetKernelArg(ks, 0, sizeof ma, &ma) == CL_SUCCESS && clSetKernelArg(ks, 1, 4, &k1) == CL_SUCCESS &&
            clEnqueueNDRangeKernel(S.q, ks, 1, NULL, &g, NULL, 0, NULL, NULL) == CL_SUCCESS &&
            clEnqueueCopyBuffer(S.q, ma, mo, 0, 0, n, 0, NULL, NULL) == CL_SUCCESS &&
            clSetKernelArg(kadd, 0, sizeof mo, &mo) == CL_SUCCESS && clSetKernelArg(kadd, 1, sizeof mb, &mb) == CL_SUCCESS &&
            clSetKernelArg(kadd, 2, sizeof ma, &ma) == CL_SUCCESS &&
            clEnqueueNDRangeKernel(S.q, kadd, 1, NULL, &g, NULL, 0, NULL, NULL) == CL_SUCCESS &&
            clSetKernelArg(ks, 1, 4, &k2) == CL_SUCCESS &&
            clEnqueueNDRangeKernel(S.q, ks, 1, NULL, &g, NULL, 0, NULL, NULL) == CL_SUCCESS &&
            clEnqueueReadBuffer(S.q, ma, CL_TRUE, 0, n, back, 0, NULL, NULL) == CL_SUCCESS;
  if (!ok) {
    suite_fail("enqueueing the chain failed");
    goto out;
  }
  for (size_t i = 0; i < words; i++) {
    uint32_t s = a[i] * k1 + (uint32_t)i, w = (s + b[i]) * k2 + (uint32_t)i;
    if (back[i] != w) {
      suite_fail("item %zu: 0x%x, expected 0x%x", i, back[i], w);
      break;
    }
  }
out:
  if (ks) clReleaseKernel(ks);
  if (kadd) clReleaseKernel(kadd);
  if (ma) clReleaseMemObject(ma);
  if (mb) clReleaseMemObject(mb);
  if (mo) clReleaseMemObject(mo);
  free(a), free(b), free(back);
}

/* A large buffer (32 MiB) written, scaled and read back whole; migration to the host and back
 * keeps the contents. */
SUITE_TEST(buffers, large_buffer_and_migration) {
  size_t words = 8 * 1024 * 1024, n = words * 4;
  uint32_t *model = malloc(n), *back = malloc(n);
  REQUIRE(model && back, "host allocation");
  suite_fill(model, n);
  cl_mem m = suite_buffer(n, model);
  if (m && scale(m, model, words, 9)) {
    cl_event e = NULL;
    cl_int err = clEnqueueMigrateMemObjects(S.q, 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &e);
    if (err == CL_SUCCESS)
      err = clWaitForEvents(1, &e);
    if (e)
      clReleaseEvent(e);
    if (err == CL_SUCCESS)
      err = clEnqueueMigrateMemObjects(S.q, 1, &m, 0, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      suite_fail("clEnqueueMigrateMemObjects: %d", err);
    else if (scale(m, model, words, 11) && suite_read(m, back, n))
      same((unsigned char *)back, (unsigned char *)model, n, "32 MiB buffer after kernels and migrations");
  }
  if (m) clReleaseMemObject(m);
  free(model), free(back);
}
