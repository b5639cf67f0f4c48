/* Stoppable launches on a vendor OpenCL platform: kernel_run and kernel_stop
 * (devices/backend.h, docs/opencl-c-safe-points.md).
 *
 * A launch runs the kernel's stoppable form (fresh) or its resume form (from a neutral state)
 * with one of HG_STOP_SLOTS slots of the backend's control buffer. Its stop word is never
 * reset: the host asks launch number `seq` to stop by writing seq there, and every launch has
 * its own number, so a launch that was not asked reads an older number. In steady state a
 * launch therefore costs no command besides the kernel itself: the record counter and the
 * not-started bits are zero and stay zero unless something stopped, and only then are they
 * read and cleared.
 *
 * How the stop word reaches a running kernel depends on the device (measured with
 * ../shared/probes/stopflag.c, shared/NOTES.md §7):
 *  - a CPU device (PoCL) runs kernels on host threads: the control buffer is our own host
 *    memory (CL_MEM_USE_HOST_PTR) and kernel_stop stores into it directly. A write on a second
 *    queue would wait for the kernel (PoCL 3.1 and 5).
 *  - other devices (NVIDIA): kernel_stop enqueues a 4-byte clEnqueueWriteBuffer on a queue of
 *    its own, which the driver runs while the kernel runs (a mapped host pointer would be a
 *    staging copy the kernel never sees). */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/profile_limits.h"
#include "common/safepoint_settings.h"
#include "devices/vendor/vendor_internal.h"
#include "devices/vendor/vendor_stop_state.h"

#define HG_STOP_SLOTS 64
#define OUT_BYTES_MAX ((size_t)64 << 20)  /* records of one launch at most: more keep running */
#define BITS_BYTES_MAX ((size_t)256 << 20) /* larger ranges run without stopping */

typedef struct run_slot {
  bool busy;
  hg_stop_request *stop; /* the request this launch polls */
  uint32_t seq;
  bool stop_sent;        /* kernel_stop wrote its stop word */
  hg_dev_mem *out, *bits; /* kept for the next launch on this slot */
} run_slot;

typedef struct hg_vendor_stops {
  pthread_mutex_t lock;
  pthread_cond_t freed;
  hg_dev_mem ctl;        /* HG_STOP_SLOTS x HG_OC_CTL_WORDS words */
  uint32_t *ctl_host;    /* CPU device: the control buffer's memory itself; else NULL */
  cl_command_queue stop_queue; /* other devices: where stop words are written */
  uint32_t stop_words[HG_STOP_SLOTS]; /* their sources (alive as long as the queue) */
  uint32_t next_seq;
  uint32_t interval;     /* HETGPU_SAFEPOINT_INTERVAL */
  run_slot slots[HG_STOP_SLOTS];
} hg_vendor_stops;

static hg_vendor_stops *stops_of(hg_vendor_backend *vb) {
  pthread_mutex_lock(&vb->stops_lock);
  hg_vendor_stops *st = vb->stops;
  if (st) {
    pthread_mutex_unlock(&vb->stops_lock);
    return st;
  }
  st = calloc(1, sizeof *st);
  size_t bytes = HG_STOP_SLOTS * HG_OC_CTL_WORDS * sizeof(uint32_t);
  cl_int err = CL_OUT_OF_HOST_MEMORY;
  if (st) {
    bool cpu = (vb->base.type & CL_DEVICE_TYPE_CPU) != 0;
    if (cpu && posix_memalign((void **)&st->ctl_host, 4096, bytes) == 0) {
      memset(st->ctl_host, 0, bytes);
      st->ctl.mem = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes,
                                                     st->ctl_host, &err);
    } else if (!cpu) {
      static const uint32_t zeros[HG_STOP_SLOTS * HG_OC_CTL_WORDS];
      st->ctl.mem = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                                                     (void *)zeros, &err);
      cl_queue_properties props[] = {0};
      if (st->ctl.mem && VCL(vb->context)->clCreateCommandQueueWithProperties)
        st->stop_queue =
            VCL(vb->context)->clCreateCommandQueueWithProperties(vb->context, vb->device, props, &err);
      else if (st->ctl.mem)
        st->stop_queue = VCL(vb->context)->clCreateCommandQueue(vb->context, vb->device, 0, &err);
    }
  }
  if (!st || !st->ctl.mem || (!st->ctl_host && !st->stop_queue)) {
    HG_LOG(HG_LOG_BACKEND, "%s: no control buffer for stoppable launches (%d): kernels run to completion",
           vb->base.name, err);
    if (st && st->ctl.mem)
      VCL(st->ctl.mem)->clReleaseMemObject(st->ctl.mem);
    if (st)
      free(st->ctl_host);
    free(st);
    pthread_mutex_unlock(&vb->stops_lock);
    return NULL;
  }
  st->ctl.size = bytes;
  st->ctl.sub_align = 1;
  pthread_mutex_init(&st->ctl.subs_lock, NULL);
  pthread_mutex_init(&st->lock, NULL);
  pthread_cond_init(&st->freed, NULL);
  st->interval = hg_safepoint_interval();
  vb->stops = st;
  pthread_mutex_unlock(&vb->stops_lock);
  HG_LOG(HG_LOG_BACKEND, "%s: stoppable launches, stop word %s, check every %u loop-header crossings",
         vb->base.name, st->ctl_host ? "in host memory" : "written on a queue of its own", st->interval);
  return st;
}

