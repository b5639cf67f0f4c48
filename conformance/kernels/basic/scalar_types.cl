//@ kernel scalar_types
//@ global 1024
//@ local 128
//@ arg in long 1024 random -1000000 1000000
//@ arg out char 1024
//@ arg out uchar 1024
//@ arg out short 1024
//@ arg out ushort 1024
//@ arg out int 1024
//@ arg out uint 1024
//@ arg out long 1024
//@ arg out ulong 1024
//@ arg out float 1024
//@ arg out double 1024
//@ arg out half 1024
// Every scalar type of OpenCL C 1.2 (bool, char..ulong, float, double, half storage, size_t,
// ptrdiff_t, intptr_t, uintptr_t) in arithmetic with usual arithmetic conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scalar_types(__global const long *in, __global char *c, __global uchar *uc,
                           __global short *s, __global ushort *us, __global int *n,
                           __global uint *un, __global long *l, __global ulong *ul,
                           __global float *f, __global double *d, __global half *h)
{
    size_t i = get_global_id(0);
    ptrdiff_t pd = (ptrdiff_t)i - 512;
    intptr_t ip = (intptr_t)pd * 3;
    uintptr_t up = (uintptr_t)i << 2;
    long v = in[i];
    bool neg = v < 0;
    c[i] = (char)(v & 0x7F) - (char)(neg ? 64 : 0);
    uc[i] = (uchar)(v >> 3);
    s[i] = (short)(v % 30000);
    us[i] = (ushort)v + (ushort)up;
    n[i] = (int)v * 7 + (int)ip;
    un[i] = (uint)v * 2654435761u;
    l[i] = v * v - (long)pd;
    ul[i] = (ulong)v * 0x9E3779B97F4A7C15ul;
    f[i] = (float)v * 0.25f + (float)neg;
    d[i] = (double)v / 3.0 + (double)ip;
    vstore_half((float)(v % 2048) * 0.5f, i, h);
}
