//@ kernel int_mul24
//@ global 1024
//@ local 64
//@ arg in uchar 278528 random 0 255
//@ arg in uchar 278528 random 0 255
//@ arg out uchar 278528
// mul24: 24-bit multiply; operands masked into ranges where the result is defined.
// Every type in {int, uint}, scalar and 2, 3, 4, 8, 16 lanes; inputs are random bytes
// reinterpreted as each type, each (type, width) result has its own output region.
static inline int m24_int(int v) { return (v & (int)0x7FFF) - (int)0x4000; }
static inline int z24_int(int v) { return v / (int)8; }
static inline int2 m24_int2(int2 v) { return (v & (int2)0x7FFF) - (int2)0x4000; }
static inline int2 z24_int2(int2 v) { return v / (int2)8; }
static inline int3 m24_int3(int3 v) { return (v & (int3)0x7FFF) - (int3)0x4000; }
static inline int3 z24_int3(int3 v) { return v / (int3)8; }
static inline int4 m24_int4(int4 v) { return (v & (int4)0x7FFF) - (int4)0x4000; }
static inline int4 z24_int4(int4 v) { return v / (int4)8; }
static inline int8 m24_int8(int8 v) { return (v & (int8)0x7FFF) - (int8)0x4000; }
static inline int8 z24_int8(int8 v) { return v / (int8)8; }
static inline int16 m24_int16(int16 v) { return (v & (int16)0x7FFF) - (int16)0x4000; }
static inline int16 z24_int16(int16 v) { return v / (int16)8; }
static inline uint m24_uint(uint v) { return v & (uint)0x7FFF; }
static inline uint z24_uint(uint v) { return v / (uint)8; }
static inline uint2 m24_uint2(uint2 v) { return v & (uint2)0x7FFF; }
static inline uint2 z24_uint2(uint2 v) { return v / (uint2)8; }
static inline uint3 m24_uint3(uint3 v) { return v & (uint3)0x7FFF; }
static inline uint3 z24_uint3(uint3 v) { return v / (uint3)8; }
static inline uint4 m24_uint4(uint4 v) { return v & (uint4)0x7FFF; }
static inline uint4 z24_uint4(uint4 v) { return v / (uint4)8; }
static inline uint8 m24_uint8(uint8 v) { return v & (uint8)0x7FFF; }
static inline uint8 z24_uint8(uint8 v) { return v / (uint8)8; }
static inline uint16 m24_uint16(uint16 v) { return v & (uint16)0x7FFF; }
static inline uint16 z24_uint16(uint16 v) { return v / (uint16)8; }

__kernel void int_mul24(__global const uchar *a0, __global const uchar *a1, __global uchar *out)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        __global const int *x0 = (__global const int *)a0;
        __global const int *y0 = (__global const int *)a1;
        __global int *r = (__global int *)(out + 0);
        const int sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const int x = x0[i]; const int y = y0[i]; r[i] = mul24(m24_int(x), m24_int(y)); }
        { const int2 x = vload2(i, x0 + n); const int2 y = vload2(i, y0 + n); vstore2(mul24(m24_int2(x), m24_int2(y)), i, r + n); }
        { const int3 x = vload3(i, x0 + 3 * n); const int3 y = vload3(i, y0 + 3 * n); vstore3(mul24(m24_int3(x), m24_int3(y)), i, r + 3 * n); }
        { const int4 x = vload4(i, x0 + 6 * n); const int4 y = vload4(i, y0 + 6 * n); vstore4(mul24(m24_int4(x), m24_int4(y)), i, r + 6 * n); }
        { const int8 x = vload8(i, x0 + 10 * n); const int8 y = vload8(i, y0 + 10 * n); vstore8(mul24(m24_int8(x), m24_int8(y)), i, r + 10 * n); }
        { const int16 x = vload16(i, x0 + 18 * n); const int16 y = vload16(i, y0 + 18 * n); vstore16(mul24(m24_int16(x), m24_int16(y)), i, r + 18 * n); }
    }
    {
        __global const uint *x0 = (__global const uint *)a0;
        __global const uint *y0 = (__global const uint *)a1;
        __global uint *r = (__global uint *)(out + 139264);
        const uint sy = x0[n * 34 - 1 - i], sz = x0[n * 33 - 1 - i];
        { const uint x = x0[i]; const uint y = y0[i]; r[i] = mul24(m24_uint(x), m24_uint(y)); }
        { const uint2 x = vload2(i, x0 + n); const uint2 y = vload2(i, y0 + n); vstore2(mul24(m24_uint2(x), m24_uint2(y)), i, r + n); }
        { const uint3 x = vload3(i, x0 + 3 * n); const uint3 y = vload3(i, y0 + 3 * n); vstore3(mul24(m24_uint3(x), m24_uint3(y)), i, r + 3 * n); }
        { const uint4 x = vload4(i, x0 + 6 * n); const uint4 y = vload4(i, y0 + 6 * n); vstore4(mul24(m24_uint4(x), m24_uint4(y)), i, r + 6 * n); }
        { const uint8 x = vload8(i, x0 + 10 * n); const uint8 y = vload8(i, y0 + 10 * n); vstore8(mul24(m24_uint8(x), m24_uint8(y)), i, r + 10 * n); }
        { const uint16 x = vload16(i, x0 + 18 * n); const uint16 y = vload16(i, y0 + 18 * n); vstore16(mul24(m24_uint16(x), m24_uint16(y)), i, r + 18 * n); }
    }
}
