/* Where a launch's kernel sees its buffer and __local arguments and its static __local
 * variables: each in a simulator window of its own (riscv_internal.h), so that an access past
 * one faults instead of landing in another (issue "Reliability" row 6: protection was per
 * launch, so a write past one buffer overwrote the next one). A buffer's range is its
 * argument's bytes (a sub-buffer: only its own), read-only for __constant. Arguments whose
 * bytes overlap with the same access share one window, spanning them all, so that a buffer
 * passed twice, or a sub-buffer beside its parent, keeps one address per byte (pointers
 * compare as the kernel expects). An argument that reaches its allocation's end also gets the
 * allocation's padding (HG_RV_BUFFER_GRANULE): real devices' allocations are padded, and
 * kernels that touch a few bytes past a buffer run there. An image argument's pixels are a
 * window of their own too (read-only unless the kernel's access qualifier writes). */
#include "devices/riscv/backend_internal.h"

/* The bytes of buffer argument a: [lo, hi) in DRAM; false when it has none. */
static bool buffer_span(const hg_launch_arg *a, uint64_t *lo, uint64_t *hi) {
  if (a->kind != HG_ARG_BUFFER || !a->mem || a->offset >= a->mem->size)
    return false;
  uint64_t room = a->mem->size - a->offset;
  *lo = a->mem->addr + a->offset;
  *hi = *lo + (a->size && a->size < room ? a->size : room);
  if (*hi == a->mem->addr + a->mem->size) /* the padding behind the buffer is its own */
    *hi = a->mem->addr + ((a->mem->size + HG_RV_BUFFER_GRANULE - 1) & ~(uint64_t)(HG_RV_BUFFER_GRANULE - 1));
  return true;
}

/* The pixels of image argument a: [lo, hi) in DRAM (a 1D buffer image's from its offset into
 * the buffer); false when it has none or they do not fit the allocation. */
static bool image_span(const hg_launch_arg *a, uint64_t *lo, uint64_t *hi) {
  if (a->kind != HG_ARG_IMAGE || !a->mem || !a->image || a->offset > a->mem->size ||
      a->image->size > a->mem->size - a->offset)
    return false;
  *lo = a->mem->addr + a->offset;
  *hi = *lo + a->image->size;
  return true;
}

static uint32_t root_of(uint32_t *parent, uint32_t i) {
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

size_t hg_rv_launch_windows(const hg_ir_module *m, const hg_ir_function *f, const hg_launch *launch,
                            const uint64_t *local_at, hg_sim_range *ranges, uint64_t *addr, uint32_t *scratch) {
  size_t n = 0;
  uint32_t np = f->num_params < launch->num_args ? f->num_params : launch->num_args;
  /* group overlapping buffers of one access (union-find, the lowest parameter the root) */
  uint32_t *parent = scratch;
  for (uint32_t i = 0; i < np; i++) {
    parent[i] = i;
    uint64_t lo, hi, lo2, hi2;
    if (!buffer_span(&launch->args[i], &lo, &hi))
      continue;
    bool writable = f->args[i].kind != HG_KARG_CONSTANT_PTR;
    for (uint32_t j = 0; j < i; j++)
      if (buffer_span(&launch->args[j], &lo2, &hi2) && launch->args[j].mem == launch->args[i].mem &&
          (f->args[j].kind != HG_KARG_CONSTANT_PTR) == writable && lo < hi2 && lo2 < hi) {
        uint32_t a = root_of(parent, i), b = root_of(parent, j);
        parent[a > b ? a : b] = a < b ? a : b;
      }
  }
  for (uint32_t i = 0; i < np && i <= HG_RV_MAX_WINDOWED; i++) {
    const hg_launch_arg *a = &launch->args[i];
    uint64_t lo, hi;
    addr[i] = 0;
    if (a->kind == HG_ARG_LOCAL) {
      addr[i] = HG_SIM_WINDOW_ADDR(HG_RV_PARAM_WINDOW(i)) + local_at[i];
      if (a->size)
        ranges[n++] = (hg_sim_range){local_at[i], a->size, true, true, HG_RV_PARAM_WINDOW(i)};
      continue;
    }
    if (image_span(a, &lo, &hi)) { /* a window of its own, writable for write_only images */
      addr[i] = HG_SIM_WINDOW_ADDR(HG_RV_PARAM_WINDOW(i)) + lo;
      ranges[n++] = (hg_sim_range){lo, hi - lo, f->args[i].access_qual != 1, false, HG_RV_PARAM_WINDOW(i)};
      continue;
    }
    if (!buffer_span(a, &lo, &hi))
      continue;
    uint32_t r = root_of(parent, i);
    addr[i] = HG_SIM_WINDOW_ADDR(HG_RV_PARAM_WINDOW(r)) + lo;
    if (r != i)
      continue; /* the root's range spans the group */
    for (uint32_t j = i + 1; j < np; j++) {
      uint64_t lo2, hi2;
      if (buffer_span(&launch->args[j], &lo2, &hi2) && root_of(parent, j) == i) {
        lo = lo2 < lo ? lo2 : lo;
        hi = hi2 > hi ? hi2 : hi;
      }
    }
    if (hi > lo)
      ranges[n++] = (hg_sim_range){lo, hi - lo, f->args[i].kind != HG_KARG_CONSTANT_PTR, false, HG_RV_PARAM_WINDOW(i)};
  }
  for (uint32_t v = 0; v < f->num_local_vars && v <= HG_RV_MAX_WINDOWED; v++) {
    const hg_ir_local_var *lv = &f->local_vars[v];
    uint32_t size = lv->global < m->num_globals ? m->globals[lv->global].size : 0;
    if (size)
      ranges[n++] = (hg_sim_range){lv->offset, size, true, true, HG_RV_LOCAL_VAR_WINDOW(v)};
  }
  return n;
}
