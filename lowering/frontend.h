/* The OpenCL C front end: source -> clang (run out of process) -> LLVM IR -> hetGPU IR. */
#ifndef HETGPU_LOWERING_FRONTEND_H
#define HETGPU_LOWERING_FRONTEND_H

#include <CL/cl.h>

#include "ir/ir.h"

/* An embedded header (clCompileProgram's input_headers) reachable by #include "name". */
typedef struct hg_source_header {
  const char *name;
  const char *text;
} hg_source_header;

/* Compiles one OpenCL C translation unit with the specification's build options (-D, -I,
 * -cl-std, -cl-fast-relaxed-math, -cl-mad-enable, -cl-opt-disable, -w, -Werror, ...).
 * Returns CL_SUCCESS with *out set; CL_INVALID_BUILD_OPTIONS (unknown option, *log says which);
 * or CL_COMPILE_PROGRAM_FAILURE with the diagnostics in *log. *log (malloc'd, may be empty) is
 * always set. When `library` is true, functions without a body stay external declarations so
 * a later link can resolve them (clCompileProgram); otherwise they are an error. */
cl_int hg_frontend_compile(const char *source, const char *options, const hg_source_header *headers,
                           unsigned num_headers, bool library, hg_ir_module **out, char **log);

/* OpenCL C (the lowerings' output) to SPIR bitcode by the same clang, for a vendor that takes
 * it as a program binary (PoCL: devices/vendor/vendor_forms.c). Options and return codes as
 * hg_frontend_compile's; *bits is malloc'd. */
cl_int hg_frontend_compile_spir(const char *source, const char *options, void **bits, size_t *size, char **log);

/* Files the source included that are not the build's own (its text, embedded headers):
 * those found through -I or by path, as absolute paths. A cache of the build's result must
 * check them (platform/program_ir_cache.c). */
typedef struct hg_frontend_deps {
  char **paths;
  unsigned count;
} hg_frontend_deps;
void hg_frontend_deps_free(hg_frontend_deps *deps);

/* hg_frontend_compile that also lists the included files in *deps (empty on a failure). */
cl_int hg_frontend_compile_deps(const char *source, const char *options, const hg_source_header *headers,
                                unsigned num_headers, bool library, hg_ir_module **out, char **log,
                                hg_frontend_deps *deps);

/* Source -> the IR a program holds: what clBuildProgram and clCompileProgram store (before
 * their IR cache) and hetgpu-cc writes, so both give the same bytes for the same source and
 * options. Runs hg_frontend_compile (same arguments, same return codes and log); for an
 * executable (library false) then hg_frontend_finish_executable, a failure of which returns
 * CL_COMPILE_PROGRAM_FAILURE with its message appended to *log. A library (clCompileProgram)
 * is marked HG_IR_PROGRAM_OBJECT and carries no execution state (the link computes it). */
cl_int hg_frontend_source_to_ir(const char *source, const char *options, const hg_source_header *headers,
                                unsigned num_headers, bool library, hg_ir_module **out, char **log);
/* The same, listing the included files in *deps (may be NULL). */
cl_int hg_frontend_source_to_ir_deps(const char *source, const char *options, const hg_source_header *headers,
                                     unsigned num_headers, bool library, hg_ir_module **out, char **log,
                                     hg_frontend_deps *deps);

/* A compiled object whose translation waits for its link: clang's bitcode before LLVM's passes
 * and the options it was compiled with (lowering/frontend_object.c). A link of such objects
 * optimises only the functions its kernels reach: a program that includes a library of
 * hundreds of external functions (hashcat's inc_*.cl) would otherwise have them all optimised
 * at its compile, most for nothing. */
typedef struct hg_frontend_object hg_frontend_object;
/* clCompileProgram's front end: hg_frontend_compile_deps's arguments and codes, an object out. */
cl_int hg_frontend_compile_object(const char *source, const char *options, const hg_source_header *headers,
                                  unsigned num_headers, hg_frontend_object **out, char **log,
                                  hg_frontend_deps *deps);
/* The object's IR (HG_IR_PROGRAM_OBJECT, every function optimised as clang -O2 would): what
 * hg_frontend_source_to_ir gives for a library. CL_COMPILE_PROGRAM_FAILURE with *log. */
cl_int hg_frontend_object_to_ir(const hg_frontend_object *obj, hg_ir_module **out, char **log);
/* Links objects into an executable (finished: hg_frontend_finish_executable), optimising what
 * its kernels reach; the first object's source language and options describe it.
 * CL_LINK_PROGRAM_FAILURE with *log (symbols defined twice, undefined functions). */
cl_int hg_frontend_link_objects(const hg_frontend_object *const *objs, unsigned n, hg_ir_module **out, char **log);
/* The object as bytes (a cache entry) and back; NULL from bytes that are not one. */
uint8_t *hg_frontend_object_encode(const hg_frontend_object *obj, size_t *size);
hg_frontend_object *hg_frontend_object_decode(const uint8_t *bytes, size_t size);
void hg_frontend_object_free(hg_frontend_object *obj);

/* Turns a module into an executable (after the front end, a link, or a loaded object): calls
 * inlined, marked HG_IR_PROGRAM_EXECUTABLE, execution state computed (hg_ir_compute_state:
 * safe points, private and local layouts), verified. CL_SUCCESS, or CL_LINK_PROGRAM_FAILURE
 * with the reason appended to *log (*log may be NULL: then it is set). */
cl_int hg_frontend_finish_executable(hg_ir_module *m, char **log);

/* Appends a formatted line to a build log (*log may be NULL: then it is set). */
void hg_log_append(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The path of the clang the front end runs (HETGPU_CLANG, or the one found at build time). */
const char *hg_frontend_clang_path(void);
/* Starts the OpenCL C compiler ahead of the next build (lowering/tool_warm.c): a context's
 * creation does, and each compile for the one after it. */
void hg_frontend_warm_up(void);

#endif
