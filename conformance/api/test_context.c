/* Contexts: every valid creation path, the exact code for every invalid argument, queries,
 * reference counting, destructor-callback order, and released handles being refused. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "info_check.h"

static cl_context_properties platform_props(void) { return (cl_context_properties)hg_test_platform; }

static cl_uint refcount(cl_context ctx) {
  cl_uint n = 0;
  clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL);
  return n;
}

/* Queries of a fresh context made from `props` (num_props entries including the 0, or NULL). */
static void check_context(cl_context ctx, const cl_context_properties *props, size_t num_props) {
  void *v;
  size_t n;
  if (!hg_info_fetch(hg_context_info, ctx, CL_CONTEXT_REFERENCE_COUNT, "REFERENCE_COUNT", &v, &n))
    return;
  bool rc_ok = n == sizeof(cl_uint) && *(cl_uint *)v == 1;
  free(v);
  CHECK(rc_ok);
  if (!hg_info_fetch(hg_context_info, ctx, CL_CONTEXT_NUM_DEVICES, "NUM_DEVICES", &v, &n))
    return;
  cl_uint ndev = *(cl_uint *)v;
  free(v);
  CHECK(n == sizeof(cl_uint) && ndev == 1);
  if (!hg_info_fetch(hg_context_info, ctx, CL_CONTEXT_DEVICES, "DEVICES", &v, &n))
    return;
  bool dev_ok = n == sizeof(cl_device_id) && *(cl_device_id *)v == hg_test_device;
  free(v);
  CHECK(dev_ok);
  size_t psize = 99;
  CHECK_CL(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &psize));
  CHECK_MSG(psize == num_props * sizeof(cl_context_properties), "CL_CONTEXT_PROPERTIES size %zu, expected %zu", psize,
            num_props * sizeof(cl_context_properties));
  if (num_props) {
    if (!hg_info_fetch(hg_context_info, ctx, CL_CONTEXT_PROPERTIES, "PROPERTIES", &v, &n))
      return;
    bool same = !memcmp(v, props, n);
    free(v);
    CHECK_MSG(same, "CL_CONTEXT_PROPERTIES differ from the list given");
  }
}

