//@ kernel as_type
//@ global 1024
//@ local 64
//@ arg in uint 16384 random 0 4294967295
//@ arg out uint 16384
// as_<type> reinterpretation between every same-size pair: uint <-> float, int, uchar4, char4,
// ushort2, short2; ulong <-> double, long, uint2, float2, ushort4, uchar8; uint4 <-> float4,
// char16, short8, int4, ulong2, double2; float3 <-> int3 (16-byte types); uint8/float8/ulong4.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void as_type(__global const uint *in, __global uint *out)
{
    int i = get_global_id(0);
    uint16 w = vload16(i, in);
    uint a = w.s0;
    float f = as_float(a);
    uint b = as_uint(f) ^ as_uint(as_uchar4(a).wzyx) ^ as_uint(as_short2(a).yx) ^ (uint)as_int(f);
    uint2 p = w.s12;
    double d = as_double(p);
    ulong l = as_ulong(d) ^ as_ulong(as_uchar8(p).s76543210) ^ as_ulong(as_float2(p)) ^ as_ulong(as_ushort4(p).wzyx);
    uint4 q = w.s4567;
    float4 fq = as_float4(q);
    uint4 r = as_uint4(fq) ^ as_uint4(as_char16(q).sFEDCBA9876543210) ^ as_uint4(as_short8(q).s10325476)
            ^ as_uint4(as_ulong2(q).yx) ^ as_uint4(as_double2(q)) ^ as_uint4(as_int4(q));
    int3 t = as_int3(as_float3(w.s89AB));
    uint8 e = as_uint8(as_float8(w.s89ABCDEF)) ^ as_uint8(as_ulong4(w.lo).wzyx);
    uint16 res = (uint16)(b, as_uint2(l), r, as_uint(t.x), as_uint(t.y), as_uint(t.z), e.s0123, e.s45);
    res ^= as_uint16(as_float16(w)) * 3u;
    vstore16(res, i, out);
}
