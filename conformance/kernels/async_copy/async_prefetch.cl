//@ kernel async_prefetch
//@ global 1024
//@ local 64
//@ arg in uchar16 1024 random 0 255
//@ arg in short 1024 random -1000 1000
//@ arg out ushort 1024
// prefetch (a hint with no visible effect) on global data, async copies of uchar16 and short
// elements into __local memory with two events waited on together.
__kernel void async_prefetch(__global const uchar16 *px, __global const short *w, __global ushort *out)
{
    __local uchar16 tile[64];
    __local short wt[64];
    int l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
    prefetch(px + base, (size_t)n);
    prefetch(w + base, (size_t)n);
    event_t ev[2];
    ev[0] = async_work_group_copy(tile, px + base, (size_t)n, 0);
    ev[1] = async_work_group_copy(wt, w + base, (size_t)n, 0);
    wait_group_events(2, ev);
    uchar16 v = tile[(l + 1) % n];
    ushort8 a = convert_ushort8(v.lo) + convert_ushort8(v.hi);
    ushort4 b = a.lo + a.hi;
    ushort s = b.x + b.y + b.z + b.w;
    out[base + l] = s + (ushort)wt[l];
}
