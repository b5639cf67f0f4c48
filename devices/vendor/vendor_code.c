/* Code on the vendor backend: the IR module lowered to SPIR bitcode or PTX where the vendor takes
 * it (lowering/spir.h, lowering/ptx.h), else to OpenCL C (lowering/opencl_c.h), built by the
 * vendor's compiler; kernels launched through the vendor and timed by its profiling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/host_clock.h"
#include "devices/cache.h"
#include "devices/vendor/vendor_internal.h"
#include "devices/vendor/vendor_trial.h"
#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/opencl_c.h"
#include "lowering/ptx.h"
#include "lowering/spir.h"
#include "common/log.h"
#include "common/robust_settings.h"
#include "common/safepoint_settings.h"

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

static char *build_log(hg_vendor_backend *vb, cl_program prog) {
  size_t size = 0;
  if (VCL(prog)->clGetProgramBuildInfo(prog, vb->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
    return dup_string("");
  char *log = malloc(size + 1);
  if (!log)
    return NULL;
  if (VCL(prog)->clGetProgramBuildInfo(prog, vb->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS)
    size = 0;
  log[size] = '\0';
  return log;
}

/* The parts every key of a vendor's build starts with: what is built (tag), the exact device
 * and driver that build it, and the options. */
static void device_key(hg_backend *be, const char *tag, const char *opts, hg_cache_key *key) {
  hg_cache_key_add_str(key, tag);
  hg_cache_key_add_str(key, be->platform_name);
  hg_cache_key_add_str(key, be->device_name);
  hg_cache_key_add_str(key, be->driver_version);
  hg_cache_key_add_str(key, opts);
}

/* The cache key of a vendor build: the lowered source (robust or not), its options and the
 * exact device and driver that compiled it. */
static void binary_key(hg_backend *be, const char *source, const char *opts, bool robust, hg_cache_key *key) {
  device_key(be, robust ? "vendor-binary-robust" : "vendor-binary", opts, key);
  hg_cache_key_add_str(key, source);
}

static void program_to_cache(hg_vendor_backend *vb, cl_program prog, const hg_cache_key *key) {
  /* A CPU device's binary is not asked for: PoCL compiles every kernel's work-group function
   * to answer (the stoppable forms included: CLBlast's xgemv ran 40 times slower), keeps its own
   * kernel cache, and aborts on the query for very long kernel names (NOTES.md). */
  if (vb->base.type & CL_DEVICE_TYPE_CPU)
    return;
  size_t size = 0;
  if (VCL(prog)->clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size)
    return;
  unsigned char *bin = malloc(size);
  if (bin && VCL(prog)->clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS)
    hg_cache_put(key, bin, size);
  free(bin);
}

/* The options a SPIR bitcode binary is built with. */
#define SPIR_BUILD_OPTIONS "-x spir -spir-std=1.2"

cl_program hg_vendor_program_from_binary(hg_vendor_backend *vb, const void *bin, size_t size, const char *opts,
                                         cl_int *err) {
  cl_int status = CL_SUCCESS;
  const unsigned char *bins[1] = {bin};
  *err = CL_SUCCESS;
  cl_program prog = VCL(vb->context)->clCreateProgramWithBinary(vb->context, 1, &vb->device, &size, bins, &status, err);
  if (prog && (*err = VCL(prog)->clBuildProgram(prog, 1, &vb->device, opts, NULL, NULL)) != CL_SUCCESS) {
    VCL(prog)->clReleaseProgram(prog);
    prog = NULL;
  }
  return prog;
}

/* Lowered OpenCL C to SPIR bitcode by our own clang, out of process, then to the vendor as a
 * program binary (vb->spir: PoCL): its compiler lock is then held for the binary's quick build
 * only, where a build from source holds it through its front end and optimiser (hashcat -m
 * 1800's forms: 172 s, during which every first launch of a kernel, which compiles there too,
 * waited), and a clang still running at exit dies with the process. The bitcode is kept in the
 * program cache (PoCL's own binaries are not asked for: program_to_cache). NULL when clang
 * fails (logged: the caller builds from source). */
static void *spir_of_source(hg_vendor_backend *vb, const char *source, const char *opts, size_t *size) {
  void *bits = NULL;
  char *log = NULL;
  hg_cache_key key = {0};
  hg_cache_key_add_str(&key, "spir-of-lowered-opencl-c");
  hg_cache_key_add_str(&key, opts);
  hg_cache_key_add_str(&key, source);
  if (!hg_cache_get(&key, (uint8_t **)&bits, size)) {
    cl_int err = hg_frontend_compile_spir(source, opts, &bits, size, &log);
    if (err == CL_SUCCESS)
      hg_cache_put(&key, bits, *size);
    else
      HG_LOG(HG_LOG_COMPILE, "%s: the lowered source did not compile to SPIR bitcode (%d%s%.300s): from source instead",
             vb->base.name, err, log && *log ? ": " : "", log ? log : "");
  }
  hg_cache_key_free(&key);
  free(log);
  return bits;
}

/* Where the binary a build loads instead of its source came from. */
typedef enum { BINARY_NONE, BINARY_CACHED, BINARY_SPIR, BINARY_CHILD } binary_origin;

/* The vendor calls of hg_vendor_build_source: bin (size bytes, from `origin`) loaded, else the
 * source built. */
