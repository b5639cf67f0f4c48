#include "common/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned hg_log_mask;
static FILE *log_file;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct {
  const char *name;
  unsigned bit;
} categories[] = {
    {"api", HG_LOG_API},         {"compile", HG_LOG_COMPILE}, {"mem", HG_LOG_MEM},
    {"sched", HG_LOG_SCHED},     {"migrate", HG_LOG_MIGRATE}, {"backend", HG_LOG_BACKEND},
    {"sim", HG_LOG_SIM},         {"cache", HG_LOG_CACHE},
};

static const char *category_name(unsigned bit) {
  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
    if (categories[i].bit == bit)
      return categories[i].name;
  return "?";
}

static void log_setup(void) {
  const char *spec = getenv("HETGPU_DEBUG");
  if (!spec || !*spec)
    return;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", spec);
  unsigned mask = 0;
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "all") || !strcmp(tok, "1"))
      mask = ~0u;
    for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
      if (!strcmp(tok, categories[i].name))
        mask |= categories[i].bit;
  }
  const char *path = getenv("HETGPU_DEBUG_FILE");
  log_file = path ? fopen(path, "a") : NULL;
  if (!log_file)
    log_file = stderr;
  hg_log_mask = mask;
}

void hg_log_init(void) { pthread_once(&log_once, log_setup); }

void hg_log_write(hg_log_category cat, const char *fmt, ...) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&log_lock);
  fprintf(log_file, "[hetgpu %ld.%06ld %s] ", (long)ts.tv_sec, ts.tv_nsec / 1000, category_name(cat));
  vfprintf(log_file, fmt, ap);
  fputc('\n', log_file);
  fflush(log_file);
  pthread_mutex_unlock(&log_lock);
  va_end(ap);
}
