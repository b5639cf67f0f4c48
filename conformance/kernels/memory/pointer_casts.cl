//@ kernel pointer_casts
//@ global 1024
//@ local 64
//@ arg in uchar 16384 random 0 255
//@ arg out uint 1024
//@ arg out ushort 4096
// One __global buffer viewed through pointers of different types (uchar -> uint, ushort, uchar4,
// float), pointer arithmetic and differences, pointer comparison, void * round trips.
__kernel void pointer_casts(__global const uchar *in, __global uint *o32, __global ushort *o16)
{
    int i = get_global_id(0);
    __global const uchar *base = in + i * 16;
    __global const uint *w = (__global const uint *)base;
    __global const ushort *h = (__global const ushort *)base;
    __global const uchar4 *q = (__global const uchar4 *)base;
    __global const void *vp = base + 8;
    __global const uchar *back = (__global const uchar *)vp;
    ptrdiff_t d = back - base;
    uint acc = w[0] ^ w[3] ^ (uint)d;
    acc += (uint)q[1].y + (uint)q[2].w * 256u;
    acc ^= (back > base) ? 0x80000000u : 0u;
    o32[i] = acc;
    for (int k = 0; k < 4; ++k)
        o16[i * 4 + k] = h[k * 2] + h[k * 2 + 1];
}
