/* The vendor device's profiling clock on hetGPU's host clock (devices/host_clock.h). An event's times must
 * be on one clock whatever backend ran its command, and a vendor's profiling timestamps are on
 * a clock of its own (the GPU's timer on NVIDIA). Timing a few tiny fills at backend creation
 * gives, for each, an interval the offset (host ns - device ns) must lie in: [host time before
 * the submission - device start, host time after the completion - device end]. The narrowest
 * interval's midpoint is the offset, off by at most half its width (tens of microseconds). */
#include "devices/vendor/vendor_internal.h"
#include "common/host_clock.h"
#include "common/log.h"

enum { CALIBRATION_SAMPLES = 5 };

bool hg_vendor_event_times(cl_event ev, cl_ulong *start, cl_ulong *end) {
  *start = *end = 0;
  if (VCL(ev)->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof *start, start, NULL) != CL_SUCCESS ||
      VCL(ev)->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof *end, end, NULL) != CL_SUCCESS ||
      *end < *start) {
    *start = *end = 0;
    return false;
  }
  return true;
}

/* One sample: the interval [lo, hi] of the offset; false if the vendor gave no usable times. */
static bool sample(hg_vendor_backend *vb, cl_mem scratch, int64_t *lo, int64_t *hi) {
  const cl_icd_dispatch *d = VCL(vb->queue);
  const cl_uint pattern = 0;
  cl_event ev = NULL;
  cl_ulong before = hg_host_clock_ns();
  if (d->clEnqueueFillBuffer(vb->queue, scratch, &pattern, sizeof pattern, 0, sizeof pattern, 0, NULL, &ev) !=
      CL_SUCCESS)
    return false;
  cl_int err = d->clWaitForEvents(1, &ev);
  cl_ulong after = hg_host_clock_ns(), start, end;
  bool timed = err == CL_SUCCESS && hg_vendor_event_times(ev, &start, &end);
  d->clReleaseEvent(ev);
  if (!timed || start == 0)
    return false;
  *lo = (int64_t)(before - start);
  *hi = (int64_t)(after - end);
  return *lo <= *hi;
}

void hg_vendor_clock_calibrate(hg_vendor_backend *vb) {
  vb->clock_known = false;
  cl_int err;
  cl_mem scratch = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, 64, NULL, &err);
  if (!scratch)
    return;
  int64_t best_lo = 0, best_hi = 0;
  for (int i = 0; i < CALIBRATION_SAMPLES; i++) {
    int64_t lo, hi;
    if (!sample(vb, scratch, &lo, &hi))
      break;
    if (!vb->clock_known || hi - lo < best_hi - best_lo)
      best_lo = lo, best_hi = hi;
    vb->clock_known = true;
  }
  VCL(scratch)->clReleaseMemObject(scratch);
  atomic_store(&vb->clock_offset, best_lo + (best_hi - best_lo) / 2);
  HG_LOG(HG_LOG_BACKEND, "%s: device clock %s (host - device = %lld ns, +- %lld ns)", vb->base.name,
         vb->clock_known ? "calibrated" : "unusable: profiled times come from the host",
         (long long)atomic_load(&vb->clock_offset),
         (long long)(best_hi - best_lo) / 2);
}

void hg_vendor_clock_to_host(hg_vendor_backend *vb, cl_ulong seen, cl_ulong *start, cl_ulong *end) {
  if (!vb->clock_known || *start == 0 || *end < *start) {
    *start = *end = 0;
    return;
  }
  /* A command cannot end after it was seen complete: where the offset says it did, the offset
   * is too high (the calibration's error, tens of microseconds, is more than a short kernel
   * lasts; the two clocks drift apart over a long run) and becomes the largest one these times
   * allow. Corrections only lower it (the platform keeps times that come out early inside the
   * host's bounds, their length unchanged). */
  int64_t offset = atomic_load_explicit(&vb->clock_offset, memory_order_relaxed);
  int64_t highest = (int64_t)seen - (int64_t)*end;
  while (seen && offset > highest &&
         !atomic_compare_exchange_weak_explicit(&vb->clock_offset, &offset, highest, memory_order_relaxed,
                                                memory_order_relaxed))
    ;
  if (seen && offset > highest)
    offset = highest;
  *start = (cl_ulong)((int64_t)*start + offset);
  *end = (cl_ulong)((int64_t)*end + offset);
}
