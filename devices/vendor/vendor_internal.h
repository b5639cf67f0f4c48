/* Private to the vendor backend: the loader's interface, the backend's objects, and the one way
 * we call a vendor: through the dispatch table every vendor handle starts with. */
#ifndef HETGPU_DEVICES_VENDOR_VENDOR_INTERNAL_H
#define HETGPU_DEVICES_VENDOR_VENDOR_INTERNAL_H

#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/image_format.h"
#include "devices/backend.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_stop.h"
#include "devices/vendor/vendor_facts.h"
#include "devices/vendor/vendor_stop_state.h"

/* The vendor's dispatch table of any vendor handle (platform, device, context, queue, mem,
 * program, kernel, event). We never call its slots 0 and 31 (ICD2 tags). */
#define VCL(handle) (*(const cl_icd_dispatch *const *)(handle))

/* ---- the mini-loader (vendor_loader.c) ------------------------------------------------- */

/* The vendor libraries found (HETGPU_VENDORS), listed once per process without loading them. */
unsigned hg_vendor_libraries(void);
const char *hg_vendor_library_name(unsigned library);
/* Loads the library at its first call (kept loaded for the process's lifetime) and returns its
 * platforms, at most max, in out. Returns how many (0 when it cannot be loaded, is hetGPU
 * itself or a library already loaded under another name). Thread-safe. */
unsigned hg_vendor_library_platforms(unsigned library, cl_platform_id *out, unsigned max);
/* The file the dynamic linker loaded for the library; false when it is not loaded. */
bool hg_vendor_library_file(unsigned library, char *out, size_t size);
/* The library a platform came from (as named to the loader) and its index among that library's
 * platforms (clIcdGetPlatformIDsKHR's order); false for a platform the loader did not find. */
bool hg_vendor_platform_origin(cl_platform_id platform, const char **library, unsigned *index);

/* ---- the backend's objects -------------------------------------------------------------- */

typedef struct hg_vendor_backend {
  hg_backend base; /* first: hg_backend* and hg_vendor_backend* convert both ways */
  cl_platform_id platform; /* NULL until the backend is opened (listed from the vendors' facts) */
  cl_device_id device;
  unsigned library;        /* its library among those listed (hg_vendor_libraries) */
  unsigned platform_index; /* its platform among the library's */
  unsigned device_index;   /* among the platform's devices (CL_DEVICE_TYPE_ALL) */
  bool images;             /* what hg_vendor_images_supported found when it was opened */
  cl_context context;
  cl_command_queue queue;       /* in-order, profiling enabled */
  cl_command_queue plain_queue; /* in-order, no profiling (NULL: everything goes to queue) */
  cl_command_queue alloc_queue; /* where new buffers and images are made resident (NULL: the stream) */
  bool spir;                    /* programs' plain kernels go to it as SPIR bitcode (vendor_code.c) */
  bool ptx;                     /* ... as PTX (lowering/ptx.h) */
  bool groups_at_device_max;    /* every kernel runs the device's largest work-group (PoCL's CPU devices) */
  pthread_mutex_t stream_lock;  /* vendor_stream.c: the order across the two queues */
  cl_command_queue last_queue;  /* where the latest operation went */
  cl_event last_event;          /* the latest operation with an event (retained), or NULL */
  bool last_unevented;          /* the latest operation on last_queue has no event of its own */
  struct hg_vendor_batch *open_batch; /* the operations a later marker completes (vendor_stream.c) */
  cl_command_queue unflushed_queue;   /* where batched operations not flushed yet went */
  unsigned unflushed;                 /* how many (flushed each 1 << flush_ramp) */
  unsigned flush_ramp;                /* 0 after a wait, up to HG_VENDOR_FLUSH_RAMP (vendor_stream.c) */
  _Atomic int64_t clock_offset; /* host ns - device profiling ns (vendor_clock.c) */
  bool clock_known;       /* false: the vendor's profiled times are not used */
  /* launches whose printf output is not written yet, in queue order (vendor_printf.c) */
  pthread_mutex_t printf_list_lock;  /* the list, and each entry's `printed` */
  pthread_mutex_t printf_print_lock; /* who prints: one thread at a time, in list order */
  struct hg_vendor_print *printf_head, *printf_tail;
  /* stoppable launches (vendor_stop.c): made at the first one, under stops_lock */
  pthread_mutex_t stops_lock;
  struct hg_vendor_stops *stops;
  /* kernels' sampler arguments (vendor_image_args.c): one vendor sampler per value of the
   * HG_SAMPLER_* bits, made at first use under samplers_lock, released at the end */
  pthread_mutex_t samplers_lock;
  cl_sampler samplers[HG_SAMPLER_VALID_BITS + 1];
  /* the vendor makes 1D buffer images over sub-buffers (PoCL 3.1 does not: then a 1D buffer
   * image argument at an offset runs on a copy, vendor_shadow.c) */
  bool image_views_of_sub_buffers;
  atomic_uint cpu_buffers_made; /* vendor_mem.c: each CPU device buffer's place in its first page */
  /* bumped when a vendor buffer is released: the arguments kernels remember (hg_vendor_arg_memo)
   * may name it, or a new buffer the vendor made at its address */
  atomic_ullong mem_generation;
} hg_vendor_backend;

