//@ kernel pointer_outputs
//@ global 1024
//@ local 64
//@ compare ulp 4
//@ arg in float 1024 random -20 20
//@ arg in float 1024 random 0.5 10
//@ arg out float 8192
//@ arg out int 3072
// fract, modf, frexp, lgamma_r, remquo and sincos with their pointer outputs in __private,
// __local and __global memory (sincos 4 ulp bounds the file; fract/modf/frexp/remquo are exact,
// lgamma_r's bound is undefined in OpenCL 1.2 but results are reproducible).
__kernel void pointer_outputs(__global const float *a, __global const float *b,
                              __global float *o, __global int *oi)
{
    __local float lf[64];
    __local int li[64];
    int i = get_global_id(0), l = get_local_id(0);
    float x = a[i], y = b[i];
    __global float *r = o + 8 * i;
    __global int *ri = oi + 3 * i;
    float pf; int pi;
    r[0] = fract(x, &pf) + pf * 2.0f;                 /* private */
    r[1] = modf(x, &lf[l]);                            /* local */
    r[2] = frexp(x, &ri[0]);                           /* global */
    r[3] = lgamma_r(y, &li[l]);                        /* local */
    r[4] = remquo(x, y, &pi);                          /* private */
    r[5] = sincos(x, &r[6]);                           /* global */
    float s2; r[7] = lgamma_r(x + 0.5f, &ri[1]) + remquo(y, x + 40.0f, &ri[2]) + sincos(y, &s2) + s2 + (float)pi;
    barrier(CLK_LOCAL_MEM_FENCE);
    r[1] += lf[l] * 3.0f + (float)li[l];
}
