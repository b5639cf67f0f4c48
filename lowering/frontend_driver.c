/* Runs clang out of process on one OpenCL C translation unit, then translates its bitcode.
 *
 * The source goes into a private temporary directory (mkdtemp) behind a short prelude and a
 * `#line 1 "<source>"` directive, so diagnostics read "<source>:12:5: error: ..."; embedded
 * headers are written under it and found with -I. clang runs in a child process, its stdout and
 * stderr captured into the build log (temporary paths rewritten), within a time and a memory
 * limit, and dies with the application; it is always waited for. Every temporary file is
 * removed before returning (and a directory left by a killed process by the next one). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowering/frontend.h"
#include "lowering/frontend_prelude.h"
#include "lowering/llvm_translate.h"

extern char **environ;

#ifndef HETGPU_CLANG_DEFAULT
#define HETGPU_CLANG_DEFAULT "/usr/bin/clang-15"
#endif

const char *hg_frontend_clang_path(void) {
  const char *env = getenv("HETGPU_CLANG");
  return env && env[0] ? env : HETGPU_CLANG_DEFAULT;
}

/* The prelude before the user's code makes its #ifdefs see exactly the device: an OpenCL 3.0
 * device (__OPENCL_VERSION__, which clang leaves to the implementation) without images (the
 * spir64 target predefines __IMAGE_SUPPORT__), the macro of every device extension clang does not
 * know (cl_hetgpu_migrate, an API-only extension), and none of the feature macros and extensions
 * clang's opencl-c-base.h defines for SPIR that the device does not have. */
static const char k_prelude[] =
    "#define __OPENCL_VERSION__ 300\n#undef __IMAGE_SUPPORT__\n#define cl_hetgpu_migrate 1\n"
    "#undef cl_khr_subgroup_extended_types\n#undef cl_khr_subgroup_non_uniform_vote\n"
    "#undef cl_khr_subgroup_ballot\n#undef cl_khr_subgroup_non_uniform_arithmetic\n"
    "#undef cl_khr_subgroup_shuffle\n#undef cl_khr_subgroup_shuffle_relative\n"
    "#undef cl_khr_subgroup_clustered_reduce\n#undef cl_khr_subgroup_rotate\n"
    "#undef cl_khr_extended_bit_ops\n#undef cl_khr_integer_dot_product\n"
    "#undef __opencl_c_integer_dot_product_input_4x8bit\n"
    "#undef __opencl_c_integer_dot_product_input_4x8bit_packed\n#undef cl_ext_float_atomics\n"
    "#undef __opencl_c_ext_fp64_global_atomic_add\n#undef __opencl_c_ext_fp64_local_atomic_add\n"
    "#undef __opencl_c_ext_fp64_global_atomic_min_max\n#undef __opencl_c_ext_fp64_local_atomic_min_max\n"
    "#undef __opencl_c_ext_fp32_global_atomic_add\n#undef __opencl_c_ext_fp32_local_atomic_add\n"
    "#undef __opencl_c_ext_fp32_global_atomic_min_max\n#undef __opencl_c_ext_fp32_local_atomic_min_max\n"
    HG_PRELUDE_ASYNC_COPY;
static const char k_prelude_30[] =
    "#undef __opencl_c_work_group_collective_functions\n#undef __opencl_c_atomic_order_seq_cst\n"
    "#undef __opencl_c_atomic_scope_device\n#undef __opencl_c_atomic_scope_all_devices\n"
    "#undef __opencl_c_read_write_images\n";

static int write_file(const char *path, const char *a, const char *b, const char *c, const char *d) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  const char *parts[4] = {a, b, c, d};
  int rc = 0;
  for (int i = 0; i < 4 && rc == 0; i++) {
    size_t len = parts[i] ? strlen(parts[i]) : 0, off = 0;
    while (off < len) {
      ssize_t w = write(fd, parts[i] + off, len - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        rc = -1;
        break;
      }
      off += (size_t)w;
    }
  }
  if (close(fd) != 0) rc = -1;
  return rc;
}

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rbe");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    char *nb = realloc(buf, cap *= 2);
    if (!nb) {
      free(buf);
      buf = NULL;
    }
    buf = nb;
  }
  fclose(f);
  *size = n;
  return buf;
}

