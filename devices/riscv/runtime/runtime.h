/* The RISC-V device runtime as the host library sees it: one relocatable riscv64 ELF object
 * (rv64imafd, lp64d, medany, no relaxation; sections .text, .rodata*, no data, no bss, no
 * undefined symbols; relocations R_RISCV_CALL, R_RISCV_PCREL_HI20, R_RISCV_PCREL_LO12_I)
 * embedded as bytes, and the names of the functions it exports. docs/riscv-runtime.md gives the
 * algorithms and the measured accuracy.
 *
 * Naming: hg_rt_<builtin>f for float, hg_rt_<builtin> for double, one scalar function per
 * OpenCL C 1.2 math builtin; standard lp64d calling convention. half_<fn> and native_<fn> map to
 * the full-precision hg_rt_<fn>f (divide and recip included: hg_rt_dividef, hg_rt_recipf). */
#ifndef HETGPU_DEVICES_RISCV_RUNTIME_RUNTIME_H
#define HETGPU_DEVICES_RISCV_RUNTIME_RUNTIME_H

#include <stddef.h>

extern const unsigned char hg_riscv_runtime_object[];
extern const size_t hg_riscv_runtime_object_size;

/* Signature kinds (T is float for the f suffix, double without):
 *   T1     T f(T)                 T2     T f(T, T)              T3  T f(T, T, T)
 *   TI     T f(T, int)            IT     int f(T)               TN  T f(U) (U: uint for float, ulong for double)
 *   TPT    T f(T, T *out)         TPI    T f(T, int *out)       TTPI T f(T, T, int *out)
 * Pointer outputs: sincos stores cos, modf/fract the integral part/floor, frexp the exponent,
 * lgamma_r the sign of Gamma (+-1, 0 for NaN), remquo the quotient (low 31 bits, sign of x/y). */
#define HG_RT_FUNCTIONS(X)                                                                         \
  X(acos, T1) X(acosh, T1) X(acospi, T1) X(asin, T1) X(asinh, T1) X(asinpi, T1) X(atan, T1)        \
  X(atan2, T2) X(atanh, T1) X(atanpi, T1) X(atan2pi, T2) X(cbrt, T1) X(ceil, T1) X(copysign, T2)   \
  X(cos, T1) X(cosh, T1) X(cospi, T1) X(erfc, T1) X(erf, T1) X(exp, T1) X(exp2, T1) X(exp10, T1)   \
  X(expm1, T1) X(fabs, T1) X(fdim, T2) X(floor, T1) X(fma, T3) X(fmax, T2) X(fmin, T2)             \
  X(fmod, T2) X(fract, TPT) X(frexp, TPI) X(hypot, T2) X(ilogb, IT) X(ldexp, TI) X(lgamma, T1)     \
  X(lgamma_r, TPI) X(log, T1) X(log2, T1) X(log10, T1) X(log1p, T1) X(logb, T1) X(mad, T3)         \
  X(maxmag, T2) X(minmag, T2) X(modf, TPT) X(nan, TN) X(nextafter, T2) X(pow, T2) X(pown, TI)      \
  X(powr, T2) X(remainder, T2) X(remquo, TTPI) X(rint, T1) X(rootn, TI) X(round, T1) X(rsqrt, T1)  \
  X(sin, T1) X(sincos, TPT) X(sinh, T1) X(sinpi, T1) X(sqrt, T1) X(tan, T1) X(tanh, T1)            \
  X(tanpi, T1) X(tgamma, T1) X(trunc, T1) X(divide, T2) X(recip, T1)

/* Beside the math builtins: the rounding of vstore_half* / vstorea_half* (rt_half.rvc).
 *   uint32_t hg_rt_half_from_double(double x, int mode): the binary16 bits (in the low 16) of x
 *   rounded once in `mode`; floats are passed widened (exactly) to double. */
enum { HG_RT_HALF_RTE = 0, HG_RT_HALF_RTZ = 1, HG_RT_HALF_RTP = 2, HG_RT_HALF_RTN = 3 };

#endif
