/* The stoppable forms of a program lowered and built after it, in the background
 * (HETGPU_FORMS_BACKGROUND); and, where the program went to the vendor as PTX, its plain kernels
 * lowered to OpenCL C and built by the vendor's own compiler in a child process, for the program
 * cache and for this process's later launches (hg_vendor_recompile_queue).
 *
 * A GPU vendor's compiler takes two to four times as long over a program with its forms as over
 * the plain kernels (NVIDIA, docs/gpu-runs.md), and clBuildProgram would wait for all of it. So
 * the plain kernels are built first and clBuildProgram returns; the forms go to a thread of
 * their own, which lowers them alone (hg_lower_opencl_c_forms: 2-6 ms for the bench's kernels, most
 * of a build from the caches, and the stop table with them) at once, and builds them in a vendor
 * program of their own, in the order the programs were built, once no program was built for a
 * while (FORMS_QUIET_NS; at once where a child process compiles them, vendor_forms_child.c),
 * but for large forms (FORMS_BACKGROUND_MAX). Until a program's forms
 * are ready its fresh launches run plain (a migration waits for them at the kernel boundary);
 * whoever needs the forms themselves (a resume, a launch with a time limit or a test countdown)
 * waits for them, lowering and building them on its own thread when the builder has not reached
 * them. The vendor's own builds of PTX programs (recompile jobs) have a second thread: behind
 * the forms, a short process would end before they were built (below, next_build). The module
 * they are lowered from is the program's, alive until it is dropped. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/heap_release.h"
#include "devices/cache.h"
#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

/* FAILED: no forms (none lowered, or their build failed) */
typedef enum { FORMS_UNLOWERED, FORMS_LOWERING, FORMS_QUEUED, FORMS_BUILDING, FORMS_READY, FORMS_FAILED } forms_state;

struct hg_vendor_forms {
  hg_vendor_backend *vb;
  /* not forms: the plain kernels lowered to OpenCL C and built by the vendor in a child process,
   * the binary kept in the program cache under `key` for later processes and loaded here as
   * `program` (hg_vendor_recompile_queue) */
  bool recompile;
  hg_cache_key key;
  const struct hg_ir_module *module; /* FORMS_UNLOWERED, FORMS_LOWERING */
  hg_oc_forms_target target;
  hg_oc_stop_table stop; /* from FORMS_QUEUED on */
  char *source, *opts;
  cl_program program; /* FORMS_READY */
  forms_state state;
  /* FORMS_FAILED or FORMS_READY, final: read without the lock on every launch's look-up */
  atomic_bool settled;
  bool dropped; /* its program was freed while the forms were building: whoever builds frees them */
  bool via_spir;
  bool on_demand; /* not built in the background: built by whoever needs it (FORMS_BACKGROUND_MAX) */
  struct hg_vendor_forms *next;
};

/* The builder starts a program's forms only once no program was queued for this long: a
 * vendor's compiler serves one build at a time per process (NVIDIA: building the forms behind
 * each program cost a burst of back-to-back builds as much as building them with it,
 * docs/gpu-runs.md), so forms wait for a burst of builds (an application's start, a test suite)
 * to end instead of delaying each next one. The burst's builds may be a second apart: hashcat's
 * third program waited 24 s behind the forms of its second, begun 0.5 s before it, with 100 ms. */
#define FORMS_QUIET_NS 1000000000ull

/* Forms larger than this (lowered OpenCL C) are not built in the background but when first
 * needed (a resume, a launch with a time limit, CL_KERNEL_STOPPABLE_HETGPU). NVIDIA compiled
 * hashcat -m 1800's 8 MB of forms for over 5 minutes, holding its compiler against the
 * application's own builds (a 1 KB program waited 2.7 s behind them), and exit must wait for a
 * build in progress (below). On the CPU the build competes with the application's kernels for
 * the same cores, even at the lowest priority: clang alone takes 19 s over hashcat -m 0's 9.3 MB
 * of forms, so each short run started it again and never cached it, and PoCL ran the benchmark's
 * kernel 14-20% slower meanwhile (docs/performance.md). A migration without them waits for the
 * kernels in flight to end, as it does while forms are queued. */