static cl_int build_in_vendor(hg_vendor_backend *vb, const char *source, const char *opts, const void *bin, size_t size,
                              binary_origin origin, const hg_cache_key *key, cl_program *out, char **log) {
  hg_backend *be = &vb->base;
  cl_int err = CL_SUCCESS;
  cl_program prog = NULL;
  if (origin != BINARY_NONE) {
    uint64_t t0 = hg_host_clock_ns();
    prog = hg_vendor_program_from_binary(vb, bin, size, origin == BINARY_SPIR ? SPIR_BUILD_OPTIONS : opts, &err);
    if (prog && origin == BINARY_CACHED)
      HG_LOG(HG_LOG_CACHE, "%s: vendor binary from the cache", be->name);
    else if (prog)
      HG_LOG(HG_LOG_COMPILE, "%s: built %zu bytes of lowered OpenCL C through %s (its build here %.1f ms)", be->name,
             strlen(source), origin == BINARY_SPIR ? "SPIR bitcode" : "the binary of a child process",
             (hg_host_clock_ns() - t0) / 1e6);
    else if (origin != BINARY_CACHED)
      HG_LOG(HG_LOG_COMPILE, "%s: the vendor refused the %s (%d): from source instead", be->name,
             origin == BINARY_SPIR ? "SPIR bitcode" : "child's binary", err);
    if (prog && origin != BINARY_CACHED)
      program_to_cache(vb, prog, key);
    if (prog) {
      *out = prog;
      return CL_SUCCESS;
    }
  }
  const char *sources[1] = {source};
  prog = VCL(vb->context)->clCreateProgramWithSource(vb->context, 1, sources, NULL, &err);
  if (!prog)
    return hg_vendor_error(err);
  cl_int build_err = VCL(prog)->clBuildProgram(prog, 1, &vb->device, opts, NULL, NULL);
  if (log) {
    free(*log);
    *log = build_log(vb, prog);
  }
  if (build_err != CL_SUCCESS) {
    HG_LOG(HG_LOG_COMPILE, "%s: vendor build failed (%d) with options \"%s\"; source:\n%s", be->name, build_err, opts,
           source);
    VCL(prog)->clReleaseProgram(prog);
    /* our lowered source or options were rejected: to the application that is a build failure
     * (with the vendor's log), not an error in the options it gave */
    return build_err == CL_INVALID_BUILD_OPTIONS || build_err == CL_BUILD_PROGRAM_FAILURE ||
                   build_err == CL_COMPILER_NOT_AVAILABLE
               ? CL_BUILD_PROGRAM_FAILURE
               : hg_vendor_error(build_err);
  }
  program_to_cache(vb, prog, key);
  HG_LOG(HG_LOG_COMPILE, "%s: built %zu bytes of lowered OpenCL C", be->name, strlen(source));
  *out = prog;
  return CL_SUCCESS;
}

cl_int hg_vendor_build_source(hg_vendor_backend *vb, const char *source, const char *opts, hg_vendor_build_kind kind,
                              cl_program *out, char **log) {
  *out = NULL;
  hg_cache_key key = {0};
  binary_key(&vb->base, source, opts, kind == HG_VENDOR_BUILD_ROBUST, &key);
  /* the binary to load instead of the source, found or made before any vendor call */
  uint8_t *bin = NULL;
  size_t size = 0;
  binary_origin origin = BINARY_NONE;
  bool refused = false;
  bool forms = kind == HG_VENDOR_BUILD_FORMS || kind == HG_VENDOR_BUILD_FORMS_VIA_SPIR;
  if (hg_cache_get(&key, &bin, &size))
    origin = BINARY_CACHED;
  else if (kind == HG_VENDOR_BUILD_FORMS_VIA_SPIR && vb->spir)
    origin = (bin = spir_of_source(vb, source, opts, &size)) ? BINARY_SPIR : BINARY_NONE;
  else if (forms && hg_vendor_forms_in_child(vb, kind == HG_VENDOR_BUILD_FORMS_VIA_SPIR))
    origin = (bin = hg_vendor_build_in_child(vb, source, opts, &size, &refused)) ? BINARY_CHILD : BINARY_NONE;
  /* refused by the vendor in the child, or exit has begun under a forms build: nothing is built */
  cl_int err = CL_BUILD_PROGRAM_FAILURE;
  if (!refused && hg_vendor_compiler_enter()) {
    err = build_in_vendor(vb, source, opts, bin, size, origin, &key, out, log);
    hg_vendor_compiler_leave();
  }
  hg_cache_key_free(&key);
  free(bin);
  return err;
}

/* Program-scope variables a kernel may write: the forms must be in the same vendor program as
 * the plain kernels, or the two would each have their own copy. */
static bool has_program_variables(const struct hg_ir_module *m) {
  for (uint32_t g = 0; m && g < m->num_globals; g++)
    if (m->globals[g].addrspace == HG_AS_GLOBAL && !m->globals[g].is_const)
      return true;
  return false;
}

static cl_int lowering_failed(hg_backend *be, const char *err_text, char **log) {
  HG_LOG(HG_LOG_COMPILE, "%s: lowering to OpenCL C failed: %s", be->name, err_text);
  if (log) {
    char msg[800];
    snprintf(msg, sizeof msg, "hetGPU: lowering for %s failed: %s", be->name,
             err_text[0] ? err_text : "no OpenCL C back end available");
    *log = dup_string(msg);
  }
  return CL_BUILD_PROGRAM_FAILURE;
}

/* The cache key of a module lowered straight to the vendor's input: the form and the module's
 * encoding (the cache adds the driver build, which fixes the lowering). False when the module
 * cannot be encoded. */
static bool direct_key(const char *form, const struct hg_ir_module *module, const uint8_t *digest, hg_cache_key *key) {
  uint8_t hash[16];
  if (!hg_cache_module_digest(module, digest, hash))
    return false;
  hg_cache_key_add_str(key, "vendor-direct");
  hg_cache_key_add_str(key, form);
  hg_cache_key_add(key, hash, sizeof hash);
  return true;
}

