//@ kernel fp64_arith
//@ global 1024
//@ local 64
//@ compare ulp 0
//@ arg in double 8192 random -1000 1000
//@ arg in double 8192 random 0.5 100
//@ arg out double 8192
// double arithmetic: + - * / are correctly rounded in double (0 ulp) on double, double2, double3.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define F(x, y) (x * y + x / y - (x - y))
__kernel void fp64_arith(__global const double *a, __global const double *b, __global double *o)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    o[i] = F(a[i], b[i]);
    vstore2(F(vload2(i, a + n), vload2(i, b + n)), i, o + n);
    vstore3(F(vload3(i, a + 3 * n), vload3(i, b + 3 * n)), i, o + 3 * n);
    vstore2(F(vload2(i, a + 6 * n), vload2(i, b + 6 * n)), i, o + 6 * n);
}
