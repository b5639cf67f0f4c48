//@ options -cl-opt-disable
//@ kernel loops_o0
//@ global 1024
//@ local 64
//@ arg in int 1024 random 0 200
//@ arg in int 1024 random -50 50
//@ arg out int 3072
// control/loops' loop shapes, unoptimised: counters, sums and the buffer pointers are kept in
// private slots across the loop headers where a stopped launch is moved.
__kernel void loops_o0(__global const int *cnt, __global const int *v, __global int *out)
{
    int i = get_global_id(0), n = cnt[i], x = v[i];
    int s = 0;
    for (int k = 0; k < n; ++k) s += k ^ x;
    out[3 * i] = s;
    int w = 0, k = n;
    while (k > 0) { w += k % 7; k -= 3; }
    out[3 * i + 1] = w;
    int d = 0, m = x;
    do { d += m & 3; m /= 2; } while (m != 0);
    out[3 * i + 2] = d;
}
