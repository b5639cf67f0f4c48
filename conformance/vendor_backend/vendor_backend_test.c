/* Unit test of the vendor backend below the OpenCL API: the mini-loader (skips its own library,
 * duplicates, and libraries that do not load), probing, and every operation of the table,
 * checked against host references with fresh random data (seed printed; HG_TEST_SEED repeats
 * a run). Outputs are poisoned first; kernels run many work-items in several work-groups. */
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "common/host_clock.h"
#include "devices/vendor/vendor.h"
#include "devices/vendor/vendor_internal.h"
#include "lowering/opencl_c.h"
#include "lowering/spir.h"
#include "vendor_facts_test.h"
#include "vendor_image_test.h"
#include "vendor_trial_test.h"

static unsigned fails, checks;
#define CHECK(c, ...) do { checks++; if (!(c)) { fails++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static uint64_t rng;
static uint64_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static size_t rr(size_t lo, size_t hi) { return lo + rnd() % (hi - lo + 1); }
static void fill_rand(void *p, size_t n) { for (size_t i = 0; i < n; i++) ((unsigned char *)p)[i] = (unsigned char)rnd(); }

/* The test's own "lowering": returns the source under test (lowering/ is not linked into this
 * test, only the printf table's functions). */
static const char *test_source;
char *hg_lower_opencl_c(const hg_ir_module *m, hg_printf_table *pt, char *err, size_t err_size) {
  if (pt) memset(pt, 0, sizeof *pt); /* the test's kernels do not print (NULL: the table is not wanted) */
  if (!test_source) { snprintf(err, err_size, "test: no source"); return NULL; }
  return strdup(test_source);
}
/* ... and no stoppable forms (vendor_stop_test tests those with the real lowering) */
char *hg_lower_opencl_c_stoppable(const hg_ir_module *m, const hg_oc_forms_target *target, hg_printf_table *pt,
                                  hg_oc_stop_table *stop, char *err, size_t err_size) {
  memset(stop, 0, sizeof *stop);
  return hg_lower_opencl_c(m, pt, err, err_size);
}
char *hg_lower_opencl_c_forms(const hg_ir_module *m, const hg_oc_forms_target *target, hg_printf_table *pt,
                              hg_oc_stop_table *stop, char *err, size_t err_size) {
  return hg_lower_opencl_c_stoppable(m, target, pt, stop, err, err_size);
}
/* ... and no robust form: its hidden arguments are not in the test's sources */
char *hg_lower_opencl_c_robust(const hg_ir_module *m, hg_printf_table *pt, char *err, size_t err_size) {
  memset(pt, 0, sizeof *pt);
  snprintf(err, err_size, "test: no robust form of the test's sources");
  return NULL;
}
const char *hg_lower_opencl_c_options(const hg_ir_module *m) { return "-cl-std=CL1.2"; }
/* ... and no SPIR or PTX: the test's sources are OpenCL C */
uint8_t *hg_lower_spir(const hg_ir_module *m, bool slice_forms, size_t *size, char *err, size_t err_size) {
  *size = 0;
  snprintf(err, err_size, "test: OpenCL C sources");
  return NULL;
}
unsigned hg_spir_call_vector_bytes(void) { return 16; }
char *hg_lower_ptx(const hg_ir_module *m, size_t *size, char *err, size_t err_size) {
  return (char *)hg_lower_spir(m, false, size, err, err_size);
}
/* ... nor the front end's clang (only forms go through it, and the test has none) */
cl_int hg_frontend_compile_spir(const char *source, const char *options, void **bits, size_t *size, char **log) {
  *bits = NULL;
  *size = 0;
  *log = strdup("test: no front end");
  return CL_COMPILE_PROGRAM_FAILURE;
}

/* ... and the front end's log helper (lowering/llvm_util.c), for the tools the backend runs */
void hg_log_append(char **log, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  size_t n = *log ? strlen(*log) : 0;
  char *grown = realloc(*log, n + strlen(line) + 2);
  if (grown) {
    sprintf(grown + n, "%s%s", n ? "\n" : "", line);
    *log = grown;
  }
}

