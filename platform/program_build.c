/* clBuildProgram, clCompileProgram, clLinkProgram, clGetProgramBuildInfo.
 *
 * Source (or SPIR-V: program_il.c) is compiled by the front end into the IR (cached by source,
 * options and driver version, so a rebuild skips clang); the executable's IR is then built eagerly on the active
 * backend so that a failure shows in the build status, and lazily on any other backend a
 * migration moves the program to. Builds are synchronous: pfn_notify is called before the
 * entry point returns, which the specification allows. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/heap_release.h"
#include "common/profile_limits.h"
#include "devices/cache.h"
#include "lowering/frontend.h"
#include "platform/info.h"
#include "common/log.h"
#include "platform/platform.h"
#include "platform/kernel.h"
#include "platform/program.h"
#include "platform/program_ir_cache.h"
#include "platform/version.h"

typedef void(CL_CALLBACK *program_notify_fn)(cl_program, void *);

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

static void set_log(cl_program p, char *log) {
  free(p->build_log);
  p->build_log = log ? log : strdup("");
}

/* Checks the arguments every build entry point shares. */
static cl_int check_build_args(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                               program_notify_fn pfn_notify, void *user_data) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  if ((num_devices == 0) != (device_list == NULL))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (device_list[i] != program->context->device)
      return CL_INVALID_DEVICE;
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  if (atomic_load(&program->num_kernels_attached) > 0)
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

/* The cache key of what the front end makes of the program's source with these options. */
static void source_key(cl_program p, const char *kind, const char *options, const hg_source_header *headers,
                       unsigned num_headers, hg_cache_key *key) {
  hg_cache_key_add_str(key, kind);
  hg_cache_key_add_str(key, HETGPU_DRIVER_VERSION);
  hg_cache_key_add_str(key, hg_frontend_clang_path());
  hg_cache_key_add(key, p->source, p->source_length);
  hg_cache_key_add_str(key, options);
  char cwd[4096];
  if (options && strstr(options, "-I") && getcwd(cwd, sizeof cwd)) /* a relative -I resolves from here */
    hg_cache_key_add_str(key, cwd);
  for (unsigned i = 0; i < num_headers; i++) {
    hg_cache_key_add_str(key, headers[i].name);
    hg_cache_key_add_str(key, headers[i].text);
  }
}

/* Source -> executable IR through the IR cache (with the files the source included:
 * program_ir_cache.c). */
static cl_int compile_source(cl_program p, const char *options, hg_ir_module **out, char **log) {
  hg_cache_key key = {0};
  source_key(p, "ir-executable", options, NULL, 0, &key);
  if (hg_program_ir_cache_get(&key, out)) {
    hg_cache_key_free(&key);
    *log = strdup("");
    HG_LOG(HG_LOG_COMPILE, "IR cache hit");
    return CL_SUCCESS;
  }
  hg_frontend_deps deps;
  cl_int err = hg_frontend_source_to_ir_deps(p->source, options, NULL, 0, false, out, log, &deps);
  if (err == CL_SUCCESS) {
    hg_program_ir_cache_put(&key, *out, &deps);
    hg_frontend_deps_free(&deps);
  }
  hg_cache_key_free(&key);
  return err;
}

/* Source -> a compiled object (its bitcode: lowering/frontend.h) through the same cache. */
static cl_int compile_object(cl_program p, const char *options, const hg_source_header *headers,
                             unsigned num_headers, hg_frontend_object **out, char **log) {
  hg_cache_key key = {0};
  source_key(p, "object-bitcode", options, headers, num_headers, &key);
  uint8_t *bytes;
  size_t size;
  if (hg_program_cache_get(&key, &bytes, &size)) {
    *out = hg_frontend_object_decode(bytes, size);
    free(bytes);
    if (*out) {
      hg_cache_key_free(&key);
      *log = strdup("");
      HG_LOG(HG_LOG_COMPILE, "object cache hit");
      return CL_SUCCESS;
    }
  }
  hg_frontend_deps deps;
  cl_int err = hg_frontend_compile_object(p->source, options, headers, num_headers, out, log, &deps);
  if (err == CL_SUCCESS) {
    bytes = hg_frontend_object_encode(*out, &size);
    if (bytes)
      hg_program_cache_put(&key, bytes, size, &deps);
    free(bytes);
    hg_frontend_deps_free(&deps);
  }
  hg_cache_key_free(&key);
  return err;
}

