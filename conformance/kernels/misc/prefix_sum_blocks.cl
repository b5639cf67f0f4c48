//@ kernel prefix_sum_blocks
//@ global 2048
//@ local 128
//@ arg in uint 8192 random 0 1000
//@ arg out uint 8192
//@ arg out uint 16
// Prefix sum where each work-item first scans 4 consecutive elements serially, then the
// work-group scans the per-item totals in __local memory; block totals are written separately.
__kernel void prefix_sum_blocks(__global const uint *in, __global uint *out, __global uint *blocks)
{
    __local uint s[128];
    int l = get_local_id(0), g = get_global_id(0);
    uint4 v = vload4(g, in);
    v.y += v.x; v.z += v.y; v.w += v.z;
    s[l] = v.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < 128; off <<= 1) {
        uint t = l >= off ? s[l - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[l] += t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint before = l > 0 ? s[l - 1] : 0u;
    vstore4(v + before, g, out);
    if (l == 127) blocks[get_group_id(0)] = s[127];
}
