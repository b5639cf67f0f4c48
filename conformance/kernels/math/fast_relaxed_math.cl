//@ kernel fast_relaxed_math
//@ global 1024
//@ local 64
//@ options -cl-fast-relaxed-math
//@ compare rel 0.001
//@ arg in float 1024 random 0.5 10
//@ arg in float 1024 random 0.5 10
//@ arg out float 2048
// A kernel built with -cl-fast-relaxed-math (and thus -cl-mad-enable, -cl-finite-math-only):
// results may differ from the strict build within a loose bound.
__kernel void fast_relaxed_math(__global const float *a, __global const float *b, __global float *o)
{
    int i = get_global_id(0);
    float x = a[i], y = b[i];
    o[2 * i] = x * y + x / y;
    o[2 * i + 1] = exp(x * 0.5f) + log(y) + sqrt(x * y);
}
