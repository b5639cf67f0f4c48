/* The work-group driver, generated per kernel in LLVM IR: one simulator job runs one
 * work-group. `i64 hg_wg_k<N>(ptr desc, i64 group, ptr save, ptr resume)`:
 *   fill the work-group record (ids, this group's local size, sizes, offsets, poll counter) in L1;
 *   every work-item: local id, state = 0; with a resume record: work-item records, frames and
 *   local memory from it instead;
 *   repeat: every work-item not done: state = step(wg, wi, frame, state, params...)
 *   until every work-item returned HG_IR_STEP_DONE (return HG_RV_JOB_DONE).
 * Stopping (docs/riscv-backend.md, "Stopping and resuming"): once a safe-point check said stop
 * (a loop-header check in a step function, or the check between two rounds), the round still
 * runs every work-item left in it up to its first safe point (every check polls, and says
 * stop, from then on); then the work-item records,
 * frames and local memory go to the save record and the job returns HG_RV_JOB_STOPPED. So a
 * stopped group's work-items are at loop headers of one barrier region, at the barrier that
 * ends it (arrived, not crossed), at the entry, or done: a state any backend can resume.
 * Kernel parameters are loaded once from the argument block (riscv_internal.h layout). */
#include <stdlib.h>

#include "devices/riscv/codegen_internal.h"
#include "devices/riscv/sim/sim.h"

uint32_t hg_rv_arg_layout_of(const hg_ir_function *k, hg_rv_arg_layout *lay) {
  uint32_t off = 0;
  for (uint32_t i = 0; i < k->num_params; i++) {
    uint32_t size = 8, align = 8;
    if (k->args && k->args[i].kind == HG_KARG_VALUE) {
      size = k->args[i].size;
      align = k->args[i].align > 8 ? k->args[i].align : 8;
      if (align > 128)
        align = 128;
    }
    off = (off + align - 1) / align * align;
    lay[i].offset = off;
    lay[i].size = size;
    off += size;
  }
  return (off + 15) & ~15u;
}

static LLVMValueRef word_ptr(hg_rv_cg *g, LLVMValueRef base, LLVMValueRef index) {
  return LLVMBuildGEP2(g->e.B, g->e.i64, base, &index, 1, "");
}

static LLVMValueRef load_word(hg_rv_cg *g, LLVMValueRef base, unsigned w) {
  return LLVMBuildLoad2(g->e.B, g->e.i64, word_ptr(g, base, LLVMConstInt(g->e.i64, w, 0)), "");
}

static void store_word(hg_rv_cg *g, LLVMValueRef base, unsigned w, LLVMValueRef v) {
  LLVMBuildStore(g->e.B, v, word_ptr(g, base, LLVMConstInt(g->e.i64, w, 0)));
}

static LLVMValueRef c64(hg_rv_cg *g, uint64_t v) { return LLVMConstInt(g->e.i64, v, 0); }

/* Copies `bytes` (a multiple of 8, may be 0) from src to dst in 64-bit words; leaves the
 * builder in a new block after the loop. */
static void copy_words(hg_rv_cg *g, LLVMValueRef fn, LLVMValueRef dst, LLVMValueRef src, LLVMValueRef bytes) {
  LLVMBuilderRef B = g->e.B;
  LLVMBasicBlockRef from = LLVMGetInsertBlock(B);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->e.C, fn, "copy");
  LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(g->e.C, fn, "copied");
  LLVMValueRef n = LLVMBuildLShr(B, bytes, c64(g, 3), "");
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, n, c64(g, 0), ""), after, loop);
  LLVMPositionBuilderAtEnd(B, loop);
  LLVMValueRef i = LLVMBuildPhi(B, g->e.i64, "");
  LLVMBuildStore(B, LLVMBuildLoad2(B, g->e.i64, word_ptr(g, src, i), ""), word_ptr(g, dst, i));
  LLVMValueRef i1 = LLVMBuildAdd(B, i, c64(g, 1), "");
  LLVMValueRef zero = c64(g, 0);
  LLVMAddIncoming(i, &zero, &from, 1);
  LLVMAddIncoming(i, &i1, &loop, 1);
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, i1, n, ""), loop, after);
  LLVMPositionBuilderAtEnd(B, after);
}

/* The group's state between the L1 (work-item records, frames, local memory) and a DRAM
 * record (riscv_internal.h): to_record true saves, false loads. */
