/* The control socket (docs/control-socket.md): one Unix stream socket per process and one
 * detached listener thread that answers hetgpu-ctl. The listener serves one connection at a
 * time, one request per connection; every byte it receives is checked (the peer's uid, the
 * line's length and deadline, then platform/control_protocol.c) before anything runs. */
#include "platform/control_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "devices/backend.h"
#include "platform/control_protocol.h"
#include "platform/migrate.h"

#define REQUEST_DEADLINE_MS 5000 /* a silent or trickling client holds the listener no longer */
#define MAX_LISTED_CONTEXTS 65536 /* a list reply stays below ~30 MiB */

typedef struct sockaddr_un sockaddr_un;

/* Written once by start_once before owner_pid is published (release); read after. */
static char socket_path[sizeof(((sockaddr_un *)0)->sun_path)];
static dev_t socket_dev;
static ino_t socket_ino;
static int listen_fd = -1;
static atomic_int owner_pid;     /* 0 until the socket exists; a fork child is not the owner */
static atomic_bool stopping;     /* set at exit: the listener serves nothing more */
static pthread_once_t start_once_flag = PTHREAD_ONCE_INIT;

/* ---- the reply: text that grows as lines are added ---- */

typedef struct reply {
  char *text;
  size_t len, cap;
  bool failed; /* out of memory: the reply is cut short */
} reply;

static void reply_addf(reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_addf(reply *r, const char *fmt, ...) {
  if (r->failed)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->text ? r->text + r->len : NULL, r->text ? r->cap - r->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      r->failed = true;
      return;
    }
    if (r->text && (size_t)n < r->cap - r->len) {
      r->len += (size_t)n;
      return;
    }
    size_t cap = (r->cap ? r->cap * 2 : 1024) + (size_t)n;
    char *grown = realloc(r->text, cap);
    if (!grown) {
      r->failed = true;
      return;
    }
    r->text = grown;
    r->cap = cap;
  }
}

/* Names come from vendor drivers: one line each, printable ASCII only. */
static void reply_add_clean(reply *r, const char *s) {
  char buf[512];
  size_t n = 0;
  for (; *s && n < sizeof buf - 1; s++)
    buf[n++] = (*s >= 0x20 && *s <= 0x7e) ? *s : '?';
  buf[n] = '\0';
  reply_addf(r, "%s", buf);
}

static const char *error_text(cl_int err) {
  switch (err) {
  case CL_INVALID_CONTEXT: return "no live context with that id";
  case CL_INVALID_BACKEND_HETGPU: return "no such backend, or it is not available";
  case CL_MIGRATION_TIMEOUT_HETGPU: return "running commands did not stop in time; nothing moved";
  case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "the target could not allocate the buffers; nothing moved";
  case CL_BUILD_PROGRAM_FAILURE: return "a program did not build on the target; nothing moved";
  case CL_OUT_OF_HOST_MEMORY: return "out of host memory";
  case CL_INVALID_VALUE: return "invalid value";
  default: return "failed";
  }
}

/* ---- the actions ---- */

static void do_list(reply *r) {
  size_t cap = 16, n;
  hg_context_summary *sums = NULL;
  for (;;) { /* it fills at most cap: grow until one call leaves room to spare */
    hg_context_summary *grown = realloc(sums, cap * sizeof *sums);
    if (!grown) {
      free(sums);
      reply_addf(r, "error %d %s\n", CL_OUT_OF_HOST_MEMORY, error_text(CL_OUT_OF_HOST_MEMORY));
      return;
    }
    sums = grown;
    n = hg_contexts_summarize(sums, cap);
    if (n < cap || cap >= MAX_LISTED_CONTEXTS)
      break;
    cap *= 4;
  }
  reply_addf(r, "ok\n");
  for (unsigned i = 0; i < hg_backend_count(); i++) {
    const hg_backend *be = hg_backend_at(i);
    if (!be)
      continue;
    reply_addf(r, "backend index=%u kind=", i);
    reply_add_clean(r, be->ops->kind);
    reply_addf(r, " name=");
    reply_add_clean(r, be->name);
    reply_addf(r, "\n");
  }
  for (size_t i = 0; i < n; i++) {
    const hg_context_summary *s = &sums[i];
    reply_addf(r,
               "context id=%llu backend=%u buffers=%u bytes=%llu programs=%u kernels=%u queues=%u migrations=%u "
               "backend-name=",
               (unsigned long long)s->id, s->backend, s->buffers, (unsigned long long)s->bytes, s->programs,
               s->kernels, s->queues, s->migrations);
    char name[sizeof s->backend_name + 1];
    memcpy(name, s->backend_name, sizeof s->backend_name);
    name[sizeof s->backend_name] = '\0'; /* not trusting the terminator */
    reply_add_clean(r, name);
    reply_addf(r, "\n");
  }
  free(sums);
}

