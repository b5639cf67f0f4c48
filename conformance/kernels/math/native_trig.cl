//@ kernel native_trig
//@ global 1024
//@ local 64
//@ compare none
//@ arg in float 8192 random -3 3
//@ arg out float 8192
//@ arg out float 8192
//@ arg out float 8192
// native_sin, native_cos, native_tan on float8 (precision implementation-defined and results
// near zero: not compared, only built and run).
__kernel void native_trig(__global const float *a, __global float *s, __global float *c,
                          __global float *t)
{
    int i = get_global_id(0);
    float8 x = vload8(i, a);
    vstore8(native_sin(x), i, s);
    vstore8(native_cos(x), i, c);
    vstore8(native_tan(x * 0.4f), i, t);
}
