/* riscv64 driver of the differential test: runs rt_sample.h against the runtime object and
 * prints "name hash" lines through write(1). Freestanding; the same ELF runs under
 * qemu-riscv64 (Linux user mode) and in the simulator (write = 64, exit = 93 there too). */
#include <stddef.h>
#include <stdint.h>

#include "devices/riscv/runtime/rt_protos.h"
#include "rt_sample.h"

static long sys_write(int fd, const void *buf, unsigned long len) {
  register long a0 __asm__("a0") = fd;
  register long a1 __asm__("a1") = (long)buf;
  register long a2 __asm__("a2") = (long)len;
  register long a7 __asm__("a7") = 64;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
  return a0;
}
static __attribute__((noreturn)) void sys_exit(int code) {
  register long a0 __asm__("a0") = code;
  register long a7 __asm__("a7") = 93;
  __asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
  for (;;) {
  }
}

static void emit(const char *name, uint64_t hash, void *ctx) {
  (void)ctx;
  char line[64];
  int n = 0;
  while (*name && n < 40) line[n++] = *name++;
  line[n++] = ' ';
  for (int i = 15; i >= 0; i--) line[n++] = "0123456789abcdef"[(hash >> (4 * i)) & 15];
  line[n++] = '\n';
  sys_write(1, line, (unsigned long)n);
}

__attribute__((section(".text.start"))) void _start(void) {
  rt_sample_run(emit, 0);
  sys_exit(0);
}
