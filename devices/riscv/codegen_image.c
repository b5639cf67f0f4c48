/* Image builtins on RISC-V (docs/images.md, "IR"; docs/riscv-backend.md, "Images"). An image
 * value is the address of its descriptor (devices/riscv/runtime/rt_image.h), a sampler an i32
 * of CLK_* bits. read_image* and write_image* call the runtime (rt_image.rvc) with the
 * dimensionality the image operand's IR type gives, the coordinates as three scalars (unused
 * ones 0) and the four-lane result or color through a stack slot; get_image_* load the
 * descriptor inline. */
#include <stdio.h>
#include <string.h>

#include "devices/riscv/codegen_internal.h"
#include "devices/riscv/runtime/rt_image.h"
#include "lowering/llvm_builtins.h"
#include "ir/builtins.h"

static LLVMValueRef ci32(hg_rv_cg *g, uint64_t v) { return LLVMConstInt(g->e.i32, v, 0); }

bool hg_rv_is_image_builtin(const char *n) {
  return !strncmp(n, "read_image", 10) || !strncmp(n, "write_image", 11) || !strncmp(n, "get_image_", 10);
}

/* An operand: image and sampler constants and undefs are built here (the shared lowering
 * knows only the types of memory); everything else is the shared value. */
static LLVMValueRef operand(hg_rv_cg *g, uint32_t v) {
  const hg_ir_value *val = &g->e.f->values[v];
  if (val->type.scalar == HG_IR_SAMPLER && val->kind == HG_VAL_CONST)
    return ci32(g, (uint32_t)g->e.f->const_words[val->index]);
  if (val->type.scalar == HG_IR_SAMPLER && val->kind == HG_VAL_UNDEF)
    return ci32(g, HG_RT_SAMPLER_NONE);
  if (val->type.scalar == HG_IR_IMAGE && val->kind != HG_VAL_PARAM)
    return hg_rv_fail(g, "an image operand must be a kernel parameter");
  return hg_rv_value(g, v);
}

/* A stack slot in the function's entry block (not in a loop: it would grow the stack). */
static LLVMValueRef entry_alloca(hg_rv_cg *g, LLVMTypeRef T) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(g->e.fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->e.C);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a = LLVMBuildAlloca(b, T, "img.tmp");
  LLVMSetAlignment(a, 16);
  LLVMDisposeBuilder(b);
  return a;
}

/* Three scalar coordinates from a 1-, 2- or 4-lane coordinate (lanes beyond the third ignored;
 * missing ones zero), in the coordinate's element type. */
static void coords(hg_rv_cg *g, LLVMValueRef c, hg_ir_type t, LLVMValueRef *xyz) {
  bool fl = t.scalar == HG_IR_F32;
  LLVMValueRef zero = fl ? LLVMConstReal(g->e.f32, 0.0) : ci32(g, 0);
  unsigned lanes = t.lanes ? t.lanes : 1;
  for (unsigned l = 0; l < 3; l++)
    xyz[l] = l < lanes ? hg_llvm_lane(&g->e, c, l) : zero;
}

/* The lanes a coordinate of an image of dimensionality dim has (docs/images.md). */
static unsigned coord_lanes(unsigned dim) {
  switch (dim) {
  case HG_IMAGE_1D: case HG_IMAGE_1D_BUFFER: return 1;
  case HG_IMAGE_1D_ARRAY: case HG_IMAGE_2D: return 2;
  default: return 4;
  }
}

