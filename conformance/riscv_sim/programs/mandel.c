/* Mandelbrot set in double precision: ASCII picture and iteration totals. */
#include "rt.h"

int main(void) {
  u64 total = 0;
  double acc = 0;
  for (int y = 0; y < 32; y++) {
    for (int x = 0; x < 72; x++) {
      double cr = -2.2 + x * (3.2 / 72), ci = -1.2 + y * (2.4 / 32), zr = 0, zi = 0;
      int it = 0;
      while (it < 500 && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        it++;
      }
      total += (u64)it;
      acc += zr * 0.001 + zi * 0.0001;
      put_char(" .:-=+*#%@"[it >= 500 ? 9 : it % 9]);
    }
    put_char('\n');
  }
  u64 bits;
  memcpy(&bits, &acc, 8);
  put_str("iterations ");
  put_dec((i64)total);
  put_str(" acc ");
  put_hex(bits);
  put_char('\n');
  return (int)(total % 251);
}
