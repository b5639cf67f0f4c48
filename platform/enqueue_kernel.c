/* clEnqueueNDRangeKernel and clEnqueueTask.
 *
 * The arguments are captured at enqueue time (the application may change them right after).
 * When the application gives no local size, hetGPU chooses it here, not the backend, so a
 * kernel's work-group shape is the same whichever backend runs it.
 *
 * With safe points on (platform/safepoints.h) a launch runs synchronously in the backend's
 * stoppable form: when a migration or checkpoint stops it, the command keeps the stopped
 * state and hg_command_dispatch runs it again wherever the context's gate opens, from that
 * state. A kernel whose stoppable launch ran less than SHORT_LAUNCH_NS on the device then has its
 * next launches, up to about PLAIN_BUDGET_NS of them, run plain and asynchronously (a migration
 * waits for such launches to end, about as long as stopping them would take; back-to-back short
 * launches keep the backend's stream full), and the launch after them is stoppable again,
 * measuring anew.
 *
 * With HETGPU_KERNEL_TIMEOUT set (platform/kernel_timeout.h, docs/kernel-timeout.md) every
 * launch that can stop is stoppable, and the time a launch ran, summed over the parts of one
 * stopped and resumed elsewhere, is limited: a backend that ends launches itself gets the time
 * left with the launch; on the others a timer asks the launch alone to stop, and a launch that
 * stopped for the limit is abandoned (not resumed). Either way the command fails with
 * CL_OUT_OF_RESOURCES, the context's notify callback names the limit, and the buffers keep what
 * the kernel wrote until it stopped. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/profile.h"
#include "platform/command.h"
#include "platform/fault_inject.h"
#include "platform/kernel.h"
#include "platform/kernel_timeout.h"
#include "platform/mem_enqueue.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_object.h"
#include "platform/platform.h"
#include "platform/queue.h"
#include "platform/safepoints.h"
#include "ir/ndrange_state.h"

typedef struct kernel_command {
  hg_command base;
  cl_kernel kernel;
  cl_uint work_dim;
  size_t offset[3], global[3], local[3];
  cl_uint num_args;
  hg_kernel_arg *args; /* snapshot: values copied, buffers retained */
  hg_ir_ndrange_state *resume; /* where it stopped at safe points (NULL: from the start) */
  bool stopped_once;           /* HETGPU_STOP_AFTER stops a launch once */
  uint8_t form;                /* its next launch's form as kernel_command_blocks decided it:
                                  FORM_STOPPABLE, FORM_PLAIN, 0 not decided */
  uint64_t ran_ns;             /* host time its stoppable runs took so far (the time limit's) */
  /* the arguments' copy when it fits (most kernels'): no allocation per launch */
  _Alignas(16) uint8_t inline_args[448];
} kernel_command;
_Static_assert(sizeof(kernel_command) <= HG_COMMAND_BLOCK_SIZE, "a launch's command takes a pooled block");
/* What hg_command_create clears: all but the argument copy, which copy_args fills */
#define KERNEL_COMMAND_CLEARED offsetof(kernel_command, inline_args)

static void kernel_command_cleanup_args(hg_command *c) {
  kernel_command *kc = (kernel_command *)c;
  for (cl_uint i = 0; i < kc->num_args; i++)
    if (kc->args[i].mem)
      hg_mem_release(kc->args[i].mem);
  if (kc->args != (hg_kernel_arg *)kc->inline_args)
    free(kc->args); /* the values live in the same block */
}

static void kernel_command_cleanup(hg_command *c) {
  kernel_command *kc = (kernel_command *)c;
  kernel_command_cleanup_args(c);
  hg_ir_ndrange_state_free(kc->resume);
  if (kc->kernel)
    hg_kernel_release(kc->kernel);
}

/* A plain launch the backend took asynchronously needs its kernel no more (the vendor holds its
 * own, with the arguments as they were): dropped now, a kernel the application released is
 * freed at once and its vendor kernel serves the application's next one (CLBlast makes and
 * releases a kernel at every call, calls that run back to back), as natively. */
