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
  HG_SNAP_SEC_KNOWN_ = 6,
  /* Reserved for part II (minor 1): kernels stopped in flight at safe points (work-group
   * frames, local memory, progress). Written without the optional flag, so a 1.0 reader,
   * which could not resume them, rejects such a file. */
  HG_SNAP_SEC_KERNEL_STATE = 7,
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
 * indices, references in range, sub-buffers inside root parents, strings, and every program's
 * IR decodes with the named kernels and their argument counts and kinds. */
bool hg_snap_validate(const hg_snapshot *s, char *err, size_t err_size);

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
