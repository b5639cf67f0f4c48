/* half storage builtins on RISC-V (the cores have no Zfh, and LLVM's own half conversions would
 * call compiler-rt helpers we do not link): vload_half[N], vloada_half[N], vstore_half[N][_r],
 * vstorea_half[N][_r]. Loads widen the binary16 bits to float inline (exact, lane-parallel);
 * stores round each lane once through the runtime's hg_rt_half_from_double (every mode,
 * subnormals, overflow, NaN), floats widened exactly to double first. */
#include <string.h>

#include "devices/riscv/codegen_internal.h"
#include "lowering/llvm_builtins.h"
#include "devices/riscv/runtime/runtime.h"

#define splat hg_llvm_splat_const
static LLVMValueRef splat_i32(hg_rv_cg *g, uint32_t v, unsigned lanes) { return splat(LLVMConstInt(g->e.i32, v, 0), lanes); }

static LLVMTypeRef of_lanes(LLVMTypeRef s, unsigned lanes) { return lanes > 1 ? LLVMVectorType(s, lanes) : s; }

/* binary16 bits (i16 or <N x i16>) -> float, exactly: normal, infinite and NaN halves move
 * their exponent and significand into place (NaN payloads kept); subnormals are m * 2^-24,
 * computed in float where they are normal numbers. */
LLVMValueRef hg_rv_half_bits_to_float(hg_rv_cg *g, LLVMValueRef h, unsigned lanes) {
  LLVMBuilderRef B = g->e.B;
  LLVMTypeRef it = of_lanes(g->e.i32, lanes), ft = of_lanes(g->e.f32, lanes);
  LLVMValueRef w = LLVMBuildZExt(B, h, it, "");
  LLVMValueRef sign = LLVMBuildShl(B, LLVMBuildAnd(B, w, splat_i32(g, 0x8000, lanes), ""), splat_i32(g, 16, lanes), "");
  LLVMValueRef em = LLVMBuildAnd(B, w, splat_i32(g, 0x7fff, lanes), "");
  /* biased exponent 1..30 -> +112 (127 - 15); 31 -> 255 takes another 112 */
  LLVMValueRef normal = LLVMBuildAdd(B, LLVMBuildShl(B, em, splat_i32(g, 13, lanes), ""), splat_i32(g, 112u << 23, lanes), "");
  LLVMValueRef special = LLVMBuildAdd(B, normal, splat_i32(g, 112u << 23, lanes), "");
  LLVMValueRef sub = LLVMBuildFMul(B, LLVMBuildUIToFP(B, em, ft, ""), splat(LLVMConstReal(g->e.f32, 0x1p-24), lanes), "");
  sub = LLVMBuildBitCast(B, sub, it, "");
  LLVMValueRef is_sub = LLVMBuildICmp(B, LLVMIntULT, em, splat_i32(g, 0x400, lanes), "");
  LLVMValueRef is_special = LLVMBuildICmp(B, LLVMIntUGE, em, splat_i32(g, 0x7c00, lanes), "");
  LLVMValueRef mag = LLVMBuildSelect(B, is_sub, sub, LLVMBuildSelect(B, is_special, special, normal, ""), "");
  return LLVMBuildBitCast(B, LLVMBuildOr(B, mag, sign, ""), ft, "");
}

/* float or double (scalar or vector) -> binary16 bits (i16 or <N x i16>), rounded once in
 * `mode` (HG_RT_HALF_*): one runtime call a lane. */
LLVMValueRef hg_rv_float_to_half_bits(hg_rv_cg *g, LLVMValueRef v, unsigned lanes, int mode) {
  LLVMBuilderRef B = g->e.B;
  LLVMValueRef r = lanes > 1 ? LLVMGetUndef(LLVMVectorType(g->e.i16, lanes)) : NULL;
  for (unsigned l = 0; l < (lanes > 1 ? lanes : 1); l++) {
    LLVMValueRef e = lanes > 1 ? LLVMBuildExtractElement(B, v, LLVMConstInt(g->e.i32, l, 0), "") : v;
    if (LLVMTypeOf(e) != g->e.f64)
      e = LLVMBuildFPExt(B, e, g->e.f64, "");
    LLVMValueRef args[2] = {e, LLVMConstInt(g->e.i32, (unsigned)mode, 0)};
    LLVMValueRef h = LLVMBuildTrunc(B, hg_rv_call_external(g, "hg_rt_half_from_double", g->e.i32, args, 2), g->e.i16, "");
    if (lanes <= 1)
      return h;
    r = LLVMBuildInsertElement(B, r, h, LLVMConstInt(g->e.i32, l, 0), "");
  }
  return r;
}