static void kernel_command_submitted(hg_command *c) {
  kernel_command *kc = (kernel_command *)c;
  hg_kernel_release(kc->kernel);
  kc->kernel = NULL;
}

/* A kernel is short below SHORT_LAUNCH_NS; its next launches run plain, as many as take about
 * PLAIN_BUDGET_NS on the device (what a migration may have to wait for), at most PLAIN_MAX:
 * 63 for a kernel of 1 ms, 1023 for one of 60 us or less, whose one stoppable launch in 64
 * (each drains the stream) cost the 8 us stencil 45% of its back-to-back throughput on the H200. */
#define SHORT_LAUNCH_NS 1000000ull
#define PLAIN_BUDGET_NS 64000000ull
#define PLAIN_MAX 1023u

/* Launch arguments of kernels with up to this many parameters live on the stack. */
#define STACK_ARGS 16

/* The time limit's share left to a launch that already ran ran_ns (0: no limit; 1 ns when it is
 * used up, so a resumed launch past the limit stops at once). */
static uint64_t time_left(uint64_t ran_ns) {
  uint64_t limit = hg_kernel_timeout_ns();
  return !limit ? 0 : ran_ns < limit ? limit - ran_ns : 1;
}

/* The watchdog's call (platform/kernel_timeout.h): the launch ran past the limit. */
static void limit_passed(void *launch_stop) { hg_launch_stop_limit(launch_stop); }

/* The count of plain launches the kernel's function has left (NULL: none, ever). */
static atomic_uint *plain_launches(cl_kernel kernel) {
  atomic_uint *counts = kernel->program->plain_launches;
  return counts ? &counts[kernel->function] : NULL;
}

/* True when this launch may run plain (the function's last stoppable launch was short). */
static bool take_plain_launch(cl_kernel kernel) {
  atomic_uint *left = plain_launches(kernel);
  unsigned n = left ? atomic_load(left) : 0;
  while (n && !atomic_compare_exchange_weak(left, &n, n - 1))
    ;
  return n != 0;
}

/* The form of the command's next launch, decided once per launch (by kernel_command_blocks
 * before the submission when the engine asks, else by the launch): stoppable to resume, under a
 * time limit or the test countdown, else unless the kernel has plain launches to take or cannot
 * stop yet: until its stoppable forms are built (large ones wait until needed) a stoppable launch
 * would run plain anyway, only synchronously on the queue's worker, a hand-off to that thread per
 * launch (every launch of a kernel longer than SHORT_LAUNCH_NS: hashcat's). */
enum { FORM_PLAIN = 1, FORM_STOPPABLE = 2 };
static uint8_t launch_form(kernel_command *kc, hg_backend *be) {
  if (!kc->form)
    kc->form = kc->resume || hg_kernel_timeout_ns() || hg_stop_after_active() ||
                       (!take_plain_launch(kc->kernel) && hg_kernel_stoppable(kc->kernel, be, false))
                   ? FORM_STOPPABLE
                   : FORM_PLAIN;
  return kc->form;
}

static bool launch_stoppable(kernel_command *kc, hg_backend *be) {
  bool stoppable = launch_form(kc, be) == FORM_STOPPABLE;
  kc->form = 0; /* the next launch (a resume) decides again */
  return stoppable && be->ops->kernel_run && hg_safepoints_enabled();
}

/* The engine asks before submitting a launch: a stoppable one runs to its end (or its stop)
 * where it is submitted, so it goes to the queue's worker, not the application's enqueue. */
static bool kernel_command_blocks(hg_command *c) {
  kernel_command *kc = (kernel_command *)c;
  hg_backend *be = hg_context_backend(c->queue->context);
  return be->ops->kernel_run && hg_safepoints_enabled() && launch_form(kc, be) == FORM_STOPPABLE;
}

/* Runs the launch in its stoppable form, from kc->resume, polling a request of its own (which a
 * migration's reaches too) under the time limit. HG_LAUNCH_STOPPED keeps the state to resume in
 * kc->resume; HG_ERR_TIME_LIMIT when it stopped for the limit (its state dropped). */
