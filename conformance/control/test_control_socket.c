/* The control socket end to end: starts control_workload (an OpenCL program on hetGPU that
 * checks its own results) with HETGPU_CONTROL_DIR set to a fresh directory, and talks to it
 * with hetgpu-ctl and with raw sockets while its loop runs: list, ping, refused peers,
 * malformed requests, a silent client, then migrations riscv <-> vendor:Portable and a
 * checkpoint. The workload's own checks must still pass at the end.
 *
 * usage: test_control_socket WORKLOAD HETGPU_CTL */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed, skipped;

#define EXPECT(cond, ...)                               \
  do {                                                  \
    if (cond) {                                         \
      passed++;                                         \
    } else {                                            \
      failed++;                                         \
      fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                     \
      fprintf(stderr, "\n");                            \
    }                                                   \
  } while (0)

static const char *ctl_path;
static char dir[64];
static char socket_path[128];
static pid_t workload;

/* ---- the workload's stdout, read by its own thread so the pipe never fills ---- */

static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress_cond = PTHREAD_COND_INITIALIZER;
static unsigned iterations_seen, iterations_failed;
static bool ready, finished, skip_all, done_line_ok;

static void *read_workload(void *arg) {
  FILE *out = arg;
  char line[512];
  while (fgets(line, sizeof line, out)) {
    pthread_mutex_lock(&progress_lock);
    if (!strncmp(line, "ready ", 6))
      ready = true;
    else if (!strncmp(line, "skip ", 5))
      skip_all = true;
    else if (!strncmp(line, "iteration ", 10)) {
      iterations_seen++;
      iterations_failed += strstr(line, "FAILED") != NULL;
    } else if (!strncmp(line, "done ", 5))
      done_line_ok = strstr(line, " 0 failed") != NULL;
    if (strncmp(line, "iteration ", 10) != 0)
      fprintf(stderr, "workload: %s", line);
    pthread_cond_broadcast(&progress_cond);
    pthread_mutex_unlock(&progress_lock);
  }
  pthread_mutex_lock(&progress_lock);
  finished = true;
  pthread_cond_broadcast(&progress_cond);
  pthread_mutex_unlock(&progress_lock);
  fclose(out);
  return NULL;
}

/* Waits until `more` iterations beyond the present count have been checked (or the workload
 * ended); returns whether they were. */
static bool wait_iterations(unsigned more) {
  pthread_mutex_lock(&progress_lock);
  unsigned target = iterations_seen + more;
  while (iterations_seen < target && !finished)
    pthread_cond_wait(&progress_cond, &progress_lock);
  bool ok = iterations_seen >= target;
  pthread_mutex_unlock(&progress_lock);
  return ok;
}

/* ---- running hetgpu-ctl ---- */

/* Runs hetgpu-ctl with the arguments (NULL-terminated) in `cwd`; its stdout and stderr
 * together go to out. Returns its exit status (-1 when it did not exit normally). */
