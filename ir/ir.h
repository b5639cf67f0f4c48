/* hetGPU IR: the in-memory form. docs/ir-spec.md is the specification this follows.
 *
 * A module holds global variables and functions. Functions are in SSA form: every value has
 * one definition and a type; instructions live in basic blocks; a block ends with exactly one
 * terminator. Pointers are untyped and carry an address space; memory is addressed in bytes
 * (ptradd), loads and stores name the type they move. Builtins of OpenCL C stay calls by name
 * (call.builtin "sin") so each backend lowers them its own way. Kernels carry the argument
 * metadata OpenCL queries and, after ir_compute_state(), the execution-state metadata that
 * capture and restore need (safe points with live values, private and local memory layout). */
#ifndef HETGPU_IR_IR_H
#define HETGPU_IR_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_IR_VERSION_MAJOR 1
#define HG_IR_VERSION_MINOR 3 /* 1.2: images and samplers; 1.3: wrap flags; readers accept 1.0 to 1.3 */
#define HG_IR_NONE UINT32_MAX

/* ---- types ---------------------------------------------------------------------------- */
typedef enum hg_ir_scalar {
  HG_IR_VOID = 0,
  HG_IR_BOOL, /* i1: comparison results, branch conditions */
  HG_IR_I8,
  HG_IR_I16,
  HG_IR_I32,
  HG_IR_I64, /* integers are signless; operations say signed or unsigned */
  HG_IR_F16,
  HG_IR_F32,
  HG_IR_F64,
  HG_IR_PTR, /* 64-bit pointer in the address space named by the type */
  /* added in format 1.2 (docs/ir-spec.md, "Images and samplers"); never in vectors, memory,
   * phis or selects: kernel parameters, builtin call operands, and sampler constants */
  HG_IR_IMAGE,   /* an image: `addrspace` holds its hg_ir_image_dim, `reserved` its access */
  HG_IR_SAMPLER, /* a sampler: its constants are HG_SAMPLER_* bits (common/image_format.h) */
} hg_ir_scalar;

/* The dimensionality of an HG_IR_IMAGE type (its `addrspace` byte). */
typedef enum hg_ir_image_dim {
  HG_IMAGE_1D = 1, HG_IMAGE_1D_BUFFER, HG_IMAGE_1D_ARRAY, HG_IMAGE_2D, HG_IMAGE_2D_ARRAY, HG_IMAGE_3D,
} hg_ir_image_dim;

/* The access of an HG_IR_IMAGE type (its `reserved` byte), as the kernel argument's qualifier. */
typedef enum hg_ir_image_access {
  HG_IMAGE_READ_ONLY = 1, HG_IMAGE_WRITE_ONLY = 2, HG_IMAGE_READ_WRITE = 3,
} hg_ir_image_access;

typedef enum hg_ir_addrspace {
  HG_AS_PRIVATE = 0,
  HG_AS_GLOBAL = 1,
  HG_AS_CONSTANT = 2,
  HG_AS_LOCAL = 3,
  HG_AS_GENERIC = 4,
} hg_ir_addrspace;

/* A value type: a scalar, or a vector of 2, 3, 4, 8 or 16 scalars (no vectors of pointers). */
typedef struct hg_ir_type {
  uint8_t scalar;    /* hg_ir_scalar */
  uint8_t lanes;     /* 1 for scalars */
  uint8_t addrspace; /* HG_IR_PTR: hg_ir_addrspace; HG_IR_IMAGE: hg_ir_image_dim */
  uint8_t reserved;  /* HG_IR_IMAGE: hg_ir_image_access; zero otherwise */
} hg_ir_type;

/* ---- values --------------------------------------------------------------------------- */
typedef enum hg_ir_value_kind {
  HG_VAL_PARAM = 1, /* index = parameter number */
  HG_VAL_INST,      /* index = instruction id (hg_ir_inst.id) */
  HG_VAL_CONST,     /* index = first word in the function's const_words; one 64-bit word a lane */
  HG_VAL_GLOBAL,    /* index = module global; the value is its address (a pointer) */
  HG_VAL_UNDEF,     /* an undefined value of the type */
} hg_ir_value_kind;

typedef struct hg_ir_value {
  uint8_t kind; /* hg_ir_value_kind */
  hg_ir_type type;
  uint32_t index;
} hg_ir_value;

