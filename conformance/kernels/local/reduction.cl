//@ kernel reduction
//@ global 4096
//@ local 256
//@ arg in int 4096 random -100000 100000
//@ arg out int 16
//@ arg out long 16
// Tree reduction in a __local argument buffer (sum, int) and in a kernel-scope __local array
// (sum of squares, long), one result per work-group.
__kernel void reduction(__global const int *in, __global int *sums, __global long *sq)
{
    __local long lsq[256];
    __local int ls[256];
    int l = get_local_id(0);
    int v = in[get_global_id(0)];
    ls[l] = v;
    lsq[l] = (long)v * v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s) { ls[l] += ls[l + s]; lsq[l] += lsq[l + s]; }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) { sums[get_group_id(0)] = ls[0]; sq[get_group_id(0)] = lsq[0]; }
}
