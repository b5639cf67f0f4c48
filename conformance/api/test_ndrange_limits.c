/* Large NDRanges (issue "Reliability" row 7): a range of more than 2^32 work-items without a
 * local size runs in groups every backend can count (hetGPU picked groups of at most 256, so
 * 2^40 work-items were 2^32 groups, and PoCL's pthread device died of SIGFPE counting them; the
 * boundary is tested with 2^32 + 1 = 641 x 6700417 work-items, which only groups of 641 split
 * into fewer than 2^32 groups); a range of 2^32 groups or more, and a global size of SIZE_MAX
 * (which ran zero work-items on RISC-V and returned CL_COMPLETE), fail at enqueue with
 * CL_INVALID_GLOBAL_WORK_SIZE instead of crashing; one group fewer is accepted. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *src =
    /* every group's first work-item marks its group; the last work-item writes its id and the
     * range's shape as the kernel sees it */
    "__kernel void mark(__global uchar *flags, ulong cap, uchar salt, __global ulong *info) {\n"
    "  size_t g = get_group_id(0);\n"
    "  if (get_local_id(0) == 0 && g < cap) flags[g] = salt;\n"
    "  if (get_global_id(0) == get_global_size(0) - 1) {\n"
    "    info[0] = get_global_id(0); info[1] = get_local_size(0); info[2] = get_num_groups(0); } }\n"
    "__kernel void nothing(__global int *out) { if (get_global_id(0) == 0 && get_global_id(1) == 0) out[0] = 1; }\n"
    /* the first work-item writes the range's shape as the kernel sees it */
    "__kernel void shape(__global ulong *out) {\n"
    "  if (get_global_id(0) || get_global_id(1) || get_global_id(2)) return;\n"
    "  for (uint d = 0; d < 3; d++) { out[3 * d] = get_global_size(d); out[3 * d + 1] = get_local_size(d);\n"
    "    out[3 * d + 2] = get_num_groups(d); } }\n";

typedef struct env {
  cl_context ctx;
  cl_command_queue q;
  cl_program p;
  cl_kernel k;
} env;

/* A context, queue and the program's kernel `name`. */
static bool env_open(env *e, const char *name) {
  memset(e, 0, sizeof *e);
  e->ctx = hg_test_context();
  e->q = e->ctx ? hg_test_queue(e->ctx, 0) : NULL;
  e->p = e->q ? hg_test_build(e->ctx, src, "") : NULL;
  e->k = e->p ? clCreateKernel(e->p, name, NULL) : NULL;
  return e->k != NULL;
}

static void env_close(env *e) {
  if (e->k) clReleaseKernel(e->k);
  if (e->p) clReleaseProgram(e->p);
  if (e->q) clReleaseCommandQueue(e->q);
  if (e->ctx) clReleaseContext(e->ctx);
}

static bool on_riscv(void) {
  const char *be = getenv("HETGPU_BACKEND");
  return hg_test_is_hetgpu() && be && !strcmp(be, "riscv");
}

/* 2^32 groups or more: CL_INVALID_GLOBAL_WORK_SIZE at enqueue, nothing runs; 2^32 - 1 groups
 * are accepted (held behind a user event that then fails, so they never run). */
