/* A tool started before its next run (tool_run.h): exec'd, its libraries loaded and its static
 * constructors run (clang: 20-50 ms of a build), then blocked reading its arguments as a
 * response file from its stdin, a pipe only this process writes. The run writes the arguments
 * and closes the pipe; from there it is hg_tool_run's run (output, time limit, wait status).
 *
 * One such tool waits at a time. It dies with the process: the pipe's write end closes at exit
 * or exec (close-on-exec), the tool reads an end of file where its arguments were, and exits; a
 * forked child closes its copy at once (pthread_atfork), so the parent's close is the end. A
 * tool found dead when taken, or killed without a time-out during its run (its forking thread
 * ended), leaves the run to a fresh process. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "lowering/tool_run.h"

typedef struct warm_tool {
  pid_t pid;   /* 0: none waits */
  pid_t owner; /* the process that started it */
  int args_fd; /* the write end of its stdin */
  int out_fd;  /* its stdout and stderr */
  long memory_mib;
  char tool[4096];
} warm_tool;

static pthread_mutex_t warm_lock = PTHREAD_MUTEX_INITIALIZER;
static warm_tool warm; /* under warm_lock */

static void atfork_prepare(void) { pthread_mutex_lock(&warm_lock); }
static void atfork_parent(void) { pthread_mutex_unlock(&warm_lock); }
static void atfork_child(void) {
  if (warm.pid) {
    close(warm.args_fd);
    close(warm.out_fd);
    warm.pid = 0;
  }
  pthread_mutex_unlock(&warm_lock);
}
static void register_atfork(void) { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); }

static bool enabled(const char *tool) {
  const char *s = getenv("HETGPU_WARM_TOOL");
  if (s && !strcmp(s, "0"))
    return false;
  /* only LLVM's option parser reads "@file" as the arguments; another HETGPU_CLANG (a test's
   * script) is run as it is */
  const char *base = strrchr(tool, '/');
  return !strncmp(base ? base + 1 : tool, "clang", 5) && strlen(tool) < sizeof warm.tool;
}

/* Ends a tool that still runs (alive) or only forgets one already reaped: a pid reaped
 * elsewhere (an application's SIGCHLD handler) may belong to another process by now. */
static void discard(const warm_tool *w, bool alive) {
  close(w->args_fd); /* the tool reads an end of file and exits */
  close(w->out_fd);
  if (!alive)
    return;
  kill(w->pid, SIGKILL);
  while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR) {
  }
}

void hg_tool_warm_start(const char *tool) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (!tool || !enabled(tool))
    return;
  pthread_once(&once, register_atfork);
  pthread_mutex_lock(&warm_lock);
  bool waiting = warm.pid != 0;
  pthread_mutex_unlock(&warm_lock);
  if (waiting)
    return;
  /* outside warm_lock: fork runs atfork_prepare */
  warm_tool w = {.owner = getpid()};
  hg_tool_limits limits;
  hg_tool_limits_read(&limits);
  w.memory_mib = limits.memory_mib;
  strcpy(w.tool, tool);
  int in[2];
  if (pipe2(in, O_CLOEXEC) != 0)
    return;
  char *argv[] = {w.tool, "@/dev/stdin", NULL}, *log = NULL;
  w.pid = hg_tool_spawn(argv, in[0], &limits, "the compiler started ahead", &w.out_fd, &log);
  free(log);
  close(in[0]);
  w.args_fd = in[1];
  if (w.pid < 0) {
    close(in[1]);
    return;
  }
  pthread_mutex_lock(&warm_lock);
  bool placed = warm.pid == 0;
  if (placed)
    warm = w;
  pthread_mutex_unlock(&warm_lock);
  if (!placed)
    discard(&w, true);
}

/* Takes the waiting tool into *w when it is argv0's, started by this process under the same
 * memory limit, and still alive; any other waiting tool is discarded. */
static bool take(const char *argv0, const hg_tool_limits *limits, warm_tool *w) {
  pthread_mutex_lock(&warm_lock);
  *w = warm;
  bool ours = warm.pid && warm.owner == getpid();
  if (ours)
    warm.pid = 0;
  pthread_mutex_unlock(&warm_lock);
  if (!ours)
    return false;
  bool alive = waitpid(w->pid, NULL, WNOHANG) == 0; /* else reaped now, or by someone else */
  if (!alive || strcmp(w->tool, argv0) || w->memory_mib != limits->memory_mib) {
    discard(w, alive);
    return false;
  }
  return true;
}

/* The arguments as a response file in the GNU syntax of LLVM's tokenizer: every character but
 * the plainest escaped with a backslash. NULL for an empty argument or one with a line break
 * (the tokenizer keeps neither) or without memory. */
static char *response_file(char *const args[], size_t *len) {
  size_t cap = 1;
  for (unsigned i = 0; args[i]; i++)
    cap += 2 * strlen(args[i]) + 1;
  char *out = malloc(cap), *o = out;
  if (!out)
    return NULL;
  for (unsigned i = 0; args[i]; i++) {
    if (!args[i][0]) {
      free(out);
      return NULL;
    }
    for (const char *c = args[i]; *c; c++) {
      if (*c == '\n' || *c == '\r') {
        free(out);
        return NULL;
      }
      if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:", *c))
        *o++ = '\\';
      *o++ = *c;
    }
    *o++ = ' ';
  }
  *len = (size_t)(o - out);
  return out;
}

/* Writes the arguments; a tool that died meanwhile must not take the process with SIGPIPE. */
static bool send_args(int fd, const char *data, size_t len) {
  sigset_t pipe_set, old, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE);
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    off += (size_t)w;
  }
  if (off < len && errno == EPIPE && !was_pending) {
    struct timespec none = {0, 0};
    sigtimedwait(&pipe_set, NULL, &none);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return off == len;
}

int hg_tool_run_warm(char *const argv[], const hg_tool_limits *limits, const char *what, char **log,
                     bool *timed_out) {
  *timed_out = false;
  warm_tool w;
  if (!take(argv[0], limits, &w))
    return HG_TOOL_NOT_WARM;
  HG_LOG(HG_LOG_COMPILE, "%s: the one started ahead runs it (pid %d)", what, (int)w.pid);
  size_t len = 0;
  char *args = response_file(argv + 1, &len);
  bool sent = args && send_args(w.args_fd, args, len);
  free(args);
  if (!sent) {
    discard(&w, true);
    return HG_TOOL_NOT_WARM;
  }
  close(w.args_fd);
  size_t log_len = *log ? strlen(*log) : 0;
  int status = hg_tool_collect(w.pid, w.out_fd, limits, what, log, timed_out);
  if (!*timed_out && status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    if (*log)
      (*log)[log_len] = 0; /* whatever it wrote before it was killed */
    return HG_TOOL_NOT_WARM;
  }
  return status;
}
