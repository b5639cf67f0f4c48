/* hetgpu-ctl: moves running hetGPU applications between backends, from outside. A plain client
 * of the control socket every process using hetGPU listens on (docs/control-socket.md); it
 * links neither the driver nor OpenCL.
 *
 *   hetgpu-ctl list
 *   hetgpu-ctl ping PID
 *   hetgpu-ctl migrate PID BACKEND [--context ID] [--timeout MS] [--at WHERE]
 *   hetgpu-ctl checkpoint PID PATH [--context ID] [--timeout MS] [--at WHERE]
 *
 * Exit status: 0 the process answered ok, 1 it answered with an error, 2 usage or connection
 * errors. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define EXIT_OK 0
#define EXIT_ERROR_REPLY 1
#define EXIT_USAGE 2
#define MAX_REQUEST 4096         /* the socket's limit, newline included */
#define MAX_REPLY (1u << 20)     /* a reply larger than this is not from hetGPU */
#define QUICK_REPLY_TIMEOUT_S 10 /* list and ping answer at once */

static void usage(void) {
  fprintf(stderr,
          "usage: hetgpu-ctl list\n"
          "       hetgpu-ctl ping PID\n"
          "       hetgpu-ctl migrate PID BACKEND [--context ID] [--timeout MS] [--at WHERE]\n"
          "       hetgpu-ctl checkpoint PID PATH [--context ID] [--timeout MS] [--at WHERE]\n"
          "BACKEND as in HETGPU_BACKEND: riscv, vendor:NAME (NAME: part of the platform or device name).\n"
          "Without --context every context of the process is moved; without --timeout the process\n"
          "waits for running commands as long as it takes. WHERE running kernels stop:\n"
          "safe-point-or-boundary (migrate's default: at their next safe point, or when they end if they\n"
          "cannot stop inside), safe-point (fail after the timeout), boundary (when they end; checkpoint's\n"
          "default).\n");
}

/* The socket directories, in the order the driver tries them: HETGPU_CONTROL_DIR alone when it
 * is set, else $XDG_RUNTIME_DIR/hetgpu and then /tmp/hetgpu-<uid>. */
typedef struct socket_dir {
  char path[PATH_MAX];
} socket_dir;

static int socket_dirs(socket_dir dirs[2]) {
  const char *chosen = getenv("HETGPU_CONTROL_DIR");
  if (chosen && *chosen) {
    snprintf(dirs[0].path, PATH_MAX, "%s", chosen);
    return 1;
  }
  int n = 0;
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  if (runtime && runtime[0] == '/' && snprintf(dirs[n].path, PATH_MAX, "%s/hetgpu", runtime) < PATH_MAX)
    n++;
  snprintf(dirs[n++].path, PATH_MAX, "/tmp/hetgpu-%lu", (unsigned long)geteuid());
  return n;
}

static bool parse_number(const char *text, unsigned long long max, unsigned long long *out) {
  if (!text || text[0] < '0' || text[0] > '9')
    return false;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno == ERANGE || *end != '\0' || v > max)
    return false;
  *out = v;
  return true;
}

typedef enum connect_result { CONNECTED, NO_SOCKET, STALE, CONNECT_FAILED } connect_result;

static connect_result connect_path(const char *path, int *fd_out) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path) {
    errno = ENAMETOOLONG;
    return CONNECT_FAILED;
  }
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return CONNECT_FAILED;
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    int e = errno;
    close(fd);
    errno = e;
    return e == ENOENT ? NO_SOCKET : e == ECONNREFUSED ? STALE : CONNECT_FAILED;
  }
  *fd_out = fd;
  return CONNECTED;
}

/* Finds and connects to the socket of `pid`; prints why not. */
static bool connect_pid(unsigned long long pid, int *fd) {
  socket_dir dirs[2];
  int ndirs = socket_dirs(dirs);
  for (int i = 0; i < ndirs; i++) {
    char path[PATH_MAX + 32];
    if (snprintf(path, sizeof path, "%s/%llu.sock", dirs[i].path, pid) >= (int)sizeof path)
      continue;
    switch (connect_path(path, fd)) {
    case CONNECTED: return true;
    case NO_SOCKET: continue;
    case STALE: fprintf(stderr, "hetgpu-ctl: %s is stale: process %llu is gone\n", path, pid); return false;
    case CONNECT_FAILED: fprintf(stderr, "hetgpu-ctl: cannot connect to %s: %s\n", path, strerror(errno)); return false;
    }
  }
  fprintf(stderr, "hetgpu-ctl: process %llu has no hetGPU control socket (in %s%s%s)\n", pid, dirs[0].path,
          ndirs > 1 ? " or " : "", ndirs > 1 ? dirs[1].path : "");
  return false;
}

