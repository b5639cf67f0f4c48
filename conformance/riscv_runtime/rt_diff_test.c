/* Differential test of the riscv64 runtime object: the ELF built from rt_diff_device.c and the
 * runtime object runs in the RISC-V simulator and (when given) under qemu-riscv64; each prints
 * one "name hash" line per function of rt_sample.h, which must equal the host build's line (same
 * sources, same IEEE operations: the bits must agree, not just the ulps).
 * usage: riscv_runtime_diff <elf> [qemu-riscv64] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/runtime/rt_all.rvc"
#include "devices/riscv/sim/sim.h"
#include "rt_sample.h"

typedef struct buf {
  char *s;
  size_t n, cap;
} buf;
static void emit_host(const char *name, uint64_t hash, void *ctx) {
  buf *b = ctx;
  char line[96];
  int n = snprintf(line, sizeof line, "%s %016llx\n", name, (unsigned long long)hash);
  if (b->n + (size_t)n + 1 > b->cap) {
    b->cap = (b->cap + (size_t)n + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, line, (size_t)n + 1);
  b->n += (size_t)n;
}

static unsigned passed, failed;

/* compares two outputs line by line, one verdict per host line */
static void compare(const char *what, const char *host, const char *dev) {
  const char *h = host, *d = dev ? dev : "";
  unsigned bad = 0, lines = 0;
  while (*h) {
    const char *he = strchr(h, '\n'), *de = strchr(d, '\n');
    size_t hl = he ? (size_t)(he - h) : strlen(h), dl = de ? (size_t)(de - d) : strlen(d);
    lines++;
    if (hl != dl || memcmp(h, d, hl)) {
      bad++;
      printf("%s: host '%.*s' device '%.*s'\n", what, (int)hl, h, (int)dl, d);
    }
    h += hl + (he ? 1 : 0);
    d += dl + (de ? 1 : 0);
  }
  printf("%-6s %u functions compared, %u differ\n", what, lines, bad);
  if (bad || !lines) failed++;
  else passed++;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return p;
}

static char *run_sim(const char *elf_path) {
  size_t len;
  char *elf = read_file(elf_path, &len);
  if (!elf) return NULL;
  hg_sim_config cfg;
  hg_sim_default_config(&cfg);
  cfg.grid_w = 1;
  cfg.grid_h = 1;
  hg_sim_machine *m;
  if (hg_sim_create(&cfg, &m)) return NULL;
  hg_sim_elf_image img;
  char why[256] = "";
  char *out = NULL;
  if (hg_sim_load_elf(m, elf, len, &img, why, sizeof why)) {
    printf("sim: ELF not loaded: %s\n", why);
  } else {
    hg_sim_job job = {.pc = img.entry};
    hg_sim_job_result res;
    hg_sim_launch l = {.jobs = &job, .njobs = 1, .ranges = img.ranges, .nranges = img.nranges, .results = &res};
    int rc = hg_sim_run(m, &l);
    if (rc) printf("sim: fault %s at pc %#llx addr %#llx\n", hg_sim_fault_name(l.fault.kind),
                   (unsigned long long)l.fault.pc, (unsigned long long)l.fault.addr);
    out = l.out;
    /* the simulator NUL-terminates out */
  }
  hg_sim_destroy(m);
  free(elf);
  return out;
}

static char *run_qemu(const char *qemu, const char *elf) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' '%s'", qemu, elf);
  FILE *p = popen(cmd, "r");
  if (!p) return NULL;
  buf b = {0};
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) {
    if (b.n + n + 1 > b.cap) {
      b.cap = (b.n + n + 1) * 2;
      b.s = realloc(b.s, b.cap);
    }
    memcpy(b.s + b.n, chunk, n);
    b.n += n;
    b.s[b.n] = 0;
  }
  int rc = pclose(p);
  if (rc) printf("qemu: exit status %d\n", rc);
  return b.s;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <elf> [qemu-riscv64]\n", argv[0]);
    return 2;
  }
  buf host = {0};
  rt_sample_run(emit_host, &host);
  char *sim = run_sim(argv[1]);
  compare("sim", host.s, sim);
  free(sim);
  if (argc > 2) {
    char *q = run_qemu(argv[2], argv[1]);
    compare("qemu", host.s, q);
    free(q);
  }
  free(host.s);
  printf("%u passed, %u failed\n", passed, failed);
  return failed ? 1 : 0;
}
