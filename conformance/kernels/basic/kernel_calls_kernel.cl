//@ kernel outer
//@ global 1024
//@ local 64
//@ arg in float 1024 random -10 10
//@ arg out float 1024
//@ arg out float 1024
// A kernel calling another kernel as an ordinary function (OpenCL C 1.2 allows it; the callee
// sees the caller's work-item ids). The callee is itself a valid kernel.
__kernel void scale(__global const float *in, __global float *out, float k)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * k;
}
__kernel void outer(__global const float *in, __global float *a, __global float *b)
{
    scale(in, a, 2.0f);
    scale(in, b, -0.5f);
    size_t i = get_global_id(0);
    b[i] += (float)get_local_id(0);
}
