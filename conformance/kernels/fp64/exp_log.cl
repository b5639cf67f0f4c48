//@ kernel fp64_exp_log
//@ global 1024
//@ local 64
//@ compare ulp 3
//@ arg in double 8192 random -50 50
//@ arg in double 8192 random 0.001 1000000
//@ arg out double 8192
// double exp, exp2, exp10, expm1, log, log2, log10, log1p (3 ulp each; summed: bound per term).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define F(x, y) (exp(x) + log(y) + exp2(x * 0.5) + log2(y) + exp10(x * 0.1) + log10(y) + expm1(x * 0.1) + log1p(y))
__kernel void fp64_exp_log(__global const double *a, __global const double *b, __global double *o)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    o[i] = F(a[i], b[i]);
    vstore2(F(vload2(i, a + n), vload2(i, b + n)), i, o + n);
    vstore3(F(vload3(i, a + 3 * n), vload3(i, b + 3 * n)), i, o + 3 * n);
    vstore2(F(vload2(i, a + 6 * n), vload2(i, b + 6 * n)), i, o + 6 * n);
}
