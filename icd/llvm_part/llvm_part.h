/* The LLVM part: everything of the driver that calls LLVM (the front end's bitcode reader and
 * -O2, the PTX and SPIR back ends, the RISC-V code generator) is built into a module of its own,
 * <library dir>/hetgpu/hetgpu-llvm.so, which libhetgpu.so opens on the first call that needs it.
 * libLLVM-15 is 48 MB resident once loaded (its relocations and what its start touches), and a
 * process whose programs all come from the caches never needs it (docs/architecture.md, "The
 * LLVM part").
 *
 * The functions below are the whole interface. In libhetgpu.so each is a gate (gate.c) that
 * loads the module and calls through its table; tools and tests link the real functions. */
#ifndef HETGPU_ICD_LLVM_PART_H
#define HETGPU_ICD_LLVM_PART_H

#include "common/llvm_part_file.h"
#include "common/log.h"
#include "devices/riscv/riscv_internal.h"
#include "lowering/frontend.h"
#include "lowering/llvm_translate.h"
#include "lowering/ptx.h"
#include "lowering/spir.h"
#include "lowering/spirv_prepare.h"

/* X(return type, name, parameters, arguments, what the gate returns when the module cannot be
 * loaded); V(name, parameters, arguments) for those returning nothing: the RISC-V backend's, which
 * follow its code generation (a free of what it made, the frame layout of a kernel it compiled),
 * so they load nothing. */
#define HG_LLVM_PART_FUNCTIONS(X, V)                                                                                    \
  X(cl_int, hg_frontend_link_objects, (const hg_frontend_object *const *objs, unsigned n, hg_ir_module **out,        \
                                       char **log),                                                                  \
    (objs, n, out, log), (hg_llvm_part_missing(log), CL_LINK_PROGRAM_FAILURE))                                        \
  X(cl_int, hg_frontend_object_to_ir, (const hg_frontend_object *obj, hg_ir_module **out, char **log),              \
    (obj, out, log), (hg_llvm_part_missing(log), CL_COMPILE_PROGRAM_FAILURE))                                        \
  X(bool, hg_llvm_optimize_reached, (LLVMModuleRef mod, char **log), (mod, log), false)                              \
  X(hg_ir_module *, hg_llvm_translate_bitcode, (const void *bc, size_t size, bool library,                            \
                                               hg_llvm_prepare_fn prepare, bool contract_all, char **log),            \
    (bc, size, library, prepare, contract_all, log), (hg_llvm_part_missing(log), NULL))                               \
  X(char *, hg_lower_ptx, (const hg_ir_module *m, size_t *size, char *err, size_t err_size),                        \
    (m, size, err, err_size), (hg_llvm_part_missing_text(err, err_size), NULL))                                       \
  X(uint8_t *, hg_lower_spir, (const hg_ir_module *m, bool slice_forms, size_t *size, char *err, size_t err_size),  \
    (m, slice_forms, size, err, err_size), (hg_llvm_part_missing_text(err, err_size), NULL))                          \
  X(bool, hg_spirv_prepare_module, (LLVMModuleRef mod, char **log), (mod, log), false)                               \
  X(int, hg_rv_codegen, (hg_ir_module *m, hg_rv_object *out, char *err, size_t err_size),                           \
    (m, out, err, err_size), (hg_llvm_part_missing_text(err, err_size), -1))                                          \
  X(uint32_t, hg_rv_arg_layout_of, (const hg_ir_function *kernel, hg_rv_arg_layout *lay), (kernel, lay), 0u)         \
  V(hg_rv_frame_layout, (const hg_ir_function *kernel, const hg_ir_function *step, uint32_t *size, uint32_t *align), \
    (kernel, step, size, align))                                                                                     \
  V(hg_rv_object_free, (hg_rv_object *o), (o))

/* Bumped whenever the list or a signature changes: a module from another build is refused. */
#define HG_LLVM_PART_VERSION 2u

typedef struct hg_llvm_part {
  uint32_t version;
  uint32_t size; /* sizeof(hg_llvm_part) */
#define HG_LLVM_PART_MEMBER(ret, name, params, args, fail) ret(*name) params;
#define HG_LLVM_PART_VOID_MEMBER(name, params, args) void(*name) params;
  HG_LLVM_PART_FUNCTIONS(HG_LLVM_PART_MEMBER, HG_LLVM_PART_VOID_MEMBER)
#undef HG_LLVM_PART_MEMBER
#undef HG_LLVM_PART_VOID_MEMBER
} hg_llvm_part;

/* The module's one exported symbol: its table, its logging sent to the library's logger. */
#define HG_LLVM_PART_ENTRY "hg_llvm_part_entry"
typedef const hg_llvm_part *(*hg_llvm_part_entry_fn)(unsigned log_mask,
                                                     void (*log_write)(hg_log_category cat, const char *fmt, ...));

#endif