/* ---- instructions --------------------------------------------------------------------- */
typedef enum hg_ir_opcode {
  /* arithmetic and logic: operands (a, b), result type = operand type (scalar or vector) */
  HG_OP_ADD = 1, HG_OP_SUB, HG_OP_MUL, HG_OP_SDIV, HG_OP_UDIV, HG_OP_SREM, HG_OP_UREM,
  HG_OP_SHL, HG_OP_LSHR, HG_OP_ASHR, HG_OP_AND, HG_OP_OR, HG_OP_XOR,
  HG_OP_FADD, HG_OP_FSUB, HG_OP_FMUL, HG_OP_FDIV, HG_OP_FREM,
  HG_OP_FNEG, /* (a) */
  /* comparisons: (a, b); flags = hg_ir_cmp; result BOOL (vector of BOOL for vectors) */
  HG_OP_ICMP, HG_OP_FCMP,
  HG_OP_SELECT, /* (cond, a, b); cond is BOOL or a vector of BOOL with the same lanes */
  /* conversions: (a) to the result type */
  HG_OP_TRUNC, HG_OP_ZEXT, HG_OP_SEXT, HG_OP_FPTRUNC, HG_OP_FPEXT,
  HG_OP_FPTOUI, HG_OP_FPTOSI, HG_OP_UITOFP, HG_OP_SITOFP,
  HG_OP_PTRTOINT, HG_OP_INTTOPTR, HG_OP_BITCAST, HG_OP_ADDRSPACECAST,
  /* vectors */
  HG_OP_EXTRACT,  /* (vec, index) */
  HG_OP_INSERT,   /* (vec, elem, index) */
  HG_OP_SHUFFLE,  /* (a, b); imm = lane selectors, HG_IR_NONE for undefined lanes */
  /* memory: flags = hg_ir_mem_flags | (log2 alignment << 8) */
  HG_OP_PTRADD,   /* (ptr, i64 byte offset) -> ptr of the same address space */
  HG_OP_LOAD,     /* (ptr) -> result type */
  HG_OP_STORE,    /* (ptr, value) */
  HG_OP_MEMCPY,   /* (dst, src, i64 size) */
  HG_OP_MEMSET,   /* (dst, i8 value, i64 size) */
  HG_OP_SLOT,     /* () -> private pointer to the function's private slot `imm[0]` */
  /* atomics: flags = hg_ir_atomic_op | order << 8 | scope << 12 */
  HG_OP_ATOMIC_RMW, /* (ptr, value) -> old value */
  HG_OP_CMPXCHG,    /* (ptr, expected, desired) -> old value; imm[0] = failure order */
  HG_OP_FENCE,      /* () flags: order << 8 | scope << 12, imm[0] = hg_ir_fence_flags */
  HG_OP_BARRIER,    /* () work-group barrier; imm[0] = hg_ir_fence_flags. Always a safe point. */
  /* calls */
  HG_OP_CALL,         /* (args...) imm[0] = callee function index */
  HG_OP_CALL_BUILTIN, /* (args...) imm[0] = builtin name (module string id); flags bit i: argument i is unsigned */
  /* control flow; block operands are block indices within the function, stored in imm */
  HG_OP_PHI,      /* operands = incoming values; imm = their predecessor blocks, same order */
  HG_OP_BR,       /* () imm[0] = target */
  HG_OP_CONDBR,   /* (cond) imm[0] = true target, imm[1] = false target */
  HG_OP_SWITCH,   /* (value, case constants...) imm[0] = default, imm[1 + i] = target of case i */
  HG_OP_RET,      /* () or (value) */
  HG_OP_UNREACHABLE,
  /* added after the rest, so the numbers binaries store for the others stay */
  HG_OP_MEMMOVE,  /* (dst, src, i64 size): memcpy whose ranges may overlap; flags as memory above */
  HG_OP_COUNT_
} hg_ir_opcode;

