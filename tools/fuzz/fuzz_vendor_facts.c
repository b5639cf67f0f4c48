/* libFuzzer harness for the vendors' facts (devices/vendor/vendor_facts_form.c), the value of a
 * cache entry: any bytes must decode to well-formed facts or be refused, never a crash or an
 * out-of-bounds read; facts that decode must round-trip exactly. */
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_facts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static hg_vendor_facts f, back;
  if (!hg_vendor_facts_decode(data, size, &f))
    return 0;
  for (unsigned i = 0; i < f.num_devices; i++)
    if (f.devices[i].library >= f.num_libs || !f.devices[i].type)
      abort();
  uint8_t *bytes;
  size_t n;
  if (!hg_vendor_facts_encode(&f, &bytes, &n))
    abort();
  if (n != size || memcmp(bytes, data, n) || !hg_vendor_facts_decode(bytes, n, &back))
    abort(); /* one form per value: what decodes encodes to the same bytes */
  free(bytes);
  return 0;
}