/* A vendor sub-buffer made for a kernel argument at a non-zero offset, cached per offset. */
typedef struct hg_vendor_sub {
  size_t offset;
  cl_mem mem;
  struct hg_vendor_sub *next;
} hg_vendor_sub;

/* A vendor 1D buffer image over a buffer allocation, made for a kernel's image argument and
 * cached per (offset, format, width) (vendor_image_args.c). */
typedef struct hg_vendor_view {
  size_t offset, width;
  cl_image_format format;
  cl_mem image;
  struct hg_vendor_view *next;
} hg_vendor_view;

struct hg_dev_mem {
  cl_mem mem;
  size_t size;
  void *host;                /* CPU devices: our pages under the CL_MEM_USE_HOST_PTR buffer; else NULL */
  size_t sub_align;          /* the vendor's CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
  pthread_mutex_t subs_lock; /* guards subs and views: launches on several threads share one buffer */
  hg_vendor_sub *subs;
  hg_vendor_view *views;     /* buffers: 1D buffer images over them */
  bool is_image;             /* a vendor image (image_alloc, not of a 1D buffer image): mem is a cl_mem image */
  hg_image_layout layout;    /* image_alloc's layout (a 1D buffer image's too, whose mem is a buffer) */
};

typedef struct hg_vendor_forms hg_vendor_forms; /* vendor_forms.c */

struct hg_dev_program {
  cl_program program;
  hg_printf_table printf; /* from the lowering, made again on a cache hit */
  hg_oc_stop_table stop;  /* the kernels that have stoppable and resume forms when they are in
                             `program` (forms NULL); else the forms' table (hg_vendor_forms_stop) */
  hg_vendor_forms *forms; /* where the forms are lowered and built after `program`; NULL: they are in it */
  hg_vendor_forms *recompile; /* the vendor's own build of `program`'s OpenCL C (later launches, later processes), or NULL */
  bool slice_forms_elsewhere; /* the slice forms are in `program` (hg_oc_forms_target's) */
  bool robust;            /* lowered in the robust form (HETGPU_ROBUST, docs/robust-access.md) */
  /* kernels the application released, kept for its next kernel of the same name (vendor_code.c) */
  pthread_mutex_t idle_lock;
  struct hg_dev_kernel *idle;
  unsigned num_idle;
  /* idle_lock: the kernels whose trial ended, and which code won (its later kernels take it) */
  struct hg_vendor_verdict *verdicts;
};

