//@ kernel math_tanpi
//@ global 1024
//@ local 64
//@ compare ulp 6
//@ arg in float 34816 random -10 10
//@ arg out float 34816
// tanpi on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 6 ulp.
__kernel void math_tanpi(__global const float *a0, __global float *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = tanpi(a0[i]);
    vstore2(tanpi(vload2(i, a0 + n)), i, r + n);
    vstore3(tanpi(vload3(i, a0 + 3 * n)), i, r + 3 * n);
    vstore4(tanpi(vload4(i, a0 + 6 * n)), i, r + 6 * n);
    vstore8(tanpi(vload8(i, a0 + 10 * n)), i, r + 10 * n);
    vstore16(tanpi(vload16(i, a0 + 18 * n)), i, r + 18 * n);
}
