//@ kernel int_max
//@ global 1024
//@ local 64
//@ arg in uchar 278528 random 0 255
//@ arg in uchar 278528 random 0 255
//@ arg out uchar 1044480
// max: max, vector and vector-with-scalar forms (xor-combined).
// Every type in {char, uchar, short, ushort, int, uint, long, ulong}, scalar and 2, 3, 4, 8, 16 lanes; inputs are random bytes
// reinterpreted as each type, each (type, width) result has its own output region.
__kernel void int_max(__global const uchar *a0, __global const uchar *a1, __global uchar *out)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        __global const char *x0 = (__global const char *)a0;
        __global const char *y0 = (__global const char *)a1;
        __global char *r = (__global char *)(out + 0);
        const char sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const char x = x0[i]; const char y = y0[i]; r[i] = max(x, y) ^ max(x, (char)sy); }
        { const char2 x = vload2(i, x0 + n); const char2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (char)sy), i, r + n); }
        { const char3 x = vload3(i, x0 + 3 * n); const char3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (char)sy), i, r + 3 * n); }
        { const char4 x = vload4(i, x0 + 6 * n); const char4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (char)sy), i, r + 6 * n); }
        { const char8 x = vload8(i, x0 + 10 * n); const char8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (char)sy), i, r + 10 * n); }
        { const char16 x = vload16(i, x0 + 18 * n); const char16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (char)sy), i, r + 18 * n); }
    }
    {
        __global const uchar *x0 = (__global const uchar *)a0;
        __global const uchar *y0 = (__global const uchar *)a1;
        __global uchar *r = (__global uchar *)(out + 34816);
        const uchar sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uchar x = x0[i]; const uchar y = y0[i]; r[i] = max(x, y) ^ max(x, (uchar)sy); }
        { const uchar2 x = vload2(i, x0 + n); const uchar2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (uchar)sy), i, r + n); }
        { const uchar3 x = vload3(i, x0 + 3 * n); const uchar3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (uchar)sy), i, r + 3 * n); }
        { const uchar4 x = vload4(i, x0 + 6 * n); const uchar4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (uchar)sy), i, r + 6 * n); }
        { const uchar8 x = vload8(i, x0 + 10 * n); const uchar8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (uchar)sy), i, r + 10 * n); }
        { const uchar16 x = vload16(i, x0 + 18 * n); const uchar16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (uchar)sy), i, r + 18 * n); }
    }
    {
        __global const short *x0 = (__global const short *)a0;
        __global const short *y0 = (__global const short *)a1;
        __global short *r = (__global short *)(out + 69632);
        const short sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const short x = x0[i]; const short y = y0[i]; r[i] = max(x, y) ^ max(x, (short)sy); }
        { const short2 x = vload2(i, x0 + n); const short2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (short)sy), i, r + n); }
        { const short3 x = vload3(i, x0 + 3 * n); const short3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (short)sy), i, r + 3 * n); }
        { const short4 x = vload4(i, x0 + 6 * n); const short4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (short)sy), i, r + 6 * n); }
        { const short8 x = vload8(i, x0 + 10 * n); const short8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (short)sy), i, r + 10 * n); }
        { const short16 x = vload16(i, x0 + 18 * n); const short16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (short)sy), i, r + 18 * n); }
    }
    {
        __global const ushort *x0 = (__global const ushort *)a0;
        __global const ushort *y0 = (__global const ushort *)a1;
        __global ushort *r = (__global ushort *)(out + 139264);
        const ushort sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const ushort x = x0[i]; const ushort y = y0[i]; r[i] = max(x, y) ^ max(x, (ushort)sy); }
        { const ushort2 x = vload2(i, x0 + n); const ushort2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (ushort)sy), i, r + n); }
        { const ushort3 x = vload3(i, x0 + 3 * n); const ushort3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (ushort)sy), i, r + 3 * n); }
        { const ushort4 x = vload4(i, x0 + 6 * n); const ushort4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (ushort)sy), i, r + 6 * n); }
        { const ushort8 x = vload8(i, x0 + 10 * n); const ushort8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (ushort)sy), i, r + 10 * n); }
        { const ushort16 x = vload16(i, x0 + 18 * n); const ushort16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (ushort)sy), i, r + 18 * n); }
    }
    {
        __global const int *x0 = (__global const int *)a0;
        __global const int *y0 = (__global const int *)a1;
        __global int *r = (__global int *)(out + 208896);
        const int sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const int x = x0[i]; const int y = y0[i]; r[i] = max(x, y) ^ max(x, (int)sy); }
        { const int2 x = vload2(i, x0 + n); const int2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (int)sy), i, r + n); }
        { const int3 x = vload3(i, x0 + 3 * n); const int3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (int)sy), i, r + 3 * n); }
        { const int4 x = vload4(i, x0 + 6 * n); const int4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (int)sy), i, r + 6 * n); }
        { const int8 x = vload8(i, x0 + 10 * n); const int8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (int)sy), i, r + 10 * n); }
        { const int16 x = vload16(i, x0 + 18 * n); const int16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (int)sy), i, r + 18 * n); }
    }
    {
        __global const uint *x0 = (__global const uint *)a0;
        __global const uint *y0 = (__global const uint *)a1;
        __global uint *r = (__global uint *)(out + 348160);
        const uint sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uint x = x0[i]; const uint y = y0[i]; r[i] = max(x, y) ^ max(x, (uint)sy); }
        { const uint2 x = vload2(i, x0 + n); const uint2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (uint)sy), i, r + n); }
        { const uint3 x = vload3(i, x0 + 3 * n); const uint3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (uint)sy), i, r + 3 * n); }
        { const uint4 x = vload4(i, x0 + 6 * n); const uint4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (uint)sy), i, r + 6 * n); }
        { const uint8 x = vload8(i, x0 + 10 * n); const uint8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (uint)sy), i, r + 10 * n); }
        { const uint16 x = vload16(i, x0 + 18 * n); const uint16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (uint)sy), i, r + 18 * n); }
    }
    {
        __global const long *x0 = (__global const long *)a0;
        __global const long *y0 = (__global const long *)a1;
        __global long *r = (__global long *)(out + 487424);
        const long sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const long x = x0[i]; const long y = y0[i]; r[i] = max(x, y) ^ max(x, (long)sy); }
        { const long2 x = vload2(i, x0 + n); const long2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (long)sy), i, r + n); }
        { const long3 x = vload3(i, x0 + 3 * n); const long3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (long)sy), i, r + 3 * n); }
        { const long4 x = vload4(i, x0 + 6 * n); const long4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (long)sy), i, r + 6 * n); }
        { const long8 x = vload8(i, x0 + 10 * n); const long8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (long)sy), i, r + 10 * n); }
        { const long16 x = vload16(i, x0 + 18 * n); const long16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (long)sy), i, r + 18 * n); }
    }
    {
        __global const ulong *x0 = (__global const ulong *)a0;
        __global const ulong *y0 = (__global const ulong *)a1;
        __global ulong *r = (__global ulong *)(out + 765952);
        const ulong sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const ulong x = x0[i]; const ulong y = y0[i]; r[i] = max(x, y) ^ max(x, (ulong)sy); }
        { const ulong2 x = vload2(i, x0 + n); const ulong2 y = vload2(i, y0 + n); vstore2(max(x, y) ^ max(x, (ulong)sy), i, r + n); }
        { const ulong3 x = vload3(i, x0 + 3 * n); const ulong3 y = vload3(i, y0 + 3 * n); vstore3(max(x, y) ^ max(x, (ulong)sy), i, r + 3 * n); }
        { const ulong4 x = vload4(i, x0 + 6 * n); const ulong4 y = vload4(i, y0 + 6 * n); vstore4(max(x, y) ^ max(x, (ulong)sy), i, r + 6 * n); }
        { const ulong8 x = vload8(i, x0 + 10 * n); const ulong8 y = vload8(i, y0 + 10 * n); vstore8(max(x, y) ^ max(x, (ulong)sy), i, r + 10 * n); }
        { const ulong16 x = vload16(i, x0 + 18 * n); const ulong16 y = vload16(i, y0 + 18 * n); vstore16(max(x, y) ^ max(x, (ulong)sy), i, r + 18 * n); }
    }
}
