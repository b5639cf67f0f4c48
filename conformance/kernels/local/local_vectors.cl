//@ kernel local_vectors
//@ global 1024
//@ local 64
//@ arg in int4 1024 random -1000 1000
//@ arg local int4 64
//@ arg local char 256
//@ arg out int4 1024
// __local buffers of vector type (int4 argument) and of char (byte-granular stores by
// neighbouring work-items), several __local arguments in one kernel.
__kernel void local_vectors(__global const int4 *in, __local int4 *lv, __local char *lc, __global int4 *out)
{
    int l = get_local_id(0), g = get_global_id(0);
    lv[l] = in[g];
    for (int k = 0; k < 4; ++k) lc[l * 4 + k] = (char)(in[g].x >> (k * 2));
    barrier(CLK_LOCAL_MEM_FENCE);
    int4 a = lv[(l + 1) & 63];
    int4 c = (int4)(lc[(l * 4 + 5) & 255], lc[(l * 4 + 6) & 255], lc[(l * 4 + 7) & 255], lc[(l * 4 + 8) & 255]);
    out[g] = a.wzyx + c;
}
