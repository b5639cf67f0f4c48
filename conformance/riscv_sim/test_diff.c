/* Differential runs: the same static RV64 ELF under qemu-riscv64 (Linux user mode) and in the
 * simulator (ecall 64 = write, 93 = exit, as under Linux). Output bytes and exit codes must be
 * equal. Arguments: the qemu binary, then the ELF files. Skipped (77) without qemu or ELFs. */
#include <sys/wait.h>

#include "util.h"

static char *read_all(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  size_t r;
  while ((r = fread(b + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) b = realloc(b, cap *= 2);
  }
  *len = n;
  return b;
}

int main(int argc, char **argv) {
  if (argc < 3 || !argv[1][0] || strstr(argv[1], "NOTFOUND")) {
    printf("skipped: needs qemu-riscv64 and the test programs (clang-15, ld.lld-15)\n");
    return 77;
  }
  hg_sim_machine *m;
  CHECK(hg_sim_create(NULL, &m) == 0, "create");
  for (int i = 2; i < argc; i++) {
    const char *path = argv[i];
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    /* reference: qemu */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s'", argv[1], path);
    FILE *p = popen(cmd, "r");
    size_t qlen = 0;
    char *qout = p ? read_all(p, &qlen) : NULL;
    int st = p ? pclose(p) : -1;
    int qexit = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    CHECK(p && qexit >= 0, "%s: qemu did not run", name);
    /* simulator */
    FILE *f = fopen(path, "rb");
    size_t elen = 0;
    char *elf = f ? read_all(f, &elen) : NULL;
    if (f) fclose(f);
    hg_sim_unload_code(m);
    hg_sim_elf_image img;
    char why[256] = "";
    int rc = elf ? hg_sim_load_elf(m, elf, elen, &img, why, sizeof why) : -1;
    CHECK(rc == 0, "%s: load: %s", name, why);
    if (rc) continue;
    hg_sim_job job = {.pc = img.entry};
    hg_sim_job_result res;
    hg_sim_core_stats st0[80];
    hg_sim_launch l = {.jobs = &job, .njobs = 1, .ranges = img.ranges, .nranges = img.nranges, .results = &res, .stats = st0};
    rc = hg_sim_run(m, &l);
    CHECK(rc == 0, "%s: run rc %d: %s at pc %#" PRIx64 " addr %#" PRIx64 " insn %#x", name, rc,
          hg_sim_fault_name(l.fault.kind), l.fault.pc, l.fault.addr, l.fault.insn);
    int sexit = (int)(res.ret[0] & 0xff);
    CHECK(sexit == qexit, "%s: exit %d, qemu %d", name, sexit, qexit);
    int same = l.out_len == qlen && !memcmp(l.out, qout, qlen);
    CHECK(same, "%s: output differs (%zu bytes vs qemu %zu)", name, l.out_len, qlen);
    if (!same && l.out) {
      /* show the first differing line */
      size_t k = 0;
      while (k < l.out_len && k < qlen && l.out[k] == qout[k]) k++;
      size_t s = k;
      while (s && l.out[s - 1] != '\n') s--;
      printf("  sim : %.*s\n  qemu: %.*s\n", (int)strcspn(l.out + s, "\n"), l.out + s, (int)strcspn(qout + s, "\n"), qout + s);
    }
    printf("%-12s exit %3d, %6zu output bytes, %10" PRIu64 " instructions, %10" PRIu64 " cycles\n", name, sexit, l.out_len,
           st0[0].insns, st0[0].cycles);
    free(l.out);
    free(qout);
    free(elf);
  }
  hg_sim_destroy(m);
  return hg_t_finish();
}
