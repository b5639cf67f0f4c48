/* OpenCL build options -> clang arguments and the semantic options recorded in the module. */
#include <CL/cl.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

static void add_arg(hg_fe_options *o, const char *a) {
  if (o->num_clang_args == o->cap_clang_args) {
    o->cap_clang_args = o->cap_clang_args ? o->cap_clang_args * 2 : 16;
    o->clang_args = realloc(o->clang_args, o->cap_clang_args * sizeof *o->clang_args);
    if (!o->clang_args) abort();
  }
  o->clang_args[o->num_clang_args++] = strdup(a);
}

/* Splits at white space; double and single quotes group, backslash escapes in double quotes. */
static char **tokenize(const char *s, unsigned *count) {
  char **toks = NULL;
  unsigned n = 0;
  size_t len = s ? strlen(s) : 0;
  char *buf = malloc(len + 1);
  if (!buf) abort();
  const char *p = s ? s : "";
  while (*p) {
    while (isspace((unsigned char)*p)) p++;
    if (!*p) break;
    size_t k = 0;
    while (*p && !isspace((unsigned char)*p)) {
      if (*p == '"' || *p == '\'') {
        char q = *p++;
        while (*p && *p != q) {
          if (q == '"' && *p == '\\' && p[1]) p++;
          buf[k++] = *p++;
        }
        if (*p) p++;
      } else {
        buf[k++] = *p++;
      }
    }
    buf[k] = 0;
    toks = realloc(toks, (n + 1) * sizeof *toks);
    if (!toks) abort();
    toks[n++] = strdup(buf);
  }
  free(buf);
  *count = n;
  return toks;
}

/* The options that change code generation, in the order they are recorded. */
static const char *const k_semantic[] = {
    "-cl-opt-disable",       "-cl-mad-enable",      "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
    "-cl-denorms-are-zero",  "-cl-fp32-correctly-rounded-divide-sqrt",
};
#define NUM_SEMANTIC (sizeof k_semantic / sizeof *k_semantic)

/* Extensions of the virtual device (its CL_DEVICE_EXTENSIONS) as clang's -cl-ext list. */
static const char k_extensions[] =
    "-cl-ext=-all,+cl_khr_fp64,+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,"
    "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
    "+cl_khr_local_int32_extended_atomics,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics";

