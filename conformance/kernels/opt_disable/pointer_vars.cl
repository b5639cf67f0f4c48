//@ options -cl-opt-disable
//@ kernel pointer_vars
//@ global 512
//@ local 64
//@ arg in int 512 random 0 120
//@ arg in int 512 random -50 50
//@ arg out int 1024
// Built without optimisation, every variable lives in a private slot, pointers included: the
// buffer pointers, a pointer walking a buffer and a pointer into a private array stay in the
// frame across the loops' safe points. Stopped mid-loop and finished on another backend
// (corpus_stop_*), each must point into that backend's objects there.
__kernel void pointer_vars(__global const int *cnt, __global const int *v, __global int *out)
{
    int i = get_global_id(0), n = cnt[i];
    __global const int *p = v + (i & ~7);
    int acc[4] = {0, 0, 0, 0};
    int *q = acc;
    int s = 0;
    for (int k = 0; k < n; ++k) {
        s += p[k & 7] ^ k;
        q[k & 3] += k;
        if ((k & 3) == 3) q = acc + ((k >> 2) & 1);
    }
    __global int *o = out + 2 * i;
    o[0] = s;
    o[1] = acc[0] * 3 + acc[1] * 5 + acc[2] * 7 + acc[3] * 11 + (int)(q - acc);
}
