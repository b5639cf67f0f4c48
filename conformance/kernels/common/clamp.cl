//@ kernel common_clamp
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in float 34816 random -100 100
//@ arg in float 34816 random -50 0
//@ arg in float 34816 random 0 50
//@ arg out float 34816
//@ arg out float 33792
// clamp(x, minval, maxval) with minval <= maxval (0 ulp).
// float, float2, float3, float4, float8, float16; second output: the forms with scalar arguments.
#define F(x, y, z) (clamp(x, y, z))
#define S(x, y, z) (clamp(x, y, z))
__kernel void common_clamp(__global const float *a, __global const float *b, __global const float *c,
                        __global float *r, __global float *s)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = F(a[i], b[i], c[i]);
    vstore2(F(vload2(i, a + n), vload2(i, b + n), vload2(i, c + n)), i, r + n);
    vstore2(S(vload2(i, a + n), b[i], c[i]), i, s);
    vstore3(F(vload3(i, a + 3 * n), vload3(i, b + 3 * n), vload3(i, c + 3 * n)), i, r + 3 * n);
    vstore3(S(vload3(i, a + 3 * n), b[i], c[i]), i, s + 2 * n);
    vstore4(F(vload4(i, a + 6 * n), vload4(i, b + 6 * n), vload4(i, c + 6 * n)), i, r + 6 * n);
    vstore4(S(vload4(i, a + 6 * n), b[i], c[i]), i, s + 5 * n);
    vstore8(F(vload8(i, a + 10 * n), vload8(i, b + 10 * n), vload8(i, c + 10 * n)), i, r + 10 * n);
    vstore8(S(vload8(i, a + 10 * n), b[i], c[i]), i, s + 9 * n);
    vstore16(F(vload16(i, a + 18 * n), vload16(i, b + 18 * n), vload16(i, c + 18 * n)), i, r + 18 * n);
    vstore16(S(vload16(i, a + 18 * n), b[i], c[i]), i, s + 17 * n);
}