int hg_fe_parse_options(const char *options, hg_fe_options *o, char **log) {
  memset(o, 0, sizeof *o);
  unsigned n;
  char **tok = tokenize(options, &n);
  bool seen[NUM_SEMANTIC] = {0};
  int rc = CL_SUCCESS;
  o->cl_std = 120;
  bool opt_disable = false;
  char **user = NULL; /* -D/-I/-w/-Werror/-cl-single-precision-constant in the user's order */
  unsigned nuser = 0;
  user = calloc(2 * n + 1, sizeof *user);
  if (!user) abort();
  for (unsigned i = 0; i < n && rc == CL_SUCCESS; i++) {
    const char *t = tok[i];
    bool handled = false;
    for (unsigned k = 0; k < NUM_SEMANTIC; k++)
      if (!strcmp(t, k_semantic[k])) {
        seen[k] = true;
        handled = true;
      }
    if (handled) continue;
    if (!strcmp(t, "-D") || !strcmp(t, "-I")) {
      if (i + 1 >= n) {
        hg_log_append(log, "error: build option '%s' needs an argument", t);
        rc = CL_INVALID_BUILD_OPTIONS;
        break;
      }
      user[nuser++] = strdup(t);
      user[nuser++] = strdup(tok[++i]);
    } else if (!strncmp(t, "-D", 2) || !strncmp(t, "-I", 2) || !strcmp(t, "-w") || !strcmp(t, "-Werror") ||
               !strcmp(t, "-cl-single-precision-constant")) {
      user[nuser++] = strdup(t);
    } else if (!strncmp(t, "-cl-std=", 8)) {
      const char *v = t + 8;
      if (!strcmp(v, "CL1.0")) o->cl_std = 100;
      else if (!strcmp(v, "CL1.1")) o->cl_std = 110;
      else if (!strcmp(v, "CL1.2")) o->cl_std = 120;
      else if (!strcmp(v, "CL2.0")) o->cl_std = 200;
      else if (!strcmp(v, "CL3.0")) o->cl_std = 300;
      else {
        hg_log_append(log, "error: invalid build option '%s': this device supports CL1.0, CL1.1, CL1.2, CL2.0 and CL3.0", t);
        rc = CL_INVALID_BUILD_OPTIONS;
      }
    } else if (!strcmp(t, "-cl-kernel-arg-info") || !strcmp(t, "-g") || !strcmp(t, "-cl-uniform-work-group-size") ||
               !strcmp(t, "-cl-strict-aliasing") || !strcmp(t, "-cl-no-subgroup-ifp")) {
      /* always on / no effect on the result (-cl-strict-aliasing: deprecated, still valid;
       * -cl-no-subgroup-ifp: a hint, valid since OpenCL 2.1, and the device has no sub-groups) */
    } else {
      hg_log_append(log, "error: invalid build option '%s'", t);
      rc = CL_INVALID_BUILD_OPTIONS;
    }
  }
  opt_disable = seen[0];
  o->optimize = !opt_disable;
  if (rc == CL_SUCCESS) {
    char std[32];
    snprintf(std, sizeof std, "-cl-std=CL%u.%u", o->cl_std / 100, o->cl_std / 10 % 10);
    add_arg(o, opt_disable ? "-O0" : "-O2");
    add_arg(o, std);
    if (o->cl_std >= 300)
      /* images are part of the fixed profile (docs/images.md): __opencl_c_images, but neither
       * __opencl_c_read_write_images nor __opencl_c_3d_image_writes (the prelude, which also
       * defines __IMAGE_SUPPORT__: frontend_driver.c) */
      add_arg(o, "-cl-ext=-all,+__opencl_c_fp64,+__opencl_c_int64,+__opencl_c_images,+cl_khr_fp64,"
                 "+cl_khr_byte_addressable_store,"
                 "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"
                 "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,"
                 "+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics");
    else if (o->cl_std >= 200)
      add_arg(o, "-cl-ext=-all,+cl_khr_fp64,+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,"
                 "+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,"
                 "+cl_khr_local_int32_extended_atomics,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics");
    else
      add_arg(o, k_extensions);
    /* clang -cc1 knows every semantic option except -cl-denorms-are-zero, which only matters
     * to the back end */
    for (unsigned k = 1; k < NUM_SEMANTIC; k++)
      if (seen[k] && strcmp(k_semantic[k], "-cl-denorms-are-zero")) add_arg(o, k_semantic[k]);
    for (unsigned i = 0; i < nuser; i++) add_arg(o, user[i]);
    size_t len = 1;
    for (unsigned k = 0; k < NUM_SEMANTIC; k++)
      if (seen[k]) len += strlen(k_semantic[k]) + 1;
    o->semantic = calloc(len, 1);
    if (!o->semantic) abort();
    for (unsigned k = 0; k < NUM_SEMANTIC; k++)
      if (seen[k]) {
        if (o->semantic[0]) strcat(o->semantic, " ");
        strcat(o->semantic, k_semantic[k]);
      }
    char lang[32];
    snprintf(lang, sizeof lang, "OpenCL C %u.%u", o->cl_std / 100, o->cl_std / 10 % 10);
    o->source_language = strdup(lang);
  }
  for (unsigned i = 0; i < nuser; i++) free(user[i]);
  free(user);
  for (unsigned i = 0; i < n; i++) free(tok[i]);
  free(tok);
  if (rc != CL_SUCCESS) hg_fe_options_free(o);
  return rc;
}

void hg_fe_options_free(hg_fe_options *o) {
  for (unsigned i = 0; i < o->num_clang_args; i++) free(o->clang_args[i]);
  free(o->clang_args);
  free(o->semantic);
  free(o->source_language);
  memset(o, 0, sizeof *o);
}
