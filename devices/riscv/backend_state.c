/* A group's saved record (riscv_internal.h: work-item records, step-function frames, local
 * memory, as the driver copies them to DRAM) <-> the device-neutral group state of
 * ir/ndrange_state.h. The frame starts with the kernel's private frame (ir-spec §11), so that
 * part is copied as it is; every live value of a work-item's safe point is in the frame slot
 * the resumable plan gives it; a pointer is stored as (address - address of its base), the base
 * being where this launch put the kernel parameter, private slot or global it points into. The
 * local memory layout is ir-spec §7's, which the L1 follows from offset 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/backend_state.h"

static uint64_t frame_address(const hg_rv_state_io *io, uint32_t item) {
  return HG_SIM_L1_BASE + io->frames_at + (uint64_t)item * io->frame_size;
}

/* Where this launch put a pointer's base object, as the kernel sees it. */
static bool base_address(const hg_rv_state_io *io, uint8_t kind, uint32_t index, uint32_t item, uint64_t *addr) {
  const hg_ir_function *f = io->kernel;
  switch (kind) {
  case HG_BASE_PARAM: {
    if (index >= f->num_params)
      return false;
    const hg_launch_arg *a = &io->launch->args[index];
    if (a->kind == HG_ARG_BUFFER || a->kind == HG_ARG_LOCAL)
      *addr = io->arg_addr[index];
    else if (io->byval_at[index] != UINT64_MAX)
      *addr = frame_address(io, item) + io->byval_at[index]; /* the work-item's copy of a struct */
    else
      return false;
    return true;
  }
  case HG_BASE_SLOT:
    if (index >= f->num_slots)
      return false;
    *addr = frame_address(io, item) + io->step->slots[index].offset; /* the kernel's slots keep their offsets */
    return true;
  case HG_BASE_GLOBAL:
    if (index >= io->module->num_globals)
      return false;
    if (io->module->globals[index].addrspace == HG_AS_LOCAL) {
      for (uint32_t v = 0; v < f->num_local_vars; v++)
        if (f->local_vars[v].global == index) {
          *addr = hg_rv_local_var_addr(v, f->local_vars[v].offset);
          return true;
        }
      return false;
    }
    char name[48];
    snprintf(name, sizeof name, "hg_global_%u", index);
    *addr = hg_rv_image_symbol(io->image, name);
    return *addr != 0;
  default:
    return false;
  }
}

/* One live value between its frame slot and its bytes in the value record. Bool vectors are
 * bit-packed in memory by the generated code (LLVM's <N x i1>) and one byte a lane in the
 * neutral record. */
static bool move_value(const hg_rv_state_io *io, const hg_ir_live_value *lv, uint32_t item, uint8_t *frame,
                       uint8_t *record, bool to_record) {
  uint32_t slot = lv->value < io->plan->num_values ? io->plan->slot_of_value[lv->value] : HG_IR_NONE;
  if (slot == HG_IR_NONE || slot >= io->step->num_slots)
    return false;
  uint8_t *at = frame + io->step->slots[slot].offset;
  hg_ir_type t = io->kernel->values[lv->value].type;
  if (lv->base_kind != HG_BASE_NONE) {
    uint64_t base, v;
    if (!base_address(io, lv->base_kind, lv->base_index, item, &base))
      return false;
    if (to_record) {
      memcpy(&v, at, 8);
      v -= base;
      memcpy(record + lv->offset, &v, 8);
    } else {
      memcpy(&v, record + lv->offset, 8);
      v += base;
      memcpy(at, &v, 8);
    }
    return true;
  }
  if (t.scalar == HG_IR_BOOL && t.lanes > 1) {
    unsigned lanes = t.lanes == 3 ? 4 : t.lanes;
    for (unsigned l = 0; l < lanes && l < lv->size; l++) {
      if (to_record)
        record[lv->offset + l] = (at[l / 8] >> (l % 8)) & 1;
      else if (record[lv->offset + l] & 1)
        at[l / 8] |= (uint8_t)(1u << (l % 8));
      else
        at[l / 8] &= (uint8_t)~(1u << (l % 8));
    }
    return true;
  }
  if (to_record)
    memcpy(record + lv->offset, at, lv->size);
  else
    memcpy(at, record + lv->offset, lv->size);
  return true;
}

/* The pointer slots of a frame just copied (hg_ir_frame_ptr): relative to their base in the
 * neutral frame, addresses in this launch's. */
static bool move_frame_ptrs(const hg_rv_state_io *io, uint32_t item, uint8_t *frame, bool to_record) {
  for (uint32_t p = 0; p < io->layout->num_frame_ptrs; p++) {
    const hg_ir_frame_ptr *fp = &io->layout->frame_ptrs[p];
    uint64_t base, v;
    if (fp->offset + 8 > io->layout->private_size || !base_address(io, fp->base_kind, fp->base_index, item, &base))
      return false;
    memcpy(&v, frame + fp->offset, 8);
    v = to_record ? v - base : v + base;
    memcpy(frame + fp->offset, &v, 8);
  }
  return true;
}

