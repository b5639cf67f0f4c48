/* libFuzzer harness for hg_ir_decode: any bytes must give a module or NULL with a message,
 * never a crash, an out-of-bounds access or unbounded allocation. A module that decodes must
 * also survive everything done to trusted modules, and round-trip exactly:
 * decode(encode(m)) == m and parse(print(m)) == m. Seeds: tools/fuzz/corpus/ (written by
 * conformance/ir/ir_unit_test <dir>). */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_checksum.h"

static void check_one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_fuzz_as_given_and_fixed(data, size, check_one);
  return 0;
}

static void check_one(const uint8_t *data, size_t size) {
  char err[256] = "";
  hg_ir_module *m = hg_ir_decode(data, size, err, sizeof err);
  if (!m) {
    if (!err[0])
      abort(); /* a rejection always says why */
    return;
  }
  uint8_t *bytes = NULL;
  size_t n = 0;
  if (hg_ir_encode(m, &bytes, &n) != 0)
    abort();
  hg_ir_module *m2 = hg_ir_decode(bytes, n, err, sizeof err);
  if (!m2 || !hg_ir_module_equal(m, m2)) {
    fprintf(stderr, "binary round trip failed: %s\n", err);
    abort();
  }
  char *text = hg_ir_print(m);
  hg_ir_module *m3 = text ? hg_ir_parse(text, err, sizeof err) : NULL;
  if (!m3 || !hg_ir_module_equal(m, m3)) {
    fprintf(stderr, "text round trip failed: %s\n%s\n", err, text ? text : "(no text)");
    abort();
  }
  hg_ir_compute_state(m2);
  if (!hg_ir_verify(m2, err, sizeof err)) {
    fprintf(stderr, "compute_state broke the module: %s\n", err);
    abort();
  }
  hg_ir_inline_calls(m3, err, sizeof err); /* may refuse (recursion, declarations), must not crash */
  free(text);
  free(bytes);
  hg_ir_module_free(m);
  hg_ir_module_free(m2);
  hg_ir_module_free(m3);
}
