/* The front end's bounds on clang (issue "Reliability" row 4): an #include of a FIFO that never
 * delivers fails the build after HETGPU_COMPILE_TIMEOUT instead of blocking it forever; a
 * memory limit (HETGPU_COMPILE_MEMORY) too small for clang fails the build cleanly; the
 * temporary directory of a process killed mid-build is removed by the next process that
 * compiles, and a build leaves none of its own behind. Runs in a private TMPDIR. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"
#include "conformance/harness/unit_check.h"
#include "lowering/frontend.h"

static char tmp[256];

/* Temporary directories of this process in TMPDIR. */
static int own_dirs(void) {
  char prefix[64];
  snprintf(prefix, sizeof prefix, "hetgpu-cl-%d-", (int)getpid());
  int n = 0;
  DIR *d = opendir(tmp);
  for (struct dirent *e; d && (e = readdir(d));)
    n += !strncmp(e->d_name, prefix, strlen(prefix));
  if (d) closedir(d);
  return n;
}

static cl_int compile(const char *src, const char *options, char **log) {
  hg_ir_module *m = NULL;
  cl_int rc = hg_frontend_compile(src, options, NULL, 0, false, &m, log);
  hg_ir_module_free(m);
  return rc;
}

int main(void) {
  snprintf(tmp, sizeof tmp, "/tmp/hg-frontend-bounds-%d", (int)getpid());
  mkdir(tmp, 0700);
  setenv("TMPDIR", tmp, 1);
  /* a directory left by a process that is gone, and one of a live process (this one's parent) */
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, NULL, 0);
  char stale[512], live[512], path[600];
  snprintf(stale, sizeof stale, "%s/hetgpu-cl-%d-AbC123", tmp, (int)dead);
  snprintf(live, sizeof live, "%s/hetgpu-cl-%d-XyZ789", tmp, (int)getppid());
  mkdir(stale, 0700);
  mkdir(live, 0700);
  snprintf(path, sizeof path, "%s/source.cl", stale);
  FILE *f = fopen(path, "w");
  if (f) fclose(f);

  const char *plain = "__kernel void k(__global int *o) { o[get_global_id(0)] = 1; }\n";
  char *log = NULL;
  CHECK(compile(plain, "", &log) == CL_SUCCESS, "a plain build failed: %s", log ? log : "");
  free(log);
  CHECK(access(stale, F_OK) != 0, "the directory of a dead process is still there");
  CHECK(access(live, F_OK) == 0, "the directory of a live process was removed");
  CHECK(own_dirs() == 0, "a build left %d temporary directories", own_dirs());

  /* an #include of a FIFO nobody writes */
  char inc[512], fifo[600], opts[700];
  snprintf(inc, sizeof inc, "%s/inc", tmp);
  mkdir(inc, 0700);
  snprintf(fifo, sizeof fifo, "%s/stuck.h", inc);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
  snprintf(opts, sizeof opts, "-I %s", inc);
  setenv("HETGPU_COMPILE_TIMEOUT", "2", 1);
  time_t t0 = time(NULL);
  cl_int rc = compile("#include \"stuck.h\"\n__kernel void k(void) {}\n", opts, &log);
  long took = (long)(time(NULL) - t0);
  CHECK(rc == CL_COMPILE_PROGRAM_FAILURE, "the FIFO build returned %d", rc);
  CHECK(took <= 10, "the FIFO build took %ld s with a 2 s limit", took);
  CHECK(log && strstr(log, "HETGPU_COMPILE_TIMEOUT"), "the log does not name the limit: %s", log ? log : "");
  free(log);
  CHECK(own_dirs() == 0, "the timed-out build left %d temporary directories", own_dirs());
  unsetenv("HETGPU_COMPILE_TIMEOUT");

  /* an address space clang cannot run in: a failed build, not a crash or a hang */
  setenv("HETGPU_COMPILE_MEMORY", "16", 1);
  rc = compile(plain, "", &log);
  CHECK(rc == CL_COMPILE_PROGRAM_FAILURE, "a build in 16 MiB returned %d", rc);
  CHECK(log && log[0], "the failed build has no log");
  free(log);
  unsetenv("HETGPU_COMPILE_MEMORY");
  CHECK(compile(plain, "", &log) == CL_SUCCESS, "the next build failed: %s", log ? log : "");
  free(log);

  unlink(fifo);
  rmdir(inc);
  rmdir(live);
  rmdir(tmp);
  printf("%s\n", failures ? "FAILED" : "frontend_bounds: all checks passed");
  return failures ? 1 : 0;
}