#define FORMS_BACKGROUND_MAX (256u << 10)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER; /* a job queued, a build ended, quitting */
static hg_vendor_forms *head, *tail;
static bool builder_started[2], quitting; /* [recompile]: the forms' builder, the recompile jobs' */
static unsigned in_vendor;     /* forms builds inside their vendor calls, which exit waits for */
static _Thread_local bool in_build, in_vendor_call; /* this thread builds forms / is in its vendor calls */
static uint64_t last_queued_ns; /* CLOCK_REALTIME, which `changed` waits by */

static uint64_t realtime_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void forms_free(hg_vendor_forms *f) {
  if (f->program)
    VCL(f->program)->clReleaseProgram(f->program);
  hg_oc_stop_table_free(&f->stop);
  hg_cache_key_free(&f->key);
  free(f->source);
  free(f->opts);
  free(f);
}

static void unlink_job(hg_vendor_forms *f) {
  hg_vendor_forms **at = &head, *prev = NULL;
  while (*at && *at != f) {
    prev = *at;
    at = &(*at)->next;
  }
  if (!*at)
    return;
  *at = f->next;
  if (tail == f)
    tail = prev;
  f->next = NULL;
}

/* Lowers f, in the queue (lock held; released during the lowering): then queued with its
 * source (or, when the forms are large, left to whoever needs them), or failed without any. */
static void lower(hg_vendor_forms *f) {
  f->state = FORMS_LOWERING;
  pthread_mutex_unlock(&lock);
  const char *name = f->vb->base.name;
  char why[512] = "";
  hg_oc_stop_table stop;
  uint64_t t0 = hg_host_clock_ns();
  memset(&stop, 0, sizeof stop);
  char *source;
  if (f->recompile) {
    hg_printf_table table; /* none: the kernels went as PTX, which never prints */
    source = hg_lower_opencl_c(f->module, &table, why, sizeof why);
    if (source)
      hg_printf_table_free(&table);
  } else {
    source = hg_lower_opencl_c_forms(f->module, &f->target, NULL, &stop, why, sizeof why);
  }
  const char *what = f->recompile ? "the plain kernels (for the vendor's own build)" : "stoppable forms";
  if (!source)
    HG_LOG(HG_LOG_COMPILE, "%s: %s were not lowered (%s)%s", name, what, why,
           f->recompile ? "" : ": their kernels' launches run plain");
  else
    HG_LOG(HG_LOG_COMPILE, "%s: %s lowered in %.1f ms", name, what, (hg_host_clock_ns() - t0) / 1e6);
  if (source && !f->recompile && !stop.num_kernels) { /* no kernel has forms */
    free(source);
    source = NULL;
    hg_oc_stop_table_free(&stop);
  }
  bool on_demand = source && !f->recompile && strlen(source) > FORMS_BACKGROUND_MAX;
  if (on_demand)
    HG_LOG(HG_LOG_COMPILE, "%s: %zu bytes of stoppable forms: built when first needed", name, strlen(source));
  pthread_mutex_lock(&lock);
  f->module = NULL;
  if (source)
    f->stop = stop;
  f->source = source;
  f->on_demand = on_demand;
  f->state = source ? FORMS_QUEUED : FORMS_FAILED;
  if (!source) {
    unlink_job(f);
    atomic_store_explicit(&f->settled, true, memory_order_release);
  }
  pthread_cond_broadcast(&changed);
}

/* The plain kernels of a recompile job built in a child process, their binary cached and
 * loaded here (NULL when it was not built, exit has begun, or the vendor refused it). */
static cl_program recompile(hg_vendor_forms *f) {
  size_t size = 0;
  bool refused;
  uint8_t *cached = NULL; /* built by an earlier process whose kernels kept the PTX (below) */
  void *bin = hg_cache_get(&f->key, &cached, &size) ? cached
                                                    : hg_vendor_build_in_child(f->vb, f->source, f->opts, &size, &refused);
  cl_program prog = NULL;
  if (bin && !cached)
    hg_cache_put(&f->key, bin, size);
  pthread_mutex_lock(&lock);
  bool load = bin && !f->dropped; /* a dropped program's backend may be gone too */
  pthread_mutex_unlock(&lock);
  if (load && hg_vendor_compiler_enter()) {
    cl_int err;
    prog = hg_vendor_program_from_binary(f->vb, bin, size, f->opts, &err);
    hg_vendor_compiler_leave();
    HG_LOG(HG_LOG_COMPILE, "%s: the vendor's own build of the plain kernels loaded for later launches: %s (%d)",
           f->vb->base.name, prog ? "taken" : "refused", err);
  }
  free(bin);
  return prog;
}