struct hg_dev_kernel {
  cl_kernel kernel; /* the plain kernel, in prog->program */
  /* the vendor's own build of the plain kernel, where prog went as PTX (its recompile job),
   * once the trial on the launches after this process built it found it no slower: plain
   * launches then run it, and `kernel` still answers the queries (CL_KERNEL_WORK_GROUP_SIZE, ...) */
  _Atomic(cl_kernel) own_build;
  atomic_bool own_build_looked; /* settled: taken, or never to be (none, refused, smaller groups, slower) */
  /* launch_lock: the vendor's own build against `kernel` on the first launches after this process
   * built it (vendor_trial.h), until own_build is settled */
  struct hg_vendor_trial *trial;
  hg_dev_program *prog;
  struct hg_dev_kernel *next_idle; /* in prog's idle list */
  bool printf; /* takes the printf buffer as its last vendor argument (hidden from the application) */
  bool robust; /* then the fault word and its buffer arguments' sizes (lowering/opencl_c.h) */
  /* clSetKernelArg on one cl_kernel is not thread-safe: held from the first argument until
   * the launch is enqueued (the enqueue captures the arguments). */
  pthread_mutex_t launch_lock;
  char *name;
  /* in its program's stop table (hg_vendor_stop_info); NULL: no stoppable or resume form, or
   * while stop_info_known is false (the program's forms not lowered yet) */
  const hg_oc_stop_kernel *_Atomic stop_info;
  atomic_bool stop_info_known;
  cl_kernel stop_kernel, resume_kernel, catchup_kernel; /* the forms, made at the first kernel_run (launch_lock) */
  cl_kernel slice_kernel;                                /* likewise, when stop_info has a slice form */
  /* the most work-items per group every form runs with, once they are made (0: not yet): a
   * larger group runs plain (the forms keep more values live: on a GPU, more registers) */
  size_t forms_work_group_size;
  atomic_ullong slice_group_ns; /* sliced launches: how long a group runs, measured (0: never) */
  /* what `kernel`'s application arguments hold (launch_lock; num_memo of them, valid while
   * memo_generation is the backend's mem_generation): a launch sets only those that changed, as an
   * application does that sets them once and launches again (each clSetKernelArg is a vendor call) */
  struct hg_vendor_arg_memo *memo;
  cl_uint num_memo;
  unsigned long long memo_generation;
};

static inline hg_vendor_backend *hg_vendor_of(hg_backend *be) { return (hg_vendor_backend *)be; }

/* ---- shared helpers (vendor_backend.c) -------------------------------------------------- */

/* A vendor's error as the OpenCL error we report: OpenCL codes pass through, but for those that
 * say our own queue or context died, which with vendor-private negative statuses become
 * HG_ERR_DEVICE_LOST (the backend is lost: nothing runs there any more). */
cl_int hg_vendor_error(cl_int vendor_err);
/* Waits for ev, checks its execution status, releases it. */
cl_int hg_vendor_wait(cl_event ev);
/* True when ev's command has ended (or its status cannot be read); never blocks. */
bool hg_vendor_event_done(cl_event ev);
/* The same, and the command's device time (0 when the vendor did not profile it). */
cl_int hg_vendor_wait_timed(cl_event ev, uint64_t *device_ns);
/* The end of an asynchronous operation: the vendor event becomes the token (no allocation). The
 * queue is flushed so the work starts without waiting for a later wait. *token is NULL and the
 * error returned when the enqueue failed. */
cl_int hg_vendor_submitted(cl_command_queue queue, cl_int enqueue_err, cl_event ev, hg_token **token);

/* ---- the stream (vendor_stream.c) ---------------------------------------------------------- */

/* Where one operation goes: its queue and what it must wait for (num_wait, &wait: the wait
 * list of its enqueue). */
typedef struct hg_vendor_slot {
  cl_command_queue queue;
  cl_uint num_wait;
  cl_event wait;
} hg_vendor_slot;
#define HG_VENDOR_WAIT(slot) (slot).num_wait, (slot).num_wait ? &(slot).wait : NULL

/* Takes the stream for one operation (timed: its profiling times will be asked for) and
 * returns with it held; enqueue, then give it back with the operation's last event (NULL when
 * the enqueue failed). */
void hg_vendor_stream_take(hg_vendor_backend *vb, bool timed, hg_vendor_slot *s);
void hg_vendor_stream_give(hg_vendor_backend *vb, const hg_vendor_slot *s, cl_event last);

/* An untimed asynchronous operation enqueued without a vendor event (which costs NVIDIA about
 * 2 us, and a thread waiting for each event more): it joins the stream's open batch, whose
 * completion is a marker enqueued only when someone first waits for one of its operations
 * (vendor_stream.c). With the stream held, after the enqueue; gives the stream back and returns
 * the operation's token. */
