/* SPIR-V words: header, instruction stream, declarations, specialization constants
 * (spirv_module.h). Numbers are those of the SPIR-V specification (unified1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/frontend.h" /* hg_log_append */
#include "lowering/spirv_module.h"

enum {
  OP_EXTENSION = 10, OP_EXT_INST_IMPORT = 11, OP_MEMORY_MODEL = 14, OP_ENTRY_POINT = 15, OP_EXECUTION_MODE = 16, OP_CAPABILITY = 17,
  OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_EVENT = 34, OP_TYPE_POINTER = 32,
  OP_SPEC_CONSTANT_TRUE = 48,
  OP_SPEC_CONSTANT_FALSE = 49, OP_SPEC_CONSTANT = 50, OP_DECORATE = 71,
  DECORATION_SPEC_ID = 1, STORAGE_GENERIC = 8, CAP_GENERIC_POINTER = 38, ADDRESSING_PHYSICAL64 = 2, MEMORY_MODEL_OPENCL = 2, EXECUTION_MODEL_KERNEL = 6,
  EXECUTION_MODE_CONTRACTION_OFF = 31,
  HEADER_WORDS = 5,
};

static uint32_t swap32(uint32_t v) {
  return v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
}

static void say(char *why, size_t size, const char *msg) {
  if (why && size) snprintf(why, size, "%s", msg);
}

uint32_t *hg_spirv_words(const void *il, size_t length, size_t *num_words, char *why, size_t why_size) {
  *num_words = 0;
  if (!il || length % 4 || length < HEADER_WORDS * 4) {
    say(why, why_size, "not SPIR-V: its length is not a whole number of words, or shorter than the header");
    return NULL;
  }
  size_t n = length / 4;
  uint32_t *w = malloc(length);
  if (!w) {
    say(why, why_size, "out of host memory");
    return NULL;
  }
  memcpy(w, il, length);
  if (w[0] == swap32(HG_SPIRV_MAGIC))
    for (size_t i = 0; i < n; i++) w[i] = swap32(w[i]);
  char msg[160] = "";
  if (w[0] != HG_SPIRV_MAGIC)
    snprintf(msg, sizeof msg, "not SPIR-V: magic number 0x%08x, not 0x%08x", w[0], HG_SPIRV_MAGIC);
  else if (w[1] & 0xff0000ffu || w[1] < HG_SPIRV_VERSION_MIN || w[1] > HG_SPIRV_VERSION_MAX)
    snprintf(msg, sizeof msg, "SPIR-V version %u.%u (word 0x%08x): this device takes 1.0 to 1.4", w[1] >> 16 & 0xff,
             w[1] >> 8 & 0xff, w[1]);
  else if (w[3] == 0)
    snprintf(msg, sizeof msg, "not SPIR-V: the id bound is 0");
  for (size_t at = HEADER_WORDS; !msg[0] && at < n;) {
    uint32_t count = w[at] >> 16;
    if (count == 0 || count > n - at)
      snprintf(msg, sizeof msg, "malformed SPIR-V: the instruction at word %zu has word count %u (%zu words left)", at,
               count, n - at);
    at += count ? count : 1;
  }
  if (msg[0]) {
    say(why, why_size, msg);
    free(w);
    return NULL;
  }
  *num_words = n;
  return w;
}

/* A literal string operand at w[at..end) as a bounded C string. */
static void literal(const uint32_t *w, size_t at, size_t end, char *out, size_t size) {
  size_t k = 0;
  for (; at < end && k + 1 < size; at++)
    for (int b = 0; b < 4 && k + 1 < size; b++) {
      char c = (char)(w[at] >> (8 * b) & 0xff);
      if (!c) {
        out[k] = 0;
        return;
      }
      out[k++] = c;
    }
  out[k] = 0;
}

/* The capabilities a module may declare on this device. The OpenCL SPIR-V environment's
 * required ones, Float64 (cl_khr_fp64), Int64Atomics (cl_khr_int64_*_atomics), and the float
 * controls that change nothing here: RTE is the only rounding, and nothing drops signed zeros,
 * infinities or NaNs without a fast-math build option. */
static const struct { uint32_t cap; const char *name; } k_allowed[] = {
    {4, "Addresses"},     {5, "Linkage"},       {6, "Kernel"},       {7, "Vector16"},
    {8, "Float16Buffer"}, {10, "Float64"},      {11, "Int64"},       {12, "Int64Atomics"},
    {22, "Int16"},        {39, "Int8"},         {4466, "SignedZeroInfNanPreserve"},
    {4467, "RoundingModeRTE"}, {5629, "ExpectAssumeKHR"},
};

