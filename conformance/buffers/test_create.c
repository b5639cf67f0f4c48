/* Buffer and sub-buffer creation: every flag combination, every invalid argument and its code,
 * every clGetMemObjectInfo query, reference counts and destructor callbacks. */
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "buffers_util.h"

static const cl_mem_flags access_flags[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY};
static const cl_mem_flags host_ptr_flags[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                              CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
static const cl_mem_flags host_access_flags[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                                 CL_MEM_HOST_NO_ACCESS};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Reads a buffer whatever its host access flags, through a copy into a readable buffer. */
static cl_int read_any(cl_context ctx, cl_command_queue q, cl_mem m, size_t size, void *out) {
  cl_int err;
  cl_mem tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  if (err != CL_SUCCESS)
    return err;
  err = clEnqueueCopyBuffer(q, m, tmp, 0, 0, size, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, tmp, CL_TRUE, 0, size, out, 0, NULL, NULL);
  clReleaseMemObject(tmp);
  return err;
}

HG_TEST(every_flag_combination_creates_and_reports) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  for (size_t a = 0; a < COUNT(access_flags); a++)
    for (size_t p = 0; p < COUNT(host_ptr_flags); p++)
      for (size_t h = 0; h < COUNT(host_access_flags); h++) {
        cl_mem_flags flags = access_flags[a] | host_ptr_flags[p] | host_access_flags[h];
        size_t size = bt_rand_range(1, 70000);
        bool with_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        unsigned char *data = with_ptr ? bt_random(size) : NULL;
        unsigned char *expect = with_ptr ? malloc(size) : NULL;
        if (with_ptr)
          memcpy(expect, data, size);
        cl_int err;
        cl_mem m = clCreateBuffer(ctx, flags, size, data, &err);
        CHECK_MSG(err == CL_SUCCESS && m, "flags 0x%llx: error %d", (unsigned long long)flags, err);
        if (flags & CL_MEM_COPY_HOST_PTR)
          memset(data, 0, size); /* the buffer must hold its own copy already */

        cl_mem_flags got;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got, &got, NULL));
        CHECK_MSG((got & ~(cl_mem_flags)CL_MEM_READ_WRITE) == (flags & ~(cl_mem_flags)CL_MEM_READ_WRITE),
                  "CL_MEM_FLAGS 0x%llx for 0x%llx", (unsigned long long)got, (unsigned long long)flags);
        cl_mem_object_type type;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_MEM_OBJECT_BUFFER);
        size_t sz;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof sz, &sz, NULL));
        CHECK(sz == size);
        void *hp;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
        CHECK(hp == ((flags & CL_MEM_USE_HOST_PTR) ? (void *)data : NULL));
        cl_context c;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL));
        CHECK(c == ctx);
        cl_uint u;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof u, &u, NULL));
        CHECK(u == 1);
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof u, &u, NULL));
        CHECK(u == 0);
        cl_mem assoc = (cl_mem)1;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
        CHECK(assoc == NULL);
        size_t off = 1;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof off, &off, NULL));
        CHECK(off == 0);
        cl_bool svm = CL_TRUE;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL));
        CHECK(svm == CL_FALSE);
        size_t psize = 1;
        CHECK_CL(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &psize));
        CHECK(psize == 0);

        if (with_ptr) {
          unsigned char *out = bt_poisoned(size);
          CHECK_CL(read_any(ctx, q, m, size, out));
          CHECK_SAME(out, expect, size);
          free(out);
        }
        CHECK_CL(clReleaseMemObject(m));
        free(data);
        free(expect);
      }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(invalid_flags_are_invalid_value) {
  cl_context ctx = hg_test_context();
  static const cl_mem_flags bad[] = {
      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,          CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,          CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
      CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
      (cl_mem_flags)1 << 40,
  };
  char host[64];
  for (size_t i = 0; i < COUNT(bad); i++) {
    cl_int err = CL_SUCCESS;
    bool ptr = bad[i] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    cl_mem m = clCreateBuffer(ctx, bad[i], sizeof host, ptr ? host : NULL, &err);
    CHECK_MSG(m == NULL && err == CL_INVALID_VALUE, "flags 0x%llx: %d", (unsigned long long)bad[i], err);
  }
  clReleaseContext(ctx);
}

