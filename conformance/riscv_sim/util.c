#include "util.h"

unsigned hg_t_pass, hg_t_fail;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

int hg_t_finish(void) {
  printf("%u passed, %u failed\n", hg_t_pass, hg_t_fail);
  return hg_t_fail ? 1 : 0;
}

void hg_t_seed(uint64_t s) { rng_state = s ? s : 1; }

uint64_t hg_t_rand(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

size_t hg_t_case(hg_t_prog *p, const uint32_t *words, size_t n) {
  if (p->ncases == p->cap) {
    p->cap = p->cap ? p->cap * 2 : 256;
    p->words = realloc(p->words, p->cap * HG_T_CASE_WORDS * 4);
    if (!p->words) abort();
  }
  uint32_t *w = p->words + p->ncases * HG_T_CASE_WORDS;
  memset(w, 0, HG_T_CASE_WORDS * 4);
  memcpy(w, words, (n > HG_T_CASE_WORDS ? HG_T_CASE_WORDS : n) * 4);
  return p->ncases++;
}

uint64_t hg_t_case_pc(size_t i) { return HG_SIM_CODE_BASE + i * 4 * HG_T_CASE_WORDS; }

int hg_t_load(hg_sim_machine *m, const hg_t_prog *p) {
  return hg_sim_load_code(m, HG_SIM_CODE_BASE, p->words, p->ncases * HG_T_CASE_WORDS * 4);
}

int hg_t_run1(hg_sim_machine *m, uint64_t pc, const uint64_t a[8], const hg_sim_range *r, size_t nr, hg_sim_launch *l,
              hg_sim_job_result *res) {
  static hg_sim_job job;
  memset(&job, 0, sizeof job);
  job.pc = pc;
  memcpy(job.a, a, sizeof job.a);
  memset(l, 0, sizeof *l);
  l->jobs = &job;
  l->njobs = 1;
  l->ranges = r;
  l->nranges = nr;
  l->results = res;
  int rc = hg_sim_run(m, l);
  free(l->out);
  l->out = NULL;
  return rc;
}
