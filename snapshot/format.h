/* The layout constants of a snapshot file shared by the writer and the reader, and the
 * helpers the snapshot/ sources share. docs/snapshot-format.md is the specification. */
#ifndef HETGPU_SNAPSHOT_FORMAT_H
#define HETGPU_SNAPSHOT_FORMAT_H

#include "snapshot/snapshot.h"

#include <stdarg.h>
#include <stdio.h>

/* "\x7fHGSNAP\x1a": not text, not an IR binary ("\x7fHGIR..."), stops `type` on DOS. */
static const uint8_t HG_SNAP_MAGIC[8] = {0x7F, 'H', 'G', 'S', 'N', 'A', 'P', 0x1A};

/* Header field offsets. The CRC field is the only bytes the checksum leaves out. */
enum {
  HG_SNAP_HEADER_SIZE = 64,
  HG_SNAP_OFF_MAJOR = 8,      /* u16 */
  HG_SNAP_OFF_MINOR = 10,     /* u16 */
  HG_SNAP_OFF_HSIZE = 12,     /* u32 */
  HG_SNAP_OFF_FSIZE = 16,     /* u64 */
  HG_SNAP_OFF_CRC = 24,       /* u32 */
  HG_SNAP_OFF_NSECTIONS = 28, /* u32 */
  HG_SNAP_OFF_FLAGS = 32,     /* u32; bytes 36..63 reserved, zero */
  HG_SNAP_SECTION_HEADER = 16, /* u32 tag, u32 flags, u64 payload length */
  HG_SNAP_SECTION_ALIGN = 8,
  HG_SNAP_DATA_ALIGN = 64, /* root buffer contents: absolute file offset */
};

/* Section tags, in the order they appear (tags strictly increase through a file). */
enum {
  HG_SNAP_SEC_META = 1,
  HG_SNAP_SEC_BUFFERS = 2,
  HG_SNAP_SEC_PROGRAMS = 3,
  HG_SNAP_SEC_KERNELS = 4,
  HG_SNAP_SEC_QUEUES = 5,
  HG_SNAP_SEC_BUFFER_DATA = 6,
  HG_SNAP_SEC_KNOWN_ = 6, /* the last section every file has */
  /* Minor 1: kernels stopped in flight at safe points (hg_snap_running: work-group frames,
   * local memory, progress), present only when there are some. Written without the optional
   * flag, so a 1.0 reader, which could not resume them, rejects such a file. */
  HG_SNAP_SEC_KERNEL_STATE = 7,
  /* Minor 2: images and samplers (their records, then the images' packed contents), present
   * only when there are some, without the optional flag: a 1.1 reader rejects such a file. */
  HG_SNAP_SEC_IMAGES = 8,
  HG_SNAP_SEC_IMAGE_DATA = 9,
  HG_SNAP_SEC_LAST_ = 9,
};
#define HG_SNAP_SECTION_OPTIONAL 1u /* section flag: a reader that does not know the tag skips it */
#define HG_SNAP_STRING_NULL 0xFFFFFFFFu

/* Record sizes without strings and variable bytes: the floor the reader divides by before
 * it allocates for a count. A string is at least its u32 length. */
enum {
  HG_SNAP_MIN_BUFFER = 4 + 4 + 8 + 8 + 8 + 8 + 4,
  HG_SNAP_MIN_PROGRAM = 4 + 4 + 4 + 8,
  HG_SNAP_MIN_KERNEL = 4 + 4 + 4 + 4 + 4,
  HG_SNAP_MIN_ARG = 4 + 4 + 8,
  HG_SNAP_MIN_QUEUE = 4 + 8 + 4,
  /* queue, kernel, u32 num_args, then the state: name, work_dim, 9 range u64s, num_groups,
   * at least one status byte, three sizes, the running group count */
  HG_SNAP_MIN_RUNNING = 4 + 4 + 4 + 4 + 4 + 9 * 8 + 8 + 1 + 3 * 4 + 4,
  /* u64 group, u32 num_items, then per item at least its u32 safe point */
  HG_SNAP_MIN_GROUP = 8 + 4 + 4,
  /* id, type, order, data type, flags, 4 sizes, 2 pitches, buffer, size, data_offset, label */
  HG_SNAP_MIN_IMAGE = 4 * 4 + 8 + 4 * 8 + 2 * 8 + 4 + 8 + 8 + 4,
  HG_SNAP_MIN_SAMPLER = 4 + 4 + 4 + 4,
};

