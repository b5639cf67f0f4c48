/* Internal interface of the LLVM IR -> hetGPU IR translation (lowering/llvm_*.c). */
#ifndef HETGPU_LOWERING_LLVM_TRANSLATE_H
#define HETGPU_LOWERING_LLVM_TRANSLATE_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "lowering/frontend.h" /* hg_log_append */

/* ---- demangling (llvm_demangle.c) ---------------------------------------------------- */
typedef struct hg_mangled_param {
  char base;         /* Itanium builtin code: 'c','h','s','t','i','j','l','m','f','d','h' ...; 'D' half; 'N' named; 0 unknown */
  uint8_t lanes;     /* 1 for scalars */
  uint8_t pointer;   /* pointer depth */
  uint8_t addrspace; /* of the outermost pointee, 0 when none given */
  bool is_unsigned;  /* unsigned integer, or pointer to one */
  bool is_atomic;    /* _Atomic(...) */
  char named[32];    /* source name of a named type (memory_order, ocl_event ...) */
} hg_mangled_param;

#define HG_MAX_MANGLED_PARAMS 16
typedef struct hg_demangled {
  char name[64];
  unsigned num_params;
  hg_mangled_param params[HG_MAX_MANGLED_PARAMS];
} hg_demangled;

/* Demangles the Itanium names clang gives OpenCL C builtins (_Z<len><name><params>).
 * Returns false when the name is not of that form. */
bool hg_demangle_opencl(const char *mangled, hg_demangled *out);

/* ---- translation state ----------------------------------------------------------------- */
typedef struct hg_ptr_map_entry {
  const void *key;
  uint32_t value;
} hg_ptr_map_entry;

/* Open-addressing map from LLVM object pointers to indices (lookups only, never iterated, so
 * pointer values do not leak into the output). */
typedef struct hg_ptr_map {
  hg_ptr_map_entry *slots;
  size_t cap, count;
} hg_ptr_map;

void hg_ptr_map_put(hg_ptr_map *m, const void *key, uint32_t value);
bool hg_ptr_map_get(const hg_ptr_map *m, const void *key, uint32_t *value);
void hg_ptr_map_free(hg_ptr_map *m);

/* An LLVM aggregate SSA value (a struct or array) kept as the IR values of its leaves, its
 * scalar and vector members flattened in memory order (llvm_aggregates.c). */
#define HG_AGG_MAX 32
typedef struct hg_aggregate {
  uint32_t count;
  uint32_t elems[HG_AGG_MAX];
} hg_aggregate;

typedef struct hg_xlate {
  LLVMModuleRef mod;
  LLVMContextRef ctx;
  LLVMTargetDataRef td;
  hg_ir_module *m;
  bool library;
  char **log; /* build log (appended to) */
  jmp_buf fail; /* longjmp target on an unsupported construct */

  hg_ptr_map globals;   /* LLVM global variable -> module global index */
  hg_ptr_map functions; /* LLVM function -> module function index */

  /* per function */
  LLVMValueRef fn;
  hg_ir_function *f;
  uint32_t fidx;
  hg_ptr_map values; /* LLVM value -> IR value index */
  hg_ptr_map blocks; /* LLVM basic block -> IR block index */
  hg_ptr_map aggs;   /* LLVM aggregate value -> index into agg_list */
  hg_aggregate *agg_list;
  uint32_t num_aggs, cap_aggs;
  uint32_t cur_block;
  hg_ptr_map inst_flags; /* the module's instructions with flags the C API cannot read: HG_XLATE_* bits */
  bool contract_all; /* every fmul/fadd/fsub may be contracted (SPIR-V without ContractionOff) */
  void *scratch[4]; /* per-function arrays, freed by the module's cleanup if translation fails */
  void *temps[8];   /* hg_xlate_temp's blocks in use, likewise */
  hg_ir_global global; /* the program-scope variable being translated (its init and relocs likewise) */
} hg_xlate;

/* llvm_inst_flags.c: fills x->inst_flags (once per module, before the bodies are translated) */
enum { HG_XLATE_CONTRACT = 1, HG_XLATE_NSW = 2, HG_XLATE_NUW = 4 };
void hg_xlate_read_inst_flags(hg_xlate *x);

/* Memory a translation step needs until it returns, freed by the module's cleanup when the
 * step fails instead (hg_xlate_fail leaves by longjmp, past the step's own free). */