typedef enum hg_ir_cmp {
  /* integer */
  HG_CMP_EQ = 0, HG_CMP_NE, HG_CMP_ULT, HG_CMP_ULE, HG_CMP_UGT, HG_CMP_UGE,
  HG_CMP_SLT, HG_CMP_SLE, HG_CMP_SGT, HG_CMP_SGE,
  /* float: O = ordered (false if either is NaN), U = unordered (true if either is NaN) */
  HG_CMP_OEQ, HG_CMP_ONE, HG_CMP_OLT, HG_CMP_OLE, HG_CMP_OGT, HG_CMP_OGE,
  HG_CMP_UEQ, HG_CMP_UNE, HG_CMP_ULT_F, HG_CMP_ULE_F, HG_CMP_UGT_F, HG_CMP_UGE_F,
  HG_CMP_ORD, HG_CMP_UNO, HG_CMP_TRUE, HG_CMP_FALSE,
} hg_ir_cmp;

/* flags of FADD, FSUB, FMUL (docs/ir-spec.md, "Floating-point contraction") */
typedef enum hg_ir_fp_flags {
  /* the operation may be fused with a multiply operand (FADD/FSUB) or its add/sub user (FMUL)
   * that also carries the flag, rounding once (OpenCL C FP_CONTRACT ON, LLVM llvm.fmuladd) */
  HG_FP_CONTRACT = 1u << 0,
} hg_ir_fp_flags;

/* flags of ADD, SUB, MUL, SHL and PTRADD (format 1.3, docs/ir-spec.md, "Wrap flags"): what
 * OpenCL C leaves undefined, said so that a lowering may assume it does not happen (LLVM's nsw,
 * nuw, inbounds), as the vendor's compiler of the original source does. A lowering may ignore
 * them. */
typedef enum hg_ir_wrap_flags {
  HG_WRAP_NSW = 1u << 0,      /* ADD SUB MUL SHL: no signed overflow */
  HG_WRAP_NUW = 1u << 1,      /* ADD SUB MUL SHL: no unsigned overflow */
  HG_WRAP_INBOUNDS = 1u << 0, /* PTRADD: stays inside the object its pointer points into */
} hg_ir_wrap_flags;

/* The wrap flags an opcode may carry (0: none). */
static inline unsigned hg_ir_wrap_flags_of(unsigned op) {
  return op == HG_OP_ADD || op == HG_OP_SUB || op == HG_OP_MUL || op == HG_OP_SHL ? HG_WRAP_NSW | HG_WRAP_NUW
         : op == HG_OP_PTRADD                                                     ? HG_WRAP_INBOUNDS
                                                                                  : 0;
}

typedef enum hg_ir_mem_flags {
  HG_MEM_VOLATILE = 1u << 0,
} hg_ir_mem_flags;

typedef enum hg_ir_atomic_op {
  HG_ATOMIC_XCHG = 0, HG_ATOMIC_ADD, HG_ATOMIC_SUB, HG_ATOMIC_AND, HG_ATOMIC_OR, HG_ATOMIC_XOR,
  HG_ATOMIC_SMIN, HG_ATOMIC_SMAX, HG_ATOMIC_UMIN, HG_ATOMIC_UMAX, HG_ATOMIC_FADD,
  HG_ATOMIC_LOAD, HG_ATOMIC_STORE, /* STORE: value operand, result VOID; LOAD: (ptr) only */
} hg_ir_atomic_op;

typedef enum hg_ir_order {
  HG_ORDER_RELAXED = 0, HG_ORDER_ACQUIRE, HG_ORDER_RELEASE, HG_ORDER_ACQ_REL, HG_ORDER_SEQ_CST,
} hg_ir_order;

typedef enum hg_ir_scope {
  HG_SCOPE_WORK_ITEM = 0, HG_SCOPE_SUB_GROUP, HG_SCOPE_WORK_GROUP, HG_SCOPE_DEVICE, HG_SCOPE_ALL_DEVICES,
} hg_ir_scope;

typedef enum hg_ir_fence_flags {
  HG_FENCE_LOCAL = 1u << 0,  /* CLK_LOCAL_MEM_FENCE */
  HG_FENCE_GLOBAL = 1u << 1, /* CLK_GLOBAL_MEM_FENCE */
  HG_FENCE_IMAGE = 1u << 2,  /* CLK_IMAGE_MEM_FENCE */
} hg_ir_fence_flags;

