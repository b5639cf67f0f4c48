/* Shared by the IR binary harnesses: nearly every mutation of an IR binary stops at the
 * header's size or CRC-32C check, so each input is tried as given and once more with those
 * fields made to match, which lets mutations reach the checks behind the checksum. */
#ifndef HETGPU_TOOLS_FUZZ_CHECKSUM_H
#define HETGPU_TOOLS_FUZZ_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* check(data, size), then check(copy with size and checksum fixed) when that differs. */
void hg_fuzz_as_given_and_fixed(const uint8_t *data, size_t size, void (*check)(const uint8_t *, size_t));

#endif
