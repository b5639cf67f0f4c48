//@ kernel barrier_global
//@ global 1024
//@ local 128
//@ arg in float 1024 random -10 10
//@ arg out float 1024
//@ arg out float 1024
// barrier(CLK_GLOBAL_MEM_FENCE) and barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE): work-items
// of a group exchange data through a __global scratch buffer (the first output) within their
// own group's slice.
__kernel void barrier_global(__global const float *in, __global float *scratch, __global float *out)
{
    int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int base = get_group_id(0) * n;
    scratch[g] = in[g] * 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    float v = scratch[base + (l + 5) % n];
    barrier(CLK_GLOBAL_MEM_FENCE);
    scratch[g] = v + 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    out[g] = scratch[base + n - 1 - l] - v;
}
