/* The stoppable forms built by the vendor in a child process, hetgpu-vendor-build
 * (vendor_build_child.h says why). The child gets the lowered OpenCL C and the options in a
 * private temporary directory, runs within HETGPU_COMPILE_TIMEOUT, inherits the builder
 * thread's lowest priority, and dies with the thread that waits for it (at exit, at once: no
 * vendor call of ours is in progress meanwhile, so exit need not wait for it). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "common/safepoint_settings.h"
#include "common/driver_file.h"
#include "devices/vendor/vendor_build_child.h"
#include "devices/vendor/vendor_internal.h"
#include "lowering/frontend.h"
#include "lowering/tool_run.h"

/* <directory of our library>/HG_VENDOR_BUILD_TOOL, or false when it is not there */
static bool child_tool(char *path, size_t size) {
  return hg_driver_file(HG_VENDOR_BUILD_TOOL, path, size) && access(path, X_OK) == 0;
}

bool hg_vendor_forms_in_child(const hg_vendor_backend *vb, bool via_spir) {
  return !(via_spir && vb->spir) && hg_forms_in_child(!(vb->base.type & CL_DEVICE_TYPE_CPU));
}

void *hg_vendor_build_in_child(hg_vendor_backend *vb, const char *source, const char *opts, size_t *size,
                               bool *refused) {
  *refused = false;
  const char *library;
  unsigned platform_index;
  char tool[PATH_MAX], dir[4096];
  if (!hg_vendor_platform_origin(vb->platform, &library, &platform_index) || !child_tool(tool, sizeof tool)) {
    HG_LOG(HG_LOG_COMPILE, "%s: no %s beside the driver: the forms are built in this process", vb->base.name,
           HG_VENDOR_BUILD_TOOL);
    return NULL;
  }
  char *log = NULL;
  if (!hg_tool_tmpdir(dir, sizeof dir, &log)) {
    HG_LOG(HG_LOG_COMPILE, "%s: %s", vb->base.name, log ? log : "no temporary directory");
    free(log);
    return NULL;
  }
  void *bin = NULL;
  char src_path[4200], opts_path[4200], bin_path[4200], platform_arg[16], device_arg[16];
  snprintf(src_path, sizeof src_path, "%s/%s", dir, HG_VENDOR_BUILD_SOURCE);
  snprintf(opts_path, sizeof opts_path, "%s/%s", dir, HG_VENDOR_BUILD_OPTIONS);
  snprintf(bin_path, sizeof bin_path, "%s/%s", dir, HG_VENDOR_BUILD_BINARY);
  snprintf(platform_arg, sizeof platform_arg, "%u", platform_index);
  snprintf(device_arg, sizeof device_arg, "%u", vb->device_index);
  if (hg_tool_write_file(src_path, source, NULL, NULL, NULL) == 0 &&
      hg_tool_write_file(opts_path, opts, NULL, NULL, NULL) == 0) {
    char *argv[] = {tool, (char *)library, platform_arg, device_arg, vb->base.device_name, dir, NULL};
    hg_tool_limits limits;
    hg_tool_limits_read(&limits);
    limits.memory_mib = 0; /* a GPU driver reserves far more address space than it uses */
    uint64_t t0 = hg_host_clock_ns();
    bool timed_out = false;
    int out_fd, status = -1;
    pid_t pid = hg_tool_spawn(argv, -1, &limits, "the vendor build", &out_fd, &log);
    if (pid > 0)
      status = hg_tool_collect(pid, out_fd, &limits, "the vendor build", &log, &timed_out);
    bool done = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == HG_VENDOR_BUILD_DONE;
    *refused = timed_out || (WIFEXITED(status) && WEXITSTATUS(status) == HG_VENDOR_BUILD_REFUSED);
    if (done && !(bin = hg_tool_read_file(bin_path, size)))
      hg_log_append(&log, "no binary written");
    if (bin)
      HG_LOG(HG_LOG_COMPILE, "%s: %zu bytes of lowered OpenCL C built in a child process in %.1f ms (%zu bytes of binary)",
             vb->base.name, strlen(source), (hg_host_clock_ns() - t0) / 1e6, *size);
    else
      HG_LOG(HG_LOG_COMPILE, "%s: the build in a child process failed (status %d): %.2000s", vb->base.name, status,
             log ? log : "");
  }
  hg_tool_remove_tree(dir);
  free(log);
  return bin;
}