hg_token *hg_vendor_stream_give_batched(hg_vendor_backend *vb, const hg_vendor_slot *s);
typedef struct hg_vendor_batch hg_vendor_batch;
/* A token that is a batch, tagged in bit 1 (prints take bit 0); NULL for other tokens. */
static inline hg_vendor_batch *hg_vendor_token_batch(hg_token *t) {
  return ((uintptr_t)t & 2u) ? (hg_vendor_batch *)((uintptr_t)t & ~(uintptr_t)3u) : NULL;
}
/* Waits for the batch's marker (enqueued now if no one did yet) and reports how it ended. */
cl_int hg_vendor_batch_wait(hg_vendor_backend *vb, hg_vendor_batch *b);
/* True when every operation of the batch has ended; never blocks (closes an open batch). */
bool hg_vendor_batch_done(hg_vendor_backend *vb, hg_vendor_batch *b);
void hg_vendor_batch_release(hg_vendor_batch *b);
/* The backend's stream_flush: pushes the batched operations not flushed yet to the device. */
bool hg_vendor_stream_flush(hg_backend *be, bool wait);
/* At the backend's end: the open batch's reference. */
void hg_vendor_stream_free(hg_vendor_backend *vb);

/* ---- printf through a buffer (vendor_printf.c, docs/printf.md) ------------------------- */
/* What a launch of a kernel that prints or is robust reads back after it: its printf buffer and
 * its output, and (robust kernels, docs/robust-access.md) its fault word. */
typedef struct hg_vendor_print hg_vendor_print;

/* A fresh buffer, and a zeroed fault word, as k needs them for one launch. */
cl_int hg_vendor_print_create(hg_vendor_backend *vb, const hg_dev_kernel *k, hg_vendor_print **out);
/* Sets the buffer as argument `index` (the one after the application's). */
cl_int hg_vendor_print_set_arg(hg_vendor_print *p, cl_kernel kernel, cl_uint index);
/* A robust kernel's hidden arguments from `index` on: the fault word, then the size of each
 * buffer argument of l. Returns the index after them in *next. */
cl_int hg_vendor_print_set_robust_args(hg_vendor_print *p, cl_kernel kernel, cl_uint index, const hg_launch *l,
                                       cl_uint *next);
/* After the launch completed: CL_SUCCESS, or CL_OUT_OF_RESOURCES when a robust kernel's access
 * was out of range (logged), as on RISC-V. */
cl_int hg_vendor_print_fault(hg_vendor_print *p);
/* Enqueues the header reset, the launch (its event in *ev, the caller's reference) and the read
 * backs, and lists the print for output. */
cl_int hg_vendor_print_enqueue(hg_vendor_print *p, const hg_vendor_slot *slot, cl_kernel kernel, cl_uint work_dim,
                               const size_t *offset, const size_t *global, const size_t *local, cl_event *ev);
/* The last command a print enqueued (its read back, or the launch when that failed). */
cl_event hg_vendor_print_last(const hg_vendor_print *p);
/* Synchronous launches: where the output goes (hg_launch's printf_out), instead of stdout. */
void hg_vendor_print_set_output(hg_vendor_print *p, char **out, size_t *out_len);
/* Writes out every listed print up to and including target (all of them when NULL), waiting
 * for each read back. */
void hg_vendor_print_flush(hg_vendor_backend *vb, hg_vendor_print *target);
cl_event hg_vendor_print_event(const hg_vendor_print *p); /* the launch's event (held by p) */
/* Writes it out if it is not yet, and frees it. */
void hg_vendor_print_release(hg_vendor_print *p);

/* A launch that prints completes through a token that is its print, tagged in the low bit
 * (a vendor event, the other tokens, is at least 4-aligned). */
static inline hg_token *hg_vendor_print_token(hg_vendor_print *p) { return (hg_token *)((uintptr_t)p | 1u); }
static inline hg_vendor_print *hg_vendor_token_print(hg_token *t) {
  return ((uintptr_t)t & 1u) ? (hg_vendor_print *)((uintptr_t)t & ~(uintptr_t)1u) : NULL;
}

/* ---- transfers (vendor_mem.c) ---------------------------------------------------------- */

/* Where a transfer's vendor event goes (token: NULL for the synchronous form): none for an
 * untimed asynchronous one, which joins the stream's batch instead (vendor_stream.c). */