void hg_vendor_stops_free(hg_vendor_backend *vb) {
  hg_vendor_stops *st = vb->stops;
  if (!st)
    return;
  if (st->stop_queue) {
    VCL(st->stop_queue)->clFinish(st->stop_queue);
    VCL(st->stop_queue)->clReleaseCommandQueue(st->stop_queue);
  }
  for (unsigned i = 0; i < HG_STOP_SLOTS; i++) {
    hg_vendor_mem_free(&vb->base, st->slots[i].out);
    hg_vendor_mem_free(&vb->base, st->slots[i].bits);
  }
  VCL(st->ctl.mem)->clReleaseMemObject(st->ctl.mem);
  pthread_mutex_destroy(&st->ctl.subs_lock);
  pthread_mutex_destroy(&st->lock);
  pthread_cond_destroy(&st->freed);
  free(st->ctl_host);
  free(st);
  vb->stops = NULL;
}

/* Writes slot i's stop word (its launch's seq); st->lock held. */
static void send_stop(hg_vendor_stops *st, unsigned i) {
  run_slot *s = &st->slots[i];
  if (s->stop_sent)
    return;
  s->stop_sent = true;
  if (st->ctl_host) {
    __atomic_store_n(&st->ctl_host[i * HG_OC_CTL_WORDS + HG_OC_CTL_STOP], s->seq, __ATOMIC_SEQ_CST);
    return;
  }
  st->stop_words[i] = s->seq;
  cl_int err = VCL(st->stop_queue)->clEnqueueWriteBuffer(
      st->stop_queue, st->ctl.mem, CL_FALSE, (i * HG_OC_CTL_WORDS + HG_OC_CTL_STOP) * sizeof(uint32_t),
      sizeof(uint32_t), &st->stop_words[i], 0, NULL, NULL);
  if (err == CL_SUCCESS)
    VCL(st->stop_queue)->clFlush(st->stop_queue);
  else
    HG_LOG(HG_LOG_SCHED, "stop word write failed (%d): the kernel runs to completion", err);
}

void hg_vendor_kernel_stop(hg_backend *be, hg_stop_request *stop) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  pthread_mutex_lock(&vb->stops_lock); /* made once, by the first stoppable launch */
  hg_vendor_stops *st = vb->stops;
  pthread_mutex_unlock(&vb->stops_lock);
  if (!st || !stop)
    return;
  pthread_mutex_lock(&st->lock);
  for (unsigned i = 0; i < HG_STOP_SLOTS; i++)
    if (st->slots[i].busy && st->slots[i].stop == stop)
      send_stop(st, i);
  pthread_mutex_unlock(&st->lock);
}

