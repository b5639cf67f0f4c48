/* bench-clblast: CLBlast's own kernels (Debian's libclblast: its xgemm through CLBlastSgemm, its
 * xaxpy through CLBlastSaxpy) through hetGPU beside a vendor platform, in one run, with
 * hetGPU/native ratios. CLBlast builds its kernels from OpenCL C at a routine's first call on a
 * device and picks their parameters from its tuning database by the device's name, vendor and
 * type, as an application sees them: what it chooses through hetGPU is part of the figure.
 * Per routine: the first call (CLBlast's build included) and the wall time per call of calls
 * back to back and one clFinish (rounds interleaved, the best kept); the two platforms' outputs
 * are compared. The last row runs sgemm again with one tuning forced on both (same_tuning).
 * Usage: bench-clblast [NATIVE_PLATFORM_SUBSTRING] (default "Portable").
 * `bench-clblast --once PLATFORM sgemm|saxpy|sgemm-same` makes one call on one platform and nothing
 * else (sgemm-same: with same_tuning's parameters), to be counted by callgrind on a CPU platform
 * (bench/callgrind_kernels.sh). */
#define CL_TARGET_OPENCL_VERSION 300
#include <clblast_c.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "bench_util.h"

#define CHECK_BLAS(expr)                                                           \
  do {                                                                             \
    CLBlastStatusCode s_ = (expr);                                                 \
    if (s_ != CLBlastSuccess) {                                                    \
      fprintf(stderr, "%s:%d %s failed: %d\n", __FILE__, __LINE__, #expr, (int)s_); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

typedef struct platform_run {
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;
  cl_mem a, b, c, x, y;
} platform_run;

typedef struct sizes {
  size_t n;    /* sgemm: n x n matrices */
  size_t len;  /* saxpy: vector length */
  int iters;   /* calls per measured round */
} sizes;

/* Floats of host data setup reads: the three matrices or the two vectors. */
static size_t host_floats(const sizes *s) { return 3 * s->n * s->n > 2 * s->len ? 3 * s->n * s->n : 2 * s->len; }

static cl_mem buffer(platform_run *r, size_t floats, const float *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, floats * sizeof(float), (void *)init,
                            &err);
  CHECK(err);
  return m;
}

static void setup(platform_run *r, cl_platform_id platform, const sizes *s, const float *host) {
  cl_int err;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &r->device, NULL));
  r->ctx = clCreateContext(NULL, 1, &r->device, NULL, NULL, &err);
  CHECK(err);
  r->queue = clCreateCommandQueueWithProperties(r->ctx, r->device, NULL, &err);
  CHECK(err);
  size_t nn = s->n * s->n;
  r->a = buffer(r, nn, host);
  r->b = buffer(r, nn, host + nn);
  r->c = buffer(r, nn, host + 2 * nn);
  r->x = buffer(r, s->len, host);
  r->y = buffer(r, s->len, host + s->len);
}

typedef enum { SGEMM, SAXPY } routine;

static void call(platform_run *r, routine which, const sizes *s) {
  if (which == SGEMM)
    CHECK_BLAS(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, s->n, s->n, s->n, 1.0f,
                            r->a, 0, s->n, r->b, 0, s->n, 0.5f, r->c, 0, s->n, &r->queue, NULL));
  else
    CHECK_BLAS(CLBlastSaxpy(s->len, 0.75f, r->x, 0, 1, r->y, 0, 1, &r->queue, NULL));
}

/* Seconds per call of `iters` calls back to back and one clFinish. */
static double wall_per_call(platform_run *r, routine which, const sizes *s, int iters) {
  double t0 = bench_now_s();
  for (int i = 0; i < iters; i++)
    call(r, which, s);
  CHECK(clFinish(r->queue));
  return (bench_now_s() - t0) / iters;
}

static double first_call(platform_run *r, routine which, const sizes *s) {
  double t0 = bench_now_s();
  call(r, which, s);
  CHECK(clFinish(r->queue));
  return bench_now_s() - t0;
}