cl_event *hg_vendor_transfer_event(bool timed, hg_token **token, cl_event *ev);
/* Ends a transfer enqueued with the stream held in *slot (its last command's event ev, as
 * hg_vendor_transfer_event said): gives the stream back, then the synchronous form (token
 * NULL) waits for ev and the asynchronous one hands it over as the token (an untimed one: its
 * batch's token). err: the enqueue's. */
cl_int hg_vendor_transfer_end(hg_vendor_backend *vb, const hg_vendor_slot *slot, cl_int err, cl_event ev, bool timed,
                              hg_token **token);

/* ---- images (vendor_image.c, vendor_image_args.c, vendor_image_check.c, docs/images.md) ---- */

/* Whether the device has everything the profile's images need (every format of every type,
 * the limits); logs the first thing missing. */
bool hg_vendor_images_supported(hg_vendor_backend *vb);
cl_int hg_vendor_image_alloc(hg_backend *be, const hg_image_layout *layout, hg_dev_mem **out);
/* The memory operations where one side is an image (m->is_image): whole contents for
 * read/write/copy, image coordinates for the rects (backend.h's image_alloc). token as
 * hg_vendor_transfer_event. */
cl_int hg_vendor_image_read(hg_vendor_backend *vb, hg_dev_mem *src, size_t offset, size_t size, void *dst, bool timed,
                            hg_token **token);
cl_int hg_vendor_image_write(hg_vendor_backend *vb, hg_dev_mem *dst, size_t offset, size_t size, const void *src,
                             bool timed, hg_token **token);
cl_int hg_vendor_image_copy(hg_vendor_backend *vb, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst,
                            size_t dst_offset, size_t size, bool timed, hg_token **token);
cl_int hg_vendor_image_read_rect(hg_vendor_backend *vb, hg_dev_mem *src, const hg_rect *r, void *dst, bool timed,
                                 hg_token **token);
cl_int hg_vendor_image_write_rect(hg_vendor_backend *vb, hg_dev_mem *dst, const hg_rect *r, const void *src,
                                  bool timed, hg_token **token);
cl_int hg_vendor_image_copy_rect(hg_vendor_backend *vb, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *r,
                                 bool timed, hg_token **token);
/* A kernel's image argument as the vendor image to set: the allocation's own, or the cached
 * 1D buffer image over a buffer allocation at a->offset (over `copy`, a shadow's buffer, when
 * not NULL: then made anew into *made, which the caller releases after the launch). */
cl_int hg_vendor_image_arg(hg_vendor_backend *vb, const hg_launch_arg *a, cl_mem copy, cl_mem *out, cl_mem *made);
/* The vendor sampler of HG_SAMPLER_* bits, made at its first use. */
cl_int hg_vendor_sampler(hg_vendor_backend *vb, uint32_t bits, cl_sampler *out);
/* At the backend's end. */
void hg_vendor_samplers_free(hg_vendor_backend *vb);
/* With the allocation (mem_free): its 1D buffer images. */
void hg_vendor_views_free(hg_dev_mem *m);

/* The operations, split by subject. */
cl_int hg_vendor_mem_alloc(hg_backend *be, size_t size, hg_dev_mem **out);
cl_int hg_vendor_mem_alloc_at(hg_backend *be, void *host, size_t size, hg_dev_mem **out);
void hg_vendor_mem_free(hg_backend *be, hg_dev_mem *mem);
cl_int hg_vendor_mem_read(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst);
cl_int hg_vendor_mem_write(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src);
cl_int hg_vendor_mem_copy(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst, size_t dst_offset,
                          size_t size);
cl_int hg_vendor_mem_fill(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                          size_t pattern_size);
cl_int hg_vendor_mem_read_rect(hg_backend *be, hg_dev_mem *src, const hg_rect *rect, void *dst);
cl_int hg_vendor_mem_write_rect(hg_backend *be, hg_dev_mem *dst, const hg_rect *rect, const void *src);
cl_int hg_vendor_mem_copy_rect(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *rect);
/* A CPU device's buffer mapped in place (its memory is host memory); NULL for other devices,
 * whose map would be a copy. */
