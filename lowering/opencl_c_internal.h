/* Shared state of the IR -> OpenCL C back end (opencl_c*.c). Not a public interface.
 *
 * Representation choices (docs of the back end, also summarised at the top of opencl_c.c):
 *  - integers are signless in the IR: emitted as unsigned types (uchar/ushort/uint/ulong and
 *    their vectors); signed operations cast (scalars) or as_*() (vectors) to the signed type.
 *  - BOOL is `uchar` holding 0/1; vectors of BOOL are `ucharN` holding 0/1 per lane.
 *  - F16 is `ushort` holding the half bits (half is storage only in OpenCL C 1.2); arithmetic
 *    converts to float through vload_half and rounds back through vstore_half_rte.
 *  - pointers are byte pointers `AS uchar *`; typed memory accesses go through may_alias
 *    typedefs so that type punning through memory (legal in the IR) is not undone by TBAA.
 *  - shifts: the IR (like LLVM) makes shift >= width poison; we define it as the count masked
 *    to width-1, which is what OpenCL C does and a valid refinement of poison. */
#ifndef HETGPU_LOWERING_OPENCL_C_INTERNAL_H
#define HETGPU_LOWERING_OPENCL_C_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* ---- growable text ---- */
typedef struct oc_buf {
  char *p;
  size_t len, cap;
  bool oom;
} oc_buf;
void oc_puts(oc_buf *b, const char *s);
void oc_printf(oc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void oc_vprintf(oc_buf *b, const char *fmt, va_list ap);
void oc_buf_free(oc_buf *b);

/* ---- features the emitted source needs (preamble) ---- */
enum {
  OC_NEED_FP64 = 1u << 0,
  OC_NEED_I64_ATOM = 1u << 1,
  OC_NEED_I64_ATOM_EXT = 1u << 2,
};

/* Scalar kinds of the may_alias typedefs (index = hg_ir_scalar) x lane counts. */
#define OC_LANE_KINDS 6 /* 1 2 3 4 8 16 */

/* Builtins corrected around the vendor's (opencl_c_fix.c); per helper a mask of element kinds
 * (float/long 0, double/ulong 1) x lane kinds. */
enum oc_fix {
  OC_FIX_FRACT,
  OC_FIX_LGAMMA_R,
  OC_FIX_ILOGB,
  OC_FIX_NAN_TO_ZERO, /* the argument of convert_<integer>_sat from float or double */
  OC_FIX_MAD_SAT,     /* 64-bit */
  OC_FIX_SMOOTHSTEP,  /* double */
  OC_FIX_EXP10_RELAXED,
  OC_FIX_SINPI, /* the signed zeros of the pi functions */
  OC_FIX_COSPI,
  OC_FIX_TANPI,
  OC_FIX_ATANPI,
  OC_FIX_FMOD_VECTOR, /* double vectors, lane by lane */
  OC_FIX_POW_VECTOR,
  OC_FIX_POWR_VECTOR,
  OC_FIX_POWN_VECTOR,
  OC_FIX_ROOTN_VECTOR,
  OC_FIX_REMAINDER_VECTOR,
  OC_FIX_FREXP_VECTOR,
  OC_FIX_REMQUO_VECTOR,
  OC_FIX_LDEXP,       /* computed exactly (float and double) */
  OC_FIX_LDEXP_SPLAT, /* the same for a vector with one n for every lane */
  OC_FIX_COUNT
};

typedef struct oc_ctx {
  const hg_ir_module *m;
  char *err;
  size_t err_size;
  bool failed;
  unsigned need;
  /* half conversion helpers needed, one bit per lane kind: hg_h2fN (bits -> float),
   * hg_f2hN (float -> bits, round to nearest even), hg_d2hN (double -> bits) */
  unsigned h2f_mask, f2h_mask, d2h_mask;
  unsigned wi_mask; /* guarded work-item helpers hg_wi_<name> needed (opencl_c_builtin.c) */
  unsigned fix_mask[OC_FIX_COUNT]; /* vendor-deviation helpers needed (opencl_c_fix.c) */
  bool relaxed_math; /* built with -cl-fast-relaxed-math or -cl-unsafe-math-optimizations */
  bool may_alias_used[16][OC_LANE_KINDS]; /* [scalar][lane kind] */
  uint32_t *local_uses;   /* [function * num_globals] true when the function (transitively) uses LOCAL global */
  bool *called;           /* per function: called by some function (emitted as a plain function) */
  bool *uses_printf;      /* per function: (transitively) calls printf: has the hidden buffer parameter */
  struct hg_printf_table *printf; /* what the host needs to format the records (opencl_c_printf.c) */
  uint64_t *string_ids;   /* per global: its string id + 1 in the printf table, 0 when not entered */
  bool printf_used;       /* the preamble's printf helpers are needed */
  unsigned local_access_align; /* the alignment the module's __local accesses need */
  /* current function */
  const hg_ir_function *f;
  uint32_t fidx;
  bool as_kernel; /* emitting the kernel form (static locals declared in the body) */
  oc_buf *body;
  uint32_t tmp_counter;
  hg_ir_contraction contr; /* multiplies emitted fused into their add/sub (ir/contract.c) */
  const struct oc_stop_form *stop; /* emitting a kernel's stoppable or resume form; NULL: the plain one */
  const char *slice_name;           /* emitting a kernel's slice form (opencl_c_slice.c) under this name */
  bool robust;               /* the robust form: global and constant accesses checked (opencl_c_robust.c) */
  uint32_t *rb_base;         /* robust kernels: per value, the buffer argument it points into + 1 (0: unknown) */
} oc_ctx;

void oc_fail(oc_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- types and values (opencl_c_types.c) ---- */
unsigned oc_lane_kind(unsigned lanes);
/* The C type of an IR value type: "uint", "float4", "__global uchar *". */
const char *oc_type(oc_ctx *c, hg_ir_type t, char *buf, size_t n);
/* The signed integer type of the same shape ("int4"); BOOL -> "char". */
const char *oc_stype(hg_ir_type t, char *buf, size_t n);
/* The unsigned element name ("uint") / signed element name ("int") / float name of a scalar. */
const char *oc_uname(hg_ir_scalar s);
const char *oc_sname(hg_ir_scalar s);
const char *oc_aspace(unsigned as); /* "__global" ... "" for private */
/* Name of a may_alias typedef for memory accesses of type t (registers it for the preamble). */
const char *oc_ma_type(oc_ctx *c, hg_ir_type t, char *buf, size_t n);
/* Natural alignment of t in OpenCL C (vec3 as vec4). */
unsigned oc_type_align(hg_ir_type t);
unsigned oc_type_size(hg_ir_type t); /* in-memory size the IR moves (vec3: 3 elements) */
bool oc_is_int(hg_ir_type t);
bool oc_is_float(hg_ir_type t); /* F32/F64 (not F16, which is stored as bits) */

/* ---- images and samplers (opencl_c_image.c) ---- */
/* "__read_only image2d_t", "sampler_t" */
const char *oc_image_type(hg_ir_type t, char *buf, size_t n);
/* The program-scope variable of a sampler constant: hg_sampler_<hex bits>. */
void oc_sampler_name(oc_buf *b, uint64_t bits);
/* `__constant sampler_t hg_sampler_<hex> = CLK_...;` for each distinct sampler constant. */
void oc_emit_sampler_constants(oc_ctx *c, oc_buf *out);
/* A verified read_image*, write_image* or get_image_* call. */
void oc_emit_image_builtin(oc_ctx *c, const hg_ir_inst *in, const char *name);
/* Expression for value index v of the current function. */
void oc_value(oc_ctx *c, oc_buf *b, uint32_t v);
/* Zero of type t. */
void oc_zero(oc_ctx *c, oc_buf *b, hg_ir_type t);
/* A constant lane as a C scalar literal of the register type. */
void oc_const_lane(oc_ctx *c, oc_buf *b, hg_ir_scalar s, uint64_t w);
/* Identifier names. */
void oc_param_name(oc_ctx *c, oc_buf *b, uint32_t param);
void oc_func_name(oc_ctx *c, oc_buf *b, uint32_t fidx, bool as_kernel);
void oc_global_name(oc_ctx *c, oc_buf *b, uint32_t g);
bool oc_valid_ident(const char *s);
/* Value as float (F16 values converted), for arithmetic. */
void oc_value_f(oc_ctx *c, oc_buf *b, uint32_t v);
/* Value cast to the signed type of its shape. */
void oc_value_s(oc_ctx *c, oc_buf *b, uint32_t v);
/* Expression reinterpreting/converting between register representations. */
void oc_as(oc_ctx *c, oc_buf *b, const char *fn_prefix, hg_ir_type t, bool is_signed);

/* ---- instructions (opencl_c_inst.c) ---- */
void oc_emit_inst(oc_ctx *c, uint32_t block, const hg_ir_inst *in);
void oc_emit_terminator(oc_ctx *c, uint32_t block, const hg_ir_inst *in);

/* ---- builtins, printf, atomics (opencl_c_builtin.c) ---- */
void oc_emit_call_builtin(oc_ctx *c, const hg_ir_inst *in);

/* The slice form (opencl_c_slice.c, lowering/slice_form.h): its extra parameters, a work-item
 * function of constant dimension d in it (false: emit the vendor's), the form. */
void oc_slice_params(oc_buf *out, bool first);
bool oc_slice_work_item(oc_ctx *c, const char *name, unsigned d);
void oc_slice_emit(oc_ctx *c, oc_buf *out, uint32_t fidx, const char *name);
void oc_emit_atomic(oc_ctx *c, const hg_ir_inst *in);
void oc_emit_cmpxchg(oc_ctx *c, const hg_ir_inst *in);
/* The preamble's guarded work-item helpers the code uses (c->wi_mask). */
void oc_emit_work_item_helpers(oc_ctx *c, oc_buf *out);

/* ---- builtins corrected around vendor deviations (opencl_c_fix.c) ---- */
typedef struct oc_fix_call {
  char callee[96];   /* the helper called instead of the builtin ("" keeps the builtin) */
  char arg_open[96]; /* opens a wrapper around each argument, closed by ")" ("" none) */
} oc_fix_call;
/* Whether the call needs a correction, and which (registers the helper for the preamble). */
bool oc_fix_call_for(oc_ctx *c, const hg_ir_inst *in, const char *name, oc_fix_call *fx);
/* fract / lgamma_r with their out pointer: emits the whole statement; false for other calls. */
bool oc_emit_fixed_out_call(oc_ctx *c, const hg_ir_inst *in, const char *name);
void oc_emit_fix_helpers(oc_ctx *c, oc_buf *out);
/* Whether the module's build options relax math (-cl-fast-relaxed-math, -cl-unsafe-math-optimizations). */
bool oc_relaxed_math(const hg_ir_module *m);

/* The memory a builtin call moves through a pointer operand: the bytes at pointer operand
 * `ptr` plus, when `index` is not HG_IR_NONE, that operand times `stride` bytes (vloadN,
 * vstoreN). False when it moves none the application's pointers name (printf's arguments are
 * formatted on the host, prefetch is a hint). */
typedef struct oc_access {
  uint32_t ptr, index;
  unsigned stride, bytes;
  bool writes;
} oc_access;
bool oc_builtin_access(oc_ctx *c, const hg_ir_inst *in, oc_access *a);

/* ---- printf (opencl_c_printf.c) ---- */
#define OC_PRINTF_PARAM "hg_printf_buf" /* the hidden buffer parameter */
void oc_emit_printf(oc_ctx *c, const hg_ir_inst *in);
void oc_emit_printf_helpers(oc_ctx *c, oc_buf *out);
bool oc_printf_add_kernel(oc_ctx *c, const char *name);

/* ---- memory (opencl_c_mem.c) ---- */
void oc_emit_load(oc_ctx *c, const hg_ir_inst *in);
void oc_emit_store(oc_ctx *c, const hg_ir_inst *in);
void oc_emit_memcpy(oc_ctx *c, const hg_ir_inst *in);
void oc_emit_memmove(oc_ctx *c, const hg_ir_inst *in);
void oc_emit_memset(oc_ctx *c, const hg_ir_inst *in);
/* The pointee type to declare __local kernel arguments with: a vendor places each such buffer at
 * its declared pointee's alignment, so the type of the widest alignment the reachable
 * functions' local (and generic) accesses rely on ("uint" when they access ints alone). */
unsigned oc_local_access_align(const hg_ir_module *m, const bool *reachable);
const char *oc_local_arg_pointee(unsigned access_align, const char *type_name);
/* Bytes a load or store of a value of type t moves (vec3: three elements; pointers 8). */
unsigned oc_mem_bytes(hg_ir_type t);
/* Pointer expression of value v cast to `AS T *` (T a C type name). */
void oc_ptr_as(oc_ctx *c, oc_buf *b, uint32_t v, const char *elem, bool is_volatile);

/* ---- stoppable and resume forms of kernels (opencl_c_stop.c) ---- */
struct hg_oc_stop_table;
/* Emits function fidx (opencl_c.c), in the form c->stop says when it is set. */
void oc_emit_function(oc_ctx *c, oc_buf *out, uint32_t fidx, bool as_kernel);
/* The two forms of kernel fidx after its plain one, entered in the table; nothing (and no
 * entry) when the kernel cannot have them. */
void oc_stop_emit_forms(oc_ctx *c, oc_buf *out, uint32_t fidx, struct hg_oc_stop_table *table);
/* The helpers the forms call (after the preamble), when some form was emitted. */
void oc_stop_emit_helpers(oc_buf *out);
/* Hooks of oc_emit_function while c->stop is set: the form's name, its extra parameters
 * (returns the new `first`), its declarations and prologue, and its code at the safe points
 * before instruction `inst` of `block` (true when it emitted that instruction itself). */
void oc_stop_name(oc_ctx *c, oc_buf *out);
bool oc_stop_params(oc_ctx *c, oc_buf *out, bool first);
void oc_stop_prologue(oc_ctx *c, oc_buf *out);
bool oc_stop_inst(oc_ctx *c, uint32_t block, uint32_t inst);
/* The form's own terminator instead of `in` (true when emitted), and code after the last block. */
bool oc_stop_terminator(oc_ctx *c, const hg_ir_inst *in);
void oc_stop_epilogue(oc_ctx *c, oc_buf *out);

/* ---- robust forms (opencl_c_robust.c, docs/robust-access.md) ---- */
/* The hidden parameters after the printf buffer (returns the new `first`), the argument values
 * a call passes for them, the kernel's range table (its prologue), what a kernel does before it
 * returns (its faults into the fault word), the preamble's helpers. */
bool oc_robust_params(oc_ctx *c, oc_buf *out, bool first, bool as_kernel);
void oc_robust_call_args(oc_ctx *c, oc_buf *b, bool first);
void oc_robust_return(oc_ctx *c);
bool oc_robust_prologue(oc_ctx *c, oc_buf *out);
void oc_robust_epilogue(oc_ctx *c);
void oc_robust_emit_helpers(oc_buf *out);
/* Instruction `in` with its global and constant accesses checked first: one that is out of
 * range sets the fault word, moves nothing and gives a zero result. */
void oc_robust_emit_inst(oc_ctx *c, uint32_t block, const hg_ir_inst *in);

/* Result variable of an instruction. */
void oc_res(oc_ctx *c, oc_buf *b, const hg_ir_inst *in);
/* The function-relative value index type of an operand. */
static inline hg_ir_type oc_vtype(oc_ctx *c, uint32_t v) { return c->f->values[v].type; }

#endif
