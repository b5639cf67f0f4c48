//@ kernel int_clz
//@ global 1024
//@ local 64
//@ arg in uchar 278528 random 0 255
//@ arg out uchar 1044480
// clz: count leading zeros.
// Every type in {char, uchar, short, ushort, int, uint, long, ulong}, scalar and 2, 3, 4, 8, 16 lanes; inputs are random bytes
// reinterpreted as each type, each (type, width) result has its own output region.
__kernel void int_clz(__global const uchar *a0, __global uchar *out)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        __global const char *x0 = (__global const char *)a0;
        __global char *r = (__global char *)(out + 0);
        const char sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const char x = x0[i]; r[i] = clz(x); }
        { const char2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const char3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const char4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const char8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const char16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const uchar *x0 = (__global const uchar *)a0;
        __global uchar *r = (__global uchar *)(out + 34816);
        const uchar sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uchar x = x0[i]; r[i] = clz(x); }
        { const uchar2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const uchar3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const uchar4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const uchar8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const uchar16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const short *x0 = (__global const short *)a0;
        __global short *r = (__global short *)(out + 69632);
        const short sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const short x = x0[i]; r[i] = clz(x); }
        { const short2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const short3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const short4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const short8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const short16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const ushort *x0 = (__global const ushort *)a0;
        __global ushort *r = (__global ushort *)(out + 139264);
        const ushort sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const ushort x = x0[i]; r[i] = clz(x); }
        { const ushort2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const ushort3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const ushort4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const ushort8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const ushort16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const int *x0 = (__global const int *)a0;
        __global int *r = (__global int *)(out + 208896);
        const int sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const int x = x0[i]; r[i] = clz(x); }
        { const int2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const int3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const int4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const int8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const int16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const uint *x0 = (__global const uint *)a0;
        __global uint *r = (__global uint *)(out + 348160);
        const uint sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uint x = x0[i]; r[i] = clz(x); }
        { const uint2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const uint3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const uint4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const uint8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const uint16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const long *x0 = (__global const long *)a0;
        __global long *r = (__global long *)(out + 487424);
        const long sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const long x = x0[i]; r[i] = clz(x); }
        { const long2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const long3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const long4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const long8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const long16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
    {
        __global const ulong *x0 = (__global const ulong *)a0;
        __global ulong *r = (__global ulong *)(out + 765952);
        const ulong sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const ulong x = x0[i]; r[i] = clz(x); }
        { const ulong2 x = vload2(i, x0 + n); vstore2(clz(x), i, r + n); }
        { const ulong3 x = vload3(i, x0 + 3 * n); vstore3(clz(x), i, r + 3 * n); }
        { const ulong4 x = vload4(i, x0 + 6 * n); vstore4(clz(x), i, r + 6 * n); }
        { const ulong8 x = vload8(i, x0 + 10 * n); vstore8(clz(x), i, r + 10 * n); }
        { const ulong16 x = vload16(i, x0 + 18 * n); vstore16(clz(x), i, r + 18 * n); }
    }
}
