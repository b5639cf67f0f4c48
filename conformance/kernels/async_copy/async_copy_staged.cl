//@ kernel async_copy_staged
//@ global 512
//@ local 64
//@ arg in char 3584 random -100 100
//@ arg out char 3584
//@ arg local char 448
//@ arg scalar int 7
// Each work-item stages several elements into local memory in a loop (after clearing its part
// in another loop), then the group writes the tile out with async_work_group_copy and
// wait_group_events. Loops between barriers: the stoppable form of such a kernel once made
// PoCL 3.1's work-group compiler abort (a stopped group returned early, making the later
// barriers conditional; docs/opencl-c-safe-points.md).
__kernel void async_copy_staged(__global const char *src, __global char *dst, __local char *tile, int per_item)
{
    int l = get_local_id(0), n = get_local_size(0);
    for (int i = 0; i < per_item; i++)
        tile[l * per_item + i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < per_item; i++)
        tile[l * per_item + i] = (char)(src[get_global_id(0) * per_item + i] ^ (char)i);
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(dst + get_group_id(0) * n * per_item, tile, (size_t)(n * per_item), 0);
    wait_group_events(1, &e);
}
