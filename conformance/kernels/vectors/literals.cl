//@ kernel literals
//@ global 512
//@ local 64
//@ arg in float 512 random -100 100
//@ arg out float 16384
//@ arg out int 8192
// Vector literals: scalar splat, all lanes given, mixtures of scalars and smaller vectors,
// nested literals, literals of every width, integer-to-float scalar splat and vector casts
// between same-size types via as_ (not convert_).
__kernel void literals(__global const float *in, __global float *of, __global int *oi)
{
    size_t i = get_global_id(0);
    float x = in[i];
    float2 a = (float2)(x, 1.0f);
    float3 b = (float3)(a, x * 2.0f);
    float4 c = (float4)(a, a.yx);
    float4 d = (float4)(x);
    float8 e = (float8)(c, (float4)(b, 3.0f));
    float16 f = (float16)(e, (float2)(4.0f), 5.0f, x, (float4)(1.0f, 2.0f, 3.0f, x));
    __global float *r = of + i * 32;
    vstore2(a, 0, r);
    vstore3(b, 0, r + 2);
    vstore4(c + d, 0, r + 5);
    vstore8(e, 0, r + 9);
    vstore16(f, 1, r);
    vstore3((float3)(7.0f) + b, 0, r + 17 - 3 + 0);
    int16 k = (int16)((int4)(1, 2, 3, 4), (int2)(5), 6, 7, (int8)((int)x));
    vstore16(k, i, oi);
}