static void rect_ref(unsigned char *dst, const unsigned char *src, const hg_rect *r) {
  for (size_t z = 0; z < r->region[2]; z++)
    for (size_t y = 0; y < r->region[1]; y++)
      memcpy(dst + (r->dst_origin[2] + z) * r->dst_slice_pitch + (r->dst_origin[1] + y) * r->dst_row_pitch + r->dst_origin[0],
             src + (r->src_origin[2] + z) * r->src_slice_pitch + (r->src_origin[1] + y) * r->src_row_pitch + r->src_origin[0],
             r->region[0]);
}
/* random rect fitting in `size` bytes on both sides */
static void rand_rect(hg_rect *r, size_t size) {
  for (;;) {
    for (int s = 0; s < 2; s++) {
      size_t *o = s ? r->dst_origin : r->src_origin;
      r->region[0] = rr(1, 40); r->region[1] = rr(1, 8); r->region[2] = rr(1, 4);
      (void)o;
    }
    r->src_row_pitch = r->region[0] + rr(0, 30); r->dst_row_pitch = r->region[0] + rr(0, 30);
    r->src_slice_pitch = r->src_row_pitch * (r->region[1] + rr(0, 3));
    r->dst_slice_pitch = r->dst_row_pitch * (r->region[1] + rr(0, 3));
    r->src_origin[0] = rr(0, r->src_row_pitch - r->region[0]); r->dst_origin[0] = rr(0, r->dst_row_pitch - r->region[0]);
    r->src_origin[1] = rr(0, r->src_slice_pitch / r->src_row_pitch - r->region[1]);
    r->dst_origin[1] = rr(0, r->dst_slice_pitch / r->dst_row_pitch - r->region[1]);
    r->src_origin[2] = rr(0, 3); r->dst_origin[2] = rr(0, 3);
    size_t send = (r->src_origin[2] + r->region[2]) * r->src_slice_pitch;
    size_t dend = (r->dst_origin[2] + r->region[2]) * r->dst_slice_pitch;
    if (send <= size && dend <= size) return;
  }
}

