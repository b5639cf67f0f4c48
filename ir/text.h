/* Names shared by the text printer and parser (docs/ir-spec.md, "Text form"). */
#ifndef HETGPU_IR_TEXT_H
#define HETGPU_IR_TEXT_H
#include "ir/ir_internal.h"

extern const char *const hg_ir_scalar_names[HG_IR_PTR + 1];
extern const char *const hg_ir_as_names[HG_AS_GENERIC + 1];
extern const char *const hg_ir_cmp_names[HG_CMP_FALSE + 1];
extern const char *const hg_ir_atomic_names[HG_ATOMIC_STORE + 1];
extern const char *const hg_ir_order_names[HG_ORDER_SEQ_CST + 1];
extern const char *const hg_ir_scope_names[HG_SCOPE_ALL_DEVICES + 1];
extern const char *const hg_ir_karg_names[HG_KARG_IMAGE + 1];
extern const char *const hg_ir_safepoint_names[HG_SAFEPOINT_LOOP_HEADER + 1];
extern const char *const hg_ir_program_kind_names[HG_IR_PROGRAM_LIBRARY + 1];
extern const char *const hg_ir_fence_names[3];
extern const char *const hg_ir_image_dim_names[HG_IMAGE_3D + 1];        /* "image2d" by hg_ir_image_dim */
extern const char *const hg_ir_image_access_names[HG_IMAGE_READ_WRITE + 1]; /* "ro" "wo" "rw" */

/* A type as the text form spells it ("f32x4", "ptr.global"), into buf of n bytes. */
void hg_ir_type_text(hg_ir_type t, char *buf, size_t n);

static inline bool hg_ir_is_mem_op(unsigned op) {
  return op == HG_OP_LOAD || op == HG_OP_STORE || op == HG_OP_MEMCPY || op == HG_OP_MEMSET || op == HG_OP_MEMMOVE;
}
static inline bool hg_ir_is_atomic_op(unsigned op) {
  return op == HG_OP_ATOMIC_RMW || op == HG_OP_CMPXCHG || op == HG_OP_FENCE;
}
#endif