static int run_ctl(char *out, size_t cap, const char *cwd, ...) {
  const char *argv[16] = {ctl_path};
  va_list ap;
  va_start(ap, cwd);
  int argc = 1;
  for (const char *a; argc < 15 && (a = va_arg(ap, const char *));)
    argv[argc++] = a;
  va_end(ap);
  argv[argc] = NULL;
  int pipefd[2];
  if (pipe(pipefd) != 0)
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    close(pipefd[1]);
    if (cwd && chdir(cwd) != 0)
      _exit(127);
    execv(ctl_path, (char *const *)argv);
    _exit(127);
  }
  close(pipefd[1]);
  size_t got = 0;
  for (ssize_t n; (n = read(pipefd[0], out + got, cap - 1 - got)) > 0 || (n < 0 && errno == EINTR);)
    got += n > 0 ? (size_t)n : 0;
  out[got] = '\0';
  close(pipefd[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  fprintf(stderr, "$ hetgpu-ctl");
  for (int i = 1; i < argc; i++)
    fprintf(stderr, " %s", argv[i]);
  fprintf(stderr, "  -> %d\n%s", WIFEXITED(status) ? WEXITSTATUS(status) : -1, out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- raw requests ---- */

static int connect_socket(const char *path) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path)
    return -1;
  memcpy(addr.sun_path, path, strlen(path) + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  struct timeval tv = {.tv_sec = 30}; /* the test must end even if the listener misbehaves */
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

/* Reads until the other side closes; returns the bytes read (-1 on an error). */
static ssize_t read_all(int fd, char *buf, size_t cap) {
  size_t got = 0;
  for (;;) {
    ssize_t n = recv(fd, buf + got, cap - 1 - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      buf[got] = '\0';
      return errno == ECONNRESET ? (ssize_t)got : -1;
    }
    if (n == 0 || got + (size_t)n == cap - 1) {
      got += (size_t)n;
      buf[got] = '\0';
      return (ssize_t)got;
    }
    got += (size_t)n;
  }
}

/* Sends `len` raw bytes (then ends the sending side) and returns the reply. */
static ssize_t raw_request(const char *bytes, size_t len, char *reply, size_t cap) {
  int fd = connect_socket(socket_path);
  if (fd < 0)
    return -1;
  for (size_t sent = 0; sent < len;) {
    ssize_t n = send(fd, bytes + sent, len - sent, MSG_NOSIGNAL);
    if (n <= 0)
      break; /* the listener may close on a too-long line: its reply is still there to read */
    sent += (size_t)n;
  }
  shutdown(fd, SHUT_WR);
  ssize_t n = read_all(fd, reply, cap);
  close(fd);
  return n;
}

/* ---- the checks ---- */

static void check_socket_files(void) {
  struct stat st;
  EXPECT(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700, "directory mode 0700");
  EXPECT(lstat(socket_path, &st) == 0 && S_ISSOCK(st.st_mode) && (st.st_mode & 0777) == 0600 && st.st_uid == geteuid(),
         "%s is a socket of mode 0600 owned by us", socket_path);
}

static void check_list_and_ping(void) {
  char out[65536], want[64];
  EXPECT(run_ctl(out, sizeof out, NULL, "list", NULL) == 0, "list exits 0");
  snprintf(want, sizeof want, "pid %ld: ", (long)workload);
  EXPECT(strstr(out, want) && strstr(out, "control_workload"), "list names the workload and its command line");
  EXPECT(strstr(out, "  context id=") && strstr(out, " buffers=4 ") && strstr(out, " programs=1 ") &&
             strstr(out, " kernels=2 ") && strstr(out, " queues=1 "),
         "list shows the context with 4 buffers, 1 program, 2 kernels, 1 queue");
  EXPECT(strstr(out, "  backend index=0 kind="), "list shows the backends");
  char pid[24];
  snprintf(pid, sizeof pid, "%ld", (long)workload);
  EXPECT(run_ctl(out, sizeof out, NULL, "ping", pid, NULL) == 0 && strstr(out, "pid ") && strstr(out, pid), "ping");
}

static void check_stale_socket(void) {
  /* A socket nobody listens on any more, as a crashed process leaves it. */
  char path[160], out[65536];
  snprintf(path, sizeof path, "%s/999999999.sock", dir);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, path, strlen(path) + 1); /* dir is short: mkdtemp of a fixed template */
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  EXPECT(fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0, "stale socket made");
  close(fd);
  EXPECT(run_ctl(out, sizeof out, NULL, "list", NULL) == 0 && strstr(out, "pid 999999999: stale socket"),
         "list reports the stale socket and still lists the live process");
  EXPECT(run_ctl(out, sizeof out, NULL, "ping", "999999999", NULL) == 2 && strstr(out, "stale"), "ping to a stale socket exits 2");
  unlink(path);
}

static void check_bad_requests(void) {
  static const char *bad[] = {
      "frobnicate\n", "ping extra\n", "PING\n", "migrate\n", "migrate 0 riscv\n", "migrate -1 riscv\n",
      "migrate 18446744073709551616 riscv\n", "migrate all riscv 99999999999\n", "migrate all ri$cv\n",
      "checkpoint all relative.ckpt\n", "\n", "ping\r\n", "ping\nping\n",
  };
  char reply[8192];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ssize_t n = raw_request(bad[i], strlen(bad[i]), reply, sizeof reply);
    EXPECT(n > 0 && !strncmp(reply, "error -30 ", 10) && strchr(reply, '\n'), "garbage %zu gets error -30: %s", i, reply);
  }
  ssize_t n = raw_request("pi\0ng\n", 6, reply, sizeof reply);
  EXPECT(n > 0 && !strncmp(reply, "error -30 ", 10), "embedded NUL: %s", reply);
  n = raw_request("ping", 4, reply, sizeof reply);
  EXPECT(n > 0 && !strncmp(reply, "error -30 ", 10), "no newline before the end: %s", reply);
  static char big[20000];
  memset(big, 'x', sizeof big);
  big[sizeof big - 1] = '\n';
  n = raw_request(big, sizeof big, reply, sizeof reply);
  EXPECT(n > 0 && !strncmp(reply, "error -30 ", 10) && strstr(reply, "4096"), "20000-byte line: %s", reply);
  n = raw_request("migrate all nosuchbackend\n", 26, reply, sizeof reply);
  EXPECT(n > 0 && !strncmp(reply, "error -7100 ", 12), "unknown backend: %s", reply);
  n = raw_request("migrate 999999 riscv\n", 21, reply, sizeof reply);
  EXPECT(n > 0 && !strncmp(reply, "error ", 6), "unknown context: %s", reply);

  char out[65536], pid[24];
  snprintf(pid, sizeof pid, "%ld", (long)workload);
  EXPECT(run_ctl(out, sizeof out, NULL, "migrate", pid, "nosuchbackend", NULL) == 1 && strstr(out, "error -7100"),
         "hetgpu-ctl exits 1 on an error reply");
  EXPECT(run_ctl(out, sizeof out, NULL, "ping", "2147483647", NULL) == 2, "no such process exits 2");
  EXPECT(run_ctl(out, sizeof out, NULL, "ping", "12abc", NULL) == 2, "bad pid exits 2");
  EXPECT(run_ctl(out, sizeof out, NULL, "migrate", pid, "riscv", "--timeout", "-1", NULL) == 2, "bad timeout exits 2");
  EXPECT(run_ctl(out, sizeof out, NULL, "migrate", pid, "riscv", "--context", "0", NULL) == 2, "context 0 exits 2");
  EXPECT(run_ctl(out, sizeof out, NULL, "frobnicate", NULL) == 2, "unknown command exits 2");
  EXPECT(run_ctl(out, sizeof out, NULL, NULL) == 2, "no command exits 2");
}

/* A client that connects and says nothing holds the listener for at most the deadline: a
 * request behind it is still answered, and the silent one gets an error. */
static void check_silent_client(void) {
  int silent = connect_socket(socket_path);
  EXPECT(silent >= 0, "silent client connected");
  char out[65536], pid[24];
  snprintf(pid, sizeof pid, "%ld", (long)workload);
  EXPECT(run_ctl(out, sizeof out, NULL, "ping", pid, NULL) == 0, "ping behind a silent client");
  char reply[1024];
  ssize_t n = silent >= 0 ? read_all(silent, reply, sizeof reply) : -1;
  EXPECT(n > 0 && !strncmp(reply, "error -30 ", 10), "the silent client gets an error");
  if (silent >= 0)
    close(silent);
}

/* Another uid is refused by the listener itself (SO_PEERCRED). The directory and socket are
 * opened up for the duration so that the file-system checks do not stop the peer first. */
static void check_other_uid(void) {
  if (geteuid() != 0) {
    fprintf(stderr, "skip: the other-uid check needs root\n");
    skipped++;
    return;
  }
  chmod(dir, 0711);
  chmod(socket_path, 0666);
  pid_t child = fork();
  if (child == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0)
      _exit(10);
    int fd = connect_socket(socket_path);
    if (fd < 0)
      _exit(11);
    send(fd, "ping\n", 5, MSG_NOSIGNAL);
    char reply[256];
    ssize_t n = read_all(fd, reply, sizeof reply);
    _exit(n == 0 ? 0 : 12); /* closed without a byte of reply */
  }
  int status = -1;
  waitpid(child, &status, 0);
  chmod(socket_path, 0600);
  chmod(dir, 0700);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "uid 65534 is closed without a reply (child status %d)",
         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static bool has_backend(const char *kind) {
  char out[65536], want[64];
  snprintf(want, sizeof want, " kind=%s ", kind);
  return run_ctl(out, sizeof out, NULL, "list", NULL) == 0 && strstr(out, want);
}

static void check_migrate_and_checkpoint(void) {
  char out[65536], pid[24];
  snprintf(pid, sizeof pid, "%ld", (long)workload);
  if (!has_backend("riscv")) {
    fprintf(stderr, "skip: no riscv backend to migrate to\n");
    skipped++;
  } else {
    EXPECT(run_ctl(out, sizeof out, NULL, "migrate", pid, "riscv", "--timeout", "60000", NULL) == 0 &&
               strstr(out, "report source="),
           "migrate to riscv");
    EXPECT(run_ctl(out, sizeof out, NULL, "list", NULL) == 0 && strstr(out, "backend-name=riscv"),
           "the context runs on riscv");
    EXPECT(wait_iterations(3), "the workload goes on after the migration");
    EXPECT(run_ctl(out, sizeof out, NULL, "migrate", pid, "vendor:Portable", NULL) == 0 && strstr(out, "report "),
           "migrate back to vendor:Portable");
    EXPECT(run_ctl(out, sizeof out, NULL, "list", NULL) == 0 && strstr(out, "backend-name=vendor:") &&
               strstr(out, "migrations=2 "),
           "the context runs on the vendor again, after 2 migrations");
    EXPECT(wait_iterations(3), "the workload goes on after the second migration");
  }
  /* A relative path is made absolute against hetgpu-ctl's cwd, not the workload's. */
  char ckpt[128];
  snprintf(ckpt, sizeof ckpt, "%s/state.ckpt", dir);
  EXPECT(run_ctl(out, sizeof out, dir, "checkpoint", pid, "state.ckpt", "--timeout", "60000", NULL) == 0 &&
             strstr(out, ckpt),
         "checkpoint to a relative path");
  struct stat st;
  EXPECT(stat(ckpt, &st) == 0 && st.st_size > 0, "the checkpoint file exists");
  unlink(ckpt);
  EXPECT(wait_iterations(2), "the workload goes on after the checkpoint");
}

static const char *workload_path;
static int to_workload = -1;
static pthread_t reader;

/* Binds and closes a socket at path: what a process that died leaves behind. */
static bool make_stale_socket(const char *path) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path)
    return false;
  memcpy(addr.sun_path, path, strlen(path) + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
  if (fd >= 0)
    close(fd);
  return ok;
}

