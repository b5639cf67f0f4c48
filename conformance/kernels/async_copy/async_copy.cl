//@ kernel async_copy
//@ global 1024
//@ local 128
//@ arg in float4 1024 random -100 100
//@ arg out float4 1024
// async_work_group_copy global->local and local->global of float4, wait_group_events on each,
// with processing in between.
__kernel void async_copy(__global const float4 *in, __global float4 *out)
{
    __local float4 tile[128];
    int l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
    event_t e = async_work_group_copy(tile, in + base, (size_t)n, 0);
    wait_group_events(1, &e);
    float4 v = tile[n - 1 - l] * 0.5f + tile[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t f = async_work_group_copy(out + base, tile, (size_t)n, 0);
    wait_group_events(1, &f);
}
