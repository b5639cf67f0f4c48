/* The OpenCL C builtin names the front end recognises in clang's output: those a call_builtin
 * may carry (ir/builtins.h: the IR's table, with their signatures), and those the front end
 * turns into IR instructions or loops itself.
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

#include "ir/builtins.h"

/* The family of an OpenCL C 1.2 builtin name, HG_IR_BF_UNKNOWN for anything else. */
hg_ir_builtin_family hg_builtin_family_of(const char *name);

/* True when `name` is an OpenCL C builtin the IR accepts in call.builtin or knows otherwise. */
static inline bool hg_builtin_is_known(const char *name) {
  return hg_builtin_family_of(name) != HG_IR_BF_UNKNOWN;
}

/* The work-item functions taking a dimension index (get_global_id, get_local_size, ...), and
 * each one's value for an index of 3 or more, which back ends give themselves (PoCL 3.1 gives 0
 * for the sizes where OpenCL C says 1). */
typedef struct hg_builtin_dim_function {
  const char *name;
  unsigned out_of_range;
} hg_builtin_dim_function;
#define HG_BUILTIN_DIM_FUNCTIONS 8
extern const hg_builtin_dim_function hg_builtin_dim_functions[HG_BUILTIN_DIM_FUNCTIONS];
/* The index of a name in hg_builtin_dim_functions, -1 for any other name. */
int hg_builtin_dim_function_index(const char *name);

#endif
