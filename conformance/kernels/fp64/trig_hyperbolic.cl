//@ kernel fp64_trig_hyperbolic
//@ global 1024
//@ local 64
//@ compare ulp 12
//@ arg in double 8192 random -100 100
//@ arg in double 8192 random -1 1
//@ arg in double 8192 random -10 10
//@ arg in double 8192 random 1 100
//@ arg out double 106496
// double sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh on double,
// double2, double3. OpenCL 1.2 bounds: sin/cos/asin/acos/sinh/cosh/asinh/acosh 4 ulp,
// tan/atan/tanh/atanh 5, atan2 6. Every function's result is stored on its own: two conformant
// libraries may each be up to 6 ulp from the exact value, so they may differ by 12 ulp (compare
// ulp 12). A sum of several functions (sinh(x) + cosh(x) for negative x, sin + cos + ...) would
// cancel and amplify those differences to hundreds of ulp.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* ST(k, value) stores function k's result; function k owns o[k * 8n .. k * 8n + 8n).
 * x, y: trig arguments (|x| <= 100, |y| <= 1); h, g: hyperbolic (|h| <= 10, 1 <= g <= 100). */
#define FNS(ST, x, y, h, g) \
    ST(0, sin(x)) ST(1, cos(x)) ST(2, tan(x * 0.01)) ST(3, asin(y)) ST(4, acos(y)) ST(5, atan(x)) \
    ST(6, atan2(x, y)) ST(7, sinh(h)) ST(8, cosh(h)) ST(9, tanh(h)) ST(10, asinh(h)) ST(11, acosh(g)) \
    ST(12, atanh(h * 0.09))
/* the four widths of one work-item: n scalars, n double2, n double3, n double2 */
#define WIDTH(T, LOAD, ST, at)                                                               \
    { T x = LOAD(i, a + at), y = LOAD(i, b + at), h = LOAD(i, c + at), g = LOAD(i, d + at); \
      FNS(ST, x, y, h, g) }
#define LOAD1(i, p) (p)[i]
#define S1(k, v) o[k * m + i] = v;
#define S2(k, v) vstore2(v, i, o + k * m + n);
#define S3(k, v) vstore3(v, i, o + k * m + 3 * n);
#define S2B(k, v) vstore2(v, i, o + k * m + 6 * n);
__kernel void fp64_trig_hyperbolic(__global const double *a, __global const double *b,
                                   __global const double *c, __global const double *d,
                                   __global double *o)
{
    size_t i = get_global_id(0), n = get_global_size(0), m = 8 * n;
    WIDTH(double, LOAD1, S1, 0)
    WIDTH(double2, vload2, S2, n)
    WIDTH(double3, vload3, S3, 3 * n)
    WIDTH(double2, vload2, S2B, 6 * n)
}
