#include "rt.h"

__attribute__((section(".text.start"), naked)) void _start(void) {
  __asm__ volatile("call main\n\t"
                   "call rt_exit\n\t");
}

long rt_write(int fd, const void *buf, u64 len) {
  register long a0 __asm__("a0") = fd;
  register const void *a1 __asm__("a1") = buf;
  register u64 a2 __asm__("a2") = len;
  register long a7 __asm__("a7") = 64;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
  return a0;
}

static char obuf[4096];
static u64 olen;

void flush(void) {
  if (olen) rt_write(1, obuf, olen);
  olen = 0;
}

void rt_exit(int code) {
  flush();
  register long a0 __asm__("a0") = code;
  register long a7 __asm__("a7") = 93;
  __asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
  for (;;) {
  }
}

void put_char(char c) {
  if (olen == sizeof obuf) flush();
  obuf[olen++] = c;
}
void put_str(const char *s) {
  while (*s) put_char(*s++);
}
void put_hex(u64 v) {
  for (int i = 60; i >= 0; i -= 4) put_char("0123456789abcdef"[(v >> i) & 15]);
}
void put_dec(i64 v) {
  char t[24];
  int n = 0;
  u64 u = v < 0 ? -(u64)v : (u64)v;
  if (v < 0) put_char('-');
  do {
    t[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  while (n) put_char(t[--n]);
}
void *memcpy(void *d, const void *s, u64 n) {
  u8 *dd = d;
  const u8 *ss = s;
  while (n--) *dd++ = *ss++;
  return d;
}
void *memset(void *d, int c, u64 n) {
  u8 *dd = d;
  while (n--) *dd++ = (u8)c;
  return d;
}
