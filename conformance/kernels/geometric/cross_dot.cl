//@ kernel cross_dot
//@ global 1024
//@ local 64
//@ compare abs 0.001
//@ arg in float4 1024 random -10 10
//@ arg in float4 1024 random -10 10
//@ arg out float4 1024
//@ arg out float 4096
// cross on float3 and float4 (w = 0), dot on float, float2, float3, float4 (precision is
// implementation-defined: absolute bound on small inputs).
__kernel void cross_dot(__global const float4 *a, __global const float4 *b, __global float4 *c,
                        __global float *d)
{
    int i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float3 c3 = cross(x.xyz, y.xyz);
    c[i] = cross(x, y) + (float4)(c3, 1.0f);
    d[4 * i] = dot(x.x, y.x);
    d[4 * i + 1] = dot(x.xy, y.xy);
    d[4 * i + 2] = dot(x.xyz, y.xyz);
    d[4 * i + 3] = dot(x, y);
}
