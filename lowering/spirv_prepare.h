/* Bitcode from llvm-spirv -> the form the OpenCL C translation takes (spirv_prepare.c). */
#ifndef HETGPU_LOWERING_SPIRV_PREPARE_H
#define HETGPU_LOWERING_SPIRV_PREPARE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Gives the asynchronous copy builtins, wait_group_events and prefetch the bodies the OpenCL C
 * prelude gives them. False with the reason in *log for a form it does not know. */
bool hg_spirv_prepare_module(LLVMModuleRef mod, char **log);

#endif
