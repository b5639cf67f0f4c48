/* The trial of two builds of a kernel on its launches (devices/vendor/vendor_trial.c): the choice
 * from device times against a reference median, and the trial's mechanics on the vendor's own
 * profiling queue with two kernels of one program standing for the PTX and the own build:
 * samples alternate, launches of other shapes run the PTX and are not samples, the verdict comes
 * once every sample ran (which one wins is not asserted: that would be a timing assertion), a
 * failed sample or endless other shapes keep the own build, and every launch computes the kernel. */
#include "vendor_trial_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_internal.h"
#include "devices/vendor/vendor_trial.h"

static unsigned *g_checks, *g_fails;
#define CHECK(c, ...) do { (*g_checks)++; if (!(c)) { (*g_fails)++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

enum { RUNS = HG_VENDOR_TRIAL_RUNS };

/* the median of an odd count, as a reference: the value with as many at or below it as above */
static uint64_t median(const uint64_t v[RUNS]) {
  for (int i = 0; i < RUNS; i++) {
    int below = 0, equal = 0;
    for (int j = 0; j < RUNS; j++) {
      below += v[j] < v[i];
      equal += v[j] == v[i];
    }
    if (below <= RUNS / 2 && below + equal > RUNS / 2)
      return v[i];
  }
  return 0;
}

static void test_choose(uint64_t (*random)(void)) {
  uint64_t ptx[RUNS], own[RUNS], own2[RUNS], own3[RUNS];
  for (int i = 0; i < RUNS; i++) {
    ptx[i] = 1000;
    own[i] = i == 0 ? 5000 : 1010; /* one slow launch: the median is 1010, within 1% */
    own2[i] = 1011;
    own3[i] = i < RUNS / 2 ? 1 : 2000; /* more than half slow */
  }
  CHECK(hg_vendor_trial_choose(ptx, own) == 1, "own's median 1010 against 1000");
  CHECK(hg_vendor_trial_choose(ptx, own2) == 0, "own 1.1%% slower");
  CHECK(hg_vendor_trial_choose(ptx, own3) == 0, "own's median 2000");
  for (int t = 0; t < 2000; t++) {
    uint64_t p[RUNS], o[RUNS];
    for (int i = 0; i < RUNS; i++) {
      p[i] = 1000 + random() % 200;
      o[i] = 1000 + random() % 200;
    }
    int want = median(o) * 100 <= median(p) * 101;
    CHECK(hg_vendor_trial_choose(p, o) == want, "choose: medians %llu, %llu", (unsigned long long)median(p),
          (unsigned long long)median(o));
  }
}

static const char *k_source = "__kernel void fill(__global int *o, int v) { size_t i = get_global_id(0);\n"
                              "  o[i] = v + (int)i * 3; }\n";

enum { N = 4096, LOCAL = 64 };

/* One launch of `kernel` (fill with v) on the profiling queue; its event (NULL on failure). */
static cl_event launch(hg_vendor_backend *vb, cl_kernel kernel, cl_mem out, int v) {
  size_t global = N, local = LOCAL;
  cl_event ev = NULL;
  if (VCL(kernel)->clSetKernelArg(kernel, 0, sizeof out, &out) != CL_SUCCESS ||
      VCL(kernel)->clSetKernelArg(kernel, 1, sizeof v, &v) != CL_SUCCESS ||
      VCL(vb->queue)->clEnqueueNDRangeKernel(vb->queue, kernel, 1, NULL, &global, &local, 0, NULL, &ev) != CL_SUCCESS)
    return NULL;
  return ev;
}

static bool output_is(hg_vendor_backend *vb, cl_mem out, int v) {
  int *host = malloc(N * sizeof *host);
  bool ok = host && VCL(vb->queue)->clEnqueueReadBuffer(vb->queue, out, CL_TRUE, 0, N * sizeof *host, host, 0, NULL,
                                                        NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < N; i++)
    ok = host[i] == v + i * 3;
  free(host);
  return ok;
}

static void poison(hg_vendor_backend *vb, cl_mem out) {
  int bad = 0x7eadbeef;
  VCL(vb->queue)->clEnqueueFillBuffer(vb->queue, out, &bad, sizeof bad, 0, N * sizeof(int), 0, NULL, NULL);
}

/* A launch of fill with v as hg_vendor_trial_pick sees it. */
static hg_launch shape(hg_launch_arg args[2], int *v) {
  hg_launch l = {.work_dim = 1, .global_size = {N, 1, 1}, .local_size = {LOCAL, 1, 1}, .num_args = 2, .args = args};
  args[0] = (hg_launch_arg){.kind = HG_ARG_BUFFER};
  args[1] = (hg_launch_arg){.kind = HG_ARG_VALUE, .size = sizeof *v, .value = v};
  return l;
}

