/* IEEE 754 helpers for the interpreter's F and D instructions. Arithmetic runs on the host's
 * FPU in the guest's rounding mode (set with fesetround while the core runs); the host's
 * exception flags accrue and are folded into fflags when the guest reads them or exits. What
 * the host does differently from RISC-V is done here by hand: canonical NaNs, NaN boxing,
 * min/max and compare flags, saturating conversions, fclass. */
#ifndef HETGPU_DEVICES_RISCV_SIM_FP_H
#define HETGPU_DEVICES_RISCV_SIM_FP_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { HG_FF_NX = 1, HG_FF_UF = 2, HG_FF_OF = 4, HG_FF_DZ = 8, HG_FF_NV = 16 };
enum { HG_RM_RNE = 0, HG_RM_RTZ = 1, HG_RM_RDN = 2, HG_RM_RUP = 3, HG_RM_RMM = 4, HG_RM_DYN = 7 };

#define HG_CNAN_S 0x7fc00000u
#define HG_CNAN_D 0x7ff8000000000000ull
#define HG_BOX 0xffffffff00000000ull

static inline float hg_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t hg_b32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double hg_f64(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static inline uint64_t hg_b64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }

/* A single held in a 64-bit register: valid only when NaN-boxed (upper 32 bits all ones). */
static inline uint32_t hg_unbox(uint64_t r) { return (r >> 32) == 0xffffffffu ? (uint32_t)r : HG_CNAN_S; }
static inline uint64_t hg_box(uint32_t b) { return HG_BOX | b; }