static cl_int run_stoppable(kernel_command *kc, hg_backend *be, hg_dev_kernel *dk, hg_launch *launch,
                            uint64_t *device_ns) {
  hg_command *c = &kc->base;
  hg_launch_stop own;
  hg_launch_stop_begin(&own, c->queue->context, be);
  launch->stop = &own.request;
  launch->stop_after = kc->stopped_once ? 0 : hg_stop_after_checks();
  launch->time_limit_ns = time_left(kc->ran_ns);
  hg_kernel_timer timer;
  bool timed = launch->time_limit_ns && !be->ops->kernel_time_limit &&
               hg_kernel_timer_arm(&timer, launch->time_limit_ns, limit_passed, &own);
  hg_ir_ndrange_state *stopped = NULL;
  uint64_t t0 = hg_host_clock_ns();
  cl_int err = be->ops->kernel_run(be, dk, launch, kc->resume, &stopped, device_ns);
  uint64_t took = hg_host_clock_ns() - t0;
  bool fired = timed && hg_kernel_timer_disarm(&timer);
  hg_launch_stop_end(&own);
  kc->ran_ns += took;
  /* short by the launch's own device time where the backend measured it: the host time also
   * holds the wait for the plain launches queued before it (63 of a 20 us kernel on a GPU: more
   * than SHORT_LAUNCH_NS, which made every launch after them stoppable and synchronous) */
  uint64_t length = *device_ns ? *device_ns : took;
  atomic_uint *left = plain_launches(kc->kernel);
  if (err == CL_SUCCESS && !kc->resume && !launch->stop_after && left) {
    uint64_t plain = length >= SHORT_LAUNCH_NS ? 0 : PLAIN_BUDGET_NS / (length + 1);
    atomic_store(left, plain > PLAIN_MAX ? PLAIN_MAX : (unsigned)plain);
  }
  if (err == HG_LAUNCH_STOPPED && fired) {
    hg_ir_ndrange_state_free(stopped); /* abandoned where it stopped: it is not resumed */
    return HG_ERR_TIME_LIMIT;
  }
  if (err == HG_LAUNCH_STOPPED || err == CL_SUCCESS) {
    hg_ir_ndrange_state_free(kc->resume);
    kc->resume = stopped;
    kc->stopped_once |= err == HG_LAUNCH_STOPPED;
  }
  return err;
}

/* A launch ended for the time limit: said to the application through the context's notify
 * callback, and the command fails with CL_OUT_OF_RESOURCES. */
static cl_int report_time_limit(kernel_command *kc, hg_backend *be, const char *kernel) {
  char msg[512];
  snprintf(msg, sizeof msg,
           "hetGPU: kernel %s ran past HETGPU_KERNEL_TIMEOUT (%.3f s) on %s and was stopped; its event fails with "
           "CL_OUT_OF_RESOURCES",
           kernel, hg_kernel_timeout_ns() / 1e9, be->name);
  hg_context_notify(kc->base.queue->context, msg);
  return CL_OUT_OF_RESOURCES;
}

/* Builds the launch (buffer bookkeeping included) and hands it to the backend: to its stream
 * when token is not NULL and it can, else synchronously. */
