/* Records of the lowered forms <-> the device-neutral state (vendor_stop_state.h). */
#include "devices/vendor/vendor_stop_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool bit(const uint32_t *bits, uint64_t i) { return (bits[i >> 5] >> (i & 31)) & 1u; }

static hg_ir_ndrange_state *new_state(const hg_oc_stop_kernel *k, const hg_vendor_range *r) {
  return hg_ir_ndrange_state_new(k->name, r->work_dim, r->offset, r->global, r->local, &k->layout, r->local_bytes);
}

/* Copies one work-item record's safe point, values and frame into item i of g. */
static void take_item(const hg_oc_stop_kernel *k, const hg_ir_ndrange_state *s, hg_ir_group_state *g, uint32_t i,
                      const uint8_t *rec) {
  memcpy(&g->safepoint[i], rec + 12, 4);
  memcpy(g->values + (size_t)i * s->value_stride, rec + HG_OC_RECORD_HEADER, s->value_stride);
  memcpy(g->frames + (size_t)i * s->private_size, rec + HG_OC_RECORD_HEADER + k->layout.value_stride, s->private_size);
}

/* Orders work-item records by (group, item). */
static int cmp_record(const void *a, const void *b) {
  const uint8_t *x = *(const uint8_t *const *)a, *y = *(const uint8_t *const *)b;
  uint64_t gx, gy;
  uint32_t ix, iy;
  memcpy(&gx, x, 8);
  memcpy(&gy, y, 8);
  memcpy(&ix, x + 8, 4);
  memcpy(&iy, y + 8, 4);
  return gx != gy ? (gx < gy ? -1 : 1) : ix != iy ? (ix < iy ? -1 : 1) : 0;
}

hg_ir_ndrange_state *hg_vendor_state_from_items(const hg_oc_stop_kernel *k, const hg_vendor_range *r,
                                                const uint8_t *records, uint64_t count, const uint32_t *not_started) {
  hg_ir_ndrange_state *s = new_state(k, r);
  const uint8_t **sorted = malloc((count ? count : 1) * sizeof *sorted);
  if (!s || !sorted) {
    free(sorted);
    hg_ir_ndrange_state_free(s);
    return NULL;
  }
  for (uint64_t i = 0; i < count; i++)
    sorted[i] = records + i * k->record_size;
  qsort(sorted, count, sizeof *sorted, cmp_record);
  uint64_t next = 0;
  for (uint64_t grp = 0; grp < r->num_groups; grp++) {
    uint64_t first = next, waiting = 0;
    for (uint64_t g; next < count && (memcpy(&g, sorted[next], 8), g == grp);)
      next++;
    uint64_t base = grp * r->items;
    for (uint32_t i = 0; i < r->items; i++)
      waiting += bit(not_started, base + i);
    if (next == first && !waiting) {
      s->group_status[grp] = HG_GROUP_DONE;
      continue;
    }
    if (next == first && waiting == r->items)
      continue; /* NOT_STARTED */
    hg_ir_group_state *g = hg_ir_ndrange_state_add_group(s, grp);
    if (!g) {
      free(sorted);
      hg_ir_ndrange_state_free(s);
      return NULL;
    }
    for (uint32_t i = 0; i < r->items; i++)
      if (bit(not_started, base + i))
        g->safepoint[i] = 0;
    for (uint64_t q = first; q < next; q++) {
      uint32_t item;
      memcpy(&item, sorted[q] + 8, 4);
      if (item < g->num_items)
        take_item(k, s, g, item, sorted[q]);
    }
  }
  free(sorted);
  return s;
}

