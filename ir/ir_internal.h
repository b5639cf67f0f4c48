/* Helpers shared by the ir/ sources; not part of the team-facing contract in ir.h. */
#ifndef HETGPU_IR_INTERNAL_H
#define HETGPU_IR_INTERNAL_H
#include "ir/ir.h"

#include <stdarg.h>
#include <stdio.h>

int hg_ir_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem);
char *hg_ir_strdup(const char *s);
uint32_t hg_ir_push_value(hg_ir_function *f, uint8_t kind, hg_ir_type type, uint32_t index);
void hg_ir_global_free_contents(hg_ir_global *g);
void hg_ir_function_free_contents(hg_ir_function *f);
void hg_ir_function_clear_state(hg_ir_function *f);
bool hg_ir_is_terminator(unsigned op);
/* A type the specification allows (docs/ir-spec.md section 2), void included. */
bool hg_ir_type_valid(hg_ir_type t);
bool hg_ir_clone_function(hg_ir_function *d, const hg_ir_function *s);
bool hg_ir_clone_global(hg_ir_global *d, const hg_ir_global *s);
/* Successor blocks of a terminator (imm entries that name blocks); returns the count. */
uint32_t hg_ir_successors(const hg_ir_inst *t, const uint32_t **succ);
/* CRC-32C (Castagnoli), continuing from crc (start with 0). */
uint32_t hg_ir_crc32c(uint32_t crc, const uint8_t *p, size_t n);
/* The same by table alone (hg_ir_crc32c takes the CPU's instruction where there is one). */
uint32_t hg_ir_crc32c_portable(uint32_t crc, const uint8_t *p, size_t n);

static inline void hg_ir_errf(char *err, size_t n, const char *fmt, ...) {
  if (!err || !n)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
}
#endif
