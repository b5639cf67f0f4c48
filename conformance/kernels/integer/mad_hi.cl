//@ kernel int_mad_hi
//@ global 1024
//@ local 64
//@ arg in uchar 278528 random 0 255
//@ arg in uchar 278528 random 0 255
//@ arg in uchar 278528 random 0 255
//@ arg out uchar 1044480
// mad_hi: mul_hi(x, y) + z; z scaled so the add cannot overflow.
// Every type in {char, uchar, short, ushort, int, uint, long, ulong}, scalar and 2, 3, 4, 8, 16 lanes; inputs are random bytes
// reinterpreted as each type, each (type, width) result has its own output region.
__kernel void int_mad_hi(__global const uchar *a0, __global const uchar *a1, __global const uchar *a2, __global uchar *out)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        __global const char *x0 = (__global const char *)a0;
        __global const char *y0 = (__global const char *)a1;
        __global const char *z0 = (__global const char *)a2;
        __global char *r = (__global char *)(out + 0);
        const char sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const char x = x0[i]; const char y = y0[i]; const char z = z0[i]; r[i] = mad_hi(x, y, (char)(z / (char)4)); }
        { const char2 x = vload2(i, x0 + n); const char2 y = vload2(i, y0 + n); const char2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (char2)(z / (char2)4)), i, r + n); }
        { const char3 x = vload3(i, x0 + 3 * n); const char3 y = vload3(i, y0 + 3 * n); const char3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (char3)(z / (char3)4)), i, r + 3 * n); }
        { const char4 x = vload4(i, x0 + 6 * n); const char4 y = vload4(i, y0 + 6 * n); const char4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (char4)(z / (char4)4)), i, r + 6 * n); }
        { const char8 x = vload8(i, x0 + 10 * n); const char8 y = vload8(i, y0 + 10 * n); const char8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (char8)(z / (char8)4)), i, r + 10 * n); }
        { const char16 x = vload16(i, x0 + 18 * n); const char16 y = vload16(i, y0 + 18 * n); const char16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (char16)(z / (char16)4)), i, r + 18 * n); }
    }
    {
        __global const uchar *x0 = (__global const uchar *)a0;
        __global const uchar *y0 = (__global const uchar *)a1;
        __global const uchar *z0 = (__global const uchar *)a2;
        __global uchar *r = (__global uchar *)(out + 34816);
        const uchar sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uchar x = x0[i]; const uchar y = y0[i]; const uchar z = z0[i]; r[i] = mad_hi(x, y, (uchar)(z / (uchar)4)); }
        { const uchar2 x = vload2(i, x0 + n); const uchar2 y = vload2(i, y0 + n); const uchar2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (uchar2)(z / (uchar2)4)), i, r + n); }
        { const uchar3 x = vload3(i, x0 + 3 * n); const uchar3 y = vload3(i, y0 + 3 * n); const uchar3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (uchar3)(z / (uchar3)4)), i, r + 3 * n); }
        { const uchar4 x = vload4(i, x0 + 6 * n); const uchar4 y = vload4(i, y0 + 6 * n); const uchar4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (uchar4)(z / (uchar4)4)), i, r + 6 * n); }
        { const uchar8 x = vload8(i, x0 + 10 * n); const uchar8 y = vload8(i, y0 + 10 * n); const uchar8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (uchar8)(z / (uchar8)4)), i, r + 10 * n); }
        { const uchar16 x = vload16(i, x0 + 18 * n); const uchar16 y = vload16(i, y0 + 18 * n); const uchar16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (uchar16)(z / (uchar16)4)), i, r + 18 * n); }
    }
    {
        __global const short *x0 = (__global const short *)a0;
        __global const short *y0 = (__global const short *)a1;
        __global const short *z0 = (__global const short *)a2;
        __global short *r = (__global short *)(out + 69632);
        const short sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const short x = x0[i]; const short y = y0[i]; const short z = z0[i]; r[i] = mad_hi(x, y, (short)(z / (short)4)); }
        { const short2 x = vload2(i, x0 + n); const short2 y = vload2(i, y0 + n); const short2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (short2)(z / (short2)4)), i, r + n); }
        { const short3 x = vload3(i, x0 + 3 * n); const short3 y = vload3(i, y0 + 3 * n); const short3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (short3)(z / (short3)4)), i, r + 3 * n); }
        { const short4 x = vload4(i, x0 + 6 * n); const short4 y = vload4(i, y0 + 6 * n); const short4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (short4)(z / (short4)4)), i, r + 6 * n); }
        { const short8 x = vload8(i, x0 + 10 * n); const short8 y = vload8(i, y0 + 10 * n); const short8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (short8)(z / (short8)4)), i, r + 10 * n); }
        { const short16 x = vload16(i, x0 + 18 * n); const short16 y = vload16(i, y0 + 18 * n); const short16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (short16)(z / (short16)4)), i, r + 18 * n); }
    }
    {
        __global const ushort *x0 = (__global const ushort *)a0;
        __global const ushort *y0 = (__global const ushort *)a1;
        __global const ushort *z0 = (__global const ushort *)a2;
        __global ushort *r = (__global ushort *)(out + 139264);
        const ushort sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const ushort x = x0[i]; const ushort y = y0[i]; const ushort z = z0[i]; r[i] = mad_hi(x, y, (ushort)(z / (ushort)4)); }
        { const ushort2 x = vload2(i, x0 + n); const ushort2 y = vload2(i, y0 + n); const ushort2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (ushort2)(z / (ushort2)4)), i, r + n); }
        { const ushort3 x = vload3(i, x0 + 3 * n); const ushort3 y = vload3(i, y0 + 3 * n); const ushort3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (ushort3)(z / (ushort3)4)), i, r + 3 * n); }
        { const ushort4 x = vload4(i, x0 + 6 * n); const ushort4 y = vload4(i, y0 + 6 * n); const ushort4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (ushort4)(z / (ushort4)4)), i, r + 6 * n); }
        { const ushort8 x = vload8(i, x0 + 10 * n); const ushort8 y = vload8(i, y0 + 10 * n); const ushort8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (ushort8)(z / (ushort8)4)), i, r + 10 * n); }
        { const ushort16 x = vload16(i, x0 + 18 * n); const ushort16 y = vload16(i, y0 + 18 * n); const ushort16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (ushort16)(z / (ushort16)4)), i, r + 18 * n); }
    }
    {
        __global const int *x0 = (__global const int *)a0;
        __global const int *y0 = (__global const int *)a1;
        __global const int *z0 = (__global const int *)a2;
        __global int *r = (__global int *)(out + 208896);
        const int sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const int x = x0[i]; const int y = y0[i]; const int z = z0[i]; r[i] = mad_hi(x, y, (int)(z / (int)4)); }
        { const int2 x = vload2(i, x0 + n); const int2 y = vload2(i, y0 + n); const int2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (int2)(z / (int2)4)), i, r + n); }
        { const int3 x = vload3(i, x0 + 3 * n); const int3 y = vload3(i, y0 + 3 * n); const int3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (int3)(z / (int3)4)), i, r + 3 * n); }
        { const int4 x = vload4(i, x0 + 6 * n); const int4 y = vload4(i, y0 + 6 * n); const int4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (int4)(z / (int4)4)), i, r + 6 * n); }
        { const int8 x = vload8(i, x0 + 10 * n); const int8 y = vload8(i, y0 + 10 * n); const int8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (int8)(z / (int8)4)), i, r + 10 * n); }
        { const int16 x = vload16(i, x0 + 18 * n); const int16 y = vload16(i, y0 + 18 * n); const int16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (int16)(z / (int16)4)), i, r + 18 * n); }
    }
    {
        __global const uint *x0 = (__global const uint *)a0;
        __global const uint *y0 = (__global const uint *)a1;
        __global const uint *z0 = (__global const uint *)a2;
        __global uint *r = (__global uint *)(out + 348160);
        const uint sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uint x = x0[i]; const uint y = y0[i]; const uint z = z0[i]; r[i] = mad_hi(x, y, (uint)(z / (uint)4)); }
        { const uint2 x = vload2(i, x0 + n); const uint2 y = vload2(i, y0 + n); const uint2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (uint2)(z / (uint2)4)), i, r + n); }
        { const uint3 x = vload3(i, x0 + 3 * n); const uint3 y = vload3(i, y0 + 3 * n); const uint3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (uint3)(z / (uint3)4)), i, r + 3 * n); }
        { const uint4 x = vload4(i, x0 + 6 * n); const uint4 y = vload4(i, y0 + 6 * n); const uint4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (uint4)(z / (uint4)4)), i, r + 6 * n); }
        { const uint8 x = vload8(i, x0 + 10 * n); const uint8 y = vload8(i, y0 + 10 * n); const uint8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (uint8)(z / (uint8)4)), i, r + 10 * n); }
        { const uint16 x = vload16(i, x0 + 18 * n); const uint16 y = vload16(i, y0 + 18 * n); const uint16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (uint16)(z / (uint16)4)), i, r + 18 * n); }
    }
    {
        __global const long *x0 = (__global const long *)a0;
        __global const long *y0 = (__global const long *)a1;
        __global const long *z0 = (__global const long *)a2;
        __global long *r = (__global long *)(out + 487424);
        const long sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const long x = x0[i]; const long y = y0[i]; const long z = z0[i]; r[i] = mad_hi(x, y, (long)(z / (long)4)); }
        { const long2 x = vload2(i, x0 + n); const long2 y = vload2(i, y0 + n); const long2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (long2)(z / (long2)4)), i, r + n); }
        { const long3 x = vload3(i, x0 + 3 * n); const long3 y = vload3(i, y0 + 3 * n); const long3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (long3)(z / (long3)4)), i, r + 3 * n); }
        { const long4 x = vload4(i, x0 + 6 * n); const long4 y = vload4(i, y0 + 6 * n); const long4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (long4)(z / (long4)4)), i, r + 6 * n); }
        { const long8 x = vload8(i, x0 + 10 * n); const long8 y = vload8(i, y0 + 10 * n); const long8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (long8)(z / (long8)4)), i, r + 10 * n); }
        { const long16 x = vload16(i, x0 + 18 * n); const long16 y = vload16(i, y0 + 18 * n); const long16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (long16)(z / (long16)4)), i, r + 18 * n); }
    }
    {
        __global const ulong *x0 = (__global const ulong *)a0;
        __global const ulong *y0 = (__global const ulong *)a1;
        __global const ulong *z0 = (__global const ulong *)a2;
        __global ulong *r = (__global ulong *)(out + 765952);
        const ulong sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const ulong x = x0[i]; const ulong y = y0[i]; const ulong z = z0[i]; r[i] = mad_hi(x, y, (ulong)(z / (ulong)4)); }
        { const ulong2 x = vload2(i, x0 + n); const ulong2 y = vload2(i, y0 + n); const ulong2 z = vload2(i, z0 + n); vstore2(mad_hi(x, y, (ulong2)(z / (ulong2)4)), i, r + n); }
        { const ulong3 x = vload3(i, x0 + 3 * n); const ulong3 y = vload3(i, y0 + 3 * n); const ulong3 z = vload3(i, z0 + 3 * n); vstore3(mad_hi(x, y, (ulong3)(z / (ulong3)4)), i, r + 3 * n); }
        { const ulong4 x = vload4(i, x0 + 6 * n); const ulong4 y = vload4(i, y0 + 6 * n); const ulong4 z = vload4(i, z0 + 6 * n); vstore4(mad_hi(x, y, (ulong4)(z / (ulong4)4)), i, r + 6 * n); }
        { const ulong8 x = vload8(i, x0 + 10 * n); const ulong8 y = vload8(i, y0 + 10 * n); const ulong8 z = vload8(i, z0 + 10 * n); vstore8(mad_hi(x, y, (ulong8)(z / (ulong8)4)), i, r + 10 * n); }
        { const ulong16 x = vload16(i, x0 + 18 * n); const ulong16 y = vload16(i, y0 + 18 * n); const ulong16 z = vload16(i, z0 + 18 * n); vstore16(mad_hi(x, y, (ulong16)(z / (ulong16)4)), i, r + 18 * n); }
    }
}
