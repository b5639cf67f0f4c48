//@ kernel transpose
//@ global 64 32
//@ local 16 16
//@ arg in float 2048 random -100 100
//@ arg out float 2048
// Matrix transpose (64 columns x 32 rows -> 32 x 64) through a padded __local tile (17 columns
// to avoid bank conflicts), 2-D work-groups.
__kernel void transpose(__global const float *in, __global float *out)
{
    __local float tile[16][17];
    int lx = get_local_id(0), ly = get_local_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    tile[ly][lx] = in[gy * w + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 16 + lx, oy = get_group_id(0) * 16 + ly;
    out[oy * h + ox] = tile[lx][ly];
}
