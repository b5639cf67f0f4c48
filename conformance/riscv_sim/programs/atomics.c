/* A extension on one hart: every AMO, LR/SC through compare-exchange, with printed results. */
#include "rt.h"

static volatile u64 d64[4];
static volatile u32 d32[4];

#define AMO(name, sz, p, v)                                                                              \
  ({                                                                                                     \
    u64 r_;                                                                                              \
    __asm__ volatile(#name "." sz " %0, %2, (%1)" : "=r"(r_) : "r"(p), "r"(v) : "memory");               \
    r_;                                                                                                  \
  })

int main(void) {
  const u64 vals[] = {5, (u64)-5, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffff, 0x80000000ull, 1};
  u64 acc = 0;
  for (unsigned i = 0; i < 7; i++)
    for (unsigned j = 0; j < 7; j++) {
      u64 r[18];
      int k = 0;
#define D(name) d64[0] = vals[i]; r[k++] = AMO(name, "d", &d64[0], vals[j]); r[k++] = d64[0];
#define W(name) d32[0] = (u32)vals[i]; r[k++] = AMO(name, "w", &d32[0], vals[j]); r[k++] = (u64)(i64)(i32)d32[0];
      D(amoadd) D(amomin) D(amomaxu) D(amoswap) D(amoxor)
      W(amoand) W(amoor) W(amomax) W(amominu)
      for (int q = 0; q < k; q++) acc = acc * 0x100000001b3ull ^ r[q];
      if (i == j || j == 0) {
        for (int q = 0; q < k; q++) {
          put_hex(r[q]);
          put_char(q == k - 1 ? '\n' : ' ');
        }
      }
    }
  u64 expect = 7;
  d64[1] = 7;
  int ok = __atomic_compare_exchange_n(&d64[1], &expect, 9, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  int bad = __atomic_compare_exchange_n(&d64[1], &expect, 11, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  u32 e32 = 3;
  d32[1] = 3;
  int ok32 = __atomic_compare_exchange_n(&d32[1], &e32, 0xfffffff0u, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  put_str("cas ");
  put_dec(ok);
  put_dec(bad);
  put_dec(ok32);
  put_char(' ');
  put_hex(d64[1]);
  put_char(' ');
  put_hex(expect);
  put_char(' ');
  put_hex(d32[1]);
  put_str("\nacc ");
  put_hex(acc);
  put_char('\n');
  return 0;
}
