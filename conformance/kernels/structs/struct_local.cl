//@ kernel struct_local
//@ global 1024
//@ local 64
//@ arg in int 1024 random -1000 1000
//@ arg in float 1024 random -10 10
//@ arg out float 1024
//@ arg out int 1024
// Arrays of structs in __local memory (declared in the kernel) shared between work-items
// across a barrier, and a struct array read through a __global struct pointer cast.
typedef struct { int key; float val; } kv_t;
__kernel void struct_local(__global const int *keys, __global const float *vals,
                           __global float *outv, __global int *outk)
{
    __local kv_t tile[64];
    int l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    tile[l].key = keys[g];
    tile[l].val = vals[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    kv_t mine = tile[l], other = tile[n - 1 - l];
    kv_t best = mine.key >= other.key ? mine : other;
    outv[g] = best.val + tile[(l + 1) % n].val;
    outk[g] = best.key;
}
