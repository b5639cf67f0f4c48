/* Bounded out-of-process tool runs and their private temporary directories (tool_run.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowering/frontend.h" /* hg_log_append */
#include "lowering/tool_run.h"

extern char **environ;

static int write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, p + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    off += (size_t)w;
  }
  return 0;
}

int hg_tool_write_file(const char *path, const char *a, const char *b, const char *c, const char *d) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  const char *parts[4] = {a, b, c, d};
  int rc = 0;
  for (int i = 0; i < 4 && rc == 0; i++)
    if (parts[i]) rc = write_all(fd, parts[i], strlen(parts[i]));
  if (close(fd) != 0) rc = -1;
  return rc;
}

int hg_tool_write_bytes(const char *path, const void *bytes, size_t size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  int rc = write_all(fd, bytes, size);
  if (close(fd) != 0) rc = -1;
  return rc;
}

void *hg_tool_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    char *nb = realloc(buf, cap *= 2);
    if (!nb) free(buf);
    buf = nb;
  }
  fclose(f);
  *size = n;
  return buf;
}

void hg_tool_remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    char child[4096];
    DIR *d = opendir(path);
    if (d) {
      struct dirent *e;
      while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        hg_tool_remove_tree(child);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

void hg_tool_replace_all(char **s, const char *from, const char *to) {
  if (!*s || !from[0]) return;
  size_t fl = strlen(from), tl = strlen(to), count = 0;
  for (const char *p = strstr(*s, from); p; p = strstr(p + fl, from)) count++;
  if (!count) return;
  char *out = malloc(strlen(*s) + count * (tl > fl ? tl - fl : 0) + 1), *o = out;
  if (!out) return;
  const char *p = *s, *q;
  while ((q = strstr(p, from))) {
    memcpy(o, p, (size_t)(q - p));
    o += q - p;
    memcpy(o, to, tl);
    o += tl;
    p = q + fl;
  }
  strcpy(o, p);
  free(*s);
  *s = out;
}

/* Temporary directories are named after the process that made them: one whose process is gone
 * (killed during a build) is removed by the next process that compiles. */
static void remove_stale_dirs(const char *tmp) {
  DIR *d = opendir(tmp);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    int owner = 0;
    char rest[16];
    if (sscanf(e->d_name, "hetgpu-cl-%d-%15s", &owner, rest) != 2 || owner <= 0 || strlen(rest) != 6) continue;
    if (kill(owner, 0) == 0 || errno != ESRCH) continue;
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()) hg_tool_remove_tree(path);
  }
  closedir(d);
}

static char stale_tmp[4096];
static void remove_stale_once(void) { remove_stale_dirs(stale_tmp); }

bool hg_tool_tmpdir(char *dir, size_t size, char **log) {
  const char *tmp = getenv("TMPDIR");
  static pthread_once_t stale_once = PTHREAD_ONCE_INIT;
  snprintf(stale_tmp, sizeof stale_tmp, "%s", tmp && tmp[0] ? tmp : "/tmp");
  pthread_once(&stale_once, remove_stale_once);
  snprintf(dir, size, "%s/hetgpu-cl-%d-XXXXXX", tmp && tmp[0] ? tmp : "/tmp", (int)getpid());
  if (mkdtemp(dir)) return true;
  hg_log_append(log, "error: cannot create a temporary directory: %s", strerror(errno));
  return false;
}

/* The tools' bounds: HETGPU_COMPILE_TIMEOUT seconds of wall time (default 300) and
 * HETGPU_COMPILE_MEMORY MiB of address space (default 8192); 0 lifts either. A source that
 * includes a FIFO, a macro bomb or a module that sends a tool into a loop fails its build
 * instead of holding the application. */
static long setting(const char *name, long def) {
  const char *s = getenv(name);
  char *end;
  long v = s && *s ? strtol(s, &end, 10) : def;
  return s && *s && (*end || v < 0) ? def : v;
}

void hg_tool_limits_read(hg_tool_limits *limits) {
  limits->timeout_s = setting("HETGPU_COMPILE_TIMEOUT", 300);
  limits->memory_mib = setting("HETGPU_COMPILE_MEMORY", 8192);
}