/* Splits a half builtin's name: load or store, aligned (vloada/vstorea), width (1 when absent),
 * rounding mode (stores; rte when absent). False for any other name. */
static bool parse_half_name(const char *n, bool *store, bool *aligned, unsigned *width, int *mode) {
  static const struct {
    const char *prefix;
    bool store, aligned;
  } forms[] = {{"vloada_half", false, true},
               {"vload_half", false, false},
               {"vstorea_half", true, true},
               {"vstore_half", true, false}};
  const char *rest = NULL;
  for (size_t i = 0; i < sizeof forms / sizeof forms[0] && !rest; i++)
    if (!strncmp(n, forms[i].prefix, strlen(forms[i].prefix))) {
      rest = n + strlen(forms[i].prefix);
      *store = forms[i].store;
      *aligned = forms[i].aligned;
    }
  if (!rest)
    return false;
  static const struct {
    const char *text;
    unsigned n;
  } widths[] = {{"16", 16}, {"2", 2}, {"3", 3}, {"4", 4}, {"8", 8}};
  *width = 1;
  for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
    if (!strncmp(rest, widths[i].text, strlen(widths[i].text))) {
      *width = widths[i].n;
      rest += strlen(widths[i].text);
      break;
    }
  static const char *const modes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  *mode = HG_RT_HALF_RTE;
  if (!*rest)
    return true;
  if (!*store)
    return false;
  for (int i = 0; i < 4; i++)
    if (!strcmp(rest, modes[i])) {
      *mode = i; /* the order of HG_RT_HALF_RTE..RTN */
      return true;
    }
  return false;
}

LLVMValueRef hg_rv_half_data(hg_rv_cg *g, const char *name, LLVMValueRef *a, const hg_ir_type *at, unsigned n,
                             LLVMTypeRef T) {
  bool store, aligned;
  unsigned N;
  int mode;
  if (!parse_half_name(name, &store, &aligned, &N, &mode))
    return NULL;
  if (n != (store ? 3u : 2u) || at[n - 1].scalar != HG_IR_PTR)
    return hg_rv_fail(g, "%s: unexpected operands", name);
  if (store && (at[0].scalar != HG_IR_F32 && at[0].scalar != HG_IR_F64))
    return hg_rv_fail(g, "%s: the data must be float or double", name);
  if ((store ? (at[0].lanes > 1 ? at[0].lanes : 1) : (LLVMGetTypeKind(T) == LLVMVectorTypeKind ? LLVMGetVectorSize(T) : 1)) != N)
    return hg_rv_fail(g, "%s: the width does not match the data", name);
  LLVMBuilderRef B = g->e.B;
  /* element offset * N halves; the aligned forms place a 3-vector in 4 halves */
  unsigned stride = aligned && N == 3 ? 4 : N;
  unsigned align = aligned ? 2 * stride : 2;
  LLVMValueRef off = LLVMBuildZExtOrBitCast(B, a[store ? 1 : 0], g->e.i64, "");
  off = LLVMBuildMul(B, off, LLVMConstInt(g->e.i64, 2ull * stride, 0), "");
  LLVMValueRef p = LLVMBuildGEP2(B, g->e.i8, a[n - 1], &off, 1, "");
  LLVMTypeRef ht = of_lanes(g->e.i16, N);
  if (store) {
    LLVMValueRef s = LLVMBuildStore(B, hg_rv_float_to_half_bits(g, a[0], N, mode), p);
    LLVMSetAlignment(s, align);
    return s;
  }
  LLVMValueRef l = LLVMBuildLoad2(B, ht, p, "");
  /* 3 halves at an 8-byte boundary: with that alignment LLVM widens the load to the 8 bytes,
   * and the 2 past them may lie outside the buffer (a sub-buffer's end faults here) */
  LLVMSetAlignment(l, N == 3 ? 2 : align);
  return hg_rv_half_bits_to_float(g, l, N);
}
