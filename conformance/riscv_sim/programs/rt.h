/* A tiny freestanding runtime for the differential test programs: the same binary runs under
 * qemu-riscv64 (Linux user mode) and in the simulator (write = 64, exit = 93 there too). */
#ifndef HG_SIM_PROG_RT_H
#define HG_SIM_PROG_RT_H

typedef unsigned long u64;
typedef long i64;
typedef unsigned int u32;
typedef int i32;
typedef unsigned char u8;

long rt_write(int fd, const void *buf, u64 len);
void rt_exit(int code) __attribute__((noreturn));
void put_str(const char *s);
void put_hex(u64 v);          /* 16 hex digits */
void put_dec(i64 v);
void put_char(char c);
void flush(void);
void *memcpy(void *d, const void *s, u64 n);
void *memset(void *d, int c, u64 n);
int main(void);

#endif
