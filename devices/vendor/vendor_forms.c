/* The stoppable forms of a program built after it, in the background (HETGPU_FORMS_BACKGROUND).
 *
 * A GPU vendor's compiler takes two to four times as long over a program with its forms as over
 * the plain kernels (NVIDIA, docs/gpu-runs.md), and clBuildProgram would wait for all of it. So
 * the plain kernels are built first and clBuildProgram returns; the forms, lowered alone
 * (hg_lower_opencl_c_forms), go to one thread per process that builds them in a vendor program of
 * their own, in the order the programs were built. Until a program's forms are ready its fresh
 * launches run plain (a migration waits for them at the kernel boundary); whoever needs the
 * forms themselves (a resume, a launch with a time limit or a test countdown, the kernel's
 * work-group size, which is the smallest over its forms) waits for them, building them on its
 * own thread when the builder has not reached them. */
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

typedef enum { FORMS_QUEUED, FORMS_BUILDING, FORMS_READY, FORMS_FAILED } forms_state;

struct hg_vendor_forms {
  hg_vendor_backend *vb;
  char *source, *opts;
  cl_program program; /* FORMS_READY */
  forms_state state;
  bool dropped; /* its program was freed while the forms were building: whoever builds frees them */
  struct hg_vendor_forms *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER; /* a job queued, a build ended, quitting */
static hg_vendor_forms *head, *tail;
static bool builder_started, quitting;
static unsigned building; /* builds in progress on any thread */

static void forms_free(hg_vendor_forms *f) {
  if (f->program)
    VCL(f->program)->clReleaseProgram(f->program);
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

/* Builds f, taken from the queue (lock held; released during the build). */
static void build(hg_vendor_forms *f) {
  f->state = FORMS_BUILDING;
  building++;
  pthread_mutex_unlock(&lock);
  cl_program prog = NULL;
  cl_int err = hg_vendor_build_source(f->vb, f->source, f->opts, false, &prog, NULL);
  if (err != CL_SUCCESS)
    HG_LOG(HG_LOG_COMPILE, "%s: the stoppable forms did not build (%d): their kernels' launches run plain",
           f->vb->base.name, err);
  pthread_mutex_lock(&lock);
  building--;
  f->program = prog;
  f->state = prog ? FORMS_READY : FORMS_FAILED;
  free(f->source); /* kept until now for a waiter that builds it itself */
  f->source = NULL;
  if (f->dropped)
    forms_free(f);
  pthread_cond_broadcast(&changed);
}

static void *builder(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  while (!quitting) {
    hg_vendor_forms *f = head;
    if (!f) {
      pthread_cond_wait(&changed, &lock);
      continue;
    }
    unlink_job(f);
    build(f);
  }
  pthread_mutex_unlock(&lock);
  return NULL;
}

/* At exit: no build may still be inside the vendor's library while it is torn down. Registered
 * when the builder starts, after the vendor library has registered its own exit handlers, so it
 * runs before them. */
static void quit_builder(void) {
  pthread_mutex_lock(&lock);
  quitting = true;
  pthread_cond_broadcast(&changed);
  while (building)
    pthread_cond_wait(&changed, &lock);
  pthread_mutex_unlock(&lock);
}

hg_vendor_forms *hg_vendor_forms_queue(hg_vendor_backend *vb, char *source, const char *opts) {
  hg_vendor_forms *f = calloc(1, sizeof *f);
  char *opts_copy = strdup(opts);
  if (!f || !opts_copy) {
    free(f);
    free(opts_copy);
    free(source);
    return NULL;
  }
  f->vb = vb;
  f->source = source;
  f->opts = opts_copy;
  f->state = FORMS_QUEUED;
  pthread_mutex_lock(&lock);
  if (!builder_started && !quitting) {
    pthread_t t;
    builder_started = pthread_create(&t, NULL, builder, NULL) == 0;
    if (builder_started) {
      pthread_detach(t);
      atexit(quit_builder);
    } else {
      HG_LOG(HG_LOG_COMPILE, "no thread for building stoppable forms: they are built when first needed");
    }
  }
  if (tail)
    tail->next = f;
  else
    head = f;
  tail = f;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
  return f;
}

cl_program hg_vendor_forms_program(hg_vendor_forms *f, bool wait) {
  pthread_mutex_lock(&lock);
  if (wait && f->state == FORMS_QUEUED) {
    unlink_job(f); /* needed now: not behind the other programs' forms */
    build(f);
  }
  while (wait && f->state == FORMS_BUILDING)
    pthread_cond_wait(&changed, &lock);
  cl_program prog = f->state == FORMS_READY ? f->program : NULL;
  pthread_mutex_unlock(&lock);
  return prog;
}

void hg_vendor_forms_drop(hg_vendor_forms *f) {
  if (!f)
    return;
  pthread_mutex_lock(&lock);
  if (f->state == FORMS_BUILDING) {
    f->dropped = true;
  } else {
    unlink_job(f);
    forms_free(f);
  }
  pthread_mutex_unlock(&lock);
}
