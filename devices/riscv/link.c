/* A small static linker for the ELF relocatable objects LLVM emits for riscv64 (medany, no PIC,
 * no relaxation): the kernel object and the device runtime's object become one code image
 * (text and read-only data, loaded into the simulator's code window, where loads may read it)
 * and one writable data image (placed in DRAM). Every relocation type is checked: the ones this
 * file knows are applied with range checks, anything else fails the link. */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/riscv_internal.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

typedef struct obj {
  const uint8_t *p;
  size_t size;
  const Elf64_Ehdr *eh;
  const Elf64_Shdr *sh;
  uint64_t *sec_addr; /* per section: address, or 0 when not loaded */
  const Elf64_Sym *syms;
  size_t nsyms;
  const char *strtab;
  size_t strtab_size;
} obj;

static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

static bool in_file(const obj *o, uint64_t off, uint64_t len) { return off <= o->size && len <= o->size - off; }

static int parse(obj *o, const void *bytes, size_t size, char *err, size_t n) {
  memset(o, 0, sizeof *o);
  o->p = bytes;
  o->size = size;
  if (size < sizeof(Elf64_Ehdr) || memcmp(bytes, ELFMAG, SELFMAG))
    return fail(err, n, "not an ELF object");
  o->eh = bytes;
  if (o->eh->e_ident[EI_CLASS] != ELFCLASS64 || o->eh->e_ident[EI_DATA] != ELFDATA2LSB || o->eh->e_type != ET_REL ||
      o->eh->e_machine != EM_RISCV)
    return fail(err, n, "not a little-endian RV64 relocatable object");
  if (o->eh->e_shentsize != sizeof(Elf64_Shdr) || !in_file(o, o->eh->e_shoff, (uint64_t)o->eh->e_shnum * sizeof(Elf64_Shdr)))
    return fail(err, n, "bad section table");
  o->sh = (const Elf64_Shdr *)(o->p + o->eh->e_shoff);
  for (unsigned i = 0; i < o->eh->e_shnum; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL && !in_file(o, s->sh_offset, s->sh_size))
      return fail(err, n, "section %u outside the file", i);
    if (s->sh_type == SHT_SYMTAB) {
      if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_link >= o->eh->e_shnum)
        return fail(err, n, "bad symbol table");
      o->syms = (const Elf64_Sym *)(o->p + s->sh_offset);
      o->nsyms = s->sh_size / sizeof(Elf64_Sym);
      const Elf64_Shdr *st = &o->sh[s->sh_link];
      if (!in_file(o, st->sh_offset, st->sh_size))
        return fail(err, n, "bad string table");
      o->strtab = (const char *)(o->p + st->sh_offset);
      o->strtab_size = st->sh_size;
    }
  }
  o->sec_addr = calloc(o->eh->e_shnum ? o->eh->e_shnum : 1, sizeof *o->sec_addr);
  return o->sec_addr ? 0 : fail(err, n, "out of memory");
}

static const char *sym_name(const obj *o, const Elf64_Sym *s) {
  if (s->st_name >= o->strtab_size)
    return "?";
  return o->strtab + s->st_name;
}

static const char *sec_name(const obj *o, unsigned i) {
  const Elf64_Shdr *shs = &o->sh[o->eh->e_shstrndx < o->eh->e_shnum ? o->eh->e_shstrndx : 0];
  if (o->sh[i].sh_name >= shs->sh_size)
    return "";
  return (const char *)(o->p + shs->sh_offset + o->sh[i].sh_name);
}

/* Sections we load: allocated, not unwind tables (nothing unwinds on the simulator). */
static bool loaded(const obj *o, unsigned i) {
  const Elf64_Shdr *s = &o->sh[i];
  return (s->sh_flags & SHF_ALLOC) && s->sh_size && strncmp(sec_name(o, i), ".eh_frame", 9);
}

static bool writable(const Elf64_Shdr *s) { return (s->sh_flags & SHF_WRITE) || s->sh_type == SHT_NOBITS; }

