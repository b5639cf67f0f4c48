/* bc_run_isolated: children report one byte per finished check through a pipe; the parent
 * knows from the count which check a dead child was in. */
#include "isolated.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(size_t from, size_t n, const bc_isolated_fns *fns, unsigned timeout_s, int fd) {
  if (fns->setup && fns->setup(fns->ctx)) {
    unsigned char b = BC_OUTCOME_SETUP;
    (void)!write(fd, &b, 1);
    _exit(0);
  }
  for (size_t i = from; i < n; i++) {
    alarm(timeout_s);
    int r = fns->check(i, fns->ctx);
    unsigned char b = (unsigned char)(r < 0 || r > 200 ? 200 : r);
    if (write(fd, &b, 1) != 1)
      _exit(1);
  }
  alarm(0);
  _exit(0);
}

void bc_run_isolated(size_t n, const bc_isolated_fns *fns, unsigned timeout_s, unsigned char *outcome, int *signals) {
  size_t next = 0;
  while (next < n) {
    int p[2];
    if (pipe(p))
      abort();
    pid_t pid = fork();
    if (pid == 0) {
      close(p[0]);
      child(next, n, fns, timeout_s, p[1]);
    }
    close(p[1]);
    unsigned char b;
    size_t at = next;
    while (at < n && read(p[0], &b, 1) == 1) {
      if (b == BC_OUTCOME_SETUP) { /* the child could not start: the rest cannot run */
        for (; at < n; at++)
          outcome[at] = BC_OUTCOME_SETUP, signals[at] = 0;
        break;
      }
      outcome[at] = b;
      signals[at++] = 0;
    }
    close(p[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (at < n && WIFSIGNALED(status)) {
      outcome[at] = WTERMSIG(status) == SIGALRM ? BC_OUTCOME_HUNG : BC_OUTCOME_CRASHED;
      signals[at++] = WTERMSIG(status);
    } else if (at < n) { /* exited without finishing: count the check it was in as crashed */
      outcome[at] = BC_OUTCOME_CRASHED;
      signals[at++] = 0;
    }
    next = at;
  }
}

const char *bc_isolated_outcome_text(unsigned char outcome) {
  switch (outcome) {
  case BC_OUTCOME_CRASHED: return "crashed";
  case BC_OUTCOME_HUNG: return "hung";
  case BC_OUTCOME_SETUP: return "the child's setup failed";
  default: return NULL;
  }
}

unsigned bc_run_reported(size_t n, const bc_isolated_fns *fns, unsigned timeout_s, const char *(*label)(size_t i, void *ctx),
                         const char *(*outcome_text)(unsigned char outcome), unsigned *crashes) {
  unsigned char *outcome = calloc(n ? n : 1, 1);
  int *sig = calloc(n ? n : 1, sizeof *sig);
  if (!outcome || !sig)
    abort();
  bc_run_isolated(n, fns, timeout_s, outcome, sig);
  unsigned bad = 0;
  *crashes = 0;
  for (size_t i = 0; i < n; i++) {
    if (!outcome[i])
      continue;
    bool crash = outcome[i] == BC_OUTCOME_CRASHED;
    *crashes += crash;
    if (bad++ < 40 || crash)
      printf("FAIL %s: %s (signal %d)\n", label(i, fns->ctx), outcome_text(outcome[i]), sig[i]);
  }
  free(outcome);
  free(sig);
  return bad;
}
