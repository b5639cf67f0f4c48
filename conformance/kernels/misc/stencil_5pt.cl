//@ kernel stencil_5pt
//@ global 64 64
//@ local 16 8
//@ compare ulp 2
//@ arg in float 4096 random -10 10
//@ arg out float 4096
// 5-point Laplacian stencil on a 64x64 grid with clamped borders, through a __local tile with
// a one-cell halo.
__kernel void stencil_5pt(__global const float *in, __global float *out)
{
    __local float t[10][18];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1), W = get_global_size(0), H = get_global_size(1);
    for (int y = ly; y < 10; y += 8)
        for (int x = lx; x < 18; x += 16) {
            int sx = clamp((int)get_group_id(0) * 16 + x - 1, 0, W - 1);
            int sy = clamp((int)get_group_id(1) * 8 + y - 1, 0, H - 1);
            t[y][x] = in[sy * W + sx];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    float c = t[ly + 1][lx + 1];
    out[gy * W + gx] = t[ly][lx + 1] + t[ly + 2][lx + 1] + t[ly + 1][lx] + t[ly + 1][lx + 2] - 4.0f * c;
}
