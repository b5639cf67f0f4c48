/* Fresh stoppable launches in slices (lowering/opencl_c_slice.c, docs/opencl-c-safe-points.md).
 *
 * A kernel whose work-groups end quickly needs no safe point inside them to stop within the
 * latency goal: its range runs as consecutive slices of whole rows of groups (the highest
 * dimension with more than one group, so the groups done are a prefix in linear order), each
 * its own vendor launch of the plain code, and a stop request is answered between two slices:
 * the groups before are DONE, the others NOT_STARTED. Steady state costs one launch per slice
 * (a few microseconds against a slice's 250) and nothing inside the kernel, where the
 * in-kernel checks cost a reduction up to 1.6x on NVIDIA (docs/gpu-runs.md).
 *
 * Sizing. What decides is how long one group runs: a device runs many at once (here taken as
 * a wave: one group per compute unit on a CPU device, else 2048 work-items per compute unit,
 * the most NVIDIA and AMD keep resident), so a slice of fewer groups than a wave still lasts a
 * group's time. A kernel's first stoppable launch runs in its stoppable form, with safe points
 * inside the groups, and leaves a group's time: its device time over its waves (an upper
 * bound where the wave is smaller). Later launches whose groups and rows end within two
 * slices' time (HETGPU_SLICE_US) run in slices of whole waves sized to last one slice's time (growing at most MAX_GROWTH times per slice, the group's time updated by each); the
 * next slice is enqueued before the current one is waited for, so the device never waits for
 * the host and a stop waits for at most two slices. Not sliced: launches under a kernel time
 * limit (a group that never ends must still be stopped, at its safe points), the tests'
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

/* A slice's run on this device (HETGPU_SLICE_US; two in flight, a stop waits about half a
 * millisecond by default): a CPU device starts a launch more slowly, and gets slices twice as
 * long. Rows longer than two are not cut into slices. */
static uint64_t slice_target_ns(const hg_vendor_backend *vb) {
  return vb->base.type & CL_DEVICE_TYPE_CPU ? 2 * hg_slice_target_ns() : hg_slice_target_ns();
}

typedef struct slice_args {
  const hg_vendor_range *r;
  uint64_t first[3]; /* the slice's first group per dimension */
} slice_args;

static cl_int set_slice_args(cl_kernel kernel, cl_uint i, void *arg) {
  const slice_args *a = arg;
  const cl_icd_dispatch *d = VCL(kernel);
  cl_int err = CL_SUCCESS;
  for (unsigned dim = 0; dim < 3; dim++) {
    cl_ulong v = a->first[dim];
    err |= d->clSetKernelArg(kernel, i++, sizeof v, &v);
  }
  for (unsigned dim = 0; dim < 3; dim++) {
    cl_ulong v = a->r->global[dim] / a->r->local[dim];
    err |= d->clSetKernelArg(kernel, i++, sizeof v, &v);
  }
  for (unsigned dim = 0; dim < 3; dim++) {
    cl_ulong v = a->r->offset[dim];
    err |= d->clSetKernelArg(kernel, i++, sizeof v, &v);
  }
  return err ? CL_INVALID_KERNEL_ARGS : CL_SUCCESS;
}

/* One slice in flight: rows [row, row + rows) of dimension `dim`. */
typedef struct slice {
  cl_event ev;
  uint64_t row, rows;
  uint64_t host_start;
} slice;

typedef struct slicer {
  hg_vendor_backend *vb;
  hg_dev_kernel *k;
  const hg_launch *l;
  const hg_vendor_range *r;
  unsigned dim;       /* the dimension cut into slices */
  uint64_t row_groups; /* groups in one row of `dim` */
  uint64_t rows;       /* rows in the range */
  uint64_t next_row;   /* first row not enqueued yet */
  uint64_t device_ns;
} slicer;

static cl_int slice_enqueue(slicer *s, uint64_t rows, slice *out) {
  hg_launch l = *s->l;
  slice_args a = {.r = s->r};
  a.first[s->dim] = s->next_row;
  l.global_offset[s->dim] = s->r->offset[s->dim] + s->next_row * s->r->local[s->dim];
  l.global_size[s->dim] = rows * s->r->local[s->dim];
  *out = (slice){.row = s->next_row, .rows = rows, .host_start = hg_host_clock_ns()};
  cl_int err = hg_vendor_enqueue_kernel(s->vb, s->k, s->k->slice_kernel, &l, set_slice_args, &a, &out->ev);
  if (err == CL_SUCCESS)
    s->next_row += rows;
  return err;
}

/* Waits for a slice; its run time (device time when profiled, else host time) in *ns. */
static cl_int slice_wait(slicer *s, slice *sl, uint64_t *ns) {
  VCL(sl->ev)->clRetainEvent(sl->ev);
  cl_int err = hg_vendor_wait(sl->ev);
  cl_ulong start, end;
  bool timed = err == CL_SUCCESS && hg_vendor_event_times(sl->ev, &start, &end) && end >= start;
  VCL(sl->ev)->clReleaseEvent(sl->ev);
  sl->ev = NULL;
  *ns = timed ? end - start : hg_host_clock_ns() - sl->host_start;
  s->device_ns += timed ? end - start : 0;
  return err;
}

