/* Kernel objects: clCreateKernel, clCreateKernelsInProgram, clCloneKernel, clRetainKernel,
 * clReleaseKernel, clSetKernelArg, clGetKernelInfo, clGetKernelArgInfo,
 * clGetKernelWorkGroupInfo, clGetKernelSubGroupInfo. */
#include "platform/kernel.h"

#include <stdlib.h>
#include <string.h>

#include "devices/profile.h"
#include "platform/context_objects.h"
#include "platform/info.h"
#include "common/log.h"
#include "platform/mem.h"
#include "platform/mem_object.h"
#include "platform/sampler.h"
#include "platform/platform.h"
#include "platform/safepoints.h"

const hg_ir_function *hg_kernel_function(cl_kernel k) { return &k->program->module->functions[k->function]; }

static void kernel_free(cl_kernel k) {
  hg_context_untrack(k->program->context, k);
  hg_object_retire(&k->obj);
  const hg_ir_function *f = hg_kernel_function(k);
  for (unsigned i = 0; i < HG_MAX_BACKENDS; i++)
    if (k->dev[i]) {
      hg_backend *be = hg_backend_at(i);
      be->ops->kernel_free(be, k->dev[i]);
    }
  for (uint32_t i = 0; i < f->num_params; i++)
    free(k->args[i].value);
  free(k->args);
  pthread_mutex_destroy(&k->lock);
  cl_program p = k->program;
  hg_object_free(&k->obj);
  atomic_fetch_sub(&p->num_kernels_attached, 1);
  hg_program_release(p);
}

static cl_kernel kernel_new(cl_program program, uint32_t function, cl_int *err) {
  cl_kernel k = calloc(1, sizeof *k);
  const hg_ir_function *f = &program->module->functions[function];
  if (!k || !(k->args = calloc(f->num_params ? f->num_params : 1, sizeof *k->args))) {
    free(k);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  hg_object_init(&k->obj, HG_OBJ_KERNEL);
  pthread_mutex_init(&k->lock, NULL);
  k->program = program;
  k->function = function;
  hg_program_retain(program);
  atomic_fetch_add(&program->num_kernels_attached, 1);
  *err = CL_SUCCESS;
  return k;
}

/* Enters a new kernel in its context's object list; frees it when that fails. Never called with
 * the program's lock held: a migration takes the object list first, then programs' locks. */
static cl_int kernel_publish(cl_kernel k) {
  cl_int err = hg_context_track(k->program->context, k, CL_OBJECT_KERNEL_HETGPU);
  if (err != CL_SUCCESS)
    kernel_free(k);
  return err;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret) {
  if (!hg_object_is(program, HG_OBJ_PROGRAM)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_PROGRAM);
    return NULL;
  }
  if (!kernel_name) {
    HG_SET_ERR(errcode_ret, CL_INVALID_VALUE);
    return NULL;
  }
  pthread_mutex_lock(&program->lock);
  cl_int err = CL_SUCCESS;
  cl_kernel k = NULL;
  if (!hg_program_has_executable(program))
    err = CL_INVALID_PROGRAM_EXECUTABLE;
  else {
    uint32_t f = hg_program_find_kernel(program, kernel_name);
    if (f == HG_IR_NONE)
      err = CL_INVALID_KERNEL_NAME;
    else
      k = kernel_new(program, f, &err);
  }
  pthread_mutex_unlock(&program->lock);
  if (k && (err = kernel_publish(k)) != CL_SUCCESS)
    k = NULL;
  HG_SET_ERR(errcode_ret, err);
  return k;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels,
                                                         cl_uint *num_kernels_ret) {
  HG_CHECK_PROGRAM(program, CL_INVALID_PROGRAM);
  pthread_mutex_lock(&program->lock);
  cl_int err = CL_SUCCESS;
  cl_uint n = 0;
  if (!hg_program_has_executable(program))
    err = CL_INVALID_PROGRAM_EXECUTABLE;
  else {
    for (uint32_t i = 0; i < program->module->num_functions; i++)
      n += program->module->functions[i].is_kernel;
    if (kernels && num_kernels < n)
      err = CL_INVALID_VALUE;
  }
  cl_uint made = 0;
  for (uint32_t i = 0; err == CL_SUCCESS && kernels && i < program->module->num_functions; i++)
    if (program->module->functions[i].is_kernel) {
      kernels[made] = kernel_new(program, i, &err);
      if (err == CL_SUCCESS)
        made++;
    }
  pthread_mutex_unlock(&program->lock);
  for (cl_uint i = 0; i < made && err == CL_SUCCESS; i++)
    err = hg_context_track(program->context, kernels[i], CL_OBJECT_KERNEL_HETGPU);
  if (err != CL_SUCCESS) {
    for (cl_uint i = 0; i < made; i++)
      kernel_free(kernels[i]); /* untracking one never entered does nothing */
    return err;
  }
  if (num_kernels_ret)
    *num_kernels_ret = n;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  if (!hg_object_is(source_kernel, HG_OBJ_KERNEL)) {
    HG_SET_ERR(errcode_ret, CL_INVALID_KERNEL);
    return NULL;
  }
  cl_int err;
  cl_kernel k = kernel_new(source_kernel->program, source_kernel->function, &err);
  if (!k) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  const hg_ir_function *f = hg_kernel_function(k);
  pthread_mutex_lock(&source_kernel->lock);
  for (uint32_t i = 0; i < f->num_params && err == CL_SUCCESS; i++) {
    k->args[i] = source_kernel->args[i];
    k->args[i].value = NULL;
    if (source_kernel->args[i].value) {
      k->args[i].value = malloc(k->args[i].size);
      if (!k->args[i].value)
        err = CL_OUT_OF_HOST_MEMORY;
      else
        memcpy(k->args[i].value, source_kernel->args[i].value, k->args[i].size);
    }
  }
  pthread_mutex_unlock(&source_kernel->lock);
  if (err != CL_SUCCESS)
    kernel_free(k);
  else
    err = kernel_publish(k);
  HG_SET_ERR(errcode_ret, err);
  return err == CL_SUCCESS ? k : NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  hg_object_retain(&kernel->obj);
  return CL_SUCCESS;
}