HG_TEST(invalid_sizes_context_host_ptr) {
  cl_context ctx = hg_test_context();
  cl_int err;
  char host[64];
  CHECK(clCreateBuffer(ctx, 0, 0, NULL, &err) == NULL && err == CL_INVALID_BUFFER_SIZE);
  cl_ulong max_alloc;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
  CHECK(clCreateBuffer(ctx, 0, (size_t)max_alloc + 1, NULL, &err) == NULL && err == CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(ctx, 0, SIZE_MAX, NULL, &err) == NULL && err == CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(NULL, 0, 64, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
  CHECK(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err) == NULL && err == CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 64, NULL, &err) == NULL && err == CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, host, &err) == NULL && err == CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 64, host, &err) == NULL && err == CL_INVALID_HOST_PTR);
  /* no errcode_ret: still no crash, no object */
  CHECK(clCreateBuffer(ctx, 0, 0, NULL, NULL) == NULL);
  clReleaseContext(ctx);
}

HG_TEST(buffer_properties) {
  cl_context ctx = hg_test_context();
  cl_int err;
  cl_mem m = clCreateBufferWithProperties(ctx, NULL, 0, 128, NULL, &err);
  CHECK_CL(err);
  size_t psize = 1;
  CHECK_CL(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &psize));
  CHECK(psize == 0);
  clReleaseMemObject(m);

  cl_mem_properties empty[] = {0};
  m = clCreateBufferWithProperties(ctx, empty, CL_MEM_READ_ONLY, 128, NULL, &err);
  CHECK_CL(err);
  cl_mem_properties got[4] = {7, 7, 7, 7};
  CHECK_CL(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &psize));
  CHECK(psize == sizeof(cl_mem_properties) && got[0] == 0);
  clReleaseMemObject(m);

  cl_mem_properties bad[] = {0x12345678, 1, 0};
  CHECK(clCreateBufferWithProperties(ctx, bad, 0, 128, NULL, &err) == NULL && err == CL_INVALID_PROPERTY);
  CHECK(clCreateBufferWithProperties(ctx, NULL, 0, 0, NULL, &err) == NULL && err == CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBufferWithProperties(ctx, NULL, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err) == NULL &&
        err == CL_INVALID_VALUE);
  clReleaseContext(ctx);
}