static cl_int kernel_command_launch(hg_command *c, hg_token **token) {
  kernel_command *kc = (kernel_command *)c;
  hg_backend *be = hg_command_backend(c);
  if (!kc->global[0] || !kc->global[1] || !kc->global[2])
    return CL_SUCCESS; /* an empty range: nothing to run */
  if (hg_fault_injected("lose"))
    return HG_ERR_DEVICE_LOST;
  hg_dev_kernel *dk;
  cl_int err = hg_kernel_device(kc->kernel, be, &dk);
  if (err != CL_SUCCESS)
    return err;
  const hg_ir_function *f = hg_kernel_function(kc->kernel);
  hg_launch_arg stack_args[STACK_ARGS];
  hg_launch_arg *largs = kc->num_args <= STACK_ARGS ? stack_args : malloc(kc->num_args * sizeof *largs);
  if (!largs)
    return CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < kc->num_args; i++) {
    const hg_kernel_arg *a = &kc->args[i];
    hg_launch_arg *l = &largs[i];
    *l = (hg_launch_arg){0};
    switch (f->args[i].kind) {
    case HG_KARG_GLOBAL_PTR:
    case HG_KARG_CONSTANT_PTR:
      l->kind = HG_ARG_BUFFER;
      if (a->mem) {
        bool writes = f->args[i].kind == HG_KARG_GLOBAL_PTR && !(f->args[i].type_qual & 1);
        l->mem = hg_mem_device(a->mem, be, writes, &l->offset);
        l->size = hg_mem_size(a->mem); /* a sub-buffer's own bytes: the backend may protect them alone */
        if (!l->mem) {
          if (largs != stack_args)
            free(largs);
          return CL_MEM_OBJECT_ALLOCATION_FAILURE;
        }
      }
      break;
    case HG_KARG_IMAGE: /* a 1D buffer image: its buffer's allocation, from its offset there */
      l->kind = HG_ARG_IMAGE;
      l->image = &a->mem->image->layout;
      l->mem = hg_mem_device(a->mem, be, f->args[i].access_qual != 1, &l->offset);
      if (!l->mem) {
        if (largs != stack_args)
          free(largs);
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
      }
      break;
    case HG_KARG_SAMPLER:
      l->kind = HG_ARG_SAMPLER;
      l->size = a->size;
      l->value = a->value;
      break;
    case HG_KARG_LOCAL_PTR:
      l->kind = HG_ARG_LOCAL;
      l->size = a->size;
      break;
    default:
      l->kind = HG_ARG_VALUE;
      l->size = a->size;
      l->value = a->value;
    }
  }
  hg_launch launch = {.work_dim = kc->work_dim, .num_args = kc->num_args, .args = largs,
                      .time_limit_ns = time_left(kc->ran_ns)};
  memcpy(launch.global_offset, kc->offset, sizeof kc->offset);
  memcpy(launch.global_size, kc->global, sizeof kc->global);
  memcpy(launch.local_size, kc->local, sizeof kc->local);
  uint64_t device_ns = 0;
  /* Decided as the launch is handed to the backend, after the launches before it have set the
   * kernel's count of plain launches (decided at enqueue, a burst of launches enqueued behind a
   * first stoppable one was all stoppable: 37% of bench-kernels' launches on the H200). */
  bool stoppable = launch_stoppable(kc, be);
  if (kc->resume && !stoppable) {
    err = CL_INVALID_OPERATION; /* a stopped launch only moves to backends that resume (migrate.c) */
  } else if (stoppable) {
    err = run_stoppable(kc, be, dk, &launch, &device_ns); /* synchronous: nothing after it was handed over */
  } else if (token && be->ops->kernel_launch_async) {
    err = be->ops->kernel_launch_async(be, dk, &launch, hg_command_timed(c), token);
  } else {
    err = be->ops->kernel_launch(be, dk, &launch, &device_ns);
  }
  if (largs != stack_args)
    free(largs);
  if (token && !*token)
    c->sync_device_ns = device_ns; /* its event's END - START (queue_engine.c) */
  HG_LOG(HG_LOG_SCHED, "kernel %s on %s: %d (%s, %llu ns on the device)", f->name, be->name, err,
         token && *token ? "submitted" : "done", (unsigned long long)device_ns);
  return err == HG_ERR_TIME_LIMIT ? report_time_limit(kc, be, f->name) : err;
}

static cl_int kernel_command_run(hg_command *c) { return kernel_command_launch(c, NULL); }
static cl_int kernel_command_submit(hg_command *c, hg_token **token) { return kernel_command_launch(c, token); }

/* Work-groups of the range (global sizes are multiples of the local ones; an empty range has
 * none). */
static uint64_t group_count(const size_t *global, const size_t *local) {
  uint64_t n = 1;
  for (unsigned d = 0; d < 3; d++) {
    uint64_t g = local[d] ? global[d] / local[d] : 0;
    if (g && n > UINT64_MAX / g)
      return UINT64_MAX;
    n *= g;
  }
  return n;
}

/* The largest work-group shape that divides the global size and fits the kernel's limit,
 * filling dimension 0 first. The search divides once per candidate (a 64-item range under a
 * 256 limit tried 193 of them, 1.8 k instructions a launch), so it starts at the range's size,
 * and the thread's last answer serves the same question again (launches back to back). */
