//@ kernel convert_float_to_int_rounding
//@ global 1024
//@ local 64
//@ arg in float 4096 random -100 100
//@ arg out int 20480
// convert_int with every rounding mode (default _rtz, _rte, _rtz, _rtp, _rtn) on float, float2,
// float3 (via vload3), float4; in-range values so no _sat is needed.
__kernel void convert_float_to_int_rounding(__global const float *in, __global int *o)
{
    int i = get_global_id(0);
    float x = in[4 * i];
    float4 v = vload4(i, in);
    __global int *r = o + 20 * i;
    r[0] = convert_int(x); r[1] = convert_int_rte(x); r[2] = convert_int_rtz(x);
    r[3] = convert_int_rtp(x); r[4] = convert_int_rtn(x);
    vstore2(convert_int2_rte(v.xy) + convert_int2_rtn(v.zw), 0, r + 5);
    vstore3(convert_int3_rtp(v.xyz) - convert_int3(v.yzw), 0, r + 7);
    vstore4(convert_int4_rte(v), 0, r + 10);
    vstore4(convert_int4_rtz(v * 1.5f) + convert_int4_rtn(-v), 0, r + 14);
    vstore2((int2)(convert_int_rtp(-x), convert_int_rte(x + 0.5f)), 0, r + 18);
}