/* A kernel whose arguments exceed CL_DEVICE_MAX_PARAMETER_SIZE builds (as PoCL's does: the
 * CTS's kernel_arg_info builds such kernels, counting size_t as 0 bytes, and only queries
 * them), with a warning in the log; launching it fails (clEnqueueNDRangeKernel). */
static void warn_parameter_size(const hg_ir_module *m, char **log) {
  for (uint32_t i = 0; i < m->num_functions; i++) {
    const hg_ir_function *f = &m->functions[i];
    uint64_t bytes = f->is_kernel ? hg_kernel_arg_bytes(f) : 0;
    if (bytes > HG_PROFILE_MAX_PARAMETER_SIZE)
      hg_log_append(log, "warning: kernel '%s' takes %llu bytes of arguments, more than CL_DEVICE_MAX_PARAMETER_SIZE (%u): "
                    "its launches fail with CL_OUT_OF_RESOURCES", f->name, (unsigned long long)bytes,
                    HG_PROFILE_MAX_PARAMETER_SIZE);
  }
}

/* Builds the executable on the context's backend, so errors surface at build time (a migration
 * meanwhile builds it on its target itself). */
static cl_int build_on_active_backend(cl_program p) {
  hg_backend *be = hg_context_backend(p->context);
  hg_dev_program *dev;
  return hg_program_device(p, be, &dev) == CL_SUCCESS ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
}

bool hg_program_option_given(const char *options, const char *name) {
  size_t n = strlen(name);
  for (const char *s = options ? strstr(options, name) : NULL; s; s = strstr(s + 1, name))
    if ((s == options || isspace((unsigned char)s[-1])) && (!s[n] || isspace((unsigned char)s[n])))
      return true;
  return false;
}