/* Removes a directory tree we created (no symlinks are followed: lstat). */
static void remove_tree(const char *path) {
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
        remove_tree(child);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

/* An embedded header's name must stay inside the include directory. */
static bool header_name_ok(const char *name) {
  return name && name[0] && name[0] != '/' && !strstr(name, "..");
}

static int make_parents(const char *dir, const char *name) {
  char path[8400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  for (char *p = path + strlen(dir) + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(path, 0700) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return 0;
}

/* Replaces every occurrence of `from` in *s by `to`. */
static void replace_all(char **s, const char *from, const char *to) {
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

/* The compiler's bounds: HETGPU_COMPILE_TIMEOUT seconds of wall time (default 300) and
 * HETGPU_COMPILE_MEMORY MiB of address space (default 8192); 0 lifts either. A source that
 * includes a FIFO or expands a macro bomb fails its build instead of holding the application. */
static long setting(const char *name, long def) {
  const char *s = getenv(name);
  char *end;
  long v = s && *s ? strtol(s, &end, 10) : def;
  return s && *s && (*end || v < 0) ? def : v;
}

/* Runs argv[0] with argv, its stdout and stderr appended to *log, within the bounds above; the
 * compiler dies with the thread that waits for it (the application killed: no clang left
 * behind). Returns the wait status or -1; *timed_out when it was killed for the time limit. */
static int run_capture(char *const argv[], char **log, bool *timed_out) {
  *timed_out = false;
  long timeout_s = setting("HETGPU_COMPILE_TIMEOUT", 300), memory_mib = setting("HETGPU_COMPILE_MEMORY", 8192);
  int pfd[2];
  if (pipe2(pfd, O_CLOEXEC) != 0) return -1;
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) { /* only async-signal-safe calls until execve */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (memory_mib > 0) {
      struct rlimit rl = {(rlim_t)memory_mib << 20, (rlim_t)memory_mib << 20};
      setrlimit(RLIMIT_AS, &rl);
    }
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(pfd[1], 1) < 0 || dup2(pfd[1], 2) < 0) _exit(127);
    execve(argv[0], argv, environ);
    static const char msg[] = "error: cannot run the OpenCL C compiler\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(127);
    _exit(127);
  }
  close(pfd[1]);
  if (pid < 0) {
    close(pfd[0]);
    hg_log_append(log, "error: cannot run the OpenCL C compiler '%s': %s", argv[0], strerror(errno));
    return -1;
  }
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  size_t cap = 4096, n = *log ? strlen(*log) : 0;
  char *buf = realloc(*log, n + cap + 1);
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
    struct pollfd pf = {.fd = pfd[0], .events = POLLIN};
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
    ssize_t r = read(pfd[0], to, room);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    if (to != sink) n += (size_t)r;
  }
  if (buf) (*log)[n] = 0;
  close(pfd[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (*timed_out)
    hg_log_append(log, "error: the OpenCL C compiler did not finish within %ld s (HETGPU_COMPILE_TIMEOUT)", timeout_s);
  return status;
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
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()) remove_tree(path);
  }
  closedir(d);
}

static char stale_tmp[4096];
static void remove_stale_once(void) { remove_stale_dirs(stale_tmp); }

void hg_frontend_deps_free(hg_frontend_deps *deps) {
  for (unsigned i = 0; i < deps->count; i++)
    free(deps->paths[i]);
  free(deps->paths);
  deps->paths = NULL;
  deps->count = 0;
}

/* The prerequisites of clang's dependency file (make syntax: "out: a b \\\n c", spaces in
 * names escaped with a backslash), as absolute paths, leaving out those under `own` (the
 * build's temporary directory: its source and embedded headers). */
static void read_deps(const char *depfile, const char *own, hg_frontend_deps *deps) {
  size_t size = 0;
  char *text = read_all(depfile, &size);
  if (!text) return;
  char *colon = memchr(text, ':', size);
  size_t at = colon ? (size_t)(colon - text) + 1 : size, own_len = strlen(own);
  char *name = malloc(size + 1);
  while (name && at < size) {
    size_t n = 0;
    while (at < size && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' ||
                         (text[at] == '\\' && at + 1 < size && text[at + 1] == '\n')))
      at += text[at] == '\\' ? 2 : 1;
    while (at < size && text[at] != ' ' && text[at] != '\t' && text[at] != '\n') {
      if (text[at] == '\\' && at + 1 < size && text[at + 1] == '\n') break;
      if (text[at] == '\\' && at + 1 < size && (text[at + 1] == ' ' || text[at + 1] == '#')) at++;
      name[n++] = text[at++];
    }
    name[n] = 0;
    if (!n) continue;
    char *real = realpath(name, NULL);
    if (!real || !strncmp(real, own, own_len)) {
      free(real);
      continue;
    }
    char **grown = realloc(deps->paths, (deps->count + 1) * sizeof *grown);
    if (!grown) {
      free(real);
      break;
    }
    deps->paths = grown;
    deps->paths[deps->count++] = real;
  }
  free(name);
  free(text);
}

cl_int hg_frontend_compile(const char *source, const char *options, const hg_source_header *headers,
                           unsigned num_headers, bool library, hg_ir_module **out, char **log) {
  return hg_frontend_compile_deps(source, options, headers, num_headers, library, out, log, NULL);
}

