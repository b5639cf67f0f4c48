//@ kernel histogram_local
//@ global 4096
//@ local 256
//@ arg in uchar 16384 random 0 255
//@ arg out uint 4096
// Per-work-group 256-bin histogram without atomics: each work-item owns one bin and counts it
// over the group's 1024 input bytes staged in __local memory; one histogram per group.
__kernel void histogram_local(__global const uchar *in, __global uint *out)
{
    __local uchar data[1024];
    int l = get_local_id(0), base = get_group_id(0) * 1024;
    for (int k = 0; k < 4; ++k) data[l + k * 256] = in[base + l + k * 256];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint c = 0;
    for (int k = 0; k < 1024; ++k) c += data[k] == (uchar)l;
    out[get_group_id(0) * 256 + l] = c;
}