static bool is_barrier(const hg_ir_function *f, uint32_t sp) {
  return sp < f->num_safepoints && f->safepoints[sp].kind == HG_SAFEPOINT_BARRIER;
}

/* The group's local size per dimension (smaller at a ragged edge). */
static void group_local_size(const hg_rv_state_io *io, uint64_t group, uint64_t ls[3]) {
  for (unsigned d = 0; d < 3; d++) {
    uint64_t g = group % io->groups[d];
    group /= io->groups[d];
    uint64_t left = io->global[d] - g * io->local[d];
    ls[d] = left < io->local[d] ? left : io->local[d];
  }
}

bool hg_rv_state_to_record(const hg_rv_state_io *io, const hg_ir_group_state *gs, uint8_t *rec, char *err,
                           size_t err_size) {
  memset(rec, 0, io->rec_size);
  uint64_t ls[3];
  group_local_size(io, gs->group, ls);
  if (gs->num_items != ls[0] * ls[1] * ls[2]) {
    snprintf(err, err_size, "group %llu: %u work-items, the range has %llu", (unsigned long long)gs->group,
             gs->num_items, (unsigned long long)(ls[0] * ls[1] * ls[2]));
    return false;
  }
  /* work-items that arrived at a barrier wait there while the others (at loop headers or the
   * entry) run up to it: the driver's first round skips them (HG_RV_STATE_HOLD) */
  bool mid_region = false;
  for (uint32_t i = 0; i < gs->num_items; i++)
    mid_region |= gs->safepoint[i] != HG_WI_DONE && !is_barrier(io->kernel, gs->safepoint[i]);
  for (uint32_t i = 0; i < gs->num_items; i++) {
    uint64_t *wi = (uint64_t *)(rec + (size_t)i * HG_RV_WI_BYTES);
    wi[0] = i % ls[0];
    wi[1] = (i / ls[0]) % ls[1];
    wi[2] = i / (ls[0] * ls[1]);
    uint32_t sp = gs->safepoint[i];
    uint8_t *frame = rec + io->rec_frames + (size_t)i * io->frame_size;
    /* each work-item's copy of a struct argument, as the driver would make it */
    for (uint32_t a = 0; a < io->kernel->num_params; a++)
      if (io->byval_at[a] != UINT64_MAX) {
        const hg_launch_arg *la = &io->launch->args[a];
        memcpy(frame + io->byval_at[a], la->value, la->size < io->kernel->args[a].size ? la->size
                                                                                      : io->kernel->args[a].size);
      }
    if (sp == HG_WI_DONE) {
      wi[3] = HG_IR_STEP_DONE;
      continue;
    }
    if (sp >= io->plan->num_safepoints || !io->plan->resumable[sp]) {
      snprintf(err, err_size, "group %llu item %u: safe point %u is not a resume point of this kernel on riscv",
               (unsigned long long)gs->group, i, sp);
      return false;
    }
    wi[3] = sp | (mid_region && is_barrier(io->kernel, sp) ? HG_RV_STATE_HOLD : 0);
    memcpy(frame, gs->frames + (size_t)i * io->layout->private_size, io->layout->private_size);
    if (!move_frame_ptrs(io, i, frame, false)) {
      snprintf(err, err_size, "group %llu item %u: a pointer slot's base has no place in this launch",
               (unsigned long long)gs->group, i);
      return false;
    }
    const hg_ir_sp_layout *l = &io->layout->sps[sp];
    for (uint32_t v = 0; v < l->num_values; v++)
      if (!move_value(io, &l->values[v], i, frame, gs->values + (size_t)i * io->layout->value_stride, false)) {
        snprintf(err, err_size, "group %llu item %u: value %%%u at safe point %u has no place in the frame",
                 (unsigned long long)gs->group, i, l->values[v].value, sp);
        return false;
      }
  }
  memcpy(rec + io->rec_local, gs->local, io->local_bytes);
  return true;
}

bool hg_rv_record_to_state(const hg_rv_state_io *io, const uint8_t *rec, hg_ir_group_state *gs) {
  for (uint32_t i = 0; i < gs->num_items; i++) {
    uint64_t word;
    memcpy(&word, rec + (size_t)i * HG_RV_WI_BYTES + 24, 8);
    uint32_t sp = (uint32_t)word; /* a hold bit is only ever set in resume records */
    if (sp == HG_IR_STEP_DONE) {
      gs->safepoint[i] = HG_WI_DONE;
      continue;
    }
    if (sp >= io->layout->num_safepoints)
      return false;
    gs->safepoint[i] = sp;
    uint8_t *frame = (uint8_t *)rec + io->rec_frames + (size_t)i * io->frame_size;
    memcpy(gs->frames + (size_t)i * io->layout->private_size, frame, io->layout->private_size);
    if (!move_frame_ptrs(io, i, gs->frames + (size_t)i * io->layout->private_size, true))
      return false;
    const hg_ir_sp_layout *l = &io->layout->sps[sp];
    for (uint32_t v = 0; v < l->num_values; v++)
      if (!move_value(io, &l->values[v], i, frame, gs->values + (size_t)i * io->layout->value_stride, true))
        return false;
  }
  memcpy(gs->local, rec + io->rec_local, io->local_bytes);
  return true;
}