/* Starts the workload and waits for its first checked iteration. The child waits for a byte
 * before exec, so that a stale socket with its pid can be put in its way first. Returns
 * whether it runs (false also when it skipped: no hetGPU platform). */
static bool launch_workload(bool stale_socket_first) {
  pthread_mutex_lock(&progress_lock);
  iterations_seen = iterations_failed = 0;
  ready = finished = skip_all = done_line_ok = false;
  pthread_mutex_unlock(&progress_lock);
  int in[2], out[2], go[2];
  if (pipe(in) != 0 || pipe(out) != 0 || pipe(go) != 0)
    return false;
  workload = fork();
  if (workload == 0) {
    char byte;
    close(go[1]);
    if (read(go[0], &byte, 1) != 1)
      _exit(126);
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(go[0]);
    execl(workload_path, workload_path, (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(go[0]);
  to_workload = in[1];
  snprintf(socket_path, sizeof socket_path, "%s/%ld.sock", dir, (long)workload);
  if (stale_socket_first)
    EXPECT(make_stale_socket(socket_path), "a stale socket with the workload's pid");
  if (write(go[1], "g", 1) != 1)
    perror("starting the workload");
  close(go[1]);
  pthread_create(&reader, NULL, read_workload, fdopen(out[0], "r"));
  pthread_mutex_lock(&progress_lock);
  while (!ready && !finished && !skip_all)
    pthread_cond_wait(&progress_cond, &progress_lock);
  bool started = ready;
  pthread_mutex_unlock(&progress_lock);
  if (!started && !skip_all)
    EXPECT(false, "the workload did not start");
  return started;
}

/* Closes the workload's stdin (its signal to stop) and checks that its own checks passed. */
static void finish_workload(void) {
  close(to_workload);
  int status = -1;
  waitpid(workload, &status, 0);
  pthread_join(reader, NULL);
  if (!skip_all)
    EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0 && done_line_ok && iterations_failed == 0,
           "the workload's own checks passed (%u iterations, %u failed)", iterations_seen, iterations_failed);
  struct stat st;
  EXPECT(lstat(socket_path, &st) != 0 && errno == ENOENT, "no socket file after the workload's exit");
  unlink(socket_path);
}

/* Settings that leave the process without a socket: it runs the same. */
static void check_no_socket(const char *what) {
  if (!launch_workload(false))
    return;
  struct stat st;
  EXPECT(lstat(socket_path, &st) != 0 && errno == ENOENT, "%s: no socket", what);
  finish_workload();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_control_socket WORKLOAD HETGPU_CTL\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  static char ctl_abs[PATH_MAX];
  if (!realpath(argv[2], ctl_abs)) { /* run_ctl changes directory before exec */
    perror(argv[2]);
    return 1;
  }
  ctl_path = ctl_abs;
  workload_path = argv[1];
  snprintf(dir, sizeof dir, "/tmp/hg-control-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  setenv("HETGPU_CONTROL_DIR", dir, 1);
  unsetenv("HETGPU_CONTROL");

  if (launch_workload(true)) {
    check_socket_files(); /* the stale socket was replaced */
    check_list_and_ping();
    check_stale_socket();
    check_bad_requests();
    check_silent_client();
    check_other_uid();
    check_migrate_and_checkpoint();
    char out[65536], pid[24];
    snprintf(pid, sizeof pid, "%ld", (long)workload);
    EXPECT(run_ctl(out, sizeof out, NULL, "ping", pid, NULL) == 0, "the listener still answers at the end");
  }
  finish_workload();
  if (skip_all) {
    printf("0 passed, 0 failed (skipped: no hetGPU platform)\n");
    rmdir(dir);
    return 0;
  }

  setenv("HETGPU_CONTROL", "0", 1);
  check_no_socket("HETGPU_CONTROL=0");
  unsetenv("HETGPU_CONTROL");
  char link[80];
  snprintf(link, sizeof link, "%s-link", dir);
  EXPECT(symlink(dir, link) == 0, "symlink to the directory");
  setenv("HETGPU_CONTROL_DIR", link, 1);
  check_no_socket("HETGPU_CONTROL_DIR is a symbolic link");
  unlink(link);
  setenv("HETGPU_CONTROL_DIR", dir, 1);
  chmod(dir, 0755);
  check_no_socket("the directory is open to others");
  chmod(dir, 0700);

  rmdir(dir);
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
