//@ kernel fp64_reduction
//@ global 4096
//@ local 256
//@ arg in double 4096 random -1 1
//@ arg out double 16
// A double-precision dot-product reduction in __local memory (fixed tree order: exact).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fp64_reduction(__global const double *x, __global double *out)
{
    __local double s[256];
    int l = get_local_id(0), g = get_global_id(0);
    s[l] = x[g] * x[(g + 1) & 4095];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 128; k > 0; k >>= 1) {
        if (l < k) s[l] += s[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = s[0];
}
