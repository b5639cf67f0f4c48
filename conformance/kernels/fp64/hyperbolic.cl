//@ kernel fp64_hyperbolic
//@ global 1024
//@ local 64
//@ compare ulp 6
//@ arg in double 8192 random -10 10
//@ arg in double 8192 random 1 100
//@ arg out double 8192
// double sinh, cosh, tanh, asinh, acosh, atanh (4-5 ulp).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define F(x, y) (sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(y) + atanh(x * 0.09))
__kernel void fp64_hyperbolic(__global const double *a, __global const double *b, __global double *o)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    o[i] = F(a[i], b[i]);
    vstore2(F(vload2(i, a + n), vload2(i, b + n)), i, o + n);
    vstore3(F(vload3(i, a + 3 * n), vload3(i, b + 3 * n)), i, o + 3 * n);
    vstore2(F(vload2(i, a + 6 * n), vload2(i, b + 6 * n)), i, o + 6 * n);
}
