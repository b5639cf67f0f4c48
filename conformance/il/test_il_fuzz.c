/* A little fuzzing of the SPIR-V path: valid modules (the ones il_api uses) mutated at random
 * (a bit flipped, a word replaced by a random or a small value, an instruction dropped or
 * repeated, the module cut short) go through clCreateProgramWithIL and clBuildProgram. Neither
 * may crash or hang; creation answers CL_SUCCESS or CL_INVALID_VALUE, a build CL_SUCCESS or
 * CL_BUILD_PROGRAM_FAILURE with a log that says something, and a module that builds gives its
 * kernels. HG_IL_FUZZ_ITERS mutations (default 2000), within HG_IL_FUZZ_SECONDS (default 120). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "il_util.h"

static const char *const k_seeds[] = {"opencl_std", "spec_constants", "spec_constants_14", "kernels", "link_parts"};
#define NUM_SEEDS (sizeof k_seeds / sizeof *k_seeds)

/* Instruction starts of a module (word indices), the header's end first. */
static size_t insn_starts(const uint32_t *w, size_t n, size_t *starts, size_t max) {
  size_t k = 0;
  for (size_t at = 5; at < n && k < max && (w[at] >> 16); at += w[at] >> 16)
    starts[k++] = at;
  return k;
}

/* One mutation of seed (n words) into out; returns its length in bytes. */
static size_t mutate(const uint32_t *seed, size_t n, uint32_t *out) {
  static size_t starts[8192];
  memcpy(out, seed, n * 4);
  size_t ni = insn_starts(seed, n, starts, 8192);
  size_t pick = 5 + hg_test_rand() % (n - 5);
  switch (hg_test_rand() % 7) {
  case 0: /* a bit anywhere, the header included */
    pick = hg_test_rand() % n;
    out[pick] ^= 1u << (hg_test_rand() % 32);
    return n * 4;
  case 1: /* a random word */
    out[pick] = hg_test_rand();
    return n * 4;
  case 2: /* a small value: another id, opcode or enumerant */
    out[pick] = hg_test_rand() % (seed[3] + 8);
    return n * 4;
  case 3: { /* an instruction dropped */
    size_t i = hg_test_rand() % ni, at = starts[i], len = seed[at] >> 16;
    memmove(out + at, seed + at + len, (n - at - len) * 4);
    return (n - len) * 4;
  }
  case 4: { /* an instruction repeated */
    size_t i = hg_test_rand() % ni, at = starts[i], len = seed[at] >> 16;
    memcpy(out + at + len, seed + at, (n - at) * 4);
    return (n + len) * 4;
  }
  case 5: /* cut short, anywhere (also inside a word) */
    return 1 + hg_test_rand() % (n * 4 - 1);
  default: /* an opcode changed, keeping the word count */
    pick = starts[hg_test_rand() % ni];
    out[pick] = (out[pick] & 0xffff0000u) | (hg_test_rand() % 400);
    return n * 4;
  }
}

HG_TEST(mutated_modules) {
  unsigned iters = getenv("HG_IL_FUZZ_ITERS") ? (unsigned)atoi(getenv("HG_IL_FUZZ_ITERS")) : 2000;
  double limit = getenv("HG_IL_FUZZ_SECONDS") ? atof(getenv("HG_IL_FUZZ_SECONDS")) : 120;
  uint32_t *seeds[NUM_SEEDS];
  size_t sizes[NUM_SEEDS], most = 0;
  for (size_t s = 0; s < NUM_SEEDS; s++) {
    seeds[s] = il_module(k_seeds[s], &sizes[s]);
    CHECK_MSG(seeds[s], "module %s missing (HG_IL_DIR)", k_seeds[s]);
    most = sizes[s] > most ? sizes[s] : most;
  }
  uint32_t *buf = malloc(2 * most + 64);
  cl_context ctx = hg_test_context();
  unsigned invalid = 0, failed = 0, built = 0, done = 0;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (; done < iters; done++) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 > limit)
      break;
    size_t s = hg_test_rand() % NUM_SEEDS;
    size_t bytes = mutate(seeds[s], sizes[s] / 4, buf);
    cl_int err = 12345;
    cl_program p = clCreateProgramWithIL(ctx, buf, bytes, &err);
    if (!p) {
      CHECK_MSG(err == CL_INVALID_VALUE, "mutation %u of %s: clCreateProgramWithIL gave %d and no program", done,
                k_seeds[s], err);
      invalid++;
      continue;
    }
    CHECK_MSG(err == CL_SUCCESS, "mutation %u of %s: a program with error %d", done, k_seeds[s], err);
    err = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
    if (err == CL_SUCCESS) {
      cl_uint nk = 0;
      CHECK_CL(clCreateKernelsInProgram(p, 0, NULL, &nk));
      built++;
    } else {
      char *log = il_build_log(p);
      bool said = log && strstr(log, "error");
      if (!said || err != CL_BUILD_PROGRAM_FAILURE)
        printf("    mutation %u of %s: build gave %d, log:\n%s\n", done, k_seeds[s], err, log ? log : "");
      free(log);
      CHECK_MSG(err == CL_BUILD_PROGRAM_FAILURE && said, "mutation %u of %s: build %d without a reason", done,
                k_seeds[s], err);
      failed++;
    }
    clReleaseProgram(p);
  }
  printf("    %u mutated modules: %u not SPIR-V (CL_INVALID_VALUE), %u failed to build with a reason, %u built\n", done,
         invalid, failed, built);
  clReleaseContext(ctx);
  free(buf);
  for (size_t s = 0; s < NUM_SEEDS; s++)
    free(seeds[s]);
}
