/* The operations table every backend implements. The platform layer talks to backends only
 * through this table: it never knows whether a vendor OpenCL platform or our RISC-V many-core
 * runs the work.
 *
 * The required operations are synchronous: when one returns, the work is done (or failed) and
 * its result is visible to the next operation on any backend. Operations on one backend may be
 * called from several threads at once; a backend serialises internally where it must.
 *
 * A backend may also provide asynchronous forms of the transfers and of kernel launches (the
 * `*_async` members, with token_wait and token_release; NULL when it has none, and then the
 * queue engine runs every command through the synchronous forms). An asynchronous form checks
 * its arguments, puts the work on the backend's one in-order stream and returns without
 * waiting, with a completion token (or NULL when there was nothing to do). A backend that has
 * them keeps one order for all its operations: an operation, synchronous or not, starts only
 * after every asynchronous one called before it (in an order the callers established, e.g. one
 * thread, or under a lock) has finished, so the platform may submit a command before the
 * previous one of an in-order queue completed. Until the token completes, an asynchronous read
 * may write its host destination and a write may read its host source at any time; the fill
 * pattern and a launch's arguments are captured by the call. */
#ifndef HETGPU_DEVICES_BACKEND_H
#define HETGPU_DEVICES_BACKEND_H

#include <CL/cl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hg_ir_module;
struct hg_ir_ndrange_state;

/* Returned by a backend operation when its device can no longer run anything (a vendor's
 * context lost after a faulting kernel, NVIDIA's -9999): never an OpenCL code, never shown to
 * the application. The platform marks the backend lost and reports CL_OUT_OF_RESOURCES. */
#define HG_ERR_DEVICE_LOST (-9000)
/* Returned by kernel_run when the launch stopped at safe points before it finished: never an
 * OpenCL code, never shown to the application (the platform resumes the work). */
#define HG_LAUNCH_STOPPED (-9001)
/* Returned by a launch that ran past hg_launch.time_limit_ns and was ended by its backend:
 * never an OpenCL code (the platform reports CL_OUT_OF_RESOURCES and names the limit). */
#define HG_ERR_TIME_LIMIT (-9002)

/* A request to stop kernels at their next safe point (docs/safe-points.md): the platform gives
 * each stoppable launch one, sets `requested` (for a migration, or the launch's time limit) and
 * calls kernel_stop on the backend running it. */
typedef struct hg_stop_request {
  atomic_bool requested;
} hg_stop_request;

typedef struct hg_backend hg_backend;
typedef struct hg_dev_mem hg_dev_mem;         /* one allocation in the backend's memory */
typedef struct hg_dev_program hg_dev_program; /* an IR module lowered and built for the backend */
typedef struct hg_dev_kernel hg_dev_kernel;   /* one kernel of a built program */
typedef struct hg_token hg_token;             /* completion of one asynchronous operation */

/* A rectangular transfer: 3-D region in bytes (region[0]) x rows x slices, each side with its
 * own origin (bytes, rows, slices) and pitches. For reads the source is the buffer and the
 * destination host memory; for writes the reverse; for copies both are buffers. */
typedef struct hg_rect {
  size_t src_origin[3], dst_origin[3], region[3];
  size_t src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch;
} hg_rect;

/* An image as a backend holds it (docs/images.md, "Backends"): one shape for every backend, so
 * that contents move between backends as packed bytes. Coordinates follow OpenCL's host API:
 * a 1D array's layers are its rows, a 2D array's its slices. */
typedef struct hg_image_layout {
  cl_mem_object_type type; /* CL_MEM_OBJECT_IMAGE1D ... CL_MEM_OBJECT_IMAGE3D */
  cl_image_format format;  /* one of common/image_format.h's */
  size_t width, height, depth; /* pixels; 1 where the type has no such dimension */
  size_t array_size;       /* layers of the array types; 1 otherwise */
  size_t pixel_size;       /* bytes of one pixel */
  size_t row_pitch;        /* width * pixel_size */
  size_t slice_pitch;      /* 1D array: row_pitch; 2D array and 3D: row_pitch * height; else 0 */
  size_t size;             /* bytes of the packed contents */
} hg_image_layout;