hg_ir_ndrange_state *hg_vendor_state_from_groups(const hg_oc_stop_kernel *k, const hg_vendor_range *r,
                                                 const uint8_t *records, uint64_t count, const uint32_t *not_started) {
  hg_ir_ndrange_state *s = new_state(k, r);
  uint64_t gsz = hg_oc_group_record_size(k, r->local_bytes, r->items);
  const uint8_t **by_group = calloc(r->num_groups, sizeof *by_group);
  if (!s || !by_group) {
    free(by_group);
    hg_ir_ndrange_state_free(s);
    return NULL;
  }
  for (uint64_t i = 0; i < count; i++) {
    uint64_t g;
    memcpy(&g, records + i * gsz, 8);
    if (g < r->num_groups)
      by_group[g] = records + i * gsz;
  }
  for (uint64_t grp = 0; grp < r->num_groups; grp++) {
    if (bit(not_started, grp))
      continue; /* NOT_STARTED */
    if (!by_group[grp]) {
      s->group_status[grp] = HG_GROUP_DONE;
      continue;
    }
    hg_ir_group_state *g = hg_ir_ndrange_state_add_group(s, grp);
    if (!g) {
      free(by_group);
      hg_ir_ndrange_state_free(s);
      return NULL;
    }
    const uint8_t *rec = by_group[grp];
    memcpy(g->local, rec + HG_OC_RECORD_HEADER, r->local_bytes);
    const uint8_t *items = rec + HG_OC_RECORD_HEADER + ((r->local_bytes + 15u) & ~15u);
    for (uint32_t i = 0; i < g->num_items; i++)
      take_item(k, s, g, i, items + (size_t)i * k->record_size);
  }
  free(by_group);
  return s;
}

static bool fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return false;
}

bool hg_vendor_state_to_input(const hg_oc_stop_kernel *k, const hg_vendor_range *r, const hg_ir_ndrange_state *s,
                              uint32_t **gmap, uint8_t **in, size_t *in_size, char *err, size_t err_size) {
  *gmap = NULL;
  *in = NULL;
  *in_size = 0;
  if (strcmp(s->kernel, k->name))
    return fail(err, err_size, "the state is of kernel %s", s->kernel);
  if (s->work_dim != r->work_dim || s->num_groups != r->num_groups)
    return fail(err, err_size, "the state's range (%llu groups) is not the launch's (%llu)",
                (unsigned long long)s->num_groups, (unsigned long long)r->num_groups);
  for (unsigned d = 0; d < 3; d++)
    if (s->global_size[d] != r->global[d] || s->local_size[d] != r->local[d] || s->global_offset[d] != r->offset[d])
      return fail(err, err_size, "the state's range differs in dimension %u", d);
  if (s->value_stride != k->layout.value_stride || s->private_size != k->layout.private_size)
    return fail(err, err_size, "record sizes %u/%u do not match the kernel's", s->value_stride, s->private_size);
  uint64_t gsz = hg_oc_group_record_size(k, r->local_bytes, r->items);
  if (s->num_running && gsz > SIZE_MAX / s->num_running)
    return fail(err, err_size, "%u running groups of %llu bytes", s->num_running, (unsigned long long)gsz);
  *gmap = malloc(r->num_groups * sizeof **gmap);
  *in_size = s->num_running ? (size_t)(gsz * s->num_running) : 16;
  *in = calloc(1, *in_size);
  if (!*gmap || !*in) {
    free(*gmap);
    free(*in);
    *gmap = NULL;
    *in = NULL;
    return fail(err, err_size, "out of memory");
  }
  for (uint64_t g = 0; g < r->num_groups; g++)
    (*gmap)[g] = s->group_status[g] == HG_GROUP_DONE ? 1u : 0u;
  uint32_t local = s->local_bytes < r->local_bytes ? s->local_bytes : r->local_bytes;
  for (uint32_t q = 0; q < s->num_running; q++) {
    const hg_ir_group_state *g = &s->running[q];
    if (g->group >= r->num_groups || g->num_items != r->items) {
      free(*gmap);
      free(*in);
      *gmap = NULL;
      *in = NULL;
      return fail(err, err_size, "running group %llu has %u work-items", (unsigned long long)g->group, g->num_items);
    }
    (*gmap)[g->group] = 2u + q;
    uint8_t *rec = *in + (size_t)q * gsz;
    memcpy(rec, &g->group, 8);
    memcpy(rec + HG_OC_RECORD_HEADER, g->local, local);
    uint8_t *items = rec + HG_OC_RECORD_HEADER + ((r->local_bytes + 15u) & ~15u);
    for (uint32_t i = 0; i < g->num_items; i++) {
      uint32_t sp = g->safepoint[i];
      if (sp != HG_WI_DONE && (sp >= k->layout.num_safepoints || !k->resumable[sp])) {
        free(*gmap);
        free(*in);
        *gmap = NULL;
        *in = NULL;
        return fail(err, err_size, "group %llu: no resume at safe point %u", (unsigned long long)g->group, sp);
      }
      uint8_t *w = items + (size_t)i * k->record_size;
      memcpy(w, &g->group, 8);
      memcpy(w + 8, &i, 4);
      memcpy(w + 12, &sp, 4);
      memcpy(w + HG_OC_RECORD_HEADER, g->values + (size_t)i * s->value_stride, s->value_stride);
      memcpy(w + HG_OC_RECORD_HEADER + k->layout.value_stride, g->frames + (size_t)i * s->private_size,
             s->private_size);
    }
  }
  return true;
}

