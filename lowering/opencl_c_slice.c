/* The slice form of a kernel in OpenCL C (lowering/slice_form.h): the plain kernel with the
 * slice's arguments after its own, the work-item functions that see the whole range remapped. */
#include <string.h>

#include "lowering/opencl_c_internal.h"
#include "lowering/slice_form.h"

void oc_slice_params(oc_buf *out, bool first) {
  oc_printf(out, "%s", first ? "" : ", ");
  for (unsigned d = 0; d < 3; d++) oc_printf(out, "%sulong hg_sg%u", d ? ", " : "", d);
  for (unsigned d = 0; d < 3; d++) oc_printf(out, ", ulong hg_rg%u", d);
  for (unsigned d = 0; d < 3; d++) oc_printf(out, ", ulong hg_ro%u", d);
}

bool oc_slice_work_item(oc_ctx *c, const char *name, unsigned d) {
  if (!c->slice_name || d >= 3 || !hg_slice_form_sees_whole_range(name)) return false;
  if (!strcmp(name, "get_group_id")) oc_printf(c->body, "(hg_sg%u + get_group_id(%uu)", d, d);
  else if (!strcmp(name, "get_global_id")) /* the slice runs at offset 0 */
    oc_printf(c->body, "(get_global_id(%uu) + hg_sg%u * get_local_size(%uu) + hg_ro%u", d, d, d, d);
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
