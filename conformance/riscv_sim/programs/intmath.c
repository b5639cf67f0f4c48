/* Integer arithmetic over a pseudo-random sequence: every result printed in hex. */
#include "rt.h"

static u64 s = 0x123456789abcdefull;
static u64 rnd(void) {
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return s ^ (s >> 29);
}
static u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }

int main(void) {
  u64 acc = 0;
  for (int i = 0; i < 200; i++) {
    u64 a = rnd(), b = rnd();
    int sh = (int)(b & 63);
    i32 a32 = (i32)a, b32 = (i32)(b | 1);
    u64 r[12];
    r[0] = a * b;
    r[1] = (u64)(((unsigned __int128)a * b) >> 64);
    r[2] = (u64)(((__int128)(i64)a * (i64)b) >> 64);
    r[3] = (u64)((i64)a >> sh);
    r[4] = a >> sh;
    r[5] = rotl(a, sh | 1);
    r[6] = (u64)(i64)(a32 * b32);
    r[7] = (u64)(i64)(a32 >> (sh & 31));
    r[8] = (u64)(i64)(i32)((u32)a32 >> (sh & 31));
    r[9] = (u64)((i64)a < (i64)b) + (a < b) * 2;
    r[10] = b | 1 ? a / (b | 1) : 0;
    r[11] = (u64)((i64)a % (i64)(b | 1));
    for (int k = 0; k < 12; k++) acc = rotl(acc, 7) ^ r[k];
    if (i % 20 == 0) {
      for (int k = 0; k < 12; k++) {
        put_hex(r[k]);
        put_char(k == 11 ? '\n' : ' ');
      }
    }
  }
  int pc = 0;
  for (u64 x = acc; x; x &= x - 1) pc++;
  put_str("acc ");
  put_hex(acc);
  put_str(" popcount ");
  put_dec(pc);
  put_char('\n');
  return (int)(acc & 0x7f);
}
