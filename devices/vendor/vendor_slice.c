/* Fresh stoppable launches in slices (lowering/opencl_c_slice.c, docs/opencl-c-safe-points.md).
 *
 * A kernel whose work-groups end quickly needs no safe point inside them to stop within the
 * latency goal: its range runs as consecutive slices of its groups in linear order (whole rows
 * of the highest dimension with more than one group, or in 2-D parts of a row, left to right,
 * so the groups done are a prefix), each its own vendor launch of the plain code, and a stop
 * request is answered between two slices: the groups before are DONE, the others NOT_STARTED.
 * Steady state costs one launch per slice (a few microseconds against a slice's 250) and
 * nothing inside the kernel, where the in-kernel checks cost a reduction up to 1.6x on NVIDIA
 * (docs/gpu-runs.md).
 *
 * Sizing. What decides is how long one group runs: a device runs many at once (here taken as
 * a wave: one group per compute unit on a CPU device, else 2048 work-items per compute unit,
 * the most NVIDIA and AMD keep resident), so a slice of fewer groups than a wave still lasts a
 * group's time. A kernel's first stoppable launch runs in its stoppable form, with safe points
 * inside the groups, and leaves a group's time: its device time over its waves (an upper
 * bound where the wave is smaller). Later launches whose groups (in 3-D: planes of groups) end
 * within two slices' time (HETGPU_SLICE_US) run in slices of whole waves sized to last one
 * slice's time (growing at most MAX_GROWTH times per slice, the group's time updated by each);
 * the next slice is enqueued before the current one is waited for, so the device never waits
 * for the host and a stop waits for at most two slices. Not sliced: launches under a kernel
 * time limit (a group that never ends must still be stopped, at its safe points), the tests'
 * countdown, and kernels whose groups print. A group that runs far longer than its kernel's
 * earlier ones delays a stop until it ends (the request's own timeout then decides,
 * docs/cl_hetgpu_migrate.md). */
#include <stdlib.h>
#include <string.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "common/safepoint_settings.h"
#include "devices/vendor/vendor_internal.h"

#define MAX_GROWTH 8u

/* A slice's run on this device (HETGPU_SLICE_US; two in flight, a stop waits at most two).
 * A CPU device gets slices eight times as long (2 ms by default): PoCL spends about 50 us
 * between two launches, so bench sgemm's launches in 500 us slices took 1.12x PoCL's wall time,
 * in 1 ms slices 1.07x, in 2 ms 1.03x (docs/performance.md), and a stop within 4 ms is still
 * small beside the copies of a migration. */
static uint64_t slice_target_ns(const hg_vendor_backend *vb) {
  return vb->base.type & CL_DEVICE_TYPE_CPU ? 8 * hg_slice_target_ns() : hg_slice_target_ns();
}

typedef struct slice_args {
  const hg_vendor_range *r;
  uint64_t first[3]; /* the slice's first group per dimension */
} slice_args;

static cl_int set_slice_args(cl_kernel kernel, cl_uint i, void *arg) {
  const slice_args *a = arg;
  cl_ulong v[9]; /* the order of lowering/opencl_c_slice.c */
  for (unsigned dim = 0; dim < 3; dim++) {
    v[dim] = a->first[dim];
    v[3 + dim] = a->r->global[dim] / a->r->local[dim];
    v[6 + dim] = a->r->offset[dim];
  }
  cl_int err = CL_SUCCESS;
  for (unsigned k = 0; k < 9; k++)
    err |= VCL(kernel)->clSetKernelArg(kernel, i + k, sizeof v[k], &v[k]);
  return err ? CL_INVALID_KERNEL_ARGS : CL_SUCCESS;
}

/* One slice in flight: groups [first, first + groups) in linear order. */
typedef struct slice {
  cl_event ev;
  uint64_t first, groups;
  uint64_t host_start;
} slice;