typedef struct hg_ir_inst {
  uint16_t op;    /* hg_ir_opcode */
  uint16_t flags; /* per opcode, see above */
  uint32_t id;    /* value id of the result (HG_IR_NONE if the type is VOID); unique per function */
  hg_ir_type type; /* result type */
  uint32_t num_operands;
  uint32_t *operands; /* value indices into hg_ir_function.values */
  uint32_t num_imm;
  uint32_t *imm; /* immediates: block indices, lane selectors, callee, builtin name, slot */
} hg_ir_inst;

typedef struct hg_ir_block {
  uint32_t num_insts, cap_insts;
  hg_ir_inst *insts; /* the last one is the terminator */
} hg_ir_block;

/* ---- kernel metadata ------------------------------------------------------------------ */
typedef enum hg_ir_arg_kind {
  HG_KARG_GLOBAL_PTR = 0, HG_KARG_CONSTANT_PTR, HG_KARG_LOCAL_PTR, HG_KARG_VALUE, HG_KARG_SAMPLER,
  HG_KARG_IMAGE,
} hg_ir_arg_kind;

typedef struct hg_ir_kernel_arg {
  char *name;          /* CL_KERNEL_ARG_NAME */
  char *type_name;     /* CL_KERNEL_ARG_TYPE_NAME, e.g. "float4*" */
  uint8_t kind;        /* hg_ir_arg_kind */
  uint8_t access_qual; /* 0 none, 1 read_only, 2 write_only, 3 read_write (images) */
  uint8_t type_qual;   /* bit 0 const, bit 1 restrict, bit 2 volatile, bit 3 pipe */
  uint8_t reserved;
  uint32_t size;  /* bytes passed by value (HG_KARG_VALUE), 8 for pointers */
  uint32_t align; /* alignment of the by-value type */
} hg_ir_kernel_arg;

/* One private slot (what LLVM calls an alloca): offset within the work-item's private frame. */
typedef struct hg_ir_slot {
  uint32_t size, align, offset;
} hg_ir_slot;

/* A safe point: a place where execution may stop and its state be captured. */
typedef enum hg_ir_safepoint_kind {
  HG_SAFEPOINT_ENTRY = 0,  /* kernel entry: nothing executed yet */
  HG_SAFEPOINT_BARRIER,    /* at a barrier, before it */
  HG_SAFEPOINT_LOOP_HEADER /* at the top of a loop header block, after its phis */
} hg_ir_safepoint_kind;

typedef struct hg_ir_safepoint {
  uint32_t id;
  uint8_t kind;        /* hg_ir_safepoint_kind */
  uint32_t block;      /* block index */
  uint32_t inst;       /* instruction index in the block: execution resumes at this instruction */
  uint32_t num_live;
  uint32_t *live; /* value indices live across the point, sorted */
} hg_ir_safepoint;

/* Local memory of a kernel: static __local variables placed at fixed offsets, then each
 * __local pointer argument's buffer, in argument order, each aligned to 16. */
typedef struct hg_ir_local_var {
  uint32_t global; /* module global index (address space LOCAL) */
  uint32_t offset;
} hg_ir_local_var;

typedef struct hg_ir_function {
  char *name;
  bool is_kernel;
  hg_ir_type ret_type;
  uint32_t num_params;
  hg_ir_type *param_types;

  uint32_t num_values, cap_values;
  hg_ir_value *values; /* index 0..num_params-1 are the parameters */
  uint32_t num_const_words, cap_const_words;
  uint64_t *const_words;

  uint32_t num_blocks, cap_blocks;
  hg_ir_block *blocks; /* block 0 is the entry */

  uint32_t num_slots;
  hg_ir_slot *slots;
  uint32_t private_size; /* bytes of the private frame (slots laid out) */

  /* kernels only */
  hg_ir_kernel_arg *args;       /* num_params entries */
  uint32_t reqd_work_group_size[3];   /* all 0 when absent */
  uint32_t work_group_size_hint[3];   /* all 0 when absent */
  char *vec_type_hint;                /* NULL when absent, e.g. "float4" */
  char *attributes;                   /* CL_KERNEL_ATTRIBUTES text, "" when none */

  /* execution-state metadata, filled by ir_compute_state() */
  uint32_t num_safepoints;
  hg_ir_safepoint *safepoints;
  uint32_t num_local_vars;
  hg_ir_local_var *local_vars;
  uint32_t local_static_size; /* bytes of static __local variables */
} hg_ir_function;

