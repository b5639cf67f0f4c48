/* Rectangular reads, writes and copies with random origins, regions and pitches against a host
 * model; the pitch and bounds rules; overlap within one buffer. */
#include <stdlib.h>

#include "buffers_util.h"

typedef struct side {
  size_t origin[3], row, slice; /* pitches as passed (0 = default) */
} side;

static size_t eff_row(const side *s, const size_t region[3]) { return s->row ? s->row : region[0]; }
static size_t eff_slice(const side *s, const size_t region[3]) {
  return s->slice ? s->slice : region[1] * eff_row(s, region);
}
static size_t offset_of(const side *s, const size_t region[3]) {
  return s->origin[2] * eff_slice(s, region) + s->origin[1] * eff_row(s, region) + s->origin[0];
}
/* One past the last byte the side touches. */
static size_t end_of(const side *s, const size_t region[3]) {
  return offset_of(s, region) + (region[2] - 1) * eff_slice(s, region) + (region[1] - 1) * eff_row(s, region) +
         region[0];
}

/* The host model of every rectangular transfer. */
static void model_copy(unsigned char *dst, const side *d, const unsigned char *src, const side *s,
                       const size_t region[3]) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memmove(dst + offset_of(d, region) + z * eff_slice(d, region) + y * eff_row(d, region),
              src + offset_of(s, region) + z * eff_slice(s, region) + y * eff_row(s, region), region[0]);
}

/* A random side for the region with random pitches (sometimes the defaults) fitting in `room`
 * bytes; false if it does not fit. */
static bool random_side(side *s, const size_t region[3], size_t room) {
  s->row = (hg_test_rand() % 4 == 0) ? 0 : region[0] + bt_rand_range(0, 40);
  size_t row = eff_row(s, region);
  s->slice = (hg_test_rand() % 4 == 0) ? 0 : (region[1] + bt_rand_range(0, 3)) * row;
  size_t slice = eff_slice(s, region);
  s->origin[0] = bt_rand_range(0, row - region[0] + 8);
  s->origin[1] = bt_rand_range(0, 3);
  s->origin[2] = bt_rand_range(0, 2);
  (void)slice;
  return end_of(s, region) <= room;
}

static void random_region(size_t region[3]) {
  region[0] = bt_rand_range(1, 70);
  region[1] = bt_rand_range(1, 12);
  region[2] = bt_rand_range(1, 6);
}

#define BUF_SIZE (64 * 1024)