bool hg_vendor_state_untouched(const hg_ir_ndrange_state *s) {
  for (uint64_t g = 0; g < s->num_groups; g++)
    if (s->group_status[g] != HG_GROUP_NOT_STARTED)
      return false;
  return true;
}

hg_ir_ndrange_state *hg_vendor_state_clone(const hg_ir_ndrange_state *s) {
  hg_ir_state_layout sizes = {.value_stride = s->value_stride, .private_size = s->private_size};
  hg_ir_ndrange_state *c = hg_ir_ndrange_state_new(s->kernel, s->work_dim, s->global_offset, s->global_size,
                                                   s->local_size, &sizes, s->local_bytes);
  if (!c)
    return NULL;
  memcpy(c->group_status, s->group_status, s->num_groups);
  for (uint32_t q = 0; q < s->num_running; q++) {
    const hg_ir_group_state *from = &s->running[q];
    hg_ir_group_state *to = hg_ir_ndrange_state_add_group(c, from->group);
    if (!to) {
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

bool hg_vendor_state_mixed(const hg_ir_ndrange_state *s, const hg_oc_stop_kernel *k) {
  for (uint32_t q = 0; q < s->num_running; q++) {
    const hg_ir_group_state *g = &s->running[q];
    for (uint32_t i = 0; i < g->num_items; i++) {
      uint32_t sp = g->safepoint[i];
      if (sp != HG_WI_DONE && sp >= k->layout.num_safepoints)
        return false; /* hg_vendor_state_to_input refuses it */
      if (sp != g->safepoint[0] || (sp != HG_WI_DONE && !k->barrier[sp]))
        return true;
    }
  }
  return false;
}

hg_ir_ndrange_state *hg_vendor_state_after_catchup(const hg_oc_stop_kernel *k, const hg_vendor_range *r,
                                                   const hg_ir_ndrange_state *s, const uint8_t *records, char *err,
                                                   size_t err_size) {
  hg_ir_ndrange_state *c = new_state(k, r);
  if (!c) {
    fail(err, err_size, "out of memory");
    return NULL;
  }
  memcpy(c->group_status, s->group_status, s->num_groups);
  uint64_t gsz = hg_oc_group_record_size(k, r->local_bytes, r->items);
  for (uint32_t q = 0; q < s->num_running; q++) {
    const uint8_t *rec = records + (size_t)q * gsz;
    const uint8_t *items = rec + HG_OC_RECORD_HEADER + ((r->local_bytes + 15u) & ~15u);
    uint32_t done = 0;
    for (uint32_t i = 0; i < r->items; i++) {
      uint32_t sp;
      memcpy(&sp, items + (size_t)i * k->record_size + 12, 4);
      if (sp == 0xfffffffeu) {
        hg_ir_ndrange_state_free(c);
        fail(err, err_size, "group %llu: a work-item reached a barrier it cannot stop at",
             (unsigned long long)s->running[q].group);
        return NULL;
      }
      done += sp == HG_WI_DONE;
    }
    c->group_status[s->running[q].group] = HG_GROUP_DONE;
    if (done == r->items)
      continue;
    c->group_status[s->running[q].group] = HG_GROUP_NOT_STARTED;
    hg_ir_group_state *g = hg_ir_ndrange_state_add_group(c, s->running[q].group);
    if (!g) {
      hg_ir_ndrange_state_free(c);
      fail(err, err_size, "out of memory");
      return NULL;
    }
    memcpy(g->local, rec + HG_OC_RECORD_HEADER, r->local_bytes);
    for (uint32_t i = 0; i < g->num_items; i++)
      take_item(k, c, g, i, items + (size_t)i * k->record_size);
  }
  return c;
}