typedef enum hg_arg_kind {
  HG_ARG_BUFFER, /* global or constant buffer (mem may be NULL: a NULL pointer argument) */
  HG_ARG_LOCAL,  /* local memory of `size` bytes per work-group */
  HG_ARG_VALUE,  /* by-value bytes: scalars, vectors, structs */
  HG_ARG_IMAGE,  /* mem: an image_alloc allocation of `image`'s layout; for IMAGE1D_BUFFER a
                    buffer allocation, the image's pixels from `offset` */
  HG_ARG_SAMPLER, /* value: a uint32_t of HG_SAMPLER_* bits (common/image_format.h) */
} hg_arg_kind;

typedef struct hg_launch_arg {
  hg_arg_kind kind;
  hg_dev_mem *mem;     /* HG_ARG_BUFFER, HG_ARG_IMAGE */
  const hg_image_layout *image; /* HG_ARG_IMAGE */
  size_t offset;       /* HG_ARG_BUFFER: byte offset into mem (sub-buffers) */
  size_t size;         /* HG_ARG_LOCAL bytes, HG_ARG_VALUE bytes; HG_ARG_BUFFER: bytes from offset
                          the kernel may touch (a sub-buffer's size; 0: to the end of mem) */
  const void *value;   /* HG_ARG_VALUE */
} hg_launch_arg;

typedef struct hg_launch {
  cl_uint work_dim;
  size_t global_offset[3];
  size_t global_size[3];
  size_t local_size[3]; /* all zero: the backend chooses */
  cl_uint num_args;
  const hg_launch_arg *args;
  /* printf output of the launch is appended here by the backend (malloc'd, may be NULL). */
  char **printf_out;
  size_t *printf_len;
  /* kernel_run only: what the launch polls at safe points (never NULL there), and the test
   * setting HETGPU_STOP_AFTER: stop by itself at the N-th safe-point check (0: never). */
  hg_stop_request *stop;
  uint64_t stop_after;
  /* HETGPU_KERNEL_TIMEOUT: host time the launch may run from when the backend starts it (0: no
   * limit). A backend with kernel_time_limit ends a launch past it wherever it is and returns
   * HG_ERR_TIME_LIMIT; the others ignore it (the platform stops their stoppable launches
   * through `stop`). */
  uint64_t time_limit_ns;
} hg_launch;

/* Raw limits of the backend device, used to check that it can honour the virtual device's
 * fixed profile (devices/profile.h). */
typedef struct hg_backend_limits {
  cl_ulong global_mem_size;
  cl_ulong max_mem_alloc_size;
  cl_ulong local_mem_size;
  size_t max_work_group_size;
  size_t max_work_item_sizes[3];
  cl_uint mem_base_addr_align_bits;
  size_t max_parameter_size;
  cl_ulong max_constant_buffer_size;
  cl_uint max_constant_args;
  bool fp64;
  /* images: every format of common/image_format.h for every image type it may be used with,
   * within the profile's image limits (common/profile_limits.h), and image_alloc */
  bool images;
} hg_backend_limits;

/* What applications size and tune their work by, as the backend device reports it. The virtual
 * device shows those of the backend the process starts on (docs/virtual-device.md, "Tuning
 * hints"); nothing correct depends on them. Vector widths are indexed by hg_vector_type. */
typedef enum hg_vector_type {
  HG_VECTOR_CHAR,
  HG_VECTOR_SHORT,
  HG_VECTOR_INT,
  HG_VECTOR_LONG,
  HG_VECTOR_FLOAT,
  HG_VECTOR_DOUBLE,
  HG_VECTOR_TYPES
} hg_vector_type;

typedef struct hg_backend_hints {
  cl_uint compute_units;
  cl_uint clock_mhz;
  size_t work_group_size_multiple;
  cl_uint preferred_vector_width[HG_VECTOR_TYPES];
  cl_uint native_vector_width[HG_VECTOR_TYPES];
  cl_device_mem_cache_type cache_type;
  cl_uint cache_line_size;
  cl_ulong cache_size;
  /* what applications choose their memory use by: hashcat halves a unified device's memory and
   * copies its tables to local memory only where that is CL_LOCAL */
  cl_bool host_unified_memory;
  cl_device_local_mem_type local_mem_type;
} hg_backend_hints;

