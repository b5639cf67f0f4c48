//@ kernel atomic_global_int
//@ global 4096
//@ local 64
//@ arg in int 4096 random -1000 1000
//@ arg inout int 12 random 0 0
// Every atomic_* function of OpenCL C 1.1 on __global int, with order-independent final values:
// add, sub, inc, dec, min, max, and, or, xor, xchg of one common value, cmpxchg in a retry loop
// (an atomic add), and the sum of the values atomic_inc returned (0 + 1 + ... + N-1 whatever the
// order). Counters start at 0 (inout random 0 0).
__kernel void atomic_global_int(__global const int *in, volatile __global int *c)
{
    int i = get_global_id(0), v = in[i];
    atomic_add(&c[0], v);
    atomic_sub(&c[1], v * 3);
    int old = atomic_inc(&c[2]);
    atomic_add(&c[3], old);
    atomic_dec(&c[4]);
    atomic_min(&c[5], v);
    atomic_max(&c[6], v);
    atomic_and(&c[7], ~(1 << (i & 31)) | (v & 0x7ff00000));
    atomic_or(&c[8], 1 << (v & 31));
    atomic_xor(&c[9], v);
    atomic_xchg(&c[10], 42);
    int cur = c[11], prev;
    while ((prev = atomic_cmpxchg(&c[11], cur, cur + (v & 255))) != cur) cur = prev;
}
