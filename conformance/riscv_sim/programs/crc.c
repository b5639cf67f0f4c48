/* CRC-32 (table, reflected 0xEDB88320) and CRC-32C (bitwise) over generated data. */
#include "rt.h"

static u32 table[256];
static u8 data[65536];

int main(void) {
  for (u32 i = 0; i < 256; i++) {
    u32 c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  u32 x = 1;
  for (u32 i = 0; i < sizeof data; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data[i] = (u8)(x >> 11);
  }
  u32 crc = 0xffffffffu;
  for (u32 i = 0; i < sizeof data; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  crc ^= 0xffffffffu;
  u32 c2 = 0xffffffffu;
  for (u32 i = 0; i < 8192; i++) {
    c2 ^= data[i];
    for (int k = 0; k < 8; k++) c2 = (c2 >> 1) ^ (0x82f63b78u & (0u - (c2 & 1)));
  }
  c2 ^= 0xffffffffu;
  u32 check = 0xffffffffu;
  const char *s = "123456789";
  for (int i = 0; s[i]; i++) check = table[(check ^ (u8)s[i]) & 0xff] ^ (check >> 8);
  put_str("crc32(\"123456789\") ");
  put_hex(check ^ 0xffffffffu);
  put_str("\ncrc32 ");
  put_hex(crc);
  put_str("\ncrc32c ");
  put_hex(c2);
  put_char('\n');
  return (int)(crc & 0xff);
}
