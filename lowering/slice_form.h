/* The slice form of a kernel: its plain code, launched over a part of the NDRange at a time
 * (devices/vendor/vendor_slice.c). A kernel whose work-groups end quickly needs no safe point
 * inside them to stop within the latency goal: the host runs its range in slices of groups and
 * stops between two, where everything before is done and nothing after has started. The form
 * is the plain kernel but for the work-item functions that see the whole range: they read it
 * from arguments of the slice's own, after the kernel's. A slice is launched at
 * global offset 0 and get_global_id adds the slice's place itself: PoCL runs a launch with a
 * global offset in a slower variant of the kernel (the bench's reduce in slices placed by the
 * offset took 1.4-1.7x the time of PoCL's own launch, docs/performance.md):
 *
 *   ulong slice_group_<d>   the slice's first group in dimension d (get_group_id adds it,
 *                           get_global_id it times the local size and range_offset_<d>)
 *   ulong range_groups_<d>  the whole range's groups (get_num_groups; get_global_size = it x local size)
 *   ulong range_offset_<d>  the application's global offset (get_global_offset)
 *
 * Both the OpenCL C back end (lowering/opencl_c_slice.c, beside the stoppable forms) and the
 * SPIR one (lowering/spir.h, beside the plain kernels) emit it, named HG_SLICE_FORM_PREFIX and
 * the kernel's name, for the kernels hg_slice_form_possible admits. */
#ifndef HETGPU_LOWERING_SLICE_FORM_H
#define HETGPU_LOWERING_SLICE_FORM_H

#include <stdbool.h>

#include "ir/ir.h"

#define HG_SLICE_FORM_PREFIX "hg_slice_"
/* The longest kernel name that gets forms: a form's name adds a prefix, and PoCL aborts on
 * kernel names of about 251 characters or more. */
#define HG_FORMS_MAX_KERNEL_NAME 200
#define HG_SLICE_FORM_ARGS 9 /* slice_group_0..2, range_groups_0..2, range_offset_0..2 */

/* Whether the work-item function `name` sees the whole range (the slice form remaps it). */
bool hg_slice_form_sees_whole_range(const char *name);
/* Whether kernel f can have a slice form: not when its name is longer than
 * HG_FORMS_MAX_KERNEL_NAME, or it asks those functions for a dimension known only at run time,
 * or for the linear global id (rare, and the other forms still stop it). A kernel that prints
 * gets none either (decided by the back end that prints). */
bool hg_slice_form_possible(const hg_ir_module *m, const hg_ir_function *f);

#endif
