/* The module's side of the LLVM part (llvm_part.h): its table, and the logger its code calls,
 * which writes through the library's (one log, one HETGPU_DEBUG). */
#include <stdarg.h>
#include <stdio.h>

#include "icd/llvm_part/llvm_part.h"

unsigned hg_log_mask;
static void (*library_log_write)(hg_log_category cat, const char *fmt, ...);

void hg_log_init(void) {}

void hg_log_write(hg_log_category cat, const char *fmt, ...) {
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (library_log_write)
    library_log_write(cat, "%s", line);
}

static const hg_llvm_part table = {
    .version = HG_LLVM_PART_VERSION,
    .size = sizeof(hg_llvm_part),
#define HG_LLVM_PART_ENTRY_OF(ret, name, params, args, fail) .name = name,
#define HG_LLVM_PART_VOID_ENTRY_OF(name, params, args) .name = name,
    HG_LLVM_PART_FUNCTIONS(HG_LLVM_PART_ENTRY_OF, HG_LLVM_PART_VOID_ENTRY_OF)
};

__attribute__((visibility("default"))) const hg_llvm_part *
hg_llvm_part_entry(unsigned log_mask, void (*log_write)(hg_log_category cat, const char *fmt, ...)) {
  hg_log_mask = log_mask;
  library_log_write = log_write;
  return &table;
}
