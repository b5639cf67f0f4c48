/* Runs clang out of process on one OpenCL C translation unit, then translates its bitcode.
 *
 * The source goes into a private temporary directory (mkdtemp) behind a short prelude and a
 * `#line 1 "<source>"` directive, so diagnostics read "<source>:12:5: error: ..."; embedded
 * headers are written under it and found with -I. clang runs in a child process, its stdout and
 * stderr captured into the build log (temporary paths rewritten), within a time and a memory
 * limit, and dies with the application; it is always waited for. Every temporary file is
 * removed before returning (and a directory left by a killed process by the next one). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lowering/frontend.h"
#include "lowering/frontend_prelude.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "lowering/llvm_translate.h"
#include "lowering/tool_run.h"

#ifndef HETGPU_CLANG_DEFAULT
#define HETGPU_CLANG_DEFAULT "/usr/bin/clang-15"
#endif

const char *hg_frontend_clang_path(void) {
  const char *env = getenv("HETGPU_CLANG");
  return env && env[0] ? env : HETGPU_CLANG_DEFAULT;
}

void hg_frontend_warm_up(void) { hg_tool_warm_start(hg_frontend_clang_path()); }

/* The prelude before the user's code makes its #ifdefs see exactly the device: an OpenCL 3.0
 * device (__OPENCL_VERSION__, which clang leaves to the implementation) with images
 * (__IMAGE_SUPPORT__, which clang 15 leaves undefined for OpenCL C 3.0; docs/images.md) but
 * neither read_write images nor 3D image writes, the macro of every device extension clang does not
 * know (cl_hetgpu_migrate and cl_khr_il_program, API-only extensions), and none of the feature
 * macros and extensions clang's opencl-c-base.h defines for SPIR that the device does not have. */
static const char k_prelude[] =
    "#define __OPENCL_VERSION__ 300\n#undef __IMAGE_SUPPORT__\n#define __IMAGE_SUPPORT__ 1\n"
    "#undef cl_khr_3d_image_writes\n#undef __opencl_c_read_write_images\n#undef __opencl_c_3d_image_writes\n"
    "#define cl_hetgpu_migrate 1\n#define cl_khr_il_program 1\n"
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
    "#undef __opencl_c_atomic_scope_device\n#undef __opencl_c_atomic_scope_all_devices\n";

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
  char *text = hg_tool_read_file(depfile, &size);
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

/* clang over one translation unit (the prelude, then the source) to SPIR bitcode in *bits
 * (malloc'd), with the embedded headers and, when `dep` is given, a dependency file there.
 * dir is the build's temporary directory. defer_optimization: clang does not run LLVM's passes
 * (hg_llvm_optimize_reached does, over what the kernels reach). */
