/* The OpenCL C compiler started ahead of a build (lowering/tool_warm.c): a build after another
 * runs on the clang that waited for it and gives the same IR as a clang started for it; options
 * with spaces, quotes and backslashes reach clang whole; a waiting clang killed, a forked child
 * of the application holding on, HETGPU_WARM_TOOL=0 and a changed memory limit leave the
 * builds to fresh processes, never failed or stuck. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
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

/* This process's children whose command starts with "clang": their pids in out, how many. */
static int clang_children(pid_t *out, int max) {
  int n = 0;
  DIR *d = opendir("/proc");
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[300], stat[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t len = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[len] = 0;
    int pid, ppid;
    char comm[64], state;
    if (sscanf(stat, "%d (%63[^)]) %c %d", &pid, comm, &state, &ppid) == 4 && ppid == getpid() &&
        !strncmp(comm, "clang", 5) && state != 'Z' && n < max)
      out[n++] = pid;
  }
  if (d)
    closedir(d);
  return n;
}

/* The same once `expected` of them are there, or after 5 s: a clang just forked shows the
 * parent's name until its exec. */
static int clang_children_after_start(pid_t *out, int max, int expected) {
  int n = 0;
  for (int i = 0; i < 500 && (n = clang_children(out, max)) != expected; i++)
    usleep(10000);
  return n;
}

/* The IR bytes of a build (malloc'd), NULL when it failed (its log printed). */
static uint8_t *build(const char *src, const char *options, size_t *size) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile(src, options, NULL, 0, false, &m, &log);
  uint8_t *bytes = NULL;
  if (rc != CL_SUCCESS || hg_ir_encode(m, &bytes, size) != 0)
    fprintf(stderr, "build (%s) failed: %d\n%s\n", options, rc, log ? log : "");
  hg_ir_module_free(m);
  free(log);
  return bytes;
}

static bool same_ir(const char *src, const char *options, const uint8_t *ref, size_t ref_size) {
  size_t size = 0;
  uint8_t *ir = build(src, options, &size);
  bool same = ir && size == ref_size && !memcmp(ir, ref, size);
  free(ir);
  return same;
}

int main(void) {
  char inc[256], header[300];
  snprintf(inc, sizeof inc, "/tmp/hg frontend warm %d", (int)getpid()); /* a path with spaces */
  mkdir(inc, 0700);
  snprintf(header, sizeof header, "%s/sum's.h", inc);
  FILE *f = fopen(header, "w");
  CHECK(f != NULL, "cannot write %s", header);
  if (f) {
    fputs("#define SUM(a, b) ((a) + (b))\n", f);
    fclose(f);
  }
  /* the build fails unless every option arrived as written */
  const char *src = "#include \"sum's.h\"\n"
                    "#define a 1\n#define b +2\n"
                    "#if SPACED != 3 || SUM(QUOTED, 1) != 8\n#error options mangled\n#endif\n"
                    "typedef char text_whole[sizeof(TEXT) == 4 ? 1 : -1]; /* x, a backslash, y */\n"
                    "__kernel void k(__global int *o, __local int *t) {\n"
                    "  t[get_local_id(0)] = (int)get_global_id(0) * SPACED;\n"
                    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "  o[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)] + sizeof(TEXT);\n"
                    "}\n";
  char options[600];
  snprintf(options, sizeof options, "-I \"%s\" -DSPACED=\"a b\" -D QUOTED='7' -DTEXT=\"\\\"x\\\\\\\\y\\\"\"", inc);

  setenv("HETGPU_WARM_TOOL", "0", 1);
  size_t ref_size = 0;
  uint8_t *ref = build(src, options, &ref_size);
  CHECK(ref != NULL, "the build on a clang started for it failed");
  pid_t kids[8];
  CHECK(clang_children(kids, 8) == 0, "HETGPU_WARM_TOOL=0 left a clang waiting");
  unsetenv("HETGPU_WARM_TOOL");

  hg_frontend_warm_up();
  CHECK(clang_children_after_start(kids, 8, 1) == 1, "no clang waits after hg_frontend_warm_up");
  pid_t first = kids[0];
  for (int i = 0; i < 3 && ref; i++) {
    CHECK(same_ir(src, options, ref, ref_size), "build %d on the waiting clang gave other IR", i);
    int n = clang_children_after_start(kids, 8, 1);
    CHECK(n == 1 && kids[0] != first, "build %d did not take the waiting clang (%d waiting)", i, n);
    first = kids[0];
  }

  /* the waiting clang killed: the next build starts its own */
  if (clang_children_after_start(kids, 8, 1) == 1) {
    kill(kids[0], SIGKILL);
    usleep(100000);
  }
  if (ref)
    CHECK(same_ir(src, options, ref, ref_size), "the build after the waiting clang was killed failed");

  /* a forked child of the application outlives the build: the build must not wait for it */
  setenv("HETGPU_COMPILE_TIMEOUT", "30", 1);
  pid_t child = fork();
  if (child == 0) {
    sleep(60);
    _exit(0);
  }
  time_t t0 = time(NULL);
  if (ref)
    CHECK(same_ir(src, options, ref, ref_size), "the build beside a forked child failed");
  CHECK(time(NULL) - t0 < 20, "the build beside a forked child took %ld s", (long)(time(NULL) - t0));
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  unsetenv("HETGPU_COMPILE_TIMEOUT");

  /* a memory limit set after the clang started: a fresh clang runs within it */
  setenv("HETGPU_COMPILE_MEMORY", "16", 1);
  hg_ir_module *m = NULL;
  char *log = NULL;
  CHECK(hg_frontend_compile(src, options, NULL, 0, false, &m, &log) == CL_COMPILE_PROGRAM_FAILURE,
        "a build in 16 MiB on the waiting clang did not fail");
  hg_ir_module_free(m);
  free(log);
  unsetenv("HETGPU_COMPILE_MEMORY");

  free(ref);
  unlink(header);
  rmdir(inc);
  printf("%s\n", failures ? "FAILED" : "frontend_warm: all checks passed");
  return failures ? 1 : 0;
}
