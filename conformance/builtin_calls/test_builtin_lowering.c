/* Bad builtin calls handed to the lowerings without the verifier in front (defence in depth,
 * issue "Reliability" row 1): for every variant of mutants.h the RISC-V code generator and the
 * OpenCL C lowering (plain and stoppable forms) must fail with a message naming the builtin,
 * never crash (each variant runs in a child process; isolated.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/riscv_internal.h"
#include "isolated.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_stop.h"
#include "mutants.h"

enum { REFUSED = 0, RISCV_ACCEPTED, RISCV_MESSAGE, OPENCL_C_ACCEPTED, OPENCL_C_MESSAGE, STOPPABLE_ACCEPTED,
       STOPPABLE_MESSAGE, OUT_OF_MEMORY };

/* Does the message name the builtin: `builtin "NAME"` (the signature check), or `builtin NAME `
 * (a backend that does not lower a well-formed call: the bad copy of a call comes after it)? */
static bool names(const char *err, const char *builtin) {
  char quoted[96], plain[96];
  snprintf(quoted, sizeof quoted, "builtin \"%s\"", builtin);
  snprintf(plain, sizeof plain, "builtin %s ", builtin);
  return strstr(err, quoted) || strstr(err, plain);
}

static int check(size_t i, void *p) {
  const bc_variant *v = &((const bc_variant *)p)[i];
  char err[1024] = "";
  hg_ir_module *m = hg_ir_module_clone(v->m); /* the code generator adds step functions */
  if (!m)
    return OUT_OF_MEMORY;
  hg_rv_object obj;
  int rc = hg_rv_codegen(m, &obj, err, sizeof err);
  hg_ir_module_free(m);
  if (!rc) {
    hg_rv_object_free(&obj);
    return RISCV_ACCEPTED;
  }
  if (!names(err, v->builtin))
    return RISCV_MESSAGE;
  err[0] = 0;
  char *src = hg_lower_opencl_c(v->m, NULL, err, sizeof err);
  if (src) {
    free(src);
    return OPENCL_C_ACCEPTED;
  }
  if (!names(err, v->builtin))
    return OPENCL_C_MESSAGE;
  err[0] = 0;
  hg_oc_stop_table stop = {0};
  hg_oc_forms_target cpu = hg_oc_forms_target_of(true);
  src = hg_lower_opencl_c_stoppable(v->m, &cpu, NULL, &stop, err, sizeof err);
  hg_oc_stop_table_free(&stop);
  if (src) {
    free(src);
    return STOPPABLE_ACCEPTED;
  }
  return names(err, v->builtin) ? REFUSED : STOPPABLE_MESSAGE;
}

static const char *outcome_text(unsigned char o) {
  switch (o) {
  case RISCV_ACCEPTED: return "the RISC-V code generator accepted it";
  case RISCV_MESSAGE: return "the RISC-V code generator's message does not name the builtin";
  case OPENCL_C_ACCEPTED: return "the OpenCL C lowering accepted it";
  case OPENCL_C_MESSAGE: return "the OpenCL C lowering's message does not name the builtin";
  case STOPPABLE_ACCEPTED: return "the stoppable OpenCL C lowering accepted it";
  case STOPPABLE_MESSAGE: return "the stoppable OpenCL C lowering's message does not name the builtin";
  case OUT_OF_MEMORY: return "out of memory";
  default: return bc_isolated_outcome_text(o);
  }
}

static const char *label(size_t i, void *p) { return ((const bc_variant *)p)[i].what; }

int main(void) {
  bc_variant *v = NULL;
  size_t n = bc_make_variants(&v);
  if (!n)
    return 1;
  bc_isolated_fns fns = {NULL, check, v};
  unsigned crashes, bad = bc_run_reported(n, &fns, 120, label, outcome_text, &crashes);
  printf("%zu variants, %u not refused cleanly (%u crashes)\n", n, bad, crashes);
  printf("%zu passed, %u failed\n", n - bad, bad);
  bc_free_variants(v, n);
  return bad != 0;
}
