/* The builtin signature table's row (ir/builtin_table.c) and the masks rows are written with;
 * ir/builtins.c reads it. Not part of the contract in ir/builtins.h. */
#ifndef HETGPU_IR_BUILTIN_TABLE_H
#define HETGPU_IR_BUILTIN_TABLE_H

#include "ir/builtins.h"

/* One overload shape shared by the builtins it names.
 *
 * `names`: space-separated names, or name patterns where
 *   #  a width, 2 3 4 8 or 16 (required)        %  a width, or none (1)
 *   @  _rte _rtz _rtp _rtn, or none              !  _sat, or none
 *   $  a type name other than half, optionally with a width ("uint4")
 *   &  a type name, half included, optionally with a width
 * A width in the name (from #, % or $) is the lane count of T.
 *
 * `sig`: the result's token, '=', one token per operand. T is the row's gentype: one type,
 * its element one of `types`, its lane count one of `lanes`; every T of a call is the same.
 *   T  the gentype                      t  T's element (one lane)
 *   S  T or T's element (the mixed vector/scalar forms: fmax(float4, float))
 *   K  i32 with T's lanes (int or intn) U  an integer of T's element width with T's lanes
 *   R  i32 when T has one lane, else U (relational results)
 *   W  an integer of twice T's element width with T's lanes (upsample)
 *   D  the type the name spells (convert_, as_)
 *   Z  a value of D's size, not a pointer or bool (as_)
 *   M  an integer vector of T's element width, lanes one of `lanes` (shuffle's mask)
 *   Y  T's element with M's lanes (shuffle's result)
 *   i  i32     l  i64 (size_t)     b  bool     v  void (results only)
 *   p  a pointer that may be written: not __constant
 *   q  a pointer of any address space    a  a pointer to __global or __local
 *   c  a pointer to __constant
 *   *  any number of further operands of any type (last; printf) */
typedef struct hg_ir_builtin_row {
  const char *names;
  uint8_t family; /* hg_ir_builtin_family */
  const char *sig;
  uint16_t types; /* bit s: T's element may be hg_ir_scalar s */
  uint32_t lanes; /* bit n: T may have n lanes */
} hg_ir_builtin_row;

#define HG_BT(s) (1u << (s))
#define HG_BT_FLOAT (HG_BT(HG_IR_F16) | HG_BT(HG_IR_F32) | HG_BT(HG_IR_F64))
#define HG_BT_INT (HG_BT(HG_IR_I8) | HG_BT(HG_IR_I16) | HG_BT(HG_IR_I32) | HG_BT(HG_IR_I64))
#define HG_BT_NUM (HG_BT_FLOAT | HG_BT_INT)
#define HG_BL(n) (1u << (n))
#define HG_BL_VEC (HG_BL(2) | HG_BL(3) | HG_BL(4) | HG_BL(8) | HG_BL(16))
#define HG_BL_ANY (HG_BL(1) | HG_BL_VEC)

extern const hg_ir_builtin_row hg_ir_builtin_rows[];
extern const unsigned hg_ir_builtin_num_rows;

#endif