typedef struct hg_backend_ops {
  const char *kind; /* "vendor", "riscv" */
  void (*destroy)(hg_backend *be);

  /* memory */
  cl_int (*mem_alloc)(hg_backend *be, size_t size, hg_dev_mem **out);
  /* Optional: an allocation in the given host memory (a CL_MEM_USE_HOST_PTR buffer's region of
   * size bytes, which stays the caller's and must outlive the allocation), its contents that
   * memory's and its mem_host_address that memory; CL_INVALID_OPERATION where the backend cannot
   * (mem_alloc is used instead). */
  cl_int (*mem_alloc_at)(hg_backend *be, void *host, size_t size, hg_dev_mem **out);
  void (*mem_free)(hg_backend *be, hg_dev_mem *mem);
  cl_int (*mem_read)(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst);
  cl_int (*mem_write)(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src);
  cl_int (*mem_copy)(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst, size_t dst_offset,
                     size_t size);
  cl_int (*mem_fill)(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                     size_t pattern_size);
  cl_int (*mem_read_rect)(hg_backend *be, hg_dev_mem *src, const hg_rect *rect, void *dst);
  cl_int (*mem_write_rect)(hg_backend *be, hg_dev_mem *dst, const hg_rect *rect, const void *src);
  cl_int (*mem_copy_rect)(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *rect);
  /* Optional: the allocation's bytes in host memory without a copy, when the backend's memory
   * is host memory (the RISC-V simulator's DRAM, a CPU vendor device's mapped buffer); NULL when
   * it cannot. `write`: the bytes will be overwritten (the old ones need not be there). Valid
   * until mem_host_unmap; used only while no other operation on the allocation runs
   * (migrations and checkpoints move buffers through it with one copy). */
  void *(*mem_host_map)(hg_backend *be, hg_dev_mem *mem, bool write);
  void (*mem_host_unmap)(hg_backend *be, hg_dev_mem *mem, void *ptr);
  /* Optional: the allocation's one host address for its whole life, when the backend keeps it
   * in host memory there (the RISC-V DRAM, a CPU vendor's buffer over our pages), else NULL:
   * clEnqueueMapBuffer hands the application this memory instead of a copy. The application's
   * access is bracketed by mem_host_begin (returns once the work submitted before it is done
   * and the bytes are there) and mem_host_end (the work after it sees what the host wrote);
   * either may be NULL when nothing is needed. Begins may nest, each with its end; other
   * operations may run on the allocation in between (on other regions). */
  void *(*mem_host_address)(hg_backend *be, hg_dev_mem *mem);
  cl_int (*mem_host_begin)(hg_backend *be, hg_dev_mem *mem);
  void (*mem_host_end)(hg_backend *be, hg_dev_mem *mem);
  /* Optional: page-locked host memory the device's transfers reach at full speed (a vendor
   * GPU's pinned buffer), for migrations to stage through; NULL when the backend has none worth
   * using (its memory is host memory). *handle is what host_pinned_free takes. */
  void *(*host_pinned_alloc)(hg_backend *be, size_t size, void **handle);
  void (*host_pinned_free)(hg_backend *be, void *handle);
  /* Optional: makes the host range [ptr, ptr + size) reach the device's transfers at the link's
   * full rate until host_unregister, so that mem_read/mem_write with a pointer into it need no
   * staging (NVIDIA's OpenCL pins the pages under a CL_MEM_USE_HOST_PTR buffer, about 35 ms
   * per GiB, and then moves them at 55 GB/s where pageable memory gets 7-14 GB/s). Returns a
   * handle, or NULL when it cannot. The range stays mapped and allocated until then. */
  void *(*host_register)(hg_backend *be, void *ptr, size_t size);
  void (*host_unregister)(hg_backend *be, void *handle);
  /* Optional (a backend without it has limits.images false): an allocation holding an image of
   * this layout, freed by mem_free (docs/images.md, "Backends"). The memory operations take it
   * in the packed layout of layout->size bytes: mem_read, mem_write and mem_copy (two images of
   * one layout) of the whole contents only (offset 0, size layout->size); the rect forms with
   * an image side's origin and region as OpenCL's image commands give them, but in bytes along
   * x (multiples of pixel_size), the pitches of that side ignored; mem_copy_rect between two
   * images of one format, or an image and a buffer either way. Never mem_fill (the platform
   * fills images by writes). mem_host_map and mem_host_address may answer NULL for images. */
  cl_int (*image_alloc)(hg_backend *be, const hg_image_layout *layout, hg_dev_mem **out);

  /* code: lower the IR module for this backend and build it; log receives a malloc'd build log.
   * digest (NULL: the backend makes it when it needs it): hg_cache_hash (devices/cache.h) of
   * the module's encoding, which keys what backends cache of the module. The module stays
   * valid and unchanged until program_free of what was built from it (a backend may go on
   * lowering parts of it after the build returns: the vendor backend's stoppable forms). */
  cl_int (*program_build)(hg_backend *be, const struct hg_ir_module *module, const uint8_t *digest,
                          const char *options, hg_dev_program **out, char **log);
  void (*program_free)(hg_backend *be, hg_dev_program *prog);
  cl_int (*kernel_create)(hg_backend *be, hg_dev_program *prog, const char *name, hg_dev_kernel **out);
  void (*kernel_free)(hg_backend *be, hg_dev_kernel *kernel);
  /* Optional (NULL: the profile's HG_PROFILE_MAX_WORK_GROUP_SIZE): the most work-items per
   * group this backend runs the kernel with, in every form it may launch (plain, stoppable,
   * resume), given the kernel's own resources and up to the profile's local memory for
   * __local arguments. */
  size_t (*kernel_work_group_size)(hg_backend *be, hg_dev_kernel *kernel);
  /* Optional: what kernel_work_group_size gives for the module's kernel `name`, when the backend
   * knows it without building the program (an earlier build of the same module recorded it);
   * 0: unknown, build to learn it. digest: hg_cache_hash (devices/cache.h) of the module's
   * encoding (hg_ir_encode), which the caller keeps. */
  size_t (*kernel_work_group_size_known)(hg_backend *be, const struct hg_ir_module *module, const uint8_t digest[16],
                                         const char *name);
  /* Runs the kernel to completion. device_ns, when not NULL, receives the device-measured
   * execution time (0 if the backend cannot measure it). */
  cl_int (*kernel_launch)(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch, uint64_t *device_ns);
  /* kernel_launch and kernel_run honour hg_launch.time_limit_ns themselves, in any kernel
   * (the RISC-V simulator ends its cores), so the platform sets no timer of its own. */
  bool kernel_time_limit;

  /* Optional: kernels that stop at safe points and resume anywhere (docs/safe-points.md); both
   * or neither. kernel_run runs like kernel_launch (synchronously), from `resume` when not NULL
   * (a state any backend captured for this kernel and range: the work it says is done is not
   * run again), and stops early once launch->stop is requested (before or during the run) or
   * launch->stop_after checks have passed: then it returns HG_LAUNCH_STOPPED with *stopped set
   * (the caller frees it with hg_ir_ndrange_state_free), the buffers holding what the work done
   * so far wrote, and printf output so far appended as usual. A kernel the backend cannot stop
   * inside runs to completion. Any other result leaves *stopped NULL. launch->local_size is
   * explicit. */
  cl_int (*kernel_run)(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch,
                       const struct hg_ir_ndrange_state *resume, struct hg_ir_ndrange_state **stopped,
                       uint64_t *device_ns);
  /* Makes this backend's launches that poll `stop` (requested already set) stop at their next
   * safe point; returns without waiting. May be called from any thread, any number of times. */
  void (*kernel_stop)(hg_backend *be, hg_stop_request *stop);
  /* Optional (NULL: every state): whether kernel_run can resume `state` here, asked before a
   * migration commits to this backend (a kernel may have no resume form on some device). */
  bool (*kernel_can_resume)(hg_backend *be, hg_dev_kernel *kernel, const struct hg_ir_ndrange_state *state);
  /* Optional (NULL: every kernel kernel_run takes): whether the kernel's launches can stop at
   * safe points here. wait: waits for its stoppable forms when they are still being built (or
   * not yet begun); else false until they are built. */
  bool (*kernel_stoppable)(hg_backend *be, hg_dev_kernel *kernel, bool wait);

  /* Optional asynchronous forms (see the top of this file). Each returns CL_SUCCESS with *token
   * set (NULL: nothing was submitted, the work is done), or an error with nothing submitted.
   * timed: token_wait will be asked for the work's device times (a backend may run work whose
   * times nobody wants more cheaply). */
  cl_int (*mem_read_async)(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst, bool timed,
                           hg_token **token);
  cl_int (*mem_write_async)(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src,
                            bool timed, hg_token **token);
  cl_int (*mem_copy_async)(hg_backend *be, hg_dev_mem *src, size_t src_offset, hg_dev_mem *dst, size_t dst_offset,
                           size_t size, bool timed, hg_token **token);
  cl_int (*mem_fill_async)(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                           size_t pattern_size, bool timed, hg_token **token);
  cl_int (*mem_read_rect_async)(hg_backend *be, hg_dev_mem *src, const hg_rect *rect, void *dst, bool timed,
                                hg_token **token);
  cl_int (*mem_write_rect_async)(hg_backend *be, hg_dev_mem *dst, const hg_rect *rect, const void *src,
                                 bool timed, hg_token **token);
  cl_int (*mem_copy_rect_async)(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *rect,
                                bool timed, hg_token **token);
  cl_int (*kernel_launch_async)(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch, bool timed,
                                hg_token **token);
  /* Blocks until the token's operation has finished; CL_SUCCESS or its (negative) error. May be
   * called any number of times, from several threads at once, until token_release. device_start
   * and device_end (not NULL) receive the device's timestamps of the work, moved onto the host
   * clock (common/host_clock.h) by the backend, both 0 when it cannot measure them. Equal
   * tokens (one token given for several untimed operations) complete together, with one
   * result: the platform waits for one of them and takes its result for the others. */
  cl_int (*token_wait)(hg_backend *be, hg_token *token, uint64_t *device_start, uint64_t *device_end);
  /* Optional: true when the token's operation has finished (token_wait then returns at once);
   * never blocks, and false also when it cannot tell now (another thread is submitting): the
   * caller asks again later. Lets the platform follow completions without a thread blocked
   * inside the vendor's wait, which slows the submissions of other threads (docs/performance.md). */
  bool (*token_done)(hg_backend *be, hg_token *token);
  /* Optional: the asynchronous forms may hold work back from the device to batch the vendor's
   * flushes (until a token of it is waited for or polled, or a few more follow); this pushes
   * everything submitted so far. Without `wait` it gives up (false) rather than wait for a
   * submission in progress on another thread, which then pushes its work itself. */
  bool (*stream_flush)(hg_backend *be, bool wait);
  void (*token_release)(hg_backend *be, hg_token *token);
  /* Optional: makes a `closed` backend usable (a vendor listed from its cached facts is loaded
   * and checked against them); an error leaves it unusable. Called once, by hg_backend_open. */
  cl_int (*open)(hg_backend *be);
} hg_backend_ops;

