/* The device-neutral state of an NDRange stopped at safe points (docs/safe-points.md), and the
 * layout of the values a work-item keeps there.
 *
 * A stopped NDRange is: per work-group NOT_STARTED, DONE or RUNNING, and for each RUNNING
 * group each work-item's safe-point id (or HG_WI_DONE), the bytes of the values live there,
 * its private frame, and the group's local memory. Everything is expressed in IR terms
 * (safe-point ids and value indices of the kernel as the program's IR module holds it), never
 * in device addresses: a pointer value is kept as a 64-bit byte offset from its base (a kernel
 * parameter, a private slot or a module global), which hg_ir_state_layout_of finds statically.
 * Any backend can therefore resume what another stopped, and a snapshot file can hold it. */
#ifndef HETGPU_IR_NDRANGE_STATE_H
#define HETGPU_IR_NDRANGE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* ---- where each live value is kept (ir/state_layout.c) ----------------------------------- */

/* What a pointer value is relative to. */
typedef enum hg_ir_base_kind {
  HG_BASE_NONE = 0, /* not a pointer */
  HG_BASE_PARAM,    /* kernel parameter `index` (a __global/__constant/__local buffer, a by-value copy) */
  HG_BASE_SLOT,     /* private slot `index` of the kernel */
  HG_BASE_GLOBAL,   /* module global `index` (a __local or __constant variable) */
} hg_ir_base_kind;

typedef struct hg_ir_live_value {
  uint32_t value;  /* value index in the kernel (an instruction result; parameters are not kept) */
  uint32_t offset; /* byte offset in the work-item's value record */
  uint32_t size;   /* bytes: the type's memory size (3 lanes as 4, BOOL 1 byte per lane, pointers 8) */
  uint8_t base_kind; /* hg_ir_base_kind: pointers are kept as (value - base) in 8 bytes */
  uint32_t base_index;
} hg_ir_live_value;

typedef struct hg_ir_sp_layout {
  uint32_t num_values;
  hg_ir_live_value *values;
  uint32_t bytes;  /* the record's size at this safe point */
  /* Whether execution may stop here: every live pointer has one static base (a pointer loaded
   * from memory, or chosen between two objects, has none). The entry always may. */
  bool stoppable;
} hg_ir_sp_layout;

/* A private slot that holds a pointer (unoptimised code keeps pointer variables in slots): its
 * 8 bytes in the frame are a device address, so the neutral state holds them, like a live
 * pointer, as (pointer - base) and each backend converts them where it copies the frame. */
typedef struct hg_ir_frame_ptr {
  uint32_t offset;   /* in the private frame (the slot's offset) */
  uint8_t base_kind; /* hg_ir_base_kind */
  uint32_t base_index;
} hg_ir_frame_ptr;

typedef struct hg_ir_state_layout {
  uint32_t num_safepoints; /* the kernel's (f->num_safepoints) */
  hg_ir_sp_layout *sps;
  uint32_t num_frame_ptrs;     /* slots holding a pointer with one static base, by offset */
  hg_ir_frame_ptr *frame_ptrs;
  uint32_t value_stride;   /* the largest record, rounded up to 8: bytes per work-item */
  uint32_t private_size;   /* the kernel's private frame */
  bool has_barrier;        /* some safe point is a barrier: groups stop as a unit */
  bool uses_local;         /* static __local variables or __local parameters */
} hg_ir_state_layout;

/* Computes the layout for kernel f of module m (state metadata computed: hg_ir_compute_state).
 * Values are laid out in live-list order, each aligned to min(size, 8). Deterministic: every
 * backend and every process computes the same layout from the same module. False when memory
 * runs out. */
bool hg_ir_state_layout_of(const hg_ir_module *m, const hg_ir_function *f, hg_ir_state_layout *out);
void hg_ir_state_layout_free(hg_ir_state_layout *l);

/* ---- a stopped NDRange (ir/ndrange_state.c) ---------------------------------------------- */

#define HG_WI_DONE UINT32_MAX /* a work-item's safe point when it has finished */

typedef enum hg_ir_group_status {
  HG_GROUP_NOT_STARTED = 0, /* no work-item began (local memory undefined) */
  HG_GROUP_DONE = 1,
  HG_GROUP_RUNNING = 2, /* listed in `running` */
} hg_ir_group_status;

typedef struct hg_ir_group_state {
  uint64_t group;      /* linear group index: g0 + n0 * (g1 + n1 * g2) */
  uint32_t num_items;  /* work-items of this group (fewer at a ragged edge), local linear id order */
  uint32_t *safepoint; /* per work-item: safe-point id (0 = entry: not started) or HG_WI_DONE */
  uint8_t *values;     /* num_items x value_stride: the live values, per hg_ir_sp_layout of its safe point */
  uint8_t *frames;     /* num_items x private_size */
  uint8_t *local;      /* local_bytes: static __local variables, then __local parameters (ir-spec §7) */
} hg_ir_group_state;

typedef struct hg_ir_ndrange_state {
  char *kernel; /* the kernel's name */
  uint32_t work_dim;
  uint64_t global_offset[3], global_size[3], local_size[3]; /* unused dimensions: 0, 1, 1 */
  uint64_t num_groups;    /* product of ceil(global / local) */
  uint8_t *group_status;  /* num_groups entries of hg_ir_group_status */
  uint32_t value_stride;  /* hg_ir_state_layout.value_stride */
  uint32_t private_size;
  uint32_t local_bytes;   /* per group */
  uint32_t num_running;
  hg_ir_group_state *running; /* sorted by group, each RUNNING group once */
} hg_ir_ndrange_state;

/* A state for the range with every group NOT_STARTED and nothing running (NULL: no memory).
 * local_size must be explicit (no zero in used dimensions); dimensions from work_dim on are
 * set to offset 0, size 1 whatever the arrays hold (a reader checks them first). */
hg_ir_ndrange_state *hg_ir_ndrange_state_new(const char *kernel, uint32_t work_dim, const uint64_t *global_offset,
                                             const uint64_t *global_size, const uint64_t *local_size,
                                             const hg_ir_state_layout *layout, uint32_t local_bytes);
/* Adds a RUNNING group (status set to RUNNING whatever it was, arrays allocated and zeroed,
 * safe points HG_WI_DONE); NULL when memory runs out or the group is out of range or already
 * running. Keeps `running` sorted. */
hg_ir_group_state *hg_ir_ndrange_state_add_group(hg_ir_ndrange_state *s, uint64_t group);
/* The group's record, or NULL when it is not RUNNING. */
const hg_ir_group_state *hg_ir_ndrange_state_group(const hg_ir_ndrange_state *s, uint64_t group);
/* Work-items in group `group` (fewer at a ragged edge). */
uint32_t hg_ir_ndrange_group_items(const hg_ir_ndrange_state *s, uint64_t group);
void hg_ir_ndrange_state_free(hg_ir_ndrange_state *s);
/* A deep copy (NULL: no memory). */
hg_ir_ndrange_state *hg_ir_ndrange_state_clone(const hg_ir_ndrange_state *s);
/* Checks a state against the kernel it claims (from outside: a snapshot file): names, ranges,
 * sizes, every safe-point id valid and stoppable, group list sorted and consistent, pointer
 * offsets inside their base where the base's size is known statically. False + message. */
bool hg_ir_ndrange_state_check(const hg_ir_ndrange_state *s, const hg_ir_module *m, const hg_ir_function *f,
                               const hg_ir_state_layout *layout, char *err, size_t err_size);
/* True when nothing is left to run (every group DONE). */
bool hg_ir_ndrange_state_finished(const hg_ir_ndrange_state *s);

#endif
