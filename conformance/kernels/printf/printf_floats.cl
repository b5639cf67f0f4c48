//@ kernel printf_floats
//@ global 4
//@ local 2
//@ arg in float 4 random -1000 1000
// printf of floats: %f %e %E %g %G %a %A with widths, precisions and flags, plus the special
// values inf, -inf and nan. Work-group 0 prints.
__kernel void printf_floats(__global const float *in)
{
    int i = get_global_id(0);
    if (get_group_id(0) != 0) return;
    float x = in[i];
    printf("f=%f e=%e E=%E g=%g G=%G\n", x, x, x, x, x);
    printf("a=%a A=%A [%10.3f] [%-12.2e] [%+.4g] [%010.2f]\n", x, x, x, x, x, x);
    printf("special %f %f %f %e %g\n", INFINITY, -INFINITY, NAN, 0.0f, -0.0f);
}
