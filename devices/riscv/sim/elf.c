/* A loader for static RV64 ELF executables: executable PT_LOAD segments become code segments,
 * the others are copied into DRAM at their virtual addresses (the rest of memsz zeroed) and
 * returned as the ranges a launch may touch. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "devices/riscv/sim/sim_internal.h"

#define WHY(...) (snprintf(why, why_size, __VA_ARGS__), HG_SIM_EINVAL)

int hg_sim_load_elf(hg_sim_machine *m, const void *bytes, size_t size, hg_sim_elf_image *out, char *why,
                    size_t why_size) {
  const uint8_t *b = bytes;
  Elf64_Ehdr eh;
  memset(out, 0, sizeof *out);
  if (size < sizeof eh) return WHY("not an ELF file");
  memcpy(&eh, b, sizeof eh);
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return WHY("not a 64-bit little-endian ELF file");
  if (eh.e_machine != EM_RISCV) return WHY("not a RISC-V ELF file (machine %u)", eh.e_machine);
  if (eh.e_type != ET_EXEC) return WHY("not a static executable");
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
      (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > size - eh.e_phoff)
    return WHY("bad program header table");
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    memcpy(&ph, b + eh.e_phoff + (size_t)i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_LOAD || !ph.p_memsz) continue;
    if (ph.p_filesz > ph.p_memsz || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
      return WHY("segment %u lies outside the file", i);
    if (ph.p_flags & PF_X) {
      if (ph.p_filesz != ph.p_memsz) return WHY("executable segment %u has bss", i);
      int rc = hg_sim_load_code(m, ph.p_vaddr, b + ph.p_offset, ph.p_filesz);
      if (rc) return WHY("code segment %u at 0x%llx does not fit the code window", i, (unsigned long long)ph.p_vaddr);
      continue;
    }
    uint8_t *dst = hg_sim_dram_ptr(m, ph.p_vaddr, ph.p_memsz);
    if (!dst) return WHY("data segment %u at 0x%llx is outside DRAM", i, (unsigned long long)ph.p_vaddr);
    if (out->nranges == sizeof out->ranges / sizeof out->ranges[0]) return WHY("too many segments");
    memcpy(dst, b + ph.p_offset, ph.p_filesz);
    memset(dst + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
    out->ranges[out->nranges++] = (hg_sim_range){ph.p_vaddr, ph.p_memsz, (ph.p_flags & PF_W) != 0};
  }
  out->entry = eh.e_entry;
  return HG_SIM_OK;
}