static void test_memory(hg_backend *be) {
  const hg_backend_ops *o = be->ops;
  hg_dev_mem *a, *b;
  cl_int e;
  for (int round = 0; round < 20; round++) {
    size_t size = rr(1, 1 << 20);
    CHECK(o->mem_alloc(be, size, &a) == CL_SUCCESS && a, "alloc %zu", size);
    CHECK(o->mem_alloc(be, size, &b) == CL_SUCCESS && b, "alloc %zu", size);
    unsigned char *ha = malloc(size), *hb = malloc(size), *out = malloc(size);
    fill_rand(ha, size); fill_rand(hb, size);
    CHECK(o->mem_write(be, a, 0, size, ha) == CL_SUCCESS, "write");
    CHECK(o->mem_write(be, b, 0, size, hb) == CL_SUCCESS, "write");
    memset(out, 0xA5, size);
    CHECK(o->mem_read(be, a, 0, size, out) == CL_SUCCESS && !memcmp(out, ha, size), "read back %zu", size);
    /* partial write/read */
    size_t off = rr(0, size - 1), n = rr(1, size - off);
    unsigned char *tmp = malloc(n); fill_rand(tmp, n);
    CHECK(o->mem_write(be, a, off, n, tmp) == CL_SUCCESS, "write part");
    memcpy(ha + off, tmp, n);
    memset(tmp, 0x5A, n);
    CHECK(o->mem_read(be, a, off, n, tmp) == CL_SUCCESS && !memcmp(tmp, ha + off, n), "read part");
    free(tmp);
    /* copies */
    for (int c = 0; c < 5; c++) {
      size_t so = rr(0, size - 1), dof = rr(0, size - 1);
      size_t m = rr(1, (size - so < size - dof ? size - so : size - dof));
      CHECK(o->mem_copy(be, a, so, b, dof, m) == CL_SUCCESS, "copy");
      memcpy(hb + dof, ha + so, m);
    }
    memset(out, 0, size);
    CHECK(o->mem_read(be, b, 0, size, out) == CL_SUCCESS && !memcmp(out, hb, size), "copies");
    /* fills of every pattern size */
    for (size_t ps = 1; ps <= 128; ps *= 2) {
      if (size < ps) break;
      unsigned char pat[128]; fill_rand(pat, ps);
      size_t count = size / ps, first = rr(0, count - 1), num = rr(1, count - first);
      CHECK(o->mem_fill(be, a, first * ps, num * ps, pat, ps) == CL_SUCCESS, "fill %zu", ps);
      for (size_t i = 0; i < num; i++) memcpy(ha + (first + i) * ps, pat, ps);
    }
    memset(out, 0, size);
    CHECK(o->mem_read(be, a, 0, size, out) == CL_SUCCESS && !memcmp(out, ha, size), "fills");
    /* rects */
    if (size >= 4096) {
      for (int c = 0; c < 6; c++) {
        hg_rect r; memset(&r, 0, sizeof r);
        size_t hsize = 8192; unsigned char *host = malloc(hsize);
        /* write: host (src) -> a (dst) */
        rand_rect(&r, size < hsize ? size : hsize);
        fill_rand(host, hsize);
        CHECK(o->mem_write_rect(be, a, &r, host) == CL_SUCCESS, "write_rect");
        rect_ref(ha, host, &r);
        /* read: b (src) -> host (dst) */
        rand_rect(&r, size < hsize ? size : hsize);
        unsigned char *expect = malloc(hsize); fill_rand(host, hsize); memcpy(expect, host, hsize);
        CHECK(o->mem_read_rect(be, b, &r, host) == CL_SUCCESS, "read_rect");
        rect_ref(expect, hb, &r);
        CHECK(!memcmp(host, expect, hsize), "read_rect content");
        /* copy: a -> b */
        rand_rect(&r, size);
        CHECK(o->mem_copy_rect(be, a, b, &r) == CL_SUCCESS, "copy_rect");
        rect_ref(hb, ha, &r);
        free(expect); free(host);
      }
      memset(out, 0, size);
      CHECK(o->mem_read(be, a, 0, size, out) == CL_SUCCESS && !memcmp(out, ha, size), "rect writes");
      CHECK(o->mem_read(be, b, 0, size, out) == CL_SUCCESS && !memcmp(out, hb, size), "rect copies");
    }
    /* errors */
    CHECK(o->mem_read(be, a, size, 1, out) == CL_INVALID_VALUE, "read out of bounds");
    e = o->mem_copy(be, a, 0, a, size / 4, size - size / 4);
    CHECK(e == CL_MEM_COPY_OVERLAP, "overlap: %d", e);
    o->mem_free(be, a); o->mem_free(be, b);
    free(ha); free(hb); free(out);
  }
  CHECK(o->mem_alloc(be, 0, &a) == CL_INVALID_BUFFER_SIZE && !a, "alloc 0");
  /* more than the device has: must fail (a vendor may grant more than MAX_MEM_ALLOC_SIZE) */
  e = o->mem_alloc(be, 2 * be->limits.global_mem_size + 4096, &a);
  CHECK(e == CL_MEM_OBJECT_ALLOCATION_FAILURE && !a, "alloc too big: %d", e);
  if (a) o->mem_free(be, a);
}

static const char *kernel_src =
    "kernel void k(global int *out, global const int *in, local int *tmp, int add, global int *maybe,\n"
    "              struct { int a; long b; } s) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);\n"
    "  tmp[l] = in[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = tmp[ls - 1 - l] + add + (maybe ? 1000 : 0) + s.a + (int)s.b;\n"
    "}\n"
    "kernel void k2(global float *out, int w) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * w + x] = (float)(x * 3 + y);\n"
    "}\n";

typedef struct { int a; long b; } S;

