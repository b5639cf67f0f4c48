/* The device-neutral state of a stopped NDRange: construction, lookup and the checks a state
 * from outside (a snapshot file) must pass before any backend resumes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_internal.h"
#include "ir/ndrange_state.h"

static uint64_t groups_in(const hg_ir_ndrange_state *s, unsigned d) {
  return s->global_size[d] / s->local_size[d] + (s->global_size[d] % s->local_size[d] != 0); /* no wrap near 2^64 */
}

/* The product of the three counts, or 0 when it overflows. */
static uint64_t product3(const uint64_t *x) {
  uint64_t p = 1;
  for (unsigned d = 0; d < 3; d++) {
    if (x[d] && p > UINT64_MAX / x[d])
      return 0;
    p *= x[d];
  }
  return p;
}

hg_ir_ndrange_state *hg_ir_ndrange_state_new(const char *kernel, uint32_t work_dim, const uint64_t *global_offset,
                                             const uint64_t *global_size, const uint64_t *local_size,
                                             const hg_ir_state_layout *layout, uint32_t local_bytes) {
  hg_ir_ndrange_state *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->kernel = strdup(kernel ? kernel : "");
  s->work_dim = work_dim;
  uint64_t counts[3];
  for (unsigned d = 0; d < 3; d++) {
    bool used = d < work_dim;
    s->global_offset[d] = used ? global_offset[d] : 0;
    s->global_size[d] = used ? global_size[d] : 1;
    s->local_size[d] = used ? local_size[d] : 1;
    if (!s->global_size[d] || !s->local_size[d]) {
      hg_ir_ndrange_state_free(s);
      return NULL;
    }
    counts[d] = groups_in(s, d);
  }
  s->num_groups = product3(counts);
  s->value_stride = layout->value_stride;
  s->private_size = layout->private_size;
  s->local_bytes = local_bytes;
  s->group_status = s->num_groups && s->num_groups <= SIZE_MAX ? calloc(s->num_groups, 1) : NULL;
  if (!s->kernel || !s->group_status) {
    hg_ir_ndrange_state_free(s);
    return NULL;
  }
  return s;
}

uint32_t hg_ir_ndrange_group_items(const hg_ir_ndrange_state *s, uint64_t group) {
  uint64_t items = 1;
  for (unsigned d = 0; d < 3; d++) {
    uint64_t n = groups_in(s, d), g = group % n;
    group /= n;
    uint64_t left = s->global_size[d] - g * s->local_size[d];
    items *= left < s->local_size[d] ? left : s->local_size[d];
  }
  return items > UINT32_MAX ? 0 : (uint32_t)items;
}

static size_t find_group(const hg_ir_ndrange_state *s, uint64_t group, bool *found) {
  size_t lo = 0, hi = s->num_running;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->running[mid].group < group)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < s->num_running && s->running[lo].group == group;
  return lo;
}

static void group_free(hg_ir_group_state *g) {
  free(g->safepoint);
  free(g->values);
  free(g->frames);
  free(g->local);
}

