/* IL mode of the corpus runner: a corpus file compiled to SPIR-V by clang and llvm-spirv, as
 * another producer would hand it to an OpenCL driver (docs/kernel-corpus.md). */
#ifndef HETGPU_CORPUS_SPIRV_H
#define HETGPU_CORPUS_SPIRV_H

#include <stdbool.h>
#include <stddef.h>

/* Compiles the OpenCL C file at path (with the corpus file's build options, which clang takes as
 * they are) to SPIR-V in a private temporary directory: clang-15 -target spir64 -O2 -emit-llvm,
 * then llvm-spirv-15, then spirv-val; when the translator or the validator refuses what -O2
 * gave (llvm-spirv-15 cannot translate `freeze`, and writes some optimised loops invalidly), the
 * same at -O0. *il (malloc'd) and *size on success, *level the -O level used; false with the
 * tools' messages in err. */
bool corpus_to_spirv(const char *path, const char *options, void **il, size_t *size, int *level, char *err,
                     size_t err_size);

#endif
