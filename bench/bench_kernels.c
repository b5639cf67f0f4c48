/* bench-kernels: the same kernels through hetGPU and directly on a vendor platform, in one run,
 * with hetGPU/native ratios: vadd, sgemm, reduce, stencil (an 8 us kernel on a GPU, back to back
 * as a time-stepping loop runs it), nbody, STREAM's triad over 64 MiB arrays (memory bandwidth),
 * a BLAS-style float4 axpy and a hash-cracking-style integer kernel. Both platforms must be
 * visible to the ICD loader (bench/run.sh arranges that). Usage: bench-kernels
 * [NATIVE_PLATFORM_SUBSTRING] (default "Portable").
 * Per kernel it prints two figures: the device time of one launch (median of the profiled
 * END - START over the launches: what the lowered code costs on the device) and the wall time
 * per launch of back-to-back launches (what the application sees, submission included). The
 * rounds of the two platforms are interleaved, each first in every other round, and the best
 * round is kept, so that the noise of a shared machine hits both alike. The outputs of both
 * platforms are compared. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_kernels_src.h"
#include "bench_util.h"
#include <unistd.h>


static const char *kernels_src = hg_bench_kernels_src;

typedef struct platform_run {
  const char *label;
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;  /* wall times and latency: no profiling cost */
  cl_command_queue pqueue; /* device times: profiling enabled */
  cl_program program;
} platform_run;

static double build_time(platform_run *r, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(r->ctx, 1, &src, NULL, &err);
  CHECK(err);
  double t0 = bench_now_s();
  CHECK(clBuildProgram(p, 1, &r->device, "", NULL, NULL));
  double t = bench_now_s() - t0;
  if (r->program)
    clReleaseProgram(p);
  else
    r->program = p;
  return t;
}

static void setup(platform_run *r, const char *label, cl_platform_id platform) {
  cl_int err;
  r->label = label;
  r->platform = platform;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &r->device, NULL));
  r->ctx = clCreateContext(NULL, 1, &r->device, NULL, NULL, &err);
  CHECK(err);
  r->queue = clCreateCommandQueueWithProperties(r->ctx, r->device, NULL, &err);
  CHECK(err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  r->pqueue = clCreateCommandQueueWithProperties(r->ctx, r->device, props, &err);
  CHECK(err);
}

static cl_mem buffer(platform_run *r, size_t bytes, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, (void *)init, &err);
  CHECK(err);
  return m;
}

typedef struct bench_case {
  const char *name;
  cl_uint dim;
  size_t global[2], local[2];
} bench_case;

static void launch(cl_command_queue q, cl_kernel k, const bench_case *c, cl_event *ev) {
  CHECK(clEnqueueNDRangeKernel(q, k, c->dim, NULL, c->global, c->local[0] ? c->local : NULL, 0, NULL, ev));
}

/* Wall seconds per launch of `iters` launches back to back (no events) and one clFinish; in
 * *enqueue (when not NULL) the seconds per launch until the last enqueue returned: where it is
 * close to the wall, the host's submission is what limits the launches, not the device. */
static double wall_per_launch(platform_run *r, cl_kernel k, const bench_case *c, int iters, double *enqueue) {
  double t0 = bench_now_s();
  for (int i = 0; i < iters; i++)
    launch(r->queue, k, c, NULL);
  double t1 = bench_now_s();
  CHECK(clFinish(r->queue));
  if (enqueue)
    *enqueue = (t1 - t0) / iters;
  return (bench_now_s() - t0) / iters;
}

/* Median device seconds of `iters` profiled launches (END - START of each launch's event). */
static double device_time(platform_run *r, cl_kernel k, const bench_case *c, int iters) {
  cl_event *ev = calloc((size_t)iters, sizeof *ev);
  double *t = calloc((size_t)iters, sizeof *t);
  for (int i = 0; i < iters; i++)
    launch(r->pqueue, k, c, &ev[i]);
  CHECK(clFinish(r->pqueue));
  for (int i = 0; i < iters; i++) {
    cl_ulong s = 0, e = 0;
    CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
    CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof e, &e, NULL));
    t[i] = (double)(e - s) * 1e-9;
    clReleaseEvent(ev[i]);
  }
  bench_sort(t, (size_t)iters);
  double med = t[iters / 2];
  free(ev);
  free(t);
  return med;
}

