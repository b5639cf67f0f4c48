/* printf through a buffer, the one way every backend prints (docs/printf.md): the kernel writes
 * records into a per-launch buffer, the host formats them after the launch. Same output on every
 * backend, whatever the vendor's own printf does. The buffer and record layout, which the code
 * generators share, is in common/printf_layout.h. */
#ifndef HETGPU_DEVICES_PRINTF_BUFFER_H
#define HETGPU_DEVICES_PRINTF_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "common/printf_layout.h"

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