static cl_int clang_to_bitcode(const char *dir, const char *source, const hg_fe_options *opt,
                               const hg_source_header *headers, unsigned num_headers, const char *dep,
                               bool defer_optimization, void **bits, size_t *size, uint64_t *clang_ns, char **log) {
  char src[4200], hdr[4200], bc[4200];
  snprintf(src, sizeof src, "%s/source.cl", dir);
  snprintf(hdr, sizeof hdr, "%s/include", dir);
  snprintf(bc, sizeof bc, "%s/out.bc", dir);
  *bits = NULL;
  if (mkdir(hdr, 0700) != 0) return CL_COMPILE_PROGRAM_FAILURE;
  for (unsigned i = 0; i < num_headers; i++) {
    char path[8400];
    if (!header_name_ok(headers[i].name)) {
      hg_log_append(log, "error: invalid header name '%s'", headers[i].name ? headers[i].name : "");
      return CL_INVALID_VALUE;
    }
    snprintf(path, sizeof path, "%s/%s", hdr, headers[i].name);
    if (make_parents(hdr, headers[i].name) != 0 ||
        hg_tool_write_file(path, headers[i].text ? headers[i].text : "", NULL, NULL, NULL) != 0) {
      hg_log_append(log, "error: cannot write header '%s'", headers[i].name);
      return CL_OUT_OF_HOST_MEMORY;
    }
  }
  const char *prelude_30 = opt->cl_std >= 300 ? k_prelude_30 : "";
  if (hg_tool_write_file(src, k_prelude, prelude_30, "#line 1 \"<source>\"\n", source) != 0) {
    hg_log_append(log, "error: cannot write the temporary source file");
    return CL_OUT_OF_HOST_MEMORY;
  }
  const char *fixed_pre[] = {hg_frontend_clang_path(), "-cc1", "-triple", "spir64-unknown-unknown", "-emit-llvm-bc",
                             "-fdeclare-opencl-builtins", "-finclude-default-header", "-cl-kernel-arg-info",
                             "-ffp-contract=on", "-I", hdr};
  unsigned npre = sizeof fixed_pre / sizeof *fixed_pre;
  char **argv = calloc(npre + opt->num_clang_args + 11, sizeof *argv);
  if (!argv) return CL_OUT_OF_HOST_MEMORY;
  unsigned k = 0;
  for (unsigned i = 0; i < npre; i++) argv[k++] = (char *)fixed_pre[i];
  for (unsigned i = 0; i < opt->num_clang_args; i++) argv[k++] = opt->clang_args[i];
  if (defer_optimization) argv[k++] = "-disable-llvm-optzns";
  argv[k++] = "-x";
  argv[k++] = "cl";
  argv[k++] = src;
  argv[k++] = "-o";
  argv[k++] = bc;
  if (dep) {
    argv[k++] = "-dependency-file";
    argv[k++] = (char *)dep;
    argv[k++] = "-MT";
    argv[k++] = "out";
  }
  argv[k] = NULL;
  bool timed_out;
  uint64_t t0 = hg_host_clock_ns();
  int status = hg_tool_run(argv, "the OpenCL C compiler", log, &timed_out);
  *clang_ns = hg_host_clock_ns() - t0;
  free(argv);
  char hdr_prefix[4300];
  snprintf(hdr_prefix, sizeof hdr_prefix, "%s/", hdr);
  hg_tool_replace_all(log, hdr_prefix, "");
  hg_tool_replace_all(log, src, "<source>");
  if (!hg_tool_succeeded(status, timed_out, "the OpenCL C compiler", log)) return CL_COMPILE_PROGRAM_FAILURE;
  *bits = hg_tool_read_file(bc, size);
  if (!*bits) {
    hg_log_append(log, "error: the OpenCL C compiler produced no output");
    return CL_COMPILE_PROGRAM_FAILURE;
  }
  return CL_SUCCESS;
}

cl_int hg_frontend_compile_spir(const char *source, const char *options, void **bits, size_t *size, char **log) {
  *bits = NULL;
  *size = 0;
  *log = calloc(1, 1);
  if (!*log) return CL_OUT_OF_HOST_MEMORY;
  hg_fe_options opt;
  cl_int rc = hg_fe_parse_options(options, &opt, log);
  if (rc != CL_SUCCESS) return rc;
  char dir[4096];
  uint64_t clang_ns = 0;
  if (!hg_tool_tmpdir(dir, sizeof dir, log)) {
    hg_fe_options_free(&opt);
    return CL_OUT_OF_HOST_MEMORY;
  }
  rc = clang_to_bitcode(dir, source, &opt, NULL, 0, NULL, false, bits, size, &clang_ns, log);
  if (rc == CL_SUCCESS)
    HG_LOG(HG_LOG_COMPILE, "front end: clang %.1f ms (%zu bytes of SPIR bitcode)", clang_ns / 1e6, *size);
  hg_tool_remove_tree(dir);
  hg_fe_options_free(&opt);
  return rc;
}

/* clang over the source in a temporary directory: *opt parsed from the options (the caller
 * frees it on CL_SUCCESS), *bits its bitcode (before LLVM's passes when optimising: they run
 * over what the kernels reach), the included files in *deps (may be NULL). */