static void transfer_group(hg_rv_cg *g, LLVMValueRef fn, LLVMValueRef desc, LLVMValueRef rec, bool to_record,
                           LLVMValueRef wib, LLVMValueRef fb, LLVMValueRef n, LLVMValueRef fs) {
  LLVMBuilderRef B = g->e.B;
  /* read here, not in the driver's prologue: only a stopping or resumed group pays */
  LLVMValueRef rec_frames = load_word(g, desc, HG_RV_D_REC_FRAMES), rec_local = load_word(g, desc, HG_RV_D_REC_LOCAL);
  LLVMValueRef local_bytes = load_word(g, desc, HG_RV_D_LOCAL_BYTES);
  LLVMValueRef l1 = LLVMBuildIntToPtr(B, c64(g, HG_SIM_L1_BASE), g->ptr, "l1");
  LLVMValueRef rf = LLVMBuildGEP2(B, g->e.i8, rec, &rec_frames, 1, "");
  LLVMValueRef rl = LLVMBuildGEP2(B, g->e.i8, rec, &rec_local, 1, "");
  LLVMValueRef wi_bytes = LLVMBuildMul(B, n, c64(g, HG_RV_WI_BYTES), "");
  LLVMValueRef frame_bytes = LLVMBuildMul(B, n, fs, "");
  if (to_record) {
    copy_words(g, fn, rec, wib, wi_bytes);
    copy_words(g, fn, rf, fb, frame_bytes);
    copy_words(g, fn, rl, l1, local_bytes);
  } else {
    copy_words(g, fn, wib, rec, wi_bytes);
    copy_words(g, fn, fb, rf, frame_bytes);
    copy_words(g, fn, l1, rl, local_bytes);
  }
}