void hg_kernel_release(cl_kernel kernel) {
  if (hg_object_release(&kernel->obj))
    kernel_free(kernel);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  hg_kernel_release(kernel);
  return CL_SUCCESS;
}

/* The image type an image parameter's OpenCL C type names (0: unknown). */
static cl_mem_object_type image_type_of(const char *type_name) {
  static const struct {
    const char *name;
    cl_mem_object_type type;
  } types[] = {{"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER}, {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
               {"image1d_t", CL_MEM_OBJECT_IMAGE1D},               {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
               {"image2d_t", CL_MEM_OBJECT_IMAGE2D},               {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
  for (size_t i = 0; type_name && i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(type_name, types[i].name))
      return types[i].type;
  return 0;
}

/* An image argument: a live image of the kernel's context, of the parameter's type, that the
 * kernel's access to it is allowed on (OpenCL 3.0, clSetKernelArg). */
static cl_int image_arg(cl_kernel kernel, const hg_ir_kernel_arg *meta, size_t arg_size, const void *arg_value) {
  if (arg_size != sizeof(cl_mem))
    return CL_INVALID_ARG_SIZE;
  cl_mem image = arg_value ? *(const cl_mem *)arg_value : NULL;
  if (!hg_object_is(image, HG_OBJ_MEM) || !image->image || image->context != kernel->program->context)
    return CL_INVALID_MEM_OBJECT;
  cl_mem_object_type want = image_type_of(meta->type_name);
  if (want && want != image->image->layout.type)
    return CL_INVALID_ARG_VALUE;
  if ((meta->access_qual == 1 && (image->flags & CL_MEM_WRITE_ONLY)) ||
      (meta->access_qual == 2 && (image->flags & CL_MEM_READ_ONLY)))
    return CL_INVALID_ARG_VALUE;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void *arg_value) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  const hg_ir_function *f = hg_kernel_function(kernel);
  if (arg_index >= f->num_params)
    return CL_INVALID_ARG_INDEX;
  const hg_ir_kernel_arg *meta = &f->args[arg_index];
  hg_kernel_arg arg = {.set = true};
  switch (meta->kind) {
  case HG_KARG_GLOBAL_PTR:
  case HG_KARG_CONSTANT_PTR:
    if (arg_size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    arg.mem = arg_value ? *(const cl_mem *)arg_value : NULL;
    if (arg.mem && !hg_object_is(arg.mem, HG_OBJ_MEM))
      return CL_INVALID_MEM_OBJECT;
    if (arg.mem && hg_mem_context(arg.mem) != kernel->program->context)
      return CL_INVALID_MEM_OBJECT;
    if (arg.mem && meta->kind == HG_KARG_CONSTANT_PTR && hg_mem_size(arg.mem) > HG_PROFILE_MAX_CONSTANT_BUFFER_SIZE)
      return CL_INVALID_ARG_SIZE;
    break;
  case HG_KARG_LOCAL_PTR:
    if (arg_value)
      return CL_INVALID_ARG_VALUE;
    if (arg_size == 0)
      return CL_INVALID_ARG_SIZE;
    arg.size = arg_size;
    break;
  case HG_KARG_VALUE:
    if (!arg_value)
      return CL_INVALID_ARG_VALUE;
    if (arg_size != meta->size)
      return CL_INVALID_ARG_SIZE;
    arg.size = arg_size;
    arg.value = malloc(arg_size);
    if (!arg.value)
      return CL_OUT_OF_HOST_MEMORY;
    memcpy(arg.value, arg_value, arg_size);
    break;
  case HG_KARG_IMAGE: {
    cl_int err = image_arg(kernel, meta, arg_size, arg_value);
    if (err != CL_SUCCESS)
      return err;
    arg.mem = *(const cl_mem *)arg_value;
    break;
  }
  case HG_KARG_SAMPLER: {
    if (arg_size != sizeof(cl_sampler))
      return CL_INVALID_ARG_SIZE;
    cl_sampler sampler = arg_value ? *(const cl_sampler *)arg_value : NULL;
    if (!hg_object_is(sampler, HG_OBJ_SAMPLER) || sampler->context != kernel->program->context)
      return CL_INVALID_SAMPLER;
    /* the bits are what the kernel receives: the sampler may be released after this */
    arg.size = sizeof sampler->bits;
    if (!(arg.value = malloc(arg.size)))
      return CL_OUT_OF_HOST_MEMORY;
    memcpy(arg.value, &sampler->bits, arg.size);
    break;
  }
  default:
    return CL_INVALID_ARG_VALUE;
  }
  pthread_mutex_lock(&kernel->lock);
  free(kernel->args[arg_index].value);
  kernel->args[arg_index] = arg;
  pthread_mutex_unlock(&kernel->lock);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  const hg_ir_function *f = hg_kernel_function(kernel);
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    HG_INFO_STRING(f->name);
  case CL_KERNEL_NUM_ARGS:
    HG_INFO_VALUE(cl_uint, f->num_params);
  case CL_KERNEL_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, hg_object_refcount(&kernel->obj));
  case CL_KERNEL_CONTEXT:
    HG_INFO_VALUE(cl_context, kernel->program->context);
  case CL_KERNEL_PROGRAM:
    HG_INFO_VALUE(cl_program, kernel->program);
  case CL_KERNEL_ATTRIBUTES:
    HG_INFO_STRING(f->attributes ? f->attributes : "");
  case CL_KERNEL_STOPPABLE_HETGPU: {
    bool stoppable = hg_kernel_stoppable(kernel, hg_context_backend(kernel->program->context), true);
    HG_INFO_VALUE(cl_bool, stoppable ? CL_TRUE : CL_FALSE);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  const hg_ir_function *f = hg_kernel_function(kernel);
  if (arg_index >= f->num_params)
    return CL_INVALID_ARG_INDEX;
  const hg_ir_kernel_arg *a = &f->args[arg_index];
  /* OpenCL 3.0, clGetKernelArgInfo: only for programs from source built with -cl-kernel-arg-info
   * (the CTS's pipe_info expects CL_KERNEL_ARG_INFO_NOT_AVAILABLE for a program from a binary) */
  pthread_mutex_lock(&kernel->program->lock);
  bool available = kernel->program->arg_info;
  pthread_mutex_unlock(&kernel->program->lock);
  if (!available && param_name >= CL_KERNEL_ARG_ADDRESS_QUALIFIER && param_name <= CL_KERNEL_ARG_NAME)
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    /* images are memory objects in the global address space (as the CTS and vendors report) */
    cl_kernel_arg_address_qualifier q = a->kind == HG_KARG_GLOBAL_PTR || a->kind == HG_KARG_IMAGE
                                            ? CL_KERNEL_ARG_ADDRESS_GLOBAL
                                        : a->kind == HG_KARG_CONSTANT_PTR ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                                        : a->kind == HG_KARG_LOCAL_PTR    ? CL_KERNEL_ARG_ADDRESS_LOCAL
                                                                          : CL_KERNEL_ARG_ADDRESS_PRIVATE;
    HG_INFO_VALUE(cl_kernel_arg_address_qualifier, q);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    static const cl_kernel_arg_access_qualifier access[] = {
        CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        CL_KERNEL_ARG_ACCESS_READ_WRITE};
    HG_INFO_VALUE(cl_kernel_arg_access_qualifier, access[a->access_qual & 3]);
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    HG_INFO_STRING(a->type_name ? a->type_name : "");
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (a->type_qual & 1)
      q |= CL_KERNEL_ARG_TYPE_CONST;
    if (a->type_qual & 2)
      q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (a->type_qual & 4)
      q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (a->type_qual & 8)
      q |= CL_KERNEL_ARG_TYPE_PIPE;
    HG_INFO_VALUE(cl_kernel_arg_type_qualifier, q);
  }
  case CL_KERNEL_ARG_NAME:
    HG_INFO_STRING(a->name ? a->name : "");
  default:
    return CL_INVALID_VALUE;
  }
}

uint64_t hg_kernel_arg_bytes(const hg_ir_function *f) {
  uint64_t bytes = 0;
  for (uint32_t a = 0; a < f->num_params; a++)
    bytes += f->args[a].kind == HG_KARG_VALUE ? f->args[a].size : 8;
  return bytes;
}

cl_ulong hg_kernel_args_local_mem(const hg_ir_function *f, const hg_kernel_arg *args) {
  cl_ulong total = HG_PROFILE_LOCAL_MEM_RESERVE + f->local_static_size;
  for (uint32_t i = 0; i < f->num_params; i++)
    if (f->args[i].kind == HG_KARG_LOCAL_PTR && args[i].set) {
      cl_ulong align = hg_ir_local_arg_align(&f->args[i]);
      total = (total + align - 1) / align * align + args[i].size;
    }
  return total;
}

cl_ulong hg_kernel_local_mem_size(cl_kernel k) {
  pthread_mutex_lock(&k->lock);
  cl_ulong total = hg_kernel_args_local_mem(hg_kernel_function(k), k->args);
  pthread_mutex_unlock(&k->lock);
  return total;
}

size_t hg_kernel_work_group_size(cl_kernel k) {
  const hg_ir_function *f = hg_kernel_function(k);
  if (f->reqd_work_group_size[0])
    return (size_t)f->reqd_work_group_size[0] * f->reqd_work_group_size[1] * f->reqd_work_group_size[2];
  size_t known = atomic_load(&k->work_group_size);
  if (known)
    return known;
  size_t best = HG_PROFILE_MAX_WORK_GROUP_SIZE;
  for (unsigned i = 0; i < hg_backend_count(); i++) {
    hg_backend *be = hg_backend_at(i);
    hg_dev_kernel *dk;
    if (!be || atomic_load(&be->lost) || !be->ops->kernel_work_group_size)
      continue;
    size_t known = be->ops->kernel_work_group_size_known
                       ? be->ops->kernel_work_group_size_known(be, k->program->module,
                                                               k->program->digest,
                                                               hg_kernel_function(k)->name)
                       : 0;
    if (known) { /* no build of the program for this backend only to learn it */
      best = known < best ? known : best;
      continue;
    }
    if (hg_kernel_device(k, be, &dk) != CL_SUCCESS) { /* it cannot run there at all: the safe size */
      best = best < HG_KERNEL_SAFE_WORK_GROUP_SIZE ? best : HG_KERNEL_SAFE_WORK_GROUP_SIZE;
      continue;
    }
    size_t n = be->ops->kernel_work_group_size(be, dk);
    if (n && n < best)
      best = n;
  }
  atomic_store(&k->work_group_size, best);
  return best;
}

bool hg_kernel_stoppable(cl_kernel k, hg_backend *be, bool wait) {
  hg_dev_kernel *dk;
  if (!hg_safepoints_enabled() || !be || !be->ops->kernel_run || hg_kernel_device(k, be, &dk) != CL_SUCCESS)
    return false;
  return !be->ops->kernel_stoppable || be->ops->kernel_stoppable(be, dk, wait);
}

size_t hg_kernel_safe_work_group_size(cl_kernel k) {
  size_t exact = hg_kernel_function(k)->private_size > HG_KERNEL_SMALL_PRIVATE ? hg_kernel_work_group_size(k)
                                                                                : atomic_load(&k->work_group_size);
  return exact && exact < HG_KERNEL_SAFE_WORK_GROUP_SIZE ? exact : HG_KERNEL_SAFE_WORK_GROUP_SIZE;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name, size_t param_value_size,
                                                         void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  if (device && device != kernel->program->context->device)
    return CL_INVALID_DEVICE;
  const hg_ir_function *f = hg_kernel_function(kernel);
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    HG_INFO_VALUE(size_t, hg_kernel_work_group_size(kernel));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t sizes[3] = {f->reqd_work_group_size[0], f->reqd_work_group_size[1], f->reqd_work_group_size[2]};
    HG_INFO_ARRAY(sizes, sizeof sizes);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    HG_INFO_VALUE(cl_ulong, hg_kernel_local_mem_size(kernel));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: /* a hint: the starting backend's */
    HG_INFO_VALUE(size_t, hg_device_hints()->work_group_size_multiple);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    HG_INFO_VALUE(cl_ulong, f->private_size);
  case CL_KERNEL_GLOBAL_WORK_SIZE: /* only for custom devices and built-in kernels */
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                        const void *input_value, size_t param_value_size,
                                                        void *param_value, size_t *param_value_size_ret) {
  HG_CHECK_KERNEL(kernel, CL_INVALID_KERNEL);
  if (device && device != kernel->program->context->device)
    return CL_INVALID_DEVICE;
  return CL_INVALID_OPERATION; /* the device supports no sub-groups */
}

cl_int hg_kernel_device(cl_kernel k, hg_backend *be, hg_dev_kernel **out) {
  /* made once and kept until the kernel is freed: read without the locks (every launch asks) */
  *out = __atomic_load_n(&k->dev[be->index], __ATOMIC_ACQUIRE);
  if (*out)
    return CL_SUCCESS;
  hg_dev_program *prog;
  cl_int err = hg_program_device(k->program, be, &prog);
  if (err != CL_SUCCESS)
    return err == CL_BUILD_PROGRAM_FAILURE ? CL_INVALID_PROGRAM_EXECUTABLE : err;
  pthread_mutex_lock(&k->lock);
  hg_dev_kernel *made = k->dev[be->index];
  if (!made) {
    err = be->ops->kernel_create(be, prog, hg_kernel_function(k)->name, &made);
    __atomic_store_n(&k->dev[be->index], made, __ATOMIC_RELEASE);
  }
  *out = made;
  pthread_mutex_unlock(&k->lock);
  return err;
}
