/* A work-item's local id is below the device's largest work-group (the fixed profile's, whatever
 * backend runs it: common/profile_limits.h), its local size at most that, its dimension count 1
 * to 3. clang's SPIR says none of it; said as `!range` on the calls, LLVM's instcombine and
 * correlated-propagation prove that index arithmetic on them cannot wrap and mark it nsw/nuw,
 * which the IR keeps (docs/ir-spec.md, "Wrap flags"). Without it, `(int)get_local_id(0) * 2`
 * written once in size_t arithmetic (no flag) and once in int (nsw) is merged by GVN into the
 * unflagged form, and a __local index built on it is sign-extended at every use where it could
 * be widened into the work-item loop's induction variable (CLBlast's XgemmDirectNN on PoCL: a
 * sign extension per __local store of its tile loads). */
#include "lowering/llvm_work_item_ranges.h"

#include "common/profile_limits.h"

static void mark_calls(LLVMModuleRef mod, const char *name, uint64_t lo, uint64_t hi) {
  LLVMValueRef fn = LLVMGetNamedFunction(mod, name);
  if (!fn || LLVMCountBasicBlocks(fn) > 0)
    return; /* absent, or a definition of the program's own: not the built-in */
  LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  if (LLVMGetTypeKind(ret) != LLVMIntegerTypeKind)
    return;
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  LLVMMetadataRef bounds[2] = {LLVMValueAsMetadata(LLVMConstInt(ret, lo, 0)),
                               LLVMValueAsMetadata(LLVMConstInt(ret, hi, 0))};
  LLVMValueRef range = LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, bounds, 2));
  unsigned kind = LLVMGetMDKindIDInContext(ctx, "range", 5);
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (LLVMIsACallInst(call) && LLVMGetCalledValue(call) == fn)
      LLVMSetMetadata(call, kind, range);
  }
}

void hg_llvm_mark_work_item_ranges(LLVMModuleRef mod) {
  const uint64_t wg = HG_PROFILE_MAX_WORK_GROUP_SIZE;
  mark_calls(mod, "_Z12get_local_idj", 0, wg);
  mark_calls(mod, "_Z14get_local_sizej", 1, wg + 1);
  mark_calls(mod, "_Z23get_enqueued_local_sizej", 1, wg + 1);
  mark_calls(mod, "_Z12get_work_dimv", 1, 4);
}
