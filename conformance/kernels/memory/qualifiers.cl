//@ kernel qualifiers
//@ global 1024
//@ local 64
//@ arg in float 1024 random -10 10
//@ arg in float 1024 random -10 10
//@ arg out float 1024
// Type qualifiers on pointers and values: const, restrict, volatile (private and global), and
// const __constant data; volatile accesses must not be merged away.
__constant float k_scale = 0.75f;
__kernel void qualifiers(__global const float * restrict a, __global const float * restrict b,
                         __global float * restrict out)
{
    int i = get_global_id(0);
    volatile float t = a[i];
    t = t * k_scale;
    t = t + b[i];
    const float u = t;
    volatile __global float *vo = out + i;
    *vo = 0.0f;
    *vo = u - b[(i + 1) & 1023];
}