static void test_mechanics(hg_vendor_backend *vb, uint64_t (*random)(void)) {
  cl_int err;
  cl_program prog = VCL(vb->context)->clCreateProgramWithSource(vb->context, 1, &k_source, NULL, &err);
  if (!prog || VCL(prog)->clBuildProgram(prog, 1, &vb->device, "", NULL, NULL) != CL_SUCCESS) {
    CHECK(false, "%s: building the trial's kernel", vb->base.name);
    if (prog)
      VCL(prog)->clReleaseProgram(prog);
    return;
  }
  cl_kernel ptx = VCL(prog)->clCreateKernel(prog, "fill", &err);
  cl_mem out = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  for (int round = 0; round < 3 && ptx && out; round++) {
    cl_kernel own = VCL(prog)->clCreateKernel(prog, "fill", &err);
    hg_vendor_trial *t = own ? hg_vendor_trial_new(own) : NULL;
    CHECK(t, "a trial");
    if (!t)
      break;
    hg_launch_arg args[2], other_args[2];
    int v = (int)(random() % 1000), other = v + 1;
    hg_launch l = shape(args, &v), lo = shape(other_args, &other);
    for (int s = 0; s < HG_VENDOR_TRIAL_SAMPLES; s++) {
      CHECK(hg_vendor_trial_verdict(t) == (round == 1 && s > 3 ? 1 : -1), "no verdict before sample %d", s);
      int sample = -2, none = -2;
      cl_kernel run = hg_vendor_trial_pick(t, ptx, &l, &sample);
      CHECK(sample == s && run == (s % 2 ? own : ptx), "sample %d: got %d, %s", s, sample, run == own ? "own" : "PTX");
      cl_kernel run_other = hg_vendor_trial_pick(t, ptx, &lo, &none); /* another shape: the PTX, no sample */
      CHECK(none == -1 && run_other == ptx, "another shape at sample %d", s);
      poison(vb, out);
      cl_event ev = launch(vb, run, out, v);
      CHECK(ev, "sample %d launched", s);
      if (round == 1 && s == 3) {
        hg_vendor_trial_ran(t, sample, NULL); /* a sample that did not launch */
        CHECK(hg_vendor_trial_verdict(t) == 1, "a failed sample keeps the own build");
      } else {
        hg_vendor_trial_ran(t, sample, ev);
      }
      VCL(vb->queue)->clFinish(vb->queue);
      CHECK(output_is(vb, out, v), "sample %d computed the kernel", s);
      if (ev)
        VCL(ev)->clReleaseEvent(ev);
    }
    int none = -2;
    CHECK(hg_vendor_trial_pick(t, ptx, &l, &none) == ptx && none == -1, "no samples after the last");
    int verdict = hg_vendor_trial_verdict(t);
    CHECK(verdict == 0 || verdict == 1, "a verdict once every sample ran: %d", verdict);
    if (round == 2) { /* other shapes and synchronous launches only, on a fresh trial: the own build */
      cl_kernel again = hg_vendor_trial_end(t, false);
      CHECK(!again, "the own build released");
      own = VCL(prog)->clCreateKernel(prog, "fill", &err);
      t = own ? hg_vendor_trial_new(own) : NULL;
      if (!t)
        break;
      int first = -2;
      hg_vendor_trial_pick(t, ptx, &l, &first);
      int picks = 0;
      while (hg_vendor_trial_verdict(t) == -1 && picks < 100000) {
        int sample = -2;
        if (picks % 2)
          hg_vendor_trial_passed(t); /* a synchronous launch */
        else
          hg_vendor_trial_pick(t, ptx, &lo, &sample);
        picks++;
      }
      CHECK(hg_vendor_trial_verdict(t) == 1 && picks > 1, "endless other shapes: %d picks", picks);
      verdict = 1;
    }
    cl_kernel kept = hg_vendor_trial_end(t, verdict == 1);
    CHECK(verdict == 1 ? kept == own : kept == NULL, "the trial's end hands back the own build when kept");
    if (kept)
      VCL(kept)->clReleaseKernel(kept);
  }
  if (out)
    VCL(out)->clReleaseMemObject(out);
  if (ptx)
    VCL(ptx)->clReleaseKernel(ptx);
  VCL(prog)->clReleaseProgram(prog);
}

void hg_vendor_trial_tests(hg_backend *be, uint64_t (*random)(void), unsigned *checks, unsigned *fails) {
  g_checks = checks;
  g_fails = fails;
  test_choose(random);
  test_mechanics(hg_vendor_of(be), random);
}
