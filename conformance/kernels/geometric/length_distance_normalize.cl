//@ kernel length_distance_normalize
//@ global 1024
//@ local 64
//@ compare rel 0.00001
//@ arg in float4 1024 random 0.5 10
//@ arg in float4 1024 random -10 -0.5
//@ arg out float 8192
// length, distance and normalize on float, float2, float3, float4 (inputs away from zero so a
// relative bound is meaningful).
__kernel void length_distance_normalize(__global const float4 *a, __global const float4 *b,
                                        __global float *o)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    __global float *r = o + 8 * i;
    r[0] = length(x.x) + length(x.xy) * 10.0f;
    r[1] = length(x.xyz) + length(x);
    r[2] = distance(x.x, y.x) + distance(x.xy, y.xy);
    r[3] = distance(x.xyz, y.xyz) + distance(x, y);
    float4 n = normalize(x);
    float3 n3 = normalize(y.xyz);
    float2 n2 = normalize(x.zw);
    r[4] = n.x + n.w;
    r[5] = n3.y - n3.z;
    r[6] = n2.x + normalize(y.x);
    r[7] = n.y + n.z;
}
