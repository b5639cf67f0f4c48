/* A persistent pool of host threads for launches: created lazily, grown when a launch asks for
 * more threads, woken per launch with a generation counter. The caller of hg_sim_pool_run works
 * too, so a launch with n host threads wakes n - 1 workers. */
#include <stdlib.h>

#include "devices/riscv/sim/sim_internal.h"

typedef struct pool_worker {
  hg_sim_pool *pool;
  unsigned index;
  uint64_t seen_gen; /* the generation it has already run (or was created after) */
} pool_worker;

static void *worker_main(void *arg) {
  pool_worker *w = arg;
  pthread_setname_np(pthread_self(), "hetgpu-riscv");
  hg_sim_pool *p = w->pool;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (p->gen == w->seen_gen && !p->stop) pthread_cond_wait(&p->go, &p->mu);
    if (p->stop) break;
    w->seen_gen = p->gen;
    if (w->index >= p->active) continue;
    void (*fn)(void *) = p->fn;
    void *fn_arg = p->arg;
    pthread_mutex_unlock(&p->mu);
    fn(fn_arg);
    pthread_mutex_lock(&p->mu);
    if (--p->busy == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

void hg_sim_pool_init(hg_sim_pool *p) {
  memset(p, 0, sizeof *p);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
}

void hg_sim_pool_run(hg_sim_pool *p, unsigned workers, void (*fn)(void *), void *arg) {
  pthread_mutex_lock(&p->mu);
  while (p->n < workers) { /* grow; a thread that cannot be created just is not used */
    pool_worker *w = malloc(sizeof *w);
    pthread_t *tids = realloc(p->tids, (p->n + 1) * sizeof *tids);
    void **ws = realloc(p->workers, (p->n + 1) * sizeof *ws);
    if (tids) p->tids = tids;
    if (ws) p->workers = ws;
    if (!w || !tids || !ws) {
      free(w);
      break;
    }
    *w = (pool_worker){p, p->n, p->gen};
    if (pthread_create(&p->tids[p->n], NULL, worker_main, w)) {
      free(w);
      break;
    }
    p->workers[p->n++] = w;
  }
  if (workers > p->n) workers = p->n;
  p->fn = fn;
  p->arg = arg;
  p->active = workers;
  p->busy = workers;
  p->gen++;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  fn(arg);
  pthread_mutex_lock(&p->mu);
  while (p->busy) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

void hg_sim_pool_destroy(hg_sim_pool *p) {
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  for (unsigned i = 0; i < p->n; i++) {
    pthread_join(p->tids[i], NULL);
    free(p->workers[i]);
  }
  free(p->tids);
  free(p->workers);
  pthread_cond_destroy(&p->go);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
}
