//@ kernel goto_labels
//@ global 1024
//@ local 64
//@ arg in int 1024 random 1 10000
//@ arg out int 1024
// goto: forward jumps out of nested loops, a backward goto forming a loop (Collatz steps,
// bounded), and a cleanup label reached from several places.
__kernel void goto_labels(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int x = in[i], steps = 0, found = -1;
    for (int a = 0; a < 10; ++a)
        for (int b = 0; b < 10; ++b)
            if (a * b == (x % 50)) { found = a * 10 + b; goto done_search; }
done_search:
    ;
    long y = x;
again:
    if (y != 1 && steps < 300) {
        y = (y & 1) ? 3 * y + 1 : y / 2;
        ++steps;
        goto again;
    }
    int r = steps;
    if (found < 0) goto cleanup;
    r += found * 1000;
    if (x & 1) goto cleanup;
    r = -r;
cleanup:
    out[i] = r;
}
