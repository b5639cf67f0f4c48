//@ kernel pointer_outputs_vectors
//@ global 1024
//@ local 64
//@ compare ulp 4
//@ arg in float 16384 random -20 20
//@ arg in float 16384 random 0.5 10
//@ arg out float 65536
//@ arg out int 16384
// Vector forms (float2, float3, float4, float8, float16) of fract, modf, frexp, remquo, sincos
// and lgamma_r, outputs through pointers to private vectors and into __global memory.
__kernel void pointer_outputs_vectors(__global const float *a, __global const float *b,
                                      __global float *o, __global int *oi)
{
    int i = get_global_id(0);
    float16 x = vload16(i, a), y = vload16(i, b);
    float16 ip;
    float16 f = fract(x, &ip);
    vstore16(f, 4 * i, o);
    vstore16(ip, 4 * i + 1, o);
    float8 m8; float8 fr8 = modf(x.lo, &m8);
    int4 e4; float4 mant = frexp(x.s89AB, &e4);
    int3 q3; float3 rq = remquo(x.sCDE, y.sCDE, &q3);
    float2 c2; float2 s2 = sincos(x.sF0, &c2);
    int2 sg; float2 lg = lgamma_r(y.s12 + 2.0f, &sg); /* away from lgamma's zeros at 1 and 2 */
    vstore16((float16)(fr8, mant, rq, s2.x), 4 * i + 2, o);
    vstore16((float16)(m8, c2, lg, s2.y, 0.0f, 1.0f, 2.0f), 4 * i + 3, o);
    vstore16((int16)(e4, q3, sg, e4.wzyx, 7, 8, 9), i, oi);
}
