//@ kernel vloada_vstorea_half
//@ global 1024
//@ local 64
//@ arg in half 16384 random -100 100
//@ arg in float 16384 random -100000 100000
//@ arg out float 16384
//@ arg out half 16384
// vloada_halfn / vstorea_halfn (aligned: a half3 occupies 4 halves) for n = 2, 3, 4, 8, 16,
// with every rounding mode on the stores.
__kernel void vloada_vstorea_half(__global const half *h, __global const float *f,
                                  __global float *o, __global half *oh)
{
    size_t i = get_global_id(0);
    __global const half *hb = h + 16 * i;
    __global half *ob = oh + 16 * i;
    float2 a = vloada_half2(0, hb);
    float3 b = vloada_half3(1, hb);       /* halves 4..6 (7 is padding, not read) */
    float4 c = vloada_half4(2, hb);
    float8 d = vloada_half8(1, hb);
    float16 e = vloada_half16(0, hb);
    vstore16(e + (float16)(a, b.x, b.y, b.z, 0.0f, c, d.lo, a), i, o);
    float16 x = vload16(i, f);
    vstorea_half2(x.s01, 0, ob);
    vstorea_half2_rte(x.s23, 1, ob);
    vstorea_half4_rtz(x.s4567, 1, ob);
    vstorea_half8_rtp(x.s89ABCDEF, 1, ob);
    vstorea_half3_rtn(x.s012, 0, ob);
    ((__global ushort *)ob)[3] = ((__global ushort *)ob)[2];
}