static void add_report(reply *r, const cl_migration_report_hetgpu *rep) {
  reply_addf(r,
             "report source=%u target=%u status=%d buffers=%u programs=%u kernels=%u stopped=%u bytes=%llu "
             "quiesce_ns=%llu capture_ns=%llu transfer_ns=%llu build_ns=%llu resume_ns=%llu total_ns=%llu "
             "prepare_ns=%llu downtime_ns=%llu\n",
             rep->source, rep->target, rep->status, rep->buffers, rep->programs, rep->kernels, rep->kernels_stopped,
             (unsigned long long)rep->bytes, (unsigned long long)rep->quiesce_ns,
             (unsigned long long)rep->capture_ns, (unsigned long long)rep->transfer_ns,
             (unsigned long long)rep->build_ns, (unsigned long long)rep->resume_ns,
             (unsigned long long)rep->total_ns, (unsigned long long)rep->prepare_ns,
             (unsigned long long)rep->downtime_ns);
}

/* The migration flags of a request's "at=" word. */
static cl_migration_flags_hetgpu stop_flags(hg_ctl_stop_at at) {
  switch (at) {
  case HG_CTL_AT_SAFE_POINT: return CL_MIGRATE_AT_SAFE_POINT_HETGPU;
  case HG_CTL_AT_BOUNDARY: return CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU;
  default: return CL_MIGRATE_AT_SAFE_POINT_HETGPU | CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU; /* and HG_CTL_AT_DEFAULT */
  }
}

static void do_migrate(reply *r, const hg_ctl_request *req) {
  hg_backend *target = hg_backend_find(req->backend);
  if (!target) {
    reply_addf(r, "error %d no backend matches %s\n", CL_INVALID_BACKEND_HETGPU, req->backend);
    return;
  }
  cl_migration_report_hetgpu rep;
  memset(&rep, 0, sizeof rep);
  cl_int err = hg_context_migrate_by_id(req->context_id, target, stop_flags(req->stop_at),
                                        (cl_ulong)req->timeout_ms * 1000000u, &rep);
  if (err == CL_SUCCESS)
    reply_addf(r, "ok\n");
  else
    reply_addf(r, "error %d %s\n", err, error_text(err));
  add_report(r, &rep);
}

static void do_checkpoint(reply *r, const hg_ctl_request *req) {
  cl_int err = hg_context_checkpoint_by_id(req->context_id, req->path,
                                           req->stop_at == HG_CTL_AT_BOUNDARY || req->stop_at == HG_CTL_AT_DEFAULT
                                               ? 0
                                               : CL_CHECKPOINT_AT_SAFE_POINT_HETGPU,
                                           (cl_ulong)req->timeout_ms * 1000000u);
  if (err == CL_SUCCESS)
    reply_addf(r, "ok\ncheckpoint path=%s\n", req->path);
  else
    reply_addf(r, "error %d %s\n", err, error_text(err));
}

/* ---- one connection ---- */

typedef enum read_status { READ_LINE, READ_TOO_LONG, READ_TIMEOUT, READ_UNTERMINATED, READ_EXTRA, READ_FAILED } read_status;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads one request line (its '\n' included) within the deadline. buf holds one byte more
 * than the longest line, so a line without its newline in time is recognised as too long. */