typedef struct slicer {
  hg_vendor_backend *vb;
  hg_dev_kernel *k;
  const hg_vendor_range *r;
  const hg_launch *l;
  unsigned dim;     /* the highest dimension with more than one group */
  uint64_t n[3];    /* groups per dimension */
  uint64_t next;    /* first group not enqueued yet (linear: g0 + n0 * (g1 + n1 * g2)) */
  uint64_t device_ns;
} slicer;

static unsigned sliced_dim(const hg_vendor_range *r, uint64_t *n) {
  unsigned dim = 0;
  for (unsigned d = 0; d < 3; d++) {
    n[d] = r->global[d] / r->local[d];
    if (d < r->work_dim && n[d] > 1)
      dim = d;
  }
  return dim;
}

/* Groups a slice may take from `next` when `want` would do: whole rows of the sliced dimension
 * (rows of dimension 0 in 2-D ranges may also be cut, left to right: the groups done stay a
 * prefix), never fewer than one group or one plane (3-D). */
static uint64_t slice_groups(const slicer *s, uint64_t want) {
  uint64_t left = s->r->num_groups - s->next, g;
  if (s->dim == 0) {
    g = want;
  } else if (s->dim == 1) {
    uint64_t col = s->next % s->n[0];
    g = col || want < s->n[0] ? (want < s->n[0] - col ? want : s->n[0] - col) : want / s->n[0] * s->n[0];
  } else {
    uint64_t plane = s->n[0] * s->n[1];
    g = want < plane ? plane : want / plane * plane;
  }
  if (!g)
    g = 1;
  return g < left ? g : left;
}

static cl_int slice_enqueue(slicer *s, uint64_t want, slice *out) {
  uint64_t groups = slice_groups(s, want), at = s->next;
  uint64_t c[3] = {at % s->n[0], at / s->n[0] % s->n[1], at / (s->n[0] * s->n[1])}, size[3] = {1, 1, 1};
  if (s->dim == 0 || (s->dim == 1 && (c[0] || groups < s->n[0]))) {
    size[0] = groups; /* along dimension 0 (a cut row in 2-D) */
  } else {
    for (unsigned d = 0; d < s->dim; d++)
      size[d] = s->n[d];
    size[s->dim] = groups / (s->dim == 1 ? s->n[0] : s->n[0] * s->n[1]);
  }
  hg_launch l = *s->l;
  slice_args a = {.r = s->r};
  for (unsigned d = 0; d < s->r->work_dim; d++) {
    a.first[d] = c[d];
    l.global_offset[d] = 0; /* the form places the slice (lowering/slice_form.h) */
    l.global_size[d] = size[d] * s->r->local[d];
  }
  *out = (slice){.first = at, .groups = groups, .host_start = hg_host_clock_ns()};
  cl_int err = hg_vendor_enqueue_kernel(s->vb, s->k, s->k->slice_kernel, &l, set_slice_args, &a, &out->ev);
  if (err == CL_SUCCESS)
    s->next += groups;
  return err;
}

/* Waits for a slice; its run time (device time when profiled, else host time) in *ns. */
static cl_int slice_wait(slicer *s, slice *sl, uint64_t *ns) {
  uint64_t device_ns;
  cl_int err = hg_vendor_wait_timed(sl->ev, &device_ns);
  sl->ev = NULL;
  *ns = device_ns ? device_ns : hg_host_clock_ns() - sl->host_start;
  s->device_ns += device_ns;
  return err;
}

/* Groups the device runs at once (the sizing above). */
static uint64_t wave_groups(const hg_vendor_backend *vb, const hg_vendor_range *r) {
  uint64_t units = vb->base.hints.compute_units;
  if (vb->base.type & CL_DEVICE_TYPE_CPU)
    return units;
  return units * (r->items < 2048 ? 2048 / r->items : 1);
}

/* A group's time, from `ns` for `groups` groups. */
static uint64_t group_ns_of(const hg_vendor_backend *vb, const hg_vendor_range *r, uint64_t ns, uint64_t groups) {
  uint64_t wave = wave_groups(vb, r), waves = (groups + wave - 1) / wave;
  return ns / waves ? ns / waves : 1;
}

