/* An LLVM function's blocks by index with their control-flow graph (ir/cfg.h), and the
 * barrier calls the passes over lowered modules look for. */
#ifndef HETGPU_LOWERING_LLVM_CFG_H
#define HETGPU_LOWERING_LLVM_CFG_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "ir/cfg.h"

typedef struct hg_llvm_block_index hg_llvm_block_index;

typedef struct hg_llvm_cfg {
  LLVMBasicBlockRef *bbs; /* blocks in function order; g's block b is bbs[b] */
  hg_ir_cfg g;
  hg_llvm_block_index *index; /* sorted by block, for hg_llvm_cfg_block */
} hg_llvm_cfg;

/* False when out of memory. */
bool hg_llvm_cfg_build(LLVMValueRef fn, hg_llvm_cfg *c);
void hg_llvm_cfg_free(hg_llvm_cfg *c);
/* bb's index, HG_IR_NONE when it is not the function's */
uint32_t hg_llvm_cfg_block(const hg_llvm_cfg *c, LLVMBasicBlockRef bb);

/* Whether block `to` is placed no later than block `from` in fn: a branch from `from` back to it
 * closes a loop, the IR keeping the source's block order. */
bool hg_llvm_block_placed_before(LLVMValueRef fn, LLVMBasicBlockRef to, LLVMBasicBlockRef from);
/* Whether bb's terminator branches to a block placed no later than bb: it closes a loop. */
bool hg_llvm_block_branches_back(LLVMValueRef fn, LLVMBasicBlockRef bb);
/* The name of the function a call instruction calls directly; NULL for anything else. */
const char *hg_llvm_callee_name(LLVMValueRef inst);
/* barrier() or work_group_barrier(), as the front end and the SPIR lowering spell them */
bool hg_llvm_is_barrier_name(const char *name);

#endif