pid_t hg_tool_spawn(char *const argv[], int stdin_fd, const hg_tool_limits *limits, const char *what, int *out_fd,
                    char **log) {
  /* the child's failure message, prepared before fork (only async-signal-safe calls after it) */
  char cannot[160];
  int cannot_len = snprintf(cannot, sizeof cannot, "error: cannot run %s\n", what);
  if (cannot_len < 0 || cannot_len >= (int)sizeof cannot) cannot_len = (int)sizeof cannot - 1;
  long memory_mib = limits->memory_mib;
  int pfd[2];
  if (pipe2(pfd, O_CLOEXEC) != 0) return -1;
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (memory_mib > 0) {
      struct rlimit rl = {(rlim_t)memory_mib << 20, (rlim_t)memory_mib << 20};
      setrlimit(RLIMIT_AS, &rl);
    }
    int in = stdin_fd >= 0 ? stdin_fd : open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(pfd[1], 1) < 0 || dup2(pfd[1], 2) < 0) _exit(127);
    for (int fd = 0; fd < 3; fd++) fcntl(fd, F_SETFD, 0); /* dup2 onto itself keeps close-on-exec */
    execve(argv[0], argv, environ);
    if (write(2, cannot, (size_t)cannot_len) < 0) _exit(127);
    _exit(127);
  }
  close(pfd[1]);
  if (pid < 0) {
    close(pfd[0]);
    hg_log_append(log, "error: cannot run %s '%s': %s", what, argv[0], strerror(errno));
    return -1;
  }
  *out_fd = pfd[0];
  return pid;
}

int hg_tool_collect(pid_t pid, int out_fd, const hg_tool_limits *limits, const char *what, char **log,
                    bool *timed_out) {
  *timed_out = false;
  long timeout_s = limits->timeout_s;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  /* the output is appended to *log in place: cap is its capacity less the terminator */
  size_t n = *log ? strlen(*log) : 0, cap = n + 4096;
  char *buf = realloc(*log, cap + 1);
  if (buf) *log = buf;
  for (;;) {
    int wait_ms = -1;
    if (timeout_s > 0) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      long long left = (long long)timeout_s * 1000 - ((now.tv_sec - start.tv_sec) * 1000LL +
                                                      (now.tv_nsec - start.tv_nsec) / 1000000);
      if (left <= 0) {
        kill(pid, SIGKILL);
        *timed_out = true;
        break;
      }
      wait_ms = left > 1000000 ? 1000000 : (int)left;
    }
    struct pollfd pf = {.fd = out_fd, .events = POLLIN};
    int ready = poll(&pf, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    if (ready == 0) continue; /* the deadline is checked above */
    char sink[4096], *to = sink;
    size_t room = sizeof sink;
    if (buf) {
      if (n + 4096 > cap) {
        char *nb = realloc(*log, (cap *= 2) + 1);
        if (nb) *log = nb;
      }
      if (n + 4096 <= cap) {
        to = *log + n;
        room = cap - n;
      }
    }
    ssize_t r = read(out_fd, to, room);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    if (to != sink) n += (size_t)r;
  }
  if (buf) (*log)[n] = 0;
  close(out_fd);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (*timed_out) hg_log_append(log, "error: %s did not finish within %ld s (HETGPU_COMPILE_TIMEOUT)", what, timeout_s);
  return status;
}

int hg_tool_run(char *const argv[], const char *what, char **log, bool *timed_out) {
  *timed_out = false;
  hg_tool_limits limits;
  hg_tool_limits_read(&limits);
  int status = hg_tool_run_warm(argv, &limits, what, log, timed_out);
  if (status != HG_TOOL_NOT_WARM) return status;
  int out_fd;
  pid_t pid = hg_tool_spawn(argv, -1, &limits, what, &out_fd, log);
  return pid < 0 ? -1 : hg_tool_collect(pid, out_fd, &limits, what, log, timed_out);
}

bool hg_tool_succeeded(int status, bool timed_out, const char *what, char **log) {
  if (status == -1 || timed_out) return false;
  if (WIFSIGNALED(status)) {
    hg_log_append(log, "error: %s stopped on signal %d", what, WTERMSIG(status));
    return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
