/* Shared by the SPIR back end's tests: OpenCL C through hetGPU's front end and hg_lower_spir,
 * the bitcode read back; their CHECK is conformance/harness/unit_check.h's. */
#ifndef HETGPU_CONFORMANCE_SPIR_TEST_LOWER_H
#define HETGPU_CONFORMANCE_SPIR_TEST_LOWER_H

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>

#include "conformance/harness/unit_check.h"
#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/spir.h"

/* source's SPIR bitcode (malloc'd, *size bytes), or NULL with the reason printed */
static inline uint8_t *spir_test_lower(const char *source, size_t *size) {
  hg_ir_module *m = NULL;
  char *log = NULL;
  if (hg_frontend_source_to_ir(source, "", NULL, 0, false, &m, &log) != CL_SUCCESS) {
    fprintf(stderr, "FAIL: front end: %s\n", log ? log : "");
    free(log);
    return NULL;
  }
  free(log);
  char err[512] = "";
  uint8_t *bc = hg_lower_spir(m, false, size, err, sizeof err);
  hg_ir_module_free(m);
  if (!bc)
    fprintf(stderr, "FAIL: SPIR back end: %s\n", err);
  return bc;
}

/* bitcode read into a module of context C, or NULL with the reason printed */
static inline LLVMModuleRef spir_test_parse(LLVMContextRef C, const uint8_t *bc, size_t size) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)bc, size, "bc");
  LLVMModuleRef M = NULL;
  if (LLVMParseBitcodeInContext2(C, buf, &M) != 0) {
    fprintf(stderr, "FAIL: unreadable bitcode\n");
    M = NULL;
  }
  LLVMDisposeMemoryBuffer(buf); /* the parse reads it, it does not take it */
  return M;
}

#endif
