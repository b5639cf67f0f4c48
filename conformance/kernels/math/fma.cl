//@ kernel math_fma
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in float 34816 random -100 100
//@ arg in float 34816 random -100 100
//@ arg in float 34816 random -100 100
//@ arg out float 34816
// fma on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 0 ulp (exact).
__kernel void math_fma(__global const float *a0, __global const float *a1, __global const float *a2, __global float *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = fma(a0[i], a1[i], a2[i]);
    vstore2(fma(vload2(i, a0 + n), vload2(i, a1 + n), vload2(i, a2 + n)), i, r + n);
    vstore3(fma(vload3(i, a0 + 3 * n), vload3(i, a1 + 3 * n), vload3(i, a2 + 3 * n)), i, r + 3 * n);
    vstore4(fma(vload4(i, a0 + 6 * n), vload4(i, a1 + 6 * n), vload4(i, a2 + 6 * n)), i, r + 6 * n);
    vstore8(fma(vload8(i, a0 + 10 * n), vload8(i, a1 + 10 * n), vload8(i, a2 + 10 * n)), i, r + 10 * n);
    vstore16(fma(vload16(i, a0 + 18 * n), vload16(i, a1 + 18 * n), vload16(i, a2 + 18 * n)), i, r + 18 * n);
}
