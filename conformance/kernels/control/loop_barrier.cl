//@ kernel loop_barrier
//@ global 1024
//@ local 128
//@ arg in int 1024 random -1000 1000
//@ arg scalar int 5
//@ arg out int 1024
// Loops containing barriers with uniform trip counts: a for loop whose count is a kernel
// argument, a while loop whose count depends on get_local_size, and a barrier inside a nested
// uniform loop (iterated neighbour averaging in __local memory, double-buffered).
__kernel void loop_barrier(__global const int *in, int rounds, __global int *out)
{
    __local int buf[2][128];
    int l = get_local_id(0), n = get_local_size(0);
    buf[0][l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int cur = 0;
    for (int r = 0; r < rounds; ++r) {
        for (int sub = 0; sub < 2; ++sub) {
            int left = buf[cur][(l + n - 1) % n], right = buf[cur][(l + 1) % n];
            buf[cur ^ 1][l] = (left + 2 * buf[cur][l] + right) / 4 + sub;
            barrier(CLK_LOCAL_MEM_FENCE);
            cur ^= 1;
        }
    }
    int stride = n;
    while (stride > 1) {
        stride >>= 1;
        if (l < stride) buf[cur][l] = max(buf[cur][l], buf[cur][l + stride]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[cur][l] * 2 + buf[cur][0];
}