struct thr { hg_backend *be; hg_dev_kernel *k; int ok; };
static void *launch_thread(void *p) {
  struct thr *t = p; hg_backend *be = t->be; const hg_backend_ops *o = be->ops;
  size_t n = 4096; hg_dev_mem *out = NULL;
  if (o->mem_alloc(be, n * 4, &out) != CL_SUCCESS) return NULL;
  t->ok = 1;
  for (int it = 0; it < 10; it++) {
    int w = 64;
    hg_launch_arg args[2] = {{.kind = HG_ARG_BUFFER, .mem = out}, {.kind = HG_ARG_VALUE, .size = 4, .value = &w}};
    hg_launch l = {.work_dim = 2, .global_size = {64, 64, 1}, .local_size = {16, 4, 1}, .num_args = 2, .args = args};
    if (o->kernel_launch(be, t->k, &l, NULL) != CL_SUCCESS) t->ok = 0;
    float *h = malloc(n * 4); o->mem_read(be, out, 0, n * 4, h);
    for (size_t y = 0; y < 64; y++) for (size_t x = 0; x < 64; x++) if (h[y * 64 + x] != (float)(x * 3 + y)) t->ok = 0;
    free(h);
  }
  o->mem_free(be, out);
  return NULL;
}

static void test_code(hg_backend *be) {
  const hg_backend_ops *o = be->ops;
  hg_dev_program *p = NULL; char *log = NULL;
  test_source = NULL;
  cl_int e = o->program_build(be, NULL, NULL, NULL, &p, &log);
  CHECK(e == CL_BUILD_PROGRAM_FAILURE && !p && log && strstr(log, "test: no source"), "lowering failure %d %s", e, log);
  free(log); log = NULL;
  test_source = "kernel void bad(global int *x) { x[0] = y; }";
  e = o->program_build(be, NULL, NULL, "-DFOO=1", &p, &log);
  CHECK(e == CL_BUILD_PROGRAM_FAILURE && !p && log && *log, "bad source %d", e);
  printf("  bad-source log: %.200s\n", log ? log : "(null)");
  free(log); log = NULL;
  test_source = kernel_src;
  e = o->program_build(be, NULL, NULL, "-DFOO=1", &p, &log);
  CHECK(e == CL_SUCCESS && p && log, "build %d %s", e, log);
  free(log);
  hg_dev_kernel *k = NULL, *k2 = NULL;
  CHECK(o->kernel_create(be, p, "nope", &k) == CL_INVALID_KERNEL_NAME && !k, "bad name");
  CHECK(o->kernel_create(be, p, "k", &k) == CL_SUCCESS && k, "create k");
  CHECK(o->kernel_create(be, p, "k2", &k2) == CL_SUCCESS && k2, "create k2");
  size_t n = 64 * 1024, pad = 512 * 3; /* out at a sub-buffer offset */
  hg_dev_mem *out, *in, *flag;
  o->mem_alloc(be, n * 4 + pad, &out); o->mem_alloc(be, n * 4, &in); o->mem_alloc(be, 64, &flag);
  int *hin = malloc(n * 4), *hout = malloc(n * 4 + pad);
  fill_rand(hin, n * 4);
  for (size_t i = 0; i < n; i++) hin[i] &= 0xffffff;
  o->mem_write(be, in, 0, n * 4, hin);
  for (int pass = 0; pass < 4; pass++) {
    memset(hout, 0xCD, n * 4 + pad);
    o->mem_write(be, out, 0, n * 4 + pad, hout);
    int add = (int)rr(0, 1000);
    S s = {.a = (int)rr(0, 100), .b = (long)rr(0, 100)};
    size_t lsz = pass & 1 ? 256 : 64, off = pass < 2 ? 0 : pad;
    hg_launch_arg args[6] = {
        {.kind = HG_ARG_BUFFER, .mem = out, .offset = off},
        {.kind = HG_ARG_BUFFER, .mem = in},
        {.kind = HG_ARG_LOCAL, .size = lsz * 4},
        {.kind = HG_ARG_VALUE, .size = 4, .value = &add},
        {.kind = HG_ARG_BUFFER, .mem = pass == 3 ? flag : NULL},
        {.kind = HG_ARG_VALUE, .size = sizeof s, .value = &s},
    };
    hg_launch l = {.work_dim = 1, .global_size = {n, 1, 1}, .local_size = {lsz, 0, 0}, .num_args = 6, .args = args};
    uint64_t ns = 12345;
    e = o->kernel_launch(be, k, &l, &ns);
    CHECK(e == CL_SUCCESS, "launch %d", e);
    CHECK(ns != 12345, "device_ns not written");
    printf("  launch pass %d: device_ns=%llu\n", pass, (unsigned long long)ns);
    o->mem_read(be, out, 0, n * 4 + pad, hout);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
      size_t grp = i / lsz, l2 = i % lsz;
      int want = hin[grp * lsz + (lsz - 1 - l2)] + add + (pass == 3 ? 1000 : 0) + s.a + (int)s.b;
      if (hout[off / 4 + i] != want) bad++;
    }
    for (size_t i = 0; i < off / 4; i++) if (hout[i] != (int)0xCDCDCDCD) bad++;
    CHECK(!bad, "kernel results pass %d: %d wrong", pass, bad);
  }
  /* profiled times on the host clock keep the device's length, and an offset calibrated too
   * high (by 1 ms: more than the kernel lasts) is corrected by the first timed wait */
  if (o->kernel_launch_async && hg_vendor_of(be)->clock_known) {
    hg_vendor_backend *vb = hg_vendor_of(be);
    int64_t calibrated = atomic_load(&vb->clock_offset);
    atomic_store(&vb->clock_offset, calibrated + 1000000);
    int add = 1; S s = {0};
    hg_launch_arg args[6] = {{.kind = HG_ARG_BUFFER, .mem = out}, {.kind = HG_ARG_BUFFER, .mem = in},
                             {.kind = HG_ARG_LOCAL, .size = 64 * 4}, {.kind = HG_ARG_VALUE, .size = 4, .value = &add},
                             {.kind = HG_ARG_BUFFER, .mem = NULL}, {.kind = HG_ARG_VALUE, .size = sizeof s, .value = &s}};
    hg_launch l = {.work_dim = 1, .global_size = {n, 1, 1}, .local_size = {64, 0, 0}, .num_args = 6, .args = args};
    for (int i = 0; i < 3; i++) {
      hg_token *t = NULL;
      e = o->kernel_launch_async(be, k, &l, true, &t);
      CHECK(e == CL_SUCCESS && t, "timed launch %d", e);
      if (!t) break;
      uint64_t start = 0, end = 0;
      CHECK(o->token_wait(be, t, &start, &end) == CL_SUCCESS, "timed wait");
      cl_ulong after = hg_host_clock_ns(), raw_start = 0, raw_end = 0;
      CHECK(hg_vendor_event_times((cl_event)t, &raw_start, &raw_end), "the vendor's own times");
      CHECK(end - start == raw_end - raw_start && end <= after, "launch %d: [%llu, %llu] on the host (length %llu), "
            "the vendor measured %llu, done by %llu", i, (unsigned long long)start, (unsigned long long)end,
            (unsigned long long)(end - start), (unsigned long long)(raw_end - raw_start), (unsigned long long)after);
      o->token_release(be, t);
    }
    CHECK(atomic_load(&vb->clock_offset) < calibrated + 1000000, "the offset was not corrected");
  }
  /* untimed launches go without a vendor event (one batch, one marker when first waited for):
   * a burst of them with each a different `add`, then a timed read (the profiling queue, which
   * must wait for the eventless launches on the other one) sees the last launch's results; the
   * first launch's token, waited for last, completes too */
  if (o->kernel_launch_async && o->mem_read_async) {
    enum { BURST = 20 };
    hg_token *tok[BURST] = {0};
    int adds[BURST];
    S s = {0};
    for (int i = 0; i < BURST; i++) {
      adds[i] = (int)rr(0, 1000);
      hg_launch_arg args[6] = {{.kind = HG_ARG_BUFFER, .mem = out}, {.kind = HG_ARG_BUFFER, .mem = in},
                               {.kind = HG_ARG_LOCAL, .size = 64 * 4}, {.kind = HG_ARG_VALUE, .size = 4, .value = &adds[i]},
                               {.kind = HG_ARG_BUFFER, .mem = NULL}, {.kind = HG_ARG_VALUE, .size = sizeof s, .value = &s}};
      hg_launch l = {.work_dim = 1, .global_size = {n, 1, 1}, .local_size = {64, 0, 0}, .num_args = 6, .args = args};
      e = o->kernel_launch_async(be, k, &l, false, &tok[i]);
      CHECK(e == CL_SUCCESS && tok[i], "untimed launch %d: %d", i, e);
    }
    memset(hout, 0xCD, n * 4);
    hg_token *rt = NULL;
    e = o->mem_read_async(be, out, 0, n * 4, hout, true, &rt);
    CHECK(e == CL_SUCCESS && rt, "timed read after untimed launches: %d", e);
    if (rt) {
      CHECK(o->token_wait(be, rt, NULL, NULL) == CL_SUCCESS, "timed read wait");
      o->token_release(be, rt);
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
      size_t g0 = i / 64 * 64, l0 = i % 64;
      bad += hout[i] != hin[g0 + 63 - l0] + adds[BURST - 1];
    }
    CHECK(!bad, "results after a burst of untimed launches: %d wrong", bad);
    for (int i = 0; i < BURST; i++)
      if (tok[i]) {
        CHECK(o->token_wait(be, tok[i], NULL, NULL) == CL_SUCCESS, "untimed launch %d's token", i);
        o->token_release(be, tok[i]);
      }
  }
  /* local size NULL path, and an error from the vendor */
  { int w = 64; hg_launch_arg args[2] = {{.kind = HG_ARG_BUFFER, .mem = out}, {.kind = HG_ARG_VALUE, .size = 4, .value = &w}};
    hg_launch l = {.work_dim = 2, .global_size = {64, 64, 1}, .num_args = 2, .args = args};
    CHECK(o->kernel_launch(be, k2, &l, NULL) == CL_SUCCESS, "auto local");
    float *h = malloc(64 * 64 * 4); o->mem_read(be, out, 0, 64 * 64 * 4, h); int bad = 0;
    for (size_t y = 0; y < 64; y++) for (size_t x = 0; x < 64; x++) if (h[y * 64 + x] != (float)(x * 3 + y)) bad++;
    CHECK(!bad, "k2 results"); free(h);
    hg_launch l2 = {.work_dim = 2, .global_size = {64, 64, 1}, .local_size = {7, 4, 1}, .num_args = 2, .args = args};
    e = o->kernel_launch(be, k2, &l2, NULL);
    CHECK(e == CL_INVALID_WORK_GROUP_SIZE, "bad local size: %d", e);
    /* an argument at an offset off the vendor's sub-buffer alignment runs on a copy of its range
     * (vendor_shadow.c): results where they belong, nothing written around them, and the copy
     * back ordered before later operations (synchronous untimed and timed, then a token) */
    hg_backend_limits *lim = &be->limits;
    cl_uint vendor_align = lim->mem_base_addr_align_bits;
    lim->mem_base_addr_align_bits = 4096; /* as NVIDIA's, so PoCL's 1024 bits take the copy path too */
    size_t shifted = 64 * 64 * 4 + 1024;
    hg_dev_mem *sh = NULL;
    CHECK(o->mem_alloc(be, shifted, &sh) == CL_SUCCESS, "alloc for misaligned arguments");
    lim->mem_base_addr_align_bits = vendor_align;
    size_t offs[3] = {128, 256 + 64, 896};
    for (int round = 0; round < 3; round++) {
      unsigned char *hs = malloc(shifted);
      memset(hs, 0x5A, shifted);
      o->mem_write(be, sh, 0, shifted, hs);
      hg_launch_arg bargs[2] = {{.kind = HG_ARG_BUFFER, .mem = sh, .offset = offs[round], .size = 64 * 64 * 4},
                                {.kind = HG_ARG_VALUE, .size = 4, .value = &w}};
      hg_launch l3 = {.work_dim = 2, .global_size = {64, 64, 1}, .local_size = {16, 4, 1}, .num_args = 2, .args = bargs};
      uint64_t ns = 0;
      hg_token *t = NULL;
      if (round == 2 && o->kernel_launch_async) {
        e = o->kernel_launch_async(be, k2, &l3, false, &t);
        if (e == CL_SUCCESS && t) {
          e = o->token_wait(be, t, NULL, NULL);
          o->token_release(be, t);
        }
      } else {
        e = o->kernel_launch(be, k2, &l3, round == 1 ? &ns : NULL);
      }
      CHECK(e == CL_SUCCESS, "misaligned sub-buffer launch %d: %d", round, e);
      memset(hs, 0, shifted);
      o->mem_read(be, sh, 0, shifted, hs);
      bad = 0;
      for (size_t i = 0; i < shifted; i++) {
        size_t rel = i - offs[round];
        if (i < offs[round] || rel >= 64 * 64 * 4) {
          bad += hs[i] != 0x5A;
        } else if (rel % 4 == 0) {
          float v;
          memcpy(&v, hs + i, 4);
          bad += v != (float)((rel / 4) % 64 * 3 + (rel / 4) / 64);
        }
      }
      CHECK(!bad, "misaligned sub-buffer results %d: %d bytes wrong", round, bad);
      free(hs);
    }
    o->mem_free(be, sh);
  }
  /* several threads sharing one kernel */
  struct thr t[4]; pthread_t th[4];
  for (int i = 0; i < 4; i++) { t[i] = (struct thr){be, k2, 0}; pthread_create(&th[i], NULL, launch_thread, &t[i]); }
  for (int i = 0; i < 4; i++) { pthread_join(th[i], NULL); CHECK(t[i].ok, "thread %d", i); }
  o->kernel_free(be, k); o->kernel_free(be, k2); o->program_free(be, p);
  o->mem_free(be, out); o->mem_free(be, in); o->mem_free(be, flag);
  free(hin); free(hout);
}

