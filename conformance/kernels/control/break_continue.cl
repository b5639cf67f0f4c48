//@ kernel break_continue
//@ global 1024
//@ local 128
//@ arg in int 16384 random -100 100
//@ arg out int 2048
// break and continue in for, while and do-while loops, in nested loops (affecting only the inner
// loop), and a search loop that breaks at the first match.
__kernel void break_continue(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    __global const int *p = in + 16 * i;
    int first = -1;
    for (int k = 0; k < 16; ++k)
        if (p[k] > 90) { first = k; break; }
    int s = 0;
    for (int k = 0; k < 16; ++k) {
        if (p[k] < 0) continue;
        if (p[k] > 95) break;
        s += p[k];
    }
    int k = 0, t = 0;
    while (1) {
        if (k >= 16) break;
        if (k & 1) { ++k; continue; }
        t += p[k++];
    }
    int nest = 0;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
            if (c > r) break;
            if (p[r * 4 + c] & 1) continue;
            nest += p[r * 4 + c];
        }
    int d = 0;
    do { if (p[d] == 0) break; d++; } while (d < 16);
    out[2 * i] = first * 100000 + s;
    out[2 * i + 1] = t * 1000 + nest + d * 1000000;
}