static void choose_local_size(cl_uint dim, const size_t *global, size_t limit, size_t *local) {
  static _Thread_local struct {
    cl_uint dim;
    size_t global[3], limit, local[3];
  } last;
  if (last.dim == dim && last.limit == limit && !memcmp(last.global, global, dim * sizeof *global)) {
    memcpy(local, last.local, sizeof last.local);
    return;
  }
  static const size_t item_max[3] = {HG_PROFILE_MAX_WORK_ITEM_SIZE_0, HG_PROFILE_MAX_WORK_ITEM_SIZE_1,
                                     HG_PROFILE_MAX_WORK_ITEM_SIZE_2};
  size_t room = limit;
  for (cl_uint d = 0; d < 3; d++) {
    size_t best = 1;
    if (d < dim) {
      size_t l = room < item_max[d] ? room : item_max[d];
      if (global[d] && global[d] < l) /* no larger divisor (an empty range takes the limit) */
        l = global[d];
      while (l > 1 && global[d] % l)
        l--;
      best = l ? l : 1;
    }
    local[d] = best;
    room /= best;
  }
  last.dim = dim;
  last.limit = limit;
  memcpy(last.global, global, dim * sizeof *global);
  memcpy(last.local, local, sizeof last.local);
}

static cl_int check_range(cl_kernel kernel, cl_uint work_dim, const size_t *offset, const size_t *global,
                          const size_t *local, kernel_command *kc) {
  if (work_dim < 1 || work_dim > 3)
    return CL_INVALID_WORK_DIMENSION;
  static const size_t empty[3] = {0, 0, 0};
  if (!global) /* since OpenCL 2.1 an empty range, like a 0 in any dimension: it runs nothing */
    global = empty;
  const hg_ir_function *f = hg_kernel_function(kernel);
  const uint32_t *reqd = f->reqd_work_group_size;
  size_t safe = reqd[0] ? SIZE_MAX : hg_kernel_safe_work_group_size(kernel);
  static const size_t item_max[3] = {HG_PROFILE_MAX_WORK_ITEM_SIZE_0, HG_PROFILE_MAX_WORK_ITEM_SIZE_1,
                                     HG_PROFILE_MAX_WORK_ITEM_SIZE_2};
  kc->work_dim = work_dim;
  size_t items = 1;
  for (cl_uint d = 0; d < 3; d++) {
    kc->global[d] = d < work_dim ? global[d] : 1;
    kc->offset[d] = d < work_dim && offset ? offset[d] : 0;
    if (d < work_dim && kc->offset[d] > SIZE_MAX - kc->global[d])
      return CL_INVALID_GLOBAL_OFFSET;
    /* get_global_linear_id and the backends' group counts must not wrap: the whole range in a size_t */
    if (kc->global[d] && items > SIZE_MAX / kc->global[d])
      return CL_INVALID_GLOBAL_WORK_SIZE;
    items *= kc->global[d] ? kc->global[d] : 1;
  }
  if (local) {
    size_t product = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
      if (local[d] == 0)
        return CL_INVALID_WORK_GROUP_SIZE;
      if (local[d] > item_max[d])
        return CL_INVALID_WORK_ITEM_SIZE;
      if (kc->global[d] % local[d])
        return CL_INVALID_WORK_GROUP_SIZE; /* no non-uniform work-groups */
      if (reqd[0] && local[d] != reqd[d])
        return CL_INVALID_WORK_GROUP_SIZE;
      product *= local[d];
    }
    /* above the size every backend runs, ask them (hg_kernel_work_group_size builds there) */
    if (product > safe && product > hg_kernel_work_group_size(kernel))
      return CL_INVALID_WORK_GROUP_SIZE;
    for (cl_uint d = 0; d < 3; d++)
      kc->local[d] = d < work_dim ? local[d] : 1;
  } else if (reqd[0]) { /* the required size, in the launch's dimensions (CTS null_required_work_group_size) */
    for (cl_uint d = 0; d < 3; d++) {
      kc->local[d] = d < work_dim ? reqd[d] : 1;
      if (kc->global[d] % kc->local[d])
        return CL_INVALID_WORK_GROUP_SIZE; /* no non-uniform work-groups */
    }
  } else {
    choose_local_size(work_dim, kc->global, safe, kc->local);
    /* too many groups of that size (2^40 work-items in groups of 256): larger ones if the
     * kernel runs them everywhere (hg_kernel_work_group_size asks the backends) */
    if (group_count(kc->global, kc->local) > HG_PROFILE_MAX_WORK_GROUPS && safe < hg_kernel_work_group_size(kernel))
      choose_local_size(work_dim, kc->global, hg_kernel_work_group_size(kernel), kc->local);
  }
  /* no backend is handed more groups than every backend can count (common/profile_limits.h) */
  if (group_count(kc->global, kc->local) > HG_PROFILE_MAX_WORK_GROUPS)
    return CL_INVALID_GLOBAL_WORK_SIZE;
  return CL_SUCCESS;
}

