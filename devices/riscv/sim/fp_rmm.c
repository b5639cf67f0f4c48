/* Round to nearest, ties to max magnitude (RMM) for FP arithmetic: the host FPU has no such
 * mode. The operation is computed in a wider format (x87 long double for D, double for F)
 * rounded toward zero; the wider format holds every midpoint of the target format exactly, so
 * comparing the truncated wide value with the midpoint between the two target neighbours
 * decides correctly (truncation is monotone and the midpoint is representable). Flags: NV and
 * DZ from the host operation, NX, OF and UF (tininess after rounding) by hand. */
#include <float.h>

#include "devices/riscv/sim/fp.h"
#include "devices/riscv/sim/sim_internal.h"

/* v: the exact result truncated toward zero in the wider format (host in RTZ mode). */
static double rmm_to_d(long double v, int wide_inexact, uint32_t *ff) {
  if (isnan(v) || isinf(v)) return (double)v;
  double r = (double)v; /* truncation, RTZ */
  if ((long double)r == v) {
    /* below the midpoint whatever the wide operation dropped */
    if (wide_inexact) *ff |= HG_FF_NX | (fabsl(v) < 0x1p-1022L * (1 - 0x1p-54L) ? HG_FF_UF : 0);
    return r;
  }
  *ff |= HG_FF_NX;
  long double up = fabs(r) == DBL_MAX ? copysignl(0x1p1024L, v) : (long double)nextafter(r, copysign(INFINITY, (double)v));
  long double mid = ((long double)r + up) / 2;
  if (fabsl(v) < 0x1p-1022L * (1 - 0x1p-54L)) *ff |= HG_FF_UF;
  if (fabsl(v) < fabsl(mid)) return r;
  if (isinf((double)up) || fabsl(up) == 0x1p1024L) {
    *ff |= HG_FF_OF;
    return copysign(INFINITY, (double)v);
  }
  return (double)up;
}

static float rmm_to_s(double v, int wide_inexact, uint32_t *ff) {
  if (isnan(v) || isinf(v)) return (float)v;
  float r = (float)v;
  if ((double)r == v) {
    if (wide_inexact) *ff |= HG_FF_NX | (fabs(v) < 0x1p-126 * (1 - 0x1p-25) ? HG_FF_UF : 0);
    return r;
  }
  *ff |= HG_FF_NX;
  double up = fabsf(r) == FLT_MAX ? copysign(0x1p128, v) : (double)nextafterf(r, copysignf(INFINITY, (float)v));
  double mid = ((double)r + up) / 2;
  if (fabs(v) < 0x1p-126 * (1 - 0x1p-25)) *ff |= HG_FF_UF;
  if (fabs(v) < fabs(mid)) return r;
  if (fabs(up) == 0x1p128) {
    *ff |= HG_FF_OF;
    return copysignf(INFINITY, (float)v);
  }
  return (float)up;
}

void hg_sim_fp_rmm(hg_sim_core *c, int op, const hg_sim_insn *ip) {
  fexcept_t saved;
  fegetexceptflag(&saved, FE_ALL_EXCEPT);
  feclearexcept(FE_ALL_EXCEPT);
  fesetround(FE_TOWARDZERO);
  uint32_t ff = 0;
  uint64_t *f = c->f, xs1 = c->x[ip->rs1];
  long double a = hg_f64(f[ip->rs1]), b = hg_f64(f[ip->rs2]), cc = hg_f64(f[ip->rs3]);
  double sa = hg_f32(hg_unbox(f[ip->rs1])), sb = hg_f32(hg_unbox(f[ip->rs2])), sc = hg_f32(hg_unbox(f[ip->rs3]));
  int is_d = 1;
  long double vd = 0;
  double vs = 0;
  switch (op) {
  case HG_SIM_OP_FADD_D: vd = a + b; break;
  case HG_SIM_OP_FSUB_D: vd = a - b; break;
  case HG_SIM_OP_FMUL_D: vd = a * b; break;
  case HG_SIM_OP_FDIV_D: vd = a / b; break;
  case HG_SIM_OP_FSQRT_D: vd = sqrtl(a); break;
  case HG_SIM_OP_FMADD_D: vd = fmal(a, b, cc); break;
  case HG_SIM_OP_FMSUB_D: vd = fmal(a, b, -cc); break;
  case HG_SIM_OP_FNMSUB_D: vd = fmal(-a, b, cc); break;
  case HG_SIM_OP_FNMADD_D: vd = fmal(-a, b, -cc); break;
  case HG_SIM_OP_FCVT_D_S: vd = sa; break;
  case HG_SIM_OP_FCVT_D_W: vd = (int32_t)xs1; break;
  case HG_SIM_OP_FCVT_D_WU: vd = (uint32_t)xs1; break;
  case HG_SIM_OP_FCVT_D_L: vd = (int64_t)xs1; break;
  case HG_SIM_OP_FCVT_D_LU: vd = xs1; break;
  default:
    is_d = 0;
    switch (op) {
    case HG_SIM_OP_FADD_S: vs = sa + sb; break;
    case HG_SIM_OP_FSUB_S: vs = sa - sb; break;
    case HG_SIM_OP_FMUL_S: vs = sa * sb; break;
    case HG_SIM_OP_FDIV_S: vs = sa / sb; break;
    case HG_SIM_OP_FSQRT_S: vs = sqrt(sa); break;
    case HG_SIM_OP_FMADD_S: vs = fma(sa, sb, sc); break;
    case HG_SIM_OP_FMSUB_S: vs = fma(sa, sb, -sc); break;
    case HG_SIM_OP_FNMSUB_S: vs = fma(-sa, sb, sc); break;
    case HG_SIM_OP_FNMADD_S: vs = fma(-sa, sb, -sc); break;
    case HG_SIM_OP_FCVT_S_D: vs = hg_f64(f[ip->rs1]); break;
    case HG_SIM_OP_FCVT_S_W: vs = (int32_t)xs1; break;
    case HG_SIM_OP_FCVT_S_WU: vs = (uint32_t)xs1; break;
    case HG_SIM_OP_FCVT_S_L: vs = (double)(int64_t)xs1; break;
    case HG_SIM_OP_FCVT_S_LU: vs = (double)xs1; break;
    default: break;
    }
  }
  /* fma's inf * 0 + qNaN: NV as in the other modes */
  if ((op >= HG_SIM_OP_FMADD_S && op <= HG_SIM_OP_FNMADD_D)) {
    uint64_t ra = f[ip->rs1], rb = f[ip->rs2];
    int inf0 = is_d ? (isinf(hg_f64(ra)) && hg_f64(rb) == 0) || (hg_f64(ra) == 0 && isinf(hg_f64(rb)))
                    : (isinf(sa) && sb == 0) || (sa == 0 && isinf(sb));
    if (inf0) ff |= HG_FF_NV;
  }
  int e = fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_INEXACT);
  uint64_t res;
  if (is_d) {
    double r = rmm_to_d(vd, (e & FE_INEXACT) != 0, &ff);
    res = hg_res64(r);
  } else {
    /* fcvt.s.d of a double that is not exact in float: the wide value is the double itself */
    float r = rmm_to_s(vs, (e & FE_INEXACT) != 0, &ff);
    res = hg_res32(r);
  }
  fesetexceptflag(&saved, FE_ALL_EXCEPT);
  fesetround(hg_host_rm(c->frm));
  c->fflags |= ff | (e & FE_INVALID ? HG_FF_NV : 0) | (e & FE_DIVBYZERO ? HG_FF_DZ : 0);
  f[ip->rd] = res;
}