static read_status read_request(int fd, char *buf, size_t cap, size_t *len) {
  int64_t deadline = now_ms() + REQUEST_DEADLINE_MS;
  size_t got = 0;
  while (got < cap) {
    int64_t left = deadline - now_ms();
    if (left <= 0)
      return READ_TIMEOUT;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int ready = poll(&p, 1, (int)left);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return READ_FAILED;
    if (ready == 0)
      return READ_TIMEOUT;
    ssize_t n = recv(fd, buf + got, cap - got, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
      continue;
    if (n < 0)
      return READ_FAILED;
    if (n == 0)
      return READ_UNTERMINATED;
    const char *nl = memchr(buf + got, '\n', (size_t)n);
    got += (size_t)n;
    if (nl) {
      *len = (size_t)(nl - buf) + 1;
      return *len == got ? READ_LINE : READ_EXTRA;
    }
  }
  return READ_TOO_LONG;
}

static void send_all(int fd, const char *text, size_t len) {
  while (len) {
    ssize_t n = send(fd, text, len, MSG_NOSIGNAL); /* a client gone must not SIGPIPE the process */
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    text += n;
    len -= (size_t)n;
  }
}

static void serve(int fd) {
  struct ucred peer;
  socklen_t peer_len = sizeof peer;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &peer_len) != 0 || peer_len != sizeof peer) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: no peer credentials (%s); connection closed", strerror(errno));
    return;
  }
  if (peer.uid != geteuid() && peer.uid != 0) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: refused pid %ld uid %lu (only uid %lu or root may connect)",
           (long)peer.pid, (unsigned long)peer.uid, (unsigned long)geteuid());
    return;
  }
  struct timeval send_timeout = {.tv_sec = REQUEST_DEADLINE_MS / 1000};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);

  char line[HG_CTL_MAX_LINE + 1];
  size_t len = 0;
  reply r = {0};
  hg_ctl_request *req = NULL;
  const char *why = NULL;
  switch (read_request(fd, line, sizeof line, &len)) {
  case READ_LINE: break;
  case READ_TOO_LONG: why = "request longer than 4096 bytes"; break;
  case READ_TIMEOUT: why = "no complete request within 5 s"; break;
  case READ_UNTERMINATED: why = "request does not end in a newline"; break;
  case READ_EXTRA: why = "one request per connection"; break;
  case READ_FAILED: HG_LOG(HG_LOG_MIGRATE, "control socket: receive failed: %s", strerror(errno)); return;
  }
  if (!why) {
    req = malloc(sizeof *req);
    if (!req)
      why = "out of host memory";
    else if (hg_ctl_parse_request(line, len, req, &why))
      why = NULL; /* otherwise it says what is wrong */
  }
  if (why) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: pid %ld: bad request: %s", (long)peer.pid, why);
    reply_addf(&r, "error %d %s\n", CL_INVALID_VALUE, why);
  } else {
    HG_LOG(HG_LOG_MIGRATE, "control socket: pid %ld: %.*s", (long)peer.pid, (int)len - 1, line);
    switch (req->verb) {
    case HG_CTL_PING: reply_addf(&r, "ok\npid %ld\n", (long)getpid()); break;
    case HG_CTL_LIST: do_list(&r); break;
    case HG_CTL_MIGRATE: do_migrate(&r, req); break;
    case HG_CTL_CHECKPOINT: do_checkpoint(&r, req); break;
    }
  }
  if (r.failed) { /* the start of a reply may be "ok": never send a truncated one */
    r.len = 0;
    r.failed = false;
    reply_addf(&r, "error %d %s\n", CL_OUT_OF_HOST_MEMORY, error_text(CL_OUT_OF_HOST_MEMORY));
  }
  if (r.text)
    send_all(fd, r.text, r.len);
  free(r.text);
  free(req);
}

static void *listener_main(void *arg) {
  /* The application's signals go to its own threads; the mask was inherited full already, this
   * makes it so whoever starts the thread. */
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  pthread_setname_np(pthread_self(), "hetgpu-control");
  int fd = (int)(intptr_t)arg;
  for (;;) {
    int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
    if (atomic_load(&stopping)) {
      if (conn >= 0)
        close(conn);
      return NULL;
    }
    if (conn < 0) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
        continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        struct timespec pause = {.tv_nsec = 100 * 1000 * 1000}; /* out of descriptors: do not spin */
        nanosleep(&pause, NULL);
        continue;
      }
      HG_LOG(HG_LOG_MIGRATE, "control socket: accept failed (%s); listener ends", strerror(errno));
      return NULL;
    }
    serve(conn);
    close(conn);
  }
}

/* ---- setting up and taking down ---- */

/* The directory must be ours alone: a real directory (not a symlink), owned by us, mode 0700. */
static bool prepare_dir(const char *dir) {
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: cannot create %s: %s", dir, strerror(errno));
    return false;
  }
  struct stat st;
  if (lstat(dir, &st) != 0) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: cannot stat %s: %s", dir, strerror(errno));
    return false;
  }
  const char *bad = S_ISLNK(st.st_mode)        ? "is a symbolic link"
                    : !S_ISDIR(st.st_mode)      ? "is not a directory"
                    : st.st_uid != geteuid()    ? "is owned by another user"
                    : (st.st_mode & 0077) != 0 ? "is open to other users (mode must be 0700)"
                                                : NULL;
  if (bad) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: refusing %s: it %s", dir, bad);
    return false;
  }
  return true;
}

