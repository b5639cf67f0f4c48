/* Images and samplers in the IR (docs/ir-spec.md, "Images and samplers"): which sampler
 * constants are valid, and the operand rules of the image builtins, which depend on the image
 * operand's dimension and access and so do not fit the signature rows of ir/builtin_table.c. */
#include "common/image_format.h"
#include "ir/builtins.h"
#include "ir/text.h"

#include <stdio.h>
#include <string.h>

bool hg_ir_sampler_valid(uint64_t bits) {
  unsigned filter = (unsigned)bits & (HG_SAMPLER_FILTER_NEAREST | HG_SAMPLER_FILTER_LINEAR);
  return !(bits & ~(uint64_t)HG_SAMPLER_VALID_BITS) &&
         (bits & HG_SAMPLER_ADDRESS_MASK) <= HG_SAMPLER_ADDRESS_MIRRORED_REPEAT &&
         (filter == HG_SAMPLER_FILTER_NEAREST || filter == HG_SAMPLER_FILTER_LINEAR);
}

unsigned hg_ir_image_coord_lanes(hg_ir_image_dim dim) {
  switch (dim) {
  case HG_IMAGE_1D: case HG_IMAGE_1D_BUFFER: return 1;
  case HG_IMAGE_1D_ARRAY: case HG_IMAGE_2D: return 2;
  case HG_IMAGE_2D_ARRAY: case HG_IMAGE_3D: return 4;
  default: return 0;
  }
}

typedef enum image_op { READ, WRITE, QUERY } image_op;

static bool is_ty(hg_ir_type t, hg_ir_scalar s, unsigned lanes) {
  return t.scalar == s && t.lanes == lanes && t.addrspace == 0 && t.reserved == 0;
}

/* The element of the color a read_image / write_image name moves: f32, or i32 (i and ui). */
static hg_ir_scalar color_scalar(const char *name) {
  size_t n = strlen(name);
  return name[n - 1] == 'f' ? HG_IR_F32 : HG_IR_I32;
}

#define FAIL(...)                                                                                            \
  do {                                                                                                       \
    snprintf(err, err_size, __VA_ARGS__);                                                                    \
    return false;                                                                                            \
  } while (0)

/* A query's result type for an image of dimension d; VOID when the query does not apply. */
static hg_ir_type query_result(const char *name, hg_ir_image_dim d) {
  bool arrayed = d == HG_IMAGE_1D_ARRAY || d == HG_IMAGE_2D_ARRAY;
  bool two_or_three = d == HG_IMAGE_2D || d == HG_IMAGE_2D_ARRAY || d == HG_IMAGE_3D;
  if (!strcmp(name, "get_image_width") || !strcmp(name, "get_image_channel_data_type") ||
      !strcmp(name, "get_image_channel_order"))
    return hg_ir_ty(HG_IR_I32, 1);
  if (!strcmp(name, "get_image_height"))
    return two_or_three ? hg_ir_ty(HG_IR_I32, 1) : hg_ir_void_ty();
  if (!strcmp(name, "get_image_depth"))
    return d == HG_IMAGE_3D ? hg_ir_ty(HG_IR_I32, 1) : hg_ir_void_ty();
  if (!strcmp(name, "get_image_array_size"))
    return arrayed ? hg_ir_ty(HG_IR_I64, 1) : hg_ir_void_ty();
  if (!strcmp(name, "get_image_dim"))
    return two_or_three ? hg_ir_ty(HG_IR_I32, d == HG_IMAGE_3D ? 4 : 2) : hg_ir_void_ty();
  return hg_ir_void_ty();
}

bool hg_ir_image_builtin_check(const hg_ir_module *m, const hg_ir_function *f, const hg_ir_inst *in, const char *name,
                               char *err, size_t err_size) {
  (void)m;
  image_op op = !strncmp(name, "read_image", 10) ? READ : !strncmp(name, "write_image", 11) ? WRITE : QUERY;
  uint32_t n = in->num_operands;
  hg_ir_type t[3] = {{0}};
  for (uint32_t k = 0; k < n && k < 3; k++)
    t[k] = f->values[in->operands[k]].type;
  if (n < 1 || t[0].scalar != HG_IR_IMAGE || !hg_ir_type_valid(t[0]))
    FAIL("builtin \"%s\": operand 0 must be an image", name);
  hg_ir_image_dim dim = (hg_ir_image_dim)t[0].addrspace;
  hg_ir_image_access acc = (hg_ir_image_access)t[0].reserved;
  char tn[32];
  hg_ir_type_text(t[0], tn, sizeof tn);
  if (acc == HG_IMAGE_READ_WRITE)
    FAIL("builtin \"%s\": read_write images (%s) are not offered by this device", name, tn);
  unsigned lanes = hg_ir_image_coord_lanes(dim);
  if (op == READ) {
    bool sampled = n == 3;
    if (n != 2 && n != 3)
      FAIL("builtin \"%s\": takes (image, sampler, coord) or (image, coord), has %u operands", name, n);
    if (acc != HG_IMAGE_READ_ONLY)
      FAIL("builtin \"%s\": reads from a write-only image (%s)", name, tn);
    if (sampled && t[1].scalar != HG_IR_SAMPLER)
      FAIL("builtin \"%s\": operand 1 must be a sampler", name);
    if (sampled && dim == HG_IMAGE_1D_BUFFER)
      FAIL("builtin \"%s\": a 1D buffer image is read without a sampler", name);
    hg_ir_type c = t[n - 1];
    if (!is_ty(c, HG_IR_I32, lanes) && !(sampled && is_ty(c, HG_IR_F32, lanes)))
      FAIL("builtin \"%s\": the coordinate of %s must be %s%s with %u lane%s", name, tn, sampled ? "f32 or " : "",
           "i32", lanes, lanes == 1 ? "" : "s");
    if (!is_ty(in->type, color_scalar(name), 4))
      FAIL("builtin \"%s\": the result must be %s", name, color_scalar(name) == HG_IR_F32 ? "f32x4" : "i32x4");
    return true;
  }
  if (op == WRITE) {
    if (n != 3)
      FAIL("builtin \"%s\": takes (image, coord, color), has %u operands", name, n);
    if (acc != HG_IMAGE_WRITE_ONLY)
      FAIL("builtin \"%s\": writes to a read-only image (%s)", name, tn);
    if (dim == HG_IMAGE_3D)
      FAIL("builtin \"%s\": writes to 3D images are not offered by this device", name);
    if (!is_ty(t[1], HG_IR_I32, lanes))
      FAIL("builtin \"%s\": the coordinate of %s must be i32 with %u lane%s", name, tn, lanes, lanes == 1 ? "" : "s");
    if (!is_ty(t[2], color_scalar(name), 4))
      FAIL("builtin \"%s\": the color must be %s", name, color_scalar(name) == HG_IR_F32 ? "f32x4" : "i32x4");
    if (in->type.scalar != HG_IR_VOID)
      FAIL("builtin \"%s\": returns nothing", name);
    return true;
  }
  if (n != 1)
    FAIL("builtin \"%s\": takes the image only, has %u operands", name, n);
  hg_ir_type want = query_result(name, dim);
  if (want.scalar == HG_IR_VOID)
    FAIL("builtin \"%s\": does not apply to %s", name, tn);
  if (!hg_ir_type_eq(in->type, want) || in->type.reserved || in->type.addrspace) {
    char wn[32];
    hg_ir_type_text(want, wn, sizeof wn);
    FAIL("builtin \"%s\": the result must be %s", name, wn);
  }
  return true;
}