void *hg_vendor_mem_host_map(hg_backend *be, hg_dev_mem *m, bool write);
void *hg_vendor_mem_host_address(hg_backend *be, hg_dev_mem *m);
cl_int hg_vendor_mem_host_begin(hg_backend *be, hg_dev_mem *m);
void hg_vendor_mem_host_end(hg_backend *be, hg_dev_mem *m);
void hg_vendor_mem_host_unmap(hg_backend *be, hg_dev_mem *m, void *ptr);
/* A GPU's pinned host memory (a CL_MEM_ALLOC_HOST_PTR buffer kept mapped); NULL on other
 * devices. */
void *hg_vendor_host_pinned_alloc(hg_backend *be, size_t size, void **handle);
void hg_vendor_host_pinned_free(hg_backend *be, void *handle);
void *hg_vendor_host_register(hg_backend *be, void *ptr, size_t size);
void hg_vendor_host_unregister(hg_backend *be, void *handle);
cl_int hg_vendor_mem_read_async(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst,
                                bool timed, hg_token **token);
cl_int hg_vendor_mem_write_async(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src,
                                 bool timed, hg_token **token);
cl_int hg_vendor_mem_copy_async(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst,
                                size_t dst_offset, size_t size, bool timed, hg_token **token);
cl_int hg_vendor_mem_fill_async(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                                size_t pattern_size, bool timed, hg_token **token);
cl_int hg_vendor_mem_read_rect_async(hg_backend *be, hg_dev_mem *src, const hg_rect *rect, void *dst,
                                     bool timed, hg_token **token);
cl_int hg_vendor_mem_write_rect_async(hg_backend *be, hg_dev_mem *dst, const hg_rect *rect, const void *src,
                                      bool timed, hg_token **token);
cl_int hg_vendor_mem_copy_rect_async(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *rect,
                                     bool timed, hg_token **token);
/* Makes a new vendor buffer or image resident on the device now (vendors allocate lazily), so
 * that one we report as allocated really is; the vendor's error where it cannot. */
cl_int hg_vendor_make_resident(hg_vendor_backend *vb, cl_mem mem);
/* The vendor buffer a kernel argument at (mem, offset) names: mem itself or a cached sub-buffer. */
cl_int hg_vendor_mem_at(hg_vendor_backend *vb, hg_dev_mem *mem, size_t offset, cl_mem *out);

/* Kernel arguments at offsets off the vendor's sub-buffer alignment run on copies of their
 * ranges (vendor_shadow.c): made before the launch (*out NULL when no argument needs one), the
 * copy for an argument (NULL: none), copied in after the stream's last event and back after the
 * kernel on the same queue (*last: the final copy's event). */
typedef struct hg_vendor_shadows hg_vendor_shadows;
cl_int hg_vendor_shadows_make(hg_vendor_backend *vb, const hg_launch *l, hg_vendor_shadows **out);
cl_mem hg_vendor_shadow_of(const hg_vendor_shadows *sh, const hg_launch_arg *a);
/* Keeps an image made over an argument's copy until the shadows are freed (at most one per
 * argument that has a copy). */
void hg_vendor_shadow_keep(hg_vendor_shadows *sh, cl_mem view);
cl_int hg_vendor_shadows_copy_in(const hg_vendor_shadows *sh, const hg_vendor_slot *slot);
cl_int hg_vendor_shadows_copy_back(const hg_vendor_shadows *sh, cl_command_queue queue, cl_event *last);
void hg_vendor_shadows_free(hg_vendor_shadows *sh);

/* What hg_vendor_build_source builds: an application's program (robust or not), or a program's
 * stoppable forms (vendor_forms.c). Forms go to the vendor as SPIR bitcode of our clang where it
 * takes that (vb->spir) and the plain kernels went so (FORMS_VIA_SPIR), else as OpenCL C built
 * in a child process (hg_vendor_build_in_child, where hg_forms_in_child says), else as OpenCL C
 * here; each way falls back to the next when it cannot build (not when the vendor refuses). */
typedef enum {
  HG_VENDOR_BUILD_PLAIN,
  HG_VENDOR_BUILD_ROBUST,
  HG_VENDOR_BUILD_FORMS,
  HG_VENDOR_BUILD_FORMS_VIA_SPIR
} hg_vendor_build_kind;
/* Builds `source` with `opts` (from the cache when it holds the vendor binary); *log receives
 * the vendor's build log when it built here (log may be NULL). */
cl_int hg_vendor_build_source(hg_vendor_backend *vb, const char *source, const char *opts, hg_vendor_build_kind kind,
                              cl_program *out, char **log);