hg_ir_group_state *hg_ir_ndrange_state_add_group(hg_ir_ndrange_state *s, uint64_t group) {
  bool found;
  if (group >= s->num_groups || s->num_running == UINT32_MAX)
    return NULL;
  size_t at = find_group(s, group, &found);
  if (found)
    return NULL;
  hg_ir_group_state g = {.group = group, .num_items = hg_ir_ndrange_group_items(s, group)};
  size_t n = g.num_items;
  g.safepoint = malloc((n ? n : 1) * sizeof *g.safepoint);
  g.values = calloc(n ? n : 1, s->value_stride ? s->value_stride : 1);
  g.frames = calloc(n ? n : 1, s->private_size ? s->private_size : 1);
  g.local = calloc(1, s->local_bytes ? s->local_bytes : 1);
  hg_ir_group_state *grown = realloc(s->running, (s->num_running + 1) * sizeof *grown);
  if (grown)
    s->running = grown;
  if (!g.num_items || !g.safepoint || !g.values || !g.frames || !g.local || !grown) {
    group_free(&g);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    g.safepoint[i] = HG_WI_DONE;
  memmove(&s->running[at + 1], &s->running[at], (s->num_running - at) * sizeof *s->running);
  s->running[at] = g;
  s->num_running++;
  s->group_status[group] = HG_GROUP_RUNNING;
  return &s->running[at];
}

const hg_ir_group_state *hg_ir_ndrange_state_group(const hg_ir_ndrange_state *s, uint64_t group) {
  bool found;
  size_t at = find_group(s, group, &found);
  return found ? &s->running[at] : NULL;
}

void hg_ir_ndrange_state_free(hg_ir_ndrange_state *s) {
  if (!s)
    return;
  for (uint32_t i = 0; i < s->num_running; i++)
    group_free(&s->running[i]);
  free(s->running);
  free(s->group_status);
  free(s->kernel);
  free(s);
}

hg_ir_ndrange_state *hg_ir_ndrange_state_clone(const hg_ir_ndrange_state *s) {
  hg_ir_state_layout sizes = {.value_stride = s->value_stride, .private_size = s->private_size};
  hg_ir_ndrange_state *c = hg_ir_ndrange_state_new(s->kernel, s->work_dim, s->global_offset, s->global_size,
                                                   s->local_size, &sizes, s->local_bytes);
  if (!c)
    return NULL;
  memcpy(c->group_status, s->group_status, s->num_groups);
  for (uint32_t r = 0; r < s->num_running; r++) {
    const hg_ir_group_state *from = &s->running[r];
    hg_ir_group_state *to = hg_ir_ndrange_state_add_group(c, from->group);
    if (!to || to->num_items != from->num_items) {
      hg_ir_ndrange_state_free(c);
      return NULL;
    }
    size_t n = from->num_items;
    memcpy(to->safepoint, from->safepoint, n * sizeof *to->safepoint);
    memcpy(to->values, from->values, n * s->value_stride);
    memcpy(to->frames, from->frames, n * s->private_size);
    memcpy(to->local, from->local, s->local_bytes);
  }
  return c;
}

bool hg_ir_ndrange_state_finished(const hg_ir_ndrange_state *s) {
  for (uint64_t g = 0; g < s->num_groups; g++)
    if (s->group_status[g] != HG_GROUP_DONE)
      return false;
  return true;
}

/* The statically known size of a pointer's base, 0 when only the launch knows it. */
static uint64_t base_size(const hg_ir_module *m, const hg_ir_function *f, uint8_t kind, uint32_t index) {
  switch (kind) {
  case HG_BASE_SLOT:
    return index < f->num_slots ? f->slots[index].size : 0;
  case HG_BASE_GLOBAL:
    return index < m->num_globals ? m->globals[index].size : 0;
  case HG_BASE_PARAM:
    return f->args && index < f->num_params && f->args[index].kind == HG_KARG_VALUE ? f->args[index].size : 0;
  default:
    return 0;
  }
}

static bool check_item(const hg_ir_ndrange_state *s, const hg_ir_module *m, const hg_ir_function *f,
                       const hg_ir_state_layout *layout, const hg_ir_group_state *g, uint32_t i, char *err,
                       size_t err_size) {
  uint32_t sp = g->safepoint[i];
  if (sp == HG_WI_DONE)
    return true;
  if (sp >= layout->num_safepoints || !layout->sps[sp].stoppable) {
    hg_ir_errf(err, err_size, "group %llu item %u: safe point %u is not a place to stop", (unsigned long long)g->group, i,
               sp);
    return false;
  }
  const hg_ir_sp_layout *l = &layout->sps[sp];
  const uint8_t *rec = g->values + (size_t)i * s->value_stride;
  for (uint32_t k = 0; k < l->num_values; k++) {
    const hg_ir_live_value *lv = &l->values[k];
    if (lv->base_kind == HG_BASE_NONE)
      continue;
    uint64_t off, size = base_size(m, f, lv->base_kind, lv->base_index);
    memcpy(&off, rec + lv->offset, 8);
    if (size && off > size) {
      hg_ir_errf(err, err_size, "group %llu item %u: a pointer %llu bytes into a %llu-byte object",
                 (unsigned long long)g->group, i, (unsigned long long)off, (unsigned long long)size);
      return false;
    }
  }
  return true;
}

bool hg_ir_ndrange_state_check(const hg_ir_ndrange_state *s, const hg_ir_module *m, const hg_ir_function *f,
                               const hg_ir_state_layout *layout, char *err, size_t err_size) {
  if (!s->kernel || !f->name || strcmp(s->kernel, f->name)) {
    hg_ir_errf(err, err_size, "the state is of kernel '%s', not '%s'", s->kernel ? s->kernel : "",
               f->name ? f->name : "");
    return false;
  }
  if (s->work_dim < 1 || s->work_dim > 3) {
    hg_ir_errf(err, err_size, "work_dim %u", s->work_dim);
    return false;
  }
  if (!s->group_status || (s->num_running && !s->running)) {
    hg_ir_errf(err, err_size, "the state has no group list");
    return false;
  }
  uint64_t counts[3];
  for (unsigned d = 0; d < 3; d++) {
    if (s->global_offset[d] > UINT64_MAX - s->global_size[d]) {
      hg_ir_errf(err, err_size, "dimension %u: offset + size overflows", d);
      return false;
    }
    if (!s->global_size[d] || !s->local_size[d] || (d >= s->work_dim && (s->global_size[d] != 1 ||
                                                                          s->local_size[d] != 1 || s->global_offset[d]))) {
      hg_ir_errf(err, err_size, "dimension %u: global %llu local %llu", d, (unsigned long long)s->global_size[d],
                 (unsigned long long)s->local_size[d]);
      return false;
    }
    counts[d] = groups_in(s, d);
  }
  uint64_t wg = product3(s->local_size);
  if (!wg || wg > UINT32_MAX || product3(counts) != s->num_groups || !s->num_groups) {
    hg_ir_errf(err, err_size, "the range's group count or size does not add up");
    return false;
  }
  if (s->value_stride != layout->value_stride || s->private_size != layout->private_size ||
      s->local_bytes < f->local_static_size) {
    hg_ir_errf(err, err_size, "record sizes %u/%u/%u do not match the kernel's %u/%u/%u", s->value_stride,
               s->private_size, s->local_bytes, layout->value_stride, layout->private_size, f->local_static_size);
    return false;
  }
  uint64_t running = 0;
  for (uint64_t g = 0; g < s->num_groups; g++) {
    if (s->group_status[g] > HG_GROUP_RUNNING) {
      hg_ir_errf(err, err_size, "group %llu: status %u", (unsigned long long)g, s->group_status[g]);
      return false;
    }
    running += s->group_status[g] == HG_GROUP_RUNNING;
  }
  if (running != s->num_running) {
    hg_ir_errf(err, err_size, "%llu groups marked running, %u listed", (unsigned long long)running, s->num_running);
    return false;
  }
  for (uint32_t r = 0; r < s->num_running; r++) {
    const hg_ir_group_state *g = &s->running[r];
    if (g->group >= s->num_groups || s->group_status[g->group] != HG_GROUP_RUNNING ||
        (r && g->group <= s->running[r - 1].group) || g->num_items != hg_ir_ndrange_group_items(s, g->group) ||
        !g->safepoint || !g->values || !g->frames || !g->local) {
      hg_ir_errf(err, err_size, "running group %u (%llu) is not consistent with the range", r,
                 (unsigned long long)g->group);
      return false;
    }
    uint32_t barrier_sp = HG_IR_NONE;
    bool some_done = false;
    for (uint32_t i = 0; i < g->num_items; i++) {
      if (!check_item(s, m, f, layout, g, i, err, err_size))
        return false;
      /* a group of a kernel with barriers stops as a unit: its work-items wait at one barrier
       * or sit at loop headers on the way to it; only the barrier ids can be compared here */
      uint32_t sp = g->safepoint[i];
      some_done |= sp == HG_WI_DONE;
      if (sp != HG_WI_DONE && sp < f->num_safepoints && f->safepoints[sp].kind == HG_SAFEPOINT_BARRIER) {
        if (barrier_sp != HG_IR_NONE && barrier_sp != sp) {
          hg_ir_errf(err, err_size, "group %llu waits at two barriers (%u and %u)", (unsigned long long)g->group,
                     barrier_sp, sp);
          return false;
        }
        barrier_sp = sp;
      }
    }
    /* every work-item reaches each barrier: one that finished cannot have a peer waiting at one */
    if (some_done && barrier_sp != HG_IR_NONE) {
      hg_ir_errf(err, err_size, "group %llu: work-items finished while others wait at barrier %u",
                 (unsigned long long)g->group, barrier_sp);
      return false;
    }
  }
  return true;
}
