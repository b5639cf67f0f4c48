//@ kernel math_nan
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in uint 34816 random 0 4194303
//@ arg out float 34816
// nan on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 0 ulp (exact).
__kernel void math_nan(__global const uint *a0, __global float *r)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = nan(a0[i]);
    vstore2(nan(vload2(i, a0 + n)), i, r + n);
    vstore3(nan(vload3(i, a0 + 3 * n)), i, r + 3 * n);
    vstore4(nan(vload4(i, a0 + 6 * n)), i, r + 6 * n);
    vstore8(nan(vload8(i, a0 + 10 * n)), i, r + 10 * n);
    vstore16(nan(vload16(i, a0 + 18 * n)), i, r + 18 * n);
}