/* Groups the device runs at once (the sizing above). */
static uint64_t wave_groups(const hg_vendor_backend *vb, const hg_vendor_range *r) {
  uint64_t units = vb->compute_units ? vb->compute_units : 1;
  if (vb->base.type & CL_DEVICE_TYPE_CPU)
    return units;
  return units * (r->items < 2048 ? 2048 / r->items : 1);
}

/* A group's time, from `ns` for `groups` groups. */
static uint64_t group_ns_of(const hg_vendor_backend *vb, const hg_vendor_range *r, uint64_t ns, uint64_t groups) {
  uint64_t wave = wave_groups(vb, r), waves = (groups + wave - 1) / wave;
  return ns / waves ? ns / waves : 1;
}

/* Rows for the next slice, a group lasting group_ns. */
static uint64_t slice_rows(const slicer *s, uint64_t group_ns, uint64_t last_rows) {
  uint64_t waves = slice_target_ns(s->vb) / group_ns;
  uint64_t groups = (waves ? waves : 1) * wave_groups(s->vb, s->r);
  uint64_t most = last_rows ? last_rows * s->row_groups * MAX_GROWTH : groups;
  if (groups > most)
    groups = most;
  uint64_t rows = groups / s->row_groups;
  if (!rows)
    rows = 1;
  return rows < s->rows - s->next_row ? rows : s->rows - s->next_row;
}

/* Cuts r into rows of its highest dimension with more than one group. */
static void cut_rows(const hg_vendor_range *r, unsigned *dim, uint64_t *rows, uint64_t *row_groups) {
  *dim = 0;
  for (unsigned d = 0; d < r->work_dim; d++)
    if (r->global[d] / r->local[d] > 1)
      *dim = d;
  *rows = r->global[*dim] / r->local[*dim];
  *row_groups = r->num_groups / *rows;
}

bool hg_vendor_slices_fit(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_vendor_range *r, const hg_launch *l) {
  unsigned dim;
  uint64_t rows, row_groups, group_ns = atomic_load(&k->slice_group_ns), target = slice_target_ns(vb);
  if (!group_ns || !target || l->time_limit_ns || l->stop_after || group_ns > 2 * target)
    return false;
  cut_rows(r, &dim, &rows, &row_groups);
  uint64_t wave = wave_groups(vb, r);
  return (row_groups + wave - 1) / wave * group_ns <= 2 * target;
}

void hg_vendor_slices_measured(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_vendor_range *r,
                               uint64_t device_ns) {
  if (device_ns)
    atomic_store(&k->slice_group_ns, group_ns_of(vb, r, device_ns, r->num_groups));
}

/* The state of the range with rows [0, done_rows) done and the rest not started. */
static hg_ir_ndrange_state *state_after(const slicer *s, uint64_t done_rows) {
  const hg_oc_stop_kernel *info = s->k->stop_info;
  hg_ir_ndrange_state *st = hg_ir_ndrange_state_new(info->name, s->r->work_dim, s->r->offset, s->r->global,
                                                    s->r->local, &info->layout, s->r->local_bytes);
  if (st)
    memset(st->group_status, HG_GROUP_DONE, done_rows * s->row_groups);
  return st;
}

cl_int hg_vendor_run_sliced(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_launch *l, const hg_vendor_range *r,
                            hg_ir_ndrange_state **stopped, uint64_t *device_ns) {
  *stopped = NULL;
  slicer s = {.vb = vb, .k = k, .l = l, .r = r};
  cut_rows(r, &s.dim, &s.rows, &s.row_groups);
  uint64_t group_ns = atomic_load(&k->slice_group_ns), done_rows = 0;
  bool stop = false, have_next = false;
  slice cur = {0}, next = {0};
  cl_int err = slice_enqueue(&s, slice_rows(&s, group_ns, 0), &cur);
  while (err == CL_SUCCESS) {
    stop = l->stop && atomic_load(&l->stop->requested);
    /* the next slice goes in before this one is waited for */
    have_next = !stop && s.next_row < s.rows && (err = slice_enqueue(&s, slice_rows(&s, group_ns, cur.rows), &next)) == CL_SUCCESS;
    uint64_t ns = 0;
    cl_int wait_err = slice_wait(&s, &cur, &ns);
    if (err == CL_SUCCESS)
      err = wait_err;
    if (err == CL_SUCCESS) {
      done_rows = cur.row + cur.rows;
      group_ns = group_ns_of(vb, r, ns, cur.rows * s.row_groups);
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
  if (err != CL_SUCCESS || done_rows == s.rows)
    return err;
  *stopped = state_after(&s, done_rows);
  HG_LOG(HG_LOG_SCHED, "%s: %s stopped between slices: %llu of %llu rows of groups done", vb->base.name, k->name,
         (unsigned long long)done_rows, (unsigned long long)s.rows);
  return *stopped ? HG_LAUNCH_STOPPED : CL_OUT_OF_HOST_MEMORY;
}
