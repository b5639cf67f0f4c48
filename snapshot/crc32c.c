/* CRC-32C fast enough for multi-GiB snapshots. ir/'s hg_ir_crc32c reads a byte at a time
 * (a few hundred MB/s), which would dominate writing and opening a large checkpoint. Here: the
 * SSE4.2 crc32 instruction (8 bytes an instruction) when the CPU has it, else slicing-by-8
 * tables (8 bytes a step). Both give exactly hg_ir_crc32c's results (reflected polynomial
 * 0x82F63B78, initial and final xor 0xFFFFFFFF); the unit test compares them. */
#include "snapshot/format.h"

#include <pthread.h>
#include <string.h>

#define CRC32C_POLY 0x82F63B78u

/* table[k][b]: the CRC of byte b followed by k zero bytes, computed once at first use. */
static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t c = b;
    for (int i = 0; i < 8; i++)
      c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
    table[0][b] = c;
  }
  for (uint32_t b = 0; b < 256; b++)
    for (int k = 1; k < 8; k++)
      table[k][b] = (table[k - 1][b] >> 8) ^ table[0][table[k - 1][b] & 0xFF];
}

static uint64_t load_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

uint32_t hg_snap_crc32c_portable(uint32_t crc, const uint8_t *p, size_t n) {
  pthread_once(&table_once, build_tables);
  uint32_t c = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w = load_le64(p) ^ c;
    c = table[7][w & 0xFF] ^ table[6][(w >> 8) & 0xFF] ^ table[5][(w >> 16) & 0xFF] ^
        table[4][(w >> 24) & 0xFF] ^ table[3][(w >> 32) & 0xFF] ^ table[2][(w >> 40) & 0xFF] ^
        table[1][(w >> 48) & 0xFF] ^ table[0][w >> 56];
  }
  for (; n; n--, p++)
    c = table[0][(c ^ *p) & 0xFF] ^ (c >> 8);
  return ~c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t n) {
  uint64_t c = ~crc;
  for (; n && ((uintptr_t)p & 7); n--, p++)
    c = __builtin_ia32_crc32qi((uint32_t)c, *p);
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w;
    memcpy(&w, p, 8); /* x86 is little-endian: the bytes in file order */
    c = __builtin_ia32_crc32di(c, w);
  }
  for (; n; n--, p++)
    c = __builtin_ia32_crc32qi((uint32_t)c, *p);
  return ~(uint32_t)c;
}

uint32_t hg_snap_crc32c(uint32_t crc, const uint8_t *p, size_t n) {
  if (__builtin_cpu_supports("sse4.2"))
    return crc32c_sse42(crc, p, n);
  return hg_snap_crc32c_portable(crc, p, n);
}
#else
uint32_t hg_snap_crc32c(uint32_t crc, const uint8_t *p, size_t n) { return hg_snap_crc32c_portable(crc, p, n); }
#endif

uint32_t hg_snap_file_crc(const uint8_t *data, size_t size) {
  uint32_t c = hg_snap_crc32c(0, data, HG_SNAP_OFF_CRC);
  return hg_snap_crc32c(c, data + HG_SNAP_OFF_CRC + 4, size - (HG_SNAP_OFF_CRC + 4));
}