static inline int hg_isnan32(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
static inline int hg_isnan64(uint64_t b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static inline int hg_issnan32(uint32_t b) { return hg_isnan32(b) && !(b & 0x00400000u); }
static inline int hg_issnan64(uint64_t b) { return hg_isnan64(b) && !(b & 0x0008000000000000ull); }

/* Results of arithmetic: any NaN becomes the canonical one. */
static inline uint64_t hg_res32(float f) {
  uint32_t b = hg_b32(f);
  return hg_box(hg_isnan32(b) ? HG_CNAN_S : b);
}
static inline uint64_t hg_res64(double f) {
  uint64_t b = hg_b64(f);
  return hg_isnan64(b) ? HG_CNAN_D : b;
}

static inline int hg_host_rm(unsigned rm) {
  switch (rm) {
  case HG_RM_RTZ: return FE_TOWARDZERO;
  case HG_RM_RDN: return FE_DOWNWARD;
  case HG_RM_RUP: return FE_UPWARD;
  default: return FE_TONEAREST; /* RNE; RMM is emulated where it differs (see docs) */
  }
}

static inline uint32_t hg_host_fflags(void) {
  int e = fetestexcept(FE_ALL_EXCEPT);
  return (e & FE_INEXACT ? HG_FF_NX : 0) | (e & FE_UNDERFLOW ? HG_FF_UF : 0) | (e & FE_OVERFLOW ? HG_FF_OF : 0) |
         (e & FE_DIVBYZERO ? HG_FF_DZ : 0) | (e & FE_INVALID ? HG_FF_NV : 0);
}

/* fclass: bit i set for the class of the value. */
static inline uint64_t hg_fclass(int sign, int exp_all1, int exp_zero, int mant_zero, int quiet) {
  if (exp_all1) {
    if (mant_zero) return sign ? 1u << 0 : 1u << 7;
    return quiet ? 1u << 9 : 1u << 8;
  }
  if (exp_zero) {
    if (mant_zero) return sign ? 1u << 3 : 1u << 4;
    return sign ? 1u << 2 : 1u << 5;
  }
  return sign ? 1u << 1 : 1u << 6;
}
static inline uint64_t hg_fclass32(uint32_t b) {
  return hg_fclass(b >> 31, (b & 0x7f800000u) == 0x7f800000u, (b & 0x7f800000u) == 0, (b & 0x7fffffu) == 0,
                   (b >> 22) & 1);
}
static inline uint64_t hg_fclass64(uint64_t b) {
  return hg_fclass((int)(b >> 63), (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull,
                   (b & 0x7ff0000000000000ull) == 0, (b & 0xfffffffffffffull) == 0, (int)((b >> 51) & 1));
}

/* fmin/fmax (IEEE 754-2019 minimumNumber/maximumNumber): a NaN operand loses to a number, two
 * NaNs give the canonical NaN, a signaling NaN raises NV, -0 < +0. Ordered compares of
 * non-NaN values raise no host flags. */
static inline uint64_t hg_fminmax64(uint64_t a, uint64_t b, int max, uint32_t *ff) {
  int na = hg_isnan64(a), nb = hg_isnan64(b);
  if (hg_issnan64(a) || hg_issnan64(b)) *ff |= HG_FF_NV;
  if (na && nb) return HG_CNAN_D;
  if (na) return b;
  if (nb) return a;
  double x = hg_f64(a), y = hg_f64(b);
  if (x == y) { /* equal, maybe +-0: min takes the negative sign, max the positive */
    return max ? (a & b) : (a | b);
  }
  return (max ? x > y : x < y) ? a : b;
}
static inline uint32_t hg_fminmax32(uint32_t a, uint32_t b, int max, uint32_t *ff) {
  int na = hg_isnan32(a), nb = hg_isnan32(b);
  if (hg_issnan32(a) || hg_issnan32(b)) *ff |= HG_FF_NV;
  if (na && nb) return HG_CNAN_S;
  if (na) return b;
  if (nb) return a;
  float x = hg_f32(a), y = hg_f32(b);
  if (x == y) return max ? (a & b) : (a | b);
  return (max ? x > y : x < y) ? a : b;
}

/* feq (quiet: NV only for signaling NaNs), flt/fle (signaling: NV for any NaN). kind 0 eq,
 * 1 lt, 2 le. */
static inline uint64_t hg_fcmp64(uint64_t a, uint64_t b, int kind, uint32_t *ff) {
  if (hg_isnan64(a) || hg_isnan64(b)) {
    if (kind || hg_issnan64(a) || hg_issnan64(b)) *ff |= HG_FF_NV;
    return 0;
  }
  double x = hg_f64(a), y = hg_f64(b);
  return kind == 0 ? x == y : kind == 1 ? x < y : x <= y;
}
static inline uint64_t hg_fcmp32(uint32_t a, uint32_t b, int kind, uint32_t *ff) {
  if (hg_isnan32(a) || hg_isnan32(b)) {
    if (kind || hg_issnan32(a) || hg_issnan32(b)) *ff |= HG_FF_NV;
    return 0;
  }
  float x = hg_f32(a), y = hg_f32(b);
  return kind == 0 ? x == y : kind == 1 ? x < y : x <= y;
}

/* Rounds a non-NaN double to an integral value in rounding mode rm. */
static inline double hg_round_rm(double v, unsigned rm) {
  switch (rm) {
  case HG_RM_RTZ: return trunc(v);
  case HG_RM_RDN: return floor(v);
  case HG_RM_RUP: return ceil(v);
  case HG_RM_RMM: return round(v);
  default: return roundeven(v);
  }
}

/* Float -> integer with RISC-V saturation: NaN and too large give the maximum, too small the
 * minimum, both with NV; an inexact in-range result raises NX. kind: 0 int32, 1 uint32,
 * 2 int64, 3 uint64. The 32-bit results are sign-extended to 64 bits (also for uint32). v_is_nan
 * tells NaN from infinity without a host compare. */
static inline uint64_t hg_fcvt_int(double v, int v_is_nan, unsigned rm, int kind, uint32_t *ff) {
  static const double lo[4] = {-2147483648.0, 0.0, -9223372036854775808.0, 0.0};
  static const double hi[4] = {2147483648.0, 4294967296.0, 9223372036854775808.0, 18446744073709551616.0};
  static const uint64_t minv[4] = {0xffffffff80000000ull, 0, 0x8000000000000000ull, 0};
  static const uint64_t maxv[4] = {0x7fffffffull, 0xffffffffffffffffull, 0x7fffffffffffffffull,
                                   0xffffffffffffffffull};
  if (v_is_nan) {
    *ff |= HG_FF_NV;
    return maxv[kind];
  }
  /* libm's rounding functions may raise inexact on the host; the guest's NX is decided below */
  fexcept_t saved;
  fegetexceptflag(&saved, FE_INEXACT);
  double r = hg_round_rm(v, rm);
  fesetexceptflag(&saved, FE_INEXACT);
  if (r < lo[kind]) {
    *ff |= HG_FF_NV;
    return minv[kind];
  }
  if (r >= hi[kind]) {
    *ff |= HG_FF_NV;
    return maxv[kind];
  }
  if (r != v) *ff |= HG_FF_NX;
  switch (kind) {
  case 0: return (uint64_t)(int64_t)(int32_t)r;
  case 1: return (uint64_t)(int64_t)(int32_t)(uint32_t)r;
  case 2: return (uint64_t)(int64_t)r;
  default: return (uint64_t)r;
  }
}

#endif
