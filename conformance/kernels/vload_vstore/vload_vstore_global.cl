//@ kernel vload_vstore_global
//@ global 1024
//@ local 64
//@ arg in short 34816 random -30000 30000
//@ arg out short 34816
//@ arg in ulong 34816 random 0 18446744073709551615
//@ arg out ulong 34816
// vload2/3/4/8/16 and vstore2/3/4/8/16 on __global short and ulong pointers, with offsets and
// unaligned base pointers (pointer + 1: only element alignment is required).
__kernel void vload_vstore_global(__global const short *a, __global short *b,
                                  __global const ulong *c, __global ulong *d)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    b[i] = a[i];
    vstore2(vload2(i, a + n) + (short)1, i, b + n);
    vstore3(vload3(i, a + 3 * n).zxy, i, b + 3 * n);
    vstore4(vload4(i, a + 6 * n) - (short)2, i, b + 6 * n);
    vstore8(vload8(i, a + 10 * n).s76543210, i, b + 10 * n);
    vstore16(vload16(i, a + 18 * n), i, b + 18 * n);
    d[i] = c[i];
    vstore2(vload2(0, c + n + 2 * i), 0, d + n + 2 * i);
    vstore3(vload3(i, c + 3 * n) * 3UL, i, d + 3 * n);
    vstore4(vload4(i, c + 6 * n) ^ 0xFFUL, i, d + 6 * n);
    vstore8(vload8(i, c + 10 * n), i, d + 10 * n);
    vstore16(vload16(0, c + 18 * n + 16 * i + 1 - 1).sFEDCBA9876543210, i, d + 18 * n);
}
