/* Converting a RISC-V work-group's saved record to the device-neutral stopped state and back
 * (backend_state.c); used by kernel_run (backend_launch.c). */
#ifndef HETGPU_DEVICES_RISCV_BACKEND_STATE_H
#define HETGPU_DEVICES_RISCV_BACKEND_STATE_H

#include "devices/riscv/backend_internal.h"
#include "ir/ndrange_state.h"

/* Everything about one launch that the conversion needs. */
typedef struct hg_rv_state_io {
  const hg_ir_module *module;
  const hg_ir_function *kernel, *step;
  const hg_ir_resumable_plan *plan;
  const hg_ir_state_layout *layout;
  const hg_rv_image *image;   /* program-scope globals' addresses */
  const hg_launch *launch;    /* argument buffers and values */
  const uint64_t *local_at;   /* per parameter: L1 offset of a __local argument's buffer */
  const uint64_t *arg_addr;   /* per parameter: where a buffer or __local argument points (backend_windows.c) */
  const uint64_t *byval_at;   /* per parameter: frame offset of a struct copy, UINT64_MAX for none */
  uint64_t frames_at;         /* L1 offset of the frames */
  uint64_t frame_size;        /* frame stride */
  uint64_t rec_frames, rec_local, rec_size, local_bytes; /* the record's layout (riscv_internal.h) */
  uint64_t global[3], local[3], groups[3];
} hg_rv_state_io;

/* A RUNNING group's neutral state -> a resume record (rec_size bytes); false + message when
 * the state names a safe point this kernel cannot resume at here. */
bool hg_rv_state_to_record(const hg_rv_state_io *io, const hg_ir_group_state *gs, uint8_t *rec, char *err,
                           size_t err_size);
/* A saved record -> gs (from hg_ir_ndrange_state_add_group: arrays allocated, num_items set). */
bool hg_rv_record_to_state(const hg_rv_state_io *io, const uint8_t *rec, hg_ir_group_state *gs);

#endif