/* A free slot for a launch polling `stop` (waits when all are taken and `wait`); -1: none. */
static int take_slot(hg_vendor_stops *st, hg_stop_request *stop, bool wait) {
  pthread_mutex_lock(&st->lock);
  for (;;) {
    for (unsigned i = 0; i < HG_STOP_SLOTS; i++) {
      run_slot *s = &st->slots[i];
      if (s->busy)
        continue;
      s->busy = true;
      s->stop = stop;
      s->stop_sent = false;
      if (++st->next_seq == 0)
        st->next_seq = 1; /* 0 is what a fresh control buffer holds */
      s->seq = st->next_seq;
      /* a request made before the slot was registered is not seen by kernel_stop */
      if (stop && atomic_load(&stop->requested))
        send_stop(st, i);
      pthread_mutex_unlock(&st->lock);
      return (int)i;
    }
    if (!wait) {
      pthread_mutex_unlock(&st->lock);
      return -1;
    }
    pthread_cond_wait(&st->freed, &st->lock);
  }
}

static void give_slot(hg_vendor_stops *st, int i) {
  pthread_mutex_lock(&st->lock);
  st->slots[i].busy = false;
  st->slots[i].stop = NULL;
  pthread_cond_signal(&st->freed);
  pthread_mutex_unlock(&st->lock);
}

/* Makes *mem at least `size` bytes (zeroed when `zero`, the old contents dropped). */
static cl_int ensure(hg_backend *be, hg_dev_mem **mem, size_t size, bool zero) {
  if (*mem && (*mem)->size >= size)
    return CL_SUCCESS;
  hg_vendor_mem_free(be, *mem);
  *mem = NULL;
  cl_int err = hg_vendor_mem_alloc(be, size, mem);
  if (err == CL_SUCCESS && zero) {
    uint32_t z = 0;
    err = hg_vendor_mem_fill(be, *mem, 0, size, &z, sizeof z);
  }
  if (err != CL_SUCCESS) {
    hg_vendor_mem_free(be, *mem);
    *mem = NULL;
  }
  return err;
}

/* The stop arguments of one launch (lowering/opencl_c_stop.h for their order). */
typedef struct stop_args {
  cl_mem ctl, out, bits, gmap, in;
  cl_uint slot, seq, interval, flags, cap, local_bytes;
  const hg_oc_stop_kernel *k;
  const hg_launch *l;
  bool resume;
} stop_args;

static cl_int set_stop_args(cl_kernel kernel, cl_uint i, void *arg) {
  const stop_args *a = arg;
  const cl_icd_dispatch *d = VCL(kernel);
  cl_int err = CL_SUCCESS;
  err |= d->clSetKernelArg(kernel, i++, sizeof a->ctl, &a->ctl);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->slot, &a->slot);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->seq, &a->seq);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->interval, &a->interval);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->flags, &a->flags);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->out, &a->out);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->cap, &a->cap);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->bits, &a->bits);
  err |= d->clSetKernelArg(kernel, i++, sizeof a->local_bytes, &a->local_bytes);
  for (uint32_t p = 0; p < a->k->num_local_params; p++) {
    uint32_t idx = a->k->local_params[p];
    cl_uint size = idx < a->l->num_args ? (cl_uint)a->l->args[idx].size : 0;
    err |= d->clSetKernelArg(kernel, i++, sizeof size, &size);
  }
  if (a->resume) {
    err |= d->clSetKernelArg(kernel, i++, sizeof a->gmap, &a->gmap);
    err |= d->clSetKernelArg(kernel, i++, sizeof a->in, &a->in);
  }
  return err ? CL_INVALID_KERNEL_ARGS : CL_SUCCESS;
}

/* The launch's range as the records see it; false when the forms cannot run it (a ragged
 * edge: group records need one size). */
static bool range_of(const hg_oc_stop_kernel *k, const hg_launch *l, hg_vendor_range *r) {
  memset(r, 0, sizeof *r);
  r->work_dim = l->work_dim;
  r->num_groups = 1;
  uint64_t items = 1;
  for (unsigned d = 0; d < 3; d++) {
    bool used = d < l->work_dim;
    r->offset[d] = used ? l->global_offset[d] : 0;
    r->global[d] = used ? l->global_size[d] : 1;
    r->local[d] = used ? l->local_size[d] : 1;
    if (!r->local[d] || !r->global[d] || r->global[d] % r->local[d])
      return false;
    r->num_groups *= r->global[d] / r->local[d];
    items *= r->local[d];
  }
  if (items > UINT32_MAX)
    return false;
  r->items = (uint32_t)items;
  uint64_t sizes[64] = {0};
  if (k->num_local_params > 64)
    return false;
  for (uint32_t p = 0; p < k->num_local_params; p++) {
    uint32_t idx = k->local_params[p];
    sizes[p] = idx < l->num_args ? l->args[idx].size : 0;
  }
  r->local_bytes = hg_oc_local_bytes(k, sizes);
  return true;
}

