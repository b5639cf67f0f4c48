/* Where the LLVM part of the driver lies, relative to the directory of libhetgpu.so
 * (icd/llvm_part/llvm_part.h): the gate opens it, and the caches' build identity includes it. */
#ifndef HETGPU_COMMON_LLVM_PART_FILE_H
#define HETGPU_COMMON_LLVM_PART_FILE_H

#define HG_LLVM_PART_FILE "hetgpu/hetgpu-llvm.so"

#endif
