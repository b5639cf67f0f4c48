/* The one logger. HETGPU_DEBUG=cat1,cat2 (or "all") switches categories on; output goes to
 * stderr, or to the file named by HETGPU_DEBUG_FILE. */
#ifndef HETGPU_COMMON_LOG_H
#define HETGPU_COMMON_LOG_H

#include <stdbool.h>

typedef enum hg_log_category {
  HG_LOG_API = 1u << 0,     /* entry points and their errors */
  HG_LOG_COMPILE = 1u << 1, /* front end, IR passes, lowering, vendor builds */
  HG_LOG_MEM = 1u << 2,     /* allocations, transfers, where buffers live */
  HG_LOG_SCHED = 1u << 3,   /* queues, events, command execution */
  HG_LOG_MIGRATE = 1u << 4, /* cl_hetgpu_migrate */
  HG_LOG_BACKEND = 1u << 5, /* backend probing and selection, vendor mini-loader */
  HG_LOG_SIM = 1u << 6,     /* RISC-V simulator counters */
  HG_LOG_CACHE = 1u << 7,   /* program cache */
} hg_log_category;

extern unsigned hg_log_mask; /* set once by hg_log_init */
void hg_log_init(void);
void hg_log_write(hg_log_category cat, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define HG_LOG(cat, ...)               \
  do {                                 \
    if (hg_log_mask & (cat))           \
      hg_log_write((cat), __VA_ARGS__); \
  } while (0)

#endif