/* How a program-scope variable links across modules (clCompileProgram + clLinkProgram). */
typedef enum hg_ir_linkage {
  HG_LINK_INTERNAL = 0, /* private to its module: renamed when the name is taken in a link */
  HG_LINK_EXPORTED = 1, /* a definition other modules' declarations resolve to by name */
  HG_LINK_IMPORTED = 2, /* `extern`: a declaration (no storage, no initializer); never in executables */
} hg_ir_linkage;

typedef struct hg_ir_global {
  char *name;
  uint8_t addrspace;  /* GLOBAL, CONSTANT or LOCAL */
  uint8_t linkage;    /* hg_ir_linkage */
  bool is_const;      /* contents never written */
  bool has_init;      /* false: zero-initialised (LOCAL: uninitialised) */
  uint32_t size, align;
  uint8_t *init;      /* size bytes when has_init */
  /* pointers inside the initializer: at byte `offset` the address of global `target` plus
   * `addend` (little-endian 64-bit); the init bytes there are zero */
  uint32_t num_relocs;
  struct hg_ir_reloc { uint32_t offset, target; int64_t addend; } *relocs;
} hg_ir_global;

/* What an IR binary holds, as OpenCL's CL_PROGRAM_BINARY_TYPE. */
typedef enum hg_ir_program_kind {
  HG_IR_PROGRAM_EXECUTABLE = 0, /* kernels with every call resolved (clBuildProgram, clLinkProgram) */
  HG_IR_PROGRAM_OBJECT = 1,     /* clCompileProgram output: may hold function declarations */
  HG_IR_PROGRAM_LIBRARY = 2,    /* clLinkProgram -create-library output */
} hg_ir_program_kind;

typedef struct hg_ir_module {
  uint32_t num_strings, cap_strings;
  char **strings; /* interned names: builtin names and the like */

  uint32_t num_globals, cap_globals;
  hg_ir_global *globals;
  uint32_t num_functions, cap_functions;
  hg_ir_function *functions;

  uint8_t program_kind;  /* hg_ir_program_kind: what clGetProgramBuildInfo reports */
  char *source_language; /* e.g. "OpenCL C 1.2" */
  char *build_options;   /* options that change the semantics of lowering: -cl-fast-relaxed-math ... */
  bool uses_fp64, uses_fp16;
} hg_ir_module;

/* ---- life cycle and building ---------------------------------------------------------- */
hg_ir_module *hg_ir_module_new(void);
void hg_ir_module_free(hg_ir_module *m);
/* Whether `option` is one of the module's build options (a whole word of build_options). */
bool hg_ir_built_with(const hg_ir_module *m, const char *option);
uint32_t hg_ir_intern(hg_ir_module *m, const char *s); /* string id, same string same id */

uint32_t hg_ir_add_global(hg_ir_module *m, const hg_ir_global *g); /* copies; returns index */
uint32_t hg_ir_add_function(hg_ir_module *m, const char *name, hg_ir_type ret, uint32_t num_params,
                            const hg_ir_type *param_types); /* params become values 0..n-1 */
uint32_t hg_ir_add_block(hg_ir_function *f);
uint32_t hg_ir_add_const(hg_ir_function *f, hg_ir_type type, const uint64_t *lanes); /* value index */
uint32_t hg_ir_add_undef(hg_ir_function *f, hg_ir_type type);
uint32_t hg_ir_add_global_ref(hg_ir_function *f, const hg_ir_module *m, uint32_t global);
uint32_t hg_ir_add_slot(hg_ir_function *f, uint32_t size, uint32_t align);
/* Appends an instruction to a block; returns the value index of its result (HG_IR_NONE for
 * VOID). operands/imm are copied. */
uint32_t hg_ir_append(hg_ir_function *f, uint32_t block, hg_ir_opcode op, uint16_t flags, hg_ir_type type,
                      uint32_t num_operands, const uint32_t *operands, uint32_t num_imm, const uint32_t *imm);