/* Names of capabilities producers declare that this device lacks, for the build log. */
static const struct { uint32_t cap; const char *name, *why; } k_refused[] = {
    {0, "Matrix", "not an OpenCL capability"},
    {1, "Shader", "a graphics module, not an OpenCL kernel module"},
    {9, "Float16", "half arithmetic (cl_khr_fp16) is not supported"},
    {13, "ImageBasic", "the device has no image support"},
    {14, "ImageReadWrite", "the device has no image support"},
    {15, "ImageMipmap", "the device has no image support"},
    {17, "Pipes", "the device has no pipe support"},
    {18, "Groups", "work-group collective functions are not supported"},
    {19, "DeviceEnqueue", "the device has no device-side enqueue"},
    {20, "LiteralSampler", "the device has no image support"},
    {38, "GenericPointer", "the device reports no generic address space (only generic pointers to events, as wait_group_events takes, are accepted)"},
    {58, "SubgroupDispatch", "the device has no sub-groups"},
    {59, "NamedBarrier", "named barriers are not supported"},
    {60, "PipeStorage", "the device has no pipe support"},
    {61, "GroupNonUniform", "the device has no sub-groups"},
    {4464, "DenormPreserve", "single precision denormals are not supported (and none are flushed on request)"},
    {4465, "DenormFlushToZero", "denormals are not flushed on request"},
    {4468, "RoundingModeRTZ", "round-to-zero execution modes are not supported"},
    {6025, "BitInstructions", "SPV_KHR_bit_instructions is not supported"},
};

/* Extensions whose instructions, decorations or linkage the translator turns into LLVM IR that
 * the hetGPU IR holds (their capabilities are checked on their own). */
static const char *const k_extensions[] = {
    "SPV_KHR_no_integer_wrap_decoration", "SPV_KHR_float_controls", "SPV_KHR_expect_assume",
    "SPV_KHR_linkonce_odr", "SPV_KHR_non_semantic_info",
};

/* True when id is an OpTypeEvent of the module. */
static bool is_event_type(const uint32_t *w, size_t n, uint32_t id) {
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16)
    if ((w[at] & 0xffffu) == OP_TYPE_EVENT && w[at] >> 16 >= 2 && w[at + 1] == id) return true;
  return false;
}

/* GenericPointer: the translator declares it for the event list of every wait_group_events
 * (OpGroupWaitEvents takes a generic pointer to events), which the IR turns into a barrier; a
 * generic pointer to anything else needs the generic address space this device lacks. */
static bool generic_pointers_only_to_events(const uint32_t *w, size_t n) {
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16)
    if ((w[at] & 0xffffu) == OP_TYPE_POINTER && w[at] >> 16 >= 4 && w[at + 2] == STORAGE_GENERIC &&
        !is_event_type(w, n, w[at + 3]))
      return false;
  return true;
}

static bool check_capability(uint32_t cap, char **log) {
  for (size_t i = 0; i < sizeof k_allowed / sizeof *k_allowed; i++)
    if (k_allowed[i].cap == cap) return true;
  for (size_t i = 0; i < sizeof k_refused / sizeof *k_refused; i++)
    if (k_refused[i].cap == cap) {
      hg_log_append(log, "error: the module declares capability %s (%u): %s", k_refused[i].name, cap, k_refused[i].why);
      return false;
    }
  hg_log_append(log, "error: the module declares capability %u, which this device does not support", cap);
  return false;
}

static bool check_extension(const char *name, char **log) {
  for (size_t i = 0; i < sizeof k_extensions / sizeof *k_extensions; i++)
    if (!strcmp(name, k_extensions[i])) return true;
  hg_log_append(log, "error: the module uses SPIR-V extension %s, which this device does not support", name);
  return false;
}

static bool check_ext_inst_set(const char *name, char **log) {
  if (!strcmp(name, "OpenCL.std") || !strcmp(name, "OpenCL.DebugInfo.100") || !strcmp(name, "SPIRV.debug") ||
      !strncmp(name, "NonSemantic.", 12))
    return true;
  hg_log_append(log, "error: the module imports extended instruction set \"%s\"; this device takes OpenCL.std", name);
  return false;
}

bool hg_spirv_check_environment(const uint32_t *w, size_t n, char **log) {
  bool ok = true, has_memory_model = false;
  char name[256];
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16) {
    uint32_t op = w[at] & 0xffffu, count = w[at] >> 16;
    size_t end = at + count;
    switch (op) {
    case OP_CAPABILITY:
      if (count >= 2 && !(w[at + 1] == CAP_GENERIC_POINTER && generic_pointers_only_to_events(w, n)))
        ok &= check_capability(w[at + 1], log);
      break;
    case OP_EXTENSION:
      literal(w, at + 1, end, name, sizeof name);
      ok &= check_extension(name, log);
      break;
    case OP_EXT_INST_IMPORT:
      if (count >= 3) {
        literal(w, at + 2, end, name, sizeof name);
        ok &= check_ext_inst_set(name, log);
      }
      break;
    case OP_MEMORY_MODEL:
      has_memory_model = true;
      if (count >= 3 && w[at + 1] != ADDRESSING_PHYSICAL64) {
        hg_log_append(log, "error: addressing model %u: this device has 64-bit addresses (Physical64)", w[at + 1]);
        ok = false;
      }
      if (count >= 3 && w[at + 2] != MEMORY_MODEL_OPENCL) {
        hg_log_append(log, "error: memory model %u: an OpenCL kernel module uses the OpenCL memory model", w[at + 2]);
        ok = false;
      }
      break;
    case OP_ENTRY_POINT:
      if (count >= 4 && w[at + 1] != EXECUTION_MODEL_KERNEL) {
        literal(w, at + 3, end, name, sizeof name);
        hg_log_append(log, "error: entry point \"%s\" has execution model %u; this device runs kernels (6)", name,
                      w[at + 1]);
        ok = false;
      }
      break;
    default:
      break;
    }
  }
  if (!has_memory_model) {
    hg_log_append(log, "error: the module has no OpMemoryModel");
    ok = false;
  }
  return ok;
}