/* True when the backend has the asynchronous forms (token_wait and token_release at least;
 * an operation without its *_async member runs through its synchronous form). */
static inline bool hg_backend_async(const hg_backend_ops *ops) { return ops->token_wait && ops->token_release; }

struct hg_backend {
  const hg_backend_ops *ops;
  char name[256];        /* e.g. "vendor:Portable Computing Language/pthread-..." */
  char platform_name[128];
  char device_name[128];
  char driver_version[128]; /* keys the program cache */
  cl_device_type type;
  hg_backend_limits limits;
  hg_backend_hints hints;
  unsigned index; /* position in the backend list */
  atomic_bool lost; /* its device returned HG_ERR_DEVICE_LOST: nothing runs there any more */
  /* listed from cached facts, not opened yet: only the fields above are valid, and no operation
   * may be called before hg_backend_open */
  atomic_bool closed;
};

/* The backends of this process, probed once (devices/backend_registry.c). */
cl_int hg_backends_init(void);
unsigned hg_backend_count(void);
hg_backend *hg_backend_at(unsigned index);
/* The backend HETGPU_BACKEND selects (or the best available); NULL when none is usable. */
hg_backend *hg_backend_active(void);
/* Opens a `closed` backend at its first use (the other backends are always open): CL_SUCCESS
 * when its operations may be called, else HG_ERR_DEVICE_LOST (it cannot be opened and is lost for
 * the rest of the process). Thread-safe; cheap once open. */
cl_int hg_backend_open(hg_backend *be);
/* The backend a name in HETGPU_BACKEND's syntax selects ("riscv", "vendor:NAME"); NULL when
 * none matches. */
hg_backend *hg_backend_find(const char *spec);

#endif
