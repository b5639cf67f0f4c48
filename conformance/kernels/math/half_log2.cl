//@ kernel math_half_log2
//@ global 1024
//@ local 64
//@ compare ulp 8192
//@ arg in float 34816 random 0.01 1000
//@ arg out float 34816
// half_log2 on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 8192 ulp.
__kernel void math_half_log2(__global const float *a0, __global float *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = half_log2(a0[i]);
    vstore2(half_log2(vload2(i, a0 + n)), i, r + n);
    vstore3(half_log2(vload3(i, a0 + 3 * n)), i, r + 3 * n);
    vstore4(half_log2(vload4(i, a0 + 6 * n)), i, r + 6 * n);
    vstore8(half_log2(vload8(i, a0 + 10 * n)), i, r + 10 * n);
    vstore16(half_log2(vload16(i, a0 + 18 * n)), i, r + 18 * n);
}
