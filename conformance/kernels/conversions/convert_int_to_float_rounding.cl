//@ kernel convert_int_to_float_rounding
//@ global 1024
//@ local 64
//@ arg in int 4096 random -2147483648 2147483647
//@ arg in long 4096 random -9223372036854775807 9223372036854775807
//@ arg in uint 4096 random 0 4294967295
//@ arg out float 16384
//@ arg out float 4096
// int, uint and long to float (inexact for large magnitudes) with default rounding (_rte) and
// explicit _rte, _rtz, _rtp, _rtn; vector and scalar forms.
__kernel void convert_int_to_float_rounding(__global const int *n, __global const long *l,
                                            __global const uint *u, __global float *o,
                                            __global float *s)
{
    int i = get_global_id(0);
    int4 a = vload4(i, n);
    long4 b = vload4(i, l);
    uint4 c = vload4(i, u);
    vstore4(convert_float4(a) + convert_float4_rtz(c), 4 * i, o);
    vstore4(convert_float4_rte(b), 4 * i + 1, o);
    vstore4(convert_float4_rtz(b) - convert_float4_rtp(a), 4 * i + 2, o);
    vstore4(convert_float4_rtn(b) + convert_float4_rtn(c), 4 * i + 3, o);
    s[4 * i] = convert_float_rtp(l[4 * i]);
    s[4 * i + 1] = convert_float_rtn(n[4 * i]);
    s[4 * i + 2] = convert_float(u[4 * i]);
    s[4 * i + 3] = (float)l[4 * i + 1];
}