static uint64_t align_up(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

/* ---- symbol resolution ---------------------------------------------------------------------- */

static bool sym_addr(const obj *objs, size_t nobjs, const obj *o, uint32_t si, uint64_t *out, char *err, size_t n) {
  if (si >= o->nsyms) {
    fail(err, n, "bad symbol index %u", si);
    return false;
  }
  const Elf64_Sym *s = &o->syms[si];
  if (s->st_shndx == SHN_ABS) {
    *out = s->st_value;
    return true;
  }
  if (s->st_shndx != SHN_UNDEF && s->st_shndx < o->eh->e_shnum) {
    /* a global defined here may still lose to an earlier object's definition */
    if (ELF64_ST_BIND(s->st_info) == STB_LOCAL || !o->sec_addr[s->st_shndx] ||
        ELF64_ST_TYPE(s->st_info) == STT_SECTION) {
      if (!o->sec_addr[s->st_shndx] && ELF64_ST_TYPE(s->st_info) != STT_SECTION && !loaded(o, s->st_shndx)) {
        fail(err, n, "symbol %s lies in a section that is not loaded", sym_name(o, s));
        return false;
      }
      *out = o->sec_addr[s->st_shndx] + s->st_value;
      return true;
    }
  }
  const char *name = sym_name(o, s);
  for (int pass = 0; pass < 2; pass++) /* strong definitions first, then weak ones */
    for (size_t k = 0; k < nobjs; k++) {
      const obj *q = &objs[k];
      for (size_t j = 1; j < q->nsyms; j++) {
        const Elf64_Sym *d = &q->syms[j];
        unsigned bind = ELF64_ST_BIND(d->st_info);
        if (d->st_shndx == SHN_UNDEF || bind == STB_LOCAL || (pass == 0 && bind == STB_WEAK) ||
            strcmp(sym_name(q, d), name))
          continue;
        if (d->st_shndx == SHN_ABS) {
          *out = d->st_value;
          return true;
        }
        if (d->st_shndx >= q->eh->e_shnum || !q->sec_addr[d->st_shndx])
          continue;
        *out = q->sec_addr[d->st_shndx] + d->st_value;
        return true;
      }
    }
  if (ELF64_ST_BIND(s->st_info) == STB_WEAK) {
    *out = 0;
    return true;
  }
  fail(err, n, "undefined symbol %s (not in the kernel nor in the device runtime)", name);
  return false;
}

/* ---- relocations ------------------------------------------------------------------------------ */

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static void wrn(uint8_t *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t rdn(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static bool fits_signed(int64_t v, unsigned bits) {
  int64_t lim = (int64_t)1 << (bits - 1);
  return v >= -lim && v < lim;
}

static void set_hi20(uint8_t *p, int64_t v) {
  uint32_t hi = (uint32_t)(((uint64_t)v + 0x800) >> 12) & 0xFFFFF;
  wr32(p, (rd32(p) & 0xFFF) | hi << 12);
}
static void set_lo12_i(uint8_t *p, int64_t v) { wr32(p, (rd32(p) & 0xFFFFF) | ((uint32_t)v & 0xFFF) << 20); }
static void set_lo12_s(uint8_t *p, int64_t v) {
  uint32_t imm = (uint32_t)v & 0xFFF;
  wr32(p, (rd32(p) & 0x1FFF07F) | (imm & 0x1F) << 7 | (imm >> 5) << 25);
}

/* The value of the PCREL_HI20 relocation at offset `at` of the same section (S + A - P). */
static bool find_hi20(const obj *objs, size_t nobjs, const obj *o, const Elf64_Rela *rel, size_t nrel, uint64_t at,
                      uint64_t sec_addr, int64_t *out, char *err, size_t n) {
  for (size_t i = 0; i < nrel; i++) {
    unsigned t = ELF64_R_TYPE(rel[i].r_info);
    if (rel[i].r_offset != at || (t != R_RISCV_PCREL_HI20 && t != R_RISCV_GOT_HI20))
      continue;
    if (t == R_RISCV_GOT_HI20) {
      fail(err, n, "GOT relocations are not supported (build without PIC)");
      return false;
    }
    uint64_t s;
    if (!sym_addr(objs, nobjs, o, (uint32_t)ELF64_R_SYM(rel[i].r_info), &s, err, n))
      return false;
    *out = (int64_t)(s + (uint64_t)rel[i].r_addend - (sec_addr + at));
    return true;
  }
  fail(err, n, "PCREL_LO12 without its PCREL_HI20");
  return false;
}

static int apply_relocs(const obj *objs, size_t nobjs, const obj *o, unsigned rs, uint8_t *image, uint64_t image_base,
                        char *err, size_t n) {
  const Elf64_Shdr *r = &o->sh[rs];
  unsigned target = r->sh_info;
  if (target >= o->eh->e_shnum || !loaded(o, target))
    return 0; /* relocations of debug information and the like */
  if (r->sh_entsize != sizeof(Elf64_Rela))
    return fail(err, n, "bad relocation section");
  const Elf64_Shdr *ts = &o->sh[target];
  if (ts->sh_type == SHT_NOBITS)
    return fail(err, n, "relocations against a bss section");
  const Elf64_Rela *rel = (const Elf64_Rela *)(o->p + r->sh_offset);
  size_t nrel = r->sh_size / sizeof *rel;
  uint64_t base = o->sec_addr[target];
  uint8_t *sec = image + (base - image_base);
  for (size_t i = 0; i < nrel; i++) {
    unsigned type = ELF64_R_TYPE(rel[i].r_info);
    uint64_t off = rel[i].r_offset;
    if (type == R_RISCV_RELAX || type == R_RISCV_NONE || type == R_RISCV_ALIGN)
      continue; /* no relaxation: the NOPs of an ALIGN are already valid code */
    if (off > ts->sh_size || ts->sh_size - off < 4)
      if (!(type == R_RISCV_64 && ts->sh_size - off >= 8) && !(off < ts->sh_size && type >= R_RISCV_ADD8))
        return fail(err, n, "relocation outside its section");
    uint8_t *p = sec + off;
    uint64_t P = base + off, S;
    if (!sym_addr(objs, nobjs, o, (uint32_t)ELF64_R_SYM(rel[i].r_info), &S, err, n))
      return -1;
    int64_t A = rel[i].r_addend;
    int64_t pcrel = (int64_t)(S + (uint64_t)A - P);
    switch (type) {
    case R_RISCV_64: wrn(p, S + (uint64_t)A, 8); break;
    case R_RISCV_32:
      if ((S + (uint64_t)A) >> 32)
        return fail(err, n, "R_RISCV_32 value out of range");
      wrn(p, S + (uint64_t)A, 4);
      break;
    case R_RISCV_32_PCREL:
      if (!fits_signed(pcrel, 32)) return fail(err, n, "R_RISCV_32_PCREL out of range");
      wrn(p, (uint64_t)pcrel, 4);
      break;
    case R_RISCV_BRANCH: {
      if (!fits_signed(pcrel, 13) || (pcrel & 1)) return fail(err, n, "branch target out of range");
      uint32_t v = (uint32_t)pcrel;
      uint32_t enc = ((v >> 12) & 1) << 31 | ((v >> 5) & 0x3F) << 25 | ((v >> 1) & 0xF) << 8 | ((v >> 11) & 1) << 7;
      wr32(p, (rd32(p) & 0x1FFF07F) | enc);
      break;
    }
    case R_RISCV_JAL: {
      if (!fits_signed(pcrel, 21) || (pcrel & 1)) return fail(err, n, "jump target out of range");
      uint32_t v = (uint32_t)pcrel;
      uint32_t enc = ((v >> 20) & 1) << 31 | ((v >> 1) & 0x3FF) << 21 | ((v >> 11) & 1) << 20 | ((v >> 12) & 0xFF) << 12;
      wr32(p, (rd32(p) & 0xFFF) | enc);
      break;
    }
    case R_RISCV_CALL:
    case R_RISCV_CALL_PLT:
      if (!fits_signed(pcrel + 0x800, 32) || ts->sh_size - off < 8) return fail(err, n, "call target out of range");
      set_hi20(p, pcrel);
      set_lo12_i(p + 4, pcrel);
      break;
    case R_RISCV_PCREL_HI20:
      if (!fits_signed(pcrel + 0x800, 32)) return fail(err, n, "pc-relative value out of range");
      set_hi20(p, pcrel);
      break;
    case R_RISCV_PCREL_LO12_I:
    case R_RISCV_PCREL_LO12_S: {
      /* S is the label of the auipc: the value is that of its HI20 relocation */
      int64_t v;
      if (S < base || S - base >= ts->sh_size)
        return fail(err, n, "PCREL_LO12 label outside its section");
      if (!find_hi20(objs, nobjs, o, rel, nrel, S - base, base, &v, err, n))
        return -1;
      if (type == R_RISCV_PCREL_LO12_I) set_lo12_i(p, v);
      else set_lo12_s(p, v);
      break;
    }
    case R_RISCV_HI20:
      if (!fits_signed((int64_t)(S + (uint64_t)A) + 0x800, 32)) return fail(err, n, "absolute address out of range");
      set_hi20(p, (int64_t)(S + (uint64_t)A));
      break;
    case R_RISCV_LO12_I: set_lo12_i(p, (int64_t)(S + (uint64_t)A)); break;
    case R_RISCV_LO12_S: set_lo12_s(p, (int64_t)(S + (uint64_t)A)); break;
    case R_RISCV_ADD8: wrn(p, rdn(p, 1) + S + (uint64_t)A, 1); break;
    case R_RISCV_ADD16: wrn(p, rdn(p, 2) + S + (uint64_t)A, 2); break;
    case R_RISCV_ADD32: wrn(p, rdn(p, 4) + S + (uint64_t)A, 4); break;
    case R_RISCV_ADD64: wrn(p, rdn(p, 8) + S + (uint64_t)A, 8); break;
    case R_RISCV_SUB8: wrn(p, rdn(p, 1) - S - (uint64_t)A, 1); break;
    case R_RISCV_SUB16: wrn(p, rdn(p, 2) - S - (uint64_t)A, 2); break;
    case R_RISCV_SUB32: wrn(p, rdn(p, 4) - S - (uint64_t)A, 4); break;
    case R_RISCV_SUB64: wrn(p, rdn(p, 8) - S - (uint64_t)A, 8); break;
    case R_RISCV_SUB6: p[0] = (uint8_t)((p[0] & 0xC0) | ((p[0] - (S + (uint64_t)A)) & 0x3F)); break;
    case R_RISCV_SET6: p[0] = (uint8_t)((p[0] & 0xC0) | ((S + (uint64_t)A) & 0x3F)); break;
    case R_RISCV_SET8: wrn(p, S + (uint64_t)A, 1); break;
    case R_RISCV_SET16: wrn(p, S + (uint64_t)A, 2); break;
    case R_RISCV_SET32: wrn(p, S + (uint64_t)A, 4); break;
    default:
      return fail(err, n, "relocation type %u in %s is not supported (compressed code, TLS, GOT or PIC?)", type,
                  sec_name(o, target));
    }
  }
  return 0;
}

void hg_rv_image_free(hg_rv_image *img) {
  free(img->code);
  free(img->data);
  for (size_t i = 0; i < img->num_symbols; i++)
    free(img->symbols[i].name);
  free(img->symbols);
  memset(img, 0, sizeof *img);
}

uint64_t hg_rv_image_symbol(const hg_rv_image *img, const char *name) {
  for (size_t i = 0; i < img->num_symbols; i++)
    if (!strcmp(img->symbols[i].name, name))
      return img->symbols[i].addr;
  return 0;
}

int hg_rv_link(const void *const *bytes, const size_t *sizes, size_t n, uint64_t code_base, hg_rv_alloc_fn alloc_data,
               void *alloc_ctx, hg_rv_image *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  obj *objs = calloc(n ? n : 1, sizeof *objs);
  if (!objs)
    return fail(err, err_size, "out of memory");
  int rc = -1;
  for (size_t k = 0; k < n; k++)
    if (parse(&objs[k], bytes[k], sizes[k], err, err_size))
      goto done;
  /* layout: offsets first (code from 0, data from 0), addresses once the bases are known */
  uint64_t code_size = 0, data_size = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0; k < n; k++)
      for (unsigned i = 0; i < objs[k].eh->e_shnum; i++) {
        if (!loaded(&objs[k], i))
          continue;
        const Elf64_Shdr *s = &objs[k].sh[i];
        bool w = writable(s);
        if ((pass == 0) == w)
          continue; /* code pass, then data pass */
        uint64_t *at = w ? &data_size : &code_size;
        uint64_t al = s->sh_addralign > 4 ? s->sh_addralign : 4;
        *at = align_up(*at, al);
        objs[k].sec_addr[i] = *at + 1; /* +1: "placed", made absolute below */
        *at += s->sh_size;
      }
  uint64_t data_base = 0;
  if (data_size && (!alloc_data || alloc_data(alloc_ctx, data_size, &data_base))) {
    fail(err, err_size, "no device memory for %llu bytes of program data", (unsigned long long)data_size);
    goto done;
  }
  out->code_base = code_base;
  out->code_size = align_up(code_size ? code_size : 4, 4);
  out->data_base = data_base;
  out->data_size = data_size;
  out->code = calloc(1, out->code_size);
  out->data = data_size ? calloc(1, data_size) : NULL;
  if (!out->code || (data_size && !out->data)) {
    fail(err, err_size, "out of memory");
    goto done;
  }
  for (size_t k = 0; k < n; k++)
    for (unsigned i = 0; i < objs[k].eh->e_shnum; i++) {
      if (!objs[k].sec_addr[i])
        continue;
      const Elf64_Shdr *s = &objs[k].sh[i];
      bool w = writable(s);
      uint64_t off = objs[k].sec_addr[i] - 1;
      objs[k].sec_addr[i] = (w ? data_base : code_base) + off;
      if (s->sh_type != SHT_NOBITS)
        memcpy((w ? out->data : out->code) + off, objs[k].p + s->sh_offset, s->sh_size);
    }
  for (size_t k = 0; k < n; k++)
    for (unsigned i = 0; i < objs[k].eh->e_shnum; i++) {
      const Elf64_Shdr *s = &objs[k].sh[i];
      if (s->sh_type == SHT_REL)
        goto bad_rel;
      if (s->sh_type != SHT_RELA)
        continue;
      unsigned t = s->sh_info;
      if (t >= objs[k].eh->e_shnum || !objs[k].sec_addr[t])
        continue;
      bool w = writable(&objs[k].sh[t]);
      if (apply_relocs(objs, n, &objs[k], i, w ? out->data : out->code, w ? data_base : code_base, err, err_size))
        goto done;
    }
  /* the defined global symbols, first definition of a name only */
  for (size_t k = 0; k < n; k++)
    for (size_t j = 1; j < objs[k].nsyms; j++) {
      const Elf64_Sym *s = &objs[k].syms[j];
      if (ELF64_ST_BIND(s->st_info) == STB_LOCAL || s->st_shndx == SHN_UNDEF || s->st_shndx >= objs[k].eh->e_shnum ||
          !objs[k].sec_addr[s->st_shndx] || hg_rv_image_symbol(out, sym_name(&objs[k], s)))
        continue;
      struct hg_rv_symbol *ns = realloc(out->symbols, (out->num_symbols + 1) * sizeof *ns);
      if (!ns)
        goto done;
      out->symbols = ns;
      ns[out->num_symbols].name = strdup(sym_name(&objs[k], s));
      ns[out->num_symbols].addr = objs[k].sec_addr[s->st_shndx] + s->st_value;
      if (ns[out->num_symbols].name)
        out->num_symbols++;
    }
  rc = 0;
  goto done;
bad_rel:
  fail(err, err_size, "REL relocations are not supported (RISC-V objects use RELA)");
done:
  for (size_t k = 0; k < n; k++)
    free(objs[k].sec_addr);
  free(objs);
  if (rc)
    hg_rv_image_free(out);
  return rc;
}