/* Builds f, taken from the queue (lock held; released during the build). */
static void build(hg_vendor_forms *f) {
  f->state = FORMS_BUILDING;
  pthread_mutex_unlock(&lock);
  cl_program prog = NULL;
  uint64_t start_ns = hg_host_clock_ns();
  in_build = 1;
  cl_int err = CL_SUCCESS;
  if (f->recompile)
    prog = recompile(f);
  else
    err = hg_vendor_build_source(f->vb, f->source, f->opts,
                                 f->via_spir ? HG_VENDOR_BUILD_FORMS_VIA_SPIR : HG_VENDOR_BUILD_FORMS, &prog, NULL);
  in_build = 0;
  if (err != CL_SUCCESS)
    HG_LOG(HG_LOG_COMPILE, "%s: the stoppable forms did not build (%d): their kernels' launches run plain",
           f->vb->base.name, err);
  hg_heap_release_after_build(start_ns);
  pthread_mutex_lock(&lock);
  f->program = prog;
  f->state = prog || f->recompile ? FORMS_READY : FORMS_FAILED;
  atomic_store_explicit(&f->settled, true, memory_order_release);
  free(f->source); /* kept until now for a waiter that builds it itself */
  f->source = NULL;
  if (f->dropped)
    forms_free(f);
  pthread_cond_broadcast(&changed);
}

/* The next job the builder of recompile jobs (or of forms) builds (lock held): the first one
 * queued. The vendor's own builds have a thread of their own because short processes would
 * otherwise never reach them: behind the forms, hashcat -m 0's benchmark on the H200 ran
 * NVIDIA's code only from its third or fourth process, and taken before any forms from its
 * third, the first process's builder being in its first program's forms when the second
 * (the main kernel's) came (docs/performance.md, thirty-eighth session). */
static hg_vendor_forms *next_build(bool recompiles) {
  for (hg_vendor_forms *f = head; f; f = f->next)
    if (!f->on_demand && f->state == FORMS_QUEUED && f->recompile == recompiles)
      return f;
  return NULL;
}

/* arg non-NULL: the builder of recompile jobs */
static void *builder(void *arg) {
  bool recompiles = arg != NULL;
  pthread_setname_np(pthread_self(), recompiles ? "hetgpu-rebuild" : "hetgpu-build");
  /* the lowest CPU priority for this thread and the clang it forks (fork keeps a thread's nice
   * value): a build in the background must not slow the application's kernels down. hashcat -m
   * 0's benchmark on PoCL here ran at 0.63x with the forms' clang beside PoCL's two threads on two
   * vCPUs (its 4 s run ends before that clang does, so each run started it again) */
  setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
  pthread_mutex_lock(&lock);
  while (!quitting) {
    hg_vendor_forms *f = head;
    while (f && (f->state != FORMS_UNLOWERED || f->recompile != recompiles))
      f = f->next;
    if (f) { /* lowering has no vendor call: at once */
      lower(f);
      continue;
    }
    f = next_build(recompiles);
    if (!f) {
      pthread_cond_wait(&changed, &lock);
      continue;
    }
    /* (a build in a child process holds this process's compiler only to load its binary) */
    uint64_t quiet_at = last_queued_ns + FORMS_QUIET_NS, now = realtime_ns();
    if (!f->recompile && !hg_vendor_forms_in_child(f->vb, f->via_spir) && now < quiet_at &&
        now + FORMS_QUIET_NS >= quiet_at) { /* (a clock set back: build now) */
      struct timespec until = {(time_t)(quiet_at / 1000000000ull), (long)(quiet_at % 1000000000ull)};
      pthread_cond_timedwait(&changed, &lock, &until);
      continue;
    }
    unlink_job(f);
    build(f);
  }
  pthread_mutex_unlock(&lock);
  return NULL;
}

