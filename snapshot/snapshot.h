/* Device-neutral checkpoint files of the cl_hetgpu_migrate extension: buffers (with their
 * contents), programs (as hetGPU IR binaries), kernels with their arguments, and queues of a
 * context, written on one backend and restorable on any other. docs/snapshot-format.md is the
 * byte-by-byte specification. This module depends on ir/ only: no CL objects. */
#ifndef HETGPU_SNAPSHOT_SNAPSHOT_H
#define HETGPU_SNAPSHOT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_SNAP_NONE 0xFFFFFFFFu
#define HG_SNAP_VERSION 1       /* format major version: a reader reads its own major only */
#define HG_SNAP_VERSION_MINOR 2 /* the newest minor this code reads and writes (minors only add sections and trailing fields) */
#define HG_SNAP_MINOR_KERNEL_STATE 1 /* the minor that added kernels in flight (hg_snap_running) */
#define HG_SNAP_MINOR_IMAGES 2       /* the minor that added images and samplers (hg_snap_image, hg_snap_sampler) */
#define HG_SNAP_MAX_STRING (1u << 20) /* longest label, name or build options, bytes */

struct hg_ir_ndrange_state;

/* Every object's id is its index in its array (buffers[i].id == i, and so on). */
typedef struct hg_snap_buffer {
  uint32_t id;         /* index in the snapshot's buffer array */
  uint32_t parent;     /* HG_SNAP_NONE for a root buffer, else the id of the root buffer it is a sub-buffer of (must be < id) */
  uint64_t flags;      /* cl_mem_flags as created */
  uint64_t origin;     /* sub-buffers: offset in the parent; 0 for roots */
  uint64_t size;       /* > 0 */
  const char *label;   /* may be NULL */
  const uint8_t *data; /* root buffers: `size` bytes of contents; NULL for sub-buffers */
} hg_snap_buffer;

/* An image (minor 2). Images share the buffers' id space: image i has mem id num_buffers + i,
 * so that kernel arguments name either kind of cl_mem by one number. Sizes are as
 * clGetImageInfo reports them (0 where the type has no such dimension); the contents are the
 * packed layout of docs/images.md (rows of width * pixel bytes, no padding), `size` bytes. */
typedef struct hg_snap_image {
  uint32_t id;                 /* num_buffers + index in the image array */
  uint32_t type;               /* cl_mem_object_type: CL_MEM_OBJECT_IMAGE1D ... IMAGE3D */
  uint32_t channel_order;      /* cl_channel_order; with channel_type one of the profile's formats */
  uint32_t channel_type;       /* cl_channel_type */
  uint64_t flags;              /* cl_mem_flags as created */
  uint64_t width, height, depth, array_size; /* CL_IMAGE_WIDTH ... CL_IMAGE_ARRAY_SIZE */
  uint64_t row_pitch, slice_pitch;           /* CL_IMAGE_ROW_PITCH, CL_IMAGE_SLICE_PITCH */
  uint32_t buffer;             /* IMAGE1D_BUFFER: the id of the buffer it views; else HG_SNAP_NONE */
  uint64_t size;               /* bytes of the packed contents */
  const char *label;           /* may be NULL */
  const uint8_t *data;         /* `size` packed bytes; NULL for a 1D buffer image (its buffer's) */
} hg_snap_image;

/* A sampler (minor 2): the HG_SAMPLER_* bits kernels receive, and the property list the
 * application gave (little-endian u64s with the terminating 0; none: 0 entries). */
typedef struct hg_snap_sampler {
  uint32_t id;
  uint32_t bits;
  uint32_t num_properties;     /* entries, the terminating 0 included; 0 when none were given */
  const uint8_t *properties;   /* num_properties * 8 bytes; read from a file it has no alignment */
  const char *label;           /* may be NULL */
} hg_snap_sampler;

typedef struct hg_snap_program {
  uint32_t id;
  const char *label;
  const char *build_options;         /* may be "", not NULL */
  const uint8_t *ir; size_t ir_size; /* the program's executable IR in its binary form (hg_ir_encode) */
} hg_snap_program;

/* IMAGE and SAMPLER: minor 2 (a file with them has images or samplers, hence the IMAGES section). */
enum {
  HG_SNAP_ARG_UNSET = 0, HG_SNAP_ARG_BUFFER = 1, HG_SNAP_ARG_LOCAL = 2, HG_SNAP_ARG_VALUE = 3,
  HG_SNAP_ARG_IMAGE = 4, HG_SNAP_ARG_SAMPLER = 5,
};

