//@ kernel sqrt_div_correctly_rounded
//@ global 2048
//@ local 128
//@ options -cl-fp32-correctly-rounded-divide-sqrt
//@ compare exact
//@ arg in float 2048 random 0 1000000
//@ arg in float 2048 random 0.001 1000
//@ arg out float 4096
// sqrt and division built with -cl-fp32-correctly-rounded-divide-sqrt: both must be correctly
// rounded (0 ulp).
__kernel void sqrt_div_correctly_rounded(__global const float *a, __global const float *b, __global float *o)
{
    int i = get_global_id(0);
    o[2 * i] = sqrt(a[i]);
    o[2 * i + 1] = a[i] / b[i];
}
