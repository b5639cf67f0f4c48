/* Read, write, copy and fill: random data at many sizes and offsets against a host model,
 * sub-buffers seen through their parent and back, events and ordering, and every invalid
 * argument. */
#include <stdlib.h>

#include "buffers_util.h"

/* Compares the whole buffer with the model (read into a poisoned destination). */
static bool matches_model(cl_command_queue q, cl_mem m, const unsigned char *model, size_t size) {
  unsigned char *out = bt_poisoned(size);
  cl_int err = clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL);
  size_t d = bt_first_diff(out, model, size);
  if (err != CL_SUCCESS || d != (size_t)-1)
    hg_test_fail(__FILE__, __LINE__, "read error %d, first difference at %zu of %zu", err, d, size);
  free(out);
  return err == CL_SUCCESS && d == (size_t)-1;
}

HG_TEST(write_read_many_sizes_and_offsets) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  static const size_t sizes[] = {1, 3, 64, 1000, 4096, 65537, 1 << 20};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    size_t size = sizes[s];
    unsigned char *model = bt_random(size);
    cl_mem m = bt_buffer(ctx, 0, size, model);
    CHECK(m);
    for (int it = 0; it < 24; it++) {
      size_t off = bt_rand_range(0, size - 1), len = bt_rand_range(1, size - off);
      unsigned char *chunk = bt_random(len);
      bool blocking = it & 1;
      cl_event ev;
      CHECK_CL(clEnqueueWriteBuffer(q, m, blocking, off, len, chunk, 0, NULL, &ev));
      CHECK_CL(clWaitForEvents(1, &ev));
      cl_command_type type;
      CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
      CHECK(type == CL_COMMAND_WRITE_BUFFER);
      clReleaseEvent(ev);
      memcpy(model + off, chunk, len);
      free(chunk);
      /* a partial read into a poisoned destination, poison around it untouched */
      size_t roff = bt_rand_range(0, size - 1), rlen = bt_rand_range(1, size - roff);
      unsigned char *out = bt_poisoned(rlen + 32), *expect = bt_poisoned(rlen + 32);
      memcpy(expect + 16, model + roff, rlen);
      CHECK_CL(clEnqueueReadBuffer(q, m, !blocking, roff, rlen, out + 16, 0, NULL, &ev));
      CHECK_CL(clWaitForEvents(1, &ev));
      CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
      CHECK(type == CL_COMMAND_READ_BUFFER);
      clReleaseEvent(ev);
      CHECK_SAME(out, expect, rlen + 32);
      free(out);
      free(expect);
    }
    CHECK(matches_model(q, m, model, size));
    clReleaseMemObject(m);
    free(model);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(copy_random_ranges) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size_a = bt_rand_range(1000, 200000), size_b = bt_rand_range(1000, 200000);
  unsigned char *ma = bt_random(size_a), *mb = bt_random(size_b);
  cl_mem a = bt_buffer(ctx, 0, size_a, ma), b = bt_buffer(ctx, 0, size_b, mb);
  CHECK(a && b);
  for (int it = 0; it < 40; it++) {
    bool a_to_b = hg_test_rand() & 1;
    size_t ssize = a_to_b ? size_a : size_b, dsize = a_to_b ? size_b : size_a;
    size_t len = bt_rand_range(1, (ssize < dsize ? ssize : dsize) / 2);
    size_t so = bt_rand_range(0, ssize - len), dof = bt_rand_range(0, dsize - len);
    CHECK_CL(clEnqueueCopyBuffer(q, a_to_b ? a : b, a_to_b ? b : a, so, dof, len, 0, NULL, NULL));
    memmove((a_to_b ? mb : ma) + dof, (a_to_b ? ma : mb) + so, len);
    /* and a non-overlapping copy within one buffer */
    size_t half = size_a / 2, l2 = bt_rand_range(1, half / 2);
    size_t s2 = bt_rand_range(0, half - l2), d2 = bt_rand_range(half, size_a - l2);
    if (hg_test_rand() & 1) {
      size_t t = s2;
      s2 = d2;
      d2 = t;
    }
    CHECK_CL(clEnqueueCopyBuffer(q, a, a, s2, d2, l2, 0, NULL, NULL));
    memmove(ma + d2, ma + s2, l2);
  }
  CHECK(matches_model(q, a, ma, size_a));
  CHECK(matches_model(q, b, mb, size_b));
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  free(ma);
  free(mb);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(fill_every_pattern_size) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 128 * 1024;
  unsigned char *model = bt_random(size);
  cl_mem m = bt_buffer(ctx, 0, size, model);
  CHECK(m);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    for (int it = 0; it < 4; it++) {
      unsigned char pattern[128];
      hg_test_fill_random(pattern, ps);
      size_t units = size / ps;
      size_t first = bt_rand_range(0, units - 1), count = bt_rand_range(1, units - first);
      if (it == 0) { /* the whole buffer once */
        first = 0;
        count = units;
      }
      unsigned char saved[128];
      memcpy(saved, pattern, ps);
      cl_event ev;
      CHECK_CL(clEnqueueFillBuffer(q, m, pattern, ps, first * ps, count * ps, 0, NULL, &ev));
      memset(pattern, 0, sizeof pattern); /* the command must have its own copy */
      CHECK_CL(clWaitForEvents(1, &ev));
      cl_command_type type;
      CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
      CHECK(type == CL_COMMAND_FILL_BUFFER);
      clReleaseEvent(ev);
      for (size_t u = 0; u < count; u++)
        memcpy(model + (first + u) * ps, saved, ps);
      CHECK(matches_model(q, m, model, size));
    }
  }
  clReleaseMemObject(m);
  free(model);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(fill_pattern_values) {
  /* the pattern itself lands, checked against the value asked for */
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 4096;
  cl_mem m = bt_buffer(ctx, 0, size, NULL);
  CHECK(m);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    unsigned char pattern[128], *out = bt_poisoned(size);
    hg_test_fill_random(pattern, ps);
    CHECK_CL(clEnqueueFillBuffer(q, m, pattern, ps, 0, size, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
    for (size_t i = 0; i < size; i += ps)
      CHECK_SAME(out + i, pattern, ps);
    free(out);
  }
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(sub_buffers_alias_parent) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t align = bt_base_align(), size = 16 * align;
  unsigned char *model = bt_random(size);
  cl_mem parent = bt_buffer(ctx, 0, size, model);
  CHECK(parent);
  cl_int err;
  cl_buffer_region r1 = {2 * align, 3 * align + 7}, r2 = {8 * align, 4 * align};
  cl_mem s1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  CHECK_CL(err);
  cl_mem s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  CHECK_CL(err);
  for (int it = 0; it < 10; it++) {
    /* write through the sub-buffer, seen in the parent */
    size_t off = bt_rand_range(0, r1.size - 1), len = bt_rand_range(1, r1.size - off);
    unsigned char *chunk = bt_random(len);
    CHECK_CL(clEnqueueWriteBuffer(q, s1, CL_FALSE, off, len, chunk, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    memcpy(model + r1.origin + off, chunk, len);
    free(chunk);
    CHECK(matches_model(q, parent, model, size));
    /* write the parent, seen through the sub-buffer */
    off = bt_rand_range(0, size - 1);
    len = bt_rand_range(1, size - off);
    chunk = bt_random(len);
    CHECK_CL(clEnqueueWriteBuffer(q, parent, CL_TRUE, off, len, chunk, 0, NULL, NULL));
    memcpy(model + off, chunk, len);
    free(chunk);
    CHECK(matches_model(q, s2, model + r2.origin, r2.size));
    CHECK(matches_model(q, s1, model + r1.origin, r1.size));
    /* copy between the two sub-buffers (they do not overlap) and fill one */
    size_t l = bt_rand_range(1, r2.size), so = bt_rand_range(0, r1.size < l ? 0 : r1.size - l);
    if (l > r1.size)
      l = r1.size;
    size_t dof = bt_rand_range(0, r2.size - l);
    CHECK_CL(clEnqueueCopyBuffer(q, s1, s2, so, dof, l, 0, NULL, NULL));
    memmove(model + r2.origin + dof, model + r1.origin + so, l);
    cl_uint pat = hg_test_rand();
    size_t units = r2.size / 4, fu = bt_rand_range(0, units - 1), fc = bt_rand_range(1, units - fu);
    CHECK_CL(clEnqueueFillBuffer(q, s2, &pat, 4, fu * 4, fc * 4, 0, NULL, NULL));
    for (size_t u = 0; u < fc; u++)
      memcpy(model + r2.origin + (fu + u) * 4, &pat, 4);
    CHECK(matches_model(q, parent, model, size));
  }
  /* overlapping ranges of one buffer, or of sub-buffers that share bytes */
  CHECK_ERR(clEnqueueCopyBuffer(q, parent, parent, 0, 10, 20, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(q, s1, s1, 5, 0, 10, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(q, s1, parent, 0, r1.origin + 3, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  cl_buffer_region r3 = {3 * align, 2 * align};
  cl_mem s3 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r3, &err);
  CHECK_CL(err);
  CHECK_ERR(clEnqueueCopyBuffer(q, s1, s3, align + 4, 4, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  clReleaseMemObject(s3);
  clReleaseMemObject(s1);
  clReleaseMemObject(s2);
  clReleaseMemObject(parent);
  free(model);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(events_order_commands) {
  /* an out-of-order queue: the wait lists alone order write -> copy -> read */
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  size_t size = 1 << 18;
  unsigned char *data = bt_random(size), *out = bt_poisoned(size);
  cl_mem a = bt_buffer(ctx, 0, size, NULL), b = bt_buffer(ctx, 0, size, NULL);
  CHECK(a && b);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  cl_event w, c, r;
  CHECK_CL(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, size, data, 1, &gate, &w));
  CHECK_CL(clEnqueueCopyBuffer(q, a, b, 0, 0, size, 1, &w, &c));
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_FALSE, 0, size, out, 1, &c, &r));
  cl_int status;
  CHECK_CL(clGetEventInfo(r, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK(status != CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clWaitForEvents(1, &r));
  CHECK_SAME(out, data, size);
  clReleaseEvent(gate);
  clReleaseEvent(w);
  clReleaseEvent(c);
  clReleaseEvent(r);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  free(data);
  free(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(blocking_read_after_failed_event) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("PoCL blocks for ever on a failed wait-list event");
    return;
  }
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_mem m = bt_buffer(ctx, 0, 64, NULL);
  CHECK(m);
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  CHECK_CL(clSetUserEventStatus(gate, -1));
  char out[64];
  CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, out, 1, &gate, NULL), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(host_access_flags) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t align = bt_base_align();
  char buf[64];
  cl_mem wo = bt_buffer(ctx, CL_MEM_HOST_WRITE_ONLY, 2 * align, NULL);
  cl_mem ro = bt_buffer(ctx, CL_MEM_HOST_READ_ONLY, 2 * align, NULL);
  cl_mem na = bt_buffer(ctx, CL_MEM_HOST_NO_ACCESS, 2 * align, NULL);
  CHECK(wo && ro && na);
  CHECK_ERR(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueReadBuffer(q, na, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueWriteBuffer(q, ro, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_ERR(clEnqueueWriteBuffer(q, na, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_CL(clEnqueueWriteBuffer(q, wo, CL_TRUE, 0, 64, buf, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, ro, CL_TRUE, 0, 64, buf, 0, NULL, NULL));
  /* copies and fills are not host access */
  CHECK_CL(clEnqueueCopyBuffer(q, wo, na, 0, 0, 64, 0, NULL, NULL));
  cl_int pat = 5;
  CHECK_CL(clEnqueueFillBuffer(q, na, &pat, 4, 0, 64, 0, NULL, NULL));
  /* sub-buffers inherit the restriction */
  cl_int err;
  cl_buffer_region r = {align, 64};
  cl_mem sub = clCreateSubBuffer(na, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  CHECK_ERR(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseMemObject(sub);
  clReleaseMemObject(wo);
  clReleaseMemObject(ro);
  clReleaseMemObject(na);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(invalid_arguments) {
  cl_context ctx = hg_test_context(), other = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 256;
  char buf[512];
  cl_mem m = bt_buffer(ctx, 0, size, NULL), m2 = bt_buffer(ctx, 0, size, NULL), foreign = bt_buffer(other, 0, size, NULL);
  CHECK(m && m2 && foreign);
  /* read / write */
  CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size + 1, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, size, 1, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 1, SIZE_MAX, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 200, 57, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(q, foreign, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueWriteBuffer(q, foreign, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueWriteBuffer(NULL, m, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, buf, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  cl_event none = NULL;
  CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 16, buf, 0, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* copy */
  CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, 0, 1, size, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, 1, 0, size, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, size + 1, 0, 1, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, foreign, 0, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBuffer(q, foreign, m, 0, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, NULL, 0, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 0, 16, 17, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 16, 0, 17, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 8, 8, 1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_CL(clEnqueueCopyBuffer(q, m, m, 0, 16, 16, 0, NULL, NULL));
  /* fill */
  char pattern[256] = {0};
  static const size_t bad_sizes[] = {0, 3, 5, 6, 12, 24, 100, 256};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++)
    CHECK_MSG(clEnqueueFillBuffer(q, m, pattern, bad_sizes[i], 0, 256, 0, NULL, NULL) == CL_INVALID_VALUE,
              "pattern size %zu accepted", bad_sizes[i]);
  CHECK_ERR(clEnqueueFillBuffer(q, m, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(q, m, pattern, 4, 2, 16, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(q, m, pattern, 4, 0, 18, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(q, m, pattern, 4, 0, size + 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(q, m, pattern, 4, size, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueFillBuffer(q, foreign, pattern, 4, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
  CHECK_ERR(clEnqueueFillBuffer(q, NULL, pattern, 4, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueFillBuffer(NULL, m, pattern, 4, 0, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL(clFinish(q));
  clReleaseMemObject(m);
  clReleaseMemObject(m2);
  clReleaseMemObject(foreign);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  clReleaseContext(other);
}
