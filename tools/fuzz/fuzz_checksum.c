/* hg_fuzz_as_given_and_fixed: the IR binary header keeps the file size at byte 16 and the
 * CRC-32C of everything but itself at byte 20 (docs/ir-spec.md, binary format). */
#include "fuzz_checksum.h"

#include <stdlib.h>
#include <string.h>

uint32_t hg_ir_crc32c(uint32_t crc, const uint8_t *p, size_t n); /* ir/opcodes.c */

void hg_fuzz_as_given_and_fixed(const uint8_t *data, size_t size, void (*check)(const uint8_t *, size_t)) {
  check(data, size);
  if (size < 32)
    return;
  uint8_t *c = malloc(size);
  if (!c)
    return;
  memcpy(c, data, size);
  for (int k = 0; k < 4; k++)
    c[16 + k] = (uint8_t)(size >> (8 * k));
  uint32_t crc = hg_ir_crc32c(hg_ir_crc32c(0, c, 20), c + 24, size - 24);
  for (int k = 0; k < 4; k++)
    c[20 + k] = (uint8_t)(crc >> (8 * k));
  if (memcmp(c, data, 24))
    check(c, size);
  free(c);
}
