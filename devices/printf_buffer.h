/* printf through a buffer, the one way every backend prints (docs/printf.md): the kernel writes
 * records into a per-launch buffer, the host formats them after the launch. Same output on every
 * backend, whatever the vendor's own printf does.
 *
 * The buffer: an 8-byte header, the count of record bytes used as a little-endian u64 (writers
 * that add with 32-bit atomics update its low half and stop adding once it reaches the
 * capacity, so the high half stays 0), then `cap` bytes of records. A record (8-aligned):
 *   u32 total bytes, u32 format id (index into the program's format table),
 *   u64 linear work-group id, then one 8-byte slot per argument element (vectors element by
 *   element): integers sign- or zero-extended to 64 bits, floats and halves as the bit pattern
 *   of the double they convert to, doubles as their bits, pointers (%p) as addresses, strings
 *   (%s) as a backend-defined 64-bit value that the backend's string resolver turns into text.
 * A record that does not fit is not written (its printf returned -1); the count may then pass
 * the capacity, and records end there. */
#ifndef HETGPU_DEVICES_PRINTF_BUFFER_H
#define HETGPU_DEVICES_PRINTF_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#define HG_PRINTF_HEADER_BYTES 8u
#define HG_PRINTF_RECORD_HEADER_BYTES 16u
#define HG_PRINTF_SLOT_BYTES 8u

/* The text of a %s slot, at most *max bytes readable from it (the text ends at a NUL or there);
 * NULL prints "(null)". */
typedef const char *(*hg_printf_string_fn)(void *ctx, uint64_t slot, size_t *max);

typedef struct hg_printf_source {
  const char *const *formats; /* by format id */
  uint32_t num_formats;
  hg_printf_string_fn string_at;
  void *ctx;
} hg_printf_source;

/* Formats the records of a buffer (buf: its header; cap: bytes of the record area) in
 * work-group order, a group's records in the order they were reserved. *out is malloc'd (NULL
 * when empty). 0, or -1 when out of memory. */
int hg_printf_format(const uint8_t *buf, uint64_t cap, const hg_printf_source *src, char **out, size_t *out_len);

/* Writes text to stdout and flushes it (a launch's output is out before its event completes). */
void hg_printf_write(const char *text, size_t len);

#endif
