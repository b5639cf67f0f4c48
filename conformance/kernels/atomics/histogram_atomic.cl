//@ kernel histogram_atomic
//@ global 8192
//@ local 256
//@ arg in uchar 8192 random 0 255
//@ arg inout uint 64 random 0 0
// A 64-bin histogram built with __local atomic_inc per work-group, then merged into the global
// histogram with one atomic_add per bin and group.
__kernel void histogram_atomic(__global const uchar *in, volatile __global uint *hist)
{
    volatile __local uint bins[64];
    int l = get_local_id(0);
    if (l < 64) bins[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[get_global_id(0)] >> 2]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 64) atomic_add(&hist[l], bins[l]);
}
