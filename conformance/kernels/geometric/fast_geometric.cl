//@ kernel fast_geometric
//@ global 1024
//@ local 64
//@ compare rel 0.001
//@ arg in float4 1024 random 0.5 10
//@ arg in float4 1024 random -10 -0.5
//@ arg out float 4096
// fast_length, fast_distance and fast_normalize (reduced precision by design: loose bound) on
// float, float2, float3, float4.
__kernel void fast_geometric(__global const float4 *a, __global const float4 *b, __global float *o)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    o[4 * i] = fast_length(x.x) + fast_length(x.xy) + fast_length(x.xyz) + fast_length(x);
    o[4 * i + 1] = fast_distance(x.x, y.x) + fast_distance(x.xy, y.xy) + fast_distance(x.xyz, y.xyz) + fast_distance(x, y);
    float4 n = fast_normalize(x);
    float3 n3 = fast_normalize(x.xyz);
    o[4 * i + 2] = n.x + n.y + n.z + n.w + fast_normalize(x.x);
    o[4 * i + 3] = n3.x + n3.y + n3.z + fast_normalize(x.xy).y;
}