HG_TEST(context_valid_paths) {
  cl_int err = 1;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_props(), 0};
  cl_context ctx = clCreateContext(props, 1, &hg_test_device, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK(ctx);
  check_context(ctx, props, 3);
  CHECK_CL(clReleaseContext(ctx));

  /* errcode_ret may be NULL */
  ctx = clCreateContext(props, 1, &hg_test_device, NULL, NULL, NULL);
  CHECK(ctx);
  CHECK_CL(clReleaseContext(ctx));

  /* the user-sync property, in either order */
  cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_PLATFORM, platform_props(), 0};
  ctx = clCreateContext(sync, 1, &hg_test_device, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  check_context(ctx, sync, 5);
  CHECK_CL(clReleaseContext(ctx));

  ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  check_context(ctx, props, 3);
  CHECK_CL(clReleaseContext(ctx));

  cl_device_type type = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
  ctx = clCreateContextFromType(props, type & ~(cl_device_type)CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK_CL(clReleaseContext(ctx));
  ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK_CL(clReleaseContext(ctx));

  if (!hg_test_is_hetgpu())
    return;
  /* Properties the loader never sees (NULL, or only the terminator) reach hetGPU only through
   * its own dispatch; the loader routes them by the device. */
  ctx = clCreateContext(NULL, 1, &hg_test_device, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  check_context(ctx, NULL, 0);
  CHECK_CL(clReleaseContext(ctx));
  cl_context_properties empty[] = {0};
  ctx = clCreateContext(empty, 1, &hg_test_device, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  check_context(ctx, empty, 1);
  CHECK_CL(clReleaseContext(ctx));
  /* duplicate devices are ignored */
  cl_device_id twice[] = {hg_test_device, hg_test_device};
  ctx = clCreateContext(props, 2, twice, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  check_context(ctx, props, 3);
  CHECK_CL(clReleaseContext(ctx));
}

static void CL_CALLBACK notify(const char *errinfo, const void *private_info, size_t cb, void *user_data) {
  (void)errinfo;
  (void)private_info;
  (void)cb;
  (*(int *)user_data)++;
}

HG_TEST(context_notify_accepted) {
  int calls = 0;
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_props(), 0};
  cl_context ctx = clCreateContext(props, 1, &hg_test_device, notify, &calls, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK_CL(clReleaseContext(ctx));
  ctx = clCreateContext(props, 1, &hg_test_device, notify, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK_CL(clReleaseContext(ctx));
  CHECK(calls == 0); /* nothing went wrong */
}

#define EXPECT_CREATE_FAILS(call, code)                                                 \
  do {                                                                                  \
    cl_int err_ = 1;                                                                    \
    cl_context c_ = (call);                                                             \
    if (c_)                                                                             \
      clReleaseContext(c_);                                                             \
    CHECK_MSG(!c_ && err_ == (code), "%s returned %p, code %d, expected %s (%d)", #call, \
              (void *)c_, err_, #code, (int)(code));                                    \
  } while (0)

HG_TEST(context_invalid_args) {
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform_props(), 0};
  int data = 0;
  EXPECT_CREATE_FAILS(clCreateContext(props, 0, &hg_test_device, NULL, NULL, &err_), CL_INVALID_VALUE);
  EXPECT_CREATE_FAILS(clCreateContext(props, 1, NULL, NULL, NULL, &err_), CL_INVALID_VALUE);
  EXPECT_CREATE_FAILS(clCreateContext(props, 1, &hg_test_device, NULL, &data, &err_), CL_INVALID_VALUE);
  EXPECT_CREATE_FAILS(clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, &data, &err_), CL_INVALID_VALUE);

  cl_device_id with_null[] = {hg_test_device, NULL};
  EXPECT_CREATE_FAILS(clCreateContext(props, 2, with_null, NULL, NULL, &err_), CL_INVALID_DEVICE);

  cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, platform_props(), 0x7777, 1, 0};
  EXPECT_CREATE_FAILS(clCreateContext(unknown, 1, &hg_test_device, NULL, NULL, &err_), CL_INVALID_PROPERTY);
  cl_context_properties dup[] = {CL_CONTEXT_PLATFORM, platform_props(), CL_CONTEXT_PLATFORM, platform_props(), 0};
  EXPECT_CREATE_FAILS(clCreateContext(dup, 1, &hg_test_device, NULL, NULL, &err_), CL_INVALID_PROPERTY);
  EXPECT_CREATE_FAILS(clCreateContextFromType(dup, CL_DEVICE_TYPE_ALL, NULL, NULL, &err_), CL_INVALID_PROPERTY);
  cl_context_properties dup_sync[] = {CL_CONTEXT_PLATFORM, platform_props(), CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE,
                                      CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  EXPECT_CREATE_FAILS(clCreateContext(dup_sync, 1, &hg_test_device, NULL, NULL, &err_), CL_INVALID_PROPERTY);
  EXPECT_CREATE_FAILS(clCreateContextFromType(props, (cl_device_type)1 << 20, NULL, NULL, &err_),
                      CL_INVALID_DEVICE_TYPE);

  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU-specific codes");
    return;
  }
  /* live handles of the wrong type, so the loader still dispatches to the driver */
  cl_device_id not_a_device = (cl_device_id)hg_test_platform;
  cl_device_id bad_second[] = {hg_test_device, not_a_device};
  EXPECT_CREATE_FAILS(clCreateContext(props, 2, bad_second, NULL, NULL, &err_), CL_INVALID_DEVICE);
  cl_context_properties wrong_platform[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)hg_test_device, 0};
  EXPECT_CREATE_FAILS(clCreateContext(wrong_platform, 1, &hg_test_device, NULL, NULL, &err_), CL_INVALID_PLATFORM);
  EXPECT_CREATE_FAILS(clCreateContextFromType(wrong_platform, CL_DEVICE_TYPE_ALL, NULL, NULL, &err_),
                      CL_INVALID_PLATFORM);
  cl_context_properties bad_sync[] = {CL_CONTEXT_PLATFORM, platform_props(), CL_CONTEXT_INTEROP_USER_SYNC, 5, 0};
  EXPECT_CREATE_FAILS(clCreateContext(bad_sync, 1, &hg_test_device, NULL, NULL, &err_), CL_INVALID_PROPERTY);
  /* the device has the starting backend's one type: the others find nothing */
  cl_device_type type = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
  const cl_device_type others[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    if (others[i] != type)
      EXPECT_CREATE_FAILS(clCreateContextFromType(props, others[i], NULL, NULL, &err_), CL_DEVICE_NOT_FOUND);
  EXPECT_CREATE_FAILS(clCreateContextFromType(props, CL_DEVICE_TYPE_CUSTOM, NULL, NULL, &err_), CL_DEVICE_NOT_FOUND);
  cl_context_properties unknown_first[] = {0x7777, 1, 0};
  EXPECT_CREATE_FAILS(clCreateContext(unknown_first, 1, &hg_test_device, NULL, NULL, &err_), CL_INVALID_PROPERTY);

  cl_context ctx = hg_test_context();
  CHECK_ERR(clRetainContext((cl_context)hg_test_device), CL_INVALID_CONTEXT);
  CHECK_ERR(clReleaseContext((cl_context)hg_test_device), CL_INVALID_CONTEXT);
  cl_uint n;
  CHECK_ERR(clGetContextInfo((cl_context)hg_test_device, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL),
            CL_INVALID_CONTEXT);
  CHECK(refcount(ctx) == 1);
  CHECK_CL(clReleaseContext(ctx));
}

HG_TEST(context_info_invalid) {
  cl_context ctx = hg_test_context();
  char buf[64];
  CHECK_ERR(clGetContextInfo(ctx, 0x0FFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, 2, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(cl_device_id) - 1, buf, NULL), CL_INVALID_VALUE);
  if (hg_test_is_hetgpu()) /* a context property, not a context query */
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_INTEROP_USER_SYNC, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clSetContextDestructorCallback(ctx, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(clReleaseContext(ctx));
}

HG_TEST(context_refcount) {
  cl_context ctx = hg_test_context();
  CHECK(refcount(ctx) == 1);
  unsigned extra = 2 + hg_test_rand() % 30;
  for (unsigned i = 0; i < extra; i++)
    CHECK_CL(clRetainContext(ctx));
  CHECK(refcount(ctx) == 1 + extra);
  for (unsigned i = 0; i < extra; i++)
    CHECK_CL(clReleaseContext(ctx));
  CHECK(refcount(ctx) == 1);
  CHECK_CL(clReleaseContext(ctx));
}

/* Destructor callbacks: each runs once, with its context and data, last registered first, and
 * only when the last reference goes. */
typedef struct {
  cl_context expected;
  int order[64];
  int count;
  cl_int retain_inside;   /* clRetainContext on the dying context, from inside the callback */
  cl_int info_inside;
} record;
typedef struct {
  record *rec;
  int id;
} cb_arg;

static void CL_CALLBACK on_destroy(cl_context ctx, void *user_data) {
  cb_arg *a = user_data;
  if (ctx != a->rec->expected)
    a->id += 1000; /* recorded as a wrong id */
  a->rec->order[a->rec->count++] = a->id;
}

static void CL_CALLBACK on_destroy_probe(cl_context ctx, void *user_data) {
  record *rec = user_data;
  rec->retain_inside = clRetainContext(ctx);
  cl_uint n;
  rec->info_inside = clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL);
}

HG_TEST(context_destructor_order) {
  record rec = {0};
  cl_context ctx = hg_test_context();
  rec.expected = ctx;
  int num = 3 + (int)(hg_test_rand() % 20);
  cb_arg args[64];
  for (int i = 0; i < num; i++) {
    args[i].rec = &rec;
    args[i].id = i;
    CHECK_CL(clSetContextDestructorCallback(ctx, on_destroy, &args[i]));
  }
  CHECK_CL(clRetainContext(ctx));
  CHECK_CL(clReleaseContext(ctx));
  CHECK_MSG(rec.count == 0, "destructor ran while a reference remained");
  CHECK_CL(clReleaseContext(ctx));
  CHECK_MSG(rec.count == num, "%d of %d destructor callbacks ran", rec.count, num);
  for (int i = 0; i < num; i++)
    CHECK_MSG(rec.order[i] == num - 1 - i, "callback %d ran in position %d", rec.order[i], i);
}

/* A released handle is refused. The handle is probed from inside its destructor callback,
 * where the memory is still there (probing freed memory would crash in the loader). */
HG_TEST(context_released_rejected) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU: calls on a dying context");
    return;
  }
  record rec = {0};
  rec.retain_inside = rec.info_inside = 1;
  cl_context ctx = hg_test_context();
  CHECK_CL(clSetContextDestructorCallback(ctx, on_destroy_probe, &rec));
  CHECK_CL(clReleaseContext(ctx));
  CHECK_ERR(rec.retain_inside, CL_INVALID_CONTEXT);
  CHECK_ERR(rec.info_inside, CL_INVALID_CONTEXT);
}

/* With a buffer holding the context, the application's last release retires the handle but
 * the context lives on until the buffer goes; only then do the destructors run. */
HG_TEST(context_outlived_by_buffer) {
  record rec = {0};
  cl_context ctx = hg_test_context();
  rec.expected = ctx;
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
  if (err != CL_SUCCESS) {
    clReleaseContext(ctx);
    hg_test_skip("clCreateBuffer not available");
    return;
  }
  cb_arg arg = {&rec, 7};
  CHECK_CL(clSetContextDestructorCallback(ctx, on_destroy, &arg));
  CHECK_CL(clReleaseContext(ctx));
  CHECK_MSG(rec.count == 0, "destructor ran while a buffer still held the context");
  if (hg_test_is_hetgpu()) {
    CHECK_ERR(clRetainContext(ctx), CL_INVALID_CONTEXT);
    cl_uint n;
    CHECK_ERR(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL), CL_INVALID_CONTEXT);
    CHECK_ERR(clReleaseContext(ctx), CL_INVALID_CONTEXT);
  }
  CHECK_CL(clReleaseMemObject(buf));
  CHECK_MSG(rec.count == 1 && rec.order[0] == 7, "destructor ran %d times after the buffer went", rec.count);
}

/* Many threads creating, retaining and releasing contexts at once. */
static void *churn(void *arg) {
  cl_int *status = arg;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)hg_test_platform, 0};
  for (int i = 0; i < 200 && *status == CL_SUCCESS; i++) {
    cl_int err;
    cl_context ctx = clCreateContext(props, 1, &hg_test_device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
      *status = err;
      break;
    }
    if (clRetainContext(ctx) != CL_SUCCESS || refcount(ctx) != 2 || clReleaseContext(ctx) != CL_SUCCESS ||
        clReleaseContext(ctx) != CL_SUCCESS)
      *status = -9999;
  }
  return NULL;
}

HG_TEST(context_threads) {
  enum { THREADS = 4 };
  pthread_t t[THREADS];
  cl_int status[THREADS] = {0};
  for (int i = 0; i < THREADS; i++)
    CHECK(pthread_create(&t[i], NULL, churn, &status[i]) == 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++)
    CHECK_MSG(status[i] == CL_SUCCESS, "thread %d: %d", i, status[i]);
}
