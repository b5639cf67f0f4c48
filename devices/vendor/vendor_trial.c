/* LLVM's PTX against NVIDIA's own build, on a kernel's launches (devices/vendor/vendor_trial.h).
 *
 * Neither code wins everywhere (H200, docs/gpu-runs.md run RB): NVIDIA's build of the lowered
 * OpenCL C ran hashcat -m 0's kernel 1-3% faster than LLVM 15's PTX, but the bench's nbody in
 * 411.6 us against the PTX's 404.5 (NVIDIA's build of the original source: 403.3) and reduce in
 * 26.1 against 24.9 us. So once NVIDIA's build is loaded, a kernel's next launches of one shape
 * (ranges, group sizes, by-value arguments: the same work) alternate the two on the profiling
 * queue, one of each untimed and then HG_VENDOR_TRIAL_RUNS of each, and the lower median device
 * time takes the later launches. Both compute the same kernel; launches of other shapes run the
 * PTX meanwhile. */
#include "devices/vendor/vendor_trial.h"

#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_internal.h"

enum {
  SAMPLES = HG_VENDOR_TRIAL_SAMPLES, /* even: the PTX, odd: the own build; the first two not timed */
  PATIENCE = 256,                     /* launches not sampled before the own build is taken as is */
};

struct hg_vendor_trial {
  cl_kernel own;
  uint64_t shape;     /* of the sampled launches (0: none sampled yet) */
  unsigned taken;     /* samples handed out */
  unsigned others;    /* launches of other shapes, or that could not be samples */
  bool failed;        /* a sample did not launch or has no times: keep the own build */
  cl_event ev[SAMPLES];
};

hg_vendor_trial *hg_vendor_trial_new(cl_kernel own) {
  hg_vendor_trial *t = calloc(1, sizeof *t);
  if (t)
    t->own = own;
  return t;
}

static uint64_t mix(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull; /* FNV-1a */
  return h;
}

/* What makes two launches the same work; never 0. */
static uint64_t shape_of(const hg_launch *l) {
  uint64_t h = mix(0xcbf29ce484222325ull, &l->work_dim, sizeof l->work_dim);
  h = mix(h, l->global_size, sizeof l->global_size);
  h = mix(h, l->local_size, sizeof l->local_size);
  for (cl_uint i = 0; i < l->num_args; i++) {
    const hg_launch_arg *a = &l->args[i];
    if (a->kind == HG_ARG_VALUE && a->value)
      h = mix(h, a->value, a->size);
    else if (a->kind == HG_ARG_LOCAL)
      h = mix(h, &a->size, sizeof a->size);
  }
  return h ? h : 1;
}

cl_kernel hg_vendor_trial_pick(hg_vendor_trial *t, cl_kernel ptx, const hg_launch *l, int *sample) {
  *sample = -1;
  if (t->taken == SAMPLES)
    return ptx;
  uint64_t shape = shape_of(l);
  if (t->shape && shape != t->shape) {
    t->others++;
    return ptx;
  }
  t->shape = shape;
  *sample = (int)t->taken++;
  return *sample % 2 ? t->own : ptx;
}

void hg_vendor_trial_passed(hg_vendor_trial *t) { t->others++; }

void hg_vendor_trial_ran(hg_vendor_trial *t, int sample, cl_event ev) {
  if (sample < 0 || sample >= SAMPLES)
    return;
  if (ev && VCL(ev)->clRetainEvent(ev) == CL_SUCCESS)
    t->ev[sample] = ev;
  else
    t->failed = true;
}

static int cmp_ns(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int hg_vendor_trial_choose(const uint64_t ptx_ns[HG_VENDOR_TRIAL_RUNS], const uint64_t own_ns[HG_VENDOR_TRIAL_RUNS]) {
  uint64_t p[HG_VENDOR_TRIAL_RUNS], o[HG_VENDOR_TRIAL_RUNS];
  memcpy(p, ptx_ns, sizeof p);
  memcpy(o, own_ns, sizeof o);
  qsort(p, HG_VENDOR_TRIAL_RUNS, sizeof *p, cmp_ns);
  qsort(o, HG_VENDOR_TRIAL_RUNS, sizeof *o, cmp_ns);
  /* the PTX must be more than 1% faster to displace the own build: a later process of a program
   * whose kernels all keep the own build loads that alone (vendor_forms.c, "keeps its PTX") */
  return o[HG_VENDOR_TRIAL_RUNS / 2] * 100 <= p[HG_VENDOR_TRIAL_RUNS / 2] * 101;
}

int hg_vendor_trial_verdict(hg_vendor_trial *t) {
  if (t->failed || t->others >= PATIENCE)
    return 1;
  if (t->taken < SAMPLES)
    return -1;
  for (unsigned i = 0; i < SAMPLES; i++)
    if (!t->ev[i])
      return -1; /* handed out, its launch not recorded yet */
  uint64_t ns[2][HG_VENDOR_TRIAL_RUNS];
  for (unsigned i = 2; i < SAMPLES; i++) {
    cl_int status = CL_QUEUED;
    if (VCL(t->ev[i])->clGetEventInfo(t->ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) !=
            CL_SUCCESS ||
        status < 0)
      return 1;
    if (status != CL_COMPLETE)
      return -1;
    cl_ulong start, end;
    if (!hg_vendor_event_times(t->ev[i], &start, &end) || end < start)
      return 1;
    ns[i % 2][i / 2 - 1] = end - start;
  }
  return hg_vendor_trial_choose(ns[0], ns[1]);
}

cl_kernel hg_vendor_trial_end(hg_vendor_trial *t, bool keep_own) {
  for (unsigned i = 0; i < SAMPLES; i++)
    if (t->ev[i])
      VCL(t->ev[i])->clReleaseEvent(t->ev[i]);
  cl_kernel own = t->own;
  free(t);
  if (keep_own)
    return own;
  VCL(own)->clReleaseKernel(own);
  return NULL;
}
