//@ kernel image_ops_uchar4
//@ global 64 64
//@ local 16 16
//@ arg in uchar4 4096 random 0 255
//@ arg out uchar4 4096
//@ arg out uchar 4096
// RGBA8 pixel processing on uchar4 buffers: brightness with saturation (add_sat), gamma-free
// grey conversion with integer weights, a horizontal flip, and alpha blending with mad24-free
// integer math.
__kernel void image_ops_uchar4(__global const uchar4 *in, __global uchar4 *out, __global uchar *grey)
{
    int x = get_global_id(0), y = get_global_id(1), W = get_global_size(0);
    uchar4 p = in[y * W + (W - 1 - x)];
    uchar4 b = add_sat(p, (uchar4)(20, 20, 20, 0));
    uint4 w = convert_uint4(b);
    grey[y * W + x] = (uchar)((w.x * 77u + w.y * 150u + w.z * 29u) >> 8);
    uint4 q = convert_uint4(in[y * W + x]);
    uint a = w.w;
    out[y * W + x] = convert_uchar4_sat((w * a + q * (255u - a)) / 255u);
}