/* A vendors directory for the loader check: the .icd files of the real one, plus one naming
 * this very library (must be skipped), one naming a vendor library again, one that does not
 * load. Returns the directory (static buffer) or NULL. */
static const char *make_vendor_dir(const char *real_dir) {
  static char dir[] = "/tmp/hg_vendor_test_XXXXXX";
  if (!mkdtemp(dir)) return NULL;
  DIR *d = opendir(real_dir);
  if (!d) return NULL;
  char first_lib[4096] = "", path[4600];
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len <= 4 || strcmp(e->d_name + len - 4, ".icd")) continue;
    snprintf(path, sizeof path, "%s/%s", real_dir, e->d_name);
    FILE *in = fopen(path, "r");
    if (!in) continue;
    char lib[4096] = "";
    size_t n = fread(lib, 1, sizeof lib - 1, in);
    lib[n] = 0;
    fclose(in);
    if (!first_lib[0]) snprintf(first_lib, sizeof first_lib, "%s", lib);
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *out = fopen(path, "w");
    if (out) { fputs(lib, out); fclose(out); }
  }
  closedir(d);
  Dl_info self;
  if (dladdr((void *)&make_vendor_dir, &self) && self.dli_fname) {
    snprintf(path, sizeof path, "%s/zz_self.icd", dir);
    FILE *out = fopen(path, "w");
    if (out) { fprintf(out, "%s\n", self.dli_fname); fclose(out); }
  }
  snprintf(path, sizeof path, "%s/zz_again.icd", dir);
  FILE *out = fopen(path, "w");
  if (out) { fputs(first_lib, out); fclose(out); }
  snprintf(path, sizeof path, "%s/zz_missing.icd", dir);
  out = fopen(path, "w");
  if (out) { fputs("libhg_no_such_vendor.so\n", out); fclose(out); }
  return dir;
}

