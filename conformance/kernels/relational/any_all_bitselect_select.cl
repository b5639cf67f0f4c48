//@ kernel any_all_bitselect_select
//@ global 1024
//@ local 64
//@ arg in int 16384 random -100 100
//@ arg in uint 16384 random 0 4294967295
//@ arg in float 16384 random -10 10
//@ arg out int 4096
//@ arg out uint 16384
//@ arg out float 16384
// any and all on char/short/int/long scalars and vectors of every width (only the sign bit
// counts), bitselect on uint and float, select with signed and unsigned integer masks on int,
// uint and float (vector select uses the mask's MSB, scalar select uses != 0).
__kernel void any_all_bitselect_select(__global const int *a, __global const uint *m,
                                       __global const float *f, __global int *o,
                                       __global uint *ob, __global float *of)
{
    int i = get_global_id(0);
    int16 v = vload16(i, a);
    o[4 * i] = any(v) + 2 * all(v) + 4 * any(v.s0) + 8 * all(v.s01) + 16 * any(v.s012) + 32 * all(v.lo.lo)
             + 64 * any(v.lo) + 128 * all(v > -90) + 256 * any(v == 0);
    o[4 * i + 1] = any(convert_char4(v.s0123)) + 2 * all(convert_short8(v.lo) < (short)50)
             + 4 * any(convert_long2(v.s23)) + 8 * all(convert_char16(v) != (char)7);
    o[4 * i + 2] = select(v.s0, v.s1, v.s2) + select(v.s3, v.s4, (uint)(v.s5 & 1));
    o[4 * i + 3] = (int)select((long)v.s6, 9L, (long)(v.s7 > 0));
    uint16 mm = vload16(i, m);
    uint16 x = vload16(i, (__global const uint *)a);
    vstore16(bitselect(x, ~x, mm) ^ select(mm, x, convert_int16(mm) < 0) ^ select(x, mm, mm), i, ob);
    float16 fv = vload16(i, f);
    float16 fs = bitselect(fv, -fv, as_float16(mm & 0x80000000u));
    fs = select(fs, fv * 2.0f, v < 0);
    fs = select(fs, (float16)(1.0f), mm > 0x80000000u);
    fs.s0 = select(fs.s0, 5.0f, v.s0 > 0) + bitselect(fv.s1, fv.s2, as_float(0xFF800000u));
    vstore16(fs, i, of);
}