/* Turns a linked or loaded module into an executable: calls inlined, state computed. */
static cl_int finish_executable(hg_ir_module *m, char **log) { return hg_frontend_finish_executable(m, log); }

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                                               const char *options, program_notify_fn pfn_notify, void *user_data) {
  cl_int err = check_build_args(program, num_devices, device_list, pfn_notify, user_data);
  if (err != CL_SUCCESS)
    return err;
  cl_program p = program;
  uint64_t start_ns = hg_host_clock_ns();
  pthread_mutex_lock(&p->lock);
  if (!p->source && !p->il && !p->module) {
    pthread_mutex_unlock(&p->lock);
    return CL_INVALID_PROGRAM;
  }
  p->build_status = CL_BUILD_IN_PROGRESS;
  free(p->build_options);
  p->build_options = dup_or_empty(options);
  p->arg_info = p->source && hg_program_option_given(options, "-cl-kernel-arg-info");
  char *log = NULL;
  hg_ir_module *module = NULL;
  if (p->source || p->il) {
    err = p->source ? compile_source(p, p->build_options, &module, &log)
                    : hg_program_compile_il(p, p->build_options, false, &module, &log);
    if (err == CL_COMPILE_PROGRAM_FAILURE)
      err = CL_BUILD_PROGRAM_FAILURE;
  } else if (p->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    /* a compiled object or library loaded as a binary: link it alone into an executable */
    char msg[128];
    module = hg_ir_decode(p->binary, p->binary_size, msg, sizeof msg);
    err = module ? finish_executable(module, &log) : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_LINK_PROGRAM_FAILURE)
      err = CL_BUILD_PROGRAM_FAILURE;
  }
  if (err == CL_SUCCESS && module)
    warn_parameter_size(module, &log);
  if (err == CL_SUCCESS && module)
    err = hg_program_set_module(p, module, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  else if (module)
    hg_ir_module_free(module);
  set_log(p, log);
  pthread_mutex_unlock(&p->lock);
  if (err == CL_SUCCESS)
    err = build_on_active_backend(p);
  pthread_mutex_lock(&p->lock);
  p->build_status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  pthread_mutex_unlock(&p->lock);
  hg_heap_release_after_build(start_ns);
  HG_LOG(HG_LOG_COMPILE, "clBuildProgram(%s): %d", p->build_options, err);
  if (pfn_notify)
    pfn_notify(program, user_data);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id *device_list, const char *options,
                                                 cl_uint num_input_headers, const cl_program *input_headers,
                                                 const char **header_include_names, program_notify_fn pfn_notify,
                                                 void *user_data) {
  cl_int err = check_build_args(program, num_devices, device_list, pfn_notify, user_data);
  if (err != CL_SUCCESS)
    return err;
  if ((num_input_headers == 0) != (input_headers == NULL) || (num_input_headers && !header_include_names))
    return CL_INVALID_VALUE;
  hg_source_header *headers = calloc(num_input_headers ? num_input_headers : 1, sizeof *headers);
  if (!headers)
    return CL_OUT_OF_HOST_MEMORY;
  /* a program from IL ignores the headers (the specification's rule) */
  for (cl_uint i = 0; i < num_input_headers && !program->il; i++) {
    if (!hg_object_is(input_headers[i], HG_OBJ_PROGRAM) || !input_headers[i]->source || !header_include_names[i]) {
      free(headers);
      return !header_include_names[i] ? CL_INVALID_VALUE : CL_INVALID_PROGRAM;
    }
    headers[i].name = header_include_names[i];
    headers[i].text = input_headers[i]->source;
  }
  cl_program p = program;
  pthread_mutex_lock(&p->lock);
  if (!p->source && !p->il) {
    pthread_mutex_unlock(&p->lock);
    free(headers);
    return CL_INVALID_OPERATION;
  }
  p->build_status = CL_BUILD_IN_PROGRESS;
  free(p->build_options);
  p->build_options = dup_or_empty(options);
  p->arg_info = p->source && hg_program_option_given(options, "-cl-kernel-arg-info");
  char *log = NULL;
  hg_ir_module *module = NULL;
  hg_frontend_object *object = NULL;
  err = p->source ? compile_object(p, p->build_options, headers, num_input_headers, &object, &log)
                  : hg_program_compile_il(p, p->build_options, true, &module, &log);
  if (err == CL_INVALID_BUILD_OPTIONS) /* the front end's word; clCompileProgram's is this one */
    err = CL_INVALID_COMPILER_OPTIONS;
  if (err == CL_SUCCESS && object)
    hg_program_set_object(p, object);
  else if (err == CL_SUCCESS)
    err = hg_program_set_module(p, module, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  set_log(p, log);
  p->build_status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  pthread_mutex_unlock(&p->lock);
  free(headers);
  HG_LOG(HG_LOG_COMPILE, "clCompileProgram(%s): %d", p->build_options, err);
  if (pfn_notify)
    pfn_notify(program, user_data);
  return err;
}

/* The options clLinkProgram accepts. */
static bool link_options_valid(const char *options, bool *create_library) {
  static const char *const allowed[] = {"-create-library", "-enable-link-options", "-cl-denorms-are-zero",
                                        "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
                                        "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp"};
  *create_library = false;
  if (!options)
    return true;
  char *copy = strdup(options);
  bool ok = copy != NULL;
  for (char *save = NULL, *tok = copy ? strtok_r(copy, " \t\n", &save) : NULL; tok && ok;
       tok = strtok_r(NULL, " \t\n", &save)) {
    bool known = false;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
      known |= !strcmp(tok, allowed[i]);
    ok = known;
    if (!strcmp(tok, "-create-library"))
      *create_library = true;
  }
  free(copy);
  return ok;
}

/* An executable from objects compiled from source, linked as bitcode (lowering/frontend.h),
 * through the IR cache keyed by the objects' bytes; *applicable false (nothing done) when an
 * input has no bitcode (loaded as a binary, compiled from IL). */
static cl_int link_objects(const cl_program *inputs, cl_uint n, hg_ir_module **out, char **log, bool *applicable) {
  uint8_t **encoded = calloc(n, sizeof *encoded); /* copies: an input may be rebuilt meanwhile */
  size_t *sizes = calloc(n, sizeof *sizes);
  *applicable = encoded && sizes;
  for (cl_uint i = 0; *applicable && i < n; i++) {
    pthread_mutex_lock(&inputs[i]->lock);
    if (inputs[i]->object)
      encoded[i] = hg_frontend_object_encode(inputs[i]->object, &sizes[i]);
    pthread_mutex_unlock(&inputs[i]->lock);
    *applicable = encoded[i] != NULL;
  }
  cl_int err = CL_SUCCESS;
  if (*applicable) {
    hg_cache_key key = {0};
    hg_cache_key_add_str(&key, "linked-executable");
    hg_cache_key_add_str(&key, HETGPU_DRIVER_VERSION);
    for (cl_uint i = 0; i < n; i++)
      hg_cache_key_add(&key, encoded[i], sizes[i]);
    if (hg_program_ir_cache_get(&key, out)) {
      HG_LOG(HG_LOG_COMPILE, "IR cache hit (a link)");
    } else {
      hg_frontend_object **objs = calloc(n, sizeof *objs);
      err = objs ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
      for (cl_uint i = 0; err == CL_SUCCESS && i < n; i++)
        if (!(objs[i] = hg_frontend_object_decode(encoded[i], sizes[i])))
          err = CL_OUT_OF_HOST_MEMORY; /* its own encoding: only memory can fail it */
      if (err == CL_SUCCESS)
        err = hg_frontend_link_objects((const hg_frontend_object *const *)objs, n, out, log);
      if (err == CL_SUCCESS)
        hg_program_ir_cache_put(&key, *out, &(hg_frontend_deps){0});
      for (cl_uint i = 0; objs && i < n; i++)
        hg_frontend_object_free(objs[i]);
      free(objs);
    }
    hg_cache_key_free(&key);
  }
  for (cl_uint i = 0; encoded && i < n; i++)
    free(encoded[i]);
  free(encoded);
  free(sizes);
  return err;
}

/* The inputs' IR linked (an executable is not finished yet). */
static cl_int link_ir(const cl_program *inputs, cl_uint n, bool create_library, hg_ir_module **out, char **log) {
  hg_ir_module **mods = calloc(n, sizeof *mods);
  char msg[512] = "";
  cl_int err = mods ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; mods && err == CL_SUCCESS && i < n; i++) {
    pthread_mutex_lock(&inputs[i]->lock);
    if (hg_program_object_ir(inputs[i]) != CL_SUCCESS)
      err = CL_LINK_PROGRAM_FAILURE; /* the object's IR could not be made: its build log says why */
    else if (!(mods[i] = hg_ir_decode(inputs[i]->binary, inputs[i]->binary_size, msg, sizeof msg)))
      err = CL_OUT_OF_HOST_MEMORY;
    pthread_mutex_unlock(&inputs[i]->lock);
  }
  *out = NULL;
  if (err == CL_SUCCESS) {
    *out = hg_ir_link((const hg_ir_module *const *)mods, n,
                      create_library ? HG_IR_PROGRAM_LIBRARY : HG_IR_PROGRAM_EXECUTABLE, msg, sizeof msg);
    if (!*out) {
      err = CL_LINK_PROGRAM_FAILURE;
      *log = strdup(msg);
    }
  }
  for (cl_uint i = 0; mods && i < n; i++)
    if (mods[i])
      hg_ir_module_free(mods[i]);
  free(mods);
  if (err == CL_SUCCESS && !create_library)
    err = finish_executable(*out, log);
  return err;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id *device_list, const char *options,
                                                  cl_uint num_input_programs, const cl_program *input_programs,
                                                  program_notify_fn pfn_notify, void *user_data, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  uint64_t start_ns = hg_host_clock_ns();
  if (!hg_object_is(context, HG_OBJ_CONTEXT)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if ((num_devices == 0) != (device_list == NULL) || num_input_programs == 0 || !input_programs ||
      (!pfn_notify && user_data)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (device_list[i] != context->device) {
      HG_SET_ERR(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    if (!hg_object_is(input_programs[i], HG_OBJ_PROGRAM) || input_programs[i]->context != context) {
      HG_SET_ERR(errcode_ret, CL_INVALID_PROGRAM);
      return NULL;
    }
    cl_program_binary_type t = input_programs[i]->binary_type;
    if (t != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && t != CL_PROGRAM_BINARY_TYPE_LIBRARY) {
      HG_SET_ERR(errcode_ret, CL_INVALID_OPERATION);
      return NULL;
    }
  }
  bool create_library;
  if (!link_options_valid(options, &create_library)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_LINKER_OPTIONS);
    return NULL;
  }
  cl_program p = hg_program_create(context, &err);
  if (!p) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  bool arg_info = true;
  for (cl_uint i = 0; i < num_input_programs; i++) {
    pthread_mutex_lock(&input_programs[i]->lock);
    arg_info &= input_programs[i]->arg_info;
    pthread_mutex_unlock(&input_programs[i]->lock);
  }
  char *log = NULL;
  hg_ir_module *linked = NULL;
  bool as_bitcode = !create_library;
  if (as_bitcode)
    err = link_objects(input_programs, num_input_programs, &linked, &log, &as_bitcode);
  if (!as_bitcode)
    err = link_ir(input_programs, num_input_programs, create_library, &linked, &log);
  if (err == CL_SUCCESS && !create_library)
    warn_parameter_size(linked, &log);
  pthread_mutex_lock(&p->lock);
  free(p->build_options);
  p->build_options = dup_or_empty(options);
  p->arg_info = arg_info;
  if (err == CL_SUCCESS) {
    err = hg_program_set_module(p, linked,
                                create_library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    linked = NULL;
  }
  if (linked)
    hg_ir_module_free(linked);
  set_log(p, log);
  pthread_mutex_unlock(&p->lock);
  if (err == CL_SUCCESS && !create_library)
    err = build_on_active_backend(p) == CL_SUCCESS ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
  p->build_status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  hg_heap_release_after_build(start_ns);
  if (pfn_notify)
    pfn_notify(p, user_data);
  HG_SET_ERR(errcode_ret, err);
  /* a failed link still returns the program, so its log can be read */
  return p;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  if (device != program->context->device)
    return CL_INVALID_DEVICE;
  cl_program p = program;
  cl_int err;
  pthread_mutex_lock(&p->lock);
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS:
    err = hg_info_return(param_value, param_value_size, param_value_size_ret, &p->build_status,
                         sizeof p->build_status);
    break;
  case CL_PROGRAM_BUILD_OPTIONS: {
    const char *s = p->build_options ? p->build_options : "";
    err = hg_info_return(param_value, param_value_size, param_value_size_ret, s, strlen(s) + 1);
    break;
  }
  case CL_PROGRAM_BUILD_LOG: {
    const char *s = p->build_log ? p->build_log : "";
    err = hg_info_return(param_value, param_value_size, param_value_size_ret, s, strlen(s) + 1);
    break;
  }
  case CL_PROGRAM_BINARY_TYPE: {
    cl_program_binary_type t = p->build_status == CL_BUILD_ERROR ? CL_PROGRAM_BINARY_TYPE_NONE : p->binary_type;
    err = hg_info_return(param_value, param_value_size, param_value_size_ret, &t, sizeof t);
    break;
  }
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
    size_t zero = 0; /* no program-scope global variables on this device */
    err = hg_info_return(param_value, param_value_size, param_value_size_ret, &zero, sizeof zero);
    break;
  }
  default:
    err = CL_INVALID_VALUE;
  }
  pthread_mutex_unlock(&p->lock);
  return err;
}