HG_TEST(info_errors) {
  cl_context ctx = hg_test_context();
  cl_mem m = bt_buffer(ctx, 0, 64, NULL);
  CHECK(m);
  size_t sz;
  cl_uint small;
  CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof small, &small, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetMemObjectInfo(m, 0x7fff, sizeof sz, &sz, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
  if (hg_test_is_hetgpu()) /* a handle of another type (PoCL does not check handle types) */
    CHECK_ERR(clGetMemObjectInfo((cl_mem)ctx, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_CL(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, &sz));
  CHECK(sz == sizeof(size_t));
  CHECK_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(m);
  clReleaseContext(ctx);
}

HG_TEST(reference_counting) {
  cl_context ctx = hg_test_context();
  cl_mem m = bt_buffer(ctx, 0, 64, NULL);
  CHECK(m);
  cl_uint refs;
  CHECK_CL(clRetainMemObject(m));
  CHECK_CL(clRetainMemObject(m));
  CHECK_CL(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 3);
  CHECK_CL(clReleaseMemObject(m));
  CHECK_CL(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 2);
  CHECK_CL(clReleaseMemObject(m));
  CHECK_CL(clReleaseMemObject(m));
  clReleaseContext(ctx);
}

/* ---- destructor callbacks ---- */

typedef struct cb_log {
  atomic_int n;
  int order[16];
} cb_log;

typedef struct cb_arg {
  cb_log *log;
  int id;
} cb_arg;

static void CL_CALLBACK record_cb(cl_mem m, void *user) {
  cb_arg *a = user;
  int i = atomic_fetch_add(&a->log->n, 1);
  if (i < 16)
    a->log->order[i] = a->id;
}

/* Waits (bounded: a guard against a hang, not a timing check) for n callbacks. */
static bool wait_callbacks(cb_log *log, int n) {
  for (int i = 0; i < 10000 && atomic_load(&log->n) < n; i++)
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  return atomic_load(&log->n) == n;
}

HG_TEST(destructor_callbacks_last_registered_first) {
  cl_context ctx = hg_test_context();
  cl_mem m = bt_buffer(ctx, 0, 256, NULL);
  CHECK(m);
  cb_log log = {0};
  cb_arg args[5];
  for (int i = 0; i < 5; i++) {
    args[i] = (cb_arg){&log, i};
    CHECK_CL(clSetMemObjectDestructorCallback(m, record_cb, &args[i]));
  }
  CHECK_CL(clRetainMemObject(m));
  CHECK_CL(clReleaseMemObject(m));
  CHECK(atomic_load(&log.n) == 0);
  CHECK_CL(clReleaseMemObject(m));
  CHECK(wait_callbacks(&log, 5));
  for (int i = 0; i < 5; i++)
    CHECK_MSG(log.order[i] == 4 - i, "callback %d ran in position %d", log.order[i], i);
  clReleaseContext(ctx);
}

HG_TEST(sub_buffer_keeps_parent_alive) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t align = bt_base_align(), size = 4 * align;
  unsigned char *data = bt_random(size);
  cl_mem parent = bt_buffer(ctx, 0, size, data);
  CHECK(parent);
  cl_buffer_region r = {align, 2 * align};
  cl_int err;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  cb_log log = {0};
  cb_arg pa = {&log, 1}, sa = {&log, 2};
  CHECK_CL(clSetMemObjectDestructorCallback(parent, record_cb, &pa));
  CHECK_CL(clSetMemObjectDestructorCallback(sub, record_cb, &sa));
  CHECK_CL(clReleaseMemObject(parent));
  /* the parent's memory is still in use by the sub-buffer */
  unsigned char *out = bt_poisoned(r.size);
  CHECK_CL(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, r.size, out, 0, NULL, NULL));
  CHECK_SAME(out, data + r.origin, r.size);
  CHECK(atomic_load(&log.n) == 0);
  CHECK_CL(clReleaseMemObject(sub));
  CHECK(wait_callbacks(&log, 2));
  CHECK(log.order[0] == 2 && log.order[1] == 1);
  free(out);
  free(data);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

HG_TEST(pending_command_keeps_buffer_alive) {
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  size_t size = 1 << 16;
  unsigned char *data = bt_random(size), *out = bt_poisoned(size);
  cl_mem m = bt_buffer(ctx, 0, size, data);
  CHECK(m);
  cb_log log = {0};
  cb_arg a = {&log, 7};
  CHECK_CL(clSetMemObjectDestructorCallback(m, record_cb, &a));
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_FALSE, 0, size, out, 1, &gate, NULL));
  CHECK_CL(clReleaseMemObject(m));
  CHECK(atomic_load(&log.n) == 0); /* the read has not run: the buffer is still used */
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clFinish(q));
  CHECK_SAME(out, data, size);
  CHECK(wait_callbacks(&log, 1));
  clReleaseEvent(gate);
  free(data);
  free(out);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* ---- sub-buffers ---- */

