//@ kernel math_powr
//@ global 1024
//@ local 64
//@ compare ulp 16
//@ arg in float 34816 random 0.01 10
//@ arg in float 34816 random -10 10
//@ arg out float 34816
// powr on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 16 ulp.
__kernel void math_powr(__global const float *a0, __global const float *a1, __global float *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = powr(a0[i], a1[i]);
    vstore2(powr(vload2(i, a0 + n), vload2(i, a1 + n)), i, r + n);
    vstore3(powr(vload3(i, a0 + 3 * n), vload3(i, a1 + 3 * n)), i, r + 3 * n);
    vstore4(powr(vload4(i, a0 + 6 * n), vload4(i, a1 + 6 * n)), i, r + 6 * n);
    vstore8(powr(vload8(i, a0 + 10 * n), vload8(i, a1 + 10 * n)), i, r + 10 * n);
    vstore16(powr(vload16(i, a0 + 18 * n), vload16(i, a1 + 18 * n)), i, r + 18 * n);
}