/* The plain kernels lowered straight from the IR to what the vendor loads as a program binary
 * (SPIR bitcode for PoCL, lowering/spir.h; PTX for NVIDIA, lowering/ptx.h), with no vendor front
 * end on the way; NULL when the module is the OpenCL C back end's or the vendor refuses the
 * binary (both logged), and the caller lowers the module to OpenCL C instead. SPIR comes with
 * the kernels' slice forms (slice_forms): a sliced launch then runs the plain kernel's code,
 * where the forms' OpenCL C ran PoCL's sgemm 16% slower (docs/performance.md); PoCL compiles a
 * kernel at its first launch, so the program's build grows by little. NVIDIA compiles every
 * kernel of a PTX program in its build, whose time the application waits for: no slice forms
 * there. The lowered binary is kept in the program cache (a second build of a large program
 * skips the lowering: 30-300 ms); what comes back from it is the vendor's to check, as a
 * program binary. */
static cl_program build_direct(hg_vendor_backend *vb, const struct hg_ir_module *module, const uint8_t *digest,
                               bool slice_forms) {
  hg_backend *be = &vb->base;
  const char *form = !vb->spir ? "PTX" : slice_forms ? "SPIR bitcode with slice forms" : "SPIR bitcode";
  char why[512] = "";
  size_t size = 0;
  uint8_t *bin = NULL;
  hg_cache_key key = {0};
  char form_key[96]; /* SPIR bitcode depends on the host's vector width (hg_spir_call_vector_bytes) */
  snprintf(form_key, sizeof form_key, "%s, calls of vectors to %u bytes", form, vb->spir ? hg_spir_call_vector_bytes() : 0);
  bool keyed = direct_key(form_key, module, digest, &key), cached = keyed && hg_cache_get(&key, &bin, &size);
  if (cached && !vb->spir && (!size || bin[size - 1])) { /* PTX is text with its NUL */
    free(bin);
    bin = NULL;
    cached = false;
  }
  uint64_t t0 = hg_host_clock_ns();
  if (!cached) {
    bin = vb->spir ? hg_lower_spir(module, slice_forms, &size, why, sizeof why)
                   : (uint8_t *)hg_lower_ptx(module, &size, why, sizeof why);
    if (bin && keyed)
      hg_cache_put(&key, bin, size);
  }
  hg_cache_key_free(&key);
  uint64_t t1 = hg_host_clock_ns();
  if (!bin) {
    HG_LOG(HG_LOG_COMPILE, "%s: OpenCL C, not %s: %s", be->name, form, why);
    return NULL;
  }
  cl_int err;
  cl_program prog = hg_vendor_program_from_binary(vb, bin, size, vb->spir ? SPIR_BUILD_OPTIONS : "", &err);
  free(bin);
  if (!prog)
    HG_LOG(HG_LOG_COMPILE, "%s: the vendor refused the %s (%d); OpenCL C instead", be->name, form, err);
  else
    HG_LOG(HG_LOG_COMPILE, "%s: built %zu bytes of %s: %s %.1f ms, vendor build %.1f ms", be->name, size, form,
           cached ? "from the cache" : "lowering", (t1 - t0) / 1e6, (hg_host_clock_ns() - t1) / 1e6);
  return prog;
}

/* The cache key of the vendor's own build of a module's plain kernels lowered to OpenCL C with
 * opts (hg_vendor_recompile_queue); false when the module cannot be encoded. */
static bool recompiled_key(hg_backend *be, const struct hg_ir_module *module, const uint8_t *digest, const char *opts,
                           hg_cache_key *key) {
  uint8_t hash[16];
  if (!hg_cache_module_digest(module, digest, hash))
    return false;
  device_key(be, "vendor-recompiled", opts, key);
  hg_cache_key_add(key, hash, sizeof hash);
  return true;
}

/* Where the plain kernels go to the vendor as PTX, the first build of a module is LLVM's PTX
 * (quick to build: NVIDIA's front end over our OpenCL C takes longer, hashcat -m 0 cold 16.3
 * against 14.0 s), and NVIDIA's own compiler then builds the same kernels from OpenCL C in the
 * background for later processes: its code ran hashcat -m 0's kernel in NVIDIA's own 9.23 ms,
 * LLVM 15's PTX in 9.33 (docs/performance.md). NULL when no such build is cached. */
static cl_program recompiled_program(hg_vendor_backend *vb, const hg_cache_key *key, const char *opts) {
  uint8_t *bin = NULL;
  size_t size = 0;
  if (!hg_cache_get(key, &bin, &size))
    return NULL;
  cl_int err;
  cl_program prog = hg_vendor_program_from_binary(vb, bin, size, opts, &err);
  free(bin);
  HG_LOG(HG_LOG_COMPILE, "%s: the vendor's own build of the plain kernels from the cache (%zu bytes): %s (%d)",
         vb->base.name, size, prog ? "taken" : "refused, PTX instead", err);
  return prog;
}

