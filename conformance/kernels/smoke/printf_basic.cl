//@ kernel printf_basic
//@ global 8
//@ local 8
//@ arg in int 8 random -1000 1000
//@ arg in float 8 random -10 10
//@ arg out int 8
// printf of signed/unsigned/hex integers, long, char, floats, a string argument and vectors,
// one work-group so that the output order is deterministic.
__kernel void printf_basic(__global const int *a, __global const float *f, __global int *out)
{
    int i = get_global_id(0);
    int4 v = (int4)(a[i], -a[i], i, 7);
    printf("item %d: %d %u %x %ld %c %s\n", i, a[i], (uint)a[i], a[i], (long)a[i] * 100000, 'A' + i, "str");
    printf("f=%f e=%e g=%.3g v=%v4hld\n", f[i], f[i], f[i], v);
    out[i] = a[i] + 1;
}
