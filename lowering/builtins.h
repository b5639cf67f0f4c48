/* The OpenCL C 1.2 builtin functions the hetGPU IR accepts in call.builtin, by OpenCL name.
 *
 * Representation rules the front end follows and back ends rely on:
 * - The name is the OpenCL C name without mangling ("sin", "vload4", "convert_int4_sat_rte").
 * - Integers in the IR are signless, so a call.builtin's flags carry signedness: bit i set
 *   means argument i (i < 16) is an unsigned integer (scalar, vector, or pointer to one); a
 *   clear bit means signed (or not an integer). The result's signedness follows from the name
 *   and the arguments by the OpenCL C rules (convert_uint4 names it; abs(int) gives uint).
 * - as_<type>() never appears: it is a bitcast. barrier/work_group_barrier are HG_OP_BARRIER,
 *   mem_fence/read_mem_fence/write_mem_fence/atomic_work_item_fence are HG_OP_FENCE, and every
 *   atomic builtin (atomic_*, atom_*, the C11-style ones) is HG_OP_ATOMIC_RMW/HG_OP_CMPXCHG/
 *   a plain access; hg_builtin_is_known still knows those names so other tools can check them. */
#ifndef HETGPU_LOWERING_BUILTINS_H
#define HETGPU_LOWERING_BUILTINS_H

#include <stdbool.h>

typedef enum hg_builtin_family {
  HG_BF_UNKNOWN = 0,
  HG_BF_WORK_ITEM,
  HG_BF_MATH,
  HG_BF_INTEGER,
  HG_BF_COMMON,
  HG_BF_GEOMETRIC,
  HG_BF_RELATIONAL,
  HG_BF_VECTOR_DATA, /* vload/vstore and their half forms, shuffle, shuffle2 */
  HG_BF_CONVERT,     /* convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] */
  HG_BF_REINTERPRET, /* as_<type> */
  HG_BF_SYNC,        /* barrier, fences */
  HG_BF_ASYNC_COPY,  /* async_work_group_copy, ..., prefetch */
  HG_BF_ATOMIC,
  HG_BF_PRINTF,
} hg_builtin_family;

/* The family of an OpenCL C 1.2 builtin name, HG_BF_UNKNOWN for anything else. */
hg_builtin_family hg_builtin_family_of(const char *name);

/* True when `name` is an OpenCL C builtin the IR accepts in call.builtin or knows otherwise. */
static inline bool hg_builtin_is_known(const char *name) {
  return hg_builtin_family_of(name) != HG_BF_UNKNOWN;
}

/* Checks a convert_ name; on success gives the destination type name ("int4"), whether _sat
 * was given and the rounding mode (0 default, 'e' rte, 'z' rtz, 'p' rtp, 'n' rtn). */
bool hg_builtin_parse_convert(const char *name, char *dst_type, unsigned dst_size, bool *sat, char *rounding);

#endif
