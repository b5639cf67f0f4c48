/* The slice form of a kernel (lowering/opencl_c_stop.h): the plain code, launched over a part
 * of the NDRange at a time. A kernel whose work-groups end quickly needs no safe point inside
 * them to stop within the latency goal: the host runs its range in slices of groups and stops
 * between two, where everything before is done and nothing after has started. The form costs
 * nothing the plain kernel does not: only the work-item functions that see the whole range
 * read it from arguments of the slice's own (the launch's global offset places the slice, so
 * get_global_id is the vendor's):
 *
 *   ulong slice_group_<d>   the slice's first group in dimension d (get_group_id adds it)
 *   ulong range_groups_<d>  the whole range's groups (get_num_groups; get_global_size = it x local size)
 *   ulong range_offset_<d>  the application's global offset (get_global_offset)
 *
 * A kernel that asks these functions for a dimension known only at run time, or for the linear
 * global id, gets no slice form (rare, and the other forms still stop it). */
#include <string.h>

#include "lowering/opencl_c_internal.h"

static bool sees_whole_range(const char *name) {
  return !strcmp(name, "get_group_id") || !strcmp(name, "get_num_groups") || !strcmp(name, "get_global_size") ||
         !strcmp(name, "get_global_offset");
}

bool oc_slice_possible(const hg_ir_module *m, const hg_ir_function *f) {
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      if (in->op != HG_OP_CALL_BUILTIN || !in->num_imm || in->imm[0] >= m->num_strings) continue;
      const char *name = m->strings[in->imm[0]];
      if (!strcmp(name, "get_global_linear_id")) return false;
      if (!sees_whole_range(name)) continue;
      if (in->num_operands != 1 || in->operands[0] >= f->num_values || f->values[in->operands[0]].kind != HG_VAL_CONST)
        return false;
    }
  return true;
}

void oc_slice_params(oc_buf *out, bool first) {
  oc_printf(out, "%s", first ? "" : ", ");
  for (unsigned d = 0; d < 3; d++) oc_printf(out, "%sulong hg_sg%u", d ? ", " : "", d);
  for (unsigned d = 0; d < 3; d++) oc_printf(out, ", ulong hg_rg%u", d);
  for (unsigned d = 0; d < 3; d++) oc_printf(out, ", ulong hg_ro%u", d);
}

bool oc_slice_work_item(oc_ctx *c, const char *name, unsigned d) {
  if (!c->slice_name || d >= 3 || !sees_whole_range(name)) return false;
  if (!strcmp(name, "get_group_id")) oc_printf(c->body, "(hg_sg%u + get_group_id(%uu)", d, d);
  else if (!strcmp(name, "get_num_groups")) oc_printf(c->body, "(hg_rg%u", d);
  else if (!strcmp(name, "get_global_size")) oc_printf(c->body, "(hg_rg%u * get_local_size(%uu)", d, d);
  else oc_printf(c->body, "(hg_ro%u", d);
  return true;
}

void oc_slice_emit(oc_ctx *c, oc_buf *out, uint32_t fidx, const char *name) {
  c->slice_name = name;
  oc_emit_function(c, out, fidx, true);
  c->slice_name = NULL;
}