/* Exiting while a build runs. The vendor's exit handlers tear its compiler down under a build
 * still running on another thread (NVIDIA: a SIGSEGV in NvCliCompileBitcode, docs/ptx-backend.md
 * "A crash at exit", and heap corruption found by malloc on the exiting thread; PoCL: its static
 * maps freed under a lookup, which ThreadSanitizer saw in migrate_threads), and their handlers
 * may be registered after any of ours: NVIDIA's compiler registers some when it first reaches a
 * path, on whatever thread compiles. So once exit has begun no forms build makes a vendor call
 * (hg_vendor_compiler_enter), and exit waits for the vendor calls of builds in progress: PoCL
 * builds the forms' SPIR bitcode in milliseconds (the out-of-process clang before it is not
 * waited for), and large forms are not built in the background at all (FORMS_BACKGROUND_MAX).
 * One that is still in the vendor after EXIT_WAIT_NS (large forms built on demand: NVIDIA takes
 * minutes) ends the process at once with the exit status, before any vendor handler runs and
 * skipping the handlers and destructors still to come (stdio is flushed).
 * exit() runs the exiting thread's thread_local destructors before every atexit handler: each
 * thread that queues forms gets one, which on the main thread (returning from main; another
 * thread ending leaves the build running) stops new vendor calls and registers the handler that
 * waits: registered during exit, it is the first to run, and on_exit gives it the status. The
 * same handler, registered when the builder starts, covers exit() from another thread (for
 * vendor handlers registered before it). */
#define EXIT_WAIT_NS 5000000000ull

extern int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso);
extern void *__dso_handle;

