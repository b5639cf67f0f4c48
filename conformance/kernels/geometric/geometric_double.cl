//@ kernel geometric_double
//@ global 512
//@ local 64
//@ compare rel 0.000000001
//@ arg in double4 512 random 0.5 10
//@ arg in double4 512 random -10 -0.5
//@ arg out double4 512
//@ arg out double 2048
// Geometric functions on double, double2, double3, double4: cross, dot, length, distance,
// normalize.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void geometric_double(__global const double4 *a, __global const double4 *b,
                               __global double4 *c, __global double *o)
{
    int i = get_global_id(0);
    double4 x = a[i], y = b[i];
    c[i] = cross(x, y) + (double4)(cross(x.xyz, y.xyz), 0.0) + normalize(x);
    o[4 * i] = dot(x, y) + dot(x.xyz, y.xyz) + dot(x.xy, y.xy) + dot(x.x, y.x);
    o[4 * i + 1] = length(x) + length(x.xyz) + length(x.xy) + length(y.x);
    o[4 * i + 2] = distance(x, y) + distance(x.xyz, y.zyx) + distance(x.xy, y.xy);
    o[4 * i + 3] = normalize(x.xyz).y + normalize(x.xy).x + normalize(y.w);
}
