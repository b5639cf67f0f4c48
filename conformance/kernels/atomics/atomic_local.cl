//@ kernel atomic_local
//@ global 2048
//@ local 256
//@ arg in int 2048 random -5000 5000
//@ arg out int 80
// atomic_* on __local int and uint counters, initialised by work-item 0 before a barrier,
// then written to the group's slice of the output after a second barrier.
__kernel void atomic_local(__global const int *in, __global int *out)
{
    volatile __local int c[6];
    volatile __local uint u[4];
    int l = get_local_id(0), v = in[get_global_id(0)];
    if (l == 0) {
        c[0] = 0; c[1] = 0; c[2] = 0; c[3] = 0x7fffffff; c[4] = -0x7fffffff; c[5] = 0;
        u[0] = 0xFFFFFFFFu; u[1] = 0; u[2] = 0; u[3] = 100;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&c[0], v);
    atomic_sub(&c[1], v);
    atomic_inc(&c[2]);
    atomic_min(&c[3], v);
    atomic_max(&c[4], v);
    atomic_xor(&c[5], v);
    atomic_and(&u[0], (uint)v | 0xF0F0F0F0u);
    atomic_or(&u[1], 1u << (v & 31));
    atomic_dec(&u[2]);
    uint cur = u[3], prev;
    while ((prev = atomic_cmpxchg(&u[3], cur, cur + 1u)) != cur) cur = prev;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 10) {
        int val = l < 6 ? c[l] : (int)u[l - 6];
        out[get_group_id(0) * 10 + l] = val;
    }
}
