/* Program objects. A program's binary, as the application sees it, is the hetGPU IR binary;
 * each backend lowers and builds the IR for itself when the program first runs there. */
#ifndef HETGPU_PLATFORM_PROGRAM_H
#define HETGPU_PLATFORM_PROGRAM_H

#include <pthread.h>
#include <stdatomic.h>

#include "devices/backend.h"
#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/frontend_spirv.h"
#include "platform/object.h"

#define HG_MAX_BACKENDS 16

struct _cl_program {
  hg_object obj;
  cl_context context;
  pthread_mutex_t lock;

  char *source; /* clCreateProgramWithSource; NULL otherwise */
  size_t source_length;
  uint8_t *il; /* clCreateProgramWithIL (SPIR-V, as given); NULL otherwise */
  size_t il_length;
  hg_spirv_spec_value *spec; /* clSetProgramSpecializationConstant, sorted by id */
  unsigned num_spec;

  /* The result of the last compile/link/build, or of clCreateProgramWithBinary. */
  cl_program_binary_type binary_type;
  hg_ir_module *module; /* NULL until compiled or loaded */
  uint8_t *binary;      /* module encoded */
  size_t binary_size;
  uint8_t digest[16];   /* hg_cache_hash of binary: backends key what they keep of the module by
                           it (made once: hashcat's main program encodes to 67 MB) */
  /* An object compiled from source: its bitcode, which a link of such objects takes
   * (lowering/frontend.h); module and binary stay NULL until needed (hg_program_object_ir) */
  hg_frontend_object *object;

  cl_build_status build_status;
  char *build_options;
  char *build_log;
  /* clGetKernelArgInfo answers: created from source and compiled or built with
   * -cl-kernel-arg-info (or linked from such objects only); a binary's or IL's never do */
  bool arg_info;

  hg_dev_program *dev[HG_MAX_BACKENDS]; /* lowered + built per backend, lazily */
  /* per function of module: launches of it that may run plain and asynchronously, because its
   * last stoppable one was short (platform/enqueue_kernel.c). The program's, not each kernel's:
   * CLBlast makes a new kernel for every call, each of whose launches was stoppable and
   * synchronous (its saxpy at 1.6x NVIDIA's wall). NULL without memory: every launch stoppable */
  atomic_uint *plain_launches;
  atomic_uint num_kernels_attached;      /* kernels created from it: no rebuild while > 0 */
};

/* True when the program holds a successfully built executable (kernels can be made from it).
 * Under program->lock. */
static inline bool hg_program_has_executable(cl_program p) {
  return p->module && p->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && p->build_status == CL_BUILD_SUCCESS;
}

/* Whether build options hold the option name as a word of its own. */
bool hg_program_option_given(const char *options, const char *name);
/* The built program for a backend, lowering and building the IR there on first use. */
cl_int hg_program_device(cl_program program, hg_backend *be, hg_dev_program **out);
/* The index of a kernel function in the module, or HG_IR_NONE. */
uint32_t hg_program_find_kernel(cl_program program, const char *name);
/* Replaces the program's module (taking ownership) and its encoded binary (and any object). */
cl_int hg_program_set_module(cl_program program, hg_ir_module *module, cl_program_binary_type type);
/* Makes the program a compiled object of `object` (taken), with no module until one is needed. */
void hg_program_set_object(cl_program program, hg_frontend_object *object);
/* The module of a compiled object, translated from its bitcode the first time (its binary is
 * asked for, a link takes IR); CL_SUCCESS when the program has a module. Under program->lock. */
cl_int hg_program_object_ir(cl_program program);

/* IL -> IR through the IR cache, with the program's specialization constants: what
 * clBuildProgram (library false) and clCompileProgram (true) store (program_il.c). Under
 * program->lock. Returns the front end's code and log (hg_frontend_spirv_to_ir). */
cl_int hg_program_compile_il(cl_program program, const char *options, bool library, hg_ir_module **out, char **log);

/* A new, empty program of the context (refcount 1). */
cl_program hg_program_create(cl_context context, cl_int *err);
void hg_program_retain(cl_program program);
void hg_program_release(cl_program program);

#endif