cl_int hg_vendor_program_build(hg_backend *be, const struct hg_ir_module *module, const uint8_t *digest,
                               const char *options, hg_dev_program **out, char **log) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  *out = NULL;
  if (log)
    *log = NULL;
  char err_text[512] = "";
  /* lowered on a cache hit too: the source is the cache key, and the printf table comes with it */
  hg_printf_table table;
  hg_oc_stop_table stop = {0};
  /* robust kernels have no stoppable forms: their launches run to the end (docs/robust-access.md) */
  bool robust = hg_robust_enabled();
  bool forms = hg_safepoints_enabled() && !robust; /* off, the forms would only cost compile time */
  /* CPU devices (PoCL) and GPUs (NVIDIA) need the forms in shapes of their own */
  hg_oc_forms_target target = hg_oc_forms_target_of(be->type & CL_DEVICE_TYPE_CPU);
  /* The caller's options first, the lowering's last, so the -cl-std the lowered source is
   * written in wins over one the application gave for its own source. */
  const char *lower_opts = hg_lower_opencl_c_options(module);
  if (!lower_opts)
    lower_opts = "";
  if (!options)
    options = "";
  size_t opts_len = strlen(options) + strlen(lower_opts) + 2;
  char *opts = malloc(opts_len);
  if (opts)
    snprintf(opts, opts_len, "%s%s%s", options, *options && *lower_opts ? " " : "", lower_opts);
  /* the plain kernels straight from the IR where the vendor takes SPIR bitcode or PTX; for PTX,
   * the vendor's own build of them when an earlier process left it in the cache */
  hg_cache_key recompiled = {0};
  bool recompilable = vb->ptx && !robust && opts && recompiled_key(be, module, digest, opts, &recompiled);
  cl_program direct =
      recompilable && !hg_vendor_recompiled_keeps_ptx(&recompiled) ? recompiled_program(vb, &recompiled, opts) : NULL;
  bool recompile = recompilable && !direct;
  if (!direct && (vb->spir || vb->ptx) && !robust)
    direct = build_direct(vb, module, digest, forms);
  recompile &= direct != NULL;
  target.slice_forms_elsewhere = direct && vb->spir;
  /* the forms after the program, in a vendor program of their own (vendor_forms.c): by default
   * on GPUs and beside a SPIR or PTX program, whose build is too quick to wait for theirs; such a
   * program's forms are in a program of their own in any case (built at once when not later) */
  bool background = hg_forms_in_background(!(be->type & CL_DEVICE_TYPE_CPU) || direct);
  bool later = forms && (direct || background) && !has_program_variables(module);
  memset(&table, 0, sizeof table); /* a SPIR or PTX program never prints (lowering/spir.h, ptx.h) */
  char *source = direct            ? NULL
                 : robust          ? hg_lower_opencl_c_robust(module, &table, err_text, sizeof err_text)
                 : forms && !later ? hg_lower_opencl_c_stoppable(module, &target, &table, &stop, err_text,
                                                                 sizeof err_text)
                                   : hg_lower_opencl_c(module, &table, err_text, sizeof err_text);
  if (!source && !direct) {
    hg_oc_stop_table_free(&stop);
    hg_cache_key_free(&recompiled);
    free(opts);
    return lowering_failed(be, err_text, log);
  }
  hg_dev_program *p = calloc(1, sizeof *p);
  cl_int err = CL_SUCCESS;
  if (p)
    pthread_mutex_init(&p->idle_lock, NULL);
  if (!opts || !p) {
    err = CL_OUT_OF_HOST_MEMORY;
    if (direct)
      VCL(direct)->clReleaseProgram(direct);
    goto done;
  }
  if (direct)
    p->program = direct;
  else
    err = hg_vendor_build_source(vb, source, opts, robust ? HG_VENDOR_BUILD_ROBUST : HG_VENDOR_BUILD_PLAIN, &p->program,
                                 log);
  if (err == CL_BUILD_PROGRAM_FAILURE && forms && !later && stop.num_kernels) {
    /* the forms must never cost the application its program: build the plain kernels alone */
    HG_LOG(HG_LOG_COMPILE, "%s: the stoppable forms did not build; building the plain kernels", be->name);
    hg_oc_stop_table_free(&stop);
    hg_printf_table_free(&table);
    free(source);
    source = hg_lower_opencl_c(module, &table, err_text, sizeof err_text);
    err = source ? hg_vendor_build_source(vb, source, opts, HG_VENDOR_BUILD_PLAIN, &p->program, log)
                 : CL_BUILD_PROGRAM_FAILURE;
  }
  if (err == CL_SUCCESS && later) {
    /* without them (out of memory) launches run plain */
    p->forms = hg_vendor_forms_queue(vb, module, &target, opts, direct != NULL);
    if (p->forms && !background)
      hg_vendor_forms_program(p->forms, true); /* HETGPU_FORMS_BACKGROUND=0 */
  }
  /* in a child process only: here it would hold the vendor's compiler against the application's builds */
  if (err == CL_SUCCESS && recompile && hg_vendor_forms_in_child(vb, false))
    p->recompile = hg_vendor_recompile_queue(vb, module, opts, &recompiled);
done:
  hg_cache_key_free(&recompiled);
  if (err == CL_SUCCESS) {
    p->printf = table;
    p->stop = stop;
    p->slice_forms_elsewhere = target.slice_forms_elsewhere;
    p->robust = robust;
  } else {
    if (source)
      hg_printf_table_free(&table);
    hg_oc_stop_table_free(&stop);
    if (p && p->program)
      VCL(p->program)->clReleaseProgram(p->program);
    if (p)
      pthread_mutex_destroy(&p->idle_lock);
    free(p);
    p = NULL;
  }
  if (log && !*log && err != CL_OUT_OF_HOST_MEMORY)
    *log = dup_string("");
  *out = p;
  free(opts);
  free(source);
  return err;
}

/* Releases k's vendor kernels and k. */
static void kernel_destroy(hg_dev_kernel *k) {
  VCL(k->kernel)->clReleaseKernel(k->kernel);
  cl_kernel own = atomic_load(&k->own_build);
  if (own)
    VCL(own)->clReleaseKernel(own);
  if (k->trial)
    hg_vendor_trial_end(k->trial, false);
  if (k->stop_kernel)
    VCL(k->stop_kernel)->clReleaseKernel(k->stop_kernel);
  if (k->resume_kernel)
    VCL(k->resume_kernel)->clReleaseKernel(k->resume_kernel);
  if (k->catchup_kernel)
    VCL(k->catchup_kernel)->clReleaseKernel(k->catchup_kernel);
  if (k->slice_kernel)
    VCL(k->slice_kernel)->clReleaseKernel(k->slice_kernel);
  pthread_mutex_destroy(&k->launch_lock);
  free(k->memo);
  free(k->name);
  free(k);
}

/* A program keeps up to k_idle_kernels of the kernels the application released and hands one
 * to its next kernel of that name: CLBlast makes and releases a kernel at every call, and where
 * the last call's kernel is gone (its launches retired) the vendor's kernel, with its forms,
 * NVIDIA's own build and the memo of the arguments it holds, serves the next call as it is (no
 * vendor kernel made and released, and the arguments that did not change are not set again). */