/* The largest difference between the two platforms' outputs, relative to the output's scale. */
static double output_difference(platform_run *h, cl_mem hb, platform_run *n, cl_mem nb) {
  size_t bytes = 0;
  CHECK(clGetMemObjectInfo(hb, CL_MEM_SIZE, sizeof bytes, &bytes, NULL));
  float *x = malloc(bytes), *y = malloc(bytes);
  CHECK(clEnqueueReadBuffer(h->queue, hb, CL_TRUE, 0, bytes, x, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(n->queue, nb, CL_TRUE, 0, bytes, y, 0, NULL, NULL));
  double scale = FLT_MIN, diff = 0;
  for (size_t i = 0; i < bytes / 4; i++)
    scale = fmax(scale, fabs((double)y[i]));
  for (size_t i = 0; i < bytes / 4; i++)
    diff = fmax(diff, fabs((double)x[i] - (double)y[i]) / scale);
  free(x);
  free(y);
  return diff;
}

/* Sets up the arguments of one case on one platform; returns the kernel. */
static cl_kernel make_case(platform_run *r, const char *name, const float *host, size_t n, cl_mem *bufs) {
  cl_int err;
  cl_kernel k = clCreateKernel(r->program, name, &err);
  CHECK(err);
  int nn;
  float dt = 0.01f;
  if (!strcmp(name, "vadd")) {
    for (int i = 0; i < 3; i++)
      bufs[i] = buffer(r, n * 4, host), clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
  } else if (!strcmp(name, "sgemm")) {
    nn = 512;
    for (int i = 0; i < 3; i++)
      bufs[i] = buffer(r, (size_t)nn * nn * 4, host), clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
    clSetKernelArg(k, 3, sizeof nn, &nn);
  } else if (!strcmp(name, "reduce")) {
    bufs[0] = buffer(r, n * 4, host), bufs[1] = buffer(r, n / 256 * 4, NULL);
    clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]);
    clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[1]);
    clSetKernelArg(k, 2, 256 * 4, NULL);
  } else if (!strcmp(name, "stencil")) {
    nn = 1024;
    bufs[0] = buffer(r, (size_t)nn * nn * 4, host), bufs[1] = buffer(r, (size_t)nn * nn * 4, NULL);
    clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]);
    clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[1]);
    clSetKernelArg(k, 2, sizeof nn, &nn);
    clSetKernelArg(k, 3, sizeof nn, &nn);
  } else if (!strcmp(name, "nbody")) {
    nn = 4096;
    for (int i = 0; i < 4; i++)
      bufs[i] = buffer(r, (size_t)nn * 16, host), clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
    clSetKernelArg(k, 4, sizeof nn, &nn);
    clSetKernelArg(k, 5, sizeof dt, &dt);
  } else if (!strcmp(name, "triad")) {
    float s = 3.0f;
    for (int i = 0; i < 3; i++)
      bufs[i] = buffer(r, n * 4 * 4, host), clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
    clSetKernelArg(k, 3, sizeof s, &s);
  } else if (!strcmp(name, "xaxpy")) {
    float alpha = 0.5f;
    nn = (int)(n / 4); /* float4s */
    for (int i = 0; i < 2; i++)
      bufs[i] = buffer(r, n * 4, host), clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
    clSetKernelArg(k, 2, sizeof alpha, &alpha);
    clSetKernelArg(k, 3, sizeof nn, &nn);
  } else if (!strcmp(name, "hashint")) {
    bufs[0] = buffer(r, n * 4, host), bufs[1] = buffer(r, n * 4, NULL);
    clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]);
    clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[1]);
  }
  return k;
}