/* The size and kind of a scalar type id, from the module's type declarations. */
static bool scalar_type(const uint32_t *w, size_t n, uint32_t id, uint32_t *size, char *kind) {
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16) {
    uint32_t op = w[at] & 0xffffu, count = w[at] >> 16;
    if (count < 2 || w[at + 1] != id) continue;
    if (op == OP_TYPE_BOOL) {
      *size = 1;
      *kind = 'b';
      return true;
    }
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3 && w[at + 2] % 8 == 0 && w[at + 2] <= 64) {
      *size = w[at + 2] / 8;
      *kind = op == OP_TYPE_INT ? 'i' : 'f';
      return true;
    }
  }
  return false;
}

/* The word index of the OpSpecConstant(True/False) defining id `target`, or 0. */
static size_t spec_constant_def(const uint32_t *w, size_t n, uint32_t target) {
  for (size_t k = HEADER_WORDS; k < n; k += w[k] >> 16) {
    uint32_t kop = w[k] & 0xffffu, kc = w[k] >> 16;
    if ((kop == OP_SPEC_CONSTANT || kop == OP_SPEC_CONSTANT_TRUE || kop == OP_SPEC_CONSTANT_FALSE) && kc >= 3 &&
        w[k + 2] == target)
      return k;
  }
  return 0;
}

hg_spirv_spec_const *hg_spirv_spec_constants(const uint32_t *w, size_t n, unsigned *count_out) {
  *count_out = 0;
  hg_spirv_spec_const *out = NULL;
  unsigned count = 0;
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16) {
    uint32_t op = w[at] & 0xffffu, wc = w[at] >> 16;
    if (op != OP_DECORATE || wc < 4 || w[at + 2] != DECORATION_SPEC_ID) continue;
    /* the constant the decoration names: its result type gives size and kind */
    size_t k = spec_constant_def(w, n, w[at + 1]);
    hg_spirv_spec_const c = {w[at + 3], 0, 0};
    if (!k || !scalar_type(w, n, w[k + 1], &c.size, &c.kind)) continue;
    hg_spirv_spec_const *grown = realloc(out, (count + 1) * sizeof *grown);
    if (!grown) break;
    out = grown;
    out[count++] = c;
  }
  *count_out = count;
  return out;
}

bool hg_spirv_specialize(uint32_t *w, size_t n, uint32_t spec_id, uint64_t bits) {
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16) {
    if ((w[at] & 0xffffu) != OP_DECORATE || w[at] >> 16 < 4 || w[at + 2] != DECORATION_SPEC_ID || w[at + 3] != spec_id)
      continue;
    size_t k = spec_constant_def(w, n, w[at + 1]);
    if (!k) return false;
    uint32_t kop = w[k] & 0xffffu, kc = w[k] >> 16;
    if (kop == OP_SPEC_CONSTANT_TRUE || kop == OP_SPEC_CONSTANT_FALSE) {
      w[k] = kc << 16 | (bits ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE);
      return true;
    }
    uint32_t size;
    char kind;
    if (kc < 4 || kc > 5 || !scalar_type(w, n, w[k + 1], &size, &kind)) return false;
    /* a literal narrower than 32 bits has its high bits 0 (OpenCL's integers have
     * Signedness 0); a 64-bit one takes two words, low-order first */
    if (size < 8) bits &= (1ull << (size * 8)) - 1;
    w[k + 3] = (uint32_t)bits;
    if (kc == 5) w[k + 4] = (uint32_t)(bits >> 32);
    return true;
  }
  return false;
}

bool hg_spirv_has_contraction_off(const uint32_t *w, size_t n) {
  for (size_t at = HEADER_WORDS; at < n; at += w[at] >> 16)
    if ((w[at] & 0xffffu) == OP_EXECUTION_MODE && w[at] >> 16 >= 3 && w[at + 2] == EXECUTION_MODE_CONTRACTION_OFF)
      return true;
  return false;
}

const char *hg_spirv_validator_env(uint32_t version) {
  switch (version) {
  case 0x00010000u: return "opencl2.1";
  case 0x00010100u:
  case 0x00010200u: return "opencl2.2";
  case 0x00010300u: return "spv1.3";
  default: return "spv1.4";
  }
}
