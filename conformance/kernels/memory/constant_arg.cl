//@ kernel constant_arg
//@ global 2048
//@ local 128
//@ arg in float 2048 random -1 1
//@ arg in float4 16 random -2 2
//@ arg in int 16 random 0 15
//@ arg out float 2048
// Several __constant kernel arguments (a float4 array and an int permutation-ish table)
// indexed by data-dependent indices.
__kernel void constant_arg(__global const float *in, __constant float4 *c4, __constant int *perm,
                           __global float *out)
{
    int i = get_global_id(0);
    int j = perm[i & 15];
    float4 w = c4[j];
    float x = in[i];
    out[i] = ((w.x * x + w.y) * x + w.z) * x + w.w + c4[perm[j]].x;
}
