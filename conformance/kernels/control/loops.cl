//@ kernel loops
//@ global 1024
//@ local 64
//@ arg in int 1024 random 0 200
//@ arg in int 1024 random -50 50
//@ arg out int 4096
// for, while and do-while loops with data-dependent trip counts (including zero trips),
// down-counting loops, loops with several induction variables and an empty body.
__kernel void loops(__global const int *cnt, __global const int *v, __global int *out)
{
    int i = get_global_id(0), n = cnt[i], x = v[i];
    int s = 0;
    for (int k = 0; k < n; ++k) s += k ^ x;
    out[4 * i] = s;
    int w = 0, k = n;
    while (k > 0) { w += k % 7; k -= 3; }
    out[4 * i + 1] = w;
    int d = 0, m = x;
    do { d += m & 3; m /= 2; } while (m != 0);
    out[4 * i + 2] = d;
    int a, b, e = 0;
    for (a = 0, b = n; a < b; ++a, --b) e += b - a;
    for (k = 0; k < (x & 7); k++) ;
    out[4 * i + 3] = e * 8 + k;
}
