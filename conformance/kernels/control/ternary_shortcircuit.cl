//@ kernel ternary_shortcircuit
//@ global 2048
//@ local 128
//@ arg in int 2048 random -100 100
//@ arg in int 2048 random 0 2047
//@ arg out int 2048
//@ arg out int 2048
// Nested ternaries, ternaries as lvalue selectors via pointers, && and || short-circuit
// evaluation guarding division by zero and out-of-range indexing, with side effects that
// must not happen when short-circuited.
__kernel void ternary_shortcircuit(__global const int *a, __global const int *idx,
                                   __global int *out, __global int *side)
{
    int i = get_global_id(0), x = a[i], j = idx[i], cnt = 0;
    int t = x > 50 ? 3 : x > 0 ? 2 : x == 0 ? 1 : x > -50 ? -1 : -2;
    int ok = (x != 0 && 1000 / x > 20) || (j < 1024 && a[j + 1024] > 0);
    int other = (x > 0) ? a[(i + 1) & 2047] : a[(i + 2047) & 2047];
    int p = 0, q = 0;
    int *sel = (j & 1) ? &p : &q;
    *sel = x;
    if (x > 0 && ++cnt > 0 && (cnt += 10) > 0) cnt += 100;
    if (x < 0 || ++cnt > 0) cnt += 1000;
    out[i] = t * 100000 + ok * 1000 + other + (p - q);
    side[i] = cnt;
}
