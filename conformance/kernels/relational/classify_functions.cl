//@ kernel classify_functions
//@ global 1024
//@ local 64
//@ arg in float 4096 special
//@ arg in float 4096 random -1 1
//@ arg out int 1024
//@ arg out int 4096
//@ arg out int 4096
// isfinite, isinf, isnan, isnormal, isordered, isunordered and signbit on special values, for
// scalars (0/1) and float2/float3/float4 vectors (-1/0).
__kernel void classify_functions(__global const float *a, __global const float *b,
                                 __global int *s, __global int *v, __global int *w)
{
    int i = get_global_id(0);
    float x = a[4 * i];
    s[i] = isfinite(x) | isinf(x) << 1 | isnan(x) << 2 | isnormal(x) << 3
         | isordered(x, b[i]) << 4 | isunordered(x, b[i]) << 5 | signbit(x) << 6;
    float4 p = vload4(i, a), q = vload4(i, b);
    int4 r = (isfinite(p) & 1) | (isinf(p) & 2) | (isnan(p) & 4) | (isnormal(p) & 8)
           | (isordered(p, q) & 16) | (isunordered(p, q) & 32) | (signbit(p) & 64);
    vstore4(r, i, v);
    int2 r2 = isnan(p.xy) ^ isinf(p.zw);
    int3 r3 = signbit(p.xyz) | isnormal(q.xyz);
    vstore4((int4)(r2, r3.x, r3.y + r3.z), i, w);
}
