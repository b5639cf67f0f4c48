/* Which kernels have a slice form (lowering/slice_form.h). */
#include <string.h>

#include "lowering/slice_form.h"

bool hg_slice_form_sees_whole_range(const char *name) {
  return !strcmp(name, "get_global_id") || !strcmp(name, "get_group_id") || !strcmp(name, "get_num_groups") ||
         !strcmp(name, "get_global_size") || !strcmp(name, "get_global_offset");
}

bool hg_slice_form_possible(const hg_ir_module *m, const hg_ir_function *f) {
  if (!f->name || strlen(f->name) > HG_FORMS_MAX_KERNEL_NAME)
    return false;
  for (uint32_t b = 0; b < f->num_blocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].num_insts; i++) {
      const hg_ir_inst *in = &f->blocks[b].insts[i];
      if (in->op != HG_OP_CALL_BUILTIN || !in->num_imm || in->imm[0] >= m->num_strings)
        continue;
      const char *name = m->strings[in->imm[0]];
      if (!strcmp(name, "get_global_linear_id"))
        return false;
      if (!hg_slice_form_sees_whole_range(name))
        continue;
      if (in->num_operands != 1 || in->operands[0] >= f->num_values || f->values[in->operands[0]].kind != HG_VAL_CONST)
        return false;
    }
  return true;
}
