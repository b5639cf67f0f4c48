//@ kernel convolution_2d
//@ global 64 32
//@ local 8 8
//@ compare ulp 4
//@ arg in float 2048 random 0 1
//@ arg in float 25 random -1 1
//@ arg out float 2048
// 2-D convolution with a 5x5 filter in __constant memory, zero padding at the borders.
__kernel void convolution_2d(__global const float *img, __constant float *filt, __global float *out)
{
    int x = get_global_id(0), y = get_global_id(1), W = get_global_size(0), H = get_global_size(1);
    float acc = 0.0f;
    for (int fy = -2; fy <= 2; ++fy)
        for (int fx = -2; fx <= 2; ++fx) {
            int sx = x + fx, sy = y + fy;
            if (sx >= 0 && sx < W && sy >= 0 && sy < H)
                acc += img[sy * W + sx] * filt[(fy + 2) * 5 + fx + 2];
        }
    out[y * W + x] = acc;
}
