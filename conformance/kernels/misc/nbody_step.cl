//@ kernel nbody_step
//@ global 512
//@ local 64
//@ compare rel 0.0001 abs 0.000001
// (abs: a velocity where vel and acc*dt, each of order 1, cancel to near 0 carries the error of
// its summands, not of its own size: seed 75885277693228 gave -6.7045e-05 against -6.7055e-05)
//@ arg in float4 512 random -10 10
//@ arg in float4 512 random -1 1
//@ arg scalar float 0.01
//@ arg out float4 512
//@ arg out float4 512
// One n-body integration step: each body sums softened gravitational accelerations from all
// bodies, staged tile by tile in __local memory (w of position = mass, made positive).
__kernel void nbody_step(__global const float4 *pos, __global const float4 *vel, float dt,
                         __global float4 *npos, __global float4 *nvel)
{
    __local float4 tile[64];
    int i = get_global_id(0), l = get_local_id(0), n = get_global_size(0);
    float4 p = pos[i];
    float3 acc = (float3)(0.0f);
    for (int base = 0; base < n; base += 64) {
        float4 q = pos[base + l];
        q.w = fabs(q.w) + 0.1f;
        tile[l] = q;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 64; ++k) {
            float3 d = tile[k].xyz - p.xyz;
            float r2 = dot(d, d) + 0.01f;
            float inv = rsqrt(r2);
            acc += d * (tile[k].w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float3 v = vel[i].xyz + acc * dt;
    nvel[i] = (float4)(v, 0.0f);
    npos[i] = (float4)(p.xyz + v * dt, p.w);
}
