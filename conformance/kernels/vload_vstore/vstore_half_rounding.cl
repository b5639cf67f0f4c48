//@ kernel vstore_half_rounding
//@ global 1024
//@ local 64
//@ arg in float 4096 random -70000 70000
//@ arg in float 1024 special
//@ arg out half 4096
//@ arg out half 4096
//@ arg out half 4096
//@ arg out half 4096
//@ arg out half 4096
//@ arg out half 1024
// vstore_half with every rounding mode (default, _rte, _rtz, _rtp, _rtn) on values that overflow
// half (|x| > 65504), need rounding, or are special (inf, NaN, denormals), scalar and
// vstore_half4 forms.
__kernel void vstore_half_rounding(__global const float *in, __global const float *sp,
                                   __global half *d, __global half *e, __global half *z,
                                   __global half *p, __global half *m, __global half *s)
{
    size_t i = get_global_id(0);
    float4 v = vload4(i, in) * (float4)(1.0f, 0.001f, 0.000001f, 1.0e-9f);
    vstore_half4(v, i, d);
    vstore_half4_rte(v, i, e);
    vstore_half4_rtz(v, i, z);
    vstore_half4_rtp(v, i, p);
    vstore_half_rtn(v.x, 4 * i, m);
    vstore_half2_rtn(v.yz, 2 * i, m + 1);
    vstore_half_rtn(v.w, 4 * i + 3, m);
    vstore_half(sp[i], i, s);
}