/* Fields a kind does not use are HG_SNAP_NONE (buffer), 0 (size) and NULL (value). */
typedef struct hg_snap_kernel_arg {
  uint32_t kind;        /* HG_SNAP_ARG_* */
  uint32_t buffer;      /* BUFFER: buffer id, or HG_SNAP_NONE for a NULL buffer; IMAGE: the image's
                           mem id (hg_snap_image.id); SAMPLER: a sampler id */
  uint64_t size;        /* LOCAL: bytes; VALUE: bytes in value */
  const uint8_t *value; /* VALUE; read from a file it has no alignment: copy it out */
} hg_snap_kernel_arg;

typedef struct hg_snap_kernel {
  uint32_t id, program; /* program id */
  const char *name;     /* kernel function name */
  const char *label;    /* may be NULL */
  uint32_t num_args;    /* the IR kernel's parameter count */
  const hg_snap_kernel_arg *args;
} hg_snap_kernel;

typedef struct hg_snap_queue {
  uint32_t id;
  uint64_t properties; /* cl_command_queue_properties */
  const char *label;   /* may be NULL */
} hg_snap_queue;

/* A kernel launch stopped at safe points when the checkpoint was taken (minor version 1,
 * section HG_SNAP_SEC_KERNEL_STATE): the launch's own arguments (captured when it was
 * enqueued, which may differ from the kernel object's current ones) and where its work stands.
 * A restore enqueues it again on its queue, from that state. */
typedef struct hg_snap_running {
  uint32_t queue;  /* queue id it was enqueued on */
  uint32_t kernel; /* kernel id: names the program and the kernel function */
  uint32_t num_args; /* the kernel's parameter count */
  const hg_snap_kernel_arg *args; /* every kind set: BUFFER, LOCAL or VALUE (no UNSET) */
  const struct hg_ir_ndrange_state *state; /* the range and its progress (ir/ndrange_state.h) */
} hg_snap_running;

typedef struct hg_snapshot {
  char source_backend[256]; /* name of the backend it was taken on (informational) */
  uint64_t created_ns;      /* CLOCK_REALTIME at capture */
  uint32_t num_buffers, num_programs, num_kernels, num_queues;
  const hg_snap_buffer *buffers;
  const hg_snap_program *programs;
  const hg_snap_kernel *kernels;
  const hg_snap_queue *queues;
  uint32_t num_running; /* 0: the file is a minor-0 file, readable by every 1.x reader */
  const hg_snap_running *running;
  uint32_t num_images, num_samplers; /* both 0: no IMAGES section, minor 0 or 1 */
  const hg_snap_image *images;
  const hg_snap_sampler *samplers;
} hg_snapshot;

/* Writes `s` to `path` atomically: a temporary file in the same directory (named
 * "<path>.tmp-XXXXXX", mode 0600 as the contents are the application's data), fsync, rename
 * over path, fsync the directory. A crash or kill -9 at any moment leaves either the old file or
 * the new one (and perhaps a stray temporary). Buffer data is streamed from the pointers in `s`,
 * never copied whole. `s` is checked first with the reader's rules, so a file that is written
 * also opens. Returns 0, or -1 with a message in err. */
int hg_snapshot_write(const hg_snapshot *s, const char *path, char *err, size_t err_size);

/* Opens and fully verifies a snapshot file (docs/snapshot-format.md, "What a reader checks").
 * The returned object owns a read-only mmap of the file: data/value/ir pointers point into it,
 * buffer contents 64-byte aligned; the running entries' states are decoded copies it owns
 * (ir/ndrange_state.c objects, freed by hg_snapshot_close: clone one to keep it). The file must not be truncated while open (the writer only
 * ever renames a new file over it). NULL with a message in err on any problem. */
typedef struct hg_snapshot_file hg_snapshot_file;
hg_snapshot_file *hg_snapshot_open(const char *path, char *err, size_t err_size);
/* Same, from memory (for the fuzzer and tests); the bytes must outlive the result. */
hg_snapshot_file *hg_snapshot_open_memory(const uint8_t *data, size_t size, char *err, size_t err_size);
const hg_snapshot *hg_snapshot_get(const hg_snapshot_file *f);
void hg_snapshot_close(hg_snapshot_file *f);

/* True when the two hold the same objects, strings and bytes (NULL labels differ from ""). */
bool hg_snapshot_equal(const hg_snapshot *a, const hg_snapshot *b);

#endif
