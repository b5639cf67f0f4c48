//@ kernel convert_sat
//@ global 1024
//@ local 64
//@ arg in float 4096 special
//@ arg in float 4096 random -1e10 1e10
//@ arg in int 4096 random -2147483648 2147483647
//@ arg out uchar 4096
//@ arg out short 4096
//@ arg out int 8192
//@ arg out uint 4096
//@ arg out long 4096
//@ arg out char 4096
// Saturating conversions: float (special values and out-of-range values: NaN -> 0, inf clamps)
// to uchar, short, int, uint, long with _sat and rounding modes, and int to char/ushort _sat.
__kernel void convert_sat(__global const float *sp, __global const float *big, __global const int *n,
                          __global uchar *ouc, __global short *os, __global int *oi,
                          __global uint *ou, __global long *ol, __global char *oc)
{
    int i = get_global_id(0);
    float4 s = vload4(i, sp), b = vload4(i, big);
    int4 k = vload4(i, n);
    vstore4(convert_uchar4_sat(s) ^ convert_uchar4_sat_rte(b), i, ouc);
    vstore4(convert_short4_sat_rtn(b) ^ convert_short4_sat(s), i, os);
    vstore4(convert_int4_sat(s), i, oi);
    vstore4(convert_int4_sat_rtp(b), i + 1024, oi);
    vstore4(convert_uint4_sat(b) + convert_uint4_sat_rtz(s), i, ou);
    vstore4(convert_long4_sat(s) + convert_long4_sat_rte(b), i, ol);
    vstore4(convert_char4_sat(k) ^ as_char4(convert_ushort2_sat(k.xy)), i, oc);
}
