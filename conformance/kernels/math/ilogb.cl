//@ kernel math_ilogb
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in float 34816 random -1000000.0 1000000.0
//@ arg out int 34816
// ilogb on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 0 ulp (exact).
__kernel void math_ilogb(__global const float *a0, __global int *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = ilogb(a0[i]);
    vstore2(ilogb(vload2(i, a0 + n)), i, r + n);
    vstore3(ilogb(vload3(i, a0 + 3 * n)), i, r + 3 * n);
    vstore4(ilogb(vload4(i, a0 + 6 * n)), i, r + 6 * n);
    vstore8(ilogb(vload8(i, a0 + 10 * n)), i, r + 10 * n);
    vstore16(ilogb(vload16(i, a0 + 18 * n)), i, r + 18 * n);
}