/* Sends one request and reads the whole reply (until the process closes the connection).
 * Returns the malloc'd NUL-terminated reply, or NULL with a message printed. */
static char *exchange(int fd, const char *request, unsigned timeout_s) {
  struct timeval tv = {.tv_sec = timeout_s};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  size_t len = strlen(request);
  for (size_t sent = 0; sent < len;) {
    ssize_t n = send(fd, request + sent, len - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      fprintf(stderr, "hetgpu-ctl: sending the request failed: %s\n", strerror(errno));
      return NULL;
    }
    sent += (size_t)n;
  }
  size_t cap = 4096, got = 0;
  char *text = malloc(cap);
  while (text) {
    if (got + 1 == cap) {
      if (cap >= MAX_REPLY) {
        fprintf(stderr, "hetgpu-ctl: the reply is larger than %u bytes\n", MAX_REPLY);
        break;
      }
      char *grown = realloc(text, cap * 2);
      if (!grown)
        break;
      text = grown;
      cap *= 2;
    }
    ssize_t n = recv(fd, text + got, cap - 1 - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      fprintf(stderr, "hetgpu-ctl: no reply: %s\n",
              errno == EAGAIN || errno == EWOULDBLOCK ? "timed out" : strerror(errno));
      break;
    }
    if (n == 0) {
      text[got] = '\0';
      if (got == 0 || memchr(text, '\0', got)) {
        fprintf(stderr, "hetgpu-ctl: the process closed the connection without %s\n",
                got ? "a valid reply" : "replying (not permitted?)");
        break;
      }
      return text;
    }
    got += (size_t)n;
  }
  free(text);
  return NULL;
}

/* The reply's first line decides the exit status; control characters are not echoed. */
static int print_reply(const char *reply, const char *indent) {
  bool ok = !strncmp(reply, "ok\n", 3);
  bool error = !strncmp(reply, "error ", 6);
  if (!ok && !error) {
    fprintf(stderr, "hetgpu-ctl: the reply is not from hetGPU's control socket\n");
    return EXIT_USAGE;
  }
  FILE *out = ok ? stdout : stderr;
  const char *line = ok ? reply + 3 : reply;
  for (; *line; line++) {
    if (line == reply || line[-1] == '\n')
      fputs(indent, out);
    fputc((*line >= 0x20 && *line <= 0x7e) || *line == '\n' ? *line : '?', out);
  }
  return ok ? EXIT_OK : EXIT_ERROR_REPLY;
}

static int request_pid(unsigned long long pid, const char *request, unsigned timeout_s) {
  int fd;
  if (!connect_pid(pid, &fd))
    return EXIT_USAGE;
  char *reply = exchange(fd, request, timeout_s);
  close(fd);
  if (!reply)
    return EXIT_USAGE;
  int status = print_reply(reply, "");
  free(reply);
  return status;
}

static void print_cmdline(const char *pid) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  while (n && buf[n - 1] == '\0')
    n--;
  for (size_t i = 0; i < n; i++)
    if (buf[i] < 0x20 || buf[i] > 0x7e)
      buf[i] = buf[i] == '\0' ? ' ' : '?';
  buf[n] = '\0';
  printf("%s", n ? buf : "?");
}

static bool is_socket_name(const char *name, char *pid, size_t cap) {
  size_t digits = strspn(name, "0123456789");
  if (digits == 0 || digits >= cap || strcmp(name + digits, ".sock") != 0)
    return false;
  memcpy(pid, name, digits);
  pid[digits] = '\0';
  return true;
}

static int list_all(void) {
  socket_dir dirs[2];
  int ndirs = socket_dirs(dirs), found = 0, failed = 0;
  for (int i = 0; i < ndirs; i++) {
    DIR *d = opendir(dirs[i].path);
    if (!d)
      continue;
    for (struct dirent *e; (e = readdir(d));) {
      char pid[24], path[PATH_MAX + 300]; /* a directory and a d_name */
      if (!is_socket_name(e->d_name, pid, sizeof pid))
        continue;
      if (snprintf(path, sizeof path, "%s/%s", dirs[i].path, e->d_name) >= (int)sizeof path)
        continue;
      int fd;
      connect_result c = connect_path(path, &fd);
      if (c == NO_SOCKET) /* the process exited since the directory was read */
        continue;
      if (c == STALE) {
        printf("pid %s: stale socket %s (the process is gone)\n", pid, path);
        continue;
      }
      if (c != CONNECTED) {
        printf("pid %s: cannot connect to %s: %s\n", pid, path, strerror(errno));
        failed++;
        continue;
      }
      found++;
      printf("pid %s: ", pid);
      print_cmdline(pid);
      printf("\n");
      fflush(stdout);
      char *reply = exchange(fd, "list\n", QUICK_REPLY_TIMEOUT_S);
      close(fd);
      if (!reply || print_reply(reply, "  ") != EXIT_OK)
        failed++;
      free(reply);
      fflush(stdout);
    }
    closedir(d);
  }
  if (!found && !failed)
    printf("no hetGPU process found\n");
  return failed ? EXIT_USAGE : EXIT_OK;
}

