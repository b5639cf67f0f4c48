/* Shared test helpers: a check counter with the closing "N passed, N failed" line, a
 * deterministic random source, a machine with code made of fixed-size cases. */
#ifndef HG_SIM_TEST_UTIL_H
#define HG_SIM_TEST_UTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devices/riscv/sim/sim.h"

extern unsigned hg_t_pass, hg_t_fail;

#define CHECK(cond, ...)                                                                                  \
  do {                                                                                                    \
    if (cond) {                                                                                           \
      hg_t_pass++;                                                                                        \
    } else {                                                                                              \
      hg_t_fail++;                                                                                        \
      if (hg_t_fail <= 60) {                                                                              \
        printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                       \
        printf(__VA_ARGS__);                                                                              \
        printf("\n");                                                                                     \
      }                                                                                                   \
    }                                                                                                     \
  } while (0)

int hg_t_finish(void);
uint64_t hg_t_rand(void);
void hg_t_seed(uint64_t s);

/* Code made of cases of HG_T_CASE_WORDS instructions each; case i starts at
 * HG_SIM_CODE_BASE + i * 4 * HG_T_CASE_WORDS. Unused words are zero (illegal). */
#define HG_T_CASE_WORDS 16
typedef struct hg_t_prog {
  uint32_t *words;
  size_t ncases, cap;
} hg_t_prog;
/* Appends a case; returns its index. */
size_t hg_t_case(hg_t_prog *p, const uint32_t *words, size_t n);
uint64_t hg_t_case_pc(size_t i);
int hg_t_load(hg_sim_machine *m, const hg_t_prog *p);
/* Runs one job at pc with registers a0..a7 = a and the given ranges; *l and *res get the
 * launch and the job's result (the output is freed). Returns hg_sim_run's code. */
int hg_t_run1(hg_sim_machine *m, uint64_t pc, const uint64_t a[8], const hg_sim_range *r, size_t nr, hg_sim_launch *l,
              hg_sim_job_result *res);

#endif
