/* Before LLVM's -O2 in the front end: the ranges of the work-item functions the virtual device
 * bounds, as `!range` metadata on their calls (lowering/llvm_work_item_ranges.c says why). */
#ifndef HETGPU_LOWERING_LLVM_WORK_ITEM_RANGES_H
#define HETGPU_LOWERING_LLVM_WORK_ITEM_RANGES_H

#include <llvm-c/Core.h>

void hg_llvm_mark_work_item_ranges(LLVMModuleRef mod);

#endif
