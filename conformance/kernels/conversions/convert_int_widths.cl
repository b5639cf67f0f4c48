//@ kernel convert_int_widths
//@ global 1024
//@ local 64
//@ arg in uchar 131072 random 0 255
//@ arg out uchar 460800
// convert_T between every pair of integer types (char, uchar, short, ushort, int, uint, long,
// ulong) in vectors of 2, 3, 4, 8, 16: wrapping (modulo) without _sat, clamping with _sat.
// Inputs are random bytes reinterpreted as each source type.
#define CONV(S, D, N, OFF) do { \
    S##N x = vload##N(i, (__global const S *)in); \
    vstore##N(convert_##D##N(x) ^ convert_##D##N##_sat(x), i, (__global D *)(out + (OFF) * 1024)); \
} while (0)
__kernel void convert_int_widths(__global const uchar *in, __global uchar *out)
{
    size_t i = get_global_id(0);
    CONV(char, short, 2, 0);     CONV(char, ulong, 4, 4);     CONV(uchar, char, 16, 36);
    CONV(uchar, int, 8, 52);     CONV(short, char, 4, 84);    CONV(short, uint, 3, 88);
    CONV(ushort, short, 8, 100); CONV(ushort, ulong, 2, 116); CONV(int, uchar, 16, 132);
    CONV(int, ushort, 4, 148);   CONV(int, long, 2, 156);     CONV(uint, int, 4, 172);
    CONV(uint, char, 8, 188);    CONV(long, int, 4, 196);     CONV(long, uchar, 16, 212);
    CONV(ulong, long, 2, 228);   CONV(ulong, short, 8, 244);  CONV(long, ushort, 3, 260);
    CONV(char, uint, 16, 266);   CONV(uchar, long, 3, 330);   CONV(short, ulong, 2, 354);
    CONV(int, int, 4, 370);      CONV(ulong, uint, 16, 386);
}
