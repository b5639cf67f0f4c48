/* Programs from an intermediate language (SPIR-V): clCreateProgramWithIL (OpenCL 2.1 core),
 * clCreateProgramWithILKHR (cl_khr_il_program), clSetProgramSpecializationConstant, and the IL
 * half of building (hg_program_compile_il). The module is checked for being SPIR-V at all when
 * the program is made (CL_INVALID_VALUE otherwise, as the specification says); whether this
 * device can run what it declares is a build's question, answered in the build log. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "devices/cache.h"
#include "platform/platform.h"
#include "platform/program.h"
#include "platform/program_ir_cache.h"
#include "platform/version.h"

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                                          cl_int *errcode_ret) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (!il || length == 0) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  char why[256];
  size_t num_words;
  uint32_t *words = hg_spirv_words(il, length, &num_words, why, sizeof why);
  if (!words) {
    HG_LOG(HG_LOG_API, "clCreateProgramWithIL: %s", why);
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  free(words);
  cl_int err;
  cl_program p = hg_program_create(context, &err);
  if (p && !(p->il = malloc(length))) {
    hg_program_release(p);
    p = NULL;
    err = CL_OUT_OF_HOST_MEMORY;
  }
  if (p) {
    memcpy(p->il, il, length);
    p->il_length = length;
  }
  HG_SET_ERR(errcode_ret, err);
  return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il, size_t length,
                                                             cl_int *errcode_ret) {
  return clCreateProgramWithIL(context, il, length, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void *spec_value) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  cl_program p = program;
  if (!p->il)
    return CL_INVALID_PROGRAM;
  size_t num_words;
  uint32_t *words = hg_spirv_words(p->il, p->il_length, &num_words, NULL, 0);
  unsigned count = 0;
  hg_spirv_spec_const *decl = words ? hg_spirv_spec_constants(words, num_words, &count) : NULL;
  free(words);
  const hg_spirv_spec_const *c = NULL;
  for (unsigned i = 0; i < count; i++)
    if (decl[i].id == spec_id)
      c = &decl[i];
  cl_int err = !c ? CL_INVALID_SPEC_ID : !spec_value || spec_size != c->size ? CL_INVALID_VALUE : CL_SUCCESS;
  free(decl);
  if (err != CL_SUCCESS)
    return err;
  uint64_t bits = 0; /* the application's bytes, zero-extended (little-endian host) */
  memcpy(&bits, spec_value, spec_size);
  pthread_mutex_lock(&p->lock);
  unsigned at = 0;
  while (at < p->num_spec && p->spec[at].id < spec_id)
    at++;
  if (at == p->num_spec || p->spec[at].id != spec_id) {
    hg_spirv_spec_value *grown = realloc(p->spec, (p->num_spec + 1) * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&p->lock);
      return CL_OUT_OF_HOST_MEMORY;
    }
    p->spec = grown;
    memmove(&p->spec[at + 1], &p->spec[at], (p->num_spec - at) * sizeof *grown);
    p->num_spec++;
  }
  p->spec[at] = (hg_spirv_spec_value){spec_id, bits};
  pthread_mutex_unlock(&p->lock);
  return CL_SUCCESS;
}

cl_int hg_program_compile_il(cl_program p, const char *options, bool library, hg_ir_module **out, char **log) {
  hg_cache_key key = {0};
  hg_cache_key_add_str(&key, library ? "ir-il-object" : "ir-il-executable");
  hg_cache_key_add_str(&key, HETGPU_DRIVER_VERSION);
  hg_cache_key_add_str(&key, hg_frontend_spirv_val_path());
  hg_cache_key_add_str(&key, hg_frontend_llvm_spirv_path());
  hg_cache_key_add(&key, p->il, p->il_length);
  hg_cache_key_add_str(&key, options);
  for (unsigned i = 0; i < p->num_spec; i++) { /* field by field: the struct has padding */
    hg_cache_key_add(&key, &p->spec[i].id, sizeof p->spec[i].id);
    hg_cache_key_add(&key, &p->spec[i].bits, sizeof p->spec[i].bits);
  }
  if (hg_program_ir_cache_get(&key, out)) {
    hg_cache_key_free(&key);
    *log = strdup("");
    HG_LOG(HG_LOG_COMPILE, "IR cache hit (IL)");
    return CL_SUCCESS;
  }
  cl_int err = hg_frontend_spirv_to_ir(p->il, p->il_length, options, p->spec, p->num_spec, library, out, log);
  if (err == CL_SUCCESS)
    hg_program_ir_cache_put(&key, *out, &(hg_frontend_deps){0});
  hg_cache_key_free(&key);
  return err;
}
