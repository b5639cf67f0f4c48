/* The build log every step of a build appends to (hg_log_append, lowering/frontend.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/frontend.h"

static void log_vappend(char **log, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  size_t old = *log ? strlen(*log) : 0;
  char *nl = realloc(*log, old + (size_t)n + 2);
  if (!nl) return;
  vsnprintf(nl + old, (size_t)n + 1, fmt, ap);
  nl[old + (size_t)n] = '\n';
  nl[old + (size_t)n + 1] = 0;
  *log = nl;
}

void hg_log_append(char **log, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  log_vappend(log, fmt, ap);
  va_end(ap);
}