HG_TEST(too_many_groups_fail_at_enqueue) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU's limit (PoCL itself crashes on 2^32 groups)");
    return;
  }
  env e;
  CHECK(env_open(&e, "nothing"));
  cl_context ctx = e.ctx;
  cl_command_queue q = e.q;
  cl_kernel k = e.k;
  cl_int err;
  int poison = (int)(hg_test_rand() | 2), got = 0;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof poison, &poison, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof out, &out));
  size_t ones[2] = {1, 1};
  size_t square[2] = {65536, 65536};        /* 2^32 groups of one */
  size_t primes[2] = {65537, 65537};        /* no local size but 1 divides 65537 within 1024 */
  size_t line[1] = {(size_t)1 << 32};
  size_t max[1] = {SIZE_MAX};               /* 3 x 5 x 17 x 257 x 641 x 65537 x 6700417 */
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, square, ones, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, primes, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, line, ones, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, max, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  size_t under[2] = {65535, 65537}; /* (2^16 - 1)(2^16 + 1) = 2^32 - 1 groups: the most accepted */
  cl_event gate = clCreateUserEvent(ctx, &err), ev;
  CHECK_CL(err);
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, under, ones, 1, &gate, &ev));
  CHECK_CL(clSetUserEventStatus(gate, -1));
  clWaitForEvents(1, &ev);
  cl_int status = 0;
  CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK_MSG(status < 0, "the gated launch: status %d", status);
  clReleaseEvent(ev);
  clReleaseEvent(gate);
  /* nothing ran: the buffer keeps its poison (a fresh queue: the failed command may stop one) */
  cl_command_queue q2 = hg_test_queue(ctx, 0);
  CHECK_CL(clEnqueueReadBuffer(q2, out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
  CHECK_MSG(got == poison, "out = %d, poison %d", got, poison);
  clReleaseCommandQueue(q2);
  clReleaseMemObject(out);
  env_close(&e);
}

/* 2^32 + 1 work-items, no local size: groups of 641 (the only divisor above 1 within the
 * work-group size); every group runs, the last work-item sees the whole range. */
HG_TEST(more_than_2_32_work_items_without_local_size) {
  if (on_riscv()) {
    hg_test_skip("2^32 simulated work-items take too long; the limits test covers the riscv backend");
    return;
  }
  env e;
  CHECK(env_open(&e, "mark"));
  cl_context ctx = e.ctx;
  cl_command_queue q = e.q;
  cl_kernel k = e.k;
  cl_int err;
  const uint64_t global = (1ull << 32) + 1, cap = global / 641;
  cl_mem flags = clCreateBuffer(ctx, CL_MEM_READ_WRITE, cap, NULL, &err);
  CHECK_CL(err);
  cl_mem info = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 3 * sizeof(cl_ulong), NULL, &err);
  CHECK_CL(err);
  uint8_t poison = 0, salt = (uint8_t)(1 + hg_test_rand() % 255);
  cl_ulong got[3] = {0}, info_poison = 0xdeadbeefdeadbeefull;
  CHECK_CL(clEnqueueFillBuffer(q, flags, &poison, 1, 0, cap, 0, NULL, NULL));
  CHECK_CL(clEnqueueFillBuffer(q, info, &info_poison, sizeof info_poison, 0, sizeof got, 0, NULL, NULL));
  cl_ulong capv = cap;
  CHECK_CL(clSetKernelArg(k, 0, sizeof flags, &flags));
  CHECK_CL(clSetKernelArg(k, 1, sizeof capv, &capv));
  CHECK_CL(clSetKernelArg(k, 2, sizeof salt, &salt));
  CHECK_CL(clSetKernelArg(k, 3, sizeof info, &info));
  size_t g = (size_t)global, wg = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  cl_event ev;
  if (wg < 641) {
    /* (NVIDIA: 256 for this kernel's forms) only groups of 1 divide the range: 2^32 + 1 groups */
    CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev), CL_INVALID_GLOBAL_WORK_SIZE);
    clReleaseMemObject(flags);
    clReleaseMemObject(info);
    env_close(&e);
    return;
  }
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev));
  CHECK_CL(clWaitForEvents(1, &ev));
  clReleaseEvent(ev);
  CHECK_CL(clEnqueueReadBuffer(q, info, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  CHECK_MSG(got[0] == global - 1, "last work-item: %llu", (unsigned long long)got[0]);
  CHECK_MSG(got[1] * got[2] == global && got[1] > 1, "groups of %llu x %llu", (unsigned long long)got[1],
            (unsigned long long)got[2]);
  CHECK_MSG(got[2] <= cap, "%llu groups", (unsigned long long)got[2]);
  uint8_t *f = malloc(cap);
  CHECK(f);
  CHECK_CL(clEnqueueReadBuffer(q, flags, CL_TRUE, 0, cap, f, 0, NULL, NULL));
  size_t missing = 0;
  for (uint64_t i = 0; i < got[2]; i++)
    missing += f[i] != salt;
  CHECK_MSG(missing == 0, "%zu of %llu groups did not run", missing, (unsigned long long)got[2]);
  free(f);
  clReleaseMemObject(flags);
  clReleaseMemObject(info);
  env_close(&e);
}

/* Ranges without a local size, one after another (some again right after another shape, as an
 * application alternates two): each launch's groups divide its own range and fit the kernel's
 * work-group size, whatever the launch before it chose. */
HG_TEST(chosen_local_sizes_divide_each_range) {
  env e;
  CHECK(env_open(&e, "shape"));
  cl_int err;
  cl_mem out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 9 * sizeof(cl_ulong), NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(e.k, 0, sizeof out, &out));
  size_t wg = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(e.k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  static const size_t sizes[] = {1, 7, 64, 96, 100, 250, 256, 257, 1000, 1024, 4096, 65537};
  size_t last[3] = {64, 1, 1};
  cl_uint last_dim = 1;
  for (int t = 0; t < 40; t++) {
    cl_uint dim = t % 4 == 3 ? last_dim : 1 + hg_test_rand() % 3;
    size_t global[3] = {1, 1, 1};
    for (cl_uint d = 0; d < dim; d++)
      global[d] = t % 4 == 3 ? last[d] : sizes[hg_test_rand() % (sizeof sizes / sizeof *sizes)];
    /* at most 2^20 work-items, a range the slowest backend runs quickly (65537 x 65537 was also
     * 2^32 groups of one, which no backend takes) */
    for (cl_uint d = dim; d-- > 1 && global[0] * global[1] * global[2] > (1u << 20);)
      global[d] = 1;
    cl_ulong got[9], poison = 0x5a5a5a5a5a5a5a5aull;
    CHECK_CL(clEnqueueFillBuffer(e.q, out, &poison, sizeof poison, 0, sizeof got, 0, NULL, NULL));
    CHECK_CL(clEnqueueNDRangeKernel(e.q, e.k, dim, NULL, global, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(e.q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    size_t product = 1;
    for (cl_uint d = 0; d < 3; d++) {
      CHECK_MSG(got[3 * d] == global[d] && got[3 * d + 1] * got[3 * d + 2] == global[d],
                "launch %d, dimension %u of %zu x %zu x %zu: global %llu = local %llu x %llu groups", t, d, global[0],
                global[1], global[2], (unsigned long long)got[3 * d], (unsigned long long)got[3 * d + 1],
                (unsigned long long)got[3 * d + 2]);
      product *= got[3 * d + 1];
    }
    CHECK_MSG(product >= 1 && product <= wg, "launch %d: groups of %zu work-items, at most %zu", t, product, wg);
    memcpy(last, global, sizeof last);
    last_dim = dim;
  }
  clReleaseMemObject(out);
  env_close(&e);
}
