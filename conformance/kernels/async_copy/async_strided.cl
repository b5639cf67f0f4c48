//@ kernel async_strided
//@ global 512
//@ local 64
//@ arg in int 2048 random -100000 100000
//@ arg out int 2048
// async_work_group_strided_copy: gathering every 4th int (one channel of interleaved data) into
// __local memory, and scattering back with stride 4; two copies chained on one event.
__kernel void async_strided(__global const int *in, __global int *out)
{
    __local int ch[4][64];
    int l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n * 4;
    event_t e = 0;
    for (int c = 0; c < 4; ++c)
        e = async_work_group_strided_copy(ch[c], in + base + c, (size_t)n, 4, e);
    wait_group_events(1, &e);
    int r = ch[0][l] + ch[1][l], g = ch[2][l] - ch[3][l];
    barrier(CLK_LOCAL_MEM_FENCE);
    ch[0][l] = g; ch[1][l] = r; ch[2][l] = max(r, g); ch[3][l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t evs[4];
    for (int c = 0; c < 4; ++c)
        evs[c] = async_work_group_strided_copy(out + base + c, ch[c], (size_t)n, 4, 0);
    wait_group_events(4, evs);
}