/* The vendor's CL_KERNEL_WORK_GROUP_SIZE of one of k's kernels (0: unknown). */
static size_t vendor_work_group_size(hg_vendor_backend *vb, cl_kernel kernel) {
  size_t n = 0;
  if (kernel && VCL(kernel)->clGetKernelWorkGroupInfo(kernel, vb->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof n, &n,
                                                       NULL) != CL_SUCCESS)
    n = 0;
  return n;
}

const hg_oc_stop_kernel *hg_vendor_stop_info(hg_dev_kernel *k, bool wait) {
  if (atomic_load(&k->stop_info_known))
    return k->stop_info;
  const hg_oc_stop_table *table;
  if (!hg_vendor_forms_stop(k->prog->forms, wait, &table))
    return NULL;
  const hg_oc_stop_kernel *info = hg_oc_stop_table_find(table, k->name);
  k->stop_info = info; /* the same from every thread that gets here */
  atomic_store(&k->stop_info_known, true);
  return info;
}

/* Creates the forms of k (whose stop_info is known) at its first stoppable launch; false when
 * they cannot be made, are (not `wait`) still being built (vendor_forms.c), or cannot run `items`
 * work-items per group. */
static bool make_forms(hg_vendor_backend *vb, hg_dev_kernel *k, bool wait, uint64_t items) {
  const hg_oc_stop_kernel *info = k->stop_info;
  cl_program prog = k->prog->forms ? hg_vendor_forms_program(k->prog->forms, wait) : k->prog->program;
  if (!prog)
    return false;
  pthread_mutex_lock(&k->launch_lock);
  cl_int err = CL_SUCCESS;
  if (info->stop_name && !k->stop_kernel)
    k->stop_kernel = VCL(prog)->clCreateKernel(prog, info->stop_name, &err);
  if (!k->resume_kernel && err == CL_SUCCESS)
    k->resume_kernel = VCL(prog)->clCreateKernel(prog, info->resume_name, &err);
  if (info->catchup_name && !k->catchup_kernel && err == CL_SUCCESS)
    k->catchup_kernel = VCL(prog)->clCreateKernel(prog, info->catchup_name, &err);
  cl_program slices = k->prog->slice_forms_elsewhere ? k->prog->program : prog;
  if (info->slice_name && !k->slice_kernel && err == CL_SUCCESS)
    k->slice_kernel = VCL(slices)->clCreateKernel(slices, info->slice_name, &err);
  bool ok = k->resume_kernel && (!info->stop_name || k->stop_kernel) && (!info->catchup_name || k->catchup_kernel) &&
            (!info->slice_name || k->slice_kernel);
  if (ok && !k->forms_work_group_size) {
    size_t best = HG_PROFILE_MAX_WORK_GROUP_SIZE;
    cl_kernel forms[] = {k->stop_kernel, k->resume_kernel, k->catchup_kernel, k->slice_kernel};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
      size_t n = vendor_work_group_size(vb, forms[i]);
      if (n && n < best)
        best = n;
    }
    k->forms_work_group_size = best;
  }
  size_t fits = k->forms_work_group_size;
  pthread_mutex_unlock(&k->launch_lock);
  if (!ok)
    HG_LOG(HG_LOG_SCHED, "%s: the forms of %s could not be made (%d)", vb->base.name, k->name, err);
  else if (items > fits)
    HG_LOG(HG_LOG_SCHED, "%s: groups of %llu work-items are more than the forms of %s run (%zu)", vb->base.name,
           (unsigned long long)items, k->name, fits);
  return ok && items <= fits;
}

/* The vendor's CL_KERNEL_WORK_GROUP_SIZE of k's plain kernel. It does not wait for the forms,
 * which a program's first run would otherwise wait for (hashcat asks each kernel's size as it
 * starts; the forms of its large kernels take minutes): a launch whose groups are larger than
 * the forms run is a plain one (make_forms). */