static cl_int source_to_bitcode(const char *source, const char *options, const hg_source_header *headers,
                                unsigned num_headers, hg_fe_options *opt, void **bits, size_t *size, char **log,
                                hg_frontend_deps *deps) {
  *bits = NULL;
  *size = 0;
  if (deps) *deps = (hg_frontend_deps){0};
  *log = calloc(1, 1);
  if (!*log) return CL_OUT_OF_HOST_MEMORY;
  cl_int rc = hg_fe_parse_options(options, opt, log);
  if (rc != CL_SUCCESS) return rc;
  char dir[4096], dep[4200];
  uint64_t clang_ns = 0;
  if (!hg_tool_tmpdir(dir, sizeof dir, log)) {
    hg_fe_options_free(opt);
    return CL_OUT_OF_HOST_MEMORY;
  }
  snprintf(dep, sizeof dep, "%s/out.d", dir);
  bool defer = opt->optimize;
  rc = clang_to_bitcode(dir, source, opt, headers, num_headers, deps ? dep : NULL, defer, bits, size, &clang_ns, log);
  /* the application's next build (not from the forms' builder: its clang would keep that
   * thread's lowest priority) */
  hg_frontend_warm_up();
  if (rc == CL_SUCCESS) {
    HG_LOG(HG_LOG_COMPILE, "front end: clang %.1f ms (%zu bytes of bitcode%s)", clang_ns / 1e6, *size,
           defer ? ", LLVM's passes deferred" : "");
    if (deps) {
      char real_dir[4096];
      read_deps(dep, realpath(dir, real_dir) ? real_dir : dir, deps);
    }
  } else {
    hg_fe_options_free(opt);
  }
  hg_tool_remove_tree(dir);
  return rc;
}

cl_int hg_frontend_compile_object(const char *source, const char *options, const hg_source_header *headers,
                                  unsigned num_headers, hg_frontend_object **out, char **log,
                                  hg_frontend_deps *deps) {
  *out = NULL;
  hg_fe_options opt;
  void *bits;
  size_t size;
  cl_int rc = source_to_bitcode(source, options, headers, num_headers, &opt, &bits, &size, log, deps);
  if (rc != CL_SUCCESS) return rc;
  hg_fe_options_free(&opt);
  *out = hg_frontend_object_new(bits, size, options);
  if (!*out) {
    if (deps) hg_frontend_deps_free(deps);
    return CL_OUT_OF_HOST_MEMORY;
  }
  return CL_SUCCESS;
}

cl_int hg_frontend_compile_deps(const char *source, const char *options, const hg_source_header *headers,
                                unsigned num_headers, bool library, hg_ir_module **out, char **log,
                                hg_frontend_deps *deps) {
  *out = NULL;
  cl_int rc;
  if (library) { /* the path of clCompileProgram's objects, translated at once */
    hg_frontend_object *obj;
    rc = hg_frontend_compile_object(source, options, headers, num_headers, &obj, log, deps);
    if (rc != CL_SUCCESS) return rc;
    rc = hg_frontend_object_to_ir(obj, out, log);
    hg_frontend_object_free(obj);
  } else { /* an executable's functions are optimised once the kernels show which are reached */
    hg_fe_options opt;
    void *bits;
    size_t size;
    rc = source_to_bitcode(source, options, headers, num_headers, &opt, &bits, &size, log, deps);
    if (rc != CL_SUCCESS) return rc;
    uint64_t t0 = hg_host_clock_ns();
    *out = hg_frontend_bitcode_to_ir(bits, size, false, opt.optimize ? hg_llvm_optimize_reached : NULL, false,
                                     opt.source_language, opt.semantic, log);
    HG_LOG(HG_LOG_COMPILE, "front end: %sbitcode to IR %.1f ms", opt.optimize ? "LLVM -O2 over what the kernels reach, " : "",
           (hg_host_clock_ns() - t0) / 1e6);
    free(bits);
    hg_fe_options_free(&opt);
    rc = *out ? CL_SUCCESS : CL_COMPILE_PROGRAM_FAILURE;
  }
  if (rc != CL_SUCCESS && deps) hg_frontend_deps_free(deps);
  return rc;
}
