//@ kernel native_arith
//@ global 1024
//@ local 64
//@ compare rel 0.001
//@ arg in float 1024 random 0.1 100
//@ arg in float 1024 random 0.1 100
//@ arg out float 5120
// native_sqrt, native_rsqrt, native_recip, native_divide, native_powr on positive inputs
// (implementation-defined precision: loose relative bound).
__kernel void native_arith(__global const float *a, __global const float *b, __global float *o)
{
    int i = get_global_id(0);
    float x = a[i], y = b[i];
    o[5 * i] = native_sqrt(x);
    o[5 * i + 1] = native_rsqrt(x);
    o[5 * i + 2] = native_recip(y);
    o[5 * i + 3] = native_divide(x, y);
    o[5 * i + 4] = native_powr(x, y * 0.01f);
}