/* Groups wanted in the next slice, a group lasting group_ns (last: the slice before's, 0: none). */
static uint64_t slice_want(const slicer *s, uint64_t group_ns, uint64_t last) {
  uint64_t waves = slice_target_ns(s->vb) / group_ns;
  uint64_t groups = (waves ? waves : 1) * wave_groups(s->vb, s->r);
  return last && groups > last * MAX_GROWTH ? last * MAX_GROWTH : groups;
}

bool hg_vendor_slices_fit(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_vendor_range *r, const hg_launch *l) {
  uint64_t n[3], group_ns = atomic_load(&k->slice_group_ns), target = slice_target_ns(vb);
  if (!group_ns || !target || l->time_limit_ns || l->stop_after || group_ns > 2 * target)
    return false;
  if (sliced_dim(r, n) < 2)
    return true;
  uint64_t wave = wave_groups(vb, r); /* 3-D: a slice is at least a plane */
  return (n[0] * n[1] + wave - 1) / wave * group_ns <= 2 * target;
}

void hg_vendor_slices_measured(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_vendor_range *r,
                               uint64_t device_ns) {
  if (device_ns)
    atomic_store(&k->slice_group_ns, group_ns_of(vb, r, device_ns, r->num_groups));
}

/* The state of the range with groups [0, done) done and the rest not started. */
static hg_ir_ndrange_state *state_after(const slicer *s, uint64_t done) {
  const hg_oc_stop_kernel *info = s->k->stop_info;
  hg_ir_ndrange_state *st = hg_ir_ndrange_state_new(info->name, s->r->work_dim, s->r->offset, s->r->global,
                                                    s->r->local, &info->layout, s->r->local_bytes);
  if (st)
    memset(st->group_status, HG_GROUP_DONE, done);
  return st;
}

cl_int hg_vendor_run_sliced(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_launch *l, const hg_vendor_range *r,
                            hg_ir_ndrange_state **stopped, uint64_t *device_ns) {
  *stopped = NULL;
  slicer s = {.vb = vb, .k = k, .r = r, .l = l};
  s.dim = sliced_dim(r, s.n);
  uint64_t group_ns = atomic_load(&k->slice_group_ns), done = 0;
  bool stop = false, have_next = false;
  slice cur = {0}, next = {0};
  cl_int err = slice_enqueue(&s, slice_want(&s, group_ns, 0), &cur);
  while (err == CL_SUCCESS) {
    stop = l->stop && atomic_load(&l->stop->requested);
    /* the next slice goes in before this one is waited for */
    have_next = !stop && s.next < r->num_groups &&
                (err = slice_enqueue(&s, slice_want(&s, group_ns, cur.groups), &next)) == CL_SUCCESS;
    uint64_t ns = 0;
    cl_int wait_err = slice_wait(&s, &cur, &ns);
    if (err == CL_SUCCESS)
      err = wait_err;
    if (err == CL_SUCCESS) {
      done = cur.first + cur.groups;
      group_ns = group_ns_of(vb, r, ns, cur.groups);
    }
    if (!have_next)
      break;
    cur = next;
    have_next = false;
  }
  if (have_next) { /* a failure left the next slice in flight */
    uint64_t ns;
    slice_wait(&s, &next, &ns);
  }
  atomic_store(&k->slice_group_ns, group_ns);
  if (device_ns)
    *device_ns = s.device_ns;
  if (err != CL_SUCCESS || done == r->num_groups)
    return err;
  *stopped = state_after(&s, done);
  HG_LOG(HG_LOG_SCHED, "%s: %s stopped between slices: %llu of %llu groups done", vb->base.name, k->name,
         (unsigned long long)done, (unsigned long long)r->num_groups);
  return *stopped ? HG_LAUNCH_STOPPED : CL_OUT_OF_HOST_MEMORY;
}