size_t hg_vendor_kernel_work_group_size(hg_backend *be, hg_dev_kernel *k) {
  size_t n = vendor_work_group_size(hg_vendor_of(be), k->kernel);
  return n && n < HG_PROFILE_MAX_WORK_GROUP_SIZE ? n : HG_PROFILE_MAX_WORK_GROUP_SIZE;
}

/* The same without building the program, where the device says it for every kernel: on a
 * machine with a GPU and PoCL, a program is then not built for PoCL only to learn it. */
size_t hg_vendor_kernel_work_group_size_known(hg_backend *be, const struct hg_ir_module *module,
                                              const uint8_t digest[16], const char *name) {
  (void)module, (void)digest, (void)name;
  size_t n = be->limits.max_work_group_size;
  if (!hg_vendor_of(be)->groups_at_device_max || !n)
    return 0;
  return n < HG_PROFILE_MAX_WORK_GROUP_SIZE ? n : HG_PROFILE_MAX_WORK_GROUP_SIZE;
}

/* After a launch on slot i that may have stopped: the neutral state (NULL with *err when it
 * could not be read), and the slot's counter and bits cleared for the next launch. */
static hg_ir_ndrange_state *collect(hg_vendor_backend *vb, hg_vendor_stops *st, int i, const hg_oc_stop_kernel *k,
                                    const hg_vendor_range *r, uint64_t cap, size_t bits_bytes, cl_int *err) {
  hg_backend *be = &vb->base;
  uint32_t words[HG_OC_CTL_WORDS];
  size_t at = (size_t)i * HG_OC_CTL_WORDS * sizeof(uint32_t);
  *err = hg_vendor_mem_read(be, &st->ctl, at, sizeof words, words);
  if (*err != CL_SUCCESS)
    return NULL;
  uint64_t count = words[HG_OC_CTL_RECORDS] < cap ? words[HG_OC_CTL_RECORDS] : cap;
  uint64_t rec_size = k->mode == HG_OC_STOP_GROUP ? hg_oc_group_record_size(k, r->local_bytes, r->items) : k->record_size;
  uint8_t *records = malloc(count ? count * rec_size : 1);
  uint32_t *bits = malloc(bits_bytes);
  hg_ir_ndrange_state *s = NULL;
  if (!records || !bits) {
    *err = CL_OUT_OF_HOST_MEMORY;
  } else {
    run_slot *slot = &st->slots[i];
    *err = count ? hg_vendor_mem_read(be, slot->out, 0, count * rec_size, records) : CL_SUCCESS;
    if (*err == CL_SUCCESS)
      *err = hg_vendor_mem_read(be, slot->bits, 0, bits_bytes, bits);
    if (*err == CL_SUCCESS) {
      s = k->mode == HG_OC_STOP_GROUP ? hg_vendor_state_from_groups(k, r, records, count, bits)
                                      : hg_vendor_state_from_items(k, r, records, count, bits);
      if (!s)
        *err = CL_OUT_OF_HOST_MEMORY;
    }
    bool any_bit = false;
    for (size_t w = 0; w < bits_bytes / 4 && !any_bit; w++)
      any_bit = bits[w] != 0;
    uint32_t zero = 0;
    cl_int e2 = CL_SUCCESS;
    if (any_bit)
      e2 = hg_vendor_mem_fill(be, slot->bits, 0, bits_bytes, &zero, sizeof zero);
    if (words[HG_OC_CTL_RECORDS] && e2 == CL_SUCCESS)
      e2 = hg_vendor_mem_write(be, &st->ctl, at + HG_OC_CTL_RECORDS * sizeof(uint32_t), sizeof zero, &zero);
    if (e2 != CL_SUCCESS && *err == CL_SUCCESS) {
      *err = e2;
      hg_ir_ndrange_state_free(s);
      s = NULL;
    }
  }
  free(records);
  free(bits);
  return s;
}

