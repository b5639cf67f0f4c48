/* Recursive quicksort and insertion sort of pseudo-random data; checks, checksums. */
#include "rt.h"

#define N 3000
static i64 a[N], b[N];

static void qs(i64 *v, i64 lo, i64 hi) {
  while (lo < hi) {
    i64 p = v[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
      while (v[i] < p) i++;
      while (v[j] > p) j--;
      if (i <= j) {
        i64 t = v[i];
        v[i] = v[j];
        v[j] = t;
        i++;
        j--;
      }
    }
    if (j - lo < hi - i) {
      qs(v, lo, j);
      lo = i;
    } else {
      qs(v, i, hi);
      hi = j;
    }
  }
}

int main(void) {
  u64 s = 42;
  for (int i = 0; i < N; i++) {
    s = s * 2862933555777941757ull + 3037000493ull;
    a[i] = (i64)(s >> 16) - (1ll << 46);
    b[i] = a[i];
  }
  qs(a, 0, N - 1);
  for (int i = 1; i < N; i++) {
    i64 x = b[i];
    int j = i - 1;
    while (j >= 0 && b[j] > x) {
      b[j + 1] = b[j];
      j--;
    }
    b[j + 1] = x;
  }
  int ok = 1;
  u64 sum = 0;
  for (int i = 0; i < N; i++) {
    if (i && a[i - 1] > a[i]) ok = 0;
    if (a[i] != b[i]) ok = 0;
    sum = sum * 31 + (u64)a[i];
  }
  put_str(ok ? "sorted " : "NOT SORTED ");
  put_hex(sum);
  put_char('\n');
  for (int i = 0; i < N; i += N / 10) {
    put_dec(a[i]);
    put_char(' ');
  }
  put_char('\n');
  return ok ? 0 : 1;
}
