//@ kernel load_half_forms
//@ global 1024
//@ local 64
//@ arg in half 34816 random -1000 1000
//@ arg out float 34816
// vload_half and vload_halfn (n = 2, 3, 4, 8, 16) from __global half storage, converting to
// float exactly; also vload_half from __local and __private copies (half arrays cannot be
// declared without cl_khr_fp16, so they are ushort arrays seen through half pointers).
__kernel void load_half_forms(__global const half *h, __global float *o)
{
    __local ushort lraw[64];
    __local half *lh = (__local half *)lraw;
    size_t i = get_global_id(0), n = get_global_size(0), l = get_local_id(0);
    lraw[l] = ((__global const ushort *)h)[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    ushort praw[2];
    praw[0] = ((__global const ushort *)h)[(i + 1) % n];
    praw[1] = ((__global const ushort *)h)[(i + 2) % n];
    half *ph = (half *)praw;
    o[i] = vload_half(i, h) + vload_half((l + 1) & 63, lh) * vload_half(1, ph);
    vstore2(vload_half2(i, h + n), i, o + n);
    vstore3(vload_half3(i, h + 3 * n), i, o + 3 * n);
    vstore4(vload_half4(i, h + 6 * n), i, o + 6 * n);
    vstore8(vload_half8(i, h + 10 * n), i, o + 10 * n);
    vstore16(vload_half16(i, h + 18 * n), i, o + 18 * n);
}
