//@ kernel local_arrays
//@ global 32 32
//@ local 8 8
//@ arg in int 1024 random -5000 5000
//@ arg out int 1024
// __local arrays declared inside the kernel (1-D and 2-D), written by every work-item, then
// read by other work-items after a barrier (a 3x3 box filter over the 8x8 tile, clamped).
__kernel void local_arrays(__global const int *in, __global int *out)
{
    __local int tile[8][8];
    __local int rowsum[8];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1), w = get_global_size(0);
    tile[ly][lx] = in[gy * w + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lx == 0) {
        int s = 0;
        for (int k = 0; k < 8; ++k) s += tile[ly][k];
        rowsum[ly] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int acc = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            acc += tile[clamp(ly + dy, 0, 7)][clamp(lx + dx, 0, 7)];
    out[gy * w + gx] = acc + rowsum[7 - ly];
}