/* Writes the resume input of s to fresh device buffers *gmap and *in. */
static cl_int upload_input(hg_backend *be, const hg_dev_kernel *k, const hg_vendor_range *r,
                           const hg_ir_ndrange_state *s, hg_dev_mem **gmap, hg_dev_mem **in) {
  uint32_t *host_gmap = NULL;
  uint8_t *host_in = NULL;
  size_t in_size = 0;
  char msg[256];
  *gmap = *in = NULL;
  if (!hg_vendor_state_to_input(k->stop_info, r, s, &host_gmap, &host_in, &in_size, msg, sizeof msg)) {
    HG_LOG(HG_LOG_SCHED, "%s: cannot resume %s: %s", be->name, k->name, msg);
    return CL_INVALID_OPERATION;
  }
  cl_int err = hg_vendor_mem_alloc(be, r->num_groups * sizeof *host_gmap, gmap);
  if (err == CL_SUCCESS)
    err = hg_vendor_mem_alloc(be, in_size, in);
  if (err == CL_SUCCESS)
    err = hg_vendor_mem_write(be, *gmap, 0, r->num_groups * sizeof *host_gmap, host_gmap);
  if (err == CL_SUCCESS)
    err = hg_vendor_mem_write(be, *in, 0, in_size, host_in);
  free(host_gmap);
  free(host_in);
  if (err != CL_SUCCESS) {
    hg_vendor_mem_free(be, *gmap);
    hg_vendor_mem_free(be, *in);
    *gmap = *in = NULL;
  }
  return err;
}

/* Runs the catch-up form on s (a kernel with barriers whose groups are not all at one point):
 * the state it returns has every running group's work-items at one barrier. */
static cl_int catch_up(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_launch *l, const hg_vendor_range *r,
                       stop_args a, const hg_ir_ndrange_state *s, hg_ir_ndrange_state **out) {
  hg_backend *be = &vb->base;
  const hg_oc_stop_kernel *info = k->stop_info;
  *out = NULL;
  uint64_t gsz = hg_oc_group_record_size(info, r->local_bytes, r->items);
  size_t bytes = (size_t)(gsz * s->num_running);
  hg_dev_mem *gmap = NULL, *in = NULL, *records = NULL;
  uint8_t *host = malloc(bytes ? bytes : 1);
  cl_int err = host ? upload_input(be, k, r, s, &gmap, &in) : CL_OUT_OF_HOST_MEMORY;
  if (err == CL_SUCCESS)
    err = hg_vendor_mem_alloc(be, bytes ? bytes : 16, &records);
  if (err == CL_SUCCESS) {
    a.gmap = gmap->mem;
    a.in = in->mem;
    a.out = records->mem;
    a.resume = true;
    a.flags = 0;
    err = hg_vendor_run_kernel(vb, k, k->catchup_kernel, l, set_stop_args, &a, NULL);
  }
  if (err == CL_SUCCESS && bytes)
    err = hg_vendor_mem_read(be, records, 0, bytes, host);
  if (err == CL_SUCCESS) {
    char msg[256];
    *out = hg_vendor_state_after_catchup(info, r, s, host, msg, sizeof msg);
    if (!*out) {
      HG_LOG(HG_LOG_SCHED, "%s: catching %s up failed: %s", be->name, k->name, msg);
      err = CL_INVALID_OPERATION;
    }
  }
  HG_LOG(HG_LOG_SCHED, "%s: %s: %u groups not at one point caught up to their barrier (%d)", be->name, k->name,
         s->num_running, err);
  hg_vendor_mem_free(be, gmap);
  hg_vendor_mem_free(be, in);
  hg_vendor_mem_free(be, records);
  free(host);
  return err;
}

bool hg_vendor_kernel_stoppable(hg_backend *be, hg_dev_kernel *k, bool wait) {
  return hg_vendor_stop_info(k, wait) && make_forms(hg_vendor_of(be), k, wait, 0);
}

bool hg_vendor_kernel_can_resume(hg_backend *be, hg_dev_kernel *k, const hg_ir_ndrange_state *state) {
  if (hg_ir_ndrange_state_finished(state) || hg_vendor_state_untouched(state))
    return true; /* nothing to resume: a fresh launch */
  uint64_t items = (uint64_t)state->local_size[0] * state->local_size[1] * state->local_size[2];
  if (!hg_vendor_stop_info(k, true) || !make_forms(hg_vendor_of(be), k, true, items))
    return false; /* no forms for this kernel on this device, or none that runs such groups */
  for (unsigned d = 0; d < 3; d++)
    if (state->global_size[d] % state->local_size[d])
      return false; /* a ragged edge: the forms index groups uniformly */
  const hg_oc_stop_kernel *info = k->stop_info;
  if (state->value_stride != info->layout.value_stride || state->private_size != info->layout.private_size)
    return false;
  for (uint32_t q = 0; q < state->num_running; q++) /* every work-item at a point the resume form can enter */
    for (uint32_t i = 0; i < state->running[q].num_items; i++) {
      uint32_t sp = state->running[q].safepoint[i];
      if (sp != HG_WI_DONE && (sp >= info->layout.num_safepoints || !info->resumable[sp]))
        return false;
    }
  return true;
}

