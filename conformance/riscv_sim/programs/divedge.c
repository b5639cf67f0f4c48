/* Division edge cases with the exact instructions (inline assembly: C would call them UB). */
#include "rt.h"

#define OP(name)                                                                                         \
  static u64 name(u64 a, u64 b) {                                                                        \
    u64 r;                                                                                               \
    __asm__ volatile(#name " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));                                    \
    return r;                                                                                            \
  }
OP(div) OP(divu) OP(rem) OP(remu) OP(divw) OP(divuw) OP(remw) OP(remuw) OP(mulh) OP(mulhsu) OP(mulhu) OP(mulw)

static const u64 v[] = {0, 1, 2, 3, (u64)-1, (u64)-2, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x80000000ull,
                        0x7fffffffull, 0xffffffffull, 0xffffffff80000000ull, 0x100000000ull, 0x123456789ull, 7, (u64)-7};
typedef u64 (*fn)(u64, u64);
static const fn fns[] = {div, divu, rem, remu, divw, divuw, remw, remuw, mulh, mulhsu, mulhu, mulw};

int main(void) {
  u64 acc = 0;
  for (unsigned f = 0; f < sizeof fns / sizeof fns[0]; f++) {
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
      for (unsigned j = 0; j < sizeof v / sizeof v[0]; j++) {
        u64 r = fns[f](v[i], v[j]);
        acc = acc * 0x100000001b3ull ^ r;
        if (j == 0 || (i == 6 && j == 4) || (i == 8 && j == 4)) {
          put_hex(r);
          put_char(' ');
        }
      }
    put_char('\n');
  }
  put_hex(acc);
  put_char('\n');
  return 3;
}
