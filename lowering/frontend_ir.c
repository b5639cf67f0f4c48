/* Source -> executable IR with its execution-state metadata: the one path from OpenCL C to the
 * IR a program holds, shared by the driver (platform/program_build.c) and hetgpu-cc, so the
 * tool's output is byte for byte the driver's program binary. */
#include <stdlib.h>
#include <string.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "lowering/frontend.h"
#include "lowering/llvm_translate.h"

/* Sets *log to msg, or appends msg as a line when *log already holds text. */
static void log_message(char **log, const char *msg) {
  if (*log && (*log)[0]) {
    hg_log_append(log, "%s", msg);
  } else {
    free(*log);
    *log = strdup(msg);
  }
}

hg_ir_module *hg_frontend_bitcode_to_ir(const void *bc, size_t size, bool library, hg_llvm_prepare_fn prepare,
                                        bool contract_all, const char *language, const char *semantic, char **log) {
  hg_ir_module *m = hg_llvm_translate_bitcode(bc, size, library, prepare, contract_all, log);
  if (!m) return NULL;
  m->source_language = strdup(language);
  m->build_options = strdup(semantic);
  char verr[512];
  if (!m->source_language || !m->build_options || !hg_ir_verify(m, verr, sizeof verr)) {
    hg_log_append(log, "error: internal: the translated program is not valid IR: %s",
                  m->source_language && m->build_options ? verr : "out of memory");
    hg_ir_module_free(m);
    return NULL;
  }
  return m;
}

cl_int hg_frontend_finish_executable(hg_ir_module *m, char **log) {
  char err[512];
  /* what no kernel calls is neither inlined into nor kept (a library's functions) */
  hg_ir_drop_unused_functions(m);
  if (!hg_ir_inline_calls(m, err, sizeof err)) {
    log_message(log, err);
    return CL_LINK_PROGRAM_FAILURE;
  }
  hg_ir_drop_unused_functions(m);
  m->program_kind = HG_IR_PROGRAM_EXECUTABLE;
  hg_ir_compute_state(m);
  if (!hg_ir_verify(m, err, sizeof err)) {
    log_message(log, err);
    return CL_LINK_PROGRAM_FAILURE;
  }
  return CL_SUCCESS;
}

cl_int hg_frontend_source_to_ir_deps(const char *source, const char *options, const hg_source_header *headers,
                                     unsigned num_headers, bool library, hg_ir_module **out, char **log,
                                     hg_frontend_deps *deps) {
  *out = NULL;
  hg_ir_module *m = NULL;
  cl_int err = hg_frontend_compile_deps(source, options, headers, num_headers, library, &m, log, deps);
  if (err != CL_SUCCESS)
    return err;
  uint64_t t0 = hg_host_clock_ns();
  if (library) {
    m->program_kind = HG_IR_PROGRAM_OBJECT;
  } else if (hg_frontend_finish_executable(m, log) != CL_SUCCESS) {
    hg_ir_module_free(m);
    if (deps)
      hg_frontend_deps_free(deps);
    return CL_COMPILE_PROGRAM_FAILURE;
  }
  HG_LOG(HG_LOG_COMPILE, "front end: inlining and state metadata %.1f ms", (hg_host_clock_ns() - t0) / 1e6);
  *out = m;
  return CL_SUCCESS;
}

cl_int hg_frontend_source_to_ir(const char *source, const char *options, const hg_source_header *headers,
                                unsigned num_headers, bool library, hg_ir_module **out, char **log) {
  return hg_frontend_source_to_ir_deps(source, options, headers, num_headers, library, out, log, NULL);
}