enum { k_idle_kernels = 8 };

/* Which code won a kernel's trial in its program (vendor_trial.h), for the program's later kernels
 * of that name: CLBlast makes a kernel at every call, too few launches each for a trial. */
typedef struct hg_vendor_verdict {
  struct hg_vendor_verdict *next;
  bool own; /* the vendor's own build, else the PTX */
  char name[];
} hg_vendor_verdict;

/* idle_lock held: the verdict recorded for name, or NULL */
static const hg_vendor_verdict *find_verdict(const hg_dev_program *p, const char *name) {
  const hg_vendor_verdict *v = p->verdicts;
  while (v && strcmp(v->name, name))
    v = v->next;
  return v;
}

/* 1: the own build won, 0: the PTX, -1: no trial of that name ended. */
static int verdict_of(hg_dev_program *p, const char *name) {
  pthread_mutex_lock(&p->idle_lock);
  const hg_vendor_verdict *v = find_verdict(p, name);
  int verdict = v ? v->own : -1;
  pthread_mutex_unlock(&p->idle_lock);
  return verdict;
}

/* The first verdict for name stays (two kernels of one name may settle at once). */
static void record_verdict(hg_dev_program *p, const char *name, bool own) {
  size_t n = strlen(name) + 1;
  hg_vendor_verdict *v = malloc(sizeof *v + n);
  if (!v)
    return; /* its later kernels try again */
  v->own = own;
  memcpy(v->name, name, n);
  pthread_mutex_lock(&p->idle_lock);
  bool known = find_verdict(p, name) != NULL;
  if (!known) {
    v->next = p->verdicts;
    p->verdicts = v;
  }
  pthread_mutex_unlock(&p->idle_lock);
  if (known)
    free(v);
}

static hg_dev_kernel *take_idle(hg_dev_program *p, const char *name) {
  pthread_mutex_lock(&p->idle_lock);
  hg_dev_kernel **at = &p->idle;
  while (*at && strcmp((*at)->name, name))
    at = &(*at)->next_idle;
  hg_dev_kernel *k = *at;
  if (k) {
    *at = k->next_idle;
    k->next_idle = NULL;
    p->num_idle--;
    /* how long its groups ran was measured on the last kernel's launches: this one may run
     * other sizes, and a slice sized by a stale time would run long before it can stop */
    atomic_store(&k->slice_group_ns, 0);
  }
  pthread_mutex_unlock(&p->idle_lock);
  return k;
}

void hg_vendor_program_free(hg_backend *be, hg_dev_program *p) {
  if (!p)
    return;
  for (hg_dev_kernel *k = p->idle, *next; k; k = next) {
    next = k->next_idle;
    kernel_destroy(k);
  }
  for (hg_vendor_verdict *v = p->verdicts, *next; v; v = next) {
    next = v->next;
    free(v);
  }
  pthread_mutex_destroy(&p->idle_lock);
  hg_vendor_forms_drop(p->forms);
  hg_vendor_forms_drop(p->recompile);
  VCL(p->program)->clReleaseProgram(p->program);
  hg_printf_table_free(&p->printf);
  hg_oc_stop_table_free(&p->stop);
  free(p);
}