cl_int hg_frontend_compile_deps(const char *source, const char *options, const hg_source_header *headers,
                                unsigned num_headers, bool library, hg_ir_module **out, char **log,
                                hg_frontend_deps *deps) {
  *out = NULL;
  if (deps) *deps = (hg_frontend_deps){0};
  *log = calloc(1, 1);
  if (!*log) return CL_OUT_OF_HOST_MEMORY;
  hg_fe_options opt;
  cl_int rc = hg_fe_parse_options(options, &opt, log);
  if (rc != CL_SUCCESS) return rc;

  char dir[4096], src[4200], hdr[4200], bc[4200], dep[4200];
  const char *tmp = getenv("TMPDIR");
  static pthread_once_t stale_once = PTHREAD_ONCE_INIT;
  snprintf(stale_tmp, sizeof stale_tmp, "%s", tmp && tmp[0] ? tmp : "/tmp");
  pthread_once(&stale_once, remove_stale_once);
  snprintf(dir, sizeof dir, "%s/hetgpu-cl-%d-XXXXXX", tmp && tmp[0] ? tmp : "/tmp", (int)getpid());
  char **argv = NULL;
  void *bits = NULL;
  if (!mkdtemp(dir)) {
    hg_log_append(log, "error: cannot create a temporary directory: %s", strerror(errno));
    hg_fe_options_free(&opt);
    return CL_OUT_OF_HOST_MEMORY;
  }
  snprintf(src, sizeof src, "%s/source.cl", dir);
  snprintf(hdr, sizeof hdr, "%s/include", dir);
  snprintf(bc, sizeof bc, "%s/out.bc", dir);
  snprintf(dep, sizeof dep, "%s/out.d", dir);
  rc = CL_COMPILE_PROGRAM_FAILURE;
  if (mkdir(hdr, 0700) != 0) goto out;
  for (unsigned i = 0; i < num_headers; i++) {
    char path[8400];
    if (!header_name_ok(headers[i].name)) {
      hg_log_append(log, "error: invalid header name '%s'", headers[i].name ? headers[i].name : "");
      rc = CL_INVALID_VALUE;
      goto out;
    }
    snprintf(path, sizeof path, "%s/%s", hdr, headers[i].name);
    if (make_parents(hdr, headers[i].name) != 0 ||
        write_file(path, headers[i].text ? headers[i].text : "", NULL, NULL, NULL) != 0) {
      hg_log_append(log, "error: cannot write header '%s'", headers[i].name);
      rc = CL_OUT_OF_HOST_MEMORY;
      goto out;
    }
  }
  if (write_file(src, k_prelude, opt.cl_std >= 300 ? k_prelude_30 : "", "#line 1 \"<source>\"\n", source) != 0) {
    hg_log_append(log, "error: cannot write the temporary source file");
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  const char *fixed_pre[] = {hg_frontend_clang_path(), "-cc1", "-triple", "spir64-unknown-unknown", "-emit-llvm-bc",
                             "-fdeclare-opencl-builtins", "-finclude-default-header", "-cl-kernel-arg-info",
                             "-ffp-contract=on", "-I", hdr};
  unsigned npre = sizeof fixed_pre / sizeof *fixed_pre;
  unsigned argc = npre + opt.num_clang_args + 9;
  argv = calloc(argc + 1, sizeof *argv);
  if (!argv) {
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  unsigned k = 0;
  for (unsigned i = 0; i < npre; i++) argv[k++] = (char *)fixed_pre[i];
  for (unsigned i = 0; i < opt.num_clang_args; i++) argv[k++] = opt.clang_args[i];
  argv[k++] = "-x";
  argv[k++] = "cl";
  argv[k++] = src;
  argv[k++] = "-o";
  argv[k++] = bc;
  if (deps) {
    argv[k++] = "-dependency-file";
    argv[k++] = dep;
    argv[k++] = "-MT";
    argv[k++] = "out";
  }
  argv[k] = NULL;

  bool timed_out;
  int status = run_capture(argv, log, &timed_out);
  char hdr_prefix[4300];
  snprintf(hdr_prefix, sizeof hdr_prefix, "%s/", hdr);
  replace_all(log, hdr_prefix, "");
  replace_all(log, src, "<source>");
  if (status == -1) goto out;
  if (timed_out) goto out;
  if (WIFSIGNALED(status)) {
    hg_log_append(log, "error: the OpenCL C compiler stopped on signal %d", WTERMSIG(status));
    goto out;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) goto out;
  size_t size = 0;
  bits = read_all(bc, &size);
  if (!bits) {
    hg_log_append(log, "error: the OpenCL C compiler produced no output");
    goto out;
  }
  hg_ir_module *m = hg_llvm_translate_bitcode(bits, size, library, log);
  if (!m) goto out;
  m->source_language = strdup(opt.source_language);
  m->build_options = strdup(opt.semantic);
  char verr[512];
  if (!hg_ir_verify(m, verr, sizeof verr)) {
    hg_log_append(log, "error: internal: the translated program is not valid IR: %s", verr);
    hg_ir_module_free(m);
    goto out;
  }
  *out = m;
  rc = CL_SUCCESS;
  if (deps) {
    char real_dir[4096];
    read_deps(dep, realpath(dir, real_dir) ? real_dir : dir, deps);
  }
out:
  free(bits);
  free(argv);
  remove_tree(dir);
  hg_fe_options_free(&opt);
  return rc;
}
