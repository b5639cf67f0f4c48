//@ kernel barrier_local
//@ global 1024
//@ local 256
//@ arg in int 1024 random -1000000 1000000
//@ arg out int 1024
// barrier(CLK_LOCAL_MEM_FENCE) between phases of exchanges in __local memory: reverse the tile,
// then rotate it by 17, each phase reading what other work-items wrote.
__kernel void barrier_local(__global const int *in, __global int *out)
{
    __local int a[256], b[256];
    int l = get_local_id(0), n = get_local_size(0);
    a[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[n - 1 - l] = a[l] ^ l;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[(l + 17) % n] = b[l] + b[(l + 1) % n] / 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a[l];
}