/* The vendor's program binary of source built with opts in a child process (vendor_build_child.h),
 * malloc'd (*size bytes), or NULL: *refused when the vendor's compiler refused the source, else
 * the child could not build it (no child tool, no device, a crash; logged). */
void *hg_vendor_build_in_child(hg_vendor_backend *vb, const char *source, const char *opts, size_t *size,
                               bool *refused);
/* A vendor program built from a binary it takes (its own, SPIR bitcode or PTX) with opts; NULL
 * with *err. */
cl_program hg_vendor_program_from_binary(hg_vendor_backend *vb, const void *bin, size_t size, const char *opts,
                                         cl_int *err);
/* Whether forms (via_spir: HG_VENDOR_BUILD_FORMS_VIA_SPIR) are built in a child process. */
bool hg_vendor_forms_in_child(const hg_vendor_backend *vb, bool via_spir);

/* Stoppable forms lowered and built after their program (vendor_forms.c), from `module` (the
 * program's, valid until hg_vendor_forms_drop) for `target`; NULL when out of memory (nothing
 * queued). via_spir as hg_vendor_build_source's (the plain kernels went as SPIR bitcode, which
 * the forms may then too). */
hg_vendor_forms *hg_vendor_forms_queue(hg_vendor_backend *vb, const struct hg_ir_module *module,
                                       const hg_oc_forms_target *target, const char *opts, bool via_spir);
/* Where a program went to the vendor as PTX: its plain kernels lowered to OpenCL C from `module`
 * (valid until hg_vendor_forms_drop) and built with opts by the vendor's own compiler in a child
 * process, in the background; the binary is put in the program cache under key, where a later
 * process's build of the same module takes it (vendor_code.c), and loaded here, where the
 * kernels' later launches take it (hg_vendor_forms_program). NULL when out of memory. */
struct hg_cache_key;
hg_vendor_forms *hg_vendor_recompile_queue(hg_vendor_backend *vb, const struct hg_ir_module *module, const char *opts,
                                           const struct hg_cache_key *key);
/* Marks the program of recompile job f (NULL: none) as one whose later processes build its PTX
 * again: one of its kernels ran faster from it than from the vendor's own build (vendor_trial.h). */
void hg_vendor_recompile_keep_ptx(hg_vendor_forms *f);
/* Whether the program of the recompile job with this key is so marked. */
bool hg_vendor_recompiled_keeps_ptx(const struct hg_cache_key *recompiled);
/* The vendor program holding the forms; NULL while they are not built (wait: after lowering
 * and building them, NULL only when there are none or they failed to build). */
cl_program hg_vendor_forms_program(hg_vendor_forms *forms, bool wait);
/* False while the forms are not lowered (wait: after lowering them); then *table is their stop
 * table (no kernels when there are no forms), unchanged until the forms are dropped. */
bool hg_vendor_forms_stop(hg_vendor_forms *forms, bool wait, const hg_oc_stop_table **table);
/* Whether the forms (or recompile job) are built or failed for good: then
 * hg_vendor_forms_program(forms, false) answers without a lock. */
bool hg_vendor_forms_settled(hg_vendor_forms *forms);
/* With the program: forgets the forms, whatever their state. */
void hg_vendor_forms_drop(hg_vendor_forms *forms);
/* Around a build's vendor calls (hg_vendor_build_source): false (no call to make) when this
 * thread builds forms and the process has begun to exit, which waits for them to leave. */
bool hg_vendor_compiler_enter(void);
void hg_vendor_compiler_leave(void);

cl_int hg_vendor_program_build(hg_backend *be, const struct hg_ir_module *module, const uint8_t *digest, const char *options,
                               hg_dev_program **out, char **log);
void hg_vendor_program_free(hg_backend *be, hg_dev_program *prog);
cl_int hg_vendor_kernel_create(hg_backend *be, hg_dev_program *prog, const char *name, hg_dev_kernel **out);
void hg_vendor_kernel_free(hg_backend *be, hg_dev_kernel *kernel);
cl_int hg_vendor_kernel_launch(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch, uint64_t *device_ns);
/* Sets k's arguments on `kernel` (k's own or one of its forms), then the printf buffer, then
 * what `extra` sets from index `first` on (may be NULL), runs it and waits (device_ns as
 * kernel_launch). */
