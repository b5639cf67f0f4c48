/* After LLVM's loop passes, before code generation: a loop's exit test on a counter that halves
 * (or shifts right by any constant) each turn is asked of the value the loop goes on with, not
 * of the one it came in with (lowering/llvm_latch_tests.c says why). */
#ifndef HETGPU_LOWERING_LLVM_LATCH_TESTS_H
#define HETGPU_LOWERING_LLVM_LATCH_TESTS_H

#include <llvm-c/Core.h>

void hg_llvm_latch_tests_on_next(LLVMModuleRef mod);

#endif
