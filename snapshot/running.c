/* Kernels stopped in flight (hg_snap_running, section KERNEL_STATE): the rules both the
 * writer and the reader apply, and their equality. The state's own consistency against the
 * kernel (range, safe points, record sizes, pointers into static objects) is
 * hg_ir_ndrange_state_check's; what only the snapshot knows is checked here: the launch
 * arguments, the local memory they give a work-group, and pointers into __local and buffer
 * arguments, whose sizes the IR cannot know. */
#include "snapshot/format.h"

#include "ir/ndrange_state.h"

#include <stdio.h>
#include <string.h>

bool hg_snap_local_bytes(const hg_ir_function *f, const hg_snap_kernel_arg *args, uint32_t *out) {
  uint64_t end = f->local_static_size;
  for (uint32_t i = 0; i < f->num_params; i++) {
    if (!f->args || f->args[i].kind != HG_KARG_LOCAL_PTR)
      continue;
    /* each size is < 2^64 and end < 2^32 + 16 here, so the sum cannot wrap */
    if (args[i].size > UINT32_MAX)
      return false;
    end = hg_snap_align(end, hg_ir_local_arg_align(&f->args[i])) + args[i].size;
    if (end > UINT32_MAX)
      return false;
  }
  *out = (uint32_t)end;
  return true;
}

/* The size of the object a kernel parameter points to in this launch: a __local argument's
 * bytes, a buffer argument's size; 0 when there is none (a NULL buffer, a by-value copy,
 * whose size the IR check knows). */
static uint64_t param_object_size(const hg_snapshot *s, const hg_snap_running *r, uint32_t index) {
  if (index >= r->num_args)
    return 0;
  const hg_snap_kernel_arg *a = &r->args[index];
  if (a->kind == HG_SNAP_ARG_LOCAL)
    return a->size;
  if (a->kind == HG_SNAP_ARG_BUFFER && a->buffer != HG_SNAP_NONE)
    return s->buffers[a->buffer].size;
  return 0;
}

/* Every pointer kept relative to a __local or buffer argument lies inside (or one past) the
 * object this launch passed: a resumed work-item would otherwise address memory outside it. */
static bool check_param_pointers(const hg_snapshot *s, uint32_t ri, const hg_snap_running *r,
                                 const hg_ir_state_layout *layout, char *err, size_t n) {
  const hg_ir_ndrange_state *st = r->state;
  for (uint32_t gi = 0; gi < st->num_running; gi++) {
    const hg_ir_group_state *g = &st->running[gi];
    for (uint32_t i = 0; i < g->num_items; i++) {
      uint32_t sp = g->safepoint[i];
      if (sp == HG_WI_DONE)
        continue; /* hg_ir_ndrange_state_check has checked sp < num_safepoints */
      const hg_ir_sp_layout *l = &layout->sps[sp];
      for (uint32_t k = 0; k < l->num_values; k++) {
        const hg_ir_live_value *lv = &l->values[k];
        if (lv->base_kind != HG_BASE_PARAM)
          continue;
        uint64_t off, size = param_object_size(s, r, lv->base_index);
        memcpy(&off, g->values + (size_t)i * st->value_stride + lv->offset, 8);
        if (size && off > size)
          return hg_snap_errf(err, n,
                              "running kernel %u: group %llu item %u: a pointer %llu bytes into argument %u "
                              "(%llu bytes)",
                              ri, (unsigned long long)g->group, i, (unsigned long long)off, lv->base_index,
                              (unsigned long long)size);
      }
    }
  }
  return true;
}

/* The state against its kernel function: the IR's checks, then the local memory size. */
static bool check_state(const hg_snapshot *s, uint32_t ri, const hg_snap_running *r, const hg_ir_module *m,
                        const hg_ir_function *f, char *err, size_t n) {
  const hg_ir_ndrange_state *st = r->state;
  for (unsigned d = 0; d < 3; d++)
    if (st->global_offset[d] > UINT64_MAX - st->global_size[d])
      return hg_snap_errf(err, n, "running kernel %u: dimension %u: offset + global size overflow", ri, d);
  hg_ir_state_layout layout;
  if (!hg_ir_state_layout_of(m, f, &layout))
    return hg_snap_errf(err, n, "out of memory");
  char why[256] = "";
  bool ok = hg_ir_ndrange_state_check(st, m, f, &layout, why, sizeof why);
  if (!ok)
    hg_snap_errf(err, n, "running kernel %u (%s): %s", ri, f->name, why);
  uint32_t local;
  if (ok && !hg_snap_local_bytes(f, r->args, &local))
    ok = hg_snap_errf(err, n, "running kernel %u: local memory beyond 4 GiB", ri);
  else if (ok && st->local_bytes != local)
    ok = hg_snap_errf(err, n, "running kernel %u: %u bytes of local memory per group, its arguments give %u", ri,
                      st->local_bytes, local);
  if (ok)
    ok = check_param_pointers(s, ri, r, &layout, err, n);
  hg_ir_state_layout_free(&layout);
  return ok;
}

