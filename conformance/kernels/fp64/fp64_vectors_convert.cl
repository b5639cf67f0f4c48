//@ kernel fp64_vectors_convert
//@ global 1024
//@ local 64
//@ arg in double 16384 random -1e9 1e9
//@ arg in float 4096 random -1000 1000
//@ arg out double 16384
//@ arg out float 16384
//@ arg out long 4096
//@ arg out int 4096
// double vectors of every width (2, 3, 4, 8, 16), conversions double <-> float with rounding
// modes, double -> long/int with _sat and rounding modes, as_double / as_long, double
// comparisons and select.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fp64_vectors_convert(__global const double *d, __global const float *f,
                                   __global double *od, __global float *of,
                                   __global long *ol, __global int *oi)
{
    int i = get_global_id(0);
    double16 v = vload16(i, d);
    double8 e = v.lo * v.hi;
    double4 q = e.lo - e.hi;
    double3 t = q.xyz / 3.0;
    double2 p = t.xy + (double2)(t.z);
    float4 g = vload4(i, f);
    double4 gd = convert_double4(g);
    vstore16((double16)(e, q, t.x, p, 1.5) + (double16)(gd, gd, gd, gd), i, od);
    vstore16((float16)(convert_float4(q), convert_float4_rtz(v.lo.lo), convert_float4_rtp(v.hi.lo), convert_float4_rtn(v.hi.hi)), i, of);
    vstore4(convert_long4_sat_rte(v.lo.lo * 1e10) ^ as_long4(q), i, ol);
    vstore4(convert_int4_sat(v.lo.hi) + convert_int4_rtn(gd) + convert_int4(select(gd, -gd, isless(gd, 0.0))), i, oi);
}