cl_int hg_vendor_kernel_create(hg_backend *be, hg_dev_program *p, const char *name, hg_dev_kernel **out) {
  *out = take_idle(p, name);
  if (*out)
    return CL_SUCCESS;
  hg_dev_kernel *k = calloc(1, sizeof *k);
  if (!k)
    return CL_OUT_OF_HOST_MEMORY;
  cl_int err = CL_SUCCESS;
  /* the vendor's own build where this process has it already and it won the trial of this
   * kernel's name (vendor_trial.h): CLBlast makes a kernel per call. Without a verdict yet, the
   * PTX kernel, whose launches try the own build. */
  cl_program own = p->recompile && hg_vendor_forms_settled(p->recompile) ? hg_vendor_forms_program(p->recompile, false)
                                                                          : NULL;
  int verdict = own ? verdict_of(p, name) : -1;
  if (verdict == 1)
    k->kernel = VCL(own)->clCreateKernel(own, name, &err);
  bool from_own = k->kernel != NULL;
  if (!k->kernel)
    k->kernel = VCL(p->program)->clCreateKernel(p->program, name, &err);
  if (!k->kernel) {
    HG_LOG(HG_LOG_COMPILE, "%s: clCreateKernel(%s) failed (%d)", be->name, name, err);
    free(k);
    return hg_vendor_error(err);
  }
  /* the platform promises a fixed per-kernel work-group size; say what the vendor allows (three
   * vendor calls, only when logged: CLBlast makes a kernel for every call) */
  if (hg_log_mask & HG_LOG_COMPILE) {
    size_t wg = 0;
    cl_ulong local = 0, priv = 0;
    hg_vendor_backend *vb = hg_vendor_of(be);
    VCL(k->kernel)->clGetKernelWorkGroupInfo(k->kernel, vb->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    VCL(k->kernel)->clGetKernelWorkGroupInfo(k->kernel, vb->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                             NULL);
    VCL(k->kernel)->clGetKernelWorkGroupInfo(k->kernel, vb->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                             NULL);
    HG_LOG(HG_LOG_COMPILE, "%s: kernel %s: vendor work-group size %zu, local %llu, private %llu bytes", be->name,
           name, wg, (unsigned long long)local, (unsigned long long)priv);
  }
  k->prog = p;
  k->printf = hg_printf_table_has_kernel(&p->printf, name);
  k->robust = p->robust;
  k->name = dup_string(name);
  if (!p->forms) { /* else known once the forms are lowered (hg_vendor_stop_info) */
    k->stop_info = hg_oc_stop_table_find(&p->stop, name);
    k->stop_info_known = true;
  }
  atomic_init(&k->own_build_looked, p->recompile == NULL || from_own || verdict == 0);
  pthread_mutex_init(&k->launch_lock, NULL);
  *out = k;
  return CL_SUCCESS;
}

void hg_vendor_kernel_free(hg_backend *be, hg_dev_kernel *k) {
  if (!k)
    return;
  hg_dev_program *p = k->prog;
  pthread_mutex_lock(&p->idle_lock);
  bool kept = p->num_idle < k_idle_kernels;
  if (kept) {
    k->next_idle = p->idle;
    p->idle = k;
    p->num_idle++;
  }
  pthread_mutex_unlock(&p->idle_lock);
  if (!kept)
    kernel_destroy(k);
}

/* What one application argument of a vendor kernel holds, as set last. */
typedef struct hg_vendor_arg_memo {
  bool known;       /* false: set it (never set, or an image, a sampler, a launch's own copy) */
  hg_arg_kind kind;
  size_t size;
  cl_mem mem;
  unsigned char value[64];
} hg_vendor_arg_memo;

/* k's memo for `kernel` with num_args arguments (launch_lock), emptied when a buffer was released
 * since; NULL for the forms' kernels (their hidden arguments change each launch) or without memory. */
static hg_vendor_arg_memo *arg_memo(hg_vendor_backend *vb, hg_dev_kernel *k, cl_kernel kernel, cl_uint num_args) {
  cl_kernel own = atomic_load_explicit(&k->own_build, memory_order_relaxed);
  if (kernel != (own ? own : k->kernel) || num_args == 0)
    return NULL;
  if (k->num_memo != num_args) {
    hg_vendor_arg_memo *m = realloc(k->memo, num_args * sizeof *m);
    if (!m)
      return NULL;
    k->memo = m;
    k->num_memo = num_args;
    k->memo_generation = ~0ull;
  }
  unsigned long long generation = atomic_load(&vb->mem_generation);
  if (k->memo_generation != generation) {
    for (cl_uint i = 0; i < num_args; i++)
      k->memo[i].known = false;
    k->memo_generation = generation;
  }
  return k->memo;
}

static bool memo_holds(const hg_vendor_arg_memo *m, const hg_launch_arg *a, cl_mem mem) {
  if (!m || !m->known || m->kind != a->kind)
    return false;
  switch (a->kind) {
  case HG_ARG_BUFFER:
    return m->mem == mem;
  case HG_ARG_LOCAL:
    return m->size == a->size;
  case HG_ARG_VALUE:
    return m->size == a->size && memcmp(m->value, a->value, a->size) == 0;
  default:
    return false;
  }
}

static void memo_record(hg_vendor_arg_memo *m, const hg_launch_arg *a, cl_mem mem, bool remembered) {
  if (!m)
    return;
  m->known = remembered && (a->kind != HG_ARG_VALUE || a->size <= sizeof m->value);
  m->kind = a->kind;
  m->size = a->size;
  m->mem = mem;
  if (m->known && m->kind == HG_ARG_VALUE)
    memcpy(m->value, a->value, a->size);
}

/* Sets one application argument unless memo (NULL: none) says the kernel holds it already. */
static cl_int set_arg(hg_vendor_backend *vb, hg_vendor_shadows *shadows, cl_kernel kernel, cl_uint index,
                      const hg_launch_arg *a, hg_vendor_arg_memo *memo) {
  const cl_icd_dispatch *d = VCL(kernel);
  cl_int err;
  switch (a->kind) {
  case HG_ARG_BUFFER: {
    cl_mem mem = hg_vendor_shadow_of(shadows, a); /* a NULL buffer argument: a NULL pointer in the kernel */
    bool shadowed = mem != NULL; /* a copy made for this launch alone */
    if (a->mem && !mem) {
      err = hg_vendor_mem_at(vb, a->mem, a->offset, &mem);
      if (err != CL_SUCCESS)
        return err;
    }
    if (!shadowed && memo_holds(memo, a, mem))
      return CL_SUCCESS;
    err = d->clSetKernelArg(kernel, index, sizeof mem, &mem);
    memo_record(memo, a, mem, err == CL_SUCCESS && !shadowed);
    return err;
  }
  case HG_ARG_LOCAL:
  case HG_ARG_VALUE:
    if (memo_holds(memo, a, NULL))
      return CL_SUCCESS;
    err = d->clSetKernelArg(kernel, index, a->size, a->kind == HG_ARG_LOCAL ? NULL : a->value);
    memo_record(memo, a, NULL, err == CL_SUCCESS);
    return err;
  case HG_ARG_IMAGE: {
    cl_mem image, made;
    memo_record(memo, a, NULL, false);
    err = hg_vendor_image_arg(vb, a, hg_vendor_shadow_of(shadows, a), &image, &made);
    if (made)
      hg_vendor_shadow_keep(shadows, made);
    return err == CL_SUCCESS ? d->clSetKernelArg(kernel, index, sizeof image, &image) : err;
  }
  case HG_ARG_SAMPLER: {
    uint32_t bits;
    cl_sampler sampler;
    memo_record(memo, a, NULL, false);
    if (!a->value)
      return CL_INVALID_SAMPLER;
    memcpy(&bits, a->value, sizeof bits);
    err = hg_vendor_sampler(vb, bits, &sampler);
    return err == CL_SUCCESS ? d->clSetKernelArg(kernel, index, sizeof sampler, &sampler) : err;
  }
  }
  return CL_INVALID_ARG_VALUE;
}

/* Sets the arguments and enqueues the launch on the stream (timed: its profiling times will be
 * asked for); *ev receives the vendor event (NULL when the range is empty and nothing was
 * enqueued), *print the launch's printf buffer when the kernel prints, *queue the vendor queue
 * it went to. With `batched`, a launch that neither prints nor has argument copies goes without
 * a vendor event and *batched is its token from the stream's batch (*ev stays NULL). */
static cl_int enqueue_launch(hg_vendor_backend *vb, hg_dev_kernel *k, cl_kernel kernel, const hg_launch *l,
                             hg_vendor_extra_args extra, void *extra_arg, bool timed, cl_event *ev,
                             hg_vendor_print **print, cl_command_queue *queue, hg_token **batched) {
  *ev = NULL;
  *print = NULL;
  if (batched)
    *batched = NULL;
  if (l->work_dim < 1 || l->work_dim > 3)
    return CL_INVALID_WORK_DIMENSION;
  bool any_local = false;
  for (cl_uint i = 0; i < l->work_dim; i++) {
    if (l->global_size[i] == 0)
      return CL_SUCCESS; /* an empty range: nothing runs (OpenCL 2.1+) */
    any_local |= l->local_size[i] != 0;
  }
  hg_vendor_shadows *shadows;
  cl_int err = hg_vendor_shadows_make(vb, l, &shadows);
  if (err == CL_SUCCESS && (k->printf || k->robust))
    err = hg_vendor_print_create(vb, k, print);
  if (err != CL_SUCCESS) {
    hg_vendor_shadows_free(shadows);
    return err;
  }
  const size_t *local = any_local ? l->local_size : NULL;
  pthread_mutex_lock(&k->launch_lock);
  hg_vendor_arg_memo *memo = arg_memo(vb, k, kernel, l->num_args);
  for (cl_uint i = 0; i < l->num_args && err == CL_SUCCESS; i++) {
    err = set_arg(vb, shadows, kernel, i, &l->args[i], memo ? &memo[i] : NULL);
    if (err != CL_SUCCESS)
      HG_LOG(HG_LOG_SCHED, "%s: setting argument %u failed (%d)", vb->base.name, i, err);
  }
  cl_uint hidden = l->num_args; /* after the application's: the printf buffer, the robust form's */
  if (err == CL_SUCCESS && k->printf)
    err = hg_vendor_print_set_arg(*print, kernel, hidden++);
  if (err == CL_SUCCESS && k->robust)
    err = hg_vendor_print_set_robust_args(*print, kernel, hidden, l, &hidden);
  if (err == CL_SUCCESS && extra)
    err = extra(kernel, hidden, extra_arg);
  if (err == CL_SUCCESS) {
    hg_vendor_slot slot, after;
    hg_vendor_stream_take(vb, timed, &slot);
    *queue = slot.queue;
    after = slot;
    if (shadows) {
      err = hg_vendor_shadows_copy_in(shadows, &slot);
      after.num_wait = 0;
    }
    if (err == CL_SUCCESS && *print)
      err = hg_vendor_print_enqueue(*print, &after, kernel, l->work_dim, l->global_offset, l->global_size, local,
                                    ev);
    bool batch = batched && !*print && !shadows;
    if (err == CL_SUCCESS && !*print)
      err = VCL(slot.queue)->clEnqueueNDRangeKernel(slot.queue, kernel, l->work_dim, l->global_offset,
                                                    l->global_size, local, HG_VENDOR_WAIT(after), batch ? NULL : ev);
    cl_event last = err != CL_SUCCESS ? NULL : *print ? hg_vendor_print_last(*print) : *ev, copied_back = NULL;
    if (err == CL_SUCCESS && shadows) {
      err = hg_vendor_shadows_copy_back(shadows, slot.queue, &copied_back);
      if (copied_back)
        last = copied_back;
    }
    if (err == CL_SUCCESS && batch)
      *batched = hg_vendor_stream_give_batched(vb, &slot);
    else
      hg_vendor_stream_give(vb, &slot, last);
    if (copied_back)
      VCL(copied_back)->clReleaseEvent(copied_back);
  }
  pthread_mutex_unlock(&k->launch_lock);
  hg_vendor_shadows_free(shadows);
  if (err != CL_SUCCESS) {
    if (*ev) /* the kernel was enqueued, copying its argument back was not */
      VCL(*ev)->clReleaseEvent(*ev);
    *ev = NULL;
    hg_vendor_print_release(*print);
    *print = NULL;
  }
  return hg_vendor_error(err);
}

/* Launch lock held: the vendor's own build of k's plain kernel, when its program has one built
 * here and it runs groups as large as k->kernel was said to (and no more local memory). */
static cl_kernel own_build_of(hg_vendor_backend *vb, hg_dev_kernel *k) {
  cl_program prog = hg_vendor_forms_program(k->prog->recompile, false);
  cl_int err = CL_SUCCESS;
  cl_kernel own = prog ? VCL(prog)->clCreateKernel(prog, k->name, &err) : NULL;
  if (!own)
    return NULL;
  size_t wg = 0;
  cl_ulong local = 0, plain_local = 0;
  VCL(own)->clGetKernelWorkGroupInfo(own, vb->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  VCL(own)->clGetKernelWorkGroupInfo(own, vb->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
  VCL(k->kernel)->clGetKernelWorkGroupInfo(k->kernel, vb->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof plain_local,
                                           &plain_local, NULL);
  bool fits = wg >= hg_vendor_kernel_work_group_size(&vb->base, k) && local <= plain_local;
  HG_LOG(HG_LOG_COMPILE, "%s: kernel %s: the vendor's own build (groups up to %zu, local %llu bytes) %s", vb->base.name,
         k->name, wg, (unsigned long long)local, fits ? "tried against the PTX" : "runs smaller groups: not taken");
  if (!fits) {
    VCL(own)->clReleaseKernel(own);
    return NULL;
  }
  return own;
}

/* Launch lock held: the trial's verdict, once there is one, settles which code k's plain
 * launches run; a slower own build is released, and its program's later processes keep the PTX. */
static void settle(hg_vendor_backend *vb, hg_dev_kernel *k) {
  int verdict = hg_vendor_trial_verdict(k->trial);
  if (verdict < 0)
    return;
  cl_kernel own = hg_vendor_trial_end(k->trial, verdict == 1);
  k->trial = NULL;
  HG_LOG(HG_LOG_COMPILE, "%s: kernel %s: %s runs its later launches", vb->base.name, k->name,
         own ? "the vendor's own build" : "the PTX, faster than the vendor's own build,");
  if (own)
    k->memo_generation = ~0ull; /* arguments are set on `own` from now on */
  else
    hg_vendor_recompile_keep_ptx(k->prog->recompile);
  record_verdict(k->prog, k->name, own != NULL);
  atomic_store_explicit(&k->own_build, own, memory_order_release);
  atomic_store_explicit(&k->own_build_looked, true, memory_order_release);
}

/* The kernel plain launch l of k runs: LLVM's PTX (k->kernel) until this process has the vendor's
 * own build of it, then both in turn on launches of one shape (vendor_trial.h) until the faster
 * is known, then that one. Once settled, one atomic load a launch. *sample (NULL: no sample
 * here) is the launch's sample of the trial, or -1. */
static cl_kernel plain_kernel(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_launch *l, int *sample) {
  if (sample)
    *sample = -1;
  cl_kernel own = atomic_load_explicit(&k->own_build, memory_order_acquire);
  if (own || atomic_load_explicit(&k->own_build_looked, memory_order_acquire) ||
      !hg_vendor_forms_settled(k->prog->recompile))
    return own ? own : k->kernel;
  pthread_mutex_lock(&k->launch_lock);
  if (!atomic_load_explicit(&k->own_build_looked, memory_order_relaxed) && !k->trial) {
    own = own_build_of(vb, k);
    k->trial = own ? hg_vendor_trial_new(own) : NULL;
    if (!own)
      record_verdict(k->prog, k->name, false); /* its later kernels need not look again */
    if (!k->trial) { /* none to try (or no memory for the trial: the own build as before) */
      atomic_store_explicit(&k->own_build, own, memory_order_release);
      atomic_store_explicit(&k->own_build_looked, true, memory_order_release);
    }
  }
  if (k->trial)
    settle(vb, k);
  cl_kernel run = k->kernel;
  if (k->trial && sample)
    run = hg_vendor_trial_pick(k->trial, k->kernel, l, sample);
  else if (k->trial)
    hg_vendor_trial_passed(k->trial);
  else if (atomic_load_explicit(&k->own_build, memory_order_relaxed))
    run = atomic_load_explicit(&k->own_build, memory_order_relaxed);
  pthread_mutex_unlock(&k->launch_lock);
  return run;
}

cl_int hg_vendor_kernel_launch(hg_backend *be, hg_dev_kernel *k, const hg_launch *l, uint64_t *device_ns) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  return hg_vendor_run_kernel(vb, k, plain_kernel(vb, k, l, NULL), l, NULL, NULL, device_ns);
}

cl_int hg_vendor_run_kernel(hg_vendor_backend *vb, hg_dev_kernel *k, cl_kernel kernel, const hg_launch *l,
                            hg_vendor_extra_args extra, void *extra_arg, uint64_t *device_ns) {
  hg_backend *be = &vb->base;
  if (device_ns)
    *device_ns = 0;
  cl_event ev;
  hg_vendor_print *print;
  cl_command_queue queue;
  cl_int err = enqueue_launch(vb, k, kernel, l, extra, extra_arg, device_ns != NULL, &ev, &print, &queue, NULL);
  if (err != CL_SUCCESS || !ev)
    return err;

  uint64_t ran_ns;
  err = hg_vendor_wait_timed(ev, &ran_ns);
  if (device_ns)
    *device_ns = ran_ns;
  if (print) {
    if (err == CL_SUCCESS)
      err = hg_vendor_print_fault(print);
    hg_vendor_print_set_output(print, l->printf_out, l->printf_len);
    hg_vendor_print_release(print); /* earlier launches' output first, then this one's */
  }
  if (err != CL_SUCCESS)
    HG_LOG(HG_LOG_SCHED, "%s: kernel failed (%d)", be->name, err);
  return err;
}

cl_int hg_vendor_enqueue_kernel(hg_vendor_backend *vb, hg_dev_kernel *k, cl_kernel kernel, const hg_launch *l,
                                hg_vendor_extra_args extra, void *extra_arg, cl_event *ev) {
  hg_vendor_print *print;
  cl_command_queue queue;
  cl_int err = enqueue_launch(vb, k, kernel, l, extra, extra_arg, true, ev, &print, &queue, NULL);
  hg_vendor_print_release(print); /* none: sliced kernels do not print, robust ones have no forms */
  if (err == CL_SUCCESS && *ev)
    VCL(queue)->clFlush(queue);
  return err;
}

cl_int hg_vendor_kernel_launch_async(hg_backend *be, hg_dev_kernel *k, const hg_launch *l, bool timed,
                                     hg_token **token) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  *token = NULL;
  cl_event ev;
  hg_vendor_print *print;
  cl_command_queue queue;
  hg_token *batched = NULL;
  int sample;
  cl_kernel kernel = plain_kernel(vb, k, l, &sample);
  timed |= sample >= 0; /* a sample of the trial is timed on the profiling queue */
  cl_int err = enqueue_launch(vb, k, kernel, l, NULL, NULL, timed, &ev, &print, &queue, timed ? NULL : &batched);
  if (sample >= 0) {
    pthread_mutex_lock(&k->launch_lock);
    if (k->trial)
      hg_vendor_trial_ran(k->trial, sample, err == CL_SUCCESS ? ev : NULL);
    pthread_mutex_unlock(&k->launch_lock);
  }
  if (err == CL_SUCCESS && batched) {
    *token = batched;
    return CL_SUCCESS;
  }
  if (err != CL_SUCCESS || !ev)
    return err;
  err = hg_vendor_submitted(queue, CL_SUCCESS, ev, token);
  if (print) { /* the print is the token: it holds the launch's event */
    VCL(ev)->clReleaseEvent(ev);
    *token = hg_vendor_print_token(print);
  }
  return err;
}
