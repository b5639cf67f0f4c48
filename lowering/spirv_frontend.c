/* SPIR-V -> hetGPU IR (frontend_spirv.h).
 *
 * Our own scan first (spirv_module.c: is it SPIR-V, can this device run what it declares), so
 * the commonest refusals have a clear message and no tool runs for them; then, in a private
 * temporary directory, spirv-val (the module is valid for its version's OpenCL environment)
 * and llvm-spirv -r (SPIR-V -> LLVM bitcode in the OpenCL 2.0 builtin form, which keeps the
 * atomics' orders and scopes, with the specialization constants applied), each a bounded child
 * process (tool_run.c) whose output goes to the build log; then the bitcode takes the OpenCL C
 * front end's path into the IR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/frontend_spirv.h"
#include "lowering/llvm_translate.h"
#include "lowering/spirv_prepare.h"
#include "lowering/tool_run.h"

#ifndef HETGPU_SPIRV_VAL_DEFAULT
#define HETGPU_SPIRV_VAL_DEFAULT "/usr/bin/spirv-val"
#endif
#ifndef HETGPU_LLVM_SPIRV_DEFAULT
#define HETGPU_LLVM_SPIRV_DEFAULT "/usr/bin/llvm-spirv-15"
#endif

static const char k_validator[] = "the SPIR-V validator (spirv-val)";
static const char k_translator[] = "the SPIR-V translator (llvm-spirv)";

const char *hg_frontend_spirv_val_path(void) {
  const char *env = getenv("HETGPU_SPIRV_VAL");
  return env && env[0] ? env : HETGPU_SPIRV_VAL_DEFAULT;
}

const char *hg_frontend_llvm_spirv_path(void) {
  const char *env = getenv("HETGPU_LLVM_SPIRV");
  return env && env[0] ? env : HETGPU_LLVM_SPIRV_DEFAULT;
}

/* The values the application set, written into the module's specialization constants
 * (llvm-spirv-15's --spec-const cannot take 64-bit values of 17 or more decimal digits: most
 * doubles, negative longs). false when a value names no constant of the module (the platform
 * checked it already). */
static bool specialize(uint32_t *words, size_t num_words, const hg_spirv_spec_value *spec, unsigned num_spec,
                       char **log) {
  for (unsigned i = 0; i < num_spec; i++)
    if (!hg_spirv_specialize(words, num_words, spec[i].id, spec[i].bits)) {
      hg_log_append(log, "error: the module has no specialization constant with SpecId %u", spec[i].id);
      return false;
    }
  return true;
}

/* Runs one tool; false with its message (and ours, naming it) in the log. Paths of the
 * temporary directory are cut from its output. */
static bool run_tool(char *const argv[], const char *what, const char *dir, const char *failure, char **log) {
  bool timed_out;
  size_t before = *log ? strlen(*log) : 0;
  int status = hg_tool_run(argv, what, log, &timed_out);
  char prefix[4200];
  snprintf(prefix, sizeof prefix, "%s/", dir);
  hg_tool_replace_all(log, prefix, "");
  if (hg_tool_succeeded(status, timed_out, what, log)) {
    if (*log) (*log)[before] = 0; /* a clean run's chatter ("Note: ...") is not the build's news */
    return true;
  }
  hg_log_append(log, "error: %s", failure);
  return false;
}

cl_int hg_frontend_spirv_to_ir(const void *il, size_t length, const char *options, const hg_spirv_spec_value *spec,
                               unsigned num_spec, bool library, hg_ir_module **out, char **log) {
  *out = NULL;
  *log = calloc(1, 1);
  if (!*log) return CL_OUT_OF_HOST_MEMORY;
  hg_fe_options opt;
  cl_int rc = hg_fe_parse_options(options, &opt, log);
  if (rc != CL_SUCCESS) return rc;
  char why[256], dir[4096], spv[4200], bc[4200], env[64], language[32];
  size_t num_words = 0;
  void *bits = NULL;
  uint32_t *words = hg_spirv_words(il, length, &num_words, why, sizeof why);
  if (!words) {
    hg_log_append(log, "error: %s", why);
    hg_fe_options_free(&opt);
    return CL_INVALID_VALUE;
  }
  rc = CL_COMPILE_PROGRAM_FAILURE;
  bool have_dir = false;
  if (!hg_spirv_check_environment(words, num_words, log) ||
      !specialize(words, num_words, spec, num_spec, log))
    goto out;
  if (!(have_dir = hg_tool_tmpdir(dir, sizeof dir, log))) {
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  snprintf(spv, sizeof spv, "%s/module.spv", dir);
  snprintf(bc, sizeof bc, "%s/module.bc", dir);
  if (hg_tool_write_bytes(spv, words, num_words * 4) != 0) {
    hg_log_append(log, "error: cannot write the temporary module file");
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  snprintf(env, sizeof env, "%s", hg_spirv_validator_env(words[1]));
  char *val_argv[] = {(char *)hg_frontend_spirv_val_path(), "--target-env", env, spv, NULL};
  if (!run_tool(val_argv, k_validator, dir, "the SPIR-V module is not valid (spirv-val)", log)) goto out;
  char *xl_argv[] = {(char *)hg_frontend_llvm_spirv_path(), "-r", "--spirv-target-env=CL2.0",
                     "--spirv-gen-kernel-arg-name-md", "-o", bc, spv, NULL};
  if (!run_tool(xl_argv, k_translator, dir, "the SPIR-V module could not be translated (llvm-spirv)", log)) goto out;
  size_t size = 0;
  bits = hg_tool_read_file(bc, &size);
  if (!bits) {
    hg_log_append(log, "error: %s produced no output", k_translator);
    goto out;
  }
  snprintf(language, sizeof language, "SPIR-V %u.%u", words[1] >> 16 & 0xff, words[1] >> 8 & 0xff);
  hg_ir_module *m = hg_frontend_bitcode_to_ir(bits, size, library, hg_spirv_prepare_module,
                                              !hg_spirv_has_contraction_off(words, num_words), language, opt.semantic, log);
  if (!m) goto out;
  if (library) {
    m->program_kind = HG_IR_PROGRAM_OBJECT;
  } else if (hg_frontend_finish_executable(m, log) != CL_SUCCESS) {
    hg_ir_module_free(m);
    goto out;
  }
  *out = m;
  rc = CL_SUCCESS;
out:
  free(bits);
  free(words);
  if (have_dir) hg_tool_remove_tree(dir);
  hg_fe_options_free(&opt);
  return rc;
}
