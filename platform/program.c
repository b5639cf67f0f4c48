/* Program objects: clCreateProgramWithSource, clCreateProgramWithBinary, clRetainProgram,
 * clReleaseProgram, clGetProgramInfo. Building is in program_build.c. */
#include "platform/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/context_objects.h"
#include "platform/info.h"
#include "common/log.h"
#include "devices/cache.h"
#include "platform/platform.h"

cl_program hg_program_create(cl_context context, cl_int *err) {
  cl_program p = calloc(1, sizeof *p);
  if (!p) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (hg_context_track(context, p, CL_OBJECT_PROGRAM_HETGPU) != CL_SUCCESS) {
    free(p);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  hg_object_init(&p->obj, HG_OBJ_PROGRAM);
  pthread_mutex_init(&p->lock, NULL);
  p->context = context;
  hg_context_retain(context);
  p->build_status = CL_BUILD_NONE;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  atomic_init(&p->num_kernels_attached, 0);
  *err = CL_SUCCESS;
  return p;
}

static void program_free(cl_program p) {
  hg_context_untrack(p->context, p);
  hg_object_retire(&p->obj);
  for (unsigned i = 0; i < HG_MAX_BACKENDS; i++)
    if (p->dev[i]) {
      hg_backend *be = hg_backend_at(i);
      be->ops->program_free(be, p->dev[i]);
    }
  if (p->module)
    hg_ir_module_free(p->module);
  free(p->plain_launches);
  free(p->binary);
  hg_frontend_object_free(p->object);
  free(p->source);
  free(p->il);
  free(p->spec);
  free(p->build_options);
  free(p->build_log);
  pthread_mutex_destroy(&p->lock);
  cl_context ctx = p->context;
  hg_object_free(&p->obj);
  hg_context_release(ctx);
}

void hg_program_retain(cl_program program) { hg_object_retain(&program->obj); }
void hg_program_release(cl_program program) {
  if (hg_object_release(&program->obj))
    program_free(program);
}

/* The module and its encoding (the program takes both). */
static void set_module_encoded(cl_program p, hg_ir_module *module, uint8_t *bytes, size_t size,
                               cl_program_binary_type type) {
  for (unsigned i = 0; i < HG_MAX_BACKENDS; i++)
    if (p->dev[i]) {
      hg_backend *be = hg_backend_at(i);
      be->ops->program_free(be, p->dev[i]);
      p->dev[i] = NULL;
    }
  if (p->module)
    hg_ir_module_free(p->module);
  free(p->binary);
  hg_frontend_object_free(p->object);
  p->object = NULL;
  p->module = module;
  free(p->plain_launches);
  p->plain_launches = module ? calloc(module->num_functions ? module->num_functions : 1, sizeof *p->plain_launches)
                             : NULL;
  p->binary = bytes;
  p->binary_size = size;
  p->binary_type = type;
  if (bytes)
    hg_cache_hash(bytes, size, p->digest); /* every build needs it: a tenth of what the encoding cost */
}

cl_int hg_program_set_module(cl_program p, hg_ir_module *module, cl_program_binary_type type) {
  uint8_t *bytes = NULL;
  size_t size = 0;
  if (hg_ir_encode(module, &bytes, &size) != 0) {
    hg_ir_module_free(module);
    return CL_OUT_OF_HOST_MEMORY;
  }
  set_module_encoded(p, module, bytes, size, type);
  return CL_SUCCESS;
}

void hg_program_set_object(cl_program p, hg_frontend_object *object) {
  set_module_encoded(p, NULL, NULL, 0, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  p->object = object;
}

cl_int hg_program_object_ir(cl_program p) {
  if (p->module || !p->object)
    return p->module ? CL_SUCCESS : CL_INVALID_PROGRAM;
  hg_ir_module *m;
  char *log = NULL;
  cl_int err = hg_frontend_object_to_ir(p->object, &m, &log);
  if (err == CL_SUCCESS) {
    hg_frontend_object *object = p->object; /* kept: a later link of objects takes it */
    p->object = NULL;
    err = hg_program_set_module(p, m, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    p->object = object;
  } else if (log && log[0]) { /* the object's build log says why it has no binary */
    hg_log_append(&p->build_log, "%s", log);
  }
  free(log);
  return err;
}

uint32_t hg_program_find_kernel(cl_program p, const char *name) {
  if (!p->module || p->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
    return HG_IR_NONE;
  for (uint32_t i = 0; i < p->module->num_functions; i++) {
    const hg_ir_function *f = &p->module->functions[i];
    if (f->is_kernel && !strcmp(f->name, name))
      return i;
  }
  return HG_IR_NONE;
}

cl_int hg_program_device(cl_program p, hg_backend *be, hg_dev_program **out) {
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&p->lock);
  if (!p->dev[be->index]) {
    char *log = NULL;
    /* -D, -I and the math options were applied by the front end and recorded in the IR: the
     * backend gets no application options */
    err = hg_backend_open(be);
    if (err == CL_SUCCESS)
      err = be->ops->program_build(be, p->module, p->digest, "", &p->dev[be->index], &log);
    if (err != CL_SUCCESS) {
      HG_LOG(HG_LOG_COMPILE, "lowered program failed to build on %s: %s", be->name, log ? log : "");
      /* keep the backend's log: it is our bug, and the application's build log should say so */
      static const char fmt[] = "\n[hetGPU] backend %s failed to build the lowered program:\n%s";
      size_t old = p->build_log ? strlen(p->build_log) : 0;
      size_t add = (size_t)snprintf(NULL, 0, fmt, be->name, log ? log : "") + 1; /* all of it: the reason is last */
      char *merged = realloc(p->build_log, old + add);
      if (merged) {
        snprintf(merged + old, add, fmt, be->name, log ? log : "");
        p->build_log = merged;
      }
    }
    free(log);
  }
  *out = p->dev[be->index];
  pthread_mutex_unlock(&p->lock);
  return err;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                              const char **strings, const size_t *lengths,
                                                              cl_int *errcode_ret) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (count == 0 || !strings) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
    total += (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
  }
  cl_int err;
  cl_program p = hg_program_create(context, &err);
  if (!p) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  p->source = malloc(total + 1);
  if (!p->source) {
    hg_program_release(p);
    HG_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    memcpy(p->source + at, strings[i], n);
    at += n;
  }
  p->source[at] = 0;
  p->source_length = at;
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

/* The binary type recorded in an IR module: kernels with every call resolved make an
 * executable; anything else is a compiled object (a library when linked with -create-library). */
static cl_program_binary_type binary_type_of(const hg_ir_module *m) {
  if (m->program_kind == HG_IR_PROGRAM_LIBRARY)
    return CL_PROGRAM_BINARY_TYPE_LIBRARY;
  if (m->program_kind == HG_IR_PROGRAM_OBJECT)
    return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id *device_list, const size_t *lengths,
                                                              const unsigned char **binaries, cl_int *binary_status,
                                                              cl_int *errcode_ret) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_CONTEXT);
    return NULL;
  }
  if (num_devices == 0 || !device_list) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (device_list[i] != context->device) {
      HG_SET_ERR(errcode_ret, CL_INVALID_DEVICE);
      return NULL;
    }
  if (!lengths || !binaries) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++)
    if (!lengths[i] || !binaries[i]) {
      if (binary_status)
        binary_status[i] = CL_INVALID_VALUE;
      HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
      return NULL;
    }
  /* one device: every entry must hold the same valid IR */
  char msg[256];
  hg_ir_module *module = hg_ir_decode(binaries[0], lengths[0], msg, sizeof msg);
  if (!module) {
    HG_LOG(HG_LOG_API, "clCreateProgramWithBinary: invalid binary: %s", msg);
    if (binary_status)
      for (cl_uint i = 0; i < num_devices; i++)
        binary_status[i] = CL_INVALID_BINARY;
    HG_SET_ERR(errcode_ret, CL_INVALID_BINARY);
    return NULL;
  }
  cl_int err;
  cl_program p = hg_program_create(context, &err);
  if (!p) {
    hg_ir_module_free(module);
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  /* the binary the application gave is the module's encoding, checked by the decoder: kept as
   * it is rather than made again (hashcat's main program: 67 MB at every start) */
  uint8_t *bytes = malloc(lengths[0]);
  if (!bytes) {
    hg_ir_module_free(module);
    hg_program_release(p);
    HG_SET_ERR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  memcpy(bytes, binaries[0], lengths[0]);
  set_module_encoded(p, module, bytes, lengths[0], binary_type_of(module));
  if (binary_status)
    for (cl_uint i = 0; i < num_devices; i++)
      binary_status[i] = CL_SUCCESS;
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  hg_program_retain(program);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  hg_program_release(program);
  return CL_SUCCESS;
}

static cl_int kernel_names(cl_program p, char **names, size_t *count) {
  size_t len = 1, n = 0;
  for (uint32_t i = 0; i < p->module->num_functions; i++)
    if (p->module->functions[i].is_kernel) {
      len += strlen(p->module->functions[i].name) + 1;
      n++;
    }
  char *s = calloc(1, len);
  if (!s)
    return CL_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < p->module->num_functions; i++)
    if (p->module->functions[i].is_kernel) {
      if (*s)
        strcat(s, ";");
      strcat(s, p->module->functions[i].name);
    }
  *names = s;
  *count = n;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  cl_program p = program;
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, hg_object_refcount(&p->obj));
  case CL_PROGRAM_CONTEXT:
    HG_INFO_VALUE(cl_context, p->context);
  case CL_PROGRAM_NUM_DEVICES:
    HG_INFO_VALUE(cl_uint, 1);
  case CL_PROGRAM_DEVICES:
    HG_INFO_VALUE(cl_device_id, p->context->device);
  case CL_PROGRAM_SOURCE:
    HG_INFO_STRING(p->source ? p->source : "");
  case CL_PROGRAM_IL: /* the module as given; nothing for programs from source or binaries */
    HG_INFO_ARRAY(p->il, p->il ? p->il_length : 0);
  case CL_PROGRAM_BINARY_SIZES: {
    pthread_mutex_lock(&p->lock);
    hg_program_object_ir(p); /* none: no binary (size 0) */
    size_t size = p->binary_size;
    pthread_mutex_unlock(&p->lock);
    HG_INFO_VALUE(size_t, size);
  }
  case CL_PROGRAM_BINARIES: {
    /* param_value is an array of one pointer to application memory of BINARY_SIZES bytes */
    cl_int err = hg_info_return(NULL, 0, param_value_size_ret, NULL, sizeof(unsigned char *));
    if (err == CL_SUCCESS && param_value) {
      if (param_value_size < sizeof(unsigned char *))
        return CL_INVALID_VALUE;
      unsigned char *dst = ((unsigned char **)param_value)[0];
      pthread_mutex_lock(&p->lock);
      hg_program_object_ir(p);
      if (dst && p->binary)
        memcpy(dst, p->binary, p->binary_size);
      pthread_mutex_unlock(&p->lock);
    }
    return err;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    pthread_mutex_lock(&p->lock);
    if (!p->module || p->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE || p->build_status == CL_BUILD_ERROR) {
      pthread_mutex_unlock(&p->lock);
      return CL_INVALID_PROGRAM_EXECUTABLE;
    }
    char *names;
    size_t count;
    cl_int err = kernel_names(p, &names, &count);
    pthread_mutex_unlock(&p->lock);
    if (err != CL_SUCCESS)
      return err;
    if (param_name == CL_PROGRAM_NUM_KERNELS)
      err = hg_info_return(param_value, param_value_size, param_value_size_ret, &count, sizeof count);
    else
      err = hg_info_return(param_value, param_value_size, param_value_size_ret, names, strlen(names) + 1);
    free(names);
    return err;
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    HG_INFO_VALUE(cl_bool, CL_FALSE);
  default:
    return CL_INVALID_VALUE;
  }
}