static void stop_vendor_calls(void) {
  pthread_mutex_lock(&lock);
  quitting = true; /* no new build starts, no build makes a vendor call */
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

static void wait_at_exit(int status, void *unused) {
  (void)unused;
  stop_vendor_calls();
  uint64_t until_ns = realtime_ns() + EXIT_WAIT_NS;
  struct timespec until = {(time_t)(until_ns / 1000000000ull), (long)(until_ns % 1000000000ull)};
  pthread_mutex_lock(&lock);
  unsigned own = in_vendor_call ? 1u : 0u; /* (exit called from inside a vendor call) */
  int err = 0;
  while (in_vendor > own && err == 0) /* ETIMEDOUT ends it */
    err = pthread_cond_timedwait(&changed, &lock, &until);
  bool still_building = in_vendor > own;
  pthread_mutex_unlock(&lock);
  if (still_building) {
    HG_LOG(HG_LOG_COMPILE, "exit: a build of stoppable forms is still in the vendor's compiler: ending now");
    fflush(NULL);
    _exit(status);
  }
}

static void at_thread_end(void *unused) {
  (void)unused;
  if (gettid() == getpid()) {
    stop_vendor_calls();
    on_exit(wait_at_exit, NULL);
  }
}

bool hg_vendor_compiler_enter(void) {
  if (!in_build)
    return true; /* the application's own build: exit does not begin under it */
  pthread_mutex_lock(&lock);
  bool enter = !quitting;
  if (enter) {
    in_vendor++;
    in_vendor_call = true;
  }
  pthread_mutex_unlock(&lock);
  return enter;
}

void hg_vendor_compiler_leave(void) {
  if (!in_vendor_call)
    return;
  pthread_mutex_lock(&lock);
  in_vendor--;
  in_vendor_call = false;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

/* A job for module with opts; NULL when out of memory. */
static hg_vendor_forms *new_job(hg_vendor_backend *vb, const struct hg_ir_module *module, const char *opts) {
  hg_vendor_forms *f = calloc(1, sizeof *f);
  char *opts_copy = strdup(opts);
  if (!f || !opts_copy) {
    free(f);
    free(opts_copy);
    return NULL;
  }
  f->vb = vb;
  f->module = module;
  f->opts = opts_copy;
  f->state = FORMS_UNLOWERED;
  return f;
}

/* Queues f for the builder thread (started at the first job). */
static hg_vendor_forms *queue_job(hg_vendor_forms *f) {
  static _Thread_local bool exit_hook_set;
  if (!exit_hook_set)
    exit_hook_set = __cxa_thread_atexit_impl(at_thread_end, NULL, &__dso_handle) == 0;
  pthread_mutex_lock(&lock);
  bool *started = &builder_started[f->recompile];
  if (!*started && !quitting) {
    pthread_t t;
    *started = pthread_create(&t, NULL, builder, f->recompile ? (void *)1 : NULL) == 0;
    if (*started) {
      pthread_detach(t);
      on_exit(wait_at_exit, NULL); /* (again for the second builder: after vendor handlers since) */
    } else {
      HG_LOG(HG_LOG_COMPILE, "no thread for building %s",
             f->recompile ? "the vendor's own build of PTX programs: their PTX runs"
                          : "stoppable forms: they are built when first needed");
    }
  }
  if (tail)
    tail->next = f;
  else
    head = f;
  tail = f;
  last_queued_ns = realtime_ns();
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
  return f;
}

hg_vendor_forms *hg_vendor_forms_queue(hg_vendor_backend *vb, const struct hg_ir_module *module,
                                       const hg_oc_forms_target *target, const char *opts, bool via_spir) {
  hg_vendor_forms *f = new_job(vb, module, opts);
  if (!f)
    return NULL;
  f->target = *target;
  f->via_spir = via_spir;
  return queue_job(f);
}

hg_vendor_forms *hg_vendor_recompile_queue(hg_vendor_backend *vb, const struct hg_ir_module *module, const char *opts,
                                           const hg_cache_key *key) {
  hg_vendor_forms *f = new_job(vb, module, opts);
  if (!f)
    return NULL;
  f->recompile = true;
  f->key.bytes = malloc(key->size); /* the same key, not one with it as a part */
  if (!f->key.bytes) {
    forms_free(f);
    return NULL;
  }
  memcpy(f->key.bytes, key->bytes, key->size);
  f->key.size = f->key.cap = key->size;
  return queue_job(f);
}

/* The mark, under a recompile job's key with these bytes after it, that one of the program's
 * kernels ran faster from the PTX than from the vendor's own build (vendor_trial.h): a later
 * process then builds the PTX again (its trials choose anew) instead of taking the own build alone. */
static const char k_keeps_ptx[] = "keeps its PTX";

static void keeps_ptx_key(const hg_cache_key *recompiled, hg_cache_key *key) {
  hg_cache_key_add(key, recompiled->bytes, recompiled->size);
  hg_cache_key_add_str(key, k_keeps_ptx);
}

void hg_vendor_recompile_keep_ptx(hg_vendor_forms *f) {
  if (!f || !f->recompile)
    return;
  hg_cache_key key = {0};
  keeps_ptx_key(&f->key, &key);
  hg_cache_put(&key, (const uint8_t *)k_keeps_ptx, sizeof k_keeps_ptx);
  hg_cache_key_free(&key);
}

bool hg_vendor_recompiled_keeps_ptx(const hg_cache_key *recompiled) {
  hg_cache_key key = {0};
  keeps_ptx_key(recompiled, &key);
  uint8_t *mark = NULL;
  size_t size = 0;
  bool marked = hg_cache_get(&key, &mark, &size) && size == sizeof k_keeps_ptx && !memcmp(mark, k_keeps_ptx, size);
  free(mark);
  hg_cache_key_free(&key);
  return marked;
}

/* Lock held: f lowered, here when no one else is lowering it. */
static void lowered_now(hg_vendor_forms *f) {
  while (f->state == FORMS_LOWERING)
    pthread_cond_wait(&changed, &lock);
  if (f->state == FORMS_UNLOWERED)
    lower(f);
}

bool hg_vendor_forms_stop(hg_vendor_forms *f, bool wait, const hg_oc_stop_table **table) {
  pthread_mutex_lock(&lock);
  if (wait)
    lowered_now(f);
  bool lowered = f->state != FORMS_UNLOWERED && f->state != FORMS_LOWERING;
  pthread_mutex_unlock(&lock);
  *table = lowered ? &f->stop : NULL; /* not written again once lowered */
  return lowered;
}

cl_program hg_vendor_forms_program(hg_vendor_forms *f, bool wait) {
  if (atomic_load_explicit(&f->settled, memory_order_acquire))
    return f->program; /* set before settled, never changed after */
  pthread_mutex_lock(&lock);
  if (wait) {
    lowered_now(f);
    if (f->state == FORMS_QUEUED) {
      unlink_job(f); /* needed now: not behind the other programs' forms */
      build(f);
    }
    while (f->state == FORMS_BUILDING)
      pthread_cond_wait(&changed, &lock);
  }
  cl_program prog = f->state == FORMS_READY ? f->program : NULL;
  pthread_mutex_unlock(&lock);
  return prog;
}

bool hg_vendor_forms_settled(hg_vendor_forms *f) { return atomic_load_explicit(&f->settled, memory_order_acquire); }

void hg_vendor_forms_drop(hg_vendor_forms *f) {
  if (!f)
    return;
  pthread_mutex_lock(&lock);
  while (f->state == FORMS_LOWERING) /* it reads the program's module, freed after this */
    pthread_cond_wait(&changed, &lock);
  if (f->state == FORMS_BUILDING) {
    f->dropped = true;
  } else {
    unlink_job(f);
    forms_free(f);
  }
  pthread_mutex_unlock(&lock);
}