static inline hg_ir_type hg_ir_ty(hg_ir_scalar s, unsigned lanes) {
  hg_ir_type t = {(uint8_t)s, (uint8_t)lanes, 0, 0};
  return t;
}
static inline hg_ir_type hg_ir_ptr_ty(hg_ir_addrspace as) {
  hg_ir_type t = {HG_IR_PTR, 1, (uint8_t)as, 0};
  return t;
}
static inline hg_ir_type hg_ir_image_ty(hg_ir_image_dim dim, hg_ir_image_access access) {
  hg_ir_type t = {HG_IR_IMAGE, 1, (uint8_t)dim, (uint8_t)access};
  return t;
}
static inline hg_ir_type hg_ir_sampler_ty(void) {
  hg_ir_type t = {HG_IR_SAMPLER, 1, 0, 0};
  return t;
}
static inline bool hg_ir_type_eq(hg_ir_type a, hg_ir_type b) {
  return a.scalar == b.scalar && a.lanes == b.lanes && (a.scalar != HG_IR_PTR || a.addrspace == b.addrspace) &&
         (a.scalar != HG_IR_IMAGE || (a.addrspace == b.addrspace && a.reserved == b.reserved));
}
unsigned hg_ir_scalar_bytes(hg_ir_scalar s); /* BOOL counts 1 */

/* ---- passes and checks ------------------------------------------------------------------ */
/* Checks every rule of the specification; on failure writes a message to err and returns false. */
bool hg_ir_verify(const hg_ir_module *m, char *err, size_t err_size);
/* Lays out private slots and local memory, finds safe points and the values live at each. */
void hg_ir_compute_state(hg_ir_module *m);
/* The alignment of the built-in type a kernel argument's type name points to ("char3*": 4,
 * "long16*": 128); 1 for any other type. */
uint32_t hg_ir_pointee_align(const char *type_name);
/* Where a __local argument's buffer starts in a kernel's local memory (spec §7): at a multiple
 * of 16, or of the alignment of the built-in type it points to when that is larger. */
uint32_t hg_ir_local_arg_align(const hg_ir_kernel_arg *a);

/* ---- text and binary forms ------------------------------------------------------------ */
char *hg_ir_print(const hg_ir_module *m); /* malloc'd text */
hg_ir_module *hg_ir_parse(const char *text, char *err, size_t err_size);
/* The binary form: fixed little-endian layout, format version, checksum. */
int hg_ir_encode(const hg_ir_module *m, uint8_t **out, size_t *out_size); /* 0 on success */
hg_ir_module *hg_ir_decode(const uint8_t *data, size_t size, char *err, size_t err_size);
/* True when the bytes start like an IR binary (magic), before any full check. */
bool hg_ir_is_binary(const uint8_t *data, size_t size);

/* ---- additions (docs/ir-spec.md) ------------------------------------------------------ */
static inline hg_ir_type hg_ir_void_ty(void) {
  hg_ir_type t = {HG_IR_VOID, 1, 0, 0};
  return t;
}
/* Marks f as a kernel: allocates f->args (num_params zeroed entries; the caller fills name,
 * type_name (malloc'd, owned by the module), kind, ...) and sets attributes to "". */
hg_ir_kernel_arg *hg_ir_make_kernel(hg_ir_function *f);
uint32_t hg_ir_find_function(const hg_ir_module *m, const char *name); /* HG_IR_NONE if absent */
uint32_t hg_ir_find_global(const hg_ir_module *m, const char *name);   /* HG_IR_NONE if absent */
const char *hg_ir_opcode_name(unsigned op);                            /* text-form name, or NULL */
/* Deep copy; NULL when memory runs out. */
hg_ir_module *hg_ir_module_clone(const hg_ir_module *m);
/* Structural equality of everything a module holds (constants compared by lanes, NULL
 * strings equal to ""), as the round-trip tests need. */
bool hg_ir_module_equal(const hg_ir_module *a, const hg_ir_module *b);
/* Inlines every HG_OP_CALL of every defined function (callees first), so kernels end up
 * without calls. Fails (false + message) on recursion or a call to a function without body.
 * Clears the execution-state metadata: run hg_ir_compute_state afterwards. */
bool hg_ir_inline_calls(hg_ir_module *m, char *err, size_t err_size);
/* Removes the functions no kernel reaches through calls, which nothing can call in an
 * executable (hashcat links each kernel with hundreds of library functions it never calls: 99%
 * of its main program's IR). Function indices change; kernels keep their order. */
void hg_ir_drop_unused_functions(hg_ir_module *m);
/* Merges modules into a new one of the given kind (clLinkProgram): function declarations (no
 * blocks) and imported variables resolve by name to definitions; two definitions of one name,
 * a call left unresolved, or (in an executable) a variable left undefined, fail. */
