//@ kernel bitonic_sort
//@ global 1024
//@ local 256
//@ arg in int 1024 random -1000000 1000000
//@ arg out int 1024
// Bitonic sort of each work-group's 256 keys in __local memory (all stages and steps of the
// network, each step one compare-exchange per work-item pair), ascending.
__kernel void bitonic_sort(__global const int *in, __global int *out)
{
    __local int k[256];
    int l = get_local_id(0), g = get_global_id(0);
    k[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int size = 2; size <= 256; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            int partner = l ^ stride;
            if (partner > l) {
                bool up = (l & size) == 0;
                int a = k[l], b = k[partner];
                if ((a > b) == up) { k[l] = b; k[partner] = a; }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    out[g] = k[l];
}
