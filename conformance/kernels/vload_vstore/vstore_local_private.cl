//@ kernel vstore_local_private
//@ global 512
//@ local 64
//@ arg in char 8192 random -128 127
//@ arg out char 8192
//@ arg out uint 2048
// vstoren/vloadn on char data in __local and __private arrays (byte-aligned offsets), and
// vstore3 of uint into __global with an odd element offset.
__kernel void vstore_local_private(__global const char *in, __global char *out, __global uint *u)
{
    __local char lc[64 * 16];
    size_t i = get_global_id(0), l = get_local_id(0);
    char16 v = vload16(i, in);
    vstore8(v.hi, 2 * l, lc);
    vstore8(v.lo, 2 * l + 1, lc);
    char pc[19];
    vstore16(v, 0, pc + 3);
    vstore3(v.s012, 0, pc);
    barrier(CLK_LOCAL_MEM_FENCE);
    char16 w = vload16((l + 5) & 63, lc);
    char4 q = vload4(0, pc + 1) + vload4(1, pc + 2);
    vstore16(w ^ (char16)(q, q, q, q), i, out);
    vstore3(convert_uint3(as_uchar3(w.s123)) + (uint3)(1, 2, 3), 0, u + 4 * i + 1);
    u[4 * i] = (uint)(uchar)pc[18];
}
