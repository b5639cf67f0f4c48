/* The printf table of lowered OpenCL C (lowering/opencl_c.h): the host-side functions, apart
 * from the lowering so that a backend or a tool can use the table without linking the back end. */
#include <stdlib.h>
#include <string.h>

#include "lowering/opencl_c.h"

void hg_printf_table_free(hg_printf_table *t) {
  if (!t) return;
  for (uint32_t i = 0; i < t->num_formats; i++) free(t->formats[i]);
  for (uint32_t i = 0; i < t->num_strings; i++) free(t->strings[i].bytes);
  for (uint32_t i = 0; i < t->num_kernels; i++) free(t->kernels[i]);
  free(t->formats);
  free(t->strings);
  free(t->kernels);
  memset(t, 0, sizeof *t);
}

bool hg_printf_table_has_kernel(const hg_printf_table *t, const char *name) {
  for (uint32_t i = 0; t && i < t->num_kernels; i++)
    if (!strcmp(t->kernels[i], name)) return true;
  return false;
}

const char *hg_printf_table_string(void *table, uint64_t slot, size_t *max) {
  const hg_printf_table *t = table;
  uint64_t id = slot >> 32, off = slot & 0xffffffffu;
  if (!id || id > t->num_strings || off >= t->strings[id - 1].size) return NULL;
  *max = t->strings[id - 1].size - off;
  return (const char *)t->strings[id - 1].bytes + off;
}

