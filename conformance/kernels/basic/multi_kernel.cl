//@ kernel fill
//@ global 512
//@ local 32
//@ arg out int 512
//@ arg scalar int 17
//@ kernel mix2
//@ global 512
//@ local 32
//@ arg in int 512 random -100000 100000
//@ arg in int 512 random -100000 100000
//@ arg out int 512
// A program with several kernels run one after another, each with its own arguments.
__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v * (int)get_global_id(0); }
__kernel void mix2(__global const int *a, __global const int *b, __global int *o)
{
    int i = get_global_id(0);
    o[i] = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
}