static LLVMValueRef read_image(hg_rv_cg *g, const hg_ir_inst *in, const char *n) {
  const hg_ir_function *f = g->e.f;
  hg_ir_type it = f->values[in->operands[0]].type;
  bool with_sampler = in->num_operands == 3;
  hg_ir_type ct = f->values[in->operands[with_sampler ? 2 : 1]].type;
  bool fres = !strcmp(n, "read_imagef");
  hg_ir_type want = hg_ir_ty(fres ? HG_IR_F32 : HG_IR_I32, 4);
  if ((with_sampler && f->values[in->operands[1]].type.scalar != HG_IR_SAMPLER) ||
      (ct.scalar != HG_IR_F32 && ct.scalar != HG_IR_I32) || (!with_sampler && ct.scalar != HG_IR_I32) ||
      (ct.lanes ? ct.lanes : 1) != coord_lanes(it.addrspace) || !hg_ir_type_eq(in->type, want))
    return hg_rv_fail(g, "%s: operand types do not match an overload", n);
  if (it.reserved == HG_IMAGE_WRITE_ONLY)
    return hg_rv_fail(g, "%s of a write_only image", n);
  LLVMValueRef img = operand(g, in->operands[0]);
  LLVMValueRef smp = with_sampler ? operand(g, in->operands[1]) : ci32(g, HG_RT_SAMPLER_NONE);
  LLVMValueRef c = operand(g, in->operands[with_sampler ? 2 : 1]);
  if (g->e.failed)
    return NULL;
  LLVMTypeRef T = hg_rv_type(g, want);
  LLVMValueRef out = entry_alloca(g, T);
  LLVMValueRef args[7] = {img, smp, ci32(g, it.addrspace)};
  coords(g, c, ct, args + 3);
  args[6] = out;
  char fn[48];
  snprintf(fn, sizeof fn, "hg_rt_image_read%s%s", fres ? "f" : "i", ct.scalar == HG_IR_I32 ? "_int" : "");
  hg_rv_call_external(g, fn, g->e.voidt, args, 7);
  LLVMValueRef r = LLVMBuildLoad2(g->e.B, T, out, "");
  LLVMSetAlignment(r, 16);
  return r;
}

static LLVMValueRef write_image(hg_rv_cg *g, const hg_ir_inst *in, const char *n) {
  const hg_ir_function *f = g->e.f;
  if (in->num_operands != 3)
    return hg_rv_fail(g, "%s takes (image, coord, color)", n);
  hg_ir_type it = f->values[in->operands[0]].type, ct = f->values[in->operands[1]].type;
  hg_ir_type vt = f->values[in->operands[2]].type;
  bool fcol = !strcmp(n, "write_imagef");
  if (ct.scalar != HG_IR_I32 || (ct.lanes ? ct.lanes : 1) != coord_lanes(it.addrspace) ||
      !hg_ir_type_eq(vt, hg_ir_ty(fcol ? HG_IR_F32 : HG_IR_I32, 4)))
    return hg_rv_fail(g, "%s: operand types do not match an overload", n);
  if (it.reserved == HG_IMAGE_READ_ONLY)
    return hg_rv_fail(g, "%s of a read_only image", n);
  if (it.addrspace == HG_IMAGE_3D)
    return hg_rv_fail(g, "%s: writes to 3D images are not supported (no cl_khr_3d_image_writes)", n);
  LLVMValueRef img = operand(g, in->operands[0]), c = operand(g, in->operands[1]);
  LLVMValueRef color = operand(g, in->operands[2]);
  if (g->e.failed)
    return NULL;
  LLVMValueRef slot = entry_alloca(g, LLVMTypeOf(color));
  LLVMSetAlignment(LLVMBuildStore(g->e.B, color, slot), 16);
  LLVMValueRef args[6] = {img, ci32(g, it.addrspace)};
  coords(g, c, ct, args + 2);
  args[5] = slot;
  hg_rv_call_external(g, fcol ? "hg_rt_image_writef" : "hg_rt_image_writei", g->e.voidt, args, 6);
  return LLVMGetUndef(g->e.i32); /* void: no value */
}

