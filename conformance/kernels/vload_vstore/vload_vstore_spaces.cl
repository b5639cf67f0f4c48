//@ kernel vload_vstore_spaces
//@ global 1024
//@ local 64
//@ arg in float 16384 random -100 100
//@ arg in int 256 random -1000 1000
//@ arg out float 16384
//@ arg out int 4096
// vloadn from every address space (__global, __constant, __local, __private) and vstoren to
// __global, __local and __private, for n = 2, 3, 4, 8, 16.
__kernel void vload_vstore_spaces(__global const float *g, __constant int *c, __global float *o,
                                  __global int *oi)
{
    __local float lf[64 * 16];
    int l = get_local_id(0), i = get_global_id(0);
    vstore16(vload16(i, g), l, lf);
    barrier(CLK_LOCAL_MEM_FENCE);
    int j = (l + 1) & 63;
    float16 a = vload16(j, lf);
    float8 b = vload8(2 * j + 1, lf);
    float4 cc = vload4(4 * j + 2, lf);
    float3 d = vload3(0, lf + 16 * j + 5);
    float2 e = vload2(8 * j + 7, lf);
    float priv[16];
    vstore16(a, 0, priv);
    vstore8(b, 1, priv);
    vstore3(d, 1, priv);
    float4 p4 = vload4(2, priv);
    float2 p2 = vload2(1, priv);
    float3 p3 = vload3(4, priv);
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore4(cc + p4, l, lf);
    vstore2(e * p2, 2 * l, lf + 64 * 8);
    barrier(CLK_LOCAL_MEM_FENCE);
    float16 r = (float16)(vload4((l + 3) & 63, lf), vload2(2 * l + 1, lf + 64 * 8), p3, d, p2, e);
    vstore16(r, i, o);
    int16 ci = vload16(i & 15, c);
    int4 c4 = vload4(i & 63, c);
    int3 c3 = vload3(i & 63, c);
    int2 c2 = vload2(i & 127, c);
    int8 c8 = vload8(i & 31, c);
    vstore4(ci.lo.lo + c4 + (int4)(c3, c2.x + c2.y) + c8.hi, i, oi);
}
