/* Compiled objects (lowering/frontend_object.c) to IR: one object's bitcode translated, or the
 * objects linked by LLVM's linker, then optimised over what the kernels reach and translated once. */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <stdlib.h>

#include "common/host_clock.h"
#include "common/log.h"
#include "lowering/frontend.h"
#include "lowering/llvm_translate.h"

cl_int hg_frontend_object_to_ir(const hg_frontend_object *obj, hg_ir_module **out, char **log) {
  *out = NULL;
  hg_fe_options opt;
  if (hg_fe_parse_options(obj->options, &opt, log) != CL_SUCCESS)
    return CL_COMPILE_PROGRAM_FAILURE;
  uint64_t t0 = hg_host_clock_ns();
  *out = hg_frontend_bitcode_to_ir(obj->bitcode, obj->size, true, opt.optimize ? hg_llvm_optimize_all : NULL, false,
                                   opt.source_language, opt.semantic, log);
  HG_LOG(HG_LOG_COMPILE, "front end: an object's %sbitcode to IR %.1f ms", opt.optimize ? "LLVM -O2 and " : "",
         (hg_host_clock_ns() - t0) / 1e6);
  hg_fe_options_free(&opt);
  return *out ? CL_SUCCESS : CL_COMPILE_PROGRAM_FAILURE;
}

/* The objects' bitcode linked into one module, written as bitcode; NULL after logging. */
static LLVMMemoryBufferRef link_bitcode(const hg_frontend_object *const *objs, unsigned n, char **log) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetOpaquePointers(ctx, 1);
  LLVMContextSetDiagnosticHandler(ctx, hg_llvm_diagnostic_to_log, log);
  LLVMModuleRef linked = NULL;
  bool ok = true;
  for (unsigned i = 0; ok && i < n; i++) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(objs[i]->bitcode, objs[i]->size, "object", 0);
    LLVMModuleRef mod = NULL;
    ok = !LLVMParseBitcodeInContext2(ctx, buf, &mod) && mod;
    LLVMDisposeMemoryBuffer(buf);
    if (!ok)
      hg_log_append(log, "error: internal: an object's bitcode is unreadable");
    else if (!linked)
      linked = mod;
    else
      ok = !LLVMLinkModules2(linked, mod); /* takes mod */
  }
  LLVMMemoryBufferRef out = ok ? LLVMWriteBitcodeToMemoryBuffer(linked) : NULL;
  if (linked)
    LLVMDisposeModule(linked);
  LLVMContextDispose(ctx);
  return out;
}

cl_int hg_frontend_link_objects(const hg_frontend_object *const *objs, unsigned n, hg_ir_module **out, char **log) {
  *out = NULL;
  bool optimize = true;
  hg_fe_options first = {0};
  for (unsigned i = 0; i < n; i++) {
    hg_fe_options opt;
    if (hg_fe_parse_options(objs[i]->options, &opt, log) != CL_SUCCESS) {
      hg_fe_options_free(&first);
      return CL_LINK_PROGRAM_FAILURE;
    }
    optimize &= opt.optimize; /* an object built with -cl-opt-disable keeps the link from optimising */
    if (i == 0)
      first = opt;
    else
      hg_fe_options_free(&opt);
  }
  uint64_t t0 = hg_host_clock_ns();
  LLVMMemoryBufferRef linked = link_bitcode(objs, n, log);
  hg_ir_module *m = NULL;
  if (linked) {
    m = hg_frontend_bitcode_to_ir(LLVMGetBufferStart(linked), LLVMGetBufferSize(linked), false,
                                  optimize ? hg_llvm_optimize_reached : NULL, false, first.source_language,
                                  first.semantic, log);
    LLVMDisposeMemoryBuffer(linked);
  }
  hg_fe_options_free(&first);
  if (m && hg_frontend_finish_executable(m, log) != CL_SUCCESS) {
    hg_ir_module_free(m);
    m = NULL;
  }
  HG_LOG(HG_LOG_COMPILE, "front end: %u objects linked%s and translated in %.1f ms", n,
         optimize ? ", LLVM -O2 over what the kernels reach," : "", (hg_host_clock_ns() - t0) / 1e6);
  *out = m;
  return m ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
}
