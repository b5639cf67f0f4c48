/* A process that exits while a program's stoppable forms are being built ends with its own exit
 * status, not a crash: exit waits for the build's vendor calls in progress (the vendor's exit
 * handlers would tear its compiler down under them), makes no new one, and leaves an
 * out-of-process clang to die with it (devices/vendor/vendor_forms.c). The test runs itself again as the child: the child builds a
 * program of many loops, asks CL_KERNEL_STOPPABLE_HETGPU on a second thread (which builds the
 * forms there) and calls exit(7) from the main thread while that build runs. */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <CL/cl_hetgpu.h>

#include "harness.h"

extern char **environ;

#define LOOPS 300

static char *many_loops_source(void) {
  size_t cap = LOOPS * 160 + 512, at = 0;
  char *s = malloc(cap);
  at += snprintf(s + at, cap - at, "__kernel void many(__global uint *b, uint n) {\n  uint x = b[get_global_id(0)];\n");
  for (unsigned i = 0; i < LOOPS; i++)
    at += snprintf(s + at, cap - at, "  for (uint i = 0; i < n; i++) x = (x ^ (x >> %u)) * %uu + %uu;\n", i % 13 + 3,
                   2654435761u + 2 * i, 40503u * i + 1);
  snprintf(s + at, cap - at, "  b[get_global_id(0)] = x;\n}\n");
  return s;
}

static void *ask_stoppable(void *arg) {
  cl_bool stoppable;
  clGetKernelInfo((cl_kernel)arg, CL_KERNEL_STOPPABLE_HETGPU, sizeof stoppable, &stoppable, NULL);
  return NULL;
}

static void child(void) {
  cl_context ctx = hg_test_context();
  char *src = many_loops_source();
  cl_program p = hg_test_build(ctx, src, NULL);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "many", &err);
  if (err != CL_SUCCESS)
    exit(2);
  pthread_t t;
  pthread_create(&t, NULL, ask_stoppable, k);
  struct timespec pause_for = {0, 200 * 1000 * 1000}; /* the forms' build is under way */
  nanosleep(&pause_for, NULL);
  exit(7);
}

HG_TEST(exit_while_forms_build) {
  if (getenv("HG_EXIT_CHILD")) {
    child();
    return;
  }
  char *argv[] = {"api_exit_during_forms", NULL};
  size_t n = 0;
  while (environ[n])
    n++;
  char **envp = calloc(n + 2, sizeof *envp);
  memcpy(envp, environ, n * sizeof *envp);
  envp[n] = "HG_EXIT_CHILD=1";
  pid_t pid;
  CHECK_MSG(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp) == 0, "posix_spawn failed");
  int status = 0;
  CHECK_MSG(waitpid(pid, &status, 0) == pid, "waitpid failed");
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 7, "the child ended %s %d, not with exit status 7",
            WIFSIGNALED(status) ? "by signal" : "with status",
            WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  free(envp);
}
