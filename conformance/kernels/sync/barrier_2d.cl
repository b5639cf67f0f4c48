//@ kernel barrier_2d
//@ global 64 32
//@ local 16 8
//@ arg in float 2048 random -100 100
//@ arg out float 2048
// Barriers in a 2-D work-group: a tile is loaded, column sums computed by one row of
// work-items, then every work-item normalises by its column's sum.
__kernel void barrier_2d(__global const float *in, __global float *out)
{
    __local float tile[8][16];
    __local float colsum[16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gi = get_global_id(1) * get_global_size(0) + get_global_id(0);
    tile[ly][lx] = fabs(in[gi]) + 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly == 0) {
        float s = 0.0f;
        for (int k = 0; k < 8; ++k) s += tile[k][lx];
        colsum[lx] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gi] = tile[ly][lx] / colsum[lx];
}
