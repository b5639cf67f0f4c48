//@ kernel printf_ints
//@ global 4
//@ local 2
//@ arg in int 4 random -100000 100000
// printf of integers: %d %i %u %x %X %o with flags (- + space # 0), widths, precisions and the
// hh h l length modifiers. Only work-group 0 prints, so the output order is fixed.
__kernel void printf_ints(__global const int *in)
{
    int i = get_global_id(0);
    if (get_group_id(0) != 0) return;
    int v = in[i];
    printf("wi %d: d=%d i=%i u=%u x=%x X=%X o=%o\n", i, v, v, (uint)v, (uint)v, (uint)v, (uint)v);
    printf("flags [%-8d] [%+d] [% d] [%08d] [%#x] [%#o] [%.5d] [%8.3d]\n", v, v, v, v, (uint)v, (uint)v, v, v);
    printf("len hh=%hhd hhu=%hhu h=%hd hx=%hx l=%ld lu=%lu lx=%lx\n", (char)v, (uchar)v, (short)v,
           (ushort)v, (long)v * 100000L, (ulong)v * 3UL, (ulong)v << 20);
}