typedef cl_int (*hg_vendor_extra_args)(cl_kernel kernel, cl_uint first, void *arg);
cl_int hg_vendor_run_kernel(hg_vendor_backend *vb, hg_dev_kernel *k, cl_kernel kernel, const hg_launch *l,
                            hg_vendor_extra_args extra, void *extra_arg, uint64_t *device_ns);
/* The same without waiting, for a form without printf: *ev (profiled) is the caller's, to
 * hg_vendor_wait. */
cl_int hg_vendor_enqueue_kernel(hg_vendor_backend *vb, hg_dev_kernel *k, cl_kernel kernel, const hg_launch *l,
                                hg_vendor_extra_args extra, void *extra_arg, cl_event *ev);
cl_int hg_vendor_kernel_launch_async(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch,
                                     bool timed, hg_token **token);

/* Stoppable launches (vendor_stop.c, docs/opencl-c-safe-points.md). */
size_t hg_vendor_kernel_work_group_size(hg_backend *be, hg_dev_kernel *k);
size_t hg_vendor_kernel_work_group_size_known(hg_backend *be, const struct hg_ir_module *module,
                                              const uint8_t digest[16], const char *name);
cl_int hg_vendor_kernel_run(hg_backend *be, hg_dev_kernel *k, const hg_launch *l, const struct hg_ir_ndrange_state *resume,
                            struct hg_ir_ndrange_state **stopped, uint64_t *device_ns);
void hg_vendor_kernel_stop(hg_backend *be, hg_stop_request *stop);
bool hg_vendor_kernel_stoppable(hg_backend *be, hg_dev_kernel *k, bool wait);
/* k's entry in its program's stop table (vendor_stop.c); NULL when it has no forms or, not
 * `wait`, its program's forms are not lowered yet (a fresh launch then runs plain). */
const hg_oc_stop_kernel *hg_vendor_stop_info(hg_dev_kernel *k, bool wait);
bool hg_vendor_kernel_can_resume(hg_backend *be, hg_dev_kernel *k, const struct hg_ir_ndrange_state *state);
void hg_vendor_stops_free(hg_vendor_backend *vb);

/* ---- the device clock (vendor_clock.c) ---------------------------------------------------- */

/* A completed command's profiled START and END on the vendor's clock; false (both 0) when the
 * vendor gives none (a queue without profiling) or they are out of order. */
bool hg_vendor_event_times(cl_event ev, cl_ulong *start, cl_ulong *end);
/* Measures the offset between the vendor's profiling clock and the host clock's; at creation. */
void hg_vendor_clock_calibrate(hg_vendor_backend *vb);
/* Moves a command's device times onto the host clock; `seen` is a host time at which the command
 * was known complete (its end cannot be later), which corrects the offset where it has drifted
 * or was calibrated too high. Both 0 when the clock is unusable. */
void hg_vendor_clock_to_host(hg_vendor_backend *vb, cl_ulong seen, cl_ulong *start, cl_ulong *end);

/* ---- sliced launches (vendor_slice.c) ------------------------------------------------------ */

/* Runs a fresh stoppable launch of k (its slice form made) over range r in slices. CL_SUCCESS
 * when the range is done; HG_LAUNCH_STOPPED with *rest when it ended early between slices:
 * because l->stop was requested, or because its groups proved too long to stop between (the
 * caller then runs *rest in the stoppable form). */
/* Whether launch l of k over r runs in slices: k's earlier launches measured its groups short
 * enough, and l has no time limit or test countdown. */
bool hg_vendor_slices_fit(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_vendor_range *r, const hg_launch *l);
/* What a launch of k over r in its stoppable form took on the device, for the above. */
void hg_vendor_slices_measured(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_vendor_range *r,
                               uint64_t device_ns);
/* Runs a fresh launch of k (its slice form made) over r in slices: CL_SUCCESS when the range
 * is done, HG_LAUNCH_STOPPED with *stopped when l->stop was requested. */
cl_int hg_vendor_run_sliced(hg_vendor_backend *vb, hg_dev_kernel *k, const hg_launch *l, const hg_vendor_range *r,
                            hg_ir_ndrange_state **stopped, uint64_t *device_ns);

#endif
