/* libFuzzer harness for the control socket's request parser: any bytes are refused with a
 * message or give a request whose fields obey the protocol (docs/control-socket.md); never a
 * crash, an overread or an abort. Built with -DHETGPU_FUZZ=ON (conformance/control/). */
#include "platform/control_protocol.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* A copy of exactly `size` bytes, so ASan sees any read past the end. */
  char *line = malloc(size ? size : 1);
  if (!line)
    return 0;
  memcpy(line, data, size);
  hg_ctl_request req;
  const char *why = NULL;
  if (!hg_ctl_parse_request(line, size, &req, &why)) {
    if (!why || !*why)
      abort();
    free(line);
    return 0;
  }
  if (size > HG_CTL_MAX_LINE || line[size - 1] != '\n' || memchr(line, '\0', size))
    abort();
  switch (req.verb) {
  case HG_CTL_PING:
  case HG_CTL_LIST: break;
  case HG_CTL_MIGRATE:
    if (!req.backend[0] || strlen(req.backend) > HG_CTL_MAX_BACKEND || strchr(req.backend, ' ') ||
        req.timeout_ms > HG_CTL_MAX_TIMEOUT_MS)
      abort();
    break;
  case HG_CTL_CHECKPOINT:
    if (req.path[0] != '/' || strlen(req.path) >= PATH_MAX || strchr(req.path, ' ') ||
        req.timeout_ms > HG_CTL_MAX_TIMEOUT_MS)
      abort();
    break;
  default: abort();
  }
  free(line);
  return 0;
}
