/* The request language of the control socket (docs/control-socket.md): one text line per
 * connection, parsed here into a struct. Pure functions without I/O or global state, so the
 * parser can be unit-tested and fuzzed on its own (conformance/control/). */
#ifndef HETGPU_PLATFORM_CONTROL_PROTOCOL_H
#define HETGPU_PLATFORM_CONTROL_PROTOCOL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest request line, its '\n' included. */
#define HG_CTL_MAX_LINE 4096
/* Longest backend name in a request (hg_backend.name has 256 bytes). */
#define HG_CTL_MAX_BACKEND 255
/* Largest timeout a request may ask for: one day (0 means no limit). */
#define HG_CTL_MAX_TIMEOUT_MS UINT64_C(86400000)

typedef enum hg_ctl_verb {
  HG_CTL_PING,
  HG_CTL_LIST,
  HG_CTL_MIGRATE,
  HG_CTL_CHECKPOINT,
} hg_ctl_verb;

/* Where a migration or checkpoint stops the kernels that are running ("at=" word). */
typedef enum hg_ctl_stop_at {
  HG_CTL_AT_DEFAULT = 0,           /* no "at=": migrate at safe-point-or-boundary, checkpoint at boundary */
  HG_CTL_AT_SAFE_POINT_OR_BOUNDARY, /* at a safe point, else when they end */
  HG_CTL_AT_SAFE_POINT,                 /* at a safe point within the timeout, else fail */
  HG_CTL_AT_BOUNDARY,                   /* when they end */
} hg_ctl_stop_at;

typedef struct hg_ctl_request {
  hg_ctl_verb verb;
  uint64_t context_id;  /* migrate, checkpoint: 0 means every context ("all") */
  uint64_t timeout_ms;  /* migrate, checkpoint: 0 (the default) waits as long as it takes */
  char backend[HG_CTL_MAX_BACKEND + 1]; /* migrate: a name in HETGPU_BACKEND's syntax */
  hg_ctl_stop_at stop_at; /* migrate, checkpoint: where running kernels stop ("at=...") */
  char path[PATH_MAX];  /* checkpoint: absolute */
} hg_ctl_request;

/* Parses the `len` bytes received as one request: they must end in the one '\n' of the line.
 * Returns true with *req filled, or false with a short static message in *why. */
bool hg_ctl_parse_request(const char *line, size_t len, hg_ctl_request *req, const char **why);

/* Parses a whole decimal number 0..max (digits only, no sign or space). */
bool hg_ctl_parse_u64(const char *text, uint64_t max, uint64_t *out);

#endif
