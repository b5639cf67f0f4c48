/* libFuzzer harness for hg_ir_parse: any text gives a module or NULL with a "line N:"
 * message, never a crash; a module that parses prints back to text that parses to an equal
 * module. */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  char err[256] = "";
  hg_ir_module *m = hg_ir_parse(text, err, sizeof err);
  if (!m) {
    if (strncmp(err, "line ", 5) != 0)
      abort();
    free(text);
    return 0;
  }
  char *t1 = hg_ir_print(m);
  hg_ir_module *m2 = t1 ? hg_ir_parse(t1, err, sizeof err) : NULL;
  char *t2 = m2 ? hg_ir_print(m2) : NULL;
  if (!m2 || !hg_ir_module_equal(m, m2) || !t2 || strcmp(t1, t2) != 0) {
    fprintf(stderr, "text round trip failed: %s\n", err);
    abort();
  }
  free(t1);
  free(t2);
  free(text);
  hg_ir_module_free(m);
  hg_ir_module_free(m2);
  return 0;
}