HG_TEST(read_write_rect_random) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  unsigned char *model = bt_random(BUF_SIZE);
  cl_mem m = bt_buffer(ctx, 0, BUF_SIZE, model);
  CHECK(m);
  for (int it = 0; it < 60; it++) {
    size_t region[3];
    side b, h;
    random_region(region);
    if (!random_side(&b, region, BUF_SIZE) || !random_side(&h, region, BUF_SIZE))
      continue;
    size_t host_size = end_of(&h, region);
    cl_command_type type;
    cl_event ev;
    if (it & 1) { /* read */
      unsigned char *out = bt_poisoned(host_size), *expect = bt_poisoned(host_size);
      model_copy(expect, &h, model, &b, region);
      CHECK_CL(clEnqueueReadBufferRect(q, m, (it & 2) != 0, b.origin, h.origin, region, b.row, b.slice, h.row,
                                       h.slice, out, 0, NULL, &ev));
      CHECK_CL(clWaitForEvents(1, &ev));
      CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
      CHECK(type == CL_COMMAND_READ_BUFFER_RECT);
      clReleaseEvent(ev);
      CHECK_SAME(out, expect, host_size);
      free(out);
      free(expect);
    } else { /* write */
      unsigned char *in = bt_random(host_size);
      CHECK_CL(clEnqueueWriteBufferRect(q, m, (it & 2) != 0, b.origin, h.origin, region, b.row, b.slice, h.row,
                                        h.slice, in, 0, NULL, &ev));
      CHECK_CL(clWaitForEvents(1, &ev));
      CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
      CHECK(type == CL_COMMAND_WRITE_BUFFER_RECT);
      clReleaseEvent(ev);
      model_copy(model, &b, in, &h, region);
      free(in);
      unsigned char *out = bt_poisoned(BUF_SIZE);
      CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, BUF_SIZE, out, 0, NULL, NULL));
      CHECK_SAME(out, model, BUF_SIZE);
      free(out);
    }
  }
  clReleaseMemObject(m);
  free(model);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(copy_rect_random) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  unsigned char *ma = bt_random(BUF_SIZE), *mb = bt_random(BUF_SIZE);
  cl_mem a = bt_buffer(ctx, 0, BUF_SIZE, ma), b = bt_buffer(ctx, 0, BUF_SIZE, mb);
  CHECK(a && b);
  for (int it = 0; it < 60; it++) {
    size_t region[3];
    side s, d;
    random_region(region);
    if (it % 3 == 2) {
      /* within one buffer: the source in the first half, the destination in the second */
      if (!random_side(&s, region, BUF_SIZE / 2))
        continue;
      d = s;
      d.origin[0] += BUF_SIZE / 2;
      d.origin[1] = s.origin[1];
      if (end_of(&d, region) > BUF_SIZE)
        continue;
      if (it & 1) {
        side t = s;
        s = d;
        d = t;
      }
      CHECK_CL(clEnqueueCopyBufferRect(q, a, a, s.origin, d.origin, region, s.row, s.slice, d.row, d.slice, 0, NULL,
                                       NULL));
      model_copy(ma, &d, ma, &s, region);
    } else {
      if (!random_side(&s, region, BUF_SIZE) || !random_side(&d, region, BUF_SIZE))
        continue;
      bool ab = it & 1;
      CHECK_CL(clEnqueueCopyBufferRect(q, ab ? a : b, ab ? b : a, s.origin, d.origin, region, s.row, s.slice, d.row,
                                       d.slice, 0, NULL, NULL));
      model_copy(ab ? mb : ma, &d, ab ? ma : mb, &s, region);
    }
  }
  unsigned char *out = bt_poisoned(BUF_SIZE);
  CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, BUF_SIZE, out, 0, NULL, NULL));
  CHECK_SAME(out, ma, BUF_SIZE);
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, BUF_SIZE, out, 0, NULL, NULL));
  CHECK_SAME(out, mb, BUF_SIZE);
  free(out);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  free(ma);
  free(mb);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(interleaved_rect_copy_within_one_buffer) {
  /* rows of the two sides alternate: their bounding boxes meet, their bytes do not */
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  unsigned char *model = bt_random(4096);
  cl_mem m = bt_buffer(ctx, 0, 4096, model);
  CHECK(m);
  size_t region[3] = {8, 16, 2};
  side s = {{0, 0, 0}, 16, 256}, d = {{8, 0, 0}, 16, 256};
  CHECK_CL(clEnqueueCopyBufferRect(q, m, m, s.origin, d.origin, region, 16, 256, 16, 256, 0, NULL, NULL));
  model_copy(model, &d, model, &s, region);
  unsigned char *out = bt_poisoned(4096);
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4096, out, 0, NULL, NULL));
  CHECK_SAME(out, model, 4096);
  free(out);
  free(model);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(rect_through_sub_buffers) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t align = bt_base_align();
  /* two disjoint sub-buffers of 2048 bytes at aligned origins */
  cl_buffer_region r1 = {align, 2048}, r2 = {(align + 2048 + align - 1) / align * align, 2048};
  size_t size = r2.origin + r2.size + align;
  unsigned char *model = bt_random(size);
  cl_mem parent = bt_buffer(ctx, 0, size, model);
  CHECK(parent);
  cl_int err;
  cl_mem s1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  CHECK_CL(err);
  cl_mem s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  CHECK_CL(err);
  for (int it = 0; it < 20; it++) {
    size_t region[3];
    side b, h, d;
    random_region(region);
    if (!random_side(&b, region, 2048) || !random_side(&h, region, 1 << 16) || !random_side(&d, region, 2048))
      continue;
    unsigned char *in = bt_random(end_of(&h, region));
    CHECK_CL(clEnqueueWriteBufferRect(q, s1, CL_TRUE, b.origin, h.origin, region, b.row, b.slice, h.row, h.slice, in,
                                      0, NULL, NULL));
    model_copy(model + r1.origin, &b, in, &h, region);
    free(in);
    /* between two sub-buffers of one buffer, with different pitches (crashes PoCL 5) */
    if (hg_test_is_hetgpu()) {
      CHECK_CL(clEnqueueCopyBufferRect(q, s1, s2, b.origin, d.origin, region, b.row, b.slice, d.row, d.slice, 0,
                                       NULL, NULL));
      model_copy(model + r2.origin, &d, model + r1.origin, &b, region);
    }
  }
  unsigned char *out = bt_poisoned(size);
  CHECK_CL(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, size, out, 0, NULL, NULL));
  CHECK_SAME(out, model, size);
  free(out);
  free(model);
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  clReleaseMemObject(parent);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(rect_invalid_arguments) {
  cl_context ctx = hg_test_context(), other = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 4096;
  cl_mem m = bt_buffer(ctx, 0, size, NULL), m2 = bt_buffer(ctx, 0, size, NULL), foreign = bt_buffer(other, 0, size, NULL);
  cl_mem ro = bt_buffer(ctx, CL_MEM_HOST_READ_ONLY, size, NULL), wo = bt_buffer(ctx, CL_MEM_HOST_WRITE_ONLY, size, NULL);
  CHECK(m && m2 && foreign && ro && wo);
  unsigned char *host = bt_poisoned(1 << 16);
  size_t o[3] = {0, 0, 0}, reg[3] = {16, 4, 2};
  /* zero region components */
  for (int i = 0; i < 3; i++) {
    size_t z[3] = {16, 4, 2};
    z[i] = 0;
    CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, z, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, o, o, z, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, o, o, z, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  }
  /* row pitch below the width; slice pitch below rows x row pitch, or not a multiple of it */
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 15, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 0, 0, 15, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 16, 63, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 16, 72, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 0, 0, 16, 63, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, o, o, reg, 20, 70, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, o, o, reg, 8, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, o, o, reg, 0, 0, 0, 60, 0, NULL, NULL), CL_INVALID_VALUE);
  /* out of bounds */
  size_t far[3] = {0, 0, 64}, edge[3] = {4081, 0, 0};
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, far, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, edge, o, (size_t[]){16, 1, 1}, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, o, far, reg, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, far, o, reg, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(clEnqueueWriteBufferRect(q, m, CL_TRUE, (size_t[]){4080, 0, 0}, o, (size_t[]){16, 1, 1}, 0, 0, 0, 0, host,
                                    0, NULL, NULL));
  /* NULL pointers */
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 0, 0, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, o, o, reg, 0, 0, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, NULL, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, NULL, reg, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, NULL, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
  /* one buffer: pitches must match, regions must not overlap */
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, o, (size_t[]){0, 0, 4}, reg, 16, 128, 32, 128, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, o, (size_t[]){0, 0, 4}, reg, 16, 64, 16, 128, 0, NULL, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, o, (size_t[]){0, 0, 1}, reg, 16, 64, 16, 64, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, o, (size_t[]){4, 1, 0}, reg, 32, 256, 32, 256, 0, NULL, NULL),
            CL_MEM_COPY_OVERLAP);
  CHECK_CL(clEnqueueCopyBufferRect(q, m, m, o, (size_t[]){0, 0, 2}, reg, 16, 64, 16, 64, 0, NULL, NULL));
  /* host access, contexts, handles */
  CHECK_ERR(clEnqueueReadBufferRect(q, wo, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueWriteBufferRect(q, ro, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueReadBufferRect(q, foreign, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBufferRect(q, m, foreign, o, o, reg, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
  if (hg_test_is_hetgpu()) /* crashes PoCL 5 */
    CHECK_ERR(clEnqueueCopyBufferRect(q, NULL, m, o, o, reg, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueReadBufferRect(NULL, m, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL),
            CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clFinish(q));
  free(host);
  cl_mem all[] = {m, m2, foreign, ro, wo};
  for (int i = 0; i < 5; i++)
    clReleaseMemObject(all[i]);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  clReleaseContext(other);
}