hg_ir_module *hg_ir_link(const hg_ir_module *const *mods, size_t n, hg_ir_program_kind kind, char *err,
                         size_t err_size);

/* ---- floating-point contraction (ir/contract.c, docs/ir-spec.md) ----------------------- */
/* Each value's defining instruction by value index (NULL for parameters, constants, globals and
 * undefined values): a calloc'd array of f->num_values entries (at least one), NULL when
 * memory runs out. */
const hg_ir_inst **hg_ir_defs(const hg_ir_function *f);

/* Which multiplies the lowerings compute fused into their user, one rule for every backend:
 * an FADD/FSUB with HG_FP_CONTRACT whose operand (the first one that qualifies) is an F32/F64
 * FMUL with HG_FP_CONTRACT of the same block whose only use it is. Per value index:
 * fused_mul[v] is that FMUL for such an FADD/FSUB v (else NULL); absorbed[v] is true for the
 * FMUL v computed inside its user (it needs no code of its own). */
typedef struct hg_ir_contraction {
  const hg_ir_inst **fused_mul;
  bool *absorbed;
} hg_ir_contraction;
/* Fills c for function f (arrays of f->num_values); false when memory runs out. */
bool hg_ir_find_contractions(const hg_ir_function *f, hg_ir_contraction *c);
void hg_ir_contraction_free(hg_ir_contraction *c);

/* ---- resumable step functions (ir/resumable.c, docs/ir-spec.md section 11) --------------- */
/* What a step function returns when the work-item has finished the kernel. */
#define HG_IR_STEP_DONE 0xFFFFFFFFu
/* The safe-point check a step function makes at each loop-header resume point of a kernel
 * without barriers (with barriers, the driver checks between rounds):
 * `call_builtin bool "hg.stop_poll"` (no arguments), true when the work-item must stop there.
 * Backends lower it (RISC-V: a counter, and every K-th check the simulator's STOP_POLL). */
#define HG_IR_STOP_POLL_BUILTIN "hg.stop_poll"
/* Adds "<kernel>.step": i32 step(<kernel params>..., ptr.private frame, i32 resume), the kernel
 * as a work-item step function: values live at a resume point (every barrier, every stoppable
 * loop header) demoted to private slots, every barrier a `ret <its safe-point id>`, every
 * loop-header resume point of a kernel without barriers a check `hg.stop_poll ? ret <its id> : go on`, a dispatch on
 * `resume` at entry (0: kernel start, a barrier's id: just after that barrier, a loop
 * header's id: at that header after its phis); `ret` gives HG_IR_STEP_DONE. All slots live in
 * the caller's frame (private_size bytes; the kernel's own slots first, at their offsets).
 * Returns the new function's index, or HG_IR_NONE with a message. Computes the state metadata
 * first if the kernel has none. */
uint32_t hg_ir_make_resumable(hg_ir_module *m, uint32_t kernel, char *err, size_t err_size);

/* What hg_ir_make_resumable does with a kernel's state (state metadata computed), without
 * building it: a backend converts a step function's frame to the device-neutral state
 * (ir/ndrange_state.h) and back with it. */
typedef struct hg_ir_resumable_plan {
  uint32_t num_values;     /* the kernel's */
  uint32_t *slot_of_value; /* per kernel value: the step function's slot holding it, or HG_IR_NONE */
  uint32_t num_safepoints; /* the kernel's */
  uint8_t *resumable;      /* per kernel safe point: 1 when the step function returns and resumes there */
  bool can_stop;           /* every barrier is stoppable: a group can stop inside the kernel at all */
  bool loop_polls;         /* can_stop and no barrier: loop headers check hg.stop_poll (a kernel with
                              barriers stops between barrier rounds only, every work-item at one
                              barrier, as SIMT devices stop it) */
} hg_ir_resumable_plan;
/* Fills p for kernel `kernel` of m; false when memory runs out or it is not a function. Every
 * value live at a resumable safe point (instruction values; parameters never) has a slot. */
bool hg_ir_resumable_plan_of(const hg_ir_module *m, uint32_t kernel, hg_ir_resumable_plan *p);
void hg_ir_resumable_plan_free(hg_ir_resumable_plan *p);

#endif
