//@ kernel compare_functions
//@ global 1024
//@ local 64
//@ arg in float 16384 special
//@ arg in float 16384 random -2 2
//@ arg out int 1024
//@ arg out int 16384
// isequal, isnotequal, isgreater, isgreaterequal, isless, islessequal, islessgreater on special
// values (NaN compares false, except isnotequal): scalars return 0/1, vectors -1/0.
__kernel void compare_functions(__global const float *a, __global const float *b,
                                __global int *s, __global int *v)
{
    int i = get_global_id(0);
    float x = a[i * 16], y = b[i * 16];
    s[i] = isequal(x, y) | isnotequal(x, y) << 1 | isgreater(x, y) << 2 | isgreaterequal(x, y) << 3
         | isless(x, y) << 4 | islessequal(x, y) << 5 | islessgreater(x, y) << 6 | isequal(x, x) << 7;
    float16 p = vload16(i, a), q = vload16(i, b);
    int16 r = isequal(p, q) & 1;
    r |= isnotequal(p, q) & 2;
    r |= isgreater(p, q) & 4;
    r |= isgreaterequal(p, q) & 8;
    r |= isless(p, q) & 16;
    r |= islessequal(p, q) & 32;
    r |= islessgreater(p, q) & 64;
    r |= (int16)(isequal(p.s0123, p.s0123) & 128, isless(p.s4567, q.s4567) & 256,
                 isgreater(p.s89AB, q.s89AB) & 512, isnotequal(p.sCDEF, p.sCDEF) & 1024);
    vstore16(r, i, v);
}