/* Value bytes of a snapshot are kept 16-byte aligned (vectors). */
static size_t value_room(size_t size) { return (size + 15) & ~(size_t)15; }

/* Copies n arguments into the command, retaining the buffers: one allocation holds the
 * argument records and their values. All or nothing: on an error nothing is held. */
static cl_int copy_args(const hg_kernel_arg *from, uint32_t n, kernel_command *kc) {
  cl_int err = CL_SUCCESS;
  size_t bytes = (n ? n : 1) * sizeof *kc->args;
  for (uint32_t i = 0; i < n && err == CL_SUCCESS; i++) {
    const hg_kernel_arg *a = &from[i];
    if (!a->set)
      err = CL_INVALID_KERNEL_ARGS;
    else if (a->mem && !hg_object_is(a->mem, HG_OBJ_MEM))
      err = CL_INVALID_KERNEL_ARGS; /* the buffer was released after being set */
    else if (a->value)
      bytes += value_room(a->size);
  }
  hg_kernel_arg *args = err != CL_SUCCESS            ? NULL
                        : bytes <= sizeof kc->inline_args ? (hg_kernel_arg *)kc->inline_args
                                                          : malloc(bytes);
  if (err == CL_SUCCESS && !args)
    err = CL_OUT_OF_HOST_MEMORY;
  if (err == CL_SUCCESS) {
    uint8_t *values = (uint8_t *)(args + (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) {
      const hg_kernel_arg *a = &from[i];
      args[i] = *a;
      if (a->value) {
        memcpy(values, a->value, a->size);
        args[i].value = values;
        values += value_room(a->size);
      }
      if (a->mem)
        hg_mem_retain(a->mem);
    }
    kc->args = args;
    kc->num_args = n;
  }
  return err;
}

/* The kernel's arguments as they are now (the application may change them right after). */
static cl_int snapshot_args(cl_kernel kernel, kernel_command *kc) {
  pthread_mutex_lock(&kernel->lock);
  cl_int err = copy_args(kernel->args, hg_kernel_function(kernel)->num_params, kc);
  pthread_mutex_unlock(&kernel->lock);
  return err;
}

bool hg_kernel_command_stopped(hg_command *c, cl_kernel *kernel, const hg_kernel_arg **args,
                               const hg_ir_ndrange_state **state) {
  if (c->type != CL_COMMAND_NDRANGE_KERNEL || c->run != kernel_command_run)
    return false;
  kernel_command *kc = (kernel_command *)c;
  if (!kc->resume)
    return false;
  *kernel = kc->kernel;
  *args = kc->args;
  *state = kc->resume;
  return true;
}

cl_int hg_enqueue_kernel_from_state(cl_command_queue queue, cl_kernel kernel, const hg_kernel_arg *args,
                                    hg_ir_ndrange_state *state) {
  const hg_ir_function *f = hg_kernel_function(kernel);
  hg_command *cmd = NULL;
  cl_int err = !state || state->work_dim < 1 || state->work_dim > 3 || strcmp(state->kernel, f->name)
                   ? CL_INVALID_VALUE
                   : hg_command_create(queue, CL_COMMAND_NDRANGE_KERNEL, KERNEL_COMMAND_CLEARED, 0, NULL, &cmd);
  if (err != CL_SUCCESS) {
    hg_ir_ndrange_state_free(state);
    return err;
  }
  kernel_command *kc = (kernel_command *)cmd;
  kc->work_dim = state->work_dim;
  for (unsigned d = 0; d < 3; d++) {
    kc->offset[d] = state->global_offset[d];
    kc->global[d] = state->global_size[d];
    kc->local[d] = state->local_size[d];
  }
  if (group_count(kc->global, kc->local) > HG_PROFILE_MAX_WORK_GROUPS) { /* a state file's range, as enqueued */
    hg_command_discard(cmd);
    hg_ir_ndrange_state_free(state);
    return CL_INVALID_GLOBAL_WORK_SIZE;
  }
  err = copy_args(args, f->num_params, kc);
  if (err != CL_SUCCESS) {
    hg_command_discard(cmd);
    hg_ir_ndrange_state_free(state);
    return err;
  }
  hg_kernel_retain(kernel);
  kc->kernel = kernel;
  kc->resume = state;
  kc->stopped_once = true;
  cmd->run = kernel_command_run;
  cmd->cleanup = kernel_command_cleanup;
  return hg_command_submit(cmd, NULL, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                                       cl_uint work_dim, const size_t *global_work_offset,
                                                       const size_t *global_work_size, const size_t *local_work_size,
                                                       cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                                       cl_event *event) {
  hg_command *cmd; /* checks the queue (every launch: once) and the wait list */
  cl_int err = hg_command_create(command_queue, CL_COMMAND_NDRANGE_KERNEL, KERNEL_COMMAND_CLEARED,
                                 num_events_in_wait_list, event_wait_list, &cmd);
  if (err != CL_SUCCESS)
    return err;
  kernel_command *kc = (kernel_command *)cmd;
  if (!hg_object_is(kernel, HG_OBJ_KERNEL))
    err = CL_INVALID_KERNEL;
  else if (kernel->program->context != command_queue->context)
    err = CL_INVALID_CONTEXT;
  else
    err = check_range(kernel, work_dim, global_work_offset, global_work_size, local_work_size, kc);
  if (err == CL_SUCCESS && hg_kernel_arg_bytes(hg_kernel_function(kernel)) > HG_PROFILE_MAX_PARAMETER_SIZE) {
    /* built with a warning (platform/program_build.c); no backend is promised to run it */
    hg_context_notify(command_queue->context, "hetGPU: the kernel's arguments exceed CL_DEVICE_MAX_PARAMETER_SIZE");
    err = CL_OUT_OF_RESOURCES;
  }
  if (err == CL_SUCCESS)
    err = snapshot_args(kernel, kc);
  if (err == CL_SUCCESS && hg_kernel_args_local_mem(hg_kernel_function(kernel), kc->args) > HG_PROFILE_LOCAL_MEM_SIZE)
    err = CL_OUT_OF_RESOURCES; /* the command's cleanup drops what snapshot_args held */
  if (err != CL_SUCCESS) {
    if (kc->args)
      cmd->cleanup = kernel_command_cleanup_args;
    hg_command_discard(cmd);
    return err;
  }
  hg_kernel_retain(kernel);
  kc->kernel = kernel;
  cmd->run = kernel_command_run;
  /* plain launches are submitted without waiting; a stoppable one runs synchronously where it
   * is submitted (kernel_command_launch), which is the queue's worker (kernel_command_blocks):
   * stopped, it must be the last thing the backend was given, so nothing queued behind it has
   * run. Under a time limit every launch is stoppable (a plain one on a vendor backend could not
   * be stopped). */
  cmd->submit = kernel_command_submit;
  cmd->submit_blocks = kernel_command_blocks;
  cmd->submitted = kernel_command_submitted;
  cmd->cleanup = kernel_command_cleanup;
  return hg_command_submit(cmd, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                              cl_event *event) {
  static const size_t one[1] = {1};
  return clEnqueueNDRangeKernel(command_queue, kernel, 1, NULL, one, one, num_events_in_wait_list, event_wait_list,
                                event);
}
