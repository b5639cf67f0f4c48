//@ kernel reduction_float_arg
//@ global 8192
//@ local 128
//@ arg in float 8192 random -1 1
//@ arg local float 128
//@ arg out float 64
// Float sum reduction through a __local kernel argument; the summation order is fixed by the
// tree, so results are exact between builds.
__kernel void reduction_float_arg(__global const float *in, __local float *scratch, __global float *out)
{
    int l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}