static bool choose_dir(char *dir, size_t cap) {
  const char *chosen = getenv("HETGPU_CONTROL_DIR");
  if (chosen && *chosen) { /* an explicit choice has no fallback */
    size_t n = strlen(chosen);
    while (n > 1 && chosen[n - 1] == '/') /* "dir/" would make lstat follow a symlink */
      n--;
    if (chosen[0] != '/' || n >= cap) {
      HG_LOG(HG_LOG_MIGRATE, "control socket: HETGPU_CONTROL_DIR must be an absolute path");
      return false;
    }
    memcpy(dir, chosen, n);
    dir[n] = '\0';
    return prepare_dir(dir);
  }
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  if (runtime && runtime[0] == '/') {
    int n = snprintf(dir, cap, "%s/hetgpu", runtime);
    if (n > 0 && (size_t)n < cap && prepare_dir(dir))
      return true;
  }
  snprintf(dir, cap, "/tmp/hetgpu-%lu", (unsigned long)geteuid());
  return prepare_dir(dir);
}

/* A socket left by a dead process that had our pid is removed; anything else is left alone. */
static bool clear_stale(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT;
  if (!S_ISSOCK(st.st_mode)) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: %s exists and is not a socket; not replacing it", path);
    return false;
  }
  int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (probe < 0)
    return false;
  sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, path, strlen(path) + 1);
  int rc = connect(probe, (struct sockaddr *)&addr, sizeof addr);
  int connect_errno = errno;
  close(probe);
  if (rc == 0 || connect_errno != ECONNREFUSED) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: %s is in use by a live process; not replacing it", path);
    return false;
  }
  HG_LOG(HG_LOG_MIGRATE, "control socket: removing the stale %s", path);
  return unlink(path) == 0 || errno == ENOENT;
}

static void start_once(void) {
  hg_log_init();
  const char *setting = getenv("HETGPU_CONTROL");
  if (setting && !strcmp(setting, "0")) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: off (HETGPU_CONTROL=0)");
    return;
  }
  char dir[PATH_MAX];
  if (!choose_dir(dir, sizeof dir))
    return;
  int n = snprintf(socket_path, sizeof socket_path, "%s/%ld.sock", dir, (long)getpid());
  if (n < 0 || (size_t)n >= sizeof socket_path) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: %s/<pid>.sock is longer than a socket address allows", dir);
    return;
  }
  if (!clear_stale(socket_path))
    return;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, socket_path, (size_t)n + 1);
  struct stat st;
  bool bound = false;
  /* Between bind and chmod the file has the umask's mode, but only we can enter the directory. */
  if (fd < 0 || !(bound = bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0) || chmod(socket_path, 0600) != 0 ||
      listen(fd, 16) != 0 || lstat(socket_path, &st) != 0) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: cannot listen on %s: %s", socket_path, strerror(errno));
    goto fail;
  }
  socket_dev = st.st_dev;
  socket_ino = st.st_ino;
  listen_fd = fd;

  /* The thread starts with every signal blocked, so none is ever delivered to it. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0)
    goto fail;
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int err = pthread_create(&thread, &attr, listener_main, (void *)(intptr_t)fd);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
  if (err != 0) {
    HG_LOG(HG_LOG_MIGRATE, "control socket: cannot start the listener: %s", strerror(err));
    goto fail;
  }
  atomic_store_explicit(&owner_pid, (int)getpid(), memory_order_release);
  HG_LOG(HG_LOG_MIGRATE, "control socket: listening on %s", socket_path);
  return;

fail:
  if (bound)
    unlink(socket_path);
  if (fd >= 0)
    close(fd);
  listen_fd = -1;
}

void hg_control_socket_start(void) { pthread_once(&start_once_flag, start_once); }

/* At exit (or unload) the socket file goes away and the listener stops accepting; the
 * descriptor stays open so that the thread, which may still be in accept, never sees a reused
 * number. A fork child (another pid) leaves its parent's socket alone. */
__attribute__((destructor)) static void control_socket_stop(void) {
  if (atomic_load_explicit(&owner_pid, memory_order_acquire) != (int)getpid())
    return;
  atomic_store(&stopping, true);
  struct stat st;
  if (lstat(socket_path, &st) == 0 && st.st_dev == socket_dev && st.st_ino == socket_ino)
    unlink(socket_path);
  shutdown(listen_fd, SHUT_RDWR);
}