static bool check_one(const hg_snapshot *s, uint32_t ri, hg_ir_module *const *mods, char *err, size_t n) {
  const hg_snap_running *r = &s->running[ri];
  if (r->queue >= s->num_queues)
    return hg_snap_errf(err, n, "running kernel %u: queue %u out of range", ri, r->queue);
  if (r->kernel >= s->num_kernels)
    return hg_snap_errf(err, n, "running kernel %u: kernel %u out of range", ri, r->kernel);
  /* the kernel object passed check_kernels: its program decodes and holds the kernel */
  const hg_snap_kernel *k = &s->kernels[r->kernel];
  const hg_ir_module *m = mods[k->program];
  const hg_ir_function *f = &m->functions[hg_ir_find_function(m, k->name)];
  if (r->num_args != f->num_params || (r->num_args && !r->args))
    return hg_snap_errf(err, n, "running kernel %u (%s): %u arguments, the kernel takes %u", ri, k->name,
                        r->num_args, f->num_params);
  char who[40];
  snprintf(who, sizeof who, "running kernel %u", ri);
  for (uint32_t a = 0; a < r->num_args; a++) {
    /* a launch has every argument: the kernel object's may be unset, not an enqueued one's */
    if (r->args[a].kind == HG_SNAP_ARG_UNSET)
      return hg_snap_errf(err, n, "%s arg %u: not set", who, a);
    if (!hg_snap_check_arg(s, who, a, &r->args[a], &f->args[a], &f->param_types[a], err, n))
      return false;
  }
  if (!r->state || !r->state->kernel || !r->state->group_status || (r->state->num_running && !r->state->running))
    return hg_snap_errf(err, n, "running kernel %u: no state, or a state without its arrays", ri);
  if (strcmp(r->state->kernel, k->name) != 0)
    return hg_snap_errf(err, n, "running kernel %u: the state is of kernel \"%s\", kernel %u is \"%s\"", ri,
                        r->state->kernel, r->kernel, k->name);
  return check_state(s, ri, r, m, f, err, n);
}

bool hg_snap_check_running(const hg_snapshot *s, hg_ir_module *const *mods, char *err, size_t n) {
  for (uint32_t i = 0; i < s->num_running; i++)
    if (!check_one(s, i, mods, err, n))
      return false;
  return true;
}

/* ---- equality ------------------------------------------------------------------------------ */
static bool mem_eq(const void *a, const void *b, uint64_t n) { return n == 0 || memcmp(a, b, n) == 0; }

static bool group_eq(const hg_ir_ndrange_state *s, const hg_ir_group_state *a, const hg_ir_group_state *b) {
  uint64_t n = a->num_items;
  return a->group == b->group && a->num_items == b->num_items &&
         mem_eq(a->safepoint, b->safepoint, n * sizeof *a->safepoint) &&
         mem_eq(a->values, b->values, n * s->value_stride) && mem_eq(a->frames, b->frames, n * s->private_size) &&
         mem_eq(a->local, b->local, s->local_bytes);
}

static bool state_eq(const hg_ir_ndrange_state *a, const hg_ir_ndrange_state *b) {
  if (!a || !b)
    return a == b;
  if (!a->kernel || !b->kernel || strcmp(a->kernel, b->kernel) != 0 || a->work_dim != b->work_dim || a->num_groups != b->num_groups ||
      a->value_stride != b->value_stride || a->private_size != b->private_size ||
      a->local_bytes != b->local_bytes || a->num_running != b->num_running ||
      !mem_eq(a->global_offset, b->global_offset, sizeof a->global_offset) ||
      !mem_eq(a->global_size, b->global_size, sizeof a->global_size) ||
      !mem_eq(a->local_size, b->local_size, sizeof a->local_size) ||
      !mem_eq(a->group_status, b->group_status, a->num_groups))
    return false;
  for (uint32_t i = 0; i < a->num_running; i++)
    if (!group_eq(a, &a->running[i], &b->running[i]))
      return false;
  return true;
}

bool hg_snap_running_equal(const hg_snap_running *a, const hg_snap_running *b) {
  return a->queue == b->queue && a->kernel == b->kernel && a->num_args == b->num_args &&
         hg_snap_args_equal(a->num_args, a->args, b->args) && state_eq(a->state, b->state);
}
