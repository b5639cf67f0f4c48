//@ kernel atom64_local
//@ global 1024
//@ local 128
//@ arg in long 1024 random -1000000000000 1000000000000
//@ arg out long 32
// 64-bit atom_* on __local long counters (init by work-item 0, barrier, accumulate, barrier),
// per-group results written out.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atom64_local(__global const long *in, __global long *out)
{
    volatile __local long c[4];
    int l = get_local_id(0);
    long v = in[get_global_id(0)];
    if (l == 0) { c[0] = 0; c[1] = 0x7fffffffffffffffL; c[2] = 0; c[3] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&c[0], v);
    atom_min(&c[1], v);
    atom_inc(&c[2]);
    atom_or(&c[3], 1L << (l & 63));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 4) out[get_group_id(0) * 4 + l] = c[l];
}
