//@ kernel atom_forms
//@ global 2048
//@ local 64
//@ arg in int 2048 random -1000 1000
//@ arg inout int 11 random 0 0
//@ arg out int 32
// The OpenCL 1.0 atom_* extension forms (cl_khr_global_int32_base_atomics,
// cl_khr_global_int32_extended_atomics, cl_khr_local_int32_base/extended_atomics) on global and
// local int, with order-independent results.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
__kernel void atom_forms(__global const int *in, volatile __global int *c, __global int *grp)
{
    __local int lc[2];
    int i = get_global_id(0), l = get_local_id(0), v = in[i];
    if (l == 0) { lc[0] = 0; lc[1] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&c[0], v);
    atom_sub(&c[1], v);
    atom_inc(&c[2]);
    atom_dec(&c[3]);
    atom_min(&c[4], v);
    atom_max(&c[5], v);
    atom_and(&c[6], ~(1 << (i & 31)));
    atom_or(&c[7], 1 << (v & 31));
    atom_xor(&c[8], v);
    atom_xchg(&c[9], -7);
    int cur = c[10], prev;
    while ((prev = atom_cmpxchg(&c[10], cur, cur + 1)) != cur) cur = prev;
    atom_add(&lc[0], v);
    atom_max(&lc[1], v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) { grp[get_group_id(0)] = lc[0] + lc[1]; }
}
