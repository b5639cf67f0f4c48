//@ kernel atomic_float_xchg
//@ global 1024
//@ local 64
//@ arg in float 1024 random -10 10
//@ arg inout float 1024 random 0 1
// atomic_xchg on __global and __local float. Each work-item owns one global slot (no contention,
// so the returned old value is deterministic); the local exchange uses a common value.
__kernel void atomic_float_xchg(__global const float *in, volatile __global float *io)
{
    volatile __local float shared;
    int i = get_global_id(0), l = get_local_id(0);
    if (l == 0) shared = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_xchg(&shared, 2.5f);
    float old = atomic_xchg(&io[i], in[i]);
    barrier(CLK_LOCAL_MEM_FENCE);
    io[i] = io[i] + old * shared;
}
