//@ kernel atom64_global
//@ global 2048
//@ local 64
//@ arg in long 2048 random -1000000000000 1000000000000
//@ arg inout long 9 random 0 0
//@ arg inout ulong 4 random 0 0
// 64-bit atom_* functions (cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics) on
// __global long and ulong with order-independent final values.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atom64_global(__global const long *in, volatile __global long *c,
                            volatile __global ulong *u)
{
    long v = in[get_global_id(0)];
    atom_add(&c[0], v);
    atom_sub(&c[1], v);
    atom_inc(&c[2]);
    atom_dec(&c[3]);
    atom_xchg(&c[4], 123456789012345L);
    long cur = c[5], prev;
    while ((prev = atom_cmpxchg(&c[5], cur, cur + (v >> 20))) != cur) cur = prev;
    atom_min(&c[6], v);
    atom_max(&c[7], v);
    atom_xor(&c[8], v);
    atom_and(&u[0], (ulong)v | 0xFFFFFFFF00000000UL);
    atom_or(&u[1], 1UL << (v & 63));
    atom_max(&u[2], (ulong)v);
    atom_add(&u[3], (ulong)v * 3UL);
}