void *hg_xlate_temp(hg_xlate *x, size_t bytes);
void hg_xlate_temp_free(hg_xlate *x, void *p);

/* Logs "error: <message>" (naming the function being translated) and abandons translation. */
_Noreturn void hg_xlate_fail(hg_xlate *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* llvm_types.c */
hg_ir_type hg_xlate_type(hg_xlate *x, LLVMTypeRef t); /* fails on types the IR cannot hold */
bool hg_xlate_type_ok(LLVMTypeRef t, hg_ir_type *out);
unsigned hg_odd_int_width(LLVMTypeRef t); /* N of a scalar iN that is not i1/8/16/32/64, else 0 */
uint64_t hg_type_size(hg_xlate *x, LLVMTypeRef t);  /* ABI allocation size */
uint32_t hg_type_align(hg_xlate *x, LLVMTypeRef t); /* ABI alignment */
char *hg_type_spelling(LLVMTypeRef t, bool is_unsigned); /* "float4" for vec_type_hint */

/* llvm_constants.c */
uint32_t hg_xlate_const(hg_xlate *x, LLVMValueRef c);              /* scalar/vector constant value */
uint32_t hg_xlate_const_int(hg_xlate *x, hg_ir_type t, uint64_t v); /* splat integer constant */
void hg_xlate_global_init(hg_xlate *x, LLVMValueRef init, hg_ir_global *g); /* bytes + relocs */
uint64_t hg_f64_to_f16_bits(double d);

/* llvm_function.c */
uint32_t hg_xlate_operand(hg_xlate *x, LLVMValueRef v); /* value of an operand (materialises constexprs) */
uint32_t hg_emit(hg_xlate *x, hg_ir_opcode op, uint16_t flags, hg_ir_type t, uint32_t nops, const uint32_t *ops,
                 uint32_t nimm, const uint32_t *imm);
hg_ir_type hg_value_type(hg_xlate *x, uint32_t v);
void hg_xlate_function_body(hg_xlate *x, LLVMValueRef fn, uint32_t fidx);
uint16_t hg_xlate_mem_flags(LLVMValueRef inst, unsigned align); /* volatile and alignment of a load/store */

/* llvm_aggregates.c: first-class aggregate values as their leaves */
bool hg_is_aggregate_type(LLVMTypeRef t);
uint32_t hg_agg_new(hg_xlate *x, LLVMValueRef v, uint32_t count, const uint32_t *leaves); /* v may be NULL */
const hg_aggregate *hg_agg_of(hg_xlate *x, LLVMValueRef v); /* an aggregate operand (also a constant) */
unsigned hg_aggregate_leaf_types(hg_xlate *x, LLVMTypeRef t, hg_ir_type *types);
void hg_xlate_extractvalue(hg_xlate *x, LLVMValueRef v);
void hg_xlate_insertvalue(hg_xlate *x, LLVMValueRef v);
void hg_xlate_aggregate_access(hg_xlate *x, LLVMValueRef v, bool is_load); /* load or store of one */
/* The leaves of a value of aggregate type t loaded from / stored to pointer p (alignment align;
 * inst: the LLVM access whose volatility they keep, or NULL); load returns the leaf count. */
unsigned hg_agg_load(hg_xlate *x, LLVMTypeRef t, uint32_t p, unsigned align, LLVMValueRef inst, uint32_t *leaves);
void hg_agg_store(hg_xlate *x, LLVMTypeRef t, const uint32_t *leaves, unsigned count, uint32_t p, unsigned align,
                  LLVMValueRef inst);
void hg_xlate_aggregate_select(hg_xlate *x, LLVMValueRef v);

/* llvm_wide_vectors.c: vectors of lane counts the IR has no type for (<128 x i8>), kept as
 * aggregates of legal pieces */
bool hg_is_wide_vector_type(LLVMTypeRef t);
unsigned hg_wide_piece_lanes(unsigned remaining); /* lanes of the next piece: 16, 8, 4, 2 or 1 */
bool hg_xlate_wide_vector_op(hg_xlate *x, LLVMValueRef v, LLVMOpcode opc); /* false: no wide vector involved */

/* llvm_calls.c: a call instruction; returns the result value or HG_IR_NONE */
void hg_xlate_call(hg_xlate *x, LLVMValueRef inst);

/* llvm_metadata.c: kernel argument metadata and attributes */
void hg_xlate_kernel_metadata(hg_xlate *x, LLVMValueRef fn, hg_ir_function *f);
/* Kernel parameter i's IR type when it is an image or a sampler (true; clang gives both as
 * pointers, the metadata names them); fails the build for images the device does not offer
 * (read_write, depth, multisample). */
bool hg_xlate_kernel_handle_type(hg_xlate *x, LLVMValueRef fn, unsigned i, hg_ir_type *out);

/* llvm_images.c: __translate_sampler_initializer(i32 bits) -> a sampler constant; an image
 * builtin's call checked (its image operand an image parameter) and emitted. True when the
 * call was one of them. */
bool hg_xlate_image_call(hg_xlate *x, LLVMValueRef call, const char *name, const char *cl_name, unsigned nargs);
/* Whether the module uses images or samplers at all (then the translator promotes allocas
 * first: at -O0 clang keeps image and sampler values in them). */
bool hg_llvm_module_uses_images(LLVMModuleRef mod);

/* llvm_module.c: the whole module; returns NULL after logging on failure */
hg_ir_module *hg_llvm_translate(LLVMModuleRef mod, bool library, bool contract_all, char **log);
/* llvm_module.c: bitcode bytes -> module after the inlining passes; `prepare` (may be NULL)
 * first adapts the LLVM module of a front end (SPIR-V: spirv_prepare.h), false after logging.
 * contract_all: every floating-point multiply, add and subtract may be contracted (a SPIR-V
 * module none of whose kernels says ContractionOff); clang marks each one it allows itself. */
typedef bool (*hg_llvm_prepare_fn)(LLVMModuleRef mod, char **log);
/* llvm_module.c: a context's diagnostic handler (LLVMContextSetDiagnosticHandler, the char **
 * log as its context) appending LLVM's errors to the build log: without one, LLVM ends the
 * process on an error (unreadable bitcode: "can't skip to bit ..."). */
void hg_llvm_diagnostic_to_log(LLVMDiagnosticInfoRef info, void *log);
hg_ir_module *hg_llvm_translate_bitcode(const void *bc, size_t size, bool library, hg_llvm_prepare_fn prepare,
                                        bool contract_all, char **log);

/* llvm_optimize.c: clang's -O2 pipeline over the functions an executable's kernels reach (the
 * others dropped); a prepare step for bitcode from clang -O2 -disable-llvm-optzns */
bool hg_llvm_optimize_reached(LLVMModuleRef mod, char **log);
/* ... over every function (a compiled object's: a link may call any) */
bool hg_llvm_optimize_all(LLVMModuleRef mod, char **log);

struct hg_frontend_object {
  void *bitcode;
  size_t size;
  char *options; /* as the application gave them: parsed again to translate */
};
/* frontend_object.c: an object of clang's bitcode (taken) and the options it was compiled with;
 * NULL when out of memory (the bitcode freed) */
hg_frontend_object *hg_frontend_object_new(void *bitcode, size_t size, const char *options);

/* frontend_ir.c: a front end tool's bitcode -> a verified module recording its source language
 * and the semantic build options; NULL after logging */
hg_ir_module *hg_frontend_bitcode_to_ir(const void *bc, size_t size, bool library, hg_llvm_prepare_fn prepare,
                                        bool contract_all, const char *language, const char *semantic, char **log);

/* ---- build options (frontend_options.c) ------------------------------------------------ */
typedef struct hg_fe_options {
  char **clang_args; /* arguments for clang (-D, -I, -cl-std, math flags, -w, -Werror, -O) */
  unsigned num_clang_args, cap_clang_args;
  char *semantic;        /* options the back end needs, canonical order, "" when none */
  char *source_language; /* "OpenCL C 1.2" ... */
  unsigned cl_std;       /* 100, 110, 120, 200, 300 */
  bool optimize;         /* -O2 (not -cl-opt-disable) */
} hg_fe_options;

/* Parses OpenCL build options. Returns CL_SUCCESS, or CL_INVALID_BUILD_OPTIONS after logging
 * which option is wrong. */
int hg_fe_parse_options(const char *options, hg_fe_options *out, char **log);
void hg_fe_options_free(hg_fe_options *o);

#endif
