/* Runs clang out of process on one OpenCL C translation unit, then translates its bitcode.
 *
 * The source goes into a private temporary directory (mkdtemp) behind a short prelude and a
 * `#line 1 "<source>"` directive, so diagnostics read "<source>:12:5: error: ..."; embedded
 * headers are written under it and found with -I. clang runs with posix_spawn, its stdout and
 * stderr captured into the build log (temporary paths rewritten), and is always waited for.
 * Every temporary file is removed before returning. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
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
  char path[4096];
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

/* Runs argv[0] with argv, its stdout and stderr appended to *log; returns the wait status or -1. */
static int run_capture(char *const argv[], char **log) {
  int pfd[2];
  if (pipe2(pfd, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pfd[1]);
  if (err != 0) {
    close(pfd[0]);
    hg_log_append(log, "error: cannot run the OpenCL C compiler '%s': %s", argv[0], strerror(err));
    return -1;
  }
  size_t cap = 4096, n = *log ? strlen(*log) : 0;
  char *buf = realloc(*log, n + cap + 1);
  if (buf) {
    *log = buf;
    for (;;) {
      if (n + 4096 > cap) {
        char *nb = realloc(*log, (cap *= 2) + 1);
        if (!nb) break;
        *log = nb;
      }
      ssize_t r = read(pfd[0], *log + n, cap - n);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      n += (size_t)r;
    }
    (*log)[n] = 0;
  } else {
    char sink[4096];
    while (read(pfd[0], sink, sizeof sink) > 0) {
    }
  }
  close(pfd[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return status;
}

cl_int hg_frontend_compile(const char *source, const char *options, const hg_source_header *headers,
                           unsigned num_headers, bool library, hg_ir_module **out, char **log) {
  *out = NULL;
  *log = calloc(1, 1);
  if (!*log) return CL_OUT_OF_HOST_MEMORY;
  hg_fe_options opt;
  cl_int rc = hg_fe_parse_options(options, &opt, log);
  if (rc != CL_SUCCESS) return rc;

  char dir[4096], src[4200], hdr[4200], bc[4200];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/hetgpu-cl-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
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
  unsigned argc = npre + opt.num_clang_args + 5;
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
  argv[k] = NULL;

  int status = run_capture(argv, log);
  char hdr_prefix[4300];
  snprintf(hdr_prefix, sizeof hdr_prefix, "%s/", hdr);
  replace_all(log, hdr_prefix, "");
  replace_all(log, src, "<source>");
  if (status == -1) goto out;
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
out:
  free(bits);
  free(argv);
  remove_tree(dir);
  hg_fe_options_free(&opt);
  return rc;
}
