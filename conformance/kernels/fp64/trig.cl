//@ kernel fp64_trig
//@ global 1024
//@ local 64
//@ compare ulp 6
//@ arg in double 8192 random -100 100
//@ arg in double 8192 random -1 1
//@ arg out double 8192
// double sin, cos, tan, asin, acos, atan, atan2 (4-6 ulp).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define F(x, y) (sin(x) + cos(x) + tan(x * 0.01) + asin(y) + acos(y) + atan(x) + atan2(x, y))
__kernel void fp64_trig(__global const double *a, __global const double *b, __global double *o)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    o[i] = F(a[i], b[i]);
    vstore2(F(vload2(i, a + n), vload2(i, b + n)), i, o + n);
    vstore3(F(vload3(i, a + 3 * n), vload3(i, b + 3 * n)), i, o + 3 * n);
    vstore2(F(vload2(i, a + 6 * n), vload2(i, b + 6 * n)), i, o + 6 * n);
}
