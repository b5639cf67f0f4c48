/* printf on the RISC-V backend, host side: the kernel wrote records into the launch's printf
 * buffer (devices/printf_buffer.h); the shared formatter formats them, and %s slots, which hold
 * addresses, are resolved here: constant strings in the program's code image, else DRAM. */
#include "devices/printf_buffer.h"
#include "devices/riscv/backend_internal.h"

typedef struct rv_strings {
  const hg_dev_program *p;
  hg_sim_machine *sim;
} rv_strings;

static const char *string_at(void *ctx, uint64_t addr, size_t *max) {
  const rv_strings *s = ctx;
  const hg_rv_image *img = &s->p->image;
  if (addr >= img->code_base && addr < img->code_base + img->code_size) {
    *max = img->code_base + img->code_size - addr;
    return (const char *)img->code + (addr - img->code_base);
  }
  if (addr >= img->data_base && addr < img->data_base + img->data_size) {
    *max = img->data_base + img->data_size - addr;
    return (const char *)img->data + (addr - img->data_base);
  }
  const char *d = hg_sim_dram_ptr(s->sim, addr, 1);
  *max = 4096;
  if (d && !hg_sim_dram_ptr(s->sim, addr, *max))
    *max = 1;
  return d;
}

int hg_rv_printf_collect(const hg_dev_program *p, hg_sim_machine *sim, const uint8_t *buf, uint64_t cap, char **out,
                         size_t *out_len) {
  rv_strings strings = {p, sim};
  hg_printf_source src = {(const char *const *)p->obj.formats, p->obj.num_formats, string_at, &strings};
  return hg_printf_format(buf, cap, &src, out, out_len);
}