int main(int argc, char **argv) {
  const char *native_name = argc > 1 ? argv[1] : "Portable";
  int scale = getenv("HETGPU_BENCH_ITERS") ? atoi(getenv("HETGPU_BENCH_ITERS")) : 20;
  /* HETGPU_BENCH_SUBJECT=<the native's name> measures the vendor against itself (two contexts):
   * the ratios this bench gives where there is no difference, its resolution on this machine */
  const char *subject = getenv("HETGPU_BENCH_SUBJECT") ? getenv("HETGPU_BENCH_SUBJECT") : "hetGPU";
  cl_platform_id hp = bench_find_platform(subject), np = bench_find_platform(native_name);
  if (!hp || !np) {
    fprintf(stderr, "need both platforms visible: '%s' %s, native '%s' %s\n", subject, hp ? "found" : "missing",
            native_name, np ? "found" : "missing");
    return 1;
  }
  if (strcmp(subject, "hetGPU"))
    printf("subject platform (HETGPU_BENCH_SUBJECT), in the hetGPU column: %s\n", subject);
  platform_run het = {0}, nat = {0};
  setup(&het, "hetGPU", hp);
  setup(&nat, "native", np);
  char dname[256];
  clGetDeviceInfo(nat.device, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  printf("native device: %s\n", dname);
  const char *robust = getenv("HETGPU_ROBUST"); /* bench/run_robust.sh runs both forms */
  printf("hetGPU robust buffer access (HETGPU_ROBUST): %s\n", robust && !strcmp(robust, "1") ? "on" : "off");
  printf("%-28s %14s %14s %10s\n", "measure", "hetGPU", "native", "ratio");

  /* The first build in a process also sets up the vendor's compiler (PoCL: ~0.4 s), once for
   * both platforms (hetGPU runs the same vendor library): a small program of each first. The
   * programs carry a kernel named after this run and round, so that no program cache (hetGPU's,
   * the vendor's, which keys on the preprocessed source) has them: "first" is the median of
   * COLD_ROUNDS cold builds (a vendor's own first build varies by tens of per cent from one to
   * the next), "again" the first round's source again. */
  enum { COLD_ROUNDS = 5 };
  char run_kernel[COLD_ROUNDS + 1][96];
  for (int i = 0; i <= COLD_ROUNDS; i++)
    snprintf(run_kernel[i], sizeof run_kernel[i], "kernel void run_%ld_%d_%d(global int *a) { a[0] = 1; }\n",
             (long)time(NULL), (int)getpid(), i);
  build_time(&het, run_kernel[0]);
  build_time(&nat, run_kernel[0]);
  cl_program warm_up_h = het.program, warm_up_n = nat.program;
  het.program = nat.program = NULL;
  size_t src_len = strlen(kernels_src) + sizeof run_kernel[0];
  char *cold_src = malloc(src_len);
  double cold_h[COLD_ROUNDS], cold_n[COLD_ROUNDS];
  for (int i = COLD_ROUNDS; i >= 1; i--) { /* the last round's source (1) is kept for "again" */
    snprintf(cold_src, src_len, "%s%s", run_kernel[i], kernels_src);
    /* native first: hetGPU builds a program's stoppable forms on a thread of its own once no
     * build came for a second, which would hold the vendor's compiler during a native build */
    cold_n[i - 1] = build_time(&nat, cold_src);
    cold_h[i - 1] = build_time(&het, cold_src);
  }
  double warm_n = build_time(&nat, cold_src), warm_h = build_time(&het, cold_src);
  free(cold_src);
  clReleaseProgram(warm_up_h);
  clReleaseProgram(warm_up_n);
  bench_sort(cold_h, COLD_ROUNDS);
  bench_sort(cold_n, COLD_ROUNDS);
  double med_h = cold_h[COLD_ROUNDS / 2], med_n = cold_n[COLD_ROUNDS / 2];
  printf("%-28s %12.3f ms %12.3f ms %10.3f\n", "clBuildProgram (first)", med_h * 1e3, med_n * 1e3, med_h / med_n);
  printf("%-28s %9.0f-%.0f ms %9.0f-%.0f ms\n", "  (cold builds' range)", cold_h[0] * 1e3, cold_h[COLD_ROUNDS - 1] * 1e3,
         cold_n[0] * 1e3, cold_n[COLD_ROUNDS - 1] * 1e3);
  printf("%-28s %12.3f ms %12.3f ms %10.3f\n", "clBuildProgram (again)", warm_h * 1e3, warm_n * 1e3, warm_h / warm_n);

  size_t n = 1 << 22;
  float *host = malloc(n * 4 * 4);
  for (size_t i = 0; i < n * 4; i++)
    host[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  const bench_case cases[] = {
      {"vadd", 1, {1 << 22, 0}, {256, 0}},   {"sgemm", 2, {512, 512}, {16, 16}},
      {"reduce", 1, {1 << 22, 0}, {256, 0}}, {"stencil", 2, {1024, 1024}, {16, 16}},
      {"nbody", 1, {4096, 0}, {128, 0}},    {"triad", 1, {1 << 24, 0}, {256, 0}},
      {"xaxpy", 1, {1 << 18, 0}, {256, 0}},  {"hashint", 1, {1 << 22, 0}, {256, 0}},
  };
  /* the buffer each case writes, for the comparison of the outputs */
  const int out_index[] = {2, 2, 1, 1, 2, 0, 1, 1};
  printf("%-28s %14s %14s %10s\n", "(device: median profiled launch; wall: per back-to-back launch)", "", "", "");
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    cl_mem hb[4] = {0}, nb[4] = {0};
    cl_kernel hk = make_case(&het, cases[c].name, host, n, hb);
    cl_kernel nk = make_case(&nat, cases[c].name, host, n, nb);
    /* [0] hetGPU, [1] native; the best round's wall and its enqueue time */
    platform_run *runs[2] = {&het, &nat};
    cl_kernel ks[2] = {hk, nk};
    double dev[2] = {DBL_MAX, DBL_MAX}, wall[2] = {DBL_MAX, DBL_MAX}, enq[2] = {0, 0};
    for (int p = 0; p < 2; p++)
      wall_per_launch(runs[p], ks[p], &cases[c], 2, NULL); /* warm-up: first-launch costs stay out */
    /* which platform measures first alternates from round to round: the order within a pair
     * has moved short kernels' figures on NVIDIA by a percent (docs/gpu-runs.md, runs IC, ID) */
    for (int round = 0; round < 6; round++) {
      for (int j = 0, p = round % 2; j < 2; j++, p ^= 1)
        dev[p] = fmin(dev[p], device_time(runs[p], ks[p], &cases[c], scale));
      for (int j = 0, p = round % 2; j < 2; j++, p ^= 1) {
        double e, w = wall_per_launch(runs[p], ks[p], &cases[c], scale, &e);
        if (w < wall[p])
          wall[p] = w, enq[p] = e;
      }
    }
    double diff = output_difference(&het, hb[out_index[c]], &nat, nb[out_index[c]]);
    char label[64];
    snprintf(label, sizeof label, "kernel %s device", cases[c].name);
    printf("%-28s %12.4f ms %12.4f ms %10.3f\n", label, dev[0] * 1e3, dev[1] * 1e3, dev[0] / dev[1]);
    snprintf(label, sizeof label, "kernel %s wall", cases[c].name);
    printf("%-28s %12.4f ms %12.4f ms %10.3f   outputs differ by %.1e; enqueues %.1f / %.1f us a launch\n", label,
           wall[0] * 1e3, wall[1] * 1e3, wall[0] / wall[1], diff, enq[0] * 1e6, enq[1] * 1e6);
    if (!(diff < 1e-4)) {
      fprintf(stderr, "kernel %s: hetGPU's output differs from the native platform's (%.3e)\n", cases[c].name, diff);
      return 1;
    }
    for (int i = 0; i < 4; i++) {
      if (hb[i])
        clReleaseMemObject(hb[i]);
      if (nb[i])
        clReleaseMemObject(nb[i]);
    }
    clReleaseKernel(hk);
    clReleaseKernel(nk);
  }
  /* enqueue latency: time for one empty-kernel launch to complete, launched one at a time */
  cl_int err;
  cl_kernel he = clCreateKernel(het.program, "empty", &err), ne = clCreateKernel(nat.program, "empty", &err);
  const bench_case empty = {"empty", 1, {1, 0}, {1, 0}};
  double lh = 0, ln = 0;
  int reps = scale * 10;
  for (int i = 0; i < reps; i++) {
    double t0 = bench_now_s();
    CHECK(clEnqueueNDRangeKernel(het.queue, he, 1, NULL, empty.global, empty.local, 0, NULL, NULL));
    CHECK(clFinish(het.queue));
    lh += bench_now_s() - t0;
    t0 = bench_now_s();
    CHECK(clEnqueueNDRangeKernel(nat.queue, ne, 1, NULL, empty.global, empty.local, 0, NULL, NULL));
    CHECK(clFinish(nat.queue));
    ln += bench_now_s() - t0;
  }
  printf("%-28s %12.3f us %12.3f us %10.3f\n", "empty kernel enqueue+finish", lh / reps * 1e6, ln / reps * 1e6,
         lh / ln);
  free(host);
  return 0;
}
