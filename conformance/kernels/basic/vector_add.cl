//@ kernel vector_add
//@ global 1024
//@ local 64
//@ arg in float 1024 random -100 100
//@ arg in float 1024 random -100 100
//@ arg out float 1024
// The classic: c[i] = a[i] + b[i], one element per work-item.
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
