//@ kernel constant_tables
//@ global 2048
//@ local 128
//@ arg in uint 2048 random 0 4294967295
//@ arg out uint 2048
//@ arg out float 2048
// Program-scope __constant lookup tables with initializers: a CRC-like table of uints, a 2-D
// float table, a struct table and a partially initialised array (rest zero).
__constant uint nibble_tab[16] = {
    0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
    0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
    0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu };
__constant float weights[3][4] = { { 0.5f, 0.25f, 0.125f, 0.0625f },
                                   { 1.0f, -1.0f, 2.0f, -2.0f },
                                   { 3.0f } };
typedef struct { short lo; short hi; float k; } range_t;
__constant range_t ranges[4] = { { 0, 10, 1.5f }, { 11, 100, -0.5f }, { 101, 200, 2.0f }, { 201, 255, 0.0f } };
__kernel void constant_tables(__global const uint *in, __global uint *crc, __global float *w)
{
    int i = get_global_id(0);
    uint c = ~0u, v = in[i];
    for (int k = 0; k < 8; ++k) {
        c = (c >> 4) ^ nibble_tab[(c ^ v) & 15u];
        v >>= 4;
    }
    crc[i] = ~c;
    uint b = in[i] & 255u;
    float acc = 0.0f;
    for (int r = 0; r < 4; ++r)
        if (b >= (uint)ranges[r].lo && b <= (uint)ranges[r].hi)
            acc = ranges[r].k * (float)b;
    w[i] = acc + weights[i % 3][(i >> 2) & 3];
}