bool hg_rv_emit_driver(hg_rv_cg *g, const hg_ir_function *k, LLVMValueRef step, const hg_rv_kernel_code *kc) {
  LLVMBuilderRef B = g->e.B;
  LLVMTypeRef ft = LLVMFunctionType(g->e.i64, (LLVMTypeRef[]){g->ptr, g->e.i64, g->ptr, g->ptr}, 4, 0);
  LLVMValueRef fn = LLVMAddFunction(g->e.M, kc->entry, ft);
  hg_rv_function_attrs(g, fn);
  LLVMValueRef desc = LLVMGetParam(fn, 0), group = LLVMGetParam(fn, 1);
  LLVMValueRef save = LLVMGetParam(fn, 2), resume = LLVMGetParam(fn, 3);
  bool has_barrier = false;
  for (uint32_t s = 0; s < k->num_safepoints; s++)
    has_barrier |= k->safepoints[s].kind == HG_SAFEPOINT_BARRIER;
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->e.C, fn, "entry");
  LLVMBasicBlockRef init = LLVMAppendBasicBlockInContext(g->e.C, fn, "init");
  LLVMBasicBlockRef resumed = LLVMAppendBasicBlockInContext(g->e.C, fn, "resumed");
  LLVMBasicBlockRef load = LLVMAppendBasicBlockInContext(g->e.C, fn, "load");
  LLVMBasicBlockRef round = LLVMAppendBasicBlockInContext(g->e.C, fn, "round");
  LLVMBasicBlockRef item = LLVMAppendBasicBlockInContext(g->e.C, fn, "item");
  LLVMBasicBlockRef live = LLVMAppendBasicBlockInContext(g->e.C, fn, "live");
  LLVMBasicBlockRef unhold = LLVMAppendBasicBlockInContext(g->e.C, fn, "unhold");
  LLVMBasicBlockRef runnable = LLVMAppendBasicBlockInContext(g->e.C, fn, "runnable");
  LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(g->e.C, fn, "call");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->e.C, fn, "next");
  LLVMBasicBlockRef end_round = LLVMAppendBasicBlockInContext(g->e.C, fn, "end_round");
  LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(g->e.C, fn, "check");
  LLVMBasicBlockRef stopped = LLVMAppendBasicBlockInContext(g->e.C, fn, "stopped");
  LLVMBasicBlockRef do_save = LLVMAppendBasicBlockInContext(g->e.C, fn, "save");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->e.C, fn, "done");

  LLVMPositionBuilderAtEnd(B, entry);
  LLVMValueRef wg = LLVMBuildIntToPtr(B, load_word(g, desc, HG_RV_D_WG), g->ptr, "wg");
  LLVMValueRef wib = LLVMBuildIntToPtr(B, load_word(g, desc, HG_RV_D_WI), g->ptr, "wi");
  LLVMValueRef fb = LLVMBuildIntToPtr(B, load_word(g, desc, HG_RV_D_FRAMES), g->ptr, "frames");
  LLVMValueRef fs = load_word(g, desc, HG_RV_D_FRAME_STRIDE);
  LLVMValueRef args = LLVMBuildIntToPtr(B, load_word(g, desc, HG_RV_D_ARGS), g->ptr, "args");
  LLVMValueRef ng0 = load_word(g, desc, HG_RV_D_GROUPS), ng1 = load_word(g, desc, HG_RV_D_GROUPS + 1);
  LLVMValueRef gid[3], ls[3];
  gid[0] = LLVMBuildURem(B, group, ng0, "");
  LLVMValueRef t = LLVMBuildUDiv(B, group, ng0, "");
  gid[1] = LLVMBuildURem(B, t, ng1, "");
  gid[2] = LLVMBuildUDiv(B, t, ng1, "");
  for (unsigned d = 0; d < 3; d++) {
    LLVMValueRef enq = load_word(g, desc, HG_RV_D_LOCAL + d), glob = load_word(g, desc, HG_RV_D_GLOBAL + d);
    LLVMValueRef rem = LLVMBuildSub(B, glob, LLVMBuildMul(B, gid[d], enq, ""), "");
    ls[d] = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, rem, enq, ""), rem, enq, "");
    store_word(g, wg, HG_RV_WG_GROUP_ID + d, gid[d]);
    store_word(g, wg, HG_RV_WG_LOCAL + d, ls[d]);
    store_word(g, wg, HG_RV_WG_ENQ_LOCAL + d, enq);
    store_word(g, wg, HG_RV_WG_GLOBAL + d, glob);
    store_word(g, wg, HG_RV_WG_OFFSET + d, load_word(g, desc, HG_RV_D_OFFSET + d));
    store_word(g, wg, HG_RV_WG_GROUPS + d, load_word(g, desc, HG_RV_D_GROUPS + d));
  }
  store_word(g, wg, HG_RV_WG_WORK_DIM, load_word(g, desc, HG_RV_D_WORK_DIM));
  store_word(g, wg, HG_RV_WG_PRINTF, load_word(g, desc, HG_RV_D_PRINTF));
  store_word(g, wg, HG_RV_WG_PRINTF_SIZE, load_word(g, desc, HG_RV_D_PRINTF_SIZE));
  LLVMValueRef interval = load_word(g, desc, HG_RV_D_POLL_INTERVAL);
  store_word(g, wg, HG_RV_WG_POLL_INTERVAL, interval);
  store_word(g, wg, HG_RV_WG_POLL_COUNT, interval);
  store_word(g, wg, HG_RV_WG_STOPPING, c64(g, 0));
  LLVMValueRef ls01 = LLVMBuildMul(B, ls[0], ls[1], "");
  LLVMValueRef n = LLVMBuildMul(B, ls01, ls[2], "n");
  /* kernel parameters from the argument block */
  unsigned np = k->num_params;
  hg_rv_arg_layout *lay = malloc((np ? np : 1) * sizeof *lay);
  LLVMValueRef *cargs = malloc((np + 4) * sizeof *cargs);
  if (!lay || !cargs) {
    free(lay);
    free(cargs);
    return !hg_rv_fail(g, "out of memory");
  }
  hg_rv_arg_layout_of(k, lay);
  uint64_t *byval_at = malloc((np ? np : 1) * sizeof *byval_at); /* frame offset of a struct copy */
  uint64_t copy_at = (g->e.f->private_size + 15) & ~15u;
  for (unsigned i = 0; byval_at && i < np; i++)
    byval_at[i] = UINT64_MAX; /* none */
  for (unsigned i = 0; i < np; i++) {
    LLVMValueRef off = c64(g, lay[i].offset);
    LLVMValueRef p = LLVMBuildGEP2(B, g->e.i8, args, &off, 1, "");
    hg_ir_type pt = k->param_types[i];
    if (k->args[i].kind == HG_KARG_VALUE && pt.scalar == HG_IR_PTR) {
      cargs[4 + i] = p; /* a struct by value: its bytes, copied into each work-item's frame */
      if (byval_at) {
        byval_at[i] = copy_at;
        copy_at += (k->args[i].size + 15) & ~15u;
      }
    } else {
      LLVMValueRef l = LLVMBuildLoad2(B, hg_rv_type(g, pt), p, "");
      LLVMSetAlignment(l, 8);
      cargs[4 + i] = l;
    }
  }
  LLVMBuildBr(B, init);

  /* init: for i < n: wi[i] = {lid0, lid1, lid2, 0} */
  LLVMPositionBuilderAtEnd(B, init);
  LLVMValueRef i = LLVMBuildPhi(B, g->e.i64, "i");
  LLVMValueRef wrec = LLVMBuildGEP2(B, g->e.i8, wib, (LLVMValueRef[]){LLVMBuildMul(B, i, c64(g, HG_RV_WI_BYTES), "")},
                                    1, "");
  store_word(g, wrec, 0, LLVMBuildURem(B, i, ls[0], ""));
  store_word(g, wrec, 1, LLVMBuildURem(B, LLVMBuildUDiv(B, i, ls[0], ""), ls[1], ""));
  store_word(g, wrec, 2, LLVMBuildUDiv(B, i, ls01, ""));
  store_word(g, wrec, 3, c64(g, 0));
  for (unsigned q = 0; q < np && byval_at; q++)
    if (byval_at[q] != UINT64_MAX) {
      LLVMValueRef fo = LLVMBuildAdd(B, LLVMBuildMul(B, i, fs, ""), c64(g, byval_at[q]), "");
      LLVMBuildMemCpy(B, LLVMBuildGEP2(B, g->e.i8, fb, &fo, 1, ""), 8, cargs[4 + q], 8, c64(g, k->args[q].size));
    }
  LLVMValueRef i1 = LLVMBuildAdd(B, i, c64(g, 1), "");
  LLVMValueRef zero = c64(g, 0);
  LLVMAddIncoming(i, &zero, &entry, 1);
  LLVMAddIncoming(i, &i1, &init, 1);
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, i1, n, ""), init, resumed);

  /* a resumed group: its work-item records (local ids, states), frames and local memory */
  LLVMPositionBuilderAtEnd(B, resumed);
  LLVMBuildCondBr(B, LLVMBuildIsNull(B, resume, ""), round, load);
  LLVMPositionBuilderAtEnd(B, load);
  transfer_group(g, fn, desc, resume, false, wib, fb, n, fs);
  LLVMBuildBr(B, round);

  /* round: one pass over the work-items */
  LLVMPositionBuilderAtEnd(B, round);
  LLVMBuildBr(B, item);
  LLVMPositionBuilderAtEnd(B, item);
  LLVMValueRef j = LLVMBuildPhi(B, g->e.i64, "j");
  LLVMValueRef busy = LLVMBuildPhi(B, g->e.i1, "busy");
  LLVMValueRef jrec = LLVMBuildGEP2(B, g->e.i8, wib, (LLVMValueRef[]){LLVMBuildMul(B, j, c64(g, HG_RV_WI_BYTES), "")},
                                    1, "");
  LLVMValueRef stp = word_ptr(g, jrec, c64(g, 3));
  LLVMValueRef st64 = LLVMBuildLoad2(B, g->e.i64, stp, "state");
  LLVMValueRef st = LLVMBuildTrunc(B, st64, g->e.i32, "");
  /* the common case costs one compare, as before stopping existed: done or held (>= DONE) */
  LLVMValueRef special = LLVMBuildICmp(B, LLVMIntUGE, st64, c64(g, HG_IR_STEP_DONE), "");
  LLVMBuildCondBr(B, special, live, runnable);
  LLVMPositionBuilderAtEnd(B, live);
  LLVMValueRef fin = LLVMBuildICmp(B, LLVMIntEQ, st64, c64(g, HG_IR_STEP_DONE), "");
  LLVMBuildCondBr(B, fin, next, unhold);
  /* held at a barrier (a resumed group, first round): released, not run */
  LLVMPositionBuilderAtEnd(B, unhold);
  LLVMBuildStore(B, LLVMBuildAnd(B, st64, c64(g, 0xFFFFFFFFu), ""), stp);
  LLVMBuildBr(B, next);
  /* every other work-item runs, in a stopping group too (up to its first safe point: the
   * checks poll at once then); skipping the ones at the entry would cost every call a test */
  LLVMPositionBuilderAtEnd(B, runnable);
  LLVMBuildBr(B, call);

  LLVMPositionBuilderAtEnd(B, call);
  cargs[0] = wg;
  cargs[1] = jrec;
  /* the step function's own parameters: kernel params..., frame, resume */
  LLVMValueRef *sargs = malloc((np + 4) * sizeof *sargs);
  if (!sargs) {
    free(lay);
    free(cargs);
    return !hg_rv_fail(g, "out of memory");
  }
  sargs[0] = wg;
  sargs[1] = jrec;
  for (unsigned q = 0; q < np; q++)
    sargs[2 + q] = cargs[4 + q];
  sargs[2 + np] = LLVMBuildGEP2(B, g->e.i8, fb, (LLVMValueRef[]){LLVMBuildMul(B, j, fs, "")}, 1, "");
  for (unsigned q = 0; q < np && byval_at; q++)
    if (byval_at[q] != UINT64_MAX) {
      LLVMValueRef fo = c64(g, byval_at[q]);
      sargs[2 + q] = LLVMBuildGEP2(B, g->e.i8, sargs[2 + np], &fo, 1, "");
    }
  sargs[3 + np] = st;
  LLVMValueRef r = LLVMBuildCall2(B, LLVMGlobalGetValueType(step), step, sargs, np + 4, "");
  LLVMBuildStore(B, LLVMBuildZExt(B, r, g->e.i64, ""), stp);
  LLVMValueRef more = LLVMBuildOr(B, busy, LLVMBuildICmp(B, LLVMIntNE, r, LLVMConstInt(g->e.i32, HG_IR_STEP_DONE, 0), ""),
                                  "");
  LLVMBuildBr(B, next);

  LLVMPositionBuilderAtEnd(B, next);
  LLVMValueRef busy2 = LLVMBuildPhi(B, g->e.i1, "");
  LLVMValueRef t1 = LLVMConstInt(g->e.i1, 1, 0);
  LLVMAddIncoming(busy2, (LLVMValueRef[]){busy, t1, more}, (LLVMBasicBlockRef[]){live, unhold, call}, 3);
  LLVMValueRef j1 = LLVMBuildAdd(B, j, c64(g, 1), "");
  LLVMValueRef f0 = LLVMConstInt(g->e.i1, 0, 0);
  LLVMAddIncoming(j, (LLVMValueRef[]){zero, j1}, (LLVMBasicBlockRef[]){round, next}, 2);
  LLVMAddIncoming(busy, (LLVMValueRef[]){f0, busy2}, (LLVMBasicBlockRef[]){round, next}, 2);
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, j1, n, ""), item, end_round);

  /* after a round: save and stop, or finish, or (a group at a barrier) check, then the next round */
  LLVMPositionBuilderAtEnd(B, end_round);
  LLVMValueRef stop_now = LLVMBuildICmp(B, LLVMIntNE, load_word(g, wg, HG_RV_WG_STOPPING), c64(g, 0), "");
  LLVMBuildCondBr(B, stop_now, stopped, check);
  LLVMPositionBuilderAtEnd(B, check);
  if (has_barrier && kc->plan.can_stop) {
    /* every round boundary of a launch that may stop polls (interval 2^64 - 1: none may) */
    LLVMBasicBlockRef checked = LLVMAppendBasicBlockInContext(g->e.C, fn, "checked");
    LLVMBasicBlockRef poll = LLVMAppendBasicBlockInContext(g->e.C, fn, "round_poll");
    LLVMBuildCondBr(B, busy2, checked, done);
    LLVMPositionBuilderAtEnd(B, checked);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, interval, c64(g, UINT64_MAX), ""), round, poll);
    LLVMPositionBuilderAtEnd(B, poll);
    LLVMBuildCondBr(B, hg_rv_emit_stop_poll(g, wg), stopped, round);
  } else {
    LLVMBuildCondBr(B, busy2, round, done);
  }
  LLVMPositionBuilderAtEnd(B, stopped);
  LLVMBuildCondBr(B, LLVMBuildIsNull(B, save, ""), done, do_save); /* no record: cannot happen, the launch never polls */
  LLVMPositionBuilderAtEnd(B, do_save);
  transfer_group(g, fn, desc, save, true, wib, fb, n, fs);
  LLVMBuildRet(B, c64(g, HG_RV_JOB_STOPPED));
  LLVMPositionBuilderAtEnd(B, done);
  LLVMBuildRet(B, c64(g, HG_RV_JOB_DONE));
  free(lay);
  free(cargs);
  free(sargs);
  free(byval_at);
  return !g->e.failed;
}