static LLVMValueRef field(hg_rv_cg *g, LLVMValueRef img, unsigned offset) {
  LLVMValueRef off = LLVMConstInt(g->e.i64, offset, 0);
  LLVMValueRef p = LLVMBuildGEP2(g->e.B, g->e.i8, img, &off, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(g->e.B, g->e.i32, p, "");
  LLVMSetAlignment(v, 4);
  return v;
}

static LLVMValueRef image_query(hg_rv_cg *g, const hg_ir_inst *in, const char *n) {
  const hg_ir_function *f = g->e.f;
  if (in->num_operands != 1 || f->values[in->operands[0]].type.scalar != HG_IR_IMAGE)
    return hg_rv_fail(g, "%s takes one image", n);
  unsigned dim = f->values[in->operands[0]].type.addrspace;
  LLVMValueRef img = operand(g, in->operands[0]);
  if (g->e.failed)
    return NULL;
  struct { const char *name; unsigned offset; } scalars[] = {
      {"get_image_width", HG_RT_IMG_WIDTH}, {"get_image_height", HG_RT_IMG_HEIGHT},
      {"get_image_depth", HG_RT_IMG_DEPTH}, {"get_image_channel_data_type", HG_RT_IMG_TYPE},
      {"get_image_channel_order", HG_RT_IMG_ORDER}};
  for (unsigned i = 0; i < sizeof scalars / sizeof *scalars; i++)
    if (!strcmp(n, scalars[i].name)) {
      if (!hg_ir_type_eq(in->type, hg_ir_ty(HG_IR_I32, 1)))
        return hg_rv_fail(g, "%s returns i32", n);
      return field(g, img, scalars[i].offset);
    }
  if (!strcmp(n, "get_image_array_size")) {
    if (!hg_ir_type_eq(in->type, hg_ir_ty(HG_IR_I64, 1)) || (dim != HG_IMAGE_1D_ARRAY && dim != HG_IMAGE_2D_ARRAY))
      return hg_rv_fail(g, "get_image_array_size: an array image, result i64");
    return LLVMBuildZExt(g->e.B, field(g, img, HG_RT_IMG_ARRAY_SIZE), g->e.i64, "");
  }
  if (!strcmp(n, "get_image_dim")) {
    unsigned lanes = dim == HG_IMAGE_3D ? 4 : 2;
    if (!hg_ir_type_eq(in->type, hg_ir_ty(HG_IR_I32, lanes)) ||
        (dim != HG_IMAGE_2D && dim != HG_IMAGE_2D_ARRAY && dim != HG_IMAGE_3D))
      return hg_rv_fail(g, "get_image_dim: a 2D, 2D array or 3D image, result i32x2 or i32x4");
    LLVMValueRef r = LLVMGetUndef(hg_rv_type(g, in->type));
    unsigned offs[4] = {HG_RT_IMG_WIDTH, HG_RT_IMG_HEIGHT, HG_RT_IMG_DEPTH, 0};
    for (unsigned l = 0; l < lanes; l++)
      r = LLVMBuildInsertElement(g->e.B, r, l == 3 ? ci32(g, 0) : field(g, img, offs[l]), ci32(g, l), "");
    return r;
  }
  return hg_rv_fail(g, "builtin %s is not supported by the riscv back end", n);
}

LLVMValueRef hg_rv_image_builtin(hg_rv_cg *g, const hg_ir_inst *in) {
  const char *n = g->m->strings[in->imm[0]];
  /* the IR's own signature check, once the builtin table knows the image builtins */
  char why[256];
  if (hg_ir_builtin_family_of(n) != HG_IR_BF_UNKNOWN && !hg_ir_builtin_check(g->m, g->e.f, in, why, sizeof why))
    return hg_rv_fail(g, "%s", why);
  for (unsigned i = 0; i < in->num_operands; i++)
    if (in->operands[i] >= g->e.f->num_values)
      return hg_rv_fail(g, "%s: operand out of range", n);
  if (!in->num_operands || g->e.f->values[in->operands[0]].type.scalar != HG_IR_IMAGE)
    return hg_rv_fail(g, "%s: the first operand must be an image", n);
  if (!strcmp(n, "read_imagef") || !strcmp(n, "read_imagei") || !strcmp(n, "read_imageui")) {
    if (in->num_operands != 2 && in->num_operands != 3)
      return hg_rv_fail(g, "%s takes (image, [sampler,] coord)", n);
    return read_image(g, in, n);
  }
  if (!strcmp(n, "write_imagef") || !strcmp(n, "write_imagei") || !strcmp(n, "write_imageui"))
    return write_image(g, in, n);
  return image_query(g, in, n);
}
