/* Our own reading of a SPIR-V module's words, before any tool sees it: the header and the
 * instruction stream's shape (is this SPIR-V at all), what the module declares (capabilities,
 * extensions, extended instruction sets, addressing, entry points: can this device run it), and
 * its specialization constants. No CL objects: bytes in, facts and messages out. */
#ifndef HETGPU_LOWERING_SPIRV_MODULE_H
#define HETGPU_LOWERING_SPIRV_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_SPIRV_MAGIC 0x07230203u
/* The versions both tools accept (llvm-spirv-15 reads up to 1.4): CL_DEVICE_IL_VERSION. */
#define HG_SPIRV_VERSION_MIN 0x00010000u
#define HG_SPIRV_VERSION_MAX 0x00010400u

/* A specialization constant of the module: its SpecId and the size clSetProgramSpecializationConstant
 * takes for it (a boolean's is 1, a cl_uchar). */
typedef struct hg_spirv_spec_const {
  uint32_t id;
  uint32_t size;
  char kind; /* 'b' boolean, 'i' integer, 'f' floating point */
} hg_spirv_spec_const;

/* The module in host byte order (a module written in the other order is swapped), or NULL
 * when it is not SPIR-V at all: not whole words, shorter than the header, wrong magic number,
 * a version outside HG_SPIRV_VERSION_MIN..MAX, a zero id bound, an instruction of word count 0
 * or running past the end. The reason goes to why (may be NULL). malloc'd, *num_words set. */
uint32_t *hg_spirv_words(const void *il, size_t length, size_t *num_words, char *why, size_t why_size);

/* What the device cannot run, said in *log (hg_log_append): a capability outside the OpenCL
 * environment this device gives (fp64 yes, generic address space, half arithmetic, images,
 * pipes, sub-groups, device enqueue no), an extension or extended instruction set the
 * translator and the IR do not carry, an addressing model other than Physical64, an entry
 * point other than a kernel. True when none. The words come from hg_spirv_words. */
bool hg_spirv_check_environment(const uint32_t *words, size_t num_words, char **log);

/* The module's specialization constants (malloc'd, *count set; NULL with 0 when none). */
hg_spirv_spec_const *hg_spirv_spec_constants(const uint32_t *words, size_t num_words, unsigned *count);
/* Gives the constant decorated SpecId spec_id the value `bits` (its width's low bits; for a
 * boolean, zero or not), in place: the module is then specialized before the translator sees
 * it. false when no scalar specialization constant has that SpecId. */
bool hg_spirv_specialize(uint32_t *words, size_t num_words, uint32_t spec_id, uint64_t bits);

/* True when an entry point declares the ContractionOff execution mode. Without it the OpenCL
 * environment lets a multiply and an add be fused, as OpenCL C's FP_CONTRACT ON does. */
bool hg_spirv_has_contraction_off(const uint32_t *words, size_t num_words);

/* The spirv-val --target-env matching the module's version ("opencl2.1" for 1.0 ...). */
const char *hg_spirv_validator_env(uint32_t version);

#endif