/* Largest difference between the two platforms' results, relative to the native one's size. */
static double difference(platform_run *h, platform_run *v, cl_mem hm, cl_mem vm, size_t floats) {
  float *a = malloc(floats * sizeof *a), *b = malloc(floats * sizeof *b);
  CHECK(clEnqueueReadBuffer(h->queue, hm, CL_TRUE, 0, floats * sizeof *a, a, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(v->queue, vm, CL_TRUE, 0, floats * sizeof *b, b, 0, NULL, NULL));
  double worst = 0;
  for (size_t i = 0; i < floats; i++) {
    double d = fabs((double)a[i] - b[i]) / fmax(1.0, fabs((double)b[i]));
    worst = isnan(d) ? INFINITY : fmax(worst, d);
  }
  free(a);
  free(b);
  return worst;
}

static void print_row(const char *label, double h, double v, const char *unit, double scale) {
  printf("%-30s %12.4f %s %12.4f %s %8.3f\n", label, h * scale, unit, v * scale, unit, h / v);
}

/* One tuning for both platforms: CLBlast picks its parameters by the device's vendor and name
 * (an Intel CPU's or NVIDIA's entry natively, its generic one through hetGPU's vendor), so the
 * rows above compare tunings as much as code. Here both take the direct kernel (XgemmDirect,
 * no helper kernels) with the same parameters: the code alone. False when CLBlast refuses them. */
static bool same_tuning(platform_run *r) {
  static const char *gemm_names[] = {"XGEMM_MIN_INDIRECT_SIZE"};
  static const size_t gemm_values[] = {4096}; /* cubed: more than any size here, so never the indirect kernels */
  static const char *direct_names[] = {"KWID", "MDIMAD", "MDIMCD", "NDIMBD", "NDIMCD",
                                       "PADA", "PADB",   "VWMD",   "VWND",   "WGD"};
  static const size_t direct_values[] = {2, 8, 8, 8, 8, 1, 1, 4, 4, 32};
  CLBlastStatusCode a = CLBlastOverrideParameters(r->device, "GemmRoutine", CLBlastPrecisionSingle, 1, gemm_names,
                                                  gemm_values);
  CLBlastStatusCode b = CLBlastOverrideParameters(r->device, "XgemmDirect", CLBlastPrecisionSingle, 10, direct_names,
                                                  direct_values);
  if (a != CLBlastSuccess || b != CLBlastSuccess)
    fprintf(stderr, "bench-clblast: CLBlast refused the overridden parameters (%d, %d)\n", (int)a, (int)b);
  return a == CLBlastSuccess && b == CLBlastSuccess;
}

/* One call of a routine on one platform at the sizes of a CPU device. */
static int once(const char *platform, const char *routine_name) {
  cl_platform_id p = bench_find_platform(platform);
  bool same = !strcmp(routine_name, "sgemm-same");
  if (!p || (strcmp(routine_name, "sgemm") && strcmp(routine_name, "saxpy") && !same)) {
    fprintf(stderr, "bench-clblast --once: no platform matching '%s', or not sgemm|saxpy|sgemm-same\n", platform);
    return 1;
  }
  sizes s = {256, 1u << 20, 1};
  size_t floats = host_floats(&s);
  float *host = malloc(floats * sizeof *host);
  for (size_t i = 0; i < floats; i++)
    host[i] = (float)(i % 17) / 16.0f - 0.5f;
  platform_run r = {0};
  setup(&r, p, &s, host);
  if (same && !same_tuning(&r))
    return 1;
  call(&r, routine_name[1] == 'g' ? SGEMM : SAXPY, &s);
  CHECK(clFinish(r.queue));
  free(host);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "--once"))
    return once(argv[2], argv[3]);
  const char *native = argc > 1 ? argv[1] : "Portable";
  cl_platform_id hp = bench_find_platform("hetGPU"), vp = bench_find_platform(native);
  if (!hp || !vp) {
    fprintf(stderr, "bench-clblast: needs the hetGPU platform and one named \"%s\"\n", native);
    return 1;
  }
  cl_device_id probe;
  cl_device_type type = 0;
  CHECK(clGetDeviceIDs(vp, CL_DEVICE_TYPE_ALL, 1, &probe, NULL));
  CHECK(clGetDeviceInfo(probe, CL_DEVICE_TYPE, sizeof type, &type, NULL));
  /* a GPU gets sizes that keep it busy; two CPU cores get sizes that end in seconds */
  sizes s = type & CL_DEVICE_TYPE_GPU ? (sizes){2048, 1u << 24, 20} : (sizes){256, 1u << 20, 5};
  const char *env = getenv("HETGPU_BENCH_ITERS");
  if (env && atoi(env) > 0)
    s.iters = atoi(env);
  size_t floats = host_floats(&s);
  float *host = malloc(floats * sizeof *host);
  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  for (size_t i = 0; i < floats; i++)
    host[i] = (float)rand() / RAND_MAX - 0.5f;
  char name[256] = "";
  clGetDeviceInfo(probe, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("native device: %s; sgemm %zux%zu, saxpy %zu floats, %d calls per round, seed %u\n", name, s.n, s.n, s.len,
         s.iters, seed);
  platform_run het = {0}, nat = {0};
  setup(&het, hp, &s, host);
  setup(&nat, vp, &s, host);
  printf("%-30s %15s %15s %8s\n", "measure", "hetGPU", "native", "ratio");
  const struct {
    const char *name;
    routine which;
    bool same_tuning;
  } routines[] = {{"sgemm (CLBlast xgemm)", SGEMM, false},
                  {"saxpy (CLBlast xaxpy)", SAXPY, false},
                  {"sgemm, one tuning for both", SGEMM, true}};
  int status = 0;
  for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++) {
    routine which = routines[i].which;
    if (routines[i].same_tuning && !(same_tuning(&het) && same_tuning(&nat))) {
      status = 1;
      continue;
    }
    char label[64];
    double fh = first_call(&het, which, &s), fv = first_call(&nat, which, &s);
    snprintf(label, sizeof label, "%s first call", routines[i].name);
    print_row(label, fh, fv, "ms", 1e3);
    double wh = DBL_MAX, wv = DBL_MAX;
    for (int round = 0; round < 5; round++) {
      wh = fmin(wh, wall_per_call(&het, which, &s, s.iters));
      wv = fmin(wv, wall_per_call(&nat, which, &s, s.iters));
    }
    snprintf(label, sizeof label, "%s wall", routines[i].name);
    print_row(label, wh, wv, "ms", 1e3);
    /* both ran the same calls on the same inputs: their outputs agree up to summation order */
    double diff = which == SGEMM ? difference(&het, &nat, het.c, nat.c, s.n * s.n)
                                 : difference(&het, &nat, het.y, nat.y, s.len);
    printf("%-30s outputs differ by %.1e\n", "", diff);
    if (!(diff < 1e-3)) {
      fprintf(stderr, "%s: hetGPU's output differs from the native platform's (%.3e)\n", routines[i].name, diff);
      status = 1;
    }
  }
  free(host);
  return status;
}
