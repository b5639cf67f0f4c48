//@ kernel common_double
//@ global 1024
//@ local 64
//@ compare abs 0.000000001
//@ arg in double 4096 random -100 100
//@ arg in double 4096 random 0 1
//@ arg out double 16384
// Common functions on double and double4: clamp, degrees, radians, max, min, mix, step,
// smoothstep, sign.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void common_double(__global const double *a, __global const double *t, __global double *o)
{
    int i = get_global_id(0);
    double4 x = vload4(i, a), u = vload4(i, t);
    vstore4(clamp(x, -50.0, 50.0), 0, o + 16 * i);
    vstore4(degrees(x) + radians(x.wzyx), 1, o + 16 * i);
    vstore4(mix(x, x.yzwx, u) + max(x, u) - min(x, 0.5), 2, o + 16 * i);
    vstore4(step(0.0, x) + smoothstep(0.2, 0.8, u) + sign(x), 3, o + 16 * i);
}
