//@ kernel native_exp_log
//@ global 1024
//@ local 64
//@ compare rel 0.001
//@ arg in float 4096 random -5 5
//@ arg in float 4096 random 0.1 100
//@ arg out float 24576
// native_exp, native_exp2, native_exp10, native_log, native_log2, native_log10 on float4
// (implementation-defined precision: loose relative bound, inputs keep results away from 0).
__kernel void native_exp_log(__global const float *a, __global const float *b, __global float *o)
{
    int i = get_global_id(0);
    float4 x = vload4(i, a), y = vload4(i, b);
    vstore4(native_exp(x), 6 * i, o);
    vstore4(native_exp2(x), 6 * i + 1, o);
    vstore4(native_exp10(x * 0.5f), 6 * i + 2, o);
    vstore4(native_log(y) + 10.0f, 6 * i + 3, o);
    vstore4(native_log2(y) + 10.0f, 6 * i + 4, o);
    vstore4(native_log10(y) + 10.0f, 6 * i + 5, o);
}
