//@ kernel if_else_chain
//@ global 2048
//@ local 64
//@ arg in int 2048 random -1000 1000
//@ arg in float 2048 random -10 10
//@ arg out int 2048
// if / else if / else chains, nested ifs, conditions on floats and ints, divergent branches
// within a work-group.
__kernel void if_else_chain(__global const int *a, __global const float *f, __global int *out)
{
    int i = get_global_id(0), x = a[i], r;
    float y = f[i];
    if (x < -500) r = 1;
    else if (x < 0) {
        if (y > 0.0f) r = 2; else r = 3;
    } else if (x == 0) r = 4;
    else if (x < 500 && y < -5.0f) r = 5;
    else if (x < 500) {
        r = 6;
        if (y > 5.0f) { r += 10; if (x & 1) r += 100; }
    } else r = 7;
    if (!(i % 3)) r = -r;
    out[i] = r;
}