static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  char path[4600];
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') { snprintf(path, sizeof path, "%s/%s", dir, e->d_name); unlink(path); }
  closedir(d);
  rmdir(dir);
}

/* How many backends a fresh process probes with the current environment. */
static int reference_count(void) {
  char exe[4096], cmd[4200];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return -1;
  exe[len] = 0;
  snprintf(cmd, sizeof cmd, "'%s' --count", exe);
  fflush(stdout);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  int n = -1;
  if (fscanf(p, "%d", &n) != 1) n = -1;
  pclose(p);
  return n;
}

int hg_vendor_backend_test_main(int argc, char **argv) {
  hg_backend *bes[16];
  if (argc > 1 && !strcmp(argv[1], "--count")) {
    unsigned n = hg_vendor_probe(bes, 16, false);
    printf("%u\n", n);
    for (unsigned i = 0; i < n; i++) bes[i]->ops->destroy(bes[i]);
    return 0;
  }
  const char *seed_env = getenv("HG_TEST_SEED");
  rng = seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
  if (!rng) rng = 1;
  printf("seed %llu\n", (unsigned long long)rng);
  if (argc > 1 && !strcmp(argv[1], "--facts")) {
    hg_vendor_facts_tests(rnd, &checks, &fails);
    printf("%u checks, %u failures\n", checks, fails);
    return fails ? 1 : checks ? 0 : 77;
  }

  /* the loader check: the same backends through the doctored directory as through the real one */
  const char *real = getenv("HETGPU_VENDORS");
  if (!real || !*real) real = "/etc/OpenCL/vendors";
  struct stat st;
  const char *dir = stat(real, &st) == 0 && S_ISDIR(st.st_mode) ? make_vendor_dir(real) : NULL;
  int want = dir ? reference_count() : -1;
  if (dir) setenv("HETGPU_VENDORS", dir, 1);
  unsigned n = hg_vendor_probe(bes, 16, false);
  if (dir) {
    CHECK(want >= 0 && (unsigned)want == n, "loader: %u backends with self/duplicate/missing entries, %d without", n, want);
    remove_dir(dir);
  }
  printf("backends: %u\n", n);
  if (n == 0) {
    printf("no vendor OpenCL device: skipped\n");
    return fails ? 1 : 77;
  }
  for (unsigned i = 0; i < n; i++) {
    hg_backend *be = bes[i]; const hg_backend_limits *l = &be->limits;
    printf("%s | %s | %s | type %llx\n  gmem %llu alloc %llu lmem %llu wg %zu wi %zux%zux%zu align %u param %zu const %llu cargs %u fp64 %d\n",
           be->name, be->platform_name, be->device_name, (unsigned long long)be->type,
           (unsigned long long)l->global_mem_size, (unsigned long long)l->max_mem_alloc_size,
           (unsigned long long)l->local_mem_size, l->max_work_group_size, l->max_work_item_sizes[0],
           l->max_work_item_sizes[1], l->max_work_item_sizes[2], l->mem_base_addr_align_bits, l->max_parameter_size,
           (unsigned long long)l->max_constant_buffer_size, l->max_constant_args, l->fp64);
    printf("  driver_version: %s\n", be->driver_version);
    CHECK(!strncmp(be->name, "vendor:", 7) && be->platform_name[0] && be->device_name[0] &&
              be->driver_version[0] && !strcmp(be->ops->kind, "vendor"), "names");
    CHECK(l->global_mem_size && l->max_mem_alloc_size && l->max_work_group_size && l->max_work_item_sizes[0] &&
              l->mem_base_addr_align_bits && l->max_parameter_size, "limits");
    test_memory(be);
    test_code(be);
    hg_vendor_image_tests(be, &test_source, rnd, &checks, &fails);
    hg_vendor_trial_tests(be, rnd, &checks, &fails);
    be->ops->destroy(be);
  }
  printf("%u checks, %u failures\n", checks, fails);
  return fails ? 1 : 0;
}