HG_TEST(sub_buffer_info_and_inheritance) {
  cl_context ctx = hg_test_context();
  size_t align = bt_base_align(), size = 8 * align;
  unsigned char *host = bt_random(size);
  cl_int err;
  cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY, size, host, &err);
  CHECK_CL(err);
  cl_buffer_region r = {3 * align, 2 * align + 5};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  cl_mem_flags flags;
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  CHECK_MSG(flags == (CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY), "flags 0x%llx",
            (unsigned long long)flags);
  cl_mem assoc;
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CHECK(assoc == parent);
  size_t off, sz;
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL));
  CHECK(off == r.origin);
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof sz, &sz, NULL));
  CHECK(sz == r.size);
  void *hp;
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
  CHECK(hp == host + r.origin);
  cl_uint refs;
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(refs == 1);
  cl_mem_object_type type;
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_TYPE, sizeof type, &type, NULL));
  CHECK(type == CL_MEM_OBJECT_BUFFER);
  clReleaseMemObject(sub);

  /* explicit, compatible flags replace the inherited ones */
  cl_mem p2 = bt_buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL);
  CHECK(p2);
  sub = clCreateSubBuffer(p2, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  CHECK_MSG(flags == (CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_ALLOC_HOST_PTR), "flags 0x%llx",
            (unsigned long long)flags);
  CHECK_CL(clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
  CHECK(hp == NULL);
  clReleaseMemObject(sub);
  clReleaseMemObject(p2);
  clReleaseMemObject(parent);
  free(host);
  clReleaseContext(ctx);
}

HG_TEST(sub_buffer_errors) {
  cl_context ctx = hg_test_context();
  size_t align = bt_base_align(), size = 8 * align;
  cl_int err;
  cl_mem parent = bt_buffer(ctx, CL_MEM_READ_WRITE, size, NULL);
  CHECK(parent);
  cl_buffer_region r = {align, align};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  /* a sub-buffer of a sub-buffer */
  cl_buffer_region r0 = {0, 16};
  CHECK(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err) == NULL && err == CL_INVALID_MEM_OBJECT);
  CHECK(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err) == NULL && err == CL_INVALID_MEM_OBJECT);
  /* misaligned origin */
  if (align > 1) {
    cl_buffer_region mis = {align / 2, 16};
    CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err) == NULL &&
          err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  }
  /* out of range, zero size */
  cl_buffer_region out1 = {0, size + 1}, out2 = {size, 1}, out3 = {2 * size, 16}, out4 = {align, SIZE_MAX};
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &out1, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &out2, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &out3, &err) == NULL && err == CL_INVALID_VALUE);
  if (hg_test_is_hetgpu()) /* origin + size wrapping around (PoCL lets it through) */
    CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &out4, &err) == NULL && err == CL_INVALID_VALUE);
  cl_buffer_region zero = {align, 0};
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &zero, &err) == NULL &&
        err == CL_INVALID_BUFFER_SIZE);
  /* create type and info */
  CHECK(clCreateSubBuffer(parent, 0, 0x7777, &r, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL && err == CL_INVALID_VALUE);
  /* host pointer flags cannot be given */
  static const cl_mem_flags never[] = {CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY};
  /* PoCL accepts two access flags at once for a sub-buffer */
  for (size_t i = 0; i < (hg_test_is_hetgpu() ? COUNT(never) : COUNT(never) - 1); i++)
    CHECK_MSG(clCreateSubBuffer(parent, never[i], CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL &&
                  err == CL_INVALID_VALUE,
              "flags 0x%llx: %d", (unsigned long long)never[i], err);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);

  /* flags that contradict the parent's */
  static const struct {
    cl_mem_flags parent, sub;
  } clash[] = {
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE},         {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY},
      {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE},          {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY},
      {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY}, {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY},  {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY},
  };
  for (size_t i = 0; i < COUNT(clash); i++) {
    cl_mem p = bt_buffer(ctx, clash[i].parent, size, NULL);
    CHECK(p);
    cl_mem s = clCreateSubBuffer(p, clash[i].sub, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_MSG(s == NULL && err == CL_INVALID_VALUE, "parent 0x%llx sub 0x%llx: %d",
              (unsigned long long)clash[i].parent, (unsigned long long)clash[i].sub, err);
    clReleaseMemObject(p);
  }
  clReleaseContext(ctx);
}
