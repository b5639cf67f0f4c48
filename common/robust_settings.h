/* HETGPU_ROBUST (docs/robust-access.md): vendor backends build kernels whose lowered code checks
 * every global and constant access against the launch's buffers. Read once per process. */
#ifndef HETGPU_COMMON_ROBUST_SETTINGS_H
#define HETGPU_COMMON_ROBUST_SETTINGS_H

#include <stdbool.h>

/* HETGPU_ROBUST: true only when it is "1" (default off). */
bool hg_robust_enabled(void);

#endif
