/* Between the records the lowered forms read and write (lowering/opencl_c_stop.h) and the
 * device-neutral state of a stopped NDRange (ir/ndrange_state.h). Only the neutral state
 * crosses backends: these functions are the whole translation, both ways. */
#ifndef HETGPU_DEVICES_VENDOR_VENDOR_STOP_STATE_H
#define HETGPU_DEVICES_VENDOR_VENDOR_STOP_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ndrange_state.h"
#include "lowering/opencl_c_stop.h"

/* The shape of one launch as the records see it. */
typedef struct hg_vendor_range {
  uint32_t work_dim;
  uint64_t offset[3], global[3], local[3]; /* unused dimensions: 0, 1, 1 */
  uint64_t num_groups;
  uint32_t items;       /* work-items per group (uniform: the forms need it) */
  uint32_t local_bytes; /* hg_oc_local_bytes for this launch's __local arguments */
} hg_vendor_range;

/* After a launch of the form: ITEM mode's work-item records (`count` of them) or GROUP mode's
 * group records, and the not-started bits. NULL when memory runs out. */
hg_ir_ndrange_state *hg_vendor_state_from_items(const hg_oc_stop_kernel *k, const hg_vendor_range *r,
                                                const uint8_t *records, uint64_t count, const uint32_t *not_started);
hg_ir_ndrange_state *hg_vendor_state_from_groups(const hg_oc_stop_kernel *k, const hg_vendor_range *r,
                                                 const uint8_t *records, uint64_t count, const uint32_t *not_started);

/* The resume form's input for state s: *gmap (num_groups words) and *in (*in_size bytes of
 * group records). False with a message when s does not fit this kernel and range. */
bool hg_vendor_state_to_input(const hg_oc_stop_kernel *k, const hg_vendor_range *r, const hg_ir_ndrange_state *s,
                              uint32_t **gmap, uint8_t **in, size_t *in_size, char *err, size_t err_size);

/* Whether some running group of s has work-items at different safe points, or at a place
 * other than a barrier (a kernel with barriers then needs its catch-up form first). */
bool hg_vendor_state_mixed(const hg_ir_ndrange_state *s, const hg_oc_stop_kernel *k);
/* s with its running groups replaced by the catch-up form's group records (one per running
 * group, in s's order); NULL with a message when a work-item could not be kept. */
hg_ir_ndrange_state *hg_vendor_state_after_catchup(const hg_oc_stop_kernel *k, const hg_vendor_range *r,
                                                   const hg_ir_ndrange_state *s, const uint8_t *records, char *err,
                                                   size_t err_size);

/* Whether no group of s has started (a resume of it is a fresh launch). */
bool hg_vendor_state_untouched(const hg_ir_ndrange_state *s);
/* A deep copy (NULL: no memory). */
hg_ir_ndrange_state *hg_vendor_state_clone(const hg_ir_ndrange_state *s);

#endif
