//@ kernel atomic_global_uint
//@ global 2048
//@ local 128
//@ arg in uint 2048 random 0 4294967295
//@ arg inout uint 10 random 1000 100000
// atomic_* on __global uint (unsigned min/max/wrap-around add and sub) starting from random
// initial counters; final values do not depend on the order of the work-items.
__kernel void atomic_global_uint(__global const uint *in, volatile __global uint *c)
{
    uint v = in[get_global_id(0)];
    atomic_add(&c[0], v);
    atomic_sub(&c[1], v >> 3);
    atomic_inc(&c[2]);
    atomic_dec(&c[3]);
    atomic_min(&c[4], v);
    atomic_max(&c[5], v);
    atomic_and(&c[6], v | 0xFFFF0000u);
    atomic_or(&c[7], v & 0x00FF00FFu);
    atomic_xor(&c[8], v);
    uint cur = c[9], prev;
    while ((prev = atomic_cmpxchg(&c[9], cur, max(cur, v % 1000000u))) != cur) cur = prev;
}
