/* Images and samplers in the OpenCL C back end (docs/images.md): their parameter types, the
 * program-scope sampler constants, and the image builtins' calls. The IR's integers are
 * emitted unsigned, so signed coordinates and colors are reinterpreted on the way in and
 * integer results on the way out. */
#include <stdio.h>
#include <string.h>

#include "common/image_format.h"
#include "ir/text.h"
#include "lowering/opencl_c_internal.h"

const char *oc_image_type(hg_ir_type t, char *buf, size_t n) {
  static const char *const access[] = {"", "__read_only", "__write_only", "__read_write"};
  if (t.scalar == HG_IR_SAMPLER) {
    snprintf(buf, n, "sampler_t");
  } else if (t.addrspace >= HG_IMAGE_1D && t.addrspace <= HG_IMAGE_3D && t.reserved >= 1 && t.reserved <= 3) {
    snprintf(buf, n, "%s %s_t", access[t.reserved], hg_ir_image_dim_names[t.addrspace]);
  } else {
    snprintf(buf, n, "image_type_invalid");
  }
  return buf;
}

void oc_sampler_name(oc_buf *b, uint64_t bits) { oc_printf(b, "hg_sampler_%llx", (unsigned long long)bits); }

/* The sampler's bits in the vendor's own CLK_* names: its compiler's values may differ from the
 * HG_SAMPLER_* (clang's) ones. */
static void sampler_initializer(oc_buf *b, uint64_t bits) {
  static const char *const address[] = {"CLK_ADDRESS_NONE", "CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_ADDRESS_CLAMP",
                                        "CLK_ADDRESS_REPEAT", "CLK_ADDRESS_MIRRORED_REPEAT"};
  unsigned mode = (unsigned)(bits & HG_SAMPLER_ADDRESS_MASK) >> 1;
  oc_printf(b, "%s | %s | %s",
            bits & HG_SAMPLER_NORMALIZED_COORDS ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE",
            mode < 5 ? address[mode] : "CLK_ADDRESS_NONE",
            bits & HG_SAMPLER_FILTER_LINEAR ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST");
}

void oc_emit_sampler_constants(oc_ctx *c, oc_buf *out) {
  /* one variable per distinct value, in the order of first use (deterministic output) */
  uint64_t seen[HG_SAMPLER_VALID_BITS + 1];
  unsigned n = 0;
  for (uint32_t fi = 0; fi < c->m->num_functions; fi++) {
    const hg_ir_function *f = &c->m->functions[fi];
    for (uint32_t v = 0; v < f->num_values; v++) {
      const hg_ir_value *val = &f->values[v];
      if (val->kind != HG_VAL_CONST || val->type.scalar != HG_IR_SAMPLER || val->index >= f->num_const_words)
        continue;
      uint64_t bits = f->const_words[val->index];
      bool dup = false;
      for (unsigned k = 0; k < n && !dup; k++) dup = seen[k] == bits;
      if (dup || bits > HG_SAMPLER_VALID_BITS) continue;
      seen[n++] = bits;
      oc_puts(out, "__constant sampler_t ");
      oc_sampler_name(out, bits);
      oc_puts(out, " = ");
      sampler_initializer(out, bits);
      oc_puts(out, ";\n");
    }
  }
  if (n) oc_puts(out, "\n");
}

void oc_emit_image_builtin(oc_ctx *c, const hg_ir_inst *in, const char *name) {
  hg_ir_type rt = in->type;
  char tb[64];
  bool write = !strncmp(name, "write_image", 11);
  oc_puts(c->body, "  ");
  unsigned closers = 0;
  if (in->id != HG_IR_NONE && rt.scalar != HG_IR_VOID) {
    oc_res(c, c->body, in);
    oc_puts(c->body, " = ");
    if (oc_is_int(rt)) { /* int, int2/int4, size_t results into the IR's unsigned types */
      oc_printf(c->body, rt.lanes > 1 ? "as_%s(" : "(%s)(", oc_type(c, rt, tb, sizeof tb));
      closers++;
    }
  }
  oc_printf(c->body, "%s(", name);
  for (uint32_t i = 0; i < in->num_operands; i++) {
    if (i) oc_puts(c->body, ", ");
    uint32_t v = in->operands[i];
    hg_ir_type t = oc_vtype(c, v);
    bool coord = i == in->num_operands - (write ? 2u : 1u) && i > 0;
    /* coordinates are int (or float), write_imagei's color int4: signed in OpenCL C */
    if (t.scalar == HG_IR_I32 && (coord || (write && strcmp(name, "write_imageui") != 0)))
      oc_value_s(c, c->body, v);
    else
      oc_value(c, c->body, v);
  }
  oc_puts(c->body, ")");
  while (closers--) oc_puts(c->body, ")");
  oc_puts(c->body, ";\n");
}
