//@ kernel pointer_outputs
//@ global 1024
//@ local 64
//@ compare ulp 8
//@ arg in float 1024 random -20 20
//@ arg in float 1024 random 0.5 10
//@ arg out float 11264
//@ arg out int 4096
// fract, modf, frexp, lgamma_r, remquo and sincos with their pointer outputs in __private,
// __local and __global memory. fract/modf/frexp/remquo are exact; sincos has a 4 ulp bound, so
// two conformant libraries may differ by 8 (compare ulp 8). lgamma_r's bound is undefined in
// OpenCL 1.2; its inputs stay where common libraries agree within that: away from lgamma's
// zeros, where a tiny absolute difference is many ulp (a seed once put x + 0.5 next to the zero
// near -2.46: results 19 ulp apart at -0.000326). Positive inputs from 2.5 up; negative ones
// at -n - 0.25 below -5 keep the sign output covered, away from the zeros (within about 1/n! of
// the pole -n) and from the poles themselves, where libraries give the sign differently (x - 5.5
// once rounded to -20 exactly: PoCL -1, the C library's 1). Each function's result has its own slot: a sum
// of several would cancel and amplify the 1-ulp differences.
__kernel void pointer_outputs(__global const float *a, __global const float *b,
                              __global float *o, __global int *oi)
{
    __local float lf[64];
    __local int li[64];
    int i = get_global_id(0), l = get_local_id(0);
    float x = a[i], y = b[i];
    __global float *r = o + 11 * i;
    __global int *ri = oi + 4 * i;
    float pf; int pi;
    r[0] = fract(x, &pf) + pf * 2.0f;                 /* private */
    r[1] = modf(x, &lf[l]);                            /* local */
    r[2] = frexp(x, &ri[0]);                           /* global */
    r[3] = lgamma_r(y + 2.0f, &li[l]);                 /* local */
    r[4] = remquo(x, y, &pi);                          /* private */
    r[5] = sincos(x, &r[6]);                           /* global */
    float s2;
    r[7] = lgamma_r(x < 0.0f ? floor(x) - 5.25f : x + 2.5f, &ri[1]); /* global */
    r[8] = remquo(y, x + 40.0f, &ri[2]);               /* global */
    r[9] = sincos(y, &s2);                             /* private */
    r[10] = s2;
    ri[3] = pi;
    barrier(CLK_LOCAL_MEM_FENCE);
    r[1] += lf[l] * 3.0f + (float)li[l];
}
