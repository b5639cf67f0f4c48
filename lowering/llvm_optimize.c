/* LLVM's -O2 over what an executable's kernels reach: clang runs with -disable-llvm-optzns and
 * this runs its pipeline after dropping the functions no kernel calls. clang -O2 optimised every
 * function of the translation unit, and a program that includes a library of hundreds of
 * functions (hashcat's inc_*.cl: its DECLSPEC is empty off AMD, so they are external) spent 8 of
 * its 8.6 s in clang on functions no kernel reached (docs/performance.md).
 *
 * The pipeline is the one clang -cc1 -O2 runs for the spir64 triple, written out: LLVM 15's
 * `default<O2>` alias turns the loop and SLP vectorizers on whatever the tuning options say
 * (opt-15 -passes='default<O2>' -print-pipeline-passes gives this text with them on), while
 * clang -cc1 runs the loop vectorizer only where a loop's metadata forces it and no SLP
 * vectorizer unless told (their vector reductions are also what the translator does not take).
 * Like clang there is no target machine (none exists for SPIR), and the target library info
 * comes from the triple. Over the conformance kernels this gives clang -O2's code exactly. */
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "lowering/llvm_barrier_loops.h"
#include "lowering/llvm_translate.h"
#include "lowering/llvm_work_item_ranges.h"

#define CFG_OPTS(x) "simplifycfg<bonus-inst-threshold=1;" x ">"
#define CFG_EARLY \
  CFG_OPTS("no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;" \
           "no-sink-common-insts")
#define CFG \
  CFG_OPTS("no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;" \
           "no-sink-common-insts")
#define CFG_HOIST \
  CFG_OPTS("no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;hoist-common-insts;" \
           "sink-common-insts")
#define CFG_LATE \
  CFG_OPTS("forward-switch-cond;switch-range-to-icmp;switch-to-lookup;no-keep-loops;hoist-common-insts;" \
           "sink-common-insts")
static const char k_clang_o2_pipeline[] =
    "annotation2metadata,forceattrs,inferattrs,coro-early,function<eager-inv>(lower-expect,"
    CFG_EARLY ",sroa,early-cse<>),openmp-opt,ipsccp,called-value-propagation,globalopt,"
    "function(mem2reg),deadargelim,function<eager-inv>(instcombine," CFG "),"
    "require<globals-aa>,function(invalidate<aa>),require<profile-summary>,"
    "cgscc(devirt<4>(inline<only-mandatory>,inline,function-attrs,openmp-opt-cgscc,"
    "function<eager-inv>(sroa,early-cse<memssa>,speculative-execution,jump-threading,"
    "correlated-propagation," CFG ",instcombine,libcalls-shrinkwrap,tailcallelim," CFG ","
    "reassociate,require<opt-remark-emit>,loop-mssa(loop-instsimplify,loop-simplifycfg,"
    "licm<no-allowspeculation>,loop-rotate,licm<allowspeculation>,"
    "simple-loop-unswitch<no-nontrivial;trivial>)," CFG ",instcombine,loop(loop-idiom,"
    "indvars,loop-deletion,loop-unroll-full),sroa,mldst-motion<no-split-footer-bb>,gvn<>,"
    "sccp,bdce,instcombine,jump-threading,correlated-propagation,adce,memcpyopt,dse,"
    "loop-mssa(licm<allowspeculation>),coro-elide," CFG_HOIST ",instcombine),coro-split)),"
    "coro-cleanup,globalopt,globaldce,elim-avail-extern,rpo-function-attrs,"
    "recompute-globalsaa,function<eager-inv>(float2int,lower-constant-intrinsics,"
    "loop(loop-rotate,loop-deletion),loop-distribute,inject-tli-mappings,"
    "loop-vectorize<no-interleave-forced-only;vectorize-forced-only;>,loop-load-elim,"
    "instcombine," CFG_LATE ",vector-combine,instcombine,loop-unroll<O2>,transform-warning,"
    "instcombine,require<opt-remark-emit>,loop-mssa(licm<allowspeculation>),"
    "alignment-from-assumptions,loop-sink,instsimplify,div-rem-pairs,tailcallelim," CFG "),"
    "globaldce,constmerge,cg-profile,rel-lookup-table-converter,function(annotation-remarks)";

#define SPIR_KERNEL_CC 76 /* llvm::CallingConv::SPIR_KERNEL */

static bool run(LLVMModuleRef mod, const char *passes, char **log) {
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(mod, passes, NULL, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (err) {
    char *msg = LLVMGetErrorMessage(err);
    hg_log_append(log, "error: internal: LLVM's optimisation failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return false;
  }
  return true;
}

/* -O2, with the inner loops of loops that reach a barrier kept as loops (llvm_barrier_loops.h)
 * and the work-item functions' ranges known (llvm_work_item_ranges.h) */
static bool optimize(LLVMModuleRef mod, char **log) {
  if (!hg_llvm_keep_loops_in_barrier_loops(mod)) {
    hg_log_append(log, "error: out of memory");
    return false;
  }
  hg_llvm_mark_work_item_ranges(mod);
  return run(mod, k_clang_o2_pipeline, log);
}

bool hg_llvm_optimize_all(LLVMModuleRef mod, char **log) { return optimize(mod, log); }

bool hg_llvm_optimize_reached(LLVMModuleRef mod, char **log) {
  /* internal: globaldce drops what no kernel reaches, and -O2 then sees every function's
   * callers (the kernels are the module's only entry points) */
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn) > 0 && LLVMGetFunctionCallConv(fn) != SPIR_KERNEL_CC)
      LLVMSetLinkage(fn, LLVMInternalLinkage);
  return run(mod, "globaldce", log) && optimize(mod, log);
}