static inline uint64_t hg_snap_align(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

/* CRC-32C (Castagnoli), continuing from crc (start with 0): the same function as
 * hg_ir_crc32c, with the SSE4.2 instruction where the CPU has it (snapshot/crc32c.c). */
uint32_t hg_snap_crc32c(uint32_t crc, const uint8_t *p, size_t n);
/* The table-driven path alone, for tests comparing both paths. */
uint32_t hg_snap_crc32c_portable(uint32_t crc, const uint8_t *p, size_t n);

/* The checksum of a whole file image, the stored field left out. */
uint32_t hg_snap_file_crc(const uint8_t *data, size_t size);

/* Checks the rules every snapshot obeys, whether about to be written or just read: ids are
 * indices, references in range, sub-buffers inside root parents, strings, every program's
 * IR decodes with the named kernels and their argument counts and kinds, and every kernel
 * stopped in flight is consistent with its kernel's IR (hg_snap_check_running). */
bool hg_snap_validate(const hg_snapshot *s, char *err, size_t err_size);

/* One argument against the IR kernel's parameter, for a kernel object (`who` "kernel 3") or a
 * stopped launch ("running kernel 0"): the kinds clSetKernelArg accepts, sizes, buffer ids. */
struct hg_ir_kernel_arg;
struct hg_ir_type;
bool hg_snap_check_arg(const hg_snapshot *s, const char *who, uint32_t a, const hg_snap_kernel_arg *arg,
                       const struct hg_ir_kernel_arg *want, const struct hg_ir_type *param, char *err, size_t n);

/* The images and samplers (snapshot/images.c): ids, formats, sizes within the profile's
 * limits, the packed size, 1D buffer images inside their buffers, sampler bits and properties. */
bool hg_snap_check_images(const hg_snapshot *s, char *err, size_t n);
/* The packed layout's bytes of an image's description; 0 when the description is not one the
 * profile allows (unknown type or format, a size out of its limits). */
uint64_t hg_snap_image_packed_size(const hg_snap_image *im);

/* The kernels stopped in flight (snapshot/running.c): ids, launch arguments (every one set),
 * and each state against its kernel's IR (hg_ir_ndrange_state_check, the local memory size,
 * pointers into __local and buffer arguments). mods: every program decoded, and the kernels
 * already checked against them. */
struct hg_ir_module;
bool hg_snap_check_running(const hg_snapshot *s, struct hg_ir_module *const *mods, char *err, size_t n);

/* Bytes of local memory a work-group of kernel f has with these launch arguments (ir-spec
 * section 7): the static __local variables, then each __local argument's buffer in argument
 * order at the next multiple of 16. False when it does not fit in 32 bits. */
struct hg_ir_function;
bool hg_snap_local_bytes(const struct hg_ir_function *f, const hg_snap_kernel_arg *args, uint32_t *out);

/* Field-by-field equality of two stopped launches (NULL states equal only each other). */
bool hg_snap_running_equal(const hg_snap_running *a, const hg_snap_running *b);
bool hg_snap_args_equal(uint32_t n, const hg_snap_kernel_arg *a, const hg_snap_kernel_arg *b);

/* Writes `s` to an open file descriptor from its current position, not atomically (the
 * atomic writer and the fuzzer's round trip use it). `s` must have passed hg_snap_validate. */
int hg_snap_write_fd(const hg_snapshot *s, int fd, char *err, size_t err_size);

/* Writes the message; returns false so that a check can `return hg_snap_errf(...)`. */
static inline bool hg_snap_errf(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return false;
}

#endif
