/* The safe-point check in generated code (docs/riscv-backend.md, "Stopping and resuming").
 *
 * Every loop-header resume point of a step function (`hg.stop_poll`, ir/resumable.c, kernels
 * without barriers) is a *check*. Asking the simulator (the STOP_POLL service, an ecall) at
 * each check would cost a trap per loop iteration, so a per-job counter in the work-group record counts checks down and only every
 * HG_RV_WG_POLL_INTERVAL-th one polls. Once a poll says stop, the counter is set to 1 and the
 * group is marked stopping: every later check of the job polls again (the simulator's answer
 * stays 1), so each work-item still to run in this round stops at its first check. A launch
 * that cannot be stopped sets the interval to UINT64_MAX: the counter never reaches 0. The
 * driver of a kernel with barriers polls at every round boundary instead (a round is a whole
 * barrier region of every work-item: one ecall is nothing beside it). */
#include <string.h>

#include "devices/riscv/codegen_internal.h"
#include "devices/riscv/sim/sim.h"

static LLVMValueRef wg_word_ptr(hg_rv_cg *g, LLVMValueRef wg, unsigned w) {
  LLVMValueRef idx = LLVMConstInt(g->e.i64, w, 0);
  return LLVMBuildGEP2(g->e.B, g->e.i64, wg, &idx, 1, "");
}

/* a0 = STOP_POLL(): an ecall with a7 = the service; the simulator preserves every other
 * register and touches no guest memory, hence no memory clobber (loads and stores around the
 * check stay free to move). */
static LLVMValueRef stop_poll_ecall(hg_rv_cg *g) {
  LLVMTypeRef ft = LLVMFunctionType(g->e.i64, (LLVMTypeRef[]){g->e.i64}, 1, 0);
  static const char asm_text[] = "ecall", cons[] = "={x10},{x17}";
  LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)asm_text, sizeof asm_text - 1, (char *)cons, sizeof cons - 1, 1, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMValueRef svc = LLVMConstInt(g->e.i64, HG_SIM_SVC_STOP_POLL, 0);
  LLVMValueRef call = LLVMBuildCall2(g->e.B, ft, fn, &svc, 1, "");
  /* it reads only the simulator's state, never guest memory: saying so lets the optimiser keep
   * the poll counter and the demoted values of a loop in registers across the rare poll */
  static const char *const attrs[] = {"inaccessiblememonly", "nounwind"};
  for (size_t i = 0; i < 2; i++)
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(g->e.C, LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i])), 0));
  return call;
}

LLVMValueRef hg_rv_emit_stop_poll(hg_rv_cg *g, LLVMValueRef wg) {
  LLVMBuilderRef B = g->e.B;
  LLVMValueRef stop = LLVMBuildICmp(B, LLVMIntNE, stop_poll_ecall(g), LLVMConstInt(g->e.i64, 0, 0), "");
  LLVMValueRef stopping = wg_word_ptr(g, wg, HG_RV_WG_STOPPING);
  LLVMBuildStore(B, LLVMBuildOr(B, LLVMBuildLoad2(B, g->e.i64, stopping, ""), LLVMBuildZExt(B, stop, g->e.i64, ""), ""),
                 stopping);
  return stop;
}

LLVMValueRef hg_rv_emit_stop_check(hg_rv_cg *g, LLVMValueRef fn, LLVMValueRef wg) {
  LLVMBuilderRef B = g->e.B;
  LLVMBasicBlockRef from = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(g->e.C, fn, "poll");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->e.C, fn, "polled");
  LLVMValueRef cntp = wg_word_ptr(g, wg, HG_RV_WG_POLL_COUNT);
  LLVMValueRef cnt = LLVMBuildSub(B, LLVMBuildLoad2(B, g->e.i64, cntp, ""), LLVMConstInt(g->e.i64, 1, 0), "");
  LLVMBuildStore(B, cnt, cntp);
  LLVMValueRef due = LLVMBuildICmp(B, LLVMIntEQ, cnt, LLVMConstInt(g->e.i64, 0, 0), "");
  LLVMTypeRef i1 = g->e.i1;
  LLVMValueRef expect_args[2] = {due, LLVMConstInt(g->e.i1, 0, 0)};
  due = hg_rv_intrinsic(g, "llvm.expect", &i1, 1, expect_args, 2);
  LLVMBuildCondBr(B, due, slow, join);

  LLVMPositionBuilderAtEnd(B, slow);
  LLVMValueRef stop = LLVMBuildICmp(B, LLVMIntNE, stop_poll_ecall(g), LLVMConstInt(g->e.i64, 0, 0), "");
  LLVMValueRef interval = LLVMBuildLoad2(B, g->e.i64, wg_word_ptr(g, wg, HG_RV_WG_POLL_INTERVAL), "");
  LLVMBuildStore(B, LLVMBuildSelect(B, stop, LLVMConstInt(g->e.i64, 1, 0), interval, ""), cntp);
  LLVMValueRef stopping = wg_word_ptr(g, wg, HG_RV_WG_STOPPING);
  LLVMBuildStore(B, LLVMBuildOr(B, LLVMBuildLoad2(B, g->e.i64, stopping, ""), LLVMBuildZExt(B, stop, g->e.i64, ""), ""),
                 stopping);
  LLVMBuildBr(B, join);

  LLVMPositionBuilderAtEnd(B, join);
  LLVMValueRef r = LLVMBuildPhi(B, g->e.i1, "stop");
  LLVMAddIncoming(r, (LLVMValueRef[]){LLVMConstInt(g->e.i1, 0, 0), stop}, (LLVMBasicBlockRef[]){from, slow}, 2);
  return r;
}
