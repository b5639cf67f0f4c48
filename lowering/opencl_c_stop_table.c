/* The table of kernels with stoppable and resume forms (lowering/opencl_c_stop.h): what the
 * host needs to run them. Apart from the emitter so that backends' tests can link it alone. */
#include <stdlib.h>
#include <string.h>

#include "lowering/opencl_c_stop.h"

void hg_oc_stop_table_free(hg_oc_stop_table *t) {
  if (!t) return;
  for (uint32_t i = 0; i < t->num_kernels; i++) {
    hg_oc_stop_kernel *k = &t->kernels[i];
    free(k->name);
    free(k->stop_name);
    free(k->resume_name);
    free(k->catchup_name);
    free(k->slice_name);
    free(k->resumable);
    free(k->barrier);
    free(k->local_params);
    free(k->local_param_align);
    hg_ir_state_layout_free(&k->layout);
  }
  free(t->kernels);
  memset(t, 0, sizeof *t);
}

const hg_oc_stop_kernel *hg_oc_stop_table_find(const hg_oc_stop_table *t, const char *kernel) {
  for (uint32_t i = 0; t && kernel && i < t->num_kernels; i++)
    if (!strcmp(t->kernels[i].name, kernel)) return &t->kernels[i];
  return NULL;
}

uint32_t hg_oc_local_bytes(const hg_oc_stop_kernel *k, const uint64_t *sizes) {
  uint64_t end = k->local_static_size;
  for (uint32_t i = 0; i < k->num_local_params; i++) {
    uint64_t a = k->local_param_align[i];
    end = (end + a - 1) / a * a + sizes[i];
  }
  return end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
}
