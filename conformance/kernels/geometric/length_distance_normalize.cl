//@ kernel length_distance_normalize
//@ global 1024
//@ local 64
//@ compare ulp 16
//@ arg in float4 1024 random 0.5 10
//@ arg in float4 1024 random -10 -0.5
//@ arg out float 18432
// length, distance and normalize on float, float2, float3, float4 (inputs away from zero, all
// components of a positive and of b negative, so no step cancels). Every result has its own
// slot. Tolerance: built from the OpenCL 1.2 operations, the sum of n positive squares is within
// n/2 ulp, sqrt adds 3 ulp, the divide of normalize 2.5 ulp and the subtraction of distance
// 0.5: each library is within about 7 ulp for n <= 4, two libraries within 14 (compare ulp 16).
__kernel void length_distance_normalize(__global const float4 *a, __global const float4 *b,
                                        __global float *o)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    __global float *r = o + 18 * i;
    r[0] = length(x.x);
    r[1] = length(x.xy);
    r[2] = length(x.xyz);
    r[3] = length(x);
    r[4] = distance(x.x, y.x);
    r[5] = distance(x.xy, y.xy);
    r[6] = distance(x.xyz, y.xyz);
    r[7] = distance(x, y);
    vstore4(normalize(x), 0, r + 8);
    vstore3(normalize(y.xyz), 0, r + 12);
    vstore2(normalize(x.zw), 0, r + 15);
    r[17] = normalize(y.x);
}
