/* libFuzzer harness for the whole path an IR binary takes through clCreateProgramWithBinary
 * and clBuildProgram, short of running a kernel: hg_ir_decode (which verifies), the executable
 * form the driver makes of an object or library (calls inlined, state computed, verified
 * again), then every lowering: the RISC-V code generator with its link against the device
 * runtime, the OpenCL C lowering and its stoppable form, the SPIR lowering. Any input must end in a module or a
 * message at each step, never a crash, an ASan or UBSan report, or a lowering that fails
 * without saying why. Seeds: tools/fuzz/corpus/ (docs/fuzzing.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/riscv_internal.h"
#include "fuzz_checksum.h"
#include "ir/ir.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_stop.h"
#include "lowering/spir.h"

static void check_one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_fuzz_as_given_and_fixed(data, size, check_one);
  return 0;
}

/* The data window the linker asks for (nothing is written there). */
static int fake_dram(void *ctx, size_t size, uint64_t *base) {
  (void)ctx;
  (void)size;
  *base = 0x80000000ull;
  return 0;
}

static void lower_riscv(const hg_ir_module *m) {
  char err[1024] = "";
  hg_ir_module *copy = hg_ir_module_clone(m); /* the code generator adds step functions */
  if (!copy)
    return;
  hg_rv_object obj;
  if (hg_rv_codegen(copy, &obj, err, sizeof err)) {
    if (!err[0])
      abort(); /* a refusal says why */
    hg_ir_module_free(copy);
    return;
  }
  const void *objs[2] = {obj.bytes, hg_riscv_runtime_object};
  size_t sizes[2] = {obj.size, hg_riscv_runtime_object_size};
  hg_rv_image img;
  if (hg_rv_link(objs, sizes, 2, 0x10000000ull, fake_dram, NULL, &img, err, sizeof err) == 0)
    hg_rv_image_free(&img);
  else if (!err[0])
    abort();
  hg_rv_object_free(&obj);
  hg_ir_module_free(copy);
}

static void lower_opencl_c(const hg_ir_module *m) {
  char err[1024] = "";
  hg_printf_table table;
  char *src = hg_lower_opencl_c(m, &table, err, sizeof err);
  if (src) {
    hg_printf_table_free(&table);
    free(src);
  } else if (!err[0]) {
    abort();
  }
  /* the forms as a CPU device gets them, and as a GPU does */
  for (int cpu = 1; cpu >= 0; cpu--) {
    hg_oc_stop_table stop = {0};
    hg_oc_forms_target target = hg_oc_forms_target_of(cpu);
    err[0] = 0;
    src = hg_lower_opencl_c_stoppable(m, &target, &table, &stop, err, sizeof err);
    if (src) {
      hg_printf_table_free(&table);
      hg_oc_stop_table_free(&stop);
      free(src);
    } else if (!err[0]) {
      abort();
    }
  }
}

/* with the slice forms, as a SPIR program gets them: the plain kernels are the same */
static void lower_spir(const hg_ir_module *m) {
  char err[1024] = "";
  size_t size = 0;
  uint8_t *bc = hg_lower_spir(m, true, &size, err, sizeof err);
  if (!bc && !err[0])
    abort(); /* a refusal says why */
  free(bc);
}

static void check_one(const uint8_t *data, size_t size) {
  char err[512] = "";
  hg_ir_module *m = hg_ir_decode(data, size, err, sizeof err);
  if (!m) {
    if (!err[0])
      abort();
    return;
  }
  if (!hg_ir_verify(m, err, sizeof err)) {
    fprintf(stderr, "decoded but does not verify: %s\n", err);
    abort();
  }
  /* clBuildProgram of a compiled object or library: linked alone into an executable
   * (hg_frontend_finish_executable's steps) */
  bool ok = true;
  if (m->program_kind != HG_IR_PROGRAM_EXECUTABLE) {
    ok = hg_ir_inline_calls(m, err, sizeof err);
    if (ok) {
      m->program_kind = HG_IR_PROGRAM_EXECUTABLE;
      hg_ir_compute_state(m);
      ok = hg_ir_verify(m, err, sizeof err);
    }
  }
  if (ok) {
    lower_riscv(m);
    lower_opencl_c(m);
    lower_spir(m);
  }
  hg_ir_module_free(m);
}
