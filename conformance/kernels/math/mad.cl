//@ kernel math_mad
//@ global 1024
//@ local 64
//@ compare rel 0.000001
//@ arg in float 34816 random 0 10
//@ arg in float 34816 random 0 10
//@ arg in float 34816 random 0 10
//@ arg out float 34816
// mad on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound any (mad).
__kernel void math_mad(__global const float *a0, __global const float *a1, __global const float *a2, __global float *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = mad(a0[i], a1[i], a2[i]);
    vstore2(mad(vload2(i, a0 + n), vload2(i, a1 + n), vload2(i, a2 + n)), i, r + n);
    vstore3(mad(vload3(i, a0 + 3 * n), vload3(i, a1 + 3 * n), vload3(i, a2 + 3 * n)), i, r + 3 * n);
    vstore4(mad(vload4(i, a0 + 6 * n), vload4(i, a1 + 6 * n), vload4(i, a2 + 6 * n)), i, r + 6 * n);
    vstore8(mad(vload8(i, a0 + 10 * n), vload8(i, a1 + 10 * n), vload8(i, a2 + 10 * n)), i, r + 10 * n);
    vstore16(mad(vload16(i, a0 + 18 * n), vload16(i, a1 + 18 * n), vload16(i, a2 + 18 * n)), i, r + 18 * n);
}
