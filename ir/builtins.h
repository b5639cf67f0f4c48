/* The builtins a call_builtin may name, and the operand and result types each accepts: the IR's
 * contract between whatever produces IR (the OpenCL C front end, hand-written or hostile
 * binaries) and whatever consumes it (the verifier, every lowering). docs/ir-spec.md section 5
 * lists the rules; ir/builtin_table.c holds them, one row per overload shape. */
#ifndef HETGPU_IR_BUILTINS_H
#define HETGPU_IR_BUILTINS_H

#include "ir/ir.h"

typedef enum hg_ir_builtin_family {
  HG_IR_BF_UNKNOWN = 0,
  HG_IR_BF_WORK_ITEM,
  HG_IR_BF_MATH,
  HG_IR_BF_INTEGER,
  HG_IR_BF_COMMON,
  HG_IR_BF_GEOMETRIC,
  HG_IR_BF_RELATIONAL,
  HG_IR_BF_VECTOR_DATA, /* vload/vstore and their half forms, shuffle, shuffle2 */
  HG_IR_BF_CONVERT,     /* convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] */
  HG_IR_BF_REINTERPRET, /* as_<type> */
  HG_IR_BF_SYNC,        /* fences without an IR opcode form */
  HG_IR_BF_ASYNC_COPY,  /* prefetch (the copies themselves are never call_builtin) */
  HG_IR_BF_ATOMIC,      /* the OpenCL 1.2 atomic_* and atom_* functions */
  HG_IR_BF_PRINTF,
  HG_IR_BF_INTERNAL,    /* hetGPU's own, e.g. HG_IR_STOP_POLL_BUILTIN */
  HG_IR_BF_IMAGE,       /* read_image*, write_image*, get_image_* (format 1.2; ir/images.c) */
} hg_ir_builtin_family;

/* The family of a name a call_builtin may carry, HG_IR_BF_UNKNOWN for any other name. */
hg_ir_builtin_family hg_ir_builtin_family_of(const char *name);

/* Checks call_builtin `in` of function f in module m against the signature of the builtin it
 * names: a known name, an accepted operand count, operand and result types of one of its
 * overloads. Safe on unverified modules (indices are checked first). On failure writes a
 * message naming the builtin and the operand to err and returns false. */
bool hg_ir_builtin_check(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in, char *err,
                         size_t err_size);

/* Splits a convert_ name: the destination type's name ("int4"), whether _sat is given and the
 * rounding mode (0 default, 'e' rte, 'z' rtz, 'p' rtp, 'n' rtn). False for any other name. */
bool hg_ir_builtin_parse_convert(const char *name, char *dst_type, unsigned dst_size, bool *sat, char *rounding);

/* ---- images and samplers (ir/images.c, docs/ir-spec.md "Images and samplers") ---------- */
/* A sampler constant's bits are valid: only HG_SAMPLER_VALID_BITS, an addressing mode of
 * OpenCL's five, exactly one filter. */
bool hg_ir_sampler_valid(uint64_t bits);
/* Lanes of an image's coordinate: 1D and 1D buffer 1; 1D array and 2D 2; 2D array and 3D 4. */
unsigned hg_ir_image_coord_lanes(hg_ir_image_dim dim);
/* The operand rules of an HG_IR_BF_IMAGE builtin (called by hg_ir_builtin_check). */
bool hg_ir_image_builtin_check(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in, const char *name,
                               char *err, size_t err_size);

#endif