cl_int hg_vendor_kernel_run(hg_backend *be, hg_dev_kernel *k, const hg_launch *l, const hg_ir_ndrange_state *resume,
                            hg_ir_ndrange_state **stopped, uint64_t *device_ns) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  *stopped = NULL;
  if (device_ns)
    *device_ns = 0;
  if (resume && hg_ir_ndrange_state_finished(resume))
    return CL_SUCCESS;
  bool fresh = !resume || hg_vendor_state_untouched(resume);
  /* a fresh launch without a time limit or test countdown does not wait for forms still being
   * lowered or built: it runs plain */
  bool need_forms = !fresh || l->time_limit_ns || l->stop_after;
  const hg_oc_stop_kernel *info = hg_vendor_stop_info(k, need_forms);
  hg_vendor_range r;
  bool fits = info && range_of(info, l, &r);
  if (!fits && !fresh) {
    HG_LOG(HG_LOG_SCHED, "%s: %s cannot resume here (%s)", be->name, k->name,
           info ? "a range with a ragged edge" : "no resume form");
    return CL_INVALID_OPERATION;
  }
  if (l->stop && atomic_load(&l->stop->requested)) {
    /* asked before it began: nothing ran, the state is what it was */
    if (resume)
      *stopped = hg_vendor_state_clone(resume);
    else if (fits)
      *stopped = hg_ir_ndrange_state_new(info->name, r.work_dim, r.offset, r.global, r.local, &info->layout,
                                         r.local_bytes);
    if (*stopped)
      return HG_LAUNCH_STOPPED;
    if (resume)
      return CL_OUT_OF_HOST_MEMORY;
  }
  /* groups that end quickly stop between slices of the range, at no cost inside the kernel */
  if (fresh && fits && info->slice_name && hg_vendor_slices_fit(vb, k, &r, l) &&
      make_forms(vb, k, need_forms, r.items))
    return hg_vendor_run_sliced(vb, k, l, &r, stopped, device_ns);
  /* the group's vote (GROUP mode) takes local memory of its own: a fresh launch that already
   * uses all the vendor has (NVIDIA: exactly the profile's 48 KiB) runs plain, unstoppable */
  bool vote_fits = !fits || info->mode != HG_OC_STOP_GROUP || r.local_bytes + 16 <= be->limits.local_mem_size;
  if (!fits || (fresh && (info->mode == HG_OC_STOP_NONE || !vote_fits))) {
    uint64_t ran_ns = 0;
    cl_int err = hg_vendor_kernel_launch(be, k, l, &ran_ns);
    if (err == CL_SUCCESS && fits)
      hg_vendor_slices_measured(vb, k, &r, ran_ns);
    if (device_ns)
      *device_ns = ran_ns;
    return err;
  }
  hg_vendor_stops *st = stops_of(vb);
  if (!st || !make_forms(vb, k, need_forms, r.items)) {
    if (fresh)
      return hg_vendor_kernel_launch(be, k, l, device_ns);
    return CL_OUT_OF_RESOURCES;
  }
  int slot = take_slot(st, l->stop, !fresh);
  if (slot < 0)
    return hg_vendor_kernel_launch(be, k, l, device_ns); /* every slot busy: run without stopping */
  run_slot *s = &st->slots[slot];

  /* what stopping can write: records up to OUT_BYTES_MAX, one not-started bit per work-item
   * (ITEM) or group (GROUP); a mode that never stops gets the smallest buffers */
  uint64_t total_items = r.num_groups * r.items;
  uint64_t rec_size = info->mode == HG_OC_STOP_GROUP ? hg_oc_group_record_size(info, r.local_bytes, r.items)
                                                     : info->record_size;
  uint64_t want = info->mode == HG_OC_STOP_GROUP ? r.num_groups : info->mode == HG_OC_STOP_ITEM ? total_items : 0;
  uint64_t cap = rec_size ? OUT_BYTES_MAX / rec_size : 0;
  if (cap > want)
    cap = want;
  if (cap > UINT32_MAX)
    cap = UINT32_MAX;
  uint64_t nbits = info->mode == HG_OC_STOP_ITEM ? total_items : r.num_groups;
  size_t bits_bytes = (size_t)((nbits + 31) / 32 * 4);
  cl_int err = CL_SUCCESS;
  hg_dev_mem *gmap = NULL, *in = NULL;
  if (bits_bytes > BITS_BYTES_MAX) {
    give_slot(st, slot);
    if (fresh)
      return hg_vendor_kernel_launch(be, k, l, device_ns);
    return CL_OUT_OF_RESOURCES;
  }
  err = ensure(be, &s->out, cap ? (size_t)(cap * rec_size) : 16, false);
  if (err == CL_SUCCESS)
    err = ensure(be, &s->bits, bits_bytes, true);
  stop_args a = {.ctl = st->ctl.mem,
                 .slot = (cl_uint)slot,
                 .seq = s->seq,
                 /* barriers come far less often than loop-header crossings */
                 .interval = info->mode == HG_OC_STOP_GROUP ? (st->interval + 15) / 16 : st->interval,
                 .cap = (cl_uint)cap,
                 .local_bytes = r.local_bytes,
                 .k = info,
                 .l = l,
                 .resume = !fresh};
  if (err == CL_SUCCESS && l->stop_after) {
    /* the test setting: check at every crossing, and the check that ends the countdown stops */
    uint32_t n = l->stop_after > INT32_MAX ? INT32_MAX : (uint32_t)l->stop_after;
    err = hg_vendor_mem_write(be, &st->ctl, ((size_t)slot * HG_OC_CTL_WORDS + HG_OC_CTL_COUNTDOWN) * sizeof n,
                              sizeof n, &n);
    a.flags = HG_OC_FLAG_COUNTDOWN;
    a.interval = 1;
  }
  hg_ir_ndrange_state *caught = NULL;
  if (err == CL_SUCCESS && !fresh && info->catchup_name && hg_vendor_state_mixed(resume, info)) {
    err = catch_up(vb, k, l, &r, a, resume, &caught);
    if (err == CL_SUCCESS)
      resume = caught;
  }
  bool finished = err == CL_SUCCESS && caught && hg_ir_ndrange_state_finished(caught);
  if (err == CL_SUCCESS && !fresh && !finished)
    err = upload_input(be, k, &r, resume, &gmap, &in);
  if (err == CL_SUCCESS && !finished) {
    a.out = s->out->mem;
    a.bits = s->bits->mem;
    a.gmap = gmap ? gmap->mem : NULL;
    a.in = in ? in->mem : NULL;
    uint64_t ran_ns = 0;
    err = hg_vendor_run_kernel(vb, k, fresh ? k->stop_kernel : k->resume_kernel, l, set_stop_args, &a, &ran_ns);
    if (device_ns)
      *device_ns = ran_ns;
    if (err == CL_SUCCESS && fresh && !a.flags && !(l->stop && atomic_load(&l->stop->requested)))
      hg_vendor_slices_measured(vb, k, &r, ran_ns); /* whole: nobody asked it to stop */
  }
  hg_vendor_mem_free(be, gmap);
  hg_vendor_mem_free(be, in);
  hg_ir_ndrange_state_free(caught);
  pthread_mutex_lock(&st->lock);
  bool maybe_stopped = s->stop_sent || a.flags;
  pthread_mutex_unlock(&st->lock);
  if (err == CL_SUCCESS && !finished && maybe_stopped && info->mode != HG_OC_STOP_NONE) {
    hg_ir_ndrange_state *state = collect(vb, st, slot, info, &r, cap, bits_bytes, &err);
    if (state && !hg_ir_ndrange_state_finished(state)) {
      *stopped = state;
      err = HG_LAUNCH_STOPPED;
      HG_LOG(HG_LOG_SCHED, "%s: %s stopped at safe points: %u groups running", be->name, k->name,
             state->num_running);
    } else {
      hg_ir_ndrange_state_free(state);
    }
  }
  give_slot(st, slot);
  return err;
}
