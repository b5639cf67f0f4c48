//@ kernel mem_fences
//@ global 1024
//@ local 64
//@ arg in int 1024 random -1000 1000
//@ arg out int 1024
//@ arg out int 1024
// mem_fence, read_mem_fence and write_mem_fence with local and global flags, used to order a
// work-item's own accesses (single-work-item ordering; visibility to others comes from the
// barriers), including fences inside a loop.
__kernel void mem_fences(__global const int *in, __global int *a, __global int *b)
{
    __local int t[64];
    int g = get_global_id(0), l = get_local_id(0);
    a[g] = in[g];
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    b[g] = a[g] * 3;
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    t[l] = b[g] - 1;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 3; ++k) {
        t[l] += k;
        mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    a[g] = t[63 - l];
    write_mem_fence(CLK_LOCAL_MEM_FENCE);
}
