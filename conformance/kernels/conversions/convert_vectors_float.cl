//@ kernel convert_vectors_float
//@ global 1024
//@ local 64
//@ arg in float 16384 random -120 120
//@ arg out uchar 16384
//@ arg out short 16384
//@ arg out float 16384
// convert_ between float vectors and char/uchar/short/ushort vectors (2, 3, 4, 8, 16 lanes)
// with _sat and rounding modes, and back from integer vectors to float16.
__kernel void convert_vectors_float(__global const float *in, __global uchar *ou,
                                    __global short *os, __global float *of)
{
    int i = get_global_id(0);
    float16 v = vload16(i, in);
    uchar16 u = convert_uchar16_sat_rte(v);
    char8 c = convert_char8_rtz(v.lo);
    short16 s = convert_short16_rtn(v * 100.0f);
    ushort4 us = convert_ushort4_sat_rtp(v.s4567);
    char3 c3 = convert_char3_sat(v.s89A * 2.0f);
    uchar2 u2 = convert_uchar2_sat(v.sBC);
    vstore16(u ^ (uchar16)(as_uchar8(c), as_uchar8(us)), i, ou);
    vstore16(s + (short16)((short3)(c3.x, c3.y, c3.z), (short2)(u2.x, u2.y), (short8)(0), (short3)(1)), i, os);
    vstore16(convert_float16(u) + convert_float16(s) * 0.01f, i, of);
}