/* migrate/checkpoint PID ARG [--context ID] [--timeout MS] */
static int migrate_or_checkpoint(const char *verb, int argc, char **argv) {
  unsigned long long pid, context = 0, timeout_ms = 0;
  bool has_timeout = false;
  const char *at = NULL;
  if (argc < 4 || !parse_number(argv[2], INT_MAX, &pid) || pid == 0) {
    usage();
    return EXIT_USAGE;
  }
  for (int i = 4; i < argc; i += 2) {
    bool is_context = !strcmp(argv[i], "--context"), is_timeout = !strcmp(argv[i], "--timeout");
    bool is_at = !strcmp(argv[i], "--at");
    if ((!is_context && !is_timeout && !is_at) || i + 1 >= argc) {
      usage();
      return EXIT_USAGE;
    }
    if (is_at) {
      at = argv[i + 1];
      if (strcmp(at, "safe-point") && strcmp(at, "boundary") && strcmp(at, "safe-point-or-boundary")) {
        fprintf(stderr, "hetgpu-ctl: --at takes safe-point, boundary or safe-point-or-boundary\n");
        return EXIT_USAGE;
      }
      continue;
    }
    if (is_context && (!parse_number(argv[i + 1], UINT64_MAX, &context) || context == 0)) {
      fprintf(stderr, "hetgpu-ctl: --context takes a context id from `hetgpu-ctl list` (1 or more)\n");
      return EXIT_USAGE;
    }
    if (is_timeout && !parse_number(argv[i + 1], 86400000, &timeout_ms)) {
      fprintf(stderr, "hetgpu-ctl: --timeout takes milliseconds, 0 to 86400000\n");
      return EXIT_USAGE;
    }
    has_timeout |= is_timeout;
  }
  const char *arg = argv[3];
  char path[PATH_MAX];
  if (!strcmp(verb, "checkpoint") && arg[0] != '/') { /* the process has another cwd */
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || snprintf(path, sizeof path, "%s/%s", cwd, arg) >= (int)sizeof path) {
      fprintf(stderr, "hetgpu-ctl: cannot make %s absolute\n", arg);
      return EXIT_USAGE;
    }
    arg = path;
  }
  if (!*arg || strpbrk(arg, " \t\r\n")) {
    fprintf(stderr, "hetgpu-ctl: %s must be one word (no spaces)\n", argv[3]);
    return EXIT_USAGE;
  }
  char request[MAX_REQUEST + 64], ctx[24], timeout[24] = "", where[40] = "";
  snprintf(ctx, sizeof ctx, "%llu", context);
  if (has_timeout)
    snprintf(timeout, sizeof timeout, " %llu", timeout_ms);
  if (at)
    snprintf(where, sizeof where, " at=%s", at);
  int n = snprintf(request, sizeof request, "%s %s %s%s%s\n", verb, context ? ctx : "all", arg, timeout, where);
  if (n >= MAX_REQUEST) {
    fprintf(stderr, "hetgpu-ctl: the request is longer than %d bytes\n", MAX_REQUEST);
    return EXIT_USAGE;
  }
  /* The process answers when the work is done: give it the timeout and a minute more. */
  unsigned wait_s = has_timeout && timeout_ms ? (unsigned)(timeout_ms / 1000) + 60 : 0;
  return request_pid(pid, request, wait_s);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage();
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "list") && argc == 2)
    return list_all();
  if (!strcmp(cmd, "ping") && argc == 3) {
    unsigned long long pid;
    if (!parse_number(argv[2], INT_MAX, &pid) || pid == 0) {
      usage();
      return EXIT_USAGE;
    }
    return request_pid(pid, "ping\n", QUICK_REPLY_TIMEOUT_S);
  }
  if (!strcmp(cmd, "migrate") || !strcmp(cmd, "checkpoint"))
    return migrate_or_checkpoint(cmd, argc, argv);
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
    usage();
    return EXIT_OK;
  }
  usage();
  return EXIT_USAGE;
}
